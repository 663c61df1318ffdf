/*
 * gc_global_commit: see gc_global_commit.h.
 */
#include "global/gc_global_commit.h"

#include <string.h>

#include "global/gc_commit_resolve.h"
#include "global/gc_global_internal.h"
#include "global/gc_outcome.h"

void gc_commit_report_init(gc_commit_report *r)
{
    r->drop_earlier = false;
    gc_error_clear(&r->before);
    r->server_error = false;
    r->server_result = NULL;
    gc_error_clear(&r->server);
    gc_error_clear(&r->after);
}

void gc_commit_report_clear(gc_commit_report *r)
{
    PQclear(r->server_result);
    r->server_result = NULL;
}

/* The server's error of run goes into the report (its result taken, when
 * there is one, for its DETAIL and HINT). */
static void report_server_error(gc_commit_report *r, gc_member_xid_run *run, const gc_error *err)
{
    r->server_error = true;
    r->server_result = run->error;
    run->error = NULL;
    r->server = *err;
}

bool gc_global_xid_statement_ready(gc_global *g, int i)
{
    if (gc_member_has_xid_statement(g->members[i]))
        return true;
    gc_error err;
    gc_error_clear(&err);
    if (!gc_member_prepare_xid_statement(g->members[i], &err)) {
        gc_trace_write(g->trace, GC_TRACE_INFO, "transaction-id statement not prepared on %s: %s",
                       gc_member_name(g->members[i]), err.message);
        return false;
    }
    return true;
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
static bool remote_commit_failed(const gc_global *g, const gc_member_xid_run *run)
{
    const char *context = run->error != NULL ? PQresultErrorField(run->error, PG_DIAG_CONTEXT)
                                             : NULL;
    return context != NULL && strstr(context, "COMMIT TRANSACTION") != NULL &&
           gc_global_may_write_elsewhere(g);
}

/* The diagnostic put before the server's error when remote_commit_failed:
 * `what` (COMMIT, the statement) failed on member `name`, the outcome of
 * its remote part unknown (sqlstate 08007 or 40003). */
static void remote_commit_unknown(gc_error *e, const char *sqlstate, const char *what,
                                  const char *name)
{
    gc_error_set(e, sqlstate, 0, "%s failed on member %s while postgres_fdw committed its "
                 "part on another group: whether that part committed is unknown (the "
                 "server's error follows)", what, name);
}

/* The facts of run, whose exchange is `exchange`, as the settling rules
 * take them (gc_outcome.h). */
static gc_settle_facts settle_facts(const gc_global *g, bool is_commit, gc_exchange exchange,
                                    const gc_member_xid_run *run)
{
    gc_settle_facts f = {
        .is_commit = is_commit,
        .exchange = exchange,
        .no_id_on_member = no_id_on_member(run),
        .may_write_elsewhere = gc_global_may_write_elsewhere(g),
        .remote_commit_failed = exchange == GC_EXCHANGE_REFUSED && remote_commit_failed(g, run),
    };
    return f;
}

/* Settles the exchange f with member i by the rules, asking pg_xact_status
 * (gc_commit_resolve.h) when they say so. why gets the reason of an
 * unknown outcome. */
static gc_settle_verdict settle(gc_global *g, int i, const gc_member_xid_run *run,
                                gc_settle_facts *f, gc_error *why)
{
    gc_error_clear(why);
    gc_settle_verdict v = gc_outcome_settle(f);
    if (v.action == GC_SETTLE_ASK) {
        f->resolved = gc_global_resolve_commit(g, i, run, GC_COMMIT_RESOLVE_WAIT_MS, why);
        f->asked = true;
        v = gc_outcome_settle(f);
    }
    const char *name = gc_member_name(g->members[i]);
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

/* What a COMMIT's run on member i means for the application. Handles the
 * member's failure and the pin. */
static gc_commit_end commit_outcome(gc_global *g, int i, gc_member_xid_run *run,
                                    const gc_error *err, gc_commit_report *r)
{
    gc_member *m = g->members[i];
    const char *name = gc_member_name(m);
    gc_exchange exchange = gc_outcome_exchange(run->outcome == GC_XID_COMMITTED,
                                               gc_member_get_state(m) == GC_MEMBER_DOWN,
                                               run->outcome == GC_XID_NOT_COMMITTED);
    gc_settle_facts f = settle_facts(g, true, exchange, run);
    if (exchange == GC_EXCHANGE_COMMITTED) {
        gc_global_release_pin(g);
        return GC_COMMIT_END_OK;
    }
    if (exchange == GC_EXCHANGE_REFUSED) {
        /* The server answered: the transaction is over, not committed. */
        gc_settle_verdict v = gc_outcome_settle(&f);
        gc_global_release_pin(g);
        if (v.report.sqlstate[0] != '\0')
            remote_commit_unknown(&r->before, v.report.sqlstate, "COMMIT", name);
        if (run->rolled_back)
            gc_error_set(&r->after, "40000", 0, GC_ROLLED_BACK_AT_COMMIT_TEXT);
        else
            report_server_error(r, run, err);
        return GC_COMMIT_END_FAILED;
    }
    /* Marked down, the pin released (the "lost" mark with it): the
     * outcome is reported here. */
    gc_global_commit_lost_member(g, i, run->generation);
    r->drop_earlier = true;
    if (exchange == GC_EXCHANGE_BROKE_BEFORE) {
        gc_trace_write(g->trace, GC_TRACE_INFO, "member %s failed before COMMIT ran: %s",
                       name, err->message);
        gc_global_txn_lost_error(&r->after);
        return GC_COMMIT_END_FAILED;
    }
    gc_error why;
    gc_settle_verdict v = settle(g, i, run, &f, &why);
    if (v.action == GC_SETTLE_WROTE_NOTHING) {
        gc_error_set(&r->after, v.report.sqlstate, v.report.native, "member %s failed during "
                     "COMMIT of a transaction that wrote nothing: nothing was lost", name);
        return GC_COMMIT_END_OK_WITH_INFO;
    }
    gc_trace_write(g->trace, GC_TRACE_INFO, "COMMIT on %s lost its answer (%s): "
                   "transaction %s %s", name, err->message,
                   run->xid[0] ? run->xid : "(id unknown)", settled_name(&v));
    if (v.action == GC_SETTLE_COMMITTED)
        return GC_COMMIT_END_OK;
    if (v.action == GC_SETTLE_LOST) {
        gc_global_txn_lost_error(&r->after);
        return GC_COMMIT_END_FAILED;
    }
    gc_error_set(&r->after, v.report.sqlstate, v.report.native, "member %s failed during "
                 "COMMIT: whether the transaction committed is unknown (%s)", name, why.message);
    return GC_COMMIT_END_FAILED;
}

gc_commit_end gc_global_commit_with_id(gc_global *g, int i, atomic_bool *in_call,
                                       gc_commit_report *report)
{
    gc_member_xid_run run;
    gc_error err;
    gc_error_clear(&err);
    bool prepared = gc_global_xid_statement_ready(g, i);
    if (in_call != NULL)
        atomic_store(in_call, true);
    gc_member_commit_with_xid(g->members[i], prepared, &run, &err);
    if (in_call != NULL)
        atomic_store(in_call, false);
    gc_commit_end end = commit_outcome(g, i, &run, &err, report);
    gc_member_xid_run_clear(&run);
    return end;
}

gc_commit_end gc_global_commit_across_groups(gc_global *g, const char *setup_sql,
                                             gc_commit_report *report)
{
    gc_error err;
    gc_error_clear(&err);
    gc_spread_outcome outcome = gc_global_commit_spread(g, setup_sql, &err, &report->after);
    if (outcome != GC_SPREAD_COMMITTED) {
        report->after = err;
        return GC_COMMIT_END_FAILED;
    }
    return report->after.sqlstate[0] == '\0' ? GC_COMMIT_END_OK : GC_COMMIT_END_OK_WITH_INFO;
}

bool gc_global_sql_commit_applies(const gc_global *g, int i, bool and_chain)
{
    if (i < 0 || g->pinned != i || gc_member_txn_status(g->members[i]) != PQTRANS_INTRANS)
        return false;
    /* A transaction across groups commits only through the two phases:
     * COMMIT AND CHAIN is refused there, never sent to one member. */
    return !and_chain || gc_global_commit_is_spread(g);
}

gc_commit_end gc_global_commit_sql(gc_global *g, int i, bool and_chain, const char *setup_sql,
                                   atomic_bool *in_call, gc_commit_report *report)
{
    gc_global_set_last_member(g, i);
    switch (gc_outcome_sql_commit(gc_global_commit_is_spread(g), and_chain)) {
    case GC_SQL_COMMIT_REFUSED:
        gc_error_set(&report->after, "0A000", GC_GLOBAL_NATIVE_SPANNING_WRITE,
                     "COMMIT AND CHAIN of a transaction that spans groups is not "
                     "supported: COMMIT, then begin the next transaction");
        return GC_COMMIT_END_FAILED;
    case GC_SQL_COMMIT_SPREAD:
        return gc_global_commit_across_groups(g, setup_sql, report);
    case GC_SQL_COMMIT_WITH_ID:
        break;
    }
    return gc_global_commit_with_id(g, i, in_call, report);
}

void gc_global_write_refused(gc_global *g, int i, gc_member_xid_run *run, const gc_error *err,
                             gc_commit_report *report)
{
    gc_settle_facts f = settle_facts(g, false, GC_EXCHANGE_REFUSED, run);
    gc_settle_verdict v = gc_outcome_settle(&f);
    if (v.report.sqlstate[0] != '\0')
        remote_commit_unknown(&report->before, v.report.sqlstate, "the statement",
                              gc_member_name(g->members[i]));
    report_server_error(report, run, err);
}

gc_write_settled gc_global_settle_lost_write(gc_global *g, int i, const gc_member_xid_run *run,
                                             const gc_error *err, gc_commit_report *report)
{
    gc_member *m = g->members[i];
    gc_exchange exchange = gc_outcome_exchange(false, true,
                                               run->outcome == GC_XID_NOT_COMMITTED);
    gc_settle_facts f = settle_facts(g, false, exchange, run);
    gc_error why;
    gc_settle_verdict v = settle(g, i, run, &f, &why);
    if (f.asked || v.action == GC_SETTLE_UNKNOWN)
        gc_trace_write(g->trace, GC_TRACE_INFO, "autocommit write on %s lost its answer (%s): "
                       "transaction %s %s", gc_member_name(m), err->message,
                       run->xid[0] ? run->xid : "(id unknown)", settled_name(&v));
    if (v.action == GC_SETTLE_RERUN) {
        gc_global_set_rerun_safe(g, true);
        return GC_WRITE_RERUN;
    }
    report->drop_earlier = true;
    if (v.action == GC_SETTLE_UNKNOWN) {
        gc_error_set(&report->after, v.report.sqlstate, v.report.native, "member %s failed "
                     "during the statement: whether it completed is unknown (%s)",
                     gc_member_name(m), why.message);
        return GC_WRITE_UNKNOWN;
    }
    return GC_WRITE_COMMITTED;
}
