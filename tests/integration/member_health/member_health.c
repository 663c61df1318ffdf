/*
 * member_health: the member layer's failure detection and commit
 * resolution against a real primary (and its standby), with timings.
 *   - a pipelined autocommit write reports its transaction id and server
 *     incarnation; committed, failed, rolled-back and in-progress
 *     transactions resolve correctly through pg_xact_status with the
 *     incarnation rule, and a standby refuses to tell;
 *   - a statement slower than MemberTimeout on a healthy server is not a
 *     dead member (the liveness probe answers);
 *   - a failure of an old generation never marks a reconnected member down;
 *   - kill -9 of the backend (idle and with a statement in flight), SIGSTOP
 *     of the whole server, and kill -9 of the postmaster are detected, and
 *     each detection time is printed and checked against its bound.
 * usage: member_health HOST PORT STANDBY_HOST STANDBY_PORT POSTMASTER_PID_FILE
 */
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "global/gc_xact_status.h"
#include "member/gc_member.h"

enum { MEMBER_TIMEOUT_S = 2 };

static const char *host, *port, *standby_host, *standby_port, *pid_file;
static pid_t stopped_postmaster;    /* continued at exit whatever happens */

#define CHECK(cond, ...) do { if (!(cond)) { fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); exit(1); } } while (0)

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(long ms)
{
    struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

static gc_member *member(const char *name, const char *h, const char *p)
{
    gc_member_params params = {
        .name = name, .group = "G1", .host = h, .port = p, .dbname = "app",
        .user = "app", .password = "app", .connect_timeout_s = 5,
        .member_timeout_s = MEMBER_TIMEOUT_S,
    };
    gc_member *m = gc_member_create(&params, NULL);
    CHECK(m != NULL, "out of memory");
    return m;
}

/* Connects, retrying for up to 30 s (the server may be in crash recovery). */
static void connect_retrying(gc_member *m)
{
    gc_error err;
    for (int i = 0; i < 300; i++) {
        if (gc_member_connect(m, &err))
            return;
        sleep_ms(100);
    }
    CHECK(false, "cannot connect %s: %s %s", gc_member_name(m), err.sqlstate, err.message);
}

static PGresult *exec_ok(gc_member *m, const char *sql)
{
    gc_error err;
    PGresult *res = gc_member_exec(m, sql, &err);
    CHECK(res != NULL, "%s: %s %s", sql, err.sqlstate, err.message);
    return res;
}

static char *scalar(gc_member *m, const char *sql, char *buf, size_t size)
{
    PGresult *res = exec_ok(m, sql);
    snprintf(buf, size, "%s", PQntuples(res) > 0 ? PQgetvalue(res, 0, 0) : "");
    PQclear(res);
    return buf;
}

static pid_t postmaster_pid(void)
{
    FILE *f = fopen(pid_file, "r");
    CHECK(f != NULL, "cannot read the postmaster pid file");
    long pid = 0;
    CHECK(fscanf(f, "%ld", &pid) == 1, "bad postmaster pid file");
    fclose(f);
    return (pid_t)pid;
}

/* Sends sig to the postmaster and each of its children (found in /proc). */
static void signal_server(pid_t pm, int sig)
{
    kill(pm, sig);
    DIR *d = opendir("/proc");
    if (d == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char path[300], line[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (f == NULL)
            continue;
        if (fgets(line, sizeof line, f) != NULL) {
            /* pid (comm) state ppid: comm may hold spaces, so after ')' */
            char *close = strrchr(line, ')');
            long ppid = 0;
            char state;
            if (close != NULL && sscanf(close + 1, " %c %ld", &state, &ppid) == 2 && ppid == pm)
                kill((pid_t)atol(e->d_name), sig);
        }
        fclose(f);
    }
    closedir(d);
}

static void continue_server_at_exit(void)
{
    if (stopped_postmaster > 0)
        signal_server(stopped_postmaster, SIGCONT);
}

/* --- pipelined writes and pg_xact_status ---------------------------- */

static void test_xid_resolution(void)
{
    gc_member *m = member("G1N1", host, port), *other = member("G1N1", host, port);
    gc_member *standby = member("G1N2", standby_host, standby_port);
    connect_retrying(m);
    connect_retrying(other);
    connect_retrying(standby);
    PQclear(exec_ok(m, "CREATE TABLE IF NOT EXISTS health_t (id int primary key)"));
    PQclear(exec_ok(m, "TRUNCATE health_t"));

    /* The driver's form of an autocommit write: the statement, then the id
     * query (with the server's start time), a flush, the sync. */
    gc_member_xid_run run;
    gc_error err;
    bool decisive;
    const char *one[1] = { "1" };
    bool ok = gc_member_run_statement_with_xid(m, false, NULL, NULL,
                                               "INSERT INTO health_t VALUES ($1)", 1, NULL, one,
                                               NULL, NULL, &run, &err);
    CHECK(ok && run.outcome == GC_XID_COMMITTED && run.xid[0] != '\0' && run.started[0] != '\0',
          "committed insert: %s %s", err.sqlstate, err.message);
    CHECK(run.result != NULL && strcmp(PQcmdTuples(run.result), "1") == 0, "insert's row count");
    char committed_xid[24], started[64];
    snprintf(committed_xid, sizeof committed_xid, "%s", run.xid);
    snprintf(started, sizeof started, "%s", run.started);
    gc_member_xid_run_clear(&run);
    CHECK(gc_member_txn_status(m) == PQTRANS_IDLE, "session idle after the pipeline");
    CHECK(gc_xact_status_resolve_on(m, committed_xid, started, 0, &decisive, &err) ==
              GC_XACT_COMMITTED && decisive,
          "committed xid %s resolves as committed: %s", committed_xid, err.message);
    /* The incarnation rule: asked as if of another incarnation, "committed"
     * may be another transaction's (a reused id), so it proves nothing. */
    CHECK(gc_xact_status_resolve_on(m, committed_xid, NULL, 0, &decisive, &err) ==
              GC_XACT_UNKNOWN && strcmp(err.sqlstate, "08007") == 0,
          "committed, another incarnation: unknown (%s)", err.message);

    /* A duplicate key: the statement fails, the id query never runs. */
    ok = gc_member_run_statement_with_xid(m, false, NULL, NULL, "INSERT INTO health_t VALUES ($1)",
                                          1, NULL, one, NULL, NULL, &run, &err);
    CHECK(!ok && run.outcome == GC_XID_NOT_COMMITTED && strcmp(err.sqlstate, "23505") == 0 &&
              run.error != NULL && run.result == NULL,
          "duplicate insert: outcome %d %s %s", run.outcome, err.sqlstate, err.message);
    gc_member_xid_run_clear(&run);
    CHECK(gc_member_txn_status(m) == PQTRANS_IDLE, "failed pipeline leaves the session idle");

    /* A SELECT through the same path returns its rows and writes nothing. */
    ok = gc_member_run_statement_with_xid(m, false, NULL, NULL, "SELECT count(*) FROM health_t",
                                          0, NULL, NULL, NULL, NULL, &run, &err);
    CHECK(run.result != NULL && strcmp(PQgetvalue(run.result, 0, 0), "1") == 0 &&
              run.xid_answered && run.xid[0] == '\0',
          "select through the pipeline: rows, no transaction id");
    gc_member_xid_run_clear(&run);

    /* A command before the statement (the driver's statement mark): in the
     * statement's transaction (its local setting is seen), its answer
     * dropped, the statement's delivered, the id known. */
    const char *ten[1] = { "10" }, *eleven[1] = { "11" };
    char n_rows[16];
    ok = gc_member_run_statement_with_xid(
        m, GC_XID_QUERY_TEXT, "SELECT set_config('gcodbc.test_mark', 'on', true)", NULL,
        "INSERT INTO health_t SELECT $1::int WHERE current_setting('gcodbc.test_mark') = 'on'",
        1, NULL, ten, NULL, NULL, &run, &err);
    CHECK(ok && run.outcome == GC_XID_COMMITTED && run.xid[0] != '\0' && run.result != NULL &&
              strcmp(PQcmdStatus(run.result), "INSERT 0 1") == 0,
          "write after a command: %s %s", err.sqlstate, err.message);
    gc_member_xid_run_clear(&run);
    /* The command fails: its error is the statement's, which the server
     * skips: nothing applied, the session idle. */
    ok = gc_member_run_statement_with_xid(m, GC_XID_QUERY_TEXT, "SELECT 1/0", NULL,
                                          "INSERT INTO health_t VALUES ($1)", 1, NULL, eleven,
                                          NULL, NULL, &run, &err);
    CHECK(!ok && run.outcome == GC_XID_NOT_COMMITTED && strcmp(err.sqlstate, "22012") == 0 &&
              run.error != NULL && run.result == NULL,
          "failed command before: outcome %d %s %s", run.outcome, err.sqlstate, err.message);
    gc_member_xid_run_clear(&run);
    CHECK(gc_member_txn_status(m) == PQTRANS_IDLE, "a failed command before leaves it idle");
    scalar(m, "SELECT count(*) FROM health_t WHERE id IN (10, 11)", n_rows, sizeof n_rows);
    CHECK(strcmp(n_rows, "1") == 0, "rows 10 and 11: %s, expected only 10", n_rows);

    /* An explicit transaction rolled back. */
    char xid[32];
    PQclear(exec_ok(m, "BEGIN"));
    PQclear(exec_ok(m, "INSERT INTO health_t VALUES (2)"));
    scalar(m, "SELECT pg_current_xact_id()", xid, sizeof xid);
    PQclear(exec_ok(m, "ROLLBACK"));
    CHECK(gc_xact_status_resolve_on(m, xid, started, 0, &decisive, &err) == GC_XACT_NOT_COMMITTED,
          "rolled-back xid resolves as not committed");

    /* In progress on another session: unknown after the wait, then
     * committed once that session commits. */
    PQclear(exec_ok(other, "BEGIN"));
    PQclear(exec_ok(other, "INSERT INTO health_t VALUES (3)"));
    scalar(other, "SELECT pg_current_xact_id()", xid, sizeof xid);
    long long t0 = now_ms();
    CHECK(gc_xact_status_resolve_on(m, xid, started, 200, &decisive, &err) == GC_XACT_UNKNOWN &&
              strcmp(err.sqlstate, "08007") == 0, "in-progress xid stays unknown");
    CHECK(now_ms() - t0 >= 200, "in progress: waited before deciding");
    PQclear(exec_ok(other, "COMMIT"));
    CHECK(gc_xact_status_resolve_on(m, xid, started, 200, &decisive, &err) == GC_XACT_COMMITTED,
          "xid committed after the wait");

    /* No id, or a standby: unknown (a standby's answer is not decisive). */
    CHECK(gc_xact_status_resolve_on(m, "", started, 0, &decisive, &err) == GC_XACT_UNKNOWN,
          "empty xid");
    CHECK(gc_member_get_role(standby) == GC_ROLE_STANDBY, "G1N2 is a standby");
    CHECK(gc_xact_status_resolve_on(standby, committed_xid, NULL, 0, &decisive, &err) ==
              GC_XACT_UNKNOWN && !decisive && strcmp(err.sqlstate, "08007") == 0,
          "a standby cannot tell");
    /* An id the server never saw: not committed, on any incarnation; a
     * malformed one: unknown. */
    CHECK(gc_xact_status_resolve_on(m, "999999999999", NULL, 0, &decisive, &err) ==
              GC_XACT_NOT_COMMITTED, "future xid: %s", err.message);
    CHECK(gc_xact_status_resolve_on(m, "abc", started, 0, &decisive, &err) == GC_XACT_UNKNOWN &&
              strcmp(err.sqlstate, "08007") == 0, "malformed xid: %s %s", err.sqlstate,
          err.message);
    CHECK(gc_member_is_open(m), "the session survives a failed question");
    printf("ok: pipelined write with xid %s; committed/failed/rolled back/in progress/standby/"
           "another incarnation resolve correctly\n", committed_xid);
    gc_member_destroy(m);
    gc_member_destroy(other);
    gc_member_destroy(standby);
}

static void test_slow_statement_is_not_a_dead_member(void)
{
    gc_member *m = member("G1N1", host, port);
    connect_retrying(m);
    long long t0 = now_ms();
    PGresult *res = exec_ok(m, "SELECT pg_sleep(3.5)");
    PQclear(res);
    long long took = now_ms() - t0;
    CHECK(gc_member_get_state(m) == GC_MEMBER_UP, "slow statement marked the member down");
    CHECK(gc_member_probes_answered(m) >= 1, "no liveness probe ran during a 3.5 s statement");
    printf("ok: a %lld ms statement with MemberTimeout=%d s left the member up "
           "(%lu liveness probes answered)\n", took, MEMBER_TIMEOUT_S,
           gc_member_probes_answered(m));
    gc_member_destroy(m);
}

static void test_old_generation_never_marks_a_reopened_member_down(void)
{
    gc_member *m = member("G1N1", host, port);
    connect_retrying(m);
    unsigned long old = gc_member_generation(m);
    gc_error why, err;
    gc_error_set(&why, "08S01", 0, "late failure of the old session");
    /* The old session breaks; the member is reopened before the error of
     * the old session reaches the router. */
    gc_member_close(m);
    connect_retrying(m);
    CHECK(gc_member_generation(m) > old, "generation advanced on reconnect");
    CHECK(!gc_member_mark_down(m, old, &why), "old generation marked the member down");
    CHECK(gc_member_get_state(m) == GC_MEMBER_UP && gc_member_is_open(m), "member not up");
    PQclear(exec_ok(m, "SELECT 1"));
    CHECK(gc_member_sent_generation(m) == gc_member_generation(m), "statement attributed to generation");
    CHECK(gc_member_mark_down(m, gc_member_generation(m), &why), "current generation must mark it down");
    CHECK(gc_member_get_state(m) == GC_MEMBER_DOWN && !gc_member_is_open(m), "not down");
    CHECK(!gc_member_check_alive(m, &err) && strcmp(err.message, why.message) == 0,
          "down error kept: %s", err.message);
    printf("ok: a late failure of generation %lu left generation %lu up; "
           "the current one marks it down\n", old, old + 1);
    gc_member_destroy(m);
}

/* --- kill -9 and SIGSTOP --------------------------------------------- */

typedef struct delayed_kill {
    pid_t pid;
    int delay_ms;
    long long killed_at;
} delayed_kill;

static void *kill_later(void *arg)
{
    delayed_kill *k = arg;
    sleep_ms(k->delay_ms);
    k->killed_at = now_ms();
    kill(k->pid, SIGKILL);
    return NULL;
}

static pid_t backend_pid(gc_member *m)
{
    char buf[32];
    return (pid_t)atol(scalar(m, "SELECT pg_backend_pid()", buf, sizeof buf));
}

static void test_kill_backend(void)
{
    gc_member *m = member("G1N1", host, port);
    gc_error err;

    /* Idle session: the router's check between statements. */
    connect_retrying(m);
    pid_t pid = backend_pid(m);
    long long t0 = now_ms();
    kill(pid, SIGKILL);
    while (gc_member_check_alive(m, &err) && now_ms() - t0 < 5000)
        sleep_ms(1);
    long long idle_ms = now_ms() - t0;
    CHECK(gc_member_get_state(m) == GC_MEMBER_DOWN, "idle kill -9 not detected in 5 s");
    CHECK(strcmp(err.sqlstate, "08S01") == 0, "idle kill: %s %s", err.sqlstate, err.message);

    /* A statement in flight. */
    connect_retrying(m);
    delayed_kill k = { .pid = backend_pid(m), .delay_ms = 300 };
    pthread_t th;
    gc_error send_err;
    CHECK(gc_member_send_query(m, "SELECT pg_sleep(30)", &send_err), "send");
    pthread_create(&th, NULL, kill_later, &k);
    PGresult *res = gc_member_next_result(m);
    long long got = now_ms();
    pthread_join(th, NULL);
    CHECK(res != NULL && PQresultStatus(res) == PGRES_FATAL_ERROR, "no error result");
    gc_member_result_error(m, res, &err);
    PQclear(res);
    while ((res = gc_member_next_result(m)) != NULL)
        PQclear(res);
    long long busy_ms = got - k.killed_at;
    CHECK(gc_member_get_state(m) == GC_MEMBER_DOWN, "in-flight kill -9: member not down");
    CHECK(busy_ms < 1000, "in-flight kill -9 took %lld ms", busy_ms);
    printf("figure: kill -9 backend, idle session: down after %lld ms (check_alive polled every 1 ms)\n",
           idle_ms);
    printf("figure: kill -9 backend, statement in flight: down after %lld ms (%s %s)\n",
           busy_ms, err.sqlstate, err.message);
    gc_member_destroy(m);
}

/* The session of a pipelined write is lost while the statement itself
 * runs (its backend killed: no FATAL, no id yet): the driver's form cannot
 * tell whether it committed, so the outcome is unknown (the application
 * gets 40003), never "not committed". */
static void test_lost_answer_without_an_id_is_unknown(void)
{
    gc_member *m = member("G1N1", host, port);
    gc_error err;
    connect_retrying(m);
    delayed_kill k = { .pid = backend_pid(m), .delay_ms = 500 };
    pthread_t th;
    pthread_create(&th, NULL, kill_later, &k);
    gc_member_xid_run run;
    bool ok = gc_member_run_statement_with_xid(m, false, NULL, NULL,
                                               "INSERT INTO health_t SELECT 100 FROM pg_sleep(30)",
                                               0, NULL, NULL, NULL, NULL, &run, &err);
    pthread_join(th, NULL);
    CHECK(!ok && run.outcome == GC_XID_UNKNOWN && run.xid[0] == '\0',
          "lost answer: outcome %d, xid '%s'", run.outcome, run.xid);
    CHECK(gc_member_get_state(m) == GC_MEMBER_DOWN && strcmp(err.sqlstate, "08S01") == 0,
          "lost answer: %s %s", err.sqlstate, err.message);
    gc_member_xid_run_clear(&run);
    printf("ok: a pipelined write whose backend was killed mid-statement: unknown, "
           "detected %lld ms after the kill\n", now_ms() - k.killed_at);
    gc_member_destroy(m);
    gc_member *again = member("G1N1", host, port);
    connect_retrying(again);    /* the server restarts after a backend's kill -9 */
    gc_member_destroy(again);
}

static void test_sigstop(void)
{
    gc_member *m = member("G1N1", host, port);
    gc_error err;
    connect_retrying(m);
    PQclear(exec_ok(m, "SELECT 1"));

    pid_t pm = postmaster_pid();
    stopped_postmaster = pm;
    signal_server(pm, SIGSTOP);
    long long t0 = now_ms();
    PGresult *res = gc_member_exec(m, "SELECT 1", &err);
    long long busy_ms = now_ms() - t0;
    CHECK(res == NULL && gc_member_get_state(m) == GC_MEMBER_DOWN, "stopped server not found down");
    CHECK(strcmp(err.sqlstate, "08S01") == 0 && strstr(err.message, "did not answer within 2 s"),
          "stopped server error: %s %s", err.sqlstate, err.message);
    CHECK(busy_ms <= MEMBER_TIMEOUT_S * 1000 + 1000, "SIGSTOP detection took %lld ms", busy_ms);
    gc_error stop_err = err;

    /* An idle session on the stopped server: the bounded ping. */
    signal_server(pm, SIGCONT);
    connect_retrying(m);
    signal_server(pm, SIGSTOP);
    t0 = now_ms();
    bool alive_check = gc_member_check_alive(m, &err);
    bool pinged = gc_member_ping(m, 500, &err);
    long long ping_ms = now_ms() - t0;
    signal_server(pm, SIGCONT);
    stopped_postmaster = 0;
    CHECK(alive_check, "check_alive (no round trip) cannot see a stopped server");
    CHECK(!pinged && gc_member_get_state(m) == GC_MEMBER_DOWN, "ping to a stopped server");
    CHECK(ping_ms >= 450 && ping_ms < 1500, "ping bounded by its timeout: %lld ms", ping_ms);
    /* Back: it reconnects and works. */
    connect_retrying(m);
    PQclear(exec_ok(m, "SELECT 1"));
    printf("figure: SIGSTOP server, statement sent: down after %lld ms (MemberTimeout %d s): %s %s\n",
           busy_ms, MEMBER_TIMEOUT_S, stop_err.sqlstate, stop_err.message);
    printf("figure: SIGSTOP server, idle session: check_alive sees nothing; ping(500 ms) down after %lld ms\n",
           ping_ms);
    gc_member_destroy(m);
}

static void test_kill_postmaster(void)
{
    gc_member *m = member("G1N1", host, port);
    gc_error err;
    connect_retrying(m);
    pid_t pm = postmaster_pid();
    long long t0 = now_ms();
    kill(pm, SIGKILL);
    while (gc_member_check_alive(m, &err) && now_ms() - t0 < 10000)
        sleep_ms(1);
    long long idle_ms = now_ms() - t0;
    CHECK(gc_member_get_state(m) == GC_MEMBER_DOWN, "postmaster kill -9 not seen in 10 s");
    gc_member *fresh = member("G1N1", host, port);
    t0 = now_ms();
    bool reconnected = gc_member_connect(fresh, &err);
    long long refused_ms = now_ms() - t0;
    CHECK(!reconnected && gc_member_get_state(fresh) == GC_MEMBER_DOWN, "connect to a dead server");
    printf("figure: kill -9 postmaster, idle session: down after %lld ms (the backend exits on "
           "postmaster death); a new connect fails in %lld ms (%s)\n", idle_ms, refused_ms,
           err.sqlstate);
    gc_member_destroy(fresh);
    gc_member_destroy(m);
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: member_health HOST PORT STANDBY_HOST STANDBY_PORT PIDFILE\n");
        return 2;
    }
    host = argv[1];
    port = argv[2];
    standby_host = argv[3];
    standby_port = argv[4];
    pid_file = argv[5];
    atexit(continue_server_at_exit);
    setvbuf(stdout, NULL, _IOLBF, 0);

    test_xid_resolution();
    test_slow_statement_is_not_a_dead_member();
    test_old_generation_never_marks_a_reopened_member_down();
    test_kill_backend();
    test_lost_answer_without_an_id_is_unknown();
    test_sigstop();
    test_kill_postmaster();    /* last: the primary stays dead */
    return 0;
}
