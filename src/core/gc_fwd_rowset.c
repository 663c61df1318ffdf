/*
 * gc_fwd_rowset: the rows of a forward-only cursor's last rowset, kept for
 * SQLSetPos(SQL_POSITION) and SQLGetData (gc_fwd_rowset.h).
 */
#include "core/gc_fwd_rowset.h"

#include <assert.h>
#include <limits.h>
#include <stdlib.h>

#include "core/gc_stmt.h"

/* Room for a rowset of `size` rows: each row, and at most one result per
 * row. Reserved before the fetch, so keeping a result never allocates. */
static bool reserve(gc_fwd_rowset *f, SQLULEN size)
{
    if (f->rows_cap < size) {
        gc_fwd_row *rows = realloc(f->rows, size * sizeof *rows);
        if (rows == NULL)
            return false;
        f->rows = rows;
        f->rows_cap = size;
    }
    if ((SQLULEN)f->kept_cap < size) {
        if (size > (SQLULEN)INT_MAX)
            return false;
        PGresult **kept = realloc(f->kept, size * sizeof *kept);
        if (kept == NULL)
            return false;
        f->kept = kept;
        f->kept_cap = (int)size;
    }
    return true;
}

void gc_fwd_rowset_release(gc_stmt *s)
{
    gc_fwd_rowset *f = &s->fwd;
    for (int i = 0; i < f->n_kept; i++)
        PQclear(f->kept[i]);
    f->n_kept = 0;
    f->n_rows = 0;
    f->position = 0;
    f->keeping = false;
}

void gc_fwd_rowset_begin(gc_stmt *s, SQLULEN size)
{
    gc_fwd_rowset_release(s);
    /* Without room the rowset is delivered all the same; SQLSetPos then
     * finds nothing kept (HY001). */
    s->fwd.keeping = size > 1 && reserve(&s->fwd, size);
}

void gc_fwd_rowset_add_current(gc_stmt *s)
{
    gc_fwd_rowset *f = &s->fwd;
    if (f->keeping) {
        assert(f->n_rows < f->rows_cap);
        f->rows[f->n_rows] = (gc_fwd_row){ s->block, s->current_row };
        f->position = 1;
    }
    f->n_rows++;
}

void gc_fwd_rowset_retire_block(gc_stmt *s)
{
    gc_fwd_rowset *f = &s->fwd;
    /* A rowset's rows come from its results in order, so the last row
     * tells whether this block gave any. */
    if (s->block != NULL && f->keeping && f->n_rows > 0 &&
        f->rows[f->n_rows - 1].res == s->block) {
        assert(f->n_kept < f->kept_cap);
        f->kept[f->n_kept++] = s->block;
    } else {
        PQclear(s->block);
    }
    s->block = NULL;
}

void gc_fwd_rowset_position(gc_stmt *s, SQLULEN row)
{
    gc_fwd_rowset *f = &s->fwd;
    f->position = f->keeping ? (row == 0 ? 1 : row) : 0;
}

const PGresult *gc_fwd_rowset_current(const gc_stmt *s, int *row)
{
    const gc_fwd_rowset *f = &s->fwd;
    if (f->position == 0) {
        *row = s->current_row;
        return s->block;
    }
    *row = f->rows[f->position - 1].row;
    return f->rows[f->position - 1].res;
}

void gc_fwd_rowset_free(gc_stmt *s)
{
    gc_fwd_rowset_release(s);
    free(s->fwd.rows);
    free(s->fwd.kept);
    s->fwd = (gc_fwd_rowset){ 0 };
}
