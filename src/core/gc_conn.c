/*
 * gc_conn: the ODBC connection handle: lifetime, connect, disconnect and the
 * internal statements the connection itself runs. Attributes live in
 * gc_conn_attr.c, transactions in gc_conn_endtran.c.
 */
#include "core/gc_conn.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gc_conn_kind.h"
#include "sql/gc_sql_rewrite.h"

/* Caller owns the result; gc_conn_destroy() frees it. */
gc_conn *gc_conn_create(gc_env *env)
{
    assert(gc_handle_is(env, GC_HANDLE_ENV));
    gc_conn *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->h.kind = GC_HANDLE_DBC;
    gc_diag_init(&c->h.diag);
    c->env = env;
    c->kind = &gc_conn_kind_general;
    gc_conn_init_handles(c);
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&c->lock, &attr);
    pthread_mutexattr_destroy(&attr);
    gc_settings_init(&c->settings);
    c->autocommit = true;
    c->txn_isolation = 0;
    c->access_mode = SQL_MODE_READ_WRITE;
    c->login_timeout = 0;
    c->connection_timeout = 0;
    c->metadata_id = SQL_FALSE;
    c->async_enable = SQL_ASYNC_ENABLE_OFF;
    c->packet_size = 0;
    c->psqlodbc_batch_size = 100;   /* psqlODBC's default */
    c->odbc_cursors = SQL_CUR_USE_DRIVER;

    pthread_mutex_lock(&env->lock);
    c->next_in_env = env->connections;
    env->connections = c;
    pthread_mutex_unlock(&env->lock);
    return c;
}

SQLRETURN gc_conn_destroy(gc_conn *c)
{
    assert(gc_handle_is(c, GC_HANDLE_DBC));
    if (gc_conn_is_connected(c)) {
        gc_diag_add(&c->h.diag, "HY010", 0, "function sequence error: the connection is still open");
        return SQL_ERROR;
    }
    gc_env *env = c->env;
    pthread_mutex_lock(&env->lock);
    for (gc_conn **p = &env->connections; *p != NULL; p = &(*p)->next_in_env) {
        if (*p == c) {
            *p = c->next_in_env;
            break;
        }
    }
    pthread_mutex_unlock(&env->lock);
    c->h.kind = GC_HANDLE_FREED;
    gc_trace_close(c->trace);   /* left open by a failed connect */
    gc_settings_free(&c->settings);
    gc_diag_free(&c->h.diag);
    pthread_mutex_destroy(&c->lock);
    free(c);
    return SQL_SUCCESS;
}

bool gc_conn_is_connected(const gc_conn *c)
{
    return c->session != NULL;
}

void gc_conn_notice(void *ctx, const char *sqlstate, const char *severity, const char *message)
{
    gc_conn *c = ctx;
    if (c->notice_diag != NULL)
        gc_diag_add_notice(c->notice_diag, sqlstate, severity, message);
}

/* The SET that makes SQL_ATTR_TXN_ISOLATION and SQL_ATTR_ACCESS_MODE hold for
 * autocommit statements too; NULL when both are the server's defaults. */
const char *gc_conn_isolation_sql(SQLUINTEGER level)
{
    switch (level) {
    case SQL_TXN_READ_UNCOMMITTED: return "READ UNCOMMITTED";
    case SQL_TXN_READ_COMMITTED: return "READ COMMITTED";
    case SQL_TXN_REPEATABLE_READ: return "REPEATABLE READ";
    case SQL_TXN_SERIALIZABLE: return "SERIALIZABLE";
    default: return NULL;
    }
}

const char *gc_conn_characteristics_sql(const gc_conn *c, char *buf, size_t size)
{
    if (c->txn_isolation == 0 && c->access_mode != SQL_MODE_READ_ONLY)
        return NULL;
    const char *level = gc_conn_isolation_sql(c->txn_isolation);
    snprintf(buf, size,
             "SET SESSION CHARACTERISTICS AS TRANSACTION%s%s %s",
             level != NULL ? " ISOLATION LEVEL " : "", level != NULL ? level : "",
             c->access_mode == SQL_MODE_READ_ONLY ? "READ ONLY" : "READ WRITE");
    return buf;
}

/* On a global connection the characteristics go to every open member
 * session (sessions opened later get them when they open). */
bool gc_conn_apply_session_characteristics(gc_conn *c, gc_error *err)
{
    if (!gc_conn_is_connected(c))
        return true;   /* applied at connect */
    const char *level = gc_conn_isolation_sql(c->txn_isolation);
    char sql[128];
    snprintf(sql, sizeof sql,
             "SET SESSION CHARACTERISTICS AS TRANSACTION%s%s %s",
             level != NULL ? " ISOLATION LEVEL " : "", level != NULL ? level : "",
             c->access_mode == SQL_MODE_READ_ONLY ? "READ ONLY" : "READ WRITE");
    return c->kind->set_on_sessions(c, sql, err);
}

/* Opens the session described by c->settings, then sets it up as the keys
 * say (ReadOnly, ConnSettings) and reports unknown keys (01S00). */
static SQLRETURN conn_open_session(gc_conn *c)
{
    gc_conn_open_handles(c);
    gc_trace_close(c->trace);
    c->trace = gc_conn_setup_open_trace(&c->settings);
    if (c->settings.read_only)
        c->access_mode = SQL_MODE_READ_ONLY;
    c->psqlodbc_batch_size = (SQLUINTEGER)c->settings.batch_size;

    bool oom;
    char *extra = gc_conn_setup_extra_conninfo(&c->settings, &oom);
    if (oom) {
        gc_diag_add(&c->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    gc_member_params params = {
        .dbname = c->settings.database,
        .user = c->settings.uid,
        .password = c->settings.pwd,
        .sslmode = c->settings.sslmode,
        .sslrootcert = c->settings.sslrootcert,
        .sslcert = c->settings.sslcert,
        .sslkey = c->settings.sslkey,
        .application_name = c->settings.application_name,
        .connect_timeout_s = c->login_timeout > 0 ? (int)c->login_timeout
                                                  : c->settings.connect_timeout,
        .extra_conninfo = extra,
    };
    SQLRETURN rc = gc_conn_kind_for(&c->settings)->open(c, &params);
    free(extra);
    if (rc == SQL_ERROR)
        return rc;
    gc_error err;
    gc_error_clear(&err);
    if (!gc_conn_setup_run_conn_settings(c, &err)) {
        gc_conn_disconnect(c);
        gc_diag_clear(&c->h.diag);
        gc_diag_add_error(&c->h.diag, &err);
        return SQL_ERROR;
    }
    if (gc_conn_setup_report_unknown_keys(c))
        rc = SQL_SUCCESS_WITH_INFO;
    return rc;
}

SQLRETURN gc_conn_connect(gc_conn *c, const char *dsn, const char *uid,
                          const char *pwd)
{
    if (gc_conn_is_connected(c)) {
        gc_diag_add(&c->h.diag, "08002", 0, "connection name in use");
        return SQL_ERROR;
    }
    gc_error err;
    gc_error_clear(&err);
    gc_settings_free(&c->settings);
    gc_settings_init(&c->settings);
    if (dsn == NULL || dsn[0] == '\0')
        dsn = "DEFAULT";
    if (!gc_settings_load_dsn(&c->settings, dsn, NULL, &err) ||
        (uid != NULL && uid[0] != '\0' &&
         !gc_settings_set(&c->settings, "UID", uid, NULL, &err)) ||
        (pwd != NULL && pwd[0] != '\0' &&
         !gc_settings_set(&c->settings, "PWD", pwd, NULL, &err))) {
        gc_diag_add_error(&c->h.diag, &err);
        return SQL_ERROR;
    }
    return conn_open_session(c);
}

SQLRETURN gc_conn_driver_connect(gc_conn *c, const char *connstr, SQLINTEGER len,
                                 SQLUSMALLINT completion, char **out_connstr)
{
    *out_connstr = NULL;
    if (gc_conn_is_connected(c)) {
        gc_diag_add(&c->h.diag, "08002", 0, "connection name in use");
        return SQL_ERROR;
    }
    switch (completion) {
    case SQL_DRIVER_NOPROMPT:
    case SQL_DRIVER_COMPLETE:
    case SQL_DRIVER_PROMPT:
    case SQL_DRIVER_COMPLETE_REQUIRED:
        break;
    default:
        gc_diag_add(&c->h.diag, "HY110", 0, "invalid driver completion %u", (unsigned)completion);
        return SQL_ERROR;
    }
    if (connstr == NULL)
        connstr = "";
    size_t n = len == SQL_NTS ? strlen(connstr) : (size_t)(len < 0 ? 0 : len);
    gc_error err;
    gc_error_clear(&err);
    gc_settings_free(&c->settings);
    gc_settings_init(&c->settings);
    if (!gc_settings_from_connection_string(&c->settings, connstr, n, NULL, &err)) {
        gc_diag_add_error(&c->h.diag, &err);
        return SQL_ERROR;
    }
    SQLRETURN rc = conn_open_session(c);
    if (rc == SQL_ERROR)
        return rc;
    *out_connstr = gc_settings_to_connection_string(&c->settings);
    if (*out_connstr == NULL) {
        gc_conn_disconnect(c);
        gc_diag_add(&c->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    return rc;
}

/* Rolls back what any open session of c has open, reading what a session
 * still sends first. True when a transaction was rolled back. */
static bool roll_back_every_session(gc_conn *c)
{
    bool rolled_back = false;
    gc_session_end_streaming(&c->session_owner);
    for (int i = 0; i < c->kind->session_count(c); i++) {
        gc_session *m = c->kind->session_at(c, i);
        if (!gc_session_is_open(m))
            continue;
        gc_session_drain(m);
        PGTransactionStatusType ts = gc_session_txn_status(m);
        if (ts == PQTRANS_INTRANS || ts == PQTRANS_INERROR) {
            gc_error err;
            gc_error_clear(&err);
            PQclear(gc_session_exec(m, "ROLLBACK", &err));
            rolled_back = true;
        }
    }
    return rolled_back;
}

/* ODBC would let the driver refuse with 25000 while a transaction is open;
 * like most drivers we roll it back instead, which is what the server does
 * anyway when the session ends. */
SQLRETURN gc_conn_disconnect(gc_conn *c)
{
    if (!gc_conn_is_connected(c)) {
        gc_diag_add(&c->h.diag, "08003", 0, "connection not open");
        return SQL_ERROR;
    }
    gc_conn_close_handles(c);
    gc_call_kinds_forget(&c->call_kinds);   /* the next connect may reach another database */
    gc_conn_forget_table_columns(c);
    SQLRETURN rc = SQL_SUCCESS;
    if (roll_back_every_session(c)) {
        gc_diag_add(&c->h.diag, "01000", 0, "the open transaction was rolled back");
        rc = SQL_SUCCESS_WITH_INFO;
    }
    c->kind->close(c);
    gc_trace_close(c->trace);
    c->trace = NULL;
    return rc;
}

PGresult *gc_conn_exec(gc_conn *c, const char *sql, gc_error *err)
{
    if (!gc_conn_is_connected(c)) {
        gc_error_set(err, "08003", 0, "connection not open");
        return NULL;
    }
    gc_session_end_streaming(&c->session_owner);
    if (!c->kind->hold_session(c, err))
        return NULL;
    return gc_session_exec(c->session, sql, err);
}

unsigned gc_conn_sql_rewrite_flags(const gc_conn *c)
{
    /* The server reports the setting whenever it changes (GUC_REPORT), so
     * a SET standard_conforming_strings of the application is seen too. */
    if (c->session != NULL && !gc_session_standard_strings(c->session))
        return GC_SQL_BACKSLASH_STRINGS;
    return 0;
}

gc_session *gc_conn_live_session(gc_conn *c, gc_diag *diag)
{
    if (!gc_conn_is_connected(c)) {
        gc_diag_add(diag, "08003", 0, "connection not open");
        return NULL;
    }
    gc_error held;
    gc_error_clear(&held);
    if (!c->kind->hold_session(c, &held)) {
        gc_diag_add_error(diag, &held);
        return NULL;
    }
    if (!gc_session_is_open(c->session)) {
        gc_diag_add(diag, "08S01", 0,
                    "communication link failure: the connection to the server was lost");
        return NULL;
    }
    return c->session;
}
