/*
 * gc_member: one session to one PostgreSQL server over libpq.
 *
 * The session keeps what the global connection will need later (state, role,
 * a generation counter bumped on every successful connect) even though the
 * general connection only uses one member and connects blocking.
 */
#include "member/gc_member.h"

#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Session settings every member gets, so results look the same on all of
 * them and the conversion layer can parse them (ISO dates, hex bytea, floats
 * that round-trip). Sent in the startup packet: no extra round trip. */
static const char member_session_options[] =
    "-c DateStyle=ISO -c extra_float_digits=3 -c bytea_output=hex "
    "-c IntervalStyle=postgres";

enum { MEMBER_MAX_KEYWORDS = 40 };

struct gc_member {
    /* Copied parameters (owned). */
    char *name, *group, *host, *port, *dbname, *user, *password;
    char *sslmode, *sslrootcert, *sslcert, *sslkey, *application_name;
    char *extra_conninfo;
    int connect_timeout_s;

    gc_trace *trace;             /* borrowed from the owner */
    PGconn *conn;                /* NULL while closed */
    gc_member_state state;
    unsigned long generation;    /* +1 on every successful connect */
    bool in_flight;              /* a sent statement has results left to collect */

    gc_member_notice_fn notice_fn;
    void *notice_ctx;

    /* The cancel object is used from other threads (SQLCancel), so it has its
     * own lock: close must not free it while a cancel is being sent. */
    pthread_mutex_t cancel_lock;
    PGcancel *cancel;
};

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

/* libpq calls this for every NOTICE/WARNING/INFO the server sends; forward
 * the SQLSTATE and primary message to whoever listens. */
static void member_notice_receiver(void *arg, const PGresult *res)
{
    gc_member *m = arg;
    const char *sqlstate = PQresultErrorField(res, PG_DIAG_SQLSTATE);
    const char *message = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
    if (message == NULL)
        message = PQresultErrorMessage(res);
    gc_trace_write(m->trace, GC_TRACE_DEBUG, "member %s notice %s: %s",
                   m->name ? m->name : "-", sqlstate ? sqlstate : "-", message);
    if (m->notice_fn != NULL)
        m->notice_fn(m->notice_ctx, sqlstate != NULL ? sqlstate : "01000", message);
}

typedef struct keyword_list {
    const char *keys[MEMBER_MAX_KEYWORDS + 1];
    const char *values[MEMBER_MAX_KEYWORDS + 1];
    int count;
} keyword_list;

static void keyword_add(keyword_list *kl, const char *key, const char *value)
{
    if (value == NULL || value[0] == '\0' || kl->count >= MEMBER_MAX_KEYWORDS)
        return;
    /* A later value for the same keyword replaces the earlier one. */
    for (int i = 0; i < kl->count; i++) {
        if (strcmp(kl->keys[i], key) == 0) {
            kl->values[i] = value;
            return;
        }
    }
    kl->keys[kl->count] = key;
    kl->values[kl->count] = value;
    kl->count++;
}

/* SQLSTATE for a failed connect. libpq does not expose the server's SQLSTATE
 * of a startup failure, so the best-known server messages are recognized
 * (the server's messages are English unless lc_messages says otherwise);
 * everything else is 08001, "client unable to establish connection". */
static const char *connect_failure_sqlstate(const char *message)
{
    if (strstr(message, "password authentication failed") != NULL)
        return "28P01";
    if (strstr(message, "no password supplied") != NULL ||
        strstr(message, "no pg_hba.conf entry") != NULL ||
        (strstr(message, "role \"") != NULL && strstr(message, "does not exist") != NULL))
        return "28000";
    if (strstr(message, "database \"") != NULL && strstr(message, "does not exist") != NULL)
        return "3D000";
    return "08001";
}

/* Copies libpq's message without the trailing newline. */
static void error_from_libpq(gc_error *err, const char *sqlstate, const char *msg)
{
    size_t len = strlen(msg);
    while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
        len--;
    gc_error_set(err, sqlstate, 0, "%.*s", (int)len, msg);
}

/* Blocking connect with every keyword passed as its own array entry (never a
 * concatenated conninfo, so no value can inject another keyword). */
bool gc_member_connect(gc_member *m, gc_error *err)
{
    assert(m != NULL);
    gc_member_close(m);

    keyword_list kl = { .count = 0 };
    char timeout[16];
    snprintf(timeout, sizeof timeout, "%d", m->connect_timeout_s);

    /* extra_conninfo is parsed by libpq into keywords, then merged. */
    PQconninfoOption *extra = NULL;
    if (m->extra_conninfo != NULL && m->extra_conninfo[0] != '\0') {
        char *parse_error = NULL;
        extra = PQconninfoParse(m->extra_conninfo, &parse_error);
        if (extra == NULL) {
            gc_error_set(err, "08001", 0, "invalid extra connection options: %s",
                         parse_error ? parse_error : "out of memory");
            PQfreemem(parse_error);
            return false;
        }
    }

    keyword_add(&kl, "host", m->host);
    keyword_add(&kl, "port", m->port);
    keyword_add(&kl, "dbname", m->dbname);
    keyword_add(&kl, "user", m->user);
    keyword_add(&kl, "password", m->password);
    keyword_add(&kl, "sslmode", m->sslmode);
    keyword_add(&kl, "sslrootcert", m->sslrootcert);
    keyword_add(&kl, "sslcert", m->sslcert);
    keyword_add(&kl, "sslkey", m->sslkey);
    keyword_add(&kl, "application_name", m->application_name);
    keyword_add(&kl, "fallback_application_name", "gcodbc");
    if (m->connect_timeout_s > 0)
        keyword_add(&kl, "connect_timeout", timeout);
    /* Keepalives find a dead server on an idle session. */
    keyword_add(&kl, "keepalives", "1");
    keyword_add(&kl, "keepalives_idle", "30");
    keyword_add(&kl, "keepalives_interval", "10");
    keyword_add(&kl, "keepalives_count", "3");
    if (extra != NULL) {
        for (PQconninfoOption *o = extra; o->keyword != NULL; o++)
            keyword_add(&kl, o->keyword, o->val);
    }
    /* Last, so nothing overrides what the driver relies on. */
    keyword_add(&kl, "client_encoding", "UTF8");
    keyword_add(&kl, "options", member_session_options);
    kl.keys[kl.count] = NULL;
    kl.values[kl.count] = NULL;

    gc_trace_write(m->trace, GC_TRACE_INFO, "member %s connecting to %s:%s",
                   m->name ? m->name : "-", m->host ? m->host : "(default)",
                   m->port ? m->port : "(default)");
    PGconn *conn = PQconnectdbParams(kl.keys, kl.values, 0);
    PQconninfoFree(extra);
    if (conn == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory while connecting");
        m->state = GC_MEMBER_DOWN;
        return false;
    }
    if (PQstatus(conn) != CONNECTION_OK) {
        const char *msg = PQerrorMessage(conn);
        error_from_libpq(err, connect_failure_sqlstate(msg), msg);
        gc_trace_write(m->trace, GC_TRACE_ERROR, "member %s connect failed: %s",
                       m->name ? m->name : "-", err->message);
        PQfinish(conn);
        m->state = GC_MEMBER_DOWN;
        return false;
    }
    PGcancel *cancel = PQgetCancel(conn);
    if (cancel == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory while connecting");
        PQfinish(conn);
        m->state = GC_MEMBER_DOWN;
        return false;
    }
    PQsetNoticeReceiver(conn, member_notice_receiver, m);
    pthread_mutex_lock(&m->cancel_lock);
    m->cancel = cancel;
    m->conn = conn;
    pthread_mutex_unlock(&m->cancel_lock);
    m->state = GC_MEMBER_UP;
    m->generation++;
    m->in_flight = false;
    gc_trace_write(m->trace, GC_TRACE_INFO, "member %s connected, server %d, role %s",
                   m->name ? m->name : "-", PQserverVersion(conn),
                   gc_member_get_role(m) == GC_ROLE_STANDBY ? "standby" : "primary");
    return true;
}

void gc_member_close(gc_member *m)
{
    assert(m != NULL);
    pthread_mutex_lock(&m->cancel_lock);
    PGcancel *cancel = m->cancel;
    PGconn *conn = m->conn;
    m->cancel = NULL;
    m->conn = NULL;
    pthread_mutex_unlock(&m->cancel_lock);
    if (cancel != NULL)
        PQfreeCancel(cancel);
    if (conn != NULL)
        PQfinish(conn);
    m->in_flight = false;
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

/* Read live: the server reports in_hot_standby again when it is promoted. */
gc_member_role gc_member_get_role(const gc_member *m)
{
    if (m->conn == NULL)
        return GC_ROLE_UNKNOWN;
    const char *standby = PQparameterStatus(m->conn, "in_hot_standby");
    if (standby == NULL)
        return GC_ROLE_UNKNOWN;     /* server older than PostgreSQL 14 */
    return strcmp(standby, "on") == 0 ? GC_ROLE_STANDBY : GC_ROLE_PRIMARY;
}

PGTransactionStatusType gc_member_txn_status(const gc_member *m)
{
    if (m->conn == NULL)
        return PQTRANS_UNKNOWN;
    return PQtransactionStatus(m->conn);
}

int gc_member_server_version(const gc_member *m)
{
    return m->conn != NULL ? PQserverVersion(m->conn) : 0;
}

const char *gc_member_parameter(const gc_member *m, const char *name)
{
    return m->conn != NULL ? PQparameterStatus(m->conn, name) : NULL;
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

void gc_member_set_notice_handler(gc_member *m, gc_member_notice_fn fn, void *ctx)
{
    m->notice_fn = fn;
    m->notice_ctx = ctx;
}

/* Marks the member down when libpq says the connection is gone. */
static void note_connection_health(gc_member *m)
{
    if (m->conn != NULL && PQstatus(m->conn) == CONNECTION_BAD &&
        m->state != GC_MEMBER_DOWN) {
        m->state = GC_MEMBER_DOWN;
        gc_trace_write(m->trace, GC_TRACE_ERROR, "member %s lost its connection",
                       m->name ? m->name : "-");
    }
}

/* Common checks before sending; fills err (08003 closed, 08S01 lost). */
static bool ready_to_send(gc_member *m, gc_error *err)
{
    if (m->conn == NULL) {
        gc_error_set(err, "08003", 0, "connection not open");
        return false;
    }
    if (m->state == GC_MEMBER_DOWN || PQstatus(m->conn) == CONNECTION_BAD) {
        m->state = GC_MEMBER_DOWN;
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
        note_connection_health(m);
        error_from_libpq(err, m->state == GC_MEMBER_DOWN ? "08S01" : "HY000",
                         PQerrorMessage(m->conn));
        return false;
    }
    m->in_flight = true;
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

bool gc_member_stream_rows(gc_member *m)
{
    return m->conn != NULL && PQsetSingleRowMode(m->conn) == 1;
}

/* Next result of the statement in flight (caller PQclears), NULL when done. */
PGresult *gc_member_next_result(gc_member *m)
{
    if (m->conn == NULL)
        return NULL;
    PGresult *res = PQgetResult(m->conn);
    if (res == NULL)
        m->in_flight = false;
    note_connection_health(m);
    return res;
}

void gc_member_drain(gc_member *m)
{
    if (m->conn == NULL)
        return;
    PGresult *res;
    while ((res = PQgetResult(m->conn)) != NULL) {
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
        if (PQstatus(m->conn) == CONNECTION_BAD)
            break;
    }
    m->in_flight = false;
    note_connection_health(m);
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
        note_connection_health(m);
        error_from_libpq(err, m->state == GC_MEMBER_DOWN ? "08S01" : "HY000",
                         PQerrorMessage(m->conn));
        return NULL;
    }
    ExecStatusType st = PQresultStatus(last);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK && st != PGRES_EMPTY_QUERY) {
        gc_member_error_from_result(last, err);
        PQclear(last);
        return NULL;
    }
    return last;
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
        error_from_libpq(err, "HY000", buf);
    return ok;
}

/* A result without SQLSTATE is an error libpq made itself: in practice a
 * lost or broken connection, hence 08S01. */
void gc_member_error_from_result(const PGresult *res, gc_error *err)
{
    const char *sqlstate = PQresultErrorField(res, PG_DIAG_SQLSTATE);
    const char *primary = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
    if (primary != NULL)
        gc_error_set(err, sqlstate != NULL ? sqlstate : "08S01", 0, "%s", primary);
    else
        error_from_libpq(err, sqlstate != NULL ? sqlstate : "08S01",
                         PQresultErrorMessage(res));
}
