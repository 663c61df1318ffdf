/*
 * gc_ddl_exec: runs a global connection's cluster-wide DDL (see
 * gc_ddl_exec.h and global/gc_ddl.h) instead of routing it to one member.
 */
#include "core/gc_ddl_exec.h"

#include <string.h>

#include "core/gc_exec_timer.h"
#include "sql/gc_analyzer.h"
#include "global/gc_ddl.h"
#include "core/gc_txn_guard.h"
#include "global/gc_global.h"
#include "global/gc_global_settings.h"
#include "global/gc_temp_tables.h"

/* How sql runs on c: by its text, then by the temporary tables it names
 * (DDL on a temporary table runs on its member alone). */
static void classify(const gc_conn *c, const char *sql, gc_ddl_plan *plan)
{
    gc_ddl_classify(sql, plan);
    gc_temp_tables_adjust_ddl(gc_global_temp_tables(c->global), sql, plan);
}

/* Whether a plan runs on the groups' primaries rather than on one member. */
static bool runs_on_groups(const gc_conn *c, const gc_ddl_plan *plan)
{
    /* REFRESH in an open transaction runs where the transaction does, as
     * any statement: it changes data, not the cluster's schema. */
    if (plan->scope == GC_DDL_MATVIEW_REFRESH)
        return !gc_across_in_transaction(c);
    return plan->scope != GC_DDL_ONE_MEMBER;
}

bool gc_across_in_transaction(const gc_conn *c)
{
    return !c->autocommit || gc_global_pinned_member(c->global) >= 0 ||
           gc_global_prelude_pending(c->global);
}

void gc_across_failed_in_transaction(gc_conn *c, bool rolled_back, bool sent, gc_error *err)
{
    int level = gc_txn_rollback_level(c);
    if (!rolled_back && (level == 2 || gc_global_pinned_member(c->global) < 0))
        return;
    if (!rolled_back && level == 0) {
        /* Undone on every member; the transaction stays aborted as on one
         * server, unless nothing was run (a refusal of the driver's). */
        if (sent)
            gc_global_leave_aborted(c->global);
        return;
    }
    if (!rolled_back)
        gc_global_rollback_transaction(c->global);
    gc_error noted = *err;
    gc_error_set(&noted, err->sqlstate, err->native, "%s; the transaction was rolled back",
                 err->message);
    *err = noted;
}

void gc_across_use_pin(gc_conn *c)
{
    int pin = gc_global_pinned_member(c->global);
    if (pin >= 0)
        gc_conn_use_member(c, pin);
}

SQLRETURN gc_across_error(gc_stmt *s, const gc_error *err)
{
    /* The servers' notices on the way (a primary's warning before it
     * dropped the session, say) would come before the error, and many
     * applications read only the first record: the error, which names the
     * group and says what was undone, is the one to keep. */
    gc_diag *d = &s->h.diag;
    const char *function = d->dynamic_function;
    SQLINTEGER function_code = d->dynamic_function_code;
    gc_diag_clear(d);
    d->dynamic_function = function;
    d->dynamic_function_code = function_code;
    gc_diag_add_error(d, err);
    return SQL_ERROR;
}

bool gc_ddl_exec_is_cluster_wide(const gc_stmt *s)
{
    /* A text of several statements is split when one of them is
     * (gc_exec_split.h), else sent whole as any text. */
    if (s->txn.several)
        return false;
    if (s->analysis == NULL || s->sql == NULL ||
        (s->analysis->kind != GC_SQL_DDL && !s->analysis->select_into))
        return false;
    /* In a transaction a failed statement left aborted, the DDL goes where
     * every statement goes then: the aborted member answers it (25P02). */
    if (gc_global_transaction_aborted(s->conn->global))
        return false;
    gc_ddl_plan plan;
    classify(s->conn, s->sql, &plan);
    return runs_on_groups(s->conn, &plan);
}

bool gc_ddl_exec_text_is_cluster_wide(const gc_conn *c, const char *sql)
{
    gc_ddl_plan plan;
    classify(c, sql, &plan);
    return runs_on_groups(c, &plan);
}

SQLRETURN gc_ddl_exec_statement(gc_stmt *s)
{
    gc_conn *c = s->conn;
    gc_ddl_plan plan;
    classify(c, s->sql, &plan);
    if (plan.scope == GC_DDL_REFUSED) {
        gc_diag_add(&s->h.diag, "0A000", 0,
                    "feature not supported on a global connection: %s", plan.why);
        return SQL_ERROR;
    }
    /* The DDL talks to every group's primary: a result still streaming on
     * the current session is buffered first. */
    gc_session_end_streaming(&c->session_owner);
    char buf[128];
    const char *setup = gc_conn_characteristics_sql(c, buf, sizeof buf);
    gc_ddl_outcome out;
    gc_error err;
    gc_error_clear(&err);
    int notices_from = s->h.diag.count;
    /* In a transaction (autocommit off, or a BEGIN sent in SQL) the DDL
     * joins it on every group and commits with it; else it is its own
     * transaction, committed at once. */
    bool in_transaction = gc_across_in_transaction(c);
    /* CONCURRENTLY runs outside a transaction block: with autocommit off
     * and no transaction open yet it goes on its own, as the general
     * connection sends it (docs/transactions.md); in an open one the
     * server's refusal is given, nothing sent. */
    if (plan.scope == GC_DDL_CONCURRENTLY && in_transaction) {
        if (gc_global_pinned_member(c->global) >= 0 || gc_global_prelude_pending(c->global)) {
            gc_diag_add(&s->h.diag, "25001", 0, "CONCURRENTLY cannot run inside a "
                        "transaction block");
            return SQL_ERROR;
        }
        in_transaction = false;
    }
    /* The query timeout and SQLCancel reach the DDL's statement on each
     * group's primary (gc_global_wait_step_begin). */
    gc_exec_timer timer;
    gc_exec_timer_start(&timer, s);
    atomic_store(&s->in_server_call, true);
    bool ran;
    if (in_transaction) {
        char begin[96];
        gc_conn_begin_sql(c, begin, sizeof begin);
        ran = gc_ddl_run_in_transaction(c->global, s->sql, &plan, begin, setup, &out, &err);
        if (!ran)
            gc_across_failed_in_transaction(c, false, out.sent, &err);
        gc_across_use_pin(c);
    } else {
        ran = gc_ddl_run(c->global, s->sql, &plan, setup, &out, &err);
    }
    atomic_store(&s->in_server_call, false);
    gc_exec_timer_stop(&timer);
    if (!ran && gc_exec_timer_fired(s, err.sqlstate)) {
        gc_error timeout;
        gc_exec_timeout_error(&timeout, err.message);
        err = timeout;
    }
    /* Every group runs the statement, so a notice (DROP TABLE IF EXISTS of
     * a missing table) comes once per group: the application hears it once. */
    gc_diag_drop_repeats(&s->h.diag, notices_from);
    if (!ran)
        return gc_across_error(s, &err);
    SQLRETURN rc = gc_stmt_set_local_result(s, out.result);
    if (rc == SQL_SUCCESS && out.info.sqlstate[0] != '\0') {
        gc_diag_add_error(&s->h.diag, &out.info);
        rc = SQL_SUCCESS_WITH_INFO;
    }
    return rc;
}
