/*
 * gc_session: the core's one way to a member session (a gc_member, the
 * driver's libpq session to one member; src/member). The core sends,
 * reads results, pipelines, cancels and reads the transaction status
 * through this layer only; a general connection's one session and the
 * member routing chose on a global connection are the same kind of handle.
 *
 * It owns the one rule of sending: while a statement streams its result
 * (libpq's single-row mode) it owns the session, and before anything else
 * is sent there, or the session's settled state is read, that statement is
 * asked to end its streaming (read its rest into memory) by the callback
 * the core registered (gc_session_owner). Nobody frees a session by hand
 * before a send.
 *
 * Thread safety: as a gc_member, serialized by the connection's lock.
 */
#ifndef GC_SESSION_H
#define GC_SESSION_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "member/gc_member.h"
#include "util/gc_error.h"
#include "util/gc_trace.h"

/* A member session as the core sees it: the member layer's object, used by
 * the core only through this header. */
typedef struct gc_member gc_session;

/* Ends the streaming of `stmt` (the owner): it reads the rest of its
 * results into memory and then calls gc_session_disown. */
typedef void (*gc_session_end_streaming_fn)(void *stmt);

/* Who streams on a connection's current session. One per connection (the
 * core's gc_conn holds it); only one statement streams at a time. */
typedef struct gc_session_owner {
    void *stmt;                          /* the streaming statement, or NULL */
    gc_session *on;                      /* the session it streams on */
    gc_session_end_streaming_fn end_streaming;   /* the core's callback */
} gc_session_owner;

/* --- the streaming owner (gc_session.c) --- */
/* An owner record with nobody streaming; end_streaming is the core's. */
void gc_session_owner_init(gc_session_owner *o, gc_session_end_streaming_fn end_streaming);
/* Right after its send on s: stmt owns s (the send ended any other owner). */
void gc_session_own(gc_session_owner *o, gc_session *s, void *stmt);
/* stmt read everything (or dropped it): nobody streams any more. */
void gc_session_disown(gc_session_owner *o, const void *stmt);
/* Whether stmt is the statement streaming now. */
static inline bool gc_session_owned_by(const gc_session_owner *o, const void *stmt)
{
    return o->stmt != NULL && o->stmt == stmt;
}
/* Makes the streaming statement (if any) read its rest into memory, so its
 * session is idle: for the moments other than a send that need it (another
 * session becomes current, several sessions are used, the connection
 * closes, a whole result is wanted in memory). */
void gc_session_end_streaming(gc_session_owner *o);
/* The choke point for sending, as a gc_member_before_send_fn (ctx: the
 * gc_session_owner): a send on the session a statement streams on first
 * ends that streaming. Installed on every session of a connection. */
void gc_session_before_send(void *ctx, gc_member *m);

/* --- opening, closing and what a session is --- */
/* Creates and connects the one session of a general connection, with the
 * connection's notice handler and owner record installed. NULL with err
 * filled when it cannot connect (or HY001 out of memory). Caller destroys. */
gc_session *gc_session_open(const gc_member_params *params, gc_trace *trace,
                            gc_member_notice_fn notice_fn, void *notice_ctx,
                            gc_session_owner *owner, gc_error *err);
void gc_session_destroy(gc_session *s);
bool gc_session_is_open(const gc_session *s);
const char* gc_session_name(const gc_session *s);
gc_member_state gc_session_get_state(const gc_session *s);
gc_member_role gc_session_get_role(gc_session *s);
unsigned long gc_session_generation(const gc_session *s);
int gc_session_server_version(const gc_session *s);
const char* gc_session_database(const gc_session *s);
const char* gc_session_user(const gc_session *s);
const char* gc_session_host(const gc_session *s);
const char* gc_session_parameter(const gc_session *s, const char *name);
bool gc_session_standard_strings(const gc_session *s);
const gc_error* gc_session_down_error(const gc_session *s);
bool gc_session_check_alive(gc_session *s, gc_error *err);

/* --- the transaction status --- */
/* As it stands now: PQTRANS_ACTIVE while a statement streams there. */
PGTransactionStatusType gc_session_txn_status(const gc_session *s);
/* Once s is idle: the statement streaming on s (o's) first reads its rest
 * into memory, so the answer is the server's settled view. */
PGTransactionStatusType gc_session_idle_txn_status(gc_session_owner *o, gc_session *s);

/* --- sending and collecting (the contracts are gc_member.h's; every send
 * passes gc_session_before_send first) --- */
bool gc_session_send_query(gc_session *s, const char *sql, gc_error *err);
bool gc_session_send_prepare(gc_session *s, const char *stmt_name, const char *sql,
                             int nparams, const Oid *param_types, gc_error *err);
bool gc_session_send_describe_prepared(gc_session *s, const char *stmt_name, gc_error *err);
bool gc_session_send_query_prepared(gc_session *s, const char *stmt_name, int nparams,
                                    const char *const *values, const int *lengths,
                                    const int *formats, gc_error *err);
bool gc_session_send_query_params(gc_session *s, const char *sql, int nparams,
                                  const Oid *param_types, const char *const *values,
                                  const int *lengths, const int *formats, gc_error *err);
/* After a send: rows arrive one PGRES_SINGLE_TUPLE result at a time. */
bool gc_session_stream_rows(gc_session *s);
bool gc_session_send_wrapped(gc_session *s, const char *before, const char *after,
                             const char *stmt_name, const char *sql, int nparams,
                             const Oid *param_types, const char *const *values,
                             const int *lengths, const int *formats, gc_error *err);
bool gc_session_send_query_after(gc_session *s, const char *first, const char *sql,
                                 gc_error *err);
PGresult* gc_session_next_result(gc_session *s);
void gc_session_drain(gc_session *s);
PGresult* gc_session_exec(gc_session *s, const char *sql, gc_error *err);
void gc_session_result_error(const gc_session *s, const PGresult *res, gc_error *err);
bool gc_session_cancel(gc_session *s, gc_error *err);

/* --- pipelines (one round trip for a batch; gc_member.h) --- */
bool gc_session_pipeline_begin(gc_session *s, gc_error *err);
bool gc_session_pipeline_prepare(gc_session *s, const char *stmt_name, const char *sql,
                                 int nparams, const Oid *param_types, gc_error *err);
bool gc_session_pipeline_query_prepared(gc_session *s, const char *stmt_name, int nparams,
                                        const char *const *values, const int *lengths,
                                        const int *formats, gc_error *err);
bool gc_session_pipeline_query(gc_session *s, const char *sql, gc_error *err);
bool gc_session_pipeline_sync(gc_session *s, gc_error *err);
bool gc_session_pipeline_flush(gc_session *s, gc_error *err);
PGresult* gc_session_pipeline_next(gc_session *s);
bool gc_session_pipeline_end(gc_session *s, gc_error *err);

/* --- a write sent with its transaction id (gc_member.h) --- */
bool gc_session_run_statement_with_xid(gc_session *s, gc_member_xid_source source,
                                       const char *before, const char *stmt_name,
                                       const char *sql, int nparams,
                                       const Oid *param_types, const char *const *values,
                                       const int *lengths, const int *formats,
                                       gc_member_xid_run *run, gc_error *err);
void gc_session_xid_run_clear(gc_member_xid_run *run);

#endif
