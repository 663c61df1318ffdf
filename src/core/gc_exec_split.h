/*
 * gc_exec_split: on a global connection, a text of several statements of
 * which one is cluster DDL (`CREATE TABLE a (...); CREATE TABLE b (...)`,
 * a set-up script's `CREATE TABLE t (...); INSERT INTO t ...`) runs
 * statement by statement, each as the application would have sent it
 * alone: the DDL on every group's primary, the others routed. Sent whole
 * to one member, the DDL of every statement but the first would have run
 * on that member's group alone.
 *
 * The text stays one unit, as PostgreSQL runs a text of several
 * statements: in autocommit it runs in a transaction of its own,
 * committed after its last statement (two-phase across groups when it
 * spans them); in an open transaction, at rollback level 2, it is undone
 * whole when one of its statements fails (a savepoint around it). A text
 * that itself controls the transaction (BEGIN, COMMIT, SAVEPOINT...) is
 * run as its statements say, nothing added. Each statement's result
 * follows through SQLMoreResults (docs/global-connection.md, "DDL").
 */
#ifndef GC_EXEC_SPLIT_H
#define GC_EXEC_SPLIT_H

#include <stdbool.h>

#include "core/gc_param.h"
#include "core/gc_stmt.h"

/* Whether s (a global connection's text of several statements) holds a
 * statement that is cluster DDL. */
bool gc_exec_split_applies(const gc_stmt *s);

/* Runs s's text statement by statement, its parameters (pv, s->nparams of
 * them) written in as literals; the results become s's. */
SQLRETURN gc_exec_split_run(gc_stmt *s, const gc_param_value *pv);

#endif
