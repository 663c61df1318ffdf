/*
 * `?` markers become $1, $2, ... outside strings, comments, quoted
 * identifiers and dollar quotes, and nowhere else.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "sql/gc_sql_rewrite.h"

/* Rewrites sql with flags and checks the text and the marker count. */
static void check_rewrite(unsigned flags, const char *sql, const char *want, unsigned markers)
{
    gc_sql_rewritten out;
    gc_error err;
    if (!gc_sql_rewrite(sql, strlen(sql), flags, &out, &err))
        fail_msg("%s: failed with %s: %s", sql, err.sqlstate, err.message);
    if (strcmp(out.text, want) != 0)
        fail_msg("rewrote\n  %s\ninto\n  %s\nexpected\n  %s", sql, out.text, want);
    assert_int_equal(out.length, strlen(want));
    assert_int_equal(out.marker_count, markers);
    gc_sql_rewritten_free(&out);
    assert_null(out.text);
}

#define MARKERS(sql, want, n) check_rewrite(GC_SQL_MARKERS_TO_DOLLAR, sql, want, n)

static void test_markers_are_numbered_in_order(void **state)
{
    (void)state;
    MARKERS("select * from t where a = ? and b in (?, ?)",
            "select * from t where a = $1 and b in ($2, $3)", 3);
    MARKERS("insert into t values(?,?,?)", "insert into t values($1,$2,$3)", 3);
    MARKERS("update t set a=? where b<>?", "update t set a=$1 where b<>$2", 2);
    MARKERS("select 1", "select 1", 0);
    MARKERS("", "", 0);
    MARKERS("  select ?  \n", "  select $1  \n", 1);
}

static void test_markers_inside_strings_are_untouched(void **state)
{
    (void)state;
    MARKERS("select 'a?b', ? from t", "select 'a?b', $1 from t", 1);
    MARKERS("select 'it''s ?', ?", "select 'it''s ?', $1", 1);
    MARKERS("select E'\\'?', ?", "select E'\\'?', $1", 1);
    MARKERS("select E'\\\\', ?, '?'", "select E'\\\\', $1, '?'", 1);
    /* Standard strings: a backslash does not escape the quote. */
    MARKERS("select '\\', ?", "select '\\', $1", 1);
    MARKERS("select U&'?', N'?', B'1', X'?', ?", "select U&'?', N'?', B'1', X'?', $1", 1);
}

static void test_markers_inside_dollar_quotes_are_untouched(void **state)
{
    (void)state;
    MARKERS("select $$ ? $$, ?", "select $$ ? $$, $1", 1);
    MARKERS("select $fn$ a ? $x$ ? $ $fn$, ?", "select $fn$ a ? $x$ ? $ $fn$, $1", 1);
    MARKERS("do $body$ begin perform '?'; end $body$", "do $body$ begin perform '?'; end $body$", 0);
    MARKERS("select a$b, ?", "select a$b, $1", 1);
}

static void test_markers_inside_quoted_identifiers_are_untouched(void **state)
{
    (void)state;
    MARKERS("select \"a?\", \"x\"\"?\"\"\" from t where c = ?",
            "select \"a?\", \"x\"\"?\"\"\" from t where c = $1", 1);
    MARKERS("select U&\"?\" from t where c = ?", "select U&\"?\" from t where c = $1", 1);
}

static void test_markers_inside_comments_are_untouched(void **state)
{
    (void)state;
    MARKERS("select ? -- why?\n, ?", "select $1 -- why?\n, $2", 2);
    MARKERS("select /* ? /* nested ? */ still ? */ ?", "select /* ? /* nested ? */ still ? */ $1", 1);
    MARKERS("select ? -- trailing ?", "select $1 -- trailing ?", 1);
}

static void test_question_operators_are_not_markers(void **state)
{
    (void)state;
    MARKERS("select j ?| array['a'] from t where k = ?",
            "select j ?| array['a'] from t where k = $1", 1);
    MARKERS("select j ?& array['a'], p ?# q, a ?-| b, j @? '$.a' where x=?",
            "select j ?& array['a'], p ?# q, a ?-| b, j @? '$.a' where x=$1", 1);
    /* A marker followed by || is concatenation, not the ?|| operator. */
    MARKERS("select ?||'x'", "select $1||'x'", 1);
}

static void test_markers_next_to_casts_and_operators(void **state)
{
    (void)state;
    MARKERS("select ?::int, ?::text[]", "select $1::int, $2::text[]", 2);
    MARKERS("select a=?and b=?", "select a=$1 and b=$2", 2);
    MARKERS("select -?, ?-1", "select -$1, $2-1", 2);
    MARKERS("select ??", "select $1 $2", 2);
    /* A marker right after a word must not join it ("limit$1" is an identifier). */
    MARKERS("select 1 limit?", "select 1 limit $1", 1);
}

static void test_positional_parameters_pass_through(void **state)
{
    (void)state;
    gc_sql_rewritten out;
    gc_error err;
    const char *sql = "select $2, $1 from t where a = $12 and b = '?'";
    assert_true(gc_sql_rewrite(sql, strlen(sql), GC_SQL_MARKERS_TO_DOLLAR, &out, &err));
    assert_string_equal(out.text, sql);
    assert_int_equal(out.marker_count, 0);
    assert_int_equal(out.max_positional, 12);
    assert_int_equal(out.param_count, 12);
    gc_sql_rewritten_free(&out);
}

static void test_markers_mixed_with_positional_parameters_are_refused(void **state)
{
    (void)state;
    gc_sql_rewritten out;
    gc_error err;
    const char *sql = "select $1, ?";
    assert_false(gc_sql_rewrite(sql, strlen(sql), GC_SQL_MARKERS_TO_DOLLAR, &out, &err));
    assert_string_equal(err.sqlstate, "42000");
    assert_non_null(strstr(err.message, "mixes"));
    assert_null(out.text);
}

static void test_without_the_flag_markers_are_kept_and_counted(void **state)
{
    (void)state;
    check_rewrite(0, "select ?, '?', ?", "select ?, '?', ?", 2);
    check_rewrite(GC_SQL_TRANSLATE_ESCAPES, "select ?, {fn ucase(?)}", "select ?, upper(?)", 2);
}

static void test_param_count_is_the_marker_count(void **state)
{
    (void)state;
    gc_sql_rewritten out;
    gc_error err;
    const char *sql = "select ?, ?, ?";
    assert_true(gc_sql_rewrite(sql, strlen(sql), GC_SQL_MARKERS_TO_DOLLAR, &out, &err));
    assert_int_equal(out.param_count, 3);
    assert_int_equal(out.max_positional, 0);
    gc_sql_rewritten_free(&out);
}

static void test_markers_follow_a_server_without_standard_strings(void **state)
{
    (void)state;
    unsigned off = GC_SQL_MARKERS_TO_DOLLAR | GC_SQL_BACKSLASH_STRINGS;
    /* 'it\'s ?' is one literal: its ? is no marker */
    check_rewrite(off, "select 'it\\'s ?', ?", "select 'it\\'s ?', $1", 1);
    check_rewrite(off, "select N'\\'?', ?", "select N'\\'?', $1", 1);
    check_rewrite(off, "select 'a\\\\', ?", "select 'a\\\\', $1", 1);
    /* with standard strings the same text ends its literal at \' */
    gc_sql_rewritten out;
    gc_error err;
    const char *text = "select 'it\\'s ?', ?";
    assert_false(gc_sql_rewrite(text, strlen(text), GC_SQL_MARKERS_TO_DOLLAR, &out, &err));
    assert_string_equal(err.sqlstate, "42601");
    /* and an unterminated string is still refused */
    text = "select 'a\\'";
    assert_false(gc_sql_rewrite(text, strlen(text), off, &out, &err));
    assert_string_equal(err.sqlstate, "42601");
}

static void test_unterminated_tokens_fail_with_42601(void **state)
{
    (void)state;
    static const struct { const char *sql; const char *what; } cases[] = {
        {"select 'abc", "unterminated string literal starting at offset 7"},
        {"select E'ab\\'", "unterminated escape string literal starting at offset 7"},
        {"select \"ab", "unterminated quoted identifier starting at offset 7"},
        {"select $x$ ab $y$", "unterminated dollar-quoted string starting at offset 7"},
        {"select 1 /* a /* b */", "unterminated block comment starting at offset 9"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gc_sql_rewritten out;
        gc_error err;
        assert_false(gc_sql_rewrite(cases[i].sql, strlen(cases[i].sql),
                                    GC_SQL_MARKERS_TO_DOLLAR | GC_SQL_TRANSLATE_ESCAPES,
                                    &out, &err));
        assert_string_equal(err.sqlstate, "42601");
        assert_string_equal(err.message, cases[i].what);
        assert_null(out.text);
        gc_sql_rewritten_free(&out);   /* harmless on a failed result */
    }
}

static void test_length_bounds_the_input(void **state)
{
    (void)state;
    gc_sql_rewritten out;
    gc_error err;
    const char sql[] = "select ?' junk after the statement";
    assert_true(gc_sql_rewrite(sql, 8, GC_SQL_MARKERS_TO_DOLLAR, &out, &err));
    assert_string_equal(out.text, "select $1");
    gc_sql_rewritten_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_markers_are_numbered_in_order),
        cmocka_unit_test(test_markers_follow_a_server_without_standard_strings),
        cmocka_unit_test(test_markers_inside_strings_are_untouched),
        cmocka_unit_test(test_markers_inside_dollar_quotes_are_untouched),
        cmocka_unit_test(test_markers_inside_quoted_identifiers_are_untouched),
        cmocka_unit_test(test_markers_inside_comments_are_untouched),
        cmocka_unit_test(test_question_operators_are_not_markers),
        cmocka_unit_test(test_markers_next_to_casts_and_operators),
        cmocka_unit_test(test_positional_parameters_pass_through),
        cmocka_unit_test(test_markers_mixed_with_positional_parameters_are_refused),
        cmocka_unit_test(test_without_the_flag_markers_are_kept_and_counted),
        cmocka_unit_test(test_param_count_is_the_marker_count),
        cmocka_unit_test(test_unterminated_tokens_fail_with_42601),
        cmocka_unit_test(test_length_bounds_the_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
