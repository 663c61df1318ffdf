/*
 * ODBC escape sequences become PostgreSQL syntax: every escape family, the
 * scalar function table, nesting, markers inside escapes, and the errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "sql/gc_sql_escape_fn.h"
#include "sql/gc_sql_rewrite.h"

static void check_rewrite(unsigned flags, const char *sql, const char *want, unsigned markers)
{
    gc_sql_rewritten out;
    gc_error err;
    if (!gc_sql_rewrite(sql, strlen(sql), flags, &out, &err))
        fail_msg("%s: failed with %s: %s", sql, err.sqlstate, err.message);
    if (strcmp(out.text, want) != 0)
        fail_msg("rewrote\n  %s\ninto\n  %s\nexpected\n  %s", sql, out.text, want);
    assert_int_equal(out.marker_count, markers);
    gc_sql_rewritten_free(&out);
}

#define ESC(sql, want) check_rewrite(GC_SQL_TRANSLATE_ESCAPES, sql, want, 0)
#define BOTH GC_SQL_TRANSLATE_ESCAPES | GC_SQL_MARKERS_TO_DOLLAR

/* The rewrite of sql must fail with sqlstate and a message containing `part`. */
static void check_error(const char *sql, const char *sqlstate, const char *part)
{
    gc_sql_rewritten out;
    gc_error err;
    if (gc_sql_rewrite(sql, strlen(sql), BOTH, &out, &err))
        fail_msg("%s: rewrote into '%s', expected error %s", sql, out.text, sqlstate);
    if (strcmp(err.sqlstate, sqlstate) != 0 || strstr(err.message, part) == NULL)
        fail_msg("%s: got %s '%s', expected %s '...%s...'", sql, err.sqlstate, err.message,
                 sqlstate, part);
    assert_null(out.text);
}

/* @@IDENTITY where it stands as a value becomes lastval(); @@ as the
 * text-search operator, inside strings or without escapes is left alone. */
static void test_identity_becomes_lastval(void **state)
{
    (void)state;
    ESC("SELECT @@IDENTITY AS last_insert", "SELECT lastval() AS last_insert");
    ESC("select 1,@@identity", "select 1,lastval()");
    ESC("select (@@Identity)+1", "select (lastval())+1");
    ESC("select id = @@identity", "select id = lastval()");
    ESC("select doc @@identity", "select doc @@identity");
    ESC("select doc@@identity from t", "select doc@@identity from t");
    ESC("select @@ identity", "select @@ identity");
    ESC("select '@@identity', \"@@identity\"", "select '@@identity', \"@@identity\"");
    ESC("select @@identityx", "select @@identityx");
    check_rewrite(GC_SQL_MARKERS_TO_DOLLAR, "select @@identity, ?", "select @@identity, $1", 1);
}

static void test_date_time_timestamp_literals(void **state)
{
    (void)state;
    ESC("select {d '2024-02-29'}", "select DATE '2024-02-29'");
    ESC("select {t '13:14:15'}", "select TIME '13:14:15'");
    ESC("select {ts '2024-02-29 13:14:15.5'}", "select TIMESTAMP '2024-02-29 13:14:15.5'");
    ESC("select {D'2024-01-01'}, { TS  '2024-01-01 00:00:00' }",
        "select DATE '2024-01-01', TIMESTAMP '2024-01-01 00:00:00'");
    ESC("where d={d '2024-01-01'}and x", "where d=DATE '2024-01-01'and x");
}

static void test_guid_interval_escape_and_outer_join(void **state)
{
    (void)state;
    ESC("select {guid '6F9619FF-8B86-D011-B42D-00C04FC964FF'}",
        "select CAST('6F9619FF-8B86-D011-B42D-00C04FC964FF' AS uuid)");
    ESC("select {interval '3' day}", "select INTERVAL '3' day");
    ESC("select {INTERVAL '1:30' HOUR TO MINUTE}", "select INTERVAL '1:30' HOUR TO MINUTE");
    ESC("select {interval -'3' day}", "select (-INTERVAL '3' day)");
    ESC("select * from t where a like 'x\\_%' {escape '\\'}",
        "select * from t where a like 'x\\_%' ESCAPE '\\'");
    ESC("select * from {oj a left outer join b on a.id = b.id} where 1=1",
        "select * from a left outer join b on a.id = b.id where 1=1");
    ESC("select * from {oj a left join {oj b left join c on b.x=c.x} on a.y=b.y}",
        "select * from a left join b left join c on b.x=c.x on a.y=b.y");
}

static void test_call_escapes(void **state)
{
    (void)state;
    ESC("{call proc(1, 'a')}", "SELECT * FROM proc(1, 'a')");
    ESC("{ CALL myschema.proc }", "SELECT * FROM myschema.proc()");
    ESC("{call \"My Proc\"()}", "SELECT * FROM \"My Proc\"()");
    check_rewrite(BOTH, "{call p(?, {fn ucase(?)})}", "SELECT * FROM p($1, upper($2))", 2);
}

/* {?= call}: the result marker is parameter 1 but not in the text; the
 * statement layer learns that the text is one call and has a result. */
static void test_return_value_call_counts_its_marker(void **state)
{
    (void)state;
    check_rewrite(BOTH, "{?= call f(?)}", "SELECT * FROM f($2)", 2);
    check_rewrite(BOTH, "{ ? = call f}", "SELECT * FROM f()", 1);
    gc_sql_rewritten out;
    gc_error err;
    assert_true(gc_sql_rewrite("  {?=call s.f(?, 1)} ;", strlen("  {?=call s.f(?, 1)} ;"), BOTH, &out, &err));
    assert_true(out.call_escape && out.return_value);
    gc_sql_rewritten_free(&out);
    assert_true(gc_sql_rewrite("{call p(?)}", strlen("{call p(?)}"), BOTH, &out, &err));
    assert_true(out.call_escape && !out.return_value);
    gc_sql_rewritten_free(&out);
    assert_true(gc_sql_rewrite("select 1; {call p(?)}", strlen("select 1; {call p(?)}"), BOTH, &out, &err));
    assert_false(out.call_escape);
    gc_sql_rewritten_free(&out);
    check_error("{?= f(?)}", "42000", "expected call after '?='");
    check_error("{? call f}", "42000", "expected '=' after the result marker");
}

static void test_string_functions(void **state)
{
    (void)state;
    ESC("{fn ASCII(s)}", "ascii(s)");
    ESC("{fn CHAR(65)}", "chr(65)");
    ESC("{fn CONCAT('a', b)}", "('a' || b)");
    ESC("{fn INSERT(s, 2, 3, 'xyz')}", "overlay(s placing 'xyz' from 2 for 3)");
    ESC("{fn LCASE(s)} {fn ucase(s)}", "lower(s) upper(s)");
    ESC("{fn LEFT(s, 2)} {fn RIGHT(s, 2)}", "left(s, 2) right(s, 2)");
    ESC("{fn LENGTH(s)}", "char_length(rtrim(s))");
    ESC("{fn LOCATE('b', s)}", "strpos(s, 'b')");
    ESC("{fn LOCATE('b', s, 3)}",
        "(SELECT coalesce(nullif(strpos(substr(s, gc_start), 'b'), 0) + gc_start - 1, 0)"
        " FROM CAST(3 AS integer) AS gc_start)");
    ESC("{fn LTRIM(s)} {fn RTRIM(s)}", "ltrim(s) rtrim(s)");
    ESC("{fn REPEAT(s, 3)} {fn REPLACE(s, 'a', 'b')}", "repeat(s, 3) replace(s, 'a', 'b')");
    ESC("{fn SPACE(4)}", "repeat(' ', 4)");
    ESC("{fn SUBSTRING(s, 2)} {fn SUBSTRING(s, 2, 3)}", "substr(s, 2) substr(s, 2, 3)");
    ESC("{fn BIT_LENGTH(s)} {fn CHAR_LENGTH(s)} {fn OCTET_LENGTH(s)}",
        "bit_length(s) char_length(s) octet_length(s)");
    ESC("{fn POSITION('b' IN s)}", "position('b' IN s)");
}

static void test_numeric_functions(void **state)
{
    (void)state;
    ESC("{fn ABS(-1)} {fn CEILING(x)} {fn FLOOR(x)}", "abs(-1) ceiling(x) floor(x)");
    ESC("{fn ROUND(x, 2)} {fn TRUNCATE(x, 1)}",
        "round(CAST(x AS numeric), 2) trunc(CAST(x AS numeric), 1)");
    ESC("{fn MOD(7, 3)} {fn POWER(2, 8)} {fn SQRT(x)} {fn EXP(x)}",
        "mod(7, 3) power(2, 8) sqrt(x) exp(x)");
    ESC("{fn LOG(x)} {fn LOG10(x)} {fn PI()} {fn RAND()} {fn SIGN(x)}",
        "ln(x) log(x) pi() random() sign(x)");
    ESC("{fn SIN(x)} {fn COS(x)} {fn TAN(x)} {fn COT(x)} {fn ATAN2(y, x)}",
        "sin(x) cos(x) tan(x) cot(x) atan2(y, x)");
    ESC("{fn DEGREES(x)} {fn RADIANS(x)}", "degrees(x) radians(x)");
}

static void test_time_and_date_functions(void **state)
{
    (void)state;
    ESC("{fn NOW()} {fn CURDATE()} {fn CURTIME()}", "now() current_date current_time");
    ESC("{fn CURRENT_DATE()} {fn CURRENT_TIME(3)} {fn CURRENT_TIMESTAMP}",
        "current_date current_time(3) current_timestamp");
    ESC("{fn DAYOFMONTH(d)}", "CAST(extract(day FROM CAST(d AS timestamp)) AS integer)");
    ESC("{fn DAYOFWEEK(d)}", "CAST(extract(dow FROM CAST(d AS timestamp)) + 1 AS integer)");
    ESC("{fn DAYOFYEAR(d)} {fn MONTH(d)} {fn YEAR(d)}",
        "CAST(extract(doy FROM CAST(d AS timestamp)) AS integer) CAST(extract(month FROM CAST(d AS timestamp)) AS integer) "
        "CAST(extract(year FROM CAST(d AS timestamp)) AS integer)");
    ESC("{fn HOUR(t)} {fn MINUTE(t)} {fn SECOND(t)}",
        "CAST(extract(hour FROM CAST(t AS time)) AS integer) CAST(extract(minute FROM CAST(t AS time)) AS integer) "
        "CAST(floor(extract(second FROM CAST(t AS time))) AS integer)");
    ESC("{fn QUARTER(d)} {fn WEEK(d)}",
        "CAST(extract(quarter FROM CAST(d AS timestamp)) AS integer) CAST(extract(week FROM CAST(d AS timestamp)) AS integer)");
    ESC("{fn DAYNAME(d)} {fn MONTHNAME(d)}",
        "to_char(CAST(d AS timestamp), 'FMDay') to_char(CAST(d AS timestamp), 'FMMonth')");
}

static void test_timestampadd_and_timestampdiff(void **state)
{
    (void)state;
    ESC("{fn TIMESTAMPADD(SQL_TSI_DAY, 3, ts)}",
        "(CAST(ts AS timestamp) + (3) * INTERVAL '1 day')");
    ESC("{fn timestampadd(sql_tsi_quarter, n, ts)}",
        "(CAST(ts AS timestamp) + (n) * INTERVAL '3 months')");
    ESC("{fn TIMESTAMPADD(SQL_TSI_FRAC_SECOND, 5000, ts)}",
        "(CAST(ts AS timestamp) + (5000) / 1000.0 * INTERVAL '1 microsecond')");
    ESC("{fn TIMESTAMPDIFF(SQL_TSI_SECOND, a, b)}",
        "CAST(trunc(extract(epoch FROM CAST(b AS timestamp) - CAST(a AS timestamp))) AS bigint)");
    ESC("{fn TIMESTAMPDIFF(SQL_TSI_HOUR, a, b)}",
        "CAST(trunc(extract(epoch FROM CAST(b AS timestamp) - CAST(a AS timestamp)) / 3600) AS bigint)");
    ESC("{fn TIMESTAMPDIFF(SQL_TSI_MONTH, a, b)}",
        "(SELECT CAST(trunc((extract(year FROM gc_age) * 12 + extract(month FROM gc_age)))"
        " AS bigint) FROM age(CAST(b AS timestamp), CAST(a AS timestamp)) AS gc_age)");
    ESC("{fn TIMESTAMPDIFF(SQL_TSI_YEAR, a, b)}",
        "CAST(extract(year FROM age(CAST(b AS timestamp), CAST(a AS timestamp))) AS bigint)");
}

static void test_system_and_conversion_functions(void **state)
{
    (void)state;
    ESC("{fn DATABASE()} {fn USER()} {fn IFNULL(a, 0)}",
        "current_database() current_user coalesce(a, 0)");
    ESC("{fn CONVERT(x, SQL_INTEGER)}", "CAST(x AS integer)");
    ESC("{fn CONVERT(x, SQL_VARCHAR)} {fn convert(x, sql_double)}",
        "CAST(x AS varchar) CAST(x AS double precision)");
    ESC("{fn CONVERT('2024-01-01', SQL_TYPE_DATE)}", "CAST('2024-01-01' AS date)");
    ESC("{fn CONVERT(x, SQL_INTERVAL_DAY_TO_SECOND)}", "CAST(x AS interval)");
}

static void test_unknown_functions_pass_through(void **state)
{
    (void)state;
    ESC("{fn SOUNDEX(s)}", "SOUNDEX(s)");
    ESC("{fn my_func(a,  'b' , 3)}", "my_func(a, 'b', 3)");
    ESC("{fn pg_catalog.upper(s)}", "pg_catalog.upper(s)");
    ESC("{fn nothing}", "nothing");
}

static void test_escapes_nest_and_number_markers_in_source_order(void **state)
{
    (void)state;
    ESC("{fn UCASE({fn LTRIM({fn CONCAT(a, b)})})}", "upper(ltrim((a || b)))");
    ESC("{fn IFNULL({d '2024-01-01'}, {fn CURDATE()})}", "coalesce(DATE '2024-01-01', current_date)");
    /* LOCATE reorders its arguments; the markers keep their source numbers. */
    check_rewrite(BOTH, "select {fn LOCATE(?, ?)}, ?", "select strpos($2, $1), $3", 3);
    check_rewrite(BOTH, "select {fn CONCAT(?, {fn SUBSTRING(?, 1, 2)})} where x = ?",
                  "select ($1 || substr($2, 1, 2)) where x = $3", 3);
    /* Commas and parentheses inside an argument belong to it. */
    ESC("{fn IFNULL(f(a, (b)), g(c))}", "coalesce(f(a, (b)), g(c))");
}

static void test_escapes_are_case_insensitive(void **state)
{
    (void)state;
    ESC("{FN UCASE(s)} {Fn Ucase(s)} {OJ a}", "upper(s) upper(s) a");
}

static void test_escapes_inside_quoted_contexts_are_untouched(void **state)
{
    (void)state;
    ESC("select '{fn ucase(x)}', \"{d\", $$ {ts '1'} $$, E'{\\'}' -- {oj\n",
        "select '{fn ucase(x)}', \"{d\", $$ {ts '1'} $$, E'{\\'}' -- {oj\n");
    ESC("select /* { */ {fn ucase('}')}", "select /* { */ upper('}')");
    /* Without the flag, braces are left alone. */
    check_rewrite(GC_SQL_MARKERS_TO_DOLLAR, "select {fn ucase(?)}", "select {fn ucase($1)}", 1);
}

static void test_comments_inside_escapes_are_kept_safely(void **state)
{
    (void)state;
    /* A line comment keeps its newline even where whitespace is trimmed. */
    ESC("{fn UCASE(x -- c\n)}", "upper(x -- c\n)");
    ESC("{fn /* name */ UCASE(x)}", "upper(x)");
}

static void test_generated_words_stay_apart_from_neighbours(void **state)
{
    (void)state;
    ESC("select{fn CURDATE()}from t", "select current_date from t");
    ESC("select 1 where x={fn USER()}and y", "select 1 where x=current_user and y");
}

static void test_malformed_escapes_fail_with_42000_and_offset(void **state)
{
    (void)state;
    check_error("select {fn ucase(x)", "42000", "offset 7: unterminated escape");
    check_error("select {fn ucase(x}", "42000", "offset 18: '}' without a matching '{'");
    check_error("select {d 2024}", "42000", "offset 10: expected a quoted literal");
    check_error("select {d '2024-01-01' x}", "42000", "offset 23: expected '}'");
    check_error("select {foo 1}", "42000", "offset 7: unknown escape '{foo'");
    check_error("select x }", "42000", "offset 9: '}' without a matching '{'");
    check_error("select {}", "42000", "offset 8: expected an escape keyword");
    check_error("select {fn}", "42000", "offset 10: expected a function name");
    check_error("select {fn f(a,)}", "42000", "offset 15: empty function argument");
    check_error("select {call}", "42000", "offset 12: expected a procedure name");
    check_error("select {oj}", "42000", "offset 7: empty outer join");
    check_error("select {", "42000", "offset 7: unterminated escape");
    check_error("select {fn ucase('a)}", "42601", "unterminated string literal starting at offset 17");
}

static void test_wrong_arguments_to_known_functions_fail(void **state)
{
    (void)state;
    check_error("select {fn UCASE(a, b)}", "42000", "UCASE does not take 2 arguments");
    check_error("select {fn RAND(5)}", "42000", "RAND does not take 1 argument");
    check_error("select {fn CONVERT(x, SQL_NOPE)}", "42000", "unknown ODBC data type 'SQL_NOPE'");
    check_error("select {fn TIMESTAMPADD(SQL_TSI_FORTNIGHT, 1, t)}", "42000",
                "unknown interval 'SQL_TSI_FORTNIGHT'");
    check_error("select {fn UCASE(a, b)}", "42000", "(ODBC escape at offset 7)");
}

static void test_deeply_nested_escapes_fail_instead_of_overflowing(void **state)
{
    (void)state;
    char sql[4096] = "select ";
    for (int i = 0; i < 200; i++)
        strcat(sql, "{fn f(");
    check_error(sql, "42000", "nested too deeply");
}

/* No form may name an argument twice (it would duplicate a `?` for
 * SQLNativeSql) or name one the row does not have. */
static void test_function_forms_use_each_argument_at_most_once(void **state)
{
    (void)state;
    size_t n = gc_sql_escape_function_count();
    assert_true(n > 60);
    for (size_t i = 0; i < n; i++) {
        const gc_sql_fn_mapping *row = gc_sql_escape_function_at(i);
        if (row->postgres_form == NULL)
            continue;
        int uses[10] = {0};
        for (const char *p = row->postgres_form; *p; p++)
            if (p[0] == '%' && p[1] >= '1' && p[1] <= '9')
                uses[p[1] - '0']++;
        for (int a = 1; a <= 9; a++) {
            if (uses[a] > 1)
                fail_msg("%s/%d uses %%%d twice", row->odbc_name, row->nargs, a);
            if (a <= row->nargs && uses[a] != 1)
                fail_msg("%s/%d never uses %%%d", row->odbc_name, row->nargs, a);
            if (a > row->nargs && uses[a] != 0)
                fail_msg("%s/%d uses %%%d beyond its arguments", row->odbc_name, row->nargs, a);
        }
    }
    assert_null(gc_sql_escape_function_at(n));
}

static void test_native_sql_keeps_marker_count_through_every_function(void **state)
{
    (void)state;
    /* Every row applied to `?` arguments keeps exactly nargs markers. */
    for (size_t i = 0; i < gc_sql_escape_function_count(); i++) {
        const gc_sql_fn_mapping *row = gc_sql_escape_function_at(i);
        char sql[256];
        int len = snprintf(sql, sizeof sql, "{fn %s(", row->odbc_name);
        for (int a = 0; a < row->nargs; a++) {
            const char *arg = "?";
            if (a == 0 && strncmp(row->odbc_name, "TIMESTAMP", 9) == 0)
                arg = "SQL_TSI_DAY";
            if (a == 1 && strcmp(row->odbc_name, "CONVERT") == 0)
                arg = "SQL_INTEGER";
            len += snprintf(sql + len, sizeof sql - (size_t)len, "%s%s", a ? ", " : "", arg);
        }
        snprintf(sql + len, sizeof sql - (size_t)len, ")}");
        gc_sql_rewritten out, again;
        gc_error err;
        if (!gc_sql_rewrite(sql, strlen(sql), GC_SQL_TRANSLATE_ESCAPES, &out, &err))
            fail_msg("%s: %s", sql, err.message);
        /* Count the markers in the result by rewriting it once more. */
        assert_true(gc_sql_rewrite(out.text, out.length, 0, &again, &err));
        if (again.marker_count != out.marker_count)
            fail_msg("%s -> %s: %u markers became %u", sql, out.text, out.marker_count,
                     again.marker_count);
        gc_sql_rewritten_free(&again);
        gc_sql_rewritten_free(&out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_date_time_timestamp_literals),
        cmocka_unit_test(test_guid_interval_escape_and_outer_join),
        cmocka_unit_test(test_call_escapes),
        cmocka_unit_test(test_return_value_call_counts_its_marker),
        cmocka_unit_test(test_string_functions),
        cmocka_unit_test(test_numeric_functions),
        cmocka_unit_test(test_time_and_date_functions),
        cmocka_unit_test(test_timestampadd_and_timestampdiff),
        cmocka_unit_test(test_system_and_conversion_functions),
        cmocka_unit_test(test_unknown_functions_pass_through),
        cmocka_unit_test(test_escapes_nest_and_number_markers_in_source_order),
        cmocka_unit_test(test_escapes_are_case_insensitive),
        cmocka_unit_test(test_escapes_inside_quoted_contexts_are_untouched),
        cmocka_unit_test(test_comments_inside_escapes_are_kept_safely),
        cmocka_unit_test(test_generated_words_stay_apart_from_neighbours),
        cmocka_unit_test(test_malformed_escapes_fail_with_42000_and_offset),
        cmocka_unit_test(test_wrong_arguments_to_known_functions_fail),
        cmocka_unit_test(test_deeply_nested_escapes_fail_instead_of_overflowing),
        cmocka_unit_test(test_function_forms_use_each_argument_at_most_once),
        cmocka_unit_test(test_native_sql_keeps_marker_count_through_every_function),
        cmocka_unit_test(test_identity_becomes_lastval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
