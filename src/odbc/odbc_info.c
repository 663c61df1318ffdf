/*
 * odbc_info: SQLGetInfo(W) and SQLGetFunctions.
 */
#include "core/gc_functions.h"
#include "core/gc_info.h"
#include "odbc/odbc_entry.h"

/* unixODBC asks for these two inside SQLEndTran, after the driver's
 * SQLEndTran returned and before it collects that call's diagnostics (a
 * server notice raised by COMMIT, for instance). Answering them must not
 * clear those diagnostics; the answers are constants and cannot fail. */
static bool keeps_diagnostics(SQLUSMALLINT info_type)
{
    return info_type == SQL_CURSOR_COMMIT_BEHAVIOR ||
           info_type == SQL_CURSOR_ROLLBACK_BEHAVIOR;
}

SQLRETURN SQL_API SQLGetInfo(SQLHDBC hdbc, SQLUSMALLINT info_type, SQLPOINTER value,
                             SQLSMALLINT buffer_length, SQLSMALLINT *string_length)
{
    if (keeps_diagnostics(info_type)) {
        gc_handle *h = gc_odbc_lock_any(SQL_HANDLE_DBC, hdbc);
        if (h == NULL)
            return SQL_INVALID_HANDLE;
        SQLRETURN rc = gc_info_get(hdbc, info_type, value, buffer_length, string_length,
                                   false);
        gc_odbc_unlock_any(SQL_HANDLE_DBC, hdbc);
        return rc;
    }
    gc_conn *c = gc_odbc_enter_conn(hdbc);
    if (c == NULL)
        return SQL_INVALID_HANDLE;
    return gc_odbc_leave_conn(c, gc_info_get(c, info_type, value, buffer_length,
                                             string_length, false));
}

SQLRETURN SQL_API SQLGetInfoW(SQLHDBC hdbc, SQLUSMALLINT info_type, SQLPOINTER value,
                              SQLSMALLINT buffer_length, SQLSMALLINT *string_length)
{
    gc_conn *c = gc_odbc_enter_conn(hdbc);
    if (c == NULL)
        return SQL_INVALID_HANDLE;
    return gc_odbc_leave_conn(c, gc_info_get(c, info_type, value, buffer_length,
                                             string_length, true));
}

SQLRETURN SQL_API SQLGetFunctions(SQLHDBC hdbc, SQLUSMALLINT function_id,
                                  SQLUSMALLINT *supported)
{
    gc_conn *c = gc_odbc_enter_conn(hdbc);
    if (c == NULL)
        return SQL_INVALID_HANDLE;
    return gc_odbc_leave_conn(c, gc_functions_get(c, function_id, supported));
}
