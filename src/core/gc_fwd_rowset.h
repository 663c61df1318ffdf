/*
 * gc_fwd_rowset: the rows of a forward-only cursor's last rowset, kept so
 * that SQLSetPos(SQL_POSITION) can stand the cursor on any of them and
 * SQLGetData read it (SQL_GD_BLOCK), as on a scrollable cursor.
 *
 * A forward-only cursor streams: each row comes in a result of its own
 * (single-row mode) or in a block of rows, and the statement frees a result
 * once its rows are delivered. While a rowset of more than one row is
 * delivered, the results its rows came from are kept instead, until the
 * next fetch, until the cursor closes or the next result set begins. No row
 * is copied; a rowset of one row keeps nothing.
 */
#ifndef GC_FWD_ROWSET_H
#define GC_FWD_ROWSET_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <sql.h>

typedef struct gc_fwd_row {
    const PGresult *res;      /* the result holding the row (owned by `kept`
                                 or still the statement's block) */
    int row;
} gc_fwd_row;

typedef struct gc_fwd_rowset {
    gc_fwd_row *rows;         /* owned; the rowset's rows in order */
    SQLULEN n_rows, rows_cap;
    PGresult **kept;          /* owned, each result owned: the ones the
                                 statement moved past during this rowset */
    int n_kept, kept_cap;
    SQLULEN position;         /* 1-based row SQLGetData reads; 0: the
                                 statement's current row (no rowset kept) */
    bool keeping;             /* this rowset has more than one row */
} gc_fwd_rowset;

/* A fetch of `size` rows begins: the last rowset's kept results are freed
 * (the statement's block is not among them: the statement owns it). */
void gc_fwd_rowset_begin(gc_fwd_rowset *f, SQLULEN size);

/* Row `row` of `res` (the statement's block) is the rowset's next row. */
void gc_fwd_rowset_add(gc_fwd_rowset *f, const PGresult *res, int row);

/* The statement is done with its block: kept when rows of the rowset came
 * from it, freed otherwise. */
void gc_fwd_rowset_retire(gc_fwd_rowset *f, PGresult *block);

/* The cursor closes or moves to the next result set: every kept result is
 * freed. */
void gc_fwd_rowset_release(gc_fwd_rowset *f);

/* SQLSetPos(SQL_POSITION) on row `row` (1-based, 0 for the first) of the
 * rowset; the caller has checked it against n_rows. A rowset of one row
 * keeps nothing: its row is the statement's current row. */
void gc_fwd_rowset_position(gc_fwd_rowset *f, SQLULEN row);

/* The positioned row of a kept rowset (its result, and the row in *row);
 * NULL when the statement's current row is the one to read. */
const PGresult *gc_fwd_rowset_positioned(const gc_fwd_rowset *f, int *row);

/* Frees what the rowset owns, when the statement is freed. */
void gc_fwd_rowset_free(gc_fwd_rowset *f);

#endif
