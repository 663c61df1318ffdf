/*
 * odbc_conn: connection entry points (ANSI): connect, disconnect,
 * attributes, transactions, SQLNativeSql.
 */
#include <stdlib.h>
#include <string.h>

#include "odbc/odbc_conn.h"
#include "sql/gc_sql_rewrite.h"

SQLRETURN SQL_API SQLConnect(SQLHDBC hdbc, SQLCHAR *dsn, SQLSMALLINT dsn_len,
                             SQLCHAR *uid, SQLSMALLINT uid_len, SQLCHAR *pwd,
                             SQLSMALLINT pwd_len)
{
    gc_conn *c = gc_odbc_enter_conn(hdbc);
    if (c == NULL)
        return SQL_INVALID_HANDLE;
    bool ok1, ok2, ok3;
    char *d = gc_odbc_ansi_in(dsn, dsn_len, &ok1);
    char *u = gc_odbc_ansi_in(uid, uid_len, &ok2);
    char *p = gc_odbc_ansi_in(pwd, pwd_len, &ok3);
    SQLRETURN rc;
    if (!ok1 || !ok2 || !ok3) {
        gc_diag_add(&c->h.diag, "HY090", 0, "invalid string or buffer length");
        rc = SQL_ERROR;
    } else {
        c->wide_app = false;
        rc = gc_conn_connect(c, d, u, p);
    }
    free(d);
    free(u);
    free(p);
    return gc_odbc_leave_conn(c, rc);
}

SQLRETURN gc_odbc_driver_connect(gc_conn *c, const char *in, SQLUSMALLINT completion,
                                 const gc_strout *out, SQLSMALLINT *out_length)
{
    char *completed = NULL;
    SQLRETURN rc = gc_conn_driver_connect(c, in, SQL_NTS, completion, &completed);
    if (rc == SQL_ERROR)
        return rc;
    SQLRETURN put = gc_strout_put_small(out, completed, out_length, &c->h.diag);
    free(completed);
    if (put == SQL_ERROR) {
        gc_conn_disconnect(c);
        return SQL_ERROR;
    }
    return put == SQL_SUCCESS_WITH_INFO ? put : rc;
}

SQLRETURN SQL_API SQLDriverConnect(SQLHDBC hdbc, SQLHWND hwnd, SQLCHAR *in,
                                   SQLSMALLINT in_len, SQLCHAR *out,
                                   SQLSMALLINT out_max, SQLSMALLINT *out_len,
                                   SQLUSMALLINT completion)
{
    gc_conn *c = gc_odbc_enter_conn(hdbc);
    if (c == NULL)
        return SQL_INVALID_HANDLE;
    bool ok;
    char *text = gc_odbc_ansi_in(in, in_len, &ok);
    SQLRETURN rc;
    if (!ok) {
        gc_diag_add(&c->h.diag, "HY090", 0, "invalid string or buffer length");
        rc = SQL_ERROR;
    } else {
        gc_strout o = { .buffer = out, .buffer_length = out_max, .wide = false,
                        .unit = GC_LEN_CHARS };
        c->wide_app = false;
        rc = gc_odbc_driver_connect(c, text != NULL ? text : "", completion, &o, out_len);
    }
    free(text);
    return gc_odbc_leave_conn(c, rc);
}

SQLRETURN SQL_API SQLDisconnect(SQLHDBC hdbc)
{
    gc_conn *c = gc_odbc_enter_conn(hdbc);
    if (c == NULL)
        return SQL_INVALID_HANDLE;
    return gc_odbc_leave_conn(c, gc_conn_disconnect(c));
}

bool gc_odbc_conn_attr_is_string(SQLINTEGER attr)
{
    return attr == SQL_ATTR_CURRENT_CATALOG || attr == SQL_ATTR_TRACEFILE ||
           attr == SQL_ATTR_TRANSLATE_LIB;
}

SQLRETURN SQL_API SQLSetConnectAttr(SQLHDBC hdbc, SQLINTEGER attr, SQLPOINTER value,
                                    SQLINTEGER length)
{
    gc_conn *c = gc_odbc_enter_conn(hdbc);
    if (c == NULL)
        return SQL_INVALID_HANDLE;
    return gc_odbc_leave_conn(c, gc_conn_set_attr(c, attr, value, length));
}

SQLRETURN SQL_API SQLGetConnectAttr(SQLHDBC hdbc, SQLINTEGER attr, SQLPOINTER value,
                                    SQLINTEGER buffer_length, SQLINTEGER *string_length)
{
    gc_conn *c = gc_odbc_enter_conn(hdbc);
    if (c == NULL)
        return SQL_INVALID_HANDLE;
    return gc_odbc_leave_conn(c, gc_conn_get_attr(c, attr, value, buffer_length,
                                                  string_length, false));
}

SQLRETURN SQL_API SQLEndTran(SQLSMALLINT handle_type, SQLHANDLE handle,
                             SQLSMALLINT completion)
{
    if (handle_type == SQL_HANDLE_ENV) {
        gc_env *e = gc_odbc_enter_env(handle);
        if (e == NULL)
            return SQL_INVALID_HANDLE;
        return gc_odbc_leave_env(e, gc_conn_end_tran_env(e, completion));
    }
    if (handle_type != SQL_HANDLE_DBC)
        return SQL_INVALID_HANDLE;
    gc_conn *c = gc_odbc_enter_conn(handle);
    if (c == NULL)
        return SQL_INVALID_HANDLE;
    return gc_odbc_leave_conn(c, gc_conn_end_tran(c, completion));
}

/* Escapes are translated, `?` markers stay (the application will prepare
 * the text it gets back). */
SQLRETURN gc_odbc_native_sql(gc_conn *c, const char *in, const gc_strout *out,
                             SQLINTEGER *out_length)
{
    if (!gc_conn_is_connected(c)) {
        gc_diag_add(&c->h.diag, "08003", 0, "connection not open");
        return SQL_ERROR;
    }
    if (in == NULL) {
        gc_diag_add(&c->h.diag, "HY009", 0, "invalid use of null pointer");
        return SQL_ERROR;
    }
    gc_sql_rewritten rw = { 0 };
    gc_error err;
    gc_error_clear(&err);
    unsigned flags = GC_SQL_TRANSLATE_ESCAPES | gc_conn_sql_rewrite_flags(c);
    if (!gc_sql_rewrite(in, strlen(in), flags, &rw, &err)) {
        gc_diag_add_error(&c->h.diag, &err);
        return SQL_ERROR;
    }
    SQLRETURN rc = gc_strout_put_int(out, rw.text, out_length, &c->h.diag);
    gc_sql_rewritten_free(&rw);
    return rc;
}

SQLRETURN SQL_API SQLNativeSql(SQLHDBC hdbc, SQLCHAR *in, SQLINTEGER in_len,
                               SQLCHAR *out, SQLINTEGER out_max, SQLINTEGER *out_len)
{
    gc_conn *c = gc_odbc_enter_conn(hdbc);
    if (c == NULL)
        return SQL_INVALID_HANDLE;
    bool ok;
    char *text = gc_odbc_ansi_in(in, in_len, &ok);
    SQLRETURN rc;
    if (!ok) {
        gc_diag_add(&c->h.diag, "HY090", 0, "invalid string or buffer length");
        rc = SQL_ERROR;
    } else {
        gc_strout o = { .buffer = out, .buffer_length = out_max, .wide = false,
                        .unit = GC_LEN_CHARS };
        rc = gc_odbc_native_sql(c, text, &o, out_len);
    }
    free(text);
    return gc_odbc_leave_conn(c, rc);
}
