/*
 * gc_route_failover: what the execution path asks the routing layer after
 * a statement failed on a global connection (docs/failover.md).
 */
#ifndef GC_ROUTE_FAILOVER_H
#define GC_ROUTE_FAILOVER_H

#include <stdbool.h>

#include "core/gc_stmt.h"

/* Whether the statement that just failed in SQLExecute / SQLExecDirect may
 * run again elsewhere silently: a global connection in autocommit, no
 * transaction open, the statement read-only by analysis, and its member
 * went down (so the failure was the member's, not the statement's). No
 * row has reached the application yet (the failure came while executing). */
bool gc_route_may_rerun(const gc_stmt *s);

/* After a fetch failed (SQLFetch, SQLMoreResults): when the statement's
 * member went down, the member is marked down and the diagnostics become
 * what the application can act on. Rows have already reached it, so
 * nothing runs again here: a transaction is lost (40001 / 19068); an
 * autocommit read gets 40001 / 19068 too (running it again is safe); an
 * autocommit write returning rows gets 40003 (it commits after its last
 * row, so it may have). A statement's own error is left as it is. */
void gc_route_fetch_failed(gc_stmt *s);

#endif
