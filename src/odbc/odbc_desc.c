/*
 * odbc_desc: SQLGetDescField(W), SQLSetDescField(W), SQLGetDescRec(W),
 * SQLSetDescRec, SQLCopyDesc.
 */
#include <stdlib.h>

#include "core/gc_desc.h"
#include "core/gc_stmt.h"
#include "odbc/odbc_entry.h"

#define ENTER_DESC(h, d)                 \
    gc_desc *d = gc_odbc_enter_desc(h);  \
    if (d == NULL)                       \
        return SQL_INVALID_HANDLE

SQLRETURN SQL_API SQLGetDescField(SQLHDESC h, SQLSMALLINT rec, SQLSMALLINT field,
                                  SQLPOINTER value, SQLINTEGER buffer_length,
                                  SQLINTEGER *string_length)
{
    ENTER_DESC(h, d);
    return gc_odbc_leave_desc(d, gc_desc_get_field(d, rec, field, value, buffer_length,
                                                   string_length, false));
}

SQLRETURN SQL_API SQLGetDescFieldW(SQLHDESC h, SQLSMALLINT rec, SQLSMALLINT field,
                                   SQLPOINTER value, SQLINTEGER buffer_length,
                                   SQLINTEGER *string_length)
{
    ENTER_DESC(h, d);
    return gc_odbc_leave_desc(d, gc_desc_get_field(d, rec, field, value, buffer_length,
                                                   string_length, true));
}

SQLRETURN SQL_API SQLSetDescField(SQLHDESC h, SQLSMALLINT rec, SQLSMALLINT field,
                                  SQLPOINTER value, SQLINTEGER buffer_length)
{
    ENTER_DESC(h, d);
    return gc_odbc_leave_desc(d, gc_desc_set_field(d, rec, field, value, buffer_length));
}

SQLRETURN SQL_API SQLSetDescFieldW(SQLHDESC h, SQLSMALLINT rec, SQLSMALLINT field,
                                   SQLPOINTER value, SQLINTEGER buffer_length)
{
    ENTER_DESC(h, d);
    SQLRETURN rc;
    if (field == SQL_DESC_NAME && value != NULL) {
        SQLINTEGER chars = buffer_length == SQL_NTS ? SQL_NTS
                                                    : buffer_length / (SQLINTEGER)sizeof(SQLWCHAR);
        char *name;
        rc = SQL_ERROR;
        if (gc_odbc_wide_arg(&d->h.diag, value, chars, &name))
            rc = gc_desc_set_field(d, rec, field, name, SQL_NTS);
        free(name);
    } else {
        rc = gc_desc_set_field(d, rec, field, value, buffer_length);
    }
    return gc_odbc_leave_desc(d, rc);
}

SQLRETURN SQL_API SQLGetDescRec(SQLHDESC h, SQLSMALLINT rec, SQLCHAR *name,
                                SQLSMALLINT buffer_length, SQLSMALLINT *name_length,
                                SQLSMALLINT *type, SQLSMALLINT *sub_type, SQLLEN *length,
                                SQLSMALLINT *precision, SQLSMALLINT *scale,
                                SQLSMALLINT *nullable)
{
    ENTER_DESC(h, d);
    gc_strout out = { name, buffer_length, false, GC_LEN_CHARS };
    return gc_odbc_leave_desc(d, gc_desc_get_rec(d, rec, &out, name_length, type, sub_type,
                                                 length, precision, scale, nullable));
}

SQLRETURN SQL_API SQLGetDescRecW(SQLHDESC h, SQLSMALLINT rec, SQLWCHAR *name,
                                 SQLSMALLINT buffer_length, SQLSMALLINT *name_length,
                                 SQLSMALLINT *type, SQLSMALLINT *sub_type, SQLLEN *length,
                                 SQLSMALLINT *precision, SQLSMALLINT *scale,
                                 SQLSMALLINT *nullable)
{
    ENTER_DESC(h, d);
    gc_strout out = { name, buffer_length, true, GC_LEN_CHARS };
    return gc_odbc_leave_desc(d, gc_desc_get_rec(d, rec, &out, name_length, type, sub_type,
                                                 length, precision, scale, nullable));
}

SQLRETURN SQL_API SQLSetDescRec(SQLHDESC h, SQLSMALLINT rec, SQLSMALLINT type,
                                SQLSMALLINT sub_type, SQLLEN length, SQLSMALLINT precision,
                                SQLSMALLINT scale, SQLPOINTER data, SQLLEN *string_length,
                                SQLLEN *indicator)
{
    ENTER_DESC(h, d);
    return gc_odbc_leave_desc(d, gc_desc_set_rec(d, rec, type, sub_type, length, precision,
                                                 scale, data, string_length, indicator));
}

/* Both descriptors belong to connections whose locks are recursive; the
 * source's lock is taken while the target is held (same connection in
 * practice). */
SQLRETURN SQL_API SQLCopyDesc(SQLHDESC src_h, SQLHDESC dst_h)
{
    if (!gc_handle_is(src_h, GC_HANDLE_DESC))
        return SQL_INVALID_HANDLE;
    ENTER_DESC(dst_h, dst);
    gc_desc *src = src_h;
    bool other = src->conn != dst->conn;
    if (other)
        pthread_mutex_lock(&src->conn->lock);
    SQLRETURN rc;
    if (src->kind == GC_DESC_IRD && src->owner != NULL && src->owner->state != GC_STMT_CURSOR &&
        src->owner->state != GC_STMT_PREPARED) {
        gc_diag_add(&dst->h.diag, "HY007", 0, "associated statement is not prepared");
        rc = SQL_ERROR;
    } else {
        rc = gc_desc_copy(src, dst);
    }
    if (other)
        pthread_mutex_unlock(&src->conn->lock);
    return gc_odbc_leave_desc(dst, rc);
}
