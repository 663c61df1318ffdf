/*
 * gc_member_notify: takes queued LISTEN/NOTIFY notifications of a member
 * session (see gc_member_notify.h).
 */
#include "member/gc_member_notify.h"

#include <stdlib.h>
#include <string.h>

#include "member/gc_member_internal.h"

bool gc_member_take_notifications(gc_member *m, const char *channel, int64_t *highest)
{
    *highest = -1;
    if (m->conn == NULL || m->in_flight)
        return false;
    /* Non-blocking: reads only what already arrived on the socket. A broken
     * session is found by the next statement, not here. */
    if (!PQconsumeInput(m->conn))
        return false;
    bool any = false;
    PGnotify *n;
    while ((n = PQnotifies(m->conn)) != NULL) {
        if (strcmp(n->relname, channel) == 0) {
            any = true;
            char *end = NULL;
            long long v = strtoll(n->extra, &end, 10);
            if (end != n->extra && *end == '\0' && v > *highest)
                *highest = v;
        }
        PQfreemem(n);
    }
    return any;
}

bool gc_member_busy(const gc_member *m)
{
    return m->in_flight;
}
