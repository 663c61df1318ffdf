/*
 * The gid of a transaction across groups names its coordinator group and
 * is unique; gids that are not the driver's, or whose group is not a plain
 * name, are not read as ours.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "global/gc_decision.h"

static void gid_names_its_coordinator(void **state)
{
    (void)state;
    char a[GC_DECISION_GID_MAX], b[GC_DECISION_GID_MAX], group[32];
    assert_true(gc_decision_new_gid(a, sizeof a, "G2"));
    assert_true(gc_decision_new_gid(b, sizeof b, "G2"));
    assert_string_not_equal(a, b);
    assert_int_equal(strncmp(a, "gcx:", 4), 0);
    assert_true(gc_decision_gid_coordinator(a, group, sizeof group));
    assert_string_equal(group, "G2");
}

static void group_names_must_be_plain(void **state)
{
    (void)state;
    char gid[GC_DECISION_GID_MAX];
    assert_false(gc_decision_new_gid(gid, sizeof gid, "G'1"));
    assert_false(gc_decision_new_gid(gid, sizeof gid, ""));
    assert_false(gc_decision_new_gid(gid, 12, "G1"));   /* does not fit */
}

static void foreign_gids_are_not_ours(void **state)
{
    (void)state;
    char group[32];
    assert_false(gc_decision_gid_coordinator("gcodbc_ddl_1_2_3", group, sizeof group));
    assert_false(gc_decision_gid_coordinator("gcx:1:2.3:4:G'1", group, sizeof group));
    assert_false(gc_decision_gid_coordinator("gcx:1:2.3:4:", group, sizeof group));
    assert_false(gc_decision_gid_coordinator("gcx:1:2.3:4:GROUP_NAME_TOO_LONG_FOR_IT", group, 8));
    assert_true(gc_decision_gid_coordinator("gcx:1:2.3:4:g_9", group, sizeof group));
    assert_string_equal(group, "g_9");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gid_names_its_coordinator),
        cmocka_unit_test(group_names_must_be_plain),
        cmocka_unit_test(foreign_gids_are_not_ours),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
