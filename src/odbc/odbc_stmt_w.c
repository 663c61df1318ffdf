/*
 * odbc_stmt_w: the W (UTF-16) statement entry points. Text arguments become
 * UTF-8 for the core; text results go out through gc_strout as UTF-16.
 */
#include <stdlib.h>

#include "core/gc_stmt.h"
#include "odbc/odbc_entry.h"

#define ENTER_STMT(h, s)                 \
    gc_stmt *s = gc_odbc_enter_stmt(h);  \
    if (s == NULL)                       \
        return SQL_INVALID_HANDLE

SQLRETURN SQL_API SQLPrepareW(SQLHSTMT h, SQLWCHAR *text, SQLINTEGER len)
{
    ENTER_STMT(h, s);
    char *sql;
    SQLRETURN rc = SQL_ERROR;
    if (gc_odbc_wide_arg(&s->h.diag, text, len, &sql))
        rc = gc_stmt_prepare(s, sql, SQL_NTS);
    free(sql);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN SQL_API SQLExecDirectW(SQLHSTMT h, SQLWCHAR *text, SQLINTEGER len)
{
    ENTER_STMT(h, s);
    char *sql;
    SQLRETURN rc = SQL_ERROR;
    if (gc_odbc_wide_arg(&s->h.diag, text, len, &sql))
        rc = gc_stmt_exec_direct(s, sql, SQL_NTS);
    free(sql);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN SQL_API SQLDescribeColW(SQLHSTMT h, SQLUSMALLINT col, SQLWCHAR *name,
                                  SQLSMALLINT buffer_length, SQLSMALLINT *name_length,
                                  SQLSMALLINT *type, SQLULEN *size, SQLSMALLINT *digits,
                                  SQLSMALLINT *nullable)
{
    ENTER_STMT(h, s);
    gc_strout out = { name, buffer_length, true, GC_LEN_CHARS };
    return gc_odbc_leave_stmt(s, gc_stmt_describe_col(s, col, &out, name_length, type,
                                                      size, digits, nullable));
}

SQLRETURN SQL_API SQLColAttributeW(SQLHSTMT h, SQLUSMALLINT col, SQLUSMALLINT field,
                                   SQLPOINTER str, SQLSMALLINT buffer_length,
                                   SQLSMALLINT *str_len, SQLLEN *num)
{
    ENTER_STMT(h, s);
    gc_strout out = { str, buffer_length, true, GC_LEN_BYTES };
    return gc_odbc_leave_stmt(s, gc_stmt_col_attribute(s, col, field, &out, str_len, num));
}

SQLRETURN SQL_API SQLSetStmtAttrW(SQLHSTMT h, SQLINTEGER attr, SQLPOINTER value,
                                  SQLINTEGER len)
{
    ENTER_STMT(h, s);
    return gc_odbc_leave_stmt(s, gc_stmt_set_attr(s, attr, value, len));
}

SQLRETURN SQL_API SQLGetStmtAttrW(SQLHSTMT h, SQLINTEGER attr, SQLPOINTER value,
                                  SQLINTEGER buffer_length, SQLINTEGER *string_length)
{
    ENTER_STMT(h, s);
    return gc_odbc_leave_stmt(s, gc_stmt_get_attr(s, attr, value, buffer_length,
                                                  string_length, true));
}

SQLRETURN SQL_API SQLGetCursorNameW(SQLHSTMT h, SQLWCHAR *name, SQLSMALLINT buffer_length,
                                    SQLSMALLINT *name_length)
{
    ENTER_STMT(h, s);
    gc_strout out = { name, buffer_length, true, GC_LEN_CHARS };
    return gc_odbc_leave_stmt(s, gc_stmt_get_cursor_name(s, &out, name_length));
}

SQLRETURN SQL_API SQLSetCursorNameW(SQLHSTMT h, SQLWCHAR *name, SQLSMALLINT len)
{
    ENTER_STMT(h, s);
    char *copy;
    SQLRETURN rc = SQL_ERROR;
    if (gc_odbc_wide_arg(&s->h.diag, name, len, &copy))
        rc = gc_stmt_set_cursor_name(s, copy);
    free(copy);
    return gc_odbc_leave_stmt(s, rc);
}
