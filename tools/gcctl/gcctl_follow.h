/*
 * gcctl_follow: the catalog follows pg_auto_failover. When the monitor has
 * promoted a member that DIR's files and gcluster.members still call a
 * standby, the files and the catalog are brought in line (as after
 * `gcctl promote`), so the roles gcctl and the driver read are the
 * monitor's. Run by `gcctl status` and, every few seconds, by the
 * supervisor of a local cluster with HA (gcctl_supervise.h).
 */
#ifndef GCCTL_FOLLOW_H
#define GCCTL_FOLLOW_H

#include <stdbool.h>

#include "gcctl_ha.h"
#include "gcctl_ops.h"

/* Compares each HA group's primary in c's spec with the monitor's nodes;
 * for each group the monitor has given another primary, says so on stdout,
 * makes it the spec's primary, saves DIR's files and applies the catalog
 * on every group whose primary answers (the others go to c->pending and
 * catch up at a later apply). *changed says whether anything changed.
 * False with err set when the files or the catalog could not be written
 * (run it again: apply is idempotent). */
bool gcctl_follow_monitor(gcctl_cluster *c, const gcctl_ha_node *nodes, int n, bool *changed,
                          gc_error *err);

/* What one round of gcctl_follow_round did. */
typedef enum gcctl_follow_result {
    GCCTL_FOLLOW_IN_LINE,   /* files and every reachable catalog already agree with the monitor */
    GCCTL_FOLLOW_APPLIED,   /* the catalog was written on every group */
    GCCTL_FOLLOW_PENDING,   /* written where the primary answered; c->pending names the others */
    GCCTL_FOLLOW_WAITING,   /* a group's new primary is not out of recovery yet */
    GCCTL_FOLLOW_FAILED     /* err says why (the monitor did not answer, an apply failed) */
} gcctl_follow_result;

/* One round of the supervisor: follows the monitor as gcctl_follow_monitor
 * does, and also applies when a group's catalog (gcluster.members on its
 * primary) names other roles than the files: a group that was down when
 * the change was made catches up once its primary answers. A primary that
 * does not answer is skipped (it is checked again next round). */
gcctl_follow_result gcctl_follow_round(gcctl_cluster *c, gc_error *err);

#endif
