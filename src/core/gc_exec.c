/*
 * gc_exec: SQLPrepare, SQLExecute, SQLExecDirect, parameter arrays, data at
 * execution (SQLParamData / SQLPutData), SQLCancel and the catalog hooks.
 *
 * A parameter array goes pipelined when it can (gc_exec_array.c); else it
 * runs row by row here: every row's results but the last are read and
 * dropped (their row counts add up). A row with data-at-execution
 * parameters stops with SQL_NEED_DATA until SQLParamData has them all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/gc_call.h"
#include "core/gc_commit.h"
#include "core/gc_conn_global.h"
#include "core/gc_conn_kind.h"
#include "core/gc_cursor.h"
#include "core/gc_ddl_exec.h"
#include "core/gc_desc.h"
#include "core/gc_span_exec.h"
#include "core/gc_exec_array.h"
#include "core/gc_exec_row_batches.h"
#include "core/gc_exec_several.h"
#include "core/gc_exec_split.h"
#include "core/gc_exec_timer.h"
#include "core/gc_lo.h"
#include "core/gc_param_dates.h"
#include "core/gc_param.h"
#include "core/gc_reconnect_stmt.h"
#include "core/gc_refcursor.h"
#include "core/gc_route.h"
#include "core/gc_route_session.h"
#include "core/gc_stmt.h"
#include "core/gc_stmt_cache.h"
#include "core/gc_txn_guard.h"
#include "global/gc_global.h"
#include "global/gc_remote_write.h"
#include "global/gc_session_pool.h"
#include "sql/gc_sql_rewrite.h"

static gc_stmt_state idle_state(const gc_stmt *s)
{
    return s->prepared ? GC_STMT_PREPARED : GC_STMT_ALLOCATED;
}

/* Common checks of SQLPrepare / SQLExecute / SQLExecDirect. */
static bool may_execute(gc_stmt *s)
{
    if (s->state == GC_STMT_NEED_DATA) {
        gc_diag_add(&s->h.diag, "HY010", 0, "function sequence error: data at execution pending");
        return false;
    }
    if (s->state == GC_STMT_CURSOR) {
        gc_diag_add(&s->h.diag, "24000", 0, "invalid cursor state: a cursor is open");
        return false;
    }
    return true;
}

/* The session, or NULL with 08003 (never connected) or 08S01 (lost) added. */
static gc_session *open_session(gc_stmt *s)
{
    gc_error held;
    gc_error_clear(&held);
    if (!s->conn->kind->hold_session(s->conn, &held)) {
        gc_diag_add_error(&s->h.diag, &held);
        return NULL;
    }
    gc_session *m = s->conn->session;
    if (m != NULL && gc_session_get_state(m) == GC_MEMBER_DOWN) {
        gc_diag_add(&s->h.diag, "08S01", 0,
                    "communication link failure: the connection to the server was lost");
        return NULL;
    }
    if (m == NULL || !gc_session_is_open(m)) {
        gc_diag_add(&s->h.diag, "08003", 0, "connection not open");
        return NULL;
    }
    return m;
}

/* Rewrites markers and escapes into s->sql. */
static SQLRETURN set_text(gc_stmt *s, const char *sql, SQLINTEGER len)
{
    if (sql == NULL) {
        gc_diag_add(&s->h.diag, "HY009", 0, "invalid use of null pointer");
        return SQL_ERROR;
    }
    if (len == SQL_NTS)
        len = (SQLINTEGER)strlen(sql);
    else if (len < 0) {
        gc_diag_add(&s->h.diag, "HY090", 0, "invalid string or buffer length");
        return SQL_ERROR;
    }
    unsigned flags = GC_SQL_MARKERS_TO_DOLLAR | gc_conn_sql_rewrite_flags(s->conn);
    if (s->noscan != SQL_NOSCAN_ON)
        flags |= GC_SQL_TRANSLATE_ESCAPES;
    gc_sql_rewritten out;
    gc_error err;
    gc_error_clear(&err);
    if (!gc_sql_rewrite(sql, (size_t)len, flags, &out, &err)) {
        gc_diag_add_error(&s->h.diag, &err);
        return SQL_ERROR;
    }
    if (out.marker_count > GC_PARAM_MAX) {
        gc_diag_add(&s->h.diag, "54023", 0,
                    "too many parameters: the statement has %u parameter markers, "
                    "PostgreSQL takes at most %d", out.marker_count, GC_PARAM_MAX);
        gc_sql_rewritten_free(&out);
        return SQL_ERROR;
    }
    s->sql = out.text;            /* taken over from `out` */
    s->call_escape = out.call_escape;
    s->call_returns = out.return_value;
    /* ODBC parameters are the `?` markers. `$n` written by the application
     * are left alone: in `PREPARE p AS ... $1` they are the SQL-level
     * statement's own (start_exec still honours bound ones, see there). */
    s->nparams = (int)out.marker_count;
    s->positional_params = out.marker_count == 0 ? (int)out.max_positional : 0;
    s->keeps_parked_statements = gc_stmt_cache_text_keeps(s->sql);
    s->txn = gc_sql_txn_classify(s->sql, strlen(s->sql));
    /* The server prepares one statement only: several with parameters run
     * as a simple query with the values written in (gc_exec_several.h). */
    s->simple_query = s->txn.several && s->nparams > 0;
    return SQL_SUCCESS;
}

/* Reads every result of the command in flight; returns the first error or
 * else the first result (caller PQclears), NULL when none came. */
static PGresult *collect_command(gc_session *m)
{
    PGresult *keep = NULL, *r;
    while ((r = gc_session_next_result(m)) != NULL) {
        ExecStatusType st = PQresultStatus(r);
        bool is_error = st == PGRES_FATAL_ERROR || st == PGRES_BAD_RESPONSE;
        if (keep == NULL || (is_error && PQresultStatus(keep) != PGRES_FATAL_ERROR)) {
            PQclear(keep);
            keep = r;
        } else {
            PQclear(r);
        }
    }
    return keep;
}

static bool is_error_result(const PGresult *r)
{
    return r == NULL || PQresultStatus(r) == PGRES_FATAL_ERROR ||
           PQresultStatus(r) == PGRES_BAD_RESPONSE;
}

/* The server refused to prepare the text: psqlODBC words that, at
 * SQLExecute, as a failure to prepare the parameters. */
static void add_prepare_error(gc_stmt *s, const gc_session *m, const PGresult *r)
{
    if (s->prepared && s->error_context == NULL)
        s->error_context = GC_CONTEXT_PREPARE;
    gc_stmt_add_member_error(s, m, r);
}

/* Collects the answer to a PREPARE sent on m: SQL_SUCCESS, or SQL_ERROR
 * with the diagnostics added; when refusal is given, the server's error
 * result is handed over instead (the caller PQclears it and decides). */
static SQLRETURN collect_prepare(gc_stmt *s, gc_session *m, PGresult **refusal)
{
    PGresult *r = collect_command(m);
    if (!is_error_result(r)) {
        PQclear(r);
        return SQL_SUCCESS;
    }
    if (r != NULL && refusal != NULL) {
        *refusal = r;
        return SQL_ERROR;
    }
    if (r != NULL)
        add_prepare_error(s, m, r);
    else
        gc_diag_add(&s->h.diag, "08S01", 0, "no answer to PREPARE");
    PQclear(r);
    return SQL_ERROR;
}

/* Parsing as a server statement failed because the text holds several
 * statements (42601 "cannot insert multiple commands..."): such a text without
 * parameters runs as a simple query instead. */
static bool is_multi_statement_error(const gc_stmt *s, const PGresult *r)
{
    const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    const char *msg = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
    return s->nparams == 0 && state != NULL && strcmp(state, "42601") == 0 &&
           msg != NULL && strstr(msg, "multiple commands") != NULL;
}

/* Left to the server, a parameter's type is inferred from where the text
 * uses it. */
bool gc_exec_is_type_refusal(const char *state)
{
    return state != NULL && (strcmp(state, "42804") == 0 || strcmp(state, "42883") == 0);
}

/* The server refused to prepare a text with a declared parameter type it
 * cannot use (gc_exec_is_type_refusal): send_and_begin sends it again with the
 * types left to the server (declared_type_refused), so the refusal is not
 * the statement's failure. */
static bool refused_declared_type(const PGresult *r, int n, const Oid *types)
{
    if (!gc_exec_is_type_refusal(PQresultErrorField(r, PG_DIAG_SQLSTATE)) || types == NULL)
        return false;
    for (int i = 0; i < n; i++)
        if (types[i] != 0 && types[i] != GC_OID_BYTEA)
            return true;
    return false;
}

/* Sends PREPARE name of sql (n parameters of types) on m and collects
 * the answer as collect_prepare does. Inside an open transaction the
 * PREPARE goes under the rollback level (gc_txn_guard_prepare_*): a text
 * the server refuses does not leave the transaction aborted. */
static SQLRETURN prepare_on(gc_stmt *s, gc_session *m, const char *name, const char *sql,
                            int n, const Oid *types, PGresult **refusal)
{
    PGresult *refused = NULL;
    bool guarded = gc_txn_guard_prepare_begin(s, m);
    gc_error err;
    gc_error_clear(&err);
    if (!gc_session_send_prepare(m, name, sql, n, types, &err)) {
        gc_diag_add_error(&s->h.diag, &err);
        return SQL_ERROR;   /* the session is lost: so is its transaction */
    }
    SQLRETURN rc = collect_prepare(s, m, &refused);
    if (guarded) {
        /* A text of several statements is no failure: it runs as a simple
         * query next, in the transaction kept as it was; nor is a refused
         * declared type: it is prepared again without. */
        bool failed = refused != NULL && !is_multi_statement_error(s, refused) &&
                      !refused_declared_type(refused, n, types);
        gc_txn_guard_prepare_end(s, m, rc == SQL_SUCCESS, failed);
    }
    if (refused != NULL) {
        if (refusal != NULL) {
            *refusal = refused;
        } else {
            gc_stmt_add_member_error(s, m, refused);
            PQclear(refused);
        }
    }
    return rc;
}

/* Makes sure the server holds s->sql as a prepared statement whose parameter
 * types fit `types` (NULL: all unspecified). The session must be free. When
 * the server refuses the text, *refusal gets its error result (the caller's
 * to PQclear) when refusal is not NULL, else the error goes to diagnostics. */
static SQLRETURN ensure_server_statement(gc_stmt *s, gc_session *m, const Oid *types,
                                         PGresult **refusal)
{
    int n = s->nparams;
    if (s->server.name[0] != '\0' && !gc_server_stmt_fits(&s->server, n, types))
        gc_stmt_cache_release(s);    /* other types: park it, find or make another */
    if (s->server.name[0] == '\0')
        gc_stmt_cache_take(s, types);
    if (s->conn->kind->holds(s->conn, &s->server, m))
        return SQL_SUCCESS;
    if (!s->conn->kind->keeps_statement_name)
        s->server.name[0] = '\0';    /* the session was reconnected: it is gone */
    if (s->server.name[0] != '\0') {
        /* Made on another member already: the same name and types here. */
        if (prepare_on(s, m, s->server.name, s->sql, n, s->server.param_types, refusal) != SQL_SUCCESS)
            return SQL_ERROR;
        s->conn->kind->mark_prepared(s, m);
        s->conn->kind->prepare_twin(s, m);
        return SQL_SUCCESS;
    }
    Oid *copy = NULL;
    if (n > 0) {
        copy = calloc((size_t)n, sizeof *copy);
        if (copy == NULL) {
            gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
            return SQL_ERROR;
        }
        if (types != NULL)
            memcpy(copy, types, (size_t)n * sizeof *copy);
    }
    char name[32];
    /* Shared sessions (GlobalSession=Yes) hold other connections'
     * statements too: the name is the process's, not the connection's. */
    unsigned long number = s->conn->settings.global_session
                               ? gc_session_pool_statement_number()
                               : ++s->conn->next_statement_number;
    snprintf(name, sizeof name, "gc_%lu", number);
    if (prepare_on(s, m, name, s->sql, n, copy, refusal) != SQL_SUCCESS) {
        free(copy);
        return SQL_ERROR;
    }
    snprintf(s->server.name, sizeof s->server.name, "%s", name);
    s->server.schema_epoch = s->conn->stmt_cache.schema_epoch;
    s->conn->kind->mark_prepared(s, m);
    free(s->server.param_types);
    s->server.param_types = copy;
    s->server.nparams = n;
    s->conn->kind->prepare_twin(s, m);
    return SQL_SUCCESS;
}

/* A text of several statements is described by its first one, prepared
 * unnamed with the parameter types left to the server (nothing runs). */
static SQLRETURN prepare_first_statement(gc_stmt *s, gc_session *m)
{
    char *first = gc_exec_several_first_statement(s);
    if (first == NULL)
        return SQL_ERROR;
    SQLRETURN rc = prepare_on(s, m, "", first, 0, NULL, NULL);
    free(first);
    return rc;
}

/* SHOW GLOBAL CONNECTION described before it runs: its columns are the
 * driver's own. */
static SQLRETURN describe_show_global(gc_stmt *s)
{
    PGresult *r = gc_show_global_result(s->conn, s->sql);
    bool ok = r != NULL && gc_result_describe_ird(s, r);
    PQclear(r);
    if (!ok) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    free(s->described_param_types);
    s->described_param_types = NULL;
    s->described_nparams = 0;
    s->described = true;
    return SQL_SUCCESS;
}

/* The server's description of its prepared statement `name` on m (the
 * caller's to PQclear); NULL with diagnostics. */
static PGresult *describe_server_statement(gc_stmt *s, gc_session *m, const char *name)
{
    gc_error err;
    gc_error_clear(&err);
    if (!gc_session_send_describe_prepared(m, name, &err)) {
        gc_diag_add_error(&s->h.diag, &err);
        return NULL;
    }
    PGresult *r = collect_command(m);
    if (is_error_result(r)) {
        if (r != NULL)
            gc_stmt_add_member_error(s, m, r);
        PQclear(r);
        return NULL;
    }
    return r;
}

PGresult *gc_exec_describe_as_written(gc_stmt *s)
{
    gc_session *m = s->conn->session;
    if (m == NULL || s->simple_query || s->txn.several) {
        gc_diag_add(&s->h.diag, "HY000", 0, "the statement cannot be described on its own");
        return NULL;
    }
    gc_session_end_streaming(&s->conn->session_owner);
    if (ensure_server_statement(s, m, NULL, NULL) != SQL_SUCCESS)
        return NULL;
    return describe_server_statement(s, m, s->server.name);
}

SQLRETURN gc_exec_describe_prepared(gc_stmt *s)
{
    if (s->show_global)
        return describe_show_global(s);
    if (s->nparams > GC_DESCRIBE_PARAMS_MAX) {
        /* Refused before anything is sent: libpq would drop the session. */
        gc_diag_add(&s->h.diag, "54000", 0,
                    "a statement with more than %d parameters (this one has %d) cannot be "
                    "described before it runs: libpq cannot read so long a parameter "
                    "description; execute it first", GC_DESCRIBE_PARAMS_MAX, s->nparams);
        return SQL_ERROR;
    }
    gc_session *m = open_session(s);
    if (m == NULL)
        return SQL_ERROR;
    s->error_context = GC_CONTEXT_DESCRIBE;
    bool several = s->simple_query || s->txn.several;
    SQLRETURN rc = several ? prepare_first_statement(s, m)
                           : ensure_server_statement(s, m, NULL, NULL);
    if (rc != SQL_SUCCESS)
        return rc;
    PGresult *r = describe_server_statement(s, m, several ? "" : s->server.name);
    if (r == NULL)
        return SQL_ERROR;
    int n = PQnparams(r);
    Oid *types = n > 0 ? calloc((size_t)n, sizeof *types) : NULL;
    for (int i = 0; types != NULL && i < n; i++)
        types[i] = PQparamtype(r, i);
    bool ok = gc_result_describe_ird(s, r) && (n == 0 || types != NULL);
    PQclear(r);
    if (!ok) {
        free(types);
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    free(s->described_param_types);
    s->described_param_types = types;
    s->described_nparams = n;
    s->described = true;
    return SQL_SUCCESS;
}

void gc_stmt_reset_exec(gc_stmt *s)
{
    if (s->dae != NULL) {
        for (int i = 0; i < s->nparams; i++)
            free(s->dae[i].data);
        free(s->dae);
        s->dae = NULL;
    }
    s->dae_current = -1;
    s->exec_row = 0;
    for (int i = 0; i < s->exec_kept_len; i++)
        PQclear(s->exec_kept[i]);
    free(s->exec_kept);
    s->exec_kept = NULL;
    s->exec_kept_len = s->exec_kept_cap = 0;
}

/* Frees the converted parameters of one row. */
static void free_values(gc_param_value *pv, int n)
{
    for (int i = 0; pv != NULL && i < n; i++)
        gc_param_value_free(&pv[i]);
    free(pv);
}

/* Converts the parameters of row `row`; *pv_out gets an array of nparams. */
static SQLRETURN convert_row(gc_stmt *s, SQLULEN row, gc_param_value **pv_out)
{
    int n = s->nparams;
    *pv_out = NULL;
    if (n == 0)
        return SQL_SUCCESS;
    /* Not calloc (nor malloc and memset, which the compiler makes a
     * calloc): glibc's calloc bypasses its per-thread cache, some 130
     * instructions more on every execute. Each value is cleared before it
     * is converted; only those are freed on failure. */
    gc_param_value *pv = malloc((size_t)n * sizeof *pv);
    if (pv == NULL) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    SQLRETURN result = SQL_SUCCESS;
    for (int i = 0; i < n; i++) {
        pv[i] = (gc_param_value){ 0 };
        gc_param_ref ref;
        gc_param_locate(s, i, row, &ref);
        const void *value = ref.value;
        SQLLEN buffer_length = ref.buffer_length, octet_length = ref.octet_length;
        if (s->dae != NULL && s->dae[i].wanted) {
            const gc_dae_value *v = &s->dae[i];
            value = v->data != NULL ? v->data : "";
            octet_length = v->is_null ? SQL_NULL_DATA : (SQLLEN)v->len;
            buffer_length = (SQLLEN)v->len;
        }
        gc_error err;
        gc_error_clear(&err);
        SQLRETURN rc = gc_convert_param_from_c(ref.c_type, ref.sql_type, ref.column_size,
                                               ref.decimal_digits, value, buffer_length,
                                               octet_length, &pv[i], &err);
        if (rc == SQL_ERROR || rc == SQL_SUCCESS_WITH_INFO) {
            gc_error about;
            gc_error_set(&about, err.sqlstate, err.native, "parameter %d: %s", i + 1,
                         err.message);
            gc_diag_add_error_at(&s->h.diag, &about, (SQLLEN)row + 1, SQL_NO_COLUMN_NUMBER);
        }
        if (rc == SQL_ERROR) {
            free_values(pv, i + 1);
            return SQL_ERROR;
        }
        if (rc == SQL_SUCCESS_WITH_INFO)
            result = rc;
    }
    gc_param_null_empty_dates(s, row, pv);
    /* A large object lives on one server: on a global connection it is
     * made once the statement's member is known (send_once). */
    if (!s->conn->kind->several_sessions && gc_lo_resolve_params(s, row, pv) == SQL_ERROR) {
        free_values(pv, n);
        return SQL_ERROR;
    }
    *pv_out = pv;
    return result;
}

SQLRETURN gc_exec_convert_row(gc_stmt *s, SQLULEN row, gc_param_value **pv_out)
{
    return convert_row(s, row, pv_out);
}

void gc_exec_free_values(gc_param_value *pv, int n)
{
    free_values(pv, n);
}

gc_session *gc_exec_open_session(gc_stmt *s)
{
    return open_session(s);
}

/* Sends one execution of s with the converted values and takes its first
 * result. */
static SQLRETURN send_once(gc_stmt *s, gc_param_value *pv);

/* Whether s failed only because its server statement was planned before
 * its table's columns changed (by DDL of another connection: PostgreSQL
 * will not reuse it, 0A000 "cached plan must not change result type"),
 * and may be prepared again and run at once: nothing of it ran, and no
 * transaction is open on its session. */
static bool plan_went_stale(const gc_stmt *s)
{
    if (!s->prepared || s->simple_query || s->server.name[0] == '\0' ||
        s->conn->session == NULL || gc_session_txn_status(s->conn->session) != PQTRANS_IDLE)
        return false;
    const gc_diag *d = &s->h.diag;
    for (int i = 0; i < d->count; i++)
        if (strcmp(d->records[i].sqlstate, "0A000") == 0 &&
            strstr(d->records[i].message, "cached plan must not change result type") != NULL)
            return true;
    return false;
}

/* Whether s failed only because the server refused a parameter's declared
 * type where the text uses it (42804, "column is of type money but
 * expression is of type double precision": PostgreSQL has no implicit cast
 * from the declared type; 42883, "operator does not exist: text =
 * integer"), and may run again at once with the types of
 * its text values left to the server, as psqlODBC sends them: nothing of
 * it ran, no transaction was lost (none open in autocommit, none open
 * before the call (idle_before), or the statement's savepoint took the
 * failure back), and some value is typed. */
static bool declared_type_refused(const gc_stmt *s, const gc_param_value *pv, bool idle_before)
{
    if (pv == NULL || s->simple_query || !gc_exec_refusal_lost_nothing(s, idle_before))
        return false;
    bool typed = false;
    for (int i = 0; i < s->nparams && !typed; i++)
        typed = pv[i].format == 0 && pv[i].type_oid != 0;
    const gc_diag *d = &s->h.diag;
    bool refused = false;
    for (int i = 0; i < d->count && !refused; i++)
        refused = gc_exec_is_type_refusal(d->records[i].sqlstate);
    return typed && refused;
}

bool gc_exec_refusal_lost_nothing(const gc_stmt *s, bool idle_before)
{
    gc_session *m = s->conn->session;
    if (m == NULL)
        return false;
    PGTransactionStatusType txn = gc_session_txn_status(m);
    return (txn == PQTRANS_IDLE && (s->conn->autocommit || idle_before)) ||
           txn == PQTRANS_INTRANS;
}

/* Whether no transaction is open on the connection. */
static bool no_transaction_open(const gc_stmt *s)
{
    return !s->conn->kind->in_transaction(s->conn);
}

/* Each value gets the type the statement's past refusals say to declare
 * (gc_param_declared_type). */
static void declare_types(gc_stmt *s, gc_param_value *pv)
{
    for (int i = 0; pv != NULL && i < s->nparams; i++)
        pv[i].type_oid = gc_param_declared_type(s, i, &pv[i]);
}

/* Whether s failed only because the server could not infer the type of a
 * value left to it (42P18: `SELECT pg_typeof(?)` with a bit), and may run
 * again at once with it declared by its type_uninferred: nothing of it ran
 * (as for declared_type_refused). *which gets the parameter. */
static bool type_not_inferred(const gc_stmt *s, const gc_param_value *pv, bool idle_before,
                              int *which)
{
    if (pv == NULL || s->simple_query || !gc_exec_refusal_lost_nothing(s, idle_before))
        return false;
    const gc_diag *d = &s->h.diag;
    for (int i = 0; i < d->count; i++) {
        *which = gc_param_uninferred(s, d->records[i].sqlstate, d->records[i].message);
        if (*which >= 0)
            return true;
    }
    return false;
}

/* send_once after a failed try that took no effect: its results and
 * diagnostics go. */
static SQLRETURN send_again(gc_stmt *s, gc_param_value *pv)
{
    gc_stmt_discard_results(s);
    gc_diag_clear(&s->h.diag);
    return send_once(s, pv);
}

static SQLRETURN send_and_begin(gc_stmt *s, gc_param_value *pv)
{
    if (!s->conn->kind->shared_session_allows(s))
        return SQL_ERROR;
    if (s->txn.several && s->conn->kind->splits_text(s))
        return gc_exec_split_run(s, pv);
    if (s->conn->kind->cluster_wide_ddl(s))
        return gc_ddl_exec_statement(s);
    SQLRETURN handled;
    if (s->conn->kind->session_control(s, &handled))
        return handled;
    /* On a global connection, an autocommit statement whose member broke
     * under it runs again elsewhere, silently, when it cannot have taken
     * effect: read-only, or a write known not to have applied
     * (gc_route_may_rerun). The failed member is down, so routing never
     * picks it again; each rerun costs one member at most. */
    int reruns = s->conn->kind->reruns(s->conn);
    /* The first statement of a transaction (pyodbc's default): a refusal
     * then loses nothing the application did before. */
    bool idle_before = no_transaction_open(s);
    if (s->params_untyped || s->params_uninferred != NULL)
        declare_types(s, pv);
    SQLRETURN rc = send_once(s, pv);
    if (rc == SQL_ERROR && plan_went_stale(s)) {
        gc_trace_write(s->conn->trace, GC_TRACE_INFO, "server statement %s was planned before "
                       "its table changed: prepared again", s->server.name);
        gc_stmt_cache_discard(s);
        rc = send_again(s, pv);
    }
    if (rc == SQL_ERROR && declared_type_refused(s, pv, idle_before)) {
        gc_trace_write(s->conn->trace, GC_TRACE_INFO, "the server refused a parameter's "
                       "declared type (42804, 42883): sent again with the types left to it");
        s->params_untyped = true;
        declare_types(s, pv);
        rc = send_again(s, pv);
    }
    /* Bounded: each pass declares one more parameter. */
    int uninferred;
    while (rc == SQL_ERROR && type_not_inferred(s, pv, idle_before, &uninferred) &&
           gc_param_mark_uninferred(s, uninferred)) {
        gc_trace_write(s->conn->trace, GC_TRACE_INFO, "the server could not infer the type "
                       "of parameter %d (42P18): sent again with it declared", uninferred + 1);
        declare_types(s, pv);
        rc = send_again(s, pv);
    }
    while (rc == SQL_ERROR && reruns-- > 0 && s->conn->kind->may_rerun(s)) {
        gc_trace_write(s->conn->trace, GC_TRACE_INFO,
                       "statement failed with its member %s and did not take effect: "
                       "run again elsewhere",
                       gc_session_name(s->conn->session));
        rc = send_again(s, pv);
    }
    /* The group takes no writes at the moment (25006, 08001), nothing
     * applied: a promotion is under way, or the role the connection knew is
     * stale. Sent again, routed afresh, after pauses growing from 100 ms to
     * 1 s, for a bounded time. */
    for (int waited_ms = 0, pause_ms = 100;
         rc == SQL_ERROR && waited_ms < GC_ROUTE_NOT_WRITABLE_WAIT_MS &&
         s->conn->kind->group_not_writable(s);
         waited_ms += pause_ms, pause_ms = pause_ms < 1000 ? pause_ms * 2 : 1000) {
        gc_trace_write(s->conn->trace, GC_TRACE_INFO, "write refused, its group takes no "
                       "writes yet (on %s): sent again in %d ms",
                       gc_session_name(s->conn->session), pause_ms);
        struct timespec pause = { .tv_sec = pause_ms / 1000,
                                  .tv_nsec = (long)(pause_ms % 1000) * 1000000L };
        nanosleep(&pause, NULL);
        rc = send_again(s, pv);
    }
    return rc;
}

/* Opens the transaction a statement runs in when autocommit is off
 * (gc_conn_begin_if_needed), except for a statement PostgreSQL refuses
 * inside a transaction block (VACUUM, CREATE DATABASE...; gc_sql_txn.h)
 * while none is open: it runs on its own, committed by the server. Inside
 * an open transaction such a statement is sent as it is and the server's
 * error stands. *was_in_block: a transaction was open before. */
static bool begin_unless_outside_block(gc_stmt *s, gc_session *m, bool *was_in_block,
                                       gc_error *err)
{
    *was_in_block = gc_session_idle_txn_status(&s->conn->session_owner, m) != PQTRANS_IDLE;
    if (s->txn.kind == GC_SQL_TXN_OUTSIDE_BLOCK && !*was_in_block) {
        gc_trace_write(s->conn->trace, GC_TRACE_DEBUG,
                       "statement refused in a transaction block: sent without BEGIN");
        return true;
    }
    return gc_conn_begin_if_needed(s->conn, err);
}

/* Whether s goes with the statement mark (the kind's statement_marked:
 * an autocommit statement of a global connection), unless PostgreSQL runs it
 * outside any transaction block (VACUUM...) or it is a COPY, which a
 * pipeline cannot carry. */
static bool carries_statement_mark(const gc_stmt *s)
{
    return s->conn->kind->statement_marked(s->conn) &&
           s->txn.kind != GC_SQL_TXN_OUTSIDE_BLOCK && !s->txn.copy;
}

/* Sends one execution of a statement: between its savepoint and its
 * release, in one pipeline, when the rollback level guards it so
 * (gc_txn_guard.h); after the statement mark when it carries one (in the
 * same pipeline, or at the head of a text of several statements); prepared
 * when stmt_name is set; as a simple query (a text may hold several
 * statements) when it has no parameters. */
static bool send_guarded(gc_session *m, gc_txn_guard_mode guard, bool marked, bool several,
                         const char *stmt_name, const char *sql, int n, const Oid *types,
                         const char *const *values, const int *lengths, const int *formats,
                         gc_error *err)
{
    if (guard == GC_GUARD_PIPELINED)
        return gc_session_send_wrapped(m, GC_TXN_SAVEPOINT_SQL, GC_TXN_RELEASE_SQL, stmt_name,
                                       sql, n, types, values, lengths, formats, err);
    if (marked && several && n == 0)
        return gc_session_send_query_after(m, GC_REMOTE_WRITE_STATEMENT_MARK_TEXT, sql, err);
    if (marked)
        return gc_session_send_wrapped(m, GC_REMOTE_WRITE_STATEMENT_MARK, NULL, stmt_name, sql,
                                       n, types, values, lengths, formats, err);
    if (stmt_name != NULL)
        return gc_session_send_query_prepared(m, stmt_name, n, values, lengths, formats, err);
    if (n == 0)
        return gc_session_send_query(m, sql, err);
    return gc_session_send_query_params(m, sql, n, types, values, lengths, formats, err);
}

static SQLRETURN send_on_session(gc_stmt *s, gc_session *m, const char *sql, int n,
                                 const gc_param_wire *a);

static SQLRETURN send_routed(gc_stmt *s, gc_param_value *pv);

/* One try of send_and_begin: route, send, take the first result; with the
 * keys the driver draws for it written into its text, if any. */
static SQLRETURN send_once(gc_stmt *s, gc_param_value *pv)
{
    if (s->conn->kind->draw_keys(s) != SQL_SUCCESS)
        return SQL_ERROR;
    SQLRETURN rc = send_routed(s, pv);
    s->conn->kind->keys_done(s);
    return rc;
}

static SQLRETURN send_routed(gc_stmt *s, gc_param_value *pv)
{
    if (s->conn->kind->route_statement(s, pv) != SQL_SUCCESS)
        return SQL_ERROR;
    if (s->spans_groups)
        return gc_span_exec_statement(s, pv);
    gc_session *m = open_session(s);
    if (m == NULL)
        return SQL_ERROR;
    /* A global connection makes a row's large objects on the member that
     * runs it, where the row will name them. */
    if (s->conn->kind->several_sessions && pv != NULL &&
        gc_lo_resolve_params(s, s->exec_row, pv) == SQL_ERROR) {
        s->conn->kind->statement_done(s, SQL_ERROR);
        return SQL_ERROR;
    }
    const char *sql = s->sql;
    char *own_text = NULL;
    int n = s->nparams;
    gc_split_read split = { 0 };
    if (s->split_read) {
        /* A read of the transaction's own writes across groups (one
         * statement): the rows other members hold come along as one more
         * parameter of a text of its own. */
        if (gc_span_split_read(s, pv, &split) != SQL_SUCCESS) {
            s->conn->kind->statement_done(s, SQL_ERROR);
            return SQL_ERROR;
        }
        sql = split.text;
        pv = split.pv;
        n = split.n;
    } else if (s->target_leaf != NULL) {
        /* An INSERT ... ON CONFLICT (...): into the leaf that holds its
         * rows, whose unique index the conflict target names. */
        own_text = gc_global_leaf_text(s->sql, s->analysis, s->target_leaf);
        if (own_text == NULL) {
            gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
            s->conn->kind->statement_done(s, SQL_ERROR);
            return SQL_ERROR;
        }
        sql = own_text;
    } else if (s->simple_query && n > 0) {
        /* Several statements with parameters: the values go into the text. */
        own_text = gc_exec_several_with_values(s, pv, n);
        if (own_text == NULL) {
            s->conn->kind->statement_done(s, SQL_ERROR);
            return SQL_ERROR;
        }
        sql = own_text;
        n = 0;
    }
    gc_param_wire a;
    SQLRETURN rc = SQL_ERROR;
    if (gc_param_wire_fill(&a, pv, n)) {
        rc = send_on_session(s, m, sql, n, &a);
        gc_param_wire_free(&a);
    } else {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        s->conn->kind->statement_done(s, SQL_ERROR);
    }
    gc_span_split_read_free(&split);
    free(own_text);
    return rc;
}

/* send_once on the routed session m: the text sql with the n parameters in a. */
static SQLRETURN send_on_session(gc_stmt *s, gc_session *m, const char *sql, int n,
                                 const gc_param_wire *a)
{
    const Oid *types = a->types;
    const char *const *values = a->values;
    const int *lengths = a->lengths, *formats = a->formats;
    /* A split read, and an INSERT into the leaf of its rows, send a text
     * of their own, unprepared. */
    bool server_statement = s->prepared && !s->simple_query && !s->split_read &&
                            s->target_leaf == NULL;
    if (server_statement) {
        /* Before BEGIN: a text the server cannot prepare then aborts nothing. */
        PGresult *refusal = NULL;
        SQLRETURN rc = ensure_server_statement(s, m, types, &refusal);
        if (refusal != NULL) {
            if (is_multi_statement_error(s, refusal))
                s->simple_query = true;     /* not an error: run it as a simple query */
            else
                add_prepare_error(s, m, refusal);
            PQclear(refusal);
        }
        server_statement = !s->simple_query;    /* no server statement was made */
        if (rc != SQL_SUCCESS && !s->simple_query) {
            /* The member may have failed under the PREPARE: routing hears
             * of it (a transaction's loss becomes 40001 / 19068). Nothing
             * ran, so an autocommit statement may run again elsewhere. */
            s->conn->kind->prepare_failed(s, m, rc);
            return rc;
        }
    }
    gc_error err;
    gc_error_clear(&err);
    bool was_in_block = false;
    if (!begin_unless_outside_block(s, m, &was_in_block, &err)) {
        gc_diag_add_error(&s->h.diag, &err);
        s->conn->kind->statement_done(s, SQL_ERROR);
        return SQL_ERROR;
    }
    const char *stmt_name = server_statement ? s->server.name : NULL;
    /* A global connection's COMMIT and autocommit writes go with their
     * transaction id, so a lost answer can be resolved (gc_commit.h). */
    SQLRETURN with_xid;
    if (s->conn->kind->ran_with_xid(s, m, sql, stmt_name, n, types, values, lengths, formats,
                                    &with_xid))
        return with_xid;
    gc_txn_guard_mode guard;
    if (gc_txn_guard_arm(s, was_in_block, true, &guard) != SQL_SUCCESS) {
        s->conn->kind->statement_done(s, SQL_ERROR);
        return SQL_ERROR;
    }
    bool sent = send_guarded(m, guard, carries_statement_mark(s), s->txn.several, stmt_name,
                             sql, n, types, values, lengths, formats, &err);
    gc_result_take_session(s);      /* after the send, which ended any other owner */
    if (!sent) {
        gc_result_release_session(s);
        gc_diag_add_error(&s->h.diag, &err);
        s->conn->kind->statement_done(s, SQL_ERROR);
        return SQL_ERROR;
    }
    /* Read whole, so that the execute answers for every statement it ran:
     * a marked statement, which may write and commits at the end of its
     * pipeline, after its rows; and a text of several statements, where a
     * later statement's failure undoes the earlier ones (their implicit
     * transaction, or the savepoint of the rollback level): psqlODBC fails
     * such a text at its execute, and programs that never call
     * SQLMoreResults would take it for done. */
    bool settles = carries_statement_mark(s) || s->txn.several;
    if (!settles)
        gc_session_stream_rows(m);
    gc_exec_timer timer;
    gc_exec_timer_start(&timer, s);
    SQLRETURN rc = gc_result_begin(s);
    if (settles)
        rc = gc_result_settle(s, rc);
    gc_exec_timer_stop(&timer);
    s->conn->kind->statement_done(s, rc);
    return rc;
}

/* The rows of an array run one by one are done: the results they kept and
 * the last row's become the statement's, in row order, as the pipelined
 * path gives them. SQLRowCount on the first gives the total of all rows. */
static SQLRETURN publish_kept_rows(gc_stmt *s, SQLRETURN result)
{
    bool last_ran = s->state == GC_STMT_EXECUTED || s->state == GC_STMT_CURSOR;
    SQLLEN last_count = s->state == GC_STMT_EXECUTED && s->row_count > 0 ? s->row_count : 0;
    if (last_ran && !gc_result_keep_row(s)) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    PGresult **kept = s->exec_kept;
    int n = s->exec_kept_len;
    s->exec_kept = NULL;
    s->exec_kept_len = s->exec_kept_cap = 0;
    bool counts = PQresultStatus(kept[0]) == PGRES_COMMAND_OK;
    SQLRETURN rc = gc_result_begin_list(s, kept, n);    /* takes the results */
    free(kept);
    if (rc == SQL_ERROR)
        return rc;
    if (counts) {
        s->row_count = s->exec_row_count + last_count;
        s->exec_row_count = 0;
    }
    return result;
}

/* Runs the parameter rows from s->exec_row on; stops at a row that needs
 * data at execution. */
static SQLRETURN continue_exec(gc_stmt *s)
{
    SQLULEN rows = s->nparams > 0 ? s->apd->array_size : 1;
    SQLUSMALLINT *status = s->ipd->array_status_ptr;
    const SQLUSMALLINT *operation = s->apd->array_status_ptr;
    SQLRETURN pipelined;
    if (gc_exec_array_applies(s, rows) && gc_exec_array_run(s, rows, &pipelined))
        return pipelined;
    SQLRETURN result = SQL_SUCCESS;
    gc_row_batches batches;
    if (!gc_row_batches_start(&batches, s, rows))
        return SQL_ERROR;
    for (; s->exec_row < rows; s->exec_row++) {
        SQLULEN row = s->exec_row;
        if (!gc_row_batches_before_row(&batches, s, row)) {
            result = SQL_ERROR;
            break;
        }
        if (operation != NULL && operation[row] == SQL_PARAM_IGNORE) {
            if (status != NULL)
                status[row] = SQL_PARAM_UNUSED;
            continue;
        }
        if (s->nparams > 0 && s->dae == NULL) {
            /* First visit of this row: which parameters come at execution? */
            gc_dae_value *dae = NULL;
            bool oom = false;
            for (int i = 0; i < s->nparams && !oom; i++) {
                gc_param_ref ref;
                gc_param_locate(s, i, row, &ref);
                if (!ref.data_at_exec)
                    continue;
                if (dae == NULL)
                    dae = calloc((size_t)s->nparams, sizeof *dae);
                if (dae == NULL)
                    oom = true;
                else
                    dae[i].wanted = true;
            }
            if (oom) {
                gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
                result = SQL_ERROR;
                break;
            }
            s->dae = dae;
        }
        if (s->dae != NULL) {
            for (int i = 0; i < s->nparams; i++) {
                if (s->dae[i].wanted && !s->dae[i].done) {
                    s->state = GC_STMT_NEED_DATA;
                    s->dae_current = -1;
                    /* ODBC: while data is asked for, the processed count
                     * names the row (1-based) whose data it is. */
                    if (s->ipd->rows_processed_ptr != NULL)
                        *s->ipd->rows_processed_ptr = row + 1;
                    return SQL_NEED_DATA;
                }
            }
        }
        s->state = idle_state(s);
        /* In an array, what this row adds to the diagnostics is about it. */
        gc_diag outer = {0};
        if (rows > 1)
            gc_diag_set_aside(&s->h.diag, &outer);
        gc_param_value *pv = NULL;
        SQLRETURN rc = convert_row(s, row, &pv);
        if (rc != SQL_ERROR) {
            gc_call_adjust_values(s, pv);
            SQLRETURN sent = send_and_begin(s, pv);
            rc = sent == SQL_SUCCESS ? rc : sent;
        }
        if (rc != SQL_ERROR) {
            SQLRETURN outputs = gc_call_take_outputs(s, row);
            rc = outputs == SQL_SUCCESS ? rc : outputs;
        }
        if (rc != SQL_ERROR) {
            SQLRETURN cursors = gc_refcursor_after_exec(s);
            rc = cursors == SQL_SUCCESS ? rc : cursors;
        }
        /* A notice the row got (a trigger's RAISE NOTICE) is a warning. */
        if (rows > 1 && gc_diag_take_back(&s->h.diag, &outer, &s->exec_diag, (SQLLEN)row + 1) &&
            rc == SQL_SUCCESS)
            rc = SQL_SUCCESS_WITH_INFO;
        free_values(pv, s->nparams);
        if (s->dae != NULL) {
            for (int i = 0; i < s->nparams; i++)
                free(s->dae[i].data);
            free(s->dae);
            s->dae = NULL;
        }
        if (s->ipd->rows_processed_ptr != NULL)
            *s->ipd->rows_processed_ptr = row + 1;
        if (rc == SQL_ERROR) {
            if (status != NULL)
                status[row] = SQL_PARAM_ERROR;
            s->state = idle_state(s);
            /* The rows after it are not run, in autocommit too, as psqlODBC
             * stops (docs/parameter-arrays.md). */
            if (status != NULL)
                for (SQLULEN r = row + 1; r < rows; r++)
                    status[r] = SQL_PARAM_UNUSED;
            result = SQL_ERROR;
            break;
        }
        if (status != NULL)
            status[row] = rc == SQL_SUCCESS_WITH_INFO ? SQL_PARAM_SUCCESS_WITH_INFO
                                                      : SQL_PARAM_SUCCESS;
        if (rc == SQL_SUCCESS_WITH_INFO)
            result = rc;
        if (row + 1 < rows) {
            /* Not the last row: its results are counted and kept. */
            if (s->row_count > 0)
                s->exec_row_count += s->row_count;
            if (!gc_result_keep_row(s)) {
                gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
                result = SQL_ERROR;
                break;
            }
            s->state = idle_state(s);
        }
    }
    if (result == SQL_ERROR)
        gc_row_batches_fail(&batches, s, s->exec_row + 1);
    else if (!gc_row_batches_end(&batches, s, rows))
        result = SQL_ERROR;
    if (result != SQL_ERROR && s->exec_kept_len > 0)
        result = publish_kept_rows(s, result);
    gc_diag_move_at(&s->h.diag, &s->exec_diag, SQL_NO_ROW_NUMBER);
    if (result != SQL_ERROR && rows > 1 && s->row_count >= 0)
        s->row_count += s->exec_row_count;
    gc_stmt_reset_exec(s);
    return gc_stmt_rc_with_info(s, result);
}

/* Starts executing s->sql with the bound parameters. */
static SQLRETURN start_exec(gc_stmt *s)
{
    gc_stmt_cache_before_exec(s);
    if (!s->keeps_parked_statements)
        s->conn->ddl_epoch++;    /* DDL may change what the catalog told us */
    /* A text with $n and no `?` takes parameters only when the application
     * bound them (a non-standard way some applications use). */
    if (s->positional_params > 0)
        s->nparams = s->apd->count >= s->positional_params ? s->positional_params : 0;
    int missing = 0;
    if (!gc_param_all_bound(s, &missing)) {
        gc_diag_add(&s->h.diag, "07002", 0,
                    "COUNT field incorrect: parameter %d of %d is not bound",
                    missing, s->nparams);
        return SQL_ERROR;
    }
    if (gc_call_before_exec(s) != SQL_SUCCESS)
        return SQL_ERROR;
    gc_stmt_reset_exec(s);
    s->exec_row_count = 0;
    gc_diag_clear(&s->exec_diag);
    s->row_count = -1;
    s->row_number = 0;
    if (s->ipd->rows_processed_ptr != NULL)
        *s->ipd->rows_processed_ptr = 0;
    if (s->ipd->array_status_ptr != NULL && s->nparams > 0) {
        for (SQLULEN r = 0; r < s->apd->array_size; r++)
            s->ipd->array_status_ptr[r] = SQL_PARAM_UNUSED;
    }
    return continue_exec(s);
}

/* ODBC 3: SQLExecute / SQLExecDirect (and the SQLParamData that runs the
 * statement) of an INSERT, UPDATE, DELETE or MERGE that changed no row
 * return SQL_NO_DATA. Only when that was the whole execution of one row: no
 * result set and no further result of another statement (a batch). A
 * parameter array of several rows returns SQL_SUCCESS even when none of
 * them changed anything, as psqlODBC does: programs written for it check an
 * array's execute for success and would take SQL_NO_DATA for a failure. An
 * ODBC 2 application gets SQL_SUCCESS. */
static SQLRETURN no_data_when_nothing_changed(gc_stmt *s, SQLRETURN rc)
{
    bool array = s->nparams > 0 && s->apd->array_size > 1;
    if ((rc != SQL_SUCCESS && rc != SQL_SUCCESS_WITH_INFO) || array || s->queue_len != 0 ||
        s->state != GC_STMT_EXECUTED || !s->changed_rows_kind || s->row_count != 0 ||
        gc_result_streams(s) || s->conn->env->odbc_version < (SQLINTEGER)SQL_OV_ODBC3)
        return rc;
    return SQL_NO_DATA;
}

/* Records whether the execute that returns rc failed (see execute_failed). */
static SQLRETURN note_outcome(gc_stmt *s, SQLRETURN rc)
{
    s->execute_failed = rc == SQL_ERROR;
    return rc;
}

/* What every execute of the application's statement (SQLExecute,
 * SQLExecDirect, the SQLParamData that runs it) does with its result rc as
 * it returns. */
static SQLRETURN finish_execute(gc_stmt *s, SQLRETURN rc)
{
    return gc_keyset_open_at_execute(s, no_data_when_nothing_changed(s, rc));
}

/* Answers SHOW GLOBAL CONNECTION from the driver's own bookkeeping. */
static SQLRETURN show_global(gc_stmt *s)
{
    if (open_session(s) == NULL)
        return SQL_ERROR;
    s->row_count = -1;
    s->row_number = 0;
    PGresult *r = gc_show_global_result(s->conn, s->sql);
    if (r == NULL) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    return gc_stmt_set_local_result(s, r);
}

SQLRETURN gc_stmt_prepare(gc_stmt *s, const char *sql, SQLINTEGER len)
{
    if (!may_execute(s))
        return SQL_ERROR;
    gc_stmt_discard_results(s);
    gc_stmt_unprepare(s);
    gc_desc_clear_records(s->ird);
    s->simple_query = false;
    s->state = GC_STMT_ALLOCATED;
    s->execute_failed = false;
    SQLRETURN rc = set_text(s, sql, len);
    if (rc != SQL_SUCCESS)
        return rc;
    s->show_global = gc_show_global_matches(s->sql, strlen(s->sql));
    s->reconnect_global = gc_reconnect_stmt_matches(s->sql, strlen(s->sql));
    bool answered_by_driver = s->show_global || s->reconnect_global;
    if (!answered_by_driver && !s->conn->kind->session_sql_allowed(s)) {
        gc_stmt_unprepare(s);
        return SQL_ERROR;
    }
    if (!answered_by_driver)
        s->conn->kind->analyze(s);
    s->prepared = true;
    s->state = GC_STMT_PREPARED;
    return SQL_SUCCESS;
}

static SQLRETURN execute_prepared(gc_stmt *s)
{
    if (!s->prepared || s->sql == NULL) {
        gc_diag_add(&s->h.diag, "HY010", 0, "function sequence error: no statement prepared");
        return SQL_ERROR;
    }
    gc_stmt_discard_results(s);
    s->state = GC_STMT_PREPARED;
    if (s->show_global)
        return show_global(s);
    if (s->reconnect_global)
        return gc_reconnect_stmt_run(s);
    SQLRETURN rc = finish_execute(s, start_exec(s));
    if (rc != SQL_ERROR && (s->nparams == 0 || s->apd->array_size <= 1))
        s->ran_one_row = true;
    return rc;
}

SQLRETURN gc_stmt_execute(gc_stmt *s)
{
    if (!may_execute(s))
        return SQL_ERROR;
    return note_outcome(s, execute_prepared(s));
}

static SQLRETURN execute_text(gc_stmt *s, const char *sql, SQLINTEGER len)
{
    gc_stmt_discard_results(s);
    gc_stmt_unprepare(s);
    s->simple_query = false;
    s->state = GC_STMT_ALLOCATED;
    SQLRETURN rc = set_text(s, sql, len);
    if (rc != SQL_SUCCESS)
        return rc;
    if (gc_show_global_matches(s->sql, strlen(s->sql)))
        return show_global(s);
    if (gc_reconnect_stmt_matches(s->sql, strlen(s->sql)))
        return gc_reconnect_stmt_run(s);
    if (!s->conn->kind->session_sql_allowed(s))
        return SQL_ERROR;
    s->conn->kind->analyze(s);
    return finish_execute(s, start_exec(s));
}

SQLRETURN gc_stmt_exec_direct(gc_stmt *s, const char *sql, SQLINTEGER len)
{
    if (!may_execute(s))
        return SQL_ERROR;
    return note_outcome(s, execute_text(s, sql, len));
}

/* Moves to the next parameter of the current row that still needs its
 * data and gives its bound value pointer (the application's token) in
 * *value; false when the row has all its data. */
static bool next_dae_parameter(gc_stmt *s, SQLPOINTER *value)
{
    for (int i = 0; i < s->nparams; i++) {
        if (s->dae[i].wanted && !s->dae[i].done) {
            gc_param_ref ref;
            gc_param_locate(s, i, s->exec_row, &ref);
            s->dae_current = i;
            if (value != NULL)
                *value = (SQLPOINTER)ref.value;
            return true;
        }
    }
    return false;
}

SQLRETURN gc_stmt_param_data(gc_stmt *s, SQLPOINTER *value)
{
    if (s->state != GC_STMT_NEED_DATA || s->dae == NULL) {
        gc_diag_add(&s->h.diag, "HY010", 0, "function sequence error: no data at execution pending");
        return SQL_ERROR;
    }
    if (s->dae_current >= 0)
        s->dae[s->dae_current].done = true;
    if (next_dae_parameter(s, value))
        return SQL_NEED_DATA;
    s->dae_current = -1;
    s->state = idle_state(s);
    SQLRETURN rc = continue_exec(s);
    /* The row ran and a later row of the array needs data: this call
     * already names its first parameter, as ODBC wants. */
    if (rc == SQL_NEED_DATA && s->dae != NULL && next_dae_parameter(s, value))
        return SQL_NEED_DATA;
    return note_outcome(s, finish_execute(s, rc));
}

/* Length in bytes of a NUL-terminated UTF-16 string. */
static size_t wide_bytes(const SQLWCHAR *w)
{
    size_t n = 0;
    while (w[n] != 0)
        n++;
    return n * sizeof(SQLWCHAR);
}

SQLRETURN gc_stmt_put_data(gc_stmt *s, SQLPOINTER data, SQLLEN len)
{
    if (s->state != GC_STMT_NEED_DATA || s->dae == NULL || s->dae_current < 0) {
        gc_diag_add(&s->h.diag, "HY010", 0, "function sequence error: call SQLParamData first");
        return SQL_ERROR;
    }
    gc_dae_value *v = &s->dae[s->dae_current];
    gc_param_ref ref;
    gc_param_locate(s, s->dae_current, s->exec_row, &ref);
    if (len == SQL_NULL_DATA) {
        v->is_null = true;
        return SQL_SUCCESS;
    }
    if (data == NULL && len != 0) {
        gc_diag_add(&s->h.diag, "HY009", 0, "invalid use of null pointer");
        return SQL_ERROR;
    }
    SQLLEN fixed = gc_c_type_size(ref.c_type);
    size_t n;
    if (fixed > 0) {
        if (v->len > 0) {
            gc_diag_add(&s->h.diag, "HY019", 0, "non-character and non-binary data sent in pieces");
            return SQL_ERROR;
        }
        n = (size_t)fixed;
    } else if (len == SQL_NTS) {
        n = ref.c_type == SQL_C_WCHAR ? wide_bytes(data) : strlen(data);
    } else if (len < 0) {
        gc_diag_add(&s->h.diag, "HY090", 0, "invalid string or buffer length %ld", (long)len);
        return SQL_ERROR;
    } else {
        n = (size_t)len;
    }
    char *grown = realloc(v->data, v->len + n + 1);
    if (grown == NULL) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    if (n > 0)
        memcpy(grown + v->len, data, n);
    v->data = grown;
    v->len += n;
    v->data[v->len] = '\0';
    v->is_null = false;
    return SQL_SUCCESS;
}

/* Runs without the connection lock (see gc_conn.h): a statement waiting on
 * the server is cancelled there; one waiting for data at execution drops it. */
SQLRETURN gc_stmt_cancel(gc_stmt *s)
{
    if (atomic_load(&s->in_server_call)) {
        gc_error err;
        gc_error_clear(&err);
        atomic_store(&s->cancel_asked, true);
        return s->conn->kind->cancel_wait(s->conn, &err) ? SQL_SUCCESS : SQL_ERROR;
    }
    pthread_mutex_lock(&s->conn->lock);
    if (s->state == GC_STMT_NEED_DATA) {
        gc_stmt_reset_exec(s);
        s->state = idle_state(s);
    }
    pthread_mutex_unlock(&s->conn->lock);
    return SQL_SUCCESS;
}

SQLRETURN gc_stmt_exec_catalog(gc_stmt *s, const char *sql, int nparams,
                               const char *const *values, bool outside_transaction)
{
    if (!may_execute(s))
        return SQL_ERROR;
    gc_stmt_discard_results(s);
    gc_stmt_unprepare(s);
    s->state = GC_STMT_ALLOCATED;
    s->row_number = 0;
    gc_session *m = open_session(s);
    if (m == NULL)
        return SQL_ERROR;
    gc_error err;
    gc_error_clear(&err);
    s->txn = (gc_sql_txn_info){ .kind = outside_transaction ? GC_SQL_TXN_OUTSIDE_BLOCK
                                                            : GC_SQL_TXN_ORDINARY };
    bool was_in_block = false;
    if (!begin_unless_outside_block(s, m, &was_in_block, &err)) {
        gc_diag_add_error(&s->h.diag, &err);
        return SQL_ERROR;
    }
    gc_txn_guard_mode guard;
    if (gc_txn_guard_arm(s, was_in_block, true, &guard) != SQL_SUCCESS)
        return SQL_ERROR;
    /* The driver's own catalog query: it writes nothing, and carries no mark. */
    bool sent = send_guarded(m, guard, false, false, NULL, sql, nparams, NULL, values, NULL,
                             NULL, &err);
    gc_result_take_session(s);      /* after the send, which ended any other owner */
    if (!sent) {
        gc_result_release_session(s);
        gc_diag_add_error(&s->h.diag, &err);
        return SQL_ERROR;
    }
    gc_session_stream_rows(m);
    return gc_stmt_rc_with_info(s, gc_result_begin(s));
}
