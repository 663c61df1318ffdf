/*
 * gcctl_follow: the catalog follows pg_auto_failover. When the monitor has
 * promoted a member that DIR's files and gcluster.members still call a
 * standby, the files and the catalog are brought in line (as after
 * `gcctl promote`), so the roles gcctl and the driver read are the
 * monitor's. Run by `gcctl status` on a local cluster with HA.
 */
#ifndef GCCTL_FOLLOW_H
#define GCCTL_FOLLOW_H

#include <stdbool.h>

#include "gcctl_ha.h"
#include "gcctl_ops.h"

/* Compares each HA group's primary in c's spec with the monitor's nodes;
 * for each group the monitor has given another primary, says so on stdout,
 * makes it the spec's primary, saves DIR's files and applies the catalog.
 * *changed says whether anything changed. False with err set when the
 * files or the catalog could not be written (run it again: apply is
 * idempotent). */
bool gcctl_follow_monitor(gcctl_cluster *c, const gcctl_ha_node *nodes, int n, bool *changed,
                          gc_error *err);

#endif
