/*
 * The lexer follows PostgreSQL's lexical rules: token kinds, offsets and
 * lengths for every kind of token, unterminated tokens, and the helpers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "sql/gc_sql_lexer.h"

typedef struct expected {
    gc_sql_token_kind kind;
    const char *text;
} expected;

/* Lexes sql and checks the tokens are exactly `want` (kind and text). */
static void check_tokens(const char *sql, const expected *want, size_t nwant)
{
    gc_sql_lexer lx;
    gc_sql_token tok;
    size_t i = 0;
    gc_sql_lexer_init(&lx, sql, strlen(sql));
    while (gc_sql_lexer_next(&lx, &tok)) {
        if (i >= nwant)
            fail_msg("%s: unexpected extra token '%.*s'", sql, (int)tok.length,
                     sql + tok.offset);
        char got[256];
        snprintf(got, sizeof got, "%.*s", (int)tok.length, sql + tok.offset);
        if (tok.kind != want[i].kind || strcmp(got, want[i].text) != 0)
            fail_msg("%s: token %zu is %s '%s', expected %s '%s'", sql, i,
                     gc_sql_token_kind_name(tok.kind), got,
                     gc_sql_token_kind_name(want[i].kind), want[i].text);
        assert_false(tok.unterminated);
        i++;
    }
    assert_int_equal(i, nwant);
}

#define CHECK(sql, ...)                                                   \
    do {                                                                  \
        static const expected want_[] = {__VA_ARGS__};                    \
        check_tokens(sql, want_, sizeof want_ / sizeof want_[0]);         \
    } while (0)

/* The single token of sql, which must be unterminated and span the rest. */
static void check_unterminated(const char *sql, size_t start, gc_sql_token_kind kind)
{
    gc_sql_lexer lx;
    gc_sql_token tok, last = {0};
    bool found = false;
    gc_sql_lexer_init(&lx, sql, strlen(sql));
    while (gc_sql_lexer_next(&lx, &tok))
        if (tok.unterminated) {
            last = tok;
            found = true;
        }
    if (!found)
        fail_msg("%s: no unterminated token", sql);
    assert_int_equal(last.kind, kind);
    assert_int_equal(last.offset, start);
    assert_int_equal(last.offset + last.length, strlen(sql));
}

static void test_identifiers_keywords_and_punctuation(void **state)
{
    (void)state;
    CHECK("SELECT a_1, b$c FROM t;",
          {GC_SQL_TOK_IDENT, "SELECT"}, {GC_SQL_TOK_IDENT, "a_1"},
          {GC_SQL_TOK_PUNCT, ","}, {GC_SQL_TOK_IDENT, "b$c"},
          {GC_SQL_TOK_IDENT, "FROM"}, {GC_SQL_TOK_IDENT, "t"}, {GC_SQL_TOK_PUNCT, ";"});
    CHECK("f(x)[1].y:z{}",
          {GC_SQL_TOK_IDENT, "f"}, {GC_SQL_TOK_PUNCT, "("}, {GC_SQL_TOK_IDENT, "x"},
          {GC_SQL_TOK_PUNCT, ")"}, {GC_SQL_TOK_PUNCT, "["}, {GC_SQL_TOK_NUMBER, "1"},
          {GC_SQL_TOK_PUNCT, "]"}, {GC_SQL_TOK_PUNCT, "."}, {GC_SQL_TOK_IDENT, "y"},
          {GC_SQL_TOK_PUNCT, ":"}, {GC_SQL_TOK_IDENT, "z"}, {GC_SQL_TOK_PUNCT, "{"},
          {GC_SQL_TOK_PUNCT, "}"});
    /* UTF-8 letters are identifier characters. */
    CHECK("caf\xc3\xa9 = 1", {GC_SQL_TOK_IDENT, "caf\xc3\xa9"}, {GC_SQL_TOK_OPERATOR, "="},
          {GC_SQL_TOK_NUMBER, "1"});
}

static void test_offsets_and_lengths_are_byte_positions(void **state)
{
    (void)state;
    const char *sql = "  select\n\t'a''b' /* c */ x";
    gc_sql_lexer lx;
    gc_sql_token tok;
    gc_sql_lexer_init(&lx, sql, strlen(sql));
    assert_true(gc_sql_lexer_next(&lx, &tok));
    assert_int_equal(tok.offset, 2);
    assert_int_equal(tok.length, 6);
    assert_true(gc_sql_lexer_next(&lx, &tok));
    assert_int_equal(tok.kind, GC_SQL_TOK_STRING);
    assert_int_equal(tok.offset, 10);
    assert_int_equal(tok.length, 6);
    assert_true(gc_sql_lexer_next(&lx, &tok));
    assert_int_equal(tok.kind, GC_SQL_TOK_BLOCK_COMMENT);
    assert_int_equal(tok.offset, 17);
    assert_int_equal(tok.length, 7);
    assert_true(gc_sql_lexer_next(&lx, &tok));
    assert_int_equal(tok.offset, 25);
    assert_false(gc_sql_lexer_next(&lx, &tok));
    assert_false(gc_sql_lexer_next(&lx, &tok));   /* stays at the end */
}

static void test_string_literal_forms(void **state)
{
    (void)state;
    CHECK("'it''s' E'it\\'s' e'\\\\' U&'d\\0061t' N'x' B'101' X'1F'",
          {GC_SQL_TOK_STRING, "'it''s'"}, {GC_SQL_TOK_ESCAPE_STRING, "E'it\\'s'"},
          {GC_SQL_TOK_ESCAPE_STRING, "e'\\\\'"}, {GC_SQL_TOK_UNICODE_STRING, "U&'d\\0061t'"},
          {GC_SQL_TOK_NATIONAL_STRING, "N'x'"}, {GC_SQL_TOK_BIT_STRING, "B'101'"},
          {GC_SQL_TOK_HEX_STRING, "X'1F'"});
    /* standard_conforming_strings: a backslash does not escape in '...'. */
    CHECK("'a\\' ?", {GC_SQL_TOK_STRING, "'a\\'"}, {GC_SQL_TOK_PARAM_MARKER, "?"});
    /* A prefix only counts at the start of a word. */
    CHECK("abe'x'", {GC_SQL_TOK_IDENT, "abe"}, {GC_SQL_TOK_STRING, "'x'"});
    /* U& without a quote is an identifier and an operator. */
    CHECK("u&v", {GC_SQL_TOK_IDENT, "u"}, {GC_SQL_TOK_OPERATOR, "&"}, {GC_SQL_TOK_IDENT, "v"});
}

static void test_quoted_identifiers(void **state)
{
    (void)state;
    CHECK("\"a \"\"b\"\"\".\"?\" U&\"d\\0061\"",
          {GC_SQL_TOK_QUOTED_IDENT, "\"a \"\"b\"\"\""}, {GC_SQL_TOK_PUNCT, "."},
          {GC_SQL_TOK_QUOTED_IDENT, "\"?\""}, {GC_SQL_TOK_UNICODE_IDENT, "U&\"d\\0061\""});
}

static void test_dollar_quotes_and_positional_parameters(void **state)
{
    (void)state;
    CHECK("$$a'b$$ $fn$ x $1 $f $fn$ $1",
          {GC_SQL_TOK_DOLLAR_STRING, "$$a'b$$"},
          {GC_SQL_TOK_DOLLAR_STRING, "$fn$ x $1 $f $fn$"},
          {GC_SQL_TOK_POSITIONAL_PARAM, "$1"});
    /* The body ends at the exact delimiter, not at a longer tag. */
    CHECK("$a$ $ab$ $b$ $a$", {GC_SQL_TOK_DOLLAR_STRING, "$a$ $ab$ $b$ $a$"});
    CHECK("$12+$3", {GC_SQL_TOK_POSITIONAL_PARAM, "$12"}, {GC_SQL_TOK_OPERATOR, "+"},
          {GC_SQL_TOK_POSITIONAL_PARAM, "$3"});
    /* A $ inside an identifier never opens a dollar quote. */
    CHECK("a$b$ 'x'", {GC_SQL_TOK_IDENT, "a$b$"}, {GC_SQL_TOK_STRING, "'x'"});
    /* A lone $ (no closing $ for a tag) is a single character. */
    CHECK("$ $x", {GC_SQL_TOK_OTHER, "$"}, {GC_SQL_TOK_OTHER, "$"}, {GC_SQL_TOK_IDENT, "x"});
}

static void test_numbers(void **state)
{
    (void)state;
    CHECK("42 1.5 .5 5. 1.5e10 1E-3 2e+7",
          {GC_SQL_TOK_NUMBER, "42"}, {GC_SQL_TOK_NUMBER, "1.5"}, {GC_SQL_TOK_NUMBER, ".5"},
          {GC_SQL_TOK_NUMBER, "5."}, {GC_SQL_TOK_NUMBER, "1.5e10"}, {GC_SQL_TOK_NUMBER, "1E-3"},
          {GC_SQL_TOK_NUMBER, "2e+7"});
    CHECK("1..2", {GC_SQL_TOK_NUMBER, "1"}, {GC_SQL_TOK_OPERATOR, ".."}, {GC_SQL_TOK_NUMBER, "2"});
    CHECK("1e", {GC_SQL_TOK_NUMBER, "1"}, {GC_SQL_TOK_IDENT, "e"});
}

static void test_comments(void **state)
{
    (void)state;
    CHECK("a -- x 'y\nb /* 1 /* 2 */ 3 */ c",
          {GC_SQL_TOK_IDENT, "a"}, {GC_SQL_TOK_LINE_COMMENT, "-- x 'y"},
          {GC_SQL_TOK_IDENT, "b"}, {GC_SQL_TOK_BLOCK_COMMENT, "/* 1 /* 2 */ 3 */"},
          {GC_SQL_TOK_IDENT, "c"});
    /* A comment start ends an operator run. */
    CHECK("a+--c\n", {GC_SQL_TOK_IDENT, "a"}, {GC_SQL_TOK_OPERATOR, "+"},
          {GC_SQL_TOK_LINE_COMMENT, "--c"});
    CHECK("a*/**/b", {GC_SQL_TOK_IDENT, "a"}, {GC_SQL_TOK_OPERATOR, "*"},
          {GC_SQL_TOK_BLOCK_COMMENT, "/**/"}, {GC_SQL_TOK_IDENT, "b"});
}

static void test_operators(void **state)
{
    (void)state;
    CHECK("a::int <= b <> c ->> 'k' @> d || e != f := g => h",
          {GC_SQL_TOK_IDENT, "a"}, {GC_SQL_TOK_OPERATOR, "::"}, {GC_SQL_TOK_IDENT, "int"},
          {GC_SQL_TOK_OPERATOR, "<="}, {GC_SQL_TOK_IDENT, "b"}, {GC_SQL_TOK_OPERATOR, "<>"},
          {GC_SQL_TOK_IDENT, "c"}, {GC_SQL_TOK_OPERATOR, "->>"}, {GC_SQL_TOK_STRING, "'k'"},
          {GC_SQL_TOK_OPERATOR, "@>"}, {GC_SQL_TOK_IDENT, "d"}, {GC_SQL_TOK_OPERATOR, "||"},
          {GC_SQL_TOK_IDENT, "e"}, {GC_SQL_TOK_OPERATOR, "!="}, {GC_SQL_TOK_IDENT, "f"},
          {GC_SQL_TOK_OPERATOR, ":="}, {GC_SQL_TOK_IDENT, "g"}, {GC_SQL_TOK_OPERATOR, "=>"},
          {GC_SQL_TOK_IDENT, "h"});
    /* PostgreSQL drops a trailing + or - from a plain operator: a=-1. */
    CHECK("a=-1", {GC_SQL_TOK_IDENT, "a"}, {GC_SQL_TOK_OPERATOR, "="},
          {GC_SQL_TOK_OPERATOR, "-"}, {GC_SQL_TOK_NUMBER, "1"});
    /* ... but keeps it when the operator has one of ~!@#^&|`?%. */
    CHECK("a@-1", {GC_SQL_TOK_IDENT, "a"}, {GC_SQL_TOK_OPERATOR, "@-"}, {GC_SQL_TOK_NUMBER, "1"});
}

static void test_question_mark_is_a_marker_except_in_jsonb_and_geometric_operators(void **state)
{
    (void)state;
    CHECK("a=? and b<>?", {GC_SQL_TOK_IDENT, "a"}, {GC_SQL_TOK_OPERATOR, "="},
          {GC_SQL_TOK_PARAM_MARKER, "?"}, {GC_SQL_TOK_IDENT, "and"}, {GC_SQL_TOK_IDENT, "b"},
          {GC_SQL_TOK_OPERATOR, "<>"}, {GC_SQL_TOK_PARAM_MARKER, "?"});
    CHECK("j ?| k ?& l ?# m ?-| n @? o",
          {GC_SQL_TOK_IDENT, "j"}, {GC_SQL_TOK_OPERATOR, "?|"}, {GC_SQL_TOK_IDENT, "k"},
          {GC_SQL_TOK_OPERATOR, "?&"}, {GC_SQL_TOK_IDENT, "l"}, {GC_SQL_TOK_OPERATOR, "?#"},
          {GC_SQL_TOK_IDENT, "m"}, {GC_SQL_TOK_OPERATOR, "?-|"}, {GC_SQL_TOK_IDENT, "n"},
          {GC_SQL_TOK_OPERATOR, "@?"}, {GC_SQL_TOK_IDENT, "o"});
    CHECK("?::int ?||'x' ??", {GC_SQL_TOK_PARAM_MARKER, "?"}, {GC_SQL_TOK_OPERATOR, "::"},
          {GC_SQL_TOK_IDENT, "int"}, {GC_SQL_TOK_PARAM_MARKER, "?"},
          {GC_SQL_TOK_OPERATOR, "||"}, {GC_SQL_TOK_STRING, "'x'"},
          {GC_SQL_TOK_PARAM_MARKER, "?"}, {GC_SQL_TOK_PARAM_MARKER, "?"});
    CHECK("(?,?)", {GC_SQL_TOK_PUNCT, "("}, {GC_SQL_TOK_PARAM_MARKER, "?"},
          {GC_SQL_TOK_PUNCT, ","}, {GC_SQL_TOK_PARAM_MARKER, "?"}, {GC_SQL_TOK_PUNCT, ")"});
}

static void test_unterminated_tokens_are_reported(void **state)
{
    (void)state;
    check_unterminated("select 'abc", 7, GC_SQL_TOK_STRING);
    check_unterminated("select 'it''", 7, GC_SQL_TOK_STRING);
    check_unterminated("select E'\\'", 7, GC_SQL_TOK_ESCAPE_STRING);
    check_unterminated("select E'\\", 7, GC_SQL_TOK_ESCAPE_STRING);
    check_unterminated("select \"ab\"\"", 7, GC_SQL_TOK_QUOTED_IDENT);
    check_unterminated("select $q$ body $q", 7, GC_SQL_TOK_DOLLAR_STRING);
    check_unterminated("select $$", 7, GC_SQL_TOK_DOLLAR_STRING);
    check_unterminated("select /* a /* b */ c", 7, GC_SQL_TOK_BLOCK_COMMENT);
    check_unterminated("select B'01", 7, GC_SQL_TOK_BIT_STRING);
    check_unterminated("select U&\"x", 7, GC_SQL_TOK_UNICODE_IDENT);
}

static void test_keyword_helper_matches_unquoted_identifiers_only(void **state)
{
    (void)state;
    const char *sql = "SeLeCt \"select\" 'select' selects";
    gc_sql_lexer lx;
    gc_sql_token tok;
    gc_sql_lexer_init(&lx, sql, strlen(sql));
    assert_true(gc_sql_lexer_next(&lx, &tok));
    assert_true(gc_sql_token_is_keyword(&lx, &tok, "select"));
    assert_true(gc_sql_token_is_keyword(&lx, &tok, "SELECT"));
    assert_true(gc_sql_lexer_next(&lx, &tok));
    assert_false(gc_sql_token_is_keyword(&lx, &tok, "select"));
    assert_true(gc_sql_lexer_next(&lx, &tok));
    assert_false(gc_sql_token_is_keyword(&lx, &tok, "select"));
    assert_true(gc_sql_lexer_next(&lx, &tok));
    assert_false(gc_sql_token_is_keyword(&lx, &tok, "select"));
}

static void test_next_code_skips_comments(void **state)
{
    (void)state;
    const char *sql = "/* c */ a -- d\n b";
    gc_sql_lexer lx;
    gc_sql_token tok;
    gc_sql_lexer_init(&lx, sql, strlen(sql));
    assert_true(gc_sql_lexer_next_code(&lx, &tok));
    assert_true(gc_sql_token_is_keyword(&lx, &tok, "a"));
    assert_true(gc_sql_lexer_next_code(&lx, &tok));
    assert_true(gc_sql_token_is_keyword(&lx, &tok, "b"));
    assert_false(gc_sql_lexer_next_code(&lx, &tok));

    /* An unterminated comment is still returned. */
    gc_sql_lexer_init(&lx, "a /* b", 6);
    assert_true(gc_sql_lexer_next_code(&lx, &tok));
    assert_true(gc_sql_lexer_next_code(&lx, &tok));
    assert_true(tok.unterminated);
}

static void test_identifier_value_folds_and_unquotes(void **state)
{
    (void)state;
    const char *sql = "MyTable \"My\"\"Table\" 'x' U&\"x\"";
    gc_sql_lexer lx;
    gc_sql_token tok;
    char buf[32];
    gc_sql_lexer_init(&lx, sql, strlen(sql));
    assert_true(gc_sql_lexer_next(&lx, &tok));
    assert_int_equal(gc_sql_token_identifier(&lx, &tok, buf, sizeof buf), 7);
    assert_string_equal(buf, "mytable");
    assert_true(gc_sql_lexer_next(&lx, &tok));
    assert_int_equal(gc_sql_token_identifier(&lx, &tok, buf, sizeof buf), 8);
    assert_string_equal(buf, "My\"Table");
    /* Truncation keeps the NUL and reports the full length. */
    assert_int_equal(gc_sql_token_identifier(&lx, &tok, buf, 4), 8);
    assert_string_equal(buf, "My\"");
    assert_true(gc_sql_lexer_next(&lx, &tok));
    assert_int_equal(gc_sql_token_identifier(&lx, &tok, buf, sizeof buf), 0);
    assert_true(gc_sql_lexer_next(&lx, &tok));
    assert_int_equal(gc_sql_token_identifier(&lx, &tok, buf, sizeof buf), 0);
}

static void test_positional_parameter_number(void **state)
{
    (void)state;
    const char *sql = "$7 $12 $99999999999999999999";
    gc_sql_lexer lx;
    gc_sql_token tok;
    gc_sql_lexer_init(&lx, sql, strlen(sql));
    assert_true(gc_sql_lexer_next(&lx, &tok));
    assert_int_equal(gc_sql_token_param_number(&lx, &tok), 7);
    assert_true(gc_sql_lexer_next(&lx, &tok));
    assert_int_equal(gc_sql_token_param_number(&lx, &tok), 12);
    assert_true(gc_sql_lexer_next(&lx, &tok));
    assert_int_equal(gc_sql_token_param_number(&lx, &tok), 0xFFFFFFFFUL);
}

/* The kinds and texts of sql's tokens lexed with standard_conforming_strings
 * off, written "KIND:text|..." for a compact comparison. */
static void lex_nonstandard(const char *sql, char *out, size_t cap)
{
    gc_sql_lexer lx;
    gc_sql_token tok;
    gc_sql_lexer_init(&lx, sql, strlen(sql));
    gc_sql_lexer_set_standard_strings(&lx, false);
    size_t n = 0;
    out[0] = '\0';
    while (gc_sql_lexer_next(&lx, &tok))
        n += (size_t)snprintf(out + n, cap - n, "%s%s%s:%.*s", n ? "|" : "",
                              tok.unterminated ? "UNTERMINATED " : "",
                              gc_sql_token_kind_name(tok.kind), (int)tok.length,
                              sql + tok.offset);
}

static void test_backslash_escapes_plain_strings_when_standard_strings_are_off(void **state)
{
    (void)state;
    char got[512];
    lex_nonstandard("select 'it\\'s', ?", got, sizeof got);
    assert_string_equal(got, "identifier:select|string literal:'it\\'s'|"
                             "punctuation:,|parameter marker:?");
    /* N'' strings are plain strings too; doubled quotes still work */
    lex_nonstandard("N'a\\'b' 'c''d'", got, sizeof got);
    assert_string_equal(got, "national character string literal:N'a\\'b'|string literal:'c''d'");
    /* a trailing backslash escapes the closing quote: the string runs on */
    lex_nonstandard("'abc\\'", got, sizeof got);
    assert_string_equal(got, "UNTERMINATED string literal:'abc\\'");
    /* bit and hex strings, quoted identifiers and dollar quotes are unchanged */
    lex_nonstandard("B'1' X'f' \"a\\\" $$\\$$", got, sizeof got);
    assert_string_equal(got, "bit string literal:B'1'|hexadecimal string literal:X'f'|"
                             "quoted identifier:\"a\\\"|dollar-quoted string:$$\\$$");
    /* on again (the default): the backslash is an ordinary byte */
    CHECK("'it\\'", {GC_SQL_TOK_STRING, "'it\\'"});
}

static void test_text_need_not_be_nul_terminated(void **state)
{
    (void)state;
    /* Only the first 8 bytes are the statement; the quote after them is not. */
    const char sql[] = "select 1'";
    gc_sql_lexer lx;
    gc_sql_token tok;
    gc_sql_lexer_init(&lx, sql, 8);
    assert_true(gc_sql_lexer_next(&lx, &tok));
    assert_true(gc_sql_lexer_next(&lx, &tok));
    assert_int_equal(tok.kind, GC_SQL_TOK_NUMBER);
    assert_false(gc_sql_lexer_next(&lx, &tok));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_identifiers_keywords_and_punctuation),
        cmocka_unit_test(test_offsets_and_lengths_are_byte_positions),
        cmocka_unit_test(test_string_literal_forms),
        cmocka_unit_test(test_quoted_identifiers),
        cmocka_unit_test(test_dollar_quotes_and_positional_parameters),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_comments),
        cmocka_unit_test(test_operators),
        cmocka_unit_test(test_question_mark_is_a_marker_except_in_jsonb_and_geometric_operators),
        cmocka_unit_test(test_unterminated_tokens_are_reported),
        cmocka_unit_test(test_keyword_helper_matches_unquoted_identifiers_only),
        cmocka_unit_test(test_next_code_skips_comments),
        cmocka_unit_test(test_identifier_value_folds_and_unquotes),
        cmocka_unit_test(test_positional_parameter_number),
        cmocka_unit_test(test_text_need_not_be_nul_terminated),
        cmocka_unit_test(test_backslash_escapes_plain_strings_when_standard_strings_are_off),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
