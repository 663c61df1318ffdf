/*
 * Sends the driver makes for a statement besides the statement itself do not
 * take the rows of another statement still streaming on the connection: the
 * streaming statement buffers the rest of its result first (the session's
 * choke point for sending, docs/architecture.md). Covered here: the lookup
 * of a {call} escape's procedure kind, and the FETCH of a refcursor's rows
 * (FetchRefcursors=1). After each, the streaming statement still gives every
 * row, in order.
 */
#include "st_test.h"

#define FUNC "gc_test_interleave_double"
#define CURSOR_FUNC "gc_test_interleave_cursor"
#define ROWS_A 100000

/* The statement that runs while A streams: executes and checks its result. */
typedef void (*other_fn)(st_conn *c, SQLHSTMT b);

/* Starts A (ROWS_A rows, still streaming), fetches 10 rows, runs other on a
 * second statement, then checks that A gives the rest. */
static void while_streaming(st_conn *c, const char *what, other_fn other)
{
    SQLHSTMT a = st_stmt(c), b = st_stmt(c);
    char sql[96];
    snprintf(sql, sizeof sql, "select g from generate_series(1, %d) g", ROWS_A);
    ST_OK(SQLExecDirect(a, (SQLCHAR *)sql, SQL_NTS), a);
    SQLINTEGER va = 0;
    SQLLEN ia = 0;
    ST_OK(SQLBindCol(a, 1, SQL_C_SLONG, &va, 0, &ia), a);
    int expect = 1;
    for (; expect <= 10; expect++) {
        ST_OK(SQLFetch(a), a);
        ST_CHECK(va == expect, "%s: A gave %d, wanted %d", what, (int)va, expect);
    }
    other(c, b);
    SQLRETURN rc;
    while ((rc = SQLFetch(a)) == SQL_SUCCESS) {
        if (va != expect) {
            ST_CHECK(va == expect, "%s: A gave %d, wanted %d", what, (int)va, expect);
            break;
        }
        expect++;
    }
    ST_CHECK(rc == SQL_NO_DATA, "%s: A ended with %d", what, (int)rc);
    ST_CHECK(expect == ROWS_A + 1, "%s: A gave %d rows, wanted %d", what, expect - 1, ROWS_A);
    SQLFreeHandle(SQL_HANDLE_STMT, a);
    SQLFreeHandle(SQL_HANDLE_STMT, b);
}

/* {call f(21)}: the driver first asks the catalog whether f is a procedure. */
static void call_escape(st_conn *c, SQLHSTMT b)
{
    (void)c;
    SQLINTEGER v = 0;
    SQLLEN ind = 0;
    ST_OK(SQLExecDirect(b, (SQLCHAR *)"{call " FUNC "(21)}", SQL_NTS), b);
    ST_OK(SQLBindCol(b, 1, SQL_C_SLONG, &v, 0, &ind), b);
    ST_OK(SQLFetch(b), b);
    ST_CHECK(v == 42, "{call} gave %d", (int)v);
    ST_CHECK(SQLFetch(b) == SQL_NO_DATA, "{call} has one row");
}

/* A function returning a refcursor: the driver fetches the cursor's rows. */
static void refcursor_fetch(st_conn *c, SQLHSTMT b)
{
    (void)c;
    SQLINTEGER v = 0;
    SQLLEN ind = 0;
    ST_OK(SQLExecDirect(b, (SQLCHAR *)"select " CURSOR_FUNC "()", SQL_NTS), b);
    ST_OK(SQLBindCol(b, 1, SQL_C_SLONG, &v, 0, &ind), b);
    for (int i = 1; i <= 3; i++) {
        ST_OK(SQLFetch(b), b);
        ST_CHECK(v == i * 10, "refcursor row %d gave %d", i, (int)v);
    }
    ST_CHECK(SQLFetch(b) == SQL_NO_DATA, "the refcursor has 3 rows");
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    st_exec(&c, "create or replace function " FUNC "(n int) returns int "
                "language sql as 'select n * 2'");
    st_exec(&c, "create or replace function " CURSOR_FUNC "() returns refcursor "
                "language plpgsql as $$ declare r refcursor; begin "
                "open r for select g * 10 from generate_series(1, 3) g; return r; end $$");
    while_streaming(&c, "call escape", call_escape);
    st_disconnect(&c);

    /* Refcursors are fetched in a transaction only. */
    st_connect_with(&c, "FetchRefcursors=1");
    ST_CHECK(ST_SUCCEEDED(SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT,
                                            (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0)),
             "autocommit off");
    while_streaming(&c, "refcursor", refcursor_fetch);
    ST_CHECK(ST_SUCCEEDED(SQLEndTran(SQL_HANDLE_DBC, c.dbc, SQL_ROLLBACK)), "rollback");
    st_disconnect(&c);

    st_connect(&c);
    st_exec(&c, "drop function " FUNC "(int)");
    st_exec(&c, "drop function " CURSOR_FUNC "()");
    st_disconnect(&c);
    return st_finish("interleave_sends");
}
