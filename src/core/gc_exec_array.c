/*
 * gc_exec_array: a parameter array in one pipeline.
 *
 * The text is parsed once per execution as the session's unnamed statement,
 * then every row is queued as an execution of it, and the answers are read
 * after the last row: one round trip for the whole array. With no
 * transaction open (autocommit), each row is followed by a sync point, so
 * each row is its own transaction as when rows run one by one: a failing
 * row is reported and the later rows go on. Inside a transaction there is
 * one sync point at the end: PostgreSQL aborts the transaction at the
 * first failing row and skips the rest (SQL_PARAM_UNUSED), and the
 * execution fails. Each row that ran keeps its result (row count or rows)
 * for SQLMoreResults; SQLRowCount on the first gives the total.
 */
#include "core/gc_exec_array.h"

#include <stdlib.h>
#include <string.h>

#include "core/gc_call.h"
#include "core/gc_exec_timer.h"
#include "core/gc_param.h"
#include "core/gc_txn_guard.h"

/* What a row became. */
typedef enum row_fate {
    ROW_SKIPPED = 0,     /* ignored (SQL_PARAM_IGNORE) or never reached */
    ROW_QUEUED,          /* sent; its answer decides */
    ROW_FAILED,          /* failed: conversion or the server's error */
    ROW_RAN,             /* the server ran it */
    ROW_RAN_WITH_INFO,   /* ran, a value converted with a warning */
} row_fate;

/* One execution of an array. */
typedef struct array_run {
    gc_stmt *s;
    gc_member *m;
    SQLULEN rows;
    unsigned char *fate;     /* row_fate per row; owned */
    bool sync_each_row;      /* no transaction open: a sync point per row */
    bool prepare_queued;
    PGresult **results;      /* the rows' results in row order; owned */
    int n_results;
    SQLLEN total;            /* sum of the rows' row counts */
    bool server_failed;      /* the server refused a row (or the text) */
    bool lost;               /* the session broke */
} array_run;

bool gc_exec_array_applies(gc_stmt *s, SQLULEN rows)
{
    if (rows < 2 || s->nparams == 0 || s->exec_row != 0 || s->dae != NULL ||
        s->conn->global != NULL || s->simple_query || gc_call_has_outputs(s))
        return false;
    const SQLUSMALLINT *operation = s->apd->array_status_ptr;
    for (SQLULEN r = 0; r < rows; r++) {
        if (operation != NULL && operation[r] == SQL_PARAM_IGNORE)
            continue;
        for (int i = 0; i < s->nparams; i++) {
            gc_param_ref ref;
            gc_param_locate(s, i, r, &ref);
            if (ref.data_at_exec)
                return false;
        }
    }
    return true;
}

/* Queues row `row` (converted to pv), after the statement's parse when it
 * is the first. False when the session broke or memory ran out (the
 * pipeline is then given up). */
static bool queue_row(array_run *a, const gc_param_value *pv, gc_error *err)
{
    int n = a->s->nparams;
    gc_param_wire w;
    if (!gc_param_wire_fill(&w, pv, n)) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    bool ok = true;
    if (!a->prepare_queued) {
        ok = gc_member_pipeline_prepare(a->m, "", a->s->sql, n, w.types, err);
        a->prepare_queued = ok;
    }
    ok = ok && gc_member_pipeline_query_prepared(a->m, "", n, w.values, w.lengths, w.formats,
                                                 err);
    gc_param_wire_free(&w);
    return ok && (!a->sync_each_row || gc_member_pipeline_sync(a->m, err));
}

/* Converts and queues every row; a row whose values do not convert fails
 * alone (its diagnostics carry its number). False when the session broke. */
static bool queue_rows(array_run *a, bool *any_queued, gc_error *err)
{
    gc_stmt *s = a->s;
    const SQLUSMALLINT *operation = s->apd->array_status_ptr;
    *any_queued = false;
    for (SQLULEN r = 0; r < a->rows; r++) {
        if (operation != NULL && operation[r] == SQL_PARAM_IGNORE)
            continue;
        gc_param_value *pv = NULL;
        SQLRETURN rc = gc_exec_convert_row(s, r, &pv);
        if (rc == SQL_ERROR) {
            a->fate[r] = ROW_FAILED;
            continue;
        }
        bool queued = queue_row(a, pv, err);
        gc_exec_free_values(pv, s->nparams);
        if (!queued)
            return false;
        a->fate[r] = rc == SQL_SUCCESS_WITH_INFO ? ROW_RAN_WITH_INFO : ROW_QUEUED;
        *any_queued = true;
    }
    return a->sync_each_row || gc_member_pipeline_sync(a->m, err);
}

/* Whether r is libpq's own error: the session broke. */
static bool is_lost(const PGresult *r)
{
    return PQresultStatus(r) == PGRES_FATAL_ERROR &&
           PQresultErrorField(r, PG_DIAG_SQLSTATE) == NULL;
}

/* Reads the answers of one queued command up to its end (NULL); the
 * command's result or error is handed over (caller PQclears), NULL when
 * it was skipped. Sets a->lost when the session broke. */
static PGresult *read_command(array_run *a)
{
    PGresult *kept = NULL, *r;
    while ((r = gc_member_pipeline_next(a->m)) != NULL) {
        if (is_lost(r)) {
            a->lost = true;
            PQclear(kept);
            return r;
        }
        if (kept == NULL && PQresultStatus(r) != PGRES_PIPELINE_ABORTED)
            kept = r;
        else
            PQclear(r);
    }
    return kept;
}

/* Reads the answer of one sync point. */
static void read_sync(array_run *a)
{
    PGresult *r = gc_member_pipeline_next(a->m);
    if (PQresultStatus(r) != PGRES_PIPELINE_SYNC)
        a->lost = true;
    PQclear(r);
}

/* Takes a row's answer: its result goes to the list, its error to the
 * diagnostics with the row's number. */
static void take_row_answer(array_run *a, SQLULEN row, PGresult *r)
{
    if (r == NULL) {
        a->fate[row] = ROW_SKIPPED;     /* skipped after an earlier error */
        return;
    }
    ExecStatusType st = PQresultStatus(r);
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK || st == PGRES_EMPTY_QUERY) {
        const char *n = PQcmdTuples(r);
        if (st == PGRES_COMMAND_OK && n[0] != '\0')
            a->total += atol(n);
        a->results[a->n_results++] = r;
        if (a->fate[row] == ROW_QUEUED)
            a->fate[row] = ROW_RAN;
        return;
    }
    const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    if (atomic_load(&a->s->timed_out) && state != NULL && strcmp(state, "57014") == 0) {
        gc_error timeout;
        gc_error_set(&timeout, "HYT00", 0, "timeout expired (SQL_ATTR_QUERY_TIMEOUT)");
        gc_diag_add_error_at(&a->s->h.diag, &timeout, (SQLLEN)row + 1, SQL_NO_COLUMN_NUMBER);
    } else {
        gc_diag_add_result_at(&a->s->h.diag, r, (SQLLEN)row + 1);
    }
    a->fate[row] = ROW_FAILED;
    a->server_failed = true;
    PQclear(r);
}

/* Reads every answer in the order queued. A failed parse fails every row
 * with the parse's error, reported once. */
static void collect(array_run *a)
{
    PGresult *parse_error = NULL;
    if (a->prepare_queued) {
        PGresult *r = read_command(a);
        if (r != NULL && !a->lost && PQresultStatus(r) != PGRES_COMMAND_OK)
            parse_error = r;
        else
            PQclear(r);
    }
    for (SQLULEN row = 0; row < a->rows && !a->lost; row++) {
        if (a->fate[row] != ROW_QUEUED && a->fate[row] != ROW_RAN_WITH_INFO)
            continue;
        PGresult *r = read_command(a);
        if (a->lost) {
            PQclear(r);
            break;
        }
        if (parse_error != NULL) {
            a->fate[row] = ROW_FAILED;    /* its own error only repeats the parse's */
            PQclear(r);
        } else {
            take_row_answer(a, row, r);
        }
        if (a->sync_each_row)
            read_sync(a);
    }
    if (!a->sync_each_row && !a->lost)
        read_sync(a);
    if (parse_error != NULL) {
        a->server_failed = true;
        gc_stmt_add_member_error(a->s, a->m, parse_error);
        PQclear(parse_error);
    }
}

/* After the session broke: rows whose answer never came failed too. */
static void fail_unanswered(array_run *a)
{
    gc_stmt *s = a->s;
    gc_error down;
    gc_error_set(&down, "08S01", 0,
                 "communication link failure: the connection to the server was lost");
    const gc_error *why = gc_member_down_error(a->m);
    gc_diag_add_error(&s->h.diag, why != NULL && gc_error_is_set(why) ? why : &down);
    for (SQLULEN r = 0; r < a->rows; r++)
        if (a->fate[r] == ROW_QUEUED || a->fate[r] == ROW_RAN_WITH_INFO)
            a->fate[r] = ROW_FAILED;
}

/* Writes the status array and the processed count, and says how the
 * execution ended: SQL_ERROR when no row ran, or when the server refused a
 * row inside a transaction (PostgreSQL aborted it); SQL_SUCCESS_WITH_INFO
 * when some rows failed or warned. */
static SQLRETURN report_rows(array_run *a)
{
    gc_stmt *s = a->s;
    SQLUSMALLINT *status = s->ipd->array_status_ptr;
    SQLULEN processed = 0;
    int ran = 0, failed = 0, info = 0;
    for (SQLULEN r = 0; r < a->rows; r++) {
        SQLUSMALLINT st = SQL_PARAM_UNUSED;
        switch ((row_fate)a->fate[r]) {
        case ROW_RAN: st = SQL_PARAM_SUCCESS; ran++; break;
        case ROW_RAN_WITH_INFO: st = SQL_PARAM_SUCCESS_WITH_INFO; ran++; info++; break;
        case ROW_FAILED: st = SQL_PARAM_ERROR; failed++; break;
        default: break;
        }
        if (st != SQL_PARAM_UNUSED)
            processed = r + 1;
        if (status != NULL)
            status[r] = st;
    }
    if (s->ipd->rows_processed_ptr != NULL)
        *s->ipd->rows_processed_ptr = processed;
    if (a->lost || (failed > 0 && ran == 0) || (a->server_failed && !a->sync_each_row))
        return SQL_ERROR;
    return failed > 0 || info > 0 ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS;
}

/* Makes the rows' results the statement's: SQLRowCount on the first gives
 * the total of all rows. No row ran: an empty result with count 0. */
static SQLRETURN publish_results(array_run *a)
{
    gc_stmt *s = a->s;
    if (a->n_results == 0) {
        PGresult *empty = PQmakeEmptyPGresult(NULL, PGRES_COMMAND_OK);
        if (empty == NULL) {
            gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
            return SQL_ERROR;
        }
        a->results[a->n_results++] = empty;
    }
    bool counts = PQresultStatus(a->results[0]) == PGRES_COMMAND_OK;
    int n = a->n_results;
    a->n_results = 0;    /* handed over, even when that fails */
    SQLRETURN rc = gc_result_begin_list(s, a->results, n);
    if (rc != SQL_ERROR && counts)
        s->row_count = a->total;
    return rc;
}

SQLRETURN gc_exec_array_run(gc_stmt *s, SQLULEN rows)
{
    gc_member *m = gc_exec_open_session(s);
    if (m == NULL)
        return SQL_ERROR;
    gc_error err;
    gc_error_clear(&err);
    gc_stmt_free_session(s->conn);
    bool was_in_block = gc_member_txn_status(m) != PQTRANS_IDLE;
    if (!gc_conn_begin_if_needed(s->conn, &err)) {
        gc_diag_add_error(&s->h.diag, &err);
        return SQL_ERROR;
    }
    /* In a transaction the whole array is one statement for the rollback
     * level: its savepoint (level 2) goes before the pipeline. */
    gc_txn_guard_mode guard;
    if (gc_txn_guard_arm(s, was_in_block, false, &guard) != SQL_SUCCESS)
        return SQL_ERROR;
    array_run a = {
        .s = s, .m = m, .rows = rows,
        .fate = calloc(rows, 1),
        .results = calloc(rows, sizeof(PGresult *)),
        .sync_each_row = gc_member_txn_status(m) == PQTRANS_IDLE,
    };
    SQLRETURN rc = SQL_ERROR;
    if (a.fate == NULL || a.results == NULL) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        goto done;
    }
    if (!gc_member_pipeline_begin(m, &err)) {
        gc_diag_add_error(&s->h.diag, &err);
        goto done;
    }
    gc_trace_write(s->conn->trace, GC_TRACE_DEBUG, "parameter array of %lu rows pipelined%s",
                   (unsigned long)rows, a.sync_each_row ? ", a transaction per row" : "");
    bool any_queued = false;
    if (!queue_rows(&a, &any_queued, &err)) {
        a.lost = true;
    } else if (any_queued) {
        gc_exec_timer timer;
        atomic_store(&s->in_server_call, true);
        gc_exec_timer_start(&timer, s);
        collect(&a);
        gc_exec_timer_stop(&timer);
        atomic_store(&s->in_server_call, false);
    } else if (!a.sync_each_row) {
        read_sync(&a);
    }
    if (!a.lost && !gc_member_pipeline_end(m, &err))
        a.lost = true;
    if (a.lost)
        fail_unanswered(&a);
    gc_txn_guard_settle(s);
    rc = report_rows(&a);
    if (rc != SQL_ERROR) {
        SQLRETURN published = publish_results(&a);
        if (published == SQL_ERROR)
            rc = SQL_ERROR;
    }
done:
    gc_txn_guard_disarm(s);
    for (int i = 0; i < a.n_results; i++)
        PQclear(a.results[i]);
    free(a.results);
    free(a.fate);
    gc_stmt_reset_exec(s);
    return gc_stmt_rc_with_info(s, rc);
}
