/*
 * test_empty_dates: psqlODBC's extra options bit 0x8 (AB=0x08). An empty
 * string bound as character data to a parameter the server takes as a
 * date, timestamp or timestamptz goes as NULL, inside a transaction too;
 * an empty string for a text parameter stays an empty string. Read back as
 * character data such a NULL is the empty string; as a date it is NULL.
 * Without the bit the server refuses '' (22007); a mask that is not a
 * number is HY024 at connect.
 */
#include "st_test.h"

static const char *const insert_sql = "INSERT INTO empty_dates VALUES (?, ?, ?, ?)";

/* Inserts '' into every column of empty_dates through parameters; returns
 * SQLExecDirect's answer. */
static SQLRETURN insert_empty(SQLHSTMT s)
{
    static char empty[] = "";
    static SQLLEN nts = SQL_NTS;
    for (SQLUSMALLINT i = 1; i <= 4; i++)
        ST_OK(SQLBindParameter(s, i, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_CHAR, 10, 0, empty, 0,
                               &nts), s);
    return SQLExecDirect(s, (SQLCHAR *)insert_sql, SQL_NTS);
}

static void with_the_bit(void)
{
    st_conn c;
    st_connect_with(&c, "AB=0x08");
    st_exec(&c, "CREATE TEMPORARY TABLE empty_dates (d date, ts timestamp, tz timestamptz, t text)");
    SQLHSTMT s = st_stmt(&c);
    ST_OK(insert_empty(s), s);
    /* inside a transaction the statement is described without harm */
    ST_OK(SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0), s);
    ST_OK(insert_empty(s), s);
    ST_OK(SQLEndTran(SQL_HANDLE_DBC, c.dbc, SQL_COMMIT), s);
    ST_OK(SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0), s);
    SQLFreeStmt(s, SQL_RESET_PARAMS);
    ST_CHECK(strcmp(st_query_text(&c, "SELECT count(*) FROM empty_dates WHERE d IS NULL AND "
                                      "ts IS NULL AND tz IS NULL AND t = ''"), "2") == 0,
             "rows with NULL dates and an empty text: %s",
             st_query_text(&c, "SELECT count(*) FROM empty_dates"));

    /* Read back: '' as character data, NULL as a date. */
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"SELECT d, ts, tz, d FROM empty_dates", SQL_NTS), s);
    ST_OK(SQLFetch(s), s);
    char text[16] = "x";
    SQLLEN len = 99;
    ST_OK(SQLGetData(s, 1, SQL_C_CHAR, text, sizeof text, &len), s);
    ST_CHECK(text[0] == '\0' && len == 0, "date as text: '%s' (%ld)", text, (long)len);
    SQLWCHAR wide[8] = { 'x' };
    ST_OK(SQLGetData(s, 2, SQL_C_WCHAR, wide, sizeof wide, &len), s);
    ST_CHECK(wide[0] == 0 && len == 0, "timestamp as wide text: length %ld", (long)len);
    ST_OK(SQLGetData(s, 3, SQL_C_CHAR, text, sizeof text, &len), s);
    ST_CHECK(text[0] == '\0' && len == 0, "timestamptz as text: length %ld", (long)len);
    SQL_DATE_STRUCT date;
    ST_OK(SQLGetData(s, 4, SQL_C_TYPE_DATE, &date, sizeof date, &len), s);
    ST_CHECK(len == SQL_NULL_DATA, "date as a date: %ld", (long)len);
    SQLFreeStmt(s, SQL_CLOSE);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);
}

static void without_the_bit(void)
{
    st_conn c;
    st_connect_with(&c, "AB=0x7");
    st_exec(&c, "CREATE TEMPORARY TABLE empty_dates (d date, ts timestamp, tz timestamptz, t text)");
    SQLHSTMT s = st_stmt(&c);
    ST_EXPECT_STATE(insert_empty(s), s, "22007");
    SQLFreeStmt(s, SQL_RESET_PARAMS);
    /* and a NULL date reads as NULL */
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"SELECT NULL::date", SQL_NTS), s);
    ST_OK(SQLFetch(s), s);
    char text[16];
    SQLLEN len = 0;
    ST_OK(SQLGetData(s, 1, SQL_C_CHAR, text, sizeof text, &len), s);
    ST_CHECK(len == SQL_NULL_DATA, "NULL date as text without the bit: %ld", (long)len);
    SQLFreeStmt(s, SQL_CLOSE);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);
}

int main(void)
{
    with_the_bit();
    without_the_bit();

    st_expect_connect_state("AB=eight", "HY024");
    return st_finish("empty_dates");
}
