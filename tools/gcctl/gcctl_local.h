/*
 * gcctl_local: clusters on this machine for development, tests and demos.
 * DIR holds what users and tools read (cluster.yaml with the real ports,
 * locator.yaml, odbc.ini, odbcinst.ini) and local.state, which names the
 * data root: a private directory owned by the server user, holding one data
 * directory per member, the Unix socket directory and the server logs.
 */
#ifndef GCCTL_LOCAL_H
#define GCCTL_LOCAL_H

#include <stdbool.h>
#include <sys/types.h>

#include "gcctl_conn.h"
#include "gcctl_spec.h"

typedef struct gcctl_local {
    char dir[1024];
    char base[1024];        /* data root */
    char socket_dir[1100];
    char os_user[64];       /* runs the servers; also their superuser */
    uid_t uid;
    gid_t gid;
    gcctl_spec spec;        /* DIR/cluster.yaml */
    gcctl_target target;    /* reaches members through socket_dir */
    int monitor_port;       /* pg_auto_failover's monitor; 0: no group has HA */
    pid_t supervisor_pid;   /* `gcctl local supervise` (gcctl_supervise.h); 0: none */
    char apply_lock[1100];  /* DIR/local.lock (gcctl_target.apply_lock) */
} gcctl_local;

/* Opens the local cluster in dir: reads local.state and cluster.yaml. The
 * caller releases it with gcctl_local_close. */
bool gcctl_local_open(const char *dir, gcctl_local *l, gc_error *err);
void gcctl_local_close(gcctl_local *l);

/* Rewrites DIR/local.state from l: the data root, the server user, the
 * monitor's port and the supervisor's pid. */
bool gcctl_local_write_state(const gcctl_local *l, gc_error *err);

/* gcctl local up SPEC --dir DIR [--driver PATH] */
bool gcctl_local_up(const char *spec_path, const char *dir, const char *driver, gc_error *err);

/* gcctl local down --dir DIR: stops every member and removes all data. */
bool gcctl_local_down(const char *dir, gc_error *err);

/* Stops / starts one member. mode: "fast" or "immediate". */
bool gcctl_local_stop_member(gcctl_local *l, const char *name, const char *mode, gc_error *err);
bool gcctl_local_start_member(gcctl_local *l, const char *name, gc_error *err);

/* Creates a primary's data directory with initdb and its configuration. */
bool gcctl_local_init_primary(gcctl_local *l, const gcctl_member *m, gc_error *err);
/* Creates a standby's data directory by streaming a base backup from the
 * primary of its group, configured to follow that primary. */
bool gcctl_local_init_standby(gcctl_local *l, const gcctl_member *m, gc_error *err);
/* Waits until a standby streams from its primary (bounded). */
bool gcctl_local_wait_streaming(gcctl_local *l, const gcctl_member *m, gc_error *err);

/* A member added to a running cluster, built and started: a group's
 * primary (add-group) or a standby (add-member, add-group), under
 * pg_auto_failover when its group has HA: the monitor is made if the
 * cluster had none, and a primary that ran alone is taken under a keeper
 * when its group gets its first standby. A standby is ready when it
 * streams (under HA: when the monitor reports its primary 'primary'). */
bool gcctl_local_add_primary(gcctl_local *l, const gcctl_member *m, gc_error *err);
bool gcctl_local_add_standby(gcctl_local *l, const gcctl_member *m, gc_error *err);

/* Synchronous replication (spec 'replication: synchronous'): on, the primary
 * p answers a COMMIT only once a standby has it (synchronous_standby_names
 * '*', synchronous_commit on); off, it commits alone (names ''). Set with
 * ALTER SYSTEM and a reload, so it survives restarts. Works on any target,
 * local or not. */
bool gcctl_set_synchronous_standbys(const gcctl_target *t, const gcctl_member *p, bool on,
                                    gc_error *err);

/* How many standbys stream from p now; -1 when p cannot be asked. */
int gcctl_streaming_standbys(const gcctl_target *t, const gcctl_member *p);

/* For a spec with synchronous replication: turns it on at the primary of
 * every group that has a standby streaming from it (a warning names a group
 * left committing alone). Nothing to do for asynchronous specs. */
bool gcctl_local_sync_groups(gcctl_target *t, gc_error *err);

/* A free loopback port now (0 with err set when none). */
int gcctl_local_free_port(gc_error *err);

/* Makes directory path (mode 0700; fine if it exists), owned by the server
 * user when owned. */
bool gcctl_local_make_dir(const char *path, const gcctl_local *l, bool owned, gc_error *err);

/* Writes (or appends) text to path, owned by the server user. */
bool gcctl_local_write_file(const gcctl_local *l, const char *path, const char *text,
                            bool append, gc_error *err);

/* The log file of one program run for a member: logs/<member>.<what>.log. */
void gcctl_local_logfile(const gcctl_local *l, const char *member, const char *what, char *buf,
                         size_t size);

/* Picks free loopback ports for members with port 0. */
bool gcctl_local_pick_ports(gcctl_spec *spec, gc_error *err);

/* Rewrites cluster.yaml, locator.yaml, odbc.ini, odbcinst.ini in DIR from
 * l->spec. driver NULL: keep the driver path already written (or guess). */
bool gcctl_local_write_files(gcctl_local *l, const char *driver, gc_error *err);

/* The data directory and log file of a member (static buffers per call). */
void gcctl_local_datadir(const gcctl_local *l, const char *member, char *buf, size_t size);

#endif
