/*
 * gc_exec_row_batches: the transactions of an autocommit parameter array
 * a global connection runs row by row (gc_exec_row_batches.h).
 *
 * A batch's transaction is the connection's own with autocommit off for
 * its rows: the first row begins it as any statement would (joining the
 * groups its write reaches), and SQLEndTran's path ends it, a two-phase
 * commit when it spans groups.
 */
#include "core/gc_exec_row_batches.h"

#include "core/gc_conn.h"
#include "core/gc_conn_kind.h"
#include "core/gc_ddl_exec.h"
#include "core/gc_desc.h"
#include "core/gc_diag.h"
#include "core/gc_exec_array.h"

void gc_row_batches_start(gc_row_batches *b, gc_stmt *s, SQLULEN rows)
{
    gc_conn *c = s->conn;
    *b = (gc_row_batches){0};
    /* The cheap tests first: this runs before every execution. */
    if (rows < 2 || c->global == NULL || !c->autocommit || !gc_exec_array_rows_alike(s, rows) ||
        c->kind->in_transaction(c) || gc_ddl_exec_is_cluster_wide(s))
        return;
    SQLULEN size = gc_exec_array_batch_size(s);
    b->size = size > 1 ? size : 0;
}

/* The rows first .. last - 1 that ran are undone. */
static void mark_undone(gc_stmt *s, SQLULEN first, SQLULEN last)
{
    SQLUSMALLINT *status = s->ipd->array_status_ptr;
    for (SQLULEN r = first; status != NULL && r < last; r++)
        if (status[r] == SQL_PARAM_SUCCESS || status[r] == SQL_PARAM_SUCCESS_WITH_INFO)
            status[r] = SQL_PARAM_ERROR;
}

/* Ends the open batch (its last row: last - 1); false when a COMMIT
 * failed. */
static bool end_batch(gc_row_batches *b, gc_stmt *s, SQLULEN last, bool commit)
{
    gc_conn *c = s->conn;
    if (!b->open)
        return true;
    b->open = false;
    SQLRETURN rc = gc_conn_end_tran(c, commit ? SQL_COMMIT : SQL_ROLLBACK);
    c->autocommit = true;
    if (commit && rc == SQL_ERROR) {
        gc_diag_move_at(&s->h.diag, &c->h.diag, (SQLLEN)last);
        mark_undone(s, b->first, last);
        return false;
    }
    gc_diag_clear(&c->h.diag);    /* a ROLLBACK's notes are not the application's */
    return true;
}

bool gc_row_batches_before_row(gc_row_batches *b, gc_stmt *s, SQLULEN row)
{
    if (b->size == 0)
        return true;
    if (b->open && row % b->size != 0)
        return true;
    if (!end_batch(b, s, row, true))
        return false;
    b->open = true;
    b->first = row;
    s->conn->autocommit = false;    /* the row begins the batch's transaction */
    return true;
}

void gc_row_batches_fail(gc_row_batches *b, gc_stmt *s, SQLULEN end)
{
    if (!b->open)
        return;
    end_batch(b, s, end, false);
    mark_undone(s, b->first, end);
}

bool gc_row_batches_end(gc_row_batches *b, gc_stmt *s, SQLULEN rows)
{
    return end_batch(b, s, rows, true);
}
