/*
 * The reconnect scheduler against a fake clock (plain numbers of
 * milliseconds): delays double from ReconnectInterval, stop at the cap, stay
 * inside their jitter bounds, only one attempt runs at a time, and a success
 * starts the schedule over.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "global/gc_backoff.h"

enum { INITIAL = 1000, CAP = 60000 };

/* Fails one attempt at `now` and returns the delay it scheduled. */
static long long fail_at(gc_backoff *b, long long now)
{
    assert_true(gc_backoff_begin_attempt(b, now));
    gc_backoff_failed(b, now);
    return gc_backoff_due_at(b) - now;
}

static void first_attempt_is_due_at_once(void **state)
{
    (void)state;
    gc_backoff b;
    gc_backoff_init(&b, INITIAL, CAP, 1);
    assert_true(gc_backoff_due(&b, 0));
    assert_false(gc_backoff_in_flight(&b));
}

static void delays_double_from_the_initial_interval(void **state)
{
    (void)state;
    gc_backoff b;
    gc_backoff_init(&b, INITIAL, CAP, 7);
    long long now = 0, base = INITIAL;
    for (int i = 0; i < 6; i++) {
        long long d = fail_at(&b, now);
        assert_true(d >= base * 3 / 4 && d <= base);
        assert_false(gc_backoff_due(&b, now + d - 1));
        assert_true(gc_backoff_due(&b, now + d));
        now += d;
        base *= 2;
    }
}

static void delays_stop_at_the_cap(void **state)
{
    (void)state;
    gc_backoff b;
    gc_backoff_init(&b, INITIAL, CAP, 42);
    long long now = 0, largest = 0;
    for (int i = 0; i < 200; i++) {
        long long d = fail_at(&b, now);
        assert_true(d <= CAP);
        if (d > largest)
            largest = d;
        now += d;
    }
    /* After many failures every delay is a jittered cap. */
    long long d = fail_at(&b, now);
    assert_true(d >= CAP * 3 / 4 && d <= CAP);
    assert_true(largest > CAP * 3 / 4);
}

static void jitter_stays_in_bounds_and_varies(void **state)
{
    (void)state;
    long long lowest = CAP, highest = 0;
    for (uint64_t seed = 0; seed < 500; seed++) {
        gc_backoff b;
        gc_backoff_init(&b, 4000, CAP, seed);
        long long d = fail_at(&b, 100);
        assert_true(d >= 3000 && d <= 4000);
        if (d < lowest)
            lowest = d;
        if (d > highest)
            highest = d;
    }
    /* 500 seeds spread over most of the 1000 ms window. */
    assert_true(lowest < 3200);
    assert_true(highest > 3800);
}

static void same_seed_gives_same_schedule(void **state)
{
    (void)state;
    gc_backoff a, b;
    gc_backoff_init(&a, INITIAL, CAP, 9);
    gc_backoff_init(&b, INITIAL, CAP, 9);
    for (int i = 0; i < 10; i++)
        assert_int_equal(fail_at(&a, i * 100000LL), fail_at(&b, i * 100000LL));
}

static void only_one_attempt_in_flight(void **state)
{
    (void)state;
    gc_backoff b;
    gc_backoff_init(&b, INITIAL, CAP, 3);
    assert_true(gc_backoff_begin_attempt(&b, 0));
    assert_true(gc_backoff_in_flight(&b));
    /* Due by the clock, but the slot is taken. */
    assert_false(gc_backoff_due(&b, 1000000));
    assert_false(gc_backoff_begin_attempt(&b, 1000000));
    gc_backoff_failed(&b, 10);
    assert_false(gc_backoff_in_flight(&b));
    assert_false(gc_backoff_begin_attempt(&b, 10));   /* not due yet */
    assert_true(gc_backoff_begin_attempt(&b, gc_backoff_due_at(&b)));
}

static void success_resets_the_schedule(void **state)
{
    (void)state;
    gc_backoff b;
    gc_backoff_init(&b, INITIAL, CAP, 5);
    long long now = 0;
    for (int i = 0; i < 8; i++)
        now += fail_at(&b, now);
    assert_true(gc_backoff_begin_attempt(&b, now));
    gc_backoff_succeeded(&b);
    assert_false(gc_backoff_in_flight(&b));
    assert_true(gc_backoff_due(&b, now));
    /* The next failure waits about the initial interval again. */
    long long d = fail_at(&b, now);
    assert_true(d >= INITIAL * 3 / 4 && d <= INITIAL);
}

static void member_found_down_without_attempt_schedules_a_retry(void **state)
{
    (void)state;
    gc_backoff b;
    gc_backoff_init(&b, 2000, CAP, 11);
    gc_backoff_failed(&b, 500);    /* the router saw the member die */
    assert_false(gc_backoff_due(&b, 500));
    assert_true(gc_backoff_due_at(&b) >= 500 + 1500 && gc_backoff_due_at(&b) <= 500 + 2000);
}

static void one_early_attempt_per_failure_leaves_the_schedule_alone(void **state)
{
    (void)state;
    gc_backoff b;
    gc_backoff_init(&b, 2000, CAP, 13);
    assert_false(gc_backoff_begin_early(&b));    /* never failed: nothing to hurry */
    gc_backoff_failed(&b, 500);
    long long due = gc_backoff_due_at(&b);
    assert_true(gc_backoff_begin_early(&b));
    assert_true(gc_backoff_in_flight(&b));
    assert_false(gc_backoff_begin_attempt(&b, due));   /* the slot is taken */
    gc_backoff_failed(&b, 600);
    /* The regular retry is still due when it was, and there is no second
     * early one for this failure. */
    assert_int_equal(gc_backoff_due_at(&b), due);
    assert_false(gc_backoff_begin_early(&b));
    assert_false(gc_backoff_begin_attempt(&b, due - 1));
    assert_true(gc_backoff_begin_attempt(&b, due));
    gc_backoff_failed(&b, due);
    assert_false(gc_backoff_begin_early(&b));
    /* A success ends the failure: the next one may hurry again. */
    assert_true(gc_backoff_begin_attempt(&b, gc_backoff_due_at(&b)));
    gc_backoff_succeeded(&b);
    gc_backoff_failed(&b, 90000);
    assert_true(gc_backoff_begin_early(&b));
    gc_backoff_succeeded(&b);
    assert_true(gc_backoff_due(&b, 90000));
}

static void tiny_intervals_never_go_below_one_millisecond_or_overflow(void **state)
{
    (void)state;
    gc_backoff b;
    gc_backoff_init(&b, 1, 1, 0);
    for (int i = 0; i < 5000; i++)
        assert_int_equal(fail_at(&b, i), 1);
    gc_backoff_init(&b, 1, 3600LL * 1000 * 1000, 0);
    long long now = 0;
    for (int i = 0; i < 5000; i++) {
        long long d = fail_at(&b, now);
        assert_true(d >= 1 && d <= 3600LL * 1000 * 1000);
        now += d;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(first_attempt_is_due_at_once),
        cmocka_unit_test(delays_double_from_the_initial_interval),
        cmocka_unit_test(delays_stop_at_the_cap),
        cmocka_unit_test(jitter_stays_in_bounds_and_varies),
        cmocka_unit_test(same_seed_gives_same_schedule),
        cmocka_unit_test(only_one_attempt_in_flight),
        cmocka_unit_test(success_resets_the_schedule),
        cmocka_unit_test(member_found_down_without_attempt_schedules_a_retry),
        cmocka_unit_test(one_early_attempt_per_failure_leaves_the_schedule_alone),
        cmocka_unit_test(tiny_intervals_never_go_below_one_millisecond_or_overflow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
