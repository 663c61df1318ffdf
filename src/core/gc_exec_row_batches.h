/*
 * gc_exec_row_batches: the transactions of an autocommit parameter array
 * that a global connection runs row by row (a row is a write across
 * groups, keys are drawn for it...). A general connection pipelines such
 * an array in batches of BatchSize rows, each batch one transaction; run
 * row by row, each row would be a transaction of its own, and the rows
 * before a failing one would stay where a general connection undoes their
 * batch. So the rows go in the same batches here: each batch is a
 * transaction of the connection (across groups when its rows are),
 * committed after its last row and rolled back when a row fails.
 * docs/parameter-arrays.md, "Transactions".
 */
#ifndef GC_EXEC_ROW_BATCHES_H
#define GC_EXEC_ROW_BATCHES_H

#include <stdbool.h>

#include "core/gc_stmt.h"

typedef struct gc_row_batches {
    SQLULEN size;     /* rows per transaction; 0: each row its own, as before */
    SQLULEN first;    /* the open batch's first row */
    bool open;        /* a batch's transaction is open (autocommit is off) */
} gc_row_batches;

/* Whether the rows rows of s about to run row by row go in batches, and
 * how many rows each. */
void gc_row_batches_start(gc_row_batches *b, gc_stmt *s, SQLULEN rows);

/* Before row runs: at a batch's boundary the open batch is committed and
 * the next one begins. False when the COMMIT failed: the batch's rows are
 * SQL_PARAM_ERROR, the error is the statement's, the array ends. */
bool gc_row_batches_before_row(gc_row_batches *b, gc_stmt *s, SQLULEN row);

/* The array ended in an error before row end (the failing row and those
 * before it): the open batch is rolled back and the rows of it that ran
 * become SQL_PARAM_ERROR (their work is undone). */
void gc_row_batches_fail(gc_row_batches *b, gc_stmt *s, SQLULEN end);

/* After the last row (rows in all): the open batch is committed; false as
 * gc_row_batches_before_row. */
bool gc_row_batches_end(gc_row_batches *b, gc_stmt *s, SQLULEN rows);

#endif
