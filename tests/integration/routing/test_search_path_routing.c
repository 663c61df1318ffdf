/*
 * A prepared statement follows the search_path it runs under: routing
 * remembers the shard-map table it found for a statement, and forgets it
 * when the search_path (or the map) changes.
 *
 *   test_search_path_routing DIR DSN
 *
 * Every primary gets a plain table memo_s.accounts (the member's own, no
 * cluster table) holding the ids used here. One connection, with
 * LocalityGroupPolicy=1 and LocalityGroupPath=G1 (what no key places runs
 * on G1), prepares the routing tests' point SELECT once, then executes it:
 *  1. under search_path memo_s: `accounts` is memo_s.accounts, no
 *     key routes it: it runs on G1, whatever group owns the key (a G2 key);
 *  2. after SET search_path TO public: the cluster table; a G2 key runs on
 *     G2's primary;
 *  3. after SET search_path TO memo_s again: a G3 key runs on G1.
 * The servers' pg_stat_statements say where each ran.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_witness.h"

/* Runs sql on every primary as the superuser; fails the test on error. */
static void on_primaries(rt_cluster *c, const char *sql)
{
    for (int g = 0; g < c->n_groups; g++) {
        PGresult *r = PQexec(c->members[rt_primary_of(c, g)].conn, sql);
        if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK)
            rt_fail("%s on %s: %s", sql, c->members[rt_primary_of(c, g)].name,
                    PQerrorMessage(c->members[rt_primary_of(c, g)].conn));
        PQclear(r);
    }
}

/* Waits until every standby has replayed memo_s.accounts with its rows. */
static void standbys_replayed(rt_cluster *c, int rows)
{
    for (int m = 0; m < c->n_members; m++) {
        for (int tries = 0;; tries++) {
            PGresult *r = PQexec(c->members[m].conn,
                                 "SELECT count(*) FROM pg_tables WHERE schemaname = 'memo_s'");
            bool there = PQresultStatus(r) == PGRES_TUPLES_OK && atoi(PQgetvalue(r, 0, 0)) == 1;
            PQclear(r);
            if (there) {
                r = PQexec(c->members[m].conn, "SELECT count(*) FROM memo_s.accounts");
                there = PQresultStatus(r) == PGRES_TUPLES_OK && atoi(PQgetvalue(r, 0, 0)) == rows;
                PQclear(r);
            }
            if (there)
                break;
            if (tries > 500)
                rt_fail("%s did not replay memo_s.accounts", c->members[m].name);
            usleep(10000);
        }
    }
}

static void exec_direct(SQLHDBC dbc, const char *sql)
{
    SQLHSTMT st;
    rt_odbc_check(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st), SQL_HANDLE_DBC, dbc, "SQLAllocHandle");
    rt_odbc_check(SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS), SQL_HANDLE_STMT, st, sql);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* Runs the prepared SELECT for id and checks that exactly member `want`
 * ran it (pg_stat_statements, reset before). */
static void select_runs_on(rt_cluster *c, rt_point *p, int64_t id, int want, const char *step)
{
    rt_reset_statements(c);
    rt_point_select(p, id);
    long calls[RT_MAX_MEMBERS];
    bool as_expected = true;
    for (int m = 0; m < c->n_members; m++) {
        calls[m] = rt_calls(c, m, RT_SELECT_LIKE);
        as_expected = as_expected && calls[m] == (m == want ? 1 : 0);
    }
    if (!as_expected) {
        for (int m = 0; m < c->n_members; m++)
            fprintf(stderr, "  %s ran it %ld time(s)\n", c->members[m].name, calls[m]);
        rt_fail("%s: account %lld: expected it on %s only", step, (long long)id,
                c->members[want].name);
    }
    printf("  %s: account %lld ran on %s\n", step, (long long)id, c->members[want].name);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_search_path_routing DIR DSN\n");
        return 2;
    }
    const char *dir = argv[1], *dsn = argv[2];
    alarm(120);    /* bounded: a hang fails the test */

    rt_cluster c;
    rt_cluster_open(&c, dir);
    int g1 = rt_group_index(&c, "G1"), g2 = rt_group_index(&c, "G2"),
        g3 = rt_group_index(&c, "G3");
    if (g1 < 0 || g2 < 0 || g3 < 0)
        rt_fail("the routing cluster has no groups G1, G2, G3");
    rt_rng rng = {20261202};
    int64_t g2_key = rt_random_id_of_group(&rng, &c, g2);
    int64_t g3_key = rt_random_id_of_group(&rng, &c, g3);

    char sql[256];
    on_primaries(&c, "DROP SCHEMA IF EXISTS memo_s CASCADE");
    on_primaries(&c, "CREATE SCHEMA memo_s");
    on_primaries(&c, "CREATE TABLE memo_s.accounts (id bigint, balance numeric)");
    on_primaries(&c, "GRANT USAGE ON SCHEMA memo_s TO PUBLIC");
    on_primaries(&c, "GRANT SELECT ON memo_s.accounts TO PUBLIC");
    snprintf(sql, sizeof sql, "INSERT INTO memo_s.accounts VALUES (%lld, 0), (%lld, 0)",
             (long long)g2_key, (long long)g3_key);
    on_primaries(&c, sql);
    standbys_replayed(&c, 2);

    SQLHENV env;
    SQLHDBC dbc;
    char connstr[256];
    snprintf(connstr, sizeof connstr,
             "DSN=%s;LocalityMemberPolicy=0;LocalityGroupPolicy=1;LocalityGroupPath=G1", dsn);
    rt_odbc_connect(&env, &dbc, connstr);
    exec_direct(dbc, "SET search_path TO memo_s");
    rt_point p;
    rt_point_prepare(&p, dbc);

    printf("one prepared SELECT on `accounts`, three search_paths:\n");
    select_runs_on(&c, &p, g2_key, rt_primary_of(&c, g1),
                   "memo_s (the member's own table, by policy)");
    exec_direct(dbc, "SET search_path TO public");
    select_runs_on(&c, &p, g2_key, rt_primary_of(&c, g2),
                   "public (the cluster table, by key)");
    exec_direct(dbc, "SET search_path TO memo_s");
    select_runs_on(&c, &p, g3_key, rt_primary_of(&c, g1),
                   "memo_s again (by policy, not by the key's G3)");

    rt_point_free(&p);
    rt_odbc_disconnect(env, dbc);
    on_primaries(&c, "DROP SCHEMA memo_s CASCADE");
    rt_cluster_close(&c);
    printf("PASS\n");
    return 0;
}
