/*
 * gc_member_wrap: reading the answers of a statement sent between two
 * commands in one pipeline (gc_member_send_wrapped), so the caller sees the
 * statement's results exactly as if it had been sent alone.
 *
 * In pipeline mode libpq ends each command's results with a NULL and the
 * pipeline with a PGRES_PIPELINE_SYNC result. The reader goes through three
 * phases: the command before (answers dropped, its error kept), the
 * statement (answers delivered, rows one at a time when asked), the command
 * after and the sync (dropped, except an error); then it leaves pipeline
 * mode and reports the end with NULL, like gc_member_next_result for an
 * ordinary statement.
 *
 * An autocommit statement commits at the sync, after its own answers: an
 * error there (a deferred constraint, a commit the server refused) or a
 * session that broke before the sync confirmed it is the statement's
 * failure, delivered after its answers, never dropped as a success.
 */
#include "member/gc_member.h"
#include "member/gc_member_internal.h"

void gc_member_wrap_end(gc_member *m)
{
    PQclear(m->wrap.before_error);
    m->wrap.before_error = NULL;
    m->wrap.active = false;
    m->wrap.before_left = 0;
    m->wrap.in_after = false;
    m->wrap.stream = false;
}

static bool is_error(const PGresult *r)
{
    ExecStatusType st = PQresultStatus(r);
    return st == PGRES_FATAL_ERROR || st == PGRES_BAD_RESPONSE;
}

/* The end of the pipeline: back to ordinary mode; the statement is done. */
static PGresult *finish(gc_member *m, PGresult *deliver)
{
    if (m->conn != NULL && PQpipelineStatus(m->conn) != PQ_PIPELINE_OFF)
        PQexitPipelineMode(m->conn);
    gc_member_wrap_end(m);
    m->in_flight = false;
    return deliver;
}

PGresult *gc_member_wrapped_next(gc_member *m)
{
    for (;;) {
        if (m->conn == NULL || PQstatus(m->conn) == CONNECTION_BAD) {
            /* Broken: libpq delivers nothing more. An error of the command
             * before is all the statement gets; after its answers, the
             * commit was never confirmed. */
            PGresult *kept = m->wrap.before_error;
            m->wrap.before_error = NULL;
            gc_member_note_connection_health(m);
            if (kept == NULL && m->wrap.in_after)
                kept = PQmakeEmptyPGresult(NULL, PGRES_FATAL_ERROR);
            return finish(m, kept);
        }
        if (!gc_member_wait_readable(m, m->member_timeout_s * 1000LL, true))
            return finish(m, PQmakeEmptyPGresult(NULL, PGRES_FATAL_ERROR));
        PGresult *r = PQgetResult(m->conn);
        gc_member_note_connection_health(m);
        if (m->wrap.before_left > 0) {
            if (r == NULL) {
                if (--m->wrap.before_left == 0 && m->wrap.stream)
                    PQsetSingleRowMode(m->conn);
            } else if (is_error(r) && m->wrap.before_error == NULL) {
                m->wrap.before_error = r;
            } else {
                PQclear(r);
            }
            continue;
        }
        if (!m->wrap.in_after) {
            if (r == NULL) {
                m->wrap.in_after = true;
                continue;
            }
            if (PQresultStatus(r) == PGRES_PIPELINE_ABORTED && m->wrap.before_error != NULL) {
                PQclear(r);
                r = m->wrap.before_error;
                m->wrap.before_error = NULL;
            }
            return r;
        }
        if (r != NULL && is_error(r))
            return r;       /* the commit's (or the command after's) error */
        bool synced = r != NULL && PQresultStatus(r) == PGRES_PIPELINE_SYNC;
        PQclear(r);
        if (synced)
            return finish(m, NULL);
    }
}
