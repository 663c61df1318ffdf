/*
 * odbc_handle: SQLAllocHandle and SQLFreeHandle for every handle kind.
 */
#include <stdlib.h>

#include "core/gc_desc.h"
#include "core/gc_stmt.h"
#include "odbc/odbc_entry.h"

static SQLRETURN alloc_env(SQLHANDLE *out)
{
    gc_env *e = gc_env_create();
    *out = e;
    return e != NULL ? SQL_SUCCESS : SQL_ERROR;
}

static SQLRETURN alloc_conn(SQLHANDLE input, SQLHANDLE *out)
{
    gc_env *e = gc_odbc_enter_env(input);
    if (e == NULL)
        return SQL_INVALID_HANDLE;
    gc_conn *c = gc_conn_create(e);
    *out = c;
    if (c == NULL)
        gc_diag_add(&e->h.diag, "HY001", 0, "out of memory");
    return gc_odbc_leave_env(e, c != NULL ? SQL_SUCCESS : SQL_ERROR);
}

static SQLRETURN alloc_child(SQLSMALLINT type, SQLHANDLE input, SQLHANDLE *out)
{
    gc_conn *c = gc_odbc_enter_conn(input);
    if (c == NULL)
        return SQL_INVALID_HANDLE;
    SQLRETURN rc;
    if (!gc_conn_is_connected(c)) {
        gc_diag_add(&c->h.diag, "08003", 0, "connection not open");
        rc = SQL_ERROR;
    } else if (type == SQL_HANDLE_STMT) {
        gc_stmt *s = NULL;
        rc = gc_stmt_create(c, &s);
        *out = s;
    } else {
        gc_desc *d = NULL;
        rc = gc_desc_create_explicit(c, &d);
        *out = d;
    }
    return gc_odbc_leave_conn(c, rc);
}

SQLRETURN SQL_API SQLAllocHandle(SQLSMALLINT type, SQLHANDLE input, SQLHANDLE *output)
{
    if (output == NULL)
        return SQL_ERROR;   /* nowhere to report: ODBC says HY009 on input's handle */
    *output = SQL_NULL_HANDLE;
    switch (type) {
    case SQL_HANDLE_ENV:
        return alloc_env(output);
    case SQL_HANDLE_DBC:
        return alloc_conn(input, output);
    case SQL_HANDLE_STMT:
    case SQL_HANDLE_DESC:
        return alloc_child(type, input, output);
    default:
        return SQL_ERROR;   /* HY092; the driver manager checks this first */
    }
}

static SQLRETURN free_conn(SQLHANDLE h)
{
    gc_conn *c = gc_odbc_enter_conn(h);
    if (c == NULL)
        return SQL_INVALID_HANDLE;
    if (gc_conn_is_connected(c)) {
        gc_diag_add(&c->h.diag, "HY010", 0, "function sequence error: disconnect first");
        return gc_odbc_leave_conn(c, SQL_ERROR);
    }
    /* Explicit descriptors normally go with SQLDisconnect; free any left. */
    while (c->descriptors != NULL)
        gc_desc_destroy_explicit(c->descriptors);
    gc_odbc_leave_conn(c, SQL_SUCCESS);
    /* Unlocked now: destroying takes the environment's lock (lock order). */
    return gc_conn_destroy(c);
}

static SQLRETURN free_stmt(SQLHANDLE h)
{
    gc_stmt *s = gc_odbc_enter_stmt(h);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    gc_conn *c = s->conn;
    gc_stmt_destroy(s);
    c->notice_diag = NULL;
    pthread_mutex_unlock(&c->lock);
    return SQL_SUCCESS;
}

static SQLRETURN free_desc(SQLHANDLE h)
{
    gc_desc *d = gc_odbc_enter_desc(h);
    if (d == NULL)
        return SQL_INVALID_HANDLE;
    if (d->alloc_type != SQL_DESC_ALLOC_USER) {
        gc_diag_add(&d->h.diag, "HY017", 0, "invalid use of an automatically allocated descriptor handle");
        return gc_odbc_leave_desc(d, SQL_ERROR);
    }
    gc_conn *c = d->conn;
    gc_desc_destroy_explicit(d);
    c->notice_diag = NULL;
    pthread_mutex_unlock(&c->lock);
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLFreeHandle(SQLSMALLINT type, SQLHANDLE h)
{
    switch (type) {
    case SQL_HANDLE_ENV:
        if (!gc_handle_is(h, GC_HANDLE_ENV))
            return SQL_INVALID_HANDLE;
        gc_diag_clear(&((gc_env *)h)->h.diag);
        return gc_env_destroy(h);
    case SQL_HANDLE_DBC:
        return free_conn(h);
    case SQL_HANDLE_STMT:
        return free_stmt(h);
    case SQL_HANDLE_DESC:
        return free_desc(h);
    default:
        return SQL_ERROR;
    }
}
