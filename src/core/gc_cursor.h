/*
 * gc_cursor: what the fetch, positioning and bookmark files of the statement
 * module share about rowsets (the entry points are in core/gc_stmt.h;
 * storing a fetched row is gc_fetch.h, bookmarks gc_bookmark.h).
 *
 * A scrollable cursor (static or keyset-driven) buffers the whole result set
 * at its first fetch in the statement's `block` (one PGresult, random
 * access), and every rowset is a window on it; a keyset-driven cursor
 * re-reads the rowset's rows by key first. Forward-only cursors keep streaming.
 */
#ifndef GC_CURSOR_H
#define GC_CURSOR_H

#include "core/gc_stmt.h"

/* Where a fetch writes its row count and row statuses, and how many rows a
 * rowset has: from the statement's attributes (SQLFetch, SQLFetchScroll)
 * or from SQLExtendedFetch's arguments. */
typedef struct gc_rowset_out {
    SQLULEN size;
    SQLULEN *rows_fetched;    /* may be NULL */
    SQLUSMALLINT *status;     /* may be NULL; `size` entries */
} gc_rowset_out;

/* What the rows of one call returned, for the call's return code. */
typedef struct gc_row_tally {
    SQLULEN rows;             /* rows the call worked on */
    SQLLEN succeeded;         /* of them, with SQL_SUCCESS */
    bool info, error;
} gc_row_tally;

/* --- gc_cursor.c --- */
void gc_row_tally_add(gc_row_tally *t, SQLRETURN row_rc);
/* SQL_ERROR when the call's only row failed; SQL_SUCCESS_WITH_INFO when a
 * row failed or warned; else SQL_SUCCESS. */
SQLRETURN gc_row_tally_rc(const gc_row_tally *t);
bool gc_cursor_scrollable(const gc_stmt *s);
/* Reads what of the current set is still on the wire into block; false
 * when the set could not be read whole (its error, if it ended in one, is
 * left in set_error for gc_cursor_buffer to report). */
bool gc_cursor_read_whole(gc_stmt *s);
/* Makes the whole current set sit in block (gc_cursor_read_whole);
 * SQL_ERROR with diagnostics when it could not or the set ended in an
 * error. */
SQLRETURN gc_cursor_buffer(gc_stmt *s);
/* Rows the cursor shows: the buffered set cut at SQL_ATTR_MAX_ROWS. */
SQLLEN gc_cursor_set_rows(const gc_stmt *s);
/* SQLFetchScroll / SQLExtendedFetch on a scrollable cursor; `bookmark` is
 * the bookmark SQL_FETCH_BOOKMARK starts from (0: none given). */
SQLRETURN gc_cursor_fetch(gc_stmt *s, SQLSMALLINT orientation, SQLLEN offset,
                          SQLLEN bookmark, const gc_rowset_out *out);
/* Block row of rowset row `slot` (0-based). */
int gc_cursor_row_of_slot(const gc_stmt *s, SQLULEN slot);
/* The 0-based row of the set a bookmark value names; -1 when it names none. */
SQLLEN gc_cursor_row_of_bookmark(const gc_stmt *s, SQLLEN bookmark);

/* --- gc_cursor_write.c --- */
/* Frees what the cursor learnt about its table and its changed rows. */
void gc_cursor_write_reset(gc_stmt *s);
/* The status of block row `row` after a store that returned row_rc: the
 * store's, or what the cursor did to the row (SQL_ROW_UPDATED...). */
SQLUSMALLINT gc_cursor_row_status(const gc_stmt *s, int row, SQLRETURN row_rc);
/* SQL_UPDATE / SQL_DELETE of rowset row `slot` (block row `row`), with the
 * new values from the bound buffers of `slot`; *status gets the row status. */
SQLRETURN gc_cursor_update_row(gc_stmt *s, int row, SQLULEN slot, SQLUSMALLINT *status);
SQLRETURN gc_cursor_delete_row(gc_stmt *s, int row, SQLULEN slot, SQLUSMALLINT *status);
/* SQL_ADD: inserts the bound values of `slot` and appends the row to the set. */
SQLRETURN gc_cursor_add_row(gc_stmt *s, SQLULEN slot, SQLUSMALLINT *status);
/* Whether the cursor may change rows (SQL_CONCUR_VALUES); HY092 if not. */
bool gc_cursor_writable(gc_stmt *s);
/* What happened to block row `row` (0, or SQL_ROW_UPDATED / _DELETED /
 * _ADDED) and recording it; false on OOM. */
SQLUSMALLINT gc_cursor_row_mark(const gc_stmt *s, int row);
bool gc_cursor_mark_row(gc_stmt *s, int row, SQLUSMALLINT mark);
/* Marks block row `row` deleted and left out of a keyset-driven cursor's
 * later rowsets: the cursor deleted it, or a row it added is gone (a
 * rollback undid the insert). Rows others delete stay, as holes. False on
 * OOM. */
bool gc_cursor_hide_row(gc_stmt *s, int row);
bool gc_cursor_row_hidden(const gc_stmt *s, int row);
/* SQL_CONCUR_ROWVER: block row `row`'s version (its xmin, 0 when not read)
 * and recording the text of one; false on OOM. */
uint32_t gc_cursor_row_version(const gc_stmt *s, int row);
bool gc_cursor_set_version(gc_stmt *s, int row, const char *xmin);

/* --- gc_cursor_keyset.c --- */
/* Once per set, before its first rowset: keeps a keyset-driven cursor
 * when the set has one table's primary key, else makes the cursor static,
 * and makes LOCK or ROWVER concurrency VALUES where the cursor cannot give
 * it (SQL_SUCCESS_WITH_INFO, 01S02). */
SQLRETURN gc_keyset_open(gc_stmt *s);
/* As an execute that opened a cursor ends (rc is its result): a scrollable
 * cursor that will re-read or change rows is opened at once
 * (gc_keyset_open), so that the execute reports what the cursor became, as
 * ODBC and psqlODBC report it. On a global connection this is also while
 * the member that described the set is the connection's: the next
 * statement on another handle may run on another member, which knows no
 * such table oid. */
SQLRETURN gc_keyset_open_at_execute(gc_stmt *s, SQLRETURN rc);
/* Re-reads the `count` block rows of `rows` from the server by key (one
 * query), marking changed rows updated and vanished ones deleted; no-op
 * unless the cursor is keyset-driven. */
SQLRETURN gc_keyset_reread(gc_stmt *s, const int *rows, SQLULEN count);
/* In a transaction, looks again for the rows a keyset-driven cursor has
 * marked deleted while it has rows it hides (a rollback to a savepoint may
 * have undone the deletion): those found are shown again. One query per
 * 60,000 key values. */
SQLRETURN gc_keyset_recheck_deleted(gc_stmt *s);
/* SQLSetPos SQL_LOCK_EXCLUSIVE: locks the `count` block rows of `rows` by
 * key (SELECT ... FOR UPDATE; on a global connection a query per row, each
 * on its owner) until the transaction ends; a keyset cursor takes the
 * values read. HYC00 with autocommit on or without a key. */
SQLRETURN gc_cursor_lock_rows(gc_stmt *s, const int *rows, SQLULEN count);

#endif
