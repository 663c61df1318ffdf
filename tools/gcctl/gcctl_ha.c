/*
 * gcctl_ha: see gcctl_ha.h.
 */
#define _GNU_SOURCE
#include "gcctl_ha.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gcctl_proc.h"

static const char pg_autoctl[] = "/usr/bin/pg_autoctl";

/* The monitor's data directory: a name no member can have (members are
 * letters, digits and _). */
#define MONITOR_DIR "ha-monitor"

/* Failure detection, measured on this machine (docs/failover.md): the
 * monitor checks each node every second and calls it unhealthy 2 s after
 * the last good check; an old primary cut off from the monitor demotes
 * itself after the keeper's network_partition_timeout (3 s), which stays
 * below primary_demote_timeout (5 s), the time the monitor waits before
 * letting the new primary take writes, so two primaries never take
 * writes at once. */
static const char monitor_conf[] =
    "\n# added by gcctl\n"
    "shared_buffers = '32MB'\n"
    "fsync = off\n"
    "pgautofailover.health_check_period = 1000\n"
    "pgautofailover.health_check_timeout = 1000\n"
    "pgautofailover.health_check_max_retries = 1\n"
    "pgautofailover.health_check_retry_delay = 500\n"
    "pgautofailover.node_considered_unhealthy_timeout = 2000\n"
    "pgautofailover.primary_demote_timeout = 5000\n";
#define KEEPER_PARTITION_TIMEOUT "3"

/* The database pg_auto_failover watches: 'postgres', which exists, so that
 * the spec's database is created by apply as without HA (owned by the
 * application role), not by pg_autoctl (owned by the server user). */
#define HA_DBNAME "postgres"

/* pg_auto_failover's own users, from loopback only. */
static const char node_hba[] =
    "# added by gcctl: pg_auto_failover's users (health checks, replication, rewind)\n"
    "host all pgautofailover_monitor 127.0.0.1/32 trust\n"
    "host replication pgautofailover_replicator 127.0.0.1/32 trust\n"
    "host all pgautofailover_replicator 127.0.0.1/32 trust\n";

/* pg_autoctl's base backup of a new standby waits for a spread checkpoint
 * (minutes with the default target): a primary under HA checkpoints at
 * once. */
static const char node_conf[] = "\n# added by gcctl for pg_auto_failover\ncheckpoint_completion_target = 0\n";

bool gcctl_ha_group(const gcctl_spec *spec, const char *group)
{
    if (!spec->ha)
        return false;
    size_t members = 0;
    for (size_t i = 0; i < spec->nmembers; i++)
        members += strcmp(spec->members[i].group, group) == 0;
    return members > 1;
}

bool gcctl_ha_any(const gcctl_spec *spec)
{
    for (size_t g = 0; g < spec->groups.n; g++)
        if (gcctl_ha_group(spec, spec->groups.items[g]))
            return true;
    return false;
}

bool gcctl_ha_environment(const gcctl_local *l, gc_error *err)
{
    static const char *const vars[][2] = {
        { "XDG_CONFIG_HOME", "config" }, { "XDG_DATA_HOME", "data" }, { "XDG_RUNTIME_DIR", "run" },
    };
    char root[1200];
    snprintf(root, sizeof root, "%s/xdg", l->base);
    if (!gcctl_local_make_dir(root, l, true, err))
        return false;
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        char path[1300];
        snprintf(path, sizeof path, "%s/%s", root, vars[i][1]);
        if (!gcctl_local_make_dir(path, l, true, err))
            return false;
        setenv(vars[i][0], path, 1);
    }
    setenv("PGHOST", l->socket_dir, 1);
    return true;
}

static void monitor_datadir(const gcctl_local *l, char *buf, size_t size)
{
    gcctl_local_datadir(l, MONITOR_DIR, buf, size);
}

static void monitor_uri(const gcctl_local *l, char *buf, size_t size)
{
    snprintf(buf, size, "postgres://autoctl_node@127.0.0.1:%d/pg_auto_failover?sslmode=disable",
             l->monitor_port);
}

static PGconn *connect_monitor(const gcctl_local *l, int timeout_s, gc_error *err)
{
    gcctl_member monitor = { .name = "monitor", .host = "127.0.0.1", .port = l->monitor_port };
    return gcctl_connect(&l->target, &monitor, "pg_auto_failover", timeout_s, err);
}

/* Starts `pg_autoctl ARGS` detached, its output in the member's keeper log:
 * the keeper outlives gcctl. */
static pid_t spawn_keeper(const gcctl_local *l, const char *name, const char *const *argv,
                          gc_error *err)
{
    char log[1200];
    gcctl_local_logfile(l, name, "keeper", log, sizeof log);
    return gcctl_proc_spawn(argv, l->uid, l->gid, log, err);
}

static bool run_autoctl(const gcctl_local *l, const char *name, const char *what,
                        const char *const *argv, gc_error *err)
{
    char log[1200];
    gcctl_local_logfile(l, name, "pg_autoctl", log, sizeof log);
    return gcctl_proc_run(what, argv, l->uid, l->gid, log, err);
}

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

bool gcctl_ha_create_monitor(gcctl_local *l, gc_error *err)
{
    char datadir[1100], conf[1200], port[16], pg_ctl[300], log[1200];
    monitor_datadir(l, datadir, sizeof datadir);
    l->monitor_port = gcctl_local_free_port(err);
    if (l->monitor_port == 0)
        return false;
    snprintf(port, sizeof port, "%d", l->monitor_port);
    snprintf(pg_ctl, sizeof pg_ctl, "%s/pg_ctl", gcctl_proc_bindir());
    /* Our own initdb, so the server's socket is in the cluster's socket
     * directory from its first start (pg_autoctl connects there). */
    gcctl_local_logfile(l, MONITOR_DIR, "initdb", log, sizeof log);
    const char *initdb[] = { "initdb", "-D", datadir, "-E", "UTF8", "--locale=C", "--auth=trust", "-N", NULL };
    if (!gcctl_proc_run("initdb for the monitor", initdb, l->uid, l->gid, log, err))
        return false;
    char text[sizeof monitor_conf + 1400];
    snprintf(text, sizeof text, "%slisten_addresses = '127.0.0.1'\nunix_socket_directories = '%s'\n",
             monitor_conf, l->socket_dir);
    snprintf(conf, sizeof conf, "%s/postgresql.conf", datadir);
    if (!gcctl_local_write_file(l, conf, text, true, err))
        return false;
    const char *create[] = { pg_autoctl, "create", "monitor", "--pgdata", datadir, "--pgport", port,
                             "--pgctl", pg_ctl, "--hostname", "127.0.0.1", "--auth", "trust",
                             "--no-ssl", NULL };
    /* pg_autoctl starts the monitor's server with its own listen address
     * ('*' unless told): loopback only, like the members. */
    const char *listen[] = { pg_autoctl, "config", "set", "--pgdata", datadir,
                             "postgresql.listen_addresses", "127.0.0.1", NULL };
    const char *run[] = { pg_autoctl, "run", "--pgdata", datadir, NULL };
    if (!run_autoctl(l, MONITOR_DIR, "creating the pg_auto_failover monitor", create, err) ||
        !run_autoctl(l, MONITOR_DIR, "setting the monitor's listen address", listen, err) ||
        spawn_keeper(l, MONITOR_DIR, run, err) <= 0)
        return false;
    PGconn *c = NULL;
    for (int attempt = 0; attempt < 300 && !c; attempt++) {
        gc_error_clear(err);
        c = connect_monitor(l, 2, err);
        if (c && PQserverVersion(c) > 0) {
            char *has = gcctl_query_value(c, "monitor",
                "SELECT count(*) FROM pg_extension WHERE extname = 'pgautofailover'", err);
            bool ready = has && strcmp(has, "1") == 0;
            free(has);
            if (!ready) {
                PQfinish(c);
                c = NULL;
            }
        }
        if (!c)
            sleep_ms(100);
    }
    if (!c) {
        gc_error_set(err, "HY000", 0, "the pg_auto_failover monitor does not answer after 30 s "
                     "(see %s/logs/%s.keeper.log)", l->base, MONITOR_DIR);
        return false;
    }
    PQfinish(c);
    for (size_t g = 0; g < l->spec.groups.n; g++) {
        const char *group = l->spec.groups.items[g];
        if (gcctl_ha_group(&l->spec, group) && !gcctl_ha_create_formation(l, group, err))
            return false;
    }
    return true;
}

bool gcctl_ha_create_formation(const gcctl_local *l, const char *group, gc_error *err)
{
    PGconn *c = connect_monitor(l, 5, err);
    if (!c)
        return false;
    const char *params[] = { group };
    PGresult *r = gcctl_query(c, "monitor", "SELECT 1 FROM pgautofailover.formation WHERE formationid = $1",
                              1, params, err);
    PQfinish(c);
    if (!r)
        return false;
    bool exists = PQntuples(r) > 0;
    PQclear(r);
    if (exists)
        return true;
    char datadir[1100];
    monitor_datadir(l, datadir, sizeof datadir);
    const char *formation[] = { pg_autoctl, "create", "formation", "--pgdata", datadir,
                                "--formation", group, "--kind", "pgsql", "--dbname",
                                HA_DBNAME, "--enable-secondary", NULL };
    return run_autoctl(l, MONITOR_DIR, "creating a pg_auto_failover formation", formation, err);
}

bool gcctl_ha_allow_nodes(const gcctl_local *l, const gcctl_member *m, gc_error *err)
{
    char datadir[1100], path[1200];
    gcctl_local_datadir(l, m->name, datadir, sizeof datadir);
    snprintf(path, sizeof path, "%s/pg_hba.conf", datadir);
    FILE *f = fopen(path, "r");
    if (!f) {
        gc_error_set(err, "HY000", 0, "cannot read %s: %s", path, strerror(errno));
        return false;
    }
    size_t size = sizeof node_hba, used = strlen(node_hba);
    char *text = gcctl_xcalloc(1, size + 4096);
    size += 4096;
    memcpy(text, node_hba, used);
    size_t got;
    while ((got = fread(text + used, 1, size - used - 1, f)) > 0) {
        used += got;
        if (size - used < 1024) {
            text = realloc(text, size * 2);
            if (!text)
                abort();
            size *= 2;
        }
    }
    fclose(f);
    text[used] = '\0';
    bool ok = gcctl_local_write_file(l, path, text, false, err);
    free(text);
    snprintf(path, sizeof path, "%s/postgresql.conf", datadir);
    return ok && gcctl_local_write_file(l, path, node_conf, true, err);
}

bool gcctl_ha_wait_state(const gcctl_local *l, const char *name, const char *state, int timeout_s,
                         gc_error *err)
{
    char last[32] = "unknown";
    for (int attempt = 0; attempt < timeout_s * 5; attempt++) {
        gcctl_ha_node *nodes = NULL;
        gc_error ignored;
        int n = gcctl_ha_nodes(l, &nodes, &ignored);
        const gcctl_ha_node *node = gcctl_ha_find(nodes, n, name);
        bool reached = node && strcmp(node->reported, state) == 0 && strcmp(node->goal, state) == 0;
        if (node)
            snprintf(last, sizeof last, "%s", node->reported);
        free(nodes);
        if (reached)
            return true;
        sleep_ms(200);
    }
    gc_error_set(err, "HY000", 0, "%s is not '%s' after %d s (the monitor says '%s'; see %s/logs/%s.keeper.log)",
                 name, state, timeout_s, last, l->base, name);
    return false;
}

/* The keeper's network-partition timeout (see monitor_conf), written while
 * no keeper of the node runs: its next start reads it. */
static bool tune_keeper(const gcctl_local *l, const gcctl_member *m, gc_error *err)
{
    char datadir[1100];
    gcctl_local_datadir(l, m->name, datadir, sizeof datadir);
    const char *set[] = { pg_autoctl, "config", "set", "--pgdata", datadir,
                          "timeout.network_partition_timeout", KEEPER_PARTITION_TIMEOUT, NULL };
    return run_autoctl(l, m->name, "tuning the keeper", set, err);
}

/* A node is made in three steps, never by `create --run` and a reload
 * after: `create` runs to the node's first state and ends, the keeper's
 * timeout is written, then the keeper starts. A reload signal that reached
 * a keeper while its init service handed over to its run service stopped
 * it for good (its run service read port 5432 from a configuration being
 * rewritten, died five times in a second, and the keeper stopped the
 * server); seen once in 16 clusters made two at a time. */
bool gcctl_ha_create_node(gcctl_local *l, const gcctl_member *m, gc_error *err)
{
    char datadir[1100], port[16], pg_ctl[300], monitor[200];
    gcctl_local_datadir(l, m->name, datadir, sizeof datadir);
    snprintf(port, sizeof port, "%d", m->port);
    snprintf(pg_ctl, sizeof pg_ctl, "%s/pg_ctl", gcctl_proc_bindir());
    monitor_uri(l, monitor, sizeof monitor);
    /* Asynchronous specs: the standby stays out of the write quorum. */
    const char *quorum = l->spec.replication == GCCTL_REPLICATION_SYNC ? "true" : "false";
    const char *create[] = { pg_autoctl, "create", "postgres", "--pgdata", datadir, "--pgport", port,
                             "--pgctl", pg_ctl, "--hostname", m->host, "--listen", m->host,
                             "--name", m->name, "--formation", m->group, "--dbname", HA_DBNAME,
                             "--monitor", monitor, "--auth", "trust", "--no-ssl",
                             "--replication-quorum", quorum, NULL };
    const char *run[] = { pg_autoctl, "run", "--pgdata", datadir, NULL };
    char log[1200];
    gcctl_local_logfile(l, m->name, "keeper", log, sizeof log);
    /* A standby reaches 'secondary' once its primary's keeper has let it
     * in and it has caught up: seconds on a quiet machine, over 120 s once
     * in a loaded sanitizer test run, hence the bounds. */
    return gcctl_proc_run_within("creating the pg_auto_failover node", create, l->uid, l->gid, log,
                                 300, err) &&
           tune_keeper(l, m, err) && spawn_keeper(l, m->name, run, err) > 0 &&
           gcctl_ha_wait_state(l, m->name, m->is_primary ? "single" : "secondary", 300, err);
}

/* Whether the monitor has made member name a writable primary. */
static bool is_monitor_primary(const gcctl_local *l, const char *name)
{
    gcctl_ha_node *nodes = NULL;
    gc_error ignored;
    int n = gcctl_ha_nodes(l, &nodes, &ignored);
    const gcctl_ha_node *node = gcctl_ha_find(nodes, n, name);
    bool primary = node && gcctl_ha_is_primary_state(node) && strcmp(node->reported, node->goal) == 0;
    free(nodes);
    return primary;
}

bool gcctl_ha_promote(const gcctl_local *l, const gcctl_member *m, int timeout_s, gc_error *err)
{
    if (is_monitor_primary(l, m->name))
        return true;   /* the monitor promoted it already (its primary failed) */
    char datadir[1100], wait[16];
    gcctl_local_datadir(l, m->name, datadir, sizeof datadir);
    snprintf(wait, sizeof wait, "%d", timeout_s);
    const char *promote[] = { pg_autoctl, "perform", "promotion", "--pgdata", datadir,
                              "--formation", m->group, "--name", m->name, "--wait", wait, NULL };
    gc_error perform;
    gc_error_clear(&perform);
    bool asked = run_autoctl(l, m->name, "asking the monitor to promote", promote, &perform);
    /* pg_autoctl's wait can end before the keeper reports the new state, and
     * the monitor may be promoting the member on its own already: the
     * monitor's word decides. */
    for (int attempt = 0; attempt < timeout_s * 5; attempt++) {
        if (is_monitor_primary(l, m->name))
            return true;
        sleep_ms(200);
    }
    if (!asked)
        *err = perform;
    else
        gc_error_set(err, "HY000", 0, "the monitor has not made %s a primary after %d s (see %s/logs/%s.keeper.log)",
                     m->name, timeout_s, l->base, m->name);
    return false;
}

/* The data directory of member name, or of the monitor when name is NULL. */
static void node_datadir(const gcctl_local *l, const char *name, char *buf, size_t size)
{
    gcctl_local_datadir(l, name ? name : MONITOR_DIR, buf, size);
}

pid_t gcctl_ha_start_keeper(const gcctl_local *l, const char *name, gc_error *err)
{
    char datadir[1100];
    node_datadir(l, name, datadir, sizeof datadir);
    const char *run[] = { pg_autoctl, "run", "--pgdata", datadir, NULL };
    return spawn_keeper(l, name ? name : MONITOR_DIR, run, err);
}

bool gcctl_ha_run_keeper(gcctl_local *l, const gcctl_member *m, gc_error *err)
{
    /* Already running (restarted by the supervisor, say): a second keeper
     * of the same node would fight the first. */
    if (gcctl_ha_keeper_pid(l, m->name) > 0)
        return true;
    return gcctl_ha_start_keeper(l, m->name, err) > 0;
}

/* The keeper's pid from its pid file in XDG_RUNTIME_DIR; 0 when none. */
static pid_t keeper_pid(const gcctl_local *l, const char *datadir)
{
    char path[2400], line[64];
    snprintf(path, sizeof path, "%s/xdg/run/pg_autoctl%s/pg_autoctl.pid", l->base, datadir);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    pid_t pid = fgets(line, sizeof line, f) ? (pid_t)atol(line) : 0;
    fclose(f);
    return pid;
}

pid_t gcctl_ha_keeper_pid(const gcctl_local *l, const char *name)
{
    char datadir[1100];
    node_datadir(l, name, datadir, sizeof datadir);
    pid_t pid = keeper_pid(l, datadir);
    return pid > 0 && kill(pid, 0) == 0 ? pid : 0;
}

/* Waits up to 30 s for pid to be gone; true when it is. */
static bool wait_gone(pid_t pid)
{
    for (int attempt = 0; attempt < 300; attempt++) {
        if (kill(pid, 0) != 0)
            return true;
        sleep_ms(100);
    }
    return false;
}

/* Signals the keeper of datadir to stop; its pid, 0 when none runs.
 * pg_autoctl's own signals (as `pg_autoctl stop`): SIGINT fast, SIGQUIT
 * immediate. */
static pid_t signal_keeper(const gcctl_local *l, const char *datadir, bool immediate)
{
    pid_t pid = keeper_pid(l, datadir);
    if (pid <= 0 || kill(pid, immediate ? SIGQUIT : SIGINT) != 0)
        return 0;
    kill(-pid, SIGCONT);   /* a frozen keeper could not act on it */
    return pid;
}

bool gcctl_ha_stop_keeper(const gcctl_local *l, const char *datadir, bool immediate)
{
    pid_t pid = signal_keeper(l, datadir, immediate);
    bool stopped = pid == 0 || wait_gone(pid);
    /* A keeper that did not stop (frozen, say) goes with its services: the
     * keeper leads their process group (gcctl started it in a session of
     * its own). */
    if (!stopped)
        kill(-pid, SIGKILL);
    /* A server whose keeper was killed (a test's kill -9) outlives it. */
    char pidfile[1200];
    snprintf(pidfile, sizeof pidfile, "%s/postmaster.pid", datadir);
    if (access(pidfile, F_OK) == 0) {
        gc_error ignored;
        const char *argv[] = { "pg_ctl", "stop", "-w", "-t", "30", "-D", datadir, "-m",
                               immediate ? "immediate" : "fast", NULL };
        gcctl_proc_run("pg_ctl stop", argv, l->uid, l->gid, NULL, &ignored);
    }
    return stopped;
}

bool gcctl_ha_forget_node(const gcctl_local *l, const gcctl_member *m, gc_error *err)
{
    char datadir[1100];
    gcctl_local_datadir(l, m->name, datadir, sizeof datadir);
    gcctl_ha_stop_keeper(l, datadir, true);
    PGconn *c = connect_monitor(l, 5, err);
    if (!c)
        return false;
    const char *params[] = { m->name, m->group };
    PGresult *r = gcctl_query(c, "monitor",
        "SELECT pgautofailover.remove_node(nodeid, true) FROM pgautofailover.node"
        " WHERE nodename = $1 AND formationid = $2", 2, params, err);
    PQfinish(c);
    if (!r)
        return false;
    PQclear(r);
    /* pg_autoctl's own files for this data directory (XDG, see
     * gcctl_ha_environment): a new node is created in their place. */
    static const char *const kinds[] = { "config", "data", "run" };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        char path[2400];
        snprintf(path, sizeof path, "%s/xdg/%s/pg_autoctl%s", l->base, kinds[i], datadir);
        if (access(path, F_OK) == 0 && !gcctl_proc_remove_tree(path)) {
            gc_error_set(err, "HY000", 0, "cannot remove %s", path);
            return false;
        }
    }
    return true;
}

void gcctl_ha_stop_all(const gcctl_local *l)
{
    char datadir[1100];
    /* All signalled first: they stop side by side. */
    for (size_t i = 0; i < l->spec.nmembers; i++) {
        gcctl_local_datadir(l, l->spec.members[i].name, datadir, sizeof datadir);
        signal_keeper(l, datadir, true);
    }
    for (size_t i = 0; i < l->spec.nmembers; i++) {
        gcctl_local_datadir(l, l->spec.members[i].name, datadir, sizeof datadir);
        gcctl_ha_stop_keeper(l, datadir, true);
    }
    monitor_datadir(l, datadir, sizeof datadir);
    gcctl_ha_stop_keeper(l, datadir, true);
}

int gcctl_ha_nodes(const gcctl_local *l, gcctl_ha_node **out, gc_error *err)
{
    *out = NULL;
    if (l->monitor_port == 0) {
        gc_error_set(err, "HY000", 0, "the cluster has no pg_auto_failover monitor");
        return -1;
    }
    PGconn *c = connect_monitor(l, 2, err);
    if (!c)
        return -1;
    PGresult *r = gcctl_query(c, "monitor",
        "SELECT nodename, formationid, reportedstate::text, goalstate::text FROM pgautofailover.node"
        " ORDER BY nodeid", 0, NULL, err);
    PQfinish(c);
    if (!r)
        return -1;
    int n = PQntuples(r);
    *out = gcctl_xcalloc(n > 0 ? (size_t)n : 1, sizeof **out);
    for (int i = 0; i < n; i++) {
        gcctl_ha_node *node = &(*out)[i];
        snprintf(node->name, sizeof node->name, "%s", PQgetvalue(r, i, 0));
        snprintf(node->group, sizeof node->group, "%s", PQgetvalue(r, i, 1));
        snprintf(node->reported, sizeof node->reported, "%s", PQgetvalue(r, i, 2));
        snprintf(node->goal, sizeof node->goal, "%s", PQgetvalue(r, i, 3));
    }
    PQclear(r);
    return n;
}

const gcctl_ha_node *gcctl_ha_find(const gcctl_ha_node *nodes, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(nodes[i].name, name) == 0)
            return &nodes[i];
    return NULL;
}

bool gcctl_ha_is_primary_state(const gcctl_ha_node *node)
{
    static const char *const primary[] = { "single", "wait_primary", "primary", "join_primary",
                                           "apply_settings", "prepare_promotion", "stop_replication" };
    for (size_t i = 0; i < sizeof primary / sizeof primary[0]; i++)
        if (strcmp(node->goal, primary[i]) == 0)
            return true;
    return false;
}
