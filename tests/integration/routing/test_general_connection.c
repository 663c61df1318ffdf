/*
 * GlobalConnection=No through the routing cluster's DSN is a general
 * connection: every statement runs on the one server it connected to, whose
 * postgres_fdw reaches the other groups' rows (server-side counts):
 *
 *   test_general_connection DIR DSN [COUNT]
 *
 * COUNT (2,000) SELECTs and UPDATEs of random accounts through
 * "DSN=<DSN>;GlobalConnection=No"; expected: one member (a primary) ran all
 * of them, every other member none.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_witness.h"

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_general_connection DIR DSN [COUNT]\n");
        return 2;
    }
    const char *dir = argv[1], *dsn = argv[2];
    long count = argc > 3 ? atol(argv[3]) : 2000;
    alarm(300);

    rt_cluster c;
    rt_cluster_open(&c, dir);
    rt_reset_statements(&c);
    char connstr[512];
    snprintf(connstr, sizeof connstr, "DSN=%s;GlobalConnection=No", dsn);
    SQLHENV env;
    SQLHDBC dbc;
    rt_point p;
    rt_odbc_connect(&env, &dbc, connstr);
    rt_point_prepare(&p, dbc);
    rt_rng rng = {777};
    for (long i = 0; i < count; i++) {
        rt_point_select(&p, rt_random_id(&rng, &c));
        rt_point_update(&p, rt_random_id(&rng, &c));
    }
    rt_point_free(&p);
    rt_odbc_disconnect(env, dbc);

    printf("%s: %ld SELECTs and %ld UPDATEs\n", connstr, count, count);
    printf("%-6s %-4s %-8s %12s %12s\n", "member", "grp", "role", "SELECT", "UPDATE");
    int ran_all = -1, ran_some = 0;
    for (int m = 0; m < c.n_members; m++) {
        rt_member *mb = &c.members[m];
        long sel = rt_calls(&c, m, RT_SELECT_LIKE), upd = rt_calls(&c, m, RT_UPDATE_LIKE);
        printf("%-6s %-4s %-8s %12ld %12ld\n", mb->name, c.groups[mb->group], mb->standby ? "standby" : "primary",
               sel, upd);
        if (sel || upd)
            ran_some++;
        if (sel == count && upd == count)
            ran_all = m;
    }
    if (ran_some != 1 || ran_all < 0)
        rt_fail("the statements did not all run on one server (%d members ran some)", ran_some);
    if (c.members[ran_all].standby)
        rt_fail("the one server is a standby, yet the UPDATEs succeeded");
    printf("all on %s\n", c.members[ran_all].name);
    rt_cluster_close(&c);
    printf("PASS\n");
    return 0;
}
