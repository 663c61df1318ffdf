/*
 * gc_member_xid: writes whose COMMIT answer may be lost, sent so that the
 * transaction id (and the server incarnation it belongs to) reaches the
 * driver before the commit happens, in the same exchange (no extra round
 * trip). A lost answer is then resolved with pg_xact_status (gc_xact_status
 * and gc_commit_resolve in the global layer).
 *
 * The pipelines (libpq pipeline mode, extended query protocol):
 *  - an autocommit write, as the driver sends it: the statement, `SELECT
 *    pg_current_xact_id_if_assigned(), start time`, a flush request, sync.
 *    Everything up to a Sync is one implicit transaction that commits when
 *    the Sync is processed, so no BEGIN or COMMIT is needed; the flush
 *    request makes the server send the statement's answer and the id before
 *    it commits. No id means the statement wrote nothing on this server
 *    (nothing at all, unless it wrote through postgres_fdw: the caller
 *    knows).
 *    Where the caller knows it is safe (gc_member.h), the id comes instead
 *    with the statement's own answer, from a RETURNING of the id appended
 *    to it: the statement, a flush request, sync. One statement less for
 *    the server to run and the client to read.
 *    A statement that carries a command before it (the statement mark,
 *    gc_remote_write.h) has that command first, in the same implicit
 *    transaction: its answer is dropped; its error is the statement's, and
 *    the work after it is skipped by the server, so nothing commits.
 *    (Asking the id first, with `SELECT pg_current_xact_id()`, would let a
 *    failure in the middle of a long statement be resolved too, at the cost
 *    of one more wake-up of the client per statement: measured about 25%
 *    fewer single-row UPDATEs per second, so the driver does not.)
 *  - the COMMIT of an open transaction: `SELECT
 *    pg_current_xact_id_if_assigned(), start time`, a flush request,
 *    COMMIT, sync. No id means the transaction wrote nothing on this
 *    server (likewise).
 *
 * Why a server FATAL that arrives before the id means "not committed": the
 * server answers in order and flushes the id's answer before anything that
 * can commit runs (the COMMIT, or the Sync), so an error it sent before
 * that answer was sent before the commit, and the backend then exits (its
 * transaction is rolled back). A connection that simply breaks proves nothing: what was
 * sent may have been lost on the way.
 */
#include "member/gc_member.h"
#include "member/gc_member_internal.h"
#include "util/gc_clock.h"

#include <assert.h>
#include <stddef.h>
#include <string.h>

#define XID_QUERY_IF_ASSIGNED \
    "SELECT pg_current_xact_id_if_assigned()::text, pg_postmaster_start_time()::text"
/* XID_QUERY_IF_ASSIGNED prepared once per session: parsing and planning it
 * on every write cost about a third of a single-row UPDATE's throughput. */
#define XID_STATEMENT "gc_xid"

enum xid_step { STEP_BEFORE, STEP_XID, STEP_WORK, STEP_SYNC };

/* What the collected answers said so far. */
typedef struct xid_answers {
    bool is_commit;              /* the work step is COMMIT of an open transaction */
    bool id_returned;            /* the statement returns the id (RETURNING): no id query */
    bool id_point_answered;      /* the answer that carries the id arrived (the id
                                    query's, or the statement's own): the flush
                                    request was reached */
    bool keep_error;             /* hand the first server error over as run->error */
    bool error_before_commit;    /* an ERROR (not FATAL) ended the work: nothing commits */
    bool fatal_before_xid;       /* the server ended the session before the id's answer */
    bool commit_answered;        /* COMMIT's own answer (or the sync after an
                                    autocommit statement) arrived */
    bool committed;              /* ... and said it committed */
    PGresult *rows;              /* the statement's rows so far, when they come
                                    one at a time (gather_row) */
    bool rows_lost;              /* gathering them ran out of memory */
    gc_error server_error;       /* first server error; last: the fields before it
                                    are zeroed, it is only cleared (it is large) */
} xid_answers;

/* Copies the value at (row, col) of res into dst (size bytes, cut to fit,
 * "" for NULL, whose length libpq gives as 0): without a format to parse,
 * as on every write. */
static void copy_value(char *dst, size_t size, const PGresult *res, int row, int col)
{
    size_t n = (size_t)PQgetlength(res, row, col);
    if (n >= size)
        n = size - 1;
    memcpy(dst, PQgetvalue(res, row, col), n);
    dst[n] = '\0';
}

/* The statement's own answer, when it returns the id in its last two
 * columns (id, start time) on every row. Only a row's id proves anything:
 * with no row the statement changed no row itself, but a trigger may have
 * written, so "no id" is not known (xid_answered stays false), and an id
 * NULL means the rows were written elsewhere (postgres_fdw), likewise. */
static void take_returned_id(gc_member_xid_run *run, xid_answers *a, const PGresult *res)
{
    a->id_point_answered = true;
    int n = PQnfields(res);
    if (run->xid_answered || PQntuples(res) < 1 || n < 2 || PQgetisnull(res, 0, n - 2))
        return;
    run->xid_answered = true;
    copy_value(run->xid, sizeof run->xid, res, 0, n - 2);
    copy_value(run->started, sizeof run->started, res, 0, n - 1);
}

/* Puts the rows of a statement answered one row at a time back into one
 * result: each PGRES_SINGLE_TUPLE res is appended to a->rows; the closing
 * PGRES_TUPLES_OK (no rows, the command's tag) becomes run->result with
 * every row. Takes res. Out of memory, rows are lost: the result then says
 * so by its status (PGRES_FATAL_ERROR, HY001 from the caller's view). */
static void gather_row(gc_member_xid_run *run, xid_answers *a, PGresult *res)
{
    const PGresult *from = PQresultStatus(res) == PGRES_SINGLE_TUPLE ? res : a->rows;
    PGresult *into = PQresultStatus(res) == PGRES_SINGLE_TUPLE ? a->rows : NULL;
    if (PQresultStatus(res) == PGRES_SINGLE_TUPLE && a->rows == NULL) {
        a->rows = res;    /* the first row, as it is */
        return;
    }
    if (into == NULL) {
        /* The tag has come: a copy of it with the columns, then the rows. */
        into = PQcopyResult(res, PG_COPYRES_ATTRS | PG_COPYRES_EVENTS | PG_COPYRES_NOTICEHOOKS);
        PQclear(res);
        res = NULL;
    }
    bool ok = into != NULL;
    for (int r = 0; ok && from != NULL && r < PQntuples(from); r++) {
        int at = PQntuples(into);
        for (int f = 0; ok && f < PQnfields(from); f++)
            ok = PQsetvalue(into, at, f, PQgetisnull(from, r, f) ? NULL : PQgetvalue(from, r, f),
                            PQgetisnull(from, r, f) ? -1 : PQgetlength(from, r, f)) != 0;
    }
    if (res != NULL) {
        PQclear(res);            /* a later row, copied into a->rows */
    } else {
        PQclear(a->rows);        /* every row is in `into` now */
        a->rows = NULL;
        PQclear(run->result);
        run->result = ok ? into : PQmakeEmptyPGresult(NULL, PGRES_FATAL_ERROR);
        if (!ok)
            PQclear(into);
    }
    if (!ok)
        a->rows_lost = true;
}

/* Records one result of step `step`; takes ownership of res. */
static void take_result(gc_member_xid_run *run, xid_answers *a, int step, PGresult *res)
{
    ExecStatusType st = PQresultStatus(res);
    bool keep = false;
    if (st == PGRES_FATAL_ERROR) {
        if (!gc_error_is_set(&a->server_error)) {
            gc_member_error_from_result(res, &a->server_error);
            keep = a->keep_error && run->error == NULL;    /* DETAIL and HINT too */
        }
        if (gc_member_result_is_fatal(res)) {
            /* The session ends. Before the id's answer: nothing ran (see
             * the top of the file). After it: the commit may have happened
             * (a COMMIT waiting for a synchronous standby commits locally
             * before such a FATAL). */
            if (!a->id_point_answered)
                a->fatal_before_xid = true;
        } else if (step == STEP_WORK && a->is_commit) {
            a->commit_answered = true;       /* COMMIT failed: rolled back */
        } else {
            a->error_before_commit = true;   /* aborted before (or at) the commit */
        }
    } else if (st == PGRES_PIPELINE_ABORTED) {
        /* Skipped after an earlier error: nothing of it ran. */
    } else if (step == STEP_XID && (st == PGRES_TUPLES_OK || st == PGRES_SINGLE_TUPLE) &&
               PQntuples(res) == 1 && PQnfields(res) == 2) {
        /* (One row at a time when the session streams rows: the same row.) */
        run->xid_answered = a->id_point_answered = true;
        copy_value(run->xid, sizeof run->xid, res, 0, 0);
        copy_value(run->started, sizeof run->started, res, 0, 1);
    } else if (step == STEP_WORK && a->id_returned &&
               (st == PGRES_SINGLE_TUPLE || (st == PGRES_TUPLES_OK && run->result == NULL))) {
        /* A session left in single-row mode by a SELECT before (libpq keeps
         * it across a pipeline's start) answers each row alone, then the
         * command's tag without rows: only the tag is kept. */
        take_returned_id(run, a, res);
        if (st == PGRES_TUPLES_OK) {
            run->result = res;
            return;
        }
    } else if (step == STEP_WORK && a->is_commit && st == PGRES_COMMAND_OK) {
        a->commit_answered = true;
        /* COMMIT of a failed transaction answers ROLLBACK. */
        a->committed = strcmp(PQcmdStatus(res), "COMMIT") == 0;
    } else if (step == STEP_WORK && !a->is_commit &&
               (st == PGRES_SINGLE_TUPLE || (a->rows != NULL && st == PGRES_TUPLES_OK))) {
        /* Single-row mode left over (see the id_returned case): gathered. */
        gather_row(run, a, res);
        return;
    } else if (step == STEP_WORK && !a->is_commit && run->result == NULL) {
        run->result = res;
        return;
    }
    if (keep)
        run->error = res;
    else
        PQclear(res);
}

/* Collects every answer of the pipeline, whose n steps come in the order
 * `steps` (the queries, then the sync). False when the session was lost
 * before the sync point (the member is then down). */
static bool collect_answers(gc_member *m, const int *steps, int n, gc_member_xid_run *run,
                            xid_answers *a)
{
    long long limit = m->member_timeout_s * 1000LL;
    for (int k = 0; k < n; k++) {
        int step = steps[k];
        int empty = 0;    /* NULLs in a row while the sync is awaited */
        for (;;) {
            if (!gc_member_wait_readable(m, limit, true))
                return false;
            PGresult *res = PQgetResult(m->conn);
            if (res == NULL) {
                if (PQstatus(m->conn) == CONNECTION_BAD)
                    return false;
                if (step == STEP_SYNC && ++empty < 3)
                    continue;    /* only the sync result ends the exchange */
                if (step == STEP_SYNC)
                    return false;    /* libpq has nothing more: the sync is lost */
                break;           /* end of this step's results */
            }
            ExecStatusType st = PQresultStatus(res);
            if (st == PGRES_FATAL_ERROR && PQresultErrorField(res, PG_DIAG_SQLSTATE) == NULL) {
                PQclear(res);    /* libpq's own error: the connection broke */
                return false;
            }
            if (step == STEP_SYNC && st == PGRES_PIPELINE_SYNC) {
                PQclear(res);
                if (!a->is_commit && !a->error_before_commit && !a->fatal_before_xid &&
                    !gc_error_is_set(&a->server_error)) {
                    /* The implicit transaction committed at the sync. */
                    a->commit_answered = true;
                    a->committed = true;
                }
                return true;
            }
            take_result(run, a, step == STEP_SYNC ? STEP_WORK : step, res);
        }
    }
    return true;
}

/* Sends the work: the statement (prepared as stmt_name, or sql), or COMMIT. */
static bool send_work(gc_member *m, const char *stmt_name, const char *sql, int nparams,
                      const Oid *param_types, const char *const *values, const int *lengths,
                      const int *formats)
{
    return stmt_name != NULL
               ? PQsendQueryPrepared(m->conn, stmt_name, nparams, values, lengths, formats, 0)
               : PQsendQueryParams(m->conn, sql, nparams, param_types, values, lengths,
                                   formats, 0);
}

/* Sends the id query: the session's prepared XID_STATEMENT when `prepared`
 * (it is XID_QUERY_IF_ASSIGNED), else the text xid_query. */
static bool send_xid_query(gc_member *m, const char *xid_query, bool prepared)
{
    return prepared ? PQsendQueryPrepared(m->conn, XID_STATEMENT, 0, NULL, NULL, NULL, 0)
                    : PQsendQueryParams(m->conn, xid_query, 0, NULL, NULL, NULL, NULL, 0);
}

/* Queues one pipelined exchange: with xid_first the id query, a flush
 * request, the work (the statement, or COMMIT), a sync; with id_returned
 * (the statement returns the id itself) the work, a flush request, a sync;
 * else the work, the id query, a flush request, a sync. `before`, when not
 * NULL, is queued first (an autocommit statement's mark). *work_queued
 * tells whether the part that may commit was queued (libpq sends nothing
 * before the sync, unless its buffer fills). */
static bool queue_pipeline(gc_member *m, const char *before, bool xid_first, bool id_returned,
                           const char *xid_query, bool xid_prepared, const char *stmt_name,
                           const char *sql, int nparams, const Oid *param_types,
                           const char *const *values, const int *lengths, const int *formats,
                           bool *work_queued)
{
    *work_queued = false;
    if (before != NULL && !PQsendQueryParams(m->conn, before, 0, NULL, NULL, NULL, NULL, 0))
        return false;
    if (xid_first) {
        if (!send_xid_query(m, xid_query, xid_prepared) ||
            !PQsendFlushRequest(m->conn))
            return false;
        *work_queued = true;
        if (!send_work(m, stmt_name, sql, nparams, param_types, values, lengths, formats))
            return false;
    } else {
        *work_queued = true;
        if (!send_work(m, stmt_name, sql, nparams, param_types, values, lengths, formats) ||
            (!id_returned && !send_xid_query(m, xid_query, xid_prepared)) ||
            !PQsendFlushRequest(m->conn))
            return false;
    }
    return PQpipelineSync(m->conn) == 1;
}

/* The order in which the answers of queue_pipeline's exchange come, into
 * steps (room for 4); returns how many. */
static int pipeline_steps(bool before, bool xid_first, bool id_returned, int *steps)
{
    int n = 0;
    if (before)
        steps[n++] = STEP_BEFORE;
    if (xid_first)
        steps[n++] = STEP_XID;
    steps[n++] = STEP_WORK;
    if (!xid_first && !id_returned)
        steps[n++] = STEP_XID;
    steps[n++] = STEP_SYNC;
    return n;
}

/* The common part of both runs: send, collect, decide. `is_commit`: the
 * work is COMMIT of the open transaction (session in a transaction); else
 * an autocommit statement (session idle), after `before` when not NULL. */
static bool run_pipeline(gc_member *m, bool is_commit, const char *before, bool xid_first,
                         bool id_returned, bool xid_prepared, bool keep_error,
                         const char *stmt_name, const char *sql,
                         int nparams, const Oid *param_types, const char *const *values,
                         const int *lengths, const int *formats, gc_member_xid_run *run,
                         gc_error *err)
{
    gc_member_before_send(m);
    memset(run, 0, sizeof *run);
    run->outcome = GC_XID_NOT_COMMITTED;
    run->generation = m->generation;
    /* A statement's caller has just checked the session (the router, before
     * choosing it): a second look would cost a system call per write. */
    if (is_commit ? !gc_member_check_alive(m, err)
                  : (m->conn == NULL || m->state == GC_MEMBER_DOWN))
        return gc_member_check_alive(m, err);    /* nothing sent; an open
                                                    transaction died with the session */
    if (m->in_flight)
        gc_member_drain(m);
    if (m->conn == NULL || m->state == GC_MEMBER_DOWN)
        return gc_member_check_alive(m, err);
    PGTransactionStatusType ts = PQtransactionStatus(m->conn);
    if (is_commit ? ts != PQTRANS_INTRANS : ts != PQTRANS_IDLE) {
        gc_error_set(err, "HY010", 0, "member %s: %s", m->name ? m->name : "-",
                     is_commit ? "no transaction to commit" : "a transaction is open");
        return false;
    }
    if (!PQenterPipelineMode(m->conn)) {
        gc_member_error_from_libpq(err, "HY000", PQerrorMessage(m->conn));
        return false;
    }
    gc_trace_write(m->trace, GC_TRACE_DEBUG, "member %s pipelined with xid: %s%s%s",
                   m->name ? m->name : "-", before != NULL ? before : "",
                   before != NULL ? "; " : "", is_commit ? "COMMIT" : sql);
    m->in_flight = true;
    m->sent_generation = m->generation;
    m->last_io_ms = gc_clock_ms();

    bool work_queued = false;
    /* xid_first only for COMMIT: an autocommit statement asks after itself. */
    assert(!xid_first || is_commit);
    assert(before == NULL || !is_commit);
    if (!queue_pipeline(m, before, xid_first, id_returned, XID_QUERY_IF_ASSIGNED, xid_prepared,
                        stmt_name, sql, nparams, param_types, values, lengths, formats,
                        &work_queued)) {
        gc_error why;
        gc_member_error_from_libpq(&why, "08S01", PQerrorMessage(m->conn));
        gc_member_went_down(m, &why);    /* the half-sent pipeline is unusable */
        *err = why;
        run->outcome = work_queued ? GC_XID_UNKNOWN : GC_XID_NOT_COMMITTED;
        return false;
    }

    xid_answers a;
    memset(&a, 0, offsetof(xid_answers, server_error));
    gc_error_clear(&a.server_error);
    a.is_commit = is_commit;
    a.id_returned = id_returned;
    a.keep_error = keep_error;
    int steps[4];
    int n_steps = pipeline_steps(before != NULL, xid_first, id_returned, steps);
    bool complete = collect_answers(m, steps, n_steps, run, &a);
    if (!complete) {
        gc_member_note_connection_health(m);
        if (m->conn != NULL) {
            gc_error why;
            gc_error_set(&why, "08S01", 0, "member %s: the connection was lost",
                         m->name ? m->name : "-");
            gc_member_went_down(m, &why);
        }
        *err = m->down_error;
    } else if (!PQexitPipelineMode(m->conn)) {
        /* Cannot happen once the sync was collected; a session left in
         * pipeline mode would run later statements without their sync. */
        gc_error why;
        gc_member_error_from_libpq(&why, "08S01", PQerrorMessage(m->conn));
        gc_member_went_down(m, &why);
    } else {
        m->in_flight = false;
        /* A COMMIT skipped after an error leaves the transaction failed: end it. */
        if (is_commit && PQtransactionStatus(m->conn) != PQTRANS_IDLE) {
            gc_error rollback_err;
            PQclear(gc_member_exec(m, "ROLLBACK", &rollback_err));
        }
    }

    PQclear(a.rows);    /* rows of an answer cut short, if any */
    if (a.committed)
        run->outcome = GC_XID_COMMITTED;
    else if (a.commit_answered || a.error_before_commit || a.fatal_before_xid || complete)
        run->outcome = GC_XID_NOT_COMMITTED;
    else
        run->outcome = GC_XID_UNKNOWN;
    run->rolled_back = is_commit && a.commit_answered && !a.committed &&
                       !gc_error_is_set(&a.server_error);

    if (run->outcome == GC_XID_COMMITTED) {
        gc_error_clear(err);
        PQclear(run->error);
        run->error = NULL;
        return true;
    }
    if (gc_error_is_set(&a.server_error))
        *err = a.server_error;
    else if (!gc_error_is_set(err))
        gc_error_set(err, "08S01", 0, "member %s: the transaction did not commit",
                     m->name ? m->name : "-");
    if (run->outcome == GC_XID_NOT_COMMITTED) {
        PQclear(run->result);
        run->result = NULL;
    }
    return false;
}

/* See gc_member.h. */
bool gc_member_run_statement_with_xid(gc_member *m, gc_member_xid_source source,
                                      const char *before, const char *stmt_name, const char *sql,
                                      int nparams, const Oid *param_types,
                                      const char *const *values, const int *lengths,
                                      const int *formats, gc_member_xid_run *run, gc_error *err)
{
    return run_pipeline(m, false, before, false, source == GC_XID_RETURNED,
                        source == GC_XID_QUERY_PREPARED, true, stmt_name, sql, nparams,
                        param_types, values, lengths, formats, run, err);
}

/* See gc_member.h. */
bool gc_member_commit_with_xid(gc_member *m, bool xid_prepared, gc_member_xid_run *run,
                               gc_error *err)
{
    return run_pipeline(m, true, NULL, true, false, xid_prepared, true, NULL, "COMMIT", 0, NULL,
                        NULL, NULL, NULL, run, err);
}

/* See gc_member.h. */
bool gc_member_prepare_xid_statement(gc_member *m, gc_error *err)
{
    if (!gc_member_send_prepare(m, XID_STATEMENT, XID_QUERY_IF_ASSIGNED, 0, NULL, err))
        return false;
    bool ok = true;
    PGresult *res;
    while ((res = gc_member_next_result(m)) != NULL) {
        const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
        /* 42P05: this session has it already. */
        if (PQresultStatus(res) != PGRES_COMMAND_OK &&
            !(state != NULL && strcmp(state, "42P05") == 0) && ok) {
            gc_member_result_error(m, res, err);
            ok = false;
        }
        PQclear(res);
    }
    if (ok)
        m->xid_generation = m->generation;
    return ok;
}

/* See gc_member.h. */
bool gc_member_has_xid_statement(const gc_member *m)
{
    return gc_member_is_open(m) && m->xid_generation == m->generation;
}

/* See gc_member.h. */
gc_member *gc_member_open_asker(const gc_member *m, gc_error *err)
{
    gc_member_params p = {
        .name = m->name, .group = m->group, .host = m->host, .port = m->port,
        .dbname = m->dbname, .user = m->user, .password = m->password,
        .sslmode = m->sslmode, .sslrootcert = m->sslrootcert, .sslcert = m->sslcert,
        .sslkey = m->sslkey, .application_name = "gcodbc commit resolution",
        .connect_timeout_s = m->connect_timeout_s > 0 ? m->connect_timeout_s : 2,
        .member_timeout_s = m->member_timeout_s > 0 ? m->member_timeout_s : 2,
        .extra_conninfo = m->extra_conninfo,
    };
    gc_member *asker = gc_member_create(&p, m->trace);
    if (asker == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return NULL;
    }
    if (!gc_member_connect(asker, err)) {
        gc_member_destroy(asker);
        return NULL;
    }
    return asker;
}

/* See gc_member.h. */
void gc_member_xid_run_clear(gc_member_xid_run *run)
{
    PQclear(run->result);
    PQclear(run->error);
    run->result = NULL;
    run->error = NULL;
}
