/*
 * gcctl_ops: see gcctl_ops.h.
 */
#include "gcctl_ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gcctl_apply.h"
#include "gcctl_catalog.h"
#include "gcctl_follow.h"

bool gcctl_cluster_open(gcctl_cluster *c, const char *dir, const char *spec_path, gc_error *err)
{
    memset(c, 0, sizeof *c);
    if ((dir == NULL) == (spec_path == NULL)) {
        gc_error_set(err, "HY000", 0, "name the cluster with --dir DIR (local) or --spec FILE");
        return false;
    }
    if (dir) {
        c->is_local = true;
        if (!gcctl_local_open(dir, &c->local, err))
            return false;
        c->spec = &c->local.spec;
        c->target = &c->local.target;
        c->local.target.spec = c->spec;
        return true;
    }
    if (!gcctl_spec_load(spec_path, &c->remote_spec, err))
        return false;
    for (size_t i = 0; i < c->remote_spec.nmembers; i++)
        if (c->remote_spec.members[i].port == 0) {
            gc_error_set(err, "HY000", 0, "%s: member %s has port 0; a running cluster needs real ports",
                         spec_path, c->remote_spec.members[i].name);
            return false;
        }
    c->spec = &c->remote_spec;
    c->remote_target.spec = c->spec;
    c->target = &c->remote_target;
    return true;
}

void gcctl_cluster_close(gcctl_cluster *c)
{
    gcctl_strlist_free(&c->pending);
    if (c->is_local)
        gcctl_local_close(&c->local);
    else
        gcctl_spec_free(&c->remote_spec);
}

bool gcctl_cluster_save(gcctl_cluster *c, gc_error *err)
{
    if (c->is_local)
        return gcctl_local_write_files(&c->local, NULL, err);
    return gcctl_spec_write(c->spec, c->spec->file, err);
}

void gcctl_report_pending(const gcctl_cluster *c, const char *done)
{
    if (c->pending.n == 0)
        return;
    fprintf(stderr, "gcctl: %s; the catalog of group%s", done, c->pending.n > 1 ? "s" : "");
    for (size_t i = 0; i < c->pending.n; i++)
        fprintf(stderr, "%s %s", i ? "," : "", c->pending.items[i]);
    fprintf(stderr, " still needs the change (primary down): run `gcctl apply %s` once it answers\n",
            c->is_local ? "--dir DIR" : "SPEC");
}

/* ---- status ---- */

static void print_shards(PGconn *conn, const char *who)
{
    gc_error err;
    PGresult *r = gcctl_query(conn, who,
        "SELECT t.name, t.method, array_to_string(t.key, ', '), coalesce(t.owner_group, ''),"
        "       coalesce(s.name, ''), coalesce(s.group_name, ''), coalesce(s.bound, '')"
        "  FROM gcluster.tables t LEFT JOIN gcluster.shards s ON s.table_name = t.name"
        " ORDER BY t.name, s.position", 0, NULL, &err);
    if (!r) {
        printf("tables: unknown (%s)\n", err.message);
        return;
    }
    const char *last = "";
    for (int i = 0; i < PQntuples(r); i++) {
        const char *table = PQgetvalue(r, i, 0);
        if (strcmp(table, last) != 0) {
            if (strcmp(PQgetvalue(r, i, 1), "solo") == 0)
                printf("table %s: solo on %s\n", table, PQgetvalue(r, i, 3));
            else
                printf("table %s: %s (%s)\n", table, PQgetvalue(r, i, 1), PQgetvalue(r, i, 2));
            last = table;
        }
        if (PQgetvalue(r, i, 4)[0])
            printf("  %-20s %-6s %s\n", PQgetvalue(r, i, 4), PQgetvalue(r, i, 5), PQgetvalue(r, i, 6));
    }
    PQclear(r);
}

/* The version of each group's catalog as status found it: on its primary
 * when that answered, else on a standby; -1 when no member answered. */
static long long group_version(const gcctl_spec *spec, const long long *versions,
                               const char *group)
{
    long long v = -1;
    for (size_t i = 0; i < spec->nmembers; i++) {
        const gcctl_member *m = &spec->members[i];
        if (strcmp(m->group, group) != 0 || versions[i] < 0)
            continue;
        if (m->is_primary)
            return versions[i];
        if (v < 0)
            v = versions[i];
    }
    return v;
}

bool gcctl_status(gcctl_cluster *c, gc_error *err)
{
    /* Under HA the monitor's word comes first: the roles below follow it. */
    gcctl_ha_node *nodes = NULL;
    int nnodes = 0;
    bool ha = c->is_local && c->local.monitor_port != 0;
    if (ha) {
        gc_error merr;
        bool changed;
        nnodes = gcctl_ha_nodes(&c->local, &nodes, &merr);
        if (nnodes < 0)
            printf("pg_auto_failover monitor: %s\n", merr.message);
        else if (!gcctl_follow_monitor(c, nodes, nnodes, &changed, &merr))
            fprintf(stderr, "gcctl: warning: the catalog does not follow the monitor yet: %s\n",
                    merr.message);
        /* A group left out is named; status still exits 0 (the supervisor,
         * or the next status or apply, catches it up). */
        gcctl_report_pending(c, "the catalog follows the monitor");
        gcctl_strlist_free(&c->pending);
    }
    const gcctl_spec *spec = c->spec;
    PGconn *catalog = NULL;
    const char *catalog_member = NULL;
    long long catalog_version = -1;
    long long *versions = gcctl_xcalloc(spec->nmembers ? spec->nmembers : 1, sizeof *versions);
    printf("cluster %s, database %s\n", spec->cluster, spec->database);
    printf("%-10s %-6s %-22s %-8s %-10s %s%s\n", "MEMBER", "GROUP", "ADDRESS", "ROLE", "STATE",
           "VERSION", ha ? "  HA STATE (reported/assigned)" : "");
    for (size_t i = 0; i < spec->nmembers; i++) {
        const gcctl_member *m = &spec->members[i];
        gc_error cerr;
        char addr[300];
        snprintf(addr, sizeof addr, "%s:%d", m->host, m->port);
        PGconn *conn = gcctl_connect(c->target, m, NULL, 3, &cerr);
        const char *state = "down";
        char *version = NULL, *recovery = NULL;
        if (conn) {
            recovery = gcctl_query_value(conn, m->name, "SELECT pg_is_in_recovery()", &cerr);
            version = gcctl_query_value(conn, m->name, "SELECT version FROM gcluster.version", &cerr);
            state = !recovery ? "up" : strcmp(recovery, "t") == 0 ? "standby" : "primary";
        }
        versions[i] = version ? atoll(version) : -1;
        printf("%-10s %-6s %-22s %-8s %-10s %s", m->name, m->group, addr,
               m->is_primary ? "primary" : "standby", state, version ? version : "-");
        const gcctl_ha_node *node = gcctl_ha_find(nodes, nnodes, m->name);
        if (node)
            printf("%*s%s/%s", version ? 9 - (int)strlen(version) : 8, "", node->reported, node->goal);
        printf("\n");
        free(version);
        free(recovery);
        /* The tables come from the freshest catalog: a group that was down
         * during a change still has the old one. */
        if (conn && m->is_primary && versions[i] > catalog_version) {
            PQfinish(catalog);
            catalog = conn;
            catalog_member = m->name;
            catalog_version = versions[i];
        } else {
            PQfinish(conn);
        }
    }
    long long top = -1;
    for (size_t g = 0; g < spec->groups.n; g++) {
        long long v = group_version(spec, versions, spec->groups.items[g]);
        if (v > top)
            top = v;
    }
    for (size_t g = 0; g < spec->groups.n; g++) {
        long long v = group_version(spec, versions, spec->groups.items[g]);
        if (v >= 0 && v < top)
            printf("group %s: catalog version %lld is behind %lld: a change did not reach it "
                   "(gcctl apply %s catches it up once its primary answers)\n",
                   spec->groups.items[g], v, top, c->is_local ? "--dir DIR" : "SPEC");
    }
    free(versions);
    if (catalog) {
        print_shards(catalog, catalog_member);
        PQfinish(catalog);
    } else {
        printf("tables: unknown (no primary reachable)\n");
    }
    free(nodes);
    (void)err;
    return true;
}

bool gcctl_reconnect(gcctl_cluster *c, gc_error *err)
{
    long long v = gcctl_catalog_bump_all(c->target, "reconnect", &c->pending, err);
    if (v < 0)
        return false;
    printf("version %lld\n", v);
    gcctl_report_pending(c, "version raised");
    return true;
}

/* ---- promote ---- */

/* The host a standby should use to reach its new primary p. A local cluster
 * streams through its socket directory. Elsewhere the spec's host, except
 * when the standby streamed through a Unix socket (current_host a path) and
 * p runs on the standby's host: a socket reaches any server on that machine
 * and may be the only way the replication user is allowed in. */
static const char *standby_primary_host(const gcctl_cluster *c, const gcctl_member *s,
                                        const gcctl_member *p, const char *current_host)
{
    if (c->is_local)
        return c->local.socket_dir;
    if (current_host && current_host[0] == '/' && strcmp(s->host, p->host) == 0)
        return current_host;
    return p->host;
}

/* Points a standby at its group's new primary: rewrites primary_conninfo,
 * keeping every other option (user, password, application_name). */
static bool repoint_standby(gcctl_cluster *c, const gcctl_member *s, const gcctl_member *p, gc_error *err)
{
    PGconn *conn = gcctl_connect(c->target, s, "postgres", 5, err);
    if (!conn)
        return false;
    char *current = gcctl_query_value(conn, s->name, "SHOW primary_conninfo", err);
    bool ok = current != NULL;
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    if (ok) {
        char *perr = NULL;
        PQconninfoOption *opts = PQconninfoParse(current, &perr);
        PQfreemem(perr);
        char port[16];
        snprintf(port, sizeof port, "%d", p->port);
        const char *current_host = NULL;
        for (PQconninfoOption *o = opts; o && o->keyword; o++)
            if (strcmp(o->keyword, "host") == 0 && o->val && *o->val)
                current_host = o->val;
        gc_strbuf_append_str(&sb, "host=");
        gcctl_sb_literal(&sb, standby_primary_host(c, s, p, current_host));
        gc_strbuf_append_str(&sb, " port=");
        gcctl_sb_literal(&sb, port);
        for (PQconninfoOption *o = opts; o && o->keyword; o++) {
            if (!o->val || !*o->val || strcmp(o->keyword, "host") == 0 ||
                strcmp(o->keyword, "port") == 0 || strcmp(o->keyword, "hostaddr") == 0)
                continue;
            gc_strbuf_appendf(&sb, " %s=", o->keyword);
            gcctl_sb_literal(&sb, o->val);
        }
        PQconninfoFree(opts);
    }
    char *conninfo = gcctl_sb_take(&sb);
    if (ok) {
        gc_strbuf_init(&sb);
        gc_strbuf_append_str(&sb, "ALTER SYSTEM SET primary_conninfo = ");
        gcctl_sb_literal(&sb, conninfo);
        char *sql = gcctl_sb_take(&sb);
        ok = gcctl_exec(conn, s->name, sql, err) &&
             gcctl_exec(conn, s->name, "SELECT pg_reload_conf()", err);
        free(sql);
    }
    free(conninfo);
    free(current);
    PQfinish(conn);
    return ok;
}

/* How many standbys stream from p, waiting up to timeout_s for at least
 * one; -1 when p cannot be asked. */
static int count_streaming_standbys(gcctl_cluster *c, const gcctl_member *p, int timeout_s)
{
    int n = -1;
    for (int attempt = 0; attempt < timeout_s * 10; attempt++) {
        n = gcctl_streaming_standbys(c->target, p);
        if (n > 0)
            return n;
        struct timespec ts = { 0, 100 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    return n;
}

/* After a promotion in a synchronous cluster: the new primary p waits for a
 * standby only when one streams from it; otherwise no COMMIT could ever
 * return. The standbys that should follow it (others, repointed) get a few
 * seconds to connect. */
static bool sync_after_promote(gcctl_cluster *c, const gcctl_member *p, size_t others, gc_error *err)
{
    if (c->spec->replication != GCCTL_REPLICATION_SYNC)
        return true;
    int streaming = others > 0 ? count_streaming_standbys(c, p, 10) : 0;
    if (others > 0 && streaming <= 0)
        fprintf(stderr, "gcctl: warning: no standby of %s streams from %s yet; "
                "it commits alone until add-member or a later promote\n", p->group, p->name);
    return gcctl_set_synchronous_standbys(c->target, p, streaming > 0, err);
}

/* Promotes m with pg_promote after checking that its group's primary old
 * is not running (two primaries would split the group). */
static bool promote_by_hand(gcctl_cluster *c, const gcctl_member *m, const gcctl_member *old,
                            gc_error *err)
{
    gc_error ignored;
    PGconn *oldc = gcctl_connect(c->target, old, "postgres", 2, &ignored);
    if (oldc) {
        char *rec = gcctl_query_value(oldc, old->name, "SELECT pg_is_in_recovery()", &ignored);
        bool running_primary = rec && strcmp(rec, "f") == 0;
        free(rec);
        PQfinish(oldc);
        if (running_primary) {
            gc_error_set(err, "HY000", 0, "%s, the primary of %s, is still running; stop it before promoting %s",
                         old->name, m->group, m->name);
            return false;
        }
    }
    PGconn *conn = gcctl_connect(c->target, m, "postgres", 5, err);
    if (!conn)
        return false;
    char *done = gcctl_query_value(conn, m->name, "SELECT pg_promote(true, 60)", err);
    PQfinish(conn);
    bool ok = done && strcmp(done, "t") == 0;
    free(done);
    if (!ok && !gc_error_is_set(err))
        gc_error_set(err, "HY000", 0, "%s: promotion did not finish within 60 s", m->name);
    return ok;
}

/* After a promotion by hand: the group's other standbys follow the new
 * primary p (old, the former primary, is left alone) and, in a synchronous
 * cluster, p waits for them. */
static bool follow_new_primary(gcctl_cluster *c, const gcctl_member *p, const char *old_name,
                               gc_error *err)
{
    gcctl_spec *spec = c->spec;
    size_t repointed = 0;
    for (size_t i = 0; i < spec->nmembers; i++) {
        const gcctl_member *s = &spec->members[i];
        gc_error serr;
        if (s->is_primary || strcmp(s->group, p->group) != 0 || strcmp(s->name, old_name) == 0)
            continue;
        if (repoint_standby(c, s, p, &serr))
            repointed++;
        else
            fprintf(stderr, "gcctl: warning: %s not repointed: %s\n", s->name, serr.message);
    }
    return sync_after_promote(c, p, repointed, err);
}

bool gcctl_promote(gcctl_cluster *c, const char *name, gc_error *err)
{
    gcctl_spec *spec = c->spec;
    gcctl_member *m = gcctl_spec_member(spec, name);
    if (!m) {
        gc_error_set(err, "HY000", 0, "no member %s in cluster %s", name, spec->cluster);
        return false;
    }
    /* Under HA the supervisor may have followed the monitor's promotion
     * into the files already: the steps below then only apply the catalog
     * (idempotent). */
    bool followed = m->is_primary && c->is_local && c->local.monitor_port != 0 &&
                    gcctl_ha_group(spec, m->group);
    if (m->is_primary && !followed) {
        gc_error_set(err, "HY000", 0, "%s is already the primary of %s", m->name, m->group);
        return false;
    }
    char promoted[64], group[64], old_name[64];
    snprintf(promoted, sizeof promoted, "%s", m->name);
    snprintf(group, sizeof group, "%s", m->group);
    snprintf(old_name, sizeof old_name, "%s", gcctl_spec_primary(spec, group)->name);
    /* Under pg_auto_failover the monitor promotes (a promotion of our own
     * would fight it) and its keepers repoint the standbys. */
    bool ha = c->is_local && c->local.monitor_port != 0 && gcctl_ha_group(spec, group);
    if (ha ? !gcctl_ha_promote(&c->local, m, 60, err)
           : !promote_by_hand(c, m, gcctl_spec_primary(spec, group), err))
        return false;
    gcctl_spec_make_primary(spec, promoted);
    if (!gcctl_spec_check(spec, err))
        return false;
    if (!ha && !follow_new_primary(c, gcctl_spec_primary(spec, group), old_name, err))
        return false;
    /* The files first: they must say who the primary is even if the catalog
     * update below fails and has to be retried with apply. */
    if (!gcctl_cluster_save(c, err))
        return false;
    /* A group whose primary is down cannot be written now; the promotion
     * stands all the same (docs/cluster.md, "Groups that were down"). */
    if (!gcctl_apply_reachable(c->target, "promote", NULL, &c->pending, err))
        return false;
    char what[200];
    snprintf(what, sizeof what, "%s is the primary of %s", promoted, group);
    gcctl_report_pending(c, what);
    return true;
}

/* ---- scale-out (local clusters) ---- */

bool gcctl_add_member(gcctl_cluster *c, const char *name, const char *group, const char *host,
                      int port, gc_error *err)
{
    if (!c->is_local) {
        gc_error_set(err, "HY000", 0, "add-member builds the server itself: it needs a local cluster (--dir)");
        return false;
    }
    gcctl_spec *spec = c->spec;
    if (!gcctl_spec_has_group(spec, group)) {
        gc_error_set(err, "HY000", 0, "no group %s in cluster %s (use add-group)", group, spec->cluster);
        return false;
    }
    gcctl_spec_add_member(spec, name, group, host ? host : "127.0.0.1", port);
    if (!gcctl_spec_check(spec, err) || !gcctl_local_pick_ports(spec, err))
        return false;
    gcctl_member *m = gcctl_spec_member(spec, name);
    gcctl_local *l = &c->local;
    if (!gcctl_local_add_standby(l, m, err))
        return false;
    /* A group left committing alone by a promote waits for a standby again
     * (under HA pg_auto_failover sets the quorum). */
    if (spec->replication == GCCTL_REPLICATION_SYNC && !gcctl_ha_group(spec, group) &&
        !gcctl_set_synchronous_standbys(c->target, gcctl_spec_primary(spec, group), true, err))
        return false;
    if (!gcctl_cluster_save(c, err))
        return false;
    return gcctl_apply(c->target, "add-member", NULL, err);
}

bool gcctl_add_group(gcctl_cluster *c, const char *group, const char *const *members, size_t n,
                     const char *host, gc_error *err)
{
    if (!c->is_local) {
        gc_error_set(err, "HY000", 0, "add-group builds the servers itself: it needs a local cluster (--dir)");
        return false;
    }
    gcctl_spec *spec = c->spec;
    if (gcctl_spec_has_group(spec, group)) {
        gc_error_set(err, "HY000", 0, "group %s already exists", group);
        return false;
    }
    if (n == 0) {
        gc_error_set(err, "HY000", 0, "add-group needs at least one --member NAME");
        return false;
    }
    for (size_t i = 0; i < n; i++)
        gcctl_spec_add_member(spec, members[i], group, host ? host : "127.0.0.1", 0);
    if (!gcctl_spec_check(spec, err) || !gcctl_local_pick_ports(spec, err))
        return false;
    gcctl_local *l = &c->local;
    const gcctl_member *p = gcctl_spec_primary(spec, group);
    if (!gcctl_local_add_primary(l, p, err))
        return false;
    /* Saved before apply so that local down finds the new servers. */
    if (!gcctl_cluster_save(c, err) || !gcctl_apply(c->target, "add-group", NULL, err))
        return false;
    for (size_t i = 1; i < n; i++) {
        const gcctl_member *s = gcctl_spec_member(spec, members[i]);
        if (!gcctl_local_add_standby(l, s, err))
            return false;
    }
    if (n > 1 && spec->replication == GCCTL_REPLICATION_SYNC && !gcctl_ha_group(spec, group))
        return gcctl_set_synchronous_standbys(c->target, p, true, err);
    return true;
}

/* Puts every primary in line with the spec's replication mode: synchronous
 * is (re)applied every time; asynchronous only undoes a synchronous mode the
 * cluster had (was_sync), so settings a user made by hand are kept. */
static bool apply_replication(gcctl_cluster *c, bool was_sync, gc_error *err)
{
    if (c->spec->replication == GCCTL_REPLICATION_SYNC)
        return gcctl_local_sync_groups(c->target, err);
    for (size_t g = 0; was_sync && g < c->spec->groups.n; g++)
        if (!gcctl_set_synchronous_standbys(c->target, gcctl_spec_primary(c->spec, c->spec->groups.items[g]),
                                            false, err))
            return false;
    return true;
}

bool gcctl_apply_spec(gcctl_cluster *c, const char *spec_path, gc_error *err)
{
    if (!c->is_local || spec_path == NULL) {
        /* The cluster was opened from this very spec, or its own is applied
         * again. */
        bool changed = false;
        if (!gcctl_apply(c->target, "apply", &changed, err) || !apply_replication(c, false, err))
            return false;
        printf(changed ? "applied; version raised\n" : "nothing to change\n");
        return true;
    }
    gcctl_spec next;
    if (!gcctl_spec_load(spec_path, &next, err)) {
        gcctl_spec_free(&next);
        return false;
    }
    for (size_t i = 0; i < next.nmembers; i++) {
        gcctl_member *m = &next.members[i];
        const gcctl_member *now = gcctl_spec_member(c->spec, m->name);
        if (!now || strcmp(now->group, m->group) != 0 || now->is_primary != m->is_primary ||
            (m->port != 0 && m->port != now->port)) {
            gc_error_set(err, "HY000", 0, "%s: member %s differs from the running cluster "
                         "(use add-member, add-group or promote to change members)", spec_path, m->name);
            gcctl_spec_free(&next);
            return false;
        }
        m->port = now->port;
    }
    if (next.nmembers != c->spec->nmembers) {
        gc_error_set(err, "HY000", 0, "%s lists %zu members, the running cluster has %zu",
                     spec_path, next.nmembers, c->spec->nmembers);
        gcctl_spec_free(&next);
        return false;
    }
    bool was_sync = c->spec->replication == GCCTL_REPLICATION_SYNC;
    gcctl_spec_free(c->spec);
    *c->spec = next;
    bool changed = false;
    if (!gcctl_apply(c->target, "apply", &changed, err) || !gcctl_cluster_save(c, err) ||
        !apply_replication(c, was_sync, err))
        return false;
    printf(changed ? "applied; version raised\n" : "nothing to change\n");
    return true;
}
