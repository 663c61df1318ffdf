/*
 * gcctl_follow: see gcctl_follow.h.
 */
#include "gcctl_follow.h"

#include <stdio.h>
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

bool gcctl_follow_monitor(gcctl_cluster *c, const gcctl_ha_node *nodes, int n, bool *changed,
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
        gcctl_spec_make_primary(spec, p->name);
        *changed = true;
    }
    if (!*changed)
        return true;
    /* The files first, as promote does: they name the primary even if the
     * catalog update fails and is retried. */
    return gcctl_spec_check(spec, err) && gcctl_cluster_save(c, err) &&
           gcctl_apply(c->target, "automatic promotion", NULL, err);
}
