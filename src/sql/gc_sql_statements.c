/*
 * gc_sql_statements: the first statement of a text, and parameters written
 * into a text as literals (see the header).
 */
#include "sql/gc_sql_statements.h"

#include <stdlib.h>
#include <string.h>

#include "sql/gc_sql_lexer.h"

size_t gc_sql_first_statement_length(const char *sql, size_t len, bool standard_strings)
{
    gc_sql_lexer lx;
    gc_sql_token tok;
    gc_sql_lexer_init(&lx, sql, len);
    gc_sql_lexer_set_standard_strings(&lx, standard_strings);
    int depth = 0;
    bool any_code = false;
    while (gc_sql_lexer_next_code(&lx, &tok)) {
        if (gc_sql_token_is_punct(&lx, &tok, '('))
            depth++;
        else if (gc_sql_token_is_punct(&lx, &tok, ')') && depth > 0)
            depth--;
        else if (depth == 0 && gc_sql_token_is_punct(&lx, &tok, ';') && any_code)
            return tok.offset;
        if (!gc_sql_token_is_punct(&lx, &tok, ';'))
            any_code = true;    /* leading empty statements are skipped */
    }
    return len;
}

/* A growing output text. */
typedef struct text_buf {
    char *data;
    size_t len, cap;
    bool failed;
} text_buf;

static void append(text_buf *b, const char *p, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap == 0 ? 256 : b->cap;
        while (b->len + n + 1 > cap)
            cap *= 2;
        char *grown = realloc(b->data, cap);
        if (grown == NULL) {
            b->failed = true;
            return;
        }
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
}

static char *finish(text_buf *b)
{
    if (b->failed || b->data == NULL) {
        free(b->data);
        return NULL;
    }
    return b->data;
}

char *gc_sql_substitute_params(const char *sql, size_t len, bool standard_strings,
                               const char *const *literals, unsigned n)
{
    gc_sql_lexer lx;
    gc_sql_token tok;
    gc_sql_lexer_init(&lx, sql, len);
    gc_sql_lexer_set_standard_strings(&lx, standard_strings);
    text_buf b = { 0 };
    size_t copied = 0;
    append(&b, "", 0);
    while (gc_sql_lexer_next(&lx, &tok)) {
        unsigned long k = gc_sql_token_param_number(&lx, &tok);
        if (tok.kind != GC_SQL_TOK_POSITIONAL_PARAM || k < 1 || k > n)
            continue;
        append(&b, sql + copied, tok.offset - copied);
        append(&b, literals[k - 1], strlen(literals[k - 1]));
        copied = tok.offset + tok.length;
    }
    append(&b, sql + copied, len - copied);
    return finish(&b);
}

char *gc_sql_quote_literal(const char *value, size_t len, const char *type_name)
{
    text_buf b = { 0 };
    append(&b, "E'", 2);
    size_t from = 0;
    for (size_t i = 0; i < len; i++) {
        if (value[i] != '\'' && value[i] != '\\')
            continue;
        append(&b, value + from, i + 1 - from);   /* up to and with the byte */
        append(&b, value + i, 1);                 /* doubled */
        from = i + 1;
    }
    append(&b, value + from, len - from);
    append(&b, "'", 1);
    if (type_name != NULL) {
        append(&b, "::", 2);
        append(&b, type_name, strlen(type_name));
    }
    return finish(&b);
}
