/*
 * gcctl_ops: commands that act on an existing cluster, found through
 * --dir DIR (a local cluster) or --spec FILE (servers a user runs).
 */
#ifndef GCCTL_OPS_H
#define GCCTL_OPS_H

#include <stdbool.h>

#include "gcctl_local.h"

typedef struct gcctl_cluster {
    bool is_local;
    gcctl_local local;       /* when is_local */
    gcctl_spec remote_spec;  /* otherwise */
    gcctl_target remote_target;
    gcctl_spec *spec;        /* whichever applies */
    gcctl_target *target;
    gcctl_strlist pending;   /* groups whose catalog a command could not
                                write (their primary did not answer); gcctl
                                then exits 3 (docs/cluster.md) */
} gcctl_cluster;

/* Opens the cluster named by dir or spec_path (exactly one non-NULL). */
bool gcctl_cluster_open(gcctl_cluster *c, const char *dir, const char *spec_path, gc_error *err);
void gcctl_cluster_close(gcctl_cluster *c);

/* After a topology change: rewrites DIR's files (local clusters). */
bool gcctl_cluster_save(gcctl_cluster *c, gc_error *err);

/* Prints every member's role (the spec's) and state (the server's), the
 * tables as the freshest catalog has them (the highest version any
 * primary holds), and each group whose catalog is behind that version. */
bool gcctl_status(gcctl_cluster *c, gc_error *err);
/* Tells which groups a command left out (c->pending), and how they catch
 * up (`gcctl apply`); main then exits 3. done: what the command did. */
void gcctl_report_pending(const gcctl_cluster *c, const char *done);
/* Raises the version on every group's primary that answers; the others
 * go to c->pending. */
bool gcctl_reconnect(gcctl_cluster *c, gc_error *err);
/* Promotes standby name (its group's primary must be down). The catalog is
 * written on every group whose primary answers; the others go to
 * c->pending, with a warning, and catch up at the next apply. With
 * synchronous replication the new primary waits for a standby only when one
 * of the group's other standbys streams from it within a few seconds;
 * otherwise it commits alone (synchronous_standby_names ''), since no COMMIT
 * could return. add-member of a standby makes it synchronous again. */
bool gcctl_promote(gcctl_cluster *c, const char *name, gc_error *err);
bool gcctl_add_member(gcctl_cluster *c, const char *name, const char *group, const char *host,
                      int port, gc_error *err);
bool gcctl_add_group(gcctl_cluster *c, const char *group, const char *const *members, size_t n,
                     const char *host, gc_error *err);
/* gcctl apply SPEC: applies a new spec; for a local cluster the members must
 * be the cluster's (ports 0 take the running ports). The replication mode
 * is applied to every primary too. spec_path NULL (gcctl apply --dir DIR):
 * applies the cluster's own spec again, which brings up to date a group
 * that missed a change while its primary was down. */
bool gcctl_apply_spec(gcctl_cluster *c, const char *spec_path, gc_error *err);

#endif
