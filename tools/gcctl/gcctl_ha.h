/*
 * gcctl_ha: groups that fail over by themselves, for local clusters whose
 * spec says 'ha: true'. pg_auto_failover does the work: one monitor for the
 * cluster (its own PostgreSQL in the data root, port in local.state), one
 * formation per group (named after the group), one keeper (`pg_autoctl`)
 * per member of a group with a standby, which runs the member's server and
 * promotes, demotes and rewinds it as the monitor decides. gcctl starts the
 * keepers detached (they outlive gcctl, like servers started by pg_ctl) and
 * stops them in local down. pg_autoctl keeps state outside the data
 * directory (XDG directories): each cluster gets its own, in the data root,
 * removed with it.
 */
#ifndef GCCTL_HA_H
#define GCCTL_HA_H

#include <stdbool.h>

#include "gcctl_local.h"

/* Whether group runs under pg_auto_failover: the spec asks for HA and the
 * group has a standby. */
bool gcctl_ha_group(const gcctl_spec *spec, const char *group);

/* Whether any group of the spec does. */
bool gcctl_ha_any(const gcctl_spec *spec);

/* Points pg_autoctl's state at the cluster's own XDG directories (made if
 * missing) and its local connections at the socket directory, through the
 * environment that every program gcctl starts inherits. */
bool gcctl_ha_environment(const gcctl_local *l, gc_error *err);

/* Creates the monitor on a free port (l->monitor_port), tuned for fast
 * failure detection, starts it and creates a formation per HA group. */
bool gcctl_ha_create_monitor(gcctl_local *l, gc_error *err);

/* Creates group's formation on the monitor unless it exists. */
bool gcctl_ha_create_formation(const gcctl_local *l, const char *group, gc_error *err);
/* Has the monitor promote member m of an HA group (a switchover when its
 * primary runs, a failover when not) and waits, at most timeout_s, until
 * the monitor reports it a writable primary. True at once when it is
 * already (the monitor promoted it on its own). */
bool gcctl_ha_promote(const gcctl_local *l, const gcctl_member *m, int timeout_s, gc_error *err);
/* Lets pg_auto_failover's own users (health checks, replication, rewind)
 * reach a primary's server from loopback without a password: written
 * before the spec's rules in pg_hba.conf; standbys get it by base backup. */
bool gcctl_ha_allow_nodes(const gcctl_local *l, const gcctl_member *m, gc_error *err);

/* Registers member m with the monitor and starts its keeper, which creates
 * the standby by base backup (or takes the primary's data directory as it
 * is), then waits until the monitor reports the member 'single' (a
 * primary) or 'secondary' (bounded). */
bool gcctl_ha_create_node(gcctl_local *l, const gcctl_member *m, gc_error *err);

/* Waits until the monitor reports member name in state (bounded). */
bool gcctl_ha_wait_state(const gcctl_local *l, const char *name, const char *state, int timeout_s,
                         gc_error *err);

/* Starts the keeper of a member whose node exists (`pg_autoctl run`),
 * unless one runs already. */
bool gcctl_ha_run_keeper(gcctl_local *l, const gcctl_member *m, gc_error *err);

/* Starts `pg_autoctl run` (detached, output in its keeper log) for member
 * name, or for the monitor when name is NULL; its pid, -1 with err set. */
pid_t gcctl_ha_start_keeper(const gcctl_local *l, const char *name, gc_error *err);

/* The pid of the running keeper of member name (of the monitor when name
 * is NULL), from pg_autoctl's pid file; 0 when none runs. */
pid_t gcctl_ha_keeper_pid(const gcctl_local *l, const char *name);

/* Stops the keeper of the data directory datadir (and so its server) and
 * waits for it to be gone; immediate: without a checkpoint. */
bool gcctl_ha_stop_keeper(const gcctl_local *l, const char *datadir, bool immediate);

/* Undoes gcctl_ha_create_node for a member set up again on another port
 * (its first port was taken): stops its keeper, removes the node from
 * the monitor and pg_autoctl's files for its data directory. The data
 * directory itself stays. */
bool gcctl_ha_forget_node(const gcctl_local *l, const gcctl_member *m, gc_error *err);
/* Stops the monitor and every keeper of the cluster (local down). */
void gcctl_ha_stop_all(const gcctl_local *l);

/* One member as the monitor sees it. */
typedef struct gcctl_ha_node {
    char name[64];
    char group[64];          /* the formation */
    char reported[32];       /* the state the keeper reached */
    char goal[32];           /* the state the monitor assigned */
} gcctl_ha_node;

/* The monitor's nodes; *out is malloc'd (caller frees), count returned,
 * -1 with err set when the monitor does not answer. */
int gcctl_ha_nodes(const gcctl_local *l, gcctl_ha_node **out, gc_error *err);

/* The node named name in nodes, or NULL. */
const gcctl_ha_node *gcctl_ha_find(const gcctl_ha_node *nodes, int n, const char *name);

/* Whether a node in this state is its group's writable primary (or about to
 * be: the monitor has chosen it). */
bool gcctl_ha_is_primary_state(const gcctl_ha_node *node);

#endif
