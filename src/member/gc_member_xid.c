/*
 * gc_member_xid: one autocommit statement in its own transaction, sent as a
 * single pipelined exchange that also reports the transaction id, so that
 * a COMMIT whose answer is lost can later be resolved with pg_xact_status
 * (gc_xact_status in the global layer).
 *
 * Order of the pipeline: BEGIN, SELECT pg_current_xact_id(), a flush
 * request, the statement, COMMIT, sync. The id is asked for first and
 * flushed at once, so it reaches the driver while the statement runs, not
 * together with the COMMIT's answer (which may be the part that is lost).
 */
#include "member/gc_member.h"
#include "member/gc_member_internal.h"

#include <string.h>

enum xid_step { STEP_BEGIN, STEP_XID, STEP_STATEMENT, STEP_COMMIT, STEP_COUNT };

/* What the collected answers said so far. */
typedef struct xid_answers {
    bool failed_before_commit;   /* a server error before COMMIT ran */
    bool commit_answered;        /* COMMIT's own answer arrived */
    bool committed;              /* ... and said COMMIT */
    gc_error server_error;       /* first server error */
} xid_answers;

/* Records one result of step `step`; takes ownership of res. */
static void take_result(gc_member_xid_run *run, xid_answers *a, int step, PGresult *res)
{
    ExecStatusType st = PQresultStatus(res);
    if (st == PGRES_FATAL_ERROR) {
        if (!gc_error_is_set(&a->server_error))
            gc_member_error_from_result(res, &a->server_error);
        if (step == STEP_COMMIT)
            a->commit_answered = true;
        else
            a->failed_before_commit = true;
    } else if (st == PGRES_PIPELINE_ABORTED) {
        /* Skipped after an earlier error: nothing of it ran. */
        if (step == STEP_COMMIT)
            a->commit_answered = true;
    } else if (step == STEP_XID && st == PGRES_TUPLES_OK && PQntuples(res) == 1) {
        snprintf(run->xid, sizeof run->xid, "%s", PQgetvalue(res, 0, 0));
    } else if (step == STEP_STATEMENT && run->result == NULL) {
        run->result = res;
        return;
    } else if (step == STEP_COMMIT && st == PGRES_COMMAND_OK) {
        a->commit_answered = true;
        /* COMMIT of a failed transaction answers ROLLBACK. */
        a->committed = strcmp(PQcmdStatus(res), "COMMIT") == 0;
    }
    PQclear(res);
}

/* Collects every answer of the pipeline. False when the session was lost
 * before the sync point (the member is then down). */
static bool collect_answers(gc_member *m, gc_member_xid_run *run, xid_answers *a)
{
    long long limit = m->member_timeout_s * 1000LL;
    for (int step = 0; step <= STEP_COUNT; step++) {
        int empty = 0;    /* NULLs in a row while the sync is awaited */
        for (;;) {
            if (!gc_member_wait_readable(m, limit, true))
                return false;
            PGresult *res = PQgetResult(m->conn);
            if (res == NULL) {
                if (PQstatus(m->conn) == CONNECTION_BAD)
                    return false;
                if (step == STEP_COUNT && ++empty < 3)
                    continue;    /* only the sync result ends the exchange */
                if (step == STEP_COUNT)
                    return false;    /* libpq has nothing more: the sync is lost */
                break;           /* end of this step's results */
            }
            ExecStatusType st = PQresultStatus(res);
            if (st == PGRES_FATAL_ERROR && PQresultErrorField(res, PG_DIAG_SQLSTATE) == NULL) {
                PQclear(res);    /* libpq's own error: the connection broke */
                return false;
            }
            if (step == STEP_COUNT) {
                PQclear(res);
                if (st == PGRES_PIPELINE_SYNC)
                    return true;
                continue;
            }
            take_result(run, a, step, res);
        }
    }
    return true;
}

/* See gc_member.h. */
bool gc_member_run_with_xid(gc_member *m, const char *sql, int nparams,
                            const Oid *param_types, const char *const *values,
                            const int *lengths, const int *formats,
                            gc_member_xid_run *run, gc_error *err)
{
    memset(run, 0, sizeof *run);
    run->outcome = GC_XID_NOT_COMMITTED;
    run->generation = m->generation;
    if (!gc_member_check_alive(m, err))
        return false;
    if (m->in_flight)
        gc_member_drain(m);
    if (m->conn == NULL || m->state == GC_MEMBER_DOWN)
        return gc_member_check_alive(m, err);
    if (PQtransactionStatus(m->conn) != PQTRANS_IDLE) {
        gc_error_set(err, "HY010", 0, "member %s: a transaction is open",
                     m->name ? m->name : "-");
        return false;
    }
    if (!PQenterPipelineMode(m->conn)) {
        gc_member_error_from_libpq(err, "HY000", PQerrorMessage(m->conn));
        return false;
    }
    gc_trace_write(m->trace, GC_TRACE_DEBUG, "member %s pipelined with xid: %s",
                   m->name ? m->name : "-", sql);
    m->in_flight = true;
    m->sent_generation = m->generation;
    m->last_io_ms = gc_member_monotonic_ms();

    /* An explicit transaction cannot commit without its COMMIT: until that
     * is queued, a failure means nothing took effect. */
    bool commit_queued = false;
    bool ok = PQsendQueryParams(m->conn, "BEGIN", 0, NULL, NULL, NULL, NULL, 0) &&
              PQsendQueryParams(m->conn, "SELECT pg_current_xact_id()", 0, NULL, NULL,
                                NULL, NULL, 0) &&
              PQsendFlushRequest(m->conn) &&
              PQsendQueryParams(m->conn, sql, nparams, param_types, values, lengths,
                                formats, 0);
    if (ok)
        ok = commit_queued = PQsendQueryParams(m->conn, "COMMIT", 0, NULL, NULL, NULL,
                                               NULL, 0);
    if (ok)
        ok = PQpipelineSync(m->conn);
    if (!ok) {
        gc_error why;
        gc_member_error_from_libpq(&why, "08S01", PQerrorMessage(m->conn));
        gc_member_went_down(m, &why);    /* the half-sent pipeline is unusable */
        *err = why;
        run->outcome = commit_queued ? GC_XID_UNKNOWN : GC_XID_NOT_COMMITTED;
        return false;
    }

    xid_answers a;
    memset(&a, 0, sizeof a);
    gc_error_clear(&a.server_error);
    bool complete = collect_answers(m, run, &a);
    if (!complete) {
        gc_member_note_connection_health(m);
        if (m->conn != NULL) {
            gc_error why;
            gc_error_set(&why, "08S01", 0, "member %s: the connection was lost",
                         m->name ? m->name : "-");
            gc_member_went_down(m, &why);
        }
        *err = m->down_error;
    } else {
        PQexitPipelineMode(m->conn);
        m->in_flight = false;
        /* After an error the explicit transaction is left failed: end it. */
        if (PQtransactionStatus(m->conn) != PQTRANS_IDLE) {
            gc_error rollback_err;
            PGresult *r = gc_member_exec(m, "ROLLBACK", &rollback_err);
            PQclear(r);
        }
    }

    if (a.committed)
        run->outcome = GC_XID_COMMITTED;
    else if (a.failed_before_commit || a.commit_answered)
        run->outcome = GC_XID_NOT_COMMITTED;
    else
        run->outcome = complete ? GC_XID_NOT_COMMITTED : GC_XID_UNKNOWN;

    if (run->outcome == GC_XID_COMMITTED) {
        gc_error_clear(err);
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
