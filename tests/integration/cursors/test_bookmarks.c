/*
 * Bookmarks on a static cursor: SQL_ATTR_USE_BOOKMARKS (variable and the
 * fixed ones of ODBC 2), column 0 bound and read with SQLGetData,
 * SQL_FETCH_BOOKMARK through SQL_ATTR_FETCH_BOOKMARK_PTR and through
 * SQLExtendedFetch, SQLBulkOperations(SQL_FETCH_BY_BOOKMARK), and the
 * errors: column 0 without bookmarks (07009), a wrong C type (07006), a
 * bookmark naming no row (HY111), operations a read-only cursor refuses.
 */
#include "st_test.h"

#define SET20 "select g, 'r' || g from generate_series(1, 20) g order by g"

static SQLHSTMT bookmark_stmt(st_conn *c, SQLULEN use)
{
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_STATIC, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_USE_BOOKMARKS, (SQLPOINTER)use, 0), s);
    return s;
}

static int current_g(SQLHSTMT s)
{
    SQLINTEGER g = -1;
    SQLLEN ind = 0;
    ST_OK(SQLGetData(s, 1, SQL_C_SLONG, &g, 0, &ind), s);
    return (int)g;
}

static void variable_bookmarks(st_conn *c)
{
    SQLHSTMT s = bookmark_stmt(c, SQL_UB_VARIABLE);
    SQLULEN v = 0;
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_USE_BOOKMARKS, &v, 0, NULL), s);
    ST_CHECK(v == SQL_UB_VARIABLE, "use bookmarks %lu", (unsigned long)v);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)SET20, SQL_NTS), s);
    ST_OK(SQLFetchScroll(s, SQL_FETCH_ABSOLUTE, 7), s);
    unsigned char mark7[16];
    SQLLEN len = 0;
    ST_OK(SQLGetData(s, 0, SQL_C_VARBOOKMARK, mark7, sizeof mark7, &len), s);
    ST_CHECK(len == 4, "variable bookmark of %ld bytes", (long)len);
    ST_OK(SQLFetchScroll(s, SQL_FETCH_LAST, 0), s);
    /* Back to the bookmarked row, and two rows past it. */
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_FETCH_BOOKMARK_PTR, mark7, 0), s);
    SQLPOINTER p = NULL;
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_FETCH_BOOKMARK_PTR, &p, 0, NULL), s);
    ST_CHECK(p == mark7, "fetch bookmark pointer read back");
    ST_OK(SQLFetchScroll(s, SQL_FETCH_BOOKMARK, 0), s);
    ST_CHECK(current_g(s) == 7, "bookmarked row");
    ST_OK(SQLFetchScroll(s, SQL_FETCH_BOOKMARK, 2), s);
    ST_CHECK(current_g(s) == 9, "bookmark + 2");
    ST_CHECK(SQLFetchScroll(s, SQL_FETCH_BOOKMARK, -7) == SQL_NO_DATA, "before the start");
    ST_CHECK(SQLFetchScroll(s, SQL_FETCH_BOOKMARK, 14) == SQL_NO_DATA, "after the end");
    /* A bookmark naming no row. */
    SQLINTEGER bogus = 999;
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_FETCH_BOOKMARK_PTR, &bogus, 0), s);
    ST_EXPECT_STATE(SQLFetchScroll(s, SQL_FETCH_BOOKMARK, 0), s, "HY111");
    /* A truncated bookmark. */
    ST_OK(SQLFetchScroll(s, SQL_FETCH_FIRST, 0), s);
    unsigned char small[2];
    SQLRETURN rc = SQLGetData(s, 0, SQL_C_VARBOOKMARK, small, sizeof small, &len);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO && st_has_state(SQL_HANDLE_STMT, s, "01004"),
             "truncated bookmark: rc %d", rc);
    /* Column 0 wants a bookmark type. */
    double d;
    ST_EXPECT_STATE(SQLGetData(s, 0, SQL_C_DOUBLE, &d, 0, &len), s, "07006");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* Column 0 bound in a rowset, then SQLBulkOperations(SQL_FETCH_BY_BOOKMARK). */
static void bound_bookmarks_and_bulk(st_conn *c)
{
    SQLHSTMT s = bookmark_stmt(c, SQL_UB_VARIABLE);
    SQLINTEGER marks[3];
    SQLLEN mark_len[3];
    SQLINTEGER g[3];
    SQLLEN g_ind[3];
    SQLUSMALLINT status[3];
    SQLULEN fetched = 0;
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)3, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_STATUS_PTR, status, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROWS_FETCHED_PTR, &fetched, 0), s);
    ST_EXPECT_STATE(SQLBulkOperations(s, SQL_FETCH_BY_BOOKMARK), s, "HY010");
    ST_OK(SQLExecDirect(s, (SQLCHAR *)SET20, SQL_NTS), s);
    ST_OK(SQLBindCol(s, 0, SQL_C_VARBOOKMARK, marks, sizeof marks[0], mark_len), s);
    ST_OK(SQLBindCol(s, 1, SQL_C_SLONG, g, 0, g_ind), s);
    ST_OK(SQLFetchScroll(s, SQL_FETCH_ABSOLUTE, 4), s);
    ST_CHECK(g[0] == 4 && mark_len[0] == 4 && mark_len[2] == 4, "rowset with bookmarks");
    SQLINTEGER mark4 = marks[0], mark6 = marks[2];
    /* Move away, then fetch rows 6, 4, 6 by their bookmarks. */
    ST_OK(SQLFetchScroll(s, SQL_FETCH_LAST, 0), s);
    marks[0] = mark6;
    marks[1] = mark4;
    marks[2] = mark6;
    ST_OK(SQLBulkOperations(s, SQL_FETCH_BY_BOOKMARK), s);
    ST_CHECK(g[0] == 6 && g[1] == 4 && g[2] == 6, "fetched by bookmark: %d %d %d",
             (int)g[0], (int)g[1], (int)g[2]);
    ST_CHECK(status[0] == SQL_ROW_SUCCESS && status[2] == SQL_ROW_SUCCESS, "statuses");
    /* One bookmark naming no row: that row's status says so. */
    marks[1] = 5000;
    SQLRETURN rc = SQLBulkOperations(s, SQL_FETCH_BY_BOOKMARK);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO && status[1] == SQL_ROW_ERROR &&
             status[0] == SQL_ROW_SUCCESS && st_has_state(SQL_HANDLE_STMT, s, "HY111"),
             "bad bookmark in the array: rc %d status %d", rc, status[1]);
    /* A read-only cursor adds, updates and deletes nothing. */
    ST_EXPECT_STATE(SQLBulkOperations(s, SQL_ADD), s, "HY092");
    ST_EXPECT_STATE(SQLBulkOperations(s, SQL_UPDATE_BY_BOOKMARK), s, "HY092");
    ST_EXPECT_STATE(SQLBulkOperations(s, SQL_DELETE_BY_BOOKMARK), s, "HY092");
    ST_EXPECT_STATE(SQLBulkOperations(s, 77), s, "HY092");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* ODBC 2: fixed bookmarks and SQLExtendedFetch(SQL_FETCH_BOOKMARK). */
static void fixed_bookmarks(st_conn *c)
{
    SQLHSTMT s = bookmark_stmt(c, SQL_UB_ON);
    SQLUINTEGER mark = 0;
    SQLLEN len = 0;
    SQLULEN count = 0;
    SQLUSMALLINT status[1];
    ST_OK(SQLExecDirect(s, (SQLCHAR *)SET20, SQL_NTS), s);
    ST_OK(SQLExtendedFetch(s, SQL_FETCH_ABSOLUTE, 12, &count, status), s);
    ST_OK(SQLGetData(s, 0, SQL_C_ULONG, &mark, sizeof mark, &len), s);
    ST_OK(SQLExtendedFetch(s, SQL_FETCH_FIRST, 0, &count, status), s);
    ST_CHECK(current_g(s) == 1, "first");
    ST_OK(SQLExtendedFetch(s, SQL_FETCH_BOOKMARK, (SQLLEN)mark, &count, status), s);
    ST_CHECK(count == 1 && current_g(s) == 12, "back to the bookmarked row");
    ST_EXPECT_STATE(SQLExtendedFetch(s, SQL_FETCH_BOOKMARK, 0, &count, status), s, "HY111");
    SQLFreeHandle(SQL_HANDLE_STMT, s);

    /* Bookmarks off: no column 0 and no SQL_FETCH_BOOKMARK. */
    s = bookmark_stmt(c, SQL_UB_OFF);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)SET20, SQL_NTS), s);
    ST_EXPECT_STATE(SQLBindCol(s, 0, SQL_C_VARBOOKMARK, &mark, sizeof mark, &len), s, "07009");
    ST_OK(SQLFetchScroll(s, SQL_FETCH_NEXT, 0), s);
    ST_EXPECT_STATE(SQLGetData(s, 0, SQL_C_VARBOOKMARK, &mark, sizeof mark, &len), s, "07009");
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_FETCH_BOOKMARK_PTR, &mark, 0), s);
    ST_EXPECT_STATE(SQLFetchScroll(s, SQL_FETCH_BOOKMARK, 0), s, "HY106");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    variable_bookmarks(&c);
    bound_bookmarks_and_bulk(&c);
    fixed_bookmarks(&c);
    st_disconnect(&c);
    return st_finish("cursors_bookmarks");
}
