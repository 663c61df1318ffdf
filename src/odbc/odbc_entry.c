/*
 * odbc_entry: what every entry point does around its core call (see
 * odbc_entry.h): validate, lock, clear diagnostics, route server notices to
 * the handle, and on the way out record the return code and unlock.
 *
 * A successful call that left records (server notices, 01S02...) returns
 * SQL_SUCCESS_WITH_INFO, as ODBC requires.
 */
#include "odbc/odbc_entry.h"

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/gc_conn_kind.h"
#include "core/gc_desc.h"
#include "core/gc_stmt.h"
#include "util/gc_utf16.h"

/* Statements and descriptors start with these fields (gc_stmt.h, gc_desc.h);
 * the entry layer needs only them. */
typedef struct handle_prefix {
    gc_handle h;
    gc_conn *conn;
} handle_prefix;

_Static_assert(offsetof(gc_stmt, h) == offsetof(handle_prefix, h) &&
               offsetof(gc_stmt, conn) == offsetof(handle_prefix, conn),
               "gc_stmt must start with gc_handle h; gc_conn *conn;");
_Static_assert(offsetof(gc_desc, h) == offsetof(handle_prefix, h) &&
               offsetof(gc_desc, conn) == offsetof(handle_prefix, conn),
               "gc_desc must start with gc_handle h; gc_conn *conn;");

static SQLRETURN with_info(gc_handle *h, SQLRETURN rc)
{
    gc_diag_join_notices(&h->diag);
    if (rc == SQL_SUCCESS && h->diag.count > 0)
        rc = SQL_SUCCESS_WITH_INFO;
    h->diag.return_code = rc;
    return rc;
}

gc_env *gc_odbc_enter_env(SQLHENV h)
{
    if (!gc_handle_is(h, GC_HANDLE_ENV))
        return NULL;
    gc_env *e = h;
    pthread_mutex_lock(&e->lock);
    gc_diag_clear(&e->h.diag);
    return e;
}

SQLRETURN gc_odbc_leave_env(gc_env *e, SQLRETURN rc)
{
    rc = with_info(&e->h, rc);
    pthread_mutex_unlock(&e->lock);
    return rc;
}

gc_conn *gc_odbc_enter_conn(SQLHDBC h)
{
    if (!gc_handle_is(h, GC_HANDLE_DBC))
        return NULL;
    gc_conn *c = h;
    pthread_mutex_lock(&c->lock);
    gc_diag_clear(&c->h.diag);
    c->notice_diag = &c->h.diag;
    return c;
}

SQLRETURN gc_odbc_leave_conn(gc_conn *c, SQLRETURN rc)
{
    c->kind->between_calls(c);    /* shared sessions go back between calls */
    rc = with_info(&c->h, rc);
    c->notice_diag = NULL;
    pthread_mutex_unlock(&c->lock);
    return rc;
}

/* Locks the connection of a statement or descriptor handle. */
static void *enter_child(void *h, gc_handle_kind kind)
{
    if (!gc_handle_is(h, kind))
        return NULL;
    handle_prefix *p = h;
    assert(p->conn != NULL);
    pthread_mutex_lock(&p->conn->lock);
    gc_diag_clear(&p->h.diag);
    p->conn->notice_diag = &p->h.diag;
    return h;
}

static SQLRETURN leave_child(void *h, SQLRETURN rc)
{
    handle_prefix *p = h;
    gc_conn *c = p->conn;
    rc = with_info(&p->h, rc);
    if (p->h.kind == GC_HANDLE_STMT) {
        /* SQL_DIAG_ROW_COUNT: the statement's row count (ODBC defines it
         * after execution; any other call leaves a value nobody reads). */
        gc_stmt *s = h;
        p->h.diag.row_count = s->row_count;
        gc_diag_end_statement_call(&p->h.diag, gc_stmt_error_context(s));
        s->error_context = NULL;
    }
    c->kind->between_calls(c);    /* shared sessions go back between calls */
    c->notice_diag = NULL;
    pthread_mutex_unlock(&c->lock);
    return rc;
}

gc_stmt *gc_odbc_enter_stmt(SQLHSTMT h)
{
    return enter_child(h, GC_HANDLE_STMT);
}

SQLRETURN gc_odbc_leave_stmt(gc_stmt *s, SQLRETURN rc)
{
    return leave_child(s, rc);
}

gc_desc *gc_odbc_enter_desc(SQLHDESC h)
{
    return enter_child(h, GC_HANDLE_DESC);
}

SQLRETURN gc_odbc_leave_desc(gc_desc *d, SQLRETURN rc)
{
    return leave_child(d, rc);
}

bool gc_odbc_wide_arg(gc_diag *diag, const SQLWCHAR *s, SQLINTEGER len, char **out)
{
    *out = NULL;
    if (s == NULL)
        return true;
    if (len < 0 && len != SQL_NTS) {
        gc_diag_add(diag, "HY090", 0, "invalid string or buffer length %ld", (long)len);
        return false;
    }
    bool invalid = false;
    *out = gc_utf16_to_utf8((const uint16_t *)s, len == SQL_NTS ? -1 : (ssize_t)len,
                            NULL, &invalid);
    if (*out != NULL)
        return true;
    if (invalid)
        gc_diag_add(diag, "22018", 0,
                    "invalid character value: a string argument is not valid UTF-16 "
                    "(unpaired surrogate)");
    else
        gc_diag_add(diag, "HY001", 0, "out of memory");
    return false;
}

/* The connection a handle of any kind belongs to (NULL for an environment). */
gc_conn *gc_odbc_handle_conn(SQLSMALLINT type, SQLHANDLE h)
{
    switch (type) {
    case SQL_HANDLE_DBC:
        return h;
    case SQL_HANDLE_STMT:
    case SQL_HANDLE_DESC:
        return ((handle_prefix *)h)->conn;
    default:
        return NULL;
    }
}

static gc_handle_kind kind_of(SQLSMALLINT type)
{
    switch (type) {
    case SQL_HANDLE_ENV: return GC_HANDLE_ENV;
    case SQL_HANDLE_DBC: return GC_HANDLE_DBC;
    case SQL_HANDLE_STMT: return GC_HANDLE_STMT;
    case SQL_HANDLE_DESC: return GC_HANDLE_DESC;
    default: return GC_HANDLE_FREED;
    }
}

gc_handle *gc_odbc_lock_any(SQLSMALLINT type, SQLHANDLE h)
{
    gc_handle_kind kind = kind_of(type);
    if (kind == GC_HANDLE_FREED || !gc_handle_is(h, kind))
        return NULL;
    if (type == SQL_HANDLE_ENV)
        pthread_mutex_lock(&((gc_env *)h)->lock);
    else
        pthread_mutex_lock(&gc_odbc_handle_conn(type, h)->lock);
    return h;
}

void gc_odbc_unlock_any(SQLSMALLINT type, SQLHANDLE h)
{
    if (type == SQL_HANDLE_ENV)
        pthread_mutex_unlock(&((gc_env *)h)->lock);
    else
        pthread_mutex_unlock(&gc_odbc_handle_conn(type, h)->lock);
}

char *gc_odbc_ansi_in(const SQLCHAR *s, SQLINTEGER len, bool *ok)
{
    *ok = true;
    if (s == NULL)
        return NULL;
    if (len < 0 && len != SQL_NTS) {
        *ok = false;
        return NULL;
    }
    size_t n = len == SQL_NTS ? strlen((const char *)s) : (size_t)len;
    char *copy = malloc(n + 1);
    if (copy == NULL) {
        *ok = false;
        return NULL;
    }
    memcpy(copy, s, n);
    copy[n] = '\0';
    return copy;
}
