/*
 * gc_env: the ODBC environment handle.
 */
#ifndef GC_ENV_H
#define GC_ENV_H

#include <pthread.h>

#include "core/gc_handle.h"

typedef struct gc_conn gc_conn;

typedef struct gc_env {
    gc_handle h;
    SQLINTEGER odbc_version;     /* SQL_OV_ODBC2, SQL_OV_ODBC3 or SQL_OV_ODBC3_80 */
    SQLINTEGER connection_pooling;
    SQLINTEGER cp_match;
    pthread_mutex_t lock;        /* guards the fields above and `connections` */
    gc_conn *connections;        /* list through gc_conn.next_in_env */
} gc_env;

#endif
