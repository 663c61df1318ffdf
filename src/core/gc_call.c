/*
 * gc_call: call escapes with output parameters; see gc_call.h.
 */
#include "core/gc_call.h"
#include "core/gc_conn_kind.h"

#include <stdlib.h>
#include <string.h>

#include "core/gc_desc.h"
#include "core/gc_param.h"
#include "core/gc_stmt_cache.h"
#include "sql/gc_sql_lexer.h"
#include "util/gc_strbuf.h"

/* What the rewriter puts before the procedure's name. */
#define CALL_PREFIX "SELECT * FROM "

enum { CALL_UNKNOWN = 0, CALL_FUNCTION, CALL_PROCEDURE };

/* Whether name (schema $2, '' for the search path) names a procedure. */
#define PROCEDURE_QUERY                                                              \
    "SELECT coalesce(bool_or(p.prokind = 'p'), false) FROM pg_catalog.pg_proc p "    \
    "WHERE p.proname = $1 AND CASE WHEN $2 = '' "                                    \
    "THEN pg_catalog.pg_function_is_visible(p.oid) "                                 \
    "ELSE p.pronamespace = pg_catalog.to_regnamespace($2)::oid END"

/* Parameter i (0-based) sends nothing: bound SQL_PARAM_OUTPUT, or the
 * result marker of {?= call}. */
static bool is_output_only(const gc_stmt *s, int i)
{
    if (s->call_returns && i == 0)
        return true;
    const gc_desc_rec *p = gc_desc_rec_find(s->ipd, i + 1);
    return p != NULL && p->parameter_type == SQL_PARAM_OUTPUT;
}

/* Parameter i receives a value after the call. */
static bool is_output(const gc_stmt *s, int i)
{
    if (is_output_only(s, i))
        return true;
    const gc_desc_rec *p = gc_desc_rec_find(s->ipd, i + 1);
    return p != NULL && p->parameter_type == SQL_PARAM_INPUT_OUTPUT;
}

/* Whether s's text is PostgreSQL's own CALL statement (not an escape). */
static bool is_plain_call(const gc_stmt *s)
{
    if (s->call_escape || s->sql == NULL)
        return false;
    gc_sql_lexer lx;
    gc_sql_lexer_init(&lx, s->sql, strlen(s->sql));
    gc_sql_token tok;
    return gc_sql_lexer_next_code(&lx, &tok) && gc_sql_token_is_keyword(&lx, &tok, "call");
}

bool gc_call_has_outputs(const gc_stmt *s)
{
    bool any = false;
    for (int i = 0; i < s->nparams && !any; i++)
        any = is_output(s, i);
    return any && (s->call_escape || is_plain_call(s));
}

/* Copies the identifier at *p (quoted: without quotes, "" undoubled;
 * unquoted: folded to lower case) into out and moves *p past it. */
static void take_identifier(const char **p, gc_strbuf *out)
{
    const char *c = *p;
    if (*c == '"') {
        for (c++; *c != '\0'; c++) {
            if (*c == '"' && c[1] != '"')
                break;
            if (*c == '"')
                c++;
            gc_strbuf_append_char(out, *c);
        }
        if (*c == '"')
            c++;
    } else {
        for (; *c != '\0' && *c != '.' && *c != '(' && *c != ' '; c++)
            gc_strbuf_append_char(out, *c >= 'A' && *c <= 'Z' ? (char)(*c - 'A' + 'a') : *c);
    }
    *p = c;
}

/* Splits the called name of call_text into its schema ("" when not
 * qualified) and name, as the catalog spells them. */
static void called_name(const char *call_text, gc_strbuf *schema, gc_strbuf *name)
{
    const char *p = call_text + strlen(CALL_PREFIX);
    for (;;) {
        gc_strbuf part;
        gc_strbuf_init(&part);
        take_identifier(&p, &part);
        if (*p != '.') {
            gc_strbuf_free(name);
            *name = part;
            return;
        }
        p++;
        gc_strbuf_free(schema);
        *schema = part;
    }
}

/* Asks the catalog whether the called name is a procedure: once per name
 * and connection until the connection runs DDL. */
static SQLRETURN look_up_kind(gc_stmt *s)
{
    gc_session *m = s->conn->session;
    if (m == NULL || !gc_session_is_open(m)) {
        s->call_kind = CALL_FUNCTION;    /* a global connection before routing */
        return SQL_SUCCESS;
    }
    gc_strbuf schema, name;
    gc_strbuf_init(&schema);
    gc_strbuf_init(&name);
    called_name(s->call_text, &schema, &name);
    const char *values[2] = { name.data != NULL ? name.data : "",
                              schema.data != NULL ? schema.data : "" };
    gc_strbuf key;
    gc_strbuf_init(&key);
    gc_strbuf_appendf(&key, "%s.%s", values[1], values[0]);
    s->call_kind = key.data != NULL
                       ? gc_call_kinds_find(&s->conn->call_kinds, key.data, s->conn->ddl_epoch)
                       : CALL_UNKNOWN;
    if (s->call_kind != CALL_UNKNOWN) {
        gc_strbuf_free(&key);
        gc_strbuf_free(&schema);
        gc_strbuf_free(&name);
        return SQL_SUCCESS;
    }
    gc_error err;
    gc_error_clear(&err);
    SQLRETURN rc = SQL_ERROR;
    if (!gc_session_send_query_params(m, PROCEDURE_QUERY, 2, NULL, values, NULL, NULL, &err)) {
        gc_diag_add_error(&s->h.diag, &err);
    } else {
        PGresult *r;
        while ((r = gc_session_next_result(m)) != NULL) {
            if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1) {
                s->call_kind = strcmp(PQgetvalue(r, 0, 0), "t") == 0 ? CALL_PROCEDURE
                                                                     : CALL_FUNCTION;
                if (key.data != NULL)
                    gc_call_kinds_remember(&s->conn->call_kinds, key.data, s->call_kind,
                                           s->conn->ddl_epoch);
                rc = SQL_SUCCESS;
            } else if (rc != SQL_SUCCESS) {
                gc_stmt_add_member_error(s, m, r);
            }
            PQclear(r);
        }
    }
    gc_strbuf_free(&key);
    gc_strbuf_free(&schema);
    gc_strbuf_free(&name);
    return rc;
}

/* Whether an argument of `tokens` tokens, the first `first`, is just the
 * positional parameter of an output-only parameter. */
static bool is_output_argument(const gc_stmt *s, const gc_sql_lexer *lx,
                               const gc_sql_token *first, int tokens)
{
    if (tokens != 1 || first->kind != GC_SQL_TOK_POSITIONAL_PARAM)
        return false;
    unsigned long n = gc_sql_token_param_number(lx, first);
    return n >= 1 && n <= (unsigned long)s->nparams && is_output_only(s, (int)n - 1);
}

/* The function call of call_text without its output-only arguments
 * (PostgreSQL's functions do not take OUT arguments). Caller frees. */
static char *function_text(const gc_stmt *s)
{
    const char *text = s->call_text;
    size_t name_end = 0;
    gc_strbuf out;
    gc_strbuf_init(&out);
    /* The name may hold a quoted '(': find the argument list by tokens. */
    gc_sql_lexer lx;
    gc_sql_lexer_init(&lx, text, strlen(text));
    gc_sql_token tok;
    while (gc_sql_lexer_next_code(&lx, &tok))
        if (gc_sql_token_is_punct(&lx, &tok, '(')) {
            name_end = tok.offset;
            break;
        }
    if (name_end == 0)
        return strdup(text);
    gc_strbuf_append(&out, text, name_end);
    gc_strbuf_append_char(&out, '(');
    int depth = 0, kept = 0, tokens = 0;
    size_t arg_start = 0, arg_end = 0;
    gc_sql_token first = {0};
    while (gc_sql_lexer_next_code(&lx, &tok)) {
        bool at_top = depth == 0;
        if (gc_sql_token_is_punct(&lx, &tok, '(') || gc_sql_token_is_punct(&lx, &tok, '['))
            depth++;
        bool closes = gc_sql_token_is_punct(&lx, &tok, ')') || gc_sql_token_is_punct(&lx, &tok, ']');
        if (at_top && (closes || gc_sql_token_is_punct(&lx, &tok, ','))) {
            if (tokens > 0 && !is_output_argument(s, &lx, &first, tokens)) {
                if (kept++ > 0)
                    gc_strbuf_append_str(&out, ", ");
                gc_strbuf_append(&out, text + arg_start, arg_end - arg_start);
            }
            tokens = 0;
            if (closes)
                break;
            continue;
        }
        if (closes)
            depth--;
        if (tokens++ == 0) {
            first = tok;
            arg_start = tok.offset;
        }
        arg_end = tok.offset + tok.length;
    }
    gc_strbuf_append_char(&out, ')');
    return gc_strbuf_take(&out);
}

SQLRETURN gc_call_before_exec(gc_stmt *s)
{
    if (!s->call_escape)
        return SQL_SUCCESS;
    if (s->call_text == NULL && (s->call_text = strdup(s->sql)) == NULL) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    if (s->call_kind == CALL_UNKNOWN && look_up_kind(s) != SQL_SUCCESS)
        return SQL_ERROR;
    char *text;
    if (s->call_kind == CALL_PROCEDURE) {
        const char *call = s->call_text + strlen(CALL_PREFIX);
        text = malloc(strlen(call) + 6);
        if (text != NULL) {
            memcpy(text, "CALL ", 5);
            strcpy(text + 5, call);
        }
    } else {
        text = function_text(s);
    }
    if (text == NULL) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    if (strcmp(text, s->sql) == 0) {
        free(text);
        return SQL_SUCCESS;
    }
    /* Another text: its server statement and routing analysis go. */
    gc_stmt_cache_release(s);
    free(s->sql);
    s->sql = text;
    s->keeps_parked_statements = gc_stmt_cache_text_keeps(s->sql);
    gc_route_free(s);
    s->conn->kind->analyze(s);
    return SQL_SUCCESS;
}

void gc_call_adjust_values(const gc_stmt *s, gc_param_value *pv)
{
    if (!s->call_escape)
        return;
    for (int i = 0; i < s->nparams; i++) {
        if (!is_output_only(s, i))
            continue;
        bool in_text = s->call_kind == CALL_PROCEDURE && !(s->call_returns && i == 0);
        pv[i].type_oid = in_text ? 0 : GC_OID_TEXT;
    }
}

/* Writes one value of the call's row (NULL when the row lacks it) to
 * output parameter i of row `row`. */
static SQLRETURN write_output(gc_stmt *s, int i, SQLULEN row, const PGresult *r, int r_row,
                              int col)
{
    gc_param_ref ref;
    gc_param_locate(s, i, row, &ref);
    bool present = r != NULL && r_row >= 0 && col < PQnfields(r);
    gc_fetch_target target = {
        .c_type = ref.c_type,
        .buffer = (SQLPOINTER)ref.value,    /* the application's output buffer */
        .buffer_length = ref.buffer_length,
        .length = ref.length_ptr,
        .indicator = ref.indicator_ptr,
        .precision = (SQLSMALLINT)ref.column_size,
        .scale = ref.decimal_digits,
    };
    bool is_null = !present || PQgetisnull(r, r_row, col);
    const char *text = is_null ? NULL : PQgetvalue(r, r_row, col);
    gc_error err;
    gc_error_clear(&err);
    SQLRETURN rc = gc_convert_value_to_c(present ? PQftype(r, col) : GC_OID_TEXT, text,
                                         text != NULL ? (size_t)PQgetlength(r, r_row, col) : 0,
                                         is_null, &target, NULL, &err);
    if (rc == SQL_ERROR || rc == SQL_SUCCESS_WITH_INFO) {
        gc_error about;
        gc_error_set(&about, err.sqlstate, err.native, "output parameter %d: %s", i + 1,
                     err.message);
        gc_diag_add_error(&s->h.diag, &about);
    }
    return rc;
}

SQLRETURN gc_call_take_outputs(gc_stmt *s, SQLULEN row)
{
    if (!gc_call_has_outputs(s))
        return SQL_SUCCESS;
    SQLRETURN result = SQL_SUCCESS;
    bool have_row = false;
    if (s->state == GC_STMT_CURSOR) {
        SQLRETURN got = gc_result_next_row(s);
        if (got == SQL_ERROR)
            return SQL_ERROR;
        have_row = got == SQL_SUCCESS;
    }
    const PGresult *r = have_row ? s->block : NULL;
    int col = 0;
    /* `?` markers of a CALL's arguments are the parameters in order, and so
     * are the columns of the row a CALL returns (its INOUT and OUT
     * arguments), as for an escape. */
    for (int i = 0; i < s->nparams; i++) {
        if (!is_output(s, i))
            continue;
        SQLRETURN rc = write_output(s, i, row, r, have_row ? s->current_row : -1, col++);
        if (rc == SQL_ERROR)
            result = SQL_ERROR;
        else if (rc == SQL_SUCCESS_WITH_INFO && result == SQL_SUCCESS)
            result = rc;
    }
    /* The call's row stays the result set, as with psqlODBC: a CALL the
     * application wrote and {call} keep all its columns; {?= call} of a
     * function returning one value hides that value, which leaves a row
     * of no columns. Put back the row just read. */
    bool one_value = r != NULL && PQnfields(r) == 1;
    if (!s->call_escape || !s->call_returns || one_value) {
        if (have_row) {
            s->block_next--;
            s->current_row = -1;
        }
        if (s->call_escape && s->call_returns)
            gc_desc_clear_records(s->ird);
        return result;
    }
    /* {?= call} of a function returning a row: no result set is left. */
    gc_stmt_discard_results(s);
    gc_desc_clear_records(s->ird);
    s->state = GC_STMT_EXECUTED;
    s->row_count = -1;
    return result;
}
