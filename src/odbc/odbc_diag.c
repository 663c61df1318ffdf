/*
 * odbc_diag: SQLGetDiagRec and SQLGetDiagField for every handle kind, ANSI
 * and W. Reading diagnostics never changes them: truncation is reported by
 * the return code only, not by a new record.
 */
#include <string.h>

#include "core/gc_strout.h"
#include "odbc/odbc_entry.h"

/* Puts s to out; the 01004 record gc_strout would add goes to a scratch area
 * (reading diagnostics must not add any). */
static SQLRETURN put_quiet(const gc_strout *out, const char *s, SQLLEN *len)
{
    gc_diag scratch;
    gc_diag_init(&scratch);
    SQLRETURN rc = gc_strout_put(out, s, len, &scratch);
    gc_diag_free(&scratch);
    return rc;
}

static SQLRETURN get_diag_rec(SQLSMALLINT type, SQLHANDLE handle, SQLSMALLINT rec,
                              SQLPOINTER sqlstate, SQLINTEGER *native,
                              SQLPOINTER message, SQLSMALLINT buffer_length,
                              SQLSMALLINT *text_length, bool wide)
{
    gc_handle *h = gc_odbc_lock_any(type, handle);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    SQLRETURN rc;
    if (rec < 1 || buffer_length < 0) {
        rc = SQL_ERROR;
    } else if (rec > h->diag.count) {
        rc = SQL_NO_DATA;
    } else {
        const gc_diag_record *r = &h->diag.records[rec - 1];
        if (sqlstate != NULL) {
            gc_strout so = { .buffer = sqlstate, .buffer_length = 6, .wide = wide,
                             .unit = GC_LEN_CHARS };
            put_quiet(&so, r->sqlstate, NULL);
        }
        if (native != NULL)
            *native = r->native;
        gc_strout mo = { .buffer = message, .buffer_length = buffer_length,
                         .wide = wide, .unit = GC_LEN_CHARS };
        SQLLEN len = 0;
        rc = put_quiet(&mo, r->message, &len);
        if (text_length != NULL)
            *text_length = len > 0x7fff ? 0x7fff : (SQLSMALLINT)len;
    }
    gc_odbc_unlock_any(type, handle);
    return rc;
}

SQLRETURN SQL_API SQLGetDiagRec(SQLSMALLINT type, SQLHANDLE handle, SQLSMALLINT rec,
                                SQLCHAR *sqlstate, SQLINTEGER *native, SQLCHAR *message,
                                SQLSMALLINT buffer_length, SQLSMALLINT *text_length)
{
    return get_diag_rec(type, handle, rec, sqlstate, native, message, buffer_length,
                        text_length, false);
}

SQLRETURN SQL_API SQLGetDiagRecW(SQLSMALLINT type, SQLHANDLE handle, SQLSMALLINT rec,
                                 SQLWCHAR *sqlstate, SQLINTEGER *native,
                                 SQLWCHAR *message, SQLSMALLINT buffer_length,
                                 SQLSMALLINT *text_length)
{
    return get_diag_rec(type, handle, rec, sqlstate, native, message, buffer_length,
                        text_length, true);
}

static SQLRETURN put_string_field(const char *s, SQLPOINTER value, SQLSMALLINT buffer_length,
                                  SQLSMALLINT *string_length, bool wide)
{
    if (buffer_length < 0 && value != NULL)
        return SQL_ERROR;
    gc_strout out = { .buffer = value, .buffer_length = buffer_length < 0 ? 0 : buffer_length,
                      .wide = wide, .unit = GC_LEN_BYTES };
    SQLLEN len = 0;
    SQLRETURN rc = put_quiet(&out, s, &len);
    if (string_length != NULL)
        *string_length = len > 0x7fff ? 0x7fff : (SQLSMALLINT)len;
    return rc;
}

/* The data source name of the handle's connection ("" for an environment). */
static const char *server_name(SQLSMALLINT type, SQLHANDLE handle)
{
    gc_conn *c = gc_odbc_handle_conn(type, handle);
    if (c == NULL || c->settings.dsn == NULL)
        return "";
    return c->settings.dsn;
}

static SQLRETURN header_field(gc_handle *h, SQLSMALLINT type, SQLSMALLINT field,
                              SQLPOINTER value, SQLSMALLINT buffer_length,
                              SQLSMALLINT *string_length, bool wide)
{
    bool is_stmt = type == SQL_HANDLE_STMT;
    switch (field) {
    case SQL_DIAG_NUMBER:
        if (value != NULL)
            *(SQLINTEGER *)value = h->diag.count;
        return SQL_SUCCESS;
    case SQL_DIAG_RETURNCODE:
        if (value != NULL)
            *(SQLRETURN *)value = h->diag.return_code;
        return SQL_SUCCESS;
    case SQL_DIAG_ROW_COUNT:
    case SQL_DIAG_CURSOR_ROW_COUNT:
        if (!is_stmt)
            return SQL_ERROR;
        if (value != NULL)
            *(SQLLEN *)value = field == SQL_DIAG_ROW_COUNT ? h->diag.row_count
                                                           : h->diag.cursor_row_count;
        return SQL_SUCCESS;
    case SQL_DIAG_DYNAMIC_FUNCTION:
        if (!is_stmt)
            return SQL_ERROR;
        return put_string_field(h->diag.dynamic_function, value, buffer_length,
                                string_length, wide);
    case SQL_DIAG_DYNAMIC_FUNCTION_CODE:
        if (!is_stmt)
            return SQL_ERROR;
        if (value != NULL)
            *(SQLINTEGER *)value = h->diag.dynamic_function_code;
        return SQL_SUCCESS;
    default:
        return SQL_ERROR;
    }
}

static bool is_header_field(SQLSMALLINT field)
{
    return field == SQL_DIAG_NUMBER || field == SQL_DIAG_RETURNCODE ||
           field == SQL_DIAG_ROW_COUNT || field == SQL_DIAG_CURSOR_ROW_COUNT ||
           field == SQL_DIAG_DYNAMIC_FUNCTION || field == SQL_DIAG_DYNAMIC_FUNCTION_CODE;
}

static SQLRETURN record_field(const gc_diag_record *r, SQLSMALLINT type,
                              SQLHANDLE handle, SQLSMALLINT field, SQLPOINTER value,
                              SQLSMALLINT buffer_length, SQLSMALLINT *string_length,
                              bool wide)
{
    switch (field) {
    case SQL_DIAG_SQLSTATE:
        return put_string_field(r->sqlstate, value, buffer_length, string_length, wide);
    case SQL_DIAG_MESSAGE_TEXT:
        return put_string_field(r->message, value, buffer_length, string_length, wide);
    case SQL_DIAG_CLASS_ORIGIN:
        return put_string_field(gc_diag_class_origin(r->sqlstate), value, buffer_length,
                                string_length, wide);
    case SQL_DIAG_SUBCLASS_ORIGIN:
        return put_string_field(gc_diag_subclass_origin(r->sqlstate), value,
                                buffer_length, string_length, wide);
    case SQL_DIAG_CONNECTION_NAME:
        return put_string_field("", value, buffer_length, string_length, wide);
    case SQL_DIAG_SERVER_NAME:
        return put_string_field(server_name(type, handle), value, buffer_length,
                                string_length, wide);
    case SQL_DIAG_NATIVE:
        if (value != NULL)
            *(SQLINTEGER *)value = r->native;
        return SQL_SUCCESS;
    case SQL_DIAG_ROW_NUMBER:
        if (value != NULL)
            *(SQLLEN *)value = r->row_number;
        return SQL_SUCCESS;
    case SQL_DIAG_COLUMN_NUMBER:
        if (value != NULL)
            *(SQLINTEGER *)value = r->column_number;
        return SQL_SUCCESS;
    default:
        return SQL_ERROR;
    }
}

static SQLRETURN get_diag_field(SQLSMALLINT type, SQLHANDLE handle, SQLSMALLINT rec,
                                SQLSMALLINT field, SQLPOINTER value,
                                SQLSMALLINT buffer_length, SQLSMALLINT *string_length,
                                bool wide)
{
    gc_handle *h = gc_odbc_lock_any(type, handle);
    if (h == NULL)
        return SQL_INVALID_HANDLE;
    SQLRETURN rc;
    if (is_header_field(field))
        rc = header_field(h, type, field, value, buffer_length, string_length, wide);
    else if (rec < 1)
        rc = SQL_ERROR;
    else if (rec > h->diag.count)
        rc = SQL_NO_DATA;
    else
        rc = record_field(&h->diag.records[rec - 1], type, handle, field, value,
                          buffer_length, string_length, wide);
    gc_odbc_unlock_any(type, handle);
    return rc;
}

SQLRETURN SQL_API SQLGetDiagField(SQLSMALLINT type, SQLHANDLE handle, SQLSMALLINT rec,
                                  SQLSMALLINT field, SQLPOINTER value,
                                  SQLSMALLINT buffer_length, SQLSMALLINT *string_length)
{
    return get_diag_field(type, handle, rec, field, value, buffer_length, string_length,
                          false);
}

SQLRETURN SQL_API SQLGetDiagFieldW(SQLSMALLINT type, SQLHANDLE handle, SQLSMALLINT rec,
                                   SQLSMALLINT field, SQLPOINTER value,
                                   SQLSMALLINT buffer_length, SQLSMALLINT *string_length)
{
    return get_diag_field(type, handle, rec, field, value, buffer_length, string_length,
                          true);
}
