/*
 * gc_outcome: see gc_outcome.h. Every rule here is a case of
 * docs/failover.md; the unit test names each case after that page.
 */
#include "global/gc_outcome.h"

#include <stdio.h>

static gc_outcome_report report(const char *sqlstate, int native)
{
    gc_outcome_report r = { .native = native };
    snprintf(r.sqlstate, sizeof r.sqlstate, "%s", sqlstate);
    return r;
}

static gc_outcome_report no_report(void)
{
    return report("", 0);
}

/* 40001 / 19068: the transaction was rolled back and may be run again. */
static gc_outcome_report txn_lost(void)
{
    return report("40001", GC_NATIVE_TXN_LOST);
}

bool gc_outcome_lost_told_once(bool autocommit)
{
    return autocommit;
}

gc_after_statement gc_outcome_after_statement(const gc_statement_facts *f)
{
    gc_after_statement d = { .action = GC_AFTER_KEEP, .report = no_report() };
    if (f->failed && f->member_broke) {
        if (f->pinned_here && f->is_commit) {
            /* The COMMIT may have been applied before the session broke, and
             * this one went without its transaction id (a text of several
             * statements, COMMIT AND CHAIN): nobody can ask. 19068 ("nothing
             * was applied") would be a lie. */
            d.action = GC_AFTER_COMMIT_UNKNOWN;
            d.report = report("08007", 0);
            d.clear_lost = true;
        } else if (f->holds_transaction) {
            d.action = GC_AFTER_TXN_LOST;
            d.report = txn_lost();
            d.clear_lost = gc_outcome_lost_told_once(f->autocommit);
        } else {
            d.action = GC_AFTER_MEMBER_FAILED;
        }
        return d;
    }
    /* A transaction opened in SQL (BEGIN with autocommit on) keeps its
     * member until the server says it ended. */
    if (!f->pinned_here && !f->pinned_elsewhere && f->session == GC_SESSION_IN_TRANSACTION)
        d.action = GC_AFTER_PIN;
    else if (f->pinned_here && f->session == GC_SESSION_IDLE)
        d.action = GC_AFTER_RELEASE;
    return d;
}

bool gc_outcome_skips_alive_check(bool transaction, bool autocommit, bool read_only)
{
    /* The look costs a system call per statement; a read-only autocommit
     * statement whose session breaks under it runs again elsewhere, with
     * the same outcome for the application. */
    return !transaction && autocommit && read_only;
}

gc_unusable_verdict gc_outcome_chosen_unusable(const gc_unusable_facts *f)
{
    gc_unusable_verdict d = { .action = GC_UNUSABLE_REPORT, .report = no_report() };
    if (f->waited_in_vain)
        return d;   /* the member is fine: routing again would only wait again */
    if (!f->pinned) {
        /* Chosen just now (for a transaction's first statement, too):
         * nothing was begun there, so the choice is simply made again. */
        d.action = GC_UNUSABLE_ROUTE_AGAIN;
        d.clear_lost = true;
    } else if (f->txn_lost) {
        d.action = GC_UNUSABLE_TXN_LOST;
        d.report = txn_lost();
        d.clear_lost = gc_outcome_lost_told_once(f->autocommit);
    } else {
        d.action = GC_UNUSABLE_PIN_LOST;
        d.report = report("08S01", 0);
    }
    return d;
}

bool gc_outcome_may_rerun(const gc_rerun_facts *f)
{
    if (!f->autocommit || f->in_transaction)
        return false;
    return (f->read_only || f->known_not_applied) && f->member_broke;
}

gc_exchange gc_outcome_exchange(bool answered_ok, bool member_broke, bool not_committed)
{
    if (answered_ok)
        return GC_EXCHANGE_COMMITTED;
    if (!member_broke)
        return GC_EXCHANGE_REFUSED;
    return not_committed ? GC_EXCHANGE_BROKE_BEFORE : GC_EXCHANGE_ANSWER_LOST;
}

/* Nothing of it applied: a COMMIT's transaction is lost, a write runs again. */
static gc_settle_verdict not_applied(bool is_commit)
{
    gc_settle_verdict d = { .action = GC_SETTLE_RERUN, .report = no_report() };
    if (is_commit) {
        d.action = GC_SETTLE_LOST;
        d.report = txn_lost();
    }
    return d;
}

/* 08007 for a COMMIT, 40003 for an autocommit write: the outcome is unknown. */
static gc_outcome_report unknown(bool is_commit)
{
    return report(is_commit ? "08007" : "40003", 0);
}

gc_settle_verdict gc_outcome_settle(const gc_settle_facts *f)
{
    gc_settle_verdict d = { .action = GC_SETTLE_COMMITTED, .report = no_report() };
    switch (f->exchange) {
    case GC_EXCHANGE_COMMITTED:
        return d;
    case GC_EXCHANGE_REFUSED:
        /* postgres_fdw commits its remote part before the local commit:
         * that part may have applied although the server said no. */
        d.action = GC_SETTLE_REFUSED;
        if (f->remote_commit_failed)
            d.report = unknown(f->is_commit);
        return d;
    case GC_EXCHANGE_BROKE_BEFORE:
        return not_applied(f->is_commit);
    case GC_EXCHANGE_ANSWER_LOST:
        break;
    }
    if (f->no_id_on_member && !f->may_write_elsewhere) {
        if (!f->is_commit)
            return not_applied(false);
        d.action = GC_SETTLE_WROTE_NOTHING;
        d.report = report("01000", 0);
        return d;
    }
    /* A transaction that may have written to another group through
     * postgres_fdw is never "not committed": the member's "aborted" (or
     * "no id") does not say that the remote part did not apply. */
    if (f->no_id_on_member) {
        d.action = GC_SETTLE_UNKNOWN;
        d.report = unknown(f->is_commit);
        d.why_elsewhere = true;
        return d;
    }
    if (!f->asked) {
        d.action = GC_SETTLE_ASK;
        return d;
    }
    if (f->resolved == GC_XACT_COMMITTED) {
        if (!f->is_commit)
            d.report = report("01000", 0);   /* applied once, its answer kept */
        return d;
    }
    if (f->resolved == GC_XACT_NOT_COMMITTED && !f->may_write_elsewhere)
        return not_applied(f->is_commit);
    d.action = GC_SETTLE_UNKNOWN;
    d.report = unknown(f->is_commit);
    d.why_elsewhere = f->resolved == GC_XACT_NOT_COMMITTED;
    return d;
}

gc_sql_commit gc_outcome_sql_commit(bool spread, bool and_chain)
{
    if (!spread)
        return GC_SQL_COMMIT_WITH_ID;
    /* The next transaction would begin on one member while the parts of
     * this one commit in two phases. */
    return and_chain ? GC_SQL_COMMIT_REFUSED : GC_SQL_COMMIT_SPREAD;
}

gc_end_tran_verdict gc_outcome_end_tran(const gc_end_tran_facts *f)
{
    gc_end_tran_verdict d = { .action = GC_END_NOTHING, .report = no_report() };
    if (f->commit && f->pinned && f->spread) {
        d.action = GC_END_SPREAD_COMMIT;
        return d;
    }
    d.release_pin = true;
    if (f->txn_lost) {
        /* The transaction died with its member: the server rolled it
         * back; a COMMIT cannot succeed. */
        d.action = GC_END_LOST;
        if (f->commit)
            d.report = txn_lost();
    } else if (f->pinned && f->commit && f->pinned_in_transaction) {
        d.action = GC_END_COMMIT_WITH_ID;    /* a lost answer is resolved */
    } else if (f->pinned) {
        d.action = GC_END_ON_MEMBER;
    }
    return d;
}

gc_fetch_verdict gc_outcome_fetch_failed(bool holds_transaction, bool read_only)
{
    gc_fetch_verdict d = { .action = GC_FETCH_TXN_LOST, .report = no_report() };
    if (holds_transaction)
        return d;
    d.action = GC_FETCH_REPORT;
    /* Rows already reached the application: nothing runs again. A read's
     * incomplete result may be asked again; a write returning rows
     * commits after its last row, so it may have. */
    d.report = read_only ? txn_lost() : report("40003", 0);
    return d;
}
