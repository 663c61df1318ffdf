/*
 * The refusal of the cluster's trigger on foreign tables (SQLSTATE GCF01,
 * global/gc_remote_write.h) reaches the application as 0A000 with the
 * driver's native error 90123, the server's words kept; other records are
 * left as they are.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "core/gc_remote_refusal.h"
#include "global/gc_global.h"
#include "global/gc_remote_write.h"
#include "session/gc_session.h"

/* gc_remote_refusal.c also names a moved shard (40001), which asks the
 * global and session layers; the name mapping under test never calls these. */
void gc_global_check_catalog_soon(gc_global *g) { (void)g; fail(); }
bool gc_global_shard_map_moved(gc_global *g, int i) { (void)g; (void)i; fail(); return false; }
PGTransactionStatusType gc_session_txn_status(const gc_session *m) { (void)m; fail(); return PQTRANS_IDLE; }
const char *gc_session_name(const gc_session *m) { (void)m; fail(); return ""; }

static void test_refusal_becomes_0a000_with_native_90123(void **state)
{
    (void)state;
    gc_diag d;
    gc_diag_init(&d);
    gc_diag_add(&d, "01000", -1, "NOTICE: before");
    gc_diag_add(&d, GC_REMOTE_WRITE_SERVER_SQLSTATE, 1,
                "ERROR: a write through postgres_fdw to accounts_2 of group G2, ... cannot "
                "commit atomically: ...;\nError while executing the query");
    gc_diag_add(&d, GC_REMOTE_WRITE_SERVER_SQLSTATE, 1, "HINT: see ...");
    assert_true(gc_remote_refusal_name(&d));
    int refusals = 0;
    for (int k = 0; k < d.count; k++) {
        if (strcmp(d.records[k].sqlstate, "01000") == 0) {
            assert_int_equal(d.records[k].native, -1);
            continue;
        }
        assert_string_equal(d.records[k].sqlstate, "0A000");
        assert_int_equal(d.records[k].native, 90123);
        refusals++;
    }
    assert_int_equal(refusals, 2);
    assert_non_null(strstr(d.records[0].message, "cannot commit atomically"));
    gc_diag_free(&d);
}

/* Another server error (the same class of words, another code) is not the
 * refusal: the driver knows it by its code only. */
static void test_other_errors_are_left_alone(void **state)
{
    (void)state;
    gc_diag d;
    gc_diag_init(&d);
    gc_diag_add(&d, "0A000", 1, "ERROR: cannot commit atomically (someone else's words)");
    gc_diag_add(&d, "23505", 1, "ERROR: duplicate key");
    assert_false(gc_remote_refusal_name(&d));
    assert_string_equal(d.records[0].sqlstate, "0A000");
    assert_int_equal(d.records[0].native, 1);
    assert_string_equal(d.records[1].sqlstate, "23505");
    gc_diag_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refusal_becomes_0a000_with_native_90123),
        cmocka_unit_test(test_other_errors_are_left_alone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
