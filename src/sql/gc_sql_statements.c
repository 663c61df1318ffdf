/*
 * gc_sql_statements: the first statement of a text, and parameters written
 * into a text as literals (see the header).
 */
#include "sql/gc_sql_statements.h"

#include <stdlib.h>
#include <string.h>

#include "sql/gc_sql_lexer.h"
#include "util/gc_strbuf.h"

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

char *gc_sql_substitute_params(const char *sql, size_t len, bool standard_strings,
                               const char *const *literals, unsigned n)
{
    gc_sql_lexer lx;
    gc_sql_token tok;
    gc_sql_lexer_init(&lx, sql, len);
    gc_sql_lexer_set_standard_strings(&lx, standard_strings);
    gc_strbuf b;
    gc_strbuf_init(&b);
    size_t copied = 0;
    while (gc_sql_lexer_next(&lx, &tok)) {
        unsigned long k = gc_sql_token_param_number(&lx, &tok);
        if (tok.kind != GC_SQL_TOK_POSITIONAL_PARAM || k < 1 || k > n)
            continue;
        gc_strbuf_append(&b, sql + copied, tok.offset - copied);
        gc_strbuf_append_str(&b, literals[k - 1]);
        copied = tok.offset + tok.length;
    }
    gc_strbuf_append(&b, sql + copied, len - copied);
    return gc_strbuf_take(&b);
}

char *gc_sql_quote_literal(const char *value, size_t len, const char *type_name)
{
    gc_strbuf b;
    gc_strbuf_init(&b);
    gc_strbuf_append_str(&b, "E'");
    size_t from = 0;
    for (size_t i = 0; i < len; i++) {
        if (value[i] != '\'' && value[i] != '\\')
            continue;
        gc_strbuf_append(&b, value + from, i + 1 - from);   /* up to and with the byte */
        gc_strbuf_append_char(&b, value[i]);                /* doubled */
        from = i + 1;
    }
    gc_strbuf_append(&b, value + from, len - from);
    gc_strbuf_append_char(&b, '\'');
    if (type_name != NULL)
        gc_strbuf_appendf(&b, "::%s", type_name);
    return gc_strbuf_take(&b);
}

void gc_sql_append_identifier(gc_strbuf *sb, const char *name)
{
    gc_strbuf_append_char(sb, '"');
    for (const char *p = name; *p != '\0'; p++) {
        if (*p == '"')
            gc_strbuf_append_char(sb, '"');
        gc_strbuf_append_char(sb, *p);
    }
    gc_strbuf_append_char(sb, '"');
}
