/*
 * odbc_stmt: the statement entry points that take no strings, and the ANSI
 * variants of those that do. Each checks the handle, locks the connection
 * (gc_odbc_enter_stmt) and calls the core; SQLCancel alone runs unlocked.
 */
#include <stdlib.h>

#include "core/gc_stmt.h"
#include "odbc/odbc_entry.h"

#define ENTER_STMT(h, s)                 \
    gc_stmt *s = gc_odbc_enter_stmt(h);  \
    if (s == NULL)                       \
        return SQL_INVALID_HANDLE

SQLRETURN SQL_API SQLPrepare(SQLHSTMT h, SQLCHAR *text, SQLINTEGER len)
{
    ENTER_STMT(h, s);
    return gc_odbc_leave_stmt(s, gc_stmt_prepare(s, (const char *)text, len));
}

SQLRETURN SQL_API SQLExecute(SQLHSTMT h)
{
    ENTER_STMT(h, s);
    return gc_odbc_leave_stmt(s, gc_stmt_execute(s));
}

SQLRETURN SQL_API SQLExecDirect(SQLHSTMT h, SQLCHAR *text, SQLINTEGER len)
{
    ENTER_STMT(h, s);
    return gc_odbc_leave_stmt(s, gc_stmt_exec_direct(s, (const char *)text, len));
}

SQLRETURN SQL_API SQLBindParameter(SQLHSTMT h, SQLUSMALLINT n, SQLSMALLINT io_type,
                                   SQLSMALLINT c_type, SQLSMALLINT sql_type,
                                   SQLULEN column_size, SQLSMALLINT digits,
                                   SQLPOINTER value, SQLLEN buffer_length, SQLLEN *ind)
{
    ENTER_STMT(h, s);
    return gc_odbc_leave_stmt(s, gc_stmt_bind_parameter(s, n, io_type, c_type, sql_type,
                                                        column_size, digits, value,
                                                        buffer_length, ind));
}

SQLRETURN SQL_API SQLNumParams(SQLHSTMT h, SQLSMALLINT *count)
{
    ENTER_STMT(h, s);
    return gc_odbc_leave_stmt(s, gc_stmt_num_params(s, count));
}

SQLRETURN SQL_API SQLDescribeParam(SQLHSTMT h, SQLUSMALLINT n, SQLSMALLINT *type,
                                   SQLULEN *size, SQLSMALLINT *digits,
                                   SQLSMALLINT *nullable)
{
    ENTER_STMT(h, s);
    return gc_odbc_leave_stmt(s, gc_stmt_describe_param(s, n, type, size, digits, nullable));
}

SQLRETURN SQL_API SQLParamData(SQLHSTMT h, SQLPOINTER *value)
{
    ENTER_STMT(h, s);
    return gc_odbc_leave_stmt(s, gc_stmt_param_data(s, value));
}

SQLRETURN SQL_API SQLPutData(SQLHSTMT h, SQLPOINTER data, SQLLEN len)
{
    ENTER_STMT(h, s);
    return gc_odbc_leave_stmt(s, gc_stmt_put_data(s, data, len));
}

SQLRETURN SQL_API SQLRowCount(SQLHSTMT h, SQLLEN *count)
{
    ENTER_STMT(h, s);
    return gc_odbc_leave_stmt(s, gc_stmt_row_count(s, count));
}

SQLRETURN SQL_API SQLNumResultCols(SQLHSTMT h, SQLSMALLINT *count)
{
    ENTER_STMT(h, s);
    return gc_odbc_leave_stmt(s, gc_stmt_num_result_cols(s, count));
}

SQLRETURN SQL_API SQLDescribeCol(SQLHSTMT h, SQLUSMALLINT col, SQLCHAR *name,
                                 SQLSMALLINT buffer_length, SQLSMALLINT *name_length,
                                 SQLSMALLINT *type, SQLULEN *size, SQLSMALLINT *digits,
                                 SQLSMALLINT *nullable)
{
    ENTER_STMT(h, s);
    gc_strout out = { name, buffer_length, false, GC_LEN_CHARS };
    return gc_odbc_leave_stmt(s, gc_stmt_describe_col(s, col, &out, name_length, type,
                                                      size, digits, nullable));
}

SQLRETURN SQL_API SQLColAttribute(SQLHSTMT h, SQLUSMALLINT col, SQLUSMALLINT field,
                                  SQLPOINTER str, SQLSMALLINT buffer_length,
                                  SQLSMALLINT *str_len, SQLLEN *num)
{
    ENTER_STMT(h, s);
    gc_strout out = { str, buffer_length, false, GC_LEN_BYTES };
    return gc_odbc_leave_stmt(s, gc_stmt_col_attribute(s, col, field, &out, str_len, num));
}

SQLRETURN SQL_API SQLBindCol(SQLHSTMT h, SQLUSMALLINT col, SQLSMALLINT c_type,
                             SQLPOINTER value, SQLLEN buffer_length, SQLLEN *ind)
{
    ENTER_STMT(h, s);
    return gc_odbc_leave_stmt(s, gc_stmt_bind_col(s, col, c_type, value, buffer_length, ind));
}

SQLRETURN SQL_API SQLFetch(SQLHSTMT h)
{
    ENTER_STMT(h, s);
    return gc_odbc_leave_stmt(s, gc_stmt_fetch(s, SQL_FETCH_NEXT, 0));
}

SQLRETURN SQL_API SQLFetchScroll(SQLHSTMT h, SQLSMALLINT orientation, SQLLEN offset)
{
    ENTER_STMT(h, s);
    return gc_odbc_leave_stmt(s, gc_stmt_fetch(s, orientation, offset));
}

SQLRETURN SQL_API SQLExtendedFetch(SQLHSTMT h, SQLUSMALLINT orientation, SQLLEN irow,
                                   SQLULEN *rows_fetched, SQLUSMALLINT *row_status)
{
    ENTER_STMT(h, s);
    return gc_odbc_leave_stmt(s, gc_stmt_extended_fetch(s, orientation, irow, rows_fetched,
                                                        row_status));
}

SQLRETURN SQL_API SQLSetPos(SQLHSTMT h, SQLSETPOSIROW row, SQLUSMALLINT operation,
                            SQLUSMALLINT lock_type)
{
    ENTER_STMT(h, s);
    return gc_odbc_leave_stmt(s, gc_stmt_set_pos(s, row, operation, lock_type));
}

SQLRETURN SQL_API SQLBulkOperations(SQLHSTMT h, SQLSMALLINT operation)
{
    ENTER_STMT(h, s);
    return gc_odbc_leave_stmt(s, gc_stmt_bulk_operations(s, operation));
}

SQLRETURN SQL_API SQLGetData(SQLHSTMT h, SQLUSMALLINT col, SQLSMALLINT c_type,
                             SQLPOINTER value, SQLLEN buffer_length, SQLLEN *ind)
{
    ENTER_STMT(h, s);
    return gc_odbc_leave_stmt(s, gc_stmt_get_data(s, col, c_type, value, buffer_length, ind));
}

SQLRETURN SQL_API SQLMoreResults(SQLHSTMT h)
{
    ENTER_STMT(h, s);
    return gc_odbc_leave_stmt(s, gc_stmt_more_results(s));
}

SQLRETURN SQL_API SQLCloseCursor(SQLHSTMT h)
{
    ENTER_STMT(h, s);
    return gc_odbc_leave_stmt(s, gc_stmt_close_cursor(s, true));
}

SQLRETURN SQL_API SQLFreeStmt(SQLHSTMT h, SQLUSMALLINT option)
{
    ENTER_STMT(h, s);
    return gc_odbc_leave_stmt(s, gc_stmt_free(s, option));
}

/* Unlocked on purpose: it must reach a statement whose call, in another
 * thread, holds the connection lock while waiting on the server. */
SQLRETURN SQL_API SQLCancel(SQLHSTMT h)
{
    if (!gc_handle_is(h, GC_HANDLE_STMT))
        return SQL_INVALID_HANDLE;
    return gc_stmt_cancel(h);
}

SQLRETURN SQL_API SQLSetStmtAttr(SQLHSTMT h, SQLINTEGER attr, SQLPOINTER value,
                                 SQLINTEGER len)
{
    ENTER_STMT(h, s);
    return gc_odbc_leave_stmt(s, gc_stmt_set_attr(s, attr, value, len));
}

SQLRETURN SQL_API SQLGetStmtAttr(SQLHSTMT h, SQLINTEGER attr, SQLPOINTER value,
                                 SQLINTEGER buffer_length, SQLINTEGER *string_length)
{
    ENTER_STMT(h, s);
    return gc_odbc_leave_stmt(s, gc_stmt_get_attr(s, attr, value, buffer_length,
                                                  string_length, false));
}

SQLRETURN SQL_API SQLGetCursorName(SQLHSTMT h, SQLCHAR *name, SQLSMALLINT buffer_length,
                                   SQLSMALLINT *name_length)
{
    ENTER_STMT(h, s);
    gc_strout out = { name, buffer_length, false, GC_LEN_CHARS };
    return gc_odbc_leave_stmt(s, gc_stmt_get_cursor_name(s, &out, name_length));
}

SQLRETURN SQL_API SQLSetCursorName(SQLHSTMT h, SQLCHAR *name, SQLSMALLINT len)
{
    ENTER_STMT(h, s);
    bool ok = true;
    char *copy = gc_odbc_ansi_in(name, len, &ok);
    SQLRETURN rc;
    if (!ok) {
        gc_diag_add(&s->h.diag, "HY090", 0, "invalid string or buffer length");
        rc = SQL_ERROR;
    } else {
        rc = gc_stmt_set_cursor_name(s, copy);
    }
    free(copy);
    return gc_odbc_leave_stmt(s, rc);
}
