/*
 * ODBC's order of status records (SQLGetDiagRec): by row number, records
 * about no row first; within a row, errors before warnings (01xxx) before
 * the rest; records of one rank in the order they came.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "core/gc_diag.h"

static void expect_states(const gc_diag *d, const char *const *states, int n)
{
    assert_int_equal(d->count, n);
    for (int i = 0; i < n; i++)
        assert_string_equal(d->records[i].sqlstate, states[i]);
}

/* A notice keeps the server's SQLSTATE, as psqlODBC gives it (RAISE
 * NOTICE's 00000, a deprecation warning's 01P01, CREATE TABLE IF NOT
 * EXISTS's 42P07); 01000 when it has none or is an error handed over as a
 * notice. */
static void test_notice_keeps_the_server_sqlstate(void **state)
{
    (void)state;
    gc_diag d;
    gc_diag_init(&d);
    gc_diag_add_notice(&d, "00000", "NOTICE", "hello");
    gc_diag_add_notice(&d, "01P01", "WARNING", "old syntax");
    gc_diag_add_notice(&d, "", "INFO", "no code");
    gc_diag_add_notice(&d, "57P01", "FATAL", "terminating connection");   /* an error's code */
    gc_diag_add_notice(&d, "42P07", "NOTICE", "relation \"t\" already exists, skipping");
    /* Warnings (01xxx, and a notice under an error's code) come before
     * 00000, in the order they came. */
    const char *want[] = { "01P01", "01000", "01000", "42P07", "00000" };
    expect_states(&d, want, 5);
    assert_string_equal(d.records[4].message, "NOTICE: hello");
    gc_diag_free(&d);
}

/* A notice under an error's code never comes before the call's error. */
static void test_notice_with_error_code_ranks_as_warning(void **state)
{
    (void)state;
    gc_diag d;
    gc_diag_init(&d);
    gc_diag_add_notice(&d, "42P07", "NOTICE", "relation \"t\" already exists, skipping");
    gc_diag_add(&d, "22012", 0, "division by zero");
    gc_diag_add(&d, "01004", 0, "truncated");
    const char *want[] = { "22012", "42P07", "01004" };
    expect_states(&d, want, 3);
    assert_int_equal(d.records[1].native, -1);
    gc_diag_free(&d);
}

/* A server notice that arrived before the statement failed must not hide
 * the error: an application reads record 1. */
static void test_error_after_notice_comes_first(void **state)
{
    (void)state;
    gc_diag d;
    gc_diag_init(&d);
    gc_diag_add_notice(&d, NULL, "FATAL", "terminating connection");   /* no SQLSTATE: 01000 */
    gc_diag_add(&d, "40001", 19068, "the transaction's member failed");
    gc_diag_add(&d, "01004", 0, "truncated");
    gc_diag_add(&d, "08S01", 0, "lost");
    const char *want[] = { "40001", "08S01", "01000", "01004" };
    expect_states(&d, want, 4);
    assert_int_equal(d.records[0].native, 19068);
    assert_string_equal(d.records[2].message, "FATAL: terminating connection");
    assert_int_equal(d.records[2].native, -1);
    gc_diag_free(&d);
}

static void test_rows_order_before_rank(void **state)
{
    (void)state;
    gc_diag d;
    gc_diag_init(&d);
    gc_error warn, err;
    gc_error_set(&warn, "01S07", 0, "fraction truncated");
    gc_error_set(&err, "22003", 0, "out of range");
    gc_diag_add_error_at(&d, &err, 3, 2);
    gc_diag_add_error_at(&d, &warn, 1, 1);
    gc_diag_add_error_at(&d, &err, 1, 2);
    gc_diag_add(&d, "01000", 0, "about no row");
    const char *want[] = { "01000", "22003", "01S07", "22003" };
    expect_states(&d, want, 4);
    assert_int_equal(d.records[1].row_number, 1);
    assert_int_equal(d.records[1].column_number, 2);
    assert_int_equal(d.records[2].row_number, 1);
    assert_int_equal(d.records[3].row_number, 3);
    gc_diag_free(&d);
}

/* gc_diag_join_notices makes a call's notices one record: texts in the order
 * they came (not their rank's), joined with ';', the last one's SQLSTATE;
 * one record per row of a parameter array; other records untouched. */
static void test_notices_join_in_arrival_order(void **state)
{
    (void)state;
    gc_diag d;
    gc_diag_init(&d);
    gc_diag_add_notice(&d, "00000", "NOTICE", "one");
    gc_diag_add_notice(&d, "01000", "WARNING", "two");
    gc_diag_add(&d, "22012", 1, "ERROR: division by zero");
    gc_diag_add_notice(&d, "00000", "NOTICE", "three");
    gc_diag notes;
    gc_diag_init(&notes);
    gc_diag_add_notice(&notes, "01P01", "WARNING", "row a");
    gc_diag_add_notice(&notes, "00000", "NOTICE", "row b");
    gc_diag_move_at(&d, &notes, 2);
    gc_diag_join_notices(&d);
    const char *want[] = { "22012", "00000", "00000" };
    expect_states(&d, want, 3);
    assert_string_equal(d.records[1].message, "NOTICE: one;WARNING: two;NOTICE: three");
    assert_int_equal(d.records[1].native, -1);
    assert_string_equal(d.records[2].message, "WARNING: row a;NOTICE: row b");
    assert_int_equal(d.records[2].row_number, 2);
    /* A lone notice stays as it came. */
    gc_diag_clear(&d);
    gc_diag_add_notice(&d, "01P01", "WARNING", "alone");
    gc_diag_join_notices(&d);
    const char *alone[] = { "01P01" };
    expect_states(&d, alone, 1);
    assert_string_equal(d.records[0].message, "WARNING: alone");
    gc_diag_free(&notes);
    gc_diag_free(&d);
}

/* Only FATAL and PANIC end the server session (psqlODBC's native 35 and
 * "The connection has been lost"); the localized word is never read. */
static void test_only_fatal_and_panic_end_the_session(void **state)
{
    (void)state;
    assert_true(gc_error_severity_ends_session("FATAL"));
    assert_true(gc_error_severity_ends_session("PANIC"));
    assert_false(gc_error_severity_ends_session("ERROR"));
    assert_false(gc_error_severity_ends_session("WARNING"));
    assert_false(gc_error_severity_ends_session("FATALE"));
    assert_false(gc_error_severity_ends_session(NULL));
}

/* A step's records set aside and taken back: the area's own records and
 * header come back untouched; the step's go where the caller says, about
 * the row it names, or are dropped; the answer says whether it added any. */
static void test_step_records_taken_back_where_told(void **state)
{
    (void)state;
    gc_diag d, other, kept;
    gc_diag_init(&d);
    gc_diag_init(&other);
    gc_diag_add(&d, "01004", 0, "before the step");
    d.return_code = SQL_SUCCESS_WITH_INFO;

    gc_diag_set_aside(&d, &kept);
    assert_int_equal(d.count, 0);
    gc_diag_add(&d, "23505", 0, "the step's row failed");
    assert_true(gc_diag_take_back(&d, &kept, &d, 7));
    const char *both[] = { "01004", "23505" };
    expect_states(&d, both, 2);
    assert_int_equal(d.records[1].row_number, 7);
    assert_int_equal(d.return_code, SQL_SUCCESS_WITH_INFO);

    gc_diag_set_aside(&d, &kept);
    assert_false(gc_diag_take_back(&d, &kept, &other, 3));    /* nothing added */
    gc_diag_set_aside(&d, &kept);
    gc_diag_add(&d, "40001", 0, "moved elsewhere");
    assert_true(gc_diag_take_back(&d, &kept, &other, 3));
    gc_diag_set_aside(&d, &kept);
    gc_diag_add(&d, "HY000", 0, "dropped");
    assert_true(gc_diag_take_back(&d, &kept, NULL, 3));
    expect_states(&d, both, 2);
    const char *moved[] = { "40001" };
    expect_states(&other, moved, 1);
    assert_int_equal(other.records[0].row_number, 3);
    gc_diag_free(&d);
    gc_diag_free(&other);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_error_after_notice_comes_first),
        cmocka_unit_test(test_notice_with_error_code_ranks_as_warning),
        cmocka_unit_test(test_notice_keeps_the_server_sqlstate),
        cmocka_unit_test(test_rows_order_before_rank),
        cmocka_unit_test(test_notices_join_in_arrival_order),
        cmocka_unit_test(test_only_fatal_and_panic_end_the_session),
        cmocka_unit_test(test_step_records_taken_back_where_told),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
