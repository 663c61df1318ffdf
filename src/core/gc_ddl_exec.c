/*
 * gc_ddl_exec: runs a global connection's cluster-wide DDL (see
 * gc_ddl_exec.h and global/gc_ddl.h) instead of routing it to one member.
 */
#include "core/gc_ddl_exec.h"
#include "global/gc_analyzer.h"
#include "global/gc_ddl.h"
#include "global/gc_global.h"

bool gc_ddl_exec_is_cluster_wide(const gc_stmt *s)
{
    if (s->conn->global == NULL || s->analysis == NULL || s->sql == NULL ||
        s->analysis->kind != GC_SQL_DDL)
        return false;
    gc_ddl_plan plan;
    gc_ddl_classify(s->sql, &plan);
    /* REFRESH in an open transaction runs where the transaction does, as
     * any statement: it changes data, not the cluster's schema. */
    if (plan.scope == GC_DDL_MATVIEW_REFRESH)
        return s->conn->autocommit && gc_global_pinned_member(s->conn->global) < 0;
    return plan.scope != GC_DDL_ONE_MEMBER;
}

SQLRETURN gc_ddl_exec_statement(gc_stmt *s)
{
    gc_conn *c = s->conn;
    gc_ddl_plan plan;
    gc_ddl_classify(s->sql, &plan);
    if (plan.scope == GC_DDL_REFUSED) {
        gc_diag_add(&s->h.diag, "0A000", 0,
                    "feature not supported on a global connection: %s", plan.why);
        return SQL_ERROR;
    }
    /* Two-phase commit needs the DDL to be its own transaction on every
     * group: it cannot join a transaction already open on one member. */
    if (!c->autocommit || gc_global_pinned_member(c->global) >= 0) {
        gc_diag_add(&s->h.diag, "25000", 0,
                    "invalid transaction state: DDL on a global connection runs on every "
                    "group with two-phase commit and cannot join an open transaction; "
                    "run DDL in autocommit mode on a global connection");
        return SQL_ERROR;
    }
    char buf[128];
    const char *setup = gc_conn_characteristics_sql(c, buf, sizeof buf);
    gc_ddl_outcome out;
    gc_error err;
    gc_error_clear(&err);
    int notices_from = s->h.diag.count;
    bool ran = gc_ddl_run(c->global, s->sql, &plan, setup, &out, &err);
    /* Every group runs the statement, so a notice (DROP TABLE IF EXISTS of
     * a missing table) comes once per group: the application hears it once. */
    gc_diag_drop_repeats(&s->h.diag, notices_from);
    if (!ran) {
        /* The servers' notices on the way (a primary's warning before it
         * dropped the session, say) would come before the error, and many
         * applications read only the first record: the error, which names
         * the group and says what was undone, is the one to keep. */
        gc_diag *d = &s->h.diag;
        const char *function = d->dynamic_function;
        SQLINTEGER function_code = d->dynamic_function_code;
        gc_diag_clear(d);
        d->dynamic_function = function;
        d->dynamic_function_code = function_code;
        gc_diag_add_error(d, &err);
        return SQL_ERROR;
    }
    SQLRETURN rc = gc_stmt_set_local_result(s, out.result);
    if (rc == SQL_SUCCESS && out.info.sqlstate[0] != '\0') {
        gc_diag_add_error(&s->h.diag, &out.info);
        rc = SQL_SUCCESS_WITH_INFO;
    }
    return rc;
}
