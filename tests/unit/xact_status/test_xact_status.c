/*
 * Commit resolution's pure rules: reading pg_xact_status's answer, and the
 * incarnation rule (an answer about a transaction id is about *our*
 * transaction only on the server incarnation it ran on).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "global/gc_xact_status.h"

static void answers_are_read_from_pg_xact_status_text(void **state)
{
    (void)state;
    assert_int_equal(gc_xact_answer_parse("committed"), GC_XACT_ANSWER_COMMITTED);
    assert_int_equal(gc_xact_answer_parse("aborted"), GC_XACT_ANSWER_ABORTED);
    assert_int_equal(gc_xact_answer_parse("in progress"), GC_XACT_ANSWER_IN_PROGRESS);
    assert_int_equal(gc_xact_answer_parse(NULL), GC_XACT_ANSWER_NONE);
    assert_int_equal(gc_xact_answer_parse("Committed"), GC_XACT_ANSWER_NONE);
    assert_int_equal(gc_xact_answer_parse(""), GC_XACT_ANSWER_NONE);
}

static void committed_is_trusted_only_on_the_same_incarnation(void **state)
{
    (void)state;
    assert_int_equal(gc_xact_status_decide(GC_XACT_ANSWER_COMMITTED, true), GC_XACT_COMMITTED);
    /* After a crash restart or a promotion the id may belong to another
     * transaction: committed there proves nothing about ours. */
    assert_int_equal(gc_xact_status_decide(GC_XACT_ANSWER_COMMITTED, false), GC_XACT_UNKNOWN);
}

static void aborted_or_future_means_not_committed_on_any_incarnation(void **state)
{
    (void)state;
    assert_int_equal(gc_xact_status_decide(GC_XACT_ANSWER_ABORTED, true),
                     GC_XACT_NOT_COMMITTED);
    assert_int_equal(gc_xact_status_decide(GC_XACT_ANSWER_ABORTED, false),
                     GC_XACT_NOT_COMMITTED);
    assert_int_equal(gc_xact_status_decide(GC_XACT_ANSWER_FUTURE, true),
                     GC_XACT_NOT_COMMITTED);
    assert_int_equal(gc_xact_status_decide(GC_XACT_ANSWER_FUTURE, false),
                     GC_XACT_NOT_COMMITTED);
}

static void in_progress_or_forgotten_is_never_decided(void **state)
{
    (void)state;
    assert_int_equal(gc_xact_status_decide(GC_XACT_ANSWER_IN_PROGRESS, true), GC_XACT_UNKNOWN);
    assert_int_equal(gc_xact_status_decide(GC_XACT_ANSWER_IN_PROGRESS, false), GC_XACT_UNKNOWN);
    assert_int_equal(gc_xact_status_decide(GC_XACT_ANSWER_NONE, true), GC_XACT_UNKNOWN);
    assert_int_equal(gc_xact_status_decide(GC_XACT_ANSWER_NONE, false), GC_XACT_UNKNOWN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(answers_are_read_from_pg_xact_status_text),
        cmocka_unit_test(committed_is_trusted_only_on_the_same_incarnation),
        cmocka_unit_test(aborted_or_future_means_not_committed_on_any_incarnation),
        cmocka_unit_test(in_progress_or_forgotten_is_never_decided),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
