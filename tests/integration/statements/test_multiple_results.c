/*
 * A batch of several statements gives several results, walked with
 * SQLMoreResults: result sets and row counts in order, then SQL_NO_DATA.
 * An error in a later statement fails the execute itself, as psqlODBC
 * fails it, and nothing of the text stays applied (the server ran it as
 * one implicit transaction): a program that never calls SQLMoreResults
 * must not take it for done. Also: notices arrive as SQL_SUCCESS_WITH_INFO with the
 * server's SQLSTATE (00000 for RAISE NOTICE), as psqlODBC gives them.
 */
#include "st_test.h"

int main(void)
{
    st_conn c;
    st_connect(&c);
    st_exec(&c, "drop table if exists stmt_mr");
    st_exec(&c, "create table stmt_mr(id int)");
    SQLHSTMT s = st_stmt(&c);
    SQLSMALLINT cols = -1;
    SQLLEN count = -2;
    SQLINTEGER v = 0;
    SQLLEN ind = 0;

    ST_OK(SQLExecDirect(s, (SQLCHAR *)
        "select 1 union all select 2; insert into stmt_mr values (1), (2), (3); "
        "select 'x' as a, 'y' as b; update stmt_mr set id = id + 1", SQL_NTS), s);
    /* 1: a result set of two rows. */
    ST_OK(SQLNumResultCols(s, &cols), s);
    ST_CHECK(cols == 1, "result 1 has %d columns", cols);
    ST_OK(SQLBindCol(s, 1, SQL_C_SLONG, &v, 0, &ind), s);
    ST_OK(SQLFetch(s), s);
    ST_CHECK(v == 1, "first row %d", (int)v);
    /* Leave a row unread: SQLMoreResults skips it. */
    ST_OK(SQLMoreResults(s), s);
    /* 2: the insert. */
    ST_OK(SQLNumResultCols(s, &cols), s);
    ST_CHECK(cols == 0, "result 2 has %d columns", cols);
    ST_OK(SQLRowCount(s, &count), s);
    ST_CHECK(count == 3, "insert count %ld", (long)count);
    ST_OK(SQLMoreResults(s), s);
    /* 3: two columns. */
    ST_OK(SQLNumResultCols(s, &cols), s);
    ST_CHECK(cols == 2, "result 3 has %d columns", cols);
    SQLFreeStmt(s, SQL_UNBIND);
    ST_OK(SQLFetch(s), s);
    char buf[8];
    ST_OK(SQLGetData(s, 2, SQL_C_CHAR, buf, sizeof buf, &ind), s);
    ST_CHECK(strcmp(buf, "y") == 0, "result 3 column 2 '%s'", buf);
    ST_CHECK(SQLFetch(s) == SQL_NO_DATA, "result 3 has one row");
    ST_OK(SQLMoreResults(s), s);
    /* 4: the update. */
    ST_OK(SQLRowCount(s, &count), s);
    ST_CHECK(count == 3, "update count %ld", (long)count);
    ST_CHECK(SQLMoreResults(s) == SQL_NO_DATA, "four results");
    ST_CHECK(SQLFetch(s) != SQL_SUCCESS, "no cursor after the last result");

    /* An error in the second statement fails the execute; no result is
     * left to walk, and the first statement's insert is undone. */
    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)"select 1; select 1/0; select 3", SQL_NTS), s,
                    "22012");
    ST_CHECK(SQLFetch(s) == SQL_ERROR, "no cursor after a failed text");
    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)"insert into stmt_mr values (7); "
                                  "insert into stmt_mr values (1/0)", SQL_NTS), s, "22012");
    ST_CHECK(strcmp(st_query_text(&c, "select count(*) from stmt_mr where id = 7"), "0") == 0,
             "the failed text's first insert stayed");
    ST_OK(SQLFreeStmt(s, SQL_CLOSE), s);

    /* Notices. */
    SQLRETURN rc = SQLExecDirect(s, (SQLCHAR *)
        "do $$ begin raise notice 'hello from the server'; end $$", SQL_NTS);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO && st_has_state(SQL_HANDLE_STMT, s, "00000"),
             "notice gives SQL_SUCCESS_WITH_INFO 00000 (rc %d)", (int)rc);
    if (rc != SQL_SUCCESS_WITH_INFO)
        st_dump_diag(SQL_HANDLE_STMT, s);

    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_exec(&c, "drop table stmt_mr");
    st_disconnect(&c);
    return st_finish("multiple_results");
}
