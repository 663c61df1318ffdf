/*
 * Prepared autocommit point statements through a global connection run on
 * the member that owns their key, as the servers count them:
 *
 *   test_keyed_routing DIR DSN POLICY [COUNT]
 *
 * sends COUNT (10,000) SELECTs and COUNT UPDATEs of random accounts (fixed
 * seed), interleaved, through one connection "DSN=<DSN>;LocalityMemberPolicy=
 * <POLICY>", then reads pg_stat_statements on every member. Expected calls:
 *   policy 0: SELECT and UPDATE on the owner group's primary, exactly as many
 *             as the keys that group owns among those sent; none on standbys;
 *   policy 3: SELECT on the owner group's standbys (summed over them), UPDATE
 *             on its primary; no SELECT on primaries, no UPDATE on standbys;
 *   POLICY "3s": policy 3 with SQL_ATTR_TXN_ISOLATION serializable, which a
 *             hot standby refuses: everything as policy 0, on primaries.
 * Owners come from the servers (the partition holding each row), not from
 * the driver. Routing costs no round trip: whatever else the driver sends
 * (connection set-up) stays under OTHER_LIMIT per member, however many
 * statements ran.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_witness.h"

#define OTHER_LIMIT 50

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: test_keyed_routing DIR DSN POLICY [COUNT]\n");
        return 2;
    }
    const char *dir = argv[1], *dsn = argv[2];
    int policy = atoi(argv[3]);
    bool serializable = strcmp(argv[3], "3s") == 0;
    long count = argc > 4 ? atol(argv[4]) : 10000;
    if (policy != 0 && policy != 3)
        rt_fail("only policies 0, 3 and 3s are checked here");
    /* Where SELECTs must run: standbys only under policy 3 without serializable. */
    bool selects_on_standbys = policy == 3 && !serializable;
    alarm(300);  /* bounded: a hang fails the test */

    rt_cluster c;
    rt_cluster_open(&c, dir);

    /* The keys, and how many of each kind every group owns. */
    rt_rng rng = {20261129};
    int64_t *select_keys = calloc((size_t)count, sizeof *select_keys);
    int64_t *update_keys = calloc((size_t)count, sizeof *update_keys);
    long want_select[RT_MAX_GROUPS] = {0}, want_update[RT_MAX_GROUPS] = {0};
    if (!select_keys || !update_keys)
        rt_fail("out of memory");
    for (long i = 0; i < count; i++) {
        select_keys[i] = rt_random_id(&rng, &c);
        update_keys[i] = rt_random_id(&rng, &c);
        want_select[c.owner_of[select_keys[i]]]++;
        want_update[c.owner_of[update_keys[i]]]++;
    }

    rt_reset_statements(&c);
    char connstr[512];
    snprintf(connstr, sizeof connstr, "DSN=%s;LocalityMemberPolicy=%d", dsn, policy);
    SQLHENV env;
    SQLHDBC dbc;
    rt_point p;
    rt_odbc_connect(&env, &dbc, connstr);
    if (serializable)
        rt_odbc_check(SQLSetConnectAttr(dbc, SQL_ATTR_TXN_ISOLATION,
                                        (SQLPOINTER)(uintptr_t)SQL_TXN_SERIALIZABLE, 0),
                      SQL_HANDLE_DBC, dbc, "SQL_ATTR_TXN_ISOLATION serializable");
    rt_point_prepare(&p, dbc);
    for (long i = 0; i < count; i++) {
        rt_point_select(&p, select_keys[i]);
        rt_point_update(&p, update_keys[i]);
    }
    rt_point_free(&p);
    rt_odbc_disconnect(env, dbc);

    printf("%s: %ld SELECTs and %ld UPDATEs, LocalityMemberPolicy=%d%s, seed 20261129\n", connstr, count,
           count, policy, serializable ? ", serializable" : "");
    printf("%-6s %-4s %-8s %12s %12s %12s %12s %8s\n", "member", "grp", "role", "SELECT", "expected", "UPDATE",
           "expected", "other");
    int bad = 0;
    long total_select = 0, total_update = 0;
    for (int m = 0; m < c.n_members; m++) {
        rt_member *mb = &c.members[m];
        long sel = rt_calls(&c, m, RT_SELECT_LIKE), upd = rt_calls(&c, m, RT_UPDATE_LIKE);
        long other = rt_other_calls(&c, m);
        long exp_sel, exp_upd = mb->standby ? 0 : want_update[mb->group];
        if (!selects_on_standbys) {
            exp_sel = mb->standby ? 0 : want_select[mb->group];
        } else {
            /* Policy 3 spreads a group's SELECTs over its standbys: check their sum below. */
            exp_sel = mb->standby ? -1 : 0;
        }
        total_select += sel;
        total_update += upd;
        bool ok = (exp_sel < 0 || sel == exp_sel) && upd == exp_upd && other <= OTHER_LIMIT;
        char exp_sel_text[24] = "(group)";
        if (exp_sel >= 0)
            snprintf(exp_sel_text, sizeof exp_sel_text, "%ld", exp_sel);
        printf("%-6s %-4s %-8s %12ld %12s %12ld %12ld %8ld%s\n", mb->name, c.groups[mb->group],
               mb->standby ? "standby" : "primary", sel, exp_sel_text, upd, exp_upd, other,
               ok ? "" : "   <-- wrong");
        bad += !ok;
    }
    if (selects_on_standbys) {
        for (int g = 0; g < c.n_groups; g++) {
            long sum = 0;
            for (int m = 0; m < c.n_members; m++)
                if (c.members[m].group == g && c.members[m].standby)
                    sum += rt_calls(&c, m, RT_SELECT_LIKE);
            printf("group %s: SELECTs on its standbys %ld, keys it owns %ld%s\n", c.groups[g], sum,
                   want_select[g], sum == want_select[g] ? "" : "   <-- wrong");
            bad += sum != want_select[g];
        }
    }
    printf("total: SELECT %ld of %ld, UPDATE %ld of %ld\n", total_select, count, total_update, count);
    rt_cluster_close(&c);
    free(select_keys);
    free(update_keys);
    if (bad)
        rt_fail("%d member(s) or group(s) ran other statements than the keys they own "
                "(or more than %d others)", bad, OTHER_LIMIT);
    printf("PASS\n");
    return 0;
}
