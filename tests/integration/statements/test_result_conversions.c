/*
 * test_result_conversions: result values in the forms programs written for
 * psqlODBC read them. SQL_C_NUMERIC keeps the value's own precision and
 * scale unless the ARD sets them (a value beyond 128 bits is 22003); numbers
 * read as SQL_C_BINARY are machine values (a short buffer is 22003); bytea
 * read as text is hex digits (upper case when encoded from the escape
 * format); a WCHAR buffer of one byte is 01004; an
 * interval's seconds precision above 9 is nanoseconds; LFConversion (or its
 * CX bit) turns LF into CR LF; SQLGetTypeInfo gives bytea as
 * SQL_LONGVARBINARY a COLUMN_SIZE an unsigned binding can hold.
 */
#include "st_test.h"

#include <stdint.h>

/* The 128-bit magnitude of n as two halves, for comparison. */
static void magnitude(const SQL_NUMERIC_STRUCT *n, uint64_t *high, uint64_t *low)
{
    *high = *low = 0;
    for (int b = 15; b >= 8; b--)
        *high = *high << 8 | n->val[b];
    for (int b = 7; b >= 0; b--)
        *low = *low << 8 | n->val[b];
}

/* Reads the first column of sql with SQLGetData as c_type into buf. */
static SQLRETURN get_first(SQLHSTMT s, const char *sql, SQLSMALLINT c_type, void *buf,
                           SQLLEN buflen, SQLLEN *len)
{
    SQLFreeStmt(s, SQL_CLOSE);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)sql, SQL_NTS), s);
    ST_OK(SQLFetch(s), s);
    return SQLGetData(s, 1, c_type, buf, buflen, len);
}

static void numeric_struct(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    SQL_NUMERIC_STRUCT n;
    SQLLEN len = 0;
    uint64_t high, low;

    SQLRETURN rc = get_first(s, "SELECT 25.212::numeric", SQL_C_NUMERIC, &n, sizeof n, &len);
    magnitude(&n, &high, &low);
    ST_CHECK(rc == SQL_SUCCESS && n.precision == 5 && n.scale == 3 && n.sign == 1 &&
             high == 0 && low == 25212, "25.212: rc %d precision %d scale %d value %llu", rc,
             n.precision, n.scale, (unsigned long long)low);
    rc = get_first(s, "SELECT '-7.70'::numeric", SQL_C_NUMERIC, &n, sizeof n, &len);
    magnitude(&n, &high, &low);
    ST_CHECK(rc == SQL_SUCCESS && n.precision == 3 && n.scale == 2 && n.sign == 0 &&
             low == 770, "-7.70: rc %d precision %d scale %d sign %d value %llu", rc,
             n.precision, n.scale, n.sign, (unsigned long long)low);
    rc = get_first(s, "SELECT 340282366920938463463374607431768211455::numeric",
                   SQL_C_NUMERIC, &n, sizeof n, &len);
    magnitude(&n, &high, &low);
    ST_CHECK(rc == SQL_SUCCESS && n.precision == 39 && high == UINT64_MAX && low == UINT64_MAX,
             "2^128-1: rc %d precision %d", rc, n.precision);
    ST_EXPECT_STATE(get_first(s, "SELECT 340282366920938463463374607431768211456::numeric",
                              SQL_C_NUMERIC, &n, sizeof n, &len), s, "22003");

    /* Bound: the value's own scale, until the ARD says otherwise. */
    SQLFreeStmt(s, SQL_CLOSE);
    ST_OK(SQLBindCol(s, 1, SQL_C_NUMERIC, &n, sizeof n, &len), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"SELECT 1234.5678::numeric", SQL_NTS), s);
    rc = SQLFetch(s);
    magnitude(&n, &high, &low);
    ST_CHECK(rc == SQL_SUCCESS && n.scale == 4 && low == 12345678, "bound: rc %d scale %d",
             rc, n.scale);
    SQLFreeStmt(s, SQL_CLOSE);
    SQLHDESC ard;
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_APP_ROW_DESC, &ard, 0, NULL), s);
    ST_OK(SQLSetDescField(ard, 1, SQL_DESC_PRECISION, (SQLPOINTER)10, 0), s);
    ST_OK(SQLSetDescField(ard, 1, SQL_DESC_SCALE, (SQLPOINTER)1, 0), s);
    ST_OK(SQLSetDescField(ard, 1, SQL_DESC_DATA_PTR, &n, 0), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"SELECT 1234.5678::numeric", SQL_NTS), s);
    rc = SQLFetch(s);
    magnitude(&n, &high, &low);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO && st_has_state(SQL_HANDLE_STMT, s, "01S07") &&
             n.precision == 10 && n.scale == 1 && low == 12345,
             "ARD scale 1: rc %d precision %d scale %d value %llu", rc, n.precision, n.scale,
             (unsigned long long)low);
    SQLFreeStmt(s, SQL_CLOSE);
    SQLFreeStmt(s, SQL_UNBIND);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

static void binary_and_character_forms(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    unsigned char buf[16];
    SQLLEN len = 0;

    memset(buf, 0xEE, sizeof buf);
    SQLRETURN rc = get_first(s, "SELECT 1234567::int4", SQL_C_BINARY, buf, sizeof buf, &len);
    int32_t i4;
    memcpy(&i4, buf, sizeof i4);
    ST_CHECK(rc == SQL_SUCCESS && len == 4 && i4 == 1234567 && buf[4] == 0xEE,
             "int4 as binary: rc %d len %ld value %d", rc, (long)len, (int)i4);
    rc = get_first(s, "SELECT -1.25::float8", SQL_C_BINARY, buf, sizeof buf, &len);
    double d;
    memcpy(&d, buf, sizeof d);
    ST_CHECK(rc == SQL_SUCCESS && len == 8 && d == -1.25, "float8 as binary: rc %d len %ld",
             rc, (long)len);
    ST_EXPECT_STATE(get_first(s, "SELECT 5::int8", SQL_C_BINARY, buf, 4, &len), s, "22003");

    /* bytea as text: the server's hex digits, or upper-case ones encoded
     * from the escape format, as psqlODBC gives each. */
    char text[16];
    rc = get_first(s, "SELECT '\\x0aff'::bytea", SQL_C_CHAR, text, sizeof text, &len);
    ST_CHECK(rc == SQL_SUCCESS && strcmp(text, "0aff") == 0 && len == 4,
             "bytea as text: rc %d %s", rc, text);
    st_exec(c, "SET bytea_output = escape");
    rc = get_first(s, "SELECT '\\x0aff'::bytea", SQL_C_CHAR, text, sizeof text, &len);
    ST_CHECK(rc == SQL_SUCCESS && strcmp(text, "0AFF") == 0 && len == 4,
             "bytea (escape format) as text: rc %d %s", rc, text);
    st_exec(c, "SET bytea_output = hex");

    /* A WCHAR buffer of one byte holds no terminator: 01004, its byte 0. */
    memset(buf, 0xEE, sizeof buf);
    rc = get_first(s, "SELECT ''::text", SQL_C_WCHAR, buf, 1, &len);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO && st_has_state(SQL_HANDLE_STMT, s, "01004") &&
             buf[0] == 0 && buf[1] == 0xEE && len == 0,
             "empty text in one byte: rc %d byte %02x len %ld", rc, buf[0], (long)len);
    SQLFreeStmt(s, SQL_CLOSE);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

static void interval_seconds_precision(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    SQL_INTERVAL_STRUCT iv;
    SQLLEN len = 0;
    memset(&iv, 0, sizeof iv);
    ST_OK(SQLBindCol(s, 1, SQL_C_INTERVAL_HOUR_TO_SECOND, &iv, sizeof iv, &len), s);
    SQLHDESC ard;
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_APP_ROW_DESC, &ard, 0, NULL), s);
    ST_OK(SQLSetDescField(ard, 1, SQL_DESC_PRECISION, (SQLPOINTER)20, 0), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"SELECT '01:02:03.123456'::interval", SQL_NTS), s);
    SQLRETURN rc = SQLFetch(s);
    ST_CHECK(rc == SQL_SUCCESS && iv.intval.day_second.hour == 1 &&
             iv.intval.day_second.second == 3 && iv.intval.day_second.fraction == 123456000,
             "precision 20: rc %d fraction %u", rc, (unsigned)iv.intval.day_second.fraction);
    SQLFreeStmt(s, SQL_CLOSE);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* The text 'a<LF>b<CR><LF>c' read as CHAR and WCHAR on a connection with
 * the keys `extra`: its length in characters must be `want`. */
static void line_ends(const char *extra, SQLLEN want)
{
    st_conn c;
    st_connect_with(&c, extra);
    SQLHSTMT s = st_stmt(&c);
    char text[32];
    SQLLEN len = 0;
    SQLRETURN rc = get_first(s, "SELECT E'a\\nb\\r\\nc'", SQL_C_CHAR, text, sizeof text, &len);
    const char *expect = want == 7 ? "a\r\nb\r\nc" : "a\nb\r\nc";
    ST_CHECK(rc == SQL_SUCCESS && len == want && strcmp(text, expect) == 0,
             "%s: CHAR rc %d len %ld", extra, rc, (long)len);
    SQLWCHAR wide[32];
    rc = get_first(s, "SELECT E'a\\nb\\r\\nc'", SQL_C_WCHAR, wide, sizeof wide, &len);
    ST_CHECK(rc == SQL_SUCCESS && len == want * 2 && wide[1] == (want == 7 ? '\r' : '\n'),
             "%s: WCHAR rc %d len %ld", extra, rc, (long)len);
    /* Cut by the added CRs: 01004 and the whole length. */
    rc = get_first(s, "SELECT E'a\\nb\\r\\nc'", SQL_C_CHAR, text, 4, &len);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO && len == want, "%s: cut rc %d len %ld", extra, rc,
             (long)len);
    SQLFreeStmt(s, SQL_CLOSE);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);
}

static void bytea_type_size(void)
{
    st_conn c;
    st_connect_with(&c, "ByteaAsLongVarBinary=1");
    SQLHSTMT s = st_stmt(&c);
    ST_OK(SQLGetTypeInfo(s, SQL_LONGVARBINARY), s);
    char name[64] = "";
    SQLUINTEGER size = 0;
    ST_OK(SQLBindCol(s, 1, SQL_C_CHAR, name, sizeof name, NULL), s);
    ST_OK(SQLBindCol(s, 3, SQL_C_ULONG, &size, sizeof size, NULL), s);
    int bytea_rows = 0;
    SQLRETURN rc;
    while ((rc = SQLFetch(s)) != SQL_NO_DATA) {
        ST_OK(rc, s);
        if (!ST_SUCCEEDED(rc))
            break;
        if (strcmp(name, "bytea") == 0) {
            bytea_rows++;
            ST_CHECK(size == 2147483647u, "bytea COLUMN_SIZE %lu", (unsigned long)size);
        }
    }
    ST_CHECK(bytea_rows == 1, "%d bytea rows", bytea_rows);
    SQLFreeStmt(s, SQL_CLOSE);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    numeric_struct(&c);
    binary_and_character_forms(&c);
    interval_seconds_precision(&c);
    st_disconnect(&c);

    line_ends("", 6);
    line_ends("LFConversion=0", 6);
    line_ends("LFConversion=1", 7);
    line_ends("CX=1", 7);   /* psqlODBC's one-digit mask: its first bit */
    bytea_type_size();

    /* A CX that is not hex is refused at connect. */
    st_expect_connect_state("CX=Z", "HY024");
    return st_finish("result_conversions");
}
