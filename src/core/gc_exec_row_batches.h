/*
 * gc_exec_row_batches: a parameter array that a global connection runs
 * row by row (a row is a write across groups, keys are drawn for it...)
 * kept in the units a general connection's pipeline keeps it in
 * (docs/parameter-arrays.md, "Transactions"): in autocommit, batches of
 * BatchSize rows, each a transaction of its own (a general connection's
 * pipelined batches), not a transaction per row; in a transaction, the
 * whole array one statement for the rollback level. A failing row undoes
 * its unit, and the rows of it that ran before it become SQL_PARAM_ERROR.
 * The units are gc_exec_unit's brackets.
 */
#ifndef GC_EXEC_ROW_BATCHES_H
#define GC_EXEC_ROW_BATCHES_H

#include <stdbool.h>

#include "core/gc_exec_unit.h"
#include "core/gc_stmt.h"

typedef struct gc_row_batches {
    gc_unit_bracket bracket;  /* each unit's */
    SQLULEN size;             /* rows per unit; 0: each row alone, as before */
    SQLULEN first;            /* the open unit's first row */
    bool open;                /* a unit is open */
    gc_stmt *inner;           /* runs the brackets' statements; owned */
} gc_row_batches;

/* Whether the rows rows of s about to run row by row are kept in units,
 * and which. False when the unit's handle could not be made (HY001 added
 * to s). */
bool gc_row_batches_start(gc_row_batches *b, gc_stmt *s, SQLULEN rows);

/* Before row runs: at a unit's boundary the open unit is kept and the next
 * one opened. False when that failed: the kept unit's rows are
 * SQL_PARAM_ERROR, the error is the statement's, the array ends. */
bool gc_row_batches_before_row(gc_row_batches *b, gc_stmt *s, SQLULEN row);

/* The array ended in an error before row end (the failing row and those
 * before it): the open unit is undone and the rows of it that ran become
 * SQL_PARAM_ERROR; in a transaction at levels 0 and 1, where the failure
 * took the transaction, every row that ran does. Ends b. */
void gc_row_batches_fail(gc_row_batches *b, gc_stmt *s, SQLULEN end);

/* After the last row (rows in all): the open unit is kept; false as
 * gc_row_batches_before_row. Ends b. */
bool gc_row_batches_end(gc_row_batches *b, gc_stmt *s, SQLULEN rows);

#endif
