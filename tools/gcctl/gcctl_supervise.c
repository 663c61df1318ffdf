/*
 * gcctl_supervise: see gcctl_supervise.h.
 */
#define _GNU_SOURCE
#include "gcctl_supervise.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gcctl_follow.h"
#include "gcctl_ha.h"
#include "gcctl_proc.h"

#define TICK_MS 500              /* how often keepers are looked at */
#define FOLLOW_INTERVAL_S 2.0    /* how often the catalog is compared with the monitor */
#define FOLLOW_TIMEOUT_S 60.0    /* a catalog round running longer is killed */
#define FIRST_DELAY_S 1          /* before the first restart; doubles per death */
#define MAX_DELAY_S 30
#define GIVE_UP_DEATHS 5         /* deaths within GIVE_UP_WINDOW_S: no more restarts */
#define GIVE_UP_WINDOW_S 60.0
#define MAX_WATCHED 256

/* One pg_autoctl process the supervisor keeps running. */
typedef struct watched {
    char name[64];            /* the member, or "" for the monitor */
    bool seen;                /* seen running since the supervisor started or it was released */
    bool gave_up;
    pid_t pid;                /* the keeper's pid when last seen running */
    pid_t child;              /* a keeper this supervisor started, until it is reaped */
    char ended[64];           /* how that child ended */
    double restart_at;        /* when a restart is due; 0: none due */
    double deaths[GIVE_UP_DEATHS];   /* the latest deaths, oldest overwritten */
    int ndeaths;
} watched;

static volatile sig_atomic_t stopping;

static void on_stop(int sig)
{
    (void)sig;
    stopping = 1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A line of the supervisor's log (its stdout): UTC time, then the text. */
static void say(const char *fmt, ...)
{
    char when[32];
    time_t t = time(NULL);
    struct tm tm;
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
    printf("%s ", when);
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

/* Whether pid runs `gcctl local supervise` (and is not a zombie, whose
 * command line is empty). */
static bool is_supervisor(pid_t pid)
{
    if (pid <= 0)
        return false;
    char cmdline[4096];
    size_t n = gcctl_proc_read(pid, "cmdline", cmdline, sizeof cmdline);
    bool local = false;
    for (size_t at = 0; at < n; at += strlen(cmdline + at) + 1) {
        if (local && strcmp(cmdline + at, "supervise") == 0)
            return true;
        local = strcmp(cmdline + at, "local") == 0;
    }
    return false;
}

static void held_path(const gcctl_local *l, const char *name, char *buf, size_t size)
{
    snprintf(buf, size, "%s/held/%s", l->base, name);
}

bool gcctl_supervise_hold(const gcctl_local *l, const char *name, bool held, gc_error *err)
{
    char dir[1200], path[1300];
    snprintf(dir, sizeof dir, "%s/held", l->base);
    held_path(l, name, path, sizeof path);
    if (!held) {
        if (remove(path) == 0 || errno == ENOENT)
            return true;
        gc_error_set(err, "HY000", 0, "cannot remove %s: %s", path, strerror(errno));
        return false;
    }
    if (!gcctl_local_make_dir(dir, l, false, err))
        return false;
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        gc_error_set(err, "HY000", 0, "cannot create %s: %s", path, strerror(errno));
        return false;
    }
    close(fd);
    return true;
}

static bool is_held(const gcctl_local *l, const char *name)
{
    char path[1300];
    held_path(l, name, path, sizeof path);
    return access(path, F_OK) == 0;
}

/* ---- keepers ---- */

static void describe(const watched *w, char *buf, size_t size)
{
    if (w->name[0])
        snprintf(buf, size, "the keeper of %s", w->name);
    else
        snprintf(buf, size, "the monitor");
}

static watched *find_watched(watched *ws, int *n, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (strcmp(ws[i].name, name) == 0)
            return &ws[i];
    if (*n == MAX_WATCHED)
        return NULL;
    watched *w = &ws[(*n)++];
    memset(w, 0, sizeof *w);
    snprintf(w->name, sizeof w->name, "%s", name);
    return w;
}

/* Records a death of w now; true when w should be restarted (after
 * *delay seconds), false when it died too often and is given up. */
static bool count_death(watched *w, double now, int *delay)
{
    w->deaths[w->ndeaths++ % GIVE_UP_DEATHS] = now;
    int recent = 0;
    for (int i = 0; i < GIVE_UP_DEATHS && i < w->ndeaths; i++)
        recent += now - w->deaths[i] < GIVE_UP_WINDOW_S;
    if (recent >= GIVE_UP_DEATHS)
        return false;
    *delay = FIRST_DELAY_S << (recent - 1);
    if (*delay > MAX_DELAY_S)
        *delay = MAX_DELAY_S;
    return true;
}

/* One look at w: notes it running, schedules a restart when it is gone,
 * restarts it when the restart is due. */
static void watch(const gcctl_local *l, watched *w, double now)
{
    const char *member = w->name[0] ? w->name : NULL;
    char who[100];
    describe(w, who, sizeof who);
    if (member && is_held(l, member)) {
        /* Stopped on purpose; once released it is watched afresh (and a
         * keeper given up on is tried again). */
        watched fresh = { .child = w->child };
        snprintf(fresh.name, sizeof fresh.name, "%s", w->name);
        *w = fresh;
        return;
    }
    pid_t pid = gcctl_ha_keeper_pid(l, member);
    if (pid > 0 || w->child > 0) {
        if (pid > 0)
            w->pid = pid;
        if (w->gave_up) {
            /* Started again by hand (`local start-member`): a fresh start. */
            say("%s runs again (pid %ld): supervised again", who, (long)w->pid);
            w->gave_up = false;
            w->ndeaths = 0;
        }
        w->seen = true;
        w->restart_at = 0;
        return;
    }
    if (!w->seen || w->gave_up)
        return;   /* never seen running (being made), or given up */
    if (w->restart_at == 0) {
        char why[160];
        if (w->ended[0])
            snprintf(why, sizeof why, "pid %ld %s", (long)w->pid, w->ended);
        else
            snprintf(why, sizeof why, "pid %ld no longer runs", (long)w->pid);
        w->ended[0] = '\0';
        /* Its services outlive it (a kill -9 of the keeper alone, or of a
         * keeper still starting them); left running they would manage the
         * server beside the next keeper. The server itself stays. */
        int leftovers = gcctl_proc_kill_session(w->pid, "pg_autoctl");
        if (leftovers > 0)
            snprintf(why + strlen(why), sizeof why - strlen(why), "; %d of its services killed", leftovers);
        int delay = 0;
        if (!count_death(w, now, &delay)) {
            w->gave_up = true;
            say("%s is gone (%s): it died %d times within %.0f s, giving up%s", who, why,
                GIVE_UP_DEATHS, GIVE_UP_WINDOW_S,
                member ? "; `gcctl local start-member` starts it again" : "");
            return;
        }
        w->restart_at = now + delay;
        say("%s is gone (%s): restarting it in %d s", who, why, delay);
        return;
    }
    if (now < w->restart_at)
        return;
    gc_error err;
    gc_error_clear(&err);
    w->restart_at = 0;
    w->child = gcctl_ha_start_keeper(l, member, &err);
    if (w->child <= 0) {
        w->child = 0;
        say("cannot restart %s: %s", who, err.message);
        return;
    }
    w->pid = w->child;
    say("restarted %s (pid %ld)", who, (long)w->child);
}

/* Every pg_autoctl process of the cluster: the monitor and the keeper of
 * each member of an HA group. */
static void watch_all(const gcctl_local *l, watched *ws, int *n, double now)
{
    watched *w = find_watched(ws, n, "");
    if (w)
        watch(l, w, now);
    for (size_t i = 0; i < l->spec.nmembers; i++) {
        const gcctl_member *m = &l->spec.members[i];
        if (gcctl_ha_group(&l->spec, m->group) && (w = find_watched(ws, n, m->name)) != NULL)
            watch(l, w, now);
    }
}

/* ---- the catalog ---- */

/* The child that runs one catalog round (gcctl_follow_round), logs what it
 * did when that differs from the round before (last), and exits with the
 * result. */
static pid_t start_follow(const char *dir, int last)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    gcctl_cluster c;
    gc_error err;
    gc_error_clear(&err);
    gcctl_follow_result r = gcctl_cluster_open(&c, dir, NULL, &err) ? gcctl_follow_round(&c, &err)
                                                                    : GCCTL_FOLLOW_FAILED;
    if (r == GCCTL_FOLLOW_APPLIED)
        say("catalog: gcluster.members follows the monitor on every group");
    else if (r == GCCTL_FOLLOW_PENDING) {
        gc_strbuf sb;
        gc_strbuf_init(&sb);
        for (size_t i = 0; i < c.pending.n; i++)
            gc_strbuf_appendf(&sb, "%s%s", i ? ", " : "", c.pending.items[i]);
        char *groups = gcctl_sb_take(&sb);
        say("catalog: written where the primary answered; %s still to do (primary down): "
            "retried every %.0f s", groups, FOLLOW_INTERVAL_S);
        free(groups);
    } else if (r == GCCTL_FOLLOW_WAITING && (int)r != last)
        say("catalog: waiting for a promoted member to leave recovery");
    else if (r == GCCTL_FOLLOW_FAILED && (int)r != last)
        say("catalog: %s (retried every %.0f s)", err.message, FOLLOW_INTERVAL_S);
    gcctl_cluster_close(&c);
    fflush(stdout);
    _exit((int)r);
}

/* ---- the loop ---- */

/* Reaps every finished child: a keeper it started (noting how it ended)
 * or the catalog round (*follow, whose result goes to *last). */
static void reap(watched *ws, int n, pid_t *follow, int *last)
{
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        if (pid == *follow) {
            *follow = 0;
            *last = WIFEXITED(status) ? WEXITSTATUS(status) : GCCTL_FOLLOW_FAILED;
            continue;
        }
        for (int i = 0; i < n; i++) {
            if (ws[i].child != pid)
                continue;
            ws[i].child = 0;
            if (WIFSIGNALED(status))
                snprintf(ws[i].ended, sizeof ws[i].ended, "killed by signal %d", WTERMSIG(status));
            else
                snprintf(ws[i].ended, sizeof ws[i].ended, "exited with status %d", WEXITSTATUS(status));
        }
    }
}

/* Records this process as DIR's supervisor in local.state; refuses when
 * another one runs. */
static bool claim(const char *dir, gc_error *err)
{
    gcctl_local l;
    bool ok = gcctl_local_open(dir, &l, err);
    if (ok && l.monitor_port == 0) {
        gc_error_set(err, "HY000", 0, "%s has no group under pg_auto_failover: nothing to supervise", dir);
        ok = false;
    }
    if (ok && l.supervisor_pid != getpid() && is_supervisor(l.supervisor_pid)) {
        gc_error_set(err, "HY000", 0, "a supervisor of %s runs already (pid %ld)", dir,
                     (long)l.supervisor_pid);
        ok = false;
    }
    if (ok) {
        l.supervisor_pid = getpid();
        ok = gcctl_local_write_state(&l, err);
    }
    gcctl_local_close(&l);
    return ok;
}

bool gcctl_supervise_run(const char *dir, gc_error *err)
{
    if (!claim(dir, err))
        return false;
    struct sigaction sa = { .sa_handler = on_stop };
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGHUP, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    say("supervising %s (pid %ld): keepers looked at every %d ms, the catalog every %.0f s",
        dir, (long)getpid(), TICK_MS, FOLLOW_INTERVAL_S);
    static watched ws[MAX_WATCHED];
    int n = 0, last = GCCTL_FOLLOW_IN_LINE;
    pid_t follow = 0;
    double follow_started = 0, next_follow = 0;
    while (!stopping) {
        reap(ws, n, &follow, &last);
        gcctl_local l;
        gc_error ignored;
        if (!gcctl_local_open(dir, &l, &ignored)) {
            gcctl_local_close(&l);
            char state[1200];
            snprintf(state, sizeof state, "%s/local.state", dir);
            if (access(state, F_OK) != 0)
                break;   /* the cluster is gone */
        } else {
            double now = now_s();
            watch_all(&l, ws, &n, now);
            gcctl_local_close(&l);
            if (follow > 0 && now - follow_started > FOLLOW_TIMEOUT_S) {
                say("catalog: a round ran over %.0f s (a primary that stopped answering?): "
                    "stopped, tried again", FOLLOW_TIMEOUT_S);
                kill(follow, SIGKILL);
            } else if (follow == 0 && now >= next_follow) {
                follow = start_follow(dir, last);
                follow_started = now;
                next_follow = now + FOLLOW_INTERVAL_S;
                if (follow < 0)
                    follow = 0;
            }
        }
        struct timespec ts = { 0, TICK_MS * 1000000L };
        nanosleep(&ts, NULL);
    }
    if (follow > 0) {
        kill(follow, SIGKILL);
        waitpid(follow, NULL, 0);
    }
    say("supervisor stopped");
    return true;
}

bool gcctl_supervise_start(gcctl_local *l, gc_error *err)
{
    if (l->monitor_port == 0 || is_supervisor(l->supervisor_pid))
        return true;
    char self[PATH_MAX], dir[PATH_MAX], log[PATH_MAX + 32];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0 || !realpath(l->dir, dir)) {
        gc_error_set(err, "HY000", 0, "cannot start the supervisor: %s", strerror(errno));
        return false;
    }
    self[len] = '\0';
    snprintf(log, sizeof log, "%s/supervisor.log", dir);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        gc_error_set(err, "HY000", 0, "cannot start the supervisor: %s", strerror(errno));
        return false;
    }
    if (pid == 0) {
        /* Twice forked, in a session of its own: it outlives gcctl and its
         * terminal, and no gcctl waits for it. */
        setsid();
        if (fork() != 0)
            _exit(0);
        if (!gcctl_proc_redirect(log) || chdir("/") != 0)
            _exit(126);
        execl(self, "gcctl", "local", "supervise", "--dir", dir, (char *)NULL);
        _exit(127);
    }
    waitpid(pid, NULL, 0);
    /* Up to 10 s for it to record itself in local.state. */
    for (int attempt = 0; attempt < 100; attempt++) {
        gcctl_local now;
        gc_error ignored;
        bool open = gcctl_local_open(l->dir, &now, &ignored);
        pid_t sup = now.supervisor_pid;
        gcctl_local_close(&now);
        if (open && is_supervisor(sup)) {
            l->supervisor_pid = sup;
            return true;
        }
        struct timespec ts = { 0, 100 * 1000000L };
        nanosleep(&ts, NULL);
    }
    gc_error_set(err, "HY000", 0, "the supervisor did not start (see %s)", log);
    return false;
}

void gcctl_supervise_stop(const gcctl_local *l)
{
    pid_t pid = l->supervisor_pid;
    if (!is_supervisor(pid) || kill(pid, SIGTERM) != 0)
        return;
    for (int attempt = 0; attempt < 100 && is_supervisor(pid); attempt++) {
        struct timespec ts = { 0, 100 * 1000000L };
        nanosleep(&ts, NULL);
    }
    if (is_supervisor(pid))
        kill(pid, SIGKILL);
}
