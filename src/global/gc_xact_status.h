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

#include "global/gc_outcome.h"   /* gc_xact_outcome */
#include "member/gc_member.h"
#include "util/gc_error.h"

const char *gc_xact_outcome_name(gc_xact_outcome outcome);

/* What pg_xact_status said, before the incarnation rule is applied. */
typedef enum gc_xact_answer {
    GC_XACT_ANSWER_COMMITTED,
    GC_XACT_ANSWER_ABORTED,
    GC_XACT_ANSWER_IN_PROGRESS,
    GC_XACT_ANSWER_FUTURE,       /* 22023: the id is "in the future" there */
    GC_XACT_ANSWER_NONE,         /* NULL (too old to know), or anything new */
} gc_xact_answer;

/* pg_xact_status's text (NULL for SQL NULL) as an answer. */
gc_xact_answer gc_xact_answer_parse(const char *status);

/* The incarnation rule. An id that was never made durable may be handed
 * out again after a crash restart or a promotion, so an answer is about
 * *our* transaction only on the incarnation it ran on (same member, same
 * postmaster start time): there, committed -> committed, aborted or
 * future -> not committed. On another incarnation (the member restarted,
 * or another member was promoted), aborted or future still mean ours did
 * not commit (had it committed durably, that history would hold its commit
 * and the id could not have been reused), but committed or in progress may
 * be another transaction's: unknown. In progress on the same incarnation
 * is unknown here (the caller waits for the old session to end first). */
gc_xact_outcome gc_xact_status_decide(gc_xact_answer answer, bool same_incarnation);

/* Asks `server` (an open session; see gc_member_open_asker) about `xid`
 * with the incarnation rule: `started` is the postmaster start time the
 * transaction ran under when `server` is the member it ran on, NULL for
 * any other member. One round trip: pg_xact_status, the server's start
 * time and whether it is in recovery. While it is in progress on the same
 * incarnation, asks again every 50 ms for up to in_progress_wait_ms.
 * *decisive is false when this server could not be asked (no answer, or a
 * standby: its view may lag), so another server may be; true when its
 * answer, even unknown, is final. err says why when unknown. */
gc_xact_outcome gc_xact_status_resolve_on(gc_member *server, const char *xid,
                                          const char *started, int in_progress_wait_ms,
                                          bool *decisive, gc_error *err);

#endif
