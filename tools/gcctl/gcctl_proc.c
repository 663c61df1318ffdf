/*
 * gcctl_proc: see gcctl_proc.h.
 */
#define _GNU_SOURCE
#include "gcctl_proc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

bool gcctl_proc_server_user(char *name, size_t size, uid_t *uid, gid_t *gid, gc_error *err)
{
    struct passwd *pw = geteuid() == 0 ? getpwnam("postgres") : getpwuid(geteuid());
    if (!pw) {
        gc_error_set(err, "HY000", 0, geteuid() == 0
                     ? "running as root needs the unprivileged user 'postgres' to run the servers"
                     : "cannot find the current user in the password database");
        return false;
    }
    snprintf(name, size, "%s", pw->pw_name);
    *uid = pw->pw_uid;
    *gid = pw->pw_gid;
    return true;
}

const char *gcctl_proc_bindir(void)
{
    static char found[256];
    const char *env = getenv("GCCTL_PG_BINDIR");
    if (env && *env)
        return env;
    for (int major = 20; major >= 13; major--) {
        char path[256];
        snprintf(path, sizeof path, "/usr/lib/postgresql/%d/bin/initdb", major);
        if (access(path, X_OK) == 0) {
            snprintf(found, sizeof found, "/usr/lib/postgresql/%d/bin", major);
            return found;
        }
    }
    return "/usr/bin";
}

bool gcctl_proc_redirect(const char *log_path)
{
    int in = open("/dev/null", O_RDONLY);
    int out = open(log_path ? log_path : "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (in < 0 || out < 0)
        return false;
    dup2(in, 0);
    dup2(out, 1);
    dup2(out, 2);
    close(in);
    close(out);
    return true;
}

pid_t gcctl_proc_spawn(const char *const *argv, uid_t uid, gid_t gid, const char *log_path,
                       gc_error *err)
{
    char program[512];
    if (argv[0][0] == '/')
        snprintf(program, sizeof program, "%s", argv[0]);
    else
        snprintf(program, sizeof program, "%s/%s", gcctl_proc_bindir(), argv[0]);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        gc_error_set(err, "HY000", 0, "cannot start %s: %s", argv[0], strerror(errno));
        return -1;
    }
    if (pid == 0) {
        if (geteuid() == 0) {
            if (setgroups(0, NULL) != 0 || setgid(gid) != 0 || setuid(uid) != 0)
                _exit(126);
        }
        if (!gcctl_proc_redirect(log_path))
            _exit(126);
        /* Servers started by pg_ctl must not die with gcctl's terminal. */
        setsid();
        execv(program, (char *const *)argv);
        _exit(127);
    }
    return pid;
}

bool gcctl_proc_wait(pid_t pid)
{
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return false;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

bool gcctl_proc_run(const char *what, const char *const *argv, uid_t uid, gid_t gid,
                    const char *log_path, gc_error *err)
{
    pid_t pid = gcctl_proc_spawn(argv, uid, gid, log_path, err);
    if (pid < 0)
        return false;
    if (!gcctl_proc_wait(pid)) {
        gc_error_set(err, "HY000", 0, "%s failed (see %s)", what, log_path ? log_path : "its output");
        return false;
    }
    return true;
}

bool gcctl_proc_run_within(const char *what, const char *const *argv, uid_t uid, gid_t gid,
                           const char *log_path, int timeout_s, gc_error *err)
{
    pid_t pid = gcctl_proc_spawn(argv, uid, gid, log_path, err);
    if (pid < 0)
        return false;
    int status = 0;
    for (int tick = 0;; tick++) {
        pid_t got = waitpid(pid, &status, WNOHANG);
        if (got == pid)
            break;
        if (got < 0 && errno != EINTR) {
            gc_error_set(err, "HY000", 0, "%s: cannot wait for it: %s", what, strerror(errno));
            return false;
        }
        if (tick >= timeout_s * 10) {
            kill(-pid, SIGKILL);   /* its process group: spawn made it a session leader */
            gcctl_proc_wait(pid);
            gc_error_set(err, "HY000", 0, "%s did not end within %d s: stopped (see %s)", what,
                         timeout_s, log_path ? log_path : "its output");
            return false;
        }
        struct timespec ts = { 0, 100 * 1000000L };
        nanosleep(&ts, NULL);
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        gc_error_set(err, "HY000", 0, "%s failed (see %s)", what, log_path ? log_path : "its output");
        return false;
    }
    return true;
}

size_t gcctl_proc_read(pid_t pid, const char *file, char *buf, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/%s", (long)pid, file);
    FILE *f = fopen(path, "r");
    size_t n = 0;
    if (f) {
        n = fread(buf, 1, size - 1, f);
        fclose(f);
    }
    buf[n] = '\0';
    return n;
}

/* Reads the command name and session of pid from /proc/PID/stat; false
 * when the process is gone. The name is in parentheses and may hold
 * spaces, so the fields after it are read from the last ')'. */
static bool read_stat(pid_t pid, char *comm, size_t size, pid_t *session)
{
    char line[1024];
    if (gcctl_proc_read(pid, "stat", line, sizeof line) == 0)
        return false;
    char *open = strchr(line, '(');
    char *close = strrchr(line, ')');
    if (!open || !close || close < open)
        return false;
    snprintf(comm, size, "%.*s", (int)(close - open - 1), open + 1);
    char state;
    long ppid, pgrp, sess;
    if (sscanf(close + 1, " %c %ld %ld %ld", &state, &ppid, &pgrp, &sess) != 4)
        return false;
    *session = (pid_t)sess;
    return state != 'Z';
}

int gcctl_proc_kill_session(pid_t sid, const char *prefix)
{
    if (sid <= 0)
        return 0;
    DIR *proc = opendir("/proc");
    if (!proc)
        return 0;
    int killed = 0;
    struct dirent *e;
    while ((e = readdir(proc)) != NULL) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        char comm[64];
        pid_t session;
        if (*end != '\0' || pid <= 0 || !read_stat((pid_t)pid, comm, sizeof comm, &session))
            continue;
        if (session == sid && strncmp(comm, prefix, strlen(prefix)) == 0 && kill((pid_t)pid, SIGKILL) == 0)
            killed++;
    }
    closedir(proc);
    return killed;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st; (void)flag; (void)ftw;
    remove(path);
    return 0;
}

bool gcctl_proc_remove_tree(const char *path)
{
    nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return access(path, F_OK) != 0;
}
