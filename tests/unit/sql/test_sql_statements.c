/*
 * gc_sql_statements: the first statement of a text ends at the first `;`
 * outside parentheses, strings, comments and dollar quotes; positional
 * parameters become the literals given, nowhere else; a literal quotes
 * and backslashes so it reads the same under either
 * standard_conforming_strings.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "sql/gc_sql_statements.h"

static size_t first(const char *sql, bool standard_strings)
{
    return gc_sql_first_statement_length(sql, strlen(sql), standard_strings);
}

static void first_statement_ends_at_a_top_level_semicolon(void **state)
{
    (void)state;
    assert_int_equal(first("select 1; select 2", true), 8);
    assert_int_equal(first("select 1", true), 8);
    assert_int_equal(first("select ';' ; select 2", true), 11);
    assert_int_equal(first("select 1 -- ;\n; select 2", true), 14);
    assert_int_equal(first("select $$;$$; select 2", true), 12);
    assert_int_equal(first("select (select 1; ); select 2", true), 19);
    assert_int_equal(first(";; select 1; select 2", true), 11);   /* empty ones skipped */
    /* With standard_conforming_strings off, \' does not end the string. */
    assert_int_equal(first("select 'a\\'; b'; select 2", false), 15);
    assert_int_equal(first("select 'a\\'; b'; select 2", true), 11);
}

static void parameters_become_literals_in_code_only(void **state)
{
    (void)state;
    const char *literals[] = { "E'x'", "NULL::int4" };
    const char *sql = "select $1, '$1', \"$2\", $2 /* $1 */; select $2+$1, $3";
    char *out = gc_sql_substitute_params(sql, strlen(sql), true, literals, 2);
    assert_non_null(out);
    assert_string_equal(out, "select E'x', '$1', \"$2\", NULL::int4 /* $1 */; "
                             "select NULL::int4+E'x', $3");
    free(out);
}

static void literals_survive_either_string_setting(void **state)
{
    (void)state;
    const char value[] = "it's \\ 'quoted'";
    char *lit = gc_sql_quote_literal(value, strlen(value), NULL);
    assert_non_null(lit);
    assert_string_equal(lit, "E'it''s \\\\ ''quoted'''");
    free(lit);
    lit = gc_sql_quote_literal("", 0, "int4");
    assert_string_equal(lit, "E''::int4");
    free(lit);
    /* A literal with a NUL-free value and its length: bytes past it are not read. */
    lit = gc_sql_quote_literal("abc", 2, "text");
    assert_string_equal(lit, "E'ab'::text");
    free(lit);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(first_statement_ends_at_a_top_level_semicolon),
        cmocka_unit_test(parameters_become_literals_in_code_only),
        cmocka_unit_test(literals_survive_either_string_setting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
