/*
 * gcctl_supervise: the supervisor of a local cluster with HA, one process
 * per cluster (`gcctl local supervise --dir DIR`, started detached by
 * `local up`, its pid in local.state, stopped first by `local down`).
 * - It restarts a keeper (`pg_autoctl run` of a member) or the monitor
 *   whose top process is gone, after 1 s doubling to 30 s for one that
 *   keeps dying, and gives up on one that died 5 times within 60 s (until
 *   it runs again: `local start-member`). It restarts only what it has
 *   seen running, and never a member held by `local stop-member` (until
 *   `local start-member`).
 * - Every 2 s it makes the files and gcluster.members follow the monitor
 *   (gcctl_follow_round), in a child process killed after 60 s, and keeps
 *   at it until every group's catalog is in line.
 * Each restart and catalog change goes, with its reason, to
 * DIR/supervisor.log. docs/cluster.md, "The supervisor".
 */
#ifndef GCCTL_SUPERVISE_H
#define GCCTL_SUPERVISE_H

#include <stdbool.h>

#include "gcctl_local.h"

/* Starts the supervisor of l detached (a cluster with a monitor only;
 * nothing when one runs) and waits until it has written its pid in
 * local.state (l->supervisor_pid). */
bool gcctl_supervise_start(gcctl_local *l, gc_error *err);

/* Stops l's supervisor, if one runs, and waits for it to be gone. */
void gcctl_supervise_stop(const gcctl_local *l);

/* The supervisor itself: runs until SIGTERM or SIGINT, or until DIR no
 * longer holds the cluster. Refuses to start when another supervisor of
 * DIR runs. */
bool gcctl_supervise_run(const char *dir, gc_error *err);

/* Holds member name (stopped on purpose: the supervisor leaves it down)
 * or releases it. */
bool gcctl_supervise_hold(const gcctl_local *l, const char *name, bool held, gc_error *err);

#endif
