/*
 * gc_route_session: the statements of a global connection that the driver
 * handles itself before routing: session-level SET / RESET (run on every
 * member session; inside a transaction, on its members until it commits),
 * and a BEGIN sent in SQL with autocommit on (held back until the first
 * statement that can choose the member). See
 * global/gc_global_settings.h and docs/global-connection.md.
 */
#ifndef GC_ROUTE_SESSION_H
#define GC_ROUTE_SESSION_H

#include <stdbool.h>

#include "core/gc_stmt.h"

/* True when s (analyzed, about to execute) was handled here: *rc then holds
 * the execution's return code (an empty command result on success, the
 * diagnostics on s on error). False when s goes through routing as usual. */
bool gc_route_session_control(gc_stmt *s, SQLRETURN *rc);

/* Whether s is a session-level SET / RESET inside a transaction that holds
 * a member: it runs there like any statement, and belongs to the
 * transaction (gc_global_txn_setting_add, after it succeeded). */
bool gc_route_session_sets_in_transaction(const gc_stmt *s);

#endif
