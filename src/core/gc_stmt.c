/*
 * gc_stmt: forgetting a statement's text, cursor names. Its life with its
 * descriptors (making, freeing, SQLFreeStmt) is gc_stmt_life.c.
 */
#include "core/gc_stmt.h"
#include "core/gc_stmt_cache.h"
#include "global/gc_global.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Forgets the statement text; its server-side statement is parked for
 * reuse (gc_stmt_cache.h). */
void gc_stmt_unprepare(gc_stmt *s)
{
    gc_stmt_cache_release(s);
    free(s->sql);
    s->sql = NULL;
    free(s->call_text);
    s->call_text = NULL;
    s->call_escape = s->call_returns = false;
    s->call_kind = 0;
    s->nparams = 0;
    s->positional_params = 0;
    s->prepared = false;
    s->params_untyped = false;
    free(s->params_uninferred);
    s->params_uninferred = NULL;
    free(s->described_param_types);
    s->described_param_types = NULL;
    s->described_nparams = 0;
    s->described = false;
    s->ran_one_row = false;
    s->show_global = false;
    s->reconnect_global = false;
    gc_route_free(s);
}

/* The cursor name, made up ("SQL_CUR<address>") when the application set none. */
static const char *cursor_name(gc_stmt *s)
{
    if (s->cursor_name == NULL) {
        char buf[48];
        snprintf(buf, sizeof buf, "SQL_CUR%p", (void *)s);
        s->cursor_name = strdup(buf);
    }
    return s->cursor_name ? s->cursor_name : "";
}

SQLRETURN gc_stmt_get_cursor_name(gc_stmt *s, const gc_strout *out, SQLSMALLINT *len)
{
    return gc_strout_put_small(out, cursor_name(s), len, &s->h.diag);
}

SQLRETURN gc_stmt_set_cursor_name(gc_stmt *s, const char *name)
{
    if (s->state == GC_STMT_CURSOR || s->state == GC_STMT_NEED_DATA) {
        gc_diag_add(&s->h.diag, "24000", 0, "invalid cursor state: a cursor is open");
        return SQL_ERROR;
    }
    /* Longer than SQL_MAX_CURSOR_NAME_LEN: refused, as ODBC says. */
    if (name == NULL || name[0] == '\0' || strlen(name) > GC_MAX_CURSOR_NAME) {
        gc_diag_add(&s->h.diag, "34000", 0,
                    "invalid cursor name: empty or longer than %d bytes (SQL_MAX_CURSOR_NAME_LEN)",
                    GC_MAX_CURSOR_NAME);
        return SQL_ERROR;
    }
    if (strncmp(name, "SQL_CUR", 7) == 0 || strncmp(name, "SQLCUR", 6) == 0) {
        gc_diag_add(&s->h.diag, "34000", 0, "invalid cursor name: SQL_CUR and SQLCUR prefixes are reserved");
        return SQL_ERROR;
    }
    for (gc_stmt *o = s->conn->statements; o != NULL; o = o->next_in_conn) {
        if (o != s && o->cursor_name != NULL && strcmp(o->cursor_name, name) == 0) {
            gc_diag_add(&s->h.diag, "3C000", 0, "duplicate cursor name");
            return SQL_ERROR;
        }
    }
    char *copy = strdup(name);
    if (copy == NULL) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    free(s->cursor_name);
    s->cursor_name = copy;
    return SQL_SUCCESS;
}

SQLRETURN gc_stmt_rc_with_info(gc_stmt *s, SQLRETURN rc)
{
    if (rc == SQL_SUCCESS && s->h.diag.count > 0)
        return SQL_SUCCESS_WITH_INFO;
    return rc;
}
