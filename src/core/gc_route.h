/*
 * gc_route: what the execution path asks the routing layer after a
 * statement failed on a global connection (docs/failover.md). Routing a
 * statement itself (gc_route_statement, gc_route_done) is declared with the
 * statement, in gc_stmt.h.
 */
#ifndef GC_ROUTE_H
#define GC_ROUTE_H

#include <stdbool.h>

#include "core/gc_stmt.h"

/* Whether the statement that just failed in SQLExecute / SQLExecDirect may
 * run again elsewhere silently: a global connection in autocommit, no
 * transaction open, the statement read-only by analysis, and its member
 * went down (so the failure was the member's, not the statement's). No
 * row has reached the application yet (the failure came while executing). */
bool gc_route_may_rerun(const gc_stmt *s);

/* How long an autocommit row write whose group takes no writes yet keeps
 * being sent again (gc_route_group_not_writable): longer than
 * pg_auto_failover needs to promote a standby and make it writable (its
 * failure detection, then primary_demote_timeout, 5 s as gcctl sets it
 * up: writes came back 7-10 s after a primary's kill -9). */
#define GC_ROUTE_NOT_WRITABLE_WAIT_MS 10000

/* Whether the row write (INSERT, UPDATE, DELETE, MERGE) that just failed
 * did so because its group takes no writes at the moment, nothing applied,
 * so that it may be sent again, routed afresh: a global connection in
 * autocommit with no transaction open and read-write access mode, and the
 * server's answer was 25006 (refused as read-only: a standby whose role the
 * connection had not seen, or one promoted moments ago that
 * pg_auto_failover keeps read-only until the old primary must have
 * stopped) or 08001 (the write went by policy to another group, whose
 * postgres_fdw could not reach the rows' group: its primary is gone). The
 * refused statement's implicit transaction applied nothing
 * (docs/failover.md). */
bool gc_route_group_not_writable(const gc_stmt *s);

/* After a fetch failed (SQLFetch, SQLMoreResults): when the statement's
 * member went down, the member is marked down and the diagnostics become
 * what the application can act on. Rows have already reached it, so
 * nothing runs again here: a transaction is lost (40001 / 19068); an
 * autocommit read gets 40001 / 19068 too (running it again is safe); an
 * autocommit write returning rows gets 40003 (it commits after its last
 * row, so it may have). A statement's own error is left as it is. */
void gc_route_fetch_failed(gc_stmt *s);

#endif
