/*
 * gc_in_doubt_watch: in-doubt transactions settled while the application
 * waits on them (docs/failover.md, "In-doubt transactions").
 *
 * A prepared part left by a dead coordinator holds its row locks. A global
 * connection settles such parts between transactions, but one whose
 * statement waits on those very locks never gets there, nor may every
 * other connection of the process. So one thread per process watches the
 * global connections that have a statement on the server: one that has
 * waited longer than the grace gets the member's in-doubt parts settled
 * through sessions of the watcher's own (gc_in_doubt_settle_for_waiter),
 * again every grace while it still waits. The waiting connection's end of
 * the wait holds it back until a settlement under way is over, so nothing
 * of the connection changes while the watcher reads it.
 *
 * The thread runs while at least one global connection exists, and stops
 * with the last (the driver may be unloaded afterwards).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "global/gc_global_internal.h"
#include "global/gc_in_doubt.h"
#include "util/gc_clock.h"

/* How often the thread looks at the waiting connections. */
#define WATCH_TICK_MS 500

struct gc_in_doubt_watch {
    gc_global *g;
    atomic_int member;             /* the member a statement waits on, or -1 */
    atomic_llong since_ms;         /* when that wait began (monotonic) */
    long long settled_ms;          /* when the watcher last settled for it */
    pthread_mutex_t busy;          /* held by the watcher while it settles */
};

static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t watch_wake = PTHREAD_COND_INITIALIZER;
static gc_in_doubt_watch **watched;   /* n_watched; under watch_lock */
static int n_watched;
static bool thread_running, thread_stop;
static pthread_t watch_thread;

/* Settles for w when its statement has waited longer than the grace
 * (and not settled for within the last grace). Called under watch_lock. */
static void look_at(gc_in_doubt_watch *w, long long now)
{
    if (atomic_load(&w->member) < 0 ||
        now - atomic_load(&w->since_ms) < GC_IN_DOUBT_GRACE_MS ||
        now - w->settled_ms < GC_IN_DOUBT_GRACE_MS)
        return;
    pthread_mutex_lock(&w->busy);
    int member = atomic_load(&w->member);   /* still waiting, now held back */
    if (member >= 0) {
        w->settled_ms = now;
        gc_in_doubt_settle_for_waiter(w->g, member);
    }
    pthread_mutex_unlock(&w->busy);
}

static void *watch_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&watch_lock);
    while (!thread_stop) {
        long long now = gc_clock_ms();
        for (int k = 0; k < n_watched; k++)
            look_at(watched[k], now);
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_nsec += WATCH_TICK_MS * 1000000L;
        until.tv_sec += until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
        pthread_cond_timedwait(&watch_wake, &watch_lock, &until);
    }
    pthread_mutex_unlock(&watch_lock);
    return NULL;
}

/* Starts the thread, its condition waiting on the monotonic clock. Under
 * watch_lock. */
static bool start_thread(void)
{
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_destroy(&watch_wake);
    pthread_cond_init(&watch_wake, &ca);
    pthread_condattr_destroy(&ca);
    thread_stop = false;
    thread_running = pthread_create(&watch_thread, NULL, watch_main, NULL) == 0;
    return thread_running;
}

gc_in_doubt_watch *gc_in_doubt_watch_add(gc_global *g)
{
    gc_in_doubt_watch *w = calloc(1, sizeof *w);
    if (w == NULL)
        return NULL;
    w->g = g;
    atomic_init(&w->member, -1);
    atomic_init(&w->since_ms, 0);
    pthread_mutex_init(&w->busy, NULL);
    pthread_mutex_lock(&watch_lock);
    gc_in_doubt_watch **grown = realloc(watched, (size_t)(n_watched + 1) * sizeof *grown);
    bool ok = grown != NULL && (thread_running || start_thread());
    if (grown != NULL)
        watched = grown;
    if (ok)
        watched[n_watched++] = w;
    pthread_mutex_unlock(&watch_lock);
    if (!ok) {
        pthread_mutex_destroy(&w->busy);
        free(w);
        return NULL;
    }
    return w;
}

void gc_in_doubt_watch_remove(gc_in_doubt_watch *w)
{
    if (w == NULL)
        return;
    pthread_mutex_lock(&watch_lock);
    for (int k = 0; k < n_watched; k++) {
        if (watched[k] == w) {
            watched[k] = watched[--n_watched];
            break;
        }
    }
    bool last = n_watched == 0 && thread_running;
    if (last) {
        thread_stop = true;
        pthread_cond_signal(&watch_wake);
    }
    pthread_mutex_unlock(&watch_lock);
    if (last) {
        pthread_join(watch_thread, NULL);
        pthread_mutex_lock(&watch_lock);
        /* A connection added while the thread stopped started none. */
        thread_running = false;
        if (n_watched > 0)
            start_thread();
        else {
            free(watched);
            watched = NULL;
        }
        pthread_mutex_unlock(&watch_lock);
    }
    pthread_mutex_destroy(&w->busy);
    free(w);
}

void gc_in_doubt_watch_begin(gc_in_doubt_watch *w, int member)
{
    if (w == NULL)
        return;
    atomic_store(&w->since_ms, gc_clock_ms());
    atomic_store(&w->member, member);
}

void gc_in_doubt_watch_end(gc_in_doubt_watch *w)
{
    if (w == NULL || atomic_load(&w->member) < 0)
        return;
    pthread_mutex_lock(&w->busy);
    atomic_store(&w->member, -1);
    pthread_mutex_unlock(&w->busy);
}
