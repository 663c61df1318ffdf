/* Interval conversions: PostgreSQL interval text into every SQL_C_INTERVAL_*
 * type (leading precision 22015, trailing fields and fractions 01S07,
 * year-month / day-time mismatches 22015), and SQL_INTERVAL_STRUCT or text
 * into interval parameters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "convert/gc_convert.h"
#include "convert/gc_convert_internal.h"

typedef struct fetched {
    SQLRETURN rc;
    char state[6];
    SQLLEN len;
    SQL_INTERVAL_STRUCT iv;
} fetched;

/* Reads interval text into c_type with the given precisions. */
static fetched read_as(const char *text, SQLSMALLINT c_type, int leading, SQLSMALLINT seconds)
{
    fetched f;
    memset(&f, 0, sizeof f);
    memset(&f.iv, 0x5A, sizeof f.iv);
    gc_fetch_target t = { .c_type = c_type, .buffer = &f.iv, .buffer_length = sizeof f.iv,
                          .length = &f.len, .indicator = &f.len, .precision = seconds,
                          .interval_leading_precision = leading };
    gc_error err;
    f.rc = gc_convert_value_to_c(GC_OID_INTERVAL, text, strlen(text), false, &t, NULL, &err);
    memcpy(f.state, err.sqlstate, 6);
    return f;
}

static fetched read_iv(const char *text, SQLSMALLINT c_type)
{
    return read_as(text, c_type, 0, 0);
}

#define assert_rc(f, rcv, st) do { assert_int_equal((f).rc, rcv); assert_string_equal((f).state, st); } while (0)
#define DS(f) ((f).iv.intval.day_second)
#define YM(f) ((f).iv.intval.year_month)

static void day_to_second_reads_every_field(void **state)
{
    (void)state;
    fetched f = read_iv("3 days 04:05:06.789", SQL_C_INTERVAL_DAY_TO_SECOND);
    assert_rc(f, SQL_SUCCESS, "");
    assert_int_equal(f.len, sizeof(SQL_INTERVAL_STRUCT));
    assert_int_equal(f.iv.interval_type, SQL_IS_DAY_TO_SECOND);
    assert_int_equal(f.iv.interval_sign, SQL_FALSE);
    assert_int_equal(DS(f).day, 3);
    assert_int_equal(DS(f).hour, 4);
    assert_int_equal(DS(f).minute, 5);
    assert_int_equal(DS(f).second, 6);
    assert_int_equal(DS(f).fraction, 789000);   /* seconds precision 6: microseconds */
}

static void negative_and_mixed_sign_values_get_one_sign(void **state)
{
    (void)state;
    fetched f = read_iv("-2 days -01:00:00", SQL_C_INTERVAL_DAY_TO_HOUR);
    assert_rc(f, SQL_SUCCESS, "");
    assert_int_equal(f.iv.interval_sign, SQL_TRUE);
    assert_int_equal(DS(f).day, 2);
    assert_int_equal(DS(f).hour, 1);
    /* PostgreSQL keeps days and time apart: 1 day minus an hour is 23 hours. */
    f = read_iv("1 day -01:00:00", SQL_C_INTERVAL_HOUR);
    assert_rc(f, SQL_SUCCESS, "");
    assert_int_equal(f.iv.interval_sign, SQL_FALSE);
    assert_int_equal(DS(f).hour, 23);
    f = read_iv("-00:00:01.5", SQL_C_INTERVAL_SECOND);
    assert_rc(f, SQL_SUCCESS, "");
    assert_int_equal(f.iv.interval_sign, SQL_TRUE);
    assert_int_equal(DS(f).second, 1);
    assert_int_equal(DS(f).fraction, 500000);
}

static void leading_field_collects_the_larger_units(void **state)
{
    (void)state;
    fetched f = read_iv("2 days 03:00:00", SQL_C_INTERVAL_HOUR_TO_MINUTE);
    assert_rc(f, SQL_SUCCESS, "");
    assert_int_equal(DS(f).hour, 51);
    assert_int_equal(DS(f).minute, 0);
    f = read_iv("01:02:03", SQL_C_INTERVAL_MINUTE_TO_SECOND);
    assert_rc(f, SQL_SUCCESS, "");
    assert_int_equal(DS(f).minute, 62);
    assert_int_equal(DS(f).second, 3);
    f = read_iv("1 day", SQL_C_INTERVAL_SECOND);
    assert_rc(f, SQL_SUCCESS, "");
    assert_int_equal(DS(f).second, 86400);
    f = read_iv("1 day 00:30:00", SQL_C_INTERVAL_DAY_TO_MINUTE);
    assert_rc(f, SQL_SUCCESS, "");
    assert_int_equal(DS(f).day, 1);
    assert_int_equal(DS(f).hour, 0);
    assert_int_equal(DS(f).minute, 30);
    f = read_iv("1 day 02:00:00", SQL_C_INTERVAL_HOUR_TO_SECOND);
    assert_int_equal(DS(f).hour, 26);
}

static void year_month_types(void **state)
{
    (void)state;
    fetched f = read_iv("1 year 2 mons", SQL_C_INTERVAL_YEAR_TO_MONTH);
    assert_rc(f, SQL_SUCCESS, "");
    assert_int_equal(f.iv.interval_type, SQL_IS_YEAR_TO_MONTH);
    assert_int_equal(YM(f).year, 1);
    assert_int_equal(YM(f).month, 2);
    f = read_iv("-1 years -2 mons", SQL_C_INTERVAL_MONTH);
    assert_rc(f, SQL_SUCCESS, "");
    assert_int_equal(f.iv.interval_sign, SQL_TRUE);
    assert_int_equal(YM(f).month, 14);
    f = read_iv("3 years", SQL_C_INTERVAL_YEAR);
    assert_rc(f, SQL_SUCCESS, "");
    assert_int_equal(YM(f).year, 3);
}

static void trailing_fields_cut_give_01S07(void **state)
{
    (void)state;
    fetched f = read_iv("1 year 2 mons", SQL_C_INTERVAL_YEAR);
    assert_rc(f, SQL_SUCCESS_WITH_INFO, "01S07");
    assert_int_equal(YM(f).year, 1);
    f = read_iv("3 days 04:00:00", SQL_C_INTERVAL_DAY);
    assert_rc(f, SQL_SUCCESS_WITH_INFO, "01S07");
    assert_int_equal(DS(f).day, 3);
    f = read_iv("00:01:02", SQL_C_INTERVAL_MINUTE);
    assert_rc(f, SQL_SUCCESS_WITH_INFO, "01S07");
    assert_int_equal(DS(f).minute, 1);
    f = read_iv("00:00:02.5", SQL_C_INTERVAL_HOUR_TO_MINUTE);
    assert_rc(f, SQL_SUCCESS_WITH_INFO, "01S07");
    /* Zero trailing fields are no loss. */
    assert_rc(read_iv("5 days", SQL_C_INTERVAL_DAY), SQL_SUCCESS, "");
}

static void seconds_precision_scales_the_fraction(void **state)
{
    (void)state;
    fetched f = read_as("00:00:01.25", SQL_C_INTERVAL_SECOND, 0, 2);
    assert_rc(f, SQL_SUCCESS, "");
    assert_int_equal(DS(f).fraction, 25);
    f = read_as("00:00:01.123456", SQL_C_INTERVAL_SECOND, 0, 3);
    assert_rc(f, SQL_SUCCESS_WITH_INFO, "01S07");
    assert_int_equal(DS(f).fraction, 123);
    f = read_as("00:00:01.5", SQL_C_INTERVAL_DAY_TO_SECOND, 0, 9);
    assert_rc(f, SQL_SUCCESS, "");
    assert_int_equal(DS(f).fraction, 500000000);
    /* Above 9 digits the fraction is still nanoseconds, not a wrap. */
    f = read_as("01:02:03.123456", SQL_C_INTERVAL_HOUR_TO_SECOND, 0, 20);
    assert_rc(f, SQL_SUCCESS, "");
    assert_int_equal(DS(f).second, 3);
    assert_int_equal(DS(f).fraction, 123456000);
}

static void leading_precision_overflow_gives_22015(void **state)
{
    (void)state;
    assert_rc(read_as("100 days", SQL_C_INTERVAL_DAY, 2, 0), SQL_ERROR, "22015");
    assert_rc(read_as("99 days", SQL_C_INTERVAL_DAY, 2, 0), SQL_SUCCESS, "");
    assert_rc(read_as("5 days", SQL_C_INTERVAL_HOUR, 2, 0), SQL_ERROR, "22015");
    assert_rc(read_as("100 years", SQL_C_INTERVAL_YEAR_TO_MONTH, 2, 0), SQL_ERROR, "22015");
    /* Without a precision the struct's 32 bits are the limit. */
    assert_rc(read_iv("2147483647 days", SQL_C_INTERVAL_SECOND), SQL_ERROR, "22015");
    assert_rc(read_iv("2147483647 days", SQL_C_INTERVAL_DAY), SQL_SUCCESS, "");
}

static void mixed_year_month_and_day_time_give_22015(void **state)
{
    (void)state;
    assert_rc(read_iv("1 mon 2 days", SQL_C_INTERVAL_DAY_TO_SECOND), SQL_ERROR, "22015");
    assert_rc(read_iv("1 mon", SQL_C_INTERVAL_DAY), SQL_ERROR, "22015");
    assert_rc(read_iv("1 year 00:00:01", SQL_C_INTERVAL_YEAR_TO_MONTH), SQL_ERROR, "22015");
    assert_rc(read_iv("infinity", SQL_C_INTERVAL_DAY), SQL_ERROR, "22015");
    assert_rc(read_iv("-infinity", SQL_C_INTERVAL_YEAR), SQL_ERROR, "22015");
}

static void text_sources_and_bad_text(void **state)
{
    (void)state;
    SQL_INTERVAL_STRUCT iv;
    SQLLEN len;
    gc_fetch_target t = { .c_type = SQL_C_INTERVAL_DAY_TO_SECOND, .buffer = &iv,
                          .length = &len, .indicator = &len };
    gc_error err;
    const char *std = "4 05:06:07";   /* the SQL standard form */
    assert_int_equal(gc_convert_value_to_c(GC_OID_TEXT, std, strlen(std), false, &t, NULL, &err),
                     SQL_SUCCESS);
    assert_int_equal(iv.intval.day_second.day, 4);
    assert_int_equal(iv.intval.day_second.second, 7);
    const char *verbose = "@ 1 day 2 hours ago";
    assert_int_equal(gc_convert_value_to_c(GC_OID_TEXT, verbose, strlen(verbose), false, &t,
                                           NULL, &err), SQL_SUCCESS);
    assert_int_equal(iv.interval_sign, SQL_TRUE);
    assert_int_equal(iv.intval.day_second.hour, 2);
    assert_rc(read_iv("soon", SQL_C_INTERVAL_DAY), SQL_ERROR, "22018");
    assert_rc(read_iv("1 fortnight", SQL_C_INTERVAL_DAY), SQL_ERROR, "22018");
    assert_rc(read_iv("", SQL_C_INTERVAL_DAY), SQL_ERROR, "22018");
    assert_rc(read_iv("99999999999999999999 days", SQL_C_INTERVAL_DAY), SQL_ERROR, "22018");
    /* NULL needs no parse; the next piece is SQL_NO_DATA. */
    size_t piece = 0;
    len = 0;
    assert_int_equal(gc_convert_value_to_c(GC_OID_INTERVAL, NULL, 0, true, &t, &piece, &err),
                     SQL_SUCCESS);
    assert_int_equal(len, SQL_NULL_DATA);
    assert_int_equal(gc_convert_value_to_c(GC_OID_INTERVAL, "1 day", 5, false, &t, &piece, &err),
                     SQL_NO_DATA);
}

/* ---- parameters ---- */

typedef struct sent {
    SQLRETURN rc;
    char state[6];
    gc_param_value v;
} sent;

static sent send_iv(SQLSMALLINT c_type, SQLSMALLINT sql_type, const SQL_INTERVAL_STRUCT *iv)
{
    sent p;
    gc_error err;
    p.rc = gc_convert_param_from_c(c_type, sql_type, 0, 0, iv, 0, 0, &p.v, &err);
    memcpy(p.state, err.sqlstate, 6);
    return p;
}

static sent send_text(const char *text, SQLSMALLINT sql_type)
{
    sent p;
    gc_error err;
    p.rc = gc_convert_param_from_c(SQL_C_CHAR, sql_type, 0, 0, text, 0, SQL_NTS, &p.v, &err);
    memcpy(p.state, err.sqlstate, 6);
    return p;
}

static void expect_sent(sent p, const char *text)
{
    assert_int_equal(p.rc, SQL_SUCCESS);
    assert_string_equal(p.v.data, text);
    gc_param_value_free(&p.v);
}

static void expect_refused(sent p, const char *state)
{
    assert_int_equal(p.rc, SQL_ERROR);
    assert_string_equal(p.state, state);
    assert_null(p.v.data);
}

static SQL_INTERVAL_STRUCT day_second(SQLUINTEGER d, SQLUINTEGER h, SQLUINTEGER m,
                                      SQLUINTEGER s, SQLUINTEGER frac, bool negative)
{
    SQL_INTERVAL_STRUCT iv;
    memset(&iv, 0, sizeof iv);
    iv.interval_type = SQL_IS_DAY_TO_SECOND;
    iv.interval_sign = negative ? SQL_TRUE : SQL_FALSE;
    iv.intval.day_second = (SQL_DAY_SECOND_STRUCT){ d, h, m, s, frac };
    return iv;
}

static void structs_become_interval_text(void **state)
{
    (void)state;
    SQL_INTERVAL_STRUCT iv = day_second(154, 22, 44, 10, 500000, false);
    sent p = send_iv(SQL_C_INTERVAL_DAY_TO_SECOND, SQL_INTERVAL_DAY_TO_SECOND, &iv);
    assert_int_equal(p.v.type_oid, GC_OID_INTERVAL);
    expect_sent(p, "154 days 22:44:10.5");
    iv = day_second(1, 2, 0, 0, 0, true);
    expect_sent(send_iv(SQL_C_INTERVAL_DAY_TO_HOUR, SQL_INTERVAL_DAY_TO_SECOND, &iv),
                "-1 days -02:00:00");
    iv = day_second(0, 0, 0, 0, 0, false);
    expect_sent(send_iv(SQL_C_INTERVAL_SECOND, SQL_INTERVAL_SECOND, &iv), "00:00:00");
    iv = day_second(0, 0, 0, 90, 0, false);   /* a leading field has no upper range */
    expect_sent(send_iv(SQL_C_INTERVAL_SECOND, SQL_INTERVAL_MINUTE_TO_SECOND, &iv), "00:01:30");
    SQL_INTERVAL_STRUCT ym;
    memset(&ym, 0, sizeof ym);
    ym.interval_type = SQL_IS_YEAR_TO_MONTH;
    ym.interval_sign = SQL_TRUE;
    ym.intval.year_month.year = 2;
    ym.intval.year_month.month = 3;
    expect_sent(send_iv(SQL_C_INTERVAL_YEAR_TO_MONTH, SQL_INTERVAL_YEAR_TO_MONTH, &ym),
                "-2 years -3 mons");
    expect_sent(send_iv(SQL_C_INTERVAL_YEAR_TO_MONTH, SQL_VARCHAR, &ym), "-2 years -3 mons");
    ym.interval_sign = SQL_FALSE;
    ym.intval.year_month.month = 25;
    expect_sent(send_iv(SQL_C_INTERVAL_MONTH, SQL_INTERVAL_YEAR_TO_MONTH, &ym), "2 years 1 mon");
}

static void single_fields_become_numbers(void **state)
{
    (void)state;
    SQL_INTERVAL_STRUCT iv = day_second(0, 0, 0, 0, 0, true);
    iv.intval.day_second.hour = 36;
    expect_sent(send_iv(SQL_C_INTERVAL_HOUR, SQL_INTEGER, &iv), "-36");
    iv = day_second(0, 0, 0, 7, 250000, false);
    expect_sent(send_iv(SQL_C_INTERVAL_SECOND, SQL_NUMERIC, &iv), "7.250000");
    sent p = send_iv(SQL_C_INTERVAL_SECOND, SQL_INTEGER, &iv);
    assert_int_equal(p.rc, SQL_SUCCESS_WITH_INFO);
    assert_string_equal(p.state, "01S07");
    gc_param_value_free(&p.v);
    expect_refused(send_iv(SQL_C_INTERVAL_DAY_TO_HOUR, SQL_INTEGER, &iv), "07006");
}

static void struct_errors(void **state)
{
    (void)state;
    SQL_INTERVAL_STRUCT iv = day_second(1, 24, 0, 0, 0, false);   /* hour 24 after a day */
    expect_refused(send_iv(SQL_C_INTERVAL_DAY_TO_HOUR, SQL_INTERVAL_DAY_TO_HOUR, &iv), "22015");
    iv = day_second(0, 0, 0, 1, 1000000, false);   /* a fraction of a whole second */
    expect_refused(send_iv(SQL_C_INTERVAL_SECOND, SQL_INTERVAL_SECOND, &iv), "22015");
    iv = day_second(154, 22, 44, 10, 0, false);    /* seconds the SQL type has not */
    expect_refused(send_iv(SQL_C_INTERVAL_DAY_TO_SECOND, SQL_INTERVAL_DAY_TO_MINUTE, &iv), "22015");
    iv = day_second(0, 4000000000u, 0, 0, 0, false);
    expect_refused(send_iv(SQL_C_INTERVAL_HOUR, SQL_INTERVAL_DAY, &iv), "22015");
    SQL_INTERVAL_STRUCT ym;
    memset(&ym, 0, sizeof ym);
    ym.intval.year_month.year = 1;
    ym.intval.year_month.month = 12;
    expect_refused(send_iv(SQL_C_INTERVAL_YEAR_TO_MONTH, SQL_INTERVAL_YEAR_TO_MONTH, &ym), "22015");
    /* Year-month and day-time do not mix. */
    ym.intval.year_month.month = 1;
    expect_refused(send_iv(SQL_C_INTERVAL_YEAR_TO_MONTH, SQL_INTERVAL_DAY, &ym), "07006");
    expect_refused(send_iv(SQL_C_INTERVAL_DAY, SQL_INTERVAL_MONTH, &iv), "07006");
    expect_refused(send_iv(SQL_C_INTERVAL_DAY, SQL_TYPE_TIMESTAMP, &iv), "07006");
    expect_refused(send_iv(SQL_C_INTERVAL_DAY, SQL_DOUBLE, &iv), "07006");
}

static void text_parameters_are_checked_against_the_sql_type(void **state)
{
    (void)state;
    expect_sent(send_text("3 days 04:05:06", SQL_INTERVAL_DAY_TO_SECOND), "3 days 04:05:06");
    expect_sent(send_text("1-6", SQL_INTERVAL_YEAR_TO_MONTH), "1 year 6 mons");
    expect_sent(send_text("  -2 hours ", SQL_INTERVAL_HOUR), "-02:00:00");
    expect_sent(send_text("P1DT2H", SQL_INTERVAL_DAY_TO_HOUR), "P1DT2H");   /* server reads ISO 8601 */
    expect_refused(send_text("3 days 04:05:06", SQL_INTERVAL_DAY_TO_MINUTE), "22015");
    expect_refused(send_text("1 mon", SQL_INTERVAL_DAY), "22015");
    expect_refused(send_text("next tuesday", SQL_INTERVAL_DAY), "22018");
    expect_refused(send_text("1:99", SQL_INTERVAL_HOUR_TO_MINUTE), "22018");
}

static void default_c_type_of_an_interval_sql_type_is_its_struct(void **state)
{
    (void)state;
    assert_int_equal(gc_sqltype_default_c_type(SQL_INTERVAL_HOUR_TO_SECOND),
                     SQL_C_INTERVAL_HOUR_TO_SECOND);
    assert_int_equal(gc_sqltype_to_pg_oid(SQL_INTERVAL_YEAR), GC_OID_INTERVAL);
    gc_pgtype_info info;
    gc_pgtype_describe(GC_OID_INTERVAL, -1, &info);
    assert_int_equal(info.sql_type, SQL_VARCHAR);
    assert_int_equal(info.sql_wide_type, SQL_WVARCHAR);
    assert_int_equal(info.column_size, GC_INTERVAL_COLUMN_SIZE);
    SQL_INTERVAL_STRUCT iv = day_second(2, 0, 0, 0, 0, false);
    expect_sent(send_iv(SQL_C_DEFAULT, SQL_INTERVAL_DAY, &iv), "2 days");
}

static void format_round_trips_through_parse(void **state)
{
    (void)state;
    const char *texts[] = { "1 year 2 mons 3 days 04:05:06.789", "-1 years -2 mons",
                            "3 days -04:00:00", "-00:00:00.000001", "00:00:00" };
    for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++) {
        gc_interval iv;
        char buf[GC_INTERVAL_TEXT_MAX];
        assert_true(gc_interval_parse(texts[k], strlen(texts[k]), &iv));
        gc_interval_format(&iv, buf);
        assert_string_equal(buf, texts[k]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(day_to_second_reads_every_field),
        cmocka_unit_test(negative_and_mixed_sign_values_get_one_sign),
        cmocka_unit_test(leading_field_collects_the_larger_units),
        cmocka_unit_test(year_month_types),
        cmocka_unit_test(trailing_fields_cut_give_01S07),
        cmocka_unit_test(seconds_precision_scales_the_fraction),
        cmocka_unit_test(leading_precision_overflow_gives_22015),
        cmocka_unit_test(mixed_year_month_and_day_time_give_22015),
        cmocka_unit_test(text_sources_and_bad_text),
        cmocka_unit_test(structs_become_interval_text),
        cmocka_unit_test(single_fields_become_numbers),
        cmocka_unit_test(struct_errors),
        cmocka_unit_test(text_parameters_are_checked_against_the_sql_type),
        cmocka_unit_test(default_c_type_of_an_interval_sql_type_is_its_struct),
        cmocka_unit_test(format_round_trips_through_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
