/*
 * gc_env: the ODBC environment handle.
 */
#ifndef GC_ENV_H
#define GC_ENV_H

#include <pthread.h>

#include "core/gc_handle.h"

struct gc_env {
    gc_handle h;
    SQLINTEGER odbc_version;     /* SQL_OV_ODBC2, SQL_OV_ODBC3 or SQL_OV_ODBC3_80 */
    SQLINTEGER connection_pooling;
    SQLINTEGER cp_match;
    pthread_mutex_t lock;        /* recursive; guards the fields above, the diagnostics
                                    and `connections`. Lock order: env, then connection. */
    gc_conn *connections;        /* list through gc_conn.next_in_env, kept by
                                    gc_conn_create / gc_conn_destroy */
};

/* Allocates an environment (ODBC 3 behaviour until SQL_ATTR_ODBC_VERSION is
 * set). NULL on out-of-memory. Freed with gc_env_destroy(). */
gc_env *gc_env_create(void);
/* HY010 when connections are still allocated. */
SQLRETURN gc_env_destroy(gc_env *e);
SQLRETURN gc_env_set_attr(gc_env *e, SQLINTEGER attr, SQLPOINTER value,
                          SQLINTEGER length);
SQLRETURN gc_env_get_attr(gc_env *e, SQLINTEGER attr, SQLPOINTER value,
                          SQLINTEGER buffer_length, SQLINTEGER *string_length);

#endif
