/*
 * A text that mixes a session-level SET with other statements is refused on
 * a global connection (0A000, saying to send the SET alone), so nothing of
 * it runs, is logged or is replayed; the servers count the rows:
 *
 *   test_mixed_set_text DIR DSN
 *
 * For LocalityOnDemand=No and =Yes, with a table `mixed_set_rows` made on
 * each group's primary beside the driver (unknown to the shard map, so an
 * INSERT goes by policy to one group):
 * 1. `SET application_name = ...; INSERT ...` and the INSERT-first order
 *    are refused with 0A000; no row anywhere, and no member session took
 *    the application_name.
 * 2. The SET alone, then the INSERT alone: exactly one row.
 * 3. Statements keyed to every group (opening members on demand), then
 *    ALTER SYSTEM RECONNECT GLOBAL CONNECTION and keyed statements again:
 *    still exactly one row, and the replayed SET did reach the primaries'
 *    new sessions (the SET was kept, the INSERT was not).
 * 4. Near misses run once: several SETs in one text, and SET LOCAL with an
 *    INSERT in one text (a transaction-level setting, not replayed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "settings_support.h"

#define APP_NAME "mixed_set_probe"

/* Rows of mixed_set_rows on every group's primary, summed. */
static long rows_everywhere(rt_cluster *c)
{
    long n = 0;
    for (int g = 0; g < c->n_groups; g++)
        n += st_su_long(c, rt_primary_of(c, g), "SELECT count(*) FROM mixed_set_rows");
    return n;
}

static void expect_rows(rt_cluster *c, long want, const char *when)
{
    long n = rows_everywhere(c);
    printf("    %s: %ld row(s)\n", when, n);
    if (n != want)
        rt_fail("%s: %ld rows in mixed_set_rows on the primaries, expected %ld", when, n, want);
}

/* Driver sessions on primary of group g whose application_name is APP_NAME. */
static long sessions_named(rt_cluster *c, int g)
{
    return st_su_long(c, rt_primary_of(c, g),
                      "SELECT count(*) FROM pg_stat_activity WHERE usename = 'app' "
                      "AND application_name = '" APP_NAME "'");
}

static void expect_refused(SQLHDBC dbc, const char *sql)
{
    char state[6], msg[1024];
    SQLRETURN rc = st_exec(dbc, sql, state, msg, sizeof msg);
    printf("    %s\n      -> rc %d [%s] %s\n", sql, (int)rc, state, msg);
    if (rc != SQL_ERROR || strcmp(state, "0A000") != 0 || strstr(msg, "send the SET alone") == NULL)
        rt_fail("%s: expected 0A000 saying to send the SET alone", sql);
}

/* One keyed SELECT per group: opens each group's primary (policy 0). */
static void touch_every_group(rt_cluster *c, SQLHDBC dbc, rt_rng *rng)
{
    rt_point p;
    rt_point_prepare(&p, dbc);
    for (int g = 0; g < c->n_groups; g++)
        rt_point_select(&p, rt_random_id_of_group(rng, c, g));
    rt_point_free(&p);
}

static void mixed_text(rt_cluster *c, const char *dsn, const char *on_demand)
{
    for (int g = 0; g < c->n_groups; g++)
        st_su_long(c, rt_primary_of(c, g), "TRUNCATE mixed_set_rows; SELECT 1");
    char connstr[256];
    snprintf(connstr, sizeof connstr, "DSN=%s;LocalityMemberPolicy=0;LocalityOnDemand=%s", dsn,
             on_demand);
    printf("  LocalityOnDemand=%s\n", on_demand);
    SQLHENV env;
    SQLHDBC dbc;
    rt_odbc_connect(&env, &dbc, connstr);
    rt_rng rng = {2024};

    expect_refused(dbc, "SET application_name = '" APP_NAME "'; "
                        "INSERT INTO mixed_set_rows (n) VALUES (1)");
    expect_refused(dbc, "INSERT INTO mixed_set_rows (n) VALUES (1); "
                        "set application_name = '" APP_NAME "'");
    expect_rows(c, 0, "after the refused texts");
    touch_every_group(c, dbc, &rng);
    expect_rows(c, 0, "after statements keyed to every group");
    for (int g = 0; g < c->n_groups; g++)
        if (sessions_named(c, g) != 0)
            rt_fail("a session on %s's primary took the application_name of a refused text",
                    c->groups[g]);
    printf("ok: LocalityOnDemand=%s: the mixed texts are refused, nothing of them ran\n",
           on_demand);

    st_exec_ok(dbc, "SET application_name = '" APP_NAME "'");
    st_exec_ok(dbc, "INSERT INTO mixed_set_rows (n) VALUES (1)");
    expect_rows(c, 1, "after the SET alone, then the INSERT alone");
    touch_every_group(c, dbc, &rng);
    expect_rows(c, 1, "after statements keyed to every group");
    st_exec_ok(dbc, "ALTER SYSTEM RECONNECT GLOBAL CONNECTION");
    touch_every_group(c, dbc, &rng);
    expect_rows(c, 1, "after ALTER SYSTEM RECONNECT GLOBAL CONNECTION");
    for (int g = 0; g < c->n_groups; g++)
        if (sessions_named(c, g) < 1)
            rt_fail("no session on %s's primary carries the replayed application_name",
                    c->groups[g]);
    printf("ok: LocalityOnDemand=%s: the SET alone is replayed on the reopened sessions, the "
           "INSERT ran once\n", on_demand);

    st_exec_ok(dbc, "SET application_name = '" APP_NAME "'; SET TIME ZONE 'Asia/Seoul'");
    st_exec_ok(dbc, "SET LOCAL statement_timeout = '5s'; "
                    "INSERT INTO mixed_set_rows (n) VALUES (2)");
    expect_rows(c, 2, "after SET LOCAL with an INSERT in one text");
    st_exec_ok(dbc, "ALTER SYSTEM RECONNECT GLOBAL CONNECTION");
    touch_every_group(c, dbc, &rng);
    expect_rows(c, 2, "after RECONNECT again");
    printf("ok: LocalityOnDemand=%s: several SETs in one text, and SET LOCAL with an INSERT, "
           "run once\n", on_demand);
    rt_odbc_disconnect(env, dbc);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_mixed_set_text DIR DSN\n");
        return 2;
    }
    alarm(240);
    rt_cluster c;
    rt_cluster_open(&c, argv[1]);
    for (int g = 0; g < c.n_groups; g++)
        st_su_long(&c, rt_primary_of(&c, g),
                   "CREATE TABLE IF NOT EXISTS mixed_set_rows (n int); "
                   "GRANT ALL ON mixed_set_rows TO app; SELECT 1");
    mixed_text(&c, argv[2], "No");
    mixed_text(&c, argv[2], "Yes");
    for (int g = 0; g < c.n_groups; g++)
        st_su_long(&c, rt_primary_of(&c, g), "DROP TABLE mixed_set_rows; SELECT 1");
    rt_cluster_close(&c);
    printf("PASS\n");
    return 0;
}
