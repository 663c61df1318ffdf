/*
 * Cursor attributes read into the width the application names: statement
 * attributes are SQLULEN, but a program that reads one into an SQLUINTEGER
 * and passes SQL_IS_UINTEGER (or SQL_IS_INTEGER) gets 4 bytes and nothing
 * beside its variable is overwritten. Then SQL_ATTR_CURSOR_SCROLLABLE, set
 * and read back this way, decides whether the cursor scrolls. psqlODBC's
 * private Fetch connection attribute (65541), which programs written for it
 * set before opening cursors, is accepted; its neighbours are not.
 */
#include "st_test.h"

/* A 4-byte variable with guards on both sides, as a program's neighbouring
 * locals would be. */
typedef struct guarded_u32 {
    SQLUINTEGER before;
    SQLUINTEGER value;
    SQLUINTEGER after;
} guarded_u32;

#define GUARD 0x5a5a5a5aU

/* Reads attr into a guarded SQLUINTEGER with the given buffer length and
 * checks that only the variable changed and the length says 4 bytes. */
static SQLUINTEGER read_narrow(SQLHSTMT s, SQLINTEGER attr, SQLINTEGER buffer_length)
{
    guarded_u32 g = { GUARD, 0xdeadbeefU, GUARD };
    SQLINTEGER len = -1;
    ST_OK(SQLGetStmtAttr(s, attr, &g.value, buffer_length, &len), s);
    ST_CHECK(g.before == GUARD && g.after == GUARD,
             "attribute %d written beyond its SQLUINTEGER (%#x %#x)", (int)attr,
             (unsigned)g.before, (unsigned)g.after);
    ST_CHECK(len == (SQLINTEGER)sizeof(SQLUINTEGER), "attribute %d length %d", (int)attr,
             (int)len);
    return g.value;
}

/* Fetches one row of a one-column result and returns its text. */
static const char *fetched(SQLHSTMT s, SQLRETURN rc)
{
    static char buf[32];
    SQLLEN ind = 0;
    ST_CHECK(rc == SQL_SUCCESS, "fetch rc %d", rc);
    buf[0] = '\0';
    ST_OK(SQLGetData(s, 1, SQL_C_CHAR, buf, sizeof buf, &ind), s);
    return buf;
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    SQLHSTMT s = st_stmt(&c);

    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_SCROLLABLE, (SQLPOINTER)SQL_SCROLLABLE,
                         SQL_IS_UINTEGER), s);
    ST_CHECK(read_narrow(s, SQL_ATTR_CURSOR_TYPE, SQL_IS_UINTEGER) == SQL_CURSOR_STATIC,
             "scrollable makes a static cursor");
    ST_CHECK(read_narrow(s, SQL_ATTR_CURSOR_SCROLLABLE, SQL_IS_UINTEGER) == SQL_SCROLLABLE,
             "scrollable reads back");
    ST_CHECK(read_narrow(s, SQL_ATTR_ROW_ARRAY_SIZE, SQL_IS_INTEGER) == 1, "row array size");

    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_SCROLLABLE, (SQLPOINTER)SQL_NONSCROLLABLE,
                         SQL_IS_UINTEGER), s);
    ST_CHECK(read_narrow(s, SQL_ATTR_CURSOR_TYPE, SQL_IS_UINTEGER) == SQL_CURSOR_FORWARD_ONLY,
             "nonscrollable makes a forward-only cursor");
    ST_CHECK(read_narrow(s, SQL_ATTR_CURSOR_SCROLLABLE, SQL_IS_INTEGER) == SQL_NONSCROLLABLE,
             "nonscrollable reads back");

    /* Without a width hint the full SQLULEN is written. */
    SQLULEN full = ~(SQLULEN)0;
    SQLINTEGER len = -1;
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, &full, 0, &len), s);
    ST_CHECK(full == SQL_CURSOR_FORWARD_ONLY && len == (SQLINTEGER)sizeof(SQLULEN),
             "SQLULEN read: %lu, length %d", (unsigned long)full, (int)len);

    /* Scrollable again: after two rows, SQL_FETCH_FIRST goes back. */
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_SCROLLABLE, (SQLPOINTER)SQL_SCROLLABLE,
                         SQL_IS_UINTEGER), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select 'r' || g from generate_series(1, 4) g", SQL_NTS),
          s);
    ST_CHECK(strcmp(fetched(s, SQLFetch(s)), "r1") == 0, "first row");
    ST_CHECK(strcmp(fetched(s, SQLFetch(s)), "r2") == 0, "second row");
    ST_CHECK(strcmp(fetched(s, SQLFetchScroll(s, SQL_FETCH_FIRST, 0)), "r1") == 0,
             "SQL_FETCH_FIRST after two rows");
    ST_OK(SQLFreeStmt(s, SQL_CLOSE), s);

    /* A pointer attribute is unaffected by the hint's absence. */
    SQLULEN rows = 0;
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROWS_FETCHED_PTR, &rows, 0), s);
    SQLPOINTER got = NULL;
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_ROWS_FETCHED_PTR, &got, SQL_IS_POINTER, NULL), s);
    ST_CHECK(got == &rows, "rows-fetched pointer reads back");

    SQLINTEGER fetch_rows = 10000;
    ST_CHECK(SQLSetConnectAttr(c.dbc, 65541, &fetch_rows, SQL_IS_INTEGER) == SQL_SUCCESS,
             "psqlODBC's Fetch attribute accepted");
    ST_EXPECT_HANDLE_STATE(SQLSetConnectAttr(c.dbc, 65542, &fetch_rows, SQL_IS_INTEGER),
                           SQL_HANDLE_DBC, c.dbc, "HY092");

    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);
    return st_finish("cursors_attr_widths");
}
