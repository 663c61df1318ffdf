/*
 * gcctl_local: see gcctl_local.h.
 */
#define _GNU_SOURCE
#include "gcctl_local.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gcctl_apply.h"
#include "gcctl_ha.h"
#include "gcctl_replace.h"
#include "gcctl_proc.h"
#include "gcctl_supervise.h"

/* Settings every member shares. fsync is off because a local cluster is
 * disposable: process crashes (kill -9) are still safe, only an operating
 * system crash could lose data. member.conf comes last so it wins. */
static const char common_conf[] =
    "\n# added by gcctl\n"
    "shared_preload_libraries = 'pg_stat_statements'\n"
    "max_prepared_transactions = 20\n"
    "wal_level = replica\n"
    "hot_standby = on\n"
    "max_wal_senders = 10\n"
    "max_replication_slots = 10\n"
    "wal_keep_size = '128MB'\n"
    "max_connections = 100\n"
    "shared_buffers = '32MB'\n"
    "fsync = off\n"
    "full_page_writes = off\n"
    "log_line_prefix = '%m [%p] %q%u@%d '\n"
    "include_if_exists = 'member.conf'\n";

void gcctl_local_datadir(const gcctl_local *l, const char *member, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s", l->base, member);
}

void gcctl_local_logfile(const gcctl_local *l, const char *member, const char *what, char *buf, size_t size)
{
    snprintf(buf, size, "%s/logs/%s.%s.log", l->base, member, what);
}

bool gcctl_local_write_file(const gcctl_local *l, const char *path, const char *text,
                            bool append, gc_error *err)
{
    FILE *f = fopen(path, append ? "a" : "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        gc_error_set(err, "HY000", 0, "cannot write %s: %s", path, strerror(errno));
        return false;
    }
    if (geteuid() == 0 && chown(path, l->uid, l->gid) != 0) {
        gc_error_set(err, "HY000", 0, "cannot chown %s: %s", path, strerror(errno));
        return false;
    }
    return true;
}

/* member.conf: what differs between members (port, address, name). */
static bool write_member_conf(const gcctl_local *l, const gcctl_member *m, gc_error *err)
{
    char path[1200], text[1600];
    char datadir[1100];
    gcctl_local_datadir(l, m->name, datadir, sizeof datadir);
    snprintf(path, sizeof path, "%s/member.conf", datadir);
    snprintf(text, sizeof text,
             "# written by gcctl for member %s of group %s\n"
             "port = %d\nlisten_addresses = '%s'\nunix_socket_directories = '%s'\n"
             "cluster_name = '%s'\n",
             m->name, m->group, m->port, m->host, l->socket_dir, m->name);
    return gcctl_local_write_file(l, path, text, false, err);
}

static bool pg_ctl_start(gcctl_local *l, const gcctl_member *m, gc_error *err)
{
    char datadir[1100], log[1200], serverlog[1200];
    gcctl_local_datadir(l, m->name, datadir, sizeof datadir);
    gcctl_local_logfile(l, m->name, "pg_ctl", log, sizeof log);
    gcctl_local_logfile(l, m->name, "server", serverlog, sizeof serverlog);
    const char *argv[] = { "pg_ctl", "start", "-w", "-t", "60", "-D", datadir, "-l", serverlog, NULL };
    char what[128];
    snprintf(what, sizeof what, "starting %s", m->name);
    return gcctl_proc_run(what, argv, l->uid, l->gid, log, err);
}

bool gcctl_local_init_primary(gcctl_local *l, const gcctl_member *m, gc_error *err)
{
    char datadir[1100], log[1200], path[1200];
    gcctl_local_datadir(l, m->name, datadir, sizeof datadir);
    gcctl_local_logfile(l, m->name, "initdb", log, sizeof log);
    const char *argv[] = { "initdb", "-D", datadir, "-U", l->os_user, "-E", "UTF8", "--locale=C",
                           "--auth-local=trust", "--auth-host=scram-sha-256", "-N", NULL };
    char what[128];
    snprintf(what, sizeof what, "initdb for %s", m->name);
    if (!gcctl_proc_run(what, argv, l->uid, l->gid, log, err))
        return false;
    snprintf(path, sizeof path, "%s/postgresql.conf", datadir);
    return gcctl_local_write_file(l, path, common_conf, true, err) && write_member_conf(l, m, err);
}

bool gcctl_local_init_standby(gcctl_local *l, const gcctl_member *m, gc_error *err)
{
    const gcctl_member *p = gcctl_spec_primary(&l->spec, m->group);
    char datadir[1100], log[1200], conninfo[1400];
    gcctl_local_datadir(l, m->name, datadir, sizeof datadir);
    gcctl_local_logfile(l, m->name, "basebackup", log, sizeof log);
    snprintf(conninfo, sizeof conninfo, "host=%s port=%d user=%s application_name=%s",
             l->socket_dir, p->port, l->os_user, m->name);
    const char *argv[] = { "pg_basebackup", "-D", datadir, "-d", conninfo, "-R", "-X", "stream",
                           "-c", "fast", "--no-sync", NULL };
    char what[128];
    snprintf(what, sizeof what, "pg_basebackup for %s", m->name);
    return gcctl_proc_run(what, argv, l->uid, l->gid, log, err) && write_member_conf(l, m, err);
}

bool gcctl_local_wait_streaming(gcctl_local *l, const gcctl_member *m, gc_error *err)
{
    for (int attempt = 0; attempt < 300; attempt++) {
        PGconn *c = gcctl_connect(&l->target, m, "postgres", 5, err);
        if (c) {
            char *status = gcctl_query_value(c, m->name,
                "SELECT coalesce((SELECT status FROM pg_stat_wal_receiver), 'none')", err);
            PQfinish(c);
            bool streaming = status && strcmp(status, "streaming") == 0;
            free(status);
            if (streaming)
                return true;
        }
        struct timespec ts = { 0, 100 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    gc_error_set(err, "HY000", 0, "%s does not stream from its primary after 30 s", m->name);
    return false;
}

bool gcctl_set_synchronous_standbys(const gcctl_target *t, const gcctl_member *p, bool on,
                                    gc_error *err)
{
    PGconn *c = gcctl_connect(t, p, "postgres", 5, err);
    if (!c)
        return false;
    /* One command per call: ALTER SYSTEM refuses the implicit transaction
     * of a multi-statement query. */
    bool ok = gcctl_exec(c, p->name, on ? "ALTER SYSTEM SET synchronous_standby_names = '*'"
                                        : "ALTER SYSTEM SET synchronous_standby_names = ''", err) &&
              gcctl_exec(c, p->name, "ALTER SYSTEM SET synchronous_commit = on", err) &&
              gcctl_exec(c, p->name, "SELECT pg_reload_conf()", err);
    PQfinish(c);
    return ok;
}

int gcctl_streaming_standbys(const gcctl_target *t, const gcctl_member *p)
{
    gc_error ignored;
    PGconn *c = gcctl_connect(t, p, "postgres", 2, &ignored);
    char *v = c ? gcctl_query_value(c, p->name,
        "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'", &ignored) : NULL;
    PQfinish(c);
    int n = v ? atoi(v) : -1;
    free(v);
    return n;
}

bool gcctl_local_sync_groups(gcctl_target *t, gc_error *err)
{
    const gcctl_spec *spec = t->spec;
    if (spec->replication != GCCTL_REPLICATION_SYNC)
        return true;
    for (size_t g = 0; g < spec->groups.n; g++) {
        size_t members = 0;
        for (size_t i = 0; i < spec->nmembers; i++)
            members += strcmp(spec->members[i].group, spec->groups.items[g]) == 0;
        /* A group without a standby would wait for ever: it commits alone.
         * So does one whose standbys are all gone (say, the old primary
         * after a promote, still listed). */
        if (members < 2)
            continue;
        /* pg_auto_failover sets synchronous_standby_names itself. */
        if (gcctl_ha_group(spec, spec->groups.items[g]))
            continue;
        const gcctl_member *p = gcctl_spec_primary(spec, spec->groups.items[g]);
        if (gcctl_streaming_standbys(t, p) <= 0) {
            fprintf(stderr, "gcctl: warning: no standby streams from %s; group %s commits alone\n",
                    p->name, p->group);
            continue;
        }
        if (!gcctl_set_synchronous_standbys(t, p, true, err))
            return false;
    }
    return true;
}

static bool is_loopback(const char *host)
{
    return strcmp(host, "localhost") == 0 || strncmp(host, "127.", 4) == 0 || strcmp(host, "::1") == 0;
}

/* Where members' ports are looked for: below the kernel's ephemeral range
 * (net.ipv4.ip_local_port_range), from which every outgoing connection
 * takes its local port. A member's server stops and starts again (a
 * keeper's hand-over after its first start, a failover test's kill -9 and
 * restart); with a port of that range, any program's connection could hold
 * it meanwhile, and the server would not start again. The tests' own
 * servers keep out of it the same way (tests/support/pglib.sh). */
enum { MEMBER_PORT_FLOOR = 10000, MEMBER_PORT_TRIES = 200 };

static int ephemeral_port_low(void)
{
    int low = 0, high = 0;
    FILE *f = fopen("/proc/sys/net/ipv4/ip_local_port_range", "r");
    if (f != NULL) {
        if (fscanf(f, "%d %d", &low, &high) != 2)
            low = 0;
        fclose(f);
    }
    return low;
}

/* Binds fd to 127.0.0.1:port (0: any port the kernel picks). */
static bool bind_loopback(int fd, int port)
{
    struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
}

/* Binds fd to a free loopback port below the ephemeral range, tried at
 * random; when that range is too narrow or all tries were taken, to any
 * port the kernel picks. */
static bool bind_member_port(int fd)
{
    static unsigned seed;
    if (seed == 0)
        seed = (unsigned)getpid() ^ (unsigned)time(NULL);
    int low = ephemeral_port_low();
    if (low - MEMBER_PORT_FLOOR >= 1024)
        for (int i = 0; i < MEMBER_PORT_TRIES; i++)
            if (bind_loopback(fd, MEMBER_PORT_FLOOR + (int)(rand_r(&seed) % (unsigned)(low - MEMBER_PORT_FLOOR))))
                return true;
    return bind_loopback(fd, 0);
}

/* Binds a socket to a free loopback port, held until the caller closes the
 * returned descriptor (-1 with err set on failure). */
static int bind_free_port(int *port, gc_error *err)
{
    struct sockaddr_in sa;
    socklen_t len = sizeof sa;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0 || !bind_member_port(fd) || getsockname(fd, (struct sockaddr *)&sa, &len) != 0) {
        gc_error_set(err, "HY000", 0, "cannot find a free port: %s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    *port = ntohs(sa.sin_port);
    return fd;
}

int gcctl_local_free_port(gc_error *err)
{
    int port = 0;
    int fd = bind_free_port(&port, err);
    if (fd < 0)
        return 0;
    close(fd);
    return port;
}

bool gcctl_local_pick_ports(gcctl_spec *spec, gc_error *err)
{
    int *fds = gcctl_xcalloc(spec->nmembers, sizeof *fds);
    bool ok = true;
    /* Hold every socket until all are bound so no two members get one port. */
    for (size_t i = 0; i < spec->nmembers && ok; i++) {
        fds[i] = -1;
        if (spec->members[i].port != 0)
            continue;
        fds[i] = bind_free_port(&spec->members[i].port, err);
        ok = fds[i] >= 0;
    }
    for (size_t i = 0; i < spec->nmembers; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    free(fds);
    return ok;
}

bool gcctl_local_write_state(const gcctl_local *l, gc_error *err)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/local.state", l->dir);
    FILE *f = fopen(path, "w");
    if (!f || fprintf(f, "base: %s\nuser: %s\nmonitor: %d\nsupervisor: %ld\n", l->base, l->os_user,
                      l->monitor_port, (long)l->supervisor_pid) < 0 ||
        fclose(f) != 0) {
        gc_error_set(err, "HY000", 0, "cannot write %s: %s", path, strerror(errno));
        return false;
    }
    return true;
}

/* Reads local.state (base and user); the spec is read separately. */
static bool read_state(const char *dir, gcctl_local *l, gc_error *err)
{
    memset(l, 0, sizeof *l);
    snprintf(l->dir, sizeof l->dir, "%s", dir);
    char path[1200], line[1200];
    snprintf(path, sizeof path, "%s/local.state", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        gc_error_set(err, "HY000", 0, "%s holds no local cluster (no local.state)", dir);
        return false;
    }
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "base: ", 6) == 0 &&
            (size_t)snprintf(l->base, sizeof l->base, "%s", line + 6) >= sizeof l->base)
            l->base[0] = '\0';   /* too long to be ours: reported below */
        if (strncmp(line, "monitor: ", 9) == 0)
            l->monitor_port = atoi(line + 9);
        if (strncmp(line, "supervisor: ", 12) == 0)
            l->supervisor_pid = (pid_t)atol(line + 12);
    }
    fclose(f);
    if (!l->base[0]) {
        gc_error_set(err, "HY000", 0, "%s: local.state names no data root", dir);
        return false;
    }
    snprintf(l->socket_dir, sizeof l->socket_dir, "%s/sock", l->base);
    if (!gcctl_proc_server_user(l->os_user, sizeof l->os_user, &l->uid, &l->gid, err))
        return false;
    l->target.socket_dir = l->socket_dir;
    l->target.os_user = l->os_user;
    l->target.spec = &l->spec;
    snprintf(l->apply_lock, sizeof l->apply_lock, "%s/local.lock", dir);
    l->target.apply_lock = l->apply_lock;
    /* pg_autoctl, started for this cluster, finds its state there. */
    return l->monitor_port == 0 || gcctl_ha_environment(l, err);
}

bool gcctl_local_open(const char *dir, gcctl_local *l, gc_error *err)
{
    if (!read_state(dir, l, err))
        return false;
    char path[1200];
    snprintf(path, sizeof path, "%s/cluster.yaml", dir);
    return gcctl_spec_load(path, &l->spec, err);
}

void gcctl_local_close(gcctl_local *l)
{
    gcctl_spec_free(&l->spec);
}

bool gcctl_local_make_dir(const char *path, const gcctl_local *l, bool owned, gc_error *err)
{
    if (mkdir(path, 0700) != 0 && errno != EEXIST) {
        gc_error_set(err, "HY000", 0, "cannot create %s: %s", path, strerror(errno));
        return false;
    }
    if (owned && geteuid() == 0 && chown(path, l->uid, l->gid) != 0) {
        gc_error_set(err, "HY000", 0, "cannot chown %s: %s", path, strerror(errno));
        return false;
    }
    return true;
}

/* Runs one step for several members at once: each spawns a program, and the
 * slow part (initdb, base backup, start) overlaps. */
typedef bool (*member_step)(gcctl_local *l, const gcctl_member *m, gc_error *err);

static bool for_members_parallel(gcctl_local *l, bool primaries, member_step step,
                                 bool *failed, gc_error *err)
{
    pid_t *pids = gcctl_xcalloc(l->spec.nmembers, sizeof *pids);
    bool ok = true;
    for (size_t i = 0; i < l->spec.nmembers; i++) {
        const gcctl_member *m = &l->spec.members[i];
        if (m->is_primary != primaries)
            continue;
        fflush(stdout);
        fflush(stderr);
        pids[i] = fork();
        if (pids[i] == 0)
            _exit(step(l, m, err) ? 0 : 1);
        if (pids[i] < 0)
            ok = false;
    }
    for (size_t i = 0; i < l->spec.nmembers; i++) {
        if (pids[i] > 0 && !gcctl_proc_wait(pids[i])) {
            if (failed != NULL)
                failed[i] = true;
            /* The child's message is lost with its memory: say where to look. */
            if (ok)
                gc_error_set(err, "HY000", 0, "setting up %s failed (see %s/logs/%s.*.log)",
                             l->spec.members[i].name, l->base, l->spec.members[i].name);
            ok = false;
        }
    }
    free(pids);
    return ok;
}

/* Runs step for the primaries or the standbys at once; a member whose step
 * failed gets one more try, alone, on a fresh port, after `undo` (may be
 * NULL) cleared what the first try left. A port picked free can be taken
 * before the member's server binds it (an outgoing connection of any
 * program gets its local port from the same range), which fails the start;
 * the spec file is written again with the new port. *retried says
 * whether a member was given another port. */
static bool for_members_retried(gcctl_local *l, bool primaries, member_step step,
                                member_step undo, bool *retried, gc_error *err)
{
    bool *failed = gcctl_xcalloc(l->spec.nmembers, sizeof *failed);
    bool ok = for_members_parallel(l, primaries, step, failed, err);
    *retried = !ok;
    for (size_t i = 0; i < l->spec.nmembers && !ok; i++)
        if (failed[i])
            l->spec.members[i].port = 0;
    char path[1200];
    snprintf(path, sizeof path, "%s/cluster.yaml", l->dir);
    if (!ok && gcctl_local_pick_ports(&l->spec, err) && gcctl_spec_write(&l->spec, path, err)) {
        ok = true;
        for (size_t i = 0; i < l->spec.nmembers && ok; i++) {
            if (!failed[i])
                continue;
            fprintf(stderr, "gcctl: setting up %s again on port %d\n", l->spec.members[i].name,
                    l->spec.members[i].port);
            gc_error_clear(err);
            ok = (undo == NULL || undo(l, &l->spec.members[i], err)) &&
                 step(l, &l->spec.members[i], err);
        }
    }
    free(failed);
    return ok;
}

/* Before a standby's second try: its data directory goes (pg_basebackup
 * needs an empty one). */
static bool remove_datadir_step(gcctl_local *l, const gcctl_member *m, gc_error *err)
{
    if (gcctl_ha_group(&l->spec, m->group) && !gcctl_ha_forget_node(l, m, err))
        return false;
    char datadir[1100];
    gcctl_local_datadir(l, m->name, datadir, sizeof datadir);
    if (access(datadir, F_OK) == 0 && !gcctl_proc_remove_tree(datadir)) {
        gc_error_set(err, "HY000", 0, "cannot remove %s", datadir);
        return false;
    }
    return true;
}

/* Before a primary's second start: its port in its configuration (under
 * HA its first keeper and node go: the next start makes them anew). */
static bool rewrite_conf_step(gcctl_local *l, const gcctl_member *m, gc_error *err)
{
    if (gcctl_ha_group(&l->spec, m->group) && !gcctl_ha_forget_node(l, m, err))
        return false;
    return write_member_conf(l, m, err);
}

/* A node of pg_auto_failover made while it is held: a running supervisor
 * (add-member, add-group) would take the end of its `create` for a
 * keeper's death and start a second keeper beside gcctl's. */
static bool create_ha_node(gcctl_local *l, const gcctl_member *m, gc_error *err)
{
    if (!gcctl_supervise_hold(l, m->name, true, err))
        return false;
    if (gcctl_ha_create_node(l, m, err))
        return gcctl_supervise_hold(l, m->name, false, err);
    gc_error ignored;
    gc_error_clear(&ignored);
    gcctl_supervise_hold(l, m->name, false, &ignored);
    return false;
}

/* A primary starts under its keeper when its group has HA. */
static bool start_member_step(gcctl_local *l, const gcctl_member *m, gc_error *err)
{
    if (gcctl_ha_group(&l->spec, m->group))
        return create_ha_node(l, m, err);
    return pg_ctl_start(l, m, err);
}

/* A standby of a group with HA is made by its keeper (base backup from the
 * primary its monitor names); member.conf, copied from the primary, is
 * written for it afterwards (it names the member; the keeper gives the
 * server its port on the command line). */
static bool init_standby_step(gcctl_local *l, const gcctl_member *m, gc_error *err)
{
    if (gcctl_ha_group(&l->spec, m->group))
        return create_ha_node(l, m, err) && write_member_conf(l, m, err);
    return gcctl_local_init_standby(l, m, err) && pg_ctl_start(l, m, err);
}

/* Initdb of a primary; under HA its pg_hba.conf also lets pg_auto_failover's
 * users in. */
static bool init_primary_step(gcctl_local *l, const gcctl_member *m, gc_error *err)
{
    return gcctl_local_init_primary(l, m, err) &&
           (!gcctl_ha_group(&l->spec, m->group) || gcctl_ha_allow_nodes(l, m, err));
}

/* The catalog on the primaries. Under HA a primary's server may still be
 * starting when apply connects: its `create` stopped it on the way out and
 * its keeper's run service starts it again. Apply, idempotent, is tried
 * again a second apart, for up to 90 s (a start took over 5 s on a machine
 * loaded by other clusters, and over 30 s once under a sanitizer build's
 * test run). */
static bool apply_settled(gcctl_local *l, gc_error *err)
{
    int tries = gcctl_ha_any(&l->spec) ? 90 : 1;
    for (int attempt = 1;; attempt++) {
        if (gcctl_apply(&l->target, "local up", NULL, err))
            return true;
        if (attempt >= tries)
            return false;
        fprintf(stderr, "gcctl: %s; applying again\n", err->message);
        gc_error_clear(err);
        sleep(1);
    }
}

/* ---- members built after local up (add-member, add-group) ---- */

/* The monitor of a cluster that has just got its first HA group (every
 * group had one member until now). */
static bool ensure_monitor(gcctl_local *l, gc_error *err)
{
    if (l->monitor_port != 0)
        return true;
    return gcctl_ha_environment(l, err) && gcctl_ha_create_monitor(l, err) &&
           gcctl_local_write_state(l, err) && gcctl_supervise_start(l, err);
}

/* Brings group's primary under a keeper if it runs without one: the group
 * had no standby, so it ran without HA until the one being added. The
 * keeper takes the data directory as it is and restarts the server. */
static bool adopt_primary(gcctl_local *l, const char *group, gc_error *err)
{
    const gcctl_member *p = gcctl_spec_primary(&l->spec, group);
    gcctl_ha_node *nodes = NULL;
    int n = gcctl_ha_nodes(l, &nodes, err);
    bool known = gcctl_ha_find(nodes, n, p->name) != NULL;
    free(nodes);
    if (n < 0)
        return false;
    if (known)
        return true;
    char datadir[1100], log[1200];
    gcctl_local_datadir(l, p->name, datadir, sizeof datadir);
    gcctl_local_logfile(l, p->name, "pg_ctl", log, sizeof log);
    const char *stop[] = { "pg_ctl", "stop", "-w", "-t", "60", "-D", datadir, "-m", "fast", NULL };
    return gcctl_ha_create_formation(l, group, err) &&
           gcctl_proc_run("stopping the primary for its keeper", stop, l->uid, l->gid, log, err) &&
           gcctl_ha_allow_nodes(l, p, err) && create_ha_node(l, p, err);
}

bool gcctl_local_add_primary(gcctl_local *l, const gcctl_member *m, gc_error *err)
{
    if (gcctl_ha_group(&l->spec, m->group) &&
        (!ensure_monitor(l, err) || !gcctl_ha_create_formation(l, m->group, err)))
        return false;
    return init_primary_step(l, m, err) && start_member_step(l, m, err);
}

bool gcctl_local_add_standby(gcctl_local *l, const gcctl_member *m, gc_error *err)
{
    if (!gcctl_ha_group(&l->spec, m->group))
        return gcctl_local_init_standby(l, m, err) && pg_ctl_start(l, m, err) &&
               gcctl_local_wait_streaming(l, m, err);
    /* Under HA the monitor says 'primary' once the standby is in sync. */
    const gcctl_member *p = gcctl_spec_primary(&l->spec, m->group);
    return ensure_monitor(l, err) && adopt_primary(l, m->group, err) && init_standby_step(l, m, err) &&
           gcctl_ha_wait_state(l, p->name, "primary", 60, err);
}

bool gcctl_local_up(const char *spec_path, const char *dir, const char *driver, gc_error *err)
{
    gcctl_local l;
    memset(&l, 0, sizeof l);
    snprintf(l.dir, sizeof l.dir, "%s", dir);
    if (!gcctl_spec_load(spec_path, &l.spec, err))
        goto fail;
    for (size_t i = 0; i < l.spec.nmembers; i++)
        if (!is_loopback(l.spec.members[i].host)) {
            gc_error_set(err, "HY000", 0, "member %s: a local cluster listens on loopback only, not %s",
                         l.spec.members[i].name, l.spec.members[i].host);
            goto fail;
        }
    if (!gcctl_proc_server_user(l.os_user, sizeof l.os_user, &l.uid, &l.gid, err))
        goto fail;
    char path[1200];
    snprintf(path, sizeof path, "%s/local.state", dir);
    if (access(path, F_OK) == 0) {
        gc_error_set(err, "HY000", 0, "%s already holds a local cluster; run gcctl local down first", dir);
        goto fail;
    }
    /* DIR will hold passwords: only its owner may enter it. */
    if (!gcctl_make_dirs(dir, 0700, err))
        goto fail;
    if (!gcctl_local_pick_ports(&l.spec, err))
        goto fail;
    /* The data root lives outside DIR: the server user may not be able to
     * reach DIR (a home directory, say), but it owns this one. */
    const char *tmp = getenv("TMPDIR");
    snprintf(l.base, sizeof l.base, "%s/gcctl.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(l.base)) {
        gc_error_set(err, "HY000", 0, "cannot create a data root: %s", strerror(errno));
        goto fail;
    }
    snprintf(l.socket_dir, sizeof l.socket_dir, "%s/sock", l.base);
    l.target.spec = &l.spec;
    l.target.socket_dir = l.socket_dir;
    l.target.os_user = l.os_user;
    snprintf(l.apply_lock, sizeof l.apply_lock, "%s/local.lock", dir);
    l.target.apply_lock = l.apply_lock;
    char logs[1200];
    snprintf(logs, sizeof logs, "%s/logs", l.base);
    if (!gcctl_local_write_state(&l, err) || !gcctl_local_make_dir(l.base, &l, true, err) ||
        !gcctl_local_make_dir(l.socket_dir, &l, true, err) || !gcctl_local_make_dir(logs, &l, true, err))
        goto fail;
    /* Written now so that local down can clean up even if a later step fails. */
    snprintf(path, sizeof path, "%s/cluster.yaml", dir);
    if (!gcctl_spec_write(&l.spec, path, err))
        goto fail;
    if (gcctl_ha_any(&l.spec) &&
        (!gcctl_ha_environment(&l, err) || !gcctl_ha_create_monitor(&l, err) || !gcctl_local_write_state(&l, err)))
        goto fail;
    bool retried = false;
    if (!for_members_parallel(&l, true, init_primary_step, NULL, err) ||
        !for_members_retried(&l, true, start_member_step, rewrite_conf_step, &retried, err))
        goto fail;
    if (!apply_settled(&l, err))
        goto fail;
    if (!for_members_retried(&l, false, init_standby_step, remove_datadir_step, &retried, err))
        goto fail;
    /* A standby set up again on another port: the catalog says so too. */
    if (retried && !gcctl_apply(&l.target, "local up", NULL, err))
        goto fail;
    for (size_t i = 0; i < l.spec.nmembers; i++) {
        const gcctl_member *m = &l.spec.members[i];
        /* Under HA: the monitor says 'secondary' once a standby streams,
         * and its primary becomes 'primary' once the standby is in sync. */
        if (gcctl_ha_group(&l.spec, m->group) ? m->is_primary && !gcctl_ha_wait_state(&l, m->name, "primary", 60, err)
                                              : !m->is_primary && !gcctl_local_wait_streaming(&l, m, err))
            goto fail;
    }
    /* Only now: with no standby streaming yet, every commit above would wait. */
    if (!gcctl_local_sync_groups(&l.target, err))
        goto fail;
    if (!gcctl_local_write_files(&l, driver, err))
        goto fail;
    /* Last: it restarts what it sees running, and all runs now. */
    if (!gcctl_supervise_start(&l, err))
        goto fail;
    gcctl_spec_free(&l.spec);
    return true;
fail:
    gcctl_spec_free(&l.spec);
    return false;
}

bool gcctl_local_stop_member(gcctl_local *l, const char *name, const char *mode, gc_error *err)
{
    const gcctl_member *m = gcctl_spec_member(&l->spec, name);
    if (!m) {
        gc_error_set(err, "HY000", 0, "no member %s in %s", name, l->dir);
        return false;
    }
    if (strcmp(mode, "fast") != 0 && strcmp(mode, "immediate") != 0 && strcmp(mode, "smart") != 0) {
        gc_error_set(err, "HY000", 0, "unknown stop mode %s (expected fast or immediate)", mode);
        return false;
    }
    char datadir[1100], log[1200], what[128];
    gcctl_local_datadir(l, m->name, datadir, sizeof datadir);
    /* Held first, so the supervisor does not restart what is stopped. */
    if (!gcctl_supervise_hold(l, m->name, true, err))
        return false;
    /* Under HA the keeper stops its server (the monitor sees the member go). */
    if (gcctl_ha_group(&l->spec, m->group)) {
        if (!gcctl_ha_stop_keeper(l, datadir, strcmp(mode, "fast") != 0)) {
            gc_error_set(err, "HY000", 0, "%s did not stop within 30 s", m->name);
            return false;
        }
        return true;
    }
    gcctl_local_logfile(l, m->name, "pg_ctl", log, sizeof log);
    snprintf(what, sizeof what, "stopping %s", m->name);
    const char *argv[] = { "pg_ctl", "stop", "-w", "-t", "60", "-D", datadir, "-m", mode, NULL };
    return gcctl_proc_run(what, argv, l->uid, l->gid, log, err);
}

bool gcctl_local_start_member(gcctl_local *l, const char *name, gc_error *err)
{
    const gcctl_member *m = gcctl_spec_member(&l->spec, name);
    if (!m) {
        gc_error_set(err, "HY000", 0, "no member %s in %s", name, l->dir);
        return false;
    }
    if (!gcctl_supervise_hold(l, m->name, false, err))
        return false;
    /* Under HA the keeper starts the server, as whatever the monitor says
     * it now is: an old primary rejoins as a standby (rewound if needed). */
    if (gcctl_ha_group(&l->spec, m->group))
        return gcctl_ha_run_keeper(l, m, err);
    return pg_ctl_start(l, m, err);
}

bool gcctl_local_down(const char *dir, gc_error *err)
{
    gcctl_local l;
    if (!read_state(dir, &l, err))
        return false;
    /* Stop whatever data directory exists, spec or not (a half-made up). */
    char cluster[1200];
    snprintf(cluster, sizeof cluster, "%s/cluster.yaml", dir);
    gc_error ignored;
    if (gcctl_spec_parse(cluster, &l.spec, &ignored)) {
        /* The supervisor first, or it would restart the keepers; then the
         * keepers, or they would start their servers again. */
        gcctl_supervise_stop(&l);
        gcctl_ha_stop_all(&l);
        pid_t *pids = gcctl_xcalloc(l.spec.nmembers, sizeof *pids);
        for (size_t i = 0; i < l.spec.nmembers; i++) {
            char datadir[1100];
            gcctl_local_datadir(&l, l.spec.members[i].name, datadir, sizeof datadir);
            char pidfile[1200];
            snprintf(pidfile, sizeof pidfile, "%s/postmaster.pid", datadir);
            if (access(pidfile, F_OK) != 0)
                continue;
            const char *argv[] = { "pg_ctl", "stop", "-w", "-t", "60", "-D", datadir, "-m", "immediate", NULL };
            pids[i] = gcctl_proc_spawn(argv, l.uid, l.gid, NULL, &ignored);
        }
        for (size_t i = 0; i < l.spec.nmembers; i++)
            if (pids[i] > 0)
                gcctl_proc_wait(pids[i]);
        free(pids);
    }
    gcctl_spec_free(&l.spec);
    if (!gcctl_proc_remove_tree(l.base)) {
        gc_error_set(err, "HY000", 0, "cannot remove %s", l.base);
        return false;
    }
    static const char *const files[] = { "cluster.yaml", "locator.yaml", "odbc.ini", "odbcinst.ini",
                                         "local.state", "local.lock", "supervisor.log" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        remove(path);
    }
    rmdir(dir);   /* only when nothing else is in it */
    return true;
}
