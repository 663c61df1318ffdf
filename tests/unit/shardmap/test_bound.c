/* Partition bounds as a PostgreSQL 15 server prints them with
 * pg_get_expr(relpartbound) (strings copied from a 15 server, DateStyle ISO,
 * TimeZone UTC), and the choice of partition for range and list keys. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "placement/gc_shardmap_bound.h"

static void parse_ok(const char *text, const gc_keytype *types, int n, gc_part_bound *b)
{
    const char *why = NULL;
    if (!gc_part_bound_parse(text, types, n, b, &why))
        fail_msg("refused bound %s: %s", text, why);
}

static gc_keyval key(gc_keytype t, const char *s)
{
    gc_keyval v;
    const char *why;
    if (!gc_keyval_parse(t, -1, s, s ? strlen(s) : 0, &v, &why))
        fail_msg("key '%s' refused: %s", s ? s : "(NULL)", why);
    return v;
}

static void hash_and_default_bounds_parse(void **state)
{
    (void)state;
    gc_keytype t[] = {GC_KEY_INT4};
    gc_part_bound b;
    parse_ok("FOR VALUES WITH (modulus 4, remainder 3)", t, 1, &b);
    assert_int_equal(b.kind, GC_BOUND_HASH);
    assert_int_equal(b.modulus, 4);
    assert_int_equal(b.remainder, 3);
    gc_part_bound_free(&b);
    parse_ok("DEFAULT", t, 1, &b);
    assert_int_equal(b.kind, GC_BOUND_DEFAULT);
    gc_part_bound_free(&b);
    const char *why;
    assert_false(gc_part_bound_parse("FOR VALUES WITH (modulus 0, remainder 0)", t, 1, &b, &why));
    assert_false(gc_part_bound_parse("FOR VALUES FROM (1) TO", t, 1, &b, &why));
    assert_false(gc_part_bound_parse("FOR VALUES FROM (1, 2) TO (3, 4)", t, 1, &b, &why));
}

static void every_type_in_one_range_bound_parses(void **state)
{
    (void)state;
    gc_keytype t[] = {GC_KEY_DATE, GC_KEY_TIMESTAMP, GC_KEY_UUID, GC_KEY_BYTEA, GC_KEY_BOOL,
                      GC_KEY_CHAR, GC_KEY_BPCHAR, GC_KEY_VARCHAR, GC_KEY_OID, GC_KEY_INT2,
                      GC_KEY_INT8};
    gc_part_bound b;
    parse_ok("FOR VALUES FROM ('2026-01-01', '2026-01-01 10:00:00.5', "
             "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '\\x0102', true, 'x', 'ab  ', 'q', "
             "'4000000000', '-3', '-9000000000') TO ('infinity', 'infinity', MAXVALUE, "
             "MAXVALUE, MAXVALUE, MAXVALUE, MAXVALUE, MAXVALUE, MAXVALUE, MAXVALUE, MAXVALUE)",
             t, 11, &b);
    assert_int_equal(b.kind, GC_BOUND_RANGE);
    assert_int_equal(b.lower[3].value.len, 2);
    assert_int_equal(b.lower[4].value.i, 1);
    assert_int_equal(b.lower[6].value.len, 2);
    assert_true(b.lower[8].value.i == 4000000000LL);
    assert_int_equal(b.lower[9].value.i, -3);
    assert_true(b.lower[10].value.i == -9000000000LL);
    assert_true(b.upper[1].value.i == INT64_MAX);
    assert_int_equal(b.upper[2].kind, GC_RANGE_MAXVALUE);
    gc_part_bound_free(&b);
}

static void timestamptz_and_numeric_bounds_as_printed(void **state)
{
    (void)state;
    gc_keytype tz[] = {GC_KEY_TIMESTAMPTZ}, num[] = {GC_KEY_NUMERIC};
    gc_part_bound b;
    parse_ok("FOR VALUES FROM ('2026-01-01 00:00:00+00') TO ('2026-02-01 07:00:00.5+00')", tz, 1, &b);
    gc_keyval k = key(GC_KEY_TIMESTAMPTZ, "2026-02-01 12:30:00.4+05:30");
    assert_true(gc_range_compare_key(b.upper, &k, 1) < 0);
    gc_keyval_free(&k);
    k = key(GC_KEY_TIMESTAMPTZ, "2026-02-01 12:30:00.5+05:30");   /* equal to upper */
    assert_int_equal(gc_range_compare_key(b.upper, &k, 1), 0);
    gc_keyval_free(&k);
    gc_part_bound_free(&b);
    /* numerics print quoted when negative, bare otherwise */
    parse_ok("FOR VALUES FROM ('-1.50') TO (2.25)", num, 1, &b);
    k = key(GC_KEY_NUMERIC, "-1.5");
    assert_int_equal(gc_range_compare_key(b.lower, &k, 1), 0);
    gc_keyval_free(&k);
    gc_part_bound_free(&b);
    /* an unquoted negative number and a cast are understood as well */
    parse_ok("FOR VALUES FROM (-5) TO ('7'::numeric(10,2))", num, 1, &b);
    gc_part_bound_free(&b);
}

static void list_bound_with_null_and_quotes(void **state)
{
    (void)state;
    gc_keytype t[] = {GC_KEY_TEXT};
    gc_part_bound b;
    parse_ok("FOR VALUES IN ('a', NULL, 'it''s')", t, 1, &b);
    assert_int_equal(b.kind, GC_BOUND_LIST);
    assert_true(b.has_null);
    assert_int_equal(b.nvalues, 2);
    assert_int_equal(b.values[1].len, 4);
    assert_memory_equal(b.values[1].data, "it's", 4);
    gc_part_bound_free(&b);
}

/* r_multi: (a int4, b text) with MINVALUE/MAXVALUE, as the server prints. */
static const char *const multi_bounds[] = {
    "FOR VALUES FROM (MINVALUE, MINVALUE) TO (10, 'm')",
    "FOR VALUES FROM (10, 'm') TO (20, MAXVALUE)",
    "FOR VALUES FROM (20, MAXVALUE) TO (30, 'b')",
    "DEFAULT",
};

static int choose_multi(const char *a, const char *b_text)
{
    gc_keytype t[] = {GC_KEY_INT4, GC_KEY_TEXT};
    gc_part_bound b[4];
    for (int i = 0; i < 4; i++)
        parse_ok(multi_bounds[i], t, 2, &b[i]);
    gc_keyval k[2] = {key(GC_KEY_INT4, a), key(GC_KEY_TEXT, b_text)};
    const char *why = NULL;
    int idx = gc_part_choose('r', b, 4, k, 2, &why);
    for (int i = 0; i < 4; i++)
        gc_part_bound_free(&b[i]);
    gc_keyval_free(&k[0]);
    gc_keyval_free(&k[1]);
    return idx;
}

static void range_lower_inclusive_upper_exclusive_multi_column(void **state)
{
    (void)state;
    assert_int_equal(choose_multi("-2147483648", ""), 0);
    assert_int_equal(choose_multi("10", "l"), 0);       /* (10,'l') < (10,'m') */
    assert_int_equal(choose_multi("10", "m"), 1);       /* lower bound inclusive */
    assert_int_equal(choose_multi("9", "zzz"), 0);      /* first column decides */
    assert_int_equal(choose_multi("20", "zzzz"), 1);    /* (20, MAXVALUE) upper */
    assert_int_equal(choose_multi("21", ""), 2);        /* (20, MAXVALUE) lower */
    assert_int_equal(choose_multi("30", "a"), 2);
    assert_int_equal(choose_multi("30", "b"), 3);       /* upper exclusive: DEFAULT */
    assert_int_equal(choose_multi("15", NULL), 3);      /* NULL goes to DEFAULT */
}

static void range_without_default_refuses_unplaced_rows(void **state)
{
    (void)state;
    gc_keytype t[] = {GC_KEY_INT4};
    gc_part_bound b[2];
    parse_ok("FOR VALUES FROM (MINVALUE) TO (0)", t, 1, &b[0]);
    parse_ok("FOR VALUES FROM (0) TO (100)", t, 1, &b[1]);
    const char *why = NULL;
    gc_keyval k = key(GC_KEY_INT4, "0");
    assert_int_equal(gc_part_choose('r', b, 2, &k, 1, &why), 1);
    gc_keyval_free(&k);
    k = key(GC_KEY_INT4, "100");
    assert_int_equal(gc_part_choose('r', b, 2, &k, 1, &why), -1);
    assert_non_null(why);
    gc_keyval_free(&k);
    k = key(GC_KEY_INT4, NULL);
    assert_int_equal(gc_part_choose('r', b, 2, &k, 1, &why), -1);
    gc_part_bound_free(&b[0]);
    gc_part_bound_free(&b[1]);
}

static void list_null_goes_to_null_partition_else_default(void **state)
{
    (void)state;
    gc_keytype t[] = {GC_KEY_TEXT};
    gc_part_bound b[3];
    parse_ok("FOR VALUES IN ('kr', 'jp')", t, 1, &b[0]);
    parse_ok("DEFAULT", t, 1, &b[1]);
    parse_ok("FOR VALUES IN (NULL, 'a')", t, 1, &b[2]);
    const char *why;
    gc_keyval k = key(GC_KEY_TEXT, "jp");
    assert_int_equal(gc_part_choose('l', b, 3, &k, 1, &why), 0);
    gc_keyval_free(&k);
    k = key(GC_KEY_TEXT, NULL);
    assert_int_equal(gc_part_choose('l', b, 3, &k, 1, &why), 2);
    k = key(GC_KEY_TEXT, "JP");
    assert_int_equal(gc_part_choose('l', b, 3, &k, 1, &why), 1);
    gc_keyval_free(&k);
    /* without a NULL partition, NULL goes to DEFAULT */
    k = key(GC_KEY_TEXT, NULL);
    assert_int_equal(gc_part_choose('l', b, 2, &k, 1, &why), 1);
    for (int i = 0; i < 3; i++)
        gc_part_bound_free(&b[i]);
}

static void hash_choice_follows_the_row_hash(void **state)
{
    (void)state;
    /* the design's vector: int4 1 -> row hash mod 8 = 0, mod 7 = 5 */
    gc_keytype t[] = {GC_KEY_INT4};
    gc_part_bound b[2];
    parse_ok("FOR VALUES WITH (modulus 7, remainder 4)", t, 1, &b[0]);
    parse_ok("FOR VALUES WITH (modulus 7, remainder 5)", t, 1, &b[1]);
    gc_keyval k = key(GC_KEY_INT4, "1");
    const char *why;
    assert_int_equal(gc_part_choose('h', b, 2, &k, 1, &why), 1);
    assert_int_equal(gc_part_choose('h', b, 1, &k, 1, &why), -1);
    gc_part_bound_free(&b[0]);
    gc_part_bound_free(&b[1]);
}

/* Parses n hash bounds "modulus m, remainder r" given as pairs. */
static void hash_bounds(const int *pairs, int n, gc_part_bound *b)
{
    gc_keytype t[] = {GC_KEY_INT8};
    char text[80];
    for (int i = 0; i < n; i++) {
        snprintf(text, sizeof text, "FOR VALUES WITH (modulus %d, remainder %d)", pairs[2 * i],
                 pairs[2 * i + 1]);
        parse_ok(text, t, 1, &b[i]);
    }
}

/* For keys 1..2000 the slots choose what trying each bound chooses, with
 * the same refusal for a remainder no partition takes. Returns how many
 * keys were refused. */
static int assert_slots_choose_like_the_bounds(const gc_part_bound *b, int n,
                                                const gc_hash_slots *slots)
{
    char text[24];
    int refused = 0;
    for (int v = 1; v <= 2000; v++) {
        snprintf(text, sizeof text, "%d", v);
        gc_keyval k = key(GC_KEY_INT8, text);
        const char *why_tried = NULL, *why_slotted = NULL;
        int tried = gc_part_choose('h', b, n, &k, 1, &why_tried);
        int slotted = gc_part_choose_slotted('h', b, n, slots, &k, 1, &why_slotted);
        assert_int_equal(slotted, tried);
        if (tried < 0) {
            assert_string_equal(why_slotted, why_tried);
            refused++;
        }
        gc_keyval_free(&k);
    }
    return refused;
}

static void hash_slots_choose_as_the_bounds_do(void **state)
{
    (void)state;
    /* PostgreSQL's mixed moduli: 2 / 4 / 8 over the same table, one
     * remainder of 8 left without a partition (a table being split). */
    const int mixed[] = {2, 0, 4, 1, 8, 3};    /* remainder 7 of 8: nobody */
    gc_part_bound b[3];
    hash_bounds(mixed, 3, b);
    gc_hash_slots slots;
    assert_true(gc_hash_slots_build(b, 3, &slots));
    assert_int_equal(slots.modulus, 8);
    const int expected[8] = {0, 1, 0, 2, 0, 1, 0, -1};
    for (int r = 0; r < 8; r++)
        assert_int_equal(slots.slot[r], expected[r]);
    assert_true(assert_slots_choose_like_the_bounds(b, 3, &slots) > 0);
    gc_hash_slots_free(&slots);
    for (int i = 0; i < 3; i++)
        gc_part_bound_free(&b[i]);

    /* The benchmark's layout: 12 shards of modulus 12. */
    int twelve[24];
    for (int i = 0; i < 12; i++)
        twelve[2 * i] = 12, twelve[2 * i + 1] = (i * 5) % 12;
    gc_part_bound t[12];
    hash_bounds(twelve, 12, t);
    assert_true(gc_hash_slots_build(t, 12, &slots));
    assert_int_equal(slots.modulus, 12);
    assert_int_equal(assert_slots_choose_like_the_bounds(t, 12, &slots), 0);
    gc_hash_slots_free(&slots);
    for (int i = 0; i < 12; i++)
        gc_part_bound_free(&t[i]);
}

static void hash_slots_not_built_where_they_would_not_hold(void **state)
{
    (void)state;
    gc_hash_slots slots;
    /* 3 does not divide 4: the bounds are tried one by one. */
    const int odd[] = {3, 0, 4, 1};
    gc_part_bound b[2];
    hash_bounds(odd, 2, b);
    assert_true(gc_hash_slots_build(b, 2, &slots));
    assert_int_equal(slots.modulus, 0);
    assert_null(slots.slot);
    assert_slots_choose_like_the_bounds(b, 2, &slots);
    gc_part_bound_free(&b[0]);
    gc_part_bound_free(&b[1]);
    /* More remainders than GC_HASH_SLOTS_MAX. */
    const int huge[] = {GC_HASH_SLOTS_MAX * 2, 5};
    hash_bounds(huge, 1, b);
    assert_true(gc_hash_slots_build(b, 1, &slots));
    assert_int_equal(slots.modulus, 0);
    gc_part_bound_free(&b[0]);
    /* A table without partitions has no slots either. */
    assert_true(gc_hash_slots_build(b, 0, &slots));
    assert_int_equal(slots.modulus, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hash_and_default_bounds_parse),
        cmocka_unit_test(every_type_in_one_range_bound_parses),
        cmocka_unit_test(timestamptz_and_numeric_bounds_as_printed),
        cmocka_unit_test(list_bound_with_null_and_quotes),
        cmocka_unit_test(range_lower_inclusive_upper_exclusive_multi_column),
        cmocka_unit_test(range_without_default_refuses_unplaced_rows),
        cmocka_unit_test(list_null_goes_to_null_partition_else_default),
        cmocka_unit_test(hash_choice_follows_the_row_hash),
        cmocka_unit_test(hash_slots_choose_as_the_bounds_do),
        cmocka_unit_test(hash_slots_not_built_where_they_would_not_hold),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
