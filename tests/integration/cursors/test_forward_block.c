/*
 * Forward-only block cursors: SQLSetPos(SQL_POSITION) stands the cursor on
 * any row of the last rowset and SQLGetData reads that row (SQL_GD_BLOCK),
 * as node-odbc's cursors do for their long columns. With FetchWindowRows=4
 * a rowset's rows come from the first window and from rows streamed one
 * at a time; they stay readable when another statement of the connection
 * takes the session between the fetch and SQLGetData. Errors: HYC00 for
 * anything but SQL_POSITION without a lock, HY107 past the rowset, 24000
 * before the first rowset and after the last.
 */
#include "st_test.h"

#define SET25 "select g, repeat('v' || g, 3) from generate_series(1, 25) g"

/* The text column 2 holds on row g of SET25. */
static void text_of(int g, char *out, size_t size)
{
    snprintf(out, size, "v%dv%dv%d", g, g, g);
}

/* Stands on `row` of the rowset and reads both columns; checks them
 * against set row g. */
static void check_positioned(SQLHSTMT s, SQLSETPOSIROW row, int g)
{
    char want[48], got[48] = "";
    SQLINTEGER value = -1;
    SQLLEN ind = 0;
    text_of(g, want, sizeof want);
    ST_OK(SQLSetPos(s, row, SQL_POSITION, SQL_LOCK_NO_CHANGE), s);
    ST_OK(SQLGetData(s, 2, SQL_C_CHAR, got, sizeof got, &ind), s);
    ST_OK(SQLGetData(s, 1, SQL_C_SLONG, &value, 0, &ind), s);
    ST_CHECK(strcmp(got, want) == 0 && value == g, "rowset row %lu: %d %s, set row %d",
             (unsigned long)row, (int)value, got, g);
}

static SQLHSTMT block_stmt(st_conn *c, SQLULEN size, SQLULEN *fetched)
{
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)size, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROWS_FETCHED_PTR, fetched, 0), s);
    return s;
}

/* A block statement with SET25 executed on it. */
static SQLHSTMT set25_stmt(st_conn *c, SQLULEN size, SQLULEN *fetched)
{
    SQLHSTMT s = block_stmt(c, size, fetched);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)SET25, SQL_NTS), s);
    return s;
}

static void every_row_of_every_rowset(st_conn *c)
{
    SQLULEN fetched = 0;
    SQLHSTMT s = block_stmt(c, 10, &fetched);
    SQLINTEGER g[10];
    SQLLEN g_ind[10];
    ST_EXPECT_STATE(SQLSetPos(s, 1, SQL_POSITION, SQL_LOCK_NO_CHANGE), s, "HY010");
    ST_OK(SQLExecDirect(s, (SQLCHAR *)SET25, SQL_NTS), s);
    ST_OK(SQLBindCol(s, 1, SQL_C_SLONG, g, 0, g_ind), s);
    ST_EXPECT_STATE(SQLSetPos(s, 1, SQL_POSITION, SQL_LOCK_NO_CHANGE), s, "24000");
    int first = 1, rowsets = 0, bound_ok = 1;
    while (SQLFetch(s) == SQL_SUCCESS) {
        rowsets++;
        /* Unpositioned, SQLGetData reads the rowset's first row. */
        char got[48] = "", want[48];
        SQLLEN ind = 0;
        text_of(first, want, sizeof want);
        ST_OK(SQLGetData(s, 2, SQL_C_CHAR, got, sizeof got, &ind), s);
        ST_CHECK(strcmp(got, want) == 0, "unpositioned: %s, want %s", got, want);
        /* Last row first: the rows are kept, not read again in order. */
        for (SQLULEN row = fetched; row >= 1; row--) {
            check_positioned(s, row, first + (int)row - 1);
            bound_ok = bound_ok && g[row - 1] == first + (int)row - 1;
        }
        first += (int)fetched;
    }
    ST_CHECK(first == 26 && rowsets == 3 && bound_ok, "%d rowsets up to row %d", rowsets,
             first - 1);
    ST_EXPECT_STATE(SQLSetPos(s, 1, SQL_POSITION, SQL_LOCK_NO_CHANGE), s, "24000");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* SQLGetData in pieces on a positioned row; positioning starts it again. */
static void pieces_and_errors(st_conn *c)
{
    SQLULEN fetched = 0;
    SQLHSTMT s = set25_stmt(c, 5, &fetched);
    ST_OK(SQLFetch(s), s);
    char part[4];
    SQLLEN ind = 0;
    ST_OK(SQLSetPos(s, 3, SQL_POSITION, SQL_LOCK_NO_CHANGE), s);
    ST_CHECK(SQLGetData(s, 2, SQL_C_CHAR, part, sizeof part, &ind) == SQL_SUCCESS_WITH_INFO &&
             strcmp(part, "v3v") == 0, "first piece %s", part);
    ST_OK(SQLSetPos(s, 4, SQL_POSITION, SQL_LOCK_NO_CHANGE), s);
    ST_CHECK(SQLGetData(s, 2, SQL_C_CHAR, part, sizeof part, &ind) == SQL_SUCCESS_WITH_INFO &&
             strcmp(part, "v4v") == 0, "row 4 from its start: %s", part);
    ST_OK(SQLGetData(s, 2, SQL_C_CHAR, part, sizeof part, &ind), s);
    ST_CHECK(strcmp(part, "4v4") == 0, "second piece %s", part);

    ST_EXPECT_STATE(SQLSetPos(s, 6, SQL_POSITION, SQL_LOCK_NO_CHANGE), s, "HY107");
    ST_EXPECT_STATE(SQLSetPos(s, 1, SQL_REFRESH, SQL_LOCK_NO_CHANGE), s, "HYC00");
    ST_EXPECT_STATE(SQLSetPos(s, 1, SQL_POSITION, SQL_LOCK_EXCLUSIVE), s, "HYC00");
    ST_EXPECT_STATE(SQLSetPos(s, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE), s, "HY092");
    /* Row 0 stands on the rowset's first row. */
    check_positioned(s, 0, 1);
    SQLFreeHandle(SQL_HANDLE_STMT, s);

    /* A rowset of one row: its row is the current one. */
    s = set25_stmt(c, 1, &fetched);
    ST_OK(SQLFetch(s), s);
    ST_OK(SQLFetch(s), s);
    check_positioned(s, 1, 2);
    ST_EXPECT_STATE(SQLSetPos(s, 2, SQL_POSITION, SQL_LOCK_NO_CHANGE), s, "HY107");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* Another statement takes the session while the set streams: the rest of
 * the set is read into memory, the rowset's rows stay where they were. */
static void another_statement_between(st_conn *c)
{
    SQLULEN fetched = 0;
    SQLHSTMT s = set25_stmt(c, 8, &fetched);
    ST_OK(SQLFetch(s), s);
    ST_CHECK(strcmp(st_query_text(c, "select 42"), "42") == 0, "the other statement ran");
    check_positioned(s, 7, 7);
    check_positioned(s, 2, 2);
    ST_OK(SQLFetch(s), s);
    check_positioned(s, 8, 16);
    check_positioned(s, 1, 9);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* ODBC 2's SQLExtendedFetch on a forward-only cursor, then SQLSetPos. */
static void extended_fetch(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    SQLINTEGER g[3];
    SQLLEN g_ind[3];
    SQLUSMALLINT status[3];
    SQLULEN count = 0;
    ST_OK(SQLSetStmtAttr(s, SQL_ROWSET_SIZE, (SQLPOINTER)3, 0), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)SET25, SQL_NTS), s);
    ST_OK(SQLBindCol(s, 1, SQL_C_SLONG, g, 0, g_ind), s);
    ST_OK(SQLExtendedFetch(s, SQL_FETCH_NEXT, 0, &count, status), s);
    ST_OK(SQLExtendedFetch(s, SQL_FETCH_NEXT, 0, &count, status), s);
    ST_CHECK(count == 3 && g[0] == 4, "second rowset from %d", (int)g[0]);
    check_positioned(s, 2, 5);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

int main(void)
{
    st_conn c;
    st_connect_with(&c, "FetchWindowRows=4");
    SQLUINTEGER attrs = 0, getdata = 0;
    ST_CHECK(SQLGetInfo(c.dbc, SQL_FORWARD_ONLY_CURSOR_ATTRIBUTES1, &attrs, 0, NULL) ==
                     SQL_SUCCESS &&
                 (attrs & SQL_CA1_POS_POSITION) && (attrs & SQL_CA1_LOCK_NO_CHANGE),
             "forward-only cursor attributes 0x%x", (unsigned)attrs);
    ST_CHECK(SQLGetInfo(c.dbc, SQL_GETDATA_EXTENSIONS, &getdata, 0, NULL) == SQL_SUCCESS &&
                 (getdata & SQL_GD_BLOCK),
             "getdata extensions 0x%x", (unsigned)getdata);
    every_row_of_every_rowset(&c);
    pieces_and_errors(&c);
    another_statement_between(&c);
    extended_fetch(&c);
    st_disconnect(&c);
    return st_finish("cursors_forward_block");
}
