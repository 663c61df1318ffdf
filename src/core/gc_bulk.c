/*
 * gc_bulk: SQLBulkOperations. Of its operations a read-only static cursor
 * offers SQL_FETCH_BY_BOOKMARK: the bookmarks bound in column 0 pick the
 * rows delivered into the bound rowset. SQL_ADD and the updates and deletes
 * by bookmark need an updatable cursor (HY092 on a read-only one).
 */
#include "core/gc_cursor.h"

/* The checks of SQLBulkOperations before the operation runs. */
static bool bulk_allowed(gc_stmt *s, SQLSMALLINT operation)
{
    if (s->state == GC_STMT_NEED_DATA) {
        gc_diag_add(&s->h.diag, "HY010", 0, "function sequence error: data at execution pending");
        return false;
    }
    switch (operation) {
    case SQL_ADD:
    case SQL_UPDATE_BY_BOOKMARK:
    case SQL_DELETE_BY_BOOKMARK:
        gc_diag_add(&s->h.diag, "HY092", 0,
                    "the cursor is read-only (SQL_CONCUR_READ_ONLY): SQLBulkOperations "
                    "cannot add, update or delete rows");
        return false;
    case SQL_FETCH_BY_BOOKMARK:
        break;
    default:
        gc_diag_add(&s->h.diag, "HY092", 0, "invalid SQLBulkOperations operation %d",
                    (int)operation);
        return false;
    }
    if (s->state != GC_STMT_CURSOR) {
        gc_diag_add(&s->h.diag, "24000", 0, "invalid cursor state: no cursor is open");
        return false;
    }
    if (s->use_bookmarks == SQL_UB_OFF || !gc_cursor_scrollable(s)) {
        gc_diag_add(&s->h.diag, "HY092", 0,
                    "SQL_FETCH_BY_BOOKMARK needs bookmarks (SQL_ATTR_USE_BOOKMARKS) "
                    "on a scrollable cursor");
        return false;
    }
    if (s->bookmark_col.data_ptr == NULL) {
        gc_diag_add(&s->h.diag, "HY092", 0,
                    "SQL_FETCH_BY_BOOKMARK needs the bookmarks bound in column 0");
        return false;
    }
    if (s->scroll.last_size == 0) {
        gc_diag_add(&s->h.diag, "24000", 0, "invalid cursor state: fetch before SQLBulkOperations");
        return false;
    }
    return true;
}

/* SQL_FETCH_BY_BOOKMARK: each bound bookmark's row into its rowset slot;
 * a bookmark naming no row gets SQL_ROW_ERROR and HY111. */
static SQLRETURN fetch_by_bookmark(gc_stmt *s)
{
    SQLULEN rows = s->ard->array_size;
    SQLUSMALLINT *status = s->ird->array_status_ptr;
    bool info = false, error = false;
    for (SQLULEN slot = 0; slot < rows; slot++) {
        SQLLEN bookmark = gc_bookmark_read(gc_bookmark_bound_at(s, slot));
        SQLLEN row = gc_bookmark_row(s, bookmark);
        SQLRETURN rc;
        if (row < 0) {
            gc_error err;
            gc_error_set(&err, "HY111", 0, "invalid bookmark value %ld", (long)bookmark);
            gc_diag_add_error_at(&s->h.diag, &err, (SQLLEN)slot + 1, SQL_NO_COLUMN_NUMBER);
            rc = SQL_ERROR;
        } else {
            rc = gc_fetch_store_slot(s, (int)row, (int)row, slot);
        }
        if (status != NULL)
            status[slot] = gc_fetch_row_status(rc);
        info = info || rc == SQL_SUCCESS_WITH_INFO;
        error = error || rc == SQL_ERROR;
    }
    if (s->ird->rows_processed_ptr != NULL)
        *s->ird->rows_processed_ptr = rows;
    /* ODBC leaves the cursor position undefined: fetch again before SQLSetPos. */
    s->scroll.rowset_rows = 0;
    s->current_row = -1;
    if (error && rows == 1)
        return SQL_ERROR;
    return error || info ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS;
}

SQLRETURN gc_stmt_bulk_operations(gc_stmt *s, SQLSMALLINT operation)
{
    if (!bulk_allowed(s, operation))
        return SQL_ERROR;
    return fetch_by_bookmark(s);
}
