/*
 * gc_bookmark: bookmarks (column 0), as written into and read from the
 * application's buffers. A bookmark is the row's 1-based position in the
 * cursor's set, written in 4 bytes.
 */
#ifndef GC_BOOKMARK_H
#define GC_BOOKMARK_H

#include "core/gc_stmt.h"

/* Writes the bookmark of block row `row` into a C buffer of c_type. */
SQLRETURN gc_bookmark_write(gc_stmt *s, int row, SQLSMALLINT c_type, void *buffer,
                            SQLLEN buffer_length, SQLLEN *indicator);
/* Writes the bookmark of block row `row` into the bound column 0 as row
 * `slot` of the rowset (no-op when column 0 is not bound). */
SQLRETURN gc_bookmark_store(gc_stmt *s, int row, SQLULEN slot);
/* Reads the bookmark at `p` (as bookmarks are written: 4 bytes). */
SQLLEN gc_bookmark_read(const void *p);
/* Pointer to the bookmark bound in column 0 for rowset row `slot`. */
const void *gc_bookmark_bound_at(const gc_stmt *s, SQLULEN slot);

#endif
