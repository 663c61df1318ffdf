/*
 * The choke point for sending (src/session/gc_session.c): the statement
 * streaming on a session is made to read its rest (the core's callback)
 * before anything else is sent there or its settled transaction status is
 * read, and only then. The sessions are closed ones (no server): a send on
 * them fails with 08003 after the choke point has run, as on a session
 * that broke.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "session/gc_session.h"

/* A statement as the core's callback sees it: how often it was made to
 * end its streaming. */
typedef struct fake_stmt {
    gc_session_owner *owner;
    int ended;
} fake_stmt;

static void end_streaming(void *stmt)
{
    fake_stmt *f = stmt;
    f->ended++;
    gc_session_disown(f->owner, f);   /* read everything: nobody streams */
}

typedef struct fixture {
    gc_session_owner owner;
    gc_session *a, *b;       /* two sessions of one connection */
    fake_stmt stmt;
} fixture;

static gc_session *closed_session(gc_session_owner *owner, const char *name)
{
    gc_member_params p;
    memset(&p, 0, sizeof p);
    p.name = name;
    p.host = "127.0.0.1";
    p.port = "1";
    gc_member *m = gc_member_create(&p, NULL);
    assert_non_null(m);
    /* What gc_session_open and the global connection install. */
    gc_member_set_before_send(m, gc_session_before_send, owner);
    return m;
}

static int setup(void **state)
{
    fixture *f = test_calloc(1, sizeof *f);
    gc_session_owner_init(&f->owner, end_streaming);
    f->a = closed_session(&f->owner, "A");
    f->b = closed_session(&f->owner, "B");
    f->stmt.owner = &f->owner;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    gc_session_destroy(f->a);
    gc_session_destroy(f->b);
    test_free(f);
    return 0;
}

static void test_send_on_the_owners_session_ends_its_streaming_first(void **state)
{
    fixture *f = *state;
    gc_session_own(&f->owner, f->a, &f->stmt);
    assert_true(gc_session_owned_by(&f->owner, &f->stmt));
    gc_error err;
    gc_error_clear(&err);
    assert_false(gc_session_send_query(f->a, "SELECT 1", &err));
    assert_string_equal(err.sqlstate, "08003");
    assert_int_equal(f->stmt.ended, 1);
    assert_false(gc_session_owned_by(&f->owner, &f->stmt));
    /* Nobody streams any more: a second send asks nobody. */
    assert_false(gc_session_send_query(f->a, "SELECT 1", &err));
    assert_int_equal(f->stmt.ended, 1);
}

static void test_every_kind_of_send_passes_the_choke_point(void **state)
{
    fixture *f = *state;
    gc_error err;
    gc_error_clear(&err);
    gc_session_own(&f->owner, f->a, &f->stmt);
    assert_false(gc_session_send_prepare(f->a, "p", "SELECT 1", 0, NULL, &err));
    gc_session_own(&f->owner, f->a, &f->stmt);
    assert_false(gc_session_send_query_params(f->a, "SELECT 1", 0, NULL, NULL, NULL, NULL, &err));
    gc_session_own(&f->owner, f->a, &f->stmt);
    assert_false(gc_session_send_query_prepared(f->a, "p", 0, NULL, NULL, NULL, &err));
    gc_session_own(&f->owner, f->a, &f->stmt);
    assert_false(gc_session_send_describe_prepared(f->a, "p", &err));
    gc_session_own(&f->owner, f->a, &f->stmt);
    assert_false(gc_session_pipeline_begin(f->a, &err));
    assert_int_equal(f->stmt.ended, 5);
}

static void test_send_on_another_session_leaves_the_owner_streaming(void **state)
{
    fixture *f = *state;
    gc_session_own(&f->owner, f->a, &f->stmt);
    gc_error err;
    gc_error_clear(&err);
    assert_false(gc_session_send_query(f->b, "SELECT 1", &err));
    assert_int_equal(f->stmt.ended, 0);
    assert_true(gc_session_owned_by(&f->owner, &f->stmt));
    assert_int_equal(gc_session_txn_status(f->a), PQTRANS_UNKNOWN);   /* a closed session */
    assert_int_equal(gc_session_idle_txn_status(&f->owner, f->b), PQTRANS_UNKNOWN);
    assert_int_equal(f->stmt.ended, 0);
}

static void test_settled_status_read_ends_the_streaming_plain_read_does_not(void **state)
{
    fixture *f = *state;
    gc_session_own(&f->owner, f->a, &f->stmt);
    (void)gc_session_txn_status(f->a);
    assert_int_equal(f->stmt.ended, 0);
    (void)gc_session_idle_txn_status(&f->owner, f->a);
    assert_int_equal(f->stmt.ended, 1);
    assert_null(f->owner.stmt);
}

static void test_end_streaming_asks_the_owner_once_and_nobody_after(void **state)
{
    fixture *f = *state;
    gc_session_end_streaming(&f->owner);           /* nobody streams: nothing happens */
    assert_int_equal(f->stmt.ended, 0);
    gc_session_own(&f->owner, f->a, &f->stmt);
    gc_session_end_streaming(&f->owner);
    gc_session_end_streaming(&f->owner);
    assert_int_equal(f->stmt.ended, 1);
}

static void test_only_the_owner_can_disown(void **state)
{
    fixture *f = *state;
    fake_stmt other = { .owner = &f->owner };
    gc_session_own(&f->owner, f->a, &f->stmt);
    gc_session_disown(&f->owner, &other);
    assert_true(gc_session_owned_by(&f->owner, &f->stmt));
    assert_false(gc_session_owned_by(&f->owner, &other));
    gc_session_disown(&f->owner, &f->stmt);
    assert_false(gc_session_owned_by(&f->owner, &f->stmt));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_send_on_the_owners_session_ends_its_streaming_first,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_every_kind_of_send_passes_the_choke_point, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_send_on_another_session_leaves_the_owner_streaming,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(
            test_settled_status_read_ends_the_streaming_plain_read_does_not, setup, teardown),
        cmocka_unit_test_setup_teardown(test_end_streaming_asks_the_owner_once_and_nobody_after,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_only_the_owner_can_disown, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
