/* Parameter conversion (gc_convert_param_from_c): PostgreSQL input text from
 * every C type, validation of struct values, and the SQLSTATE of each
 * failure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "convert/gc_convert.h"

typedef struct param {
    SQLRETURN rc;
    char state[6];
    gc_param_value v;
} param;

static param send_len(SQLSMALLINT c_type, SQLSMALLINT sql_type, const void *value, SQLLEN len)
{
    param p;
    gc_error err;
    p.rc = gc_convert_param_from_c(c_type, sql_type, 0, 0, value, 0, len, &p.v, &err);
    memcpy(p.state, err.sqlstate, 6);
    return p;
}

static param send_val(SQLSMALLINT c_type, SQLSMALLINT sql_type, const void *value)
{
    return send_len(c_type, sql_type, value, SQL_NTS);
}

/* Checks a text result and frees it. */
static void expect_text(param p, const char *text, Oid oid)
{
    assert_int_equal(p.rc, SQL_SUCCESS);
    assert_string_equal(p.state, "");
    assert_non_null(p.v.data);
    assert_string_equal(p.v.data, text);
    assert_int_equal(p.v.format, 0);
    assert_int_equal(p.v.type_oid, oid);
    gc_param_value_free(&p.v);
}

static void expect_state(param p, SQLRETURN rc, const char *state)
{
    assert_int_equal(p.rc, rc);
    assert_string_equal(p.state, state);
    if (rc == SQL_ERROR)
        assert_null(p.v.data);
    gc_param_value_free(&p.v);
}

static void integers_become_decimal_text_of_the_declared_type(void **state)
{
    (void)state;
    SQLINTEGER i = -2147483647 - 1;
    expect_text(send_val(SQL_C_SLONG, SQL_INTEGER, &i), "-2147483648", GC_OID_INT4);
    SQLBIGINT b = INT64_MIN;
    expect_text(send_val(SQL_C_SBIGINT, SQL_BIGINT, &b), "-9223372036854775808", GC_OID_INT8);
    SQLUBIGINT ub = UINT64_MAX;
    expect_text(send_val(SQL_C_UBIGINT, SQL_NUMERIC, &ub), "18446744073709551615", GC_OID_NUMERIC);
    SQLSMALLINT s = -3;
    expect_text(send_val(SQL_C_SHORT, SQL_SMALLINT, &s), "-3", GC_OID_INT2);
    SQLSCHAR t = -128;
    expect_text(send_val(SQL_C_TINYINT, SQL_TINYINT, &t), "-128", GC_OID_INT2);
    SQLCHAR ut = 255;
    expect_text(send_val(SQL_C_UTINYINT, SQL_INTEGER, &ut), "255", GC_OID_INT4);
    SQLUSMALLINT us = 65535;
    expect_text(send_val(SQL_C_USHORT, SQL_INTEGER, &us), "65535", GC_OID_INT4);
    SQLUINTEGER ul = 4294967295u;
    expect_text(send_val(SQL_C_ULONG, SQL_BIGINT, &ul), "4294967295", GC_OID_INT8);
    i = 12;
    expect_text(send_val(SQL_C_LONG, SQL_VARCHAR, &i), "12", 0);
    expect_text(send_val(SQL_C_SLONG, SQL_DOUBLE, &i), "12", GC_OID_NUMERIC);
    b = 0;
    expect_text(send_val(SQL_C_SBIGINT, SQL_BIGINT, &b), "0", GC_OID_INT8);
    b = -7;
    expect_text(send_val(SQL_C_SBIGINT, SQL_CHAR, &b), "-7", 0);
    expect_text(send_val(SQL_C_SBIGINT, SQL_DECIMAL, &b), "-7", GC_OID_NUMERIC);
}

static void integers_out_of_the_sql_type_range_give_22003(void **state)
{
    (void)state;
    SQLBIGINT big = 2147483648LL;
    expect_state(send_val(SQL_C_SBIGINT, SQL_INTEGER, &big), SQL_ERROR, "22003");
    SQLUBIGINT huge = (SQLUBIGINT)INT64_MAX + 1;
    expect_state(send_val(SQL_C_UBIGINT, SQL_BIGINT, &huge), SQL_ERROR, "22003");
    SQLINTEGER i = 40000;
    expect_state(send_val(SQL_C_SLONG, SQL_SMALLINT, &i), SQL_ERROR, "22003");
    big = INT64_MIN;
    expect_state(send_val(SQL_C_SBIGINT, SQL_INTEGER, &big), SQL_ERROR, "22003");
    SQLDOUBLE d = 1e300;
    expect_state(send_val(SQL_C_DOUBLE, SQL_BIGINT, &d), SQL_ERROR, "22003");
    expect_state(send_val(SQL_C_DOUBLE, SQL_REAL, &d), SQL_ERROR, "22003");
    expect_state(send_val(SQL_C_CHAR, SQL_BIGINT, "9223372036854775808"), SQL_ERROR, "22003");
}

static void doubles_lose_fractions_into_integers_with_01S07(void **state)
{
    (void)state;
    SQLDOUBLE d = -7.9;
    param p = send_val(SQL_C_DOUBLE, SQL_INTEGER, &d);
    assert_int_equal(p.rc, SQL_SUCCESS_WITH_INFO);
    assert_string_equal(p.state, "01S07");
    assert_string_equal(p.v.data, "-7");
    gc_param_value_free(&p.v);
}

static void floats_round_trip_in_shortest_text(void **state)
{
    (void)state;
    SQLDOUBLE d = 0.1;
    expect_text(send_val(SQL_C_DOUBLE, SQL_DOUBLE, &d), "0.1", GC_OID_NUMERIC);
    d = 1e100;
    expect_text(send_val(SQL_C_DOUBLE, SQL_FLOAT, &d), "1e+100", GC_OID_NUMERIC);
    d = 1.0 / 3.0;
    param p = send_val(SQL_C_DOUBLE, SQL_DOUBLE, &d);
    assert_int_equal(p.rc, SQL_SUCCESS);
    assert_true(strtod(p.v.data, NULL) == d);
    gc_param_value_free(&p.v);
    SQLREAL f = 0.1f;
    expect_text(send_val(SQL_C_FLOAT, SQL_REAL, &f), "0.1", GC_OID_FLOAT4);
    expect_text(send_val(SQL_C_CHAR, SQL_DOUBLE, " 2.50 "), "2.5", GC_OID_NUMERIC);
    expect_text(send_val(SQL_C_CHAR, SQL_DOUBLE, "NaN"), "NaN", GC_OID_FLOAT8);
    expect_text(send_val(SQL_C_CHAR, SQL_DOUBLE, "-inf"), "-Infinity", GC_OID_FLOAT8);
    expect_state(send_val(SQL_C_CHAR, SQL_DOUBLE, "1e400"), SQL_ERROR, "22003");
}

static void character_data_to_numbers_is_validated(void **state)
{
    (void)state;
    expect_text(send_val(SQL_C_CHAR, SQL_INTEGER, " 42 "), "42", GC_OID_INT4);
    expect_text(send_val(SQL_C_CHAR, SQL_NUMERIC, " -1.50 "), "-1.50", GC_OID_NUMERIC);
    expect_text(send_val(SQL_C_CHAR, SQL_DECIMAL, "NaN"), "NaN", GC_OID_NUMERIC);
    expect_state(send_val(SQL_C_CHAR, SQL_INTEGER, "forty-two"), SQL_ERROR, "22018");
    expect_state(send_val(SQL_C_CHAR, SQL_NUMERIC, "1,5"), SQL_ERROR, "22018");
    param p = send_val(SQL_C_CHAR, SQL_INTEGER, "3.7");
    assert_int_equal(p.rc, SQL_SUCCESS_WITH_INFO);
    assert_string_equal(p.state, "01S07");
    assert_string_equal(p.v.data, "3");
    gc_param_value_free(&p.v);
}

static void bits_are_one_or_zero(void **state)
{
    (void)state;
    SQLCHAR one = 1, two = 2;
    expect_text(send_val(SQL_C_BIT, SQL_BIT, &one), "1", 0);
    expect_text(send_val(SQL_C_BIT, SQL_INTEGER, &one), "1", GC_OID_INT4);
    expect_state(send_val(SQL_C_BIT, SQL_BIT, &two), SQL_ERROR, "22003");
    SQLINTEGER i = 0;
    expect_text(send_val(SQL_C_SLONG, SQL_BIT, &i), "0", 0);
    i = 5;
    expect_state(send_val(SQL_C_SLONG, SQL_BIT, &i), SQL_ERROR, "22003");
    expect_text(send_val(SQL_C_CHAR, SQL_BIT, "1"), "1", 0);
    expect_text(send_val(SQL_C_CHAR, SQL_BIT, "false"), "0", 0);
    expect_state(send_val(SQL_C_CHAR, SQL_BIT, "maybe"), SQL_ERROR, "22018");
    param p = send_val(SQL_C_CHAR, SQL_BIT, "0.5");
    assert_int_equal(p.rc, SQL_SUCCESS_WITH_INFO);
    assert_string_equal(p.state, "01S07");
    assert_string_equal(p.v.data, "0");
    gc_param_value_free(&p.v);
}

static SQL_NUMERIC_STRUCT numeric_of(unsigned long long v, int scale, int sign)
{
    SQL_NUMERIC_STRUCT n;
    memset(&n, 0, sizeof n);
    n.precision = 38;
    n.scale = (SQLSCHAR)scale;
    n.sign = (SQLCHAR)sign;
    for (int b = 0; b < 8; b++)
        n.val[b] = (SQLCHAR)(v >> (8 * b));
    return n;
}

static void numeric_struct_becomes_decimal_text(void **state)
{
    (void)state;
    SQL_NUMERIC_STRUCT n = numeric_of(12345, 2, 1);
    expect_text(send_val(SQL_C_NUMERIC, SQL_NUMERIC, &n), "123.45", GC_OID_NUMERIC);
    n = numeric_of(5, 3, 0);
    expect_text(send_val(SQL_C_NUMERIC, SQL_NUMERIC, &n), "-0.005", GC_OID_NUMERIC);
    n = numeric_of(7, -2, 1);
    expect_text(send_val(SQL_C_NUMERIC, SQL_NUMERIC, &n), "700", GC_OID_NUMERIC);
    n = numeric_of(0, 0, 0);
    expect_text(send_val(SQL_C_NUMERIC, SQL_NUMERIC, &n), "0", GC_OID_NUMERIC);
    memset(n.val, 0xff, sizeof n.val);
    n.scale = 0;
    n.sign = 1;
    expect_text(send_val(SQL_C_NUMERIC, SQL_VARCHAR, &n),
                "340282366920938463463374607431768211455", 0);
}

static void numeric_struct_round_trips_through_text(void **state)
{
    (void)state;
    const char *values[] = { "0.001", "-123456789012345678901234567.89", "42", "-0.5" };
    const int scales[] = { 3, 2, 0, 1 };
    for (size_t i = 0; i < 4; i++) {
        SQL_NUMERIC_STRUCT n;
        SQLLEN len;
        gc_fetch_target t = { SQL_C_NUMERIC, &n, 0, &len, &len, 38, (SQLSMALLINT)scales[i], 0, false, false };
        gc_error err;
        assert_int_equal(gc_convert_value_to_c(GC_OID_NUMERIC, values[i], strlen(values[i]),
                                               false, &t, NULL, &err), SQL_SUCCESS);
        expect_text(send_val(SQL_C_NUMERIC, SQL_NUMERIC, &n), values[i], GC_OID_NUMERIC);
    }
}

static void dates_times_and_timestamps_become_iso_text(void **state)
{
    (void)state;
    SQL_DATE_STRUCT d = { 2024, 2, 29 };
    expect_text(send_val(SQL_C_TYPE_DATE, SQL_TYPE_DATE, &d), "2024-02-29", GC_OID_DATE);
    expect_text(send_val(SQL_C_DATE, SQL_TYPE_TIMESTAMP, &d), "2024-02-29 00:00:00",
                GC_OID_TIMESTAMP);
    expect_text(send_val(SQL_C_TYPE_DATE, SQL_VARCHAR, &d), "2024-02-29", 0);
    SQL_TIME_STRUCT t = { 23, 59, 58 };
    expect_text(send_val(SQL_C_TYPE_TIME, SQL_TYPE_TIME, &t), "23:59:58", GC_OID_TIME);
    expect_text(send_val(SQL_C_TIME, SQL_TIME, &t), "23:59:58", GC_OID_TIME);
    SQL_TIMESTAMP_STRUCT ts = { 2001, 9, 9, 1, 46, 40, 123456000 };
    expect_text(send_val(SQL_C_TYPE_TIMESTAMP, SQL_TYPE_TIMESTAMP, &ts),
                "2001-09-09 01:46:40.123456", GC_OID_TIMESTAMP);
    expect_text(send_val(SQL_C_TIMESTAMP, SQL_TYPE_TIME, &ts), "01:46:40.123456", GC_OID_TIME);
    ts.hour = ts.minute = ts.second = 0;
    ts.fraction = 0;
    expect_text(send_val(SQL_C_TYPE_TIMESTAMP, SQL_TYPE_DATE, &ts), "2001-09-09", GC_OID_DATE);
    ts.second = 1;
    expect_state(send_val(SQL_C_TYPE_TIMESTAMP, SQL_TYPE_DATE, &ts), SQL_ERROR, "22008");
    param p = send_val(SQL_C_TYPE_TIME, SQL_TYPE_TIMESTAMP, &t);   /* today's date */
    assert_int_equal(p.rc, SQL_SUCCESS);
    assert_int_equal(strlen(p.v.data), 19);
    assert_string_equal(p.v.data + 11, "23:59:58");
    gc_param_value_free(&p.v);
}

static void invalid_struct_values_give_22007(void **state)
{
    (void)state;
    SQL_DATE_STRUCT d = { 2024, 13, 1 };
    expect_state(send_val(SQL_C_TYPE_DATE, SQL_TYPE_DATE, &d), SQL_ERROR, "22007");
    SQL_DATE_STRUCT feb29 = { 2023, 2, 29 };
    expect_state(send_val(SQL_C_TYPE_DATE, SQL_TYPE_DATE, &feb29), SQL_ERROR, "22007");
    SQL_DATE_STRUCT day0 = { 2023, 1, 0 };
    expect_state(send_val(SQL_C_TYPE_DATE, SQL_VARCHAR, &day0), SQL_ERROR, "22007");
    SQL_DATE_STRUCT year0 = { 0, 1, 1 };
    expect_state(send_val(SQL_C_TYPE_DATE, SQL_TYPE_DATE, &year0), SQL_ERROR, "22007");
    SQL_TIME_STRUCT t = { 24, 0, 0 };
    expect_state(send_val(SQL_C_TYPE_TIME, SQL_TYPE_TIME, &t), SQL_ERROR, "22007");
    SQL_TIME_STRUCT t2 = { 12, 60, 0 };
    expect_state(send_val(SQL_C_TYPE_TIME, SQL_TYPE_TIME, &t2), SQL_ERROR, "22007");
    SQL_TIMESTAMP_STRUCT ts = { 2020, 1, 1, 0, 0, 0, 1000000000 };
    expect_state(send_val(SQL_C_TYPE_TIMESTAMP, SQL_TYPE_TIMESTAMP, &ts), SQL_ERROR, "22007");
    SQL_TIMESTAMP_STRUCT ts2 = { 2020, 4, 31, 0, 0, 0, 0 };
    expect_state(send_val(SQL_C_TYPE_TIMESTAMP, SQL_TYPE_TIMESTAMP, &ts2), SQL_ERROR, "22007");
    SQL_DATE_STRUCT leap = { 2000, 2, 29 };
    expect_text(send_val(SQL_C_TYPE_DATE, SQL_TYPE_DATE, &leap), "2000-02-29", GC_OID_DATE);
    SQL_DATE_STRUCT not_leap = { 1900, 2, 29 };
    expect_state(send_val(SQL_C_TYPE_DATE, SQL_TYPE_DATE, &not_leap), SQL_ERROR, "22007");
}

static void character_datetimes_are_parsed_and_checked(void **state)
{
    (void)state;
    expect_text(send_val(SQL_C_CHAR, SQL_TYPE_DATE, "{d '2020-01-31'}"), "2020-01-31", GC_OID_DATE);
    expect_text(send_val(SQL_C_CHAR, SQL_TYPE_TIMESTAMP, "{ts '2020-01-31 10:00:00.5'}"),
                "2020-01-31 10:00:00.5", GC_OID_TIMESTAMP);
    expect_text(send_val(SQL_C_CHAR, SQL_TYPE_TIMESTAMP, "2020-01-31"), "2020-01-31 00:00:00",
                GC_OID_TIMESTAMP);
    expect_text(send_val(SQL_C_CHAR, SQL_TYPE_TIME, "{t '10:11:12'}"), "10:11:12", GC_OID_TIME);
    expect_text(send_val(SQL_C_CHAR, SQL_TYPE_DATE, "infinity"), "infinity", GC_OID_DATE);
    expect_state(send_val(SQL_C_CHAR, SQL_TYPE_DATE, "2020-02-30"), SQL_ERROR, "22007");
    expect_state(send_val(SQL_C_CHAR, SQL_TYPE_TIME, "25:00:00"), SQL_ERROR, "22007");
    expect_state(send_val(SQL_C_CHAR, SQL_TYPE_DATE, "yesterday"), SQL_ERROR, "22018");
    expect_state(send_val(SQL_C_CHAR, SQL_TYPE_DATE, "2020-01-31 10:00:00"), SQL_ERROR, "22008");
    expect_state(send_val(SQL_C_CHAR, SQL_TYPE_TIME, "2020-01-31"), SQL_ERROR, "22018");
    expect_state(send_val(SQL_C_CHAR, SQL_TYPE_TIME, "infinity"), SQL_ERROR, "22007");
}

static void restricted_conversions_give_07006(void **state)
{
    (void)state;
    SQL_DATE_STRUCT d = { 2024, 1, 1 };
    expect_state(send_val(SQL_C_TYPE_DATE, SQL_INTEGER, &d), SQL_ERROR, "07006");
    expect_state(send_val(SQL_C_TYPE_DATE, SQL_TYPE_TIME, &d), SQL_ERROR, "07006");
    SQL_TIME_STRUCT t = { 1, 2, 3 };
    expect_state(send_val(SQL_C_TYPE_TIME, SQL_TYPE_DATE, &t), SQL_ERROR, "07006");
    SQLINTEGER i = 1;
    expect_state(send_val(SQL_C_SLONG, SQL_TYPE_DATE, &i), SQL_ERROR, "07006");
    expect_state(send_val(SQL_C_SLONG, SQL_VARBINARY, &i), SQL_ERROR, "07006");
    expect_state(send_val(SQL_C_SLONG, SQL_GUID, &i), SQL_ERROR, "07006");
    SQL_INTERVAL_STRUCT iv;
    memset(&iv, 0, sizeof iv);
    iv.interval_type = SQL_IS_DAY;
    expect_state(send_val(SQL_C_INTERVAL_DAY, SQL_TYPE_DATE, &iv), SQL_ERROR, "07006");
    expect_state(send_len(SQL_C_BINARY, SQL_INTEGER, "abcd", 4), SQL_ERROR, "07006");
}

static void bad_type_codes_and_lengths(void **state)
{
    (void)state;
    SQLINTEGER i = 1;
    expect_state(send_val(1234, SQL_INTEGER, &i), SQL_ERROR, "HY003");
    expect_state(send_val(SQL_C_SLONG, 1234, &i), SQL_ERROR, "HY004");
    expect_state(send_len(SQL_C_CHAR, SQL_VARCHAR, "x", -7), SQL_ERROR, "HY090");
    expect_state(send_len(SQL_C_BINARY, SQL_VARBINARY, "x", SQL_NTS), SQL_ERROR, "HY090");
    expect_state(send_len(SQL_C_CHAR, SQL_VARCHAR, "x", SQL_DEFAULT_PARAM), SQL_ERROR, "07S01");
    expect_state(send_val(SQL_C_SLONG, SQL_INTEGER, NULL), SQL_ERROR, "HY009");
}

static void null_data_gives_no_value_but_a_type(void **state)
{
    (void)state;
    param p = send_len(SQL_C_SLONG, SQL_INTEGER, NULL, SQL_NULL_DATA);
    assert_int_equal(p.rc, SQL_SUCCESS);
    assert_null(p.v.data);
    assert_int_equal(p.v.type_oid, GC_OID_INT4);
}

static void char_length_and_nts_are_honoured(void **state)
{
    (void)state;
    expect_text(send_len(SQL_C_CHAR, SQL_VARCHAR, "hello world", 5), "hello", 0);
    expect_text(send_len(SQL_C_CHAR, SQL_LONGVARCHAR, "hi\0there", 8), "hi", 0);
    expect_text(send_val(SQL_C_CHAR, SQL_CHAR, "abc"), "abc", 0);
    expect_text(send_len(SQL_C_CHAR, SQL_VARCHAR, "", 0), "", 0);
    expect_text(send_val(SQL_C_DEFAULT, SQL_VARCHAR, "dflt"), "dflt", 0);
    SQLINTEGER i = 9;
    expect_text(send_val(SQL_C_DEFAULT, SQL_INTEGER, &i), "9", GC_OID_INT4);
}

static void wchar_becomes_utf8_and_bad_utf16_gives_22018(void **state)
{
    (void)state;
    const SQLWCHAR w[] = { 'h', 0xE9, 0xD83D, 0xDE00, 0 };
    expect_text(send_val(SQL_C_WCHAR, SQL_WVARCHAR, w), "h\xc3\xa9\xf0\x9f\x98\x80", 0);
    expect_text(send_len(SQL_C_WCHAR, SQL_WVARCHAR, w, 4), "h\xc3\xa9", 0);
    const SQLWCHAR num[] = { '1', '2', 0 };
    expect_text(send_val(SQL_C_WCHAR, SQL_INTEGER, num), "12", GC_OID_INT4);
    const SQLWCHAR bad[] = { 'a', 0xD800, 'b', 0 };
    expect_state(send_val(SQL_C_WCHAR, SQL_WVARCHAR, bad), SQL_ERROR, "22018");
}

static void binary_goes_as_binary_bytea(void **state)
{
    (void)state;
    const unsigned char bytes[] = { 0, 1, 0xff, 0 };
    param p = send_len(SQL_C_BINARY, SQL_LONGVARBINARY, bytes, 4);
    assert_int_equal(p.rc, SQL_SUCCESS);
    assert_int_equal(p.v.format, 1);
    assert_int_equal(p.v.length, 4);
    assert_memory_equal(p.v.data, bytes, 4);
    assert_int_equal(p.v.type_oid, GC_OID_BYTEA);
    gc_param_value_free(&p.v);
    p = send_val(SQL_C_CHAR, SQL_VARBINARY, "0aFF");
    assert_int_equal(p.rc, SQL_SUCCESS);
    assert_int_equal(p.v.format, 1);
    assert_int_equal(p.v.length, 2);
    assert_int_equal((unsigned char)p.v.data[1], 0xff);
    gc_param_value_free(&p.v);
    expect_state(send_val(SQL_C_CHAR, SQL_BINARY, "abc"), SQL_ERROR, "22018");
    expect_state(send_val(SQL_C_CHAR, SQL_BINARY, "zz"), SQL_ERROR, "22018");
    expect_text(send_len(SQL_C_BINARY, SQL_VARCHAR, "text", 4), "text", 0);
    expect_state(send_len(SQL_C_BINARY, SQL_VARCHAR, bytes, 4), SQL_ERROR, "22018");
}

static void guids_become_uuid_text(void **state)
{
    (void)state;
    SQLGUID g = { 0xa0eebc99u, 0x9c0b, 0x4ef8, { 0xbb, 0x6d, 0x6b, 0xb9, 0xbd, 0x38, 0x0a, 0x11 } };
    expect_text(send_val(SQL_C_GUID, SQL_GUID, &g), "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
                GC_OID_UUID);
    expect_text(send_val(SQL_C_GUID, SQL_VARCHAR, &g), "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", 0);
    expect_text(send_val(SQL_C_CHAR, SQL_GUID, "{A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11}"),
                "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", GC_OID_UUID);
    expect_text(send_len(SQL_C_BINARY, SQL_GUID, &g, sizeof g),
                "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", GC_OID_UUID);
    expect_state(send_val(SQL_C_CHAR, SQL_GUID, "not-a-guid"), SQL_ERROR, "22018");
    expect_state(send_val(SQL_C_GUID, SQL_INTEGER, &g), SQL_ERROR, "07006");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(integers_become_decimal_text_of_the_declared_type),
        cmocka_unit_test(integers_out_of_the_sql_type_range_give_22003),
        cmocka_unit_test(doubles_lose_fractions_into_integers_with_01S07),
        cmocka_unit_test(floats_round_trip_in_shortest_text),
        cmocka_unit_test(character_data_to_numbers_is_validated),
        cmocka_unit_test(bits_are_one_or_zero),
        cmocka_unit_test(numeric_struct_becomes_decimal_text),
        cmocka_unit_test(numeric_struct_round_trips_through_text),
        cmocka_unit_test(dates_times_and_timestamps_become_iso_text),
        cmocka_unit_test(invalid_struct_values_give_22007),
        cmocka_unit_test(character_datetimes_are_parsed_and_checked),
        cmocka_unit_test(restricted_conversions_give_07006),
        cmocka_unit_test(bad_type_codes_and_lengths),
        cmocka_unit_test(null_data_gives_no_value_but_a_type),
        cmocka_unit_test(char_length_and_nts_are_honoured),
        cmocka_unit_test(wchar_becomes_utf8_and_bad_utf16_gives_22018),
        cmocka_unit_test(binary_goes_as_binary_bytea),
        cmocka_unit_test(guids_become_uuid_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
