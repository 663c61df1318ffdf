/*
 * gc_stmt: the ODBC statement handle.
 *
 * Execution model (docs/statements.md):
 *  - SQLPrepare rewrites `?` markers and ODBC escapes; the server-side prepared
 *    statement ("gc_<n>") is made lazily at the first SQLExecute, or earlier
 *    when the application asks for metadata before executing.
 *  - SQLExecDirect sends the text as is (PQsendQuery) or, with parameters, as
 *    an unnamed extended-protocol statement.
 *  - Results stream in libpq's single-row mode. While a statement streams it
 *    "owns" the connection's session (src/session, gc_session_owner); every
 *    send on that session, and every read of its settled transaction status,
 *    first makes the owner buffer what is left of its results
 *    (gc_result_end_streaming, called by the session layer);
 *    gc_session_end_streaming does it before another session becomes current.
 *
 * Locking: every function here runs under the connection's lock, except
 * gc_stmt_cancel, which must interrupt a call running in another thread.
 */
#ifndef GC_STMT_H
#define GC_STMT_H

#include <libpq-fe.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "convert/gc_convert.h"
#include "core/gc_conn.h"
#include "core/gc_desc_rec.h"
#include "core/gc_fwd_rowset.h"
#include "core/gc_handle.h"
#include "core/gc_server_stmt.h"
#include "core/gc_strout.h"
#include "sql/gc_sql_txn.h"

/* The longest cursor name SQLSetCursorName accepts and SQLGetInfo reports:
 * psqlODBC's limit, which programs written for it print and test, and well
 * under PostgreSQL's identifier limit, which would cut a longer name. */
#define GC_MAX_CURSOR_NAME 32

typedef enum gc_stmt_state {
    GC_STMT_ALLOCATED = 0,    /* nothing prepared (S1) */
    GC_STMT_PREPARED,         /* prepared, not executed (S2/S3) */
    GC_STMT_EXECUTED,         /* executed, no result set (S4) */
    GC_STMT_CURSOR,           /* a result set is open (S5-S7) */
    GC_STMT_NEED_DATA,        /* waiting for data-at-execution values (S8-S10) */
} gc_stmt_state;

/* Where a scrollable (static or keyset-driven) cursor stands in its buffered set
 * (gc_cursor.c). Rows are 0-based rows of the statement's `block`. */
typedef struct gc_scroll {
    SQLLEN rowset_start;      /* first row of the rowset; -1 before the start,
                                 the set's row count after the end */
    SQLULEN rowset_rows;      /* rows the last fetch delivered (0: none) */
    SQLULEN last_size;        /* rowset size of the last fetch (SQL_FETCH_NEXT) */
    int *slot_rows;           /* owned; the block row of each rowset row (a
                                 keyset-driven cursor's rowset skips rows) */
    SQLULEN slots_cap;
    /* Changes made through the cursor (gc_cursor_write.c). */
    unsigned char *row_marks; /* owned; per row: 0, or SQL_ROW_UPDATED /
                                 _DELETED / _ADDED */
    int marks_cap;
    SQLLEN hidden_rows;       /* rows a keyset cursor's rowsets leave out:
                                 deleted by the cursor (gc_cursor_hide_row) */
    struct gc_write_target *target;  /* owned; the table rows are written to */
    bool keyset_checked;      /* a keyset-driven cursor's key was looked for
                                 (gc_cursor_keyset.c) */
    uint32_t *row_versions;   /* owned; SQL_CONCUR_ROWVER: per row the xmin
                                 the cursor last read (0: not read) */
    int versions_cap;
} gc_scroll;

/* Column 0 bound with SQLBindCol: the one copy of the bookmark binding,
 * which the descriptor functions show as ARD record 0 (gc_desc_bookmark.h). */
typedef struct gc_bookmark_bind {
    SQLSMALLINT c_type;
    SQLPOINTER data_ptr;      /* NULL: not bound */
    SQLLEN buffer_length;
    SQLLEN *indicator_ptr;
} gc_bookmark_bind;

/* A data-at-execution value collected by SQLPutData. */
typedef struct gc_dae_value {
    char *data;               /* owned; concatenated pieces */
    size_t len;
    bool is_null;
    bool wanted;              /* the parameter is bound as data at execution */
    bool done;                /* SQLParamData moved past this parameter */
} gc_dae_value;

struct gc_stmt {
    gc_handle h;
    gc_conn *conn;
    gc_stmt *next_in_conn;

    gc_desc *ard_implicit, *apd_implicit, *ird, *ipd;
    gc_desc *ard, *apd;       /* the implicit ones, or explicit ones set by the app */

    /* Attributes (the rest live in the descriptors). */
    SQLULEN query_timeout;
    long long query_timeout_left_ms;   /* not 0: the timer's time instead of
                                          query_timeout (what is left of a
                                          split text's, gc_exec_split.c) */
    SQLULEN max_rows;
    SQLULEN max_length;
    SQLULEN noscan;
    SQLULEN retrieve_data;
    SQLULEN cursor_type;
    SQLULEN concurrency;
    SQLULEN metadata_id;
    SQLULEN row_number;       /* SQL_ATTR_ROW_NUMBER: rows fetched so far
                                 (scrollable: the current row's number) */
    SQLULEN use_bookmarks;    /* SQL_ATTR_USE_BOOKMARKS */
    SQLPOINTER fetch_bookmark_ptr;  /* SQL_ATTR_FETCH_BOOKMARK_PTR */
    SQLULEN ext_rowset_size;  /* SQL_ROWSET_SIZE: SQLExtendedFetch's rowset */
    gc_bookmark_bind bookmark_col;
    char *cursor_name;        /* owned; made up on first use when NULL */

    gc_stmt_state state;

    /* The statement text: rewritten SQL and its parameter count. */
    char *sql;                /* owned; NULL when nothing prepared */
    int nparams;              /* `?` markers (parameters of the execution) */
    int positional_params;    /* highest $n when the text has no `?` */
    bool prepared;            /* SQLPrepare (not SQLExecDirect) made `sql` */
    const char *error_context;   /* what the current call is doing, as a server
                                    error's last line says it (GC_CONTEXT_*);
                                    NULL: executing. Reset after every call */
    bool simple_query;        /* several statements: run with PQsendQuery */
    bool params_untyped;      /* the server refused a declared parameter type of
                                 `sql` (42804, 42883): its values sent as text
                                 go without a type from then on (gc_exec.c) */
    bool *params_uninferred;  /* owned, nparams flags: the server could not infer
                                 the type of that parameter left to it (42P18):
                                 declared as its type_uninferred from then on */
    bool keeps_parked_statements;  /* running `sql` leaves the connection's
                                    parked server statements valid
                                    (gc_stmt_cache.h) */
    gc_sql_txn_info txn;      /* what `sql` means for the transaction (gc_txn_guard.h) */

    /* A text that is one call escape (gc_call.h). */
    bool call_escape;
    bool call_returns;        /* {?= call}: parameter 1 is the result */
    int call_kind;            /* 0 not looked up, 1 function, 2 procedure */
    char *call_text;          /* owned: `sql` as rewritten, before gc_call */

    gc_server_stmt server;    /* the server-side prepared statement of `sql` */
    Oid *described_param_types;  /* owned; from PQdescribePrepared */
    int described_nparams;
    bool described;           /* IRD comes from PQdescribePrepared */
    bool execute_failed;      /* the last execute returned SQL_ERROR: a fetch
                               * the driver manager lets through then gets
                               * SQL_NO_DATA, as psqlODBC answers it */
    bool ran_one_row;         /* executed one row at a time since SQLPrepare:
                               * with `described`, what makes psqlODBC run an
                               * autocommit parameter array row by row
                               * (gc_exec_array.c) */
    bool nullability_known;   /* the IRD's nullable fields were looked up
                               * (gc_stmt_resolve_nullability) */
    bool origins_known;       /* so were its columns' origins
                               * (gc_stmt_resolve_origins) */
    bool ird_as_described;    /* the IRD's records are as gc_result_describe_ird
                               * made them: reused for a result of the same
                               * columns */
    gc_session *ird_member;    /* not owned; the session whose description
                               * filled the IRD (its table oids are that
                               * member's), or NULL */
    unsigned long ird_generation; /* ird_member's session generation then */

    /* Execution in progress (parameter arrays, data at execution). */
    SQLULEN exec_row;         /* row of the parameter array being executed */
    SQLLEN exec_row_count;    /* sum of row counts over the array */
    int dae_current;          /* 0-based parameter SQLPutData fills; -1 none */
    gc_dae_value *dae;        /* nparams entries while executing, else NULL */
    gc_diag exec_diag;        /* the array's row diagnostics, kept across the
                                 SQLParamData calls until the array ends */
    PGresult **exec_kept;     /* results of the rows already run one by one, in
                                 row order, for SQLMoreResults; owned */
    int exec_kept_len, exec_kept_cap;

    /* Results. `block` holds the rows being delivered: a single-row result
     * while streaming, or a result with all (remaining) rows. */
    PGresult *block;
    int block_next;           /* next row of block to deliver */
    int current_row;          /* row of block the cursor is on; -1 none */
    bool set_complete;        /* no rows of this set beyond block */
    PGresult *set_error;      /* error that ended the set while buffering */
    PGresult *command;        /* the current result's answer when it is a
                                 command's (no result set); owned */
    PGresult **queue;         /* further results (complete, or a streaming head) */
    int queue_head, queue_len, queue_cap;  /* queue[queue_head..+queue_len) */
    SQLLEN row_count;         /* SQLRowCount */
    bool changed_rows_kind;   /* the last command was INSERT, UPDATE, DELETE or
                                 MERGE (0 rows: SQL_NO_DATA in ODBC 3) */
    int getdata_column;       /* column SQLGetData read last (1-based), 0 none */
    size_t getdata_offset;
    gc_scroll scroll;         /* scrollable cursors only */
    gc_fwd_rowset fwd;        /* forward-only cursors: the last rowset's rows */

    /* Global connection (gc_route.c): what routing knows of the text. */
    struct gc_analysis *analysis; /* owned; of `sql`; NULL when not analyzed */
    unsigned temp_effects;    /* GC_TEMP_SQL_* of `sql` (global/gc_temp_tables.h) */
    bool spans_groups;        /* routed as a write across groups (gc_span_exec.h) */
    bool split_read;          /* routed as a read of the transaction's own writes
                                 across groups (gc_span_exec.h) */
    bool routed_by_key;       /* its member's group came from the sharding key */
    char *target_leaf;        /* owned: an INSERT ... ON CONFLICT (...) routed to
                                 the leaf partition holding its rows, sent with
                                 that leaf as its target (gc_route_decision.leaf);
                                 NULL otherwise */
    /* While one execution runs with keys the driver drew written into its
     * text (gc_route_draw_keys): the statement's own text, analysis and
     * preparedness, put back when it has been sent (gc_route_keys_done). */
    struct {
        bool active;
        char *sql;
        struct gc_analysis *analysis;
        bool prepared;
    } key_swap;
    bool show_global;         /* the text is SHOW GLOBAL CONNECTION or SESSION */
    bool reconnect_global;    /* the text is ALTER SYSTEM RECONNECT GLOBAL CONNECTION */

    atomic_bool in_server_call;   /* a call of this statement waits on the server */
    atomic_bool timed_out;        /* the query timeout cancelled the statement */
    atomic_bool cancel_asked;     /* SQLCancel came during the current call */
};

/* --- life cycle (gc_stmt_life.c; cursor names: gc_stmt.c) --- */
/* SQLAllocHandle(SQL_HANDLE_STMT): links the statement into c->statements. */
SQLRETURN gc_stmt_create(gc_conn *c, gc_stmt **out);
/* SQLFreeHandle: closes results, unlinks, frees; deallocates the server-side
 * prepared statement when the session is free (else it dies with the session). */
void gc_stmt_destroy(gc_stmt *s);
SQLRETURN gc_stmt_free(gc_stmt *s, SQLUSMALLINT option);
SQLRETURN gc_stmt_close_cursor(gc_stmt *s, bool must_be_open);
SQLRETURN gc_stmt_get_cursor_name(gc_stmt *s, const gc_strout *out, SQLSMALLINT *len);
SQLRETURN gc_stmt_set_cursor_name(gc_stmt *s, const char *name);

/* --- attributes (gc_stmt_attr.c) --- */
SQLRETURN gc_stmt_set_attr(gc_stmt *s, SQLINTEGER attr, SQLPOINTER value,
                           SQLINTEGER len);
SQLRETURN gc_stmt_get_attr(gc_stmt *s, SQLINTEGER attr, SQLPOINTER value,
                           SQLINTEGER buffer_length, SQLINTEGER *string_length,
                           bool wide);

/* --- session ownership (gc_result.c) --- */
/* The connection's gc_session_end_streaming_fn (stmt: a gc_stmt): the
 * statement reads the rest of its results into memory and goes on reading
 * from there; the session is idle afterwards. The session layer calls it
 * before any send on the session (gc_session_before_send) and when the core
 * asks for an idle session (gc_session_end_streaming,
 * gc_session_idle_txn_status). */
void gc_result_end_streaming(void *stmt);
/* Whether s's results are still arriving on the session. */
static inline bool gc_result_streams(const gc_stmt *s)
{
    return gc_session_owned_by(&s->conn->session_owner, s);
}
/* Drops every result of s (discarding rows still on the session). */
void gc_stmt_discard_results(gc_stmt *s);

/* --- execution (gc_exec.c) --- */
SQLRETURN gc_stmt_prepare(gc_stmt *s, const char *sql, SQLINTEGER len);
SQLRETURN gc_stmt_execute(gc_stmt *s);
SQLRETURN gc_stmt_exec_direct(gc_stmt *s, const char *sql, SQLINTEGER len);
SQLRETURN gc_stmt_param_data(gc_stmt *s, SQLPOINTER *value);
SQLRETURN gc_stmt_put_data(gc_stmt *s, SQLPOINTER data, SQLLEN len);
SQLRETURN gc_stmt_cancel(gc_stmt *s);
/* For catalog functions: runs `sql` with text parameters ($1..$n; NULL
 * values are SQL NULL) and makes its rows the result set; in the open
 * transaction (a BEGIN first when autocommit is off), unless
 * outside_transaction (the session holds no part of it). */
SQLRETURN gc_stmt_exec_catalog(gc_stmt *s, const char *sql, int nparams,
                               const char *const *values, bool outside_transaction);
/* The server's description (columns with the table and column each comes
 * from) of s's text as written, prepared on the connection's current
 * session: for a split read, whose rows came by a text of the driver's own
 * (gc_span_split_read). The caller's to PQclear; NULL with diagnostics. */
PGresult *gc_exec_describe_as_written(gc_stmt *s);
/* Makes a client-built result the result set; the statement owns res. */
SQLRETURN gc_stmt_set_local_result(gc_stmt *s, PGresult *res);
/* Makes res the execution's answer as a command's: its tag's row count
 * (SQLRowCount), no result set, whatever rows res holds (a RETURNING the
 * driver appended, gc_commit.c). The statement owns res. */
SQLRETURN gc_stmt_set_command_result(gc_stmt *s, PGresult *res);
/* The execution's result when the driver answered it itself: no rows, no
 * row count (SQLRowCount gives -1). HY001 when out of memory. */
SQLRETURN gc_stmt_set_empty_result(gc_stmt *s);
/* Adds the diagnostics of error result r from member m: a result libpq or
 * the member layer made itself (no SQLSTATE) gets the member's own account
 * of what broke (MemberTimeout, a lost connection) rather than an empty
 * message. */
void gc_stmt_add_member_error(gc_stmt *s, const gc_session *m, const PGresult *r);
/* The line a server error gets after its text during the current call
 * (psqlODBC's: GC_CONTEXT_EXECUTE unless the call set another). */
const char *gc_stmt_error_context(const gc_stmt *s);

/* --- parameters (gc_param.c) --- */
SQLRETURN gc_stmt_bind_parameter(gc_stmt *s, SQLUSMALLINT n, SQLSMALLINT io_type,
                                 SQLSMALLINT c_type, SQLSMALLINT sql_type,
                                 SQLULEN column_size, SQLSMALLINT decimal_digits,
                                 SQLPOINTER value, SQLLEN buffer_length,
                                 SQLLEN *ind);
SQLRETURN gc_stmt_num_params(gc_stmt *s, SQLSMALLINT *count);
SQLRETURN gc_stmt_describe_param(gc_stmt *s, SQLUSMALLINT n, SQLSMALLINT *sql_type,
                                 SQLULEN *size, SQLSMALLINT *digits,
                                 SQLSMALLINT *nullable);

/* --- result metadata (gc_stmt_describe.c) --- */
SQLRETURN gc_stmt_num_result_cols(gc_stmt *s, SQLSMALLINT *count);
SQLRETURN gc_stmt_describe_col(gc_stmt *s, SQLUSMALLINT col, const gc_strout *name,
                               SQLSMALLINT *name_length, SQLSMALLINT *type,
                               SQLULEN *size, SQLSMALLINT *digits,
                               SQLSMALLINT *nullable);
SQLRETURN gc_stmt_col_attribute(gc_stmt *s, SQLUSMALLINT col, SQLUSMALLINT field,
                                const gc_strout *str, SQLSMALLINT *str_len,
                                SQLLEN *num);
SQLRETURN gc_stmt_row_count(gc_stmt *s, SQLLEN *count);

/* --- fetching (gc_fetch.c) --- */
SQLRETURN gc_stmt_bind_col(gc_stmt *s, SQLUSMALLINT col, SQLSMALLINT c_type,
                           SQLPOINTER value, SQLLEN buffer_length, SQLLEN *ind);
SQLRETURN gc_stmt_fetch(gc_stmt *s, SQLSMALLINT orientation, SQLLEN offset);
SQLRETURN gc_stmt_get_data(gc_stmt *s, SQLUSMALLINT col, SQLSMALLINT c_type,
                           SQLPOINTER value, SQLLEN buffer_length, SQLLEN *ind);
SQLRETURN gc_stmt_more_results(gc_stmt *s);
/* SQLExtendedFetch (ODBC 2): the rowset size is SQL_ROWSET_SIZE, the count
 * and statuses go to the arguments; `irow` is the bookmark of
 * SQL_FETCH_BOOKMARK. */
SQLRETURN gc_stmt_extended_fetch(gc_stmt *s, SQLUSMALLINT orientation, SQLLEN irow,
                                 SQLULEN *rows_fetched, SQLUSMALLINT *row_status);

/* --- scrollable cursors (gc_cursor.c, gc_setpos.c, gc_bulk.c) --- */
/* Puts a new (or closed) result set's cursor before its start. */
void gc_cursor_reset(gc_stmt *s);
/* SQLSetPos. */
SQLRETURN gc_stmt_set_pos(gc_stmt *s, SQLSETPOSIROW row, SQLUSMALLINT operation,
                          SQLUSMALLINT lock_type);
/* SQLBulkOperations. */
SQLRETURN gc_stmt_bulk_operations(gc_stmt *s, SQLSMALLINT operation);

/* --- the global connection (gc_route.c, gc_show_global.c): the global
 * kind's operations (gc_conn_kind.h), called through the connection's
 * kind, never directly by shared code --- */
/* Analyzes s->sql for routing; an analysis that fails only means "route
 * by policy". */
void gc_route_analyze(gc_stmt *s);
/* Chooses the member for one execution with the converted values pv (may
 * be NULL), opens it if needed and makes it the connection's session. */
SQLRETURN gc_route_statement(gc_stmt *s, const gc_param_value *pv);
/* Before routing one execution: an INSERT that leaves a sharded table's
 * key to its sequence and could not run as sent gets keys drawn now
 * (gc_global_with_drawn_keys): s->sql and s->analysis become the text with
 * them, sent unprepared, until gc_route_keys_done. */
SQLRETURN gc_route_draw_keys(gc_stmt *s);
void gc_route_keys_done(gc_stmt *s);
/* After an execution: records the member that ran it, and its error. */
void gc_route_done(gc_stmt *s, SQLRETURN rc);
/* Whether server statement st of connection c exists on session m, and
 * recording that s's does (per member session generation). */
bool gc_route_holds(const gc_conn *c, const gc_server_stmt *st, const gc_session *m);
void gc_route_mark_prepared(gc_stmt *s, const gc_session *m);
/* Whether s->sql may run on the connection: a global connection refuses
 * session-dependent SQL (0A000 added to s's diagnostics). */
bool gc_route_session_sql_allowed(gc_stmt *s);
/* Under the global session (GlobalSession=Yes): false, with 0A000 naming
 * the key in s's diagnostics, for DDL and for what creates a temporary
 * table (both would stay in a shared session). True otherwise. */
bool gc_route_global_session_allows(gc_stmt *s);
/* Frees the analysis. */
void gc_route_free(gc_stmt *s);
/* Whether sql (len bytes) is SHOW GLOBAL CONNECTION or its companion SHOW
 * GLOBAL SESSION (any case, optional trailing semicolon). */
bool gc_show_global_matches(const char *sql, size_t len);
/* The rows of the one sql is (caller owns), NULL on out-of-memory: the
 * connection's kind's show_connection or show_sessions. */
PGresult *gc_show_global_result(gc_conn *c, const char *sql);
/* Those of each kind (its table points at them): a general connection's
 * one server and no shared session; a global connection's members and its
 * shared sessions. */
PGresult *gc_show_global_server(gc_conn *c);
PGresult *gc_show_global_no_sessions(gc_conn *c);
PGresult *gc_show_global_members(gc_conn *c);
PGresult *gc_show_global_shared_sessions(gc_conn *c);

/* --- internal, shared by the files of this module --- */
/* Has the statement wait for and take the first result after a send. */
SQLRETURN gc_result_begin(gc_stmt *s);
/* For a statement read whole (not streamed): an autocommit statement sent
 * with the statement mark, whose commit follows its result, or a text of
 * several statements. Reads the session to its end; when any later result
 * is an error (the commit's, a later statement's), the statement failed
 * with it (SQL_ERROR, every result dropped), as psqlODBC fails such a
 * text at its execute. rc is gc_result_begin's, returned when nothing
 * failed; the later results then wait for SQLMoreResults. */
SQLRETURN gc_result_settle(gc_stmt *s, SQLRETURN rc);
/* Makes complete results results[0..n) (n > 0, all owned from then on) the
 * statement's results: the first current, the rest for SQLMoreResults. */
SQLRETURN gc_result_begin_list(gc_stmt *s, PGresult **results, int n);
/* A row of a parameter array run one by one keeps its results: the current
 * result and those after it, complete, are appended to s->exec_kept and the
 * statement is left without a result. False when out of memory (what could
 * not be kept is dropped). */
bool gc_result_keep_row(gc_stmt *s);
/* Moves the cursor to the next row of the current set. Returns SQL_SUCCESS,
 * SQL_NO_DATA at the end, or SQL_ERROR (diagnostics added). */
SQLRETURN gc_result_next_row(gc_stmt *s);
/* Looks up, once per described result, which of its columns come straight
 * from a NOT NULL table column and sets their IRD nullable field to
 * SQL_NO_NULLS (gc_table_columns.c). Called where an application asks for
 * nullability; never fails: when it cannot tell, columns stay SQL_NULLABLE. */
void gc_stmt_resolve_nullability(gc_stmt *s);
/* Looks up, once per described result, the catalog, schema, table and
 * column names of its columns that are table columns, into their IRD
 * records' origin (gc_table_columns.c). Called where an application asks
 * for one of them; never fails: when it cannot tell, they stay empty. */
void gc_stmt_resolve_origins(gc_stmt *s);
/* Whether the IRD's table oids are those of the connection's current
 * session, where a catalog query about them would run (a global
 * connection's members each have their own oids): the result is one
 * member's (not a write across groups, not a parameter array), described
 * by that session and generation. */
bool gc_result_described_by_current_session(const gc_stmt *s);
/* Fills the IRD from a result's columns. */
bool gc_result_describe_ird(gc_stmt *s, const PGresult *res);
/* Sets an IRD record's ODBC type fields from its r->info: the wide SQL
 * type of character columns when `wide` (the application connected through
 * a W function), else the narrow one. */
void gc_result_apply_type_info(gc_desc_rec *r, bool wide);
/* s owns the session from now on: call it right after s sent its command
 * (the send ended any other owner's stream). */
void gc_result_take_session(gc_stmt *s);
void gc_result_release_session(gc_stmt *s);
/* Forgets the statement text and deallocates its server-side statement. */
void gc_stmt_unprepare(gc_stmt *s);
/* Ends a parameter-array / data-at-execution sequence, freeing its values. */
void gc_stmt_reset_exec(gc_stmt *s);
/* SQL_SUCCESS becomes SQL_SUCCESS_WITH_INFO when records (notices) were added. */
SQLRETURN gc_stmt_rc_with_info(gc_stmt *s, SQLRETURN rc);

#endif
