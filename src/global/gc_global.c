/*
 * gc_global: connecting a global connection (seeds, topology, members in
 * parallel, shard map, search_path) and the per-member bookkeeping.
 * Routing itself is in gc_global_route.c.
 */
#include "global/gc_global_internal.h"
#include "global/gc_in_doubt.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/gc_locator.h"
#include "config/gc_servers.h"
#include "global/gc_global_settings.h"
#include "member/gc_member_notify.h"
#include "global/gc_key_cache.h"
#include "global/gc_session_pool.h"
#include "global/gc_temp_tables.h"
#include "global/gc_unanswered.h"
#include "sql/gc_sql_statements.h"
#include "util/gc_strbuf.h"

/* What the session that read the topology learned in the same round trip:
 * the connection needs its search_path, and the topology refresh a primary
 * that LISTENs on the catalog channel. */
typedef struct catalog_reading {
    gc_member *session;   /* the session that read it (pooled, until adopted) */
    char *search_path;    /* that session's search_path; NULL when unknown */
    bool listening;       /* that session LISTENs on GC_CHANNEL */
    bool from_pool;       /* that session was borrowed from the global session */
} catalog_reading;

bool gc_global_opens_on_demand(const gc_settings *s)
{
    return s->locality_on_demand || s->global_session;
}

/* Reads the topology through session, with its search_path and (on a
 * primary) LISTEN in the same round trip: three answers for one wait.
 * Under the global session nothing LISTENs: the session is shared, and the
 * catalog version is checked every TopologyRefresh seconds instead. */
static bool read_catalog(gc_member *session, const gc_settings *s, gc_topology *topo,
                         catalog_reading *reading, gc_error *err)
{
    bool primary = gc_member_get_role(session) == GC_ROLE_PRIMARY && !s->global_session;
    PGresult *search_path = NULL;
    if (!gc_topology_load_with(session,
                               primary ? "SHOW search_path; LISTEN " GC_CHANNEL
                                       : "SHOW search_path",
                               &search_path, 1, topo, err))
        return false;
    reading->session = session;
    reading->listening = primary;
    free(reading->search_path);
    reading->search_path = PQntuples(search_path) == 1 ? strdup(PQgetvalue(search_path, 0, 0))
                                                       : NULL;
    PQclear(search_path);
    return true;
}

/* Sessions opened before the topology was known (the seeds', or one per
 * guessed member), waiting to be adopted by the members they reach. */
typedef struct session_pool {
    gc_member **items;
    int count;
} session_pool;

static bool pool_add(session_pool *pool, gc_member *session)
{
    gc_member **grown = realloc(pool->items, sizeof *grown * ((size_t)pool->count + 1));
    if (grown == NULL)
        return false;
    pool->items = grown;
    pool->items[pool->count++] = session;
    return true;
}

static void pool_free(session_pool *pool)
{
    for (int i = 0; i < pool->count; i++)
        gc_member_destroy(pool->items[i]);
    free(pool->items);
    pool->items = NULL;
    pool->count = 0;
}

static int connect_timeout_ms(const gc_global_options *opt)
{
    int s = opt->member.connect_timeout_s > 0 ? opt->member.connect_timeout_s : 10;
    return s * 1000;
}

/* One session per seed address, added to pool (unnamed: a seed is an
 * address until the catalog says which member it is). False on
 * out-of-memory. */
static bool pool_add_seeds(const gc_global_options *opt, const gc_server_list *servers,
                           const gc_locator *loc, session_pool *pool)
{
    size_t n = servers != NULL ? servers->count : loc->member_count;
    for (size_t i = 0; i < n; i++) {
        char portbuf[16];
        gc_member_params p = opt->member;
        p.name = NULL;
        p.group = NULL;
        if (servers != NULL) {
            p.host = servers->items[i].host;
            p.port = servers->items[i].port;
        } else {
            snprintf(portbuf, sizeof portbuf, "%d", loc->members[i].port);
            p.host = loc->members[i].host;
            p.port = portbuf;
        }
        gc_member *seed = gc_member_create(&p, opt->trace);
        if (seed == NULL || !pool_add(pool, seed)) {
            gc_member_destroy(seed);
            return false;
        }
    }
    return true;
}

/* Whether a failed connect was the TLS handshake refused (the server's
 * certificate not verified, TLS required but not offered, a certificate file
 * missing): libpq gives these no SQLSTATE, only its message. Trying again
 * will not help until the settings change. A connection lost during the
 * handshake ("SSL SYSCALL error") is not one of them. */
static bool is_tls_failure(const gc_error *e)
{
    return strstr(e->message, "certificate") != NULL ||
           strstr(e->message, "SSL error") != NULL ||
           strstr(e->message, "does not support SSL") != NULL;
}

/* The seeds in order: Servers (or Host/Port) when given, else the locator
 * file's members. All of them are connected at once (an address that did
 * not answer earlier in this connect is not waited for again), and the
 * topology is read through the first in order that answers with a catalog;
 * falls back to the locator file when none answers. The seeds' open
 * sessions are left in pool for the members to adopt; with
 * LocalityOnDemand only the one that read the catalog is kept. */
static bool learn_topology(const gc_global_options *opt, gc_topology *topo, session_pool *pool,
                           gc_unanswered *unanswered, catalog_reading *reading, gc_error *err)
{
    const gc_settings *s = opt->settings;
    gc_locator *loc = NULL;
    if (s->locator != NULL && s->locator[0] != '\0') {
        loc = gc_locator_load(s->locator, err);
        if (loc == NULL)
            return false;
    }
    gc_server_list seeds = { 0 };
    gc_error seeds_err;
    gc_error_clear(&seeds_err);
    bool have_servers = gc_settings_servers(s, &seeds, &seeds_err);
    if (!have_servers && loc == NULL) {
        *err = seeds_err;
        return false;
    }

    session_pool tries = { 0 };
    bool made = pool_add_seeds(opt, have_servers ? &seeds : NULL, loc, &tries);
    gc_error *errs = calloc((size_t)tries.count + 1, sizeof *errs);
    if (!made || errs == NULL) {
        free(errs);
        pool_free(&tries);
        if (have_servers)
            gc_server_list_free(&seeds);
        gc_locator_free(loc);
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    gc_unanswered_connect_all(unanswered, tries.items, tries.count, connect_timeout_ms(opt),
                              errs);

    gc_strbuf tried;
    gc_strbuf_init(&tried);
    int found = -1;
    bool some_answered = false;
    gc_error last, refused;   /* refused: a seed turned the login or TLS down */
    const char *refusal = NULL;   /* how the error to the application begins */
    gc_error_clear(&last);
    gc_error_clear(&refused);
    for (int i = 0; i < tries.count && found < 0; i++) {
        gc_member *seed = tries.items[i];
        bool answered = gc_member_is_open(seed);
        last = errs[i];
        if (answered && read_catalog(seed, s, topo, reading, &last)) {
            found = i;
            break;
        }
        bool login_refused = !answered && gc_member_login_refused(&last);
        bool tls_failed = !answered && !login_refused && is_tls_failure(&last);
        const char *what = answered ? "no cluster catalog"
                           : login_refused ? "login refused"
                           : tls_failed ? "TLS failed" : "no answer";
        gc_trace_write(opt->trace, GC_TRACE_INFO, "seed %s:%s: %s: %s",
                       gc_member_host(seed), gc_member_port(seed), what, last.message);
        gc_strbuf_appendf(&tried, "%s%s:%s (%s)", tried.len > 0 ? ", " : "",
                          gc_member_host(seed), gc_member_port(seed), what);
        some_answered = some_answered || answered;
        if ((login_refused || tls_failed) && !gc_error_is_set(&refused)) {
            refused = last;
            refusal = login_refused ? "the seed servers refused the login"
                                    : "the TLS connection to the seed servers failed";
        }
    }
    if (found < 0 && !some_answered && gc_error_is_set(&refused)) {
        /* The server's own answer (its 28P01, 28000 or 3D000 after FATAL)
         * or the TLS error (an unverified certificate) tells the application
         * what to fix; the locator's members would refuse the same. */
        gc_error_set(err, refused.sqlstate, refused.native, "%s: %s; %s", refusal,
                     tried.data != NULL ? tried.data : "", refused.message);
    } else if (found < 0 && loc != NULL && !some_answered) {
        /* No seed answered: the locator file still names the members. */
        gc_trace_write(opt->trace, GC_TRACE_INFO,
                       "no seed answered: members from the locator file %s", s->locator);
        if (gc_topology_from_locator(loc, topo, err))
            found = tries.count;
    } else if (found < 0 && some_answered) {
        gc_error_set(err, "08001", 0,
                     "GlobalConnection=Yes needs a cluster catalog (schema gcluster) on "
                     "the seed servers, and none has it: %s; last error: %s",
                     tried.data != NULL ? tried.data : "", last.message);
    } else if (found < 0) {
        gc_error_set(err, "08001", GC_NATIVE_CONNECT_FAILED,
                     "no seed server answered: %s; last error: %s",
                     tried.data != NULL ? tried.data : "", last.message);
    }
    /* The open sessions wait for their members; the others go. */
    for (int i = 0; i < tries.count; i++) {
        gc_member *seed = tries.items[i];
        bool keep = gc_member_is_open(seed) && (i == found || !gc_global_opens_on_demand(s));
        if (!keep || !pool_add(pool, seed))
            gc_member_destroy(seed);
    }
    free(tries.items);
    free(errs);
    gc_strbuf_free(&tried);
    if (have_servers)
        gc_server_list_free(&seeds);
    gc_locator_free(loc);
    return found >= 0;
}

/* Splits a search_path value ("\"$user\", public") into names as the
 * server stores them (quotes removed), replacing the cached list. */
bool gc_global_split_search_path(gc_global *g, const char *text)
{
    for (int i = 0; i < g->n_search_path; i++)
        free(g->search_path[i]);
    free(g->search_path);
    g->search_path = NULL;
    g->n_search_path = 0;
    g->map_epoch++;    /* a table named without its schema may be another now */
    int cap = 1;
    for (const char *p = text; *p != '\0'; p++)
        cap += *p == ',';
    g->search_path = calloc((size_t)cap, sizeof *g->search_path);
    if (g->search_path == NULL)
        return false;
    const char *p = text;
    while (*p != '\0') {
        while (*p == ' ' || *p == ',')
            p++;
        if (*p == '\0')
            break;
        gc_strbuf name;
        gc_strbuf_init(&name);
        if (*p == '"') {
            p++;
            while (*p != '\0' && !(*p == '"' && p[1] != '"')) {
                if (*p == '"')
                    p++;   /* "" inside quotes is one " */
                gc_strbuf_append_char(&name, *p++);
            }
            if (*p == '"')
                p++;
        } else {
            while (*p != '\0' && *p != ',' && *p != ' ')
                gc_strbuf_append_char(&name, (char)tolower((unsigned char)*p++));
        }
        while (*p != '\0' && *p != ',')
            p++;
        char *taken = gc_strbuf_take(&name);
        if (taken == NULL)
            return false;
        assert(g->n_search_path < cap);
        g->search_path[g->n_search_path++] = taken;
    }
    return true;
}

/* What the connection needs from one open member: the search_path for table
 * lookups (asked now unless search_path already says it) and the shard map
 * (shared through the process-wide cache; another member's when i's
 * session fails). */
static void load_session_data(gc_global *g, int i, const char *search_path)
{
    gc_member *m = g->members[i];
    gc_error err;
    gc_error_clear(&err);
    if (search_path != NULL) {
        gc_global_split_search_path(g, search_path);
    } else {
        PGresult *res = gc_member_exec(m, "SHOW search_path", &err);
        if (res != NULL && PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1)
            gc_global_split_search_path(g, PQgetvalue(res, 0, 0));
        PQclear(res);
        gc_error_clear(&err);
    }
    gc_global_load_shardmap(g, i);
}

/* Creates the member sessions (closed) of g->topo. */
static bool create_members(gc_global *g, const gc_global_options *opt)
{
    int n = g->topo.n_members;
    g->members = calloc((size_t)n, sizeof *g->members);
    g->stats = calloc((size_t)n, sizeof *g->stats);
    g->connect_order = calloc((size_t)n, sizeof *g->connect_order);
    if (g->members == NULL || g->stats == NULL || g->connect_order == NULL)
        return false;
    if (g->pool != NULL && (g->held = calloc((size_t)n, sizeof *g->held)) == NULL)
        return false;
    for (int i = 0; i < n; i++) {
        const gc_topo_member *tm = &g->topo.members[i];
        gc_member_params p = opt->member;
        p.name = tm->name;
        p.group = g->topo.groups[tm->group].name;
        p.host = tm->host;
        p.port = tm->port;
        g->members[i] = gc_member_create(&p, opt->trace);
        if (g->members[i] == NULL)
            return false;
        if (opt->notice_fn != NULL)
            gc_member_set_notice_handler(g->members[i], opt->notice_fn, opt->notice_ctx);
        if (opt->before_send_fn != NULL)
            gc_member_set_before_send(g->members[i], opt->before_send_fn, opt->before_send_ctx);
        g->connect_order[i] = -1;
    }
    return true;
}

/* Opens every member at once (not waiting again for an address that did
 * not answer earlier in this connect); names the ones that did not answer
 * in *info. */
static bool connect_members(gc_global *g, const gc_global_options *opt,
                            gc_unanswered *unanswered, gc_error *err, gc_error *info)
{
    int n = g->topo.n_members;
    gc_error *errs = calloc((size_t)n, sizeof *errs);
    if (errs == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    int open = gc_unanswered_connect_all(unanswered, g->members, n, connect_timeout_ms(opt),
                                         errs);
    gc_strbuf down;
    gc_strbuf_init(&down);
    for (int i = 0; i < n; i++) {
        if (gc_member_is_open(g->members[i])) {
            if (g->connect_order[i] < 0)   /* not adopted from the pool */
                g->connect_order[i] = g->n_opened++;
            continue;
        }
        /* Left DOWN: the failover schedule retries it between
         * transactions, like a member that failed later. */
        gc_trace_write(g->trace, GC_TRACE_INFO, "member %s did not answer: %s",
                       g->topo.members[i].name, errs[i].message);
        gc_strbuf_appendf(&down, "%s%s (%s)", down.len > 0 ? ", " : "",
                          g->topo.members[i].name, errs[i].message);
    }
    if (open == 0) {
        gc_error_set(err, "08001", 0, "no member of the cluster answered: %s",
                     down.data != NULL ? down.data : "");
    } else if (down.len > 0) {
        gc_error_set(info, "01000", 0,
                     "connected to %d of %d members; these did not answer: %s", open, n,
                     down.data);
    }
    gc_strbuf_free(&down);
    free(errs);
    return open > 0;
}

/* Gives each open pooled session to the member at its address, in pool
 * order (which becomes their connect order), then frees the pool: sessions
 * no member wanted are closed. Returns the member that got the session
 * that read the catalog, or -1. */
static int adopt_sessions(gc_global *g, session_pool *pool, const gc_member *reader)
{
    int reader_member = -1;
    for (int p = 0; p < pool->count; p++) {
        for (int i = 0; i < g->topo.n_members; i++) {
            if (gc_member_take_session(g->members[i], pool->items[p])) {
                g->connect_order[i] = g->n_opened++;
                if (pool->items[p] == reader)
                    reader_member = i;
                break;
            }
        }
    }
    pool_free(pool);
    return reader_member;
}

char *gc_global_topology_key(const gc_settings *s)
{
    gc_strbuf key;
    gc_strbuf_init(&key);
    if (!gc_strbuf_appendf(&key, "%s\n%s\n%s\n%s\n%s\n%s", s->servers ? s->servers : "",
                           s->host ? s->host : "", s->port ? s->port : "",
                           s->locator ? s->locator : "", s->database ? s->database : "",
                           s->uid ? s->uid : "")) {
        gc_strbuf_free(&key);
        return NULL;
    }
    return gc_strbuf_take(&key);
}

/* The members to open before any catalog is read: the topology this process
 * last read for the same settings, else the locator file's members. */
static bool guess_topology(const gc_settings *s, const char *key, gc_topology *guess)
{
    if (gc_topology_recall(key, guess))
        return true;
    if (s->locator == NULL || s->locator[0] == '\0')
        return false;
    gc_error err;
    gc_locator *loc = gc_locator_load(s->locator, &err);
    bool ok = loc != NULL && gc_topology_from_locator(loc, guess, &err);
    gc_locator_free(loc);
    return ok;
}

/* Opens a session to every guessed member at once and reads the topology
 * through the first that opened, in guess order: a connect and a round trip
 * instead of a seed's connect, its round trip, then everyone's connect. The
 * sessions go to pool, open or not. False when no session could read a
 * catalog; the caller then asks the seeds as usual. */
static bool topology_through_guess(const gc_global_options *opt, const gc_topology *guess,
                                   gc_topology *topo, session_pool *pool,
                                   gc_unanswered *unanswered, catalog_reading *reading)
{
    int first_new = pool->count;
    for (int i = 0; i < guess->n_members; i++) {
        gc_member_params p = opt->member;
        p.name = guess->members[i].name;
        p.group = NULL;
        p.host = guess->members[i].host;
        p.port = guess->members[i].port;
        gc_member *m = gc_member_create(&p, opt->trace);
        if (m == NULL || !pool_add(pool, m)) {
            gc_member_destroy(m);
            return false;
        }
    }
    int n = pool->count - first_new;
    gc_error *errs = calloc((size_t)n + 1, sizeof *errs);
    if (errs == NULL)
        return false;
    gc_unanswered_connect_all(unanswered, pool->items + first_new, n, connect_timeout_ms(opt),
                              errs);
    free(errs);
    for (int i = first_new; i < pool->count; i++) {
        gc_error err;
        gc_error_clear(&err);
        if (gc_member_is_open(pool->items[i]) &&
            read_catalog(pool->items[i], opt->settings, topo, reading, &err))
            return true;
        if (gc_error_is_set(&err))
            gc_trace_write(opt->trace, GC_TRACE_INFO, "guessed member %s: %s",
                           gc_member_name(pool->items[i]), err.message);
    }
    return false;
}

/* Under the global session: reads the topology through an idle shared
 * session, left in pool for its member to adopt. False when none is idle
 * or it could not read the catalog (the seeds are asked then). */
static bool topology_through_shared(const gc_global_options *opt, gc_session_pool *shared,
                                    gc_topology *topo, session_pool *pool,
                                    catalog_reading *reading)
{
    gc_member *session = shared != NULL ? gc_session_pool_borrow_any(shared) : NULL;
    if (session == NULL)
        return false;
    gc_error err;
    gc_error_clear(&err);
    if (read_catalog(session, opt->settings, topo, reading, &err) && pool_add(pool, session)) {
        reading->from_pool = true;
        return true;
    }
    gc_session_pool_note_lost(shared, session);
    gc_member_destroy(session);
    reading->session = NULL;
    return false;
}

/* The topology and, in pool, the sessions opened to learn it: through an
 * idle shared session under the global session, else through the guessed
 * members when there is a guess (and members are not opened on demand),
 * else through the seeds. */
static bool find_topology(const gc_global_options *opt, gc_session_pool *shared,
                          gc_topology *topo, session_pool *pool, gc_unanswered *unanswered,
                          catalog_reading *reading, gc_error *err)
{
    if (topology_through_shared(opt, shared, topo, pool, reading))
        return true;
    char *key = gc_global_topology_key(opt->settings);
    bool found = false;
    gc_topology guess;
    if (key != NULL && !gc_global_opens_on_demand(opt->settings) &&
        guess_topology(opt->settings, key, &guess)) {
        gc_trace_write(opt->trace, GC_TRACE_INFO,
                       "opening the %d members known beforehand at once", guess.n_members);
        found = topology_through_guess(opt, &guess, topo, pool, unanswered, reading);
        gc_topology_free(&guess);
    }
    if (!found)
        found = learn_topology(opt, topo, pool, unanswered, reading, err);
    if (found && key != NULL && topo->version >= 0)
        gc_topology_remember(key, topo);
    free(key);
    return found;
}

/* Everything after the topology is known: member sessions (adopting those
 * already open in pool), the router, the search_path and shard map, the
 * topology refresh and the failover schedule. False with err when the
 * connection cannot open. */
static bool open_global(gc_global *g, const gc_global_options *opt, session_pool *pool,
                        gc_unanswered *unanswered, const catalog_reading *reading,
                        gc_error *err, gc_global_connect_warnings *warnings)
{
    if (g->topo.n_members == 0) {
        gc_error_set(err, "08001", 0, "the cluster catalog lists no members");
        return false;
    }
    gc_trace_write(g->trace, GC_TRACE_INFO,
                   "cluster %s, catalog version %lld: %d groups, %d members",
                   g->topo.cluster != NULL ? g->topo.cluster : "(locator)",
                   (long long)g->topo.version, g->topo.n_groups, g->topo.n_members);
    if (!create_members(g, opt)) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    int reader = adopt_sessions(g, pool, reading->session);
    if (g->held != NULL && reader >= 0 && reading->from_pool)
        g->held[reader] = true;    /* counted as borrowed already */
    gc_router_config rc = {
        .member_policy = opt->settings->locality_member_policy,
        .member_path = opt->settings->locality_member_path,
        .group_policy = opt->settings->locality_group_policy,
        .group_path = opt->settings->locality_group_path,
        .random_seed = (unsigned)(uintptr_t)g ^ 0x9e3779b9u,
    };
    g->router = gc_router_create(&rc, &g->topo, &warnings->unknown_names);
    if (g->router == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    if (gc_error_is_set(&warnings->unknown_names))
        gc_trace_write(g->trace, GC_TRACE_INFO, "%s", warnings->unknown_names.message);

    int first = reader;
    if (g->on_demand) {
        /* One member still answers now, for the search_path and shard map:
         * the one that read the catalog, else the first whose connect
         * succeeds, in catalog order. An address that did not answer as a
         * seed is not waited for again. */
        for (int i = 0; i < g->topo.n_members && first < 0; i++) {
            const gc_topo_member *tm = &g->topo.members[i];
            const gc_error *earlier = gc_unanswered_find(unanswered, tm->host, tm->port);
            if (earlier != NULL) {
                gc_member_mark_down(g->members[i], gc_member_generation(g->members[i]),
                                    earlier);
                continue;
            }
            gc_error e;
            gc_error_clear(&e);
            if (gc_global_open_member(g, i, NULL, &e))
                first = i;
        }
        if (first < 0) {
            gc_error_set(err, "08001", 0, "no member of the cluster answered");
            return false;
        }
    } else {
        if (!connect_members(g, opt, unanswered, err, &warnings->members_down))
            return false;
        if (first < 0)
            first = gc_global_first_open_member(g);
    }
    load_session_data(g, first, first == reader ? reading->search_path : NULL);
    gc_global_sync_router(g);
    /* Following later catalog versions (gc_global_refresh.c), and
     * reconnecting members that fail (gc_global_failover.c). */
    if (!gc_global_refresh_init(g, opt, reading->listening ? reader : -1) ||
        !gc_global_failover_init(g, opt->settings->reconnect_interval) ||
        (g->in_doubt_watch = gc_in_doubt_watch_add(g)) == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    return true;
}

gc_global *gc_global_connect(const gc_global_options *opt, gc_error *err,
                             gc_global_connect_warnings *warnings)
{
    assert(opt != NULL && opt->settings != NULL && warnings != NULL);
    gc_error_clear(&warnings->members_down);
    gc_error_clear(&warnings->unknown_names);
    gc_global *g = calloc(1, sizeof *g);
    if (g == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return NULL;
    }
    g->pinned = -1;
    g->temps_to_settle = -1;
    g->joined_now = -1;
    g->n_split_keys = -1;
    g->split_reader = -1;
    g->last_member = -1;
    gc_global_forget_joined_writes(g);    /* nothing written yet */
    g->trace = opt->trace;
    g->temps = gc_temp_tables_create();
    if (g->temps == NULL) {
        free(g);
        gc_error_set(err, "HY001", 0, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&g->wait.lock, NULL);
    g->on_demand = gc_global_opens_on_demand(opt->settings);
    g->sequence_cache = opt->settings->sequence_cache > 0 ? opt->settings->sequence_cache : 1;
    if (opt->settings->global_session && !gc_global_join_pool(g, opt->settings)) {
        gc_global_destroy(g);
        gc_error_set(err, "HY001", 0, "out of memory");
        return NULL;
    }
    session_pool pool = { 0 };
    catalog_reading reading = { 0 };
    gc_unanswered unanswered = { 0 };
    bool ok = find_topology(opt, g->pool, &g->topo, &pool, &unanswered, &reading, err) &&
              open_global(g, opt, &pool, &unanswered, &reading, err, warnings);
    gc_unanswered_free(&unanswered);
    pool_free(&pool);
    free(reading.search_path);
    if (!ok) {
        gc_global_destroy(g);
        return NULL;
    }
    return g;
}

void gc_global_destroy(gc_global *g)
{
    if (g == NULL)
        return;
    gc_in_doubt_watch_remove(g->in_doubt_watch);
    /* Shared sessions go back first, marked by the settings they carry. */
    if (g->members != NULL)
        gc_global_give_back_sessions(g, false);
    gc_global_leave_pool(g);
    gc_global_settings_free(g);
    gc_global_refresh_free(g);
    gc_global_failover_free(g);
    for (int i = 0; g->members != NULL && i < g->topo.n_members; i++)
        gc_member_destroy(g->members[i]);
    free(g->members);
    free(g->stats);
    free(g->connect_order);
    free(g->held);
    free(g->joined);
    gc_global_savepoints_forget(g);
    free(g->span_rows);
    free(g->span_leaves);
    gc_router_destroy(g->router);
    gc_global_forget_transaction_shardmap(g);
    if (g->map != NULL)
        gc_shardmap_release(g->map);
    for (int i = 0; i < g->n_search_path; i++)
        free(g->search_path[i]);
    free(g->search_path);
    gc_topology_free(&g->topo);
    gc_temp_tables_destroy(g->temps);
    gc_key_cache_destroy(g->key_cache);
    gc_global_unknown_writes_free(g);
    gc_global_zone_memo_free(g);
    gc_global_txn_settings_free(g);
    pthread_mutex_destroy(&g->wait.lock);
    free(g);
}

const gc_topology *gc_global_topology(const gc_global *g)
{
    return &g->topo;
}

int64_t gc_global_catalog_version(const gc_global *g)
{
    return g->topo.version;
}

int gc_global_member_count(const gc_global *g)
{
    return g->topo.n_members;
}

gc_member *gc_global_member(const gc_global *g, int i)
{
    assert(i >= 0 && i < g->topo.n_members);
    return g->members[i];
}

int gc_global_member_index(const gc_global *g, const gc_member *m)
{
    for (int i = 0; i < g->topo.n_members; i++)
        if (g->members[i] == m)
            return i;
    return -1;
}

int gc_global_first_open_member(const gc_global *g)
{
    for (int i = 0; i < g->topo.n_members; i++)
        if (gc_member_is_open(g->members[i]))
            return i;
    return -1;
}

bool gc_global_open_member(gc_global *g, int i, const char *setup_sql, gc_error *err)
{
    assert(i >= 0 && i < g->topo.n_members);
    gc_member *m = g->members[i];
    if (gc_member_is_open(m))
        return true;
    if (g->pool != NULL)
        return gc_global_borrow_member(g, i, setup_sql, err);
    if (!gc_member_connect(m, err)) {
        /* DOWN now: the router passes it over, the failover schedule
         * retries it later. */
        gc_trace_write(g->trace, GC_TRACE_INFO, "member %s did not answer: %s",
                       g->topo.members[i].name, err->message);
        gc_global_sync_router(g);
        return false;
    }
    g->connect_order[i] = g->n_opened++;
    gc_trace_write(g->trace, GC_TRACE_INFO, "member %s opened on demand",
                   g->topo.members[i].name);
    if (setup_sql != NULL) {
        PGresult *res = gc_member_exec(m, setup_sql, err);
        if (res == NULL) {
            gc_member_mark_down(m, gc_member_generation(m), err);
            gc_member_close(m);
            gc_global_sync_router(g);
            return false;
        }
        PQclear(res);
    }
    gc_global_sync_router(g);
    return true;
}

gc_global_member_stats gc_global_stats(const gc_global *g, int i)
{
    assert(i >= 0 && i < g->topo.n_members);
    return g->stats[i];
}

void gc_global_count_error(gc_global *g, int i)
{
    if (i >= 0 && i < g->topo.n_members)
        g->stats[i].errors++;
}

void gc_global_set_last_member(gc_global *g, int i)
{
    g->last_member = i;
}

int gc_global_last_member(const gc_global *g)
{
    return g->last_member;
}

int gc_global_pinned_member(const gc_global *g)
{
    return g->pinned;
}

bool gc_global_transaction_aborted(const gc_global *g)
{
    return gc_global_aborted_member(g) >= 0;
}

bool gc_global_may_have_reached_out(const gc_global *g)
{
    return g->n_reaching > 0;
}

void gc_global_pin(gc_global *g, int i)
{
    if (i >= 0 && i < g->topo.n_members) {
        g->pinned = i;
        g->may_write_elsewhere = false;    /* a new transaction */
    }
}

/* The temporary tables the ended transaction of member i's session made
 * or dropped: the session, idle again, says which exist (a ROLLBACK undid
 * them), in one query. Without an answer they stay as registered. */
static void settle_temp_tables(gc_global *g, int i)
{
    enum { MAX_ASKED = 32 };
    gc_member *m = g->members[i];
    const char *in_doubt[MAX_ASKED];
    int n = gc_temp_tables_in_doubt(g->temps, gc_member_generation(m), in_doubt, MAX_ASKED);
    if (n == 0 || !gc_member_is_open(m) || gc_member_busy(m) ||
        gc_member_txn_status(m) != PQTRANS_IDLE)
        return;
    char names[MAX_ASKED][GC_TEMP_NAME_MAX];   /* settling moves the registry's entries */
    gc_strbuf sql;
    gc_strbuf_init(&sql);
    gc_strbuf_append_str(&sql, "SELECT to_regclass(format('pg_temp.%I', n)) IS NOT NULL "
                               "FROM unnest(ARRAY[");
    for (int k = 0; k < n; k++) {
        snprintf(names[k], sizeof names[k], "%s", in_doubt[k]);
        char *literal = gc_sql_quote_literal(names[k], strlen(names[k]), NULL);
        gc_strbuf_appendf(&sql, "%s%s", k > 0 ? ", " : "", literal != NULL ? literal : "''");
        free(literal);
    }
    gc_strbuf_append_str(&sql, "]::text[]) WITH ORDINALITY AS u(n, i) ORDER BY i");
    char *text = gc_strbuf_take(&sql);
    gc_error err;
    gc_error_clear(&err);
    PGresult *r = text != NULL ? gc_member_exec(m, text, &err) : NULL;
    for (int k = 0; r != NULL && PQntuples(r) == n && k < n; k++) {
        bool exists = PQgetvalue(r, k, 0)[0] == 't';
        gc_temp_tables_settle(g->temps, names[k], exists);
        if (!exists)
            gc_trace_write(g->trace, GC_TRACE_INFO, "temporary table %s is not on %s after "
                           "its transaction (rolled back): forgotten", names[k],
                           g->topo.members[i].name);
    }
    PQclear(r);
    free(text);
}

void gc_global_settle_temp_tables(gc_global *g)
{
    int i = g->temps_to_settle;
    g->temps_to_settle = -1;
    if (i < 0 || i == g->pinned)
        return;
    settle_temp_tables(g, i);
}

void gc_global_release_pin(gc_global *g)
{
    /* A transaction that ends other than by gc_global_commit_spread (a
     * ROLLBACK, a failure, an error that rolled it back) commits no part
     * anywhere. */
    gc_global_spread_abandon(g);
    if (g->pinned >= 0) {
        gc_trace_write(g->trace, GC_TRACE_INFO, "transaction on %s ended: member released",
                       g->topo.members[g->pinned].name);
        /* Released before its COMMIT or ROLLBACK is sent: its tables are
         * asked about at the next statement. */
        const char *in_doubt[1];
        if (gc_temp_tables_in_doubt(g->temps, gc_member_generation(g->members[g->pinned]),
                                    in_doubt, 1) > 0)
            g->temps_to_settle = g->pinned;
        gc_temp_tables_transaction_ended(g->temps,
                                         gc_member_generation(g->members[g->pinned]));
    }
    /* Settings the transaction made: the pin's session now holds them, or
     * not, as it committed or rolled back; routing reads its search_path. */
    if (g->pinned >= 0 && gc_global_txn_settings_made(g, g->txn_serial) &&
        gc_member_is_open(g->members[g->pinned]) && !gc_member_busy(g->members[g->pinned]) &&
        gc_member_txn_status(g->members[g->pinned]) == PQTRANS_IDLE)
        gc_global_settings_refresh_search_path(g, g->pinned);
    g->pinned = -1;
    g->n_reaching = 0;
    gc_global_forget_joined_writes(g);
    g->txn_serial++;
}

unsigned long gc_global_txn_serial(const gc_global *g)
{
    return g->txn_serial;
}

struct gc_temp_tables *gc_global_temp_tables(gc_global *g)
{
    return g->temps;
}
