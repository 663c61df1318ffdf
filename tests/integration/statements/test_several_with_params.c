/*
 * A text of several statements with `?` markers: the markers are numbered
 * across the whole text, each statement gets its own values, and the
 * results come one by one through SQLMoreResults, prepared or direct.
 * Before SQLExecute, SQLNumResultCols / SQLDescribeCol answer for the first
 * statement without running anything. Values that would break out of a
 * literal (quotes, backslashes) stay values; NULL, numbers and bytea keep
 * their types.
 */
#include "st_test.h"

static SQLLEN count_rows(st_conn *c, const char *sql)
{
    return atol(st_query_text(c, sql));
}

/* Fetches the only row of the current result and returns column col as text. */
static void one_row_text(SQLHSTMT s, SQLUSMALLINT col, char *buf, SQLLEN size)
{
    SQLLEN ind = 0;
    buf[0] = '\0';
    ST_OK(SQLFetch(s), s);
    ST_OK(SQLGetData(s, col, SQL_C_CHAR, buf, size, &ind), s);
    if (ind == SQL_NULL_DATA)
        snprintf(buf, (size_t)size, "(null)");
    ST_CHECK(SQLFetch(s) == SQL_NO_DATA, "one row only");
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    st_exec(&c, "drop table if exists stmt_several");
    st_exec(&c, "create table stmt_several(id int, t text)");
    st_exec(&c, "drop function if exists stmt_several_add(text)");
    st_exec(&c, "create function stmt_several_add(v text) returns text language sql as "
                "$$ insert into stmt_several values (0, v) returning 'added'::text $$");
    SQLHSTMT s = st_stmt(&c);
    char buf[64];
    SQLSMALLINT cols = -1;

    /* Prepared: described before it runs by its first statement only. */
    ST_OK(SQLPrepare(s, (SQLCHAR *)"select 'a', 2, 3; select stmt_several_add(?), ?", SQL_NTS),
          s);
    ST_OK(SQLNumResultCols(s, &cols), s);
    ST_CHECK(cols == 3, "first statement has 3 columns, got %d", cols);
    ST_CHECK(count_rows(&c, "select count(*) from stmt_several") == 0,
             "describing ran nothing");
    SQLCHAR name[32];
    SQLSMALLINT name_len = 0, type = 0, digits = 0, nullable = 0;
    SQLULEN size = 0;
    ST_OK(SQLDescribeCol(s, 2, name, sizeof name, &name_len, &type, &size, &digits, &nullable),
          s);
    ST_CHECK(type == SQL_INTEGER, "column 2 is an integer (%d)", type);

    /* Executed with values for the second statement's markers 1 and 2. */
    char v1[48] = "it's a \\ value";
    SQLINTEGER v2 = 42;
    SQLLEN i1 = SQL_NTS, i2 = 0;
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 30, 0, v1,
                           sizeof v1, &i1), s);
    ST_OK(SQLBindParameter(s, 2, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &v2, 0, &i2),
          s);
    ST_OK(SQLExecute(s), s);
    one_row_text(s, 1, buf, sizeof buf);
    ST_CHECK(strcmp(buf, "a") == 0, "first result '%s'", buf);
    ST_OK(SQLMoreResults(s), s);
    ST_OK(SQLNumResultCols(s, &cols), s);
    ST_CHECK(cols == 2, "second result has 2 columns, got %d", cols);
    ST_OK(SQLDescribeCol(s, 2, name, sizeof name, &name_len, &type, &size, &digits, &nullable),
          s);
    ST_CHECK(type == SQL_INTEGER, "an integer parameter stays an integer (%d)", type);
    one_row_text(s, 2, buf, sizeof buf);
    ST_CHECK(strcmp(buf, "42") == 0, "second result column 2 '%s'", buf);
    ST_CHECK(SQLMoreResults(s) == SQL_NO_DATA, "two results");
    ST_CHECK(strcmp(st_query_text(&c, "select t from stmt_several"), "it's a \\ value") == 0,
             "the quote and backslash arrived as they were: '%s'",
             st_query_text(&c, "select t from stmt_several"));

    /* Executed again with other values: NULL, and a value trying to end
     * the literal and run a statement of its own. */
    snprintf(v1, sizeof v1, "x'); delete from stmt_several; --");
    i2 = SQL_NULL_DATA;
    ST_OK(SQLExecute(s), s);
    ST_OK(SQLMoreResults(s), s);
    one_row_text(s, 2, buf, sizeof buf);
    ST_CHECK(strcmp(buf, "(null)") == 0, "NULL parameter gives '%s'", buf);
    ST_CHECK(SQLMoreResults(s) == SQL_NO_DATA, "two results");
    ST_CHECK(count_rows(&c, "select count(*) from stmt_several") == 2,
             "the value ran no statement of its own");
    ST_OK(SQLFreeStmt(s, SQL_CLOSE), s);
    ST_OK(SQLFreeStmt(s, SQL_RESET_PARAMS), s);

    /* Direct, markers numbered across the text, a bytea value. */
    unsigned char bytes[3] = { 0x00, 0x27, 0x5c };
    SQLLEN blen = sizeof bytes;
    SQLINTEGER id = 7;
    SQLLEN idlen = 0;
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &id, 0, &idlen),
          s);
    ST_OK(SQLBindParameter(s, 2, SQL_PARAM_INPUT, SQL_C_BINARY, SQL_VARBINARY, 3, 0, bytes,
                           sizeof bytes, &blen), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"insert into stmt_several values (?, 'b'); "
                                      "select encode(?, 'hex'), count(*) from stmt_several",
                        SQL_NTS), s);
    SQLLEN count = 0;
    ST_OK(SQLRowCount(s, &count), s);
    ST_CHECK(count == 1, "the insert's count is %ld", (long)count);
    ST_OK(SQLMoreResults(s), s);
    one_row_text(s, 1, buf, sizeof buf);
    ST_CHECK(strcmp(buf, "00275c") == 0, "bytea arrived as '%s'", buf);
    ST_CHECK(SQLMoreResults(s) == SQL_NO_DATA, "two results");
    ST_CHECK(count_rows(&c, "select count(*) from stmt_several where id = 7") == 1,
             "row 7 inserted");

    /* An error in the second statement fails the execute with its SQLSTATE. */
    ST_OK(SQLFreeStmt(s, SQL_CLOSE), s);
    ST_OK(SQLFreeStmt(s, SQL_RESET_PARAMS), s);
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &id, 0, &idlen),
          s);
    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)"select 1; select 1 / (? - 7)", SQL_NTS), s,
                    "22012");

    /* Without parameters, prepared and executed with nothing between (as
     * PHP's PDO::query does): the server refuses to prepare it, so it runs
     * as a simple query, each result in its turn, again on a second run.
     * Before, the execute asked for an unnamed statement never made (26000). */
    SQLFreeStmt(s, SQL_CLOSE);
    SQLFreeStmt(s, SQL_RESET_PARAMS);
    ST_OK(SQLPrepare(s, (SQLCHAR *)"select 'p1'; select 'p2'", SQL_NTS), s);
    for (int run = 0; run < 2; run++) {
        ST_OK(SQLExecute(s), s);
        one_row_text(s, 1, buf, sizeof buf);
        ST_CHECK(strcmp(buf, "p1") == 0, "run %d: first result '%s'", run, buf);
        ST_OK(SQLMoreResults(s), s);
        one_row_text(s, 1, buf, sizeof buf);
        ST_CHECK(strcmp(buf, "p2") == 0, "run %d: second result '%s'", run, buf);
        ST_CHECK(SQLMoreResults(s) == SQL_NO_DATA, "run %d: two results", run);
    }
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_exec(&c, "drop table stmt_several");
    st_exec(&c, "drop function stmt_several_add(text)");
    st_disconnect(&c);
    return st_finish("several_with_params");
}
