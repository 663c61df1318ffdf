/*
 * The rules of a global connection's statement lifecycle
 * (src/global/gc_outcome.c), one test per case of docs/failover.md, named
 * after it (the mapping is in docs/failover.md, "The rules as unit
 * tests"). A fake member says what happened to the statement sent to it;
 * the helpers turn that into the facts the rules take, as the core does,
 * and settle a lost answer the way the core does (asking pg_xact_status
 * only when the rules say so). No server, no libpq.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "global/gc_outcome.h"

/* What happened to a statement sent to the fake member. */
typedef enum fake_fate {
    ANSWERED,            /* the server answered with success */
    REFUSED,             /* the server answered with its error */
    BROKE_BEFORE_SEND,   /* the session was dead before anything was sent */
    BROKE_AFTER_SEND,    /* the session broke while the statement ran */
    ANSWER_LOST,         /* it broke after a COMMIT or write went with its id */
} fake_fate;

typedef struct fake_member {
    fake_fate fate;
    bool has_id;              /* the transaction got an id there: it wrote */
    gc_xact_outcome status;   /* what pg_xact_status says of it, when asked */
    bool remote_commit_error; /* REFUSED came from postgres_fdw's remote COMMIT */
    int asked;                /* times pg_xact_status was asked */
} fake_member;

static bool broke(const fake_member *m)
{
    return m->fate == BROKE_BEFORE_SEND || m->fate == BROKE_AFTER_SEND ||
           m->fate == ANSWER_LOST;
}

/* Settles a COMMIT (is_commit) or an autocommit write sent with its
 * transaction id to m, as gc_commit.c does: ask when the rules say so,
 * then decide again with the answer. */
static gc_settle_verdict settle_on(fake_member *m, bool is_commit, bool may_write_elsewhere)
{
    gc_settle_facts f = {
        .is_commit = is_commit,
        .exchange = gc_outcome_exchange(m->fate == ANSWERED, broke(m),
                                        m->fate == BROKE_BEFORE_SEND),
        .no_id_on_member = !m->has_id,
        .may_write_elsewhere = may_write_elsewhere,
        .remote_commit_failed = m->fate == REFUSED && m->remote_commit_error,
    };
    gc_settle_verdict v = gc_outcome_settle(&f);
    if (v.action == GC_SETTLE_ASK) {
        m->asked++;
        f.asked = true;
        f.resolved = m->status;
        v = gc_outcome_settle(&f);
        assert_int_not_equal(v.action, GC_SETTLE_ASK);   /* asked once at most */
    }
    return v;
}

/* The outcome of a statement (not sent with its id) that ran on m, the
 * member of index `here`, with the transaction pinned to `pinned` (-1:
 * none). */
static gc_after_statement statement_on(const fake_member *m, int here, int pinned,
                                       bool holds_transaction, bool autocommit,
                                       gc_session_txn session)
{
    gc_statement_facts f = {
        .failed = m->fate != ANSWERED,
        .member_broke = broke(m),
        .pinned_here = pinned == here,
        .pinned_elsewhere = pinned >= 0 && pinned != here,
        .holds_transaction = holds_transaction,
        .autocommit = autocommit,
        .session = broke(m) ? GC_SESSION_OTHER : session,
    };
    return gc_outcome_after_statement(&f);
}

static void assert_report(gc_outcome_report r, const char *sqlstate, int native)
{
    assert_string_equal(r.sqlstate, sqlstate);
    assert_int_equal(r.native, native);
}

/* --- before sending --- */

static void dead_session_found_before_sending_is_routed_again(void **state)
{
    (void)state;
    gc_unusable_facts f = { .pinned = false, .autocommit = true };
    gc_unusable_verdict v = gc_outcome_chosen_unusable(&f);
    assert_int_equal(v.action, GC_UNUSABLE_ROUTE_AGAIN);
    assert_report(v.report, "", 0);
}

static void first_statement_of_a_transaction_on_a_dead_member_is_routed_again(void **state)
{
    (void)state;
    /* Chosen (and marked lost with it) just now: nothing was begun there. */
    gc_unusable_facts f = { .pinned = false, .txn_lost = true, .autocommit = false };
    gc_unusable_verdict v = gc_outcome_chosen_unusable(&f);
    assert_int_equal(v.action, GC_UNUSABLE_ROUTE_AGAIN);
    assert_true(v.clear_lost);
}

static void read_only_autocommit_statement_is_sent_without_the_look(void **state)
{
    (void)state;
    assert_true(gc_outcome_skips_alive_check(false, true, true));
    assert_false(gc_outcome_skips_alive_check(false, true, false));   /* may write */
    assert_false(gc_outcome_skips_alive_check(true, true, true));     /* SQL BEGIN held back */
    assert_false(gc_outcome_skips_alive_check(false, false, true));   /* autocommit off */
}

static void shared_session_not_free_in_time_is_reported_as_it_came(void **state)
{
    (void)state;
    gc_unusable_facts f = { .waited_in_vain = true, .pinned = true, .txn_lost = true };
    gc_unusable_verdict v = gc_outcome_chosen_unusable(&f);
    assert_int_equal(v.action, GC_UNUSABLE_REPORT);
    assert_false(v.clear_lost);
}

static void pinned_member_found_dead_before_sending_is_40001_19068(void **state)
{
    (void)state;
    gc_unusable_facts off = { .pinned = true, .txn_lost = true, .autocommit = false };
    gc_unusable_verdict v = gc_outcome_chosen_unusable(&off);
    assert_int_equal(v.action, GC_UNUSABLE_TXN_LOST);
    assert_report(v.report, "40001", GC_NATIVE_TXN_LOST);
    assert_false(v.clear_lost);    /* every later statement is told too */
    gc_unusable_facts sql_begin = { .pinned = true, .txn_lost = true, .autocommit = true };
    v = gc_outcome_chosen_unusable(&sql_begin);
    assert_int_equal(v.action, GC_UNUSABLE_TXN_LOST);
    assert_true(v.clear_lost);     /* told once */
}

static void pinned_member_that_cannot_be_opened_is_08S01(void **state)
{
    (void)state;
    gc_unusable_facts f = { .pinned = true, .txn_lost = false };
    gc_unusable_verdict v = gc_outcome_chosen_unusable(&f);
    assert_int_equal(v.action, GC_UNUSABLE_PIN_LOST);
    assert_report(v.report, "08S01", 0);
}

/* --- a statement whose member breaks while it runs --- */

static void read_only_autocommit_statement_broken_while_running_runs_again(void **state)
{
    (void)state;
    fake_member m = { .fate = BROKE_AFTER_SEND };
    gc_after_statement d = statement_on(&m, 0, -1, false, true, GC_SESSION_IDLE);
    assert_int_equal(d.action, GC_AFTER_MEMBER_FAILED);
    gc_rerun_facts f = { .autocommit = true, .read_only = true, .member_broke = broke(&m) };
    assert_true(gc_outcome_may_rerun(&f));
}

static void statement_failing_on_a_live_member_is_never_run_again(void **state)
{
    (void)state;
    fake_member m = { .fate = REFUSED };
    gc_rerun_facts f = { .autocommit = true, .read_only = true, .member_broke = broke(&m) };
    assert_false(gc_outcome_may_rerun(&f));
    gc_after_statement d = statement_on(&m, 0, -1, false, true, GC_SESSION_IDLE);
    assert_int_equal(d.action, GC_AFTER_KEEP);
}

static void select_calling_a_writing_function_is_never_run_twice(void **state)
{
    (void)state;
    /* nextval, a user's function: the analysis says not read-only. */
    gc_rerun_facts f = { .autocommit = true, .read_only = false, .member_broke = true };
    assert_false(gc_outcome_may_rerun(&f));
}

static void autocommit_write_broken_while_running_reports_the_error(void **state)
{
    (void)state;
    /* ResolveLostWrites=No, or a write not sent with its id. */
    fake_member m = { .fate = BROKE_AFTER_SEND };
    gc_after_statement d = statement_on(&m, 0, -1, false, true, GC_SESSION_IDLE);
    assert_int_equal(d.action, GC_AFTER_MEMBER_FAILED);
    assert_report(d.report, "", 0);   /* the server's FATAL, or 08S01, stands */
    gc_rerun_facts f = { .autocommit = true, .member_broke = true };
    assert_false(gc_outcome_may_rerun(&f));
}

static void statement_in_a_transaction_is_never_run_again(void **state)
{
    (void)state;
    gc_rerun_facts pinned = { .autocommit = true, .in_transaction = true, .read_only = true,
                              .member_broke = true };
    assert_false(gc_outcome_may_rerun(&pinned));
    gc_rerun_facts off = { .autocommit = false, .read_only = true, .member_broke = true };
    assert_false(gc_outcome_may_rerun(&off));
}

static void transaction_member_failing_during_a_statement_is_40001_19068(void **state)
{
    (void)state;
    fake_member m = { .fate = BROKE_AFTER_SEND };
    gc_after_statement d = statement_on(&m, 1, 1, true, false, GC_SESSION_OTHER);
    assert_int_equal(d.action, GC_AFTER_TXN_LOST);
    assert_report(d.report, "40001", GC_NATIVE_TXN_LOST);
    assert_false(d.clear_lost);   /* autocommit off: told until SQLEndTran */
}

static void transaction_begun_in_sql_reports_the_loss_once(void **state)
{
    (void)state;
    fake_member m = { .fate = BROKE_AFTER_SEND };
    gc_after_statement d = statement_on(&m, 1, 1, true, true, GC_SESSION_OTHER);
    assert_int_equal(d.action, GC_AFTER_TXN_LOST);
    assert_true(d.clear_lost);
    assert_true(gc_outcome_lost_told_once(true));
    assert_false(gc_outcome_lost_told_once(false));
}

static void member_of_another_group_joined_for_a_write_failing_loses_the_transaction(
    void **state)
{
    (void)state;
    fake_member m = { .fate = BROKE_AFTER_SEND };
    gc_after_statement d = statement_on(&m, 2, 0, true, false, GC_SESSION_OTHER);
    assert_int_equal(d.action, GC_AFTER_TXN_LOST);
    assert_report(d.report, "40001", GC_NATIVE_TXN_LOST);
}

/* --- the pin --- */

static void transaction_opened_in_sql_pins_its_member(void **state)
{
    (void)state;
    fake_member m = { .fate = ANSWERED };
    gc_after_statement d = statement_on(&m, 0, -1, false, true, GC_SESSION_IN_TRANSACTION);
    assert_int_equal(d.action, GC_AFTER_PIN);
    d = statement_on(&m, 0, 0, true, true, GC_SESSION_IN_TRANSACTION);
    assert_int_equal(d.action, GC_AFTER_KEEP);
    /* A failed statement leaves the transaction open (aborted): still pinned. */
    fake_member refused = { .fate = REFUSED };
    d = statement_on(&refused, 0, -1, false, true, GC_SESSION_IN_TRANSACTION);
    assert_int_equal(d.action, GC_AFTER_PIN);
}

static void commit_or_rollback_sent_in_sql_releases_the_pin(void **state)
{
    (void)state;
    fake_member m = { .fate = ANSWERED };
    gc_after_statement d = statement_on(&m, 0, 0, true, true, GC_SESSION_IDLE);
    assert_int_equal(d.action, GC_AFTER_RELEASE);
    /* Another member's statement leaves the pin where it is. */
    d = statement_on(&m, 1, 0, false, true, GC_SESSION_IDLE);
    assert_int_equal(d.action, GC_AFTER_KEEP);
    d = statement_on(&m, 1, 0, false, true, GC_SESSION_IN_TRANSACTION);
    assert_int_equal(d.action, GC_AFTER_KEEP);
}

/* --- SQLEndTran after a lost transaction --- */

static void rollback_after_a_lost_transaction_succeeds_without_a_server_call(void **state)
{
    (void)state;
    gc_end_tran_facts f = { .commit = false, .txn_lost = true };
    gc_end_tran_verdict v = gc_outcome_end_tran(&f);
    assert_int_equal(v.action, GC_END_LOST);
    assert_report(v.report, "", 0);
    assert_true(v.release_pin);
}

static void commit_after_a_lost_transaction_is_40001_19068(void **state)
{
    (void)state;
    gc_end_tran_facts f = { .commit = true, .txn_lost = true };
    gc_end_tran_verdict v = gc_outcome_end_tran(&f);
    assert_int_equal(v.action, GC_END_LOST);
    assert_report(v.report, "40001", GC_NATIVE_TXN_LOST);
}

/* --- a COMMIT whose member fails while it runs --- */

static void commit_lost_and_committed_is_success(void **state)
{
    (void)state;
    fake_member m = { .fate = ANSWER_LOST, .has_id = true, .status = GC_XACT_COMMITTED };
    gc_settle_verdict v = settle_on(&m, true, false);
    assert_int_equal(v.action, GC_SETTLE_COMMITTED);
    assert_report(v.report, "", 0);
    assert_int_equal(m.asked, 1);
}

static void commit_lost_of_a_transaction_that_wrote_nothing_is_01000(void **state)
{
    (void)state;
    fake_member m = { .fate = ANSWER_LOST, .has_id = false };
    gc_settle_verdict v = settle_on(&m, true, false);
    assert_int_equal(v.action, GC_SETTLE_WROTE_NOTHING);
    assert_report(v.report, "01000", 0);
    assert_int_equal(m.asked, 0);
}

static void commit_lost_and_not_committed_is_40001_19068(void **state)
{
    (void)state;
    fake_member m = { .fate = ANSWER_LOST, .has_id = true, .status = GC_XACT_NOT_COMMITTED };
    gc_settle_verdict v = settle_on(&m, true, false);
    assert_int_equal(v.action, GC_SETTLE_LOST);
    assert_report(v.report, "40001", GC_NATIVE_TXN_LOST);
}

static void commit_lost_that_cannot_be_told_is_08007(void **state)
{
    (void)state;
    fake_member m = { .fate = ANSWER_LOST, .has_id = true, .status = GC_XACT_UNKNOWN };
    gc_settle_verdict v = settle_on(&m, true, false);
    assert_int_equal(v.action, GC_SETTLE_UNKNOWN);
    assert_report(v.report, "08007", 0);
    assert_false(v.why_elsewhere);
}

static void commit_on_a_session_broken_before_it_ran_is_40001_19068_without_asking(
    void **state)
{
    (void)state;
    /* The server's FATAL came before the id (the SIGSTOP case). */
    fake_member m = { .fate = BROKE_BEFORE_SEND, .has_id = true, .status = GC_XACT_COMMITTED };
    gc_settle_verdict v = settle_on(&m, true, false);
    assert_int_equal(v.action, GC_SETTLE_LOST);
    assert_report(v.report, "40001", GC_NATIVE_TXN_LOST);
    assert_int_equal(m.asked, 0);
}

static void commit_not_sent_with_its_id_is_08007(void **state)
{
    (void)state;
    /* A text of several statements, COMMIT AND CHAIN: its session broke
     * while it ran. */
    gc_statement_facts f = {
        .failed = true, .member_broke = true, .pinned_here = true,
        .holds_transaction = true, .is_commit = true, .autocommit = true,
    };
    gc_after_statement d = gc_outcome_after_statement(&f);
    assert_int_equal(d.action, GC_AFTER_COMMIT_UNKNOWN);
    assert_report(d.report, "08007", 0);
    assert_true(d.clear_lost);
}

static void commit_answered_is_success(void **state)
{
    (void)state;
    fake_member m = { .fate = ANSWERED, .has_id = true };
    gc_settle_verdict v = settle_on(&m, true, false);
    assert_int_equal(v.action, GC_SETTLE_COMMITTED);
    assert_int_equal(m.asked, 0);
}

/* --- an autocommit write whose member fails while it runs --- */

static void autocommit_write_lost_and_not_committed_runs_again(void **state)
{
    (void)state;
    fake_member m = { .fate = ANSWER_LOST, .has_id = true, .status = GC_XACT_NOT_COMMITTED };
    gc_settle_verdict v = settle_on(&m, false, false);
    assert_int_equal(v.action, GC_SETTLE_RERUN);
    assert_report(v.report, "", 0);
    /* ... which the re-run rule then allows, silently. */
    gc_rerun_facts f = { .autocommit = true, .known_not_applied = true, .member_broke = true };
    assert_true(gc_outcome_may_rerun(&f));
}

static void autocommit_write_on_a_session_broken_before_it_ran_runs_again(void **state)
{
    (void)state;
    fake_member m = { .fate = BROKE_BEFORE_SEND, .has_id = false };
    gc_settle_verdict v = settle_on(&m, false, false);
    assert_int_equal(v.action, GC_SETTLE_RERUN);
    assert_int_equal(m.asked, 0);
    fake_member nothing = { .fate = ANSWER_LOST, .has_id = false };
    v = settle_on(&nothing, false, false);
    assert_int_equal(v.action, GC_SETTLE_RERUN);
    assert_int_equal(nothing.asked, 0);
}

static void autocommit_write_lost_and_committed_is_01000(void **state)
{
    (void)state;
    fake_member m = { .fate = ANSWER_LOST, .has_id = true, .status = GC_XACT_COMMITTED };
    gc_settle_verdict v = settle_on(&m, false, false);
    assert_int_equal(v.action, GC_SETTLE_COMMITTED);
    assert_report(v.report, "01000", 0);
}

static void autocommit_write_lost_that_cannot_be_told_is_40003(void **state)
{
    (void)state;
    fake_member m = { .fate = ANSWER_LOST, .has_id = true, .status = GC_XACT_UNKNOWN };
    gc_settle_verdict v = settle_on(&m, false, false);
    assert_int_equal(v.action, GC_SETTLE_UNKNOWN);
    assert_report(v.report, "40003", 0);
    assert_int_not_equal(v.report.native, GC_NATIVE_TXN_LOST);   /* never 19068 */
}

static void write_that_may_have_reached_another_group_is_never_not_committed(void **state)
{
    (void)state;
    fake_member aborted = { .fate = ANSWER_LOST, .has_id = true,
                            .status = GC_XACT_NOT_COMMITTED };
    gc_settle_verdict v = settle_on(&aborted, false, true);
    assert_int_equal(v.action, GC_SETTLE_UNKNOWN);
    assert_report(v.report, "40003", 0);
    assert_true(v.why_elsewhere);
    /* No id on the member: it may still have written through postgres_fdw,
     * and asking the member cannot tell. */
    fake_member no_id = { .fate = ANSWER_LOST, .has_id = false };
    v = settle_on(&no_id, true, true);
    assert_int_equal(v.action, GC_SETTLE_UNKNOWN);
    assert_report(v.report, "08007", 0);
    assert_true(v.why_elsewhere);
    assert_int_equal(no_id.asked, 0);
    /* Committed is still committed. */
    fake_member committed = { .fate = ANSWER_LOST, .has_id = true,
                              .status = GC_XACT_COMMITTED };
    v = settle_on(&committed, true, true);
    assert_int_equal(v.action, GC_SETTLE_COMMITTED);
}

/* --- the server's refusal --- */

static void refusal_by_the_server_is_the_applications_to_handle(void **state)
{
    (void)state;
    fake_member m = { .fate = REFUSED, .has_id = true };
    gc_settle_verdict v = settle_on(&m, false, true);
    assert_int_equal(v.action, GC_SETTLE_REFUSED);
    assert_report(v.report, "", 0);
    assert_int_equal(m.asked, 0);
}

static void remote_commit_failing_in_postgres_fdw_puts_08007_or_40003_first(void **state)
{
    (void)state;
    fake_member m = { .fate = REFUSED, .has_id = true, .remote_commit_error = true };
    gc_settle_verdict v = settle_on(&m, true, true);
    assert_int_equal(v.action, GC_SETTLE_REFUSED);
    assert_report(v.report, "08007", 0);
    v = settle_on(&m, false, true);
    assert_int_equal(v.action, GC_SETTLE_REFUSED);
    assert_report(v.report, "40003", 0);
}

/* --- a member that fails while rows are fetched --- */

static void fetch_failure_in_a_transaction_loses_it(void **state)
{
    (void)state;
    gc_fetch_verdict v = gc_outcome_fetch_failed(true, true);
    assert_int_equal(v.action, GC_FETCH_TXN_LOST);
}

static void fetch_failure_of_a_read_is_40001_19068(void **state)
{
    (void)state;
    gc_fetch_verdict v = gc_outcome_fetch_failed(false, true);
    assert_int_equal(v.action, GC_FETCH_REPORT);
    assert_report(v.report, "40001", GC_NATIVE_TXN_LOST);
}

static void fetch_failure_of_a_write_returning_rows_is_40003(void **state)
{
    (void)state;
    gc_fetch_verdict v = gc_outcome_fetch_failed(false, false);
    assert_int_equal(v.action, GC_FETCH_REPORT);
    assert_report(v.report, "40003", 0);
}

/* --- committing one group or several --- */

static void sqlendtran_commit_across_groups_is_two_phase(void **state)
{
    (void)state;
    gc_end_tran_facts f = { .commit = true, .pinned = true, .spread = true,
                            .pinned_in_transaction = true };
    gc_end_tran_verdict v = gc_outcome_end_tran(&f);
    assert_int_equal(v.action, GC_END_SPREAD_COMMIT);
    assert_false(v.release_pin);   /* the two phases end it */
    /* A rollback ends the part on the pinned member; the others were
     * rolled back by the release. */
    f.commit = false;
    v = gc_outcome_end_tran(&f);
    assert_int_equal(v.action, GC_END_ON_MEMBER);
    assert_true(v.release_pin);
}

static void sqlendtran_commit_of_one_group_goes_with_its_transaction_id(void **state)
{
    (void)state;
    gc_end_tran_facts f = { .commit = true, .pinned = true, .pinned_in_transaction = true };
    gc_end_tran_verdict v = gc_outcome_end_tran(&f);
    assert_int_equal(v.action, GC_END_COMMIT_WITH_ID);
    assert_true(v.release_pin);
    /* A failed transaction's COMMIT is answered ROLLBACK: 40000, no id. */
    f.pinned_in_transaction = false;
    v = gc_outcome_end_tran(&f);
    assert_int_equal(v.action, GC_END_ON_MEMBER);
}

static void sqlendtran_without_a_transaction_sends_nothing(void **state)
{
    (void)state;
    gc_end_tran_facts f = { .commit = true };
    assert_int_equal(gc_outcome_end_tran(&f).action, GC_END_NOTHING);
    f.commit = false;
    assert_int_equal(gc_outcome_end_tran(&f).action, GC_END_NOTHING);
}

static void sql_commit_and_chain_across_groups_is_refused(void **state)
{
    (void)state;
    assert_int_equal(gc_outcome_sql_commit(true, true), GC_SQL_COMMIT_REFUSED);
    assert_int_equal(gc_outcome_sql_commit(true, false), GC_SQL_COMMIT_SPREAD);
    assert_int_equal(gc_outcome_sql_commit(false, false), GC_SQL_COMMIT_WITH_ID);
    assert_int_equal(gc_outcome_sql_commit(false, true), GC_SQL_COMMIT_WITH_ID);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dead_session_found_before_sending_is_routed_again),
        cmocka_unit_test(first_statement_of_a_transaction_on_a_dead_member_is_routed_again),
        cmocka_unit_test(read_only_autocommit_statement_is_sent_without_the_look),
        cmocka_unit_test(shared_session_not_free_in_time_is_reported_as_it_came),
        cmocka_unit_test(pinned_member_found_dead_before_sending_is_40001_19068),
        cmocka_unit_test(pinned_member_that_cannot_be_opened_is_08S01),
        cmocka_unit_test(read_only_autocommit_statement_broken_while_running_runs_again),
        cmocka_unit_test(statement_failing_on_a_live_member_is_never_run_again),
        cmocka_unit_test(select_calling_a_writing_function_is_never_run_twice),
        cmocka_unit_test(autocommit_write_broken_while_running_reports_the_error),
        cmocka_unit_test(statement_in_a_transaction_is_never_run_again),
        cmocka_unit_test(transaction_member_failing_during_a_statement_is_40001_19068),
        cmocka_unit_test(transaction_begun_in_sql_reports_the_loss_once),
        cmocka_unit_test(member_of_another_group_joined_for_a_write_failing_loses_the_transaction),
        cmocka_unit_test(transaction_opened_in_sql_pins_its_member),
        cmocka_unit_test(commit_or_rollback_sent_in_sql_releases_the_pin),
        cmocka_unit_test(rollback_after_a_lost_transaction_succeeds_without_a_server_call),
        cmocka_unit_test(commit_after_a_lost_transaction_is_40001_19068),
        cmocka_unit_test(commit_lost_and_committed_is_success),
        cmocka_unit_test(commit_lost_of_a_transaction_that_wrote_nothing_is_01000),
        cmocka_unit_test(commit_lost_and_not_committed_is_40001_19068),
        cmocka_unit_test(commit_lost_that_cannot_be_told_is_08007),
        cmocka_unit_test(commit_on_a_session_broken_before_it_ran_is_40001_19068_without_asking),
        cmocka_unit_test(commit_not_sent_with_its_id_is_08007),
        cmocka_unit_test(commit_answered_is_success),
        cmocka_unit_test(autocommit_write_lost_and_not_committed_runs_again),
        cmocka_unit_test(autocommit_write_on_a_session_broken_before_it_ran_runs_again),
        cmocka_unit_test(autocommit_write_lost_and_committed_is_01000),
        cmocka_unit_test(autocommit_write_lost_that_cannot_be_told_is_40003),
        cmocka_unit_test(write_that_may_have_reached_another_group_is_never_not_committed),
        cmocka_unit_test(refusal_by_the_server_is_the_applications_to_handle),
        cmocka_unit_test(remote_commit_failing_in_postgres_fdw_puts_08007_or_40003_first),
        cmocka_unit_test(fetch_failure_in_a_transaction_loses_it),
        cmocka_unit_test(fetch_failure_of_a_read_is_40001_19068),
        cmocka_unit_test(fetch_failure_of_a_write_returning_rows_is_40003),
        cmocka_unit_test(sqlendtran_commit_across_groups_is_two_phase),
        cmocka_unit_test(sqlendtran_commit_of_one_group_goes_with_its_transaction_id),
        cmocka_unit_test(sqlendtran_without_a_transaction_sends_nothing),
        cmocka_unit_test(sql_commit_and_chain_across_groups_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
