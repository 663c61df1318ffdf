/*
 * gc_exec_several: a text of several statements with parameters, run as a
 * simple query with the values as literals, described by its first
 * statement (see the header).
 */
#include "core/gc_exec_several.h"

#include <stdlib.h>
#include <string.h>

#include "core/gc_conn.h"
#include "convert/gc_convert.h"
#include "sql/gc_sql_rewrite.h"
#include "sql/gc_sql_statements.h"
#include "util/gc_strbuf.h"

static bool standard_strings(const gc_stmt *s)
{
    return (gc_conn_sql_rewrite_flags(s->conn) & GC_SQL_BACKSLASH_STRINGS) == 0;
}

size_t gc_exec_several_statement_length(const gc_stmt *s, const char *sql, size_t len)
{
    return gc_sql_first_statement_length(sql, len, standard_strings(s));
}

char *gc_exec_several_first_statement(gc_stmt *s)
{
    size_t len = gc_exec_several_statement_length(s, s->sql, strlen(s->sql));
    char *first = strndup(s->sql, len);
    if (first == NULL)
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
    return first;
}

/* One value as SQL: NULL or an escape string, cast to the type the
 * parameter would have been declared as (none: the server infers it, as
 * for an untyped parameter). malloc'd; NULL when out of memory. */
static char *value_literal(const gc_param_value *pv)
{
    const char *type_name = NULL;
    if (pv->type_oid != 0) {
        gc_pgtype_info info;
        gc_pgtype_describe(pv->type_oid, -1, &info);
        type_name = info.type_name;
    }
    if (pv->data == NULL) {
        gc_strbuf null;
        gc_strbuf_init(&null);
        gc_strbuf_append_str(&null, "NULL");
        if (type_name != NULL)
            gc_strbuf_appendf(&null, "::%s", type_name);
        return gc_strbuf_take(&null);
    }
    size_t len = 0;
    char *text = gc_param_value_text(pv, &len);
    if (text == NULL)
        return NULL;
    char *literal = gc_sql_quote_literal(text, len, type_name);
    free(text);
    return literal;
}

char *gc_exec_several_with_values(gc_stmt *s, const gc_param_value *pv, int n)
{
    char **literals = calloc((size_t)n, sizeof *literals);
    bool ok = literals != NULL;
    for (int i = 0; ok && i < n; i++)
        ok = (literals[i] = value_literal(&pv[i])) != NULL;
    char *text = ok ? gc_sql_substitute_params(s->sql, strlen(s->sql), standard_strings(s),
                                               (const char *const *)literals, (unsigned)n)
                    : NULL;
    for (int i = 0; literals != NULL && i < n; i++)
        free(literals[i]);
    free(literals);
    if (text == NULL)
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
    return text;
}
