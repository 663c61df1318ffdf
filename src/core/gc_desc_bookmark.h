/*
 * gc_desc_bookmark: record 0 of a statement's descriptors, the bookmark
 * column. Its binding lives in the statement (gc_stmt.bookmark_col, used by
 * SQLBindCol, the fetch and the bookmark code); the descriptor functions
 * and SQLDescribeCol / SQLColAttribute see it through the views built here,
 * so there is one copy of it and nothing to keep in sync.
 */
#ifndef GC_DESC_BOOKMARK_H
#define GC_DESC_BOOKMARK_H

#include "core/gc_desc.h"

/* Describes the bookmark column as IRD record 0 into *out (no owned
 * strings): SQL_BINARY of 4 bytes for variable-length bookmarks,
 * SQL_INTEGER for the fixed ones of ODBC 2 (SQL_UB_FIXED, or an ODBC 2
 * application), never NULL. */
void gc_desc_bookmark_describe(const gc_stmt *s, gc_desc_rec *out);

/* Record 0 of descriptor d as a view: d's statement's bookmark binding when
 * d is an ARD in use by a statement, its description when d is an IRD with
 * bookmarks on. Otherwise adds 07009 to d and returns false. */
bool gc_desc_bookmark_view(gc_desc *d, gc_desc_rec *out);

/* Stores a view changed by SQLSetDescField / SQLSetDescRec back into the
 * statement's bookmark binding (d is a statement's ARD: the view came from
 * gc_desc_bookmark_view); false with HY021 on d when it binds a buffer of a
 * C type that cannot hold a bookmark. */
bool gc_desc_bookmark_store(gc_desc *d, const gc_desc_rec *view);

#endif
