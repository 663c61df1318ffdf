/*
 * The tokenizer. Each scan_* function starts at lx->pos on the first byte of
 * its token, advances lx->pos past it and fills the token; the rules mirror
 * PostgreSQL's scanner (scan.l) for the cases that matter to a driver, with
 * standard_conforming_strings as the server has it.
 */
#include "sql/gc_sql_lexer.h"

#include <assert.h>
#include <string.h>

static bool is_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static bool is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

/* PostgreSQL: ident_start [A-Za-z\200-\377_], ident_cont adds digits and $. */
static bool is_ident_start(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}

static bool is_ident_cont(unsigned char c)
{
    return is_ident_start(c) || is_digit(c) || c == '$';
}

/* A dollar-quote tag continues like an identifier but never contains $. */
static bool is_tag_cont(unsigned char c)
{
    return is_ident_start(c) || is_digit(c);
}

static bool is_op_char(unsigned char c)
{
    return c != '\0' && strchr("~!@#^&|`?+-*/%<>=", c) != NULL;
}

static unsigned char ascii_lower(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') ? (unsigned char)(c - 'A' + 'a') : c;
}

/* The byte at lx->pos + ahead, or 0 past the end (0 matches no rule). */
static unsigned char peek(const gc_sql_lexer *lx, size_t ahead)
{
    return lx->pos + ahead < lx->length ? (unsigned char)lx->text[lx->pos + ahead] : 0;
}

void gc_sql_lexer_init(gc_sql_lexer *lx, const char *text, size_t length)
{
    assert(text != NULL || length == 0);
    lx->text = text;
    lx->length = length;
    lx->pos = 0;
    lx->standard_strings = true;
}

void gc_sql_lexer_set_standard_strings(gc_sql_lexer *lx, bool on)
{
    lx->standard_strings = on;
}

static void finish(gc_sql_lexer *lx, gc_sql_token *tok, gc_sql_token_kind kind,
                   size_t start, bool unterminated)
{
    assert(lx->pos > start && lx->pos <= lx->length);
    tok->kind = kind;
    tok->offset = start;
    tok->length = lx->pos - start;
    tok->unterminated = unterminated;
}

/* A quoted body from lx->pos (just past the opening quote) to the closing
 * quote. `doubled` makes two quotes an escaped quote; `backslash` makes a
 * backslash escape the next byte (E'' strings, and plain ones when
 * standard_conforming_strings is off). Returns false when the text
 * ends first. */
static bool scan_quoted_body(gc_sql_lexer *lx, char quote, bool doubled, bool backslash)
{
    while (lx->pos < lx->length) {
        char c = lx->text[lx->pos];
        if (backslash && c == '\\') {
            lx->pos += (lx->pos + 1 < lx->length) ? 2 : 1;
            continue;
        }
        lx->pos++;
        if (c == quote) {
            if (doubled && peek(lx, 0) == (unsigned char)quote) {
                lx->pos++;
                continue;
            }
            return true;
        }
    }
    return false;
}

/* kind names a quoted token; prefix_len bytes (E, U&, ...) precede the quote. */
static void scan_quoted(gc_sql_lexer *lx, gc_sql_token *tok, gc_sql_token_kind kind,
                        size_t prefix_len)
{
    size_t start = lx->pos;
    char quote = lx->text[start + prefix_len];
    lx->pos = start + prefix_len + 1;
    bool doubled = kind != GC_SQL_TOK_BIT_STRING && kind != GC_SQL_TOK_HEX_STRING;
    bool backslash = kind == GC_SQL_TOK_ESCAPE_STRING ||
                     (!lx->standard_strings &&
                      (kind == GC_SQL_TOK_STRING || kind == GC_SQL_TOK_NATIONAL_STRING));
    bool closed = scan_quoted_body(lx, quote, doubled, backslash);
    finish(lx, tok, kind, start, !closed);
}

/* At a `$`: a positional parameter ($1), a dollar quote ($$ or $tag$), or a
 * lone $ (PostgreSQL returns it as a single character). */
static void scan_dollar(gc_sql_lexer *lx, gc_sql_token *tok)
{
    size_t start = lx->pos;
    if (is_digit(peek(lx, 1))) {
        lx->pos++;
        while (is_digit(peek(lx, 0)))
            lx->pos++;
        finish(lx, tok, GC_SQL_TOK_POSITIONAL_PARAM, start, false);
        return;
    }
    size_t tag_end = start + 1;   /* index of the closing $ of the tag */
    if (tag_end < lx->length && is_ident_start((unsigned char)lx->text[tag_end])) {
        tag_end++;
        while (tag_end < lx->length && is_tag_cont((unsigned char)lx->text[tag_end]))
            tag_end++;
    }
    if (tag_end >= lx->length || lx->text[tag_end] != '$') {
        lx->pos = start + 1;
        finish(lx, tok, GC_SQL_TOK_OTHER, start, false);
        return;
    }
    /* The body ends at the first exact repetition of the delimiter. */
    const char *delim = lx->text + start;
    size_t delim_len = tag_end + 1 - start;
    size_t i = tag_end + 1;
    while (i + delim_len <= lx->length) {
        if (lx->text[i] == '$' && memcmp(lx->text + i, delim, delim_len) == 0) {
            lx->pos = i + delim_len;
            finish(lx, tok, GC_SQL_TOK_DOLLAR_STRING, start, false);
            return;
        }
        i++;
    }
    lx->pos = lx->length;
    finish(lx, tok, GC_SQL_TOK_DOLLAR_STRING, start, true);
}

/* Digits, an optional fraction and an optional exponent. `1..2` is 1, .., 2
 * and `1e` is 1 followed by the identifier e, as in PostgreSQL. */
static void scan_number(gc_sql_lexer *lx, gc_sql_token *tok)
{
    size_t start = lx->pos;
    while (is_digit(peek(lx, 0)))
        lx->pos++;
    if (peek(lx, 0) == '.' && peek(lx, 1) != '.') {
        lx->pos++;
        while (is_digit(peek(lx, 0)))
            lx->pos++;
    }
    unsigned char e = peek(lx, 0);
    if (e == 'e' || e == 'E') {
        size_t digits_at = 1;
        if (peek(lx, 1) == '+' || peek(lx, 1) == '-')
            digits_at = 2;
        if (is_digit(peek(lx, digits_at))) {
            lx->pos += digits_at;
            while (is_digit(peek(lx, 0)))
                lx->pos++;
        }
    }
    finish(lx, tok, GC_SQL_TOK_NUMBER, start, false);
}

/* A nested block comment from its opening slash-star. */
static void scan_block_comment(gc_sql_lexer *lx, gc_sql_token *tok)
{
    size_t start = lx->pos;
    size_t depth = 1;
    lx->pos += 2;
    while (lx->pos < lx->length) {
        if (peek(lx, 0) == '/' && peek(lx, 1) == '*') {
            depth++;
            lx->pos += 2;
        } else if (peek(lx, 0) == '*' && peek(lx, 1) == '/') {
            lx->pos += 2;
            if (--depth == 0) {
                finish(lx, tok, GC_SQL_TOK_BLOCK_COMMENT, start, false);
                return;
            }
        } else {
            lx->pos++;
        }
    }
    finish(lx, tok, GC_SQL_TOK_BLOCK_COMMENT, start, true);
}

static void scan_line_comment(gc_sql_lexer *lx, gc_sql_token *tok)
{
    size_t start = lx->pos;
    while (lx->pos < lx->length && lx->text[lx->pos] != '\n' && lx->text[lx->pos] != '\r')
        lx->pos++;
    finish(lx, tok, GC_SQL_TOK_LINE_COMMENT, start, false);
}

/* At a `?`: one of the PostgreSQL operators that begin with ? (see the
 * header), or a parameter marker. */
static void scan_question(gc_sql_lexer *lx, gc_sql_token *tok)
{
    size_t start = lx->pos;
    unsigned char c1 = peek(lx, 1);
    size_t op_len = 0;
    if (c1 == '-' && peek(lx, 2) == '|')
        op_len = 3;
    else if ((c1 == '|' && peek(lx, 2) != '|') || c1 == '&' || c1 == '#')
        op_len = 2;
    if (op_len > 0) {
        lx->pos += op_len;
        finish(lx, tok, GC_SQL_TOK_OPERATOR, start, false);
    } else {
        lx->pos++;
        finish(lx, tok, GC_SQL_TOK_PARAM_MARKER, start, false);
    }
}

/* A run of operator characters, cut where PostgreSQL cuts it: before a
 * comment start, and trailing + or - dropped unless the operator contains
 * one of ~ ! @ # ^ & | ` ? % (so `=-1` is = then -1). A `?` ends the run,
 * except in `@?`, so `=?` is = followed by a marker. */
static void scan_operator(gc_sql_lexer *lx, gc_sql_token *tok)
{
    size_t start = lx->pos;
    size_t end = start;
    while (end < lx->length) {
        unsigned char c = (unsigned char)lx->text[end];
        if (!is_op_char(c))
            break;
        bool comment_starts = end > start &&
            ((c == '-' && lx->text[end - 1] == '-') || (c == '*' && lx->text[end - 1] == '/'));
        if (comment_starts) {
            end--;   /* the comment is not part of the operator */
            break;
        }
        if (c == '?') {
            if (end == start + 1 && lx->text[start] == '@')
                end++;
            break;
        }
        end++;
    }
    assert(end > start);
    size_t n = end - start;
    if (n > 1) {
        bool keeps_sign = false;
        for (size_t i = start; i < end; i++)
            if (strchr("~!@#^&|`?%", lx->text[i]) != NULL)
                keeps_sign = true;
        if (!keeps_sign)
            while (n > 1 && (lx->text[start + n - 1] == '+' || lx->text[start + n - 1] == '-'))
                n--;
    }
    lx->pos = start + n;
    finish(lx, tok, GC_SQL_TOK_OPERATOR, start, false);
}

/* An identifier, or a string whose prefix looks like one (E'', B'', X'',
 * N'', U&'', U&""). PostgreSQL only reads the prefix at the start of a word. */
static void scan_word(gc_sql_lexer *lx, gc_sql_token *tok)
{
    unsigned char c = ascii_lower(peek(lx, 0));
    unsigned char c1 = peek(lx, 1);
    if (c1 == '\'') {
        switch (c) {
        case 'e': scan_quoted(lx, tok, GC_SQL_TOK_ESCAPE_STRING, 1); return;
        case 'b': scan_quoted(lx, tok, GC_SQL_TOK_BIT_STRING, 1); return;
        case 'x': scan_quoted(lx, tok, GC_SQL_TOK_HEX_STRING, 1); return;
        case 'n': scan_quoted(lx, tok, GC_SQL_TOK_NATIONAL_STRING, 1); return;
        default: break;
        }
    }
    if (c == 'u' && c1 == '&') {
        if (peek(lx, 2) == '\'') {
            scan_quoted(lx, tok, GC_SQL_TOK_UNICODE_STRING, 2);
            return;
        }
        if (peek(lx, 2) == '"') {
            scan_quoted(lx, tok, GC_SQL_TOK_UNICODE_IDENT, 2);
            return;
        }
    }
    size_t start = lx->pos;
    lx->pos++;
    while (is_ident_cont(peek(lx, 0)))
        lx->pos++;
    finish(lx, tok, GC_SQL_TOK_IDENT, start, false);
}

static void scan_single(gc_sql_lexer *lx, gc_sql_token *tok, gc_sql_token_kind kind)
{
    size_t start = lx->pos;
    lx->pos++;
    finish(lx, tok, kind, start, false);
}

static void scan_two(gc_sql_lexer *lx, gc_sql_token *tok, gc_sql_token_kind kind)
{
    size_t start = lx->pos;
    lx->pos += 2;
    finish(lx, tok, kind, start, false);
}

bool gc_sql_lexer_next(gc_sql_lexer *lx, gc_sql_token *tok)
{
    while (lx->pos < lx->length && is_space((unsigned char)lx->text[lx->pos]))
        lx->pos++;
    if (lx->pos >= lx->length)
        return false;

    unsigned char c = peek(lx, 0);
    unsigned char c1 = peek(lx, 1);
    if (c == '-' && c1 == '-')
        scan_line_comment(lx, tok);
    else if (c == '/' && c1 == '*')
        scan_block_comment(lx, tok);
    else if (c == '\'')
        scan_quoted(lx, tok, GC_SQL_TOK_STRING, 0);
    else if (c == '"')
        scan_quoted(lx, tok, GC_SQL_TOK_QUOTED_IDENT, 0);
    else if (c == '$')
        scan_dollar(lx, tok);
    else if (is_ident_start(c))
        scan_word(lx, tok);
    else if (is_digit(c) || (c == '.' && is_digit(c1)))
        scan_number(lx, tok);
    else if (c == '?')
        scan_question(lx, tok);
    else if ((c == ':' && (c1 == ':' || c1 == '=')) || (c == '.' && c1 == '.'))
        scan_two(lx, tok, GC_SQL_TOK_OPERATOR);
    else if (is_op_char(c))
        scan_operator(lx, tok);
    else if (strchr("(),;[].:{}", c) != NULL && c != '\0')
        scan_single(lx, tok, GC_SQL_TOK_PUNCT);
    else
        scan_single(lx, tok, GC_SQL_TOK_OTHER);
    return true;
}

bool gc_sql_lexer_next_code(gc_sql_lexer *lx, gc_sql_token *tok)
{
    while (gc_sql_lexer_next(lx, tok)) {
        if (!gc_sql_token_is_comment(tok) || tok->unterminated)
            return true;
    }
    return false;
}

bool gc_sql_token_is_name(const gc_sql_token *tok)
{
    return tok->kind == GC_SQL_TOK_IDENT || tok->kind == GC_SQL_TOK_QUOTED_IDENT;
}

const char *gc_sql_token_text(const gc_sql_lexer *lx, const gc_sql_token *tok)
{
    assert(tok->offset + tok->length <= lx->length);
    return lx->text + tok->offset;
}

bool gc_sql_ascii_equal_ci(const char *s, size_t n, const char *word)
{
    for (size_t i = 0; i < n; i++) {
        if (word[i] == '\0' || ascii_lower((unsigned char)s[i]) != ascii_lower((unsigned char)word[i]))
            return false;
    }
    return word[n] == '\0';
}

/* An ASCII letter, digit or `_`: what may not follow a word for it to end. */
static bool is_word_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_';
}

bool gc_sql_text_is_words(const char *text, size_t len, const char *const *words, size_t n)
{
    const char *p = text, *end = text + len;
    for (size_t i = 0; i < n; i++) {
        while (p < end && is_space((unsigned char)*p))
            p++;
        size_t w = strlen(words[i]);
        if ((size_t)(end - p) < w || !gc_sql_ascii_equal_ci(p, w, words[i]))
            return false;
        p += w;
        if (p < end && is_word_char((unsigned char)*p))
            return false;
    }
    while (p < end && (is_space((unsigned char)*p) || *p == ';'))
        p++;
    return p == end;
}

bool gc_sql_token_is_keyword(const gc_sql_lexer *lx, const gc_sql_token *tok,
                             const char *word)
{
    return tok->kind == GC_SQL_TOK_IDENT &&
           gc_sql_ascii_equal_ci(gc_sql_token_text(lx, tok), tok->length, word);
}

bool gc_sql_token_is_punct(const gc_sql_lexer *lx, const gc_sql_token *tok, char c)
{
    return tok->kind == GC_SQL_TOK_PUNCT && lx->text[tok->offset] == c;
}

bool gc_sql_token_is_operator(const gc_sql_lexer *lx, const gc_sql_token *tok,
                              const char *op)
{
    return tok->kind == GC_SQL_TOK_OPERATOR && strlen(op) == tok->length &&
           memcmp(gc_sql_token_text(lx, tok), op, tok->length) == 0;
}

bool gc_sql_token_is_comment(const gc_sql_token *tok)
{
    return tok->kind == GC_SQL_TOK_LINE_COMMENT || tok->kind == GC_SQL_TOK_BLOCK_COMMENT;
}

bool gc_sql_token_is_string(const gc_sql_token *tok)
{
    switch (tok->kind) {
    case GC_SQL_TOK_STRING:
    case GC_SQL_TOK_ESCAPE_STRING:
    case GC_SQL_TOK_UNICODE_STRING:
    case GC_SQL_TOK_NATIONAL_STRING:
    case GC_SQL_TOK_BIT_STRING:
    case GC_SQL_TOK_HEX_STRING:
    case GC_SQL_TOK_DOLLAR_STRING:
        return true;
    default:
        return false;
    }
}

size_t gc_sql_token_identifier(const gc_sql_lexer *lx, const gc_sql_token *tok,
                               char *buf, size_t cap)
{
    const char *s = gc_sql_token_text(lx, tok);
    size_t n = 0;
    if (tok->kind == GC_SQL_TOK_IDENT) {
        for (size_t i = 0; i < tok->length; i++, n++)
            if (n + 1 < cap)
                buf[n] = (char)ascii_lower((unsigned char)s[i]);
    } else if (tok->kind == GC_SQL_TOK_QUOTED_IDENT && !tok->unterminated) {
        assert(tok->length >= 2);
        for (size_t i = 1; i + 1 < tok->length; i++, n++) {
            if (s[i] == '"')
                i++;   /* "" stands for one " */
            if (n + 1 < cap)
                buf[n] = s[i];
        }
    } else {
        if (cap > 0)
            buf[0] = '\0';
        return 0;
    }
    if (cap > 0)
        buf[n < cap ? n : cap - 1] = '\0';
    return n;
}

unsigned long gc_sql_token_param_number(const gc_sql_lexer *lx, const gc_sql_token *tok)
{
    if (tok->kind != GC_SQL_TOK_POSITIONAL_PARAM)
        return 0;
    const char *s = gc_sql_token_text(lx, tok);
    unsigned long n = 0;
    for (size_t i = 1; i < tok->length; i++) {
        n = n * 10 + (unsigned long)(s[i] - '0');
        if (n > 0xFFFFFFFFUL)
            return 0xFFFFFFFFUL;
    }
    return n;
}

const char *gc_sql_token_kind_name(gc_sql_token_kind kind)
{
    switch (kind) {
    case GC_SQL_TOK_IDENT: return "identifier";
    case GC_SQL_TOK_QUOTED_IDENT: return "quoted identifier";
    case GC_SQL_TOK_UNICODE_IDENT: return "Unicode quoted identifier";
    case GC_SQL_TOK_STRING: return "string literal";
    case GC_SQL_TOK_ESCAPE_STRING: return "escape string literal";
    case GC_SQL_TOK_UNICODE_STRING: return "Unicode string literal";
    case GC_SQL_TOK_NATIONAL_STRING: return "national character string literal";
    case GC_SQL_TOK_BIT_STRING: return "bit string literal";
    case GC_SQL_TOK_HEX_STRING: return "hexadecimal string literal";
    case GC_SQL_TOK_DOLLAR_STRING: return "dollar-quoted string";
    case GC_SQL_TOK_NUMBER: return "number";
    case GC_SQL_TOK_OPERATOR: return "operator";
    case GC_SQL_TOK_PUNCT: return "punctuation";
    case GC_SQL_TOK_PARAM_MARKER: return "parameter marker";
    case GC_SQL_TOK_POSITIONAL_PARAM: return "positional parameter";
    case GC_SQL_TOK_LINE_COMMENT: return "line comment";
    case GC_SQL_TOK_BLOCK_COMMENT: return "block comment";
    case GC_SQL_TOK_OTHER: return "character";
    }
    return "token";
}
