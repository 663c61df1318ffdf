/*
 * gc_ddl_exec: the core's side of cluster-wide DDL on a global connection
 * (global/gc_ddl.h does the work). Statements the analyzer classifies as
 * DDL are taken out of routing here and run on every group's primary.
 */
#ifndef GC_DDL_EXEC_H
#define GC_DDL_EXEC_H

#include <stdbool.h>

#include "core/gc_stmt.h"

/* True when s, on a global connection, is DDL that does not run on one
 * member (cluster-wide, or refused): gc_ddl_exec_statement must run it. */
bool gc_ddl_exec_is_cluster_wide(const gc_stmt *s);
/* The same for one statement's text sql on c, whatever kind of statement
 * it is (a part of a text of several statements: gc_exec_split.h). */
bool gc_ddl_exec_text_is_cluster_wide(const gc_conn *c, const char *sql);

/* Runs (or refuses) the DDL of s on every group's primary; its command
 * result becomes the statement's result. Diagnostics go to s. */
SQLRETURN gc_ddl_exec_statement(gc_stmt *s);

/* Shared by the statements that run on several groups' primaries at once
 * (this DDL, and writes across groups: gc_span_exec.h). */

/* Whether c has a transaction open: autocommit off, a BEGIN sent in SQL
 * (held back or already on a member). */
bool gc_across_in_transaction(const gc_conn *c);
/* Such a statement failed inside the open transaction, and was undone on
 * every member unless rolled_back (the whole transaction went: err then
 * says so). At rollback level 1 the whole transaction is rolled back
 * (err says so); at level 0 one that reached the servers (sent) leaves it
 * aborted, as one server would (gc_global_leave_aborted); at level 2 it
 * goes on. */
void gc_across_failed_in_transaction(gc_conn *c, bool rolled_back, bool sent, gc_error *err);
/* The connection's session becomes the open transaction's pinned member. */
void gc_across_use_pin(gc_conn *c);
/* Reports err as the statement's only diagnostic (the notices on the way
 * dropped) and returns SQL_ERROR. */
SQLRETURN gc_across_error(gc_stmt *s, const gc_error *err);

#endif
