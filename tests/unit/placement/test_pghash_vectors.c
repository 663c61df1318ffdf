/* Placement hashes against the test vectors of the design notes
 * (pg-hash-partitioning.md), which were taken from a PostgreSQL 15 server,
 * and the equalities the server's hashes promise. No server needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "placement/gc_pghash.h"

#define SEED GC_PGHASH_PARTITION_SEED

/* H of numeric text, failing the test when the text is refused. */
static uint64_t numeric_hash(const char *text)
{
    uint64_t h = 0;
    assert_true(gc_pghash_numeric_text(text, strlen(text), SEED, &h));
    return h;
}

static void int4_hashes_match_server_vectors(void **state)
{
    (void)state;
    assert_int_equal(gc_pghash_int4(0, SEED), UINT64_C(0xc2e34bda39f0f0cd));
    assert_int_equal(gc_pghash_int4(1, SEED), UINT64_C(0x52d621058124e6d5));
    assert_int_equal(gc_pghash_int4(-1, SEED), UINT64_C(0xba5fc748095606c2));
    assert_int_equal(gc_pghash_int4(1, 0), UINT64_C(0xcd0f69c48e731746));
}

static void int8_of_two_to_the_32_hashes_as_int4_one(void **state)
{
    (void)state;
    assert_int_equal(gc_pghash_int8(INT64_C(1) << 32, SEED), UINT64_C(0x52d621058124e6d5));
}

static void int8_and_int2_in_int32_range_hash_as_int4(void **state)
{
    (void)state;
    static const int32_t values[] = { 0, 1, -1, 7305, -7305, INT32_MAX, INT32_MIN, 123456789 };
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        assert_int_equal(gc_pghash_int8(values[i], SEED), gc_pghash_int4(values[i], SEED));
    for (int v = INT16_MIN; v <= INT16_MAX; v += 97)
        assert_int_equal(gc_pghash_int2((int16_t)v, SEED), gc_pghash_int4(v, SEED));
    /* Outside int32 range the high word matters. */
    assert_int_not_equal(gc_pghash_int8(INT64_C(3) << 32, SEED), gc_pghash_int8(INT64_C(1) << 32, SEED));
}

static void text_hashes_match_server_vectors(void **state)
{
    (void)state;
    assert_int_equal(gc_pghash_text("", 0, SEED), UINT64_C(0xb0e33d0b543fbfc3));
    assert_int_equal(gc_pghash_text("hello", 5, SEED), UINT64_C(0xdb6d9b35c2a082b1));
    assert_int_equal(gc_pghash_text("hello", 5, 0), UINT64_C(0x2fdf4f9b90859829));
    assert_int_equal(gc_pghash_text("abcdefghijklmnopqrstuvwxyz", 26, SEED),
                     UINT64_C(0x9c7a73cc5c301158));
}

/* Values read from a PostgreSQL 15 server for every tail length the block
 * loop can leave in c (9, 10, 11 bytes) and for an exact block (12). */
static void text_tail_lengths_match_server(void **state)
{
    (void)state;
    assert_int_equal(gc_pghash_text("hello wor", 9, SEED), UINT64_C(0xf319dbb31c1dfc15));
    assert_int_equal(gc_pghash_text("hello worl", 10, SEED), UINT64_C(0x96ddcfdb80d8bbb6));
    assert_int_equal(gc_pghash_text("hello world", 11, SEED), UINT64_C(0x6a5d0d0ef960c4a5));
    assert_int_equal(gc_pghash_text("0123456789ab", 12, SEED), UINT64_C(0xb1d26be6f1fd0f49));
}

/* Server values for int8 outside int32 range, both signs, and a negative
 * numeric in 'e' notation with a negative weight. */
static void wide_int8_and_exponent_numeric_match_server(void **state)
{
    (void)state;
    assert_int_equal(gc_pghash_int8(INT64_C(-5000000000), SEED), UINT64_C(0xc1cc60e5d71103e8));
    assert_int_equal(gc_pghash_int8(INT64_C(9000000000), SEED), UINT64_C(0x39b9a4d9dc4da790));
    assert_int_equal(numeric_hash("-12345678.9e-20"), UINT64_C(0xc02f9e54e330ed2e));
}

static void bpchar_ignores_trailing_spaces_only(void **state)
{
    (void)state;
    assert_int_equal(gc_pghash_bpchar("ab  ", 4, SEED), UINT64_C(0x0845730e49baf33d));
    assert_int_equal(gc_pghash_bpchar("ab", 2, SEED), UINT64_C(0x0845730e49baf33d));
    assert_int_equal(gc_pghash_bpchar("ab", 2, SEED), gc_pghash_text("ab", 2, SEED));
    assert_int_equal(gc_pghash_bpchar("   ", 3, SEED), gc_pghash_text("", 0, SEED));
    /* Leading spaces and trailing tabs are data. */
    assert_int_not_equal(gc_pghash_bpchar(" ab", 3, SEED), gc_pghash_bpchar("ab", 2, SEED));
    assert_int_not_equal(gc_pghash_bpchar("ab\t", 3, SEED), gc_pghash_bpchar("ab", 2, SEED));
}

static void uuid_hash_matches_server_vector(void **state)
{
    (void)state;
    static const unsigned char u[16] = { 0xa0, 0xee, 0xbc, 0x99, 0x9c, 0x0b, 0x4e, 0xf8,
                                         0xbb, 0x6d, 0x6b, 0xb9, 0xbd, 0x38, 0x0a, 0x11 };
    assert_int_equal(gc_pghash_uuid(u, SEED), UINT64_C(0x05e42c7f7f75bced));
}

static void oid_and_date_hashes_match_server_vectors(void **state)
{
    (void)state;
    assert_int_equal(gc_pghash_oid(UINT32_C(4000000000), SEED), UINT64_C(0xc65593ebe827fa52));
    assert_int_equal(gc_pghash_date(7305, SEED), UINT64_C(0xd546afc337d40733));
}

static void numeric_hashes_match_server_vectors(void **state)
{
    (void)state;
    assert_int_equal(numeric_hash("1.5"), UINT64_C(0x11203748b4839213));
    assert_int_equal(numeric_hash("0"), UINT64_C(0x7a5b22367996dcfc));
    assert_int_equal(numeric_hash("12345.678"), UINT64_C(0xc8430ff7f9fd0188));
    assert_int_equal(numeric_hash("0.00012"), UINT64_C(0x2aa5ca40361a3a28));
    assert_int_equal(numeric_hash("NaN"), UINT64_C(0x7a5b22367996dcfd));
}

static void numeric_sign_and_scale_are_not_hashed(void **state)
{
    (void)state;
    uint64_t h = numeric_hash("1.5");
    assert_int_equal(numeric_hash("-1.50"), h);
    assert_int_equal(numeric_hash("+1.500000"), h);
    assert_int_equal(numeric_hash("15e-1"), h);
    assert_int_equal(numeric_hash("0.15E1"), h);
    assert_int_equal(numeric_hash("  1.5\t"), h);
}

static void numeric_zero_in_any_form_hashes_as_seed_minus_one(void **state)
{
    (void)state;
    static const char *zeros[] = { "0", "0.000", "-0", "+0.0", "000", ".0", "0.", "0e5", "-0.0e-3" };
    for (size_t i = 0; i < sizeof zeros / sizeof zeros[0]; i++)
        assert_int_equal(numeric_hash(zeros[i]), SEED - 1);
    uint64_t h = 0;
    assert_true(gc_pghash_numeric_text("0", 1, 100, &h));
    assert_int_equal(h, 99);
}

static void numeric_special_values_hash_as_the_seed(void **state)
{
    (void)state;
    static const char *specials[] = { "NaN", "nan", "Infinity", "-Infinity", "+inf", "-INF", " infinity " };
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++)
        assert_int_equal(numeric_hash(specials[i]), SEED);
}

static void numeric_leading_and_trailing_zero_digits_are_stripped(void **state)
{
    (void)state;
    assert_int_equal(numeric_hash("0012345.67800"), numeric_hash("12345.678"));
    assert_int_equal(numeric_hash("00000.000120000"), numeric_hash("0.00012"));
    assert_int_equal(numeric_hash("1.2345678e4"), numeric_hash("12345.678"));
    /* Trailing zeros of the integer part are digits of their groups: 10000
     * is the base-10000 digit 1 with weight 1, unlike 1 with weight 0. */
    assert_int_not_equal(numeric_hash("10000"), numeric_hash("1"));
    assert_int_equal(numeric_hash("10000"), numeric_hash("1e4"));
    assert_int_equal(numeric_hash("10000.0000"), numeric_hash("1e4"));
    /* Base-10000 digit boundaries sit at the decimal point. */
    assert_int_not_equal(numeric_hash("1234.5"), numeric_hash("12345"));
}

static void numeric_rejects_text_the_server_rejects(void **state)
{
    (void)state;
    static const char *bad[] = { "", " ", ".", "-", "abc", "1e", "1e+", "1.2.3", "1 2", "-NaN",
                                 "1e1001", "0x10", "1_000", "++1", "Infinityx" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t h = 42;
        assert_false(gc_pghash_numeric_text(bad[i], strlen(bad[i]), SEED, &h));
        assert_int_equal(h, 42);
    }
}

static void char_and_bool_hash_as_int4(void **state)
{
    (void)state;
    assert_int_equal(gc_pghash_bool(true, SEED), gc_pghash_int4(1, SEED));
    assert_int_equal(gc_pghash_bool(false, SEED), gc_pghash_int4(0, SEED));
    assert_int_equal(gc_pghash_char('a', SEED), gc_pghash_int4('a', SEED));
    assert_int_equal(gc_pghash_char((char)0x80, SEED), gc_pghash_int4(-128, SEED));
}

static void stream_in_pieces_equals_one_shot(void **state)
{
    (void)state;
    unsigned char buf[64];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)(i * 37 + 11);
    for (size_t len = 0; len <= sizeof buf; len++) {
        for (size_t piece = 1; piece <= 13; piece++) {
            gc_pghash_stream s;
            gc_pghash_stream_start(&s, len, SEED);
            for (size_t off = 0; off < len; off += piece)
                gc_pghash_stream_feed(&s, buf + off, off + piece > len ? len - off : piece);
            assert_int_equal(gc_pghash_stream_finish(&s), gc_pghash_bytes(buf, len, SEED));
        }
    }
}

static void row_hash_of_single_int4_key_matches_server(void **state)
{
    (void)state;
    uint64_t h = gc_pghash_int4(1, SEED);
    uint64_t row = gc_pghash_row(&h, NULL, 1);
    assert_int_equal(row, UINT64_C(0x9c7715e2970a8fb8));
    assert_int_equal(row, h + UINT64_C(0x49a0f4dd15e5a8e3));
    assert_true(gc_pghash_in_partition(row, 8, 0));
    assert_true(gc_pghash_in_partition(row, 7, 5));
    assert_false(gc_pghash_in_partition(row, 8, 1));
}

static void row_hash_of_three_column_key_matches_server(void **state)
{
    (void)state;
    uint64_t h[3] = { gc_pghash_int8(1, SEED), gc_pghash_text("x", 1, SEED),
                      gc_pghash_date(7305, SEED) };
    uint64_t row = gc_pghash_row(h, NULL, 3);
    assert_int_equal(row, UINT64_C(0x76bd3c0cdf64b8bc));
    assert_int_equal(row % 11, 4);
    assert_int_equal(gc_pghash_combine(gc_pghash_combine(gc_pghash_combine(0, h[0]), h[1]), h[2]), row);
}

static void row_hash_skips_null_columns(void **state)
{
    (void)state;
    uint64_t h[3] = { gc_pghash_int8(1, SEED), gc_pghash_text("x", 1, SEED),
                      gc_pghash_date(7305, SEED) };
    bool nulls[3] = { false, true, false };
    assert_int_equal(gc_pghash_row(h, nulls, 3),
                     gc_pghash_combine(gc_pghash_combine(0, h[0]), h[2]));
    bool all_null[3] = { true, true, true };
    assert_int_equal(gc_pghash_row(h, all_null, 3), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(int4_hashes_match_server_vectors),
        cmocka_unit_test(int8_of_two_to_the_32_hashes_as_int4_one),
        cmocka_unit_test(int8_and_int2_in_int32_range_hash_as_int4),
        cmocka_unit_test(text_hashes_match_server_vectors),
        cmocka_unit_test(text_tail_lengths_match_server),
        cmocka_unit_test(wide_int8_and_exponent_numeric_match_server),
        cmocka_unit_test(bpchar_ignores_trailing_spaces_only),
        cmocka_unit_test(uuid_hash_matches_server_vector),
        cmocka_unit_test(oid_and_date_hashes_match_server_vectors),
        cmocka_unit_test(numeric_hashes_match_server_vectors),
        cmocka_unit_test(numeric_sign_and_scale_are_not_hashed),
        cmocka_unit_test(numeric_zero_in_any_form_hashes_as_seed_minus_one),
        cmocka_unit_test(numeric_special_values_hash_as_the_seed),
        cmocka_unit_test(numeric_leading_and_trailing_zero_digits_are_stripped),
        cmocka_unit_test(numeric_rejects_text_the_server_rejects),
        cmocka_unit_test(char_and_bool_hash_as_int4),
        cmocka_unit_test(stream_in_pieces_equals_one_shot),
        cmocka_unit_test(row_hash_of_single_int4_key_matches_server),
        cmocka_unit_test(row_hash_of_three_column_key_matches_server),
        cmocka_unit_test(row_hash_skips_null_columns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
