/*
 * gc_setpos: SQLSetPos. SQL_POSITION moves the current row inside the
 * rowset (SQLGetData and SQL_ATTR_ROW_NUMBER follow it; on a forward-only
 * cursor, SQLGetData only: gc_fwd_rowset.h);
 * SQL_REFRESH delivers the rows again from the buffered set (a static cursor
 * sees its own changes, not others'; a keyset-driven one re-reads them);
 * SQL_UPDATE and SQL_DELETE change rows through the cursor
 * (gc_cursor_write.c) when its concurrency allows it
 * (HY092 on a read-only one), and so does SQL_ADD (ODBC 2's way of adding
 * rows, kept for its programs). SQL_LOCK_EXCLUSIVE locks the rows first
 * (until the transaction ends); SQL_LOCK_UNLOCK is HYC00, as PostgreSQL
 * cannot release a row lock earlier: docs/cursors.md.
 */
#include "core/gc_cursor.h"
#include "core/gc_desc.h"
#include "core/gc_fetch.h"

/* Row `row` (0: all) of a fetched rowset of rowset_rows rows. */
static bool row_in_rowset(gc_stmt *s, SQLSETPOSIROW row, SQLULEN rowset_rows)
{
    if (rowset_rows == 0) {
        gc_diag_add(&s->h.diag, "24000", 0, "invalid cursor state: no rowset was fetched");
        return false;
    }
    if (row > rowset_rows) {
        gc_diag_add(&s->h.diag, "HY107", 0, "row value out of range: %lu (rowset of %lu)",
                    (unsigned long)row, (unsigned long)rowset_rows);
        return false;
    }
    return true;
}

/* A forward-only cursor is only stood on a row of its last rowset, for
 * SQLGetData (SQL_GD_BLOCK): its rows are not kept beyond the rowset, so
 * they can be neither read again from the server nor changed. */
static bool forward_only_allowed(gc_stmt *s, SQLSETPOSIROW row, SQLUSMALLINT operation,
                                 SQLUSMALLINT lock_type)
{
    if (operation != SQL_POSITION || lock_type != SQL_LOCK_NO_CHANGE) {
        gc_diag_add(&s->h.diag, "HYC00", 0,
                    "optional feature not implemented: on a forward-only cursor SQLSetPos "
                    "only positions (SQL_POSITION with SQL_LOCK_NO_CHANGE)");
        return false;
    }
    if (!row_in_rowset(s, row, s->fwd.n_rows))
        return false;
    if (s->fwd.n_rows > 1 && !s->fwd.keeping) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory keeping the rowset's rows");
        return false;
    }
    return true;
}

/* The checks of SQLSetPos before the operation runs. */
static bool set_pos_allowed(gc_stmt *s, SQLSETPOSIROW row, SQLUSMALLINT operation,
                            SQLUSMALLINT lock_type)
{
    if (s->state == GC_STMT_NEED_DATA) {
        gc_diag_add(&s->h.diag, "HY010", 0, "function sequence error: data at execution pending");
        return false;
    }
    if (s->state != GC_STMT_CURSOR) {
        gc_diag_add(&s->h.diag, "24000", 0, "invalid cursor state: no cursor is open");
        return false;
    }
    if (operation > SQL_ADD) {
        gc_diag_add(&s->h.diag, "HY092", 0, "invalid SQLSetPos operation %u", operation);
        return false;
    }
    if (lock_type > SQL_LOCK_UNLOCK) {
        gc_diag_add(&s->h.diag, "HY092", 0, "invalid SQLSetPos lock type %u", lock_type);
        return false;
    }
    if (operation != SQL_POSITION && operation != SQL_REFRESH && !gc_cursor_writable(s))
        return false;
    if (lock_type == SQL_LOCK_UNLOCK) {
        gc_diag_add(&s->h.diag, "HYC00", 0,
                    "optional feature not implemented: SQL_LOCK_UNLOCK (PostgreSQL releases a "
                    "row lock only when the transaction ends)");
        return false;
    }
    if (!gc_cursor_scrollable(s))
        return forward_only_allowed(s, row, operation, lock_type);
    if (operation == SQL_ADD) {
        /* The rows come from the bound buffers, not from a fetched rowset. */
        if (row <= s->ard->array_size)
            return true;
        gc_diag_add(&s->h.diag, "HY107", 0, "row value out of range: %lu (row array of %lu)",
                    (unsigned long)row, (unsigned long)s->ard->array_size);
        return false;
    }
    return row_in_rowset(s, row, s->scroll.rowset_rows);
}

/* SQL_REFRESH: rows [first, last] of the rowset delivered again (re-read
 * from the server first on a keyset-driven cursor, unless the lock that
 * came with the call has just read them). */
static SQLRETURN refresh_rows(gc_stmt *s, SQLULEN first, SQLULEN last, bool just_read)
{
    SQLUSMALLINT *status = s->ird->array_status_ptr;
    gc_row_tally tally = { 0 };
    if (!just_read &&
        gc_keyset_reread(s, s->scroll.slot_rows + first, last - first + 1) == SQL_ERROR)
        return SQL_ERROR;
    for (SQLULEN slot = first; slot <= last; slot++) {
        int row = gc_cursor_row_of_slot(s, slot);
        SQLRETURN rc = gc_fetch_store_slot(s, row, row, slot);
        if (status != NULL)
            status[slot] = gc_cursor_row_status(s, row, rc);
        gc_row_tally_add(&tally, rc);
    }
    return gc_row_tally_rc(&tally);
}

/* SQL_UPDATE / SQL_DELETE of rowset rows [first, last], or SQL_ADD of the
 * bound rows [first, last]; with row 0 the rows SQL_ATTR_ROW_OPERATION_PTR
 * marks SQL_ROW_IGNORE are left alone. */
static SQLRETURN change_rows(gc_stmt *s, SQLUSMALLINT operation, SQLULEN first,
                             SQLULEN last, bool whole_rowset)
{
    SQLUSMALLINT *status = s->ird->array_status_ptr;
    const SQLUSMALLINT *operations = whole_rowset ? s->ard->array_status_ptr : NULL;
    gc_row_tally tally = { 0 };
    for (SQLULEN slot = first; slot <= last; slot++) {
        if (operations != NULL && operations[slot] == SQL_ROW_IGNORE)
            continue;
        int row = gc_cursor_row_of_slot(s, slot);
        SQLUSMALLINT row_status = SQL_ROW_ERROR;
        SQLRETURN rc;
        if (operation == SQL_ADD)
            rc = gc_cursor_add_row(s, slot, &row_status);
        else if (operation == SQL_UPDATE)
            rc = gc_cursor_update_row(s, row, slot, &row_status);
        else
            rc = gc_cursor_delete_row(s, row, slot, &row_status);
        if (status != NULL)
            status[slot] = row_status;
        gc_row_tally_add(&tally, rc);
    }
    s->row_count = tally.succeeded;     /* SQLRowCount: the rows this call changed */
    return gc_row_tally_rc(&tally);
}

SQLRETURN gc_stmt_set_pos(gc_stmt *s, SQLSETPOSIROW row, SQLUSMALLINT operation,
                          SQLUSMALLINT lock_type)
{
    if (!set_pos_allowed(s, row, operation, lock_type))
        return SQL_ERROR;
    /* SQL_ADD (ODBC 2's SQLBulkOperations(SQL_ADD), which ODBC 3 drivers
     * keep): row 0 adds every row of the bound array, appended to the set. */
    if (operation == SQL_ADD) {
        if (gc_cursor_buffer(s) == SQL_ERROR)
            return SQL_ERROR;
        SQLULEN last = row == 0 ? s->ard->array_size - 1 : row - 1;
        return change_rows(s, operation, row == 0 ? 0 : row - 1, last, row == 0);
    }
    if (!gc_cursor_scrollable(s)) {
        gc_fwd_rowset_position(&s->fwd, row);
        s->getdata_column = 0;
        s->getdata_offset = 0;
        return SQL_SUCCESS;
    }
    /* Row 0 is the whole rowset; the cursor then stands on its first row. */
    SQLULEN first = row == 0 ? 0 : row - 1;
    SQLULEN last = row == 0 ? s->scroll.rowset_rows - 1 : row - 1;
    s->current_row = gc_cursor_row_of_slot(s, first);
    s->row_number = (SQLULEN)s->current_row + 1;
    s->getdata_column = 0;
    s->getdata_offset = 0;
    bool locked = lock_type == SQL_LOCK_EXCLUSIVE;
    if (locked && gc_cursor_lock_rows(s, s->scroll.slot_rows + first, last - first + 1) ==
                      SQL_ERROR)
        return SQL_ERROR;
    if (operation == SQL_REFRESH)
        return refresh_rows(s, first, last, locked);
    if (operation == SQL_UPDATE || operation == SQL_DELETE)
        return change_rows(s, operation, first, last, row == 0);
    return SQL_SUCCESS;
}
