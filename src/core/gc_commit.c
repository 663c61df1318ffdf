/*
 * gc_commit: see gc_commit.h.
 */
#include "core/gc_commit.h"

#include <stdlib.h>
#include <string.h>

#include "core/gc_exec_timer.h"
#include "global/gc_commit_resolve.h"
#include "global/gc_global.h"
#include "global/gc_global_settings.h"
#include "global/gc_outcome.h"

bool gc_commit_write_applies(const gc_stmt *s)
{
    const gc_conn *c = s->conn;
    if (c->global == NULL || !c->settings.resolve_lost_writes || !c->autocommit ||
        s->analysis == NULL || s->simple_query || gc_global_prelude_pending(c->global) ||
        gc_global_pinned_member(c->global) >= 0)
        return false;
    gc_sql_kind k = s->analysis->kind;
    if (k != GC_SQL_INSERT && k != GC_SQL_UPDATE && k != GC_SQL_DELETE && k != GC_SQL_MERGE)
        return false;
    return !s->analysis->read_only;
}

bool gc_commit_sql_applies(const gc_stmt *s)
{
    const gc_conn *c = s->conn;
    if (c->global == NULL || s->analysis == NULL || s->analysis->kind != GC_SQL_COMMIT ||
        s->simple_query || c->session == NULL)
        return false;
    int i = gc_global_member_index(c->global, c->session);
    if (i < 0 || gc_global_pinned_member(c->global) != i ||
        gc_member_txn_status(c->session) != PQTRANS_INTRANS)
        return false;
    /* A transaction across groups commits only through the two phases:
     * COMMIT AND CHAIN is refused there, never sent to one member. */
    return !s->analysis->and_chain || gc_global_commit_is_spread(c->global);
}

SQLRETURN gc_commit_spread(gc_conn *c, gc_diag *diag)
{
    char buf[128];
    const char *setup = gc_conn_characteristics_sql(c, buf, sizeof buf);
    gc_error err, info;
    gc_error_clear(&err);
    gc_error_clear(&info);
    gc_spread_outcome outcome = gc_global_commit_spread(c->global, setup, &err, &info);
    if (outcome != GC_SPREAD_COMMITTED) {
        gc_diag_add_error(diag, &err);
        return SQL_ERROR;
    }
    if (info.sqlstate[0] == '\0')
        return SQL_SUCCESS;
    gc_diag_add_error(diag, &info);
    return SQL_SUCCESS_WITH_INFO;
}

/* Whether member i's session holds the prepared id query; prepares it
 * (one round trip, once per session) when not. False when that failed: the
 * text query is sent instead (slower, same outcome). */
static bool xid_statement_ready(gc_conn *c, int i)
{
    if (gc_member_has_xid_statement(gc_global_member(c->global, i)))
        return true;
    gc_error err;
    gc_error_clear(&err);
    if (!gc_member_prepare_xid_statement(gc_global_member(c->global, i), &err)) {
        gc_trace_write(c->trace, GC_TRACE_INFO, "transaction-id statement not prepared on %s: %s",
                       gc_member_name(gc_global_member(c->global, i)), err.message);
        return false;
    }
    return true;
}

/* The server's error with its DETAIL and HINT when there is one. */
static void add_error(gc_diag *diag, const gc_member_xid_run *run, const gc_error *err)
{
    if (run->error != NULL)
        gc_diag_add_result(diag, run->error);
    else
        gc_diag_add_error(diag, err);
}

/* Whether the id query answered that the transaction had no id: it wrote
 * nothing on its member. */
static bool no_id_on_member(const gc_member_xid_run *run)
{
    return run->xid_answered && run->xid[0] == '\0';
}

/* Whether the server's error came from postgres_fdw committing the
 * transaction's part on another group's member (its step before the local
 * commit; the error's context names the remote SQL, which no server
 * translates), for a transaction that may have written there. That part
 * may have committed, or an earlier one of several, while the member's own
 * transaction rolls back: "the server said no" no longer means nothing
 * applied. */
static bool remote_commit_failed(const gc_conn *c, const gc_member_xid_run *run)
{
    const char *context = run->error != NULL ? PQresultErrorField(run->error, PG_DIAG_CONTEXT)
                                             : NULL;
    return context != NULL && strstr(context, "COMMIT TRANSACTION") != NULL &&
           gc_global_may_write_elsewhere(c->global);
}

/* The diagnostic put before the server's error when remote_commit_failed:
 * `what` (COMMIT, the statement) failed on member `name`, the outcome of
 * its remote part unknown (sqlstate 08007 or 40003). */
static void add_remote_commit_unknown(gc_diag *diag, const char *sqlstate, const char *what,
                                      const char *name)
{
    gc_diag_add(diag, sqlstate, 0, "%s failed on member %s while postgres_fdw committed its "
                "part on another group: whether that part committed is unknown (the "
                "server's error follows)", what, name);
}

/* The facts of run, whose exchange with member i is `exchange`, as the
 * settling rules take them (gc_outcome.h). */
static gc_settle_facts settle_facts(const gc_conn *c, bool is_commit, gc_exchange exchange,
                                    const gc_member_xid_run *run)
{
    gc_settle_facts f = {
        .is_commit = is_commit,
        .exchange = exchange,
        .no_id_on_member = no_id_on_member(run),
        .may_write_elsewhere = gc_global_may_write_elsewhere(c->global),
        .remote_commit_failed = exchange == GC_EXCHANGE_REFUSED && remote_commit_failed(c, run),
    };
    return f;
}

/* Settles the exchange f with member i by the rules, asking pg_xact_status
 * (gc_commit_resolve.h) when they say so. why gets the reason of an
 * unknown outcome. */
static gc_settle_verdict settle(gc_conn *c, int i, const gc_member_xid_run *run,
                                gc_settle_facts *f, gc_error *why)
{
    gc_error_clear(why);
    gc_settle_verdict v = gc_outcome_settle(f);
    if (v.action == GC_SETTLE_ASK) {
        f->resolved = gc_global_resolve_commit(c->global, i, run, GC_COMMIT_RESOLVE_WAIT_MS, why);
        f->asked = true;
        v = gc_outcome_settle(f);
    }
    const char *name = gc_member_name(gc_global_member(c->global, i));
    if (v.action == GC_SETTLE_UNKNOWN && v.why_elsewhere && f->no_id_on_member)
        gc_error_set(why, "08007", 0, "it wrote nothing on member %s but may have written "
                     "to another group through postgres_fdw", name);
    else if (v.action == GC_SETTLE_UNKNOWN && v.why_elsewhere)
        gc_error_set(why, "08007", 0, "it did not commit on member %s but may have written "
                     "to another group through postgres_fdw, which commits its part first",
                     name);
    return v;
}

/* The outcome's name in the trace, from what the rules made of it. */
static const char *settled_name(const gc_settle_verdict *v)
{
    if (v->action == GC_SETTLE_COMMITTED)
        return gc_xact_outcome_name(GC_XACT_COMMITTED);
    if (v->action == GC_SETTLE_UNKNOWN)
        return gc_xact_outcome_name(GC_XACT_UNKNOWN);
    return gc_xact_outcome_name(GC_XACT_NOT_COMMITTED);
}

/* What a COMMIT's run means for the application; diagnostics to diag.
 * Handles the member's failure and the pin. */
static SQLRETURN commit_outcome(gc_conn *c, int i, gc_member_xid_run *run,
                                const gc_error *err, gc_diag *diag)
{
    gc_member *m = gc_global_member(c->global, i);
    const char *name = gc_member_name(m);
    gc_exchange exchange = gc_outcome_exchange(run->outcome == GC_XID_COMMITTED,
                                               gc_member_get_state(m) == GC_MEMBER_DOWN,
                                               run->outcome == GC_XID_NOT_COMMITTED);
    gc_settle_facts f = settle_facts(c, true, exchange, run);
    if (exchange == GC_EXCHANGE_COMMITTED) {
        gc_global_release_pin(c->global);
        return SQL_SUCCESS;
    }
    if (exchange == GC_EXCHANGE_REFUSED) {
        /* The server answered: the transaction is over, not committed. */
        gc_settle_verdict v = gc_outcome_settle(&f);
        gc_global_release_pin(c->global);
        if (v.report.sqlstate[0] != '\0')
            add_remote_commit_unknown(diag, v.report.sqlstate, "COMMIT", name);
        if (run->rolled_back)
            gc_diag_add(diag, "40000", 0, "the transaction was rolled back because a statement "
                        "in it failed; nothing was committed");
        else
            add_error(diag, run, err);
        return SQL_ERROR;
    }
    /* Marked down, the pin released (the "lost" mark with it): this
     * function reports the outcome itself. */
    gc_global_commit_lost_member(c->global, i, run->generation);
    /* The dying session's notices would come first and hide the outcome
     * from applications that read only the first record. */
    gc_diag_clear(diag);
    gc_error lost;
    if (exchange == GC_EXCHANGE_BROKE_BEFORE) {
        gc_trace_write(c->trace, GC_TRACE_INFO, "member %s failed before COMMIT ran: %s",
                       name, err->message);
        gc_global_txn_lost_error(&lost);
        gc_diag_add_error(diag, &lost);
        return SQL_ERROR;
    }
    gc_error why;
    gc_settle_verdict v = settle(c, i, run, &f, &why);
    if (v.action == GC_SETTLE_WROTE_NOTHING) {
        gc_diag_add(diag, v.report.sqlstate, v.report.native, "member %s failed during COMMIT "
                    "of a transaction that wrote nothing: nothing was lost", name);
        return SQL_SUCCESS_WITH_INFO;
    }
    gc_trace_write(c->trace, GC_TRACE_INFO, "COMMIT on %s lost its answer (%s): "
                   "transaction %s %s", name, err->message,
                   run->xid[0] ? run->xid : "(id unknown)", settled_name(&v));
    if (v.action == GC_SETTLE_COMMITTED)
        return SQL_SUCCESS;
    if (v.action == GC_SETTLE_LOST) {
        gc_global_txn_lost_error(&lost);
        gc_diag_add_error(diag, &lost);
        return SQL_ERROR;
    }
    gc_diag_add(diag, v.report.sqlstate, v.report.native, "member %s failed during COMMIT: "
                "whether the transaction committed is unknown (%s)", name, why.message);
    return SQL_ERROR;
}

SQLRETURN gc_commit_run_sql(gc_stmt *s)
{
    gc_conn *c = s->conn;
    int i = gc_global_member_index(c->global, c->session);
    gc_global_set_last_member(c->global, i);
    gc_sql_commit how = gc_outcome_sql_commit(gc_global_commit_is_spread(c->global),
                                              s->analysis->and_chain);
    if (how != GC_SQL_COMMIT_WITH_ID) {
        if (how == GC_SQL_COMMIT_REFUSED) {
            gc_diag_add(&s->h.diag, "0A000", GC_GLOBAL_NATIVE_SPANNING_WRITE,
                        "COMMIT AND CHAIN of a transaction that spans groups is not "
                        "supported: COMMIT, then begin the next transaction");
            return SQL_ERROR;
        }
        SQLRETURN rc = gc_commit_spread(c, &s->h.diag);
        if (rc == SQL_ERROR)
            return rc;
        SQLRETURN set = gc_stmt_set_empty_result(s);
        return set == SQL_SUCCESS ? rc : set;
    }
    gc_member_xid_run run;
    gc_error err;
    gc_error_clear(&err);
    bool prepared = xid_statement_ready(c, i);
    atomic_store(&s->in_server_call, true);
    gc_member_commit_with_xid(c->session, prepared, &run, &err);
    atomic_store(&s->in_server_call, false);
    SQLRETURN rc = commit_outcome(c, i, &run, &err, &s->h.diag);
    gc_member_xid_run_clear(&run);
    if (rc == SQL_ERROR)
        return rc;
    SQLRETURN set = gc_stmt_set_empty_result(s);
    return set == SQL_SUCCESS ? rc : set;
}

SQLRETURN gc_commit_end_tran(gc_conn *c, int i)
{
    gc_member *m = gc_global_member(c->global, i);
    gc_trace_write(c->trace, GC_TRACE_DEBUG, "COMMIT on %s, with its transaction id",
                   gc_member_name(m));
    gc_member_xid_run run;
    gc_error err;
    gc_error_clear(&err);
    gc_member_commit_with_xid(m, xid_statement_ready(c, i), &run, &err);
    SQLRETURN rc = commit_outcome(c, i, &run, &err, &c->h.diag);
    gc_member_xid_run_clear(&run);
    return rc;
}

/* Whether s's text may carry the RETURNING of its transaction id. */
static bool twin_wanted(const gc_stmt *s)
{
    return s->conn->global != NULL && s->conn->settings.resolve_lost_writes &&
           s->analysis != NULL && s->analysis->returning_at > 0 && !s->simple_query;
}

void gc_commit_prepare_twin(gc_stmt *s, gc_member *m)
{
    gc_server_stmt *st = &s->server;
    /* A refused PREPARE inside a transaction would abort it: only an idle
     * session gets the twin, and a server statement made in a transaction
     * never has one (its autocommit writes send the id query). */
    if (st->xid_twin >= 0 && (!twin_wanted(s) || gc_member_txn_status(m) != PQTRANS_IDLE))
        st->xid_twin = -1;    /* never again: it must be beside it everywhere */
    if (st->xid_twin < 0)
        return;
    size_t at = s->analysis->returning_at;
    size_t len = at + sizeof GC_XID_RETURNING;
    char *sql = malloc(len);
    char name[sizeof st->name + 1];
    gc_error err;
    gc_error_set(&err, "HY001", 0, "out of memory");
    bool sent = false, ok = false;
    if (sql != NULL) {
        memcpy(sql, s->sql, at);
        memcpy(sql + at, GC_XID_RETURNING, sizeof GC_XID_RETURNING);
        snprintf(name, sizeof name, "%sx", st->name);
        gc_error_clear(&err);
        sent = ok = gc_member_send_prepare(m, name, sql, st->nparams, st->param_types, &err);
        free(sql);
    }
    PGresult *r;
    while (sent && (r = gc_member_next_result(m)) != NULL) {
        if (PQresultStatus(r) != PGRES_COMMAND_OK && ok) {
            gc_member_result_error(m, r, &err);
            ok = false;
        }
        PQclear(r);
    }
    if (!ok)
        gc_trace_write(s->conn->trace, GC_TRACE_INFO, "statement %s returning its transaction "
                       "id not made on %s (%s): its writes send the id query",
                       st->name, gc_member_name(m), err.message);
    st->xid_twin = ok ? 1 : -1;
}

/* Where this run of the write s on m gets its transaction id: from its
 * twin's RETURNING when its rows stay in m's group by key (routing said
 * so: no postgres_fdw in it, so the appended function leaves the plan as
 * it was), else from the id query. */
static gc_member_xid_source xid_source(gc_stmt *s, gc_member *m)
{
    gc_global *g = s->conn->global;
    if (s->prepared && !s->simple_query && s->server.xid_twin > 0 &&
        gc_route_prepared_on(s, m) && !gc_global_may_write_elsewhere(g))
        return GC_XID_RETURNED;
    return xid_statement_ready(s->conn, gc_global_member_index(g, m)) ? GC_XID_QUERY_PREPARED
                                                                       : GC_XID_QUERY_TEXT;
}

/* Takes a write's answer as its result: with source GC_XID_RETURNED the
 * rows are the appended RETURNING's, which the application never asked
 * for, so only the command's row count remains. Takes result. */
static SQLRETURN set_write_result(gc_stmt *s, gc_member_xid_source source, PGresult *result)
{
    if (source == GC_XID_RETURNED)
        return gc_stmt_set_command_result(s, result);
    return gc_stmt_set_local_result(s, result);
}

/* Sends the write and collects it all, under the query timeout. */
static bool send_write(gc_stmt *s, gc_member *m, gc_member_xid_source source, int n,
                       const Oid *types, const char *const *values, const int *lengths,
                       const int *formats, gc_member_xid_run *run, gc_error *err)
{
    char twin[sizeof s->server.name + 1];
    const char *name = s->prepared ? s->server.name : NULL;
    if (source == GC_XID_RETURNED) {
        snprintf(twin, sizeof twin, "%sx", s->server.name);
        name = twin;
    }
    gc_exec_timer timer;
    gc_exec_timer_start(&timer, s);
    atomic_store(&s->in_server_call, true);
    bool ok = gc_member_run_statement_with_xid(m, source, name, s->sql, n, types, values,
                                               lengths, formats, run, err);
    atomic_store(&s->in_server_call, false);
    gc_exec_timer_stop(&timer);
    return ok;
}

/* An autocommit write that committed although its member failed before
 * the sync's answer. The id query is answered after the statement, so the
 * statement's own answer (its row count, and the rows of a RETURNING) had
 * arrived in full: the application gets it, with 01000 saying what
 * happened (without it, should that ever be, the row count is -1). Takes
 * run's result. */
static SQLRETURN committed_after_loss(gc_stmt *s, gc_member *m, gc_member_xid_source source,
                                      gc_member_xid_run *run)
{
    PGresult *result = run->result;
    run->result = NULL;
    gc_member_xid_run_clear(run);
    bool answered = result != NULL;
    SQLRETURN rc = answered ? set_write_result(s, source, result)
                            : gc_stmt_set_empty_result(s);   /* row count -1 */
    if (rc == SQL_ERROR)
        return SQL_ERROR;
    gc_diag_add(&s->h.diag, "01000", 0, "member %s failed after the statement committed: "
                "it took effect once; %s", gc_member_name(m),
                answered ? "its answer had arrived in full"
                         : "the number of rows it affected is unknown");
    return SQL_SUCCESS_WITH_INFO;
}

SQLRETURN gc_commit_run_write(gc_stmt *s, gc_member *m, int nparams, const Oid *types,
                              const char *const *values, const int *lengths,
                              const int *formats)
{
    gc_conn *c = s->conn;
    gc_global *g = c->global;
    gc_member_xid_run run;
    gc_error err;
    gc_error_clear(&err);
    gc_member_xid_source source = xid_source(s, m);
    if (send_write(s, m, source, nparams, types, values, lengths, formats, &run, &err)) {
        SQLRETURN rc = run.result != NULL ? set_write_result(s, source, run.result)
                                          : gc_stmt_set_empty_result(s);
        gc_route_done(s, rc);
        return rc;
    }
    gc_exchange exchange = gc_outcome_exchange(false, gc_member_get_state(m) == GC_MEMBER_DOWN,
                                               run.outcome == GC_XID_NOT_COMMITTED);
    gc_settle_facts f = settle_facts(c, false, exchange, &run);
    if (exchange == GC_EXCHANGE_REFUSED) {
        /* The server refused it (constraint, timeout...): the application's to handle. */
        if (atomic_load(&s->timed_out) && strcmp(err.sqlstate, "57014") == 0) {
            gc_diag_add(&s->h.diag, "HYT00", 0, "timeout expired (SQL_ATTR_QUERY_TIMEOUT)");
        } else {
            gc_settle_verdict v = gc_outcome_settle(&f);
            if (v.report.sqlstate[0] != '\0')
                add_remote_commit_unknown(&s->h.diag, v.report.sqlstate, "the statement",
                                          gc_member_name(m));
            add_error(&s->h.diag, &run, &err);
        }
        gc_member_xid_run_clear(&run);
        gc_route_done(s, SQL_ERROR);
        return SQL_ERROR;
    }
    int i = gc_global_member_index(g, m);
    add_error(&s->h.diag, &run, &err);
    gc_route_done(s, SQL_ERROR);    /* marks the member down */
    gc_error why;
    gc_settle_verdict v = settle(c, i, &run, &f, &why);
    if (f.asked || v.action == GC_SETTLE_UNKNOWN)
        gc_trace_write(c->trace, GC_TRACE_INFO, "autocommit write on %s lost its answer (%s): "
                       "transaction %s %s", gc_member_name(m), err.message,
                       run.xid[0] ? run.xid : "(id unknown)", settled_name(&v));
    if (v.action == GC_SETTLE_RERUN) {
        gc_member_xid_run_clear(&run);
        gc_global_set_rerun_safe(g, true);
        return SQL_ERROR;
    }
    gc_diag_clear(&s->h.diag);
    if (v.action == GC_SETTLE_UNKNOWN) {
        gc_member_xid_run_clear(&run);
        gc_diag_add(&s->h.diag, v.report.sqlstate, v.report.native, "member %s failed during "
                    "the statement: whether it completed is unknown (%s)", gc_member_name(m),
                    why.message);
        return SQL_ERROR;
    }
    return committed_after_loss(s, m, source, &run);
}
