/*
 * gc_bulk: SQLBulkOperations on static cursors. SQL_FETCH_BY_BOOKMARK
 * delivers the rows the bookmarks bound in column 0 name; SQL_ADD,
 * SQL_UPDATE_BY_BOOKMARK and SQL_DELETE_BY_BOOKMARK change rows through the
 * cursor (gc_cursor_write.c), which needs SQL_CONCUR_VALUES (HY092 on a
 * read-only cursor). Each rowset row gets its status; a row that fails
 * does not stop the others.
 */
#include "core/gc_bookmark.h"
#include "core/gc_cursor.h"
#include "core/gc_desc.h"
#include "core/gc_fetch.h"

/* The checks of SQLBulkOperations before the operation runs. */
static bool bulk_allowed(gc_stmt *s, SQLSMALLINT operation)
{
    if (s->state == GC_STMT_NEED_DATA) {
        gc_diag_add(&s->h.diag, "HY010", 0, "function sequence error: data at execution pending");
        return false;
    }
    if (operation != SQL_ADD && operation != SQL_UPDATE_BY_BOOKMARK &&
        operation != SQL_DELETE_BY_BOOKMARK && operation != SQL_FETCH_BY_BOOKMARK) {
        gc_diag_add(&s->h.diag, "HY092", 0, "invalid SQLBulkOperations operation %d",
                    (int)operation);
        return false;
    }
    if (operation != SQL_FETCH_BY_BOOKMARK && !gc_cursor_writable(s))
        return false;
    if (s->state != GC_STMT_CURSOR) {
        gc_diag_add(&s->h.diag, "24000", 0, "invalid cursor state: no cursor is open");
        return false;
    }
    if (!gc_cursor_scrollable(s)) {
        gc_diag_add(&s->h.diag, "HYC00", 0,
                    "optional feature not implemented: SQLBulkOperations needs a scrollable cursor");
        return false;
    }
    if (operation == SQL_ADD)
        return true;
    if (s->use_bookmarks == SQL_UB_OFF || s->bookmark_col.data_ptr == NULL) {
        gc_diag_add(&s->h.diag, "HY092", 0,
                    "operations by bookmark need SQL_ATTR_USE_BOOKMARKS and the bookmarks "
                    "bound in column 0");
        return false;
    }
    return true;
}

/* One rowset row of the operation; *status gets its row status. */
static SQLRETURN bulk_row(gc_stmt *s, SQLSMALLINT operation, SQLULEN slot,
                          SQLUSMALLINT *status)
{
    if (operation == SQL_ADD)
        return gc_cursor_add_row(s, slot, status);
    SQLLEN bookmark = gc_bookmark_read(gc_bookmark_bound_at(s, slot));
    SQLLEN row = gc_cursor_row_of_bookmark(s, bookmark);
    if (row < 0) {
        gc_error err;
        gc_error_set(&err, "HY111", 0, "invalid bookmark value %ld", (long)bookmark);
        gc_diag_add_error_at(&s->h.diag, &err, (SQLLEN)slot + 1, SQL_NO_COLUMN_NUMBER);
        *status = SQL_ROW_ERROR;
        return SQL_ERROR;
    }
    if (operation == SQL_UPDATE_BY_BOOKMARK)
        return gc_cursor_update_row(s, (int)row, slot, status);
    if (operation == SQL_DELETE_BY_BOOKMARK)
        return gc_cursor_delete_row(s, (int)row, slot, status);
    SQLRETURN rc = gc_fetch_store_slot(s, (int)row, (int)row, slot);
    *status = gc_cursor_row_status(s, (int)row, rc);
    return rc;
}

SQLRETURN gc_stmt_bulk_operations(gc_stmt *s, SQLSMALLINT operation)
{
    if (!bulk_allowed(s, operation) || gc_cursor_buffer(s) == SQL_ERROR)
        return SQL_ERROR;
    SQLULEN rows = s->ard->array_size;
    SQLUSMALLINT *status = s->ird->array_status_ptr;
    const SQLUSMALLINT *operations = s->ard->array_status_ptr;  /* SQL_ATTR_ROW_OPERATION_PTR */
    gc_row_tally tally = { 0 };
    for (SQLULEN slot = 0; slot < rows; slot++) {
        if (operations != NULL && operations[slot] == SQL_ROW_IGNORE)
            continue;
        SQLUSMALLINT row_status = SQL_ROW_ERROR;
        SQLRETURN rc = bulk_row(s, operation, slot, &row_status);
        if (status != NULL)
            status[slot] = row_status;
        gc_row_tally_add(&tally, rc);
    }
    /* SQLRowCount: the rows the call added, updated or deleted. */
    if (operation != SQL_FETCH_BY_BOOKMARK)
        s->row_count = tally.succeeded;
    if (s->ird->rows_processed_ptr != NULL)
        *s->ird->rows_processed_ptr = tally.rows;
    /* ODBC leaves the cursor position undefined: fetch again before SQLSetPos. */
    s->scroll.rowset_rows = 0;
    s->current_row = -1;
    SQLRETURN rc = gc_row_tally_rc(&tally);
    return rc == SQL_SUCCESS ? gc_stmt_rc_with_info(s, rc) : rc;
}
