/*
 * gc_cursor_target: the table a static cursor's rows are written back to.
 * A cursor can change rows when all its columns that come from a table come
 * from one table, and either that table's primary key columns are all in
 * the select list (a row is found again by its key), or every column of the
 * table is (a row is found by all its values: rows equal in every column
 * cannot be told apart, so any one of them is the row; not a partitioned
 * table's on a global connection, where the key also finds the row's
 * owner group). docs/cursors.md says why not ctid.
 */
#ifndef GC_CURSOR_TARGET_H
#define GC_CURSOR_TARGET_H

#include "core/gc_stmt.h"

typedef struct gc_write_target {
    char *table;              /* owned; the table as regclass prints it (quoted) */
    int ncols;                /* the result's columns */
    char **column;            /* owned; column i's quoted name in the table,
                                 NULL for a computed column */
    bool *key;                /* column i is part of the primary key */
    int *attnum;              /* column i's number in the table (0: computed) */
    bool by_values;           /* no usable key: rows are found by all columns */
} gc_write_target;

/* The target of s's current set, found (with a catalog query) at the first
 * call and kept in s->scroll.target; NULL with diagnostics when the set
 * cannot be written back. */
const gc_write_target *gc_cursor_target(gc_stmt *s);
void gc_cursor_target_free(gc_write_target *t);

/* Runs a statement on the cursor's table's rows, with text parameters, on
 * a helper statement of s's connection and returns its complete result
 * (caller owns; NULL with s's diagnostics on an error). *row_count gets
 * the command's row count. On a global connection it runs as the
 * application's prepared statement would: routed by the key it gives, so
 * a row is read or changed on its owner group, in the open transaction. */
PGresult *gc_cursor_run(gc_stmt *s, const char *sql, int nparams,
                        const char *const *values, SQLLEN *row_count);
/* The driver's catalog query about the set's tables, on the connection's
 * current session (on a global connection, the caller makes sure that is
 * the member that described the set: gc_result_described_by_current_session). */
PGresult *gc_cursor_run_catalog(gc_stmt *s, const char *sql, int nparams,
                                const char *const *values);

#endif
