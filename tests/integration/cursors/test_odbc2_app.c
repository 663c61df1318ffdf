/*
 * An ODBC 2 application (SQL_OV_ODBC2): SQLSetStmtOption for the cursor type
 * and SQL_ROWSET_SIZE, SQLExtendedFetch in several directions with its own
 * row count and status array, SQLSetPos + SQLGetData in the rowset, and a
 * fixed bookmark through SQLExtendedFetch(SQL_FETCH_BOOKMARK).
 */
#include "st_test.h"

int main(void)
{
    const char *dsn = getenv("GC_TEST_DSN");
    if (dsn == NULL) {
        fprintf(stderr, "GC_TEST_DSN is not set\n");
        return 2;
    }
    SQLHENV env;
    SQLHDBC dbc;
    SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env);
    SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC2, 0);
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    char connstr[256];
    snprintf(connstr, sizeof connstr, "DSN=%s", dsn);
    if (!ST_SUCCEEDED(SQLDriverConnect(dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0, NULL,
                                       SQL_DRIVER_NOPROMPT))) {
        st_dump_diag(SQL_HANDLE_DBC, dbc);
        return 2;
    }
    SQLHSTMT s;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &s);
    ST_OK(SQLSetStmtOption(s, SQL_CURSOR_TYPE, SQL_CURSOR_STATIC), s);
    ST_OK(SQLSetStmtOption(s, SQL_ROWSET_SIZE, 4), s);
    ST_OK(SQLSetStmtOption(s, SQL_USE_BOOKMARKS, SQL_UB_ON), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select g, 'r' || g from generate_series(1, 10) g "
                                      "order by g", SQL_NTS), s);
    SQLINTEGER g[4];
    SQLLEN g_ind[4];
    SQLULEN count = 0;
    SQLUSMALLINT status[4];
    ST_OK(SQLBindCol(s, 1, SQL_C_SLONG, g, 0, g_ind), s);
    ST_OK(SQLExtendedFetch(s, SQL_FETCH_LAST, 0, &count, status), s);
    ST_CHECK(count == 4 && g[0] == 7 && g[3] == 10 && status[3] == SQL_ROW_SUCCESS,
             "last rowset: %lu rows from %d", (unsigned long)count, (int)g[0]);
    ST_OK(SQLSetPos(s, 3, SQL_POSITION, SQL_LOCK_NO_CHANGE), s);
    char name[8];
    SQLLEN ind = 0;
    ST_OK(SQLGetData(s, 2, SQL_C_CHAR, name, sizeof name, &ind), s);
    ST_CHECK(strcmp(name, "r9") == 0, "positioned row: %s", name);
    BOOKMARK mark = 0;    /* SQL_C_BOOKMARK is 8 bytes on 64-bit unixODBC */
    ST_OK(SQLGetData(s, 0, SQL_C_BOOKMARK, &mark, sizeof mark, &ind), s);
    ST_CHECK(mark == 9 && ind == sizeof mark, "bookmark %lu (%ld bytes)", (unsigned long)mark,
             (long)ind);
    ST_OK(SQLExtendedFetch(s, SQL_FETCH_FIRST, 0, &count, status), s);
    ST_CHECK(g[0] == 1, "first rowset");
    ST_OK(SQLExtendedFetch(s, SQL_FETCH_BOOKMARK, (SQLLEN)mark, &count, status), s);
    ST_CHECK(count == 2 && g[0] == 9 && g[1] == 10 && status[2] == SQL_ROW_NOROW,
             "from the bookmark: %lu rows from %d", (unsigned long)count, (int)g[0]);
    ST_OK(SQLExtendedFetch(s, SQL_FETCH_RELATIVE, -5, &count, status), s);
    ST_CHECK(g[0] == 4, "relative -5 gave %d", (int)g[0]);
    ST_CHECK(SQLExtendedFetch(s, SQL_FETCH_ABSOLUTE, 11, &count, status) == SQL_NO_DATA,
             "past the end");
    /* Freed the ODBC 2 way. */
    SQLFreeStmt(s, SQL_DROP);
    SQLDisconnect(dbc);
    SQLFreeConnect(dbc);
    SQLFreeEnv(env);
    return st_finish("cursors_odbc2_app");
}
