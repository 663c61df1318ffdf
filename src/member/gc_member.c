/*
 * gc_member: one session to one PostgreSQL server over libpq.
 *
 * The session keeps what the global connection routes and fails over by
 * (state, role, a generation counter bumped on every successful connect);
 * a general connection has one member and uses the same session type.
 */
#include "member/gc_member.h"
#include "member/gc_member_internal.h"
#include "util/gc_clock.h"

#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>



static char *dup_or_null(const char *s)
{
    return s != NULL ? strdup(s) : NULL;
}

/* Allocates a closed session holding copies of params. Owned by the caller,
 * freed with gc_member_destroy(). NULL on out-of-memory. */
gc_member *gc_member_create(const gc_member_params *params, gc_trace *trace)
{
    assert(params != NULL);
    gc_member *m = calloc(1, sizeof *m);
    if (m == NULL)
        return NULL;
    m->name = dup_or_null(params->name);
    m->group = dup_or_null(params->group);
    m->host = dup_or_null(params->host);
    m->port = dup_or_null(params->port);
    m->dbname = dup_or_null(params->dbname);
    m->user = dup_or_null(params->user);
    m->password = dup_or_null(params->password);
    m->sslmode = dup_or_null(params->sslmode);
    m->sslrootcert = dup_or_null(params->sslrootcert);
    m->sslcert = dup_or_null(params->sslcert);
    m->sslkey = dup_or_null(params->sslkey);
    m->application_name = dup_or_null(params->application_name);
    m->extra_conninfo = dup_or_null(params->extra_conninfo);
    m->connect_timeout_s = params->connect_timeout_s;
    m->global_connection = params->global_connection;
    m->member_timeout_s = params->member_timeout_s > 0 ? params->member_timeout_s : 0;
    m->trace = trace;
    m->state = GC_MEMBER_UNKNOWN;
    pthread_mutex_init(&m->cancel_lock, NULL);
    /* A copy that failed for a non-NULL source means out-of-memory. */
    if ((params->name && !m->name) || (params->group && !m->group) ||
        (params->host && !m->host) || (params->port && !m->port) ||
        (params->dbname && !m->dbname) || (params->user && !m->user) ||
        (params->password && !m->password) || (params->sslmode && !m->sslmode) ||
        (params->sslrootcert && !m->sslrootcert) || (params->sslcert && !m->sslcert) ||
        (params->sslkey && !m->sslkey) ||
        (params->application_name && !m->application_name) ||
        (params->extra_conninfo && !m->extra_conninfo)) {
        gc_member_destroy(m);
        return NULL;
    }
    return m;
}

gc_member *gc_member_create_like(const gc_member *m)
{
    gc_member_params p = {
        .name = m->name, .group = m->group, .host = m->host, .port = m->port,
        .dbname = m->dbname, .user = m->user, .password = m->password,
        .sslmode = m->sslmode, .sslrootcert = m->sslrootcert, .sslcert = m->sslcert,
        .sslkey = m->sslkey, .application_name = m->application_name,
        .connect_timeout_s = m->connect_timeout_s, .member_timeout_s = m->member_timeout_s,
        .extra_conninfo = m->extra_conninfo, .global_connection = m->global_connection,
    };
    return gc_member_create(&p, NULL);
}

static void free_secret(char *s)
{
    if (s == NULL)
        return;
    /* volatile so the wipe of the password is not optimized away */
    volatile char *p = s;
    while (*p)
        *p++ = '\0';
    free(s);
}

void gc_member_destroy(gc_member *m)
{
    if (m == NULL)
        return;
    gc_member_close(m);
    free(m->name);
    free(m->group);
    free(m->host);
    free(m->port);
    free(m->dbname);
    free(m->user);
    free_secret(m->password);
    free(m->sslmode);
    free(m->sslrootcert);
    free(m->sslcert);
    free(m->sslkey);
    free(m->application_name);
    free(m->extra_conninfo);
    pthread_mutex_destroy(&m->cancel_lock);
    free(m);
}

/* Copies libpq's message without the trailing newline. */
void gc_member_error_from_libpq(gc_error *err, const char *sqlstate, const char *msg)
{
    size_t len = strlen(msg);
    while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
        len--;
    gc_error_set(err, sqlstate, 0, "%.*s", (int)len, msg);
}

/* libpq calls this for every NOTICE/WARNING/INFO the server sends; forward
 * the SQLSTATE and the primary message, with "\nDETAIL: <detail>" when the
 * server sent one (psqlODBC's words), to whoever listens. */
void gc_member_notice_receiver(void *arg, const PGresult *res)
{
    gc_member *m = arg;
    const char *sqlstate = PQresultErrorField(res, PG_DIAG_SQLSTATE);
    const char *severity = PQresultErrorField(res, PG_DIAG_SEVERITY);
    const char *message = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
    const char *detail = PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL);
    if (message == NULL)
        message = PQresultErrorMessage(res);
    char worded[GC_ERROR_MESSAGE_MAX];
    if (detail != NULL) {
        snprintf(worded, sizeof worded, "%s\nDETAIL: %s", message, detail);
        message = worded;
    }
    gc_trace_write(m->trace, GC_TRACE_DEBUG, "member %s notice %s: %s",
                   m->name ? m->name : "-", sqlstate ? sqlstate : "-", message);
    if (m->notice_fn != NULL)
        m->notice_fn(m->notice_ctx, sqlstate != NULL ? sqlstate : "01000",
                     severity != NULL ? severity : "NOTICE", message);
}

PGconn *gc_member_detach_with_cancel(gc_member *m, PGcancel **cancel)
{
    assert(m != NULL);
    pthread_mutex_lock(&m->cancel_lock);
    *cancel = m->cancel;
    PGconn *conn = m->conn;
    m->cancel = NULL;
    m->conn = NULL;
    pthread_mutex_unlock(&m->cancel_lock);
    m->in_flight = false;
    gc_member_wrap_end(m);
    m->hide_first = false;
    return conn;
}

PGconn *gc_member_detach(gc_member *m)
{
    PGcancel *cancel;
    PGconn *conn = gc_member_detach_with_cancel(m, &cancel);
    if (cancel != NULL)
        PQfreeCancel(cancel);
    return conn;
}

void gc_member_close(gc_member *m)
{
    PGconn *conn = gc_member_detach(m);
    if (conn != NULL)
        PQfinish(conn);
}

bool gc_member_is_open(const gc_member *m)
{
    return m != NULL && m->conn != NULL && m->state == GC_MEMBER_UP &&
           PQstatus(m->conn) == CONNECTION_OK;
}

const char *gc_member_name(const gc_member *m)
{
    return m->name;
}

gc_member_state gc_member_get_state(const gc_member *m)
{
    return m->state;
}

unsigned long gc_member_generation(const gc_member *m)
{
    return m->generation;
}

int gc_member_handshake_ms(const gc_member *m)
{
    return m->handshake_ms;
}

/* Read live: the server reports in_hot_standby again when it is promoted.
 * Once off, the lookup (a string-compared list in libpq, on every
 * statement's routing) is skipped for the rest of the session. */
gc_member_role gc_member_get_role(gc_member *m)
{
    if (m->conn == NULL)
        return GC_ROLE_UNKNOWN;
    if (m->generation != 0 && m->primary_generation == m->generation)
        return GC_ROLE_PRIMARY;
    const char *standby = PQparameterStatus(m->conn, "in_hot_standby");
    if (standby == NULL)
        return GC_ROLE_UNKNOWN;     /* server older than PostgreSQL 14 */
    if (strcmp(standby, "on") == 0)
        return GC_ROLE_STANDBY;
    m->primary_generation = m->generation;
    return GC_ROLE_PRIMARY;
}

PGTransactionStatusType gc_member_txn_status(const gc_member *m)
{
    if (m->conn == NULL)
        return PQTRANS_UNKNOWN;
    return PQtransactionStatus(m->conn);
}

int gc_member_server_version(const gc_member *m)
{
    return m->conn != NULL ? PQserverVersion(m->conn) : m->server_version;
}

const char *gc_member_parameter(const gc_member *m, const char *name)
{
    return m->conn != NULL ? PQparameterStatus(m->conn, name) : NULL;
}

bool gc_member_standard_strings(const gc_member *m)
{
    const char *value = gc_member_parameter(m, "standard_conforming_strings");
    return value == NULL || strcmp(value, "off") != 0;
}

const char *gc_member_database(const gc_member *m)
{
    return m->conn != NULL ? PQdb(m->conn) : m->dbname;
}

const char *gc_member_user(const gc_member *m)
{
    return m->conn != NULL ? PQuser(m->conn) : m->user;
}

const char *gc_member_host(const gc_member *m)
{
    return m->conn != NULL ? PQhost(m->conn) : m->host;
}

const char *gc_member_port(const gc_member *m)
{
    return m->conn != NULL ? PQport(m->conn) : m->port;
}

void gc_member_set_notice_handler(gc_member *m, gc_member_notice_fn fn, void *ctx)
{
    m->notice_fn = fn;
    m->notice_ctx = ctx;
}

void gc_member_set_before_send(gc_member *m, gc_member_before_send_fn fn, void *ctx)
{
    m->before_send_fn = fn;
    m->before_send_ctx = ctx;
}

void gc_member_before_send(gc_member *m)
{
    if (m->before_send_fn != NULL)
        m->before_send_fn(m->before_send_ctx, m);
}

/* Common checks before sending; fills err (08003 closed, 08S01 lost). */
static bool ready_to_send(gc_member *m, gc_error *err)
{
    gc_member_before_send(m);
    if (m->conn == NULL) {
        gc_error_set(err, "08003", 0, "connection not open");
        return false;
    }
    if (m->state == GC_MEMBER_DOWN || PQstatus(m->conn) == CONNECTION_BAD) {
        gc_member_note_connection_health(m);
        m->state = GC_MEMBER_DOWN;
        if (gc_error_is_set(&m->down_error))
            *err = m->down_error;
        else
            gc_error_set(err, "08S01", 0, "communication link failure: the connection to the server was lost");
        return false;
    }
    if (m->in_flight)
        gc_member_drain(m);
    return true;
}

static bool sent(gc_member *m, int ok, gc_error *err)
{
    if (!ok) {
        gc_member_note_connection_health(m);
        gc_member_error_from_libpq(err, m->state == GC_MEMBER_DOWN ? "08S01" : "HY000",
                         PQerrorMessage(m->conn));
        return false;
    }
    m->in_flight = true;
    m->sent_generation = m->generation;
    m->last_io_ms = gc_clock_ms();
    return true;
}

bool gc_member_send_query(gc_member *m, const char *sql, gc_error *err)
{
    if (!ready_to_send(m, err))
        return false;
    gc_trace_write(m->trace, GC_TRACE_DEBUG, "member %s query: %s",
                   m->name ? m->name : "-", sql);
    return sent(m, PQsendQuery(m->conn, sql), err);
}

bool gc_member_send_query_after(gc_member *m, const char *first, const char *sql,
                                gc_error *err)
{
    size_t first_len = strlen(first), sql_len = strlen(sql);
    char *text = malloc(first_len + 2 + sql_len + 1);
    if (text == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    /* "first;\nsql": the server sees first as a statement of its own. */
    memcpy(text, first, first_len);
    memcpy(text + first_len, ";\n", 2);
    memcpy(text + first_len + 2, sql, sql_len + 1);
    bool ok = gc_member_send_query(m, text, err);
    free(text);
    m->hide_first = ok;
    return ok;
}

bool gc_member_send_prepare(gc_member *m, const char *stmt_name, const char *sql,
                            int nparams, const Oid *param_types, gc_error *err)
{
    if (!ready_to_send(m, err))
        return false;
    gc_trace_write(m->trace, GC_TRACE_DEBUG, "member %s prepare %s: %s",
                   m->name ? m->name : "-", stmt_name, sql);
    return sent(m, PQsendPrepare(m->conn, stmt_name, sql, nparams, param_types), err);
}

bool gc_member_send_describe_prepared(gc_member *m, const char *stmt_name,
                                      gc_error *err)
{
    if (!ready_to_send(m, err))
        return false;
    return sent(m, PQsendDescribePrepared(m->conn, stmt_name), err);
}

bool gc_member_send_query_prepared(gc_member *m, const char *stmt_name, int nparams,
                                   const char *const *values, const int *lengths,
                                   const int *formats, gc_error *err)
{
    if (!ready_to_send(m, err))
        return false;
    gc_trace_write(m->trace, GC_TRACE_DEBUG, "member %s execute %s (%d parameters)",
                   m->name ? m->name : "-", stmt_name, nparams);
    return sent(m, PQsendQueryPrepared(m->conn, stmt_name, nparams, values, lengths,
                                       formats, 0), err);
}

bool gc_member_send_query_params(gc_member *m, const char *sql, int nparams,
                                 const Oid *param_types, const char *const *values,
                                 const int *lengths, const int *formats,
                                 gc_error *err)
{
    if (!ready_to_send(m, err))
        return false;
    gc_trace_write(m->trace, GC_TRACE_DEBUG, "member %s query (%d parameters): %s",
                   m->name ? m->name : "-", nparams, sql);
    return sent(m, PQsendQueryParams(m->conn, sql, nparams, param_types, values,
                                     lengths, formats, 0), err);
}

/* Queues one statement of a pipeline: prepared when stmt_name is set. */
static bool queue_statement(PGconn *conn, const char *stmt_name, const char *sql, int nparams,
                            const Oid *param_types, const char *const *values,
                            const int *lengths, const int *formats)
{
    if (stmt_name != NULL)
        return PQsendQueryPrepared(conn, stmt_name, nparams, values, lengths, formats, 0) == 1;
    return PQsendQueryParams(conn, sql, nparams, param_types, values, lengths, formats, 0) == 1;
}

bool gc_member_send_wrapped(gc_member *m, const char *before, const char *after,
                            const char *stmt_name, const char *sql, int nparams,
                            const Oid *param_types, const char *const *values,
                            const int *lengths, const int *formats, gc_error *err)
{
    if (!ready_to_send(m, err))
        return false;
    if (!PQenterPipelineMode(m->conn)) {
        gc_member_error_from_libpq(err, "HY000", PQerrorMessage(m->conn));
        return false;
    }
    gc_trace_write(m->trace, GC_TRACE_DEBUG, "member %s pipelined: %s; %s %s (%d parameters); %s",
                   m->name ? m->name : "-", before, stmt_name ? "execute" : "query",
                   stmt_name ? stmt_name : sql, nparams, after);
    bool ok = PQsendQueryParams(m->conn, before, 0, NULL, NULL, NULL, NULL, 0) == 1 &&
              queue_statement(m->conn, stmt_name, sql, nparams, param_types, values, lengths,
                              formats) &&
              (after == NULL ||
               PQsendQueryParams(m->conn, after, 0, NULL, NULL, NULL, NULL, 0) == 1) &&
              PQpipelineSync(m->conn) == 1;
    if (!ok) {
        gc_error why;
        gc_member_error_from_libpq(&why, "08S01", PQerrorMessage(m->conn));
        *err = why;
        gc_member_went_down(m, &why);    /* a half-sent pipeline is unusable */
        return false;
    }
    m->wrap.active = true;
    m->wrap.before_left = 1;
    m->wrap.in_after = false;
    m->wrap.stream = false;
    return sent(m, 1, err);
}

bool gc_member_stream_rows(gc_member *m)
{
    if (m->conn != NULL && m->wrap.active && m->wrap.before_left > 0) {
        m->wrap.stream = true;      /* set when the statement's turn comes */
        return true;
    }
    return m->conn != NULL && PQsetSingleRowMode(m->conn) == 1;
}

/* Next result of the statement in flight (caller PQclears), NULL when done.
 * The wait is bounded by MemberTimeout as gc_member_wait.c explains; a
 * member found dead yields one PGRES_FATAL_ERROR result without SQLSTATE
 * (gc_member_result_error gives its 08S01 message), then NULL. */
PGresult *gc_member_next_result(gc_member *m)
{
    if (m->conn == NULL)
        return NULL;
    if (m->wrap.active)
        return gc_member_wrapped_next(m);
    for (;;) {
        if (!gc_member_wait_readable(m, m->member_timeout_s * 1000LL, true)) {
            m->hide_first = false;
            return PQmakeEmptyPGresult(NULL, PGRES_FATAL_ERROR);
        }
        PGresult *res = PQgetResult(m->conn);
        if (res == NULL)
            m->in_flight = false;
        gc_member_note_connection_health(m);
        bool hidden = m->hide_first && res != NULL &&
                      PQresultStatus(res) != PGRES_FATAL_ERROR &&
                      PQresultStatus(res) != PGRES_BAD_RESPONSE;
        m->hide_first = false;
        if (!hidden)
            return res;
        PQclear(res);      /* the driver's own command: the caller never sees it */
        if (m->conn == NULL)
            return NULL;
    }
}

void gc_member_drain(gc_member *m)
{
    if (m->conn == NULL)
        return;
    PGresult *res;
    while (m->wrap.active && (res = gc_member_wrapped_next(m)) != NULL)
        PQclear(res);
    while (gc_member_wait_readable(m, m->member_timeout_s * 1000LL, true) &&
           (res = PQgetResult(m->conn)) != NULL) {
        /* A COPY in progress would never end by itself: end it. */
        ExecStatusType st = PQresultStatus(res);
        PQclear(res);
        if (st == PGRES_COPY_IN)
            PQputCopyEnd(m->conn, "cancelled by the driver");
        else if (st == PGRES_COPY_OUT) {
            char *buf;
            while (PQgetCopyData(m->conn, &buf, 0) > 0)
                PQfreemem(buf);
        }
        if (m->conn == NULL || PQstatus(m->conn) == CONNECTION_BAD)
            break;
    }
    m->in_flight = false;
    m->hide_first = false;
    gc_member_note_connection_health(m);
}

PGresult *gc_member_exec(gc_member *m, const char *sql, gc_error *err)
{
    if (!gc_member_send_query(m, sql, err))
        return NULL;
    PGresult *last = NULL, *res;
    while ((res = gc_member_next_result(m)) != NULL) {
        /* Keep the first error, else the last result. */
        if (last != NULL && PQresultStatus(last) == PGRES_FATAL_ERROR) {
            PQclear(res);
            continue;
        }
        PQclear(last);
        last = res;
    }
    if (last == NULL) {
        gc_member_note_connection_health(m);
        if (m->conn == NULL || m->state == GC_MEMBER_DOWN)
            gc_member_check_alive(m, err);    /* copies the down error */
        else
            gc_member_error_from_libpq(err, "HY000", PQerrorMessage(m->conn));
        return NULL;
    }
    ExecStatusType st = PQresultStatus(last);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK && st != PGRES_EMPTY_QUERY) {
        gc_member_result_error(m, last, err);
        PQclear(last);
        return NULL;
    }
    return last;
}

bool gc_member_exec_rows(gc_member *m, const char *sql, PGresult **out, int n, gc_error *err)
{
    int got = 0;
    bool ok = gc_member_send_query(m, sql, err);
    PGresult *r;
    while (ok && (r = gc_member_next_result(m)) != NULL) {
        ExecStatusType st = PQresultStatus(r);
        if (st == PGRES_TUPLES_OK && got < n) {
            out[got++] = r;
            continue;
        }
        if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
            gc_member_result_error(m, r, err);
            ok = false;
        }
        PQclear(r);
    }
    if (!ok) {
        gc_member_drain(m);
    } else if (got != n) {
        gc_error_set(err, "HY000", 0, "statements returned %d sets of rows, expected %d", got, n);
        ok = false;
    }
    if (!ok)
        for (int i = 0; i < got; i++)
            PQclear(out[i]);
    return ok;
}

bool gc_member_cancel(gc_member *m, gc_error *err)
{
    char buf[256];
    bool ok = true;
    pthread_mutex_lock(&m->cancel_lock);
    if (m->cancel != NULL) {
        buf[0] = '\0';
        ok = PQcancel(m->cancel, buf, sizeof buf) == 1;
    }
    pthread_mutex_unlock(&m->cancel_lock);
    if (!ok)
        gc_member_error_from_libpq(err, "HY000", buf);
    return ok;
}

bool gc_member_result_is_fatal(const PGresult *res)
{
    return gc_error_severity_ends_session(PQresultErrorField(res, PG_DIAG_SEVERITY_NONLOCALIZED));
}

/* A result without SQLSTATE is an error libpq made itself: in practice a
 * lost or broken connection, hence 08S01. A FATAL one ended the session:
 * psqlODBC words it with its own native number whatever call met it. */
void gc_member_error_from_result(const PGresult *res, gc_error *err)
{
    const char *sqlstate = PQresultErrorField(res, PG_DIAG_SQLSTATE);
    const char *primary = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
    if (sqlstate != NULL && primary != NULL) {
        const char *severity = PQresultErrorField(res, PG_DIAG_SEVERITY);
        const char *detail = PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL);
        bool fatal = gc_member_result_is_fatal(res);
        gc_error_set(err, sqlstate, fatal ? GC_NATIVE_CONNECTION_LOST : GC_NATIVE_SERVER_ERROR,
                     "%s: %s%s%s%s", severity != NULL ? severity : "ERROR", primary,
                     detail != NULL ? "\nDETAIL: " : "", detail != NULL ? detail : "",
                     fatal ? ";\n" GC_CONNECTION_LOST_TEXT : "");
    } else if (primary != NULL)
        gc_error_set(err, "08S01", 0, "%s", primary);
    else
        gc_member_error_from_libpq(err, sqlstate != NULL ? sqlstate : "08S01",
                         PQresultErrorMessage(res));
}
