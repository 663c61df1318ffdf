/*
 * gc_global_failover: the global connection's side of failover
 * (docs/failover.md): a member found dead is marked down and given a
 * reconnect schedule (gc_backoff); between transactions a down member whose
 * retry is due gets a connect attempt that is only ever advanced, never
 * waited for (gc_member_connect_begin / _advance), so a member that accepts
 * TCP and never answers does not hold up the application's statements; the
 * attempt ends when the server answers, fails, or ConnectTimeout passes,
 * and once the member is back the router may choose it. When a statement
 * has nowhere better to run, each down member gets one try ahead of its
 * schedule (gc_global_retry_early). It also keeps
 * the "transaction lost" mark: the open transaction's member failed, so
 * the application is told 40001 / 19068 until it rolls back. For commit
 * resolution (gc_commit_resolve.h) it also keeps whether the last
 * autocommit write is known not to have committed (so it may run again).
 *
 * The schedules are kept by member session (not by index) because
 * following a new catalog version may renumber the members.
 */
#include "global/gc_global_internal.h"

#include <assert.h>
#include <stdlib.h>
#include <time.h>

#include "global/gc_backoff.h"
#include "global/gc_outcome.h"
#include "util/gc_clock.h"

#define GC_FAILOVER_MAX_DELAY_MS 60000

/* How long the statement that starts a reconnect waits for the member's
 * handshake: a server that is up answers within it, and is back for that
 * very statement (which may need it: a group's only primary); one that
 * accepts and never answers costs that one statement this much per backoff
 * step, and every later statement nothing (docs/failover.md,
 * "Reconnecting"). At least 100 ms (a local network's handshake takes a few
 * milliseconds); three times the member's last handshake where that took
 * longer (a distant or loaded server), but never more than a second. */
#define GC_RECONNECT_GRACE_MIN_MS 100
#define GC_RECONNECT_GRACE_MAX_MS 1000

static int reconnect_grace_ms(const gc_member *m)
{
    long long grace = 3LL * gc_member_handshake_ms(m);
    if (grace < GC_RECONNECT_GRACE_MIN_MS)
        return GC_RECONNECT_GRACE_MIN_MS;
    return grace > GC_RECONNECT_GRACE_MAX_MS ? GC_RECONNECT_GRACE_MAX_MS : (int)grace;
}

/* The longer of so_far and member m's grace (attempts waited for together). */
static int longest_grace(int so_far, const gc_member *m)
{
    int grace = reconnect_grace_ms(m);
    return grace > so_far ? grace : so_far;
}

typedef struct failover_entry {
    const gc_member *member;    /* borrowed: one of g->members */
    gc_backoff backoff;
    bool armed;                 /* the member was found down: schedule running */
    gc_member_connecting *attempt; /* the reconnect in flight (owned), or NULL */
} failover_entry;

struct gc_global_failover {
    long long initial_ms;       /* ReconnectInterval */
    failover_entry *entries;
    int n, cap;
    bool txn_lost;              /* the pinned transaction's member failed */
    bool rerun_safe;            /* the last autocommit write resolved as not committed */
};

bool gc_global_failover_init(gc_global *g, int reconnect_interval_s)
{
    g->failover = calloc(1, sizeof *g->failover);
    if (g->failover == NULL)
        return false;
    g->failover->initial_ms = reconnect_interval_s > 0 ? reconnect_interval_s * 1000LL : 1000;
    return true;
}

void gc_global_failover_free(gc_global *g)
{
    if (g->failover == NULL)
        return;
    for (int i = 0; i < g->failover->n; i++)
        gc_member_connect_end(g->failover->entries[i].attempt);
    free(g->failover->entries);
    free(g->failover);
    g->failover = NULL;
}

/* The schedule of session m, made when first asked for; NULL on
 * out-of-memory (the member is then simply not retried). */
static failover_entry *entry_of(gc_global *g, const gc_member *m)
{
    struct gc_global_failover *f = g->failover;
    for (int i = 0; i < f->n; i++)
        if (f->entries[i].member == m)
            return &f->entries[i];
    /* Forget sessions the topology no longer has before growing. */
    int kept = 0;
    for (int i = 0; i < f->n; i++) {
        if (gc_global_member_index(g, f->entries[i].member) >= 0)
            f->entries[kept++] = f->entries[i];
        else
            gc_member_connect_end(f->entries[i].attempt);
    }
    f->n = kept;
    if (f->n == f->cap) {
        int cap = f->cap > 0 ? 2 * f->cap : 8;
        failover_entry *grown = realloc(f->entries, (size_t)cap * sizeof *grown);
        if (grown == NULL)
            return NULL;
        f->entries = grown;
        f->cap = cap;
    }
    failover_entry *e = &f->entries[f->n++];
    e->member = m;
    e->armed = false;
    e->attempt = NULL;
    gc_backoff_init(&e->backoff, f->initial_ms, GC_FAILOVER_MAX_DELAY_MS,
                    (uint64_t)(uintptr_t)m ^ (uint64_t)gc_clock_ms());
    return e;
}

/* The member was found down: its schedule starts now (the first retry
 * after ReconnectInterval). */
static void arm(failover_entry *e, long long now)
{
    e->armed = true;
    gc_backoff_failed(&e->backoff, now);
}

void gc_global_member_failed(gc_global *g, int i, unsigned long generation,
                             const gc_error *why)
{
    assert(i >= 0 && i < g->topo.n_members);
    gc_member *m = g->members[i];
    bool was_open = gc_member_is_open(m);
    if (was_open && !gc_member_mark_down(m, generation, why))
        return;   /* a late failure of an older session: the member is fine */
    failover_entry *e = entry_of(g, m);
    if (e != NULL && was_open && e->armed) {
        /* Another connect opened the member since its last failure (the
         * whole connection reopened, or on demand): that was its success,
         * so this failure starts a new schedule, with its own early try. A
         * connect of the old schedule still in flight is dropped. A member
         * that was not open keeps its schedule and attempt. */
        gc_member_connect_end(e->attempt);
        e->attempt = NULL;
        gc_backoff_succeeded(&e->backoff);
        e->armed = false;
    }
    if (e != NULL && !e->armed)
        arm(e, gc_clock_ms());
    gc_trace_write(g->trace, GC_TRACE_INFO, "member %s is down (%s)%s",
                   g->topo.members[i].name,
                   why != NULL && why->message[0] != '\0' ? why->message : "session lost",
                   g->pinned == i || gc_global_holds_transaction(g, i)
                       ? ": its transaction is lost" : "");
    if (g->pinned == i || gc_global_holds_transaction(g, i)) {
        /* Its part of the transaction is gone, so is the transaction: the
         * parts on other members are rolled back now, never committed. */
        g->failover->txn_lost = true;
        gc_global_spread_abandon(g);
        if (g->pinned >= 0 && g->pinned != i && gc_member_is_open(g->members[g->pinned])) {
            gc_error ignored;
            gc_error_clear(&ignored);
            PQclear(gc_member_exec(g->members[g->pinned], "ROLLBACK", &ignored));
        }
        g->pinned = -1;
        g->n_reaching = 0;
        gc_global_forget_joined_writes(g);
        g->txn_serial++;
    }
    gc_global_sync_router(g);
}

void gc_global_failover_forget(gc_global *g, const gc_member *m)
{
    struct gc_global_failover *f = g->failover;
    if (f == NULL)
        return;
    for (int i = 0; i < f->n; i++) {
        if (f->entries[i].member != m)
            continue;
        gc_member_connect_end(f->entries[i].attempt);
        f->entries[i] = f->entries[--f->n];
        return;
    }
}

/* The connection's session characteristics on a reconnected session.
 * When the member refuses them the session is closed and the member stays
 * down (false, err filled): a session without them must not serve. */
static bool run_setup(gc_member *m, const char *setup_sql, gc_error *err)
{
    if (setup_sql == NULL)
        return true;
    PGresult *res = gc_member_exec(m, setup_sql, err);
    if (res != NULL) {
        PQclear(res);
        return true;
    }
    gc_member_mark_down(m, gc_member_generation(m), err);
    gc_member_close(m);
    return false;
}

/* Member i's reconnect attempt failed: the schedule goes on. */
static void attempt_failed(gc_global *g, int i, failover_entry *e, const char *why,
                           long long now)
{
    gc_backoff_failed(&e->backoff, now);
    gc_trace_write(g->trace, GC_TRACE_INFO, "member %s still down (%s): next try in %lld ms",
                   g->topo.members[i].name, why, gc_backoff_due_at(&e->backoff) - now);
}

/* Advances member i's reconnect attempt (waiting at most wait_ms) and,
 * when it has ended, ends it: a member that answered gets the connection's
 * setup SQL and is routable again (true: the router must be told);
 * otherwise the backoff schedule goes on. */
static bool advance_attempt(gc_global *g, int i, failover_entry *e, int wait_ms,
                            const char *setup_sql)
{
    gc_member *m = g->members[i];
    gc_error err;
    gc_error_clear(&err);
    gc_connect_progress p = gc_member_connect_advance(e->attempt, wait_ms, &err);
    if (p == GC_CONNECT_PENDING)
        return false;
    gc_member_connect_end(e->attempt);
    e->attempt = NULL;
    /* The setup is one round trip to a server that has just answered the
     * whole handshake; a session without it must not serve. */
    if (p == GC_CONNECT_DONE && run_setup(m, setup_sql, &err)) {
        gc_backoff_succeeded(&e->backoff);
        e->armed = false;
        g->connect_order[i] = g->n_opened++;
        gc_trace_write(g->trace, GC_TRACE_INFO, "member %s is back (generation %lu)",
                       g->topo.members[i].name, gc_member_generation(m));
        return true;
    }
    attempt_failed(g, i, e, err.message, gc_clock_ms());
    return false;
}

/* Starts member i's reconnect, its backoff slot claimed: true when the
 * connect is under way (advance it), false when it could not even begin
 * (the slot is given back as a failure). */
static bool start_attempt(gc_global *g, int i, failover_entry *e, long long now)
{
    gc_error err;
    gc_error_clear(&err);
    e->attempt = gc_member_connect_begin(g->members[i], &err);
    if (e->attempt == NULL) {
        attempt_failed(g, i, e, err.message, now);
        return false;
    }
    gc_trace_write(g->trace, GC_TRACE_DEBUG, "member %s: reconnect started",
                   g->topo.members[i].name);
    return true;
}

/* Between transactions, for every down member: advances its reconnect
 * attempt without waiting, or starts one when its retry is due (waiting
 * only the short grace for its handshake). A server that does not answer
 * therefore never holds a statement for its ConnectTimeout. */
void gc_global_retry_down_members(gc_global *g, const char *setup_sql)
{
    if (g->failover == NULL || g->pinned >= 0)
        return;
    long long now = -1;
    bool changed = false;
    for (int i = 0; i < g->topo.n_members; i++) {
        gc_member *m = g->members[i];
        /* Only a DOWN member is retried; its state alone says so (an open
         * session is UP), without asking libpq on every statement. */
        if (gc_member_get_state(m) != GC_MEMBER_DOWN)
            continue;
        if (now < 0)
            now = gc_clock_ms();
        failover_entry *e = entry_of(g, m);
        if (e == NULL)
            continue;
        if (e->attempt != NULL) {
            changed |= advance_attempt(g, i, e, 0, setup_sql);
            continue;
        }
        if (!e->armed) {
            arm(e, now);   /* found down elsewhere (a statement's session broke) */
            continue;
        }
        if (!gc_backoff_begin_attempt(&e->backoff, now))
            continue;
        if (start_attempt(g, i, e, now))
            changed |= advance_attempt(g, i, e, reconnect_grace_ms(m), setup_sql);
    }
    if (changed)
        gc_global_sync_router(g);
}

/* See gc_global.h. All attempts start first, then share one grace period
 * (the longest of theirs), so several frozen members cost the statement
 * one grace, not one each. */
bool gc_global_retry_early(gc_global *g, const char *setup_sql)
{
    if (g->failover == NULL || g->pinned >= 0)
        return false;
    long long now = gc_clock_ms();
    bool started = false;
    int grace_ms = 0;
    for (int i = 0; i < g->topo.n_members; i++) {
        gc_member *m = g->members[i];
        /* Only a DOWN member is retried; its state alone says so (an open
         * session is UP), without asking libpq on every statement. */
        if (gc_member_get_state(m) != GC_MEMBER_DOWN)
            continue;
        failover_entry *e = entry_of(g, m);
        if (e == NULL)
            continue;
        if (e->attempt != NULL) {
            /* Already reconnecting (begun on its schedule, or when the
             * catalog-version check found the session gone): waited for
             * in the same grace. */
            started = true;
            grace_ms = longest_grace(grace_ms, m);
            continue;
        }
        if (!e->armed)
            arm(e, now);
        if (!gc_backoff_begin_early(&e->backoff))
            continue;
        gc_trace_write(g->trace, GC_TRACE_INFO, "member %s: retried ahead of its schedule "
                       "(the statement has nowhere better to run)", g->topo.members[i].name);
        if (start_attempt(g, i, e, now)) {
            started = true;
            grace_ms = longest_grace(grace_ms, m);
        }
    }
    if (!started)
        return false;
    long long until = now + grace_ms;
    bool back = false;
    for (int i = 0; i < g->topo.n_members; i++) {
        if (gc_member_is_open(g->members[i]))
            continue;
        failover_entry *e = entry_of(g, g->members[i]);
        if (e == NULL || e->attempt == NULL)
            continue;
        long long left = until - gc_clock_ms();
        back |= advance_attempt(g, i, e, left > 0 ? (int)left : 0, setup_sql);
    }
    if (back)
        gc_global_sync_router(g);
    return back;
}

bool gc_global_txn_lost(const gc_global *g)
{
    return g->failover != NULL && g->failover->txn_lost;
}

void gc_global_mark_txn_lost(gc_global *g)
{
    if (g->failover != NULL)
        g->failover->txn_lost = true;
}

void gc_global_clear_txn_lost(gc_global *g)
{
    if (g->failover != NULL)
        g->failover->txn_lost = false;
}

void gc_global_txn_lost_error(gc_error *err)
{
    gc_error_set(err, "40001", GC_NATIVE_TXN_LOST,
                 "the transaction's member failed: the transaction was rolled back "
                 "and may be retried (nothing of it was applied)");
}

void gc_global_set_rerun_safe(gc_global *g, bool safe)
{
    if (g->failover != NULL)
        g->failover->rerun_safe = safe;
}

bool gc_global_rerun_safe(const gc_global *g)
{
    return g->failover != NULL && g->failover->rerun_safe;
}
