/*
 * Topology and parallel member connect, against a real local cluster.
 *
 *   topology_test --unit          gc_topology_from_locator and lookups only
 *   topology_test DIR GCCTL       DIR: a running local cluster of 3 groups x
 *                                 2 members (gcctl local up); GCCTL: gcctl
 *
 * Every check prints what it saw; the exit status is the number of failed
 * checks (capped), so ctest fails on any of them.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <time.h>

#include "config/gc_locator.h"
#include "global/gc_topology.h"
#include "member/gc_member.h"

static int failures;

#define CHECK(cond, ...)                                              \
    do {                                                              \
        if (!(cond)) {                                                \
            failures++;                                               \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                             \
            fputc('\n', stderr);                                      \
        }                                                             \
    } while (0)

enum { N_MEMBERS = 6, TRIES = 7 };

static const char *const spec_members[N_MEMBERS] = {
    "G1N1", "G1N2", "G2N1", "G2N2", "G3N1", "G3N2"
};

/* ---------------------------------------------------------------- unit --- */

static void unit_from_locator(void)
{
    static const char text[] =
        "cluster: demo\n"
        "members:\n"
        "  - {name: G2N1, group: G2, host: h1, port: 5433}\n"
        "  - {name: G1N1, group: G1, host: h2, port: 5434}\n"
        "  - {name: G2N2, group: G2, host: h3, port: 5435}\n";
    gc_error err;
    gc_error_clear(&err);
    gc_locator *loc = gc_locator_parse(text, strlen(text), "<string>", &err);
    CHECK(loc != NULL, "locator parse: %s", err.message);
    if (loc == NULL)
        return;
    gc_topology t;
    CHECK(gc_topology_from_locator(loc, &t, &err), "%s", err.message);
    CHECK(t.version == -1, "version %lld", (long long)t.version);
    CHECK(t.cluster != NULL && strcmp(t.cluster, "demo") == 0, "cluster %s",
          t.cluster ? t.cluster : "(null)");
    /* Groups in order of first appearance; FDW server named like the group. */
    CHECK(t.n_groups == 2, "%d groups", t.n_groups);
    CHECK(t.n_groups == 2 && strcmp(t.groups[0].name, "G2") == 0 &&
          strcmp(t.groups[1].name, "G1") == 0, "group order");
    CHECK(t.n_groups == 2 && strcmp(t.groups[0].fdw_server, "G2") == 0, "fdw server");
    CHECK(t.n_members == 3, "%d members", t.n_members);
    if (t.n_members == 3) {
        CHECK(strcmp(t.members[0].name, "G2N1") == 0 && t.members[0].group == 0 &&
              t.members[0].catalog_primary, "first of G2 is its primary");
        CHECK(strcmp(t.members[1].name, "G1N1") == 0 && t.members[1].group == 1 &&
              t.members[1].catalog_primary, "first of G1 is its primary");
        CHECK(strcmp(t.members[2].name, "G2N2") == 0 && t.members[2].group == 0 &&
              !t.members[2].catalog_primary, "second of G2 is a standby");
        CHECK(strcmp(t.members[2].host, "h3") == 0 && strcmp(t.members[2].port, "5435") == 0,
              "host %s port %s", t.members[2].host, t.members[2].port);
    }
    CHECK(gc_topology_group_index(&t, "G1") == 1, "G1 index");
    CHECK(gc_topology_group_index(&t, "G3") == -1, "unknown group");
    CHECK(gc_topology_group_index(&t, NULL) == -1, "NULL group");
    CHECK(gc_topology_group_of_fdw_server(&t, "G2") == 0, "fdw G2");
    CHECK(gc_topology_group_of_fdw_server(&t, "g2") == -1, "fdw names are case-sensitive");
    gc_topology_free(&t);
    CHECK(t.n_groups == 0 && t.members == NULL, "free empties the topology");
    gc_topology_free(&t);   /* twice is harmless */
    gc_locator_free(loc);

    /* A locator without a cluster name. */
    static const char bare[] = "members:\n  - {name: A, group: G, host: h, port: 1}\n";
    loc = gc_locator_parse(bare, strlen(bare), "<string>", &err);
    CHECK(loc != NULL, "bare locator: %s", err.message);
    if (loc != NULL) {
        CHECK(gc_topology_from_locator(loc, &t, &err), "%s", err.message);
        CHECK(t.cluster == NULL && t.n_groups == 1 && t.n_members == 1, "bare topology");
        gc_topology_free(&t);
        gc_locator_free(loc);
    }
}

/* ------------------------------------------------------------- cluster --- */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

static const gc_locator_member *find_member(const gc_locator *loc, const char *name)
{
    for (size_t i = 0; i < loc->member_count; i++) {
        if (strcmp(loc->members[i].name, name) == 0)
            return &loc->members[i];
    }
    return NULL;
}

/* A closed session to the locator's member `name` as the application role. */
static gc_member *member_for(const gc_locator *loc, const char *name)
{
    const gc_locator_member *lm = find_member(loc, name);
    if (lm == NULL) {
        fprintf(stderr, "member %s not in the locator\n", name);
        exit(2);
    }
    char port[16];
    snprintf(port, sizeof port, "%d", lm->port);
    gc_member_params p = {
        .name = lm->name, .group = lm->group, .host = lm->host, .port = port,
        .dbname = "app", .user = "app", .password = "app",
    };
    gc_member *m = gc_member_create(&p, NULL);
    if (m == NULL)
        exit(2);
    return m;
}

static void make_all(const gc_locator *loc, gc_member **ms)
{
    for (int i = 0; i < N_MEMBERS; i++)
        ms[i] = member_for(loc, spec_members[i]);
}

static void destroy_all(gc_member **ms)
{
    for (int i = 0; i < N_MEMBERS; i++)
        gc_member_destroy(ms[i]);
}

static void cluster_topology(const gc_locator *loc)
{
    gc_error err;
    gc_error_clear(&err);
    gc_member *seed = member_for(loc, "G2N2");   /* a standby: the catalog replicates */
    CHECK(gc_member_connect(seed, &err), "connect G2N2: %s", err.message);
    CHECK(gc_member_generation(seed) == 1, "generation %lu", gc_member_generation(seed));
    CHECK(gc_member_get_role(seed) == GC_ROLE_STANDBY, "G2N2 is a standby");
    gc_topology t;
    CHECK(gc_topology_load(seed, &t, &err), "load: %s %s", err.sqlstate, err.message);
    printf("topology from G2N2: cluster %s, version %lld, %d groups, %d members\n",
           t.cluster ? t.cluster : "-", (long long)t.version, t.n_groups, t.n_members);
    CHECK(t.cluster != NULL && strcmp(t.cluster, "topo") == 0, "cluster name");
    CHECK(t.version >= 1, "version %lld", (long long)t.version);
    CHECK(t.n_groups == 3, "%d groups", t.n_groups);
    for (int g = 0; g < t.n_groups && g < 3; g++) {
        char name[8];
        snprintf(name, sizeof name, "G%d", g + 1);
        CHECK(strcmp(t.groups[g].name, name) == 0, "group %d is %s", g, t.groups[g].name);
        CHECK(gc_topology_group_of_fdw_server(&t, name) == g, "fdw server of %s", name);
    }
    CHECK(t.n_members == N_MEMBERS, "%d members", t.n_members);
    for (int i = 0; i < t.n_members && i < N_MEMBERS; i++) {
        const gc_topo_member *tm = &t.members[i];
        const gc_locator_member *lm = find_member(loc, spec_members[i]);
        char port[16];
        snprintf(port, sizeof port, "%d", lm->port);
        CHECK(strcmp(tm->name, spec_members[i]) == 0, "member %d is %s", i, tm->name);
        CHECK(tm->group == i / 2, "%s in group %d", tm->name, tm->group);
        CHECK(tm->catalog_primary == (i % 2 == 0), "%s primary flag", tm->name);
        CHECK(strcmp(tm->host, lm->host) == 0 && strcmp(tm->port, port) == 0,
              "%s at %s:%s, locator says %s:%s", tm->name, tm->host, tm->port, lm->host, port);
    }
    gc_topology_free(&t);

    /* The locator gcctl wrote describes the same cluster. */
    CHECK(gc_topology_from_locator(loc, &t, &err), "%s", err.message);
    CHECK(t.n_groups == 3 && t.n_members == N_MEMBERS, "locator topology size");
    gc_topology_free(&t);

    /* A refused login keeps the server's reason, in parallel as blocking. */
    const gc_locator_member *lm = find_member(loc, "G1N1");
    char port[16];
    snprintf(port, sizeof port, "%d", lm->port);
    gc_member_params bad = { .name = "G1N1", .host = lm->host, .port = port,
                             .dbname = "app", .user = "app", .password = "wrong" };
    gc_member *refused = gc_member_create(&bad, NULL);
    CHECK(gc_member_connect_all(&refused, 1, 10000, &err) == 0 &&
          strcmp(err.sqlstate, "08001") == 0 && strstr(err.message, "FATAL 28P01") != NULL &&
          gc_member_get_state(refused) == GC_MEMBER_DOWN,
          "wrong password: %s %s", err.sqlstate, err.message);
    gc_member_destroy(refused);

    /* Through a closed session: an error, and nothing to free. */
    gc_member_close(seed);
    CHECK(!gc_topology_load(seed, &t, &err) && strcmp(err.sqlstate, "08003") == 0 &&
          t.n_members == 0 && t.members == NULL,
          "load through a closed session: %s %s", err.sqlstate, err.message);
    gc_member_destroy(seed);
}

/* The median wall time of one connect and of six parallel connects. */
static void cluster_parallel_timing(const gc_locator *loc)
{
    double one[TRIES], all[TRIES];
    gc_error errs[N_MEMBERS];
    for (int k = 0; k < TRIES; k++) {
        gc_member *m = member_for(loc, "G2N1");
        double t0 = now_ms();
        int n = gc_member_connect_all(&m, 1, 10000, errs);
        one[k] = now_ms() - t0;
        CHECK(n == 1, "one connect: %s", errs[0].message);
        gc_member_destroy(m);

        gc_member *ms[N_MEMBERS];
        make_all(loc, ms);
        t0 = now_ms();
        n = gc_member_connect_all(ms, N_MEMBERS, 10000, errs);
        all[k] = now_ms() - t0;
        CHECK(n == N_MEMBERS, "six connects: %d open", n);
        for (int i = 0; i < N_MEMBERS; i++) {
            CHECK(gc_member_get_state(ms[i]) == GC_MEMBER_UP, "%s up", spec_members[i]);
            CHECK(errs[i].sqlstate[0] == '\0', "%s error %s", spec_members[i], errs[i].message);
            CHECK(gc_member_get_role(ms[i]) ==
                      (i % 2 == 0 ? GC_ROLE_PRIMARY : GC_ROLE_STANDBY),
                  "%s role", spec_members[i]);
        }
        if (k == 0) {
            /* Open members are left alone: same generation, still open. */
            unsigned long gen = gc_member_generation(ms[0]);
            n = gc_member_connect_all(ms, N_MEMBERS, 10000, errs);
            CHECK(n == N_MEMBERS && gc_member_generation(ms[0]) == gen,
                  "reconnect of open members: %d open, generation %lu", n,
                  gc_member_generation(ms[0]));
            /* The blocking connect reconnects: a new generation. */
            CHECK(gc_member_connect(ms[0], &errs[0]) && gc_member_generation(ms[0]) > gen,
                  "blocking reconnect: generation %lu", gc_member_generation(ms[0]));
        }
        destroy_all(ms);
    }
    printf("connect times (ms), %d tries:\n  one member:  ", TRIES);
    for (int k = 0; k < TRIES; k++)
        printf(" %.1f", one[k]);
    printf("\n  six members: ");
    for (int k = 0; k < TRIES; k++)
        printf(" %.1f", all[k]);
    /* Printed, not asserted: on a local cluster a connect is CPU work
     * (libpq's half of SCRAM and the server's backend start), so the ratio
     * says how many cores the machine has as much as anything about the
     * driver. The latency-bound test below holds the "no more than twice
     * one connect" rule, where waiting, not CPU, is what parallel connects
     * save. */
    double m1 = median(one, TRIES), m6 = median(all, TRIES);
    printf("\n  median one %.1f ms, six %.1f ms, ratio %.2f\n", m1, m6, m6 / m1);
}

/* The postmaster pid of member `name`, from its data directory. */
static pid_t postmaster_pid(const char *dir, const char *name)
{
    char path[8192], line[2048], base[2048] = "";
    snprintf(path, sizeof path, "%s/local.state", dir);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    while (fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "base: ", 6) == 0)
            snprintf(base, sizeof base, "%s", line + 6);
    }
    fclose(f);
    snprintf(path, sizeof path, "%s/%s/postmaster.pid", base, name);
    f = fopen(path, "r");
    if (f == NULL)
        return -1;
    long pid = -1;
    if (fscanf(f, "%ld", &pid) != 1)
        pid = -1;
    fclose(f);
    return (pid_t)pid;
}

/* Postmasters this program stopped with SIGSTOP: resumed on every way out. */
static pid_t stopped_pids[N_MEMBERS];
static int n_stopped;

static void resume_stopped(void)
{
    for (int i = 0; i < n_stopped; i++)
        kill(stopped_pids[i], SIGCONT);
    n_stopped = 0;
}

static void stop_postmaster(pid_t pid)
{
    stopped_pids[n_stopped++] = pid;
    CHECK(kill(pid, SIGSTOP) == 0, "SIGSTOP %ld: %s", (long)pid, strerror(errno));
}

static void on_signal(int sig)
{
    resume_stopped();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_resume_handlers(void)
{
    atexit(resume_stopped);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGABRT, on_signal);
    signal(SIGSEGV, on_signal);
}

/* Stops the postmasters pids[0..n) and resumes them delay_ms later from a
 * child process, as if every server sat behind a slow network. Returns the
 * child's pid (the caller waits for it). */
static pid_t stop_for(const pid_t *pids, int n, int delay_ms)
{
    for (int i = 0; i < n; i++)
        stop_postmaster(pids[i]);
    pid_t child = fork();
    if (child == 0) {
        struct timespec d = { delay_ms / 1000, (long)(delay_ms % 1000) * 1000000L };
        nanosleep(&d, NULL);
        for (int i = 0; i < n; i++)
            kill(pids[i], SIGCONT);
        _exit(0);
    }
    CHECK(child > 0, "fork: %s", strerror(errno));
    if (child < 0)
        resume_stopped();
    return child;
}

/* Connect latency dominated by the servers, not by this machine's CPU: every
 * server is unresponsive for delay_ms (SIGSTOP, SIGCONT from a child). One
 * member then takes delay_ms plus one handshake; six connected in parallel
 * must take about the same, at most twice as long (six in sequence would
 * take six times as long). */
static void cluster_parallel_latency(const char *dir, const gc_locator *loc)
{
    enum { DELAY_MS = 300, LAT_TRIES = 3 };
    pid_t pids[N_MEMBERS];
    for (int i = 0; i < N_MEMBERS; i++) {
        pids[i] = postmaster_pid(dir, spec_members[i]);
        CHECK(pids[i] > 0, "postmaster pid of %s", spec_members[i]);
        if (pids[i] <= 0)
            return;
    }
    double one[LAT_TRIES], all[LAT_TRIES];
    gc_error errs[N_MEMBERS];
    for (int k = 0; k < LAT_TRIES; k++) {
        gc_member *m = member_for(loc, "G2N1");
        pid_t child = stop_for(&pids[2], 1, DELAY_MS);
        double t0 = now_ms();
        int n = gc_member_connect_all(&m, 1, 10000, errs);
        one[k] = now_ms() - t0;
        waitpid(child, NULL, 0);
        n_stopped = 0;
        CHECK(n == 1, "one slow connect: %s", errs[0].message);
        gc_member_destroy(m);

        gc_member *ms[N_MEMBERS];
        make_all(loc, ms);
        child = stop_for(pids, N_MEMBERS, DELAY_MS);
        t0 = now_ms();
        n = gc_member_connect_all(ms, N_MEMBERS, 10000, errs);
        all[k] = now_ms() - t0;
        waitpid(child, NULL, 0);
        n_stopped = 0;
        CHECK(n == N_MEMBERS, "six slow connects: %d open", n);
        destroy_all(ms);
    }
    printf("connect times (ms) with every server answering %d ms late, %d tries:\n"
           "  one member: ", DELAY_MS, LAT_TRIES);
    for (int k = 0; k < LAT_TRIES; k++)
        printf(" %.1f", one[k]);
    printf("\n  six members:");
    for (int k = 0; k < LAT_TRIES; k++)
        printf(" %.1f", all[k]);
    double m1 = median(one, LAT_TRIES), m6 = median(all, LAT_TRIES);
    printf("\n  median one %.1f ms, six %.1f ms, ratio %.2f (limit 2.00)\n", m1, m6, m6 / m1);
    CHECK(m1 >= DELAY_MS, "the delay did not apply: %.1f ms", m1);
    CHECK(m6 <= 2.0 * m1, "six members took %.1f ms, one %.1f ms", m6, m1);
}

/* A server that accepts TCP but never answers: only the timeout ends it. */
static void cluster_hung_member(const char *dir, const gc_locator *loc)
{
    pid_t pid = postmaster_pid(dir, "G2N2");
    CHECK(pid > 0, "postmaster pid of G2N2");
    if (pid <= 0)
        return;
    stop_postmaster(pid);

    gc_member *ms[N_MEMBERS];
    gc_error errs[N_MEMBERS];
    make_all(loc, ms);
    const int timeout_ms = 1500;
    double t0 = now_ms();
    int n = gc_member_connect_all(ms, N_MEMBERS, timeout_ms, errs);
    double took = now_ms() - t0;
    resume_stopped();
    printf("hung G2N2 (SIGSTOP): %d open in %.1f ms (timeout %d ms); G2N2: %s %s\n",
           n, took, timeout_ms, errs[3].sqlstate, errs[3].message);
    CHECK(n == N_MEMBERS - 1, "%d open", n);
    CHECK(took >= timeout_ms - 50 && took < timeout_ms + 500, "took %.1f ms", took);
    CHECK(gc_member_get_state(ms[3]) == GC_MEMBER_DOWN, "G2N2 down");
    CHECK(strcmp(errs[3].sqlstate, "08001") == 0, "sqlstate %s", errs[3].sqlstate);
    CHECK(strstr(errs[3].message, "timeout") != NULL, "message %s", errs[3].message);
    CHECK(gc_member_get_state(ms[2]) == GC_MEMBER_UP, "G2N1 up");

    /* Resumed, the member connects again: a DOWN member is retried. */
    n = gc_member_connect_all(ms, N_MEMBERS, 10000, errs);
    CHECK(n == N_MEMBERS, "after SIGCONT %d open: %s", n, errs[3].message);
    CHECK(gc_member_get_state(ms[3]) == GC_MEMBER_UP, "G2N2 up again");
    destroy_all(ms);
}

/* A stopped server refuses the connection: DOWN with libpq's message. */
static void cluster_stopped_member(const char *dir, const char *gcctl, const gc_locator *loc)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "'%s' local stop-member G3N2 --dir '%s' >/dev/null", gcctl, dir);
    CHECK(system(cmd) == 0, "%s", cmd);

    gc_member *ms[N_MEMBERS];
    gc_error errs[N_MEMBERS];
    make_all(loc, ms);
    double t0 = now_ms();
    int n = gc_member_connect_all(ms, N_MEMBERS, 10000, errs);
    double took = now_ms() - t0;
    printf("stopped G3N2: %d open in %.1f ms; G3N2: %s %s\n", n, took,
           errs[5].sqlstate, errs[5].message);
    CHECK(n == N_MEMBERS - 1, "%d open", n);
    CHECK(gc_member_get_state(ms[5]) == GC_MEMBER_DOWN, "G3N2 down");
    CHECK(!gc_member_is_open(ms[5]), "G3N2 not open");
    CHECK(strcmp(errs[5].sqlstate, "08001") == 0, "sqlstate %s", errs[5].sqlstate);
    CHECK(strstr(errs[5].message, "refused") != NULL, "libpq's message: %s", errs[5].message);
    for (int i = 0; i < N_MEMBERS - 1; i++)
        CHECK(gc_member_get_state(ms[i]) == GC_MEMBER_UP, "%s up", spec_members[i]);

    /* The blocking connect reports the same. */
    gc_error err;
    gc_error_clear(&err);
    CHECK(!gc_member_connect(ms[5], &err) && strcmp(err.sqlstate, "08001") == 0,
          "blocking connect to a stopped member: %s %s", err.sqlstate, err.message);
    destroy_all(ms);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    unit_from_locator();
    if (argc == 2 && strcmp(argv[1], "--unit") == 0) {
        puts(failures ? "FAILED" : "PASS");
        return failures > 100 ? 100 : failures;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: %s --unit | %s DIR GCCTL\n", argv[0], argv[0]);
        return 2;
    }
    const char *dir = argv[1], *gcctl = argv[2];
    char path[4096];
    snprintf(path, sizeof path, "%s/locator.yaml", dir);
    gc_error err;
    gc_error_clear(&err);
    gc_locator *loc = gc_locator_load(path, &err);
    if (loc == NULL) {
        fprintf(stderr, "FAIL: %s\n", err.message);
        return 1;
    }
    cluster_topology(loc);
    cluster_parallel_timing(loc);
    install_resume_handlers();
    cluster_parallel_latency(dir, loc);
    cluster_hung_member(dir, loc);
    cluster_stopped_member(dir, gcctl, loc);
    gc_locator_free(loc);
    if (failures)
        printf("FAILED (%d checks)\n", failures);
    else
        puts("PASS");
    return failures > 100 ? 100 : failures;
}
