/*
 * gc_conn: the ODBC connection handle. A general connection (GlobalConnection=No)
 * holds one member session. A global connection (GlobalConnection=Yes) holds
 * a gc_global (src/global) with a session per cluster member; `session` then
 * points at the member chosen for the current statement (gc_route.c), so the
 * rest of the core runs on it exactly as on a general connection's session.
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
#include "core/gc_call_kinds.h"
#include "core/gc_env.h"
#include "core/gc_handle.h"
#include "core/gc_server_stmt.h"
#include "session/gc_session.h"
#include "util/gc_trace.h"

struct gc_conn {
    gc_handle h;
    gc_env *env;
    gc_conn *next_in_env;
    pthread_mutex_t lock;          /* recursive; see above */

    gc_settings settings;          /* from the DSN and connection string */
    gc_trace *trace;               /* NULL when LogLevel is off */
    gc_session *session;           /* NULL until connected; on a global
                                      connection one of global's members,
                                      owned by global */
    gc_session_owner session_owner; /* the statement streaming on `session`
                                       (gc_session.h; its callback,
                                       gc_result_end_streaming, is set by
                                       gc_conn_init_handles) */
    struct gc_global *global;      /* NULL for a general connection */
    const struct gc_conn_kind *kind; /* the rules of general or global
                                        (gc_conn_kind.h); never NULL */

    /* Connection attributes. */
    bool autocommit;               /* SQL_ATTR_AUTOCOMMIT */
    SQLUINTEGER txn_isolation;     /* SQL_ATTR_TXN_ISOLATION; 0 = server default */
    SQLUINTEGER access_mode;       /* SQL_ATTR_ACCESS_MODE */
    SQLUINTEGER login_timeout;     /* SQL_ATTR_LOGIN_TIMEOUT, seconds */
    SQLUINTEGER connection_timeout;
    SQLULEN query_timeout_default;
    /* ODBC 2 statement options set on the connection, for every statement
     * (gc_conn_stmt_options.c): one place per option at most. */
    struct gc_conn_stmt_option {
        SQLINTEGER attr;
        SQLULEN value;
    } stmt_options[11];          /* gc_conn_is_statement_option: 11 */
    int n_stmt_options;
    SQLUINTEGER metadata_id;
    SQLUINTEGER async_enable;

    SQLUINTEGER packet_size;       /* SQL_ATTR_PACKET_SIZE: kept, not used */
    SQLUINTEGER psqlodbc_batch_size; /* psqlODBC's batch size (BatchSize, its
                                        attribute): autocommit array rows per
                                        transaction (gc_exec_array.c) */
    SQLPOINTER quiet_mode;         /* SQL_ATTR_QUIET_MODE: kept, not used */
    SQLUINTEGER odbc_cursors;      /* SQL_ATTR_ODBC_CURSORS (the DM's business) */
    /* The application connected through SQLConnectW or SQLDriverConnectW:
     * character columns are then described with the wide SQL types
     * (SQL_WVARCHAR, ...), else with the narrow ones, as psqlODBC does
     * (docs/types.md). */
    bool wide_app;

    /* Where server notices go while a call runs: the diagnostics of the
     * handle the current ODBC call is on (set by the odbc layer's enter
     * functions, NULL between calls, when notices are only traced). */
    gc_diag *notice_diag;

    /* The statement whose failure the rollback level acts on, and how it
     * was guarded (gc_txn_guard.h); NULL when none. */
    struct {
        gc_stmt *stmt;
        int mode;                  /* gc_txn_guard_mode */
    } txn_guard;
    unsigned long next_statement_number;   /* names server-side prepared statements */
    /* Rises each time this connection runs DDL: what the driver learnt from
     * the catalog (below) is asked again after it. */
    unsigned ddl_epoch;
    /* Whether the database has a type named lo (gc_lo.c): 0 not asked, 1
     * none, 2 it has; asked in lo_type_epoch. */
    int lo_type_presence;
    unsigned lo_type_epoch;
    gc_call_kinds call_kinds;      /* procedure or function, by called name */
    /* The names and NOT NULL columns of the tables results came from
     * (gc_table_columns.c). */
    struct gc_table_columns *table_columns;   /* owned; NULL when empty */
    gc_stmt_cache stmt_cache;              /* server statements parked for reuse */
    gc_stmt *statements;           /* list through gc_stmt.next_in_conn */
    gc_desc *descriptors;          /* explicitly allocated descriptors */
};

/* Allocates a connection of env and links it into env's list. NULL on
 * out-of-memory. Freed with gc_conn_destroy(). */
gc_conn *gc_conn_create(gc_env *env);
/* HY010 when still connected (ODBC: disconnect first). */
/* The notice handler of every member session of a connection: a server
 * notice goes to the handle whose call is running (notice_diag). */
void gc_conn_notice(void *ctx, const char *sqlstate, const char *severity, const char *message);

SQLRETURN gc_conn_destroy(gc_conn *c);

bool gc_conn_is_connected(const gc_conn *c);

/* SQLConnect: the DSN's keys, with uid/pwd (when not NULL or empty)
 * overriding. */
SQLRETURN gc_conn_connect(gc_conn *c, const char *dsn, const char *uid,
                          const char *pwd);
/* SQLDriverConnect: connects with the keys of connstr (len bytes or SQL_NTS);
 * *out_connstr gets the completed connection string (malloc'd, caller frees)
 * on success. No dialog can be shown, so every completion mode behaves as
 * SQL_DRIVER_NOPROMPT. */
SQLRETURN gc_conn_driver_connect(gc_conn *c, const char *connstr, SQLINTEGER len,
                                 SQLUSMALLINT completion, char **out_connstr);
/* SQLDisconnect: destroys the statements and explicit descriptors (ODBC),
 * rolls back an open transaction and closes the session. */
SQLRETURN gc_conn_disconnect(gc_conn *c);

/* SQLSetConnectAttr / SQLGetConnectAttr (gc_conn_attr.c). String attributes
 * are UTF-8 here; `wide` says how the application measures string lengths
 * for output (the value itself is converted by the caller for input). */
SQLRETURN gc_conn_set_attr(gc_conn *c, SQLINTEGER attr, SQLPOINTER value,
                           SQLINTEGER length);
SQLRETURN gc_conn_get_attr(gc_conn *c, SQLINTEGER attr, SQLPOINTER value,
                           SQLINTEGER buffer_length, SQLINTEGER *string_length,
                           bool wide);

/* SQLEndTran on one connection (gc_conn_endtran.c). COMMIT/ROLLBACK are
 * sent only when the server says a transaction is open. */
SQLRETURN gc_conn_end_tran(gc_conn *c, SQLSMALLINT completion);
/* SQLEndTran on an environment (gc_conn_endtran.c): every connection of e,
 * each under its own lock; failures are copied to e's diagnostics. */
SQLRETURN gc_conn_end_tran_env(gc_env *e, SQLSMALLINT completion);

/* Begins a transaction on the server when autocommit is off and none is open
 * (the state comes from PQtransactionStatus). Call before running a statement. */
bool gc_conn_begin_if_needed(gc_conn *c, gc_error *err);
/* The BEGIN that opens a transaction with the connection's isolation level
 * and access mode, into buf (96 bytes hold the longest); on a global
 * connection followed, in the same text, by the mark the cluster's trigger
 * on foreign tables reads (global/gc_remote_write.h). */
void gc_conn_begin_sql(const gc_conn *c, char *buf, size_t size);

/* Runs an internal statement (SET, SHOW...) on the session; the result is
 * the caller's to PQclear; NULL with err filled on failure. */
PGresult *gc_conn_exec(gc_conn *c, const char *sql, gc_error *err);

/* Flags for gc_sql_rewrite that follow the server: GC_SQL_BACKSLASH_STRINGS
 * when the current session has standard_conforming_strings off. */
unsigned gc_conn_sql_rewrite_flags(const gc_conn *c);

/* The session, ready for a statement; NULL after adding 08003 (never
 * connected) or 08S01 (the connection was lost) to diag. */
gc_session *gc_conn_live_session(gc_conn *c, gc_diag *diag);

/* --- setting a session up from psqlODBC's keys (gc_conn_setup.c) --- */
/* The trace the settings ask for: LogLevel raised by Debug (3) and CommLog
 * (2), into LogFile, else Logdir/gcodbc_PID.log, else standard error; a
 * trace only Debug or CommLog turned on goes to gcodbc_PID.log in the
 * temporary directory instead of standard error, as psqlODBC's logs do. */
gc_trace *gc_conn_setup_open_trace(const gc_settings *s);
/* Extra libpq conninfo for every member session: pqopt (percent-decoded)
 * and KeepaliveTime / KeepaliveInterval. Malloc'd (caller frees); NULL when
 * there is none. *oom is set when memory ran out. */
char *gc_conn_setup_extra_conninfo(const gc_settings *s, bool *oom);
/* Runs ConnSettings on the newly opened connection (general: its session;
 * global: on every member, logged for members opened later). False with
 * err when the server refused it, or on a global connection when the text is
 * not only SET / RESET statements (08001). */
bool gc_conn_setup_run_conn_settings(gc_conn *c, gc_error *err);
/* Adds 01S00 naming the unknown connection keys (the first few, and how
 * many more) and traces them; false when there were none. */
bool gc_conn_setup_report_unknown_keys(gc_conn *c);

/* --- the statements and descriptors it owns (gc_conn_handles.c) --- */
/* A connection is made: a statement streaming on its session is called
 * back (gc_result_end_streaming) before another send. */
void gc_conn_init_handles(gc_conn *c);
/* The connection opens: nothing is parked for reuse yet (gc_stmt_cache.h). */
void gc_conn_open_handles(gc_conn *c);
/* Its sessions are about to close: frees every statement and explicit
 * descriptor (ODBC frees them with the connection) and forgets the parked
 * server statements without deallocating them. */
void gc_conn_close_handles(gc_conn *c);
/* Drops what the connection learnt about the tables of results (at
 * disconnect; gc_table_columns.c). */
void gc_conn_forget_table_columns(gc_conn *c);

/* Makes member i of a global connection the connection's current session
 * (buffering the results of a statement still streaming on the previous
 * one). Implemented in gc_conn_global.c, whose header declares the rest of
 * the global connection's side (opening, closing, following the cluster). */
void gc_conn_use_member(gc_conn *c, int i);

/* --- session characteristics --- */
/* The SET that gives a member session the connection's isolation level and
 * access mode, or NULL when both are the server's defaults. Static buffer of
 * the caller: buf of size bytes. */
const char *gc_conn_characteristics_sql(const gc_conn *c, char *buf, size_t size);
/* "SERIALIZABLE" etc. for an SQL_TXN_* level; NULL for 0 (server default). */
const char *gc_conn_isolation_sql(SQLUINTEGER level);
/* Sends SET SESSION CHARACTERISTICS for the isolation level and access mode
 * (so they hold for autocommit statements too). True when not connected. */
bool gc_conn_apply_session_characteristics(gc_conn *c, gc_error *err);

#endif
