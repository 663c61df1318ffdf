/*
 * Unknown connection keys cost linear time: 40,000 unknown pairs once took
 * 19.6 s in SQLDriverConnect (34 s for the 380 KB string here), each name
 * being appended to an ever longer list, and 1 MB did not end in a minute. Times the parse of
 * both sizes, prints the figures, and holds them to loose bounds (a machine
 * under load, or a sanitizer build, is several times slower; quadratic is
 * hundreds of times slower).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config/gc_settings.h"

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "Driver=x;" then `pairs` unknown pairs; malloc'd. */
static char *unknown_pairs(size_t pairs, size_t *len)
{
    size_t cap = 16 + pairs * 24;
    char *text = malloc(cap);
    assert_non_null(text);
    size_t n = (size_t)snprintf(text, cap, "Driver=x;");
    for (size_t i = 0; i < pairs; i++)
        n += (size_t)snprintf(text + n, cap - n, "Xk%zu=v;", i);
    *len = n;
    return text;
}

/* Parses `pairs` unknown pairs; returns the seconds it took. */
static double time_parse(size_t pairs)
{
    size_t len;
    char *text = unknown_pairs(pairs, &len);
    gc_settings s;
    gc_settings_init(&s);
    gc_error err;
    gc_error_clear(&err);
    double start = seconds_now();
    assert_true(gc_settings_from_connection_string(&s, text, len, NULL, &err));
    double took = seconds_now() - start;
    assert_int_equal(s.unknown_key_count, pairs);
    printf("%zu unknown pairs (%zu KB): %.3f s\n", pairs, len / 1024, took);
    gc_settings_free(&s);
    free(text);
    return took;
}

static void test_40000_unknown_pairs_parse_in_well_under_a_second_or_two(void **state)
{
    (void)state;
    assert_true(time_parse(40000) < 5.0);
}

static void test_a_megabyte_of_unknown_pairs_parses_in_seconds(void **state)
{
    (void)state;
    assert_true(time_parse(100000) < 20.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_40000_unknown_pairs_parse_in_well_under_a_second_or_two),
        cmocka_unit_test(test_a_megabyte_of_unknown_pairs_parses_in_seconds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
