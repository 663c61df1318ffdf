/*
 * gc_member: one session to one PostgreSQL server (a "member"), over libpq.
 *
 * The member layer owns the PGconn; nothing above it calls libpq connection
 * functions. Results travel upwards as PGresult objects (libpq's opaque result
 * type), which the caller frees with PQclear. Sending is separate from
 * collecting (as in libpq), which makes SQLCancel, several results and the
 * later pipelining of the global connection natural.
 *
 * A session is not thread-safe by itself: the owner (an ODBC connection, or
 * later the global router) serializes calls.
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
} gc_member_params;

typedef struct gc_member gc_member;

/* Called for each server notice (NOTICE, WARNING, ...) while a statement runs. */
typedef void (*gc_member_notice_fn)(void *ctx, const char *sqlstate,
                                    const char *message);

/* Allocates a closed session. Returns NULL on out-of-memory. */
gc_member *gc_member_create(const gc_member_params *params, gc_trace *trace);
void gc_member_destroy(gc_member *m);

/* Blocking connect (the non-blocking, parallel variant comes with the global
 * connection). On failure fills err with 08001 (or 28P01/28000 from the
 * server) and the server's message. */
bool gc_member_connect(gc_member *m, gc_error *err);

/* Connects every member of `members` at once with non-blocking libpq
 * connects (PQconnectStartParams / PQconnectPoll over poll()), so n members
 * take about as long as the slowest one. Members already open are left as
 * they are. Waits at most timeout_ms in all. errs[i] gets member i's error
 * (cleared on success). Each member's state becomes UP or DOWN. Returns the
 * number of members open afterwards. */
int gc_member_connect_all(gc_member *const *members, int n, int timeout_ms,
                          gc_error *errs);
void gc_member_close(gc_member *m);
bool gc_member_is_open(const gc_member *m);

const char *gc_member_name(const gc_member *m);
gc_member_state gc_member_get_state(const gc_member *m);
gc_member_role gc_member_get_role(const gc_member *m);
/* PQtransactionStatus of the session: the server's view, never a guess. */
PGTransactionStatusType gc_member_txn_status(const gc_member *m);
int gc_member_server_version(const gc_member *m);
/* A new number on every successful connect, unique across all sessions of
 * the process and always increasing (0 before the first): lets an owner tell
 * a reconnected session (whose server-side prepared statements are gone)
 * from the one it knew, and one member's session from another's. */
unsigned long gc_member_generation(const gc_member *m);
/* What the session is connected to (libpq's view once open; the requested
 * values before). Owned by the member. */
const char *gc_member_database(const gc_member *m);
const char *gc_member_user(const gc_member *m);
const char *gc_member_host(const gc_member *m);
const char *gc_member_parameter(const gc_member *m, const char *name);

void gc_member_set_notice_handler(gc_member *m, gc_member_notice_fn fn, void *ctx);

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

/* Runs one statement and returns its last result (caller PQclears), or NULL
 * with err filled. For internal statements (SET, BEGIN, SHOW...). */
PGresult *gc_member_exec(gc_member *m, const char *sql, gc_error *err);

/* Asks the server to cancel what is running (callable from another thread). */
bool gc_member_cancel(gc_member *m, gc_error *err);

/* Fills err from a failed result: the server's SQLSTATE and primary message. */
void gc_member_error_from_result(const PGresult *res, gc_error *err);
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

/* --- autocommit writes with a known transaction id --- */
typedef enum gc_member_xid_outcome {
    GC_XID_COMMITTED,        /* COMMIT answered */
    GC_XID_NOT_COMMITTED,    /* certainly not committed (nothing sent, or an
                                error before COMMIT ran, or COMMIT failed) */
    GC_XID_UNKNOWN,          /* COMMIT was sent and its answer lost: resolve
                                `xid` with gc_xact_status (global layer) */
} gc_member_xid_outcome;

typedef struct gc_member_xid_run {
    gc_member_xid_outcome outcome;
    char xid[24];              /* decimal xid8, "" when the server never said */
    unsigned long generation;  /* the session it ran on */
    PGresult *result;          /* the statement's own result when it succeeded
                                  (caller PQclears), else NULL */
} gc_member_xid_run;

/* Runs one statement in its own transaction as a single pipelined exchange
 * (libpq pipeline mode): BEGIN; SELECT pg_current_xact_id(); a flush
 * request (so the xid arrives while the statement still runs); the
 * statement; COMMIT; sync. One round trip, and the transaction id is known
 * before the COMMIT's answer, so a lost answer can be resolved. The session
 * must be idle (not in a transaction). Returns true when committed; false
 * with err filled otherwise (the server's error, or 08S01), run->outcome
 * saying whether it may have committed. Parameters as for
 * gc_member_send_query_params. */
bool gc_member_run_with_xid(gc_member *m, const char *sql, int nparams,
                            const Oid *param_types, const char *const *values,
                            const int *lengths, const int *formats,
                            gc_member_xid_run *run, gc_error *err);

#endif
