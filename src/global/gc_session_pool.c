/*
 * gc_session_pool: the process-wide pools of shared member sessions (see
 * gc_session_pool.h). A pool is a list of member servers, each with its
 * idle sessions (closed-member objects holding an open session, owned by
 * the pool) and its counters.
 */
#include "global/gc_session_pool.h"

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "global/gc_global_internal.h"
#include "member/gc_member_notify.h"
#include "util/gc_strbuf.h"
#include "util/gc_clock.h"

/* One idle session. */
typedef struct idle_session {
    gc_member *holder;        /* closed-member object holding the session; owned */
    bool dirty;               /* carries session settings: RESET ALL before use */
} idle_session;

/* One member server's sessions. */
typedef struct pool_server {
    char *host, *port;
    idle_session *idle;       /* a stack: the most recently used is lent first */
    int n_idle, cap_idle;
    gc_member *spare[8];      /* closed holders kept for the next give-back
                                 (no allocation per transaction); owned */
    int n_spare;
    gc_session_pool_stats stats;
} pool_server;

struct gc_session_pool {
    char *key;
    int max_per_server;       /* GlobalSessionMax; 0: no bound */
    pthread_cond_t given_back; /* signalled when a session is given back or lost */
    int joins;                /* connections joined; the last leave frees */
    long long dropped_for;    /* the catalog version whose RECONNECT closed the
                                 idle sessions last; -1: none */
    pool_server *servers;
    int n_servers;
    gc_session_pool *next;    /* registry list */
};

/* Guards the registry and every pool in it. */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static gc_session_pool *pools;
static atomic_ulong statement_numbers;

char *gc_session_pool_key(const gc_settings *s)
{
    char *topology = gc_global_topology_key(s);
    if (topology == NULL)
        return NULL;
    gc_strbuf key;
    gc_strbuf_init(&key);
#define TEXT(f) (s->f != NULL ? s->f : "")
    bool ok = gc_strbuf_appendf(&key, "%s\n%s\n%s\n%s\n%s\n%s\n%s\n%s\n%s\n%d/%d/%d/%d",
                                topology, TEXT(pwd), TEXT(sslmode), TEXT(sslrootcert),
                                TEXT(sslcert), TEXT(sslkey), TEXT(application_name),
                                TEXT(pqopt), TEXT(conn_settings), s->member_timeout,
                                s->keepalive_time, s->keepalive_interval,
                                s->global_session_max);
#undef TEXT
    free(topology);
    if (!ok) {
        gc_strbuf_free(&key);
        return NULL;
    }
    return gc_strbuf_take(&key);
}

/* A condition variable timed on the monotonic clock. */
static bool init_cond(pthread_cond_t *cond)
{
    pthread_condattr_t attr;
    if (pthread_condattr_init(&attr) != 0)
        return false;
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    bool ok = pthread_cond_init(cond, &attr) == 0;
    pthread_condattr_destroy(&attr);
    return ok;
}

gc_session_pool *gc_session_pool_join(const char *key, int max_per_server)
{
    pthread_mutex_lock(&pool_lock);
    gc_session_pool *p = pools;
    while (p != NULL && strcmp(p->key, key) != 0)
        p = p->next;
    if (p == NULL) {
        p = calloc(1, sizeof *p);
        if (p != NULL && (p->key = strdup(key)) == NULL) {
            free(p);
            p = NULL;
        }
        if (p != NULL && !init_cond(&p->given_back)) {
            free(p->key);
            free(p);
            p = NULL;
        }
        if (p != NULL) {
            p->max_per_server = max_per_server > 0 ? max_per_server : 0;
            p->dropped_for = -1;
            p->next = pools;
            pools = p;
        }
    }
    if (p != NULL)
        p->joins++;
    pthread_mutex_unlock(&pool_lock);
    return p;
}

static void free_pool(gc_session_pool *p)
{
    for (int s = 0; s < p->n_servers; s++) {
        pool_server *srv = &p->servers[s];
        for (int k = 0; k < srv->n_idle; k++)
            gc_member_destroy(srv->idle[k].holder);
        for (int k = 0; k < srv->n_spare; k++)
            gc_member_destroy(srv->spare[k]);
        free(srv->idle);
        free(srv->host);
        free(srv->port);
    }
    free(p->servers);
    pthread_cond_destroy(&p->given_back);
    free(p->key);
    free(p);
}

void gc_session_pool_leave(gc_session_pool *p)
{
    if (p == NULL)
        return;
    pthread_mutex_lock(&pool_lock);
    assert(p->joins > 0);
    bool last = --p->joins == 0;
    if (last) {
        gc_session_pool **link = &pools;
        while (*link != p)
            link = &(*link)->next;
        *link = p->next;
    }
    pthread_mutex_unlock(&pool_lock);
    /* Closing sessions waits for the servers: outside the lock. */
    if (last)
        free_pool(p);
}

static bool same(const char *a, const char *b)
{
    return a != NULL && b != NULL && strcmp(a, b) == 0;
}

/* The entry of host:port, created when create (NULL when absent or out of
 * memory). Under pool_lock. */
static pool_server *server_of(gc_session_pool *p, const char *host, const char *port,
                              bool create)
{
    for (int s = 0; s < p->n_servers; s++)
        if (same(p->servers[s].host, host) && same(p->servers[s].port, port))
            return &p->servers[s];
    if (!create || host == NULL || port == NULL)
        return NULL;
    pool_server *grown = realloc(p->servers, sizeof *grown * ((size_t)p->n_servers + 1));
    if (grown == NULL)
        return NULL;
    p->servers = grown;
    pool_server *srv = &p->servers[p->n_servers];
    memset(srv, 0, sizeof *srv);
    srv->host = strdup(host);
    srv->port = strdup(port);
    if (srv->host == NULL || srv->port == NULL) {
        free(srv->host);
        free(srv->port);
        return NULL;
    }
    p->n_servers++;
    return srv;
}

/* Pops srv's most recent idle session that is still alive (no round trip:
 * what the server already sent says whether it ended the session). Dead
 * ones are handed back in *dead (caller destroys them, outside the lock).
 * Under pool_lock. */
static bool pop_live(pool_server *srv, idle_session *out, gc_member **dead, int *n_dead)
{
    while (srv->n_idle > 0) {
        idle_session is = srv->idle[--srv->n_idle];
        gc_error err;
        gc_error_clear(&err);
        if (gc_member_check_alive(is.holder, &err)) {
            *out = is;
            return true;
        }
        srv->stats.discarded++;
        dead[(*n_dead)++] = is.holder;
        if (*n_dead == 16)
            return false;    /* the caller frees them, then asks again */
    }
    return false;
}

/* Keeps holder (closed now) for m's server's next give-back, or frees it. */
static void keep_spare(gc_session_pool *p, const gc_member *m, gc_member *holder)
{
    pthread_mutex_lock(&pool_lock);
    pool_server *srv = server_of(p, gc_member_host(m), gc_member_port(m), false);
    bool kept = srv != NULL && !gc_member_is_open(holder) && srv->n_spare < 8;
    if (kept)
        srv->spare[srv->n_spare++] = holder;
    pthread_mutex_unlock(&pool_lock);
    if (!kept)
        gc_member_destroy(holder);
}

/* A closed holder for m's session: a spare one, else a new one. */
static gc_member *take_spare(gc_session_pool *p, const gc_member *m)
{
    gc_member *holder = NULL;
    pthread_mutex_lock(&pool_lock);
    pool_server *srv = server_of(p, gc_member_host(m), gc_member_port(m), false);
    if (srv != NULL && srv->n_spare > 0)
        holder = srv->spare[--srv->n_spare];
    pthread_mutex_unlock(&pool_lock);
    return holder != NULL ? holder : gc_member_create_like(m);
}

/* One look under pool_lock: an idle live session (LENT), else room for a
 * new one (OPEN_NEW, reserved), else TIMED_OUT meaning "full now". */
static gc_pool_borrow try_borrow(gc_session_pool *p, pool_server *srv, idle_session *is,
                                 gc_member **dead, int *n_dead)
{
    if (pop_live(srv, is, dead, n_dead)) {
        srv->stats.borrowed++;
        srv->stats.borrows++;
        return GC_POOL_LENT;
    }
    if (*n_dead == 16)
        return GC_POOL_TIMED_OUT;   /* not full: the caller frees them and looks again */
    if (p->max_per_server == 0 || srv->stats.borrowed + srv->n_idle < p->max_per_server) {
        srv->stats.borrowed++;
        srv->stats.opened++;
        return GC_POOL_OPEN_NEW;
    }
    return GC_POOL_TIMED_OUT;
}

gc_pool_borrow gc_session_pool_borrow(gc_session_pool *p, gc_member *m, int wait_ms,
                                      bool *dirty)
{
    *dirty = false;
    struct timespec deadline = gc_clock_deadline_in(wait_ms);
    bool waited = false;
    for (;;) {
        gc_member *dead[16];
        int n_dead = 0;
        idle_session is = { 0 };
        gc_pool_borrow got = GC_POOL_TIMED_OUT;
        bool expired = false;
        pthread_mutex_lock(&pool_lock);
        pool_server *srv = server_of(p, gc_member_host(m), gc_member_port(m), true);
        if (srv == NULL) {
            got = GC_POOL_OPEN_NEW;    /* out of memory: uncounted, but served */
        } else {
            got = try_borrow(p, srv, &is, dead, &n_dead);
            if (got == GC_POOL_TIMED_OUT && n_dead == 0) {
                /* Full: wait for a session to come back. */
                if (!waited)
                    srv->stats.waits++;
                waited = true;
                expired = pthread_cond_timedwait(&p->given_back, &pool_lock, &deadline) != 0;
                if (expired) {
                    got = try_borrow(p, srv, &is, dead, &n_dead);
                    if (got == GC_POOL_TIMED_OUT && n_dead == 0)
                        srv->stats.timeouts++;
                    else
                        expired = false;
                }
            }
        }
        pthread_mutex_unlock(&pool_lock);
        for (int k = 0; k < n_dead; k++)
            gc_member_destroy(dead[k]);
        if (got == GC_POOL_OPEN_NEW)
            return got;
        if (got == GC_POOL_LENT) {
            bool moved = gc_member_take_session(m, is.holder);
            keep_spare(p, m, is.holder);
            if (!moved) {
                gc_session_pool_note_lost(p, m);
                continue;
            }
            *dirty = is.dirty;
            return got;
        }
        if (expired)
            return GC_POOL_TIMED_OUT;
    }
}

gc_member *gc_session_pool_borrow_any(gc_session_pool *p)
{
    pthread_mutex_lock(&pool_lock);
    idle_session is = { 0 };
    bool found = false;
    gc_member *dead[16];
    int n_dead = 0;
    for (int s = 0; s < p->n_servers && !found && n_dead < 16; s++) {
        found = pop_live(&p->servers[s], &is, dead, &n_dead);
        if (found) {
            p->servers[s].stats.borrowed++;
            p->servers[s].stats.borrows++;
        }
    }
    pthread_mutex_unlock(&pool_lock);
    for (int k = 0; k < n_dead; k++)
        gc_member_destroy(dead[k]);
    if (found && is.dirty) {
        /* Read the catalog with the server's defaults, not a borrower's. */
        gc_error err;
        gc_error_clear(&err);
        PGresult *res = gc_member_exec(is.holder, "RESET ALL", &err);
        if (res == NULL) {
            gc_session_pool_note_lost(p, is.holder);
            gc_member_destroy(is.holder);
            return NULL;
        }
        PQclear(res);
    }
    return found ? is.holder : NULL;
}

void gc_session_pool_note_opened(gc_session_pool *p, const gc_member *m)
{
    /* Outside the bound: the connection reopened it by itself. */
    pthread_mutex_lock(&pool_lock);
    pool_server *srv = server_of(p, gc_member_host(m), gc_member_port(m), true);
    if (srv != NULL) {
        srv->stats.borrowed++;
        srv->stats.opened++;
    }
    pthread_mutex_unlock(&pool_lock);
}

void gc_session_pool_note_lost(gc_session_pool *p, const gc_member *m)
{
    pthread_mutex_lock(&pool_lock);
    pool_server *srv = server_of(p, gc_member_host(m), gc_member_port(m), false);
    if (srv != NULL && srv->stats.borrowed > 0) {
        srv->stats.borrowed--;
        srv->stats.lost++;
    }
    pthread_cond_broadcast(&p->given_back);
    pthread_mutex_unlock(&pool_lock);
}

/* Whether m's session may serve another connection as it is. */
static bool reusable(const gc_member *m)
{
    return gc_member_is_open(m) && !gc_member_busy(m) &&
           gc_member_txn_status(m) == PQTRANS_IDLE;
}

void gc_session_pool_give_back(gc_session_pool *p, gc_member *m, bool dirty)
{
    gc_member *holder = reusable(m) ? take_spare(p, m) : NULL;
    if (holder != NULL && !gc_member_take_session(holder, m)) {
        gc_member_destroy(holder);
        holder = NULL;
    }
    bool kept = false;
    pthread_mutex_lock(&pool_lock);
    pool_server *srv = server_of(p, gc_member_host(m), gc_member_port(m), true);
    if (srv != NULL) {
        if (srv->stats.borrowed > 0)
            srv->stats.borrowed--;
        if (holder != NULL && srv->n_idle == srv->cap_idle) {
            int cap = srv->cap_idle > 0 ? 2 * srv->cap_idle : 8;
            idle_session *grown = realloc(srv->idle, sizeof *grown * (size_t)cap);
            if (grown != NULL) {
                srv->idle = grown;
                srv->cap_idle = cap;
            }
        }
        /* Sessions opened outside the bound (at connect, by failover) do
         * not stay above it. */
        bool room = p->max_per_server == 0 ||
                    srv->stats.borrowed + srv->n_idle < p->max_per_server;
        if (holder != NULL && room && srv->n_idle < srv->cap_idle) {
            srv->idle[srv->n_idle++] = (idle_session){ .holder = holder, .dirty = dirty };
            kept = true;
        } else {
            srv->stats.discarded++;
        }
    }
    pthread_cond_broadcast(&p->given_back);
    pthread_mutex_unlock(&pool_lock);
    if (!kept)
        gc_member_destroy(holder);
    gc_member_close(m);    /* a session not kept is not used again */
}

void gc_session_pool_drop_idle(gc_session_pool *p, long long version)
{
    pthread_mutex_lock(&pool_lock);
    bool done = version >= 0 && p->dropped_for >= version;
    if (version > p->dropped_for)
        p->dropped_for = version;
    pthread_mutex_unlock(&pool_lock);
    while (!done) {
        gc_member *holder = NULL;
        pthread_mutex_lock(&pool_lock);
        for (int s = 0; s < p->n_servers && holder == NULL; s++) {
            pool_server *srv = &p->servers[s];
            if (srv->n_idle > 0) {
                holder = srv->idle[--srv->n_idle].holder;
                srv->stats.discarded++;
            }
        }
        pthread_mutex_unlock(&pool_lock);
        if (holder == NULL)
            return;
        gc_member_destroy(holder);    /* waits for the server: outside the lock */
    }
}

gc_session_pool_stats gc_session_pool_stats_of(gc_session_pool *p, const char *host,
                                               const char *port)
{
    gc_session_pool_stats st = { 0 };
    pthread_mutex_lock(&pool_lock);
    pool_server *srv = server_of(p, host, port, false);
    if (srv != NULL) {
        st = srv->stats;
        st.idle = srv->n_idle;
    }
    pthread_mutex_unlock(&pool_lock);
    return st;
}

bool gc_session_pool_refuses(bool is_ddl, bool creates_temp, gc_error *err)
{
    if (!is_ddl && !creates_temp)
        return false;
    gc_error_set(err, "0A000", GC_SESSION_POOL_NATIVE_REFUSED,
                 "feature not supported under GlobalSession=Yes (USE_GLOBAL_SESSION): %s; "
                 "member sessions are shared between connections, so nothing may be left "
                 "behind in one; run it on a connection without GlobalSession",
                 creates_temp ? "a temporary table would stay in a shared session"
                              : "DDL is refused under the global session");
    return true;
}

unsigned long gc_session_pool_statement_number(void)
{
    return atomic_fetch_add(&statement_numbers, 1) + 1;
}
