/*
 * gc_exec_array: a parameter array in one pipeline.
 *
 * The text is parsed once per execution as the session's unnamed statement,
 * then every row is queued as an execution of it, and the answers are read
 * after the last row: one round trip for the whole array. With no
 * transaction open (autocommit) on a general connection, the rows go in
 * batches of the connection's batch size (psqlODBC's BatchSize), each
 * batch between a BEGIN and a COMMIT, one sync point at the end: a
 * failing row undoes its batch, and PostgreSQL skips everything after it
 * (psqlODBC's behaviour, without its round trip per batch); a prepared
 * statement the application described or ran one row at a time goes in
 * batches of one, as psqlODBC runs it row by row. Inside a
 * transaction there is
 * one sync point at the end: PostgreSQL aborts the transaction at the
 * first failing row and skips the rest (SQL_PARAM_UNUSED), and the
 * execution fails. When autocommit is off and no transaction is open, the
 * driver's BEGIN is the pipeline's first command. Each row that ran keeps
 * its result (row count or rows) for SQLMoreResults, in row order;
 * SQLRowCount on the first gives the total.
 *
 * On a global connection every row is routed by its own values first,
 * then queued on its member's pipeline (a "lane"): each owner's primary
 * gets its rows in one round trip, all members at once. In autocommit,
 * rows that all go to one member get the general connection's batches in
 * one round trip; writes that reach several members go window by window
 * (gc_exec_array_windows.c): each window of batch-size rows is one
 * transaction, across groups when its rows are, so a failing row undoes
 * its window on every member and the rows after it do not run, as on a
 * general connection. Reads, and rows that may write through
 * postgres_fdw, keep one round trip: each lane's batches, a failing row
 * ending its own lane.
 * In a transaction the rows route as the transaction's statements do
 * (the pinned member, or a joined member of the key's group), and the
 * array is one statement for the rollback level on every lane: each
 * lane's rows go behind a savepoint (level 2) and are flushed without a
 * sync point; once every lane has answered, each lane is told in one more
 * round trip to release its savepoint, or, when a row failed anywhere, to
 * go back to it.
 *
 * Which of the two placements a run follows is the connection's kind's
 * (its array_lanes): gc_exec_array_one_session or gc_exec_array_per_member,
 * at the end of this file.
 */
#include "core/gc_exec_array.h"
#include "core/gc_exec_array_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gc_call.h"
#include "core/gc_conn_kind.h"
#include "core/gc_ddl_exec.h"
#include "core/gc_desc.h"
#include "core/gc_exec_timer.h"
#include "core/gc_lo.h"
#include "core/gc_param.h"
#include "core/gc_remote_refusal.h"
#include "core/gc_txn_guard.h"
#include "global/gc_global.h"
#include "global/gc_global_settings.h"
#include "sql/gc_analyzer.h"

/* What the pipeline holds around a row of an autocommit batch
 * (array_run.marks). */
enum {
    MARK_BEGIN = 1,          /* the batch's BEGIN is queued before the row */
    MARK_COMMIT = 2,         /* the batch's COMMIT is queued after it */
    MARK_ROLLBACK = 4,       /* a ROLLBACK after it: a later row did not convert */
};

/* Whether s on a global connection can have its array routed row by row
 * and sent in one pipeline per member: a plain row write or a read (a
 * write the statement mark may have to go with runs row by row), nothing
 * that changes temporary tables or runs on every group, no parameter that
 * may become a large object, and not the first
 * statement after a BEGIN sent in SQL and held back (which chooses the
 * transaction's member as a statement of its own). */
bool gc_exec_array_global_applies(gc_stmt *s)
{
    gc_conn *c = s->conn;
    const gc_analysis *an = s->analysis;
    if (gc_global_prelude_pending(c->global) || an == NULL || s->temp_effects != 0 ||
        gc_ddl_exec_is_cluster_wide(s))
        return false;
    /* Large objects are made on the member a row runs on, and keys left to
     * a sequence are drawn for each row (gc_exec.c's send_once): such rows
     * go one by one. */
    if (gc_lo_params_possible(s) || gc_global_draws_keys(c->global, an, !c->autocommit))
        return false;
    return an->read_only || an->plain_write;
}

bool gc_exec_array_applies(gc_stmt *s, SQLULEN rows)
{
    return gc_exec_array_rows_alike(s, rows) && s->conn->kind->array_applies(s);
}

bool gc_exec_array_rows_alike(gc_stmt *s, SQLULEN rows)
{
    if (rows < 2 || s->nparams == 0 || s->exec_row != 0 || s->dae != NULL ||
        s->simple_query || gc_call_has_outputs(s))
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

/* Queues one row (converted to pv) on lane l, after the driver's BEGIN
 * and the statement's parse when it is the lane's first, and after its
 * batch's BEGIN when open_batch. False when the session broke or memory
 * ran out (the pipeline is then given up). */
static bool queue_row(array_run *a, lane *l, const gc_param_value *pv, bool open_batch,
                      gc_error *err)
{
    int n = a->s->nparams;
    gc_param_wire w;
    if (!gc_param_wire_fill(&w, pv, n)) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    /* As the server's refusals of the statement say (gc_param_declared_type). */
    for (int i = 0; i < n && (a->s->params_untyped || a->s->params_uninferred != NULL); i++)
        w.types[i] = gc_param_declared_type(a->s, i, &pv[i]);
    bool ok = true;
    if (!l->prepare_queued) {
        ok = gc_session_pipeline_prepare(l->m, l->stmt, a->s->sql, n, w.types, err);
        l->prepare_queued = ok;
    }
    ok = ok && (!open_batch || gc_session_pipeline_query(l->m, "BEGIN", err));
    ok = ok && gc_session_pipeline_query_prepared(l->m, l->stmt, n, w.values, w.lengths,
                                                  w.formats, err);
    gc_param_wire_free(&w);
    return ok;
}

/* Ends every lane's queue: inside a transaction one sync point closes it;
 * a global connection's transaction only flushes it (the lane is closed
 * once every lane answered: close_transaction_lanes). A lane whose session
 * broke is marked lost. */
static void sync_lanes(array_run *a, gc_error *err)
{
    for (int i = 0; i < a->n_lanes; i++) {
        lane *l = &a->lanes[i];
        bool queued = l->begin_queued || l->prepare_queued;
        if (!queued || l->lost)
            continue;
        bool sent = a->in_transaction ? gc_session_pipeline_flush(l->m, err)
                                      : gc_session_pipeline_sync(l->m, err);
        /* Batches: after the sync point, a batch that failed is still an
         * aborted transaction block; it is rolled back (a warning when
         * there is none), and the statement's name freed. */
        if (sent && l->stmt[0] != '\0') {
            char deallocate[48];
            snprintf(deallocate, sizeof deallocate, "DEALLOCATE %s", l->stmt);
            sent = gc_session_pipeline_query(l->m, "ROLLBACK", err) &&
                   gc_session_pipeline_query(l->m, deallocate, err) &&
                   gc_session_pipeline_sync(l->m, err);
        }
        if (!sent)
            l->lost = true;
    }
}

/* Ends lane l's open batch after its last row with cmd (COMMIT or
 * ROLLBACK, marked so); the lane is lost when that cannot be queued. */
static void end_batch(array_run *a, lane *l, int mark, gc_error *err)
{
    const char *cmd = mark == MARK_COMMIT ? "COMMIT" : "ROLLBACK";
    a->marks[l->last_queued] |= (unsigned char)mark;
    l->batch_open = false;
    if (!l->lost && !gc_session_pipeline_query(l->m, cmd, err))
        l->lost = true;
}

/* Queues row r (converted to pv) on lane l. In autocommit batches the
 * row opens a batch on its lane, after committing the lane's batch of an
 * earlier window: each window of batch_size rows is one transaction on
 * each lane that got rows of it. */
static void queue_batched(array_run *a, lane *l, SQLULEN r, const gc_param_value *pv,
                          gc_error *err)
{
    bool open_batch = false;
    if (a->batch_size > 0) {
        if (l->batch_open && r / a->batch_size != l->batch_window)
            end_batch(a, l, MARK_COMMIT, err);
        open_batch = !l->batch_open;
    }
    if (!l->lost && !queue_row(a, l, pv, open_batch, err))
        l->lost = true;    /* this row's answer never comes either */
    l->last_queued = r;
    if (!open_batch)
        return;
    a->marks[r] |= MARK_BEGIN;
    l->batch_open = true;
    l->batch_window = r / a->batch_size;
}

/* Commits every lane's open batch, then ends every lane's queue. */
static void end_queues(array_run *a, gc_error *err)
{
    for (int i = 0; i < a->n_lanes; i++)
        if (a->lanes[i].batch_open)
            end_batch(a, &a->lanes[i], MARK_COMMIT, err);
    sync_lanes(a, err);
}

/* Converts and queues every row on the general connection's one lane. A
 * row whose values do not convert fails; in a transaction alone (its
 * diagnostics carry its number), in autocommit batches it ends the array
 * as a failing row does: its batch is rolled back and the rows after it
 * are not run (a->stopped). Stops when the session broke (the lane is
 * lost). */
static void queue_rows(array_run *a, gc_error *err)
{
    gc_stmt *s = a->s;
    lane *l = &a->lanes[0];
    const SQLUSMALLINT *operation = s->apd->array_status_ptr;
    for (SQLULEN r = a->first; r < a->end && !l->lost; r++) {
        if (operation != NULL && operation[r] == SQL_PARAM_IGNORE)
            continue;
        gc_param_value *pv = NULL;
        SQLRETURN rc = gc_exec_convert_row(s, r, &pv);
        if (rc == SQL_ERROR) {
            a->fate[r] = ROW_FAILED;
            if (a->batch_size == 0)
                continue;
            /* Its window's batch is rolled back; an earlier window's,
             * still open (queue_batched ends one lazily), commits. */
            if (l->batch_open)
                end_batch(a, l, l->batch_window == r / a->batch_size ? MARK_ROLLBACK
                                                                     : MARK_COMMIT, err);
            a->stopped = true;
            break;
        }
        queue_batched(a, l, r, pv, err);
        gc_exec_free_values(pv, s->nparams);
        a->fate[r] = rc == SQL_SUCCESS_WITH_INFO ? ROW_RAN_WITH_INFO : ROW_QUEUED;
    }
    end_queues(a, err);
}

/* Batches queue BEGIN and COMMIT between the rows, each of which would
 * replace the session's unnamed statement: the text gets a name of its
 * own on lane l, freed after the array (sync_lanes). */
static void name_lane_statement(array_run *a, lane *l)
{
    snprintf(l->stmt, sizeof l->stmt, "gc_%lu", ++a->s->conn->next_statement_number);
}

/* The lane of global member i, made (its pipeline entered) when the
 * array's first row for it comes; NULL with err when it cannot be. */
static lane *lane_of_member(array_run *a, int i, gc_error *err)
{
    for (int l = 0; l < a->n_lanes; l++)
        if (a->lanes[l].member == i)
            return &a->lanes[l];
    if (i < 0 || a->n_lanes == a->lanes_cap) {
        /* The topology changed under the array (a new catalog version). */
        gc_error_set(err, "HY000", 0, "the cluster's members changed during the array");
        return NULL;
    }
    gc_session *m = gc_global_member(a->s->conn->global, i);
    if (!gc_session_pipeline_begin(m, err))
        return NULL;
    lane *l = &a->lanes[a->n_lanes++];
    *l = (lane){.m = m, .member = i};
    if (a->batch_size > 0)
        name_lane_statement(a, l);
    if (a->in_transaction && gc_txn_rollback_level(a->s->conn) == 2) {
        l->savepoint_queued = true;
        if (!gc_session_pipeline_query(m, GC_TXN_SAVEPOINT_SQL, err))
            l->lost = true;
    }
    return l;
}

/* A global transaction's row routed to the connection's session: the
 * driver's BEGIN is sent there first when the row is the transaction's
 * first statement (a round trip once per transaction: the later rows'
 * routing follows the pin only once the transaction is open). */
static bool begin_routed_transaction(gc_stmt *s)
{
    gc_error err;
    gc_error_clear(&err);
    if (gc_conn_begin_if_needed(s->conn, &err))
        return true;
    gc_diag_add_error(&s->h.diag, &err);
    return false;
}

/* Routes one row of a global connection's array by its own values (as a
 * single execution would be: gc_route_statement) and keeps its values for
 * its member's pipeline. Routing's errors are the row's and end the array
 * (a->stopped), as a failed statement would; so do a row's values that do
 * not convert, in autocommit (in a transaction that row fails alone, as
 * on a general connection). */
static void route_row(array_run *a, SQLULEN r)
{
    gc_stmt *s = a->s;
    gc_param_value *pv = NULL;
    SQLRETURN rc = gc_exec_convert_row(s, r, &pv);
    if (rc == SQL_ERROR) {
        a->fate[r] = ROW_FAILED;
        a->stopped = a->batch_size > 0;    /* autocommit: it ends the array */
        a->stopped_at = r;
        return;
    }
    gc_diag outer;
    gc_diag_set_aside(&s->h.diag, &outer);
    bool routed = s->conn->kind->route_statement(s, pv) == SQL_SUCCESS;
    if (routed && (s->spans_groups || s->target_leaf != NULL)) {
        /* It runs on every group (gc_span_exec.h), or as a text of its own
         * (into the leaf of its rows, gc_exec.c), not on one lane. */
        a->spans = true;
        gc_diag_take_back(&s->h.diag, &outer, NULL, SQL_NO_ROW_NUMBER);
        gc_exec_free_values(pv, s->nparams);
        return;
    }
    if (routed && a->in_transaction)
        routed = begin_routed_transaction(s);
    gc_diag_take_back(&s->h.diag, &outer, &s->h.diag, (SQLLEN)r + 1);
    if (!routed) {
        gc_exec_free_values(pv, s->nparams);
        a->fate[r] = ROW_FAILED;
        a->stopped = true;
        a->stopped_at = r;
        return;
    }
    a->writes_elsewhere = a->writes_elsewhere || gc_global_may_write_elsewhere(s->conn->global);
    a->lane_of[r] = gc_global_member_index(s->conn->global, s->conn->session);
    a->values[r] = pv;
    a->fate[r] = rc == SQL_SUCCESS_WITH_INFO ? ROW_RAN_WITH_INFO : ROW_QUEUED;
}

/* Autocommit: row r failed before anything was sent (its values, its
 * routing) and ends the array. The rows of its batch window before it are
 * not sent either: they fail with it, as a general connection's batch
 * sent before such a row is rolled back (queue_rows). */
static void fail_window_before(array_run *a, SQLULEN r)
{
    for (SQLULEN q = r - r % a->batch_size; q < r; q++) {
        if (a->values[q] == NULL)
            continue;
        gc_exec_free_values(a->values[q], a->s->nparams);
        a->values[q] = NULL;
        a->fate[q] = ROW_FAILED;
    }
}

/* Routes every row. A row's routing may follow a new catalog version
 * (gc_route_statement, between transactions), which can renumber the
 * members the earlier rows were routed to: then all rows are routed
 * again, by the new topology (a few times at most). */
static void route_rows(array_run *a)
{
    gc_stmt *s = a->s;
    const gc_global *g = s->conn->global;
    const SQLUSMALLINT *operation = s->apd->array_status_ptr;
    for (int tries = 0; tries < 3; tries++) {
        bool routed_any = false;
        int64_t version = 0;
        for (SQLULEN r = a->first; r < a->end; r++) {
            if (operation != NULL && operation[r] == SQL_PARAM_IGNORE)
                continue;
            route_row(a, r);
            if (a->spans || a->stopped)
                return;
            if (!routed_any)
                version = gc_global_catalog_version(g);
            routed_any = true;
        }
        if (!routed_any || gc_global_catalog_version(g) == version)
            return;
        gc_trace_write(s->conn->trace, GC_TRACE_INFO, "the catalog version changed while the "
                       "array's rows were routed: routed again");
        gc_diag_clear(&s->h.diag);    /* the rows' conversion and routing records come again */
        a->writes_elsewhere = false;
        for (SQLULEN r = a->first; r < a->end; r++) {
            gc_exec_free_values(a->values[r], s->nparams);
            a->values[r] = NULL;
            a->fate[r] = ROW_SKIPPED;
        }
    }
}

/* Drops row r's result, its row count taken off the total. */
static void drop_answer(array_run *a, SQLULEN r)
{
    PGresult *kept = a->answers[r];
    if (kept != NULL && PQresultStatus(kept) == PGRES_COMMAND_OK && PQcmdTuples(kept)[0] != '\0')
        a->total -= atol(PQcmdTuples(kept));
    PQclear(kept);
    a->answers[r] = NULL;
}

void gc_exec_array_restart_rows(array_run *a, SQLULEN first, SQLULEN end)
{
    for (SQLULEN r = first; r < end; r++) {
        gc_exec_free_values(a->values[r], a->s->nparams);
        a->values[r] = NULL;
        drop_answer(a, r);
        a->fate[r] = ROW_SKIPPED;
    }
    a->stopped = a->lost = a->server_failed = false;
    a->first_refused = a->rows;
    a->parse_reported = a->type_refused = false;
    a->uninferred = -1;
}

/* A global connection's rows: every row routed first (nothing is in
 * flight while routing looks at the sessions), then each queued on its
 * member's pipeline, in row order, in autocommit in batches per lane. A
 * member whose session breaks loses its lane; the other members' rows go
 * on. */
static void route_and_queue_rows(array_run *a, gc_error *err)
{
    gc_stmt *s = a->s;
    route_rows(a);
    if (a->spans)
        return;
    /* A write through postgres_fdw commits atomically only as a
     * transaction of its own (the cluster's trigger refuses a second one,
     * docs/global-connection.md): such rows go in batches of one. */
    if (a->batch_size > 1 && a->writes_elsewhere)
        a->batch_size = 1;
    if (!a->windowed && a->batch_size > 0 && !a->writes_elsewhere && !s->analysis->read_only) {
        gc_exec_array_note_members(a);
        if (gc_exec_array_noted_several_members(a)) {
            /* Nothing was sent: the windows route their rows again. */
            gc_exec_array_restart_rows(a, 0, a->rows);
            gc_diag_clear(&s->h.diag);
            a->windowed = true;
            return;
        }
    }
    if (a->stopped && a->batch_size > 0)
        fail_window_before(a, a->stopped_at);
    for (SQLULEN r = a->first; r < a->end; r++) {
        if (a->values[r] == NULL)
            continue;
        lane *l = lane_of_member(a, a->lane_of[r], err);
        if (l == NULL) {
            a->fate[r] = ROW_FAILED;
            gc_diag_add_error_at(&s->h.diag, err, (SQLLEN)r + 1, SQL_NO_COLUMN_NUMBER);
        } else {
            a->lane_of[r] = (int)(l - a->lanes);
            queue_batched(a, l, r, a->values[r], err);
        }
        gc_exec_free_values(a->values[r], s->nparams);
        a->values[r] = NULL;
    }
    end_queues(a, err);
}

/* Whether r is libpq's own error: the session broke. */
static bool is_lost(const PGresult *r)
{
    return PQresultStatus(r) == PGRES_FATAL_ERROR &&
           PQresultErrorField(r, PG_DIAG_SQLSTATE) == NULL;
}

/* Reads the answers of one queued command on lane l up to its end (NULL);
 * the command's result or error is handed over (caller PQclears), NULL
 * when it was skipped. Sets l->lost when the session broke. */
static PGresult *read_command(lane *l)
{
    PGresult *kept = NULL, *r;
    while ((r = gc_session_pipeline_next(l->m)) != NULL) {
        if (is_lost(r)) {
            l->lost = true;
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
static void read_sync(lane *l)
{
    PGresult *r = gc_session_pipeline_next(l->m);
    if (PQresultStatus(r) != PGRES_PIPELINE_SYNC)
        l->lost = true;
    PQclear(r);
}

/* The server refused row (its text, an execution or its batch's COMMIT). */
static void note_refused(array_run *a, SQLULEN row)
{
    a->server_failed = true;
    if (row < a->first_refused)
        a->first_refused = row;
}

/* Takes a row's answer: its result is kept in its slot, its error goes to
 * the diagnostics with the row's number. */
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
        a->answers[row] = r;
        if (a->fate[row] == ROW_QUEUED)
            a->fate[row] = ROW_RAN;
        return;
    }
    const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    if (gc_exec_timer_fired(a->s, state)) {
        gc_error timeout;
        gc_exec_timeout_error(&timeout, NULL);
        gc_diag_add_error_at(&a->s->h.diag, &timeout, (SQLLEN)row + 1, SQL_NO_COLUMN_NUMBER);
    } else {
        gc_diag_add_server_error(&a->s->h.diag, r, gc_stmt_error_context(a->s),
                                 (SQLLEN)row + 1);
    }
    a->fate[row] = ROW_FAILED;
    note_refused(a, row);
    PQclear(r);
}

/* Whether row r waits for an answer on lane number l. */
static bool row_on_lane(const array_run *a, SQLULEN r, int l)
{
    return (a->fate[r] == ROW_QUEUED || a->fate[r] == ROW_RAN_WITH_INFO) &&
           (a->lane_of == NULL ? l == 0 : a->lane_of[r] == l);
}

/* Reads the answer of the driver's BEGIN, the array's savepoint and the
 * parse on lane l; the error of any (caller PQclears), NULL when all went
 * well. */
static PGresult *read_preamble(lane *l)
{
    PGresult *refused = NULL;
    const bool *queued[] = { &l->begin_queued, &l->savepoint_queued, &l->prepare_queued };
    for (int step = 0; step < 3 && !l->lost; step++) {
        if (!*queued[step])
            continue;
        PGresult *r = read_command(l);
        if (refused == NULL && r != NULL && !l->lost && PQresultStatus(r) != PGRES_COMMAND_OK)
            refused = r;
        else
            PQclear(r);
    }
    return refused;
}

/* Reads the answer of one command queued after the rows (closing a lane or its batches); its
 * result does not matter. */
static void read_closing_command(lane *l)
{
    PQclear(read_command(l));
}

/* Rolled back: a row of the batch failed, its COMMIT failed, or a later
 * row did not convert. */
void gc_exec_array_undo_batch(array_run *a, int l, SQLULEN first, SQLULEN last)
{
    for (SQLULEN r = first; r <= last; r++) {
        if ((a->fate[r] != ROW_RAN && a->fate[r] != ROW_RAN_WITH_INFO) ||
            (l != GC_ARRAY_ANY_LANE && a->lane_of != NULL && a->lane_of[r] != l))
            continue;
        drop_answer(a, r);
        a->fate[r] = ROW_FAILED;
    }
}

/* Reads the answer of the COMMIT or ROLLBACK that ends the batch at row
 * last (queue_rows) and undoes the batch when it did not commit. A COMMIT
 * the server refuses (a deferred constraint) is the last row's error. */
static void end_batch_answer(array_run *a, int l_index, SQLULEN first, SQLULEN last,
                             bool batch_failed)
{
    lane *l = &a->lanes[l_index];
    PGresult *r = read_command(l);
    if (l->lost) {
        PQclear(r);
        return;
    }
    if (r != NULL && PQresultStatus(r) != PGRES_COMMAND_OK) {
        gc_diag_add_server_error(&a->s->h.diag, r, gc_stmt_error_context(a->s),
                                 (SQLLEN)last + 1);
        note_refused(a, last);
        batch_failed = true;
    }
    PQclear(r);
    if (batch_failed || (a->marks[last] & MARK_ROLLBACK) != 0)
        gc_exec_array_undo_batch(a, l_index, first, last);
}

/* Reads every answer of lane l in the order queued. A failed parse fails
 * every row of the lane with the parse's error, reported once. */
static void collect_lane(array_run *a, int l_index)
{
    lane *l = &a->lanes[l_index];
    PGresult *parse_error = read_preamble(l);
    SQLULEN batch_first = 0;
    bool batch_failed = false;
    for (SQLULEN row = a->first; row < a->end && !l->lost; row++) {
        if (!row_on_lane(a, row, l_index))
            continue;
        unsigned char mark = a->marks != NULL ? a->marks[row] : 0;
        if (mark & MARK_BEGIN) {
            PQclear(read_command(l));    /* the batch's BEGIN */
            batch_first = row;
            batch_failed = false;
            if (l->lost)
                break;
        }
        /* The server's notices while the row's answer is read are the row's
         * (a trigger's RAISE NOTICE): its warnings, with its number. */
        gc_diag notes;
        gc_diag_init(&notes);
        gc_diag *notice_diag = a->s->conn->notice_diag;
        a->s->conn->notice_diag = &notes;
        PGresult *r = read_command(l);
        a->s->conn->notice_diag = notice_diag;
        if (l->lost) {
            gc_diag_free(&notes);
            PQclear(r);
            break;
        }
        if (parse_error != NULL) {
            a->fate[row] = ROW_FAILED;    /* its own error only repeats the parse's */
            note_refused(a, row);
            PQclear(r);
        } else {
            take_row_answer(a, row, r);
        }
        if (gc_diag_has_records(&notes) && a->fate[row] == ROW_RAN)
            a->fate[row] = ROW_RAN_WITH_INFO;
        gc_diag_move_at(&a->s->h.diag, &notes, (SQLLEN)row + 1);
        gc_diag_free(&notes);
        batch_failed = batch_failed || a->fate[row] == ROW_FAILED;
        if (mark & (MARK_COMMIT | MARK_ROLLBACK))
            end_batch_answer(a, l_index, batch_first, row, batch_failed);
    }
    if (!a->in_transaction && !l->lost &&
        (l->begin_queued || l->prepare_queued))
        read_sync(l);
    if (l->stmt[0] != '\0' && l->prepare_queued && !l->lost) {
        /* The ROLLBACK's warning when no batch failed is not the rows'. */
        gc_diag ignored;
        gc_diag_init(&ignored);
        gc_diag *notice_diag = a->s->conn->notice_diag;
        a->s->conn->notice_diag = &ignored;
        read_closing_command(l);
        read_closing_command(l);
        read_sync(l);
        a->s->conn->notice_diag = notice_diag;
        gc_diag_free(&ignored);
    }
    if (parse_error != NULL) {
        a->server_failed = true;
        const char *state = PQresultErrorField(parse_error, PG_DIAG_SQLSTATE);
        a->type_refused = gc_exec_is_type_refusal(state);
        int uninferred = gc_param_uninferred(
            a->s, state, PQresultErrorField(parse_error, PG_DIAG_MESSAGE_PRIMARY));
        if (uninferred >= 0)
            a->uninferred = uninferred;
        if (!a->parse_reported)
            gc_stmt_add_member_error(a->s, l->m, parse_error);
        a->parse_reported = true;
        PQclear(parse_error);
    }
}

/* After lane l's session broke: its rows whose answer never came failed
 * too (whether an autocommit row that was sent committed is not known:
 * docs/parameter-arrays.md). */
static void fail_unanswered(array_run *a, int l_index)
{
    gc_stmt *s = a->s;
    gc_error down;
    gc_error_set(&down, "08S01", 0,
                 "communication link failure: the connection to the server was lost");
    const gc_error *why = gc_session_down_error(a->lanes[l_index].m);
    gc_diag_add_error(&s->h.diag, why != NULL && gc_error_is_set(why) ? why : &down);
    for (SQLULEN r = a->first; r < a->end; r++)
        if (row_on_lane(a, r, l_index))
            a->fate[r] = ROW_FAILED;
    a->lost = true;
}

/* The server refused row f, and what ran around it is undone as on a
 * general connection: in a transaction the whole array (one statement for
 * the rollback level, or the transaction with it), in a global autocommit
 * window that window. The rows before f that ran are undone
 * (SQL_PARAM_ERROR); those after it are SQL_PARAM_UNUSED, as a general
 * connection's pipeline skips them, though another member may have run
 * and undone them here, and their own errors go. Autocommit batches of
 * other rows stay as they ended. */
static void settle_after_refusal(array_run *a)
{
    SQLULEN f = a->first_refused;
    bool whole_array = a->batch_size == 0;
    if (f >= a->rows || a->lost || !(whole_array || a->windowed))
        return;
    for (SQLULEN r = 0; r < a->rows; r++) {
        bool ran = a->fate[r] == ROW_RAN || a->fate[r] == ROW_RAN_WITH_INFO;
        if (r < f && whole_array && ran) {
            drop_answer(a, r);
            a->fate[r] = ROW_FAILED;
        } else if (r > f) {
            drop_answer(a, r);
            a->fate[r] = ROW_SKIPPED;
        }
    }
    gc_diag_drop_rows_after(&a->s->h.diag, (SQLLEN)f + 1);
}

/* Writes the status array and the processed count, and says how the
 * execution ended: SQL_ERROR when a row failed or a session broke, as
 * psqlODBC fails an array whose row fails (a program that reads only the
 * return code, as pyodbc's executemany does, must see the error; the
 * statuses say which rows ran, on a global connection in autocommit also
 * those after the failing one); SQL_SUCCESS_WITH_INFO when rows only
 * warned. */
static SQLRETURN report_rows(array_run *a)
{
    settle_after_refusal(a);
    gc_stmt *s = a->s;
    SQLUSMALLINT *status = s->ipd->array_status_ptr;
    SQLULEN processed = 0;
    int failed = 0, info = 0;
    for (SQLULEN r = 0; r < a->rows; r++) {
        SQLUSMALLINT st = SQL_PARAM_UNUSED;
        switch ((row_fate)a->fate[r]) {
        case ROW_RAN: st = SQL_PARAM_SUCCESS; break;
        case ROW_RAN_WITH_INFO: st = SQL_PARAM_SUCCESS_WITH_INFO; info++; break;
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
    if (failed > 0 || a->lost || a->stopped)
        return SQL_ERROR;
    return info > 0 ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS;
}

/* Makes the rows' results the statement's, in row order: SQLRowCount on
 * the first gives the total of all rows. No row ran: an empty result with
 * count 0. */
static SQLRETURN publish_results(array_run *a)
{
    gc_stmt *s = a->s;
    SQLULEN n = 0;
    for (SQLULEN r = 0; r < a->rows; r++) {
        PGresult *kept = a->answers[r];
        a->answers[r] = NULL;
        if (kept != NULL)
            a->answers[n++] = kept;
    }
    if (n == 0) {
        PGresult *empty = PQmakeEmptyPGresult(NULL, PGRES_COMMAND_OK);
        if (empty == NULL) {
            gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
            return SQL_ERROR;
        }
        a->answers[n++] = empty;
    }
    bool counts = PQresultStatus(a->answers[0]) == PGRES_COMMAND_OK;
    a->published = true;    /* handed over, even when that fails */
    SQLRETURN rc = gc_result_begin_list(s, a->answers, (int)n);
    if (rc != SQL_ERROR && counts)
        s->row_count = a->total;
    return rc;
}

/* Autocommit: the rows go in batches, each its own transaction. A
 * prepared statement the application described or ran one row at a time
 * is one psqlODBC has prepared on the server by then, and psqlODBC runs its
 * arrays row by row: batches of one. */
SQLULEN gc_exec_array_batch_size(const gc_stmt *s)
{
    bool row_by_row = s->prepared && (s->described || s->ran_one_row);
    return !row_by_row && s->conn->psqlodbc_batch_size > 0 ? s->conn->psqlodbc_batch_size : 1;
}

/* The general connection's one lane: the session, entered in pipeline
 * mode, with the driver's BEGIN queued first when autocommit is off and no
 * transaction is open (one round trip for the whole array then too). The
 * rollback level's guard is armed for the array as one statement. False
 * (diagnostics added) when nothing could be sent. */
static bool open_session_lane(array_run *a)
{
    gc_stmt *s = a->s;
    gc_session *m = gc_exec_open_session(s);
    if (m == NULL)
        return false;
    gc_error err;
    gc_error_clear(&err);
    PGTransactionStatusType ts = gc_session_idle_txn_status(&s->conn->session_owner, m);
    if (ts == PQTRANS_UNKNOWN) {
        gc_diag_add(&s->h.diag, "08S01", 0,
                    "communication link failure: the connection to the server was lost");
        return false;
    }
    bool begin = !s->conn->autocommit && ts == PQTRANS_IDLE;
    /* In a transaction the whole array is one statement for the rollback
     * level: its savepoint (level 2) goes before the pipeline. */
    gc_txn_guard_mode guard;
    if (begin)
        gc_txn_guard_arm_begun(s);
    else if (gc_txn_guard_arm(s, true, false, &guard) != SQL_SUCCESS)
        return false;
    a->lanes[0] = (lane){.m = m, .member = -1};
    if (!begin && ts == PQTRANS_IDLE) {
        a->batch_size = gc_exec_array_batch_size(s);
        name_lane_statement(a, &a->lanes[0]);
    }
    a->n_lanes = 1;
    if (!gc_session_pipeline_begin(m, &err)) {
        gc_diag_add_error(&s->h.diag, &err);
        a->n_lanes = 0;
        return false;
    }
    if (begin) {
        char sql[96];
        gc_conn_begin_sql(s->conn, sql, sizeof sql);
        a->lanes[0].begin_queued = true;
        if (!gc_session_pipeline_query(m, sql, &err))
            a->lanes[0].lost = true;
    }
    return true;
}

/* Queues sql on lane l, which is lost when that fails. */
static void queue_on_lane(lane *l, const char *sql)
{
    gc_error err;
    gc_error_clear(&err);
    if (!l->lost && !gc_session_pipeline_query(l->m, sql, &err))
        l->lost = true;
}

/* Queues a sync point on lane l, which is lost when that fails. */
static void sync_lane(lane *l)
{
    gc_error err;
    gc_error_clear(&err);
    if (!l->lost && !gc_session_pipeline_sync(l->m, &err))
        l->lost = true;
}

/* The second step of a global transaction's array, once every lane has
 * answered its rows: every lane gets one more round trip, all at once.
 * No row failed: the array's savepoint is released. A row failed at
 * rollback level 2: every lane goes back to its savepoint (the sync point
 * first ends the failed lane's skipping), so the whole array is undone,
 * as one statement is. Levels 0 and 1 have no savepoint: a sync point
 * only (level 1 rolls the transaction back afterwards). */
static void close_transaction_lanes(array_run *a)
{
    bool undo = a->server_failed && gc_txn_rollback_level(a->s->conn) == 2;
    for (int i = 0; i < a->n_lanes; i++) {
        lane *l = &a->lanes[i];
        if (l->savepoint_queued && !a->server_failed)
            queue_on_lane(l, GC_TXN_RELEASE_SQL);
        sync_lane(l);
        if (l->savepoint_queued && undo) {
            queue_on_lane(l, "ROLLBACK TO SAVEPOINT gc_statement");
            queue_on_lane(l, GC_TXN_RELEASE_SQL);
            sync_lane(l);
        }
    }
    for (int i = 0; i < a->n_lanes; i++) {
        lane *l = &a->lanes[i];
        if (l->savepoint_queued && !a->server_failed && !l->lost)
            read_closing_command(l);
        if (!l->lost)
            read_sync(l);
        if (l->savepoint_queued && undo && !l->lost) {
            read_closing_command(l);
            read_closing_command(l);
            read_sync(l);
        }
    }
    if (undo) {
        gc_trace_write(a->s->conn->trace, GC_TRACE_INFO, "a row of the array failed in a "
                       "transaction: every member went back to the array's savepoint");
        gc_global_writes_undone(a->s->conn->global, a->writes_mark);
    }
}

/* Rollback level 1 after a global transaction's array in which a row
 * failed: the transaction is rolled back (every part, when it spans
 * groups), as after a failed statement (gc_txn_guard_settle). */
static void roll_back_failed_transaction(array_run *a)
{
    for (int i = 0; i < a->n_lanes; i++) {
        lane *l = &a->lanes[i];
        if (l->lost || gc_session_txn_status(l->m) != PQTRANS_INERROR)
            continue;
        gc_conn_use_member(a->s->conn, l->member);
        gc_txn_guard_arm_begun(a->s);
        gc_txn_guard_settle(a->s);
        return;
    }
}

void gc_exec_array_collect_lanes(array_run *a)
{
    gc_stmt *s = a->s;
    gc_exec_timer timer;
    atomic_store(&s->in_server_call, true);
    gc_exec_timer_start(&timer, s);
    for (int l = 0; l < a->n_lanes; l++) {
        if (a->lanes[l].lost)
            continue;
        /* The timeout cancels the session whose answers are awaited. */
        if (a->lanes[l].member >= 0)
            gc_conn_use_member(s->conn, a->lanes[l].member);
        collect_lane(a, l);
    }
    if (a->in_transaction)
        close_transaction_lanes(a);
    gc_exec_timer_stop(&timer);
    atomic_store(&s->in_server_call, false);
    for (int l = 0; l < a->n_lanes; l++) {
        gc_error err;
        gc_error_clear(&err);
        if (!a->lanes[l].lost && !gc_session_pipeline_end(a->lanes[l].m, &err))
            a->lanes[l].lost = true;
        if (a->lanes[l].lost)
            fail_unanswered(a, l);
    }
}

/* A global connection's routing hears how each member's part went, as
 * after a single statement (a broken session marks its member down). */
static void route_lanes_done(array_run *a)
{
    gc_conn *c = a->s->conn;
    for (int l = 0; l < a->n_lanes; l++) {
        gc_conn_use_member(c, a->lanes[l].member);
        a->s->conn->kind->statement_done(a->s, a->lanes[l].lost ? SQL_ERROR : SQL_SUCCESS);
    }
}

/* Whether the run's memory could not be had: HY001 added. */
static bool out_of_memory(array_run *a, bool lacking)
{
    if (lacking)
        gc_diag_add(&a->s->h.diag, "HY001", 0, "out of memory");
    return lacking;
}

/* The general connection's placement: every row on the one session's
 * lane, in autocommit batches (their marks). */
static bool start_one_session(array_run *a)
{
    a->marks = calloc(a->rows, 1);
    return !out_of_memory(a, a->marks == NULL) && open_session_lane(a);
}

/* The rollback level's guard, armed for the array as one statement, ends. */
static void finish_one_session(array_run *a)
{
    gc_txn_guard_settle(a->s);
}

const gc_array_lanes gc_exec_array_one_session = {
    .start = start_one_session,
    .queue = queue_rows,
    .finish = finish_one_session,
};

/* The global connection's placement: a lane per member its rows are
 * routed to, opened as rows come; in autocommit each lane's rows in
 * batches as on a general connection's one session, in a transaction two
 * steps. */
static bool start_per_member(array_run *a)
{
    gc_conn *c = a->s->conn;
    a->in_transaction = !c->autocommit || gc_global_pinned_member(c->global) >= 0;
    a->writes_mark = gc_global_writes_mark(c->global);
    if (!a->in_transaction) {
        a->batch_size = gc_exec_array_batch_size(a->s);
        a->marks = calloc(a->rows, 1);
        a->member_of = calloc(a->rows, sizeof(int));    /* for the windows */
    }
    a->lane_of = calloc(a->rows, sizeof(int));
    a->values = calloc(a->rows, sizeof(gc_param_value *));
    return !out_of_memory(a, a->lane_of == NULL || a->values == NULL ||
                             (!a->in_transaction && (a->marks == NULL || a->member_of == NULL)));
}

/* Rollback level 1 rolls a failed transaction back; routing hears how each
 * member's part went. A row the cluster's trigger refused is told as a
 * single statement's refusal is (0A000). */
static void finish_per_member(array_run *a)
{
    gc_remote_refusal_name(&a->s->h.diag);
    if (a->in_transaction && a->server_failed && gc_txn_rollback_level(a->s->conn) == 1)
        roll_back_failed_transaction(a);
    route_lanes_done(a);
}

const gc_array_lanes gc_exec_array_per_member = {
    .start = start_per_member,
    .queue = route_and_queue_rows,
    .finish = finish_per_member,
};

/* Whether any row of the array ran. */
static bool some_row_ran(const array_run *a)
{
    for (SQLULEN r = 0; r < a->rows; r++)
        if (a->fate[r] == ROW_RAN || a->fate[r] == ROW_RAN_WITH_INFO)
            return true;
    return false;
}

bool gc_exec_array_run(gc_stmt *s, SQLULEN rows, SQLRETURN *result)
{
    bool idle_before = !s->conn->kind->in_transaction(s->conn);
    const gc_array_lanes *placement = s->conn->kind->array_lanes;
    int max_lanes = s->conn->kind->session_count(s->conn);
    array_run a = {
        .s = s, .rows = rows,
        .fate = calloc(rows, 1),
        .answers = calloc(rows, sizeof(PGresult *)),
        .lanes = calloc((size_t)(max_lanes > 0 ? max_lanes : 1), sizeof(lane)),
        .lanes_cap = max_lanes > 0 ? max_lanes : 1,
        .first = 0, .end = rows, .uninferred = -1, .first_refused = rows,
    };
    SQLRETURN rc = SQL_ERROR;
    bool again = false;    /* the whole array goes again, its types as refused */
    bool untype = false;   /* ... its values in text without a type */
    if (out_of_memory(&a, a.fate == NULL || a.answers == NULL || a.lanes == NULL) ||
        !placement->start(&a))
        goto done;
    gc_error err;
    gc_error_clear(&err);
    gc_trace_write(s->conn->trace, GC_TRACE_DEBUG, "parameter array of %lu rows pipelined%s",
                   (unsigned long)rows, a.batch_size > 0 ? ", a transaction per batch" : "");
    placement->queue(&a, &err);
    if (a.spans) {
        gc_trace_write(s->conn->trace, GC_TRACE_INFO, "a row of the array is a write across "
                       "groups: the array runs row by row");
        gc_diag_clear(&s->h.diag);    /* the routed rows' records come again */
        goto done;
    }
    if (a.windowed) {
        gc_exec_array_run_windows(&a);
    } else {
        gc_exec_array_collect_lanes(&a);    /* reports the lanes whose session broke */
        placement->finish(&a);
    }
    /* The server refused a declared parameter type where the text uses it,
     * or could not infer one left to it, and nothing ran or was lost: the
     * array goes again, its values in text without a type, or that one
     * declared, as a single execution does (gc_exec.c). */
    untype = a.type_refused && !s->params_untyped;
    again = (untype || a.uninferred >= 0) && !a.lost && !some_row_ran(&a) &&
            gc_exec_refusal_lost_nothing(s, idle_before) &&
            (a.uninferred < 0 || gc_param_mark_uninferred(s, a.uninferred));
    if (again)
        goto done;
    rc = report_rows(&a);
    if (rc != SQL_ERROR && publish_results(&a) == SQL_ERROR)
        rc = SQL_ERROR;
done:
    gc_txn_guard_disarm(s);
    for (SQLULEN r = 0; a.answers != NULL && !a.published && r < rows; r++)
        PQclear(a.answers[r]);
    for (SQLULEN r = 0; a.values != NULL && r < rows; r++)
        gc_exec_free_values(a.values[r], s->nparams);
    free(a.answers);
    free(a.values);
    free(a.lane_of);
    free(a.member_of);
    free(a.lanes);
    free(a.fate);
    free(a.marks);
    if (a.spans)
        return false;    /* nothing was sent: the caller runs the rows one by one */
    if (again && untype) {
        gc_trace_write(s->conn->trace, GC_TRACE_INFO, "the server refused a parameter's "
                       "declared type (42804, 42883): the array sent again with the types "
                       "left to it");
        s->params_untyped = true;
    } else if (again) {
        gc_trace_write(s->conn->trace, GC_TRACE_INFO, "the server could not infer the type "
                       "of parameter %d (42P18): the array sent again with it declared",
                       a.uninferred + 1);
    }
    if (again) {
        gc_diag_clear(&s->h.diag);
        return gc_exec_array_run(s, rows, result);
    }
    gc_stmt_reset_exec(s);
    *result = gc_stmt_rc_with_info(s, rc);
    return true;
}
