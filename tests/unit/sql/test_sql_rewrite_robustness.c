/*
 * Truncated and random inputs never crash the lexer or the rewriter, and
 * the results keep their invariants: tokens tile the text (only whitespace
 * between them), a rewrite without flags is the identity, and after marker
 * rewriting the text holds exactly the positional parameters $1..$n.
 * Run it under AddressSanitizer (GC_SANITIZE=ON) for the full value.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "sql/gc_sql_lexer.h"
#include "sql/gc_sql_rewrite.h"

static const char *const tricky[] = {
    "select 'it''s ?', E'\\'?', ? from \"a \"\"?\"\"\" where x = ? -- c ?\n and y = ?",
    "select $$ ? $$, $tag$ a $x$ ? $ta $tag$, a$b$, $1, ? /* /* ? */ ? */ ?",
    "select j ?| array['a'], j ?& b, j @? '$.x', ?::int, ?||'x', ??, a=?and b<>?",
    "select {fn CONCAT({fn UCASE(?)}, {fn LOCATE('a', ?, 2)})}, {d '2024-01-01'}, {ts '2024-01-01 00:00:00'}",
    "select * from {oj a left join b on a.x = {fn IFNULL(b.x, ?)}} where c like ? {escape '\\'}",
    "{call p(?, {fn TIMESTAMPDIFF(SQL_TSI_MONTH, ?, {fn NOW()})}, U&'\\0041', B'01', X'1f', N'n')}",
    "{?= call f(?)}",
    "select 1.5e10, .5, 1..2, 1e, $1, $ $, u&\"x\", {interval -'1' day}, {guid 'a'}, {fn CONVERT(?, SQL_BIGINT)}",
    "select x from t where a = ? and b = 'x\n?' and c = $q$\n?\n$q$ -- ?\r\n and d = ?",
};

/* The tokens of text lie in order, inside it, never empty, separated only by
 * whitespace; only the last may be unterminated. */
static void check_token_tiling(const char *text, size_t len)
{
    gc_sql_lexer lx;
    gc_sql_token tok;
    size_t pos = 0;
    bool saw_unterminated = false;
    gc_sql_lexer_init(&lx, text, len);
    while (gc_sql_lexer_next(&lx, &tok)) {
        assert_false(saw_unterminated);
        assert_true(tok.length > 0);
        assert_true(tok.offset >= pos);
        assert_true(tok.offset + tok.length <= len);
        for (size_t i = pos; i < tok.offset; i++)
            assert_non_null(strchr(" \t\n\r\f\v", text[i]));
        pos = tok.offset + tok.length;
        saw_unterminated = tok.unterminated;
        if (tok.unterminated)
            assert_int_equal(pos, len);
    }
    for (size_t i = pos; i < len; i++)
        assert_non_null(strchr(" \t\n\r\f\v", text[i]));
}

static bool known_failure(const gc_error *err)
{
    static const char *const states[] = {"42601", "42000", "HYC00", "22021"};
    for (size_t i = 0; i < sizeof states / sizeof states[0]; i++)
        if (strcmp(err->sqlstate, states[i]) == 0)
            return err->message[0] != '\0';
    return false;
}

/* Every way of rewriting text either succeeds with invariants intact or
 * fails with a known SQLSTATE. */
static void check_rewrite_invariants(const char *text, size_t len)
{
    gc_sql_rewritten out;
    gc_error err;

    /* No flags: identity. */
    if (gc_sql_rewrite(text, len, 0, &out, &err)) {
        assert_int_equal(out.length, len);
        assert_memory_equal(out.text, text, len);
        assert_int_equal(out.text[len], '\0');
        gc_sql_rewritten_free(&out);
    } else {
        assert_true(known_failure(&err));
    }

    /* Markers: the output reads back with no `?` and n positional parameters. */
    if (gc_sql_rewrite(text, len, GC_SQL_MARKERS_TO_DOLLAR, &out, &err)) {
        gc_sql_rewritten again;
        assert_int_equal(out.text[out.length], '\0');
        assert_true(gc_sql_rewrite(out.text, out.length, 0, &again, &err));
        assert_int_equal(again.marker_count, 0);
        assert_int_equal(again.max_positional, out.param_count);
        gc_sql_rewritten_free(&again);
        gc_sql_rewritten_free(&out);
    } else {
        assert_true(known_failure(&err));
    }

    /* Escapes and markers: the output is valid input again. */
    if (gc_sql_rewrite(text, len, GC_SQL_MARKERS_TO_DOLLAR | GC_SQL_TRANSLATE_ESCAPES,
                       &out, &err)) {
        gc_sql_rewritten again;
        assert_true(gc_sql_rewrite(out.text, out.length, 0, &again, &err));
        assert_int_equal(again.marker_count, 0);
        gc_sql_rewritten_free(&again);
        gc_sql_rewritten_free(&out);
    } else {
        assert_true(known_failure(&err));
    }

    /* Escapes only (SQLNativeSql). */
    if (gc_sql_rewrite(text, len, GC_SQL_TRANSLATE_ESCAPES, &out, &err))
        gc_sql_rewritten_free(&out);
    else
        assert_true(known_failure(&err));
}

/* Each input is copied into a buffer of exactly its length, so a read past
 * the end is caught by AddressSanitizer. */
static void check_exact(const char *text, size_t len)
{
    char *copy = malloc(len ? len : 1);
    assert_non_null(copy);
    memcpy(copy, text, len);
    check_token_tiling(copy, len);
    check_rewrite_invariants(copy, len);
    free(copy);
}

static void test_every_prefix_of_tricky_statements_is_handled(void **state)
{
    (void)state;
    for (size_t s = 0; s < sizeof tricky / sizeof tricky[0]; s++) {
        size_t len = strlen(tricky[s]);
        for (size_t n = 0; n <= len; n++)
            check_exact(tricky[s], n);
    }
}

static void test_every_suffix_of_tricky_statements_is_handled(void **state)
{
    (void)state;
    for (size_t s = 0; s < sizeof tricky / sizeof tricky[0]; s++) {
        size_t len = strlen(tricky[s]);
        for (size_t n = 0; n <= len; n++)
            check_exact(tricky[s] + n, len - n);
    }
}

static void test_the_full_tricky_statements_rewrite(void **state)
{
    (void)state;
    /* All but the one mixing $1 with markers are valid and must succeed. */
    for (size_t s = 0; s < sizeof tricky / sizeof tricky[0]; s++) {
        gc_sql_rewritten out;
        gc_error err;
        bool ok = gc_sql_rewrite(tricky[s], strlen(tricky[s]),
                                 GC_SQL_MARKERS_TO_DOLLAR | GC_SQL_TRANSLATE_ESCAPES, &out, &err);
        bool want = strstr(tricky[s], "$1") == NULL;
        if (ok != want)
            fail_msg("%s: %s (%s)", tricky[s], ok ? "succeeded" : "failed", err.message);
        gc_sql_rewritten_free(&out);
    }
}

/* Random strings over an alphabet of the characters that matter. */
static void test_random_inputs_are_handled(void **state)
{
    (void)state;
    static const char alphabet[] = "'\"$?{}()-*/\\,.:;|&@#eEuUbBxXnN&0123456789 \n\tafnd_";
    unsigned long seed = 12345;
    char buf[96];
    for (int round = 0; round < 30000; round++) {
        seed = seed * 6364136223846793005UL + 1442695040888963407UL;
        size_t len = (size_t)(seed >> 33) % sizeof buf;
        for (size_t i = 0; i < len; i++) {
            seed = seed * 6364136223846793005UL + 1442695040888963407UL;
            buf[i] = alphabet[(seed >> 33) % (sizeof alphabet - 1)];
        }
        check_exact(buf, len);
    }
}

static void test_high_bytes_are_handled(void **state)
{
    (void)state;
    const char text[] = "select '\xff?' , \xff\xfe ?, \"\x80\" {fn ucase(\xc3\xa9)}";
    check_exact(text, sizeof text - 1);
}

static void test_embedded_nul_is_refused_with_22021(void **state)
{
    (void)state;
    const char text[] = "select '\0?' , {fn ucase('a\0')}";
    check_exact(text, sizeof text - 1);
    for (unsigned flags = 0; flags < 4; flags++) {
        gc_sql_rewritten out;
        gc_error err;
        assert_false(gc_sql_rewrite(text, sizeof text - 1, flags, &out, &err));
        assert_string_equal(err.sqlstate, "22021");
        assert_string_equal(err.message, "the statement contains a NUL byte at offset 8");
        assert_null(out.text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_prefix_of_tricky_statements_is_handled),
        cmocka_unit_test(test_every_suffix_of_tricky_statements_is_handled),
        cmocka_unit_test(test_the_full_tricky_statements_rewrite),
        cmocka_unit_test(test_random_inputs_are_handled),
        cmocka_unit_test(test_high_bytes_are_handled),
        cmocka_unit_test(test_embedded_nul_is_refused_with_22021),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
