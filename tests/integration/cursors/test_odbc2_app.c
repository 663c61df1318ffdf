/*
 * An ODBC 2 application (SQL_OV_ODBC2): SQLSetStmtOption for the cursor type
 * and SQL_ROWSET_SIZE, SQLExtendedFetch in several directions with its own
 * row count and status array, SQLSetPos + SQLGetData in the rowset, and a
 * fixed bookmark through SQLExtendedFetch(SQL_FETCH_BOOKMARK).
 * SQLGetStmtOption of a 32-bit option writes 4 bytes (before, 8 bytes
 * overwrote the variable after the application's, as ruby-odbc found);
 * a statement option set on the connection (SQLSetConnectOption) holds for
 * its statements, those it has and new ones (before, S1092); catalog
 * results give ODBC 2's datetime codes (SQL_DATE 9, SQL_TIME 10,
 * SQL_TIMESTAMP 11), as psqlODBC gives them to such an application, and
 * the columns ODBC 3 renamed their ODBC 2 names (TABLE_QUALIFIER,
 * PRECISION...).
 */
#include "st_test.h"

/* The names of result columns first..last of s, separated by spaces. */
static const char *names(SQLHSTMT s, SQLUSMALLINT first, SQLUSMALLINT last)
{
    static char out[512];
    out[0] = '\0';
    for (SQLUSMALLINT col = first; col <= last; col++) {
        char name[64] = "";
        ST_OK(SQLDescribeCol(s, col, (SQLCHAR *)name, sizeof name, NULL, NULL, NULL, NULL,
                             NULL), s);
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s", col > first ? " " : "",
                 name);
    }
    return out;
}

/* Catalog columns that ODBC 3 renamed have ODBC 2's names, as psqlODBC
 * names them for such an application; the rest keep ODBC 3's. */
static void catalog_names(SQLHSTMT s)
{
    static const struct {
        const char *what;
        SQLUSMALLINT first, last;
        const char *want;
    } cases[] = {
        {"SQLTables", 1, 5, "TABLE_QUALIFIER TABLE_OWNER TABLE_NAME TABLE_TYPE REMARKS"},
        {"SQLColumns", 1, 12, "TABLE_QUALIFIER TABLE_OWNER TABLE_NAME COLUMN_NAME DATA_TYPE "
                              "TYPE_NAME PRECISION LENGTH SCALE RADIX NULLABLE REMARKS"},
        {"SQLStatistics", 7, 10, "TYPE SEQ_IN_INDEX COLUMN_NAME COLLATION"},
        {"SQLPrimaryKeys", 1, 4, "TABLE_QUALIFIER TABLE_OWNER TABLE_NAME COLUMN_NAME"},
        {"SQLSpecialColumns", 4, 7, "TYPE_NAME PRECISION LENGTH SCALE"},
        {"SQLGetTypeInfo", 2, 4, "DATA_TYPE PRECISION LITERAL_PREFIX"},
        {"SQLGetTypeInfo ", 11, 12, "MONEY AUTO_INCREMENT"},
        {"SQLForeignKeys", 1, 2, "PKTABLE_CAT PKTABLE_SCHEM"},
    };
    SQLCHAR *table = (SQLCHAR *)"odbc2_dates";
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *what = cases[i].what;
        SQLRETURN rc;
        if (strcmp(what, "SQLTables") == 0)
            rc = SQLTables(s, NULL, 0, NULL, 0, table, SQL_NTS, NULL, 0);
        else if (strcmp(what, "SQLColumns") == 0)
            rc = SQLColumns(s, NULL, 0, NULL, 0, table, SQL_NTS, NULL, 0);
        else if (strcmp(what, "SQLStatistics") == 0)
            rc = SQLStatistics(s, NULL, 0, NULL, 0, table, SQL_NTS, SQL_INDEX_ALL, SQL_QUICK);
        else if (strcmp(what, "SQLPrimaryKeys") == 0)
            rc = SQLPrimaryKeys(s, NULL, 0, NULL, 0, table, SQL_NTS);
        else if (strcmp(what, "SQLSpecialColumns") == 0)
            rc = SQLSpecialColumns(s, SQL_BEST_ROWID, NULL, 0, NULL, 0, table, SQL_NTS,
                                   SQL_SCOPE_SESSION, SQL_NULLABLE);
        else if (strcmp(what, "SQLForeignKeys") == 0)
            rc = SQLForeignKeys(s, NULL, 0, NULL, 0, table, SQL_NTS, NULL, 0, NULL, 0, NULL, 0);
        else
            rc = SQLGetTypeInfo(s, SQL_ALL_TYPES);
        ST_OK(rc, s);
        const char *got = names(s, cases[i].first, cases[i].last);
        ST_CHECK(strcmp(got, cases[i].want) == 0, "%s columns %u-%u: '%s'", what,
                 cases[i].first, cases[i].last, got);
        SQLFreeStmt(s, SQL_CLOSE);
    }
}

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
    /* SQLGetStmtOption: the 4 bytes of a 32-bit option, the 8 of a row count. */
    struct { SQLUINTEGER value, after; } narrow = { 0, 0xAAAAAAAAu };
    ST_OK(SQLGetStmtOption(s, SQL_CURSOR_TYPE, &narrow.value), s);
    ST_CHECK(narrow.value == SQL_CURSOR_STATIC && narrow.after == 0xAAAAAAAAu,
             "SQL_CURSOR_TYPE read as %u, the next 4 bytes %08x", (unsigned)narrow.value,
             (unsigned)narrow.after);
    narrow.after = 0xAAAAAAAAu;
    ST_OK(SQLGetStmtOption(s, SQL_CONCURRENCY, &narrow.value), s);
    ST_CHECK(narrow.value == SQL_CONCUR_READ_ONLY && narrow.after == 0xAAAAAAAAu,
             "SQL_CONCURRENCY read as %u, the next 4 bytes %08x", (unsigned)narrow.value,
             (unsigned)narrow.after);
    SQLULEN rowset = 0;
    ST_OK(SQLGetStmtOption(s, SQL_ROWSET_SIZE, &rowset), s);
    ST_CHECK(rowset == 4, "SQL_ROWSET_SIZE read as %lu", (unsigned long)rowset);
    SQLFreeStmt(s, SQL_CLOSE);

    /* A statement option on the connection: the statement it has, a new one. */
    ST_OK(SQLSetStmtOption(s, SQL_CURSOR_TYPE, SQL_CURSOR_FORWARD_ONLY), s);
    if (!ST_SUCCEEDED(SQLSetConnectOption(dbc, SQL_CURSOR_TYPE, SQL_CURSOR_KEYSET_DRIVEN)) ||
        !ST_SUCCEEDED(SQLSetConnectOption(dbc, SQL_MAX_ROWS, 3))) {
        st_dump_diag(SQL_HANDLE_DBC, dbc);
        ST_CHECK(0, "SQLSetConnectOption of statement options");
    }
    SQLHSTMT later;
    SQLAllocStmt(dbc, &later);
    SQLUINTEGER cursor_type = 0;
    ST_OK(SQLGetStmtOption(later, SQL_CURSOR_TYPE, &cursor_type), later);
    ST_CHECK(cursor_type == SQL_CURSOR_KEYSET_DRIVEN, "a new statement's cursor type %u",
             (unsigned)cursor_type);
    ST_OK(SQLGetStmtOption(s, SQL_CURSOR_TYPE, &cursor_type), s);
    ST_CHECK(cursor_type == SQL_CURSOR_KEYSET_DRIVEN, "the open statement's cursor type %u",
             (unsigned)cursor_type);
    ST_OK(SQLExecDirect(later, (SQLCHAR *)"select g from generate_series(1, 10) g", SQL_NTS),
          later);
    int rows = 0;
    SQLRETURN fetched;
    /* The first with 01S02: the keyset-driven cursor became static. */
    while (fetched = SQLFetch(later), ST_SUCCEEDED(fetched))
        rows++;
    if (fetched != SQL_NO_DATA)
        st_dump_diag(SQL_HANDLE_STMT, later);
    ST_CHECK(rows == 3, "SQL_MAX_ROWS 3 on the connection: %d rows", rows);
    SQLFreeStmt(later, SQL_DROP);
    ST_CHECK(SQLSetConnectOption(dbc, SQL_CONCURRENCY, 12345) == SQL_ERROR,
             "a concurrency no statement takes is refused");
    ST_OK(SQLSetConnectOption(dbc, SQL_MAX_ROWS, 0), s);

    /* Catalog rows in ODBC 2's codes. */
    SQLFreeStmt(s, SQL_CLOSE);
    SQLFreeStmt(s, SQL_UNBIND);
    SQLExecDirect(s, (SQLCHAR *)"drop table if exists odbc2_dates", SQL_NTS);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"create table odbc2_dates(d date, t time, ts timestamp, "
                                      "tz timestamptz, id int primary key)", SQL_NTS), s);
    ST_OK(SQLColumns(s, NULL, 0, NULL, 0, (SQLCHAR *)"odbc2_dates", SQL_NTS, NULL, 0), s);
    SQLSMALLINT data_type = 0;
    char codes[64] = "";
    SQLRETURN row_rc;
    while (row_rc = SQLFetch(s), ST_SUCCEEDED(row_rc)) {
        ST_OK(SQLGetData(s, 5, SQL_C_SSHORT, &data_type, 0, &ind), s);
        snprintf(codes + strlen(codes), sizeof codes - strlen(codes), "%d ", (int)data_type);
    }
    ST_CHECK(strcmp(codes, "9 10 11 11 4 ") == 0, "SQLColumns DATA_TYPE %s", codes);
    SQLFreeStmt(s, SQL_CLOSE);
    ST_OK(SQLGetTypeInfo(s, SQL_DATE), s);
    ST_OK(SQLFetch(s), s);
    ST_OK(SQLGetData(s, 2, SQL_C_SSHORT, &data_type, 0, &ind), s);
    ST_CHECK(data_type == SQL_DATE, "SQLGetTypeInfo(SQL_DATE) DATA_TYPE %d", (int)data_type);
    SQLFreeStmt(s, SQL_CLOSE);
    catalog_names(s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"drop table odbc2_dates", SQL_NTS), s);
    /* Freed the ODBC 2 way. */
    SQLFreeStmt(s, SQL_DROP);
    SQLDisconnect(dbc);
    SQLFreeConnect(dbc);
    SQLFreeEnv(env);
    return st_finish("cursors_odbc2_app");
}
