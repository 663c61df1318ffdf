/*
 * gc_global_lifecycle: a statement's way through a global connection, as
 * the core sees it (gc_global.h, "the statement lifecycle"): routing it,
 * a chosen member that cannot be used, the statement's outcome, and the
 * end of the transaction. Each function gathers the facts from the
 * connection's own state, asks the rules (gc_outcome.h) and carries out
 * their decision on that state: the pin, the "transaction lost" mark, the
 * member marked down. What the application must hear comes back as a
 * gc_error; the core only turns it into a diagnostic.
 */
#include "global/gc_global_internal.h"

#include <string.h>

#include "global/gc_outcome.h"
#include "member/gc_member_notify.h"

bool gc_global_begin_statement(gc_global *g, const gc_route_request *req,
                               gc_route_decision *d, bool autocommit, gc_error *err)
{
    if (!gc_global_route(g, req, d, err)) {
        if (gc_outcome_lost_told_once(autocommit))
            gc_global_clear_txn_lost(g);   /* a SQL BEGIN's: told once */
        return false;
    }
    d->leaf = gc_global_conflict_leaf(g, req, d);
    if (gc_global_txn_lost(g)) {
        /* A transaction begun in SQL lost its member: this statement was
         * part of it, so it reports the loss (once). */
        gc_global_txn_lost_error(err);
        gc_global_clear_txn_lost(g);
        return false;
    }
    return true;
}

bool gc_global_chosen_unusable(gc_global *g, bool pinned, bool autocommit,
                               const gc_error *why, gc_error *report)
{
    gc_unusable_facts f = {
        .waited_in_vain = strcmp(why->sqlstate, "HYT00") == 0,
        .pinned = pinned,
        .txn_lost = gc_global_txn_lost(g),
        .autocommit = autocommit,
    };
    gc_unusable_verdict v = gc_outcome_chosen_unusable(&f);
    if (v.clear_lost)
        gc_global_clear_txn_lost(g);
    switch (v.action) {
    case GC_UNUSABLE_ROUTE_AGAIN:
        return true;
    case GC_UNUSABLE_REPORT:
        *report = *why;
        break;
    case GC_UNUSABLE_TXN_LOST:
        gc_global_txn_lost_error(report);
        break;
    case GC_UNUSABLE_PIN_LOST:
        gc_global_release_pin(g);
        gc_error_set(report, v.report.sqlstate, v.report.native,
                     "communication link failure: the transaction's member is lost: %s",
                     why->message);
        break;
    }
    return false;
}

/* The server's view of member i's transaction, as the rules take it. */
static gc_session_txn session_txn(const gc_global *g, int i)
{
    if (i < 0)
        return GC_SESSION_OTHER;    /* not a member of g: nothing to pin */
    PGTransactionStatusType ts = gc_member_txn_status(g->members[i]);
    if (ts == PQTRANS_IDLE)
        return GC_SESSION_IDLE;
    if (ts == PQTRANS_INTRANS || ts == PQTRANS_INERROR)
        return GC_SESSION_IN_TRANSACTION;
    return GC_SESSION_OTHER;
}

gc_after_action gc_global_end_statement(gc_global *g, int i, bool failed, bool is_commit,
                                        bool autocommit, gc_error *report)
{
    gc_global_set_last_member(g, i);
    if (failed)
        gc_global_count_error(g, i);
    if (failed && gc_global_leave_failed_join(g, i))
        i = g->pinned;   /* the statement's outcome is the transaction's, on its pin */
    /* Gone back to its savepoint, the statement wrote nothing. */
    if (failed && i >= 0 && gc_member_is_open(g->members[i]) &&
        gc_member_txn_status(g->members[i]) == PQTRANS_INTRANS)
        gc_global_writes_undone(g, g->writes_mark);
    gc_member *m = i >= 0 ? g->members[i] : NULL;
    gc_statement_facts f = {
        .failed = failed,
        .member_broke = failed && m != NULL && gc_member_get_state(m) == GC_MEMBER_DOWN,
        .pinned_here = i >= 0 && g->pinned == i,
        .pinned_elsewhere = g->pinned >= 0 && g->pinned != i,
        .is_commit = is_commit,
        .autocommit = autocommit,
    };
    if (f.member_broke)
        f.holds_transaction = gc_global_holds_transaction(g, i);
    else
        f.session = session_txn(g, i);
    gc_after_statement d = gc_outcome_after_statement(&f);
    switch (d.action) {
    case GC_AFTER_MEMBER_FAILED:
    case GC_AFTER_TXN_LOST:
    case GC_AFTER_COMMIT_UNKNOWN:
        /* The session broke while the statement ran. */
        gc_global_member_failed(g, i, gc_member_sent_generation(m), gc_member_down_error(m));
        if (d.action == GC_AFTER_COMMIT_UNKNOWN)
            gc_error_set(report, d.report.sqlstate, d.report.native,
                         "member %s failed during COMMIT: whether the transaction "
                         "committed is unknown", gc_member_name(m));
        else if (d.action == GC_AFTER_TXN_LOST)
            gc_global_txn_lost_error(report);
        if (d.clear_lost)
            gc_global_clear_txn_lost(g);
        if (d.action == GC_AFTER_COMMIT_UNKNOWN)
            gc_global_release_pin(g);
        break;
    case GC_AFTER_PIN:
        gc_global_pin(g, i);
        break;
    case GC_AFTER_RELEASE:
        gc_global_release_pin(g);
        break;
    case GC_AFTER_KEEP:
        break;
    }
    if (g->txn_map_stale && i >= 0 && i == g->pinned && !gc_member_busy(g->members[i]) &&
        gc_member_txn_status(g->members[i]) == PQTRANS_INTRANS)
        gc_global_follow_transaction_catalog(g);
    return d.action;
}

void gc_global_commit_lost_member(gc_global *g, int i, unsigned long generation)
{
    gc_global_count_error(g, i);
    gc_global_member_failed(g, i, generation, gc_member_down_error(g->members[i]));
    /* The caller reports the COMMIT's or the write's outcome itself. */
    gc_global_clear_txn_lost(g);
    gc_global_release_pin(g);
}

void gc_global_statement_starts(gc_global *g)
{
    gc_global_settle_temp_tables(g);
    gc_global_set_rerun_safe(g, false);
    g->joined_now = -1;
    g->writes_mark = gc_global_writes_mark(g);
}

void gc_global_failed_before_running(gc_global *g, int i)
{
    if (i >= 0 && gc_member_get_state(g->members[i]) == GC_MEMBER_DOWN)
        gc_global_set_rerun_safe(g, true);
}

void gc_global_began_outside_routing(gc_global *g, int i)
{
    if (g->pinned < 0)
        gc_global_pin(g, i);
}

void gc_global_rolled_back_on(gc_global *g, int i)
{
    if (g->pinned == i)
        gc_global_release_pin(g);
}

void gc_global_catalog_function_on(gc_global *g, int i)
{
    gc_global_set_last_member(g, i);
}

gc_end_tran_action gc_global_end_transaction(gc_global *g, bool commit, int *member,
                                             gc_error *report)
{
    int pinned = g->pinned;
    gc_end_tran_facts f = {
        .commit = commit,
        .pinned = pinned >= 0,
        .spread = gc_global_commit_is_spread(g),
        .txn_lost = gc_global_txn_lost(g),
        .pinned_in_transaction =
            pinned >= 0 && gc_member_txn_status(g->members[pinned]) == PQTRANS_INTRANS,
    };
    gc_end_tran_verdict v = gc_outcome_end_tran(&f);
    *member = pinned;
    gc_error_clear(report);
    if (v.release_pin)
        gc_global_release_pin(g);
    if (v.action == GC_END_LOST) {
        /* The transaction died with its member (docs/failover.md): the
         * server rolled it back; nothing to send. */
        gc_global_clear_txn_lost(g);
        if (v.report.sqlstate[0] != '\0')
            gc_global_txn_lost_error(report);
    }
    return v.action;
}
