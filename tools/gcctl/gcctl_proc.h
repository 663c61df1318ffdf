/*
 * gcctl_proc: running PostgreSQL's programs (initdb, pg_ctl, pg_basebackup)
 * for a local cluster. When gcctl runs as root, the programs run as the
 * unprivileged server user, because initdb and the server refuse root.
 */
#ifndef GCCTL_PROC_H
#define GCCTL_PROC_H

#include <stdbool.h>
#include <sys/types.h>

#include "util/gc_error.h"

/* The server user: "postgres" when running as root, else the current user.
 * Fills uid/gid; returns false with err set when the user does not exist. */
bool gcctl_proc_server_user(char *name, size_t size, uid_t *uid, gid_t *gid, gc_error *err);

/* Directory of PostgreSQL's programs: $GCCTL_PG_BINDIR, else the newest
 * /usr/lib/postgresql/<major>/bin that has initdb. Static string. */
const char *gcctl_proc_bindir(void);

/* Starts argv[0] (a program name in the bindir, or an absolute path) with argv as arguments,
 * as uid/gid when gcctl is root, stdout and stderr appended to log_path
 * (NULL: discarded). Returns the child's pid or -1 with err set. */
pid_t gcctl_proc_spawn(const char *const *argv, uid_t uid, gid_t gid, const char *log_path,
                       gc_error *err);

/* In a child about to exec: stdin from /dev/null, stdout and stderr
 * appended to log_path (NULL: discarded). False when a file cannot be
 * opened. */
bool gcctl_proc_redirect(const char *log_path);

/* Waits for a spawned child; true when it exited with status 0. */
bool gcctl_proc_wait(pid_t pid);

/* spawn + wait; on failure err says "<what> failed (see <log>)". */
bool gcctl_proc_run(const char *what, const char *const *argv, uid_t uid, gid_t gid,
                    const char *log_path, gc_error *err);

/* gcctl_proc_run for a program that may wait on others without end: after
 * timeout_s its process group is killed (SIGKILL) and err says so. */
bool gcctl_proc_run_within(const char *what, const char *const *argv, uid_t uid, gid_t gid,
                           const char *log_path, int timeout_s, gc_error *err);

/* Reads /proc/PID/FILE into buf (NUL added after what was read); the
 * bytes read, 0 when the process or the file is gone. */
size_t gcctl_proc_read(pid_t pid, const char *file, char *buf, size_t size);

/* kill -9 of every process of session sid whose command name begins with
 * prefix; returns how many were signalled. A keeper that died leaves its
 * services running in its session (the server too, which is spared by the
 * name), and they must be gone before another keeper takes the node. */
int gcctl_proc_kill_session(pid_t sid, const char *prefix);

/* Removes a directory tree (like rm -rf); true when gone. */
bool gcctl_proc_remove_tree(const char *path);

#endif
