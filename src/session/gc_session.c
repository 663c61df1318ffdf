/*
 * gc_session: the core's way to a member session, and the streaming owner
 * that makes every send on a session safe (gc_session.h).
 */
#include <assert.h>
#include <stddef.h>

#include "session/gc_session.h"

void gc_session_owner_init(gc_session_owner *o, gc_session_end_streaming_fn end_streaming)
{
    o->stmt = NULL;
    o->on = NULL;
    o->end_streaming = end_streaming;
}

void gc_session_own(gc_session_owner *o, gc_session *s, void *stmt)
{
    assert(o->stmt == NULL || o->stmt == stmt);   /* the send ended any other owner */
    o->stmt = stmt;
    o->on = s;
}

void gc_session_disown(gc_session_owner *o, const void *stmt)
{
    if (o->stmt == stmt) {
        o->stmt = NULL;
        o->on = NULL;
    }
}

void gc_session_end_streaming(gc_session_owner *o)
{
    if (o->stmt != NULL)
        o->end_streaming(o->stmt);
    assert(o->stmt == NULL);
}

/* Only the session the owner streams on matters: a send elsewhere
 * (another group's primary, a member being probed) leaves it alone. */
void gc_session_before_send(void *ctx, gc_member *m)
{
    gc_session_owner *o = ctx;
    if (o->stmt != NULL && o->on == m)
        gc_session_end_streaming(o);
}

gc_session *gc_session_open(const gc_member_params *params, gc_trace *trace,
                            gc_member_notice_fn notice_fn, void *notice_ctx,
                            gc_session_owner *owner, gc_error *err)
{
    gc_member *m = gc_member_create(params, trace);
    if (m == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return NULL;
    }
    gc_member_set_notice_handler(m, notice_fn, notice_ctx);
    gc_member_set_before_send(m, gc_session_before_send, owner);
    if (!gc_member_connect(m, err)) {
        gc_member_destroy(m);
        return NULL;
    }
    return m;
}

PGTransactionStatusType gc_session_txn_status(const gc_session *s)
{
    return gc_member_txn_status(s);
}

PGTransactionStatusType gc_session_idle_txn_status(gc_session_owner *o, gc_session *s)
{
    if (o->stmt != NULL && o->on == s)
        gc_session_end_streaming(o);
    return gc_member_txn_status(s);
}

/* --- the rest goes to the member layer as it is (gc_member.h) --- */

bool gc_session_cancel(gc_session *s, gc_error *err)
{
    return gc_member_cancel(s, err);
}

bool gc_session_check_alive(gc_session *s, gc_error *err)
{
    return gc_member_check_alive(s, err);
}

const char *gc_session_database(const gc_session *s)
{
    return gc_member_database(s);
}

void gc_session_destroy(gc_session *s)
{
    gc_member_destroy(s);
}

const gc_error *gc_session_down_error(const gc_session *s)
{
    return gc_member_down_error(s);
}

void gc_session_drain(gc_session *s)
{
    gc_member_drain(s);
}

PGresult *gc_session_exec(gc_session *s, const char *sql, gc_error *err)
{
    return gc_member_exec(s, sql, err);
}

unsigned long gc_session_generation(const gc_session *s)
{
    return gc_member_generation(s);
}

gc_member_role gc_session_get_role(gc_session *s)
{
    return gc_member_get_role(s);
}

gc_member_state gc_session_get_state(const gc_session *s)
{
    return gc_member_get_state(s);
}

const char *gc_session_host(const gc_session *s)
{
    return gc_member_host(s);
}

bool gc_session_is_open(const gc_session *s)
{
    return gc_member_is_open(s);
}

const char *gc_session_name(const gc_session *s)
{
    return gc_member_name(s);
}

PGresult *gc_session_next_result(gc_session *s)
{
    return gc_member_next_result(s);
}

const char *gc_session_parameter(const gc_session *s, const char *name)
{
    return gc_member_parameter(s, name);
}

bool gc_session_pipeline_begin(gc_session *s, gc_error *err)
{
    return gc_member_pipeline_begin(s, err);
}

bool gc_session_pipeline_end(gc_session *s, gc_error *err)
{
    return gc_member_pipeline_end(s, err);
}

bool gc_session_pipeline_flush(gc_session *s, gc_error *err)
{
    return gc_member_pipeline_flush(s, err);
}

PGresult *gc_session_pipeline_next(gc_session *s)
{
    return gc_member_pipeline_next(s);
}

bool gc_session_pipeline_prepare(gc_session *s, const char *stmt_name, const char *sql,
                                 int nparams, const Oid *param_types, gc_error *err)
{
    return gc_member_pipeline_prepare(s, stmt_name, sql, nparams, param_types, err);
}

bool gc_session_pipeline_query(gc_session *s, const char *sql, gc_error *err)
{
    return gc_member_pipeline_query(s, sql, err);
}

bool gc_session_pipeline_query_prepared(gc_session *s, const char *stmt_name, int nparams,
                                        const char *const *values, const int *lengths,
                                        const int *formats, gc_error *err)
{
    return gc_member_pipeline_query_prepared(s, stmt_name, nparams, values, lengths, formats, err);
}

bool gc_session_pipeline_sync(gc_session *s, gc_error *err)
{
    return gc_member_pipeline_sync(s, err);
}

void gc_session_result_error(const gc_session *s, const PGresult *res, gc_error *err)
{
    gc_member_result_error(s, res, err);
}

bool gc_session_run_statement_with_xid(gc_session *s, gc_member_xid_source source,
                                       const char *before, const char *stmt_name,
                                       const char *sql, int nparams,
                                       const Oid *param_types, const char *const *values,
                                       const int *lengths, const int *formats,
                                       gc_member_xid_run *run, gc_error *err)
{
    return gc_member_run_statement_with_xid(s, source, before, stmt_name, sql, nparams, param_types, values, lengths, formats, run, err);
}

bool gc_session_send_describe_prepared(gc_session *s, const char *stmt_name, gc_error *err)
{
    return gc_member_send_describe_prepared(s, stmt_name, err);
}

bool gc_session_send_prepare(gc_session *s, const char *stmt_name, const char *sql,
                             int nparams, const Oid *param_types, gc_error *err)
{
    return gc_member_send_prepare(s, stmt_name, sql, nparams, param_types, err);
}

bool gc_session_send_query(gc_session *s, const char *sql, gc_error *err)
{
    return gc_member_send_query(s, sql, err);
}

bool gc_session_send_query_params(gc_session *s, const char *sql, int nparams,
                                  const Oid *param_types, const char *const *values,
                                  const int *lengths, const int *formats, gc_error *err)
{
    return gc_member_send_query_params(s, sql, nparams, param_types, values, lengths, formats, err);
}

bool gc_session_send_query_prepared(gc_session *s, const char *stmt_name, int nparams,
                                    const char *const *values, const int *lengths,
                                    const int *formats, gc_error *err)
{
    return gc_member_send_query_prepared(s, stmt_name, nparams, values, lengths, formats, err);
}

bool gc_session_stream_rows(gc_session *s)
{
    return gc_member_stream_rows(s);
}

bool gc_session_send_wrapped(gc_session *s, const char *before, const char *after,
                             const char *stmt_name, const char *sql, int nparams,
                             const Oid *param_types, const char *const *values,
                             const int *lengths, const int *formats, gc_error *err)
{
    return gc_member_send_wrapped(s, before, after, stmt_name, sql, nparams, param_types, values, lengths, formats, err);
}

bool gc_session_send_query_after(gc_session *s, const char *first, const char *sql,
                                 gc_error *err)
{
    return gc_member_send_query_after(s, first, sql, err);
}

int gc_session_server_version(const gc_session *s)
{
    return gc_member_server_version(s);
}

bool gc_session_standard_strings(const gc_session *s)
{
    return gc_member_standard_strings(s);
}

const char *gc_session_user(const gc_session *s)
{
    return gc_member_user(s);
}

void gc_session_xid_run_clear(gc_member_xid_run *run)
{
    gc_member_xid_run_clear(run);
}
