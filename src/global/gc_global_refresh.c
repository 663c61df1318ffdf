/*
 * gc_global_refresh: the topology refresh, how a global connection follows
 * the cluster's catalog version (docs/global-connection.md "Topology
 * changes").
 *
 * Listening: one primary session LISTENs on channel `gcluster` (bump_version
 * notifies there, on primaries only). Its queued notifications are taken
 * without a round trip before every transaction; at most every
 * TopologyRefresh seconds one `SELECT version FROM gcluster.version` runs on
 * it too, in case a notification was missed (a session reconnected, a
 * notification sent while nobody listened).
 *
 * Following: between transactions only. The topology is read again; members
 * still listed (same name, host and port) keep their session, state and
 * counters; new ones are opened at once, in parallel; removed ones are
 * closed. The shard map of the new version comes from the process-wide
 * cache and the router is made again for the new topology. When no member
 * answers with the catalog the last good topology stays.
 *
 * RECONNECT: gc_global_reconnect reopens every session and raises the
 * version on every group's primary that answers (as gcctl reconnect does),
 * naming in a warning the groups it left out. Catalog reads fail over
 * (gc_global_catalog.c), and the freshest topology read wins. Another
 * connection that follows a version whose recorded reason is a reconnect
 * (this statement's, or gcctl reconnect's) reopens its sessions too.
 */
#include "global/gc_global_internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "global/gc_global_settings.h"
#include "global/gc_in_doubt.h"
#include "member/gc_member_notify.h"
#include "util/gc_strbuf.h"
#include "util/gc_clock.h"

#define GC_RECONNECT_REASON "ALTER SYSTEM RECONNECT GLOBAL CONNECTION"
#define GC_GCCTL_RECONNECT_REASON "reconnect"   /* gcctl reconnect's reason */
/* How often, at most, the listener's socket is read for notifications
 * between statements: each read is a system call on the statement path,
 * and a topology change may wait this long. */
#define GC_NOTIFY_READ_INTERVAL_MS 25

/* What following a new version needs from connect time. */
struct gc_global_refresh {
    gc_member_params params;       /* template for new members; strings below */
    char *owned[10];               /* the copied strings of params */
    const gc_settings *settings;   /* borrowed from the connection */
    gc_member_notice_fn notice_fn;
    void *notice_ctx;
    gc_member_before_send_fn before_send_fn;
    void *before_send_ctx;
    int interval_ms;               /* TopologyRefresh */
    long long last_check_ms;       /* monotonic time of the last version check */
    long long last_notify_read_ms; /* monotonic time the listener was last read */
    int listener;                  /* member holding LISTEN gcluster, or -1 */
    unsigned long listener_generation;
    bool heard;                    /* a notification not acted on yet */
    int64_t heard_version;         /* its highest numeric payload, -1 when none */
};

/* Copies s into r->owned[*k] and returns it (NULL stays NULL). */
static const char *keep(gc_global_refresh *r, int *k, const char *s, bool *ok)
{
    if (s == NULL)
        return NULL;
    assert(*k < (int)(sizeof r->owned / sizeof r->owned[0]));
    char *c = strdup(s);
    if (c == NULL)
        *ok = false;
    r->owned[(*k)++] = c;
    return c;
}

/* The member LISTENing on gcluster: the current one while its session is
 * the same, else the first open primary (LISTEN sent now). -1 when none. */
static int ensure_listener(gc_global *g)
{
    gc_global_refresh *r = g->refresh;
    if (g->pool != NULL)
        return -1;    /* shared sessions LISTEN for no one (gc_global_session.c) */
    if (r->listener >= 0) {
        gc_member *m = g->members[r->listener];
        if (gc_member_is_open(m) && gc_member_generation(m) == r->listener_generation)
            return r->listener;
        r->listener = -1;
    }
    for (int i = 0; i < g->topo.n_members; i++) {
        gc_member *m = g->members[i];
        if (!gc_member_is_open(m) || gc_member_busy(m) ||
            gc_member_get_role(m) != GC_ROLE_PRIMARY ||
            gc_member_txn_status(m) != PQTRANS_IDLE)
            continue;
        gc_error err;
        gc_error_clear(&err);
        PGresult *res = gc_member_exec(m, "LISTEN " GC_CHANNEL, &err);
        if (res == NULL) {
            gc_trace_write(g->trace, GC_TRACE_INFO, "LISTEN %s on %s failed: %s",
                           GC_CHANNEL, g->topo.members[i].name, err.message);
            continue;
        }
        PQclear(res);
        r->listener = i;
        r->listener_generation = gc_member_generation(m);
        gc_trace_write(g->trace, GC_TRACE_INFO, "listening on channel %s on %s",
                       GC_CHANNEL, g->topo.members[i].name);
        return i;
    }
    return -1;
}

bool gc_global_refresh_init(gc_global *g, const gc_global_options *opt, int listening)
{
    gc_global_refresh *r = calloc(1, sizeof *r);
    if (r == NULL)
        return false;
    g->refresh = r;
    bool ok = true;
    int k = 0;
    r->params = opt->member;
    r->params.name = r->params.group = r->params.host = r->params.port = NULL;
    r->params.dbname = keep(r, &k, opt->member.dbname, &ok);
    r->params.user = keep(r, &k, opt->member.user, &ok);
    r->params.password = keep(r, &k, opt->member.password, &ok);
    r->params.sslmode = keep(r, &k, opt->member.sslmode, &ok);
    r->params.sslrootcert = keep(r, &k, opt->member.sslrootcert, &ok);
    r->params.sslcert = keep(r, &k, opt->member.sslcert, &ok);
    r->params.sslkey = keep(r, &k, opt->member.sslkey, &ok);
    r->params.application_name = keep(r, &k, opt->member.application_name, &ok);
    r->params.extra_conninfo = keep(r, &k, opt->member.extra_conninfo, &ok);
    r->settings = opt->settings;
    r->notice_fn = opt->notice_fn;
    r->notice_ctx = opt->notice_ctx;
    r->before_send_fn = opt->before_send_fn;
    r->before_send_ctx = opt->before_send_ctx;
    int s = opt->settings->topology_refresh > 0 ? opt->settings->topology_refresh : 10;
    r->interval_ms = s * 1000;
    r->last_check_ms = gc_clock_ms();
    r->listener = -1;
    r->heard_version = -1;
    if (listening >= 0 && gc_member_is_open(g->members[listening])) {
        r->listener = listening;
        r->listener_generation = gc_member_generation(g->members[listening]);
        gc_trace_write(g->trace, GC_TRACE_INFO, "listening on channel %s on %s", GC_CHANNEL,
                       g->topo.members[listening].name);
    }
    if (ok)
        ensure_listener(g);
    return ok;
}

void gc_global_refresh_free(gc_global *g)
{
    gc_global_refresh *r = g->refresh;
    if (r == NULL)
        return;
    for (size_t i = 0; i < sizeof r->owned / sizeof r->owned[0]; i++)
        free(r->owned[i]);
    free(r);
    g->refresh = NULL;
}

/* Takes the listener's queued gcluster notifications (no round trip);
 * remembers one newer than the topology. */
static void take_notifications(gc_global *g)
{
    gc_global_refresh *r = g->refresh;
    if (r->listener < 0)
        return;
    int64_t v = -1;
    if (!gc_member_take_notifications(g->members[r->listener], GC_CHANNEL, &v))
        return;
    if (v < 0)
        r->heard = true;   /* no version in the payload: ask the server */
    else
        gc_global_refresh_heard(g, v);
}

bool gc_global_refresh_pending(gc_global *g)
{
    gc_global_refresh *r = g->refresh;
    if (r == NULL || g->pinned >= 0)
        return false;
    long long now = gc_clock_ms();
    if (now - r->last_notify_read_ms >= GC_NOTIFY_READ_INTERVAL_MS) {
        r->last_notify_read_ms = now;
        take_notifications(g);
    }
    return r->heard || now - r->last_check_ms >= r->interval_ms;
}

void gc_global_check_catalog_soon(gc_global *g)
{
    if (g->refresh != NULL)
        g->refresh->last_check_ms = 0;
}

void gc_global_refresh_heard(gc_global *g, int64_t version)
{
    gc_global_refresh *r = g->refresh;
    if (r == NULL || version <= g->topo.version)
        return;
    r->heard = true;
    if (version > r->heard_version)
        r->heard_version = version;
}

/* An open, idle session to run catalog queries on: the listener first. */
int gc_global_catalog_query_member(gc_global *g)
{
    int l = g->refresh->listener;
    if (l >= 0 && gc_member_is_open(g->members[l]) && !gc_member_busy(g->members[l]))
        return l;
    for (int i = 0; i < g->topo.n_members; i++)
        if (gc_member_is_open(g->members[i]) && !gc_member_busy(g->members[i]) &&
            gc_member_txn_status(g->members[i]) == PQTRANS_IDLE)
            return i;
    /* Under the global session nothing is held between transactions. */
    return g->pool != NULL ? gc_global_borrow_for_query(g) : -1;
}

int64_t gc_global_read_catalog_version(gc_global *g, int i, gc_error *err)
{
    PGresult *res = gc_member_exec(g->members[i], "SELECT version FROM gcluster.version",
                                   err);
    int64_t v = -1;
    if (res != NULL && PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1)
        v = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
    else if (res != NULL)
        gc_error_set(err, "08001", 0, "gcluster.version holds no row on %s",
                     g->topo.members[i].name);
    PQclear(res);
    return v;
}

/* The catalog version (a gc_catalog_read_fn): ctx is an int64_t. */
static bool read_version_into(gc_global *g, int i, void *ctx, gc_error *err)
{
    int64_t *v = ctx;
    *v = gc_global_read_catalog_version(g, i, err);
    return *v >= 0;
}

static bool same_member(const gc_topo_member *a, const gc_topo_member *b)
{
    return strcmp(a->name, b->name) == 0 && strcmp(a->host, b->host) == 0 &&
           strcmp(a->port, b->port) == 0;
}

/* Member i did not answer, or refused the connection's session setup: it
 * is left DOWN, and the failover schedule retries it between transactions
 * like any member that failed (docs/failover.md, "Reconnecting"). */
static void leave_down(gc_global *g, int i, const gc_error *why)
{
    gc_member *m = g->members[i];
    if (gc_member_get_state(m) != GC_MEMBER_DOWN)
        gc_member_mark_down(m, gc_member_generation(m), why);
    gc_member_close(m);
}

/* Opens the members created for the new topology (all at once) and gives
 * them the connection's session settings. */
static void open_new_members(gc_global *g, const bool *created, const char *setup_sql)
{
    int n = g->topo.n_members, k = 0;
    gc_member *fresh[n > 0 ? n : 1];
    int where[n > 0 ? n : 1];
    for (int i = 0; i < n; i++)
        if (created[i]) {
            where[k] = i;
            fresh[k++] = g->members[i];
        }
    if (k == 0 || g->on_demand)
        return;
    gc_error errs[k];
    int s = g->refresh->params.connect_timeout_s > 0 ? g->refresh->params.connect_timeout_s
                                                      : 10;
    gc_member_connect_all(fresh, k, s * 1000, errs);
    for (int j = 0; j < k; j++) {
        int i = where[j];
        gc_error err;
        gc_error_clear(&err);
        PGresult *res = NULL;
        if (gc_member_is_open(fresh[j]) &&
            (setup_sql == NULL || (res = gc_member_exec(fresh[j], setup_sql, &err)) != NULL) &&
            gc_global_settings_replay(g, i, &err)) {
            PQclear(res);
            g->connect_order[i] = g->n_opened++;
            gc_trace_write(g->trace, GC_TRACE_INFO, "member %s joined: opened",
                           g->topo.members[i].name);
            continue;
        }
        PQclear(res);
        leave_down(g, i, err.sqlstate[0] != '\0' ? &err : &errs[j]);
        gc_trace_write(g->trace, GC_TRACE_INFO, "member %s joined but did not answer: %s",
                       g->topo.members[i].name,
                       err.sqlstate[0] != '\0' ? err.message : errs[j].message);
    }
}

/* Remaps an old member index to the new topology; -1 when it left. */
static int remap(const int *new_of_old, int n_old, int i)
{
    return i >= 0 && i < n_old ? new_of_old[i] : -1;
}

/* Makes *nt (taken over) g's topology: keeps the sessions of members still
 * listed, creates and opens new ones, closes removed ones, takes the new
 * version's shard map and makes the router again. */
static bool adopt_topology(gc_global *g, gc_topology *nt, const char *setup_sql,
                           gc_error *err)
{
    assert(g->pinned < 0);
    gc_global_refresh *r = g->refresh;
    int n_old = g->topo.n_members, n = nt->n_members;
    gc_member **members = calloc((size_t)(n > 0 ? n : 1), sizeof *members);
    gc_global_member_stats *stats = calloc((size_t)(n > 0 ? n : 1), sizeof *stats);
    int *order = calloc((size_t)(n > 0 ? n : 1), sizeof *order);
    bool *created = calloc((size_t)(n > 0 ? n : 1), sizeof *created);
    int *new_of_old = calloc((size_t)(n_old > 0 ? n_old : 1), sizeof *new_of_old);
    gc_router_config rc = {
        .member_policy = r->settings->locality_member_policy,
        .member_path = r->settings->locality_member_path,
        .group_policy = r->settings->locality_group_policy,
        .group_path = r->settings->locality_group_path,
        .random_seed = (unsigned)(uintptr_t)g ^ (unsigned)nt->version ^ 0x9e3779b9u,
    };
    gc_error warning;
    gc_error_clear(&warning);
    gc_router *router = gc_router_create(&rc, nt, &warning);
    bool ok = members != NULL && stats != NULL && order != NULL && created != NULL &&
              new_of_old != NULL && router != NULL;
    for (int i = 0; ok && i < n_old; i++)
        new_of_old[i] = -1;
    for (int i = 0; ok && i < n; i++) {
        order[i] = -1;
        for (int j = 0; j < n_old; j++) {
            if (new_of_old[j] < 0 && same_member(&nt->members[i], &g->topo.members[j])) {
                new_of_old[j] = i;
                members[i] = g->members[j];
                stats[i] = g->stats[j];
                order[i] = g->connect_order[j];
                break;
            }
        }
        if (members[i] != NULL)
            continue;
        gc_member_params p = r->params;
        p.name = nt->members[i].name;
        p.group = nt->groups[nt->members[i].group].name;
        p.host = nt->members[i].host;
        p.port = nt->members[i].port;
        members[i] = gc_member_create(&p, g->trace);
        ok = members[i] != NULL;
        if (ok && r->notice_fn != NULL)
            gc_member_set_notice_handler(members[i], r->notice_fn, r->notice_ctx);
        if (ok && r->before_send_fn != NULL)
            gc_member_set_before_send(members[i], r->before_send_fn, r->before_send_ctx);
        created[i] = true;
    }
    if (!ok) {
        for (int i = 0; members != NULL && i < n; i++)
            if (created[i])
                gc_member_destroy(members[i]);
        free(members);
        free(stats);
        free(order);
        free(created);
        free(new_of_old);
        gc_router_destroy(router);
        gc_topology_free(nt);
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    if (warning.sqlstate[0] != '\0')
        gc_trace_write(g->trace, GC_TRACE_INFO, "%s", warning.message);
    if (g->pool != NULL)
        gc_global_remap_held(g, new_of_old, n_old, n);
    /* Members that left: their sessions close (what was prepared there is
     * gone with them). */
    for (int j = 0; j < n_old; j++) {
        if (new_of_old[j] >= 0)
            continue;
        gc_trace_write(g->trace, GC_TRACE_INFO, "member %s left the cluster: session closed",
                       g->topo.members[j].name);
        gc_global_settings_forget(g, g->members[j]);
        gc_global_failover_forget(g, g->members[j]);   /* and any reconnect in flight */
        gc_member_destroy(g->members[j]);
    }
    g->last_member = remap(new_of_old, n_old, g->last_member);
    r->listener = remap(new_of_old, n_old, r->listener);
    free(g->members);
    free(g->stats);
    free(g->connect_order);
    g->members = members;
    g->stats = stats;
    g->connect_order = order;
    gc_router_destroy(g->router);
    g->router = router;
    gc_topology_free(&g->topo);
    g->topo = *nt;
    memset(nt, 0, sizeof *nt);
    free(new_of_old);

    open_new_members(g, created, setup_sql);
    free(created);
    ensure_listener(g);

    gc_global_load_shardmap(g, gc_global_catalog_query_member(g));
    gc_global_sync_router(g);
    gc_trace_write(g->trace, GC_TRACE_INFO,
                   "now following catalog version %lld: %d groups, %d members",
                   (long long)g->topo.version, g->topo.n_groups, g->topo.n_members);
    return true;
}

/* Closes and reopens every member session at once (a member opened on
 * demand only later stays closed until chosen; under the global session,
 * where nothing is held between transactions, every member is opened, and
 * the pool's idle sessions are closed); each new session gets
 * setup_sql and the connection's logged SETs. Members that do not answer
 * are left DOWN, for the failover schedule to retry (leave_down). */
static void reopen_all(gc_global *g, const char *setup_sql)
{
    int n = g->topo.n_members;
    bool was_open[n > 0 ? n : 1];
    for (int i = 0; i < n; i++) {
        was_open[i] = gc_member_is_open(g->members[i]) || !g->on_demand || g->pool != NULL;
        gc_member_close(g->members[i]);
        g->connect_order[i] = -1;
    }
    g->n_opened = 0;
    gc_member *reopen[n > 0 ? n : 1];
    int where[n > 0 ? n : 1], k = 0;
    memset(reopen, 0, sizeof reopen);
    for (int i = 0; i < n; i++)
        if (was_open[i]) {
            where[k] = i;
            reopen[k++] = g->members[i];
        }
    gc_error errs[k > 0 ? k : 1];
    if (g->pool != NULL)
        gc_global_drop_idle_sessions(g, -1);   /* the pool's are reopened too */
    int s = g->refresh->params.connect_timeout_s > 0 ? g->refresh->params.connect_timeout_s
                                                      : 10;
    gc_member_connect_all(reopen, k, s * 1000, errs);
    for (int j = 0; j < k; j++) {
        int i = where[j];
        gc_error e;
        gc_error_clear(&e);
        PGresult *res = NULL;
        if (gc_member_is_open(reopen[j]) &&
            (setup_sql == NULL || (res = gc_member_exec(reopen[j], setup_sql, &e)) != NULL) &&
            gc_global_settings_replay(g, i, &e)) {
            PQclear(res);
            g->connect_order[i] = g->n_opened++;
            continue;
        }
        PQclear(res);
        leave_down(g, i, e.sqlstate[0] != '\0' ? &e : &errs[j]);
        gc_trace_write(g->trace, GC_TRACE_INFO, "reconnect: member %s did not answer: %s",
                       g->topo.members[i].name,
                       e.sqlstate[0] != '\0' ? e.message : errs[j].message);
    }
    g->refresh->listener = -1;
    ensure_listener(g);
    gc_global_sync_router(g);
}

/* Whether gcluster.version's reason names a reconnect request (a
 * gc_catalog_read_fn): ctx is a bool. */
static bool read_reconnect_reason(gc_global *g, int i, void *ctx, gc_error *err)
{
    bool *yes = ctx;
    PGresult *res = gc_member_exec(g->members[i], "SELECT reason FROM gcluster.version", err);
    *yes = res != NULL && PQntuples(res) == 1 && !PQgetisnull(res, 0, 0) &&
           (strcmp(PQgetvalue(res, 0, 0), GC_RECONNECT_REASON) == 0 ||
            strcmp(PQgetvalue(res, 0, 0), GC_GCCTL_RECONNECT_REASON) == 0);
    PQclear(res);
    return res != NULL;
}

/* Whether the catalog's last version change was a reconnect request (its
 * reason, as bump_version recorded it), asked first of member `source`,
 * the one that gave the topology being adopted. */
static bool raised_by_reconnect(gc_global *g, int source)
{
    bool yes = false;
    gc_error err;
    gc_error_clear(&err);
    gc_global_catalog_read(g, source, read_reconnect_reason, &yes, &err);
    return yes;
}

/* The freshest topology read so far (gc_catalog_read_fn read_topology). */
typedef struct freshest_topology {
    gc_topology best;       /* owned when have */
    bool have;
    int member;             /* the member that gave it */
    int64_t wanted;         /* the version a read must reach to end the search */
} freshest_topology;

/* Reads the topology on member i and keeps it when it is the freshest yet:
 * a group that was down during a change still has the old catalog, and
 * the highest version wins. True once one reaches the version wanted. */
static bool read_topology(gc_global *g, int i, void *ctx, gc_error *err)
{
    freshest_topology *f = ctx;
    gc_topology nt;
    if (!gc_topology_load(g->members[i], &nt, err))
        return false;
    if (!f->have || nt.version > f->best.version) {
        if (f->have)
            gc_topology_free(&f->best);
        f->best = nt;
        f->have = true;
        f->member = i;
    } else {
        gc_topology_free(&nt);
    }
    if (f->best.version >= f->wanted)
        return true;
    gc_error_set(err, "HY000", 0, "its catalog version %lld is older than %lld",
                 (long long)f->best.version, (long long)f->wanted);
    return false;
}

/* Reads the topology again, on the members in turn until one has version
 * `wanted` (the freshest read is kept), and adopts it when its version is
 * newer than g's (the same too with force; never older), or g's came from
 * a locator file. False with err when no open member answered with the
 * catalog: the last good topology stays. */
static bool follow_catalog(gc_global *g, bool force, int64_t wanted, const char *setup_sql,
                           gc_error *err)
{
    freshest_topology f = { .have = false, .member = -1, .wanted = wanted };
    gc_global_catalog_read(g, gc_global_catalog_query_member(g), read_topology, &f, err);
    gc_topology nt = f.best;
    if (!f.have) {
        gc_trace_write(g->trace, GC_TRACE_INFO,
                       "topology not read again (%s): keeping catalog version %lld",
                       err->message, (long long)g->topo.version);
        if (err->sqlstate[0] == '\0')
            gc_error_set(err, "08S01", 0, "no member answered with the cluster catalog");
        return false;
    }
    if (g->topo.version >= 0 &&
        (nt.version < g->topo.version || (!force && nt.version == g->topo.version))) {
        gc_topology_free(&nt);
        return true;
    }
    /* Raised by ALTER SYSTEM RECONNECT GLOBAL CONNECTION or gcctl reconnect
     * elsewhere: this connection reconnects too. */
    bool reconnect = !force && raised_by_reconnect(g, f.member);
    /* Later connections of the process open the new members at once. */
    char *key = gc_global_topology_key(g->refresh->settings);
    if (key != NULL)
        gc_topology_remember(key, &nt);
    free(key);
    if (!adopt_topology(g, &nt, setup_sql, err))
        return false;
    if (reconnect && g->pool != NULL) {
        /* The connection holds no session between transactions: the
         * pool's are closed, by the first connection of the process to
         * follow this version, and opened anew when borrowed. */
        gc_trace_write(g->trace, GC_TRACE_INFO,
                       "catalog version %lld was raised to reconnect: closing the shared "
                       "idle sessions", (long long)g->topo.version);
        gc_global_drop_idle_sessions(g, g->topo.version);
    } else if (reconnect) {
        gc_trace_write(g->trace, GC_TRACE_INFO,
                       "catalog version %lld was raised to reconnect: reopening every "
                       "member session", (long long)g->topo.version);
        reopen_all(g, setup_sql);
    }
    return true;
}

bool gc_global_follow_catalog(gc_global *g, const char *setup_sql, gc_error *err)
{
    gc_global_refresh *r = g->refresh;
    if (r == NULL || g->pinned >= 0)
        return true;
    int64_t before = g->topo.version;
    take_notifications(g);
    bool follow = r->heard && r->heard_version > g->topo.version;
    int64_t wanted = follow ? r->heard_version : -1;
    if (!follow) {
        /* Due, a notification without a usable payload, or an explicit call
         * (after this connection's own DDL): ask the server, the listener
         * first, another member when its session is gone. */
        int64_t v = -1;
        gc_error verr;
        gc_error_clear(&verr);
        /* Under the global session no session listens: one is borrowed. */
        int preferred = g->pool != NULL ? gc_global_catalog_query_member(g) : ensure_listener(g);
        if (gc_global_catalog_read(g, preferred, read_version_into, &v, &verr) < 0)
            gc_trace_write(g->trace, GC_TRACE_INFO, "catalog version check: %s", verr.message);
        follow = v > g->topo.version || (v >= 0 && g->topo.version < 0);
        wanted = v;
    }
    r->last_check_ms = gc_clock_ms();
    r->heard = false;
    r->heard_version = -1;
    /* Every check also settles what dead coordinators left prepared. */
    gc_in_doubt_check(g);
    bool ok = true;
    if (follow) {
        gc_trace_write(g->trace, GC_TRACE_INFO,
                       "catalog version %lld is old: reading the topology", (long long)before);
        ok = follow_catalog(g, false, wanted, setup_sql, err);
    }
    /* Sessions borrowed for the check go back: the statement borrows its
     * own, with the connection's session characteristics. */
    gc_global_give_back_sessions(g, false);
    return ok;
}

/* The open primary session of group grp, or -1. */
static int group_primary(const gc_global *g, int grp)
{
    for (int i = 0; i < g->topo.n_members; i++)
        if (g->topo.members[i].group == grp && gc_member_is_open(g->members[i]) &&
            gc_member_get_role(g->members[i]) == GC_ROLE_PRIMARY)
            return i;
    return -1;
}

/* Runs sql on group primary *prim for RECONNECT; *out gets the result.
 * False with err only for the server's refusal (its session lives on:
 * 42501 without the admin grant). A session that died under it is marked
 * down and *prim becomes -1, *out NULL: the group is left out. */
static bool on_group_primary(gc_global *g, int *prim, const char *sql, PGresult **out,
                             gc_error *err)
{
    gc_member *m = g->members[*prim];
    unsigned long generation = gc_member_generation(m);
    *out = gc_member_exec(m, sql, err);
    if (*out != NULL)
        return true;
    if (gc_member_is_open(m))
        return false;
    gc_global_member_failed(g, *prim, generation, err);
    *prim = -1;
    gc_error_clear(err);
    return true;
}

/* Fills info (01000) naming the groups RECONNECT left out: those where no
 * member answered, and those where members answered but no primary (the
 * version was not raised there). A group whose members were never opened
 * (LocalityOnDemand) is neither. info stays cleared when none. */
static void report_left_out(const gc_global *g, const int *prim, gc_error *info)
{
    gc_strbuf down, unraised;
    gc_strbuf_init(&down);
    gc_strbuf_init(&unraised);
    for (int grp = 0; grp < g->topo.n_groups; grp++) {
        if (prim[grp] >= 0)
            continue;
        bool open = false, failed = false;
        for (int i = 0; i < g->topo.n_members; i++) {
            if (g->topo.members[i].group != grp)
                continue;
            open = open || gc_member_is_open(g->members[i]);
            failed = failed || gc_member_get_state(g->members[i]) == GC_MEMBER_DOWN;
        }
        gc_strbuf *list = open ? &unraised : failed ? &down : NULL;
        if (list != NULL)
            gc_strbuf_appendf(list, "%s%s", list->len > 0 ? ", " : "", g->topo.groups[grp].name);
    }
    if (down.len > 0 || unraised.len > 0)
        gc_error_set(info, "01000", 0, "RECONNECT %s%s%s%s%s%s%s",
                     down.len > 0 ? "did not reach group " : "", down.len > 0 ? down.data : "",
                     down.len > 0 ? " (no member answered)" : "",
                     down.len > 0 && unraised.len > 0 ? "; it " : "",
                     unraised.len > 0 ? "did not raise the catalog version on group " : "",
                     unraised.len > 0 ? unraised.data : "",
                     unraised.len > 0 ? " (no primary answered)" : "");
    gc_strbuf_free(&down);
    gc_strbuf_free(&unraised);
}

bool gc_global_reconnect(gc_global *g, const char *setup_sql, int64_t *version,
                         gc_error *err, gc_error *info)
{
    assert(g->pinned < 0);
    gc_error_clear(info);
    /* Every session first: one whose server died is found and left down,
     * and a standby promoted since says on its new session that it is
     * primary. */
    reopen_all(g, setup_sql);
    if (gc_global_first_open_member(g) < 0) {
        gc_error_set(err, "08S01", 0, "RECONNECT: no member of the cluster answered");
        return false;
    }
    int ng = g->topo.n_groups;
    int prim[ng > 0 ? ng : 1];
    int64_t top = g->topo.version;
    /* As gcctl reconnect: the highest version any primary has, + 1, on all. */
    for (int grp = 0; grp < ng; grp++) {
        prim[grp] = group_primary(g, grp);
        PGresult *res = NULL;
        if (prim[grp] >= 0 &&
            !on_group_primary(g, &prim[grp], "SELECT version FROM gcluster.version", &res, err))
            return false;
        int64_t v = res != NULL && PQntuples(res) == 1 ? strtoll(PQgetvalue(res, 0, 0), NULL, 10)
                                                       : -1;
        if (v > top)
            top = v;
        PQclear(res);
    }
    int64_t result = -1;
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT gcluster.bump_version('%s', %lld)", GC_RECONNECT_REASON,
             (long long)(top + 1));
    for (int grp = 0; grp < ng; grp++) {
        PGresult *res = NULL;
        if (prim[grp] >= 0 && !on_group_primary(g, &prim[grp], sql, &res, err))
            return false;   /* 42501 without the admin grant: the server's answer */
        int64_t v = res != NULL && PQntuples(res) == 1 ? strtoll(PQgetvalue(res, 0, 0), NULL, 10)
                                                       : -1;
        if (v > result)
            result = v;
        PQclear(res);
    }
    if (result < 0) {
        gc_error_set(err, "08S01", 0,
                     "RECONNECT: no group's primary answered: the catalog version cannot be raised");
        return false;
    }
    *version = result;
    gc_trace_write(g->trace, GC_TRACE_INFO, "RECONNECT: catalog version raised to %lld",
                   (long long)result);
    /* Sessions given back meanwhile are older than the RECONNECT too; the
     * connections following the new version need not close them again. */
    if (g->pool != NULL)
        gc_global_drop_idle_sessions(g, result);
    report_left_out(g, prim, info);   /* before the topology may renumber groups */
    /* The version is new: read the topology at it (and its shard map). */
    gc_error ferr;
    gc_error_clear(&ferr);
    if (!follow_catalog(g, true, result, setup_sql, &ferr))
        gc_trace_write(g->trace, GC_TRACE_INFO, "RECONNECT: %s", ferr.message);
    g->refresh->heard = false;
    g->refresh->last_check_ms = gc_clock_ms();
    return true;
}
