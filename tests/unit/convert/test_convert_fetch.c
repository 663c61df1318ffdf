/* Result conversion (gc_convert_value_to_c): every C type from every
 * PostgreSQL type family, the SQLSTATE of every failure, and piecewise reads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "convert/gc_convert.h"

/* Converts text of type oid into c_type with a buffer of buflen bytes;
 * returns the SQLRETURN and leaves the SQLSTATE in *state. */
typedef struct fetch {
    SQLRETURN rc;
    SQLLEN len;
    char state[6];
    _Alignas(16) unsigned char buf[64];
} fetch;

static fetch conv_full(Oid oid, const char *text, SQLSMALLINT c_type, SQLLEN buflen,
                       SQLSMALLINT precision, SQLSMALLINT scale)
{
    fetch f;
    memset(&f, 0, sizeof f);
    memset(f.buf, 0x5A, sizeof f.buf);
    f.len = -999;
    gc_fetch_target t = { c_type, f.buf, buflen, &f.len, &f.len, precision, scale, 0, false, false };
    gc_error err;
    f.rc = gc_convert_value_to_c(oid, text, strlen(text), false, &t, NULL, &err);
    memcpy(f.state, err.sqlstate, 6);
    return f;
}

static fetch conv(Oid oid, const char *text, SQLSMALLINT c_type)
{
    return conv_full(oid, text, c_type, 64, 0, 0);
}

#define assert_ok(f) do { assert_int_equal((f).rc, SQL_SUCCESS); assert_string_equal((f).state, ""); } while (0)
#define assert_state(f, rcv, st) do { assert_int_equal((f).rc, rcv); assert_string_equal((f).state, st); } while (0)

/* ---- integers ---- */

static void int4_text_fills_every_integer_c_type(void **state)
{
    (void)state;
    fetch f = conv(GC_OID_INT4, "-42", SQL_C_SLONG);
    assert_ok(f);
    assert_int_equal(*(SQLINTEGER *)f.buf, -42);
    assert_int_equal(f.len, 4);
    f = conv(GC_OID_INT4, "-42", SQL_C_SSHORT);
    assert_ok(f);
    assert_int_equal(*(SQLSMALLINT *)f.buf, -42);
    assert_int_equal(f.len, 2);
    f = conv(GC_OID_INT4, "-42", SQL_C_STINYINT);
    assert_ok(f);
    assert_int_equal(*(SQLSCHAR *)f.buf, -42);
    f = conv(GC_OID_INT4, "200", SQL_C_UTINYINT);
    assert_ok(f);
    assert_int_equal(*(SQLCHAR *)f.buf, 200);
    f = conv(GC_OID_INT4, "65535", SQL_C_USHORT);
    assert_ok(f);
    assert_int_equal(*(SQLUSMALLINT *)f.buf, 65535);
    f = conv(GC_OID_INT8, "4294967295", SQL_C_ULONG);
    assert_ok(f);
    assert_int_equal(*(SQLUINTEGER *)f.buf, 4294967295u);
    f = conv(GC_OID_INT8, "-7", SQL_C_SBIGINT);
    assert_ok(f);
    assert_int_equal(*(SQLBIGINT *)f.buf, -7);
    assert_int_equal(f.len, 8);
    f = conv(GC_OID_INT8, "18", SQL_C_UBIGINT);
    assert_ok(f);
    assert_int_equal(*(SQLUBIGINT *)f.buf, 18);
}

static void odbc2_integer_aliases_are_signed_types(void **state)
{
    (void)state;
    fetch f = conv(GC_OID_INT4, "-5", SQL_C_LONG);
    assert_ok(f);
    assert_int_equal(*(SQLINTEGER *)f.buf, -5);
    f = conv(GC_OID_INT2, "-5", SQL_C_SHORT);
    assert_ok(f);
    assert_int_equal(*(SQLSMALLINT *)f.buf, -5);
    f = conv(GC_OID_INT2, "-5", SQL_C_TINYINT);
    assert_ok(f);
    assert_int_equal(*(SQLSCHAR *)f.buf, -5);
}

static void int8_extremes_convert_exactly(void **state)
{
    (void)state;
    fetch f = conv(GC_OID_INT8, "-9223372036854775808", SQL_C_SBIGINT);
    assert_ok(f);
    assert_true(*(SQLBIGINT *)f.buf == INT64_MIN);
    f = conv(GC_OID_INT8, "9223372036854775807", SQL_C_SBIGINT);
    assert_ok(f);
    assert_true(*(SQLBIGINT *)f.buf == INT64_MAX);
    f = conv(GC_OID_NUMERIC, "18446744073709551615", SQL_C_UBIGINT);
    assert_ok(f);
    assert_true(*(SQLUBIGINT *)f.buf == UINT64_MAX);
}

static void integers_out_of_range_give_22003(void **state)
{
    (void)state;
    assert_state(conv(GC_OID_NUMERIC, "9223372036854775808", SQL_C_SBIGINT), SQL_ERROR, "22003");
    assert_state(conv(GC_OID_NUMERIC, "-9223372036854775809", SQL_C_SBIGINT), SQL_ERROR, "22003");
    assert_state(conv(GC_OID_NUMERIC, "18446744073709551616", SQL_C_UBIGINT), SQL_ERROR, "22003");
    assert_state(conv(GC_OID_INT4, "-1", SQL_C_ULONG), SQL_ERROR, "22003");
    assert_state(conv(GC_OID_INT4, "-1", SQL_C_UBIGINT), SQL_ERROR, "22003");
    assert_state(conv(GC_OID_INT4, "128", SQL_C_STINYINT), SQL_ERROR, "22003");
    assert_state(conv(GC_OID_INT4, "-129", SQL_C_STINYINT), SQL_ERROR, "22003");
    assert_state(conv(GC_OID_INT4, "256", SQL_C_UTINYINT), SQL_ERROR, "22003");
    assert_state(conv(GC_OID_INT4, "32768", SQL_C_SSHORT), SQL_ERROR, "22003");
    assert_state(conv(GC_OID_INT4, "65536", SQL_C_USHORT), SQL_ERROR, "22003");
    assert_state(conv(GC_OID_INT8, "2147483648", SQL_C_SLONG), SQL_ERROR, "22003");
    assert_state(conv(GC_OID_FLOAT8, "1e+100", SQL_C_SBIGINT), SQL_ERROR, "22003");
    assert_state(conv(GC_OID_FLOAT8, "NaN", SQL_C_SLONG), SQL_ERROR, "22003");
    assert_state(conv(GC_OID_NUMERIC, "Infinity", SQL_C_SLONG), SQL_ERROR, "22003");
}

static void fractions_to_integers_truncate_with_01S07(void **state)
{
    (void)state;
    fetch f = conv(GC_OID_NUMERIC, "12.75", SQL_C_SLONG);
    assert_state(f, SQL_SUCCESS_WITH_INFO, "01S07");
    assert_int_equal(*(SQLINTEGER *)f.buf, 12);
    f = conv(GC_OID_FLOAT8, "-2.5", SQL_C_SSHORT);
    assert_state(f, SQL_SUCCESS_WITH_INFO, "01S07");
    assert_int_equal(*(SQLSMALLINT *)f.buf, -2);
    f = conv(GC_OID_NUMERIC, "-0.5", SQL_C_ULONG);   /* truncates to 0: in range */
    assert_state(f, SQL_SUCCESS_WITH_INFO, "01S07");
    assert_int_equal(*(SQLUINTEGER *)f.buf, 0);
    f = conv(GC_OID_NUMERIC, "12.000", SQL_C_SLONG);  /* zeros lose nothing */
    assert_ok(f);
    assert_int_equal(*(SQLINTEGER *)f.buf, 12);
    f = conv(GC_OID_FLOAT8, "1.5e+2", SQL_C_SLONG);
    assert_ok(f);
    assert_int_equal(*(SQLINTEGER *)f.buf, 150);
}

static void text_to_integer_parses_or_gives_22018(void **state)
{
    (void)state;
    fetch f = conv(GC_OID_TEXT, "  123  ", SQL_C_SLONG);
    assert_ok(f);
    assert_int_equal(*(SQLINTEGER *)f.buf, 123);
    f = conv(GC_OID_BPCHAR, "+7   ", SQL_C_SLONG);
    assert_ok(f);
    assert_int_equal(*(SQLINTEGER *)f.buf, 7);
    assert_state(conv(GC_OID_TEXT, "12abc", SQL_C_SLONG), SQL_ERROR, "22018");
    assert_state(conv(GC_OID_VARCHAR, "", SQL_C_SLONG), SQL_ERROR, "22018");
    assert_state(conv(GC_OID_TEXT, "1.2.3", SQL_C_DOUBLE), SQL_ERROR, "22018");
    assert_state(conv(GC_OID_TEXT, "0x10", SQL_C_DOUBLE), SQL_ERROR, "22018");
}

static void bool_to_numbers_is_one_or_zero(void **state)
{
    (void)state;
    fetch f = conv(GC_OID_BOOL, "t", SQL_C_SLONG);
    assert_ok(f);
    assert_int_equal(*(SQLINTEGER *)f.buf, 1);
    f = conv(GC_OID_BOOL, "f", SQL_C_UTINYINT);
    assert_ok(f);
    assert_int_equal(*(SQLCHAR *)f.buf, 0);
    f = conv(GC_OID_BOOL, "t", SQL_C_DOUBLE);
    assert_ok(f);
    assert_true(*(SQLDOUBLE *)f.buf == 1.0);
    f = conv_full(GC_OID_BOOL, "t", SQL_C_NUMERIC, 64, 5, 0);
    assert_ok(f);
    assert_int_equal(((SQL_NUMERIC_STRUCT *)f.buf)->val[0], 1);
}

/* ---- BIT ---- */

static void bit_accepts_zero_and_one_only(void **state)
{
    (void)state;
    fetch f = conv(GC_OID_BOOL, "t", SQL_C_BIT);
    assert_ok(f);
    assert_int_equal(f.buf[0], 1);
    assert_int_equal(f.len, 1);
    f = conv(GC_OID_BOOL, "f", SQL_C_BIT);
    assert_ok(f);
    assert_int_equal(f.buf[0], 0);
    f = conv(GC_OID_INT4, "1", SQL_C_BIT);
    assert_ok(f);
    assert_int_equal(f.buf[0], 1);
    f = conv(GC_OID_NUMERIC, "1.5", SQL_C_BIT);
    assert_state(f, SQL_SUCCESS_WITH_INFO, "01S07");
    assert_int_equal(f.buf[0], 1);
    f = conv(GC_OID_FLOAT8, "0.25", SQL_C_BIT);
    assert_state(f, SQL_SUCCESS_WITH_INFO, "01S07");
    assert_int_equal(f.buf[0], 0);
    assert_state(conv(GC_OID_INT4, "2", SQL_C_BIT), SQL_ERROR, "22003");
    assert_state(conv(GC_OID_INT4, "-1", SQL_C_BIT), SQL_ERROR, "22003");
    assert_state(conv(GC_OID_NUMERIC, "-0.5", SQL_C_BIT), SQL_ERROR, "22003");
    assert_state(conv(GC_OID_TEXT, "yes", SQL_C_BIT), SQL_ERROR, "22018");
    assert_state(conv(GC_OID_DATE, "2020-01-01", SQL_C_BIT), SQL_ERROR, "07006");
}

/* ---- floating point ---- */

static void floats_read_as_float_and_double(void **state)
{
    (void)state;
    fetch f = conv(GC_OID_FLOAT8, "1.5", SQL_C_DOUBLE);
    assert_ok(f);
    assert_true(*(SQLDOUBLE *)f.buf == 1.5);
    assert_int_equal(f.len, 8);
    f = conv(GC_OID_FLOAT4, "0.1", SQL_C_FLOAT);
    assert_ok(f);
    assert_true(*(SQLREAL *)f.buf == 0.1f);
    assert_int_equal(f.len, 4);
    f = conv(GC_OID_FLOAT8, "1e+100", SQL_C_DOUBLE);
    assert_ok(f);
    assert_true(*(SQLDOUBLE *)f.buf == 1e100);
    f = conv(GC_OID_FLOAT8, "NaN", SQL_C_DOUBLE);
    assert_ok(f);
    assert_true(isnan(*(SQLDOUBLE *)f.buf));
    f = conv(GC_OID_FLOAT8, "-Infinity", SQL_C_DOUBLE);
    assert_ok(f);
    assert_true(isinf(*(SQLDOUBLE *)f.buf) && *(SQLDOUBLE *)f.buf < 0);
    f = conv(GC_OID_INT8, "9007199254740993", SQL_C_DOUBLE);
    assert_ok(f);
    assert_true(*(SQLDOUBLE *)f.buf == 9007199254740992.0);
    f = conv(GC_OID_NUMERIC, "123.456", SQL_C_DOUBLE);
    assert_ok(f);
    assert_true(*(SQLDOUBLE *)f.buf == 123.456);
}

/* ---- money ---- */

/* Money's text carries lc_monetary's symbol and separators: the numeric C
 * types read the amount, the character types the server's text. */
static void money_reads_as_its_amount_and_as_its_text(void **state)
{
    (void)state;
    fetch f = conv(GC_OID_MONEY, "-$1,234.56", SQL_C_DOUBLE);
    assert_ok(f);
    assert_true(*(SQLDOUBLE *)f.buf == -1234.56);
    f = conv(GC_OID_MONEY, "1.234.567,89 EUR", SQL_C_DOUBLE);   /* de_DE groups with '.' */
    assert_ok(f);
    assert_true(*(SQLDOUBLE *)f.buf == 1234567.89);
    f = conv(GC_OID_MONEY, "($5.00)", SQL_C_DOUBLE);   /* accounting negative */
    assert_ok(f);
    assert_true(*(SQLDOUBLE *)f.buf == -5.0);
    f = conv(GC_OID_MONEY, "$1,234", SQL_C_SLONG);   /* a locale without cents */
    assert_ok(f);
    assert_int_equal(*(SQLINTEGER *)f.buf, 1234);
    f = conv(GC_OID_MONEY, "$7.50", SQL_C_SLONG);
    assert_state(f, SQL_SUCCESS_WITH_INFO, "01S07");
    assert_int_equal(*(SQLINTEGER *)f.buf, 7);
    f = conv(GC_OID_MONEY, "-$92,233,720,368,547,758.08", SQL_C_CHAR);
    assert_ok(f);
    assert_string_equal((char *)f.buf, "-$92,233,720,368,547,758.08");
    f = conv_full(GC_OID_MONEY, "-$2.10", SQL_C_NUMERIC, 64, 10, 2);
    assert_ok(f);
    SQL_NUMERIC_STRUCT *n = (SQL_NUMERIC_STRUCT *)(void *)f.buf;
    assert_int_equal(n->sign, 0);
    assert_int_equal(n->scale, 2);
    assert_int_equal(n->val[0], 210);
    assert_state(conv(GC_OID_MONEY, "$", SQL_C_DOUBLE), SQL_ERROR, "22018");
    assert_state(conv(GC_OID_MONEY, "$1,234,567,890,123,456,789,012,345,678.00", SQL_C_DOUBLE),
                 SQL_ERROR, "22018");
    assert_state(conv(GC_OID_MONEY, "$1.00", SQL_C_TYPE_DATE), SQL_ERROR, "07006");
}

static void floats_out_of_range_give_22003(void **state)
{
    (void)state;
    assert_state(conv(GC_OID_TEXT, "1e400", SQL_C_DOUBLE), SQL_ERROR, "22003");
    assert_state(conv(GC_OID_FLOAT8, "1e+100", SQL_C_FLOAT), SQL_ERROR, "22003");
    fetch f = conv(GC_OID_TEXT, "1e-400", SQL_C_DOUBLE);   /* underflow rounds to 0 */
    assert_ok(f);
    assert_true(*(SQLDOUBLE *)f.buf == 0.0);
    assert_state(conv(GC_OID_UUID, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", SQL_C_DOUBLE),
                 SQL_ERROR, "07006");
}

/* ---- NUMERIC struct ---- */

static void numeric_struct_takes_target_precision_and_scale(void **state)
{
    (void)state;
    fetch f = conv_full(GC_OID_NUMERIC, "-123.45", SQL_C_NUMERIC, 64, 10, 2);
    assert_ok(f);
    SQL_NUMERIC_STRUCT *n = (SQL_NUMERIC_STRUCT *)f.buf;
    assert_int_equal(n->precision, 10);
    assert_int_equal(n->scale, 2);
    assert_int_equal(n->sign, 0);
    assert_int_equal(n->val[0] | n->val[1] << 8, 12345);
    assert_int_equal(f.len, sizeof(SQL_NUMERIC_STRUCT));
}

static void numeric_struct_scale_zero_set_with_a_precision_loses_fraction_with_01S07(void **state)
{
    (void)state;
    fetch f = conv_full(GC_OID_NUMERIC, "99.9", SQL_C_NUMERIC, 64, 10, 0);
    assert_state(f, SQL_SUCCESS_WITH_INFO, "01S07");
    SQL_NUMERIC_STRUCT *n = (SQL_NUMERIC_STRUCT *)f.buf;
    assert_int_equal(n->precision, 10);
    assert_int_equal(n->sign, 1);
    assert_int_equal(n->val[0], 99);
}

/* The 128-bit magnitude of a SQL_NUMERIC_STRUCT. */
static unsigned __int128 numeric_magnitude(const SQL_NUMERIC_STRUCT *n)
{
    unsigned __int128 v = 0;
    for (int b = 15; b >= 0; b--)
        v = v << 8 | n->val[b];
    return v;
}

static void numeric_struct_without_precision_keeps_the_values_own(void **state)
{
    (void)state;
    static const struct { const char *text; int precision, scale, sign; unsigned magnitude; }
    cases[] = {
        { "25.212", 5, 3, 1, 25212 }, { "-7.70", 3, 2, 0, 770 }, { "0", 0, 0, 1, 0 },
        { "-0", 0, 0, 1, 0 }, { "0.050", 3, 3, 1, 50 }, { "1200", 4, 0, 1, 1200 },
        { "1.5e2", 3, 0, 1, 150 }, { "1234.567890", 10, 6, 1, 1234567890u },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fetch f = conv_full(GC_OID_NUMERIC, cases[i].text, SQL_C_NUMERIC, 64, 0, 0);
        assert_ok(f);
        SQL_NUMERIC_STRUCT *n = (SQL_NUMERIC_STRUCT *)f.buf;
        assert_int_equal(n->precision, cases[i].precision);
        assert_int_equal(n->scale, cases[i].scale);
        assert_int_equal(n->sign, cases[i].sign);
        assert_true(numeric_magnitude(n) == cases[i].magnitude);
    }
    /* 39 digits while 128 bits hold them; one more is 22003, not a wrap. */
    fetch f = conv_full(GC_OID_NUMERIC, "340282366920938463463374607431768211455",
                        SQL_C_NUMERIC, 64, 0, 0);
    assert_ok(f);
    assert_int_equal(((SQL_NUMERIC_STRUCT *)f.buf)->precision, 39);
    assert_true(numeric_magnitude((SQL_NUMERIC_STRUCT *)f.buf) == ~(unsigned __int128)0);
    assert_state(conv_full(GC_OID_NUMERIC, "340282366920938463463374607431768211456",
                           SQL_C_NUMERIC, 64, 0, 0), SQL_ERROR, "22003");
    assert_state(conv_full(GC_OID_FLOAT8, "NaN", SQL_C_NUMERIC, 64, 0, 0), SQL_ERROR, "22003");
}

static void numbers_to_binary_are_machine_values(void **state)
{
    (void)state;
    fetch f = conv(GC_OID_INT4, "1234567", SQL_C_BINARY);
    assert_ok(f);
    int32_t i4;
    memcpy(&i4, f.buf, sizeof i4);
    assert_int_equal(i4, 1234567);
    assert_int_equal(f.len, 4);
    f = conv(GC_OID_INT2, "-2", SQL_C_BINARY);
    int16_t i2;
    memcpy(&i2, f.buf, sizeof i2);
    assert_int_equal(i2, -2);
    assert_int_equal(f.len, 2);
    f = conv(GC_OID_INT8, "-9223372036854775808", SQL_C_BINARY);
    int64_t i8;
    memcpy(&i8, f.buf, sizeof i8);
    assert_true(i8 == INT64_MIN);
    assert_int_equal(f.len, 8);
    f = conv(GC_OID_FLOAT8, "1.5", SQL_C_BINARY);
    double d;
    memcpy(&d, f.buf, sizeof d);
    assert_true(d == 1.5);
    assert_int_equal(f.len, 8);
    f = conv(GC_OID_FLOAT4, "-Infinity", SQL_C_BINARY);
    float fl;
    memcpy(&fl, f.buf, sizeof fl);
    assert_true(isinf(fl) && fl < 0);
    assert_int_equal(f.len, 4);
    /* Too small a buffer for the value's form: 22003, nothing written. */
    f = conv_full(GC_OID_INT8, "1", SQL_C_BINARY, 4, 0, 0);
    assert_state(f, SQL_ERROR, "22003");
    assert_int_equal(f.buf[0], 0x5A);
    /* A boolean is its bit, one byte; too small a buffer is 22003. */
    f = conv(GC_OID_BOOL, "t", SQL_C_BINARY);
    assert_ok(f);
    assert_int_equal(f.len, 1);
    assert_int_equal(f.buf[0], 1);
    f = conv(GC_OID_BOOL, "f", SQL_C_BINARY);
    assert_int_equal(f.len, 1);
    assert_int_equal(f.buf[0], 0);
    assert_state(conv_full(GC_OID_BOOL, "t", SQL_C_BINARY, 0, 0, 0), SQL_ERROR, "22003");
    /* numeric stays its text, as before */
    f = conv(GC_OID_NUMERIC, "1.5", SQL_C_BINARY);
    assert_ok(f);
    assert_memory_equal(f.buf, "1.5", 3);
}

static void wchar_buffer_of_one_byte_is_truncated_even_when_empty(void **state)
{
    (void)state;
    fetch f = conv_full(GC_OID_TEXT, "", SQL_C_WCHAR, 1, 0, 0);
    assert_state(f, SQL_SUCCESS_WITH_INFO, "01004");
    assert_int_equal(f.buf[0], 0);
    assert_int_equal(f.buf[1], 0x5A);   /* nothing past the buffer */
    assert_int_equal(f.len, 0);
    f = conv_full(GC_OID_TEXT, "", SQL_C_WCHAR, 2, 0, 0);
    assert_ok(f);
}

/* text read with LFConversion on into a buffer of buflen bytes. */
static fetch conv_crlf(const char *text, SQLSMALLINT c_type, SQLLEN buflen, size_t *offset)
{
    fetch f;
    memset(&f, 0, sizeof f);
    memset(f.buf, 0x5A, sizeof f.buf);
    gc_fetch_target t = { .c_type = c_type, .buffer = f.buf, .buffer_length = buflen,
                          .length = &f.len, .indicator = &f.len, .lf_to_crlf = true };
    gc_error err;
    f.rc = gc_convert_value_to_c(GC_OID_TEXT, text, strlen(text), false, &t, offset, &err);
    memcpy(f.state, err.sqlstate, 6);
    return f;
}

static void lf_conversion_reads_lf_as_crlf(void **state)
{
    (void)state;
    fetch f = conv_crlf("a\nb\r\nc\n", SQL_C_CHAR, 64, NULL);
    assert_ok(f);
    assert_string_equal((char *)f.buf, "a\r\nb\r\nc\r\n");
    assert_int_equal(f.len, 9);
    f = conv_crlf("a\nb", SQL_C_WCHAR, 64, NULL);
    assert_ok(f);
    assert_int_equal(f.len, 8);
    const uint16_t expect[] = { 'a', '\r', '\n', 'b', 0 };
    assert_memory_equal(f.buf, expect, sizeof expect);
    /* In pieces the length counts the CRs; the second piece goes on. */
    size_t offset = 0;
    f = conv_crlf("x\ny\nz", SQL_C_CHAR, 4, &offset);
    assert_state(f, SQL_SUCCESS_WITH_INFO, "01004");
    assert_string_equal((char *)f.buf, "x\r\n");
    assert_int_equal(f.len, 7);
    f = conv_crlf("x\ny\nz", SQL_C_CHAR, 64, &offset);
    assert_ok(f);
    assert_string_equal((char *)f.buf, "y\r\nz");
    assert_int_equal(f.len, 4);
    /* Off: as stored. */
    f = conv(GC_OID_TEXT, "a\nb", SQL_C_CHAR);
    assert_string_equal((char *)f.buf, "a\nb");
}

static void numeric_struct_holds_38_digits_and_refuses_more(void **state)
{
    (void)state;
    const char *max38 = "99999999999999999999999999999999999999";
    fetch f = conv_full(GC_OID_NUMERIC, max38, SQL_C_NUMERIC, 64, 38, 0);
    assert_ok(f);
    SQL_NUMERIC_STRUCT *n = (SQL_NUMERIC_STRUCT *)f.buf;
    unsigned __int128 v = 0;
    for (int b = 15; b >= 0; b--)
        v = v << 8 | n->val[b];
    unsigned __int128 expect = 0;
    for (int k = 0; k < 38; k++)
        expect = expect * 10 + 9;
    assert_true(v == expect);
    assert_state(conv_full(GC_OID_NUMERIC, "999999999999999999999999999999999999999",
                           SQL_C_NUMERIC, 64, 38, 0), SQL_ERROR, "22003");
    assert_state(conv_full(GC_OID_NUMERIC, "123456", SQL_C_NUMERIC, 64, 5, 0), SQL_ERROR, "22003");
    assert_state(conv_full(GC_OID_NUMERIC, "NaN", SQL_C_NUMERIC, 64, 10, 0), SQL_ERROR, "22003");
}

/* ---- CHAR and WCHAR ---- */

static void numbers_and_bools_to_char(void **state)
{
    (void)state;
    fetch f = conv(GC_OID_INT8, "-9223372036854775808", SQL_C_CHAR);
    assert_ok(f);
    assert_string_equal((char *)f.buf, "-9223372036854775808");
    assert_int_equal(f.len, 20);
    f = conv(GC_OID_BOOL, "t", SQL_C_CHAR);
    assert_ok(f);
    assert_string_equal((char *)f.buf, "1");
    f = conv(GC_OID_BOOL, "f", SQL_C_CHAR);
    assert_string_equal((char *)f.buf, "0");
    f = conv(GC_OID_NUMERIC, "NaN", SQL_C_CHAR);
    assert_string_equal((char *)f.buf, "NaN");
}

static void number_to_char_truncates_fraction_01004_but_not_whole_digits_22003(void **state)
{
    (void)state;
    fetch f = conv_full(GC_OID_NUMERIC, "123.456", SQL_C_CHAR, 6, 0, 0);
    assert_state(f, SQL_SUCCESS_WITH_INFO, "01004");
    assert_string_equal((char *)f.buf, "123.4");
    assert_int_equal(f.len, 7);
    f = conv_full(GC_OID_NUMERIC, "123.456", SQL_C_CHAR, 4, 0, 0);
    assert_state(f, SQL_SUCCESS_WITH_INFO, "01004");
    assert_string_equal((char *)f.buf, "123");
    assert_state(conv_full(GC_OID_NUMERIC, "123.456", SQL_C_CHAR, 3, 0, 0), SQL_ERROR, "22003");
    assert_state(conv_full(GC_OID_INT4, "12345", SQL_C_CHAR, 5, 0, 0), SQL_ERROR, "22003");
    assert_state(conv_full(GC_OID_FLOAT8, "1e+100", SQL_C_CHAR, 4, 0, 0), SQL_ERROR, "22003");
    assert_state(conv_full(GC_OID_BOOL, "t", SQL_C_CHAR, 1, 0, 0), SQL_ERROR, "22003");
    f = conv_full(GC_OID_INT4, "12345", SQL_C_CHAR, 6, 0, 0);   /* exact fit */
    assert_ok(f);
    assert_string_equal((char *)f.buf, "12345");
}

static void dates_times_uuids_to_char(void **state)
{
    (void)state;
    fetch f = conv(GC_OID_DATE, "2024-02-29", SQL_C_CHAR);
    assert_ok(f);
    assert_string_equal((char *)f.buf, "2024-02-29");
    /* timestamptz is SQL_TYPE_TIMESTAMP: its character form has no zone
     * offset (the time is the session's), as psqlODBC gives it. */
    static const char *const tstz[][2] = {
        { "2024-02-29 10:11:12.5+01", "2024-02-29 10:11:12.5" },
        { "2024-02-29 10:11:12-03:30:15", "2024-02-29 10:11:12" },
        { "0044-03-15 12:00:00+00 BC", "0044-03-15 12:00:00 BC" },
        { "-infinity", "0001-01-01 00:00:00" },
    };
    for (size_t i = 0; i < sizeof tstz / sizeof tstz[0]; i++) {
        f = conv(GC_OID_TIMESTAMPTZ, tstz[i][0], SQL_C_CHAR);
        assert_ok(f);
        assert_string_equal((char *)f.buf, tstz[i][1]);
        assert_int_equal(f.len, (SQLLEN)strlen(tstz[i][1]));
    }
    f = conv_full(GC_OID_TIMESTAMPTZ, "2024-02-29 10:11:12.25+01", SQL_C_CHAR, 21, 0, 0);
    assert_state(f, SQL_SUCCESS_WITH_INFO, "01004");
    assert_string_equal((char *)f.buf, "2024-02-29 10:11:12.");
    assert_int_equal(f.len, 22);   /* the length without the offset */
    f = conv(GC_OID_TIMESTAMPTZ, "2024-02-29 10:11:12+01", SQL_C_WCHAR);
    assert_ok(f);
    assert_int_equal(f.len, 19 * 2);
    f = conv_full(GC_OID_TIMESTAMP, "2024-02-29 10:11:12.123456", SQL_C_CHAR, 21, 0, 0);
    assert_state(f, SQL_SUCCESS_WITH_INFO, "01004");
    assert_string_equal((char *)f.buf, "2024-02-29 10:11:12.");
    assert_state(conv_full(GC_OID_TIMESTAMP, "2024-02-29 10:11:12", SQL_C_CHAR, 19, 0, 0),
                 SQL_ERROR, "22003");
    assert_state(conv_full(GC_OID_DATE, "2024-02-29", SQL_C_CHAR, 10, 0, 0), SQL_ERROR, "22003");
    /* A GUID reads upper case, as psqlODBC gives it. */
    f = conv(GC_OID_UUID, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", SQL_C_CHAR);
    assert_ok(f);
    assert_string_equal((char *)f.buf, "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11");
    assert_state(conv_full(GC_OID_UUID, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", SQL_C_CHAR, 36, 0, 0),
                 SQL_ERROR, "22003");
}

static void text_json_to_char_truncates_with_01004_and_full_length(void **state)
{
    (void)state;
    fetch f = conv_full(GC_OID_JSONB, "{\"a\": 1}", SQL_C_CHAR, 5, 0, 0);
    assert_state(f, SQL_SUCCESS_WITH_INFO, "01004");
    assert_string_equal((char *)f.buf, "{\"a\"");
    assert_int_equal(f.len, 8);
    f = conv(GC_OID_JSON, "[1,2]", SQL_C_CHAR);
    assert_ok(f);
    assert_string_equal((char *)f.buf, "[1,2]");
    f = conv(GC_OID_NAME, "pg_class", SQL_C_CHAR);
    assert_ok(f);
    assert_string_equal((char *)f.buf, "pg_class");
    f = conv(99999, "some unknown type", SQL_C_CHAR);
    assert_ok(f);
    assert_string_equal((char *)f.buf, "some unknown type");
}

static void bytea_to_char_is_hex_digits(void **state)
{
    (void)state;
    fetch f = conv(GC_OID_BYTEA, "\\x0a0bff", SQL_C_CHAR);
    assert_ok(f);
    assert_string_equal((char *)f.buf, "0a0bff");   /* the server's digits */
    assert_int_equal(f.len, 6);
    f = conv(GC_OID_BYTEA, "a\\\\b\\001", SQL_C_CHAR);   /* escape format */
    assert_ok(f);
    assert_string_equal((char *)f.buf, "615C6201");   /* encoded here: upper case */
    f = conv_full(GC_OID_BYTEA, "\\x0a0bff", SQL_C_CHAR, 4, 0, 0);
    assert_state(f, SQL_SUCCESS_WITH_INFO, "01004");
    assert_string_equal((char *)f.buf, "0a0");
}

static void wchar_is_utf16_with_byte_lengths(void **state)
{
    (void)state;
    fetch f = conv(GC_OID_TEXT, "h\xc3\xa9\xf0\x9f\x98\x80", SQL_C_WCHAR);
    assert_ok(f);
    const uint16_t expect[] = { 'h', 0xE9, 0xD83D, 0xDE00, 0 };
    assert_memory_equal(f.buf, expect, sizeof expect);
    assert_int_equal(f.len, 8);
    f = conv(GC_OID_INT4, "42", SQL_C_WCHAR);
    assert_ok(f);
    assert_int_equal(f.len, 4);
    assert_int_equal(((uint16_t *)f.buf)[0], '4');
    assert_int_equal(((uint16_t *)f.buf)[2], 0);
    assert_state(conv_full(GC_OID_INT4, "42", SQL_C_WCHAR, 4, 0, 0), SQL_ERROR, "22003");
    assert_state(conv(GC_OID_TEXT, "bad \xff utf8", SQL_C_WCHAR), SQL_ERROR, "22018");
}

static void wchar_truncation_reports_bytes_and_keeps_pairs_whole(void **state)
{
    (void)state;
    /* 'a' then a pair: buffer of 8 bytes holds 3 units + NUL, but the pair
     * would be split after 'a','b' ... so the piece stops before it. */
    fetch f = conv_full(GC_OID_TEXT, "ab\xf0\x9f\x98\x80z", SQL_C_WCHAR, 8, 0, 0);
    assert_state(f, SQL_SUCCESS_WITH_INFO, "01004");
    assert_int_equal(f.len, 10);
    const uint16_t expect[] = { 'a', 'b', 0 };
    assert_memory_equal(f.buf, expect, sizeof expect);
    /* odd buffer length: rounds down to whole units */
    f = conv_full(GC_OID_TEXT, "abc", SQL_C_WCHAR, 5, 0, 0);
    assert_state(f, SQL_SUCCESS_WITH_INFO, "01004");
    const uint16_t expect1[] = { 'a', 0 };
    assert_memory_equal(f.buf, expect1, sizeof expect1);
}

/* ---- dates and times ---- */

static void date_to_date_and_timestamp(void **state)
{
    (void)state;
    fetch f = conv(GC_OID_DATE, "2024-02-29", SQL_C_TYPE_DATE);
    assert_ok(f);
    SQL_DATE_STRUCT *d = (SQL_DATE_STRUCT *)f.buf;
    assert_int_equal(d->year, 2024);
    assert_int_equal(d->month, 2);
    assert_int_equal(d->day, 29);
    assert_int_equal(f.len, sizeof(SQL_DATE_STRUCT));
    f = conv(GC_OID_DATE, "1999-12-31", SQL_C_DATE);   /* ODBC 2 alias */
    assert_ok(f);
    f = conv(GC_OID_DATE, "1999-12-31", SQL_C_TYPE_TIMESTAMP);
    assert_ok(f);
    SQL_TIMESTAMP_STRUCT *ts = (SQL_TIMESTAMP_STRUCT *)f.buf;
    assert_int_equal(ts->year, 1999);
    assert_int_equal(ts->hour, 0);
    assert_int_equal(ts->fraction, 0);
    assert_state(conv(GC_OID_DATE, "1999-12-31", SQL_C_TYPE_TIME), SQL_ERROR, "07006");
}

/* Checks that a conversion succeeded into the timestamp y-mo-d h:mi:se.0. */
static void expect_timestamp(fetch f, int y, int mo, int d, int h, int mi, int se)
{
    assert_ok(f);
    const SQL_TIMESTAMP_STRUCT *ts = (const SQL_TIMESTAMP_STRUCT *)f.buf;
    int got[7] = { ts->year, ts->month, ts->day, ts->hour, ts->minute, ts->second,
                   (int)ts->fraction };
    int want[7] = { y, mo, d, h, mi, se, 0 };
    assert_memory_equal(got, want, sizeof want);
}

static void infinities_are_the_latest_and_earliest_moments(void **state)
{
    (void)state;
    expect_timestamp(conv(GC_OID_TIMESTAMP, "infinity", SQL_C_TYPE_TIMESTAMP),
                     9999, 12, 31, 23, 59, 59);
    expect_timestamp(conv(GC_OID_TIMESTAMPTZ, "-infinity", SQL_C_TYPE_TIMESTAMP),
                     1, 1, 1, 0, 0, 0);
    fetch f = conv(GC_OID_DATE, "infinity", SQL_C_TYPE_DATE);
    assert_ok(f);                               /* no 01S07: a date has no time */
    const SQL_DATE_STRUCT *d = (const SQL_DATE_STRUCT *)f.buf;
    assert_true(d->year == 9999 && d->month == 12 && d->day == 31);
    f = conv(GC_OID_DATE, "-infinity", SQL_C_TYPE_DATE);
    assert_ok(f);
    d = (const SQL_DATE_STRUCT *)f.buf;
    assert_true(d->year == 1 && d->month == 1 && d->day == 1);
    /* As text, the same moments. */
    f = conv(GC_OID_TIMESTAMP, "infinity", SQL_C_CHAR);
    assert_ok(f);
    assert_string_equal((char *)f.buf, "9999-12-31 23:59:59");
    f = conv(GC_OID_DATE, "-infinity", SQL_C_CHAR);
    assert_ok(f);
    assert_string_equal((char *)f.buf, "0001-01-01");
    f = conv(GC_OID_TEXT, "infinity", SQL_C_CHAR);     /* a text column holds a word */
    assert_ok(f);
    assert_string_equal((char *)f.buf, "infinity");
}

static void unrepresentable_dates_give_22007(void **state)
{
    (void)state;
    assert_state(conv(GC_OID_DATE, "0044-03-15 BC", SQL_C_TYPE_DATE), SQL_ERROR, "22007");
    assert_state(conv(GC_OID_TIMESTAMP, "infinity", SQL_C_TYPE_TIME), SQL_ERROR, "22007");
    assert_state(conv(GC_OID_TIME, "24:00:00", SQL_C_TYPE_TIME), SQL_ERROR, "22007");
    assert_state(conv(GC_OID_DATE, "garbage", SQL_C_TYPE_DATE), SQL_ERROR, "22007");
    fetch f = conv(GC_OID_DATE, "0044-03-15 BC", SQL_C_CHAR);   /* as text it is fine */
    assert_ok(f);
    assert_string_equal((char *)f.buf, "0044-03-15 BC");
}

static void time_to_time_drops_fraction_with_01S07(void **state)
{
    (void)state;
    fetch f = conv(GC_OID_TIME, "13:14:15", SQL_C_TYPE_TIME);
    assert_ok(f);
    SQL_TIME_STRUCT *t = (SQL_TIME_STRUCT *)f.buf;
    assert_int_equal(t->hour, 13);
    assert_int_equal(t->minute, 14);
    assert_int_equal(t->second, 15);
    f = conv(GC_OID_TIME, "13:14:15.25", SQL_C_TIME);
    assert_state(f, SQL_SUCCESS_WITH_INFO, "01S07");
    assert_int_equal(((SQL_TIME_STRUCT *)f.buf)->second, 15);
    assert_state(conv(GC_OID_TIME, "13:14:15", SQL_C_TYPE_DATE), SQL_ERROR, "07006");
}

static void time_to_timestamp_takes_todays_date(void **state)
{
    (void)state;
    fetch f = conv(GC_OID_TIME, "01:02:03.5", SQL_C_TYPE_TIMESTAMP);
    assert_ok(f);
    SQL_TIMESTAMP_STRUCT *ts = (SQL_TIMESTAMP_STRUCT *)f.buf;
    assert_true(ts->year >= 2024);
    assert_int_equal(ts->hour, 1);
    assert_int_equal(ts->fraction, 500000000);
}

static void timestamp_fills_struct_with_nanoseconds(void **state)
{
    (void)state;
    fetch f = conv(GC_OID_TIMESTAMP, "2023-07-01 23:59:58.123456", SQL_C_TYPE_TIMESTAMP);
    assert_ok(f);
    SQL_TIMESTAMP_STRUCT *ts = (SQL_TIMESTAMP_STRUCT *)f.buf;
    assert_int_equal(ts->year, 2023);
    assert_int_equal(ts->month, 7);
    assert_int_equal(ts->day, 1);
    assert_int_equal(ts->hour, 23);
    assert_int_equal(ts->minute, 59);
    assert_int_equal(ts->second, 58);
    assert_int_equal(ts->fraction, 123456000);
    assert_int_equal(f.len, sizeof(SQL_TIMESTAMP_STRUCT));
    f = conv(GC_OID_TIMESTAMP, "2023-07-01 23:59:58", SQL_C_TIMESTAMP);
    assert_ok(f);
}

static void timestamptz_drops_the_offset(void **state)
{
    (void)state;
    const char *values[] = { "2023-07-01 10:00:00+02", "2023-07-01 10:00:00-03:30",
                             "2023-07-01 10:00:00+05:53:28" };
    for (size_t i = 0; i < 3; i++) {
        fetch f = conv(GC_OID_TIMESTAMPTZ, values[i], SQL_C_TYPE_TIMESTAMP);
        assert_ok(f);
        SQL_TIMESTAMP_STRUCT *ts = (SQL_TIMESTAMP_STRUCT *)f.buf;
        assert_int_equal(ts->hour, 10);
        assert_int_equal(ts->minute, 0);
    }
}

static void timestamp_to_date_and_time_warn_when_parts_are_lost(void **state)
{
    (void)state;
    fetch f = conv(GC_OID_TIMESTAMP, "2023-07-01 00:00:00", SQL_C_TYPE_DATE);
    assert_ok(f);
    f = conv(GC_OID_TIMESTAMP, "2023-07-01 10:00:00", SQL_C_TYPE_DATE);
    assert_state(f, SQL_SUCCESS_WITH_INFO, "01S07");
    assert_int_equal(((SQL_DATE_STRUCT *)f.buf)->day, 1);
    f = conv(GC_OID_TIMESTAMPTZ, "2023-07-01 10:00:00+00", SQL_C_TYPE_TIME);
    assert_ok(f);
    assert_int_equal(((SQL_TIME_STRUCT *)f.buf)->hour, 10);
    f = conv(GC_OID_TIMESTAMP, "2023-07-01 10:00:00.5", SQL_C_TYPE_TIME);
    assert_state(f, SQL_SUCCESS_WITH_INFO, "01S07");
}

static void text_to_datetimes_parses_or_gives_22018(void **state)
{
    (void)state;
    fetch f = conv(GC_OID_TEXT, "2020-05-06", SQL_C_TYPE_DATE);
    assert_ok(f);
    assert_int_equal(((SQL_DATE_STRUCT *)f.buf)->month, 5);
    f = conv(GC_OID_VARCHAR, "2020-05-06T07:08:09", SQL_C_TYPE_TIMESTAMP);
    assert_ok(f);
    assert_int_equal(((SQL_TIMESTAMP_STRUCT *)f.buf)->second, 9);
    assert_state(conv(GC_OID_TEXT, "2020-13-01", SQL_C_TYPE_DATE), SQL_ERROR, "22018");
    assert_state(conv(GC_OID_TEXT, "2021-02-29", SQL_C_TYPE_DATE), SQL_ERROR, "22018");
    assert_state(conv(GC_OID_TEXT, "not a date", SQL_C_TYPE_DATE), SQL_ERROR, "22018");
    assert_state(conv(GC_OID_TEXT, "2020-05-06", SQL_C_TYPE_TIME), SQL_ERROR, "22018");
    assert_state(conv(GC_OID_TEXT, "25:00:00", SQL_C_TYPE_TIME), SQL_ERROR, "22018");
}

static void numbers_to_datetimes_give_07006(void **state)
{
    (void)state;
    assert_state(conv(GC_OID_INT4, "20200101", SQL_C_TYPE_DATE), SQL_ERROR, "07006");
    assert_state(conv(GC_OID_BOOL, "t", SQL_C_TYPE_TIMESTAMP), SQL_ERROR, "07006");
    assert_state(conv(GC_OID_BYTEA, "\\x00", SQL_C_TYPE_TIME), SQL_ERROR, "07006");
    assert_state(conv(GC_OID_BYTEA, "\\x00", SQL_C_SLONG), SQL_ERROR, "07006");
    assert_state(conv(GC_OID_UUID, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", SQL_C_SLONG),
                 SQL_ERROR, "07006");
}

/* ---- GUID, BINARY ---- */

static void uuid_to_guid_and_text_to_guid(void **state)
{
    (void)state;
    fetch f = conv(GC_OID_UUID, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", SQL_C_GUID);
    assert_ok(f);
    SQLGUID *g = (SQLGUID *)f.buf;
    assert_int_equal(g->Data1, 0xa0eebc99u);
    assert_int_equal(g->Data2, 0x9c0b);
    assert_int_equal(g->Data3, 0x4ef8);
    assert_int_equal(g->Data4[0], 0xbb);
    assert_int_equal(g->Data4[7], 0x11);
    assert_int_equal(f.len, sizeof(SQLGUID));
    f = conv(GC_OID_TEXT, "{A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11}", SQL_C_GUID);
    assert_ok(f);
    assert_state(conv(GC_OID_TEXT, "a0eebc99", SQL_C_GUID), SQL_ERROR, "22018");
    assert_state(conv(GC_OID_INT4, "1", SQL_C_GUID), SQL_ERROR, "07006");
}

static void non_bytea_to_binary_is_its_text_bytes(void **state)
{
    (void)state;
    fetch f = conv(GC_OID_DATE, "2020-01-02", SQL_C_BINARY);
    assert_ok(f);
    assert_int_equal(f.len, 10);
    assert_memory_equal(f.buf, "2020-01-02", 10);
    assert_int_equal(f.buf[10], 0x5A);   /* no terminator */
    f = conv(GC_OID_TEXT, "123", SQL_C_BINARY);
    assert_ok(f);
    assert_int_equal(f.len, 3);
    assert_memory_equal(f.buf, "123", 3);
    assert_int_equal(f.buf[3], 0x5A);   /* no terminator */
    assert_state(conv(GC_OID_BYTEA, "\\x0g", SQL_C_BINARY), SQL_ERROR, "22018");
}

/* ---- type codes ---- */

static void default_c_type_follows_the_column_type(void **state)
{
    (void)state;
    fetch f = conv(GC_OID_INT4, "77", SQL_C_DEFAULT);
    assert_ok(f);
    assert_int_equal(*(SQLINTEGER *)f.buf, 77);
    f = conv(GC_OID_INT8, "77", SQL_C_DEFAULT);
    assert_int_equal(*(SQLBIGINT *)f.buf, 77);
    f = conv(GC_OID_NUMERIC, "1.25", SQL_C_DEFAULT);
    assert_string_equal((char *)f.buf, "1.25");
    f = conv(GC_OID_BOOL, "t", SQL_C_DEFAULT);
    assert_int_equal(f.buf[0], 1);
    f = conv(GC_OID_FLOAT4, "2.5", SQL_C_DEFAULT);
    assert_true(*(SQLREAL *)f.buf == 2.5f);
    f = conv(GC_OID_BYTEA, "\\x41", SQL_C_DEFAULT);
    assert_int_equal(f.len, 1);
    assert_int_equal(f.buf[0], 0x41);
    f = conv(GC_OID_UUID, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", SQL_C_DEFAULT);
    assert_int_equal(f.len, 16);
    f = conv(GC_OID_TIMESTAMPTZ, "2023-01-02 03:04:05+00", SQL_C_DEFAULT);
    assert_int_equal(((SQL_TIMESTAMP_STRUCT *)f.buf)->day, 2);
}

static void interval_c_types_from_non_intervals_give_07006_and_unknown_codes_HY003(void **state)
{
    (void)state;
    assert_state(conv(GC_OID_DATE, "2024-01-02", SQL_C_INTERVAL_DAY), SQL_ERROR, "07006");
    assert_state(conv(GC_OID_INT4, "3", SQL_C_INTERVAL_DAY_TO_SECOND), SQL_ERROR, "07006");
    assert_state(conv(GC_OID_TEXT, "x", 1234), SQL_ERROR, "HY003");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(int4_text_fills_every_integer_c_type),
        cmocka_unit_test(odbc2_integer_aliases_are_signed_types),
        cmocka_unit_test(int8_extremes_convert_exactly),
        cmocka_unit_test(integers_out_of_range_give_22003),
        cmocka_unit_test(fractions_to_integers_truncate_with_01S07),
        cmocka_unit_test(text_to_integer_parses_or_gives_22018),
        cmocka_unit_test(bool_to_numbers_is_one_or_zero),
        cmocka_unit_test(bit_accepts_zero_and_one_only),
        cmocka_unit_test(floats_read_as_float_and_double),
        cmocka_unit_test(money_reads_as_its_amount_and_as_its_text),
        cmocka_unit_test(floats_out_of_range_give_22003),
        cmocka_unit_test(numeric_struct_takes_target_precision_and_scale),
        cmocka_unit_test(numeric_struct_scale_zero_set_with_a_precision_loses_fraction_with_01S07),
        cmocka_unit_test(numeric_struct_without_precision_keeps_the_values_own),
        cmocka_unit_test(numbers_to_binary_are_machine_values),
        cmocka_unit_test(wchar_buffer_of_one_byte_is_truncated_even_when_empty),
        cmocka_unit_test(lf_conversion_reads_lf_as_crlf),
        cmocka_unit_test(numeric_struct_holds_38_digits_and_refuses_more),
        cmocka_unit_test(numbers_and_bools_to_char),
        cmocka_unit_test(number_to_char_truncates_fraction_01004_but_not_whole_digits_22003),
        cmocka_unit_test(dates_times_uuids_to_char),
        cmocka_unit_test(text_json_to_char_truncates_with_01004_and_full_length),
        cmocka_unit_test(bytea_to_char_is_hex_digits),
        cmocka_unit_test(wchar_is_utf16_with_byte_lengths),
        cmocka_unit_test(wchar_truncation_reports_bytes_and_keeps_pairs_whole),
        cmocka_unit_test(date_to_date_and_timestamp),
        cmocka_unit_test(infinities_are_the_latest_and_earliest_moments),
        cmocka_unit_test(unrepresentable_dates_give_22007),
        cmocka_unit_test(time_to_time_drops_fraction_with_01S07),
        cmocka_unit_test(time_to_timestamp_takes_todays_date),
        cmocka_unit_test(timestamp_fills_struct_with_nanoseconds),
        cmocka_unit_test(timestamptz_drops_the_offset),
        cmocka_unit_test(timestamp_to_date_and_time_warn_when_parts_are_lost),
        cmocka_unit_test(text_to_datetimes_parses_or_gives_22018),
        cmocka_unit_test(numbers_to_datetimes_give_07006),
        cmocka_unit_test(uuid_to_guid_and_text_to_guid),
        cmocka_unit_test(non_bytea_to_binary_is_its_text_bytes),
        cmocka_unit_test(default_c_type_follows_the_column_type),
        cmocka_unit_test(interval_c_types_from_non_intervals_give_07006_and_unknown_codes_HY003),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
