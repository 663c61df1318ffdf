/*
 * gc_cursor: scrollable cursors (static, and keyset-driven ones whose rowsets
 * gc_cursor_keyset.c re-reads by key). At the first fetch the statement
 * buffers its whole current result set (gc_session_end_streaming copies what is
 * still on the wire into `block`), then each SQLFetchScroll picks a rowset
 * in it by the cursor positioning rules of ODBC's SQLFetchScroll. Positions
 * below are 1-based row numbers as in those rules: 0 is "before start",
 * n + 1 "after end". A keyset-driven cursor leaves out of its rowsets the
 * rows it deleted itself (and rows it added that a rollback took away), as
 * psqlODBC's do: its positions count the rows it shows, and a rowset's rows
 * need not follow each other in the buffered set (scroll.slot_rows). Rows
 * others delete stay in the rowsets as holes (SQL_ROW_DELETED).
 */
#include <assert.h>
#include <stdlib.h>

#include "core/gc_cursor.h"
#include "core/gc_fetch.h"

bool gc_cursor_scrollable(const gc_stmt *s)
{
    return s->cursor_type != SQL_CURSOR_FORWARD_ONLY;
}

void gc_cursor_reset(gc_stmt *s)
{
    s->scroll.rowset_start = -1;
    s->scroll.rowset_rows = 0;
    s->scroll.last_size = 0;
    s->scroll.keyset_checked = false;
    free(s->scroll.slot_rows);
    s->scroll.slot_rows = NULL;
    s->scroll.slots_cap = 0;
    gc_cursor_write_reset(s);
}

SQLLEN gc_cursor_set_rows(const gc_stmt *s)
{
    SQLLEN n = s->block != NULL ? PQntuples(s->block) : 0;
    if (s->max_rows > 0 && (SQLULEN)n > s->max_rows)
        n = (SQLLEN)s->max_rows;
    return n;
}

void gc_row_tally_add(gc_row_tally *t, SQLRETURN row_rc)
{
    t->rows++;
    t->succeeded += row_rc == SQL_SUCCESS;
    t->info = t->info || row_rc == SQL_SUCCESS_WITH_INFO;
    t->error = t->error || row_rc == SQL_ERROR;
}

SQLRETURN gc_row_tally_rc(const gc_row_tally *t)
{
    if (t->error && t->rows <= 1)
        return SQL_ERROR;
    return t->error || t->info ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS;
}

int gc_cursor_row_of_slot(const gc_stmt *s, SQLULEN slot)
{
    if (slot < s->scroll.rowset_rows)
        return s->scroll.slot_rows[slot];
    return (int)(s->scroll.rowset_start + (SQLLEN)slot);
}

/* Whether a keyset-driven cursor has rows it leaves out of its rowsets. */
static bool skips_rows(const gc_stmt *s)
{
    return s->cursor_type == SQL_CURSOR_KEYSET_DRIVEN && s->scroll.hidden_rows > 0;
}

/* Whether block row `row` is left out of the rowsets. */
static bool row_hidden(const gc_stmt *s, SQLLEN row)
{
    return skips_rows(s) && gc_cursor_row_hidden(s, (int)row);
}

/* How many of block rows [0, row) the rowsets show (row is at most n). */
static SQLLEN shown_before(const gc_stmt *s, SQLLEN row)
{
    if (!skips_rows(s))
        return row;
    SQLLEN shown = 0;
    for (SQLLEN r = 0; r < row; r++)
        shown += !row_hidden(s, r);
    return shown;
}

/* A bookmark is its row's 1-based number in the set (gc_bookmark.h). */
SQLLEN gc_cursor_row_of_bookmark(const gc_stmt *s, SQLLEN bookmark)
{
    if (bookmark < 1 || bookmark > gc_cursor_set_rows(s))
        return -1;
    return bookmark - 1;
}

bool gc_cursor_read_whole(gc_stmt *s)
{
    if (!s->set_complete)
        gc_session_end_streaming(&s->conn->session_owner);
    return s->set_complete;
}

/* An error that ended the set while it was read is reported here, once
 * (gc_result_next_row reports a set's error when the cursor reaches its end). */
SQLRETURN gc_cursor_buffer(gc_stmt *s)
{
    if (!gc_cursor_read_whole(s)) {
        gc_diag_add(&s->h.diag, "HY000", 0, "the result set could not be buffered");
        return SQL_ERROR;
    }
    if (s->set_error != NULL) {
        s->block_next = s->block != NULL ? PQntuples(s->block) : 0;
        return gc_result_next_row(s);
    }
    return SQL_SUCCESS;
}

/* The current rowset's first row as a position among the `shown` rows of
 * the first n (0 before start, shown + 1 after end). */
static SQLLEN current_position(const gc_stmt *s, SQLLEN n, SQLLEN shown)
{
    if (s->scroll.rowset_start < 0)
        return 0;
    if (s->scroll.rowset_start >= n)
        return shown + 1;
    return shown_before(s, s->scroll.rowset_start) + 1;
}

/* SQL_FETCH_ABSOLUTE's rule; *warn when the rowset was moved to row 1 (01S06).
 * A negative offset past the first row gives the first rowset with 01S06
 * however far it reaches, as psqlODBC does (ODBC's table puts the cursor
 * before the start when it reaches past a whole rowset): programs written
 * for psqlODBC count on the row. */
static SQLLEN absolute_position(SQLLEN offset, SQLLEN n, bool *warn)
{
    if (offset < 0) {
        if (-offset <= n)
            return n + offset + 1;
        *warn = true;
        return 1;
    }
    if (offset == 0)
        return 0;
    return offset <= n ? offset : n + 1;
}

/* The new rowset's first row for a move from `cur`, following the rules of
 * SQLFetchScroll. *warn when 01S06 applies (the move would start before
 * row 1 and the first rowset was fetched instead). */
static SQLLEN new_position(SQLSMALLINT orientation, SQLLEN offset, SQLLEN cur, SQLLEN n,
                           SQLLEN size, SQLLEN last_size, SQLLEN bookmark_pos, bool *warn)
{
    switch (orientation) {
    case SQL_FETCH_NEXT:
        if (cur == 0)
            return 1;
        if (cur > n || cur + last_size > n)
            return n + 1;
        return cur + last_size;
    case SQL_FETCH_PRIOR:
        if (cur <= 1)
            return 0;
        if (cur > n) {
            if (n < size) {
                *warn = true;
                return 1;
            }
            return n - size + 1;
        }
        if (cur <= size) {
            *warn = true;
            return 1;
        }
        return cur - size;
    case SQL_FETCH_RELATIVE:
        if ((cur == 0 && offset > 0) || (cur > n && offset < 0))
            return absolute_position(offset, n, warn);
        if (cur == 0)
            return 0;
        if (cur > n)
            return n + 1;
        if (cur + offset < 1) {
            if (cur == 1 || -offset > size)
                return 0;
            *warn = true;
            return 1;
        }
        return cur + offset > n ? n + 1 : cur + offset;
    case SQL_FETCH_ABSOLUTE:
        return absolute_position(offset, n, warn);
    case SQL_FETCH_FIRST:
        return 1;
    case SQL_FETCH_LAST:
        return size <= n ? n - size + 1 : 1;
    default:    /* SQL_FETCH_BOOKMARK */
        if (bookmark_pos + offset < 1)
            return 0;
        return bookmark_pos + offset > n ? n + 1 : bookmark_pos + offset;
    }
}

/* Whether the orientation is one a static cursor takes. */
static bool check_orientation(gc_stmt *s, SQLSMALLINT orientation)
{
    switch (orientation) {
    case SQL_FETCH_NEXT: case SQL_FETCH_PRIOR: case SQL_FETCH_FIRST:
    case SQL_FETCH_LAST: case SQL_FETCH_ABSOLUTE: case SQL_FETCH_RELATIVE:
        return true;
    case SQL_FETCH_BOOKMARK:
        if (s->use_bookmarks != SQL_UB_OFF)
            return true;
        gc_diag_add(&s->h.diag, "HY106", 0,
                    "fetch type out of range: SQL_FETCH_BOOKMARK needs SQL_ATTR_USE_BOOKMARKS");
        return false;
    default:
        gc_diag_add(&s->h.diag, "HY106", 0, "fetch type out of range: %d", (int)orientation);
        return false;
    }
}

/* Delivers the block rows of slot_rows[0, rows) as the rowset. */
static SQLRETURN deliver_rowset(gc_stmt *s, SQLULEN rows, const gc_rowset_out *out)
{
    gc_row_tally tally = { 0 };
    for (SQLULEN i = 0; i < rows; i++) {
        int row = s->scroll.slot_rows[i];
        SQLRETURN row_rc = gc_fetch_store_slot(s, row, row, i);
        if (out->status != NULL)
            out->status[i] = gc_cursor_row_status(s, row, row_rc);
        gc_row_tally_add(&tally, row_rc);
    }
    for (SQLULEN i = rows; out->status != NULL && i < out->size; i++)
        out->status[i] = SQL_ROW_NOROW;
    if (out->rows_fetched != NULL)
        *out->rows_fetched = rows;
    /* As a forward fetch: SQL_ERROR only for a failed one-row rowset. */
    if (tally.error && out->size > 1)
        return SQL_SUCCESS_WITH_INFO;
    return gc_row_tally_rc(&tally);
}

/* Where the fetch's rowset starts, as a position among the rows shown
 * (*shown of the first n); *warn for 01S06. SQL_FETCH_NEXT starts right
 * after the current rowset's last row, whatever was deleted in it. */
static SQLLEN fetch_position(const gc_stmt *s, SQLSMALLINT orientation, SQLLEN offset,
                             SQLLEN bookmark_row, SQLLEN size, SQLLEN n, SQLLEN *shown,
                             bool *warn)
{
    *shown = shown_before(s, n);
    SQLLEN cur = current_position(s, n, *shown);
    SQLLEN last_size = s->scroll.last_size > 0 ? (SQLLEN)s->scroll.last_size : size;
    if (skips_rows(s) && s->scroll.rowset_rows > 0 && cur >= 1 && cur <= *shown) {
        SQLLEN last_row = s->scroll.slot_rows[s->scroll.rowset_rows - 1];
        last_size = shown_before(s, last_row + 1) - (cur - 1);
    }
    SQLLEN bookmark_pos = bookmark_row >= 0 ? shown_before(s, bookmark_row) + 1 : 0;
    *warn = false;
    return new_position(orientation, offset, cur, *shown, size, last_size, bookmark_pos, warn);
}

/* Puts into slot_rows the block rows of the rowset that starts at shown
 * position pos: up to `size` rows; returns how many. */
static SQLULEN select_rows(gc_stmt *s, SQLLEN pos, SQLLEN n, SQLULEN size)
{
    SQLULEN rows = 0;
    SQLLEN seen = skips_rows(s) ? 0 : pos - 1;
    for (SQLLEN r = seen; r < n && rows < size; r++) {
        if (!row_hidden(s, r) && ++seen >= pos)
            s->scroll.slot_rows[rows++] = (int)r;
    }
    return rows;
}

/* Room in slot_rows for a rowset of `size` rows; HY001 when there is none. */
static bool reserve_slots(gc_stmt *s, SQLULEN size)
{
    if (size <= s->scroll.slots_cap)
        return true;
    int *slots = realloc(s->scroll.slot_rows, size * sizeof *slots);
    if (slots == NULL) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return false;
    }
    s->scroll.slot_rows = slots;
    s->scroll.slots_cap = size;
    return true;
}

/* Makes slot_rows[0, rows) the current rowset (at shown position pos) and
 * delivers it. */
static SQLRETURN deliver_current(gc_stmt *s, SQLLEN pos, SQLULEN rows,
                                 const gc_rowset_out *out)
{
    s->scroll.rowset_start = s->scroll.slot_rows[0];
    s->scroll.rowset_rows = rows;
    s->current_row = s->scroll.slot_rows[0];
    s->row_number = (SQLULEN)pos;
    return deliver_rowset(s, rows, out);
}

SQLRETURN gc_cursor_fetch(gc_stmt *s, SQLSMALLINT orientation, SQLLEN offset,
                          SQLLEN bookmark, const gc_rowset_out *out)
{
    if (!check_orientation(s, orientation))
        return SQL_ERROR;
    if (gc_cursor_buffer(s) == SQL_ERROR)
        return SQL_ERROR;
    gc_keyset_open(s);      /* 01S02 when the cursor has to become static */
    if (!reserve_slots(s, out->size) || gc_keyset_recheck_deleted(s) == SQL_ERROR)
        return SQL_ERROR;
    SQLLEN n = gc_cursor_set_rows(s);
    SQLLEN bookmark_row = -1;
    if (orientation == SQL_FETCH_BOOKMARK) {
        bookmark_row = gc_cursor_row_of_bookmark(s, bookmark);
        if (bookmark_row < 0) {
            gc_diag_add(&s->h.diag, "HY111", 0, "invalid bookmark value %ld", (long)bookmark);
            return SQL_ERROR;
        }
    }
    SQLLEN size = (SQLLEN)out->size;
    bool warn = false;
    SQLLEN shown = 0, pos = 0;
    SQLULEN rows = 0;
    /* SQL_FETCH_RELATIVE 0 fetches the current rowset again, also when
     * the cursor deleted its first row (psqlODBC shows it with its status). */
    if (orientation == SQL_FETCH_RELATIVE && offset == 0 && s->scroll.rowset_rows > 0 &&
        row_hidden(s, s->scroll.rowset_start)) {
        rows = s->scroll.rowset_rows < out->size ? s->scroll.rowset_rows : out->size;
        shown = shown_before(s, n);
        pos = shown_before(s, s->scroll.rowset_start) + 1;
        if (gc_keyset_reread(s, s->scroll.slot_rows, rows) == SQL_ERROR)
            return SQL_ERROR;
        s->scroll.last_size = out->size;
        return deliver_current(s, pos, rows, out);
    }
    /* A keyset-driven cursor re-reads the rowset's rows; when rows it
     * added are found gone, they are left out and the rowset is chosen
     * again. */
    for (;;) {
        pos = fetch_position(s, orientation, offset, bookmark_row, size, n, &shown, &warn);
        if (pos < 1 || pos > shown)
            break;
        rows = select_rows(s, pos, n, out->size);
        SQLLEN hidden = s->scroll.hidden_rows;
        if (gc_keyset_reread(s, s->scroll.slot_rows, rows) == SQL_ERROR)
            return SQL_ERROR;
        if (s->scroll.hidden_rows == hidden)
            break;
    }
    s->scroll.last_size = out->size;
    if (pos < 1 || pos > shown) {
        s->scroll.rowset_start = pos < 1 ? -1 : n;
        s->scroll.rowset_rows = 0;
        s->current_row = -1;
        s->row_number = 0;
        for (SQLULEN i = 0; out->status != NULL && i < out->size; i++)
            out->status[i] = SQL_ROW_NOROW;
        if (out->rows_fetched != NULL)
            *out->rows_fetched = 0;
        return SQL_NO_DATA;
    }
    SQLRETURN rc = deliver_current(s, pos, rows, out);
    if (warn && rc != SQL_ERROR) {
        /* psqlODBC's words for the absolute move, which its programs print. */
        gc_diag_add(&s->h.diag, "01S06", 0, "%s", orientation == SQL_FETCH_ABSOLUTE
                    ? "fetch absolute and before the beginning"
                    : "attempt to fetch before the result set returned the first rowset");
        rc = SQL_SUCCESS_WITH_INFO;
    }
    assert(s->block != NULL);
    return rc == SQL_SUCCESS ? gc_stmt_rc_with_info(s, rc) : rc;
}
