/* Completing a timestamptz key written without an offset: which texts need
 * the session's TimeZone (gc_keyval_timestamp_is_local), and which
 * TimeZone settings have one offset for all time (gc_time_zone). The
 * offsets are the server's reading of each setting (SET TIME ZONE, then
 * SELECT '2026-01-01 00:00'::timestamptz on PostgreSQL 15). No server
 * needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "placement/gc_keyval.h"
#include "placement/gc_time_zone.h"

static bool is_local(const char *text, bool *has_time)
{
    return gc_keyval_timestamp_is_local(text, strlen(text), has_time);
}

static void texts_without_an_offset_are_local(void **state)
{
    (void)state;
    bool has_time = false;
    assert_true(is_local("2026-06-01 12:00:00", &has_time));
    assert_true(has_time);
    assert_true(is_local(" 2026-06-01T12:00:00.123456 ", &has_time));
    assert_true(has_time);
    assert_true(is_local("2026-06-01", &has_time));
    assert_false(has_time);
}

static void texts_with_an_offset_or_special_or_malformed_are_not(void **state)
{
    (void)state;
    bool has_time;
    assert_false(is_local("2026-06-01 12:00:00+09", &has_time));
    assert_false(is_local("2026-06-01 12:00:00Z", &has_time));
    assert_false(is_local("2026-06-01 12:00:00 UTC", &has_time));
    assert_false(is_local("infinity", &has_time));
    assert_false(is_local("epoch", &has_time));
    assert_false(is_local("June 1 2026", &has_time));
    assert_false(is_local("2026-02-30 00:00", &has_time));
}

static int32_t offset_of(const char *zone)
{
    int32_t east = INT32_MIN;
    assert_true(gc_time_zone_fixed_offset(zone, &east));
    return east;
}

static void utc_names_are_offset_zero(void **state)
{
    (void)state;
    const char *names[] = { "UTC", "Etc/UTC", "GMT", "Etc/GMT", "utc", "Zulu", "Etc/Universal",
                            "Greenwich", "GMT0", "Etc/GMT-0", "UCT" };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        assert_int_equal(offset_of(names[k]), 0);
}

static void etc_gmt_zones_count_west_as_posix(void **state)
{
    (void)state;
    assert_int_equal(offset_of("Etc/GMT-9"), 9 * 3600);
    assert_int_equal(offset_of("Etc/GMT+5"), -5 * 3600);
    assert_int_equal(offset_of("Etc/GMT-14"), 14 * 3600);
}

static void numeric_settings_as_the_server_reports_them(void **state)
{
    (void)state;
    /* SET TIME ZONE 9; SET TIME ZONE -3.5; SET TIME ZONE INTERVAL '+05:45'. */
    assert_int_equal(offset_of("<+09>-09"), 9 * 3600);
    assert_int_equal(offset_of("<-03:30>+03:30"), -(3 * 3600 + 1800));
    assert_int_equal(offset_of("<+05:45>-05:45"), 5 * 3600 + 45 * 60);
    /* POSIX with an abbreviation: UTC+3 is three hours west. */
    assert_int_equal(offset_of("UTC+3"), -3 * 3600);
}

static void zones_whose_offset_changed_are_not_fixed(void **state)
{
    (void)state;
    int32_t east;
    const char *names[] = { "Asia/Seoul", "Europe/Paris", "America/New_York", "CET", "EST5EDT",
                            "<+09>-09<+10>", "PST8PDT", "EST", "Etc/GMT+5:30", "", "<+09" };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        assert_false(gc_time_zone_fixed_offset(names[k], &east));
    assert_false(gc_time_zone_fixed_offset(NULL, &east));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(texts_without_an_offset_are_local),
        cmocka_unit_test(texts_with_an_offset_or_special_or_malformed_are_not),
        cmocka_unit_test(utc_names_are_offset_zero),
        cmocka_unit_test(etc_gmt_zones_count_west_as_posix),
        cmocka_unit_test(numeric_settings_as_the_server_reports_them),
        cmocka_unit_test(zones_whose_offset_changed_are_not_fixed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
