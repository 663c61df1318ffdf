/*
 * With autocommit off, the first statement of a transaction chooses the
 * member and every later statement of that transaction runs there, even the
 * ones keyed to other groups (server-side counts):
 *
 *   test_transaction_pinning DIR DSN [TRANSACTIONS]
 *
 * Each transaction (LocalityMemberPolicy=0) starts with a point statement
 * keyed to one group (G2 first, then the groups in turn; a SELECT or an
 * UPDATE, alternately), then SELECTs and UPDATEs one account of every group,
 * and commits (every fourth one rolls back). Expected: on the first key's
 * group primary, exactly the statements of the transactions that started
 * there; nothing of them anywhere else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_witness.h"

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_transaction_pinning DIR DSN [TRANSACTIONS]\n");
        return 2;
    }
    const char *dir = argv[1], *dsn = argv[2];
    long transactions = argc > 3 ? atol(argv[3]) : 300;
    alarm(300);

    rt_cluster c;
    rt_cluster_open(&c, dir);
    int g2 = rt_group_index(&c, "G2");
    if (g2 < 0 || c.n_groups < 3)
        rt_fail("the cluster needs groups G1, G2, G3");

    rt_reset_statements(&c);
    char connstr[512];
    snprintf(connstr, sizeof connstr, "DSN=%s;LocalityMemberPolicy=0", dsn);
    SQLHENV env;
    SQLHDBC dbc;
    rt_point p;
    rt_odbc_connect(&env, &dbc, connstr);
    rt_odbc_check(SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0), SQL_HANDLE_DBC,
                  dbc, "SQLSetConnectAttr(AUTOCOMMIT OFF)");
    rt_point_prepare(&p, dbc);

    rt_rng rng = {4242};
    long want_select[RT_MAX_GROUPS] = {0}, want_update[RT_MAX_GROUPS] = {0};
    long started[RT_MAX_GROUPS] = {0};
    for (long t = 0; t < transactions; t++) {
        int first = (g2 + (int)t) % c.n_groups;  /* G2, G3, G1, G2, ... */
        int64_t key = rt_random_id_of_group(&rng, &c, first);
        started[first]++;
        if (t % 2 == 0) {
            rt_point_select(&p, key);
            want_select[first]++;
        } else {
            rt_point_update(&p, key);
            want_update[first]++;
        }
        for (int g = 0; g < c.n_groups; g++) {
            rt_point_update(&p, rt_random_id_of_group(&rng, &c, g));
            rt_point_select(&p, rt_random_id_of_group(&rng, &c, g));
            want_update[first]++;
            want_select[first]++;
        }
        SQLSMALLINT end = t % 4 == 3 ? SQL_ROLLBACK : SQL_COMMIT;
        rt_odbc_check(SQLEndTran(SQL_HANDLE_DBC, dbc, end), SQL_HANDLE_DBC, dbc, "SQLEndTran");
    }
    rt_point_free(&p);
    rt_odbc_disconnect(env, dbc);

    printf("%s, autocommit off: %ld transactions of %d statements, first keyed to G2, G3, G1 in turn\n",
           connstr, transactions, 1 + 2 * c.n_groups);
    for (int g = 0; g < c.n_groups; g++)
        printf("  %ld transactions started in %s\n", started[g], c.groups[g]);
    printf("%-6s %-4s %-8s %12s %12s %12s %12s\n", "member", "grp", "role", "SELECT", "expected", "UPDATE",
           "expected");
    int bad = 0;
    for (int m = 0; m < c.n_members; m++) {
        rt_member *mb = &c.members[m];
        long sel = rt_calls(&c, m, RT_SELECT_LIKE), upd = rt_calls(&c, m, RT_UPDATE_LIKE);
        long exp_sel = mb->standby ? 0 : want_select[mb->group];
        long exp_upd = mb->standby ? 0 : want_update[mb->group];
        bool ok = sel == exp_sel && upd == exp_upd;
        printf("%-6s %-4s %-8s %12ld %12ld %12ld %12ld%s\n", mb->name, c.groups[mb->group],
               mb->standby ? "standby" : "primary", sel, exp_sel, upd, exp_upd, ok ? "" : "   <-- wrong");
        bad += !ok;
    }
    rt_cluster_close(&c);
    if (bad)
        rt_fail("%d member(s) ran statements of transactions that did not start in their group", bad);
    printf("PASS\n");
    return 0;
}
