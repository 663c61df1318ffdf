/*
 * The keys a global connection draws ahead of need (SequenceCache): draws
 * grow from what the INSERT needs by what was drawn before, up to the
 * limit; kept keys come out in the order drawn, per sequence; a new shard
 * map (epoch) drops them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "global/gc_key_cache.h"

enum { LIMIT = 32 };

/* One INSERT's draw of `need` keys from `next` on: what a connection does
 * when the cache is short. Returns the keys drawn. */
static int draw_for(gc_key_cache *c, const char *seq, unsigned long epoch, int need, int64_t *next)
{
    int spare = gc_key_cache_spare(c, seq, epoch, LIMIT);
    int64_t kept[LIMIT];
    for (int k = 0; k < spare; k++)
        kept[k] = *next + need + k;
    *next += need + spare;
    assert_true(gc_key_cache_drew(c, seq, epoch, need + spare, kept, spare));
    return need + spare;
}

static void draws_grow_from_the_need_to_the_limit(void **state)
{
    (void)state;
    gc_key_cache *c = gc_key_cache_create();
    assert_non_null(c);
    int64_t next = 1, key;
    int sizes[8], n = 0;
    for (int insert = 0; insert < 100; insert++) {
        if (gc_key_cache_take(c, "s", 1, 1, &key) == 1)
            continue;
        assert_true(n < 8);
        sizes[n++] = draw_for(c, "s", 1, 1, &next);
    }
    static const int want[] = { 1, 2, 4, 8, 16, 32, 32, 32 };
    assert_int_equal(n, 8);    /* 1 + 2 + ... + 32 = 63, then 32 at a time: 127 cover 100 */
    for (int d = 0; d < n; d++)
        assert_int_equal(sizes[d], want[d]);
    gc_key_cache_destroy(c);
}

static void kept_keys_come_out_in_order_per_sequence(void **state)
{
    (void)state;
    gc_key_cache *c = gc_key_cache_create();
    int64_t a[] = { 101, 201, 301 }, b[] = { 7, 8 }, more[] = { 401 }, out[4];
    assert_true(gc_key_cache_drew(c, "a", 1, 4, a, 3));
    assert_true(gc_key_cache_drew(c, "b", 1, 2, b, 2));
    assert_int_equal(gc_key_cache_take(c, "a", 1, 2, out), 2);
    assert_int_equal(out[0], 101);
    assert_int_equal(out[1], 201);
    assert_true(gc_key_cache_drew(c, "a", 1, 1, more, 1));   /* behind what is left */
    assert_int_equal(gc_key_cache_take(c, "a", 1, 4, out), 2);
    assert_int_equal(out[0], 301);
    assert_int_equal(out[1], 401);
    assert_int_equal(gc_key_cache_take(c, "a", 1, 1, out), 0);
    assert_int_equal(gc_key_cache_take(c, "b", 1, 4, out), 2);
    assert_int_equal(out[0], 7);
    assert_int_equal(gc_key_cache_take(c, "unknown", 1, 1, out), 0);
    gc_key_cache_destroy(c);
}

static void a_new_epoch_drops_kept_keys_and_the_growth(void **state)
{
    (void)state;
    gc_key_cache *c = gc_key_cache_create();
    int64_t kept[] = { 5, 6, 7 }, out[1];
    assert_true(gc_key_cache_drew(c, "s", 1, 20, kept, 3));
    assert_int_equal(gc_key_cache_spare(c, "s", 1, LIMIT), 20);
    assert_int_equal(gc_key_cache_take(c, "s", 2, 1, out), 0);
    assert_int_equal(gc_key_cache_spare(c, "s", 2, LIMIT), 0);
    assert_int_equal(gc_key_cache_take(c, "s", 1, 1, out), 0);   /* gone, not hidden */
    gc_key_cache_destroy(c);
}

static void a_limit_of_one_keeps_nothing(void **state)
{
    (void)state;
    gc_key_cache *c = gc_key_cache_create();
    assert_true(gc_key_cache_drew(c, "s", 1, 500, NULL, 0));
    assert_int_equal(gc_key_cache_spare(c, "s", 1, 1), 0);
    assert_int_equal(gc_key_cache_spare(c, "s", 1, 10000), 500);
    gc_key_cache_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(draws_grow_from_the_need_to_the_limit),
        cmocka_unit_test(kept_keys_come_out_in_order_per_sequence),
        cmocka_unit_test(a_new_epoch_drops_kept_keys_and_the_growth),
        cmocka_unit_test(a_limit_of_one_keeps_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
