/*
 * gc_conn_kind_global: the rules of a global connection, as the table the
 * shared code calls. Routing and a statement's outcome are gc_route.c's
 * (on top of src/global's lifecycle, gc_global_lifecycle.c); what is left
 * here is too small for a file of its own.
 */
#include <string.h>

#include "core/gc_commit.h"
#include "core/gc_conn.h"
#include "core/gc_conn_endtran.h"
#include "core/gc_conn_global.h"
#include "core/gc_conn_kind.h"
#include "core/gc_ddl_exec.h"
#include "core/gc_exec_array.h"
#include "core/gc_exec_split.h"
#include "core/gc_route.h"
#include "core/gc_route_session.h"
#include "core/gc_stmt.h"
#include "global/gc_global.h"
#include "global/gc_global_settings.h"
#include "global/gc_outcome.h"
#include "global/gc_remote_write.h"
#include "sql/gc_sql_lexer.h"

/* The member broke under the PREPARE, or refused it: after the outcome's
 * bookkeeping, the lifecycle hears that nothing ran there, so an autocommit
 * statement may run again elsewhere. */
static void prepare_failed(gc_stmt *s, gc_session *m, SQLRETURN rc)
{
    gc_route_done(s, rc);
    gc_global_failed_before_running(s->conn->global, gc_global_member_index(s->conn->global, m));
}

static bool ran_with_xid(gc_stmt *s, gc_session *m, const char *sql, const char *stmt_name,
                         int n, const Oid *types, const char *const *values,
                         const int *lengths, const int *formats, SQLRETURN *rc)
{
    if (gc_commit_sql_applies(s))
        *rc = gc_commit_run_sql(s);
    else if (gc_commit_write_applies(s))
        *rc = gc_commit_run_write(s, m, sql, stmt_name, n, types, values, lengths, formats);
    else
        return false;
    return true;
}

/* Each rerun costs one member at most (it is down after): no more reruns
 * than members. */
static int reruns(const gc_conn *c)
{
    return gc_global_member_count(c->global);
}

static bool statement_marked(const gc_conn *c)
{
    return c->autocommit && gc_global_statement_marked(c->global);
}

/* A transaction begun without routing (a catalog function) holds its
 * member too, so SQLEndTran finds it. */
static void began_outside_routing(gc_conn *c)
{
    gc_global_began_outside_routing(c->global, gc_global_member_index(c->global, c->session));
}

/* SQLEndTran, by the rules of gc_outcome.h: the
 * open transaction ends on its pinned member (with its transaction id for
 * a COMMIT), in two phases when it wrote in several groups, or not at all
 * when it was lost with its member. */
static SQLRETURN end_tran(gc_conn *c, bool commit)
{
    int pinned;
    gc_error report;
    unsigned long serial = gc_global_txn_serial(c->global);
    SQLRETURN rc = SQL_SUCCESS;
    switch (gc_global_end_transaction(c->global, commit, &pinned, &report)) {
    case GC_END_SPREAD_COMMIT:
        rc = gc_commit_spread(c, &c->h.diag);
        break;
    case GC_END_LOST:
        /* Nothing was sent, and this answer is final. */
        if (report.sqlstate[0] != '\0') {
            gc_diag_add_error(&c->h.diag, &report);
            rc = SQL_ERROR;
        }
        gc_commit_settings_ended(c, serial, false, &c->h.diag, rc);
        return rc;
    case GC_END_COMMIT_WITH_ID:
        rc = gc_commit_end_tran(c, pinned);   /* a lost answer is resolved */
        break;
    case GC_END_ON_MEMBER:
        rc = gc_conn_end_on_session(c, gc_global_member(c->global, pinned), commit);
        return gc_commit_settings_ended(c, serial, commit && SQL_SUCCEEDED(rc), &c->h.diag, rc);
    case GC_END_NOTHING:
        break;
    }
    /* The transaction's own SETs go everywhere once it committed. */
    rc = gc_commit_settings_ended(c, serial, commit && SQL_SUCCEEDED(rc), &c->h.diag, rc);
    return gc_conn_with_records(c, rc);
}

static bool member_in_transaction(const gc_conn *c)
{
    for (int i = 0; i < gc_global_member_count(c->global); i++)
        if (gc_global_holds_transaction(c->global, i))
            return true;
    return false;
}

/* The member goes to the failover schedule, which reopens it; the
 * connection goes on. */
static SQLRETURN member_failed(gc_conn *c, gc_session *m, const gc_error *why,
                               const char *reason)
{
    (void)reason;
    gc_global_member_failed(c->global, gc_global_member_index(c->global, m),
                            gc_session_generation(m), why);
    return SQL_SUCCESS;
}

/* Alive while connected: it fails over and reconnects its members itself,
 * and under GlobalSession holds no member session between calls (before,
 * a driver manager's pool took it for dead and made a new one at every
 * reuse). */
static bool connected(const gc_conn *c)
{
    return c->global != NULL;
}

static int member_count(const gc_conn *c)
{
    return gc_global_member_count(c->global);
}

static gc_session *member_at(const gc_conn *c, int i)
{
    return gc_global_member(c->global, i);
}

static void wait_begins(gc_conn *c)
{
    gc_global_wait_begin(c->global, c->session);
}

static void wait_ends(gc_conn *c)
{
    gc_global_wait_end(c->global);
}

static bool cancel_wait(gc_conn *c, gc_error *err)
{
    return gc_global_cancel_wait(c->global, c->session, err);
}

/* The characteristics go to every open member session (sessions opened
 * later get them when they open). */
static bool set_on_members(gc_conn *c, const char *sql, gc_error *err)
{
    gc_session_end_streaming(&c->session_owner);
    for (int i = 0; i < gc_global_member_count(c->global); i++) {
        gc_session *m = gc_global_member(c->global, i);
        if (!gc_session_is_open(m))
            continue;
        PGresult *res = gc_session_exec(m, sql, err);
        if (res == NULL)
            return false;
        PQclear(res);
    }
    return true;
}

/* True when every statement of sql (split at ';') starts with SET or RESET:
 * what a global connection may run on every member and replay. */
static bool only_settings(const char *sql)
{
    gc_sql_lexer lx;
    gc_sql_token tok;
    gc_sql_lexer_init(&lx, sql, strlen(sql));
    bool at_start = true;
    while (gc_sql_lexer_next_code(&lx, &tok)) {
        if (tok.unterminated)
            return false;
        if (gc_sql_token_is_punct(&lx, &tok, ';')) {
            at_start = true;
            continue;
        }
        if (at_start && !gc_sql_token_is_keyword(&lx, &tok, "SET") &&
            !gc_sql_token_is_keyword(&lx, &tok, "RESET"))
            return false;
        at_start = false;
    }
    return true;
}

static bool run_conn_settings(gc_conn *c, const char *sql, gc_error *err)
{
    if (!only_settings(sql)) {
        gc_error_set(err, "08001", 0,
                     "ConnSettings on a global connection may hold only SET and "
                     "RESET statements: they run on every member and again on "
                     "members opened later");
        return false;
    }
    return gc_global_set_everywhere(c->global, sql, err);
}

static const char *last_member_name(gc_conn *c)
{
    int i = gc_global_last_member(c->global);
    return i >= 0 ? gc_global_topology(c->global)->members[i].name : "";
}

static SQLBIGINT catalog_version(const gc_conn *c)
{
    return (SQLBIGINT)gc_global_catalog_version(c->global);
}

/* A transaction across groups: every part goes. */
static bool rolled_back_everywhere(gc_conn *c, gc_session *m)
{
    if (gc_global_joined_count(c->global) == 0 ||
        !gc_global_holds_transaction(c->global, gc_global_member_index(c->global, m)))
        return false;
    gc_global_rollback_transaction(c->global);
    return true;
}

static void rolled_back_on(gc_conn *c, gc_session *m)
{
    gc_global_rolled_back_on(c->global, gc_global_member_index(c->global, m));
}

const gc_conn_kind gc_conn_kind_global = {
    .open = gc_conn_open_global,
    .between_calls = gc_conn_global_idle,
    .keeps_statement_name = true,
    .several_sessions = true,
    .begin_suffix = "; " GC_REMOTE_WRITE_TXN_MARK,
    .analyze = gc_route_analyze,
    .session_sql_allowed = gc_route_session_sql_allowed,
    .shared_session_allows = gc_route_global_session_allows,
    .cluster_wide_ddl = gc_ddl_exec_is_cluster_wide,
    .splits_text = gc_exec_split_applies,
    .session_control = gc_route_session_control,
    .route_statement = gc_route_statement,
    .draw_keys = gc_route_draw_keys,
    .keys_done = gc_route_keys_done,
    .statement_done = gc_route_done,
    .prepare_failed = prepare_failed,
    .holds = gc_route_holds,
    .mark_prepared = gc_route_mark_prepared,
    .prepare_twin = gc_commit_prepare_twin,
    .ran_with_xid = ran_with_xid,
    .reruns = reruns,
    .may_rerun = gc_route_may_rerun,
    .group_not_writable = gc_route_group_not_writable,
    .array_applies = gc_exec_array_global_applies,
    .array_lanes = &gc_exec_array_per_member,
    .fetch_failed = gc_route_fetch_failed,
    .statement_marked = statement_marked,
    .wait_begins = wait_begins,
    .wait_ends = wait_ends,
    .cancel_wait = cancel_wait,
    .alive = connected,
    .session_count = member_count,
    .session_at = member_at,
    .hold_session = gc_conn_global_hold_session,
    .close = gc_conn_close_global,
    .set_on_sessions = set_on_members,
    .run_conn_settings = run_conn_settings,
    .last_member_name = last_member_name,
    .catalog_version = catalog_version,
    .catalog_on_owner = gc_conn_global_use_owner,
    .show_connection = gc_show_global_members,
    .show_sessions = gc_show_global_shared_sessions,
    .reconnect = gc_conn_reconnect_global,
    .began_outside_routing = began_outside_routing,
    .in_transaction = member_in_transaction,
    .end_tran = end_tran,
    .rolled_back_everywhere = rolled_back_everywhere,
    .rolled_back_on = rolled_back_on,
    .rolled_back_with_session = member_failed,
};
