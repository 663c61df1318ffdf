/*
 * gc_handle: what every ODBC handle (env, connection, statement, descriptor)
 * starts with: a kind tag for validation and its diagnostics area.
 */
#ifndef GC_HANDLE_H
#define GC_HANDLE_H

#include <sql.h>
#include <sqlext.h>
#include <stdint.h>

#include "core/gc_diag.h"

typedef enum gc_handle_kind {
    GC_HANDLE_ENV = 0x67c0e1,
    GC_HANDLE_DBC = 0x67c0d2,
    GC_HANDLE_STMT = 0x67c053,
    GC_HANDLE_DESC = 0x67c0d4,
    GC_HANDLE_FREED = 0x67c0ff,   /* written on destroy, so a stale handle fails validation */
} gc_handle_kind;

typedef struct gc_handle {
    gc_handle_kind kind;
    gc_diag diag;
} gc_handle;

/* The four handle types, for a module that only points at them: gc_env.h,
 * gc_conn.h, gc_stmt.h and gc_desc.h define them. */
typedef struct gc_env gc_env;
typedef struct gc_conn gc_conn;
typedef struct gc_stmt gc_stmt;
typedef struct gc_desc gc_desc;

/* True when h is a live handle of that kind (NULL-safe). */
static inline int gc_handle_is(const void *h, gc_handle_kind kind)
{
    return h != NULL && ((const gc_handle *)h)->kind == kind;
}

#endif
