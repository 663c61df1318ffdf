/*
 * odbc_conn_w: the W (UTF-16) connection entry points. Arguments are turned
 * into UTF-8 and the same code as the ANSI variants runs.
 */
#include <stdlib.h>

#include "odbc/odbc_conn.h"

SQLRETURN SQL_API SQLConnectW(SQLHDBC hdbc, SQLWCHAR *dsn, SQLSMALLINT dsn_len,
                              SQLWCHAR *uid, SQLSMALLINT uid_len, SQLWCHAR *pwd,
                              SQLSMALLINT pwd_len)
{
    gc_conn *c = gc_odbc_enter_conn(hdbc);
    if (c == NULL)
        return SQL_INVALID_HANDLE;
    char *d = NULL, *u = NULL, *p = NULL;
    SQLRETURN rc = SQL_ERROR;
    if (gc_odbc_wide_arg(&c->h.diag, dsn, dsn_len, &d) &&
        gc_odbc_wide_arg(&c->h.diag, uid, uid_len, &u) &&
        gc_odbc_wide_arg(&c->h.diag, pwd, pwd_len, &p)) {
        c->wide_app = true;   /* wide SQL types for character columns */
        rc = gc_conn_connect(c, d, u, p);
    }
    free(d);
    free(u);
    free(p);
    return gc_odbc_leave_conn(c, rc);
}

SQLRETURN SQL_API SQLDriverConnectW(SQLHDBC hdbc, SQLHWND hwnd, SQLWCHAR *in,
                                    SQLSMALLINT in_len, SQLWCHAR *out,
                                    SQLSMALLINT out_max, SQLSMALLINT *out_len,
                                    SQLUSMALLINT completion)
{
    gc_conn *c = gc_odbc_enter_conn(hdbc);
    if (c == NULL)
        return SQL_INVALID_HANDLE;
    char *text;
    SQLRETURN rc = SQL_ERROR;
    if (gc_odbc_wide_arg(&c->h.diag, in, in_len, &text)) {
        gc_strout o = { .buffer = out, .buffer_length = out_max, .wide = true,
                        .unit = GC_LEN_CHARS };
        c->wide_app = true;   /* wide SQL types for character columns */
        rc = gc_odbc_driver_connect(c, text != NULL ? text : "", completion, &o, out_len);
    }
    free(text);
    return gc_odbc_leave_conn(c, rc);
}

SQLRETURN SQL_API SQLSetConnectAttrW(SQLHDBC hdbc, SQLINTEGER attr, SQLPOINTER value,
                                     SQLINTEGER length)
{
    gc_conn *c = gc_odbc_enter_conn(hdbc);
    if (c == NULL)
        return SQL_INVALID_HANDLE;
    if (!gc_odbc_conn_attr_is_string(attr))
        return gc_odbc_leave_conn(c, gc_conn_set_attr(c, attr, value, length));
    /* String attributes: length in bytes, or SQL_NTS. */
    SQLINTEGER units = length == SQL_NTS ? SQL_NTS
                       : (SQLINTEGER)(length / (SQLINTEGER)sizeof(SQLWCHAR));
    char *text;
    SQLRETURN rc = SQL_ERROR;
    if (gc_odbc_wide_arg(&c->h.diag, value, units, &text))
        rc = gc_conn_set_attr(c, attr, text, SQL_NTS);
    free(text);
    return gc_odbc_leave_conn(c, rc);
}

SQLRETURN SQL_API SQLGetConnectAttrW(SQLHDBC hdbc, SQLINTEGER attr, SQLPOINTER value,
                                     SQLINTEGER buffer_length, SQLINTEGER *string_length)
{
    gc_conn *c = gc_odbc_enter_conn(hdbc);
    if (c == NULL)
        return SQL_INVALID_HANDLE;
    return gc_odbc_leave_conn(c, gc_conn_get_attr(c, attr, value, buffer_length,
                                                  string_length, true));
}

SQLRETURN SQL_API SQLNativeSqlW(SQLHDBC hdbc, SQLWCHAR *in, SQLINTEGER in_len,
                                SQLWCHAR *out, SQLINTEGER out_max, SQLINTEGER *out_len)
{
    gc_conn *c = gc_odbc_enter_conn(hdbc);
    if (c == NULL)
        return SQL_INVALID_HANDLE;
    char *text;
    SQLRETURN rc = SQL_ERROR;
    if (gc_odbc_wide_arg(&c->h.diag, in, in_len, &text)) {
        gc_strout o = { .buffer = out, .buffer_length = out_max, .wide = true,
                        .unit = GC_LEN_CHARS };
        rc = gc_odbc_native_sql(c, text, &o, out_len);
    }
    free(text);
    return gc_odbc_leave_conn(c, rc);
}
