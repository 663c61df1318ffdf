/*
 * gc_in_doubt: resolving the prepared transactions a transaction across
 * groups left behind (docs/failover.md, "In-doubt transactions").
 *
 * A participant of such a transaction is prepared under a gid that names
 * its coordinator group (gc_decision.h). When the coordinator dies between
 * the PREPAREs and the last COMMIT PREPARED, the participants stay
 * prepared, holding their locks. Whoever finds one resolves it the same
 * way: ask the coordinator group's primary for the decision
 * (gcluster.decide_commit(gid, false): "roll back" unless the coordinator
 * committed, waiting while its transaction is still open), then COMMIT or
 * ROLLBACK PREPARED on the participant. The rule: committed exactly when
 * the coordinator committed.
 *
 * The grace period: a transaction prepared less than `grace_ms` ago (by the
 * server's clock) is left alone, so that a live coordinator between its
 * PREPAREs and its COMMIT is not made to roll back. Safety never depends on
 * it (the first decision written stands); it only spares live
 * transactions. GC_IN_DOUBT_GRACE_MS is the default: a coordinator's whole
 * commit (PREPAREs, decision, COMMIT) takes milliseconds unless a server
 * hangs, and MemberTimeout, which ends a hung exchange, is usually shorter.
 *
 * Two levels, both used by the driver and by gcctl resolve:
 * gc_in_doubt_find and gc_in_doubt_settle work on plain sessions (the
 * decision step itself); gc_in_doubt_resolve_group does it for one group of
 * a global connection.
 */
#ifndef GC_IN_DOUBT_H
#define GC_IN_DOUBT_H

#include <stdbool.h>

#include "global/gc_decision.h"
#include "global/gc_global.h"
#include "member/gc_member.h"
#include "util/gc_error.h"

/* Default grace period (see above). */
#define GC_IN_DOUBT_GRACE_MS 10000
/* How long the driver waits for a coordinator's transaction that is still
 * open (the decision row's lock) before leaving the transaction for later:
 * it runs between the application's statements. */
#define GC_IN_DOUBT_DRIVER_WAIT_MS 2000

/* One prepared transaction of ours found on a participant. */
typedef struct gc_in_doubt_xact {
    char gid[GC_DECISION_GID_MAX];
    char coordinator[64];   /* the coordinator group the gid names */
    bool ripe;              /* prepared at least grace_ms ago */
    bool finishable;        /* this session's role may finish it (its owner,
                               or a superuser) */
    char owner[64];         /* the role that prepared it */
    double age_s;           /* seconds since PREPARE, by the server's clock */
} gc_in_doubt_xact;

typedef struct gc_in_doubt_list {
    gc_in_doubt_xact *items;   /* owned; free with gc_in_doubt_list_free */
    int n;
} gc_in_doubt_list;

typedef enum gc_in_doubt_outcome {
    GC_IN_DOUBT_COMMITTED,     /* the coordinator committed: COMMIT PREPARED */
    GC_IN_DOUBT_ROLLED_BACK,   /* it did not: ROLLBACK PREPARED */
    GC_IN_DOUBT_LEFT,          /* still prepared; the reason says why (retried later) */
} gc_in_doubt_outcome;

typedef struct gc_in_doubt_counts {
    int committed;
    int rolled_back;
    int left;      /* ripe, but no decision could be had or applied */
    int young;     /* prepared less than the grace ago: not looked at yet */
} gc_in_doubt_counts;

/* Lists, in one round trip on session `participant` (outside any
 * transaction), the prepared transactions of its database whose gid is one
 * of ours (gcx:, naming a coordinator group). Prepared transactions under
 * other names are not listed. False with err when the session failed;
 * *out is then empty. The caller frees *out. */
bool gc_in_doubt_find(gc_member *participant, int grace_ms, gc_in_doubt_list *out,
                      gc_error *err);
void gc_in_doubt_list_free(gc_in_doubt_list *l);

/* Bounds how long decisions asked on `coordinator` wait for a coordinator's
 * open transaction (SET lock_timeout on that session: give it a session of
 * its own, never the application's). False with err when the session
 * failed. */
bool gc_in_doubt_bound_wait(gc_member *coordinator, int wait_ms, gc_error *err);

/* The decision step: asks `coordinator` (a session on the primary of the
 * group gid names, outside any transaction) for gid's decision, then
 * finishes gid on `participant` (the session that found it; the two may be
 * the same). Returns the outcome; when LEFT, why says why (the coordinator
 * did not answer, its transaction is still open (55P03), its catalog lacks
 * decide_commit (55000), the participant failed). */
gc_in_doubt_outcome gc_in_doubt_settle(gc_member *participant, gc_member *coordinator,
                                       const char *gid, gc_error *why);

/* "committed", "rolled back" or "left". */
const char *gc_in_doubt_outcome_name(gc_in_doubt_outcome outcome);

/* Adds one outcome to counts. */
void gc_in_doubt_count(gc_in_doubt_counts *counts, gc_in_doubt_outcome outcome);

/* Between transactions (never while pinned): resolves every ripe in-doubt
 * transaction (prepared at least grace_ms ago) held by `group`'s primary,
 * through the connection's open, idle primary session of that group. Each
 * decision is asked on a short-lived session to the coordinator group's
 * primary (gc_member_open_asker), waiting at most
 * GC_IN_DOUBT_DRIVER_WAIT_MS for an open coordinator; a coordinator group
 * whose primary this connection found down is not asked (left). One round trip when
 * nothing is in doubt. *out gets the counts (young ones too). Returns
 * false with err when the group has no open, idle primary session or it
 * failed (it is then marked failed, as for a statement); the transactions
 * it could not resolve are counted in left and traced, never an error. */
bool gc_in_doubt_resolve_group(gc_global *g, int group, int grace_ms, gc_in_doubt_counts *out,
                               gc_error *err);

/* From another thread, while the application's statement on member has
 * waited on the server longer than the grace (gc_in_doubt_watch.c): the
 * same resolution for that member's server, through sessions of its own
 * (never the connection's, which is busy). Reads only what the waiting
 * connection does not change while it waits (the topology, the members'
 * connection parameters and states). Outcomes go to the trace. */
void gc_in_doubt_settle_for_waiter(gc_global *g, int member);

/* The process's in-doubt watcher (gc_in_doubt_watch.c): a global
 * connection is added when it connects (NULL on out-of-memory or when no
 * thread can start) and removed when it goes (the thread stops with the
 * last); begin / end bracket each wait of one of its statements on member's
 * server. end waits for a settlement under way. */
typedef struct gc_in_doubt_watch gc_in_doubt_watch;
gc_in_doubt_watch *gc_in_doubt_watch_add(gc_global *g);
void gc_in_doubt_watch_remove(gc_in_doubt_watch *w);
void gc_in_doubt_watch_begin(gc_in_doubt_watch *w, int member);
void gc_in_doubt_watch_end(gc_in_doubt_watch *w);

/* Between transactions: gc_in_doubt_resolve_group with
 * GC_IN_DOUBT_GRACE_MS on every group whose primary session is open and
 * idle (one round trip each when nothing is in doubt); groups without one
 * are passed over until the next check. Counts and failures go to the
 * trace only: never an error for the application. Called at every
 * catalog-version check (gc_global_follow_catalog). */
void gc_in_doubt_check(gc_global *g);

#endif
