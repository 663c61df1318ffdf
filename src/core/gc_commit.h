/*
 * gc_commit: commits whose answer may be lost, on a global connection
 * (ARCHITECTURE.md section 5, docs/failover.md "A COMMIT whose answer was
 * lost"). A COMMIT (SQL COMMIT/END, or SQLEndTran(SQL_COMMIT)) and an
 * autocommit write are sent with their transaction id in the same
 * exchange (gc_member_xid.c); when the answer is lost the id is resolved
 * with pg_xact_status (gc_commit_resolve.c) and the application sees:
 *
 *   COMMIT:  committed -> success; wrote nothing -> 01000 (success with
 *            info); not committed -> 40001 / 19068; cannot tell -> 08007.
 *   write:   committed -> 01000 (success, with the statement's own
 *            answer: its row count, a RETURNING's rows);
 *            not committed -> run again elsewhere, silently;
 *            cannot tell -> 40003. Never 19068.
 *
 * A general connection never comes here. What to send, the id, settling
 * a lost answer, the pin and the member's state are the global
 * connection's (global/gc_global_commit.h); this module sends the write
 * (its server statement and twin are the handle's), and puts the results
 * and the diagnostics it hands back on the handle.
 */
#ifndef GC_COMMIT_H
#define GC_COMMIT_H

#include <stdbool.h>

#include "core/gc_conn.h"
#include "core/gc_stmt.h"

/* Whether this execution of s is an autocommit write sent with its
 * transaction id: global connection, autocommit, no transaction open or
 * held back, INSERT/UPDATE/DELETE/MERGE by analysis, one statement
 * (with the statement mark or without: the mark goes first in its
 * pipeline). A
 * write with RETURNING too: its rows arrive in full before it commits, so
 * they are held by the driver (not streamed) and survive a lost answer. */
bool gc_commit_write_applies(const gc_stmt *s);

/* After s's server statement was made on member session m: makes its
 * twin there too when the write may return its transaction id itself
 * (GC_XID_RETURNED: a global connection resolving lost writes, and an
 * INSERT, UPDATE or DELETE whose analysis says where RETURNING can go).
 * The twin is the text up to that place plus GC_XID_RETURNING, named after
 * the server statement with an "x", same parameter types; one round trip,
 * once per server statement and session, only on an idle session (a
 * refused PREPARE would abort a transaction). A refused twin (say, a
 * view's rule without RETURNING), or a server statement made inside a
 * transaction, goes without one for good: its writes keep the id query. */
void gc_commit_prepare_twin(gc_stmt *s, gc_session *m);

/* Runs the autocommit write s on member session m (the routed one): the
 * text sql, through s's server statement stmt_name (prepared there) unless
 * NULL. Sends, resolves a lost answer, sets s's result and diagnostics,
 * and does the routing bookkeeping (gc_route_done). SQL_ERROR with
 * gc_global_rerun_safe set when it certainly did not commit and its
 * member failed. */
SQLRETURN gc_commit_run_write(gc_stmt *s, gc_session *m, const char *sql,
                              const char *stmt_name, int nparams, const Oid *types,
                              const char *const *values, const int *lengths,
                              const int *formats);

/* Whether s is a SQL COMMIT/END of the open transaction of a global
 * connection that gc_commit_run_sql can send (not COMMIT AND CHAIN, the
 * transaction not failed). */
bool gc_commit_sql_applies(const gc_stmt *s);
/* After the transaction `serial` (gc_global_txn_serial, read before its
 * end) ended, committed or not: its SETs go to every member session, or
 * are dropped (gc_global_txn_settings_ended); a warning of that goes on
 * diag. Returns rc, SQL_SUCCESS_WITH_INFO for SQL_SUCCESS with a warning. */
SQLRETURN gc_commit_settings_ended(gc_conn *c, unsigned long serial, bool committed,
                                   gc_diag *diag, SQLRETURN rc);
SQLRETURN gc_commit_run_sql(gc_stmt *s);

/* COMMIT of a global connection's transaction that joined members of
 * other groups or ran cluster DDL (gc_global_commit_spread): success,
 * success with 01000, or the error (40000, 40001 / 19068, 08007...) in
 * diag. The pin is released. */
SQLRETURN gc_commit_spread(gc_conn *c, gc_diag *diag);

/* SQLEndTran(SQL_COMMIT) of the transaction pinned to member i of a global
 * connection. Diagnostics go to c. The pin is released. */
SQLRETURN gc_commit_end_tran(gc_conn *c, int i);

#endif
