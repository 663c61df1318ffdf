/*
 * Transaction control sent as SQL through SQLExecDirect keeps routing right
 * (server-side counts):
 *
 *   test_sql_transactions DIR DSN [TRANSACTIONS]
 *
 * With autocommit on, each transaction is BEGIN (or START TRANSACTION),
 * then an UPDATE keyed to one group (G2 first, then the groups in turn),
 * a SELECT keyed to the next group, then an UPDATE and a SELECT keyed to
 * every group, then COMMIT (every fourth one ROLLBACK), all as SQL.
 * Expected: the BEGIN ran on the primary of the first key's group, with
 * the statements without a write of their own group (the SELECT of a group
 * not yet written); each UPDATE ran on its key's group's primary, which
 * joined the transaction (one BEGIN there), and so did each later SELECT
 * of that group (docs/global-connection.md, "Transactions across groups");
 * after COMMIT the next keyed statement is routed on its own again. Also: BEGIN + COMMIT with nothing between sends nothing; an error
 * keeps the member until ROLLBACK; with autocommit off a COMMIT sent as SQL
 * ends the pin as SQLEndTran would.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "settings_support.h"

/* BEGIN and START TRANSACTION READ WRITE statements member m ran
 * (application role). postgres_fdw, reaching other groups' shards as the
 * same role, sends START TRANSACTION ISOLATION LEVEL ...: not counted. */
static long begins(rt_cluster *c, int m)
{
    return st_su_long(c, m,
                      "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements "
                      "WHERE userid = 'app'::regrole AND query IN ('BEGIN', "
                      "'START TRANSACTION READ WRITE')");
}

static void expect_member(SQLHDBC dbc, const rt_cluster *c, int want, const char *what)
{
    char got[32];
    st_last_member(dbc, got, sizeof got);
    if (strcmp(got, c->members[want].name) != 0)
        rt_fail("%s ran on %s, expected %s", what, got, c->members[want].name);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_sql_transactions DIR DSN [TRANSACTIONS]\n");
        return 2;
    }
    long transactions = argc > 3 ? atol(argv[3]) : 40;
    alarm(240);
    rt_cluster c;
    rt_cluster_open(&c, argv[1]);
    int g2 = rt_group_index(&c, "G2");
    if (g2 < 0)
        rt_fail("the cluster needs a group G2");
    char connstr[256];
    /* RollbackOnError=0: a failed statement leaves the transaction aborted,
     * which the check of the pin through an error below relies on (the
     * default, 2, undoes the statement alone: statements_rollback_levels). */
    snprintf(connstr, sizeof connstr, "DSN=%s;LocalityMemberPolicy=0;RollbackOnError=0",
             argv[2]);
    SQLHENV env;
    SQLHDBC dbc;
    rt_odbc_connect(&env, &dbc, connstr);
    rt_point p;
    rt_point_prepare(&p, dbc);
    rt_reset_statements(&c);

    rt_rng rng = {2026};
    long want_update[RT_MAX_GROUPS] = {0}, want_select[RT_MAX_GROUPS] = {0};
    long started[RT_MAX_GROUPS] = {0};
    for (long t = 0; t < transactions; t++) {
        int first = (g2 + (int)t) % c.n_groups;
        int primary = rt_primary_of(&c, first);
        started[first]++;
        st_exec_ok(dbc, t % 2 == 0 ? "BEGIN" : "START TRANSACTION READ WRITE");
        rt_point_update(&p, rt_random_id_of_group(&rng, &c, first));
        want_update[first]++;
        expect_member(dbc, &c, primary, "the first statement after BEGIN");
        /* A read of a group the transaction has not written in: the pin. */
        rt_point_select(&p, rt_random_id_of_group(&rng, &c, (first + 1) % c.n_groups));
        want_select[first]++;
        expect_member(dbc, &c, primary, "a read of a group the transaction did not join");
        for (int g = 0; g < c.n_groups; g++) {
            rt_point_update(&p, rt_random_id_of_group(&rng, &c, g));
            expect_member(dbc, &c, rt_primary_of(&c, g), "a write keyed to a group");
            rt_point_select(&p, rt_random_id_of_group(&rng, &c, g));
            expect_member(dbc, &c, rt_primary_of(&c, g), "a read of a group it wrote in");
            want_update[g]++;
            want_select[g]++;
            if (g != first)
                started[g]++;   /* joined: BEGIN there */
        }
        st_exec_ok(dbc, t % 4 == 3 ? "ROLLBACK" : "COMMIT");
        expect_member(dbc, &c, primary, "COMMIT / ROLLBACK");
        /* Released: the next keyed statement goes to its own group. */
        int other = (first + 1) % c.n_groups;
        rt_point_select(&p, rt_random_id_of_group(&rng, &c, other));
        want_select[other]++;
        expect_member(dbc, &c, rt_primary_of(&c, other), "a keyed statement after COMMIT");
    }
    /* A transaction that runs nothing sends nothing. */
    st_exec_ok(dbc, "BEGIN");
    st_exec_ok(dbc, "COMMIT");

    printf("autocommit on, %ld transactions begun in SQL, first keyed to G2, G1, ... in turn\n",
           transactions);
    printf("%-6s %8s %8s %8s %8s %8s %8s\n", "member", "BEGIN", "expected", "UPDATE", "expected",
           "SELECT", "expected");
    for (int m = 0; m < c.n_members; m++) {
        bool primary = !c.members[m].standby;
        int g = c.members[m].group;
        long b = begins(&c, m), u = rt_calls(&c, m, RT_UPDATE_LIKE), s = rt_calls(&c, m, RT_SELECT_LIKE);
        long wb = primary ? started[g] : 0, wu = primary ? want_update[g] : 0,
             ws = primary ? want_select[g] : 0;
        printf("%-6s %8ld %8ld %8ld %8ld %8ld %8ld\n", c.members[m].name, b, wb, u, wu, s, ws);
        if (b != wb || u != wu || s != ws) {
            PGresult *r = PQexec(c.members[m].conn,
                                 "SELECT calls, query FROM pg_stat_statements "
                                 "WHERE userid = 'app'::regrole ORDER BY query");
            for (int i = 0; i < PQntuples(r); i++)
                fprintf(stderr, "  %s: %s calls of %s\n", c.members[m].name,
                        PQgetvalue(r, i, 0), PQgetvalue(r, i, 1));
            PQclear(r);
            rt_fail("%s: the servers' counts differ from the transactions' first members",
                    c.members[m].name);
        }
    }
    printf("ok: every transaction begun in SQL ran on its first key's primary, each write "
           "on its key's primary\n");

    /* An error keeps the member (the server says INERROR) until ROLLBACK. */
    int g1 = (g2 + 1) % c.n_groups;
    st_exec_ok(dbc, "BEGIN");
    rt_point_update(&p, rt_random_id_of_group(&rng, &c, g2));
    char state[6], msg[512];
    if (st_exec(dbc, "SELECT 1/0", state, msg, sizeof msg) != SQL_ERROR)
        rt_fail("SELECT 1/0 did not fail");
    expect_member(dbc, &c, rt_primary_of(&c, g2), "the failing statement");
    if (st_exec(dbc, "SELECT 1", state, msg, sizeof msg) != SQL_ERROR || strcmp(state, "25P02") != 0)
        rt_fail("a statement after the error gave [%s] %s, expected 25P02", state, msg);
    expect_member(dbc, &c, rt_primary_of(&c, g2), "a statement in the aborted transaction");
    st_exec_ok(dbc, "ROLLBACK");
    rt_point_select(&p, rt_random_id_of_group(&rng, &c, g1));
    expect_member(dbc, &c, rt_primary_of(&c, g1), "a keyed statement after ROLLBACK");
    printf("ok: an aborted transaction keeps its member until ROLLBACK\n");

    /* In a transaction: SET LOCAL (held back with its BEGIN) runs on the
     * transaction's member only; a session-level SET runs there in the
     * transaction, and on every member session once it committed (the
     * transaction's member then runs it a second time, harmlessly). */
    st_exec_ok(dbc, "BEGIN");
    st_exec_ok(dbc, "SET LOCAL statement_timeout = '7s'");
    rt_point_update(&p, rt_random_id_of_group(&rng, &c, g2));
    expect_member(dbc, &c, rt_primary_of(&c, g2), "the first statement after BEGIN; SET LOCAL");
    st_exec_ok(dbc, "SET TIME ZONE 'UTC'");
    for (int m = 0; m < c.n_members; m++) {
        long want = m == rt_primary_of(&c, g2) ? 1 : 0;
        if (rt_calls(&c, m, "SET TIME ZONE%") != want)
            rt_fail("%s ran the SET of the open transaction %ld times, expected %ld",
                    c.members[m].name, rt_calls(&c, m, "SET TIME ZONE%"), want);
    }
    st_exec_ok(dbc, "COMMIT");
    for (int m = 0; m < c.n_members; m++) {
        long n = rt_calls(&c, m, "SET LOCAL statement_timeout%");
        long want = m == rt_primary_of(&c, g2) ? 1 : 0;
        if (n != want)
            rt_fail("%s ran SET LOCAL %ld times, expected %ld", c.members[m].name, n, want);
        want = m == rt_primary_of(&c, g2) ? 2 : 1;
        if (rt_calls(&c, m, "SET TIME ZONE%") != want)
            rt_fail("%s ran the committed SET %ld times, expected %ld", c.members[m].name,
                    rt_calls(&c, m, "SET TIME ZONE%"), want);
    }
    printf("ok: SET LOCAL runs on the transaction's member only; a SET inside it reaches "
           "every member once it committed\n");

    /* Autocommit off: COMMIT sent as SQL ends the pin, from the server's status. */
    rt_odbc_check(SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0),
                  SQL_HANDLE_DBC, dbc, "autocommit off");
    rt_point_update(&p, rt_random_id_of_group(&rng, &c, g2));
    expect_member(dbc, &c, rt_primary_of(&c, g2), "the first statement (autocommit off)");
    st_exec_ok(dbc, "COMMIT");
    rt_point_update(&p, rt_random_id_of_group(&rng, &c, g1));
    expect_member(dbc, &c, rt_primary_of(&c, g1), "the first statement after SQL COMMIT");
    rt_odbc_check(SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_COMMIT), SQL_HANDLE_DBC, dbc, "SQLEndTran");
    printf("ok: with autocommit off, COMMIT in SQL releases the member\n");

    rt_point_free(&p);
    rt_odbc_disconnect(env, dbc);
    rt_cluster_close(&c);
    printf("PASS\n");
    return 0;
}
