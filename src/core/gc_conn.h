/*
 * gc_conn: the ODBC connection handle. A general connection (GlobalConnection=No)
 * holds one member session; the global connection (src/global) comes later and
 * will hold a router over many.
 *
 * Locking: `lock` is recursive and guards everything in the connection and in
 * its statements and descriptors. Every ODBC entry point on a connection,
 * statement or descriptor holds it for the duration of the call, except
 * SQLCancel, which must be able to interrupt a running call.
 */
#ifndef GC_CONN_H
#define GC_CONN_H

#include <pthread.h>
#include <stdbool.h>

#include "config/gc_settings.h"
#include "core/gc_env.h"
#include "core/gc_handle.h"
#include "member/gc_member.h"
#include "util/gc_trace.h"

typedef struct gc_stmt gc_stmt;
typedef struct gc_desc gc_desc;

struct gc_conn {
    gc_handle h;
    gc_env *env;
    gc_conn *next_in_env;
    pthread_mutex_t lock;          /* recursive; see above */

    gc_settings settings;          /* from the DSN and connection string */
    gc_trace *trace;               /* NULL when LogLevel is off */
    gc_member *session;            /* NULL until connected */

    /* Connection attributes. */
    bool autocommit;               /* SQL_ATTR_AUTOCOMMIT */
    SQLUINTEGER txn_isolation;     /* SQL_ATTR_TXN_ISOLATION; 0 = server default */
    SQLUINTEGER access_mode;       /* SQL_ATTR_ACCESS_MODE */
    SQLUINTEGER login_timeout;     /* SQL_ATTR_LOGIN_TIMEOUT, seconds */
    SQLUINTEGER connection_timeout;
    SQLULEN query_timeout_default;
    SQLUINTEGER metadata_id;
    SQLUINTEGER async_enable;

    unsigned long next_statement_number;   /* names server-side prepared statements */
    gc_stmt *statements;           /* list through gc_stmt.next_in_conn */
    gc_desc *descriptors;          /* explicitly allocated descriptors */
};

/* Begins a transaction on the server when autocommit is off and none is open
 * (the state comes from PQtransactionStatus). Call before running a statement. */
bool gc_conn_begin_if_needed(gc_conn *c, gc_error *err);

#endif
