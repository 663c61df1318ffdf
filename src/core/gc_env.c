/*
 * gc_env: the ODBC environment handle: ODBC version, pooling attributes and
 * the list of its connections (walked by gc_conn_end_tran_env: the
 * environment knows its connections only as a list).
 */
#include "core/gc_env.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Caller owns the result; gc_env_destroy() frees it. */
gc_env *gc_env_create(void)
{
    gc_env *e = calloc(1, sizeof *e);
    if (e == NULL)
        return NULL;
    e->h.kind = GC_HANDLE_ENV;
    gc_diag_init(&e->h.diag);
    e->odbc_version = SQL_OV_ODBC3;
    e->connection_pooling = SQL_CP_OFF;
    e->cp_match = SQL_CP_STRICT_MATCH;
    /* Recursive: entry points hold it for the whole call and the core
     * functions they call take it again. Lock order: env, then connection. */
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&e->lock, &attr);
    pthread_mutexattr_destroy(&attr);
    return e;
}

SQLRETURN gc_env_destroy(gc_env *e)
{
    assert(gc_handle_is(e, GC_HANDLE_ENV));
    pthread_mutex_lock(&e->lock);
    bool busy = e->connections != NULL;
    pthread_mutex_unlock(&e->lock);
    if (busy) {
        gc_diag_add(&e->h.diag, "HY010",
                    0, "function sequence error: connections are still allocated");
        return SQL_ERROR;
    }
    e->h.kind = GC_HANDLE_FREED;
    gc_diag_free(&e->h.diag);
    pthread_mutex_destroy(&e->lock);
    free(e);
    return SQL_SUCCESS;
}

SQLRETURN gc_env_set_attr(gc_env *e, SQLINTEGER attr, SQLPOINTER value,
                          SQLINTEGER length)
{
    SQLINTEGER v = (SQLINTEGER)(intptr_t)value;
    switch (attr) {
    case SQL_ATTR_ODBC_VERSION:
        if (v != SQL_OV_ODBC2 && v != SQL_OV_ODBC3 && v != SQL_OV_ODBC3_80) {
            gc_diag_add(&e->h.diag, "HY024", 0, "invalid attribute value %d for SQL_ATTR_ODBC_VERSION", (int)v);
            return SQL_ERROR;
        }
        pthread_mutex_lock(&e->lock);
        e->odbc_version = v;
        pthread_mutex_unlock(&e->lock);
        return SQL_SUCCESS;
    case SQL_ATTR_CONNECTION_POOLING:
        /* Pooling is the driver manager's; remember the value only. */
        e->connection_pooling = v;
        return SQL_SUCCESS;
    case SQL_ATTR_CP_MATCH:
        e->cp_match = v;
        return SQL_SUCCESS;
    case SQL_ATTR_OUTPUT_NTS:
        if (v != SQL_TRUE) {
            gc_diag_add(&e->h.diag, "HYC00", 0, "only SQL_TRUE is supported for SQL_ATTR_OUTPUT_NTS");
            return SQL_ERROR;
        }
        return SQL_SUCCESS;
    default:
        gc_diag_add(&e->h.diag, "HY092", 0, "invalid environment attribute %d", (int)attr);
        return SQL_ERROR;
    }
}

SQLRETURN gc_env_get_attr(gc_env *e, SQLINTEGER attr, SQLPOINTER value,
                          SQLINTEGER buffer_length, SQLINTEGER *string_length)
{
    SQLINTEGER v;
    switch (attr) {
    case SQL_ATTR_ODBC_VERSION:
        v = e->odbc_version;
        break;
    case SQL_ATTR_CONNECTION_POOLING:
        v = e->connection_pooling;
        break;
    case SQL_ATTR_CP_MATCH:
        v = e->cp_match;
        break;
    case SQL_ATTR_OUTPUT_NTS:
        v = SQL_TRUE;
        break;
    default:
        gc_diag_add(&e->h.diag, "HY092", 0, "invalid environment attribute %d", (int)attr);
        return SQL_ERROR;
    }
    if (value != NULL)
        *(SQLINTEGER *)value = v;
    if (string_length != NULL)
        *string_length = (SQLINTEGER)sizeof(SQLINTEGER);
    return SQL_SUCCESS;
}
