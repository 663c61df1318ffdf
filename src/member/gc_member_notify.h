/*
 * gc_member_notify: asynchronous notifications (LISTEN/NOTIFY) on a member
 * session, for the global connection's topology refresh (channel
 * `gcluster`, docs/cluster.md). libpq queues a notification whenever it
 * reads the session's input, with any result; these functions take what is
 * queued without a round trip.
 */
#ifndef GC_MEMBER_NOTIFY_H
#define GC_MEMBER_NOTIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "member/gc_member.h"

/* Reads what the server already sent (no round trip, never blocks) and takes
 * every queued notification of `channel`. Returns true when there was at
 * least one; *highest gets the highest payload read as an integer (-1 when
 * no payload was a number). Does nothing on a closed session or one with a
 * statement in flight. */
bool gc_member_take_notifications(gc_member *m, const char *channel, int64_t *highest);

/* Whether a statement sent on the session still has results to collect: the
 * session cannot run anything else until they are collected. */
bool gc_member_busy(const gc_member *m);

#endif
