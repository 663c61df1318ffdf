/*
 * gc_conn_kind: what differs between a general connection (one member
 * session, the server its DSN names) and a global connection (a session per
 * cluster member, routing, failover), as one table of operations and
 * settings. Shared code calls the connection's kind (gc_conn.kind) where it
 * would otherwise ask "is this connection global?"; each kind's rules live
 * in its own files: the general kind in gc_conn_kind_general.c, the global
 * kind's table in gc_conn_kind_global.c, its bodies in gc_route.c and
 * src/global. Which kind a connection is gets decided in one place,
 * gc_conn_kind_for (gc_conn_kind.c) (docs/architecture.md, "Connection
 * kinds").
 */
#ifndef GC_CONN_KIND_H
#define GC_CONN_KIND_H

#include <stdbool.h>

#include "convert/gc_convert.h"
#include "core/gc_handle.h"
#include "session/gc_session.h"

/* Only pointed at here: including gc_stmt_cache.h would put this header
 * into the core's import circle (docs/architecture.md). */
struct gc_server_stmt;
struct gc_array_lanes;
struct gc_settings;

typedef struct gc_conn_kind {
    /* --- connecting --- */
    /* Opens what c->settings describe (params: every member session's
     * template) and, when that succeeds, makes this kind c's; errors in c's
     * diagnostics, c unchanged. */
    SQLRETURN (*open)(gc_conn *c, const gc_member_params *params);
    /* After every ODBC call on c (the entry points' leave): what the kind
     * holds between calls, such as the global session's shared member
     * sessions (gc_conn_global_idle), goes back. */
    void (*between_calls)(gc_conn *c);

    /* --- settings the shared code reads --- */
    /* A server statement's name is kept when the session it was made on is
     * gone: the global kind prepares the same name on another member; the
     * general kind's one session was reconnected, so it takes a new one. */
    bool keeps_statement_name;
    /* The connection has a session per member: the trace names the one a
     * COMMIT or ROLLBACK goes to. */
    bool several_sessions;
    /* Appended to the BEGIN the driver sends (gc_conn_begin_sql). */
    const char *begin_suffix;

    /* --- a statement's text (SQLPrepare, SQLExecDirect) --- */
    /* Analyzes s->sql for routing; an analysis that fails only means
     * "route by policy". */
    void (*analyze)(gc_stmt *s);
    /* Whether s->sql may run on the connection (0A000 in s's diagnostics
     * when not): session-dependent SQL, the shared session's limits. */
    bool (*session_sql_allowed)(gc_stmt *s);
    bool (*shared_session_allows)(gc_stmt *s);
    /* Whether s is DDL run on every group (gc_ddl_exec.h). */
    bool (*cluster_wide_ddl)(const gc_stmt *s);
    /* Whether s, a text of several statements, runs statement by statement
     * rather than sent whole (gc_exec_split.h). */
    bool (*splits_text)(const gc_stmt *s);
    /* True when s (SET, a BEGIN held back...) was handled without routing:
     * *rc its answer (gc_route_session.h). */
    bool (*session_control)(gc_stmt *s, SQLRETURN *rc);

    /* --- one execution --- */
    /* Chooses the session for one execution with the converted values pv
     * (may be NULL) and makes it the connection's session. */
    SQLRETURN (*route_statement)(gc_stmt *s, const gc_param_value *pv);
    /* Around one execution, before its routing and after its send: keys
     * the driver draws for it, written into its text (gc_route_draw_keys). */
    SQLRETURN (*draw_keys)(gc_stmt *s);
    void (*keys_done)(gc_stmt *s);
    /* After an execution ended with rc: the outcome's bookkeeping, which may
     * replace s's diagnostics with what the application can act on. */
    void (*statement_done)(gc_stmt *s, SQLRETURN rc);
    /* The statement's PREPARE on session m failed with rc: nothing ran. */
    void (*prepare_failed)(gc_stmt *s, gc_session *m, SQLRETURN rc);
    /* Whether server statement st of connection c exists on session m, and
     * recording that s's does now. */
    bool (*holds)(const gc_conn *c, const struct gc_server_stmt *st, const gc_session *m);
    void (*mark_prepared)(gc_stmt *s, const gc_session *m);
    /* After s's server statement was made on session m: its twin that
     * returns the transaction id, where the kind wants one (gc_commit.h). */
    void (*prepare_twin)(gc_stmt *s, gc_session *m);
    /* Runs this execution of s on m with its transaction id when the kind
     * sends it so (a COMMIT in SQL, an autocommit write: gc_commit.h):
     * true, *rc its answer; false when s goes the ordinary way. The
     * execution sends sql, through server statement stmt_name unless NULL. */
    bool (*ran_with_xid)(gc_stmt *s, gc_session *m, const char *sql, const char *stmt_name,
                         int n, const Oid *types, const char *const *values,
                         const int *lengths, const int *formats, SQLRETURN *rc);
    /* How many times a failed execution may be sent again elsewhere, and
     * whether this failure allows it (docs/failover.md). */
    int (*reruns)(const gc_conn *c);
    bool (*may_rerun)(const gc_stmt *s);
    bool (*group_not_writable)(const gc_stmt *s);
    /* Whether s's parameter array may be pipelined (gc_exec_array.h) as far
     * as the kind is concerned, and how its rows are placed on pipelines
     * then: one lane on the one session, or a lane per member. */
    bool (*array_applies)(gc_stmt *s);
    const struct gc_array_lanes *array_lanes;
    /* A fetch failed (SQLFetch, SQLMoreResults). */
    void (*fetch_failed)(gc_stmt *s);
    /* Whether an autocommit statement is sent after the statement mark
     * (global/gc_remote_write.h). */
    bool (*statement_marked)(const gc_conn *c);
    /* A statement's wait on the connection's session begins (its timer
     * starts) and ends: the in-doubt watcher settles what blocks it
     * meanwhile (gc_in_doubt.h). */
    void (*wait_begins)(gc_conn *c);
    void (*wait_ends)(gc_conn *c);
    /* From another thread (SQLCancel, the query timeout): cancels the
     * statement the connection waits on (on a global connection, also the
     * later steps of a cluster DDL: gc_global_cancel_wait). */
    bool (*cancel_wait)(gc_conn *c, gc_error *err);

    /* --- the sessions --- */
    /* Whether the connection lives (SQL_ATTR_CONNECTION_DEAD false; a
     * driver manager's pool keeps it for the next user). */
    bool (*alive)(const gc_conn *c);
    /* The connection's member sessions, open or not: i in [0, count). */
    int (*session_count)(const gc_conn *c);
    gc_session *(*session_at)(const gc_conn *c, int i);
    /* Before running something on c->session outside routing: false with
     * err when it cannot be had (gc_conn_global_hold_session). */
    bool (*hold_session)(gc_conn *c, gc_error *err);
    /* Closes the sessions at disconnect (anything open on them was rolled
     * back before). */
    void (*close)(gc_conn *c);
    /* Runs sql (SET statements: the session characteristics, ConnSettings)
     * on the connection's sessions; false with err when refused. */
    bool (*set_on_sessions)(gc_conn *c, const char *sql, gc_error *err);
    bool (*run_conn_settings)(gc_conn *c, const char *sql, gc_error *err);
    /* GCODBC_ATTR_LAST_MEMBER and GCODBC_ATTR_CATALOG_VERSION (-1 when the
     * topology did not come from the cluster's catalog). */
    const char *(*last_member_name)(gc_conn *c);
    SQLBIGINT (*catalog_version)(const gc_conn *c);
    /* A catalog function names table `table` of `schema` (NULL: the
     * search_path's): the session of a member of its owner group becomes
     * c's when the kind places tables (gc_catalog_owner.c); never fails
     * the function. True when that member answers outside the open
     * transaction (it holds no part of it): no BEGIN goes there. */
    bool (*catalog_on_owner)(gc_conn *c, const char *schema, const char *table);

    /* --- statements the driver answers itself --- */
    /* SHOW GLOBAL CONNECTION and SHOW GLOBAL SESSION (gc_show_global.c):
     * the result, NULL on out of memory. */
    PGresult *(*show_connection)(gc_conn *c);
    PGresult *(*show_sessions)(gc_conn *c);
    /* ALTER SYSTEM RECONNECT GLOBAL CONNECTION (gc_reconnect_stmt.h):
     * errors go to diag. */
    SQLRETURN (*reconnect)(gc_conn *c, gc_diag *diag);

    /* --- transactions --- */
    /* The driver sent BEGIN on the connection's session outside routing (a
     * catalog function, autocommit off): SQLEndTran must find it. */
    void (*began_outside_routing)(gc_conn *c);
    /* Whether a transaction is open: on the session of a general
     * connection, on any member of a global one. */
    bool (*in_transaction)(const gc_conn *c);
    /* SQLEndTran: commit (commit) or roll back the open transaction. */
    SQLRETURN (*end_tran)(gc_conn *c, bool commit);
    /* A failed statement left m's transaction aborted (the rollback level):
     * true when the kind rolled it back everywhere it ran; else the caller
     * sends ROLLBACK on m and, when it went, tells rolled_back_on. */
    bool (*rolled_back_everywhere)(gc_conn *c, gc_session *m);
    void (*rolled_back_on)(gc_conn *c, gc_session *m);
    /* A ROLLBACK found session m gone (why, reason: its text): the server
     * ended the transaction with the session. What follows for the
     * connection; SQL_SUCCESS or SQL_SUCCESS_WITH_INFO. */
    SQLRETURN (*rolled_back_with_session)(gc_conn *c, gc_session *m, const gc_error *why,
                                          const char *reason);
} gc_conn_kind;

extern const gc_conn_kind gc_conn_kind_general;
extern const gc_conn_kind gc_conn_kind_global;

/* The kind a connection with these settings opens as (GlobalConnection):
 * the one place the kind is decided. */
const gc_conn_kind *gc_conn_kind_for(const struct gc_settings *settings);

#endif
