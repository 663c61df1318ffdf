/*
 * gc_bookmark: bookmarks of static cursors. A row's bookmark is its 1-based
 * number in the buffered result set, a 4-byte unsigned integer; the same
 * value serves SQL_UB_VARIABLE (SQL_C_VARBOOKMARK, 4 bytes of binary) and
 * the fixed bookmarks of ODBC 2 (SQL_C_BOOKMARK and the integer types).
 * Bookmarks stay valid while the cursor is open, across commits.
 */
#include <stdint.h>
#include <string.h>

#include "core/gc_bookmark.h"
#include "core/gc_desc.h"

enum { BOOKMARK_BYTES = 4 };

/* Bytes a bookmark takes in a buffer of c_type (binary: 4). */
static SQLLEN bookmark_size(SQLSMALLINT c_type)
{
    return c_type == SQL_C_UBIGINT || c_type == SQL_C_SBIGINT ? 8 : BOOKMARK_BYTES;
}

SQLRETURN gc_bookmark_write(gc_stmt *s, int row, SQLSMALLINT c_type, void *buffer,
                            SQLLEN buffer_length, SQLLEN *indicator)
{
    uint32_t value = (uint32_t)row + 1;
    SQLLEN size = bookmark_size(c_type);
    if (indicator != NULL)
        *indicator = size;
    if (buffer == NULL)
        return SQL_SUCCESS;
    if (size == 8) {
        uint64_t wide = value;
        memcpy(buffer, &wide, sizeof wide);
        return SQL_SUCCESS;
    }
    if (c_type == SQL_C_VARBOOKMARK && buffer_length < BOOKMARK_BYTES) {
        memcpy(buffer, &value, (size_t)buffer_length);
        gc_diag_add(&s->h.diag, "01004", 0, "string data, right truncated: the bookmark");
        return SQL_SUCCESS_WITH_INFO;
    }
    memcpy(buffer, &value, sizeof value);
    return SQL_SUCCESS;
}

SQLRETURN gc_bookmark_store(gc_stmt *s, int row, SQLULEN slot)
{
    const gc_bookmark_bind *b = &s->bookmark_col;
    if (b->data_ptr == NULL && b->indicator_ptr == NULL)
        return SQL_SUCCESS;
    SQLLEN elem = b->c_type == SQL_C_VARBOOKMARK ? b->buffer_length : bookmark_size(b->c_type);
    return gc_bookmark_write(s, row, b->c_type,
                             gc_desc_bound_ptr(s->ard, b->data_ptr, slot, elem),
                             b->buffer_length,
                             gc_desc_bound_ptr(s->ard, b->indicator_ptr, slot, sizeof(SQLLEN)));
}

const void *gc_bookmark_bound_at(const gc_stmt *s, SQLULEN slot)
{
    const gc_bookmark_bind *b = &s->bookmark_col;
    SQLLEN elem = b->c_type == SQL_C_VARBOOKMARK ? b->buffer_length : bookmark_size(b->c_type);
    return gc_desc_bound_ptr(s->ard, b->data_ptr, slot, elem);
}

SQLLEN gc_bookmark_read(const void *p)
{
    uint32_t value;
    memcpy(&value, p, sizeof value);
    return (SQLLEN)value;
}

