/* Piecewise SQLGetData through gc_convert_value_to_c (the piece_offset
 * contract), NULL handling and how lengths and indicators are reported. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "convert/gc_convert.h"

/* ---- piecewise SQLGetData ---- */

typedef struct reader {
    Oid oid;
    const char *text;
    SQLSMALLINT c_type;
    size_t offset;
    SQLLEN len;
    _Alignas(16) unsigned char buf[64];
    char state[6];
} reader;

static SQLRETURN next_piece(reader *r, SQLLEN buflen)
{
    memset(r->buf, 0x5A, sizeof r->buf);
    gc_fetch_target t = { r->c_type, r->buf, buflen, &r->len, &r->len, 0, 0, 0, false, false };
    gc_error err;
    SQLRETURN rc = gc_convert_value_to_c(r->oid, r->text, strlen(r->text), false, &t,
                                         &r->offset, &err);
    memcpy(r->state, err.sqlstate, 6);
    return rc;
}

static void piecewise_char_returns_pieces_then_no_data(void **state)
{
    (void)state;
    reader r = { GC_OID_TEXT, "abcdefgh", SQL_C_CHAR, 0, 0, {0}, "" };
    assert_int_equal(next_piece(&r, 4), SQL_SUCCESS_WITH_INFO);
    assert_string_equal(r.state, "01004");
    assert_string_equal((char *)r.buf, "abc");
    assert_int_equal(r.len, 8);
    assert_int_equal(next_piece(&r, 4), SQL_SUCCESS_WITH_INFO);
    assert_string_equal((char *)r.buf, "def");
    assert_int_equal(r.len, 5);
    assert_int_equal(next_piece(&r, 4), SQL_SUCCESS);   /* "gh" fits */
    assert_string_equal((char *)r.buf, "gh");
    assert_int_equal(r.len, 2);
    assert_int_equal(next_piece(&r, 4), SQL_NO_DATA);
}

static void piecewise_exact_fit_finishes_in_one_call(void **state)
{
    (void)state;
    reader r = { GC_OID_TEXT, "abc", SQL_C_CHAR, 0, 0, {0}, "" };
    assert_int_equal(next_piece(&r, 4), SQL_SUCCESS);
    assert_string_equal((char *)r.buf, "abc");
    assert_int_equal(r.len, 3);
    assert_int_equal(next_piece(&r, 4), SQL_NO_DATA);
}

static void piecewise_nul_only_buffer_makes_no_progress_but_reports_length(void **state)
{
    (void)state;
    reader r = { GC_OID_TEXT, "abc", SQL_C_CHAR, 0, 0, {0}, "" };
    assert_int_equal(next_piece(&r, 1), SQL_SUCCESS_WITH_INFO);
    assert_string_equal(r.state, "01004");
    assert_int_equal(r.buf[0], 0);
    assert_int_equal(r.len, 3);
    assert_int_equal(r.offset, 0);
    assert_int_equal(next_piece(&r, 0), SQL_SUCCESS_WITH_INFO);   /* length only */
    assert_int_equal(r.buf[0], 0x5A);
    assert_int_equal(r.len, 3);
    assert_int_equal(next_piece(&r, 10), SQL_SUCCESS);
    assert_string_equal((char *)r.buf, "abc");
}

static void piecewise_empty_value_returns_once_then_no_data(void **state)
{
    (void)state;
    reader r = { GC_OID_TEXT, "", SQL_C_CHAR, 0, 0, {0}, "" };
    assert_int_equal(next_piece(&r, 10), SQL_SUCCESS);
    assert_int_equal(r.len, 0);
    assert_string_equal((char *)r.buf, "");
    assert_int_equal(next_piece(&r, 10), SQL_NO_DATA);
}

static void piecewise_wchar_counts_bytes(void **state)
{
    (void)state;
    reader r = { GC_OID_VARCHAR, "abcde", SQL_C_WCHAR, 0, 0, {0}, "" };
    assert_int_equal(next_piece(&r, 6), SQL_SUCCESS_WITH_INFO);   /* 2 units + NUL */
    assert_int_equal(r.len, 10);
    assert_int_equal(((uint16_t *)r.buf)[1], 'b');
    assert_int_equal(((uint16_t *)r.buf)[2], 0);
    assert_int_equal(next_piece(&r, 6), SQL_SUCCESS_WITH_INFO);
    assert_int_equal(r.len, 6);
    assert_int_equal(((uint16_t *)r.buf)[0], 'c');
    assert_int_equal(next_piece(&r, 6), SQL_SUCCESS);
    assert_int_equal(r.len, 2);
    assert_int_equal(((uint16_t *)r.buf)[0], 'e');
    assert_int_equal(next_piece(&r, 6), SQL_NO_DATA);
}

static void piecewise_binary_has_no_terminator(void **state)
{
    (void)state;
    reader r = { GC_OID_BYTEA, "\\x0102030405", SQL_C_BINARY, 0, 0, {0}, "" };
    assert_int_equal(next_piece(&r, 2), SQL_SUCCESS_WITH_INFO);
    assert_string_equal(r.state, "01004");
    assert_int_equal(r.len, 5);
    assert_int_equal(r.buf[0], 1);
    assert_int_equal(r.buf[1], 2);
    assert_int_equal(r.buf[2], 0x5A);
    assert_int_equal(next_piece(&r, 2), SQL_SUCCESS_WITH_INFO);
    assert_int_equal(r.len, 3);
    assert_int_equal(r.buf[0], 3);
    assert_int_equal(next_piece(&r, 2), SQL_SUCCESS);   /* the last byte fits */
    assert_int_equal(r.len, 1);
    assert_int_equal(r.buf[0], 5);
    assert_int_equal(r.buf[1], 0x5A);
    assert_int_equal(next_piece(&r, 2), SQL_NO_DATA);
}

static void piecewise_binary_exact_fit_is_success(void **state)
{
    (void)state;
    reader r = { GC_OID_BYTEA, "\\x0102", SQL_C_BINARY, 0, 0, {0}, "" };
    assert_int_equal(next_piece(&r, 2), SQL_SUCCESS);
    assert_int_equal(r.len, 2);
    assert_int_equal(next_piece(&r, 2), SQL_NO_DATA);
}

static void fixed_size_value_then_no_data(void **state)
{
    (void)state;
    reader r = { GC_OID_INT4, "7", SQL_C_SLONG, 0, 0, {0}, "" };
    assert_int_equal(next_piece(&r, 0), SQL_SUCCESS);
    assert_int_equal(*(SQLINTEGER *)r.buf, 7);
    assert_int_equal(next_piece(&r, 0), SQL_NO_DATA);
}

/* ---- NULL ---- */

static void null_sets_indicator_then_no_data(void **state)
{
    (void)state;
    SQLLEN ind = 0;
    SQLINTEGER v = 5;
    size_t offset = 0;
    gc_fetch_target t = { SQL_C_SLONG, &v, 0, &ind, &ind, 0, 0, 0, false, false };
    gc_error err;
    assert_int_equal(gc_convert_value_to_c(GC_OID_INT4, NULL, 0, true, &t, &offset, &err),
                     SQL_SUCCESS);
    assert_int_equal(ind, SQL_NULL_DATA);
    assert_int_equal(v, 5);
    assert_int_equal(gc_convert_value_to_c(GC_OID_INT4, NULL, 0, true, &t, &offset, &err),
                     SQL_NO_DATA);
}

static void null_without_indicator_gives_22002(void **state)
{
    (void)state;
    SQLLEN len = 0;
    char buf[8];
    gc_fetch_target t = { SQL_C_CHAR, buf, 8, &len, NULL, 0, 0, 0, false, false };
    gc_error err;
    assert_int_equal(gc_convert_value_to_c(GC_OID_TEXT, NULL, 0, true, &t, NULL, &err),
                     SQL_ERROR);
    assert_string_equal(err.sqlstate, "22002");
}

static void separate_indicator_gets_zero_for_data(void **state)
{
    (void)state;
    SQLLEN len = -1, ind = -1;
    char buf[8];
    gc_fetch_target t = { SQL_C_CHAR, buf, 8, &len, &ind, 0, 0, 0, false, false };
    gc_error err;
    assert_int_equal(gc_convert_value_to_c(GC_OID_TEXT, "xy", 2, false, &t, NULL, &err),
                     SQL_SUCCESS);
    assert_int_equal(len, 2);
    assert_int_equal(ind, 0);
}

static void null_buffer_reports_length_only(void **state)
{
    (void)state;
    SQLLEN len = -1;
    gc_fetch_target t = { SQL_C_SLONG, NULL, 0, &len, &len, 0, 0, 0, false, false };
    gc_error err;
    assert_int_equal(gc_convert_value_to_c(GC_OID_INT4, "12", 2, false, &t, NULL, &err),
                     SQL_SUCCESS);
    assert_int_equal(len, 4);
    t.c_type = SQL_C_CHAR;
    assert_int_equal(gc_convert_value_to_c(GC_OID_TEXT, "hello", 5, false, &t, NULL, &err),
                     SQL_SUCCESS_WITH_INFO);
    assert_int_equal(len, 5);
}

/* Each piece of a hex bytea decodes only its own bytes (reading a long value
 * in small pieces stays linear): a bad digit is found by the piece that
 * holds it, and every piece reports what remains. */
static void bytea_pieces_decode_only_their_bytes(void **state)
{
    (void)state;
    reader r = { GC_OID_BYTEA, "\\x0102030405zz07", SQL_C_BINARY, 0, 0, {0}, "" };
    assert_int_equal(next_piece(&r, 3), SQL_SUCCESS_WITH_INFO);
    assert_string_equal(r.state, "01004");
    assert_int_equal(r.len, 7);
    assert_memory_equal(r.buf, "\x01\x02\x03", 3);
    assert_int_equal(next_piece(&r, 2), SQL_SUCCESS_WITH_INFO);
    assert_int_equal(r.len, 4);
    assert_memory_equal(r.buf, "\x04\x05", 2);
    assert_int_equal(next_piece(&r, 2), SQL_ERROR);
    assert_string_equal(r.state, "22018");
    reader odd = { GC_OID_BYTEA, "\\x010", SQL_C_BINARY, 0, 0, {0}, "" };
    assert_int_equal(next_piece(&odd, 8), SQL_ERROR);
    assert_string_equal(odd.state, "22018");
    reader whole = { GC_OID_BYTEA, "\\xff00", SQL_C_BINARY, 0, 0, {0}, "" };
    assert_int_equal(next_piece(&whole, 0), SQL_SUCCESS_WITH_INFO);   /* length only */
    assert_int_equal(whole.len, 2);
    assert_int_equal(next_piece(&whole, 8), SQL_SUCCESS);
    assert_int_equal(whole.len, 2);
    assert_memory_equal(whole.buf, "\xff\x00", 2);
    assert_int_equal(next_piece(&whole, 8), SQL_NO_DATA);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(piecewise_char_returns_pieces_then_no_data),
        cmocka_unit_test(piecewise_exact_fit_finishes_in_one_call),
        cmocka_unit_test(piecewise_nul_only_buffer_makes_no_progress_but_reports_length),
        cmocka_unit_test(piecewise_empty_value_returns_once_then_no_data),
        cmocka_unit_test(piecewise_wchar_counts_bytes),
        cmocka_unit_test(piecewise_binary_has_no_terminator),
        cmocka_unit_test(piecewise_binary_exact_fit_is_success),
        cmocka_unit_test(fixed_size_value_then_no_data),
        cmocka_unit_test(null_sets_indicator_then_no_data),
        cmocka_unit_test(null_without_indicator_gives_22002),
        cmocka_unit_test(separate_indicator_gets_zero_for_data),
        cmocka_unit_test(null_buffer_reports_length_only),
        cmocka_unit_test(bytea_pieces_decode_only_their_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
