/*
 * SET and RESET on a global connection apply to every member session, all
 * or none, and are replayed on sessions opened later (server-side answers):
 *
 *   test_settings_everywhere DIR DSN GCCTL
 *
 * 1. For LocalityMemberPolicy 0 (keyed SELECTs on primaries) and 3 (on
 *    standbys): SET search_path TO s2, public and SET TIME ZONE
 *    'Asia/Seoul', then a keyed SELECT per group reads TimeZone and which
 *    `probe` the unqualified name means (s2.probe, public.probe both exist).
 *    Every member answers the same, and pg_stat_statements shows each ran on
 *    its owner group's member (routing by key still finds the unqualified
 *    `accounts` through the new search_path).
 * 2. All or none: SET ROLE only_g1 (a role only G1's servers know) fails,
 *    naming a G2 member, and leaves current_user unchanged on G1 too. SET
 *    ROLE settings_reader applies everywhere; RESET ROLE undoes it.
 * 3. LocalityOnDemand=Yes: settings made while only G1N1 is open; G2N1 is
 *    restarted (gcctl local stop-member / start-member), then opened by the
 *    first statement keyed to G2: it answers with the replayed settings.
 * 4. Every member open, ReconnectInterval=1: SET search_path, SET TIME ZONE
 *    and SQL_ATTR_TXN_ISOLATION = serializable; G2N1's postmaster is killed
 *    (kill -9) and started again while the connection stays open. A keyed
 *    write finds the dead session (routed elsewhere), the driver reconnects
 *    G2N1 by itself, and the next probes keyed to G2 run on G2N1 (the
 *    servers' pg_stat_statements say so) and answer with the replayed
 *    TimeZone, search_path and transaction_isolation.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "settings_support.h"

#define PROBE_SQL                                                                        \
    "SELECT current_setting('TimeZone'), "                                               \
    "(to_regclass('probe')::oid = to_regclass('s2.probe')::oid)::text, current_user "    \
    "FROM accounts WHERE id = ?"
#define PROBE_LIKE "SELECT current_setting(%"

typedef struct {
    char tz[64], s2[8], user[64], member[32];
} probe_answer;

/* Runs the keyed probe for account id; fills *a with the row and the member. */
static void probe(SQLHDBC dbc, int64_t id, probe_answer *a)
{
    SQLHSTMT st;
    rt_odbc_check(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st), SQL_HANDLE_DBC, dbc, "alloc");
    rt_odbc_check(SQLPrepare(st, (SQLCHAR *)PROBE_SQL, SQL_NTS), SQL_HANDLE_STMT, st, "prepare probe");
    SQLBIGINT key = id;
    rt_odbc_check(SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0, &key, 0,
                                   NULL),
                  SQL_HANDLE_STMT, st, "bind");
    rt_odbc_check(SQLExecute(st), SQL_HANDLE_STMT, st, "execute probe");
    SQLLEN ind;
    rt_odbc_check(SQLFetch(st), SQL_HANDLE_STMT, st, "fetch probe");
    rt_odbc_check(SQLGetData(st, 1, SQL_C_CHAR, a->tz, sizeof a->tz, &ind), SQL_HANDLE_STMT, st, "tz");
    rt_odbc_check(SQLGetData(st, 2, SQL_C_CHAR, a->s2, sizeof a->s2, &ind), SQL_HANDLE_STMT, st, "s2");
    rt_odbc_check(SQLGetData(st, 3, SQL_C_CHAR, a->user, sizeof a->user, &ind), SQL_HANDLE_STMT, st,
                  "user");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    st_last_member(dbc, a->member, sizeof a->member);
}

/* The member of group g that policy runs a keyed SELECT on: the primary
 * (policy 0) or the standby (policy 3). */
static int expected_member(const rt_cluster *c, int g, int policy)
{
    for (int i = 0; i < c->n_members; i++)
        if (c->members[i].group == g && c->members[i].standby == (policy == 3))
            return i;
    rt_fail("group %s has no %s", c->groups[g], policy == 3 ? "standby" : "primary");
}

/* The servers' own TimeZone (initdb takes it from the machine). */
static char server_tz[64];

/* Probes one key of every group and checks the answers and where they ran.
 * want_tz NULL: the first answer is every member's (server_tz gets it). */
static void probe_every_group(rt_cluster *c, SQLHDBC dbc, int policy, const char *want_tz,
                              const char *want_s2, const char *want_user, rt_rng *rng)
{
    for (int g = 0; g < c->n_groups; g++) {
        probe_answer a;
        probe(dbc, rt_random_id_of_group(rng, c, g), &a);
        if (want_tz == NULL) {
            snprintf(server_tz, sizeof server_tz, "%s", a.tz);
            want_tz = server_tz;
        }
        int want = expected_member(c, g, policy);
        printf("    %s: TimeZone %s, probe is s2.probe: %s, current_user %s\n", a.member, a.tz,
               a.s2, a.user);
        if (strcmp(a.member, c->members[want].name) != 0)
            rt_fail("the probe keyed to %s ran on %s, expected %s", c->groups[g], a.member,
                    c->members[want].name);
        if (strcmp(a.tz, want_tz) != 0 || strcmp(a.s2, want_s2) != 0 ||
            strcmp(a.user, want_user) != 0)
            rt_fail("%s answers TimeZone %s, s2 %s, user %s; expected %s, %s, %s", a.member,
                    a.tz, a.s2, a.user, want_tz, want_s2, want_user);
    }
}

static void settings_everywhere(rt_cluster *c, const char *dsn, int policy)
{
    char connstr[256];
    snprintf(connstr, sizeof connstr, "DSN=%s;LocalityMemberPolicy=%d", dsn, policy);
    SQLHENV env;
    SQLHDBC dbc;
    rt_odbc_connect(&env, &dbc, connstr);
    rt_reset_statements(c);
    rt_rng rng = {77};
    printf("  policy %d, before any SET:\n", policy);
    probe_every_group(c, dbc, policy, NULL, "false", "app", &rng);
    if (strcmp(server_tz, "Asia/Seoul") == 0)
        rt_fail("the servers already run in Asia/Seoul: the test would prove nothing");
    st_exec_ok(dbc, "SET search_path TO s2, public");
    st_exec_ok(dbc, "SET TIME ZONE 'Asia/Seoul'");
    printf("  policy %d, after SET search_path TO s2, public and SET TIME ZONE 'Asia/Seoul':\n",
           policy);
    probe_every_group(c, dbc, policy, "Asia/Seoul", "true", "app", &rng);
    /* The servers' account: each probe ran where the driver says. */
    for (int g = 0; g < c->n_groups; g++) {
        int want = expected_member(c, g, policy);
        for (int m = 0; m < c->n_members; m++) {
            if (c->members[m].group != g)
                continue;
            long calls = rt_calls(c, m, PROBE_LIKE);
            long expect = m == want ? 2 : 0;
            if (calls != expect)
                rt_fail("%s ran the probe %ld times, expected %ld", c->members[m].name, calls,
                        expect);
        }
    }
    /* The SETs themselves ran on every member. */
    for (int m = 0; m < c->n_members; m++) {
        long sets = rt_calls(c, m, "SET TIME ZONE%");
        if (sets != 1)
            rt_fail("%s ran SET TIME ZONE %ld times, expected 1", c->members[m].name, sets);
    }
    printf("ok: policy %d: every member answers Asia/Seoul and s2.probe; the servers agree\n",
           policy);

    if (policy == 0) {
        char state[6], msg[1024];
        SQLRETURN rc = st_exec(dbc, "SET ROLE only_g1", state, msg, sizeof msg);
        printf("  SET ROLE only_g1: rc %d [%s] %s\n", (int)rc, state, msg);
        if (rc != SQL_ERROR || strstr(msg, "G2N") == NULL)
            rt_fail("SET ROLE only_g1 should fail naming a G2 member");
        probe_every_group(c, dbc, policy, "Asia/Seoul", "true", "app", &rng);
        printf("ok: a SET one member refuses is undone on the members that took it\n");
        st_exec_ok(dbc, "SET ROLE settings_reader");
        probe_every_group(c, dbc, policy, "Asia/Seoul", "true", "settings_reader", &rng);
        st_exec_ok(dbc, "RESET ROLE");
        st_exec_ok(dbc, "RESET TIME ZONE");
        probe_every_group(c, dbc, policy, server_tz, "true", "app", &rng);
        st_exec_ok(dbc, "RESET ALL");
        probe_every_group(c, dbc, policy, server_tz, "false", "app", &rng);
        printf("ok: SET ROLE applies on every member; RESET ROLE, RESET and RESET ALL too\n");
    }
    rt_odbc_disconnect(env, dbc);
}

/* Runs `gcctl local CMD NAME --dir DIR`. */
static void gcctl(const char *bin, const char *dir, const char *cmd, const char *name)
{
    char line[1024];
    snprintf(line, sizeof line, "'%s' local %s %s --dir '%s' >/dev/null", bin, cmd, name, dir);
    if (system(line) != 0)
        rt_fail("%s failed", line);
}

static void replay_after_restart(rt_cluster *c, const char *dir, const char *dsn,
                                 const char *gcctl_bin)
{
    char connstr[256];
    snprintf(connstr, sizeof connstr, "DSN=%s;LocalityMemberPolicy=0;LocalityOnDemand=Yes", dsn);
    SQLHENV env;
    SQLHDBC dbc;
    rt_odbc_connect(&env, &dbc, connstr);
    st_exec_ok(dbc, "SET search_path TO s2, public");
    st_exec_ok(dbc, "SET TIME ZONE 'Asia/Seoul'");
    int g2n1 = st_member_index(c, "G2N1");
    printf("  LocalityOnDemand=Yes: settings made; restarting G2N1\n");
    gcctl(gcctl_bin, dir, "stop-member", "G2N1");
    gcctl(gcctl_bin, dir, "start-member", "G2N1");
    for (int i = 0; i < 100; i++) {
        PQreset(c->members[g2n1].conn);
        if (PQstatus(c->members[g2n1].conn) == CONNECTION_OK)
            break;
        usleep(100000);
    }
    if (PQstatus(c->members[g2n1].conn) != CONNECTION_OK)
        rt_fail("G2N1 did not come back");
    rt_rng rng = {99};
    probe_every_group(c, dbc, 0, "Asia/Seoul", "true", "app", &rng);
    printf("ok: G2N1, restarted and then opened on demand, got the settings replayed\n");
    rt_odbc_disconnect(env, dbc);
}

#define ISO_PROBE_SQL                                                                    \
    "SELECT current_setting('transaction_isolation'), current_setting('TimeZone'), "     \
    "(to_regclass('probe')::oid = to_regclass('s2.probe')::oid)::text "                  \
    "FROM accounts WHERE id = ?"
/* pg_stat_statements stores constants as $n: two current_setting calls tell
 * this probe from PROBE_SQL. */
#define ISO_PROBE_LIKE "SELECT current_setting(%), current_setting(%"

/* The keyed isolation probe for account id: fills iso, tz, s2 and member. */
static void iso_probe(SQLHDBC dbc, int64_t id, char iso[32], probe_answer *a)
{
    SQLHSTMT st;
    rt_odbc_check(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st), SQL_HANDLE_DBC, dbc, "alloc");
    rt_odbc_check(SQLPrepare(st, (SQLCHAR *)ISO_PROBE_SQL, SQL_NTS), SQL_HANDLE_STMT, st,
                  "prepare isolation probe");
    SQLBIGINT key = id;
    rt_odbc_check(SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0, &key, 0,
                                   NULL),
                  SQL_HANDLE_STMT, st, "bind");
    rt_odbc_check(SQLExecute(st), SQL_HANDLE_STMT, st, "execute isolation probe");
    SQLLEN ind;
    rt_odbc_check(SQLFetch(st), SQL_HANDLE_STMT, st, "fetch isolation probe");
    rt_odbc_check(SQLGetData(st, 1, SQL_C_CHAR, iso, 32, &ind), SQL_HANDLE_STMT, st, "iso");
    rt_odbc_check(SQLGetData(st, 2, SQL_C_CHAR, a->tz, sizeof a->tz, &ind), SQL_HANDLE_STMT, st, "tz");
    rt_odbc_check(SQLGetData(st, 3, SQL_C_CHAR, a->s2, sizeof a->s2, &ind), SQL_HANDLE_STMT, st, "s2");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    st_last_member(dbc, a->member, sizeof a->member);
}

/* One isolation probe keyed to group g that must run on member want and
 * answer serializable, Asia/Seoul and s2.probe. */
static void iso_probe_expect(rt_cluster *c, SQLHDBC dbc, int g, int want, rt_rng *rng)
{
    char iso[32];
    probe_answer a;
    iso_probe(dbc, rt_random_id_of_group(rng, c, g), iso, &a);
    printf("    %s: transaction_isolation %s, TimeZone %s, probe is s2.probe: %s\n", a.member, iso,
           a.tz, a.s2);
    if (strcmp(a.member, c->members[want].name) != 0)
        rt_fail("the probe keyed to %s ran on %s, expected %s", c->groups[g], a.member,
                c->members[want].name);
    if (strcmp(iso, "serializable") != 0 || strcmp(a.tz, "Asia/Seoul") != 0 ||
        strcmp(a.s2, "true") != 0)
        rt_fail("%s answers %s, %s, %s; expected serializable, Asia/Seoul, true", a.member, iso,
                a.tz, a.s2);
}

/* Text of the first value of sql run as the superuser on member m. */
static void su_text(rt_cluster *c, int m, const char *sql, char *buf, size_t size)
{
    PGresult *r = PQexec(c->members[m].conn, sql);
    if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) < 1)
        rt_fail("%s: %s: %s", c->members[m].name, sql, PQerrorMessage(c->members[m].conn));
    snprintf(buf, size, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
}

/* Reopens the witness session of member m, waiting up to 10 s. */
static void witness_reconnect(rt_cluster *c, int m)
{
    for (int i = 0; i < 100; i++) {
        PQreset(c->members[m].conn);
        if (PQstatus(c->members[m].conn) == CONNECTION_OK)
            return;
        usleep(100000);
    }
    rt_fail("%s did not come back", c->members[m].name);
}

static void replay_after_kill_with_connection_open(rt_cluster *c, const char *dir,
                                                   const char *dsn, const char *gcctl_bin)
{
    char connstr[256];
    snprintf(connstr, sizeof connstr,
             "DSN=%s;LocalityMemberPolicy=0;LocalityOnDemand=No;ReconnectInterval=1", dsn);
    SQLHENV env;
    SQLHDBC dbc;
    rt_odbc_connect(&env, &dbc, connstr);
    st_exec_ok(dbc, "SET search_path TO s2, public");
    st_exec_ok(dbc, "SET TIME ZONE 'Asia/Seoul'");
    rt_odbc_check(SQLSetConnectAttr(dbc, SQL_ATTR_TXN_ISOLATION,
                                    (SQLPOINTER)(uintptr_t)SQL_TXN_SERIALIZABLE, 0),
                  SQL_HANDLE_DBC, dbc, "SQLSetConnectAttr(SQL_ATTR_TXN_ISOLATION)");
    int g1 = rt_group_index(c, "G1"), g2 = rt_group_index(c, "G2");
    int g1n1 = st_member_index(c, "G1N1"), g2n1 = st_member_index(c, "G2N1");
    rt_rng rng = {4242};
    printf("  every member open; settings made; before the kill:\n");
    iso_probe_expect(c, dbc, g1, g1n1, &rng);
    iso_probe_expect(c, dbc, g2, g2n1, &rng);

    /* kill -9 of G2N1's postmaster: no shutdown, its backends die with it. */
    char pidfile[256];
    su_text(c, g2n1, "SELECT pg_read_file('postmaster.pid')", pidfile, sizeof pidfile);
    long pid = atol(pidfile);
    if (pid <= 1)
        rt_fail("G2N1's postmaster.pid holds no pid: '%s'", pidfile);
    printf("  kill -9 of G2N1's postmaster (pid %ld), then start-member\n", pid);
    if (kill((pid_t)pid, SIGKILL) != 0)
        rt_fail("kill -9 %ld: %s", pid, strerror(errno));
    /* Started again once its children are gone (they hold the old shared
     * memory): bounded retries. */
    char line[1024];
    snprintf(line, sizeof line, "'%s' local start-member G2N1 --dir '%s' >/dev/null 2>&1",
             gcctl_bin, dir);
    bool started = false;
    for (int i = 0; i < 20 && !started; i++) {
        usleep(500000);
        started = system(line) == 0;
    }
    if (!started)
        rt_fail("G2N1 did not start again after kill -9");
    witness_reconnect(c, g2n1);
    rt_reset_statements(c);

    /* A keyed write to G2 finds the dead session before sending and goes
     * elsewhere (G1's primary, through postgres_fdw); from then on the
     * driver reconnects G2N1 by itself, with backoff. */
    SQLHSTMT st;
    rt_odbc_check(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st), SQL_HANDLE_DBC, dbc, "alloc");
    rt_odbc_check(SQLPrepare(st, (SQLCHAR *)"UPDATE accounts SET balance = balance WHERE id = ?",
                             SQL_NTS),
                  SQL_HANDLE_STMT, st, "prepare update");
    SQLBIGINT key = rt_random_id_of_group(&rng, c, g2);
    rt_odbc_check(SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0, &key, 0,
                                   NULL),
                  SQL_HANDLE_STMT, st, "bind");
    SQLRETURN rc = SQLExecute(st);
    char member[32];
    st_last_member(dbc, member, sizeof member);
    printf("  keyed UPDATE to G2 after the kill: rc %d on %s\n", (int)rc, member);
    SQLFreeHandle(SQL_HANDLE_STMT, st);

    /* Statements keyed to G1 give the driver its chances to reconnect
     * (between transactions); the witness sees G2N1's new session. */
    long sessions = 0;
    for (int i = 0; i < 100 && sessions == 0; i++) {
        usleep(200000);
        iso_probe_expect(c, dbc, g1, g1n1, &rng);
        /* The driver's sessions, not G1's postgres_fdw ones (the UPDATE). */
        sessions = st_su_long(c, g2n1, "SELECT count(*) FROM pg_stat_activity "
                                       "WHERE usename = 'app' AND backend_type = 'client backend' "
                                       "AND application_name <> 'postgres_fdw'");
    }
    if (sessions == 0)
        rt_fail("the driver did not reconnect G2N1 within 20 s");
    printf("  the driver reconnected G2N1 by itself; probes keyed to G2:\n");
    for (int i = 0; i < 3; i++)
        iso_probe_expect(c, dbc, g2, g2n1, &rng);
    long probes = rt_calls(c, g2n1, ISO_PROBE_LIKE);
    long sets = rt_calls(c, g2n1, "SET TIME ZONE%") + rt_calls(c, g2n1, "SET search_path%");
    if (probes != 3 || sets < 2)
        rt_fail("G2N1 after its restart ran the probe %ld times (expected 3) and the replayed "
                "SET statements %ld times (expected 2 or more)", probes, sets);
    printf("ok: G2N1, killed and restarted while the connection stayed open, was reconnected by "
           "the driver and answers with the replayed search_path, TimeZone and serializable\n");
    rt_odbc_disconnect(env, dbc);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: test_settings_everywhere DIR DSN GCCTL\n");
        return 2;
    }
    alarm(240);
    rt_cluster c;
    rt_cluster_open(&c, argv[1]);
    settings_everywhere(&c, argv[2], 0);
    settings_everywhere(&c, argv[2], 3);
    replay_after_restart(&c, argv[1], argv[2], argv[3]);
    replay_after_kill_with_connection_open(&c, argv[1], argv[2], argv[3]);
    rt_cluster_close(&c);
    printf("PASS\n");
    return 0;
}
