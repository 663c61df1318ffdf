/*
 * gcctl_follow: see gcctl_follow.h.
 */
#include "gcctl_follow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcctl_apply.h"

/* The member the monitor has made group's primary, or NULL (none, or the
 * group is not under HA). */
static const gcctl_ha_node *monitor_primary(const gcctl_ha_node *nodes, int n, const char *group)
{
    for (int i = 0; i < n; i++)
        if (strcmp(nodes[i].group, group) == 0 && gcctl_ha_is_primary_state(&nodes[i]))
            return &nodes[i];
    return NULL;
}

/* Makes the monitor's primary of each group the spec's (saying so on
 * stdout) and saves DIR's files when one changed; *changed tells. */
static bool follow_files(gcctl_cluster *c, const gcctl_ha_node *nodes, int n, bool *changed,
                         gc_error *err)
{
    gcctl_spec *spec = c->spec;
    *changed = false;
    for (size_t g = 0; g < spec->groups.n; g++) {
        const char *group = spec->groups.items[g];
        const gcctl_ha_node *p = monitor_primary(nodes, n, group);
        const gcctl_member *listed = gcctl_spec_primary(spec, group);
        if (!p || !listed || strcmp(listed->name, p->name) == 0 || !gcctl_spec_member(spec, p->name))
            continue;
        printf("pg_auto_failover promoted %s (was %s): the catalog follows\n", p->name, listed->name);
        fflush(stdout);
        gcctl_spec_make_primary(spec, p->name);
        *changed = true;
    }
    /* The files first, as promote does: they name the primary even if the
     * catalog update fails and is retried. */
    return !*changed || (gcctl_spec_check(spec, err) && gcctl_cluster_save(c, err));
}

bool gcctl_follow_monitor(gcctl_cluster *c, const gcctl_ha_node *nodes, int n, bool *changed,
                          gc_error *err)
{
    if (!follow_files(c, nodes, n, changed, err))
        return false;
    return !*changed || gcctl_apply_reachable(c->target, "automatic promotion", NULL, &c->pending, err);
}

/* Whether gcluster.members on group's primary p names other roles than
 * the spec; *waiting is set when p does not take writes yet (still in
 * recovery, or read-only while pg_auto_failover waits for the old primary
 * to demote itself). A primary that does not answer counts as in line:
 * it is asked again next round. */
static bool catalog_behind(gcctl_cluster *c, const gcctl_member *p, bool *waiting)
{
    gc_error ignored;
    PGconn *conn = gcctl_connect(c->target, p, NULL, 2, &ignored);
    if (!conn)
        return false;
    char *recovery = gcctl_query_value(conn, p->name,
        "SELECT pg_is_in_recovery() OR current_setting('transaction_read_only')::bool", &ignored);
    bool behind = false;
    if (recovery && strcmp(recovery, "t") == 0) {
        *waiting = true;
    } else if (recovery) {
        PGresult *r = gcctl_query(conn, p->name, "SELECT name, role FROM gcluster.members", 0, NULL,
                                  &ignored);
        for (int i = 0; r && i < PQntuples(r) && !behind; i++) {
            const gcctl_member *m = gcctl_spec_member(c->spec, PQgetvalue(r, i, 0));
            behind = m && strcmp(PQgetvalue(r, i, 1), m->is_primary ? "primary" : "standby") != 0;
        }
        PQclear(r);
    }
    free(recovery);
    PQfinish(conn);
    return behind;
}

gcctl_follow_result gcctl_follow_round(gcctl_cluster *c, gc_error *err)
{
    gcctl_ha_node *nodes = NULL;
    int n = gcctl_ha_nodes(&c->local, &nodes, err);
    bool changed = false;
    bool ok = n >= 0 && follow_files(c, nodes, n, &changed, err);
    free(nodes);
    if (!ok)
        return GCCTL_FOLLOW_FAILED;
    bool behind = false, waiting = false;
    for (size_t g = 0; g < c->spec->groups.n; g++)
        behind |= catalog_behind(c, gcctl_spec_primary(c->spec, c->spec->groups.items[g]), &waiting);
    if (waiting)
        return GCCTL_FOLLOW_WAITING;
    if (!changed && !behind)
        return GCCTL_FOLLOW_IN_LINE;
    if (!gcctl_apply_reachable(c->target, "automatic promotion", NULL, &c->pending, err))
        return GCCTL_FOLLOW_FAILED;
    return c->pending.n > 0 ? GCCTL_FOLLOW_PENDING : GCCTL_FOLLOW_APPLIED;
}
