/*
 * gc_catalog_args: catalog arguments become text parameters of a catalog
 * query. Every filter in the queries is written `($n IS NULL OR x LIKE $n)`,
 * so each argument is turned into a LIKE pattern: patterns pass through
 * (ODBC's search escape, backslash, is also LIKE's default escape), literal
 * arguments and identifiers get their wildcards escaped.
 */
#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gc_catalog_internal.h"
#include "util/gc_strbuf.h"

void gc_catq_init(gc_catq *q, gc_stmt *s)
{
    assert(q != NULL && s != NULL);
    memset(q, 0, sizeof *q);
    q->s = s;
    q->metadata_id = gc_catalog_metadata_id(s);
}

void gc_catq_free(gc_catq *q)
{
    for (int i = 0; i < q->nparams; i++)
        free(q->values[i]);
    q->nparams = 0;
    free(q->owner_schema);
    free(q->owner_table);
    q->owner_schema = q->owner_table = NULL;
}

static void catq_out_of_memory(gc_catq *q)
{
    if (!q->failed)
        gc_diag_add(gc_catalog_diag(q->s), "HY001", 0, "out of memory");
    q->failed = true;
}

/* Appends an owned value (NULL = SQL NULL unless `missing` says the
 * allocation failed). */
static void catq_push(gc_catq *q, char *value, bool missing)
{
    assert(q->nparams < GC_CATQ_MAX_PARAMS);
    if (missing)
        catq_out_of_memory(q);
    q->values[q->nparams++] = value;
}

/* A pattern as LIKE accepts it: an escape character at the very end would be
 * an error in PostgreSQL, so it is made a literal backslash. Caller frees. */
static char *pattern_to_like(const char *p)
{
    size_t n = strlen(p);
    bool dangling = false;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\\') {
            if (i + 1 == n)
                dangling = true;
            i++;
        }
    }
    char *out = malloc(n + 2);
    if (out == NULL)
        return NULL;
    memcpy(out, p, n);
    if (dangling)
        out[n++] = '\\';
    out[n] = '\0';
    return out;
}

/* A literal string as a LIKE pattern matching exactly it. Caller frees. */
static char *literal_to_like(const char *s, size_t len)
{
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\\' || s[i] == '%' || s[i] == '_')
            gc_strbuf_append_char(&sb, '\\');
        gc_strbuf_append_char(&sb, s[i]);
    }
    if (!sb.failed && sb.data == NULL)
        gc_strbuf_append(&sb, "", 0);
    return gc_strbuf_take(&sb);
}

/*
 * An identifier argument (SQL_ATTR_METADATA_ID true) as a LIKE pattern:
 * surrounding spaces are dropped; a quoted identifier is taken as written
 * (with "" meaning "); an unquoted one is folded to lower case, as
 * PostgreSQL folds unquoted names. Caller frees.
 */
static char *identifier_to_like(const char *s)
{
    size_t len = strlen(s);
    while (len > 0 && isspace((unsigned char)s[0])) {
        s++;
        len--;
    }
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        len--;
    if (len >= 2 && s[0] == '"' && s[len - 1] == '"') {
        char *plain = malloc(len);
        if (plain == NULL)
            return NULL;
        size_t n = 0;
        for (size_t i = 1; i + 1 < len; i++) {
            plain[n++] = s[i];
            if (s[i] == '"' && s[i + 1] == '"' && i + 2 < len)
                i++;
        }
        char *like = literal_to_like(plain, n);
        free(plain);
        return like;
    }
    char *folded = malloc(len + 1);
    if (folded == NULL)
        return NULL;
    for (size_t i = 0; i < len; i++)
        folded[i] = (char)tolower((unsigned char)s[i]);
    folded[len] = '\0';
    char *like = literal_to_like(folded, len);
    free(folded);
    return like;
}

/* Adds one argument; `empty_matches_none` says what "" means (see the
 * header: a scope or a listing's own name does not filter, an object's
 * name matches nothing). */
static void catq_add(gc_catq *q, const char *arg, gc_catarg_kind kind, bool required,
                     bool empty_matches_none)
{
    if (arg == NULL && q->metadata_id && required) {
        if (!q->failed)
            gc_diag_add(gc_catalog_diag(q->s), "HY009", 0,
                        "invalid use of null pointer: SQL_ATTR_METADATA_ID is "
                        "SQL_TRUE and a name argument is a null pointer");
        q->failed = true;
        catq_push(q, NULL, false);
        return;
    }
    if (arg == NULL || (arg[0] == '\0' && !empty_matches_none)) {
        catq_push(q, NULL, false);
        return;
    }
    char *like;
    if (q->metadata_id)
        like = identifier_to_like(arg);
    else if (kind == GC_CATARG_PATTERN)
        like = pattern_to_like(arg);
    else
        like = literal_to_like(arg, strlen(arg));
    q->name_arg[q->nparams] = !q->metadata_id;
    catq_push(q, like, like == NULL);
}

void gc_catq_arg(gc_catq *q, const char *arg, gc_catarg_kind kind, bool required)
{
    catq_add(q, arg, kind, required, false);
}

void gc_catq_name_arg(gc_catq *q, const char *arg, gc_catarg_kind kind, bool required)
{
    catq_add(q, arg, kind, required, true);
}

void gc_catq_text(gc_catq *q, const char *text)
{
    char *copy = text != NULL ? strdup(text) : NULL;
    catq_push(q, copy, text != NULL && copy == NULL);
}

void gc_catq_int(gc_catq *q, long value)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%ld", value);
    gc_catq_text(q, buf);
}

void gc_catq_typemap(gc_catq *q)
{
    char *map = gc_catalog_typemap_text(&q->s->conn->settings,
                                        gc_catalog_type_view(q->s->conn));
    catq_push(q, map, map == NULL);
}

/* True when `name` has an upper-case letter and no lower-case one (ASCII
 * letters only; other bytes, wildcards and escapes do not count): psqlODBC's
 * test for a name to fold when nothing matched it as written. */
static bool upper_case_only(const char *name)
{
    bool upper = false;
    for (const char *p = name; p != NULL && *p != '\0'; p++) {
        if (islower((unsigned char)*p))
            return false;
        upper = upper || isupper((unsigned char)*p);
    }
    return upper;
}

static void lower_in_place(char *s)
{
    for (; *s != '\0'; s++)
        *s = (char)tolower((unsigned char)*s);
}

/* Lower-cases in place the name arguments (and the owner table's names)
 * written in upper case only; false when there was none, so running again
 * could not find anything more. */
static bool fold_upper_case_names(gc_catq *q)
{
    bool folded = false;
    for (int i = 0; i < q->nparams; i++) {
        if (q->name_arg[i] && upper_case_only(q->values[i])) {
            lower_in_place(q->values[i]);
            folded = true;
        }
    }
    if (folded && upper_case_only(q->owner_schema))
        lower_in_place(q->owner_schema);
    if (folded && upper_case_only(q->owner_table))
        lower_in_place(q->owner_table);
    return folded;
}

/* True when the statement's current result is a set without any row. */
static bool result_set_empty(const gc_stmt *s)
{
    return s->state == GC_STMT_CURSOR && s->set_complete && s->block != NULL
           && PQntuples(s->block) == 0;
}

SQLRETURN gc_catq_run(gc_catq *q, const char *sql)
{
    SQLRETURN rc = SQL_ERROR;
    if (!q->failed)
        gc_catq_use_owner(q);
    if (!q->failed)
        rc = gc_stmt_exec_catalog(q->s, sql, q->nparams,
                                  (const char *const *)q->values, q->outside_transaction);
    if (rc == SQL_SUCCESS && result_set_empty(q->s) && fold_upper_case_names(q)
        && gc_stmt_close_cursor(q->s, true) == SQL_SUCCESS) {
        gc_catq_use_owner(q);
        rc = gc_stmt_exec_catalog(q->s, sql, q->nparams,
                                  (const char *const *)q->values, q->outside_transaction);
    }
    gc_catq_free(q);
    return rc;
}

bool gc_catalog_names_schema(const char *schema)
{
    return schema != NULL && schema[0] != '\0' && strcmp(schema, "%") != 0;
}

gc_diag *gc_catalog_diag(gc_stmt *s)
{
    return &s->h.diag;
}

bool gc_catalog_metadata_id(gc_stmt *s)
{
    return s->metadata_id == SQL_TRUE;
}
