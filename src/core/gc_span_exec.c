/*
 * gc_span_exec: runs a write across groups (see gc_span_exec.h).
 */
#include "core/gc_span_exec.h"

#include <stdlib.h>
#include <string.h>

#include "core/gc_ddl_exec.h"
#include "global/gc_global.h"

/* The INSERT ... SELECT of s whose query reads tables the transaction
 * wrote on other members (s->split_read): its text with those rows
 * brought (split), analysed again into *a, since the query's bytes moved.
 * SQL_ERROR with diagnostics in s. */
static SQLRETURN split_query(gc_stmt *s, const gc_param_value *pv, gc_split_read *split,
                             gc_analysis *a)
{
    SQLRETURN rc = gc_span_split_read(s, pv, split);
    if (rc != SQL_SUCCESS)
        return rc;
    gc_error err;
    gc_error_clear(&err);
    if (!gc_analyze(split->text, strlen(split->text), a, &err)) {
        gc_span_split_read_free(split);
        gc_diag_add_error(&s->h.diag, &err);
        return SQL_ERROR;
    }
    return SQL_SUCCESS;
}

SQLRETURN gc_span_exec_statement(gc_stmt *s, const gc_param_value *pv)
{
    gc_conn *c = s->conn;
    /* The write talks to every group's primary: a result still streaming
     * on the current session is buffered first. */
    gc_session_end_streaming(&c->session_owner);
    const gc_analysis *a = s->analysis;
    const char *sql = s->sql;
    int n = s->nparams;
    gc_split_read split = { 0 };
    gc_analysis split_analysis;
    if (s->split_read) {
        if (split_query(s, pv, &split, &split_analysis) != SQL_SUCCESS)
            return SQL_ERROR;
        a = &split_analysis;
        sql = split.text;
        pv = split.pv;
        n = split.n;
    }
    gc_param_wire wire;
    if (!gc_param_wire_fill(&wire, pv, n)) {
        if (s->split_read) {
            gc_analysis_free(&split_analysis);
            gc_span_split_read_free(&split);
        }
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    gc_span_params params = {
        .n = n, .types = wire.types, .values = wire.values,
        .lengths = wire.lengths, .formats = wire.formats,
    };
    char setup_buf[128], begin[96];
    const char *setup = gc_conn_characteristics_sql(c, setup_buf, sizeof setup_buf);
    gc_conn_begin_sql(c, begin, sizeof begin);
    bool in_transaction = gc_across_in_transaction(c);
    int notices_from = s->h.diag.count;
    gc_span_outcome out;
    gc_error err;
    gc_error_clear(&err);
    bool ran = gc_global_run_spanning_write(c->global, a, sql, &params, begin, setup,
                                            !in_transaction, &out, &err);
    gc_param_wire_free(&wire);
    if (s->split_read) {
        gc_analysis_free(&split_analysis);
        gc_span_split_read_free(&split);
    }
    if (in_transaction) {
        if (!ran)
            gc_across_failed_in_transaction(c, out.rolled_back, out.sent, &err);
        gc_across_use_pin(c);
    }
    /* Every group ran the statement: a notice comes once per group, the
     * application hears it once. */
    gc_diag_drop_repeats(&s->h.diag, notices_from);
    if (!ran)
        return gc_across_error(s, &err);
    SQLRETURN rc = gc_stmt_set_local_result(s, out.result);
    /* The result is one group's command (or every group's rows): the count
     * is the sum over the groups. */
    if (rc != SQL_ERROR)
        s->row_count = (SQLLEN)out.rows;
    if (rc == SQL_SUCCESS && out.info.sqlstate[0] != '\0') {
        gc_diag_add_error(&s->h.diag, &out.info);
        rc = SQL_SUCCESS_WITH_INFO;
    }
    return rc;
}

SQLRETURN gc_span_split_read(gc_stmt *s, const gc_param_value *pv, gc_split_read *out)
{
    gc_conn *c = s->conn;
    int n = s->nparams;
    *out = (gc_split_read){ 0 };
    /* The rows come from other members' sessions: a result still
     * streaming on the current one is buffered first. */
    gc_session_end_streaming(&c->session_owner);
    gc_param_wire wire;
    if (!gc_param_wire_fill(&wire, pv, n)) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    gc_span_params params = {
        .n = n, .types = wire.types, .values = wire.values,
        .lengths = wire.lengths, .formats = wire.formats,
    };
    gc_error err;
    gc_error_clear(&err);
    bool rolled_back = false;
    out->text = gc_global_split_read_text(c->global, s->analysis, s->sql, &params, &out->rows,
                                          &out->n_rows, &rolled_back, &err);
    gc_param_wire_free(&wire);
    if (out->text == NULL) {
        gc_across_failed_in_transaction(c, rolled_back, true, &err);
        gc_span_split_read_free(out);
        return gc_across_error(s, &err);
    }
    /* The statement's values (still pv's), then the rows, as text of type
     * unknown (the text casts them to json). */
    out->pv = malloc((size_t)(n + out->n_rows) * sizeof *out->pv);
    if (out->pv == NULL) {
        gc_span_split_read_free(out);
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    if (n > 0)
        memcpy(out->pv, pv, (size_t)n * sizeof *pv);
    for (int k = 0; k < out->n_rows; k++)
        out->pv[n + k] = (gc_param_value){ .data = out->rows[k],
                                           .length = (int)strlen(out->rows[k]) };
    out->n = n + out->n_rows;
    return SQL_SUCCESS;
}

void gc_span_split_read_free(gc_split_read *r)
{
    free(r->text);
    for (int k = 0; k < r->n_rows; k++)
        free(r->rows[k]);
    free(r->rows);
    free(r->pv);
    *r = (gc_split_read){ 0 };
}
