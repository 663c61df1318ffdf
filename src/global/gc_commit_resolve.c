/*
 * gc_commit_resolve: see gc_commit_resolve.h.
 */
#include "global/gc_commit_resolve.h"

#include <assert.h>
#include <time.h>

#include "global/gc_global_internal.h"
#include "util/gc_clock.h"

/* Asks member j once through a session of its own. *decisive as for
 * gc_xact_status_resolve_on (false when it could not be asked). */
static gc_xact_outcome ask_member(gc_global *g, int j, const char *xid, const char *started,
                                  int wait_ms, bool *decisive, gc_error *err)
{
    *decisive = false;
    gc_member *asker = gc_member_open_asker(g->members[j], err);
    if (asker == NULL)
        return GC_XACT_UNKNOWN;
    gc_xact_outcome outcome = gc_xact_status_resolve_on(asker, xid, started, wait_ms,
                                                        decisive, err);
    gc_member_destroy(asker);
    return outcome;
}

gc_xact_outcome gc_global_resolve_commit(gc_global *g, int i, const gc_member_xid_run *run,
                                         int wait_ms, gc_error *err)
{
    assert(i >= 0 && i < g->topo.n_members && run != NULL);
    gc_error_clear(err);
    if (run->xid[0] == '\0') {
        gc_error_set(err, "08007", 0, "the transaction id never arrived");
        return GC_XACT_UNKNOWN;
    }
    int group = g->topo.members[i].group;
    long long deadline = gc_clock_ms() + wait_ms;
    int rounds = 0;
    for (;;) {
        rounds++;
        /* Member i first, then the rest of its group in catalog order. */
        for (int k = -1; k < g->topo.n_members; k++) {
            int j = k < 0 ? i : k;
            if ((k >= 0 && j == i) || g->topo.members[j].group != group)
                continue;
            long long left = deadline - gc_clock_ms();
            bool decisive;
            gc_error why;
            gc_error_clear(&why);
            gc_xact_outcome outcome =
                ask_member(g, j, run->xid, j == i ? run->started : NULL,
                           left > 0 ? (int)left : 0, &decisive, &why);
            /* Every answer at INFO; the unanswered rounds only at DEBUG
             * (a group that stays down makes up to 50 of them). */
            gc_trace_write(g->trace, decisive ? GC_TRACE_INFO : GC_TRACE_DEBUG,
                           "transaction %s (member %s): asked %s: %s%s%s", run->xid,
                           g->topo.members[i].name, g->topo.members[j].name,
                           decisive ? gc_xact_outcome_name(outcome) : "no answer",
                           why.message[0] ? ": " : "", why.message);
            if (decisive) {
                *err = why;
                return outcome;
            }
            *err = why;
            if (gc_clock_ms() >= deadline)
                break;
        }
        if (gc_clock_ms() >= deadline)
            break;
        struct timespec pause = { .tv_sec = 0, .tv_nsec = 100 * 1000000L };
        nanosleep(&pause, NULL);
    }
    gc_error last = *err;
    gc_error_set(err, "08007", 0,
                 "no primary of group %s could tell within %d ms whether transaction %s "
                 "committed (%d rounds; last: %s)", g->topo.groups[group].name, wait_ms,
                 run->xid, rounds, last.message[0] ? last.message : "no answer");
    return GC_XACT_UNKNOWN;
}
