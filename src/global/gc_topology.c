/*
 * gc_topology: the cluster's groups and members, from the gcluster catalog
 * (one statement, hence one round trip and one snapshot) or from a locator
 * file.
 */
#include "global/gc_topology.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Everything in one SELECT: one round trip, and one snapshot, so the version
 * always matches the groups and members read with it (separate statements
 * could straddle a gcctl rewrite). Rows are tagged by kind (0 cluster and
 * version, 1 group, 2 member) and ordered within a kind: groups by position,
 * members by their group's position, the catalog's primary first, then by
 * position. Every column is text so the branches union.
 *
 * The one-row tables are read through LIMIT 2 (two rows are enough to see
 * that one is too many): never analyzed, they would be planned at hundreds
 * of rows each, their cross join at about 700,000, and the plan's cost would
 * switch on JIT compilation, which made this statement take 40 ms instead of
 * 2 on every connect. */
static const char topology_query[] =
    "SELECT kind, a, b, c, d, e FROM ("
    " SELECT 0 AS kind, 0::bigint AS ord, c.name AS a, v.version::text AS b,"
    "   NULL::text AS c, NULL::text AS d, NULL::text AS e"
    "  FROM (SELECT name FROM gcluster.cluster LIMIT 2) c"
    "  CROSS JOIN (SELECT version FROM gcluster.version LIMIT 2) v"
    " UNION ALL"
    " SELECT 1, row_number() OVER (ORDER BY g.position, g.name), g.name,"
    "   g.fdw_server::text, NULL, NULL, NULL"
    "  FROM gcluster.groups g"
    " UNION ALL"
    " SELECT 2, row_number() OVER (ORDER BY g.position, g.name,"
    "   m.role <> 'primary', m.position, m.name),"
    "   m.name, m.group_name, m.host, m.port::text, m.role"
    "  FROM gcluster.members m JOIN gcluster.groups g ON g.name = m.group_name"
    ") AS topology ORDER BY kind, ord";

enum { COL_KIND, COL_A, COL_B, COL_C, COL_D, COL_E };

void gc_topology_free(gc_topology *t)
{
    if (t == NULL)
        return;
    for (int i = 0; i < t->n_groups; i++) {
        free(t->groups[i].name);
        free(t->groups[i].fdw_server);
    }
    for (int i = 0; i < t->n_members; i++) {
        free(t->members[i].name);
        free(t->members[i].host);
        free(t->members[i].port);
    }
    free(t->groups);
    free(t->members);
    free(t->cluster);
    memset(t, 0, sizeof *t);
}

/* Copies s into *dst; false with HY001 in err when memory runs out. */
static bool copy_text(char **dst, const char *s, gc_error *err)
{
    *dst = strdup(s);
    if (*dst == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory reading the cluster topology");
        return false;
    }
    return true;
}

int gc_topology_group_index(const gc_topology *t, const char *name)
{
    assert(t != NULL);
    if (name == NULL)
        return -1;
    for (int i = 0; i < t->n_groups; i++) {
        if (strcmp(t->groups[i].name, name) == 0)
            return i;
    }
    return -1;
}

int gc_topology_group_of_fdw_server(const gc_topology *t, const char *fdw_server)
{
    assert(t != NULL);
    if (fdw_server == NULL)
        return -1;
    for (int i = 0; i < t->n_groups; i++) {
        if (t->groups[i].fdw_server != NULL &&
            strcmp(t->groups[i].fdw_server, fdw_server) == 0)
            return i;
    }
    return -1;
}

/* Parses the catalog's version (a bigint printed by the server). */
static bool parse_version(const char *text, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0')
        return false;
    *out = (int64_t)v;
    return true;
}

/* Fills t from the rows of topology_query. On failure err says what the
 * catalog lacks; the caller frees what was filled. */
static bool topology_from_rows(const PGresult *res, gc_topology *t, gc_error *err)
{
    int rows = PQntuples(res);
    if (PQnfields(res) != 6) {
        gc_error_set(err, "08001", 0, "the gcluster catalog query returned %d columns, expected 6",
                     PQnfields(res));
        return false;
    }
    int groups = 0, members = 0, clusters = 0;
    for (int r = 0; r < rows; r++) {
        const char *kind = PQgetvalue(res, r, COL_KIND);
        if (strcmp(kind, "0") == 0)
            clusters++;
        else if (strcmp(kind, "1") == 0)
            groups++;
        else if (strcmp(kind, "2") == 0)
            members++;
    }
    if (clusters != 1) {
        gc_error_set(err, "08001", 0,
                     "the gcluster catalog is incomplete: gcluster.cluster and "
                     "gcluster.version must hold one row each");
        return false;
    }
    if (groups == 0 || members == 0) {
        gc_error_set(err, "08001", 0,
                     "the gcluster catalog lists no %s", groups == 0 ? "group" : "member");
        return false;
    }
    t->groups = calloc((size_t)groups, sizeof *t->groups);
    t->members = calloc((size_t)members, sizeof *t->members);
    if (t->groups == NULL || t->members == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory reading the cluster topology");
        return false;
    }
    /* Rows come ordered by kind: cluster, then groups, then members, so every
     * member's group is known when the member is read. */
    for (int r = 0; r < rows; r++) {
        const char *kind = PQgetvalue(res, r, COL_KIND);
        const char *a = PQgetvalue(res, r, COL_A);
        const char *b = PQgetvalue(res, r, COL_B);
        if (strcmp(kind, "0") == 0) {
            if (!copy_text(&t->cluster, a, err))
                return false;
            if (!parse_version(b, &t->version)) {
                gc_error_set(err, "08001", 0, "gcluster.version holds no number: '%s'", b);
                return false;
            }
        } else if (strcmp(kind, "1") == 0) {
            gc_topo_group *g = &t->groups[t->n_groups++];
            if (!copy_text(&g->name, a, err) || !copy_text(&g->fdw_server, b, err))
                return false;
        } else if (strcmp(kind, "2") == 0) {
            gc_topo_member *m = &t->members[t->n_members++];
            if (!copy_text(&m->name, a, err) ||
                !copy_text(&m->host, PQgetvalue(res, r, COL_C), err) ||
                !copy_text(&m->port, PQgetvalue(res, r, COL_D), err))
                return false;
            m->catalog_primary = strcmp(PQgetvalue(res, r, COL_E), "primary") == 0;
            m->group = gc_topology_group_index(t, b);
            /* The join in the query guarantees the group exists. */
            assert(m->group >= 0);
        }
    }
    return true;
}

bool gc_topology_load(gc_member *session, gc_topology *out, gc_error *err)
{
    return gc_topology_load_with(session, NULL, NULL, 0, out, err);
}

bool gc_topology_load_with(gc_member *session, const char *also, PGresult **also_rows,
                           int n_also, gc_topology *out, gc_error *err)
{
    assert(session != NULL && out != NULL && n_also >= 0 && n_also < 8);
    memset(out, 0, sizeof *out);
    char *sql = NULL;
    if (also != NULL) {
        size_t n = sizeof topology_query + strlen(also) + 2;
        sql = malloc(n);
        if (sql == NULL) {
            gc_error_set(err, "HY001", 0, "out of memory reading the cluster topology");
            return false;
        }
        snprintf(sql, n, "%s; %s", topology_query, also);
    }
    PGresult *rows[8];
    gc_error exec_err;
    gc_error_clear(&exec_err);
    bool ran = gc_member_exec_rows(session, sql != NULL ? sql : topology_query, rows,
                                   1 + n_also, &exec_err);
    free(sql);
    if (!ran) {
        /* Keep the server's SQLSTATE (42P01 when the catalog is missing, 08S01
         * for a lost link) so the caller can fall back to a locator file. */
        gc_error_set(err, exec_err.sqlstate[0] ? exec_err.sqlstate : "08001",
                     exec_err.native, "cannot read the gcluster catalog from member %s: %s",
                     gc_member_name(session) ? gc_member_name(session) : "-",
                     exec_err.message);
        return false;
    }
    bool ok = topology_from_rows(rows[0], out, err);
    PQclear(rows[0]);
    for (int i = 0; i < n_also; i++) {
        if (ok)
            also_rows[i] = rows[1 + i];
        else
            PQclear(rows[1 + i]);
    }
    if (!ok)
        gc_topology_free(out);
    return ok;
}

/* Builds groups (in order of first appearance) and members (file order) from
 * a locator. A locator carries no roles and no FDW server names: gcctl lists
 * each group's primary first, so the first member of a group is taken as the
 * catalog primary, and each group's FDW server bears the group's name, the
 * cluster's convention (docs/cluster.md). Version is -1: unknown. */
bool gc_topology_from_locator(const gc_locator *loc, gc_topology *out, gc_error *err)
{
    assert(loc != NULL && out != NULL);
    memset(out, 0, sizeof *out);
    out->version = -1;
    if (loc->member_count == 0 || loc->member_count > (size_t)INT32_MAX) {
        gc_error_set(err, "08001", 0, "the locator lists no member");
        return false;
    }
    size_t n = loc->member_count;
    out->groups = calloc(n, sizeof *out->groups);     /* at most one group per member */
    out->members = calloc(n, sizeof *out->members);
    if (out->groups == NULL || out->members == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory reading the cluster topology");
        gc_topology_free(out);
        return false;
    }
    if (loc->cluster != NULL && !copy_text(&out->cluster, loc->cluster, err)) {
        gc_topology_free(out);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        const gc_locator_member *lm = &loc->members[i];
        int g = gc_topology_group_index(out, lm->group);
        bool first_of_group = g < 0;
        if (g < 0) {
            gc_topo_group *grp = &out->groups[out->n_groups];
            if (!copy_text(&grp->name, lm->group, err) ||
                !copy_text(&grp->fdw_server, lm->group, err)) {
                out->n_groups++;    /* so the free sees what was copied */
                gc_topology_free(out);
                return false;
            }
            g = out->n_groups++;
        }
        gc_topo_member *m = &out->members[out->n_members++];
        char port[16];
        snprintf(port, sizeof port, "%d", lm->port);
        m->group = g;
        m->catalog_primary = first_of_group;
        if (!copy_text(&m->name, lm->name, err) || !copy_text(&m->host, lm->host, err) ||
            !copy_text(&m->port, port, err)) {
            gc_topology_free(out);
            return false;
        }
    }
    return true;
}

bool gc_topology_copy(const gc_topology *src, gc_topology *dst, gc_error *err)
{
    assert(src != NULL && dst != NULL);
    memset(dst, 0, sizeof *dst);
    dst->version = src->version;
    if (src->cluster != NULL && !copy_text(&dst->cluster, src->cluster, err))
        return false;
    dst->groups = calloc((size_t)src->n_groups + 1, sizeof *dst->groups);
    dst->members = calloc((size_t)src->n_members + 1, sizeof *dst->members);
    if (dst->groups == NULL || dst->members == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory copying the cluster topology");
        gc_topology_free(dst);
        return false;
    }
    for (int i = 0; i < src->n_groups; i++) {
        const gc_topo_group *g = &src->groups[i];
        gc_topo_group *d = &dst->groups[dst->n_groups++];
        if (!copy_text(&d->name, g->name, err) ||
            (g->fdw_server != NULL && !copy_text(&d->fdw_server, g->fdw_server, err))) {
            gc_topology_free(dst);
            return false;
        }
    }
    for (int i = 0; i < src->n_members; i++) {
        const gc_topo_member *m = &src->members[i];
        gc_topo_member *d = &dst->members[dst->n_members++];
        d->group = m->group;
        d->catalog_primary = m->catalog_primary;
        if (!copy_text(&d->name, m->name, err) || !copy_text(&d->host, m->host, err) ||
            !copy_text(&d->port, m->port, err)) {
            gc_topology_free(dst);
            return false;
        }
    }
    return true;
}
