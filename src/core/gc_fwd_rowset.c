/*
 * gc_fwd_rowset: the rows of a forward-only cursor's last rowset, kept for
 * SQLSetPos(SQL_POSITION) and SQLGetData (gc_fwd_rowset.h).
 */
#include "core/gc_fwd_rowset.h"

#include <assert.h>
#include <limits.h>
#include <stdlib.h>

/* Room for a rowset of `size` rows: each row, and at most one result per
 * row. Reserved before the fetch, so keeping a result never allocates. */
static bool reserve(gc_fwd_rowset *f, SQLULEN size)
{
    if (size > (SQLULEN)INT_MAX)
        return false;
    if (f->rows_cap < size) {
        gc_fwd_row *rows = realloc(f->rows, size * sizeof *rows);
        if (rows == NULL)
            return false;
        f->rows = rows;
        f->rows_cap = size;
    }
    if ((SQLULEN)f->kept_cap < size) {
        PGresult **kept = realloc(f->kept, size * sizeof *kept);
        if (kept == NULL)
            return false;
        f->kept = kept;
        f->kept_cap = (int)size;
    }
    return true;
}

void gc_fwd_rowset_release(gc_fwd_rowset *f)
{
    if (!f->keeping && f->n_kept == 0) {
        f->n_rows = 0;
        f->position = 0;
        return;
    }
    for (int i = 0; i < f->n_kept; i++)
        PQclear(f->kept[i]);
    f->n_kept = 0;
    f->n_rows = 0;
    f->position = 0;
    f->keeping = false;
}

void gc_fwd_rowset_begin(gc_fwd_rowset *f, SQLULEN size)
{
    if (size <= 1 && !f->keeping) {     /* the one-row fetch of every point SELECT */
        f->n_rows = 0;
        f->position = 0;
        return;
    }
    gc_fwd_rowset_release(f);
    /* Without room the rowset is delivered all the same; SQLSetPos then
     * finds nothing kept (HY001). */
    f->keeping = size > 1 && reserve(f, size);
}

void gc_fwd_rowset_add(gc_fwd_rowset *f, const PGresult *res, int row)
{
    if (f->keeping) {
        assert(f->n_rows < f->rows_cap);
        f->rows[f->n_rows] = (gc_fwd_row){ res, row };
        f->position = 1;
    }
    f->n_rows++;
}

void gc_fwd_rowset_retire(gc_fwd_rowset *f, PGresult *block)
{
    /* A rowset's rows come from its results in order, so the last row
     * tells whether this block gave any. */
    if (block != NULL && f->keeping && f->n_rows > 0 && f->rows[f->n_rows - 1].res == block) {
        assert(f->n_kept < f->kept_cap);
        f->kept[f->n_kept++] = block;
    } else {
        PQclear(block);
    }
}

void gc_fwd_rowset_position(gc_fwd_rowset *f, SQLULEN row)
{
    f->position = f->keeping ? (row == 0 ? 1 : row) : 0;
}

const PGresult *gc_fwd_rowset_positioned(const gc_fwd_rowset *f, int *row)
{
    if (f->position == 0)
        return NULL;
    *row = f->rows[f->position - 1].row;
    return f->rows[f->position - 1].res;
}

void gc_fwd_rowset_free(gc_fwd_rowset *f)
{
    gc_fwd_rowset_release(f);
    free(f->rows);
    free(f->kept);
    *f = (gc_fwd_rowset){ 0 };
}
