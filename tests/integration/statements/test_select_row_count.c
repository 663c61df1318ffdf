/*
 * SQLRowCount after a SELECT (docs/statements.md, "Result sets and
 * metadata"): exact as soon as SQLExecute returns when the whole result
 * fits the first window (FetchWindowRows rows, 1000 by default); -1 while a
 * larger result still streams, exact once its last row has arrived: fetched
 * to the end, or buffered because another statement needed the session. An
 * error within the first window fails SQLExecute.
 */
#include "st_test.h"

static int fetch_all(SQLHSTMT s)
{
    int n = 0;
    while (SQLFetch(s) == SQL_SUCCESS)
        n++;
    return n;
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    SQLHSTMT s = st_stmt(&c);

    ST_OK(st_run(s, "select g from generate_series(1, 5) g"), s);
    ST_CHECK(st_row_count(s) == 5, "5 rows: %ld before any fetch", (long)st_row_count(s));
    ST_CHECK(fetch_all(s) == 5, "5 rows fetched");
    ST_CHECK(st_row_count(s) == 5, "5 rows after fetching");

    ST_OK(st_run(s, "select 1 where false"), s);
    ST_CHECK(st_row_count(s) == 0, "no row: %ld", (long)st_row_count(s));

    /* Prepared, executed twice. */
    SQLFreeStmt(s, SQL_CLOSE);
    ST_OK(SQLPrepare(s, (SQLCHAR *)"select g from generate_series(1, 3) g", SQL_NTS), s);
    ST_OK(SQLExecute(s), s);
    ST_CHECK(st_row_count(s) == 3, "prepared: %ld", (long)st_row_count(s));
    SQLFreeStmt(s, SQL_CLOSE);
    ST_OK(SQLExecute(s), s);
    ST_CHECK(st_row_count(s) == 3, "prepared again: %ld", (long)st_row_count(s));

    /* Exactly the window, then one row more. */
    ST_OK(st_run(s, "select g from generate_series(1, 1000) g"), s);
    ST_CHECK(st_row_count(s) == 1000, "1000 rows: %ld", (long)st_row_count(s));
    ST_OK(st_run(s, "select g from generate_series(1, 1001) g"), s);
    ST_CHECK(st_row_count(s) == -1, "1001 rows still streaming: %ld", (long)st_row_count(s));
    ST_CHECK(fetch_all(s) == 1001, "1001 rows fetched");
    ST_CHECK(st_row_count(s) == 1001, "1001 rows at the end: %ld", (long)st_row_count(s));

    /* Wide rows: the window also stops at 1 MiB of values. */
    ST_OK(st_run(s, "select repeat('x', 10000) from generate_series(1, 200)"), s);
    ST_CHECK(st_row_count(s) == -1, "200 rows of 10 kB still streaming: %ld",
             (long)st_row_count(s));
    ST_CHECK(fetch_all(s) == 200, "200 wide rows fetched");
    ST_CHECK(st_row_count(s) == 200, "200 wide rows at the end: %ld", (long)st_row_count(s));

    /* A large result buffered because another statement ran. */
    ST_OK(st_run(s, "select g from generate_series(1, 5000) g"), s);
    ST_CHECK(st_row_count(s) == -1, "5000 rows streaming");
    ST_OK(SQLFetch(s), s);
    ST_CHECK(strcmp(st_query_text(&c, "select 'other'"), "other") == 0, "other statement");
    ST_CHECK(st_row_count(s) == 5000, "5000 rows once buffered: %ld", (long)st_row_count(s));
    ST_CHECK(fetch_all(s) == 4999, "the rest fetched from memory");

    /* An error within the first window: the statement fails at once, as
     * with a driver that reads whole results; beyond it, the fetch that
     * reaches it reports it. */
    ST_EXPECT_STATE(st_run(s, "select 10 / (3 - g) from generate_series(1, 5) g"), s, "22012");
    ST_OK(st_run(s, "select 1 / (1500 - g) from generate_series(1, 2000) g"), s);
    ST_CHECK(st_row_count(s) == -1, "still streaming: %ld", (long)st_row_count(s));
    ST_CHECK(fetch_all(s) == 1499, "rows before the error");
    ST_CHECK(st_has_state(SQL_HANDLE_STMT, s, "22012"), "the fetch reports the error");
    ST_CHECK(st_row_count(s) == -1, "a set ended by an error has no count: %ld",
             (long)st_row_count(s));
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);

    /* FetchWindowRows sets the window. */
    char connstr[256];
    snprintf(connstr, sizeof connstr, "DSN=%s;FetchWindowRows=10", getenv("GC_TEST_DSN"));
    SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &c.env);
    SQLSetEnvAttr(c.env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
    SQLAllocHandle(SQL_HANDLE_DBC, c.env, &c.dbc);
    SQLRETURN rc = SQLDriverConnect(c.dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0, NULL,
                                    SQL_DRIVER_NOPROMPT);
    ST_CHECK(ST_SUCCEEDED(rc), "connect with FetchWindowRows=10");
    s = st_stmt(&c);
    ST_OK(st_run(s, "select g from generate_series(1, 10) g"), s);
    ST_CHECK(st_row_count(s) == 10, "10 rows in a window of 10: %ld", (long)st_row_count(s));
    ST_OK(st_run(s, "select g from generate_series(1, 11) g"), s);
    ST_CHECK(st_row_count(s) == -1, "11 rows in a window of 10: %ld", (long)st_row_count(s));
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);
    return st_finish("select_row_count");
}
