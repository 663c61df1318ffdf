/*
 * Static cursors: SQL_ATTR_CURSOR_TYPE / SQL_ATTR_CURSOR_SCROLLABLE, and
 * SQLFetchScroll in every direction over a 20-row set, one row and then
 * three rows (column-wise) at a time, following ODBC's positioning rules:
 * partial rowsets at the end, 01S06 when a move would start before row 1,
 * SQL_NO_DATA before the start and after the end, SQL_ATTR_ROW_NUMBER,
 * SQL_ATTR_MAX_ROWS, an empty set, an error inside the set, several result
 * sets, and a forward-only cursor refusing to scroll (HY106).
 */
#include "st_test.h"

#define SET20 "select g, 'r' || g from generate_series(1, 20) g order by g"

static SQLHSTMT static_stmt(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_STATIC, 0), s);
    return s;
}

/* Fetches with one row per rowset; returns the row's g, 0 on SQL_NO_DATA,
 * -1 on an error. *rc gets the return code. */
static int scroll1(SQLHSTMT s, SQLSMALLINT orientation, SQLLEN offset, SQLRETURN *rc)
{
    SQLINTEGER g = 0;
    SQLLEN ind = 0;
    *rc = SQLFetchScroll(s, orientation, offset);
    if (*rc == SQL_NO_DATA)
        return 0;
    if (!ST_SUCCEEDED(*rc))
        return -1;
    SQLRETURN grc = SQLGetData(s, 1, SQL_C_SLONG, &g, 0, &ind);
    return ST_SUCCEEDED(grc) ? (int)g : -1;
}

static SQLULEN row_number(SQLHSTMT s)
{
    SQLULEN n = 99;
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_ROW_NUMBER, &n, 0, NULL), s);
    return n;
}

static void attributes(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    SQLULEN v = 0;
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_CURSOR_SCROLLABLE, &v, 0, NULL), s);
    ST_CHECK(v == SQL_NONSCROLLABLE, "default is forward-only, got %lu", (unsigned long)v);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_SCROLLABLE, (SQLPOINTER)SQL_SCROLLABLE, 0), s);
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, &v, 0, NULL), s);
    ST_CHECK(v == SQL_CURSOR_STATIC, "SQL_SCROLLABLE gives a static cursor, got %lu",
             (unsigned long)v);
    /* Dynamic requests become static with 01S02 (keyset-driven cursors:
     * test_keyset.c). */
    SQLRETURN rc = SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_DYNAMIC, 0);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO && st_has_state(SQL_HANDLE_STMT, s, "01S02"),
             "dynamic: rc %d", rc);
    ST_EXPECT_STATE(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)42, 0), s, "HY024");
    ST_EXPECT_STATE(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_SENSITIVITY, (SQLPOINTER)SQL_SENSITIVE, 0),
                    s, "HYC00");
    /* The cursor type cannot change under an open cursor. */
    ST_OK(SQLExecDirect(s, (SQLCHAR *)SET20, SQL_NTS), s);
    /* (the driver manager answers 24000 before the driver's HY011) */
    ST_CHECK(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_FORWARD_ONLY, 0) ==
                 SQL_ERROR, "cursor type changed under an open cursor");
    ST_OK(SQLCloseCursor(s), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_FORWARD_ONLY, 0), s);
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_CURSOR_SCROLLABLE, &v, 0, NULL), s);
    ST_CHECK(v == SQL_NONSCROLLABLE, "forward-only again, got %lu", (unsigned long)v);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

static void one_row_rowsets(st_conn *c)
{
    SQLHSTMT s = static_stmt(c);
    SQLRETURN rc;
    ST_OK(SQLExecDirect(s, (SQLCHAR *)SET20, SQL_NTS), s);
    ST_CHECK(scroll1(s, SQL_FETCH_PRIOR, 0, &rc) == 0 && rc == SQL_NO_DATA, "prior before start");
    ST_CHECK(scroll1(s, SQL_FETCH_NEXT, 0, &rc) == 1, "next from before start");
    ST_CHECK(row_number(s) == 1, "row number 1");
    ST_CHECK(scroll1(s, SQL_FETCH_LAST, 0, &rc) == 20, "last");
    ST_CHECK(row_number(s) == 20, "row number 20");
    ST_CHECK(scroll1(s, SQL_FETCH_NEXT, 0, &rc) == 0 && rc == SQL_NO_DATA, "next after last");
    ST_CHECK(scroll1(s, SQL_FETCH_PRIOR, 0, &rc) == 20, "prior from after end");
    ST_CHECK(scroll1(s, SQL_FETCH_PRIOR, 0, &rc) == 19, "prior");
    ST_CHECK(scroll1(s, SQL_FETCH_FIRST, 0, &rc) == 1, "first");
    ST_CHECK(scroll1(s, SQL_FETCH_ABSOLUTE, 7, &rc) == 7, "absolute 7");
    ST_CHECK(scroll1(s, SQL_FETCH_RELATIVE, 5, &rc) == 12, "relative +5");
    ST_CHECK(scroll1(s, SQL_FETCH_RELATIVE, -3, &rc) == 9, "relative -3");
    ST_CHECK(scroll1(s, SQL_FETCH_RELATIVE, 0, &rc) == 9, "relative 0 refetches");
    ST_CHECK(scroll1(s, SQL_FETCH_ABSOLUTE, -1, &rc) == 20, "absolute -1 is the last");
    ST_CHECK(scroll1(s, SQL_FETCH_ABSOLUTE, -20, &rc) == 1, "absolute -20 is the first");
    /* Past the first row: the first row with 01S06, as psqlODBC gives it. */
    ST_CHECK(scroll1(s, SQL_FETCH_ABSOLUTE, -21, &rc) == 1 && rc == SQL_SUCCESS_WITH_INFO,
             "absolute -21");
    ST_CHECK(scroll1(s, SQL_FETCH_RELATIVE, -1, &rc) == 0 && rc == SQL_NO_DATA, "relative -1 from 1");
    ST_CHECK(scroll1(s, SQL_FETCH_RELATIVE, 4, &rc) == 4, "relative from before start");
    ST_CHECK(scroll1(s, SQL_FETCH_ABSOLUTE, 21, &rc) == 0 && rc == SQL_NO_DATA, "absolute 21");
    ST_CHECK(scroll1(s, SQL_FETCH_RELATIVE, -2, &rc) == 19, "relative from after end");
    ST_CHECK(scroll1(s, SQL_FETCH_ABSOLUTE, 0, &rc) == 0 && rc == SQL_NO_DATA, "absolute 0");
    ST_CHECK(scroll1(s, SQL_FETCH_NEXT, 0, &rc) == 1, "next after absolute 0");
    /* SQLFetch on a static cursor is SQL_FETCH_NEXT. */
    ST_OK(SQLFetch(s), s);
    SQLINTEGER g = 0;
    SQLLEN ind = 0;
    ST_OK(SQLGetData(s, 1, SQL_C_SLONG, &g, 0, &ind), s);
    ST_CHECK(g == 2, "SQLFetch gave %d", (int)g);
    /* Unknown orientation. */
    ST_EXPECT_STATE(SQLFetchScroll(s, 99, 0), s, "HY106");
    /* The row count of a buffered set is exact. */
    SQLLEN count = 0;
    ST_OK(SQLRowCount(s, &count), s);
    ST_CHECK(count == 20, "row count %ld", (long)count);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* Checks a 3-row rowset: rows fetched, the values and the statuses. */
static void expect_rowset(SQLHSTMT s, SQLSMALLINT orientation, SQLLEN offset,
                          SQLRETURN want_rc, int first, SQLULEN want_rows,
                          const SQLINTEGER *g, const char (*name)[8],
                          const SQLUSMALLINT *status, const SQLULEN *fetched, int line)
{
    SQLRETURN rc = SQLFetchScroll(s, orientation, offset);
    ST_CHECK(rc == want_rc, "line %d: rc %d, wanted %d", line, rc, want_rc);
    if (want_rc == SQL_SUCCESS_WITH_INFO)
        ST_CHECK(st_has_state(SQL_HANDLE_STMT, s, "01S06"), "line %d: 01S06", line);
    if (rc == SQL_NO_DATA || !ST_SUCCEEDED(rc))
        return;
    ST_CHECK(*fetched == want_rows, "line %d: fetched %lu", line, (unsigned long)*fetched);
    for (SQLULEN i = 0; i < 3; i++) {
        if (i < want_rows) {
            char want[8];
            snprintf(want, sizeof want, "r%d", first + (int)i);
            ST_CHECK(g[i] == first + (int)i && strcmp(name[i], want) == 0 &&
                     status[i] == SQL_ROW_SUCCESS,
                     "line %d: slot %lu holds %d %s status %d", line, (unsigned long)i,
                     (int)g[i], name[i], status[i]);
        } else {
            ST_CHECK(status[i] == SQL_ROW_NOROW, "line %d: slot %lu status %d", line,
                     (unsigned long)i, status[i]);
        }
    }
}

static void block_rowsets(st_conn *c)
{
    SQLHSTMT s = static_stmt(c);
    SQLINTEGER g[3];
    char name[3][8];
    SQLLEN g_ind[3], name_ind[3];
    SQLUSMALLINT status[3];
    SQLULEN fetched = 0;
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)3, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_STATUS_PTR, status, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROWS_FETCHED_PTR, &fetched, 0), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)SET20, SQL_NTS), s);
    ST_OK(SQLBindCol(s, 1, SQL_C_SLONG, g, 0, g_ind), s);
    ST_OK(SQLBindCol(s, 2, SQL_C_CHAR, name, sizeof name[0], name_ind), s);
#define EXPECT(o, off, rc, first, rows) \
    expect_rowset(s, o, off, rc, first, rows, g, name, status, &fetched, __LINE__)
    EXPECT(SQL_FETCH_NEXT, 0, SQL_SUCCESS, 1, 3);
    EXPECT(SQL_FETCH_NEXT, 0, SQL_SUCCESS, 4, 3);
    EXPECT(SQL_FETCH_PRIOR, 0, SQL_SUCCESS, 1, 3);
    EXPECT(SQL_FETCH_PRIOR, 0, SQL_NO_DATA, 0, 0);
    EXPECT(SQL_FETCH_LAST, 0, SQL_SUCCESS, 18, 3);
    EXPECT(SQL_FETCH_ABSOLUTE, 19, SQL_SUCCESS, 19, 2);     /* partial rowset */
    EXPECT(SQL_FETCH_NEXT, 0, SQL_NO_DATA, 0, 0);
    EXPECT(SQL_FETCH_PRIOR, 0, SQL_SUCCESS, 18, 3);
    EXPECT(SQL_FETCH_ABSOLUTE, 2, SQL_SUCCESS, 2, 3);
    EXPECT(SQL_FETCH_PRIOR, 0, SQL_SUCCESS_WITH_INFO, 1, 3);   /* 01S06 */
    EXPECT(SQL_FETCH_ABSOLUTE, 3, SQL_SUCCESS, 3, 3);
    EXPECT(SQL_FETCH_RELATIVE, -3, SQL_SUCCESS_WITH_INFO, 1, 3);
    EXPECT(SQL_FETCH_ABSOLUTE, 10, SQL_SUCCESS, 10, 3);
    EXPECT(SQL_FETCH_ABSOLUTE, -22, SQL_SUCCESS_WITH_INFO, 1, 3);  /* past row 1: psqlODBC's 01S06 */
    EXPECT(SQL_FETCH_ABSOLUTE, 10, SQL_SUCCESS, 10, 3);
    EXPECT(SQL_FETCH_RELATIVE, -12, SQL_NO_DATA, 0, 0);      /* |offset| > rowset */
    EXPECT(SQL_FETCH_RELATIVE, 17, SQL_SUCCESS, 17, 3);       /* from before start */
    /* The current row of a fresh rowset is its first row. */
    ST_CHECK(row_number(s) == 17, "row number %lu", (unsigned long)row_number(s));
    SQLFreeHandle(SQL_HANDLE_STMT, s);
#undef EXPECT
}

static void limits_and_errors(st_conn *c)
{
    SQLRETURN rc;
    /* SQL_ATTR_MAX_ROWS cuts the set. */
    SQLHSTMT s = static_stmt(c);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_MAX_ROWS, (SQLPOINTER)5, 0), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)SET20, SQL_NTS), s);
    ST_CHECK(scroll1(s, SQL_FETCH_LAST, 0, &rc) == 5, "last under max rows");
    ST_CHECK(scroll1(s, SQL_FETCH_ABSOLUTE, 6, &rc) == 0 && rc == SQL_NO_DATA, "row 6 cut");
    SQLFreeHandle(SQL_HANDLE_STMT, s);

    /* An empty set. */
    s = static_stmt(c);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select 1 where false", SQL_NTS), s);
    ST_CHECK(SQLFetchScroll(s, SQL_FETCH_FIRST, 0) == SQL_NO_DATA, "first of empty");
    ST_CHECK(SQLFetchScroll(s, SQL_FETCH_LAST, 0) == SQL_NO_DATA, "last of empty");
    ST_CHECK(SQLFetchScroll(s, SQL_FETCH_PRIOR, 0) == SQL_NO_DATA, "prior of empty");
    SQLFreeHandle(SQL_HANDLE_STMT, s);

    /* An error that ends the set while it is buffered reaches the fetch. */
    s = static_stmt(c);
    rc = SQLExecDirect(s, (SQLCHAR *)"select 10 / (g - 15) from generate_series(1, 20) g",
                       SQL_NTS);
    if (ST_SUCCEEDED(rc))
        ST_EXPECT_STATE(SQLFetchScroll(s, SQL_FETCH_LAST, 0), s, "22012");
    else
        ST_CHECK(st_has_state(SQL_HANDLE_STMT, s, "22012"), "division by zero at execute");
    SQLFreeHandle(SQL_HANDLE_STMT, s);

    /* Several result sets: each scrolls on its own. */
    s = static_stmt(c);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select g from generate_series(1, 3) g; "
                                      "select g from generate_series(101, 104) g", SQL_NTS), s);
    ST_CHECK(scroll1(s, SQL_FETCH_LAST, 0, &rc) == 3, "last of set 1");
    ST_OK(SQLMoreResults(s), s);
    ST_CHECK(scroll1(s, SQL_FETCH_NEXT, 0, &rc) == 101, "set 2 starts before its start");
    ST_CHECK(scroll1(s, SQL_FETCH_LAST, 0, &rc) == 104, "last of set 2");
    ST_CHECK(scroll1(s, SQL_FETCH_FIRST, 0, &rc) == 101, "first of set 2");
    SQLFreeHandle(SQL_HANDLE_STMT, s);

    /* A prepared statement executed twice: the second cursor starts afresh. */
    s = static_stmt(c);
    ST_OK(SQLPrepare(s, (SQLCHAR *)SET20, SQL_NTS), s);
    ST_OK(SQLExecute(s), s);
    ST_CHECK(scroll1(s, SQL_FETCH_LAST, 0, &rc) == 20, "last, first execution");
    ST_OK(SQLCloseCursor(s), s);
    ST_OK(SQLExecute(s), s);
    ST_CHECK(scroll1(s, SQL_FETCH_NEXT, 0, &rc) == 1, "next, second execution");
    SQLFreeHandle(SQL_HANDLE_STMT, s);

    /* A forward-only cursor does not scroll, and SQLFetchScroll needs a cursor. */
    s = st_stmt(c);
    ST_EXPECT_STATE(SQLFetchScroll(s, SQL_FETCH_NEXT, 0), s, "HY010");
    ST_OK(SQLExecDirect(s, (SQLCHAR *)SET20, SQL_NTS), s);
    ST_EXPECT_STATE(SQLFetchScroll(s, SQL_FETCH_PRIOR, 0), s, "HY106");
    ST_CHECK(scroll1(s, SQL_FETCH_NEXT, 0, &rc) == 1, "forward-only next");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    attributes(&c);
    one_row_rowsets(&c);
    block_rowsets(&c);
    limits_and_errors(&c);
    st_disconnect(&c);
    return st_finish("cursors_scroll_static");
}
