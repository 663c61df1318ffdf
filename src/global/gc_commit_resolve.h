/*
 * gc_commit_resolve: what became of a transaction whose commit answer was
 * lost on a global connection (ARCHITECTURE.md section 5,
 * docs/failover.md "A COMMIT whose answer was lost"). Asks pg_xact_status
 * on the member the transaction ran on, or on its group's current primary,
 * through a short-lived session of its own (the member's session is not
 * touched, so routing never goes back to a failed member because of it).
 */
#ifndef GC_COMMIT_RESOLVE_H
#define GC_COMMIT_RESOLVE_H

#include "global/gc_global.h"
#include "global/gc_xact_status.h"
#include "member/gc_member.h"

/* How long a resolution may take in all (connect attempts, waiting for the
 * old session to end), in milliseconds: long enough for a crashed server
 * to restart or a standby to be promoted by an operator script (both take
 * well under a second on the test machine), short enough that an
 * application is not held for long when the group stays down. */
#define GC_COMMIT_RESOLVE_WAIT_MS 5000

/* Resolves run (outcome GC_XID_UNKNOWN, from member i) within wait_ms:
 * committed, not committed, or unknown with err (08007) saying why.
 * Tries member i first (the only place where "committed" can be trusted,
 * and only if it is the same incarnation), then the other members of its
 * group that are primaries, again every 100 ms until one answers or
 * wait_ms has passed. */
gc_xact_outcome gc_global_resolve_commit(gc_global *g, int i, const gc_member_xid_run *run,
                                         int wait_ms, gc_error *err);

#endif
