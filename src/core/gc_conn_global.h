/*
 * gc_conn_global: the ODBC connection's side of following the cluster's
 * catalog version, of the global session, and of ALTER SYSTEM RECONNECT
 * GLOBAL CONNECTION (the statement's recognition is gc_reconnect_stmt.h).
 * docs/global-connection.md, "Topology changes".
 */
#ifndef GC_CONN_GLOBAL_H
#define GC_CONN_GLOBAL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/gc_conn.h"

/* Opens the global connection described by c->settings with `params` as
 * every member's template (the global kind's open: it becomes c's kind);
 * adds 01000 naming members that did not answer. */
SQLRETURN gc_conn_open_global(gc_conn *c, const gc_member_params *params);
/* Closes every member session (the global kind's close: what they had
 * open was rolled back before, gc_conn_disconnect). */
void gc_conn_close_global(gc_conn *c);

/* Call before routing each statement of a global connection. Between
 * transactions (nothing pinned, no SQL BEGIN held back) it takes queued
 * gcluster notifications without a round trip and, when one says the
 * version is newer or TopologyRefresh seconds have passed, checks the
 * version and follows it (gc_global_follow_catalog). Never fails the statement:
 * a failed reload keeps the last good topology (traced). */
void gc_conn_global_between_transactions(gc_conn *c);

/* A catalog function names table `table` of `schema` (NULL: the
 * search_path's): when it is a solo table, a member of its owner group
 * becomes the connection's session (the global kind's catalog_on_owner,
 * gc_catalog_owner.c). In an open transaction on another group, that is
 * the group's member holding part of the transaction, else one that
 * answers outside it: true then. Never fails the catalog function: a
 * member that cannot be opened leaves the current one, which answers for
 * the table too. */
bool gc_conn_global_use_owner(gc_conn *c, const char *schema, const char *table);

/* --- the global session (GlobalSession=Yes, gc_session_pool.h) --- */

/* Between ODBC calls (the global kind's between_calls): when c shares member sessions and holds no
 * transaction (no pin, no SQL BEGIN held back, no member session in one)
 * and no statement streams a result, every member session it holds goes
 * back to the pool. No-op otherwise. */
void gc_conn_global_idle(gc_conn *c);
/* Before running something on c->session outside routing (catalog
 * functions, large objects, connection attributes): a member session given
 * back is borrowed again, with the connection's session characteristics
 * and settings. False with err when the member does not answer. */
bool gc_conn_global_hold_session(gc_conn *c, gc_error *err);

/* ALTER SYSTEM RECONNECT GLOBAL CONNECTION on connection c: raises the
 * catalog version on every group's primary, reopens every member session.
 * Errors go to diag: 25000 inside a transaction, the server's 42501 without
 * the admin grant (the global kind's reconnect; a general connection's
 * answers HY000). */
SQLRETURN gc_conn_reconnect_global(gc_conn *c, gc_diag *diag);

#endif
