/*
 * gc_conn_handles: the connection's side of the handles it owns. A new
 * connection's session calls its streaming statement back; a connection
 * that opens starts with nothing parked; one that disconnects frees its
 * statements and explicit descriptors. Kept out of gc_conn.c so
 * that the connection does not import the statement, the descriptor and
 * the statement cache, which all import it (docs/architecture.md, "Imports
 * inside the core").
 */
#include "core/gc_conn.h"
#include "core/gc_desc.h"
#include "core/gc_stmt.h"
#include "core/gc_stmt_cache.h"

void gc_conn_init_handles(gc_conn *c)
{
    gc_session_owner_init(&c->session_owner, gc_result_end_streaming);
}

void gc_conn_open_handles(gc_conn *c)
{
    gc_stmt_cache_open(c);
}

void gc_conn_close_handles(gc_conn *c)
{
    gc_stmt_cache_close(c);    /* the sessions close: nothing to deallocate */
    gc_stmt *s = c->statements;
    while (s != NULL) {
        gc_stmt *next = s->next_in_conn;
        gc_stmt_destroy(s);
        s = next;
    }
    c->statements = NULL;
    /* ODBC frees the explicit descriptors with the connection's statements;
     * the driver manager forgets its handles for them at this point too. */
    while (c->descriptors != NULL)
        gc_desc_destroy_explicit(c->descriptors);
}
