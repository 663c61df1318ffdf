/*
 * gc_member_pipeline: libpq's pipeline mode for a batch of statements the
 * core queues at once (the rows of a parameter array): everything is sent
 * before any answer is read, so n rows cost one round trip, not n.
 *
 * The owner queues commands and sync points, then reads the answers in the
 * order it queued them: each command's results end with NULL, each sync
 * point answers one PGRES_PIPELINE_SYNC result. After an error the server
 * skips the commands up to the next sync (PGRES_PIPELINE_ABORTED each).
 * libpq reads the answers into memory while it sends, so a long batch does
 * not deadlock on full socket buffers.
 */
#include "member/gc_member.h"
#include "member/gc_member_internal.h"
#include "util/gc_clock.h"

/* Fills err with why queueing failed; a half-sent pipeline leaves the
 * session unusable, so the member goes down. */
static bool queue_failed(gc_member *m, gc_error *err)
{
    gc_error why;
    gc_member_error_from_libpq(&why, "08S01", PQerrorMessage(m->conn));
    gc_member_went_down(m, &why);
    *err = why;
    return false;
}

bool gc_member_pipeline_begin(gc_member *m, gc_error *err)
{
    gc_member_before_send(m);
    if (!gc_member_check_alive(m, err))
        return false;
    if (m->in_flight)
        gc_member_drain(m);
    if (m->conn == NULL)
        return gc_member_check_alive(m, err);
    if (!PQenterPipelineMode(m->conn)) {
        gc_member_error_from_libpq(err, "HY000", PQerrorMessage(m->conn));
        return false;
    }
    m->in_flight = true;
    m->sent_generation = m->generation;
    m->last_io_ms = gc_clock_ms();
    return true;
}

bool gc_member_pipeline_prepare(gc_member *m, const char *stmt_name, const char *sql,
                                int nparams, const Oid *param_types, gc_error *err)
{
    gc_trace_write(m->trace, GC_TRACE_DEBUG, "member %s pipeline prepare %s: %s",
                   m->name ? m->name : "-", stmt_name[0] ? stmt_name : "(unnamed)", sql);
    if (m->conn == NULL || !PQsendPrepare(m->conn, stmt_name, sql, nparams, param_types))
        return queue_failed(m, err);
    return true;
}

bool gc_member_pipeline_query_prepared(gc_member *m, const char *stmt_name, int nparams,
                                       const char *const *values, const int *lengths,
                                       const int *formats, gc_error *err)
{
    if (m->conn == NULL ||
        !PQsendQueryPrepared(m->conn, stmt_name, nparams, values, lengths, formats, 0))
        return queue_failed(m, err);
    return true;
}

bool gc_member_pipeline_query(gc_member *m, const char *sql, gc_error *err)
{
    gc_trace_write(m->trace, GC_TRACE_DEBUG, "member %s pipeline query: %s",
                   m->name ? m->name : "-", sql);
    /* Pipeline mode takes only the extended protocol: no parameters. */
    if (m->conn == NULL || !PQsendQueryParams(m->conn, sql, 0, NULL, NULL, NULL, NULL, 0))
        return queue_failed(m, err);
    return true;
}

bool gc_member_pipeline_sync(gc_member *m, gc_error *err)
{
    if (m->conn == NULL || PQpipelineSync(m->conn) != 1)
        return queue_failed(m, err);
    m->last_io_ms = gc_clock_ms();
    return true;
}

bool gc_member_pipeline_flush(gc_member *m, gc_error *err)
{
    if (m->conn == NULL || PQsendFlushRequest(m->conn) != 1 || PQflush(m->conn) != 0)
        return queue_failed(m, err);
    m->last_io_ms = gc_clock_ms();
    return true;
}

/* Bounded by MemberTimeout like gc_member_next_result; a member found dead
 * yields one PGRES_FATAL_ERROR result without SQLSTATE. */
PGresult *gc_member_pipeline_next(gc_member *m)
{
    if (m->conn == NULL)
        return PQmakeEmptyPGresult(NULL, PGRES_FATAL_ERROR);
    if (!gc_member_wait_readable(m, m->member_timeout_s * 1000LL, true))
        return PQmakeEmptyPGresult(NULL, PGRES_FATAL_ERROR);
    PGresult *res = PQgetResult(m->conn);
    gc_member_note_connection_health(m);
    if (res == NULL && (m->conn == NULL || PQstatus(m->conn) == CONNECTION_BAD))
        return PQmakeEmptyPGresult(NULL, PGRES_FATAL_ERROR);
    return res;
}

bool gc_member_pipeline_end(gc_member *m, gc_error *err)
{
    if (m->conn == NULL || m->state == GC_MEMBER_DOWN)
        return gc_member_check_alive(m, err);
    if (!PQexitPipelineMode(m->conn)) {
        /* Answers left uncollected: the session cannot be trusted. */
        return queue_failed(m, err);
    }
    m->in_flight = false;
    return true;
}
