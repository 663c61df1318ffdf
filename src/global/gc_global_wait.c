/*
 * gc_global_wait: what a call of the connection waits on, for the threads
 * that act on it meanwhile: the in-doubt watcher (gc_in_doubt_watch.c),
 * and a cancel (SQLCancel from another thread, the query timeout's timer).
 *
 * Most calls wait on one session, named when the call begins. A cluster
 * DDL waits on each group's primary in turn, one step at a time; between
 * its steps it waits on nothing, and once cancelled it begins no further
 * step, so a cancel that came between two steps still ends the DDL. Its
 * other statements (the undo of a failed DDL, the commit of a decided
 * one) are not steps: a cancel never reaches them.
 *
 * The member a cancel reaches is read and cancelled under the lock, and a
 * step ends under it too: the member cannot change (a failover, a
 * topology refresh) while a cancel is being sent to it.
 */
#include "global/gc_global_internal.h"
#include "global/gc_in_doubt.h"

void gc_global_wait_begin(gc_global *g, gc_member *m)
{
    pthread_mutex_lock(&g->wait.lock);
    g->wait.on = m;
    g->wait.in_call = true;
    g->wait.cancelled = false;
    pthread_mutex_unlock(&g->wait.lock);
    int i = m != NULL ? gc_global_member_index(g, m) : -1;
    if (i >= 0)
        gc_in_doubt_watch_begin(g->in_doubt_watch, i);
}

void gc_global_wait_end(gc_global *g)
{
    gc_in_doubt_watch_end(g->in_doubt_watch);
    pthread_mutex_lock(&g->wait.lock);
    g->wait.on = NULL;
    g->wait.in_call = false;
    g->wait.cancelled = false;
    pthread_mutex_unlock(&g->wait.lock);
}

bool gc_global_wait_step_begin(gc_global *g, int i, gc_error *err)
{
    pthread_mutex_lock(&g->wait.lock);
    bool go = !g->wait.cancelled;
    g->wait.on = go ? g->members[i] : NULL;
    pthread_mutex_unlock(&g->wait.lock);
    if (!go) {
        gc_error_set(err, "57014", 0, "canceling statement due to user request");
        return false;
    }
    gc_in_doubt_watch_begin(g->in_doubt_watch, i);
    return true;
}

void gc_global_wait_step_end(gc_global *g)
{
    gc_in_doubt_watch_end(g->in_doubt_watch);
    pthread_mutex_lock(&g->wait.lock);
    g->wait.on = NULL;
    pthread_mutex_unlock(&g->wait.lock);
}

bool gc_global_cancel_wait(gc_global *g, gc_member *otherwise, gc_error *err)
{
    pthread_mutex_lock(&g->wait.lock);
    gc_member *target = g->wait.in_call ? g->wait.on : otherwise;
    if (g->wait.in_call)
        g->wait.cancelled = true;
    bool ok = target == NULL || gc_member_cancel(target, err);
    pthread_mutex_unlock(&g->wait.lock);
    return ok;
}
