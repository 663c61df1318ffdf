/*
 * gc_refcursor: result sets read from the cursors a result names; see
 * gc_refcursor.h.
 */
#include "core/gc_refcursor.h"

#include <stdlib.h>
#include <string.h>

#include "convert/gc_convert.h"
#include "core/gc_desc.h"
#include "sql/gc_sql_statements.h"
#include "util/gc_strbuf.h"

/* What FetchRefcursors needs that autocommit does not give, in psqlODBC's
 * words (programs written for it compare the text). */
#define NEEDS_TRANSACTION \
    "Query must be executed in a transaction when FetchRefcursors setting is enabled."

/* Whether result r has a refcursor column. */
static bool has_refcursor_column(const PGresult *r)
{
    for (int c = 0; r != NULL && c < PQnfields(r); c++)
        if (PQftype(r, c) == GC_OID_REFCURSOR)
            return true;
    return false;
}

/* FETCH ALL from the cursor `name` (FETCH takes no parameters: the name
 * goes in quoted). Caller frees; NULL when out of memory. */
static char *fetch_all_text(const char *name)
{
    gc_strbuf sql;
    gc_strbuf_init(&sql);
    gc_strbuf_append_str(&sql, "FETCH ALL FROM ");
    gc_sql_append_identifier(&sql, name);
    return gc_strbuf_take(&sql);
}

/* Reads the rest of the current result and turns the cursor names it holds
 * (rows in order, columns left to right, NULLs skipped) into FETCH ALL
 * texts in *texts (caller frees each and the array). False, with
 * diagnostics, when reading failed or memory ran out. */
static bool fetch_texts(gc_stmt *s, char ***texts, int *count)
{
    *texts = NULL;
    *count = 0;
    SQLRETURN got;
    while ((got = gc_result_next_row(s)) == SQL_SUCCESS) {
        const PGresult *r = s->block;
        for (int c = 0; c < PQnfields(r); c++) {
            if (PQftype(r, c) != GC_OID_REFCURSOR || PQgetisnull(r, s->current_row, c))
                continue;
            char **grown = realloc(*texts, (size_t)(*count + 1) * sizeof **texts);
            char *text = grown != NULL ? fetch_all_text(PQgetvalue(r, s->current_row, c))
                                       : NULL;
            if (grown != NULL)
                *texts = grown;
            if (text == NULL) {
                gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
                return false;
            }
            (*texts)[(*count)++] = text;
        }
    }
    return got != SQL_ERROR;
}

/* Runs one FETCH ALL on the connection's session; its rows, or NULL with
 * the server's diagnostics. */
static PGresult *run_fetch(gc_stmt *s, const char *sql)
{
    gc_session *m = s->conn->session;
    gc_error err;
    gc_error_clear(&err);
    if (m == NULL || !gc_session_send_query_params(m, sql, 0, NULL, NULL, NULL, NULL, &err)) {
        if (m == NULL)
            gc_diag_add(&s->h.diag, "08003", 0, "connection not open");
        else
            gc_diag_add_error(&s->h.diag, &err);
        return NULL;
    }
    PGresult *rows = NULL, *r;
    bool failed = false;
    while ((r = gc_session_next_result(m)) != NULL) {
        if (!failed && rows == NULL && PQresultStatus(r) == PGRES_TUPLES_OK) {
            rows = r;
            continue;
        }
        if (!failed && PQresultStatus(r) != PGRES_TUPLES_OK) {
            gc_stmt_add_member_error(s, m, r);
            failed = true;
        }
        PQclear(r);
    }
    if (failed) {
        PQclear(rows);
        return NULL;
    }
    return rows;
}

SQLRETURN gc_refcursor_after_exec(gc_stmt *s)
{
    if (!s->conn->settings.fetch_refcursors || s->state != GC_STMT_CURSOR)
        return SQL_SUCCESS;
    SQLRETURN got = gc_result_next_row(s);
    if (got == SQL_ERROR)
        return SQL_ERROR;
    if (got != SQL_SUCCESS || !has_refcursor_column(s->block)) {
        if (got == SQL_SUCCESS) {    /* not ours: the row goes back */
            s->block_next--;
            s->current_row = -1;
        }
        return SQL_SUCCESS;
    }
    s->block_next--;    /* the first row's names are read with the others */
    s->current_row = -1;
    if (s->conn->autocommit) {
        gc_stmt_discard_results(s);
        gc_desc_clear_records(s->ird);
        s->state = GC_STMT_EXECUTED;
        gc_diag_add(&s->h.diag, "HY000", 0, NEEDS_TRANSACTION);
        return SQL_ERROR;
    }
    char **texts;
    int n;
    bool read = fetch_texts(s, &texts, &n);
    gc_stmt_discard_results(s);
    gc_desc_clear_records(s->ird);
    s->state = GC_STMT_EXECUTED;
    PGresult **results = read && n > 0 ? calloc((size_t)n, sizeof *results) : NULL;
    if (read && n > 0 && results == NULL)
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
    int fetched = 0;
    while (results != NULL && fetched < n && (results[fetched] = run_fetch(s, texts[fetched])))
        fetched++;
    for (int i = 0; i < n; i++)
        free(texts[i]);
    free(texts);
    if (results == NULL || fetched < n) {
        for (int i = 0; i < fetched; i++)
            PQclear(results[i]);
        free(results);
        return read && n == 0 ? SQL_SUCCESS : SQL_ERROR;
    }
    SQLRETURN rc = gc_result_begin_list(s, results, n);
    free(results);
    return rc;
}
