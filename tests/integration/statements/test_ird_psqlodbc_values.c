/*
 * The result-column fields ODBC leaves to the driver carry psqlODBC's values:
 * SQL_DESC_OCTET_LENGTH is 0 for numbers, dates, booleans and intervals and
 * capped at MaxVarcharSize for a short character column; SQL_DESC_PRECISION
 * is 0 for integers and character columns; an interval's type name says its
 * fields. What ODBC prescribes stays: SQL_COLUMN_LENGTH (ODBC 2) is the bytes
 * of the default C type, SQLDescribeCol's column size the digits.
 */
#include "st_test.h"

static const char columns[] =
    "SELECT 1::int4 AS i4, 2::int8 AS i8, 1.5::numeric(5,2) AS num, '2020-01-02'::date AS d,"
    " true AS b, '5 days'::interval day to second AS iv, 'x'::varchar(5) AS v5,"
    " 'y'::varchar AS v, 'z'::varchar(200) AS v200, '\\x01'::bytea AS bin";

/* SQLColAttribute(field) of column col as a number. */
static SQLLEN number(SQLHSTMT s, SQLUSMALLINT col, SQLUSMALLINT field)
{
    SQLLEN n = -99;
    ST_OK(SQLColAttribute(s, col, field, NULL, 0, NULL, &n), s);
    return n;
}

static void octet_lengths(void)
{
    st_conn c;
    st_connect_with(&c, "MaxVarcharSize=100");
    SQLHSTMT s = st_stmt(&c);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)columns, SQL_NTS), s);
    static const struct { SQLUSMALLINT col; SQLLEN octets, column_length; const char *what; } want[] = {
        {1, 0, 4, "int4"}, {2, 0, 8, "int8"}, {3, 0, 7, "numeric(5,2)"},
        {4, 0, 6, "date"}, {5, 0, 1, "bool"}, {6, 0, 264, "interval"},
        {7, 20, 20, "varchar(5): 4 bytes a character"},
        {8, 100, 400, "varchar of MaxVarcharSize characters: capped at MaxVarcharSize"},
        {9, 800, 800, "varchar(200), longer than MaxVarcharSize: not capped"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        SQLLEN octets = number(s, want[i].col, SQL_DESC_OCTET_LENGTH);
        SQLLEN length = number(s, want[i].col, SQL_COLUMN_LENGTH);
        ST_CHECK(octets == want[i].octets && length == want[i].column_length,
                 "%s: SQL_DESC_OCTET_LENGTH %ld SQL_COLUMN_LENGTH %ld, expected %ld %ld",
                 want[i].what, (long)octets, (long)length, (long)want[i].octets,
                 (long)want[i].column_length);
    }
    SQLLEN bin = number(s, 10, SQL_DESC_OCTET_LENGTH);
    ST_CHECK(bin > 0 && bin == number(s, 10, SQL_COLUMN_LENGTH),
             "bytea keeps its octet length: %ld", (long)bin);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);
}

static void precisions(void)
{
    st_conn c;
    st_connect(&c);
    SQLHSTMT s = st_stmt(&c);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)columns, SQL_NTS), s);
    SQLHDESC ird = SQL_NULL_HDESC;
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_IMP_ROW_DESC, &ird, 0, NULL), s);
    SQLCHAR name[32];
    SQLSMALLINT type, sub, precision, scale, nullable;
    SQLLEN length;
    SQLRETURN rc = SQLGetDescRec(ird, 1, name, sizeof name, NULL, &type, &sub, &length,
                                 &precision, &scale, &nullable);
    ST_CHECK(rc == SQL_SUCCESS && type == SQL_INTEGER && length == 0 && precision == 0,
             "int4 record: rc %d type %d octet length %ld precision %d", rc, type,
             (long)length, precision);
    rc = SQLGetDescRec(ird, 3, name, sizeof name, NULL, &type, &sub, &length, &precision,
                       &scale, &nullable);
    ST_CHECK(rc == SQL_SUCCESS && type == SQL_NUMERIC && precision == 5 && scale == 2 &&
             length == 0, "numeric(5,2) record: rc %d type %d precision %d scale %d length %ld",
             rc, type, precision, scale, (long)length);
    SQLSMALLINT v5_precision = -1;
    ST_OK(SQLGetDescField(ird, 7, SQL_DESC_PRECISION, &v5_precision, 0, NULL), s);
    ST_CHECK(v5_precision == 0, "varchar(5) precision %d", v5_precision);
    ST_CHECK(number(s, 2, SQL_DESC_PRECISION) == 0, "int8 SQL_DESC_PRECISION");
    ST_CHECK(number(s, 2, SQL_COLUMN_PRECISION) == 19, "int8 SQL_COLUMN_PRECISION (ODBC 2)");
    SQLULEN size = 0;
    ST_OK(SQLDescribeCol(s, 1, NULL, 0, NULL, &type, &size, NULL, NULL), s);
    ST_CHECK(size == 10, "int4 column size %lu", (unsigned long)size);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);
}

static void interval_names(void)
{
    st_conn c;
    st_connect(&c);
    SQLHSTMT s = st_stmt(&c);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)
        "SELECT '1'::interval, '1'::interval year, '1'::interval year to month,"
        " '1'::interval day to second, '1'::interval hour to minute,"
        " '1'::interval minute to second(2), '1'::interval second(3)", SQL_NTS), s);
    static const char *const names[] = {
        "interval", "interval year", "interval year to month", "interval day to second",
        "interval hour to minute", "interval minute to second", "interval second",
    };
    for (SQLUSMALLINT i = 0; i < sizeof names / sizeof names[0]; i++) {
        char name[64] = "";
        ST_OK(SQLColAttribute(s, i + 1, SQL_DESC_TYPE_NAME, name, sizeof name, NULL, NULL), s);
        ST_CHECK(strcmp(name, names[i]) == 0, "column %u type name '%s', expected '%s'",
                 i + 1, name, names[i]);
    }
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);
}

int main(void)
{
    octet_lengths();
    precisions();
    interval_names();
    return st_finish("ird_psqlodbc_values");
}
