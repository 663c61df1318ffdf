/*
 * gc_stmt_attr: SQLSetStmtAttr / SQLGetStmtAttr. Array and binding
 * attributes live in the descriptors (ODBC defines them as descriptor fields).
 */
#include <stdint.h>

#include "core/gc_desc.h"
#include "core/gc_conn_kind.h"
#include "core/gc_stmt.h"

/* Makes `d` the statement's ARD or APD; NULL restores the implicit one. */
static SQLRETURN set_app_desc(gc_stmt *s, gc_desc **slot, gc_desc *implicit,
                              SQLPOINTER value)
{
    gc_desc *d = value;
    if (d == NULL || d == implicit) {
        *slot = implicit;
        return SQL_SUCCESS;
    }
    if (!gc_handle_is(d, GC_HANDLE_DESC) || d->kind != GC_DESC_EXPLICIT || d->conn != s->conn) {
        gc_diag_add(&s->h.diag, "HY017", 0,
                    "invalid use of an automatically allocated descriptor handle");
        return SQL_ERROR;
    }
    *slot = d;
    return SQL_SUCCESS;
}

/* An attribute only one value of which is supported: other values become
 * that value with 01S02. */
static SQLRETURN fixed_value(gc_stmt *s, SQLULEN *field, SQLULEN wanted, SQLULEN only,
                             const char *what)
{
    *field = only;
    if (wanted != only) {
        gc_diag_add(&s->h.diag, "01S02", 0, "option value changed: %s", what);
        return SQL_SUCCESS_WITH_INFO;
    }
    return SQL_SUCCESS;
}

/* The cursor attributes. Cursors are forward-only, static or keyset-driven
 * (a keyset cursor that cannot be had becomes static at the first fetch:
 * gc_cursor_keyset.c); a dynamic request gets a static cursor with 01S02,
 * a request for a scrollable one a static cursor. */
static SQLRETURN set_cursor_attr(gc_stmt *s, SQLINTEGER attr, SQLULEN v)
{
    switch (attr) {
    case SQL_ATTR_CURSOR_TYPE:
        if (v == SQL_CURSOR_FORWARD_ONLY || v == SQL_CURSOR_STATIC ||
            v == SQL_CURSOR_KEYSET_DRIVEN) {
            s->cursor_type = v;
            return SQL_SUCCESS;
        }
        if (v != SQL_CURSOR_DYNAMIC) {
            gc_diag_add(&s->h.diag, "HY024", 0, "invalid cursor type %lu", (unsigned long)v);
            return SQL_ERROR;
        }
        return fixed_value(s, &s->cursor_type, v, SQL_CURSOR_STATIC,
                           "dynamic cursors become static");
    case SQL_ATTR_CURSOR_SCROLLABLE:
        if (v != SQL_NONSCROLLABLE && v != SQL_SCROLLABLE) {
            gc_diag_add(&s->h.diag, "HY024", 0, "invalid SQL_ATTR_CURSOR_SCROLLABLE value");
            return SQL_ERROR;
        }
        s->cursor_type = v == SQL_SCROLLABLE ? SQL_CURSOR_STATIC : SQL_CURSOR_FORWARD_ONLY;
        return SQL_SUCCESS;
    case SQL_ATTR_CURSOR_SENSITIVITY:
        if (v == SQL_SENSITIVE) {
            gc_diag_add(&s->h.diag, "HYC00", 0, "sensitive cursors are not supported");
            return SQL_ERROR;
        }
        if (v != SQL_UNSPECIFIED && v != SQL_INSENSITIVE) {
            gc_diag_add(&s->h.diag, "HY024", 0, "invalid SQL_ATTR_CURSOR_SENSITIVITY value");
            return SQL_ERROR;
        }
        return SQL_SUCCESS;
    default:    /* SQL_ATTR_USE_BOOKMARKS */
        if (v != SQL_UB_OFF && v != SQL_UB_FIXED && v != SQL_UB_VARIABLE) {
            gc_diag_add(&s->h.diag, "HY024", 0, "invalid SQL_ATTR_USE_BOOKMARKS value");
            return SQL_ERROR;
        }
        s->use_bookmarks = v;
        return SQL_SUCCESS;
    }
}

/* SQL_ATTR_CONCURRENCY: read-only, optimistic by values or by row versions,
 * or locking (gc_cursor_write.c, gc_cursor_keyset.c: versions and locks
 * need a keyset cursor, and locks a transaction and a connection kind
 * that has them; otherwise the first fetch makes them values with 01S02). */
static SQLRETURN set_concurrency(gc_stmt *s, SQLULEN v)
{
    if (v != SQL_CONCUR_READ_ONLY && v != SQL_CONCUR_LOCK && v != SQL_CONCUR_ROWVER &&
        v != SQL_CONCUR_VALUES) {
        gc_diag_add(&s->h.diag, "HY024", 0, "invalid concurrency %lu", (unsigned long)v);
        return SQL_ERROR;
    }
    s->concurrency = v;
    return SQL_SUCCESS;
}

SQLRETURN gc_stmt_set_attr(gc_stmt *s, SQLINTEGER attr, SQLPOINTER value, SQLINTEGER len)
{
    SQLULEN v = (SQLULEN)(uintptr_t)value;
    switch (attr) {
    case SQL_ATTR_QUERY_TIMEOUT: s->query_timeout = v; return SQL_SUCCESS;
    case SQL_ATTR_MAX_ROWS: s->max_rows = v; return SQL_SUCCESS;
    case SQL_ATTR_MAX_LENGTH: s->max_length = v; return SQL_SUCCESS;
    case SQL_ATTR_NOSCAN: s->noscan = v; return SQL_SUCCESS;
    case SQL_ATTR_RETRIEVE_DATA: s->retrieve_data = v; return SQL_SUCCESS;
    case SQL_ATTR_METADATA_ID: s->metadata_id = v; return SQL_SUCCESS;
    case SQL_ATTR_CURSOR_TYPE:
    case SQL_ATTR_CURSOR_SCROLLABLE:
    case SQL_ATTR_CURSOR_SENSITIVITY:
    case SQL_ATTR_USE_BOOKMARKS:
        if (s->state == GC_STMT_CURSOR) {
            gc_diag_add(&s->h.diag, "HY011", 0,
                        "attribute cannot be set now: a cursor is open");
            return SQL_ERROR;
        }
        return set_cursor_attr(s, attr, v);
    case SQL_ATTR_FETCH_BOOKMARK_PTR: s->fetch_bookmark_ptr = value; return SQL_SUCCESS;
    case SQL_ATTR_CONCURRENCY:
        return set_concurrency(s, v);
    case SQL_ATTR_ASYNC_ENABLE:
        if (v != SQL_ASYNC_ENABLE_OFF) {
            gc_diag_add(&s->h.diag, "HYC00", 0, "asynchronous execution is not supported");
            return SQL_ERROR;
        }
        return SQL_SUCCESS;
    case SQL_ATTR_ENABLE_AUTO_IPD:
        if (v != SQL_FALSE) {
            gc_diag_add(&s->h.diag, "HYC00", 0, "automatic IPD population is not supported");
            return SQL_ERROR;
        }
        return SQL_SUCCESS;
    case SQL_ATTR_SIMULATE_CURSOR:
    case SQL_ATTR_KEYSET_SIZE:
        return SQL_SUCCESS;
    /* Row (ARD / IRD) attributes. */
    case SQL_ATTR_ROW_ARRAY_SIZE:
    case SQL_ROWSET_SIZE:
        if (v < 1) {
            gc_diag_add(&s->h.diag, "HY024", 0, "invalid row array size");
            return SQL_ERROR;
        }
        /* SQL_ROWSET_SIZE is SQLExtendedFetch's, apart from the ARD's. */
        if (attr == SQL_ROWSET_SIZE)
            s->ext_rowset_size = v;
        else
            s->ard->array_size = v;
        return SQL_SUCCESS;
    case SQL_ATTR_ROW_BIND_TYPE: s->ard->bind_type = (SQLINTEGER)v; return SQL_SUCCESS;
    case SQL_ATTR_ROW_BIND_OFFSET_PTR: s->ard->bind_offset_ptr = value; return SQL_SUCCESS;
    case SQL_ATTR_ROW_STATUS_PTR: s->ird->array_status_ptr = value; return SQL_SUCCESS;
    case SQL_ATTR_ROWS_FETCHED_PTR: s->ird->rows_processed_ptr = value; return SQL_SUCCESS;
    case SQL_ATTR_ROW_OPERATION_PTR: s->ard->array_status_ptr = value; return SQL_SUCCESS;
    /* Parameter (APD / IPD) attributes. */
    case SQL_ATTR_PARAMSET_SIZE:
        if (v < 1) {
            gc_diag_add(&s->h.diag, "HY024", 0, "invalid parameter set size");
            return SQL_ERROR;
        }
        s->apd->array_size = v;
        return SQL_SUCCESS;
    case SQL_ATTR_PARAM_BIND_TYPE: s->apd->bind_type = (SQLINTEGER)v; return SQL_SUCCESS;
    case SQL_ATTR_PARAM_BIND_OFFSET_PTR: s->apd->bind_offset_ptr = value; return SQL_SUCCESS;
    case SQL_ATTR_PARAM_OPERATION_PTR: s->apd->array_status_ptr = value; return SQL_SUCCESS;
    case SQL_ATTR_PARAM_STATUS_PTR: s->ipd->array_status_ptr = value; return SQL_SUCCESS;
    case SQL_ATTR_PARAMS_PROCESSED_PTR: s->ipd->rows_processed_ptr = value; return SQL_SUCCESS;
    case SQL_ATTR_APP_ROW_DESC: return set_app_desc(s, &s->ard, s->ard_implicit, value);
    case SQL_ATTR_APP_PARAM_DESC: return set_app_desc(s, &s->apd, s->apd_implicit, value);
    case SQL_ATTR_IMP_ROW_DESC:
    case SQL_ATTR_IMP_PARAM_DESC:
        gc_diag_add(&s->h.diag, "HY017", 0, "implementation descriptors cannot be replaced");
        return SQL_ERROR;
    case SQL_ATTR_ROW_NUMBER:
        gc_diag_add(&s->h.diag, "HY024", 0, "SQL_ATTR_ROW_NUMBER is read-only");
        return SQL_ERROR;
    default:
        gc_diag_add(&s->h.diag, "HY092", 0, "invalid statement attribute %d", (int)attr);
        return SQL_ERROR;
    }
}

/* Writes an SQLULEN-sized attribute (statement attributes are SQLULEN or pointers). */
static SQLRETURN put_ulen(SQLPOINTER value, SQLINTEGER *string_length, SQLULEN v)
{
    if (value != NULL)
        *(SQLULEN *)value = v;
    if (string_length != NULL)
        *string_length = sizeof(SQLULEN);
    return SQL_SUCCESS;
}

static SQLRETURN put_ptr(SQLPOINTER value, SQLINTEGER *string_length, const void *p)
{
    if (value != NULL)
        *(const void **)value = p;
    if (string_length != NULL)
        *string_length = sizeof(SQLPOINTER);
    return SQL_SUCCESS;
}

/* Reads an attribute into its ODBC width: SQLULEN or a pointer. */
static SQLRETURN get_attr_full_width(gc_stmt *s, SQLINTEGER attr, SQLPOINTER value,
                                     SQLINTEGER *string_length)
{
    switch (attr) {
    case SQL_ATTR_QUERY_TIMEOUT: return put_ulen(value, string_length, s->query_timeout);
    case SQL_ATTR_MAX_ROWS: return put_ulen(value, string_length, s->max_rows);
    case SQL_ATTR_MAX_LENGTH: return put_ulen(value, string_length, s->max_length);
    case SQL_ATTR_NOSCAN: return put_ulen(value, string_length, s->noscan);
    case SQL_ATTR_RETRIEVE_DATA: return put_ulen(value, string_length, s->retrieve_data);
    case SQL_ATTR_METADATA_ID: return put_ulen(value, string_length, s->metadata_id);
    case SQL_ATTR_CURSOR_TYPE: return put_ulen(value, string_length, s->cursor_type);
    case SQL_ATTR_CONCURRENCY: return put_ulen(value, string_length, s->concurrency);
    case SQL_ATTR_CURSOR_SCROLLABLE:
        return put_ulen(value, string_length, s->cursor_type == SQL_CURSOR_FORWARD_ONLY
                                                  ? SQL_NONSCROLLABLE : SQL_SCROLLABLE);
    case SQL_ATTR_CURSOR_SENSITIVITY:
        /* A keyset cursor sees others' updates and deletions, not insertions. */
        return put_ulen(value, string_length, s->cursor_type == SQL_CURSOR_KEYSET_DRIVEN
                                                  ? SQL_UNSPECIFIED : SQL_INSENSITIVE);
    case SQL_ATTR_USE_BOOKMARKS: return put_ulen(value, string_length, s->use_bookmarks);
    case SQL_ATTR_FETCH_BOOKMARK_PTR: return put_ptr(value, string_length, s->fetch_bookmark_ptr);
    case SQL_ATTR_ASYNC_ENABLE: return put_ulen(value, string_length, SQL_ASYNC_ENABLE_OFF);
    case SQL_ATTR_ENABLE_AUTO_IPD: return put_ulen(value, string_length, SQL_FALSE);
    case SQL_ATTR_SIMULATE_CURSOR: return put_ulen(value, string_length, SQL_SC_NON_UNIQUE);
    case SQL_ATTR_KEYSET_SIZE: return put_ulen(value, string_length, 0);
    case SQL_ATTR_ROW_NUMBER: return put_ulen(value, string_length, s->row_number);
    case SQL_ATTR_ROW_ARRAY_SIZE: return put_ulen(value, string_length, s->ard->array_size);
    case SQL_ROWSET_SIZE: return put_ulen(value, string_length, s->ext_rowset_size);
    case SQL_ATTR_ROW_BIND_TYPE: return put_ulen(value, string_length, (SQLULEN)s->ard->bind_type);
    case SQL_ATTR_ROW_BIND_OFFSET_PTR: return put_ptr(value, string_length, s->ard->bind_offset_ptr);
    case SQL_ATTR_ROW_STATUS_PTR: return put_ptr(value, string_length, s->ird->array_status_ptr);
    case SQL_ATTR_ROWS_FETCHED_PTR: return put_ptr(value, string_length, s->ird->rows_processed_ptr);
    case SQL_ATTR_ROW_OPERATION_PTR: return put_ptr(value, string_length, s->ard->array_status_ptr);
    case SQL_ATTR_PARAMSET_SIZE: return put_ulen(value, string_length, s->apd->array_size);
    case SQL_ATTR_PARAM_BIND_TYPE: return put_ulen(value, string_length, (SQLULEN)s->apd->bind_type);
    case SQL_ATTR_PARAM_BIND_OFFSET_PTR: return put_ptr(value, string_length, s->apd->bind_offset_ptr);
    case SQL_ATTR_PARAM_OPERATION_PTR: return put_ptr(value, string_length, s->apd->array_status_ptr);
    case SQL_ATTR_PARAM_STATUS_PTR: return put_ptr(value, string_length, s->ipd->array_status_ptr);
    case SQL_ATTR_PARAMS_PROCESSED_PTR: return put_ptr(value, string_length, s->ipd->rows_processed_ptr);
    case SQL_ATTR_APP_ROW_DESC: return put_ptr(value, string_length, s->ard);
    case SQL_ATTR_APP_PARAM_DESC: return put_ptr(value, string_length, s->apd);
    case SQL_ATTR_IMP_ROW_DESC: return put_ptr(value, string_length, s->ird);
    case SQL_ATTR_IMP_PARAM_DESC: return put_ptr(value, string_length, s->ipd);
    default:
        gc_diag_add(&s->h.diag, "HY092", 0, "invalid statement attribute %d", (int)attr);
        return SQL_ERROR;
    }
}

/* Whether an ODBC 2 application's SQLGetStmtOption reads attr as a 32-bit
 * value: all but the options 64-bit ODBC made SQLULEN (the row counts
 * and lengths, the bookmark, the row number). */
static bool odbc2_option_is_32_bits(SQLINTEGER attr)
{
    switch (attr) {
    case SQL_KEYSET_SIZE: case SQL_MAX_LENGTH: case SQL_MAX_ROWS: case SQL_ROWSET_SIZE:
    case SQL_GET_BOOKMARK: case SQL_ROW_NUMBER:
        return false;
    default:
        return true;
    }
}

/*
 * SQLGetStmtAttr. Integer attributes are SQLULEN, but many applications read
 * one into an SQLUINTEGER and say so with SQL_IS_UINTEGER (or SQL_IS_INTEGER)
 * as the buffer length: writing 8 bytes there would overwrite what follows
 * their variable, so the value is handed over in the 4 bytes they name. So
 * it is for an ODBC 2 application's SQLGetStmtOption, which the driver
 * manager passes on with SQL_MAX_OPTION_STRING_LENGTH as the length, for
 * the options that stayed 32-bit (SQL_CURSOR_TYPE, SQL_CONCURRENCY, ...).
 */
SQLRETURN gc_stmt_get_attr(gc_stmt *s, SQLINTEGER attr, SQLPOINTER value,
                           SQLINTEGER buffer_length, SQLINTEGER *string_length,
                           bool wide)
{
    bool narrow = buffer_length == SQL_IS_UINTEGER || buffer_length == SQL_IS_INTEGER ||
                  (buffer_length == SQL_MAX_OPTION_STRING_LENGTH && attr >= SQL_QUERY_TIMEOUT &&
                   attr <= SQL_ROW_NUMBER && odbc2_option_is_32_bits(attr));
    if (!narrow)
        return get_attr_full_width(s, attr, value, string_length);
    SQLULEN full = 0;
    SQLRETURN rc = get_attr_full_width(s, attr, &full, NULL);
    if (SQL_SUCCEEDED(rc)) {
        if (value != NULL)
            *(SQLUINTEGER *)value = (SQLUINTEGER)full;
        if (string_length != NULL)
            *string_length = sizeof(SQLUINTEGER);
    }
    return rc;
}
