/*
 * gc_exec_split: on a global connection, a text of several statements that
 * one member cannot run alone runs statement by statement, each as the
 * application would have sent it alone: the DDL on every group's primary,
 * the others routed. That is a text of which one statement is cluster DDL
 * (`CREATE TABLE a (...); CREATE TABLE b (...)`, a set-up script's
 * `CREATE TABLE t (...); INSERT INTO t ...`), whose DDL but the first's
 * would have run on that member's group alone; and a text whose writes do
 * not keep to one group (`INSERT INTO a ...; INSERT INTO b ...`, a and b
 * solo tables of two groups: gc_global_text_writes_apart), whose writes of
 * the other groups the cluster would refuse; and, in a transaction that
 * wrote on more than one member, a text that would read through
 * postgres_fdw what it wrote on another (gc_global_text_misses_writes),
 * unless it controls the transaction itself.
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
 * statement that is cluster DDL, writes apart, or would miss the
 * transaction's writes. */
bool gc_exec_split_applies(const gc_stmt *s);

/* Runs s's text statement by statement, its parameters (pv, s->nparams of
 * them) written in as literals; the results become s's. */
SQLRETURN gc_exec_split_run(gc_stmt *s, const gc_param_value *pv);

#endif
