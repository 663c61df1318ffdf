/*
 * libFuzzer target for the SQL text layer: any byte string must lex into
 * tokens that tile it and rewrite (with every flag combination) either into
 * text that reads back cleanly or into an error with a known SQLSTATE,
 * and its table references must lie inside it.
 * A violated invariant aborts, which libFuzzer reports as a crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sql/gc_sql_lexer.h"
#include "sql/gc_sql_rewrite.h"
#include "sql/gc_sql_table_refs.h"
#include "fuzz_target.h"


static void check_tokens(const char *text, size_t len)
{
    gc_sql_lexer lx;
    gc_sql_token tok;
    size_t pos = 0;
    gc_sql_lexer_init(&lx, text, len);
    while (gc_sql_lexer_next(&lx, &tok)) {
        CHECK(tok.length > 0);
        CHECK(tok.offset >= pos);
        CHECK(tok.offset + tok.length <= len);
        for (size_t i = pos; i < tok.offset; i++)
            CHECK(strchr(" \t\n\r\f\v", text[i]) != NULL && text[i] != '\0');
        if (tok.unterminated)
            CHECK(tok.offset + tok.length == len);
        pos = tok.offset + tok.length;
    }
}

static void check_rewrite(const char *text, size_t len, unsigned flags)
{
    gc_sql_rewritten out, again;
    gc_error err;
    if (!gc_sql_rewrite(text, len, flags, &out, &err)) {
        CHECK(out.text == NULL);
        CHECK(strcmp(err.sqlstate, "42601") == 0 || strcmp(err.sqlstate, "42000") == 0 ||
              strcmp(err.sqlstate, "HYC00") == 0 ||
              (strcmp(err.sqlstate, "22021") == 0 && memchr(text, '\0', len) != NULL));
        return;
    }
    CHECK(out.text != NULL && out.text[out.length] == '\0');
    if (flags == 0)
        CHECK(out.length == len && memcmp(out.text, text, len) == 0);
    /* The result is valid input again, and markers rewritten leave none. */
    CHECK(gc_sql_rewrite(out.text, out.length, 0, &again, &err));
    if (flags & GC_SQL_MARKERS_TO_DOLLAR) {
        CHECK(again.marker_count == 0);
        if (!(flags & GC_SQL_TRANSLATE_ESCAPES))
            CHECK(again.max_positional == out.param_count);
    }
    gc_sql_rewritten_free(&again);
    gc_sql_rewritten_free(&out);
}

static void check_table_refs(const char *text, size_t len)
{
    gc_sql_table_ref refs[8];
    int n = gc_sql_table_refs(text, len, refs, 8);
    for (int i = 0; i < n && i < 8; i++) {
        CHECK(refs[i].length > 0 && refs[i].offset + refs[i].length <= len);
        CHECK(refs[i].name_offset >= refs[i].offset &&
              refs[i].name_offset + refs[i].name_length == refs[i].offset + refs[i].length);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t len;
    char *text = fuzz_input_copy(data, size, 0, false, &len);
    if (text == NULL)
        return 0;
    check_tokens(text, len);
    check_table_refs(text, len);
    for (unsigned flags = 0; flags < 4; flags++)
        check_rewrite(text, len, flags);
    free(text);
    return 0;
}
