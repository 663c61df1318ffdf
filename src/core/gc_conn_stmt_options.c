/*
 * gc_conn_stmt_options: ODBC 2 statement options set on a connection.
 * An ODBC 2 application may call SQLSetConnectOption with a statement
 * option (SQL_CURSOR_TYPE, SQL_MAX_ROWS, ...): it then holds for every
 * statement of the connection, those it has and those it allocates later.
 * The driver manager passes such a call on as SQLSetConnectAttr, which
 * ODBC 3 keeps for these applications; psqlODBC honours it, ruby-odbc
 * relies on it. SQL_QUERY_TIMEOUT, a connection attribute of its own in
 * ODBC 3, is kept apart (gc_conn_attr.c).
 */
#include <stdint.h>

#include "core/gc_conn.h"
#include "core/gc_conn_stmt_options.h"
#include "core/gc_stmt.h"

bool gc_conn_is_statement_option(SQLINTEGER attr)
{
    switch (attr) {
    case SQL_MAX_ROWS: case SQL_NOSCAN: case SQL_MAX_LENGTH: case SQL_BIND_TYPE:
    case SQL_CURSOR_TYPE: case SQL_CONCURRENCY: case SQL_KEYSET_SIZE: case SQL_ROWSET_SIZE:
    case SQL_SIMULATE_CURSOR: case SQL_RETRIEVE_DATA: case SQL_USE_BOOKMARKS:
        return true;
    default:
        return false;
    }
}

/* Records attr = value for the statements allocated from now on. */
static void remember(gc_conn *c, SQLINTEGER attr, SQLULEN value)
{
    int k = 0;
    while (k < c->n_stmt_options && c->stmt_options[k].attr != attr)
        k++;
    if (k == c->n_stmt_options)
        c->n_stmt_options++;    /* room for each option: sized by their count */
    c->stmt_options[k].attr = attr;
    c->stmt_options[k].value = value;
}

SQLRETURN gc_conn_set_statement_option(gc_conn *c, SQLINTEGER attr, SQLULEN value)
{
    /* The value is checked as a statement checks it: on one of its own. */
    gc_stmt *probe = NULL;
    if (gc_stmt_create(c, &probe) != SQL_SUCCESS)
        return SQL_ERROR;
    SQLRETURN rc = gc_stmt_set_attr(probe, attr, (SQLPOINTER)(uintptr_t)value, 0);
    if (rc == SQL_SUCCESS_WITH_INFO) {
        /* 01S02: the value was changed; the statements take the one given. */
        SQLULEN taken = value;
        if (gc_stmt_get_attr(probe, attr, &taken, 0, NULL, false) == SQL_SUCCESS)
            value = taken;
    }
    gc_diag_move_at(&c->h.diag, &probe->h.diag, SQL_NO_ROW_NUMBER);
    gc_stmt_destroy(probe);
    if (!SQL_SUCCEEDED(rc))
        return rc;
    remember(c, attr, value);
    /* The statements it has: those that cannot take it now (a cursor open)
     * keep theirs, as a statement's own SQLSetStmtAttr would leave it. */
    for (gc_stmt *s = c->statements; s != NULL; s = s->next_in_conn) {
        gc_diag_clear(&s->h.diag);
        (void)gc_stmt_set_attr(s, attr, (SQLPOINTER)(uintptr_t)value, 0);
        gc_diag_clear(&s->h.diag);
    }
    return rc;
}

void gc_conn_apply_statement_options(gc_conn *c, gc_stmt *s)
{
    for (int k = 0; k < c->n_stmt_options; k++)
        (void)gc_stmt_set_attr(s, c->stmt_options[k].attr,
                               (SQLPOINTER)(uintptr_t)c->stmt_options[k].value, 0);
    gc_diag_clear(&s->h.diag);
}
