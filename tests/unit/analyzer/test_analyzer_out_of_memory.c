/*
 * When memory runs out at any allocation, gc_analyze fails with HY001 and
 * leaves nothing behind (the sanitizer build checks for leaks). The
 * analyzer's allocations are wrapped at link time (--wrap) so the n-th one
 * fails; cmocka's own allocations are not affected.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "sql/gc_analyzer.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);

static long fail_at = -1;   /* the allocation that fails; -1: none */
static long allocations;
static bool failed;

static bool allocation_fails(void)
{
    if (fail_at < 0 || allocations++ != fail_at)
        return false;
    failed = true;
    return true;
}

void *__wrap_malloc(size_t n)
{
    return allocation_fails() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
    return allocation_fails() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
    return allocation_fails() ? NULL : __real_realloc(p, n);
}

static const char *const statements[] = {
    "INSERT INTO app.t (k, v) VALUES ($1, 'a'), (E'\\x41', DATE '2026-01-01') RETURNING k",
    "INSERT INTO t VALUES ($1, 2)",
    "UPDATE accounts AS a SET v = 1 WHERE a.k IN ($1, 'x', 3) AND (c = $2 AND d = -1)",
    "SELECT * FROM \"S\".t x JOIN u ON x.id = u.id WHERE (x.k1, k2) = ($1, $2) AND k = $3",
    "WITH c AS (SELECT 1) DELETE FROM t WHERE k = $1",
    "SELECT * FROM generate_series(1, 2)",
};

static void every_failed_allocation_gives_hy001_and_no_leak(void **state)
{
    (void)state;
    for (size_t s = 0; s < sizeof statements / sizeof statements[0]; s++) {
        const char *sql = statements[s];
        for (fail_at = 0;; fail_at++) {
            gc_analysis a;
            gc_error err;
            allocations = 0;
            failed = false;
            bool ok = gc_analyze(sql, strlen(sql), &a, &err);
            if (!failed) {
                assert_true(ok);
                assert_true(a.table != NULL || a.not_routable != NULL);
                gc_analysis_free(&a);
                break;
            }
            /* A failed allocation never yields a partial analysis. */
            assert_false(ok);
            assert_string_equal(err.sqlstate, "HY001");
            assert_null(a.table);
            assert_null(a.columns);
            gc_analysis_free(&a);
        }
        /* At least one allocation failed before the run that succeeded. */
        assert_true(fail_at > 0);
        fail_at = -1;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_failed_allocation_gives_hy001_and_no_leak),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
