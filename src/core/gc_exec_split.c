/*
 * gc_exec_split: a global connection's text of several statements that one
 * member cannot run alone, run statement by statement (see the header).
 *
 * Each statement runs on a statement handle of the driver's own, through
 * the whole path an application's statement takes (analysis, routing,
 * cluster DDL, the rollback level), and its results are moved to the
 * application's statement, one result per statement, in order.
 */
#include "core/gc_exec_split.h"

#include <stdlib.h>
#include <string.h>

#include "core/gc_conn.h"
#include "core/gc_ddl_exec.h"
#include "core/gc_exec_several.h"
#include "core/gc_exec_timer.h"
#include "core/gc_exec_unit.h"
#include "global/gc_global.h"
#include "sql/gc_sql_lexer.h"
#include "sql/gc_sql_txn.h"
#include "util/gc_clock.h"

/* A text's statements, each a malloc'd copy without its `;`; those with no
 * code (blanks and comments only) are left out. */
typedef struct text_parts {
    char **parts;
    int n;
} text_parts;

/* The results of the statements run so far, in order; owned. */
typedef struct kept_results {
    PGresult **results;
    int n;
    int cap;
} kept_results;

static bool has_code(const char *sql, size_t len)
{
    gc_sql_lexer lx;
    gc_sql_token tok;
    gc_sql_lexer_init(&lx, sql, len);
    while (gc_sql_lexer_next(&lx, &tok))
        if (tok.kind != GC_SQL_TOK_LINE_COMMENT && tok.kind != GC_SQL_TOK_BLOCK_COMMENT)
            return true;
    return false;
}

static void parts_free(text_parts *t)
{
    for (int k = 0; k < t->n; k++)
        free(t->parts[k]);
    free(t->parts);
    t->parts = NULL;
    t->n = 0;
}

/* Splits sql (a text of s's) into *t; false when out of memory. */
static bool split(const gc_stmt *s, const char *sql, text_parts *t)
{
    size_t len = strlen(sql);
    for (size_t at = 0; at < len;) {
        size_t n = gc_exec_several_statement_length(s, sql + at, len - at);
        if (has_code(sql + at, n)) {
            char *part = strndup(sql + at, n);
            char **grown = part != NULL ? realloc(t->parts, (size_t)(t->n + 1) * sizeof *grown)
                                        : NULL;
            if (grown == NULL) {
                free(part);
                return false;
            }
            t->parts = grown;
            t->parts[t->n++] = part;
        }
        at += n + 1;    /* past the `;` */
    }
    return true;
}

bool gc_exec_split_applies(const gc_stmt *s)
{
    if (!s->txn.several || s->sql == NULL)
        return false;
    if (gc_global_text_writes_apart(s->conn->global, s->analysis))
        return true;
    /* A text that controls the transaction itself is left whole (and
     * refused, nothing applied): run in pieces, a savepoint it names could
     * fail after its earlier statements applied, which nothing undoes. */
    if (s->txn.kind != GC_SQL_TXN_CONTROL &&
        gc_global_text_misses_writes(s->conn->global, s->analysis))
        return true;
    text_parts t = { 0 };
    bool any = false;
    if (split(s, s->sql, &t)) {
        for (int k = 0; k < t.n && !any; k++)
            any = gc_ddl_exec_text_is_cluster_wide(s->conn, t.parts[k]);
    }
    parts_free(&t);
    return any;
}

static void kept_free(kept_results *k)
{
    for (int i = 0; i < k->n; i++)
        PQclear(k->results[i]);
    free(k->results);
}

/* Moves the results of the statement inner ran to the end of *k. */
static bool keep(gc_stmt *inner, kept_results *k)
{
    bool ok = gc_result_keep_row(inner);
    for (int i = 0; i < inner->exec_kept_len; i++) {
        PGresult *r = inner->exec_kept[i];
        if (k->n == k->cap) {
            int cap = k->cap > 0 ? 2 * k->cap : 4;
            PGresult **grown = realloc(k->results, (size_t)cap * sizeof *grown);
            if (grown == NULL) {
                PQclear(r);
                ok = false;
                continue;
            }
            k->results = grown;
            k->cap = cap;
        }
        k->results[k->n++] = r;
    }
    free(inner->exec_kept);
    inner->exec_kept = NULL;
    inner->exec_kept_len = inner->exec_kept_cap = 0;
    inner->state = GC_STMT_ALLOCATED;   /* ready for the next (never prepared) */
    return ok;
}

/* Whether the next statement of s's text may begin: SQLCancel did not
 * come (between two statements it reaches none), and the text's query
 * timeout has not passed, the time left given to inner's timer. Otherwise
 * the text fails as the statement running then would have. */
static bool may_go_on(gc_stmt *s, gc_stmt *inner, long long deadline_ms)
{
    if (atomic_load(&s->cancel_asked)) {
        gc_diag_add(&s->h.diag, "57014", 0, "canceling statement due to user request");
        return false;
    }
    if (deadline_ms == 0)
        return true;
    inner->query_timeout_left_ms = deadline_ms - gc_clock_ms();
    if (inner->query_timeout_left_ms > 0)
        return true;
    gc_error timeout;
    gc_exec_timeout_error(&timeout, NULL);
    gc_diag_add_error(&s->h.diag, &timeout);
    return false;
}

/* Runs the parts on inner, kept one unit, before deadline_ms (0: none);
 * their results go to *k, what they say to s. */
static SQLRETURN run_parts(gc_stmt *s, gc_stmt *inner, const text_parts *t,
                           gc_unit_bracket bracket, long long deadline_ms, kept_results *k)
{
    gc_diag *said = &s->h.diag;
    if (gc_unit_open(inner, bracket, said) == SQL_ERROR)
        return SQL_ERROR;
    for (int i = 0; i < t->n; i++) {
        if (!may_go_on(s, inner, deadline_ms) || gc_unit_run(inner, t->parts[i], said) == SQL_ERROR) {
            gc_unit_undo(inner, bracket);
            return SQL_ERROR;
        }
        if (!keep(inner, k)) {
            gc_diag_add(said, "HY001", 0, "out of memory keeping a statement's result");
            gc_unit_undo(inner, bracket);
            return SQL_ERROR;
        }
    }
    if (bracket != GC_UNIT_NONE && !may_go_on(s, inner, deadline_ms)) {
        gc_unit_undo(inner, bracket);
        return SQL_ERROR;
    }
    return gc_unit_close(inner, bracket, said);
}

SQLRETURN gc_exec_split_run(gc_stmt *s, const gc_param_value *pv)
{
    gc_conn *c = s->conn;
    char *text = s->nparams > 0 ? gc_exec_several_with_values(s, pv, s->nparams)
                                : strdup(s->sql);
    text_parts t = { 0 };
    gc_stmt *inner = NULL;
    if (text == NULL || !split(s, text, &t) || gc_stmt_create(c, &inner) != SQL_SUCCESS) {
        free(text);
        parts_free(&t);
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    free(text);
    /* Each statement as the application's alone would run: its text is
     * already rewritten, its results are read as they are. The query
     * timeout is the text's: each statement gets what is left of it. */
    long long timeout_ms = gc_exec_timeout_ms(s);
    long long deadline_ms = timeout_ms > 0 ? gc_clock_ms() + timeout_ms : 0;
    inner->query_timeout = 0;
    inner->noscan = SQL_NOSCAN_ON;
    inner->cursor_type = SQL_CURSOR_FORWARD_ONLY;
    inner->concurrency = SQL_CONCUR_READ_ONLY;
    kept_results k = { 0 };
    /* SQLCancel of s reaches the statement running for it, and ends the
     * text before its next one. */
    atomic_store(&s->cancel_asked, false);
    atomic_store(&s->in_server_call, true);
    SQLRETURN rc = run_parts(s, inner, &t, gc_unit_bracket_of(s), deadline_ms, &k);
    atomic_store(&s->in_server_call, false);
    gc_stmt_destroy(inner);
    parts_free(&t);
    if (rc == SQL_ERROR || k.n == 0) {
        kept_free(&k);
        return rc == SQL_ERROR ? SQL_ERROR : gc_stmt_set_empty_result(s);
    }
    SQLRETURN set = gc_result_begin_list(s, k.results, k.n);   /* takes the results */
    free(k.results);
    if (set == SQL_ERROR)
        return SQL_ERROR;
    return gc_diag_has_records(&s->h.diag) ? SQL_SUCCESS_WITH_INFO : set;
}
