/*
 * Refcursors and FetchRefcursors (psqlODBC's key): a procedure that opens
 * two cursors and returns their names with a count in INOUT arguments.
 * Without the key the CALL's row is the result set and its INOUT parameter
 * gets the count; with it, in a transaction, the cursors' rows are the
 * result sets (SQLMoreResults moves to the second), the parameter still
 * gets the count; with autocommit on it is HY000. A cursor name that names
 * no cursor fails with the server's error.
 */
#include "st_test.h"

#define PROC "gc_test_refcursor_pair"
#define FUNC "gc_test_refcursor_missing"

/* The rows of the current result set, "a,b;a,b;" (first two columns). */
static const char *rows_of(SQLHSTMT s)
{
    static char out[256];
    out[0] = '\0';
    SQLSMALLINT cols = 0;
    ST_OK(SQLNumResultCols(s, &cols), s);
    SQLRETURN rc;
    while ((rc = SQLFetch(s)) == SQL_SUCCESS) {
        for (SQLSMALLINT c = 1; c <= cols && c <= 2; c++) {
            char v[32];
            SQLLEN ind = 0;
            ST_OK(SQLGetData(s, (SQLUSMALLINT)c, SQL_C_CHAR, v, sizeof v, &ind), s);
            strncat(out, ind == SQL_NULL_DATA ? "null" : v, sizeof out - strlen(out) - 2);
            strcat(out, c < cols && c < 2 ? "," : ";");
        }
    }
    ST_CHECK(rc == SQL_NO_DATA, "fetch ended with %d", rc);
    return out;
}

/* Prepares CALL with its first argument bound INPUT_OUTPUT to *count. */
static SQLHSTMT prepared_call(st_conn *c, SQLINTEGER *count)
{
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLPrepare(s, (SQLCHAR *)"CALL " PROC "(?)", SQL_NTS), s);
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT_OUTPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0,
                           count, 0, NULL), s);
    return s;
}

static void without_the_key(void)
{
    st_conn c;
    st_connect(&c);
    SQLINTEGER count = 0;
    SQLHSTMT s = prepared_call(&c, &count);
    ST_OK(SQLExecute(s), s);
    ST_CHECK(count == 2, "INOUT parameter after CALL: %d", (int)count);
    /* The row stays the result set: the count and the two cursor names. */
    ST_CHECK(strcmp(rows_of(s), "2,up;") == 0, "CALL's row without the key");
    ST_CHECK(SQLMoreResults(s) == SQL_NO_DATA, "one result set");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);
}

static void with_the_key_in_a_transaction(void)
{
    st_conn c;
    st_connect_with(&c, "FetchRefcursors=1");
    ST_CHECK(SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF,
                            SQL_IS_UINTEGER) == SQL_SUCCESS, "autocommit off");
    SQLINTEGER count = 0;
    SQLHSTMT s = prepared_call(&c, &count);
    ST_OK(SQLExecute(s), s);
    ST_CHECK(count == 2, "INOUT parameter with FetchRefcursors: %d", (int)count);
    ST_CHECK(strcmp(rows_of(s), "1,a;2,b;3,c;") == 0, "first cursor's rows");
    ST_OK(SQLMoreResults(s), s);
    ST_CHECK(strcmp(rows_of(s), "c,3;b,2;a,1;") == 0, "second cursor's rows");
    ST_CHECK(SQLMoreResults(s) == SQL_NO_DATA, "two result sets");

    /* A result without refcursor columns is left as it is. */
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select 7, 'x'", SQL_NTS), s);
    ST_CHECK(strcmp(rows_of(s), "7,x;") == 0, "plain result under the key");
    ST_OK(SQLFreeStmt(s, SQL_CLOSE), s);

    /* A refcursor naming no open cursor: the FETCH's error (34000). */
    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)"select " FUNC "()", SQL_NTS), s, "34000");
    ST_CHECK(SQLEndTran(SQL_HANDLE_DBC, c.dbc, SQL_ROLLBACK) == SQL_SUCCESS, "rollback");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);
}

static void with_the_key_in_autocommit(void)
{
    st_conn c;
    st_connect_with(&c, "FetchRefcursors=1");
    SQLINTEGER count = 0;
    SQLHSTMT s = prepared_call(&c, &count);
    ST_EXPECT_STATE(SQLExecute(s), s, "HY000");
    /* The statement is usable afterwards. */
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select 1, 2", SQL_NTS), s);
    ST_CHECK(strcmp(rows_of(s), "1,2;") == 0, "next statement after the refusal");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);
}

int main(void)
{
    st_conn setup;
    st_connect(&setup);
    st_exec(&setup, "create or replace procedure " PROC
                    "(inout n integer, inout up refcursor default 'up', "
                    "inout down refcursor default 'down') language plpgsql as $$ "
                    "begin n := 2; "
                    "open up for select g, chr(96 + g) from generate_series(1, 3) g; "
                    "open down for select chr(96 + g), g from generate_series(3, 1, -1) g; "
                    "end $$");
    st_exec(&setup, "create or replace function " FUNC "() returns refcursor "
                    "language sql as $$ select 'no_such_cursor'::refcursor $$");
    without_the_key();
    with_the_key_in_a_transaction();
    with_the_key_in_autocommit();
    st_exec(&setup, "drop procedure " PROC);
    st_exec(&setup, "drop function " FUNC);
    st_disconnect(&setup);
    return st_finish("cursors_refcursors");
}
