/*
 * gc_conn_kind_general: the rules of a general connection, whose one member
 * session is the server its DSN names: nothing to route, no outcome to
 * record beyond the server's own answer, nothing to run again.
 */
#include <stdlib.h>

#include "core/gc_conn.h"
#include "core/gc_conn_endtran.h"
#include "core/gc_conn_kind.h"
#include "core/gc_exec_array.h"
#include "core/gc_stmt.h"

/* Opens one member session on the first server the settings name; a new
 * or disconnected connection has this kind already. */
static SQLRETURN open_the_server(gc_conn *c, const gc_member_params *template)
{
    gc_error err;
    gc_error_clear(&err);
    gc_member_params params = *template;
    char *host = NULL, *port = NULL;
    if (!gc_settings_first_server(&c->settings, &host, &port, &err)) {
        gc_diag_add_error(&c->h.diag, &err);
        return SQL_ERROR;
    }
    params.host = host;
    params.port = port;
    gc_session *m = gc_session_open(&params, c->trace, gc_conn_notice, c, &c->session_owner,
                                    &err);
    free(host);
    free(port);
    if (m == NULL) {
        gc_diag_add_error(&c->h.diag, &err);
        return SQL_ERROR;
    }
    c->session = m;
    /* Attributes set before connecting take effect now. */
    if ((c->txn_isolation != 0 || c->access_mode == SQL_MODE_READ_ONLY) &&
        !gc_conn_apply_session_characteristics(c, &err)) {
        gc_diag_add_error(&c->h.diag, &err);
        gc_session_destroy(m);
        c->session = NULL;
        return SQL_ERROR;
    }
    return gc_diag_has_records(&c->h.diag) ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS;
}

static void analyze_nothing(gc_stmt *s)
{
    (void)s;
}

static bool allow_all(gc_stmt *s)
{
    (void)s;
    return true;
}

/* The one session is the connection's session already. */
static SQLRETURN route_to_the_session(gc_stmt *s, const gc_param_value *pv)
{
    (void)s;
    (void)pv;
    return SQL_SUCCESS;
}

/* The server draws every key: the one session holds every row. */
static SQLRETURN draw_no_keys(gc_stmt *s)
{
    (void)s;
    return SQL_SUCCESS;
}

static void no_keys_drawn(gc_stmt *s)
{
    (void)s;
}

static void note_nothing(gc_stmt *s, SQLRETURN rc)
{
    (void)s;
    (void)rc;
}

static void nothing_ran(gc_stmt *s, gc_session *m, SQLRETURN rc)
{
    (void)s;
    (void)m;
    (void)rc;
}

/* A server statement lives on the session generation that made it: a
 * reconnected session has none of the old one's. */
static bool holds_on_generation(const gc_conn *c, const gc_server_stmt *st, const gc_session *m)
{
    (void)c;
    return st->name[0] != '\0' && st->generation == gc_session_generation(m);
}

static void mark_generation(gc_stmt *s, const gc_session *m)
{
    s->server.generation = gc_session_generation(m);
}

/* No transaction id travels with a general connection's writes: its
 * server statements never get a twin. */
static void no_twin(gc_stmt *s, gc_session *m)
{
    (void)m;
    s->server.xid_twin = -1;
}

static bool sent_plainly(gc_stmt *s, gc_session *m, const char *sql, const char *stmt_name,
                         int n, const Oid *types, const char *const *values,
                         const int *lengths, const int *formats, SQLRETURN *rc)
{
    (void)s, (void)m, (void)sql, (void)stmt_name, (void)n, (void)types, (void)values;
    (void)lengths, (void)formats, (void)rc;
    return false;
}

static int no_reruns(const gc_conn *c)
{
    (void)c;
    return 0;
}

static bool never(const gc_stmt *s)
{
    (void)s;
    return false;
}

/* A fetch's error is the server's, as it stands. */
static void fetch_error_stands(gc_stmt *s)
{
    (void)s;
}

static bool unmarked(const gc_conn *c)
{
    (void)c;
    return false;
}

/* A BEGIN on the one session needs no bookkeeping: the server's status is
 * the truth. */
static void nothing_to_pin(gc_conn *c)
{
    (void)c;
}

static bool session_in_transaction(const gc_conn *c)
{
    return c->session != NULL && gc_session_txn_status(c->session) != PQTRANS_IDLE;
}

static SQLRETURN end_on_the_session(gc_conn *c, bool commit)
{
    return gc_conn_end_on_session(c, c->session, commit);
}

/* The one session is gone: the connection is dead from now on, which the
 * application is told. */
static SQLRETURN connection_unusable(gc_conn *c, gc_session *m, const gc_error *why,
                                     const char *reason)
{
    (void)m;
    (void)why;
    gc_diag_add(&c->h.diag, "01000", 0,
                "the transaction was rolled back: the server ended the session (%s); the "
                "connection is no longer usable", reason);
    return SQL_SUCCESS_WITH_INFO;
}

static int one_session(const gc_conn *c)
{
    (void)c;
    return 1;
}

static gc_session *the_session(const gc_conn *c, int i)
{
    (void)i;
    return c->session;
}

/* The one session is the connection's for good. */
/* The one session: dead once it is lost. */
static bool session_open(const gc_conn *c)
{
    return c->session != NULL && gc_session_is_open(c->session);
}

static bool held_always(gc_conn *c, gc_error *err)
{
    (void)c;
    (void)err;
    return true;
}

static void close_the_session(gc_conn *c)
{
    gc_session *m = c->session;
    gc_trace_write(c->trace, GC_TRACE_INFO, "disconnecting");
    c->session = NULL;
    gc_session_destroy(m);
}

static bool not_cluster_wide(const gc_stmt *s)
{
    (void)s;
    return false;
}

static bool nothing_to_control(gc_stmt *s, SQLRETURN *rc)
{
    (void)s;
    (void)rc;
    return false;
}

static void nothing_to_do(gc_conn *c)
{
    (void)c;
}

/* The one session, whatever the statement waits on. */
static bool cancel_the_session(gc_conn *c, gc_error *err)
{
    return c->session == NULL || gc_session_cancel(c->session, err);
}

static bool exec_on_the_session(gc_conn *c, const char *sql, gc_error *err)
{
    PGresult *res = gc_conn_exec(c, sql, err);
    PQclear(res);
    return res != NULL;
}

/* Its server as host:port. */
static const char *server_name(gc_conn *c)
{
    return gc_conn_is_connected(c) ? gc_session_host(c->session) : "";
}

static SQLBIGINT no_catalog_version(const gc_conn *c)
{
    (void)c;
    return -1;
}

/* A catalog function runs on the one server, which holds every table. */
static bool catalog_on_the_server(gc_conn *c, const char *schema, const char *table)
{
    (void)c;
    (void)schema;
    (void)table;
    return false;
}

static SQLRETURN nothing_to_reconnect(gc_conn *c, gc_diag *diag)
{
    (void)c;
    gc_diag_add(diag, "HY000", 0,
                "ALTER SYSTEM RECONNECT GLOBAL CONNECTION needs a global connection "
                "(GlobalConnection=Yes)");
    return SQL_ERROR;
}

static bool rolled_back_nowhere(gc_conn *c, gc_session *m)
{
    (void)c;
    (void)m;
    return false;
}

static void nothing_pinned(gc_conn *c, gc_session *m)
{
    (void)c;
    (void)m;
}

const gc_conn_kind gc_conn_kind_general = {
    .open = open_the_server,
    .between_calls = nothing_to_do,
    .keeps_statement_name = false,
    .several_sessions = false,
    .begin_suffix = "",
    .analyze = analyze_nothing,
    .session_sql_allowed = allow_all,
    .shared_session_allows = allow_all,
    .cluster_wide_ddl = not_cluster_wide,
    .splits_text = never,
    .session_control = nothing_to_control,
    .route_statement = route_to_the_session,
    .draw_keys = draw_no_keys,
    .keys_done = no_keys_drawn,
    .statement_done = note_nothing,
    .prepare_failed = nothing_ran,
    .holds = holds_on_generation,
    .mark_prepared = mark_generation,
    .prepare_twin = no_twin,
    .ran_with_xid = sent_plainly,
    .reruns = no_reruns,
    .may_rerun = never,
    .group_not_writable = never,
    .array_applies = allow_all,
    .array_lanes = &gc_exec_array_one_session,
    .fetch_failed = fetch_error_stands,
    .statement_marked = unmarked,
    .wait_begins = nothing_to_do,
    .wait_ends = nothing_to_do,
    .cancel_wait = cancel_the_session,
    .alive = session_open,
    .session_count = one_session,
    .session_at = the_session,
    .hold_session = held_always,
    .close = close_the_session,
    .set_on_sessions = exec_on_the_session,
    .run_conn_settings = exec_on_the_session,
    .last_member_name = server_name,
    .catalog_version = no_catalog_version,
    .catalog_on_owner = catalog_on_the_server,
    .show_connection = gc_show_global_server,
    .show_sessions = gc_show_global_no_sessions,
    .reconnect = nothing_to_reconnect,
    .began_outside_routing = nothing_to_pin,
    .in_transaction = session_in_transaction,
    .end_tran = end_on_the_session,
    .rolled_back_everywhere = rolled_back_nowhere,
    .rolled_back_on = nothing_pinned,
    .rolled_back_with_session = connection_unusable,
};
