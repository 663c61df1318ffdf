/*
 * gc_fetch: storing a fetched row into the application's bound buffers,
 * shared by fetching, scrolling (gc_cursor.c), SQLSetPos and
 * SQLBulkOperations. The entry points (SQLFetch...) are in gc_stmt.h.
 */
#ifndef GC_FETCH_H
#define GC_FETCH_H

#include "core/gc_stmt.h"

/* Converts row `row` of block into the bound columns as row `slot` of the
 * rowset (conversion diagnostics carry slot + 1 as their row number). */
SQLRETURN gc_fetch_store_row(gc_stmt *s, int row, SQLULEN slot);
/* Row `slot` of the rowset: the bookmark of bookmark_row into column 0 (if
 * bound), and row `row` of block into the bound columns unless
 * SQL_ATTR_RETRIEVE_DATA is off. */
SQLRETURN gc_fetch_store_slot(gc_stmt *s, int row, int bookmark_row, SQLULEN slot);
/* The row status a store's return code stands for. */
SQLUSMALLINT gc_fetch_row_status(SQLRETURN row_rc);

#endif
