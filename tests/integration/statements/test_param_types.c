/*
 * Every C type of the issue round-trips as a parameter through every
 * PostgreSQL type of the issue: SELECT CAST(? AS <type>) returns a value that
 * SQLGetData gives back, as the same C type, equal to what was bound, and
 * whose text is what PostgreSQL makes of it.
 */
#include <stdint.h>

#include "st_test.h"

typedef struct param_case {
    const char *what;
    SQLSMALLINT c_type, sql_type;
    SQLULEN column_size;
    SQLSMALLINT digits;
    const void *value;
    SQLLEN length;          /* bytes for CHAR/WCHAR/BINARY, else 0 */
    const char *pg_type;
    const char *text;       /* expected ::text of the value */
    int round_trip;         /* compare SQLGetData(c_type) with value */
} param_case;

static SQLCHAR v_tiny = (SQLCHAR)-5;
static SQLCHAR v_utiny = 200;
static SQLSMALLINT v_short = -1234;
static SQLUSMALLINT v_ushort = 60000;
static SQLINTEGER v_long = -123456;
static SQLUINTEGER v_ulong = 4000000000u;
static SQLBIGINT v_bigint = -9000000000000000000LL;
static SQLUBIGINT v_ubigint = 18000000000000000000ULL;
static SQLCHAR v_bit = 1;
static SQLREAL v_float = 1.5f;
static SQLDOUBLE v_double = 2.25;
static SQLINTEGER v_default = 7;
static SQL_DATE_STRUCT v_date = { 2020, 1, 2 };
static SQL_TIME_STRUCT v_time = { 13, 14, 15 };
static SQL_TIMESTAMP_STRUCT v_ts = { 2020, 1, 2, 3, 4, 5, 123456000 };
static unsigned char v_bin[] = { 0, 1, 2, 255 };
static SQLGUID v_guid = { 0x12345678, 0x9abc, 0xdef0, { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef } };
static SQL_NUMERIC_STRUCT v_numeric = { 10, 2, 1, { 0x39, 0x30 } };   /* 12345 scale 2 */
static SQLWCHAR v_wide[] = { 'h', 0xe9, 'l', 'l', 'o', 0x2713, 0 };

#define FIXED(ct, st, v, t, txt) { #ct " -> " t, ct, st, 0, 0, &v, 0, t, txt, 1 }
#define CHARS(s, st, t, txt, rt) { "CHAR '" s "' -> " t, SQL_C_CHAR, st, 255, 0, s, sizeof(s) - 1, t, txt, rt }

static const param_case cases[] = {
    FIXED(SQL_C_STINYINT, SQL_TINYINT, v_tiny, "int2", "-5"),
    FIXED(SQL_C_STINYINT, SQL_TINYINT, v_tiny, "int4", "-5"),
    FIXED(SQL_C_STINYINT, SQL_TINYINT, v_tiny, "numeric", "-5"),
    FIXED(SQL_C_UTINYINT, SQL_TINYINT, v_utiny, "int2", "200"),
    FIXED(SQL_C_UTINYINT, SQL_TINYINT, v_utiny, "int8", "200"),
    FIXED(SQL_C_SSHORT, SQL_SMALLINT, v_short, "int2", "-1234"),
    FIXED(SQL_C_SSHORT, SQL_SMALLINT, v_short, "float8", "-1234"),
    FIXED(SQL_C_SSHORT, SQL_SMALLINT, v_short, "text", "-1234"),
    FIXED(SQL_C_USHORT, SQL_INTEGER, v_ushort, "int4", "60000"),
    FIXED(SQL_C_SLONG, SQL_INTEGER, v_long, "int4", "-123456"),
    FIXED(SQL_C_SLONG, SQL_INTEGER, v_long, "int8", "-123456"),
    FIXED(SQL_C_SLONG, SQL_INTEGER, v_long, "numeric", "-123456"),
    FIXED(SQL_C_SLONG, SQL_INTEGER, v_long, "varchar", "-123456"),
    FIXED(SQL_C_ULONG, SQL_BIGINT, v_ulong, "int8", "4000000000"),
    FIXED(SQL_C_SBIGINT, SQL_BIGINT, v_bigint, "int8", "-9000000000000000000"),
    FIXED(SQL_C_SBIGINT, SQL_BIGINT, v_bigint, "numeric", "-9000000000000000000"),
    FIXED(SQL_C_UBIGINT, SQL_NUMERIC, v_ubigint, "numeric", "18000000000000000000"),
    FIXED(SQL_C_BIT, SQL_BIT, v_bit, "bool", "true"),
    FIXED(SQL_C_FLOAT, SQL_REAL, v_float, "float4", "1.5"),
    FIXED(SQL_C_FLOAT, SQL_REAL, v_float, "float8", "1.5"),
    FIXED(SQL_C_DOUBLE, SQL_DOUBLE, v_double, "float8", "2.25"),
    FIXED(SQL_C_DOUBLE, SQL_DOUBLE, v_double, "numeric", "2.25"),
    FIXED(SQL_C_DOUBLE, SQL_DOUBLE, v_double, "float4", "2.25"),
    /* A double reaches money, which PostgreSQL casts from numeric, never from float8. */
    FIXED(SQL_C_DOUBLE, SQL_DOUBLE, v_double, "money", "$2.25"),
    FIXED(SQL_C_TYPE_DATE, SQL_TYPE_DATE, v_date, "date", "2020-01-02"),
    FIXED(SQL_C_TYPE_TIME, SQL_TYPE_TIME, v_time, "time", "13:14:15"),
    FIXED(SQL_C_TYPE_TIMESTAMP, SQL_TYPE_TIMESTAMP, v_ts, "timestamp", "2020-01-02 03:04:05.123456"),
    FIXED(SQL_C_TYPE_TIMESTAMP, SQL_TYPE_TIMESTAMP, v_ts, "timestamptz", NULL),
    FIXED(SQL_C_GUID, SQL_GUID, v_guid, "uuid", "12345678-9abc-def0-0123-456789abcdef"),
    FIXED(SQL_C_DEFAULT, SQL_INTEGER, v_default, "int4", "7"),
    { "NUMERIC 123.45 -> numeric", SQL_C_NUMERIC, SQL_NUMERIC, 10, 2, &v_numeric, 0,
      "numeric(10,2)", "123.45", 0 },
    { "BINARY -> bytea", SQL_C_BINARY, SQL_VARBINARY, 4, 0, v_bin, sizeof v_bin,
      "bytea", "\\x000102ff", 1 },
    { "WCHAR -> text", SQL_C_WCHAR, SQL_WVARCHAR, 6, 0, v_wide, 12, "text",
      "h\xc3\xa9llo\xe2\x9c\x93", 1 },
    { "WCHAR -> varchar", SQL_C_WCHAR, SQL_WVARCHAR, 6, 0, v_wide, 12, "varchar(10)",
      "h\xc3\xa9llo\xe2\x9c\x93", 1 },
    CHARS("42", SQL_VARCHAR, "int2", "42", 1),
    CHARS("42", SQL_VARCHAR, "int4", "42", 1),
    CHARS("42", SQL_VARCHAR, "int8", "42", 1),
    CHARS("1.5", SQL_VARCHAR, "numeric", "1.5", 1),
    CHARS("1.5", SQL_VARCHAR, "float4", "1.5", 1),
    CHARS("1.5", SQL_VARCHAR, "float8", "1.5", 1),
    CHARS("hello", SQL_VARCHAR, "text", "hello", 1),
    CHARS("hello", SQL_VARCHAR, "varchar", "hello", 1),
    CHARS("hello", SQL_CHAR, "char(7)", "hello", 0),
    CHARS("2020-01-02", SQL_VARCHAR, "date", "2020-01-02", 1),
    CHARS("13:14:15", SQL_VARCHAR, "time", "13:14:15", 1),
    CHARS("2020-01-02 03:04:05", SQL_VARCHAR, "timestamp", "2020-01-02 03:04:05", 1),
    CHARS("{\"a\": 1}", SQL_VARCHAR, "json", "{\"a\": 1}", 1),
    CHARS("{\"a\": 1}", SQL_VARCHAR, "jsonb", "{\"a\": 1}", 1),
    /* A GUID reads back upper case (as psqlODBC gives it); the server's
     * text is lower case. */
    CHARS("12345678-9ABC-DEF0-0123-456789ABCDEF", SQL_VARCHAR, "uuid",
          "12345678-9abc-def0-0123-456789abcdef", 1),
};

/* Size of the value of a fixed-size C type for comparison. */
static size_t fixed_size(SQLSMALLINT c_type)
{
    switch (c_type) {
    case SQL_C_STINYINT: case SQL_C_UTINYINT: case SQL_C_BIT: return 1;
    case SQL_C_SSHORT: case SQL_C_USHORT: return 2;
    case SQL_C_SLONG: case SQL_C_ULONG: case SQL_C_FLOAT: case SQL_C_DEFAULT: return 4;
    case SQL_C_SBIGINT: case SQL_C_UBIGINT: case SQL_C_DOUBLE: return 8;
    case SQL_C_TYPE_DATE: return sizeof(SQL_DATE_STRUCT);
    case SQL_C_TYPE_TIME: return sizeof(SQL_TIME_STRUCT);
    case SQL_C_TYPE_TIMESTAMP: return sizeof(SQL_TIMESTAMP_STRUCT);
    case SQL_C_GUID: return sizeof(SQLGUID);
    default: return 0;
    }
}

static void run_case(st_conn *c, const param_case *pc)
{
    char sql[256];
    snprintf(sql, sizeof sql, "select v, v::text from (select CAST(? AS %s) as v) x", pc->pg_type);
    SQLHSTMT s = st_stmt(c);
    SQLLEN ind = pc->length;
    int before = st_failures;
    ST_OK(SQLPrepare(s, (SQLCHAR *)sql, SQL_NTS), s);
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, pc->c_type, pc->sql_type, pc->column_size,
                           pc->digits, (SQLPOINTER)pc->value, pc->length, &ind), s);
    ST_OK(SQLExecute(s), s);
    ST_OK(SQLFetch(s), s);
    char text[256] = "";
    SQLLEN tlen = 0;
    ST_OK(SQLGetData(s, 2, SQL_C_CHAR, text, sizeof text, &tlen), s);
    if (pc->text != NULL)
        ST_CHECK(strcmp(text, pc->text) == 0, "%s: text '%s', wanted '%s'", pc->what, text, pc->text);
    else
        ST_CHECK(strncmp(text, "2020-01-02 03:04:05.123456", 26) == 0, "%s: text '%s'", pc->what, text);
    if (pc->round_trip) {
        unsigned char back[256];
        memset(back, 0xEE, sizeof back);
        SQLLEN blen = 0;
        ST_OK(SQLGetData(s, 1, pc->c_type, back, sizeof back, &blen), s);
        if (pc->c_type == SQL_C_CHAR) {
            ST_CHECK(strcmp((char *)back, (const char *)pc->value) == 0,
                     "%s: got back '%s'", pc->what, (char *)back);
        } else if (pc->c_type == SQL_C_WCHAR || pc->c_type == SQL_C_BINARY) {
            ST_CHECK(blen == pc->length && memcmp(back, pc->value, (size_t)pc->length) == 0,
                     "%s: got back %ld bytes", pc->what, (long)blen);
        } else {
            size_t n = fixed_size(pc->c_type);
            ST_CHECK(n > 0 && memcmp(back, pc->value, n) == 0, "%s: value differs", pc->what);
        }
    }
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    if (st_failures == before)
        printf("ok   %s\n", pc->what);
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(&c, &cases[i]);

    /* NULL of every kind through SQL_NULL_DATA. */
    SQLHSTMT s = st_stmt(&c);
    SQLLEN null_ind = SQL_NULL_DATA, ind = 0;
    SQLINTEGER dummy = 0;
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &dummy, 0,
                           &null_ind), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select CAST(? AS int4) is null", SQL_NTS), s);
    ST_OK(SQLFetch(s), s);
    char b[8] = "";
    ST_OK(SQLGetData(s, 1, SQL_C_CHAR, b, sizeof b, &ind), s);
    ST_CHECK(strcmp(b, "1") == 0 || strcmp(b, "t") == 0 || strcmp(b, "true") == 0,
             "NULL parameter arrived as '%s'", b);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);
    return st_finish("param_types");
}
