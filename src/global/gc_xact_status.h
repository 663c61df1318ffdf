/*
 * gc_xact_status: did a transaction commit? Asked of the group's (new)
 * primary with pg_xact_status when the answer to its COMMIT was lost
 * (ARCHITECTURE.md section 5). The answer decides what the application
 * sees: committed -> success, not committed -> 40001/19068 (safe to run
 * again), unknown -> 08007 (or 40003 for an autocommit statement).
 */
#ifndef GC_XACT_STATUS_H
#define GC_XACT_STATUS_H

#include <stdbool.h>

#include "member/gc_member.h"
#include "util/gc_error.h"

typedef enum gc_xact_outcome {
    GC_XACT_COMMITTED,
    GC_XACT_NOT_COMMITTED,
    GC_XACT_UNKNOWN,
} gc_xact_outcome;

/* pg_xact_status's answer as an outcome; "in progress" counts as unknown
 * here (gc_xact_status_resolve waits for it to end first). NULL (the
 * server no longer knows such an old id) is unknown too: "not committed"
 * would allow the write to run twice. */
gc_xact_outcome gc_xact_status_classify(const char *status);

/* An id the server has never seen ("in the future": lost with a crash or a
 * failover before any of its WAL reached this server) is not committed.
 * Asks `primary` (an open session on the group's primary, UP; a standby's
 * view may lag, so a standby gives unknown) for the status of transaction
 * `xid` (decimal xid8, as pg_current_xact_id returns it). While it is 'in
 * progress' (the old session may not have ended yet on that server) asks
 * again every 50 ms for up to in_progress_wait_ms. Unknown, with err
 * filled, when the xid is empty, the question fails or the server cannot
 * tell; err is cleared otherwise. The session stays usable. */
gc_xact_outcome gc_xact_status_resolve(gc_member *primary, const char *xid,
                                       int in_progress_wait_ms, gc_error *err);

const char *gc_xact_outcome_name(gc_xact_outcome outcome);

#endif
