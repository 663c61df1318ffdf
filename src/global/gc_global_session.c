/*
 * gc_global_session: a global connection's side of the global session
 * (GlobalSession=Yes; gc_session_pool.h). Its member objects stay its own
 * (names, states, counters, reconnect schedules); only the server sessions
 * inside them come from the pool when a member is chosen and go back to it
 * between transactions. A member whose session went back is closed but not
 * DOWN, so the router may choose it (as with LocalityOnDemand).
 */
#include "global/gc_global_internal.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "global/gc_global_settings.h"
#include "global/gc_session_pool.h"

/* Whether member i's session counts as borrowed (held may be NULL after
 * an out-of-memory remap: then nothing does). */
static bool is_held(const gc_global *g, int i)
{
    return g->held != NULL && g->held[i];
}

static void set_held(gc_global *g, int i, bool held)
{
    if (g->held != NULL)
        g->held[i] = held;
}

bool gc_global_join_pool(gc_global *g, const gc_settings *s)
{
    char *key = gc_session_pool_key(s);
    if (key == NULL)
        return false;
    g->pool = gc_session_pool_join(key, s->global_session_max);
    g->pool_wait_ms = (s->global_session_wait > 0 ? s->global_session_wait : 30) * 1000;
    free(key);
    return g->pool != NULL;
}

void gc_global_leave_pool(gc_global *g)
{
    gc_session_pool_leave(g->pool);
    g->pool = NULL;
}

bool gc_global_shares_sessions(const gc_global *g)
{
    return g->pool != NULL;
}

/* Runs sql on member i's session; on failure the session is not trusted
 * again (the member is DOWN, the failover schedule retries it). */
static bool run_or_drop(gc_global *g, int i, const char *sql, gc_error *err)
{
    gc_member *m = g->members[i];
    PGresult *res = gc_member_exec(m, sql, err);
    if (res != NULL) {
        PQclear(res);
        return true;
    }
    gc_member_mark_down(m, gc_member_generation(m), err);
    gc_member_close(m);
    gc_session_pool_note_lost(g->pool, m);
    set_held(g, i, false);
    gc_global_sync_router(g);
    return false;
}

/* Whether text contains word, ignoring ASCII letter case. */
static bool mentions(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = text; *p != '\0'; p++)
        if (strncasecmp(p, word, n) == 0)
            return true;
    return false;
}

void gc_global_note_query_settings(gc_global *g, const char *sql)
{
    if (g->pool != NULL && sql != NULL && !g->changed_settings)
        g->changed_settings = mentions(sql, "set_config");
}

bool gc_global_borrow_member(gc_global *g, int i, const char *setup_sql, gc_error *err)
{
    gc_member *m = g->members[i];
    bool dirty = false;
    gc_pool_borrow got = gc_session_pool_borrow(g->pool, m, g->pool_wait_ms, &dirty);
    if (got == GC_POOL_TIMED_OUT) {
        gc_error_set(err, "HYT00", GC_SESSION_POOL_NATIVE_TIMEOUT,
                     "timeout expired: no shared session of member %s came free within "
                     "%d s (GlobalSessionMax sessions are in use; GlobalSessionWait)",
                     g->topo.members[i].name, g->pool_wait_ms / 1000);
        gc_trace_write(g->trace, GC_TRACE_INFO, "%s", err->message);
        return false;
    }
    if (got == GC_POOL_LENT) {
        gc_trace_write(g->trace, GC_TRACE_INFO, "member %s: shared session %lu borrowed%s",
                       g->topo.members[i].name, gc_member_generation(m),
                       dirty ? " (another connection's settings reset)" : "");
    } else if (gc_member_connect(m, err)) {
        gc_trace_write(g->trace, GC_TRACE_INFO, "member %s: new shared session %lu",
                       g->topo.members[i].name, gc_member_generation(m));
    } else {
        gc_session_pool_note_lost(g->pool, m);   /* the reserved room is free again */
        gc_trace_write(g->trace, GC_TRACE_INFO, "member %s did not answer: %s",
                       g->topo.members[i].name, err->message);
        gc_global_sync_router(g);
        return false;
    }
    set_held(g, i, true);
    g->ran_setup = g->ran_setup || setup_sql != NULL;
    if (g->connect_order[i] < 0)
        g->connect_order[i] = g->n_opened++;
    /* Settings the last borrower left go before this one's are applied
     * (its logged SETs follow in gc_global_settings_replay). */
    if (dirty && !run_or_drop(g, i, "RESET ALL", err))
        return false;
    if (setup_sql != NULL && !run_or_drop(g, i, setup_sql, err))
        return false;
    gc_global_sync_router(g);
    return true;
}

void gc_global_give_back_sessions(gc_global *g, bool dirty)
{
    if (g->pool == NULL)
        return;
    /* What the connection SET is in the session: it must not reach the
     * next borrower, and this connection replays it on its next borrow. */
    bool carries = dirty || g->ran_setup || g->changed_settings ||
                   gc_global_settings_count(g) > 0;
    g->changed_settings = false;
    for (int i = 0; i < g->topo.n_members; i++) {
        gc_member *m = g->members[i];
        if (gc_member_is_open(m)) {
            if (!is_held(g, i))
                gc_session_pool_note_opened(g->pool, m);   /* reopened by failover */
            gc_session_pool_give_back(g->pool, m, carries);
            if (carries)
                gc_global_settings_forget(g, m);
            gc_trace_write(g->trace, GC_TRACE_DEBUG, "member %s: shared session given back",
                           g->topo.members[i].name);
        } else if (is_held(g, i)) {
            gc_session_pool_note_lost(g->pool, m);   /* failed while held */
        }
        set_held(g, i, false);
    }
}

bool gc_global_pool_stats(const gc_global *g, int i, gc_session_pool_stats *out)
{
    if (g->pool == NULL || i < 0 || i >= g->topo.n_members)
        return false;
    *out = gc_session_pool_stats_of(g->pool, g->topo.members[i].host,
                                    g->topo.members[i].port);
    return true;
}

int gc_global_borrow_for_query(gc_global *g)
{
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < g->topo.n_members; i++) {
            gc_member *m = g->members[i];
            if (gc_member_get_state(m) == GC_MEMBER_DOWN ||
                g->topo.members[i].catalog_primary != (pass == 0))
                continue;
            gc_error err;
            gc_error_clear(&err);
            if (gc_global_borrow_member(g, i, NULL, &err))
                return i;
        }
    }
    return -1;
}

void gc_global_remap_held(gc_global *g, const int *new_of_old, int n_old, int n_new)
{
    bool *held = calloc((size_t)(n_new > 0 ? n_new : 1), sizeof *held);
    for (int j = 0; j < n_old; j++) {
        if (!is_held(g, j))
            continue;
        if (new_of_old[j] < 0)
            gc_session_pool_note_lost(g->pool, g->members[j]);   /* closed with its member */
        else if (held != NULL)
            held[new_of_old[j]] = true;
    }
    free(g->held);
    g->held = held;
}

void gc_global_drop_idle_sessions(gc_global *g, long long version)
{
    gc_session_pool_drop_idle(g->pool, version);
}
