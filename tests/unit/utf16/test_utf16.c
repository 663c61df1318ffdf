/* UTF-8 <-> UTF-16 conversion: round trips, surrogate pairs, invalid input,
 * and short output buffers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/gc_utf16.h"

/* "aé€😀": 1, 2, 3 and 4 UTF-8 bytes; the last is a surrogate pair. */
static const char mixed_utf8[] = "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";
static const uint16_t mixed_utf16[] = { 0x61, 0xE9, 0x20AC, 0xD83D, 0xDE00, 0 };

static void utf8_to_utf16_encodes_every_width_and_surrogate_pairs(void **state)
{
    (void)state;
    uint16_t out[16];
    assert_int_equal(gc_utf8_utf16_length(mixed_utf8, strlen(mixed_utf8)), 5);
    assert_int_equal(gc_utf8_to_utf16(mixed_utf8, strlen(mixed_utf8), out, 16), 5);
    assert_memory_equal(out, mixed_utf16, sizeof mixed_utf16);
}

static void utf16_to_utf8_decodes_surrogate_pairs(void **state)
{
    (void)state;
    size_t len = 0;
    bool invalid = true;
    char *s = gc_utf16_to_utf8(mixed_utf16, 5, &len, &invalid);
    assert_non_null(s);
    assert_false(invalid);
    assert_int_equal(len, strlen(mixed_utf8));
    assert_string_equal(s, mixed_utf8);
    free(s);
}

static void utf16_to_utf8_with_negative_units_stops_at_nul(void **state)
{
    (void)state;
    size_t len = 0;
    char *s = gc_utf16_to_utf8(mixed_utf16, -1, &len, NULL);
    assert_non_null(s);
    assert_int_equal(len, strlen(mixed_utf8));
    free(s);
}

static void utf16_to_utf8_of_null_is_null_and_not_invalid(void **state)
{
    (void)state;
    bool invalid = true;
    assert_null(gc_utf16_to_utf8(NULL, 3, NULL, &invalid));
    assert_false(invalid);
}

static void utf16_unpaired_surrogates_are_invalid(void **state)
{
    (void)state;
    const uint16_t lone_high[] = { 0x41, 0xD800 };
    const uint16_t high_then_letter[] = { 0xD800, 0x41 };
    const uint16_t lone_low[] = { 0xDC00, 0x41 };
    bool invalid = false;
    assert_null(gc_utf16_to_utf8(lone_high, 2, NULL, &invalid));
    assert_true(invalid);
    invalid = false;
    assert_null(gc_utf16_to_utf8(high_then_letter, 2, NULL, &invalid));
    assert_true(invalid);
    invalid = false;
    assert_null(gc_utf16_to_utf8(lone_low, 2, NULL, &invalid));
    assert_true(invalid);
}

static void invalid_utf8_is_refused(void **state)
{
    (void)state;
    uint16_t out[8];
    const char *bad[] = {
        "\x80",                 /* lone continuation */
        "\xc3",                 /* truncated sequence */
        "\xc0\xaf",             /* overlong */
        "\xed\xa0\x80",         /* encoded surrogate */
        "\xf4\x90\x80\x80",     /* above U+10FFFF */
        "\xe2\x28\xa1",         /* bad continuation */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(gc_utf8_utf16_length(bad[i], strlen(bad[i])), -1);
        assert_int_equal(gc_utf8_to_utf16(bad[i], strlen(bad[i]), out, 8), -1);
    }
}

static void invalid_utf8_past_the_buffer_is_still_refused(void **state)
{
    (void)state;
    uint16_t out[2];
    const char *s = "ab\x80";
    assert_int_equal(gc_utf8_to_utf16(s, 3, out, 2), -1);
}

static void short_buffer_never_splits_a_surrogate_pair(void **state)
{
    (void)state;
    uint16_t out[5];
    /* room for 4 units + NUL: a, é, €, then the pair does not fit whole */
    memset(out, 0xff, sizeof out);
    assert_int_equal(gc_utf8_to_utf16(mixed_utf8, strlen(mixed_utf8), out, 5), 3);
    assert_int_equal(out[2], 0x20AC);
    assert_int_equal(out[3], 0);
}

static void zero_capacity_writes_nothing_and_one_unit_holds_only_nul(void **state)
{
    (void)state;
    uint16_t out[1] = { 0x1234 };
    assert_int_equal(gc_utf8_to_utf16("abc", 3, out, 0), 0);
    assert_int_equal(out[0], 0x1234);
    assert_int_equal(gc_utf8_to_utf16("abc", 3, out, 1), 0);
    assert_int_equal(out[0], 0);
}

static void empty_strings_convert_to_empty(void **state)
{
    (void)state;
    uint16_t out[2] = { 9, 9 };
    assert_int_equal(gc_utf8_to_utf16("", 0, out, 2), 0);
    assert_int_equal(out[0], 0);
    size_t len = 7;
    char *s = gc_utf16_to_utf8(out, 0, &len, NULL);
    assert_non_null(s);
    assert_int_equal(len, 0);
    assert_string_equal(s, "");
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(utf8_to_utf16_encodes_every_width_and_surrogate_pairs),
        cmocka_unit_test(utf16_to_utf8_decodes_surrogate_pairs),
        cmocka_unit_test(utf16_to_utf8_with_negative_units_stops_at_nul),
        cmocka_unit_test(utf16_to_utf8_of_null_is_null_and_not_invalid),
        cmocka_unit_test(utf16_unpaired_surrogates_are_invalid),
        cmocka_unit_test(invalid_utf8_is_refused),
        cmocka_unit_test(invalid_utf8_past_the_buffer_is_still_refused),
        cmocka_unit_test(short_buffer_never_splits_a_surrogate_pair),
        cmocka_unit_test(zero_capacity_writes_nothing_and_one_unit_holds_only_nul),
        cmocka_unit_test(empty_strings_convert_to_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
