/*
 * gc_conn_attr: SQLSetConnectAttr / SQLGetConnectAttr for the standard
 * connection attributes (docs/connection-attributes.md lists them).
 */
#include <stdint.h>
#include <string.h>

#include "core/gc_conn.h"
#include "core/gc_conn_stmt_options.h"
#include "core/gc_conn_kind.h"
#include "core/gc_strout.h"
#include "gcodbc.h"

/* unixODBC tells the driver whether the application is ANSI (115). */
#ifndef SQL_ATTR_ANSI_APP
#define SQL_ATTR_ANSI_APP 115
#endif

/* psqlODBC's SQL_ATTR_PGOPT_BATCHSIZE: how many rows of an autocommit
 * parameter array form one transaction (BatchSize; gc_exec_array.c). All
 * batches still go in one pipeline. */
#define GC_ATTR_PSQLODBC_BATCHSIZE 65550

static SQLRETURN attr_error(gc_conn *c, const char *sqlstate, const char *what,
                            SQLINTEGER attr)
{
    gc_diag_add(&c->h.diag, sqlstate, 0, "%s (connection attribute %d)", what, (int)attr);
    return SQL_ERROR;
}

static bool txn_open(const gc_conn *c)
{
    if (!gc_conn_is_connected(c))
        return false;
    PGTransactionStatusType ts = gc_session_txn_status(c->session);
    return ts == PQTRANS_INTRANS || ts == PQTRANS_INERROR || ts == PQTRANS_ACTIVE;
}

/* Turning autocommit on commits an open transaction (ODBC rule); turning it
 * off only changes what the next statement does (BEGIN is lazy). */
static SQLRETURN set_autocommit(gc_conn *c, SQLULEN v)
{
    if (v != SQL_AUTOCOMMIT_ON && v != SQL_AUTOCOMMIT_OFF)
        return attr_error(c, "HY024", "invalid attribute value", SQL_ATTR_AUTOCOMMIT);
    bool on = v == SQL_AUTOCOMMIT_ON;
    if (on && !c->autocommit && gc_conn_is_connected(c)) {
        SQLRETURN rc = gc_conn_end_tran(c, SQL_COMMIT);
        if (rc == SQL_ERROR)
            return rc;
    }
    c->autocommit = on;
    return SQL_SUCCESS;
}

static SQLRETURN set_txn_characteristic(gc_conn *c, SQLINTEGER attr, SQLULEN v)
{
    if (attr == SQL_ATTR_TXN_ISOLATION) {
        if (gc_conn_isolation_sql((SQLUINTEGER)v) == NULL)
            return attr_error(c, "HY024", "invalid isolation level", attr);
    } else if (v != SQL_MODE_READ_ONLY && v != SQL_MODE_READ_WRITE) {
        return attr_error(c, "HY024", "invalid access mode", attr);
    }
    if (txn_open(c))
        return attr_error(c, "HY011", "attribute cannot be set while a transaction is open", attr);
    SQLUINTEGER old_isolation = c->txn_isolation, old_mode = c->access_mode;
    if (attr == SQL_ATTR_TXN_ISOLATION)
        c->txn_isolation = (SQLUINTEGER)v;
    else
        c->access_mode = (SQLUINTEGER)v;
    gc_error err;
    gc_error_clear(&err);
    if (!gc_conn_apply_session_characteristics(c, &err)) {
        c->txn_isolation = old_isolation;
        c->access_mode = old_mode;
        gc_diag_add_error(&c->h.diag, &err);
        return SQL_ERROR;
    }
    return SQL_SUCCESS;
}

/* psqlODBC's own connection attribute for its Fetch key (rows a
 * UseDeclareFetch cursor reads at a time), which programs written for it
 * set. gcodbc streams results and has no such batch: accepted, no effect,
 * as the Fetch key. */
#define GC_PSQLODBC_ATTR_FETCH 65541

SQLRETURN gc_conn_set_attr(gc_conn *c, SQLINTEGER attr, SQLPOINTER value,
                           SQLINTEGER length)
{
    SQLULEN v = (SQLULEN)(uintptr_t)value;
    switch (attr) {
    case SQL_ATTR_AUTOCOMMIT:
        return set_autocommit(c, v);
    case SQL_ATTR_TXN_ISOLATION:
    case SQL_ATTR_ACCESS_MODE:
        return set_txn_characteristic(c, attr, v);
    case SQL_ATTR_LOGIN_TIMEOUT:
        c->login_timeout = (SQLUINTEGER)v;
        return SQL_SUCCESS;
    case SQL_ATTR_CONNECTION_TIMEOUT:
        c->connection_timeout = (SQLUINTEGER)v;
        return SQL_SUCCESS;
    case SQL_ATTR_QUERY_TIMEOUT:   /* ODBC 2: default for new statements */
        c->query_timeout_default = v;
        return SQL_SUCCESS;
    case SQL_ATTR_METADATA_ID:
        if (v != SQL_TRUE && v != SQL_FALSE)
            return attr_error(c, "HY024", "invalid attribute value", attr);
        c->metadata_id = (SQLUINTEGER)v;
        return SQL_SUCCESS;
    case SQL_ATTR_ASYNC_ENABLE:
        if (v != SQL_ASYNC_ENABLE_OFF)
            return attr_error(c, "HYC00", "asynchronous execution is not supported", attr);
        c->async_enable = SQL_ASYNC_ENABLE_OFF;
        return SQL_SUCCESS;
    case SQL_ATTR_CURRENT_CATALOG: {
        /* A session cannot change database in PostgreSQL: accept only the
         * one it is connected to. */
        const char *want = value;
        const char *have = gc_conn_is_connected(c) ? gc_session_database(c->session)
                                                   : c->settings.database;
        size_t n = want == NULL ? 0 : length == SQL_NTS ? strlen(want) : (size_t)length;
        if (want != NULL && have != NULL && strlen(have) == n &&
            strncmp(want, have, n) == 0)
            return SQL_SUCCESS;
        return attr_error(c, "HYC00", "PostgreSQL cannot switch the database of a session", attr);
    }
    case SQL_ATTR_PACKET_SIZE:
        c->packet_size = (SQLUINTEGER)v;
        return SQL_SUCCESS;
    case GC_ATTR_PSQLODBC_BATCHSIZE:
        if ((SQLLEN)v <= 0 || v > UINT32_MAX)
            return attr_error(c, "HY024", "invalid attribute value: the batch size is a "
                              "positive number of rows", attr);
        c->psqlodbc_batch_size = (SQLUINTEGER)v;
        return SQL_SUCCESS;
    case SQL_ATTR_QUIET_MODE:
        c->quiet_mode = value;
        return SQL_SUCCESS;
    case SQL_ATTR_ODBC_CURSORS:
        c->odbc_cursors = (SQLUINTEGER)v;
        return SQL_SUCCESS;
    case SQL_ATTR_TRACE:
    case SQL_ATTR_TRACEFILE:
    case SQL_ATTR_TRANSLATE_LIB:
    case SQL_ATTR_TRANSLATE_OPTION:
    case SQL_ATTR_ANSI_APP:
        /* The driver manager's business (tracing, translation): ignored. The
         * driver behaves the same for ANSI and Unicode applications. */
        return SQL_SUCCESS;
    case GC_PSQLODBC_ATTR_FETCH:
        return SQL_SUCCESS;
    case SQL_ATTR_AUTO_IPD:
    case SQL_ATTR_CONNECTION_DEAD:
    case GCODBC_ATTR_LAST_MEMBER:
    case GCODBC_ATTR_CATALOG_VERSION:
    case GCODBC_ATTR_DRIVER_VERSION:
        return attr_error(c, "HY092", "read-only attribute", attr);
    default:
        if (gc_conn_is_statement_option(attr))
            return gc_conn_set_statement_option(c, attr, v);
        return attr_error(c, "HY092", "invalid attribute", attr);
    }
}

static SQLRETURN put_uint(SQLPOINTER value, SQLINTEGER *string_length, SQLUINTEGER v)
{
    if (value != NULL)
        *(SQLUINTEGER *)value = v;
    if (string_length != NULL)
        *string_length = (SQLINTEGER)sizeof(SQLUINTEGER);
    return SQL_SUCCESS;
}

/* The server's default isolation level, read once and remembered: the
 * attribute reports what transactions really get. */
static SQLUINTEGER server_isolation(gc_conn *c)
{
    if (c->txn_isolation != 0)
        return c->txn_isolation;
    if (!gc_conn_is_connected(c))
        return SQL_TXN_READ_COMMITTED;
    gc_error err;
    gc_error_clear(&err);
    PGresult *res = gc_conn_exec(c, "SHOW default_transaction_isolation", &err);
    SQLUINTEGER level = SQL_TXN_READ_COMMITTED;
    if (res != NULL && PQntuples(res) == 1) {
        const char *s = PQgetvalue(res, 0, 0);
        if (strcmp(s, "serializable") == 0)
            level = SQL_TXN_SERIALIZABLE;
        else if (strcmp(s, "repeatable read") == 0)
            level = SQL_TXN_REPEATABLE_READ;
        else if (strcmp(s, "read uncommitted") == 0)
            level = SQL_TXN_READ_UNCOMMITTED;
    }
    PQclear(res);
    return level;
}

/* GCODBC_ATTR_LAST_MEMBER: the member that ran the last statement ("" before
 * any); on a general connection, its server as host:port. */
static const char *last_member_name(gc_conn *c)
{
    return c->kind->last_member_name(c);
}

SQLRETURN gc_conn_get_attr(gc_conn *c, SQLINTEGER attr, SQLPOINTER value,
                           SQLINTEGER buffer_length, SQLINTEGER *string_length,
                           bool wide)
{
    gc_strout out = { .buffer = value, .buffer_length = buffer_length,
                      .wide = wide, .unit = GC_LEN_BYTES };
    switch (attr) {
    case SQL_ATTR_AUTOCOMMIT:
        return put_uint(value, string_length,
                        c->autocommit ? SQL_AUTOCOMMIT_ON : SQL_AUTOCOMMIT_OFF);
    case SQL_ATTR_TXN_ISOLATION:
        return put_uint(value, string_length, server_isolation(c));
    case SQL_ATTR_ACCESS_MODE:
        return put_uint(value, string_length, c->access_mode);
    case SQL_ATTR_LOGIN_TIMEOUT:
        return put_uint(value, string_length, c->login_timeout);
    case SQL_ATTR_CONNECTION_TIMEOUT:
        return put_uint(value, string_length, c->connection_timeout);
    case SQL_ATTR_QUERY_TIMEOUT:
        if (value != NULL)
            *(SQLULEN *)value = c->query_timeout_default;
        if (string_length != NULL)
            *string_length = (SQLINTEGER)sizeof(SQLULEN);
        return SQL_SUCCESS;
    case SQL_ATTR_METADATA_ID:
        return put_uint(value, string_length, c->metadata_id);
    case SQL_ATTR_ASYNC_ENABLE:
        return put_uint(value, string_length, c->async_enable);
    case SQL_ATTR_AUTO_IPD:
        /* The IPD is filled only by SQLBindParameter, never by the driver. */
        return put_uint(value, string_length, SQL_FALSE);
    case SQL_ATTR_CONNECTION_DEAD:
        return put_uint(value, string_length, c->kind->alive(c) ? SQL_CD_FALSE : SQL_CD_TRUE);
    case SQL_ATTR_PACKET_SIZE:
        return put_uint(value, string_length, c->packet_size);
    case GC_ATTR_PSQLODBC_BATCHSIZE:
        return put_uint(value, string_length, c->psqlodbc_batch_size);
    case SQL_ATTR_ODBC_CURSORS:
        return put_uint(value, string_length, c->odbc_cursors);
    case SQL_ATTR_TRACE:
        return put_uint(value, string_length, SQL_OPT_TRACE_OFF);
    case SQL_ATTR_TRANSLATE_OPTION:
        return put_uint(value, string_length, 0);
    case SQL_ATTR_QUIET_MODE:
        if (value != NULL)
            *(SQLPOINTER *)value = c->quiet_mode;
        if (string_length != NULL)
            *string_length = (SQLINTEGER)sizeof(SQLPOINTER);
        return SQL_SUCCESS;
    case SQL_ATTR_CURRENT_CATALOG: {
        const char *db = gc_conn_is_connected(c) ? gc_session_database(c->session)
                                                 : c->settings.database;
        return gc_strout_put_int(&out, db, string_length, &c->h.diag);
    }
    case SQL_ATTR_TRACEFILE:
    case SQL_ATTR_TRANSLATE_LIB:
        return gc_strout_put_int(&out, "", string_length, &c->h.diag);
    case GCODBC_ATTR_LAST_MEMBER:
        return gc_strout_put_int(&out, last_member_name(c), string_length, &c->h.diag);
    case GCODBC_ATTR_DRIVER_VERSION:
        return gc_strout_put_int(&out, GCODBC_DRIVER_VER, string_length, &c->h.diag);
    case GCODBC_ATTR_CATALOG_VERSION: {
        SQLBIGINT v = c->kind->catalog_version(c);
        if (value != NULL)
            *(SQLBIGINT *)value = v;
        if (string_length != NULL)
            *string_length = (SQLINTEGER)sizeof v;
        return SQL_SUCCESS;
    }
    default:
        return attr_error(c, "HY092", "invalid attribute", attr);
    }
}
