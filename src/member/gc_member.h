/*
 * gc_member: one session to one PostgreSQL server (a "member"), over libpq.
 *
 * The member layer owns the PGconn; nothing above it calls libpq connection
 * functions. Results travel upwards as PGresult objects (libpq's opaque result
 * type), which the caller frees with PQclear. Sending is separate from
 * collecting (as in libpq), which makes SQLCancel, several results and
 * pipelining (gc_member_pipeline.c) natural.
 *
 * A session is not thread-safe by itself: its owner (the ODBC connection,
 * whose lock every call holds, or the session pool that lends it) serializes
 * calls.
 */
#ifndef GC_MEMBER_H
#define GC_MEMBER_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/gc_error.h"
#include "util/gc_trace.h"

typedef enum gc_member_state {
    GC_MEMBER_UNKNOWN = 0,   /* never tried */
    GC_MEMBER_UP,
    GC_MEMBER_DOWN,
} gc_member_state;

typedef enum gc_member_role {
    GC_ROLE_UNKNOWN = 0,
    GC_ROLE_PRIMARY,         /* in_hot_standby = off */
    GC_ROLE_STANDBY,         /* in_hot_standby = on */
} gc_member_role;

/* Where and how to connect. Strings are copied by gc_member_create. */
typedef struct gc_member_params {
    const char *name;            /* e.g. "G1N1"; NULL for a general connection */
    const char *group;           /* e.g. "G1"; NULL for a general connection */
    const char *host;
    const char *port;
    const char *dbname;
    const char *user;
    const char *password;
    const char *sslmode, *sslrootcert, *sslcert, *sslkey;
    const char *application_name;
    int connect_timeout_s;       /* 0 = libpq default */
    /* MemberTimeout: how long a server may stay silent while results are
     * awaited before it is asked (by a second connection) whether it is
     * alive, and found down if that gets no answer either; also sets TCP
     * keepalives and tcp_user_timeout. 0 = no limit. See docs/failover.md. */
    int member_timeout_s;
    const char *extra_conninfo;  /* appended verbatim (e.g. keepalive options) */
    /* A member session of a global connection: it runs with
     * gcodbc.global_connection=on, which the cluster's trigger on foreign
     * tables reads to refuse an autocommit write through postgres_fdw that
     * cannot commit atomically (global/gc_remote_write.h). */
    bool global_connection;
} gc_member_params;

typedef struct gc_member gc_member;

/* Called for each server notice while a statement runs: its SQLSTATE, its
 * severity as the server words it (NOTICE, WARNING, INFO...) and its
 * primary message. */
typedef void (*gc_member_notice_fn)(void *ctx, const char *sqlstate, const char *severity,
                                    const char *message);

/* Called at the start of every send on a session (the choke point for
 * sending): the session's owner ends the result still streaming there, by
 * reading the rest into the statement it belongs to. What is still in flight
 * after it returns is drained (discarded) before the send. */
typedef void (*gc_member_before_send_fn)(void *ctx, gc_member *m);

/* Allocates a closed session. Returns NULL on out-of-memory. */
gc_member *gc_member_create(const gc_member_params *params, gc_trace *trace);
void gc_member_destroy(gc_member *m);
/* A closed session with m's parameters (no trace, no notice handler), to
 * hold one of m's sessions for someone else. NULL on out-of-memory. */
gc_member *gc_member_create_like(const gc_member *m);

/* Blocking connect of one member (several in parallel: gc_member_connect_all;
 * without waiting: gc_member_connect_begin). On failure fills err with 08001
 * and libpq's message, the server's SQLSTATE after its FATAL when it
 * refused the login; GC_NATIVE_CONNECT_FAILED when libpq refused. */
bool gc_member_connect(gc_member *m, gc_error *err);
/* Whether a failed connect's err is the server turning the login down (bad
 * password, unknown role or database: its SQLSTATE class 28 or 3D000, named
 * in the message) rather than not answering. */
bool gc_member_login_refused(const gc_error *err);

/* Connects every member of `members` at once with non-blocking libpq
 * connects (PQconnectStartParams / PQconnectPoll over poll()), so n members
 * take about as long as the slowest one. Members already open are left as
 * they are. Waits at most timeout_ms in all. errs[i] gets member i's error
 * (cleared on success). Each member's state becomes UP or DOWN. Returns the
 * number of members open afterwards. */
int gc_member_connect_all(gc_member *const *members, int n, int timeout_ms,
                          gc_error *errs);

/* A connect that never makes its caller wait: started when a down member's
 * retry is due, then advanced at later convenient moments (between
 * transactions) until the server answers, libpq gives up, or the member's
 * connect_timeout (10 s when unset) has passed since the start. A server
 * that accepts TCP and never answers then costs nothing but a socket. */
typedef struct gc_member_connecting gc_member_connecting;
typedef enum gc_connect_progress {
    GC_CONNECT_PENDING,      /* the server has not finished the handshake yet */
    GC_CONNECT_DONE,         /* the member is open (UP, a new generation) */
    GC_CONNECT_FAILED,       /* refused, failed or timed out: the member is DOWN */
} gc_connect_progress;
/* Starts a non-blocking connect of m, which must not be open. Returns the
 * attempt (owned by the caller, ended with gc_member_connect_end; m must
 * outlive every advance, not the end), or NULL
 * with err filled when it failed at once (the member is then DOWN). */
gc_member_connecting *gc_member_connect_begin(gc_member *m, gc_error *err);
/* Takes the steps of the handshake whose sockets are ready, waiting for
 * them at most wait_ms in all (0: never waits; the attempt's deadline is
 * never passed either). On GC_CONNECT_FAILED err says why (08001, as
 * gc_member_connect); on GC_CONNECT_DONE it is cleared. A member opened
 * meanwhile by another connect is DONE at once (this attempt's connection
 * is dropped). After DONE or FAILED the attempt only awaits its end. */
gc_connect_progress gc_member_connect_advance(gc_member_connecting *c, int wait_ms,
                                              gc_error *err);
/* Ends an attempt, closing its connection if it is still in flight.
 * Touches only the attempt, never the member (which may be gone). NULL is
 * allowed. */
void gc_member_connect_end(gc_member_connecting *c);
void gc_member_close(gc_member *m);
/* Moves from's open, idle session to `to`, a closed member object for the
 * same server, database and user: `to` becomes UP on it, keeping the
 * session's generation (the server session is the same), and `from` is
 * left closed. The seed session that read the topology thus serves as its
 * member's session instead of being closed and opened again, and the
 * global session (gc_session_pool.h) lends sessions this way. False,
 * changing nothing, when the two do not match. */
bool gc_member_take_session(gc_member *to, gc_member *from);
bool gc_member_is_open(const gc_member *m);

const char *gc_member_name(const gc_member *m);
gc_member_state gc_member_get_state(const gc_member *m);

/* Marks the member down when libpq has found its session broken outside a
 * statement (a read of notifications); true when that happened now. */
bool gc_member_found_broken(gc_member *m);
/* The session's role as the server reports it (in_hot_standby): read live
 * while it is a standby, whose promotion shows only there; remembered once
 * the session is a primary, which it stays until it ends. */
gc_member_role gc_member_get_role(gc_member *m);
/* PQtransactionStatus of the session: the server's view, never a guess. */
PGTransactionStatusType gc_member_txn_status(const gc_member *m);
int gc_member_server_version(const gc_member *m);
/* A new number on every successful connect, unique across all sessions of
 * the process and always increasing (0 before the first): lets an owner tell
 * a reconnected session (whose server-side prepared statements are gone)
 * from the one it knew, and one member's session from another's. */
unsigned long gc_member_generation(const gc_member *m);
/* How long the member's last successful connect took, in milliseconds (0
 * before the first): what a handshake with this server costs from here. */
int gc_member_handshake_ms(const gc_member *m);
/* What the session is connected to (libpq's view once open; the requested
 * values before). Owned by the member. */
const char *gc_member_database(const gc_member *m);
const char *gc_member_user(const gc_member *m);
const char *gc_member_host(const gc_member *m);
const char *gc_member_port(const gc_member *m);
const char *gc_member_parameter(const gc_member *m, const char *name);
/* The session's standard_conforming_strings as the server reports it: true
 * unless it says off (and true for a closed session). */
bool gc_member_standard_strings(const gc_member *m);

void gc_member_set_notice_handler(gc_member *m, gc_member_notice_fn fn, void *ctx);
/* Installs the session owner's gc_member_before_send_fn (none by default,
 * and none on a session made by gc_member_create_like). */
void gc_member_set_before_send(gc_member *m, gc_member_before_send_fn fn, void *ctx);

/* --- sending (each returns false and fills err when nothing could be sent) --- */
bool gc_member_send_query(gc_member *m, const char *sql, gc_error *err);
bool gc_member_send_prepare(gc_member *m, const char *stmt_name, const char *sql,
                            int nparams, const Oid *param_types, gc_error *err);
bool gc_member_send_describe_prepared(gc_member *m, const char *stmt_name,
                                      gc_error *err);
/* values: text-format parameters (NULL = SQL NULL), or binary where formats[i]=1. */
bool gc_member_send_query_prepared(gc_member *m, const char *stmt_name, int nparams,
                                   const char *const *values, const int *lengths,
                                   const int *formats, gc_error *err);
bool gc_member_send_query_params(gc_member *m, const char *sql, int nparams,
                                 const Oid *param_types, const char *const *values,
                                 const int *lengths, const int *formats,
                                 gc_error *err);
/* Sends `before`, the statement and `after` in one pipeline (libpq
 * pipeline mode, one round trip), as for gc_member_send_query_prepared
 * (stmt_name set) or gc_member_send_query_params. The results are the
 * statement's alone: those of `before` and `after` are read and dropped,
 * except that an error of `before` (which makes the server skip the
 * statement) is delivered as the statement's error. `before` and `after`
 * are single commands without parameters (SAVEPOINT, RELEASE); `after` may
 * be NULL (none). A session
 * that fails half-way through sending is marked down. */
bool gc_member_send_wrapped(gc_member *m, const char *before, const char *after,
                            const char *stmt_name, const char *sql, int nparams,
                            const Oid *param_types, const char *const *values,
                            const int *lengths, const int *formats, gc_error *err);
/* Sends `first` (one command without parameters, no result rows) and the
 * text sql, which may hold several statements, as one simple query: one
 * round trip, one implicit transaction. The results are sql's alone: that
 * of `first` is dropped, unless it is an error, which is delivered (the
 * server then skips sql). */
bool gc_member_send_query_after(gc_member *m, const char *first, const char *sql,
                                gc_error *err);
/* After a send: deliver rows one PGRES_SINGLE_TUPLE result at a time, so a
 * large result never has to fit in memory. */
bool gc_member_stream_rows(gc_member *m);

/* --- collecting --- */
/* Next result of the statement in flight, or NULL when all are collected.
 * The caller PQclear()s it. A broken session yields a PGRES_FATAL_ERROR result
 * and marks the member down. */
PGresult *gc_member_next_result(gc_member *m);
/* Collects and discards what is left of the statement in flight. */
void gc_member_drain(gc_member *m);

/* --- pipelines (gc_member_pipeline.c): a batch sent in one round trip --- */
/* Enters libpq's pipeline mode on m (whatever was in flight is drained).
 * Then: queue commands and sync points, read every answer with
 * gc_member_pipeline_next in the order queued, and end. Each sync point
 * ends an implicit transaction when no transaction block is open. The
 * queueing calls fail only when the session broke (the member is then
 * down, err says why). */
bool gc_member_pipeline_begin(gc_member *m, gc_error *err);
bool gc_member_pipeline_prepare(gc_member *m, const char *stmt_name, const char *sql,
                                int nparams, const Oid *param_types, gc_error *err);
bool gc_member_pipeline_query_prepared(gc_member *m, const char *stmt_name, int nparams,
                                       const char *const *values, const int *lengths,
                                       const int *formats, gc_error *err);
/* Queues sql (no parameters, one statement: a BEGIN) as a command. */
bool gc_member_pipeline_query(gc_member *m, const char *sql, gc_error *err);
bool gc_member_pipeline_sync(gc_member *m, gc_error *err);
/* Asks the server to send the answers of everything queued so far without
 * a sync point (the transaction stays as it is), and sends the queue. */
bool gc_member_pipeline_flush(gc_member *m, gc_error *err);
/* The next answer (caller PQclears): a command's results, each command's
 * ended by NULL; PGRES_PIPELINE_ABORTED for a command skipped after an
 * error; one PGRES_PIPELINE_SYNC result per sync point. A lost session
 * answers PGRES_FATAL_ERROR without SQLSTATE (and the member is down). */
PGresult *gc_member_pipeline_next(gc_member *m);
/* Leaves pipeline mode once every answer was read; false (member down)
 * when the session broke or answers were left. */
bool gc_member_pipeline_end(gc_member *m, gc_error *err);

/* Runs one statement and returns its last result (caller PQclears), or NULL
 * with err filled. For internal statements (SET, BEGIN, SHOW...). */
PGresult *gc_member_exec(gc_member *m, const char *sql, gc_error *err);
/* Runs statements (simple-query text, one round trip) and keeps, in order,
 * the results that return rows in out[0..n): true when every statement
 * succeeded and exactly n returned rows (the caller PQclears them). On
 * failure err says why and out holds nothing. */
bool gc_member_exec_rows(gc_member *m, const char *sql, PGresult **out, int n, gc_error *err);

/* Asks the server to cancel what is running (callable from another thread). */
bool gc_member_cancel(gc_member *m, gc_error *err);

/* Fills err from a failed result: the server's SQLSTATE, and its message as
 * psqlODBC words an error of a connection's call ("<severity>: <primary>",
 * "\nDETAIL: <detail>" when sent; docs/sqlstates.md), native error
 * GC_NATIVE_SERVER_ERROR; a FATAL one says the connection has been lost,
 * native GC_NATIVE_CONNECTION_LOST, as gc_diag_add_server_error words it; a
 * result without SQLSTATE gives libpq's message. */
void gc_member_error_from_result(const PGresult *res, gc_error *err);
/* Whether a failed result ended the server session (FATAL or PANIC). */
bool gc_member_result_is_fatal(const PGresult *res);
/* The same, knowing the member: a result the driver made itself (no
 * SQLSTATE) after the member went down gets the member's down error, e.g.
 * 08S01 "member G1N1 did not answer within 5 s". */
void gc_member_result_error(const gc_member *m, const PGresult *res, gc_error *err);

/* --- health (docs/failover.md) --- */
/* Non-blocking and without a round trip: reads what the server sent on the
 * session (a FATAL, an EOF, a reset) and says whether the member is still
 * usable. False, with err (08S01/08003) filled, when it is not. For the
 * router between statements. */
bool gc_member_check_alive(gc_member *m, gc_error *err);
/* A bounded round trip (an empty query): true when the server answered
 * within timeout_ms; otherwise the member is marked down. For a session
 * idle long (gc_member_idle_ms) before it is trusted with a statement. */
bool gc_member_ping(gc_member *m, int timeout_ms, gc_error *err);
/* Milliseconds since the last exchange with the server (0 when closed). */
long long gc_member_idle_ms(const gc_member *m);
/* Marks the member down because of a failure seen on session `generation`
 * (read gc_member_generation when sending). A failure of an older session
 * (the member was reconnected since) is ignored: returns false and the
 * member stays as it is. Otherwise closes the session, remembers why
 * (NULL: a generic 08S01) and returns true. */
bool gc_member_mark_down(gc_member *m, unsigned long generation, const gc_error *why);
/* Why the member last went down (cleared on connect), or NULL. Owned by m. */
const gc_error *gc_member_down_error(const gc_member *m);
/* How many liveness probes found the server alive while a statement ran
 * (for tests and tracing). */
unsigned long gc_member_probes_answered(const gc_member *m);
/* The generation the statement in flight (or the last one) was sent on. */
unsigned long gc_member_sent_generation(const gc_member *m);

/* --- writes with a known transaction id (gc_member_xid.c) --- */
typedef enum gc_member_xid_outcome {
    GC_XID_COMMITTED,        /* the commit was answered */
    GC_XID_NOT_COMMITTED,    /* certainly not committed: nothing sent, an error
                                before or at the commit, or the server ended the
                                session before it answered the id query */
    GC_XID_UNKNOWN,          /* the commit may have run and its answer was lost:
                                resolve `xid` (global layer, gc_commit_resolve);
                                xid_answered with xid "": the transaction wrote
                                nothing on this server (whether it wrote on
                                others, through postgres_fdw, is the caller's
                                to know) */
} gc_member_xid_outcome;

typedef struct gc_member_xid_run {
    gc_member_xid_outcome outcome;
    bool xid_answered;         /* the id query was answered */
    char xid[24];              /* decimal xid8; "" when not answered, or (COMMIT)
                                  when the transaction never got one: it wrote nothing */
    char started[64];          /* pg_postmaster_start_time() of the server that
                                  answered: its incarnation; "" when not answered */
    bool rolled_back;          /* COMMIT was answered ROLLBACK (an aborted
                                  transaction): not committed, no server error */
    unsigned long generation;  /* the session it ran on */
    PGresult *result;          /* the statement's own result when it arrived and
                                  the write committed or may have (caller
                                  PQclears), else NULL */
    PGresult *error;           /* the first server error (run_statement and
                                  commit variants; caller PQclears), or NULL */
} gc_member_xid_run;

/* Frees run's results (result and error). */
void gc_member_xid_run_clear(gc_member_xid_run *run);

/* Where an autocommit statement's transaction id comes from. */
typedef enum gc_member_xid_source {
    GC_XID_QUERY_TEXT,       /* the id query after it, parsed each time */
    GC_XID_QUERY_PREPARED,   /* the id query after it, prepared on the session
                                (gc_member_prepare_xid_statement) */
    GC_XID_RETURNED,         /* the statement itself ends with `RETURNING
                                pg_current_xact_id_if_assigned()::text,
                                pg_postmaster_start_time()::text` (GC_XID_RETURNING),
                                appended by the caller where it is safe: no id
                                query is sent; run->result then holds the two
                                columns, and xid_answered is set only by a row
                                whose id is not NULL (no row proves nothing) */
} gc_member_xid_source;

/* The clause a caller appends to an INSERT, UPDATE or DELETE for GC_XID_RETURNED. */
#define GC_XID_RETURNING \
    " RETURNING pg_current_xact_id_if_assigned()::text, pg_postmaster_start_time()::text"

/* Runs one autocommit statement in one pipelined exchange (libpq pipeline
 * mode): the statement, then `SELECT pg_current_xact_id_if_assigned(),
 * pg_postmaster_start_time()`, a flush request, sync (or, for
 * GC_XID_RETURNED, the statement, a flush request, sync), after `before`
 * when it is not NULL (a command without parameters, whose answer is
 * dropped: the statement mark). Everything up to the
 * sync is one implicit transaction, committed there: one round trip, no
 * BEGIN or COMMIT, and the id (with the server's incarnation) arrives
 * before the commit. A session lost while the statement itself runs is
 * resolved only by a FATAL the server sent first (not committed), else
 * unknown; an id answered "none" means the statement wrote nothing on this
 * server (the outcome stays unknown: it may have written on another
 * through postgres_fdw, which the caller may know it did not). The session
 * must be idle, and checked by the caller just before (gc_member_check_alive:
 * this function does not look again). Sends the statement prepared on
 * this session as stmt_name (its parameter types are the server's), or sql
 * when stmt_name is NULL; parameters as for gc_member_send_query_params.
 * Returns true when committed; false with err filled otherwise (the
 * server's error, or 08S01), run->outcome saying whether it may have
 * committed. The first server error is also handed over as run->error
 * (with its DETAIL and HINT); the caller calls gc_member_xid_run_clear. */
bool gc_member_run_statement_with_xid(gc_member *m, gc_member_xid_source source,
                                      const char *before, const char *stmt_name, const char *sql,
                                      int nparams, const Oid *param_types,
                                      const char *const *values, const int *lengths,
                                      const int *formats, gc_member_xid_run *run, gc_error *err);
/* Commits the session's open transaction in one pipelined exchange:
 * `SELECT pg_current_xact_id_if_assigned(), pg_postmaster_start_time()`, a
 * flush request, COMMIT, sync. Same contract as
 * gc_member_run_statement_with_xid;
 * run->rolled_back when the server answered ROLLBACK (the transaction had
 * failed). The session must be in a transaction (not a failed one). */
bool gc_member_commit_with_xid(gc_member *m, bool xid_prepared, gc_member_xid_run *run,
                               gc_error *err);
/* Prepares the id query of the two functions above on m's session (one
 * round trip, once per session: then gc_member_has_xid_statement, and the
 * owner passes xid_prepared = true, which saves parsing and planning it on
 * every write). False with err when the session failed. */
bool gc_member_prepare_xid_statement(gc_member *m, gc_error *err);
/* Whether m's session holds the id query already: the session remembers
 * it, so a session shared between connections (the global session) is
 * never asked to prepare it twice, which would fail, and in a transaction
 * abort it. */
bool gc_member_has_xid_statement(const gc_member *m);

/* A second, short-lived session to the same server as m (same
 * credentials, application name "gcodbc commit resolution"), for asking
 * pg_xact_status without touching m's state. NULL with err when it does
 * not answer within the connect timeout. Caller destroys it. */
gc_member *gc_member_open_asker(const gc_member *m, gc_error *err);

#endif
