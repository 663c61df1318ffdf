/*
 * The rows of a forward-only rowset: a result that gave rows of the rowset
 * is kept when the statement moves past it, one that gave none is freed at
 * once, a rowset of one row keeps nothing and reads the current row, and
 * the next fetch frees what the last one kept. Results are libpq's own
 * (PQmakeEmptyPGresult); the sanitizer build finds any result freed twice
 * or never.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/gc_fwd_rowset.h"

static PGresult *result(void)
{
    PGresult *r = PQmakeEmptyPGresult(NULL, PGRES_SINGLE_TUPLE);
    assert_non_null(r);
    return r;
}

static void rows_of_several_results_are_kept_until_the_next_fetch(void **state)
{
    (void)state;
    gc_fwd_rowset f = { 0 };
    PGresult *window = result(), *single = result();
    gc_fwd_rowset_begin(&f, 3);
    assert_true(f.keeping);
    gc_fwd_rowset_add(&f, window, 4);
    gc_fwd_rowset_retire(&f, window);           /* gave row 1: kept */
    gc_fwd_rowset_add(&f, single, 0);
    assert_int_equal(f.n_kept, 1);
    assert_int_equal(f.n_rows, 2);

    int row = -1;
    assert_ptr_equal(gc_fwd_rowset_positioned(&f, &row), window);   /* first row */
    assert_int_equal(row, 4);
    gc_fwd_rowset_position(&f, 2);
    assert_ptr_equal(gc_fwd_rowset_positioned(&f, &row), single);
    assert_int_equal(row, 0);
    gc_fwd_rowset_position(&f, 0);
    assert_ptr_equal(gc_fwd_rowset_positioned(&f, &row), window);

    /* The next fetch frees what was kept; `single` is still the
     * statement's block, and it gives no row to the new rowset. */
    gc_fwd_rowset_begin(&f, 3);
    assert_int_equal(f.n_kept, 0);
    assert_int_equal(f.n_rows, 0);
    gc_fwd_rowset_retire(&f, single);           /* freed at once */
    assert_int_equal(f.n_kept, 0);
    gc_fwd_rowset_free(&f);
}

static void a_rowset_of_one_row_keeps_nothing(void **state)
{
    (void)state;
    gc_fwd_rowset f = { 0 };
    PGresult *r = result();
    gc_fwd_rowset_begin(&f, 1);
    assert_false(f.keeping);
    gc_fwd_rowset_add(&f, r, 0);
    assert_int_equal(f.n_rows, 1);
    gc_fwd_rowset_position(&f, 1);
    int row = -1;
    assert_null(gc_fwd_rowset_positioned(&f, &row));   /* the current row */
    gc_fwd_rowset_retire(&f, r);
    assert_int_equal(f.n_kept, 0);
    gc_fwd_rowset_free(&f);
}

static void releasing_frees_the_kept_results(void **state)
{
    (void)state;
    gc_fwd_rowset f = { 0 };
    gc_fwd_rowset_begin(&f, 4);
    for (int i = 0; i < 4; i++) {
        PGresult *r = result();
        gc_fwd_rowset_add(&f, r, 0);
        gc_fwd_rowset_retire(&f, r);
    }
    assert_int_equal(f.n_kept, 4);
    gc_fwd_rowset_release(&f);
    assert_int_equal(f.n_kept, 0);
    assert_false(f.keeping);
    gc_fwd_rowset_retire(&f, NULL);             /* no block: nothing to do */
    gc_fwd_rowset_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rows_of_several_results_are_kept_until_the_next_fetch),
        cmocka_unit_test(a_rowset_of_one_row_keeps_nothing),
        cmocka_unit_test(releasing_frees_the_kept_results),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
