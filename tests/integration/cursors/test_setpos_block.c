/*
 * Block cursors on a static cursor: row-wise binding, SQLSetPos
 * (SQL_POSITION then SQLGetData on the positioned row, SQL_ATTR_ROW_NUMBER,
 * SQL_REFRESH), its errors (HY107, HY092 for updates on a read-only cursor,
 * HYC00 for locks, 24000 without a cursor),
 * and SQLExtendedFetch (ODBC 2) with SQL_ROWSET_SIZE.
 */
#include <stddef.h>

#include "st_test.h"

#define SET20 "select g, 'r' || g from generate_series(1, 20) g order by g"

typedef struct row {
    SQLINTEGER g;
    SQLLEN g_ind;
    char name[8];
    SQLLEN name_ind;
} row;

static SQLHSTMT static_stmt(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_STATIC, 0), s);
    return s;
}

static void row_wise_and_setpos(st_conn *c)
{
    SQLHSTMT s = static_stmt(c);
    row rows[4];
    SQLUSMALLINT status[4];
    SQLULEN fetched = 0;
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_BIND_TYPE, (SQLPOINTER)sizeof(row), 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)4, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_STATUS_PTR, status, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROWS_FETCHED_PTR, &fetched, 0), s);
    ST_EXPECT_STATE(SQLSetPos(s, 1, SQL_POSITION, SQL_LOCK_NO_CHANGE), s, "HY010");
    ST_OK(SQLExecDirect(s, (SQLCHAR *)SET20, SQL_NTS), s);
    /* Column 2 is left unbound: SQLGetData reads it on the positioned row. */
    ST_OK(SQLBindCol(s, 1, SQL_C_SLONG, &rows[0].g, 0, &rows[0].g_ind), s);
    ST_OK(SQLFetchScroll(s, SQL_FETCH_ABSOLUTE, 9), s);
    ST_CHECK(fetched == 4, "fetched %lu", (unsigned long)fetched);
    int ok = 1;
    for (int i = 0; i < 4; i++)
        ok = ok && rows[i].g == 9 + i && status[i] == SQL_ROW_SUCCESS;
    ST_CHECK(ok, "row-wise rowset 9..12: %d %d %d %d", (int)rows[0].g, (int)rows[1].g,
             (int)rows[2].g, (int)rows[3].g);

    char name[8];
    SQLLEN ind = 0;
    ST_OK(SQLGetData(s, 2, SQL_C_CHAR, name, sizeof name, &ind), s);
    ST_CHECK(strcmp(name, "r9") == 0, "unpositioned GetData reads the first row: %s", name);
    ST_OK(SQLSetPos(s, 3, SQL_POSITION, SQL_LOCK_NO_CHANGE), s);
    ST_OK(SQLGetData(s, 2, SQL_C_CHAR, name, sizeof name, &ind), s);
    ST_CHECK(strcmp(name, "r11") == 0, "row 3 of the rowset: %s", name);
    SQLULEN number = 0;
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_ROW_NUMBER, &number, 0, NULL), s);
    ST_CHECK(number == 11, "row number %lu", (unsigned long)number);
    SQLINTEGER g = 0;
    ST_OK(SQLGetData(s, 1, SQL_C_SLONG, &g, 0, &ind), s);   /* SQL_GD_BOUND */
    ST_CHECK(g == 11, "bound column through GetData: %d", (int)g);

    /* SQL_REFRESH delivers the rows again into the buffers. */
    for (int i = 0; i < 4; i++) {
        rows[i].g = -1;
        status[i] = 77;
    }
    ST_OK(SQLSetPos(s, 0, SQL_REFRESH, SQL_LOCK_NO_CHANGE), s);
    ok = 1;
    for (int i = 0; i < 4; i++)
        ok = ok && rows[i].g == 9 + i && status[i] == SQL_ROW_SUCCESS;
    ST_CHECK(ok, "refresh of the rowset");
    rows[1].g = -1;
    ST_OK(SQLSetPos(s, 2, SQL_REFRESH, SQL_LOCK_NO_CHANGE), s);
    ST_CHECK(rows[1].g == 10 && rows[0].g == 9, "refresh of row 2: %d", (int)rows[1].g);

    /* Errors: past the rowset, read-only operations, locks, bad values. */
    ST_EXPECT_STATE(SQLSetPos(s, 5, SQL_POSITION, SQL_LOCK_NO_CHANGE), s, "HY107");
    ST_EXPECT_STATE(SQLSetPos(s, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE), s, "HY092");
    ST_EXPECT_STATE(SQLSetPos(s, 1, SQL_DELETE, SQL_LOCK_NO_CHANGE), s, "HY092");
    /* Locks need a transaction; a row lock cannot be released before its end. */
    ST_EXPECT_STATE(SQLSetPos(s, 1, SQL_POSITION, SQL_LOCK_EXCLUSIVE), s, "HYC00");
    ST_EXPECT_STATE(SQLSetPos(s, 1, SQL_POSITION, SQL_LOCK_UNLOCK), s, "HYC00");

    /* A partial last rowset: SQLSetPos stops at its rows. */
    ST_OK(SQLFetchScroll(s, SQL_FETCH_ABSOLUTE, 19), s);
    ST_CHECK(fetched == 2 && status[2] == SQL_ROW_NOROW, "partial rowset");
    ST_EXPECT_STATE(SQLSetPos(s, 3, SQL_POSITION, SQL_LOCK_NO_CHANGE), s, "HY107");
    ST_OK(SQLSetPos(s, 2, SQL_POSITION, SQL_LOCK_NO_CHANGE), s);
    ST_OK(SQLGetData(s, 2, SQL_C_CHAR, name, sizeof name, &ind), s);
    ST_CHECK(strcmp(name, "r20") == 0, "last row: %s", name);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    /* Forward-only block cursors: test_forward_block.c. */
}

static void extended_fetch(st_conn *c)
{
    SQLHSTMT s = static_stmt(c);
    SQLINTEGER g[5];
    SQLLEN g_ind[5];
    SQLUSMALLINT status[5];
    SQLULEN count = 0;
    /* SQL_ROWSET_SIZE is SQLExtendedFetch's own; the row array size stays 1. */
    ST_OK(SQLSetStmtAttr(s, SQL_ROWSET_SIZE, (SQLPOINTER)5, 0), s);
    SQLULEN v = 0;
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, &v, 0, NULL), s);
    ST_CHECK(v == 1, "row array size %lu", (unsigned long)v);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)SET20, SQL_NTS), s);
    ST_OK(SQLBindCol(s, 1, SQL_C_SLONG, g, 0, g_ind), s);
    ST_OK(SQLExtendedFetch(s, SQL_FETCH_LAST, 0, &count, status), s);
    ST_CHECK(count == 5 && g[0] == 16 && g[4] == 20 && status[4] == SQL_ROW_SUCCESS,
             "last rowset: %lu rows from %d", (unsigned long)count, (int)g[0]);
    ST_OK(SQLExtendedFetch(s, SQL_FETCH_PRIOR, 0, &count, status), s);
    ST_CHECK(count == 5 && g[0] == 11, "prior rowset from %d", (int)g[0]);
    ST_OK(SQLExtendedFetch(s, SQL_FETCH_ABSOLUTE, 18, &count, status), s);
    ST_CHECK(count == 3 && g[2] == 20 && status[3] == SQL_ROW_NOROW,
             "absolute 18: %lu rows", (unsigned long)count);
    ST_OK(SQLSetPos(s, 2, SQL_POSITION, SQL_LOCK_NO_CHANGE), s);
    char name[8];
    SQLLEN ind = 0;
    ST_OK(SQLGetData(s, 2, SQL_C_CHAR, name, sizeof name, &ind), s);
    ST_CHECK(strcmp(name, "r19") == 0, "positioned after SQLExtendedFetch: %s", name);
    ST_CHECK(SQLExtendedFetch(s, SQL_FETCH_NEXT, 0, &count, status) == SQL_NO_DATA,
             "next after the end");
    SQLFreeHandle(SQL_HANDLE_STMT, s);

    /* On a forward-only cursor SQLExtendedFetch only goes forward. */
    s = st_stmt(c);
    ST_OK(SQLSetStmtAttr(s, SQL_ROWSET_SIZE, (SQLPOINTER)3, 0), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)SET20, SQL_NTS), s);
    ST_OK(SQLBindCol(s, 1, SQL_C_SLONG, g, 0, g_ind), s);
    ST_OK(SQLExtendedFetch(s, SQL_FETCH_NEXT, 0, &count, status), s);
    ST_CHECK(count == 3 && g[0] == 1 && g[2] == 3, "forward rowset");
    ST_EXPECT_STATE(SQLExtendedFetch(s, SQL_FETCH_FIRST, 0, &count, status), s, "HY106");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    row_wise_and_setpos(&c);
    extended_fetch(&c);
    st_disconnect(&c);
    return st_finish("cursors_setpos_block");
}
