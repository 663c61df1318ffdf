/*
 * Errors carry the right SQLSTATE: the server's for server errors (42601,
 * 23505, 22012), ODBC's for bad client data (22018) and for misuse of the
 * API (HY010, 24000, 07002, 07009, HY106, HY105, HY090). A statement stays
 * usable after each; a fetch after a failed statement gets SQL_NO_DATA, as
 * psqlODBC answers it.
 */
#include "st_test.h"

int main(void)
{
    st_conn c;
    st_connect(&c);
    st_exec(&c, "drop table if exists stmt_err");
    st_exec(&c, "create table stmt_err(id int primary key)");
    SQLHSTMT s = st_stmt(&c);

    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)"selec 1", SQL_NTS), s, "42601");
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"insert into stmt_err values (1)", SQL_NTS), s);
    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)"insert into stmt_err values (1)", SQL_NTS), s, "23505");
    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)"select 1/0", SQL_NTS), s, "22012");

    /* Prepared: the error comes at SQLExecute (the server statement is
     * made lazily), or at SQLNumResultCols when asked before. */
    ST_OK(SQLPrepare(s, (SQLCHAR *)"select * from no_such_table", SQL_NTS), s);
    ST_EXPECT_STATE(SQLExecute(s), s, "42P01");
    ST_OK(SQLPrepare(s, (SQLCHAR *)"select * from no_such_table", SQL_NTS), s);
    SQLSMALLINT cols;
    ST_EXPECT_STATE(SQLNumResultCols(s, &cols), s, "42P01");

    /* 22018: text that is no integer, bound for an integer parameter. */
    SQLLEN ind = SQL_NTS;
    ST_OK(SQLPrepare(s, (SQLCHAR *)"insert into stmt_err values (?)", SQL_NTS), s);
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_INTEGER, 0, 0, "abc", 0, &ind), s);
    ST_EXPECT_STATE(SQLExecute(s), s, "22018");
    /* 22018 on fetch: text that is no integer, read as an integer. */
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select 'abc'", SQL_NTS), s);
    ST_OK(SQLFetch(s), s);
    SQLINTEGER v;
    ST_EXPECT_STATE(SQLGetData(s, 1, SQL_C_SLONG, &v, 0, &ind), s, "22018");
    ST_OK(SQLCloseCursor(s), s);
    /* 22003 out of range. */
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select 100000", SQL_NTS), s);
    ST_OK(SQLFetch(s), s);
    SQLSMALLINT small;
    ST_EXPECT_STATE(SQLGetData(s, 1, SQL_C_SSHORT, &small, 0, &ind), s, "22003");
    ST_OK(SQLFreeStmt(s, SQL_CLOSE), s);

    /* 07002: a marker without a bound parameter. */
    ST_OK(SQLFreeStmt(s, SQL_RESET_PARAMS), s);
    ST_OK(SQLPrepare(s, (SQLCHAR *)"select ?, ?", SQL_NTS), s);
    SQLINTEGER one = 1;
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &one, 0, NULL), s);
    ST_EXPECT_STATE(SQLExecute(s), s, "07002");

    /* 24000: closing a cursor that is not open; executing over an open one. */
    ST_EXPECT_STATE(SQLCloseCursor(s), s, "24000");
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select 1", SQL_NTS), s);
    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)"select 2", SQL_NTS), s, "24000");
    /* 07009: column 0 (bookmarks) and past the last column. */
    ST_OK(SQLFetch(s), s);
    ST_EXPECT_STATE(SQLGetData(s, 2, SQL_C_SLONG, &v, 0, &ind), s, "07009");
    ST_EXPECT_STATE(SQLBindCol(s, 0, SQL_C_SLONG, &v, 0, &ind), s, "07009");
    /* HY106: forward-only cursor. */
    ST_EXPECT_STATE(SQLFetchScroll(s, SQL_FETCH_FIRST, 0), s, "HY106");
    ST_OK(SQLCloseCursor(s), s);

    /* HY105: no such parameter type. */
    ST_EXPECT_STATE(SQLBindParameter(s, 1, 99, SQL_C_SLONG, SQL_INTEGER, 0, 0, &one, 0, NULL),
                    s, "HY105");
    /* HY010: SQLExecute with nothing prepared (after SQLExecDirect). */
    ST_OK(SQLFreeStmt(s, SQL_RESET_PARAMS), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"set search_path = public", SQL_NTS), s);
    SQLHSTMT fresh = st_stmt(&c);
    ST_EXPECT_STATE(SQLExecute(fresh), fresh, "HY010");
    SQLLEN count;
    SQLRETURN rc = SQLRowCount(fresh, &count);
    ST_CHECK(rc == SQL_ERROR, "SQLRowCount before executing gives SQL_ERROR (%d)", (int)rc);
    SQLFreeHandle(SQL_HANDLE_STMT, fresh);
    /* After that SET (no result set), as psqlODBC answers: a forward-only
     * fetch other than NEXT is HY106; and after a failing statement the
     * driver manager passes a fetch on, which gets SQL_NO_DATA (a program's
     * fetch loop ends) rather than an error. */
    ST_EXPECT_STATE(SQLFetchScroll(s, SQL_FETCH_LAST, 0), s, "HY106");
    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)"insert into stmt_err values (1)", SQL_NTS), s,
                    "23505");
    rc = SQLFetch(s);
    ST_CHECK(rc == SQL_NO_DATA, "a fetch after a failed statement: rc %d", (int)rc);

    /* Still usable; a failed statement in a transaction, then rollback. */
    ST_CHECK(strcmp(st_query_text(&c, "select 'alive'"), "alive") == 0, "usable after errors");
    SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0);
    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)"select 1/0", SQL_NTS), s, "22012");
    /* RollbackOnError=2 (the default) undid the failed statement alone
     * (test_rollback_levels.c has every level). */
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select 1", SQL_NTS), s);
    SQLFreeStmt(s, SQL_CLOSE);
    ST_CHECK(ST_SUCCEEDED(SQLEndTran(SQL_HANDLE_DBC, c.dbc, SQL_ROLLBACK)), "rollback");
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select 1", SQL_NTS), s);
    SQLFreeStmt(s, SQL_CLOSE);
    SQLEndTran(SQL_HANDLE_DBC, c.dbc, SQL_COMMIT);
    SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0);

    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_exec(&c, "drop table stmt_err");
    st_disconnect(&c);
    return st_finish("errors");
}
