/*
 * gc_exec_row_batches: the units of a parameter array a global connection
 * runs row by row (gc_exec_row_batches.h).
 */
#include "core/gc_exec_row_batches.h"

#include "core/gc_conn.h"
#include "core/gc_ddl_exec.h"
#include "core/gc_desc.h"
#include "core/gc_exec_array.h"

bool gc_row_batches_start(gc_row_batches *b, gc_stmt *s, SQLULEN rows)
{
    gc_conn *c = s->conn;
    *b = (gc_row_batches){0};
    /* The cheap tests first: this runs before every execution. */
    if (rows < 2 || c->global == NULL || s->txn.kind == GC_SQL_TXN_CONTROL ||
        !gc_exec_array_rows_alike(s, rows) || gc_ddl_exec_is_cluster_wide(s))
        return true;
    gc_unit_bracket bracket = gc_unit_bracket_of(s);
    /* In autocommit BatchSize rows a transaction (1: a transaction per row,
     * as psqlODBC runs it); in a transaction the whole array. */
    SQLULEN size = bracket == GC_UNIT_TRANSACTION ? gc_exec_array_batch_size(s) : rows;
    if (size < 2)
        return true;
    if (bracket != GC_UNIT_NONE && gc_stmt_create(c, &b->inner) != SQL_SUCCESS) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return false;
    }
    b->bracket = bracket;
    b->size = size;
    return true;
}

/* The rows first .. last - 1 that ran are undone. */
static void mark_undone(gc_stmt *s, SQLULEN first, SQLULEN last)
{
    SQLUSMALLINT *status = s->ipd->array_status_ptr;
    for (SQLULEN r = first; status != NULL && r < last; r++)
        if (status[r] == SQL_PARAM_SUCCESS || status[r] == SQL_PARAM_SUCCESS_WITH_INFO)
            status[r] = SQL_PARAM_ERROR;
}

/* Keeps the open unit, whose last row is last - 1; false when that
 * failed (the unit undone). */
static bool keep_unit(gc_row_batches *b, gc_stmt *s, SQLULEN last)
{
    if (!b->open)
        return true;
    b->open = false;
    gc_diag said;
    gc_diag_init(&said);
    bool kept = gc_unit_close(b->inner, b->bracket, &said) != SQL_ERROR;
    gc_diag_move_at(&s->h.diag, &said, kept ? SQL_NO_ROW_NUMBER : (SQLLEN)last);
    gc_diag_free(&said);
    if (!kept)
        mark_undone(s, b->first, last);
    return kept;
}

static void end(gc_row_batches *b)
{
    if (b->inner != NULL)
        gc_stmt_destroy(b->inner);
    *b = (gc_row_batches){0};
}

bool gc_row_batches_before_row(gc_row_batches *b, gc_stmt *s, SQLULEN row)
{
    if (b->size == 0 || (b->open && row % b->size != 0))
        return true;
    if (!keep_unit(b, s, row))
        return false;
    if (gc_unit_open(b->inner, b->bracket, &s->h.diag) == SQL_ERROR)
        return false;
    b->open = true;
    b->first = row;
    return true;
}

void gc_row_batches_fail(gc_row_batches *b, gc_stmt *s, SQLULEN end_row)
{
    if (b->open)
        gc_unit_undo(b->inner, b->bracket);
    if (b->size > 0)
        mark_undone(s, b->first, end_row);
    end(b);
}

bool gc_row_batches_end(gc_row_batches *b, gc_stmt *s, SQLULEN rows)
{
    bool kept = keep_unit(b, s, rows);    /* nothing open: kept */
    end(b);
    return kept;
}
