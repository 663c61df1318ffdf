/*
 * The routing policies of the global connection: every member and group
 * policy against the member states that matter (primary down, no standby,
 * standby only, paths naming unknown and down members), the spread of the
 * random choices, determinism under a fixed seed, and key-vote ties.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "global/gc_router.h"

#define DRAWS 10000

/* A cluster of 3 groups: G1 = G1N1 (primary) + G1N2 (standby),
 * G2 = G2N1 + G2N2, G3 = G3N1 + G3N2 + G3N3 (two standbys). */
static char *group_names[] = {"G1", "G2", "G3"};
static char *member_names[] = {"G1N1", "G1N2", "G2N1", "G2N2", "G3N1", "G3N2", "G3N3"};
static const int member_groups[] = {0, 0, 1, 1, 2, 2, 2};
enum { G1, G2, G3 };
enum { G1N1, G1N2, G2N1, G2N2, G3N1, G3N2, G3N3, N_MEMBERS };

static gc_topo_group topo_groups[3];
static gc_topo_member topo_members[N_MEMBERS];
static gc_topology topo;

static void build_topology(void)
{
    memset(&topo, 0, sizeof topo);
    for (int g = 0; g < 3; g++) {
        topo_groups[g].name = group_names[g];
        topo_groups[g].fdw_server = NULL;
    }
    for (int i = 0; i < N_MEMBERS; i++) {
        topo_members[i].name = member_names[i];
        topo_members[i].group = member_groups[i];
        topo_members[i].host = NULL;
        topo_members[i].port = NULL;
        /* The catalog says the first member of each group is primary. */
        topo_members[i].catalog_primary = (i == G1N1 || i == G2N1 || i == G3N1);
    }
    topo.cluster = NULL;
    topo.version = 1;
    topo.n_groups = 3;
    topo.groups = topo_groups;
    topo.n_members = N_MEMBERS;
    topo.members = topo_members;
}

/* A router over the test cluster with every member up in its catalog role,
 * connected in index order. */
static gc_router *make_router(int member_policy, const char *member_path,
                              int group_policy, const char *group_path,
                              unsigned seed, gc_error *warning)
{
    build_topology();
    gc_router_config cfg = {
        .member_policy = member_policy,
        .member_path = member_path,
        .group_policy = group_policy,
        .group_path = group_path,
        .random_seed = seed,
    };
    gc_error local;
    gc_router *r = gc_router_create(&cfg, &topo, warning != NULL ? warning : &local);
    assert_non_null(r);
    for (int i = 0; i < N_MEMBERS; i++)
        gc_router_set_member(r, i, true,
                             topo_members[i].catalog_primary ? GC_ROLE_PRIMARY
                                                             : GC_ROLE_STANDBY,
                             i);
    return r;
}

static void set_down(gc_router *r, int member)
{
    gc_router_set_member(r, member, false, GC_ROLE_UNKNOWN, -1);
}

static int member_in(gc_router *r, int group, gc_route_access access)
{
    const char *reason = NULL;
    int m = gc_router_member_in_group(r, group, access, &reason);
    assert_non_null(reason);
    assert_true(reason[0] != '\0');
    return m;
}

static int group_by_policy(gc_router *r, gc_route_access access)
{
    const char *reason = NULL;
    int g = gc_router_group_by_policy(r, access, &reason);
    assert_non_null(reason);
    assert_true(reason[0] != '\0');
    return g;
}

/* Counts DRAWS member choices in `group`; asserts every choice is one of
 * `allowed` and each allowed member gets its fair share within +-10 points. */
static void assert_member_spread(gc_router *r, int group, gc_route_access access,
                                 const int *allowed, int n_allowed)
{
    int counts[N_MEMBERS] = {0};
    for (int k = 0; k < DRAWS; k++) {
        int m = member_in(r, group, access);
        assert_in_range(m, 0, N_MEMBERS - 1);
        counts[m]++;
    }
    int total = 0;
    for (int j = 0; j < n_allowed; j++) {
        double share = (double)counts[allowed[j]] / DRAWS;
        double fair = 1.0 / n_allowed;
        assert_true(share > fair - 0.10 && share < fair + 0.10);
        total += counts[allowed[j]];
    }
    assert_int_equal(total, DRAWS);
}

/* ------------------------------------------------------------ policy 0 */

static void policy0_sends_reads_and_writes_to_the_primary(void **state)
{
    gc_router *r = make_router(0, NULL, 0, NULL, 42, NULL);
    for (int k = 0; k < 100; k++) {
        assert_int_equal(member_in(r, G1, GC_ACCESS_READ), G1N1);
        assert_int_equal(member_in(r, G1, GC_ACCESS_WRITE), G1N1);
        assert_int_equal(member_in(r, G3, GC_ACCESS_READ), G3N1);
    }
    gc_router_destroy(r);
}

static void policy0_primary_down_has_no_member_even_with_a_standby_up(void **state)
{
    gc_router *r = make_router(0, NULL, 0, NULL, 42, NULL);
    set_down(r, G1N1);
    const char *reason = NULL;
    assert_int_equal(gc_router_member_in_group(r, G1, GC_ACCESS_READ, &reason), -1);
    assert_non_null(strstr(reason, "primary"));
    assert_int_equal(gc_router_member_in_group(r, G1, GC_ACCESS_WRITE, &reason), -1);
    assert_non_null(strstr(reason, "primary"));
    assert_false(gc_router_group_can_serve(r, G1, GC_ACCESS_READ));
    assert_true(gc_router_group_can_serve(r, G2, GC_ACCESS_READ));
    gc_router_destroy(r);
}

static void primary_is_the_role_the_caller_reports_not_the_catalogs(void **state)
{
    gc_router *r = make_router(0, NULL, 0, NULL, 42, NULL);
    /* After a failover: the catalog still says G1N1, the servers say G1N2. */
    gc_router_set_member(r, G1N1, true, GC_ROLE_STANDBY, 0);
    gc_router_set_member(r, G1N2, true, GC_ROLE_PRIMARY, 1);
    assert_int_equal(member_in(r, G1, GC_ACCESS_WRITE), G1N2);
    assert_int_equal(member_in(r, G1, GC_ACCESS_READ), G1N2);
    /* A usable member of unknown role is never taken for the primary. */
    gc_router_set_member(r, G1N2, true, GC_ROLE_UNKNOWN, 1);
    assert_int_equal(member_in(r, G1, GC_ACCESS_WRITE), -1);
    gc_router_destroy(r);
}

static void members_start_unusable_until_the_caller_says_otherwise(void **state)
{
    build_topology();
    gc_router_config cfg = {.member_policy = 2, .random_seed = 3};
    gc_router *r = gc_router_create(&cfg, &topo, NULL);
    assert_non_null(r);
    assert_int_equal(member_in(r, G1, GC_ACCESS_READ), -1);
    assert_int_equal(group_by_policy(r, GC_ACCESS_READ), -1);
    gc_router_set_member(r, G2N2, true, GC_ROLE_STANDBY, 0);
    assert_int_equal(member_in(r, G2, GC_ACCESS_READ), G2N2);
    assert_int_equal(group_by_policy(r, GC_ACCESS_READ), G2);
    assert_int_equal(group_by_policy(r, GC_ACCESS_WRITE), -1);
    gc_router_destroy(r);
}

/* ------------------------------------------------------------ policies 1 and 2 */

static void policies_1_and_2_write_only_on_the_primary(void **state)
{
    for (int policy = 1; policy <= 2; policy++) {
        gc_router *r = make_router(policy, NULL, 0, NULL, 7, NULL);
        for (int k = 0; k < 1000; k++)
            assert_int_equal(member_in(r, G3, GC_ACCESS_WRITE), G3N1);
        set_down(r, G3N1);
        const char *reason = NULL;
        assert_int_equal(gc_router_member_in_group(r, G3, GC_ACCESS_WRITE, &reason), -1);
        assert_non_null(strstr(reason, "primary"));
        gc_router_destroy(r);
    }
}

static void policies_1_and_2_spread_reads_over_every_usable_member(void **state)
{
    for (int policy = 1; policy <= 2; policy++) {
        gc_router *r = make_router(policy, NULL, 0, NULL, 11, NULL);
        const int g1[] = {G1N1, G1N2};
        assert_member_spread(r, G1, GC_ACCESS_READ, g1, 2);
        const int g3[] = {G3N1, G3N2, G3N3};
        assert_member_spread(r, G3, GC_ACCESS_READ, g3, 3);
        /* A usable member of unknown role can still read. */
        gc_router_set_member(r, G3N2, true, GC_ROLE_UNKNOWN, 5);
        assert_member_spread(r, G3, GC_ACCESS_READ, g3, 3);
        gc_router_destroy(r);
    }
}

static void policies_1_and_2_read_on_the_survivor_when_one_is_down(void **state)
{
    for (int policy = 1; policy <= 2; policy++) {
        gc_router *r = make_router(policy, NULL, 0, NULL, 5, NULL);
        set_down(r, G1N1);
        for (int k = 0; k < 200; k++)
            assert_int_equal(member_in(r, G1, GC_ACCESS_READ), G1N2);
        gc_router_set_member(r, G1N1, true, GC_ROLE_PRIMARY, 0);
        set_down(r, G1N2);
        for (int k = 0; k < 200; k++)
            assert_int_equal(member_in(r, G1, GC_ACCESS_READ), G1N1);
        set_down(r, G1N1);
        const char *reason = NULL;
        assert_int_equal(gc_router_member_in_group(r, G1, GC_ACCESS_READ, &reason), -1);
        assert_non_null(strstr(reason, "no usable member"));
        gc_router_destroy(r);
    }
}

static void policies_1_and_2_make_the_same_choices(void **state)
{
    gc_router *p1 = make_router(1, NULL, 0, NULL, 99, NULL);
    gc_router *p2 = make_router(2, NULL, 0, NULL, 99, NULL);
    for (int k = 0; k < 1000; k++) {
        int group = k % 3;
        gc_route_access access = (k % 4 == 0) ? GC_ACCESS_WRITE : GC_ACCESS_READ;
        assert_int_equal(member_in(p1, group, access), member_in(p2, group, access));
    }
    gc_router_destroy(p1);
    gc_router_destroy(p2);
}

/* ------------------------------------------------------------ policy 3 */

static void policy3_reads_on_standbys_writes_on_the_primary(void **state)
{
    gc_router *r = make_router(3, NULL, 0, NULL, 13, NULL);
    for (int k = 0; k < 1000; k++) {
        assert_int_equal(member_in(r, G1, GC_ACCESS_READ), G1N2);
        assert_int_equal(member_in(r, G1, GC_ACCESS_WRITE), G1N1);
    }
    const int g3[] = {G3N2, G3N3};
    assert_member_spread(r, G3, GC_ACCESS_READ, g3, 2);
    /* One standby down: the other takes every read. */
    set_down(r, G3N3);
    for (int k = 0; k < 200; k++)
        assert_int_equal(member_in(r, G3, GC_ACCESS_READ), G3N2);
    gc_router_destroy(r);
}

static void policy3_reads_on_the_primary_when_no_standby_is_usable(void **state)
{
    gc_router *r = make_router(3, NULL, 0, NULL, 13, NULL);
    set_down(r, G1N2);
    const char *reason = NULL;
    assert_int_equal(gc_router_member_in_group(r, G1, GC_ACCESS_READ, &reason), G1N1);
    assert_non_null(strstr(reason, "no usable standby"));
    /* A group with no standby at all: the primary too. */
    gc_router_set_member(r, G2N2, true, GC_ROLE_PRIMARY, 3);
    set_down(r, G2N1);
    assert_int_equal(member_in(r, G2, GC_ACCESS_READ), G2N2);
    /* Nothing usable: no member. */
    set_down(r, G1N1);
    assert_int_equal(gc_router_member_in_group(r, G1, GC_ACCESS_READ, &reason), -1);
    assert_non_null(strstr(reason, "no usable"));
    gc_router_destroy(r);
}

static void policy3_standby_only_group_reads_but_cannot_write(void **state)
{
    gc_router *r = make_router(3, NULL, 0, NULL, 13, NULL);
    set_down(r, G2N1);
    assert_int_equal(member_in(r, G2, GC_ACCESS_READ), G2N2);
    assert_int_equal(member_in(r, G2, GC_ACCESS_WRITE), -1);
    assert_true(gc_router_group_can_serve(r, G2, GC_ACCESS_READ));
    assert_false(gc_router_group_can_serve(r, G2, GC_ACCESS_WRITE));
    gc_router_destroy(r);
}

/* ------------------------------------------------------------ policy 4 */

static void policy4_follows_the_path_and_reports_unknown_names(void **state)
{
    gc_error warning;
    gc_router *r = make_router(4, " G9N9, g1n2 ,G1N1,,G2N2,G1N2", 0, NULL, 17, &warning);
    assert_string_equal(warning.sqlstate, "01000");
    assert_non_null(strstr(warning.message, "G9N9"));
    assert_non_null(strstr(warning.message, "LocalityMemberPath"));
    /* Known names (matched without regard to case) are not reported. */
    assert_null(strstr(warning.message, "G1N2"));
    assert_null(strstr(warning.message, "g1n2"));

    for (int k = 0; k < 100; k++) {
        assert_int_equal(member_in(r, G1, GC_ACCESS_READ), G1N2);
        assert_int_equal(member_in(r, G2, GC_ACCESS_READ), G2N2);
    }
    gc_router_destroy(r);
}

static void policy4_skips_down_path_members_and_standbys_for_writes(void **state)
{
    gc_router *r = make_router(4, "G1N2,G1N1,G2N2", 0, NULL, 17, NULL);
    /* The standby G1N2 is first, but cannot write: the next path member. */
    assert_int_equal(member_in(r, G1, GC_ACCESS_WRITE), G1N1);
    /* Path member down: the next one in path order. */
    set_down(r, G1N2);
    assert_int_equal(member_in(r, G1, GC_ACCESS_READ), G1N1);
    /* G2's only path member is a standby: writes fall back to the primary. */
    const char *reason = NULL;
    assert_int_equal(gc_router_member_in_group(r, G2, GC_ACCESS_WRITE, &reason), G2N1);
    assert_non_null(strstr(reason, "primary"));
    /* G3 has no path member: the primary, for reads too. */
    assert_int_equal(gc_router_member_in_group(r, G3, GC_ACCESS_READ, &reason), G3N1);
    assert_non_null(strstr(reason, "the primary"));
    gc_router_destroy(r);
}

static void policy4_without_usable_path_member_or_primary_has_no_member(void **state)
{
    gc_router *r = make_router(4, "G2N2", 0, NULL, 17, NULL);
    set_down(r, G2N2);
    assert_int_equal(member_in(r, G2, GC_ACCESS_READ), G2N1);
    set_down(r, G2N1);
    assert_int_equal(member_in(r, G2, GC_ACCESS_READ), -1);
    assert_int_equal(member_in(r, G2, GC_ACCESS_WRITE), -1);
    /* Primary down but the path standby up: it reads, nobody writes. */
    gc_router_set_member(r, G2N2, true, GC_ROLE_STANDBY, 4);
    assert_int_equal(member_in(r, G2, GC_ACCESS_READ), G2N2);
    assert_int_equal(member_in(r, G2, GC_ACCESS_WRITE), -1);
    gc_router_destroy(r);
}

static void policy4_without_path_is_the_primary(void **state)
{
    gc_router *r = make_router(4, NULL, 0, NULL, 17, NULL);
    assert_int_equal(member_in(r, G1, GC_ACCESS_READ), G1N1);
    assert_int_equal(member_in(r, G1, GC_ACCESS_WRITE), G1N1);
    gc_router_destroy(r);
}

/* ------------------------------------------------------------ warnings */

static void known_paths_give_no_warning(void **state)
{
    gc_error warning;
    gc_router *r = make_router(4, "G1N2", 1, "G2,G1", 1, &warning);
    assert_false(gc_error_is_set(&warning));
    gc_router_destroy(r);
}

static void unknown_members_and_groups_share_one_warning(void **state)
{
    gc_error warning;
    gc_router *r = make_router(4, "X1,G1N1,X2,X1", 1, "G7,G1", 1, &warning);
    assert_string_equal(warning.sqlstate, "01000");
    /* Each unknown name once, in path order. */
    const char *list = strstr(warning.message, "X1, X2");
    assert_non_null(list);
    assert_null(strstr(list + 1, "X1"));
    assert_non_null(strstr(warning.message, "LocalityGroupPath"));
    assert_non_null(strstr(warning.message, "G7"));
    gc_router_destroy(r);
}

static void out_of_range_policies_warn_and_act_as_policy_0(void **state)
{
    gc_error warning;
    gc_router *r = make_router(9, NULL, 5, NULL, 1, &warning);
    assert_string_equal(warning.sqlstate, "01000");
    assert_non_null(strstr(warning.message, "LocalityMemberPolicy 9"));
    assert_non_null(strstr(warning.message, "LocalityGroupPolicy 5"));
    for (int k = 0; k < 100; k++)
        assert_int_equal(member_in(r, G1, GC_ACCESS_READ), G1N1);
    gc_router_destroy(r);
}

/* ------------------------------------------------------------ randomness */

static void fixed_seed_repeats_every_choice(void **state)
{
    gc_router *a = make_router(2, NULL, 0, NULL, 12345, NULL);
    gc_router *b = make_router(2, NULL, 0, NULL, 12345, NULL);
    gc_router *c = make_router(2, NULL, 0, NULL, 54321, NULL);
    int differ = 0;
    for (int k = 0; k < 1000; k++) {
        int ga = group_by_policy(a, GC_ACCESS_READ);
        int gb = group_by_policy(b, GC_ACCESS_READ);
        int gcc = group_by_policy(c, GC_ACCESS_READ);
        assert_int_equal(ga, gb);
        int ma = member_in(a, ga, GC_ACCESS_READ);
        assert_int_equal(ma, member_in(b, gb, GC_ACCESS_READ));
        int mc = member_in(c, gcc, GC_ACCESS_READ);
        differ += (ga != gcc || ma != mc);
    }
    /* Another seed is another sequence. */
    assert_true(differ > 100);
    gc_router_destroy(a);
    gc_router_destroy(b);
    gc_router_destroy(c);
}

static void seed_zero_still_spreads(void **state)
{
    gc_router *r = make_router(1, NULL, 0, NULL, 0, NULL);
    const int g1[] = {G1N1, G1N2};
    assert_member_spread(r, G1, GC_ACCESS_READ, g1, 2);
    gc_router_destroy(r);
}

/* ------------------------------------------------------------ group policies */

static void group_policy0_picks_uniformly_among_groups_that_can_serve(void **state)
{
    gc_router *r = make_router(0, NULL, 0, NULL, 21, NULL);
    set_down(r, G2N1);     /* G2 cannot serve under member policy 0 */
    int counts[3] = {0};
    for (int k = 0; k < DRAWS; k++) {
        int g = group_by_policy(r, GC_ACCESS_READ);
        assert_in_range(g, 0, 2);
        counts[g]++;
    }
    assert_int_equal(counts[G2], 0);
    assert_in_range(counts[G1], DRAWS * 4 / 10, DRAWS * 6 / 10);
    assert_in_range(counts[G3], DRAWS * 4 / 10, DRAWS * 6 / 10);
    gc_router_destroy(r);
}

static void group_policy0_counts_a_standby_only_group_for_reads_not_writes(void **state)
{
    gc_router *r = make_router(3, NULL, 0, NULL, 21, NULL);
    set_down(r, G1N1);
    set_down(r, G3N1);
    set_down(r, G3N2);
    set_down(r, G3N3);
    for (int k = 0; k < 200; k++)
        assert_int_equal(group_by_policy(r, GC_ACCESS_WRITE), G2);
    int counts[3] = {0};
    for (int k = 0; k < DRAWS; k++)
        counts[group_by_policy(r, GC_ACCESS_READ)]++;
    assert_int_equal(counts[G3], 0);
    assert_in_range(counts[G1], DRAWS * 4 / 10, DRAWS * 6 / 10);
    set_down(r, G2N1);
    set_down(r, G2N2);
    set_down(r, G1N2);
    const char *reason = NULL;
    assert_int_equal(gc_router_group_by_policy(r, GC_ACCESS_READ, &reason), -1);
    assert_non_null(strstr(reason, "no group"));
    gc_router_destroy(r);
}

static void group_policy1_follows_the_path_then_picks_at_random(void **state)
{
    gc_error warning;
    gc_router *r = make_router(0, NULL, 1, "G3, Gx, G1", 21, &warning);
    assert_non_null(strstr(warning.message, "Gx"));
    const char *reason = NULL;
    assert_int_equal(gc_router_group_by_policy(r, GC_ACCESS_WRITE, &reason), G3);
    assert_non_null(strstr(reason, "LocalityGroupPath"));
    set_down(r, G3N1);
    assert_int_equal(group_by_policy(r, GC_ACCESS_WRITE), G1);
    set_down(r, G1N1);
    /* Every path group down: any group that can serve. */
    assert_int_equal(gc_router_group_by_policy(r, GC_ACCESS_WRITE, &reason), G2);
    assert_non_null(strstr(reason, "random"));
    set_down(r, G2N1);
    assert_int_equal(group_by_policy(r, GC_ACCESS_WRITE), -1);
    gc_router_destroy(r);
}

static void group_policy2_takes_the_group_that_connected_first(void **state)
{
    gc_router *r = make_router(0, NULL, 2, NULL, 21, NULL);
    /* Connect order: G2N2, G3N1, G1N1, ... */
    gc_router_set_member(r, G2N2, true, GC_ROLE_STANDBY, 0);
    gc_router_set_member(r, G3N1, true, GC_ROLE_PRIMARY, 1);
    gc_router_set_member(r, G1N1, true, GC_ROLE_PRIMARY, 2);
    gc_router_set_member(r, G2N1, true, GC_ROLE_PRIMARY, 3);
    gc_router_set_member(r, G1N2, true, GC_ROLE_STANDBY, 4);
    gc_router_set_member(r, G3N2, true, GC_ROLE_STANDBY, 5);
    gc_router_set_member(r, G3N3, true, GC_ROLE_STANDBY, 6);
    for (int k = 0; k < 100; k++)
        assert_int_equal(group_by_policy(r, GC_ACCESS_WRITE), G2);
    /* G2 loses its primary: it cannot serve, the next connected group can. */
    set_down(r, G2N1);
    const char *reason = NULL;
    assert_int_equal(gc_router_group_by_policy(r, GC_ACCESS_WRITE, &reason), G3);
    assert_non_null(strstr(reason, "connected first"));
    gc_router_destroy(r);
}

static void group_policy2_without_connect_order_picks_at_random(void **state)
{
    gc_router *r = make_router(0, NULL, 2, NULL, 21, NULL);
    for (int i = 0; i < N_MEMBERS; i++)
        gc_router_set_member(r, i, true,
                             topo_members[i].catalog_primary ? GC_ROLE_PRIMARY
                                                             : GC_ROLE_STANDBY,
                             -1);
    int counts[3] = {0};
    for (int k = 0; k < 3000; k++)
        counts[group_by_policy(r, GC_ACCESS_READ)]++;
    for (int g = 0; g < 3; g++)
        assert_in_range(counts[g], 700, 1300);
    gc_router_destroy(r);
}

/* ------------------------------------------------------------ votes */

static void votes_pick_the_group_with_most_keys(void **state)
{
    gc_router *r = make_router(0, NULL, 0, NULL, 1, NULL);
    int votes[3] = {1, 5, 2};
    assert_int_equal(gc_router_group_by_votes(r, votes, G1), G2);
    assert_int_equal(gc_router_group_by_votes(r, votes, G3), G2);
    gc_router_destroy(r);
}

static void vote_ties_go_to_the_first_keyed_group_when_tied(void **state)
{
    gc_router *r = make_router(0, NULL, 0, NULL, 1, NULL);
    int votes[3] = {3, 3, 3};
    assert_int_equal(gc_router_group_by_votes(r, votes, G3), G3);
    assert_int_equal(gc_router_group_by_votes(r, votes, G2), G2);
    int two_tied[3] = {1, 4, 4};
    assert_int_equal(gc_router_group_by_votes(r, two_tied, G3), G3);
    gc_router_destroy(r);
}

static void vote_ties_without_the_first_group_go_to_the_lowest_index(void **state)
{
    gc_router *r = make_router(0, NULL, 0, NULL, 1, NULL);
    int votes[3] = {1, 4, 4};
    assert_int_equal(gc_router_group_by_votes(r, votes, G1), G2);
    assert_int_equal(gc_router_group_by_votes(r, votes, -1), G2);
    int late[3] = {0, 2, 2};
    assert_int_equal(gc_router_group_by_votes(r, late, G1), G2);
    gc_router_destroy(r);
}

static void no_votes_give_no_group(void **state)
{
    gc_router *r = make_router(0, NULL, 0, NULL, 1, NULL);
    int votes[3] = {0, 0, 0};
    assert_int_equal(gc_router_group_by_votes(r, votes, G1), -1);
    gc_router_destroy(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(policy0_sends_reads_and_writes_to_the_primary),
        cmocka_unit_test(policy0_primary_down_has_no_member_even_with_a_standby_up),
        cmocka_unit_test(primary_is_the_role_the_caller_reports_not_the_catalogs),
        cmocka_unit_test(members_start_unusable_until_the_caller_says_otherwise),
        cmocka_unit_test(policies_1_and_2_write_only_on_the_primary),
        cmocka_unit_test(policies_1_and_2_spread_reads_over_every_usable_member),
        cmocka_unit_test(policies_1_and_2_read_on_the_survivor_when_one_is_down),
        cmocka_unit_test(policies_1_and_2_make_the_same_choices),
        cmocka_unit_test(policy3_reads_on_standbys_writes_on_the_primary),
        cmocka_unit_test(policy3_reads_on_the_primary_when_no_standby_is_usable),
        cmocka_unit_test(policy3_standby_only_group_reads_but_cannot_write),
        cmocka_unit_test(policy4_follows_the_path_and_reports_unknown_names),
        cmocka_unit_test(policy4_skips_down_path_members_and_standbys_for_writes),
        cmocka_unit_test(policy4_without_usable_path_member_or_primary_has_no_member),
        cmocka_unit_test(policy4_without_path_is_the_primary),
        cmocka_unit_test(known_paths_give_no_warning),
        cmocka_unit_test(unknown_members_and_groups_share_one_warning),
        cmocka_unit_test(out_of_range_policies_warn_and_act_as_policy_0),
        cmocka_unit_test(fixed_seed_repeats_every_choice),
        cmocka_unit_test(seed_zero_still_spreads),
        cmocka_unit_test(group_policy0_picks_uniformly_among_groups_that_can_serve),
        cmocka_unit_test(group_policy0_counts_a_standby_only_group_for_reads_not_writes),
        cmocka_unit_test(group_policy1_follows_the_path_then_picks_at_random),
        cmocka_unit_test(group_policy2_takes_the_group_that_connected_first),
        cmocka_unit_test(group_policy2_without_connect_order_picks_at_random),
        cmocka_unit_test(votes_pick_the_group_with_most_keys),
        cmocka_unit_test(vote_ties_go_to_the_first_keyed_group_when_tied),
        cmocka_unit_test(vote_ties_without_the_first_group_go_to_the_lowest_index),
        cmocka_unit_test(no_votes_give_no_group),
    };
    return cmocka_run_group_tests_name("router", tests, NULL, NULL);
}
