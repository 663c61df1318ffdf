/* Key values from text: accepted forms give the server's internal value,
 * forms the driver cannot place exactly are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "placement/gc_keyval.h"

/* Parses and returns the integer form; fails the test when refused. */
static int64_t accept_int(gc_keytype t, int32_t typmod, const char *s)
{
    gc_keyval v;
    const char *why = NULL;
    if (!gc_keyval_parse(t, typmod, s, strlen(s), &v, &why))
        fail_msg("refused %s '%s': %s", gc_keytype_name(t), s, why);
    int64_t i = v.i;
    gc_keyval_free(&v);
    return i;
}

static void assert_refused(gc_keytype t, int32_t typmod, const char *s)
{
    gc_keyval v;
    const char *why = NULL;
    if (gc_keyval_parse(t, typmod, s, strlen(s), &v, &why)) {
        gc_keyval_free(&v);
        fail_msg("accepted %s '%s'", gc_keytype_name(t), s);
    }
    assert_non_null(why);
}

static void integers_accept_blanks_and_signs_and_refuse_overflow(void **state)
{
    (void)state;
    assert_int_equal(accept_int(GC_KEY_INT4, -1, "  42 "), 42);
    assert_int_equal(accept_int(GC_KEY_INT4, -1, "-2147483648"), INT32_MIN);
    assert_int_equal(accept_int(GC_KEY_INT2, -1, "+32767"), 32767);
    assert_true(accept_int(GC_KEY_INT8, -1, "-9223372036854775808") == INT64_MIN);
    assert_refused(GC_KEY_INT2, -1, "32768");
    assert_refused(GC_KEY_INT4, -1, "2147483648");
    assert_refused(GC_KEY_INT8, -1, "9223372036854775808");
    assert_refused(GC_KEY_INT4, -1, "4 2");
    assert_refused(GC_KEY_INT4, -1, "");
    assert_refused(GC_KEY_INT4, -1, "1.0");
    assert_refused(GC_KEY_INT4, -1, "0x10");
    /* oid wraps negatives as oidin does */
    assert_int_equal(accept_int(GC_KEY_OID, -1, "-1"), 4294967295LL);
    assert_int_equal(accept_int(GC_KEY_OID, -1, "4000000000"), 4000000000LL);
    assert_refused(GC_KEY_OID, -1, "4294967296");
}

static void bool_takes_the_words_boolin_takes(void **state)
{
    (void)state;
    const char *yes[] = {"t", "true", "TRUE", "tr", "yes", "y", "on", "1", " true "};
    const char *no[] = {"f", "false", "no", "n", "off", "of", "0"};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
        assert_int_equal(accept_int(GC_KEY_BOOL, -1, yes[i]), 1);
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        assert_int_equal(accept_int(GC_KEY_BOOL, -1, no[i]), 0);
    assert_refused(GC_KEY_BOOL, -1, "o");
    assert_refused(GC_KEY_BOOL, -1, "truth");
    assert_refused(GC_KEY_BOOL, -1, "2");
}

static void char_takes_first_byte_or_octal_escape(void **state)
{
    (void)state;
    assert_int_equal(accept_int(GC_KEY_CHAR, -1, "xyz"), 'x');
    assert_int_equal(accept_int(GC_KEY_CHAR, -1, "\\303"), 0303);
    assert_int_equal(accept_int(GC_KEY_CHAR, -1, ""), 0);
}

static void dates_in_iso_form_and_infinity(void **state)
{
    (void)state;
    assert_int_equal(accept_int(GC_KEY_DATE, -1, "2000-01-01"), 0);
    assert_int_equal(accept_int(GC_KEY_DATE, -1, "2020-01-01"), 7305);
    assert_int_equal(accept_int(GC_KEY_DATE, -1, " 1999-12-31 "), -1);
    assert_int_equal(accept_int(GC_KEY_DATE, -1, "2024-02-29"), 8825);
    assert_int_equal(accept_int(GC_KEY_DATE, -1, "infinity"), INT32_MAX);
    assert_int_equal(accept_int(GC_KEY_DATE, -1, "-infinity"), INT32_MIN);
    assert_refused(GC_KEY_DATE, -1, "2023-02-29");
    assert_refused(GC_KEY_DATE, -1, "01/02/2026");   /* DateStyle decides */
    assert_refused(GC_KEY_DATE, -1, "Jan 1 2026");
    assert_refused(GC_KEY_DATE, -1, "2026-13-01");
}

static void timestamps_and_utc_offsets(void **state)
{
    (void)state;
    const int64_t day = INT64_C(86400000000);
    assert_true(accept_int(GC_KEY_TIMESTAMP, -1, "2000-01-02 00:00:00.5") == day + 500000);
    assert_true(accept_int(GC_KEY_TIMESTAMP, -1, "2000-01-01T10:00") == INT64_C(36000000000));
    assert_true(accept_int(GC_KEY_TIMESTAMP, -1, "2000-01-02") == day);
    /* timestamp without time zone ignores an offset, like the server */
    assert_true(accept_int(GC_KEY_TIMESTAMP, -1, "2000-01-02 00:00:00+05") == day);
    assert_true(accept_int(GC_KEY_TIMESTAMPTZ, -1, "2000-01-02 05:30:00+05:30") == day);
    assert_true(accept_int(GC_KEY_TIMESTAMPTZ, -1, "2000-01-01 16:00:00-08") == day);
    assert_true(accept_int(GC_KEY_TIMESTAMPTZ, -1, "2000-01-02 00:00:00Z") == day);
    assert_true(accept_int(GC_KEY_TIMESTAMPTZ, -1, "2000-01-02 00:00:00 UTC") == day);
    assert_true(accept_int(GC_KEY_TIMESTAMPTZ, -1, "infinity") == INT64_MAX);
    assert_refused(GC_KEY_TIMESTAMPTZ, -1, "2000-01-02 00:00:00");   /* session TimeZone */
    assert_refused(GC_KEY_TIMESTAMPTZ, -1, "2000-01-02 00:00:00 Europe/Paris");
    assert_refused(GC_KEY_TIMESTAMP, -1, "2000-01-02 00:00:00.1234567");
    assert_refused(GC_KEY_TIMESTAMP, 0, "2000-01-02 00:00:00.5");   /* timestamp(0) rounds */
    assert_true(accept_int(GC_KEY_TIMESTAMP, 2, "2000-01-02 00:00:00.500") == day + 500000);
}

static void text_types_and_typmods(void **state)
{
    (void)state;
    gc_keyval v;
    const char *why;
    assert_true(gc_keyval_parse(GC_KEY_BPCHAR, 8, "ab  ", 4, &v, &why));
    assert_int_equal(v.len, 2);   /* trailing blanks do not count */
    gc_keyval_free(&v);
    assert_true(gc_keyval_parse(GC_KEY_VARCHAR, 3 + 4, "한국어", strlen("한국어"), &v, &why));
    gc_keyval_free(&v);
    assert_refused(GC_KEY_VARCHAR, 3 + 4, "abcd");   /* the server would truncate or refuse */
}

static void bytea_hex_and_escape_forms(void **state)
{
    (void)state;
    gc_keyval v;
    const char *why;
    assert_true(gc_keyval_parse(GC_KEY_BYTEA, -1, "\\x01 ff", 7, &v, &why));
    assert_int_equal(v.len, 2);
    assert_int_equal(v.data[1], 0xff);
    gc_keyval_free(&v);
    assert_true(gc_keyval_parse(GC_KEY_BYTEA, -1, "a\\\\b\\001", 8, &v, &why));
    assert_int_equal(v.len, 4);
    assert_memory_equal(v.data, "a\\b\001", 4);
    gc_keyval_free(&v);
    assert_refused(GC_KEY_BYTEA, -1, "\\x0");
    assert_refused(GC_KEY_BYTEA, -1, "\\q");
}

static void uuid_forms_of_uuid_in(void **state)
{
    (void)state;
    const char *ok[] = {
        "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "A0EEBC999C0B4EF8BB6D6BB9BD380A11",
        "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}", "a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a11",
        "{a0eebc999c0b4ef8bb6d6bb9bd380a11}",
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        gc_keyval v;
        const char *why;
        assert_true(gc_keyval_parse(GC_KEY_UUID, -1, ok[i], strlen(ok[i]), &v, &why));
        assert_int_equal(v.uuid[0], 0xa0);
        assert_int_equal(v.uuid[15], 0x11);
        gc_keyval_free(&v);
    }
    assert_refused(GC_KEY_UUID, -1, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1");
    assert_refused(GC_KEY_UUID, -1, " a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
    assert_refused(GC_KEY_UUID, -1, "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
    assert_refused(GC_KEY_UUID, -1, "a0eeb-c99-9c0b-4ef8-bb6d-6bb9bd380a11");
}

static int cmp_text(gc_keytype t, const char *a, const char *b)
{
    gc_keyval x, y;
    const char *why;
    assert_true(gc_keyval_parse(t, -1, a, strlen(a), &x, &why));
    assert_true(gc_keyval_parse(t, -1, b, strlen(b), &y, &why));
    int c = gc_keyval_compare(&x, &y);
    gc_keyval_free(&x);
    gc_keyval_free(&y);
    return c;
}

static void numeric_compares_by_value_and_checks_scale(void **state)
{
    (void)state;
    assert_int_equal(cmp_text(GC_KEY_NUMERIC, "1.50", "1.5"), 0);
    assert_int_equal(cmp_text(GC_KEY_NUMERIC, "-0", "0.000"), 0);
    assert_true(cmp_text(GC_KEY_NUMERIC, "-2", "-1.5") < 0);
    assert_true(cmp_text(GC_KEY_NUMERIC, "10", "9.99") > 0);
    assert_true(cmp_text(GC_KEY_NUMERIC, "1.5e3", "1499.9") > 0);
    assert_true(cmp_text(GC_KEY_NUMERIC, "0.001", "0.01") < 0);
    assert_true(cmp_text(GC_KEY_NUMERIC, "Infinity", "1e1000") > 0);
    assert_true(cmp_text(GC_KEY_NUMERIC, "NaN", "Infinity") > 0);
    assert_true(cmp_text(GC_KEY_NUMERIC, "-Infinity", "-1e1000") < 0);
    /* numeric(12,2): typmod ((12 << 16) | 2) + 4 */
    int32_t typmod = ((12 << 16) | 2) + 4;
    gc_keyval v;
    const char *why;
    assert_true(gc_keyval_parse(GC_KEY_NUMERIC, typmod, "1.500", 5, &v, &why));
    uint64_t h1, h2;
    assert_true(gc_keyval_hash(&v, UINT64_C(0x7A5B22367996DCFD), &h1));
    gc_keyval_free(&v);
    assert_true(gc_keyval_parse(GC_KEY_NUMERIC, -1, "-1.50", 5, &v, &why));
    assert_true(gc_keyval_hash(&v, UINT64_C(0x7A5B22367996DCFD), &h2));
    gc_keyval_free(&v);
    assert_true(h1 == UINT64_C(0x11203748b4839213) && h2 == h1);
    assert_refused(GC_KEY_NUMERIC, typmod, "1.505");   /* the server rounds to 1.51 */
    assert_refused(GC_KEY_NUMERIC, typmod, "12345678901"); /* does not fit (12,2) */
    assert_refused(GC_KEY_NUMERIC, -1, "1.2.3");
    assert_refused(GC_KEY_NUMERIC, -1, "abc");
}

static void byte_strings_compare_as_memcmp_then_length(void **state)
{
    (void)state;
    assert_true(cmp_text(GC_KEY_TEXT, "a", "b") < 0);
    assert_true(cmp_text(GC_KEY_TEXT, "a", "ab") < 0);
    assert_true(cmp_text(GC_KEY_TEXT, "Z", "a") < 0);    /* "C" order */
    assert_int_equal(cmp_text(GC_KEY_BPCHAR, "ab", "ab   "), 0);
}

static void unsupported_type_and_null(void **state)
{
    (void)state;
    gc_keyval v;
    const char *why = NULL;
    assert_int_equal(gc_keytype_of_oid(700), GC_KEY_UNSUPPORTED);   /* float4 */
    assert_false(gc_keyval_parse(GC_KEY_UNSUPPORTED, -1, "1", 1, &v, &why));
    assert_true(gc_keyval_parse(GC_KEY_INT4, -1, NULL, 0, &v, &why));
    assert_true(v.is_null);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(integers_accept_blanks_and_signs_and_refuse_overflow),
        cmocka_unit_test(bool_takes_the_words_boolin_takes),
        cmocka_unit_test(char_takes_first_byte_or_octal_escape),
        cmocka_unit_test(dates_in_iso_form_and_infinity),
        cmocka_unit_test(timestamps_and_utc_offsets),
        cmocka_unit_test(text_types_and_typmods),
        cmocka_unit_test(bytea_hex_and_escape_forms),
        cmocka_unit_test(uuid_forms_of_uuid_in),
        cmocka_unit_test(numeric_compares_by_value_and_checks_scale),
        cmocka_unit_test(byte_strings_compare_as_memcmp_then_length),
        cmocka_unit_test(unsupported_type_and_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
