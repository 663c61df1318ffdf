/*
 * Values the analyzer can pin a column to: a parameter ($n, optionally cast)
 * or a literal (number, string, typed literal, TRUE/FALSE, NULL), and the
 * decoding of string literals to the text the server would see.
 */
#include <assert.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sql/gc_analyzer_internal.h"
#include "util/gc_hex.h"

static char *copy_bytes(gc_az *az, const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p == NULL) {
        az->oom = true;
        return NULL;
    }
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

/* Appends code point cp as UTF-8 at out; returns bytes written, 0 when cp
 * is no valid character (PostgreSQL rejects those too). */
static size_t put_utf8(char *out, unsigned long cp)
{
    if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* The body of an E'...' string with escapes resolved, into out (at least
 * n bytes: the result is never longer). Returns the length, or SIZE_MAX for
 * an escape the analyzer does not trust (a bad Unicode escape). */
static size_t decode_escape_body(const char *s, size_t n, char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '\'' && i + 1 < n && s[i + 1] == '\'') {
            out[o++] = '\'';
            i++;
            continue;
        }
        if (c != '\\' || i + 1 >= n) {
            out[o++] = c;
            continue;
        }
        char e = s[++i];
        switch (e) {
        case 'b': out[o++] = '\b'; break;
        case 'f': out[o++] = '\f'; break;
        case 'n': out[o++] = '\n'; break;
        case 'r': out[o++] = '\r'; break;
        case 't': out[o++] = '\t'; break;
        case 'x': {
            int v = 0, d = 0;
            while (d < 2 && i + 1 < n && gc_hex_value(s[i + 1]) >= 0)
                v = v * 16 + gc_hex_value(s[++i]), d++;
            if (d == 0)
                out[o++] = 'x';
            else
                out[o++] = (char)v;
            break;
        }
        case 'u':
        case 'U': {
            int want = e == 'u' ? 4 : 8;
            unsigned long cp = 0;
            for (int d = 0; d < want; d++) {
                if (i + 1 >= n || gc_hex_value(s[i + 1]) < 0)
                    return SIZE_MAX;
                cp = cp * 16 + (unsigned long)gc_hex_value(s[++i]);
            }
            /* Written as 1 + want bytes, at most 4 out: never longer. */
            size_t w = put_utf8(out + o, cp);
            if (w == 0)
                return SIZE_MAX;
            o += w;
            break;
        }
        default:
            if (e >= '0' && e <= '7') {
                int v = e - '0';
                for (int d = 1; d < 3 && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '7'; d++)
                    v = v * 8 + (s[++i] - '0');
                out[o++] = (char)v;
            } else {
                out[o++] = e;
            }
        }
    }
    return o;
}

/* The value of string token i as a malloc'd text; NULL when the kind is not
 * one the analyzer decodes (or memory runs out: az->oom). */
static char *string_value(gc_az *az, size_t i)
{
    const gc_sql_token *t = &az->tok[i];
    const char *s = gc_sql_token_text(&az->lx, t);
    size_t n = t->length;
    switch (t->kind) {
    case GC_SQL_TOK_NATIONAL_STRING:
        s++, n--;
        /* fall through */
    case GC_SQL_TOK_STRING: {
        assert(n >= 2);
        char *out = malloc(n);
        if (out == NULL) {
            az->oom = true;
            return NULL;
        }
        size_t o = 0;
        for (size_t k = 1; k + 1 < n; k++) {
            out[o++] = s[k];
            if (s[k] == '\'')
                k++;   /* '' stands for one ' */
        }
        out[o] = '\0';
        return out;
    }
    case GC_SQL_TOK_ESCAPE_STRING: {
        assert(n >= 3);
        char *out = malloc(n);
        if (out == NULL) {
            az->oom = true;
            return NULL;
        }
        size_t o = decode_escape_body(s + 2, n - 3, out);
        if (o == SIZE_MAX) {
            free(out);
            return NULL;
        }
        out[o] = '\0';
        return out;
    }
    case GC_SQL_TOK_DOLLAR_STRING: {
        const char *close = memchr(s + 1, '$', n - 1);
        assert(close != NULL);
        size_t tag = (size_t)(close - s) + 1;
        assert(2 * tag <= n);
        return copy_bytes(az, s + tag, n - 2 * tag);
    }
    default:
        return NULL;
    }
}

/* Skips a type name at i: words, dotted names, a (modifier) list and [].
 * Returns the index past it, or i when there is none. */
static size_t skip_type(const gc_az *az, size_t i, size_t end)
{
    size_t j = i;
    while (j < end && (az->tok[j].kind == GC_SQL_TOK_IDENT ||
                       az->tok[j].kind == GC_SQL_TOK_QUOTED_IDENT)) {
        j++;
        if (gc_az_punct(az, j, '.'))
            j++;
    }
    if (j == i)
        return i;
    if (j < end && gc_az_punct(az, j, '('))
        j = gc_az_skip_parens(az, j, end);
    while (j + 1 < end && gc_az_punct(az, j, '[') && gc_az_punct(az, j + 1, ']'))
        j += 2;
    return j;
}

/* Skips `::type` casts after a value. */
static size_t skip_casts(const gc_az *az, size_t i, size_t end)
{
    while (i < end && gc_az_op(az, i, "::")) {
        size_t j = skip_type(az, i + 1, end);
        if (j == i + 1)
            return i;
        i = j;
    }
    return i;
}

/* A value without casts at i. */
static size_t parse_bare_value(gc_az *az, size_t i, size_t end, gc_value_source *v)
{
    const gc_sql_token *t = &az->tok[i];
    if (t->kind == GC_SQL_TOK_POSITIONAL_PARAM) {
        unsigned long num = gc_sql_token_param_number(&az->lx, t);
        if (num == 0 || num > (unsigned long)INT_MAX)
            return 0;
        v->param = (int)(num - 1);
        return i + 1;
    }
    if (t->kind == GC_SQL_TOK_NUMBER) {
        v->literal = copy_bytes(az, gc_sql_token_text(&az->lx, t), t->length);
        return v->literal ? i + 1 : 0;
    }
    if ((gc_az_op(az, i, "-") || gc_az_op(az, i, "+")) && i + 1 < end &&
        az->tok[i + 1].kind == GC_SQL_TOK_NUMBER) {
        const gc_sql_token *num = &az->tok[i + 1];
        bool minus = gc_az_op(az, i, "-");
        size_t len = num->length + (minus ? 1 : 0);
        char *s = malloc(len + 1);
        if (s == NULL) {
            az->oom = true;
            return 0;
        }
        if (minus)
            s[0] = '-';
        memcpy(s + (minus ? 1 : 0), gc_sql_token_text(&az->lx, num), num->length);
        s[len] = '\0';
        v->literal = s;
        return i + 2;
    }
    if (gc_sql_token_is_string(t)) {
        v->literal = string_value(az, i);
        return v->literal ? i + 1 : 0;
    }
    if (gc_az_kw(az, i, "null"))
        return i + 1;   /* param -1, literal NULL */
    if (gc_az_kw(az, i, "true") || gc_az_kw(az, i, "false")) {
        v->literal = copy_bytes(az, gc_az_kw(az, i, "true") ? "true" : "false",
                                gc_az_kw(az, i, "true") ? 4 : 5);
        return v->literal ? i + 1 : 0;
    }
    if (gc_az_kw(az, i, "cast") && gc_az_punct(az, i + 1, '(')) {
        size_t close = gc_az_skip_parens(az, i + 1, end);
        size_t j = parse_bare_value(az, i + 2, close, v);
        if (j == 0)
            return 0;
        j = skip_casts(az, j, close);
        if (!gc_az_kw(az, j, "as") || skip_type(az, j + 1, close) + 1 != close ||
            !gc_az_punct(az, close - 1, ')')) {
            free(v->literal);
            v->literal = NULL;
            return 0;
        }
        return close;
    }
    /* A typed literal: DATE '...', TIMESTAMP WITH TIME ZONE '...'. */
    if (t->kind == GC_SQL_TOK_IDENT) {
        size_t j = i;
        while (j < end && j < i + 4 && az->tok[j].kind == GC_SQL_TOK_IDENT)
            j++;
        if (j < end && az->tok[j].kind == GC_SQL_TOK_STRING) {
            v->literal = string_value(az, j);
            return v->literal ? j + 1 : 0;
        }
    }
    return 0;
}

size_t gc_az_parse_value(gc_az *az, size_t i, size_t end, gc_value_source *v)
{
    v->param = -1;
    v->literal = NULL;
    if (i >= end)
        return 0;
    size_t j = parse_bare_value(az, i, end, v);
    if (j == 0)
        return 0;
    j = skip_casts(az, j, end);
    if (j != end) {
        free(v->literal);
        v->literal = NULL;
        v->param = -1;
        return 0;
    }
    return j;
}
