/*
 * gc_stmt_life: a statement's life with its descriptors: made with its four
 * implicit ones, freed with them, and SQLFreeStmt / SQLCloseCursor, which
 * clear their bindings and close the cursor. Kept out of gc_stmt.c so that
 * the statement does not import the descriptor, which imports it (a
 * descriptor shows its statement's bookmark and nullability;
 * docs/architecture.md, "Imports inside the core").
 */
#include "core/gc_desc.h"
#include "core/gc_conn_stmt_options.h"
#include "core/gc_stmt.h"

#include <assert.h>
#include <stdlib.h>

/* Allocates a statement with its four implicit descriptors and links it into
 * c->statements. The connection frees it with gc_stmt_destroy. */
SQLRETURN gc_stmt_create(gc_conn *c, gc_stmt **out)
{
    gc_stmt *s = calloc(1, sizeof *s);
    if (s == NULL)
        goto oom;
    s->h.kind = GC_HANDLE_STMT;
    gc_diag_init(&s->h.diag);
    gc_diag_init(&s->exec_diag);
    s->conn = c;
    s->ard_implicit = gc_desc_create_implicit(s, c, GC_DESC_ARD);
    s->apd_implicit = gc_desc_create_implicit(s, c, GC_DESC_APD);
    s->ird = gc_desc_create_implicit(s, c, GC_DESC_IRD);
    s->ipd = gc_desc_create_implicit(s, c, GC_DESC_IPD);
    if (!s->ard_implicit || !s->apd_implicit || !s->ird || !s->ipd) {
        gc_desc_destroy_implicit(s->ard_implicit);
        gc_desc_destroy_implicit(s->apd_implicit);
        gc_desc_destroy_implicit(s->ird);
        gc_desc_destroy_implicit(s->ipd);
        gc_diag_free(&s->h.diag);
        free(s);
        goto oom;
    }
    s->ard = s->ard_implicit;
    s->apd = s->apd_implicit;
    s->query_timeout = c->query_timeout_default;
    s->retrieve_data = SQL_RD_ON;
    s->cursor_type = SQL_CURSOR_FORWARD_ONLY;
    s->concurrency = SQL_CONCUR_READ_ONLY;
    s->noscan = SQL_NOSCAN_OFF;
    s->metadata_id = c->metadata_id;
    s->current_row = -1;
    s->dae_current = -1;
    s->row_count = -1;
    s->ext_rowset_size = 1;
    gc_cursor_reset(s);
    atomic_init(&s->in_server_call, false);
    atomic_init(&s->timed_out, false);
    atomic_init(&s->cancel_asked, false);
    gc_conn_apply_statement_options(c, s);
    s->next_in_conn = c->statements;
    c->statements = s;
    *out = s;
    return SQL_SUCCESS;
oom:
    gc_diag_add(&c->h.diag, "HY001", 0, "out of memory allocating a statement");
    return SQL_ERROR;
}

void gc_stmt_destroy(gc_stmt *s)
{
    if (s == NULL)
        return;
    gc_conn *c = s->conn;
    gc_stmt_discard_results(s);
    assert(!gc_result_streams(s));   /* the session layer must not call it back */
    gc_fwd_rowset_free(&s->fwd);
    free(s->queue);
    gc_stmt_reset_exec(s);
    gc_stmt_unprepare(s);
    for (gc_stmt **p = &c->statements; *p != NULL; p = &(*p)->next_in_conn) {
        if (*p == s) {
            *p = s->next_in_conn;
            break;
        }
    }
    gc_desc_destroy_implicit(s->ard_implicit);
    gc_desc_destroy_implicit(s->apd_implicit);
    gc_desc_destroy_implicit(s->ird);
    gc_desc_destroy_implicit(s->ipd);
    free(s->cursor_name);
    gc_diag_free(&s->exec_diag);
    gc_diag_free(&s->h.diag);
    s->h.kind = GC_HANDLE_FREED;
    free(s);
}

/* The state a statement returns to when its cursor closes. */
static gc_stmt_state state_after_close(const gc_stmt *s)
{
    return s->prepared ? GC_STMT_PREPARED : GC_STMT_ALLOCATED;
}

/* SQLCloseCursor (must_be_open: 24000 when no cursor) and SQLFreeStmt(SQL_CLOSE). */
SQLRETURN gc_stmt_close_cursor(gc_stmt *s, bool must_be_open)
{
    if (s->state == GC_STMT_NEED_DATA) {
        gc_diag_add(&s->h.diag, "HY010", 0, "function sequence error: data at execution pending");
        return SQL_ERROR;
    }
    if (must_be_open && s->state != GC_STMT_CURSOR) {
        gc_diag_add(&s->h.diag, "24000", 0, "invalid cursor state: no cursor is open");
        return SQL_ERROR;
    }
    gc_stmt_discard_results(s);
    if (s->state == GC_STMT_CURSOR || s->state == GC_STMT_EXECUTED)
        s->state = state_after_close(s);
    return SQL_SUCCESS;
}

SQLRETURN gc_stmt_free(gc_stmt *s, SQLUSMALLINT option)
{
    switch (option) {
    case SQL_CLOSE:
        if (s->state == GC_STMT_NEED_DATA) {
            gc_stmt_reset_exec(s);
            s->state = state_after_close(s);
        }
        return gc_stmt_close_cursor(s, false);
    case SQL_UNBIND:
        for (int i = 0; i < s->ard->count; i++) {
            s->ard->recs[i].data_ptr = NULL;
            s->ard->recs[i].indicator_ptr = NULL;
            s->ard->recs[i].octet_length_ptr = NULL;
        }
        gc_desc_clear_records(s->ard);
        s->bookmark_col.data_ptr = NULL;
        s->bookmark_col.indicator_ptr = NULL;
        return SQL_SUCCESS;
    case SQL_RESET_PARAMS:
        gc_desc_clear_records(s->apd);
        gc_desc_clear_records(s->ipd);
        return SQL_SUCCESS;
    case SQL_DROP:
        /* The driver manager maps SQL_DROP to SQLFreeHandle. */
        gc_diag_add(&s->h.diag, "HY092", 0, "SQL_DROP goes through SQLFreeHandle");
        return SQL_ERROR;
    default:
        gc_diag_add(&s->h.diag, "HY092", 0, "invalid SQLFreeStmt option %u", option);
        return SQL_ERROR;
    }
}
