/*
 * gc_conn_global: the ODBC connection's side of a global connection:
 * opening it, closing it, switching the connection's current session
 * between member sessions, following a new catalog version between
 * transactions, the owner's member for a catalog function and ALTER
 * SYSTEM RECONNECT GLOBAL CONNECTION (gc_conn_global.h; the statement
 * itself is gc_reconnect_stmt.c). Which member runs a statement is
 * gc_route.c's. Its public functions are the global kind's operations
 * (gc_conn_kind_global.c) and run only on a global connection.
 */
#include <stdio.h>
#include <string.h>

#include "core/gc_conn.h"
#include "core/gc_conn_global.h"
#include "core/gc_conn_kind.h"
#include "global/gc_global.h"
#include "global/gc_global_settings.h"
#include "sql/gc_analyzer.h"

SQLRETURN gc_conn_open_global(gc_conn *c, const gc_member_params *params)
{
    gc_global_options opt = {
        .settings = &c->settings,
        .member = *params,
        .trace = c->trace,
        .notice_fn = gc_conn_notice,
        .notice_ctx = c,
        .before_send_fn = gc_session_before_send,
        .before_send_ctx = &c->session_owner,
    };
    opt.member.global_connection = true;
    /* Members of a global connection have a MemberTimeout, so a stopped or
     * vanished member is found and the statement can go elsewhere;
     * docs/failover.md. */
    opt.member.member_timeout_s = c->settings.member_timeout;
    gc_error err;
    gc_error_clear(&err);
    gc_global_connect_warnings warnings;
    gc_global *g = gc_global_connect(&opt, &err, &warnings);
    if (g == NULL) {
        gc_diag_add_error(&c->h.diag, &err);
        return SQL_ERROR;
    }
    c->global = g;
    c->kind = &gc_conn_kind_global;
    c->session = gc_global_member(g, gc_global_first_open_member(g));
    /* Attributes set before connecting take effect now, on every member. */
    if ((c->txn_isolation != 0 || c->access_mode == SQL_MODE_READ_ONLY) &&
        !gc_conn_apply_session_characteristics(c, &err)) {
        gc_diag_add_error(&c->h.diag, &err);
        gc_global_destroy(g);
        c->global = NULL;
        c->kind = &gc_conn_kind_general;
        c->session = NULL;
        return SQL_ERROR;
    }
    if (gc_error_is_set(&warnings.members_down))
        gc_diag_add_error(&c->h.diag, &warnings.members_down);
    if (gc_error_is_set(&warnings.unknown_names))
        gc_diag_add_error(&c->h.diag, &warnings.unknown_names);
    return gc_diag_has_records(&c->h.diag) ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS;
}

void gc_conn_close_global(gc_conn *c)
{
    gc_global *g = c->global;
    gc_trace_write(c->trace, GC_TRACE_INFO, "disconnecting the global connection");
    c->session = NULL;
    c->global = NULL;
    c->kind = &gc_conn_kind_general;
    gc_global_destroy(g);
}

void gc_conn_use_member(gc_conn *c, int i)
{
    gc_session *m = gc_global_member(c->global, i);
    if (m == c->session)
        return;
    /* Only one statement streams at a time, on the current session: it
     * buffers its rows before another session becomes current. */
    gc_session_end_streaming(&c->session_owner);
    c->session = m;
}

/* The connection's current session again after the members changed: the
 * member of the same name when it is still there, else the first open one
 * (else member 0, which the router opens when chosen). */
static void find_session_again(gc_conn *c, const char *name)
{
    gc_global *g = c->global;
    int n = gc_global_member_count(g);
    for (int i = 0; i < n; i++) {
        if (strcmp(gc_global_topology(g)->members[i].name, name) == 0) {
            c->session = gc_global_member(g, i);
            return;
        }
    }
    int first = gc_global_first_open_member(g);
    c->session = gc_global_member(g, first >= 0 ? first : 0);
}

/* Whether any transaction is open or about to be: a pin, a BEGIN held
 * back, or a member session the server says is in a transaction. */
static bool in_transaction(gc_conn *c)
{
    gc_global *g = c->global;
    if (gc_global_pinned_member(g) >= 0 || gc_global_prelude_pending(g))
        return true;
    for (int i = 0; i < gc_global_member_count(g); i++) {
        PGTransactionStatusType ts = gc_session_txn_status(gc_global_member(g, i));
        if (ts == PQTRANS_INTRANS || ts == PQTRANS_INERROR || ts == PQTRANS_ACTIVE)
            return true;
    }
    return false;
}

/* The name of the member the connection's session is on ("" when none),
 * kept across a refresh that may renumber or close the sessions. */
static void current_member_name(const gc_conn *c, char *name, size_t size)
{
    snprintf(name, size, "%s",
             c->session != NULL && gc_session_name(c->session) != NULL
                 ? gc_session_name(c->session) : "");
}

void gc_conn_global_between_transactions(gc_conn *c)
{
    gc_global *g = c->global;
    /* The cheap test first: a refresh is rarely due, and in_transaction
     * asks every member's session. */
    if (!gc_global_refresh_pending(g) || in_transaction(c))
        return;
    char name[128];
    current_member_name(c, name, sizeof name);
    /* A statement still streaming buffers its rows: sessions may close. */
    gc_session_end_streaming(&c->session_owner);
    char buf[128];
    gc_error err;
    gc_error_clear(&err);
    if (!gc_global_follow_catalog(g, gc_conn_characteristics_sql(c, buf, sizeof buf), &err))
        gc_trace_write(c->trace, GC_TRACE_INFO,
                       "catalog version not followed: %s (last good topology kept)",
                       err.message);
    find_session_again(c, name);
}

void gc_conn_global_idle(gc_conn *c)
{
    gc_global *g = c->global;
    if (!gc_global_shares_sessions(g) || in_transaction(c))
        return;
    if (c->session_owner.stmt != NULL)
        return;     /* its result is read from the session as fetched */
    char buf[128];
    gc_global_give_back_sessions(g, gc_conn_characteristics_sql(c, buf, sizeof buf) != NULL);
}

/* Makes member i, of a solo table's owner group, the connection's session
 * for a catalog function, opening it when it is not; false (the current
 * member answers) when it cannot be opened. */
static bool use_owner_member(gc_conn *c, int i, const char *setup_sql, const char *table)
{
    gc_global *g = c->global;
    gc_error err;
    gc_error_clear(&err);
    if (!gc_session_is_open(gc_global_member(g, i)) &&
        !gc_global_open_member(g, i, setup_sql, &err)) {
        gc_trace_write(c->trace, GC_TRACE_INFO,
                       "catalog function on solo table %s: owner member not opened (%s); "
                       "the current member answers", table, err.message);
        return false;
    }
    gc_conn_use_member(c, i);
    gc_global_catalog_function_on(g, i);
    return true;
}

/* In the open transaction: a solo table of another group than the
 * transaction's member is answered by its group (a foreign twin has no
 * keys or indexes): by the group's member in the transaction, in it, or
 * else by one of its members outside the transaction, which then holds no
 * DDL of the table to see (DDL joins every group's primary). True in the
 * last case. */
static bool use_owner_in_transaction(gc_conn *c, const char *schema, const char *table)
{
    bool joined;
    int i = gc_global_route_catalog_in_transaction(c->global, schema, table, &joined);
    if (i < 0)
        return false;
    char setup_buf[128];
    bool used = use_owner_member(c, i, gc_conn_characteristics_sql(c, setup_buf, sizeof setup_buf),
                                 table);
    return used && !joined;
}

bool gc_conn_global_use_owner(gc_conn *c, const char *schema, const char *table)
{
    gc_global *g = c->global;
    if (gc_global_prelude_pending(g))
        return false;
    if (gc_global_pinned_member(g) >= 0)
        return use_owner_in_transaction(c, schema, table);
    /* Between transactions: a newer catalog version (a solo table made by
     * another connection) is followed first, as before a statement. */
    gc_conn_global_between_transactions(c);
    gc_analysis a;
    memset(&a, 0, sizeof a);
    a.kind = GC_SQL_SELECT;
    a.read_only = a.route_as_read = true;
    a.schema = (char *)schema;   /* the router only reads the names */
    a.table = (char *)table;
    a.n_rows = 1;
    char setup_buf[128];
    gc_route_request req = {
        .analysis = &a,
        .use_keys = true,
        .transaction = false,   /* the catalog query's own BEGIN pins, if any */
        .read_only_mode = true,
        .setup_sql = gc_conn_characteristics_sql(c, setup_buf, sizeof setup_buf),
    };
    gc_route_decision d;
    gc_error err;
    gc_error_clear(&err);
    if (gc_global_route(g, &req, &d, &err) && d.by_key)
        use_owner_member(c, d.member, req.setup_sql, table);
    /* else not a solo table the map knows: where catalog functions run */
    return false;
}

/* Borrows member i's session for c, with the connection's session
 * characteristics and settings. */
static bool hold_member(gc_conn *c, int i, gc_error *err)
{
    char buf[128];
    return gc_global_open_member(c->global, i, gc_conn_characteristics_sql(c, buf, sizeof buf),
                                 err) &&
           gc_global_settings_replay(c->global, i, err);
}

bool gc_conn_global_hold_session(gc_conn *c, gc_error *err)
{
    gc_global *g = c->global;
    if (!gc_global_shares_sessions(g) || c->session == NULL ||
        gc_session_is_open(c->session))
        return true;
    int current = gc_global_member_index(g, c->session);
    bool down = gc_session_get_state(c->session) == GC_MEMBER_DOWN;
    if (current >= 0 && !down && hold_member(c, current, err))
        return true;
    /* A transaction stays where it is (a DOWN member there is its loss,
     * reported by the caller); a wait for a busy member ends in HYT00. */
    if (current < 0 || in_transaction(c) || strcmp(err->sqlstate, "HYT00") == 0)
        return current >= 0 && down;
    /* Between transactions the current member is only a preference: what
     * is not routed (catalog functions, SHOW, attributes) runs on any
     * member, so one that failed is not tried again before its reconnect
     * is due; without the global session a dead current member would fail
     * those calls until a statement was routed elsewhere. */
    bool tried = false;
    for (int i = 0; i < gc_global_member_count(g); i++) {
        if (i == current || gc_session_get_state(gc_global_member(g, i)) == GC_MEMBER_DOWN)
            continue;
        gc_error_clear(err);
        tried = true;
        if (hold_member(c, i, err)) {
            /* A statement still owning the closed session ends there
             * (gc_session_owner streams on the current session only). */
            gc_session_end_streaming(&c->session_owner);
            c->session = gc_global_member(g, i);
            return true;
        }
    }
    /* Nothing else answered: a DOWN current member is reported by the
     * caller as before (08S01). */
    return !tried && down;
}

SQLRETURN gc_conn_reconnect_global(gc_conn *c, gc_diag *diag)
{
    gc_global *g = c->global;
    if (in_transaction(c)) {
        gc_diag_add(diag, "25000", 0,
                    "invalid transaction state: ALTER SYSTEM RECONNECT GLOBAL CONNECTION "
                    "reopens every member session; end the transaction first");
        return SQL_ERROR;
    }
    char name[128];
    current_member_name(c, name, sizeof name);
    gc_session_end_streaming(&c->session_owner);
    char buf[128];
    gc_error err;
    gc_error_clear(&err);
    gc_error info;
    int64_t version = -1;
    bool ok = gc_global_reconnect(g, gc_conn_characteristics_sql(c, buf, sizeof buf),
                                  &version, &err, &info);
    find_session_again(c, name);
    if (!ok) {
        gc_diag_add_error(diag, &err);
        return SQL_ERROR;
    }
    gc_trace_write(c->trace, GC_TRACE_INFO,
                   "ALTER SYSTEM RECONNECT GLOBAL CONNECTION: catalog version %lld, "
                   "every member session reopened", (long long)version);
    if (gc_error_is_set(&info)) {
        gc_diag_add_error(diag, &info);   /* the groups left out */
        return SQL_SUCCESS_WITH_INFO;
    }
    return SQL_SUCCESS;
}
