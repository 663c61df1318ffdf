/*
 * Two statements share one connection: fetching from A, executing and
 * fetching B, then fetching A again gives every row of A, in order. The
 * streaming statement A buffers the rest of its result when B needs the
 * session. Also with autocommit off, and with a prepared B run repeatedly.
 */
#include "st_test.h"

static void interleave(st_conn *c, int rows_a)
{
    SQLHSTMT a = st_stmt(c), b = st_stmt(c);
    char sql[128];
    snprintf(sql, sizeof sql, "select g from generate_series(1, %d) g", rows_a);
    ST_OK(SQLExecDirect(a, (SQLCHAR *)sql, SQL_NTS), a);
    SQLINTEGER va = 0, vb = 0;
    SQLLEN ia = 0, ib = 0;
    ST_OK(SQLBindCol(a, 1, SQL_C_SLONG, &va, 0, &ia), a);
    ST_OK(SQLBindCol(b, 1, SQL_C_SLONG, &vb, 0, &ib), b);
    ST_OK(SQLPrepare(b, (SQLCHAR *)"select g * 10 from generate_series(1, 3) g", SQL_NTS), b);
    int expect = 1;
    for (int round = 0; round < 5; round++) {
        /* A few rows of A... */
        for (int i = 0; i < 10; i++) {
            ST_OK(SQLFetch(a), a);
            ST_CHECK(va == expect, "A gave %d, wanted %d", (int)va, expect);
            expect++;
        }
        /* ...then all of B... */
        ST_OK(SQLExecute(b), b);
        for (int i = 1; i <= 3; i++) {
            ST_OK(SQLFetch(b), b);
            ST_CHECK(vb == i * 10, "B gave %d", (int)vb);
        }
        ST_CHECK(SQLFetch(b) == SQL_NO_DATA, "B has 3 rows");
        ST_OK(SQLCloseCursor(b), b);
        /* ...and a one-off statement on a third handle. */
        ST_CHECK(strcmp(st_query_text(c, "select 'third'"), "third") == 0, "third statement");
    }
    /* The rest of A. */
    SQLRETURN rc;
    while ((rc = SQLFetch(a)) == SQL_SUCCESS) {
        ST_CHECK(va == expect, "A gave %d, wanted %d", (int)va, expect);
        expect++;
    }
    ST_CHECK(rc == SQL_NO_DATA, "A ended with %d", (int)rc);
    ST_CHECK(expect == rows_a + 1, "A gave %d rows, wanted %d", expect - 1, rows_a);
    SQLFreeHandle(SQL_HANDLE_STMT, a);
    SQLFreeHandle(SQL_HANDLE_STMT, b);
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    interleave(&c, 1000);
    interleave(&c, 100000);

    /* The same inside a transaction (autocommit off), where B's BEGIN must
     * not lose A's rows. */
    ST_CHECK(ST_SUCCEEDED(SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT,
                                            (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0)),
             "autocommit off");
    interleave(&c, 2000);
    ST_CHECK(ST_SUCCEEDED(SQLEndTran(SQL_HANDLE_DBC, c.dbc, SQL_COMMIT)), "commit");

    /* Committing while A still streams: A keeps its rows. */
    SQLHSTMT a = st_stmt(&c);
    SQLINTEGER va = 0;
    SQLLEN ia = 0;
    ST_OK(SQLExecDirect(a, (SQLCHAR *)"select g from generate_series(1, 500) g", SQL_NTS), a);
    ST_OK(SQLBindCol(a, 1, SQL_C_SLONG, &va, 0, &ia), a);
    ST_OK(SQLFetch(a), a);
    ST_CHECK(ST_SUCCEEDED(SQLEndTran(SQL_HANDLE_DBC, c.dbc, SQL_COMMIT)), "commit while streaming");
    int n = 1;
    while (SQLFetch(a) == SQL_SUCCESS)
        n++;
    ST_CHECK(n == 500 && va == 500, "after commit A gave %d rows, last %d", n, (int)va);
    SQLFreeHandle(SQL_HANDLE_STMT, a);
    st_disconnect(&c);
    return st_finish("interleave");
}
