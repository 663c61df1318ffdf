/*
 * test_ansi_wide_types: character columns are described with the narrow SQL
 * types (SQL_VARCHAR, SQL_CHAR, SQL_LONGVARCHAR) to an application that
 * connected through SQLDriverConnect, and with the wide ones (SQL_WVARCHAR,
 * ...) to one that connected through SQLDriverConnectW, as psqlODBC does:
 * in SQLDescribeCol, SQLColAttribute, SQLColumns' DATA_TYPE and
 * SQL_DATA_TYPE, and SQLGetTypeInfo(SQL_ALL_TYPES). Programs written for
 * psqlODBC print these codes.
 */
#include <stdbool.h>

#include "st_test.h"

static const char *const table_sql =
    "CREATE TABLE ansi_wide_t (v varchar(10), c char(3), x text, n int4)";

/* What each column should be described as, narrow and wide. */
static const struct {
    const char *name;
    SQLSMALLINT narrow, wide;
} expected[] = {
    { "v", SQL_VARCHAR, SQL_WVARCHAR },
    { "c", SQL_CHAR, SQL_WCHAR },
    { "x", SQL_LONGVARCHAR, SQL_WLONGVARCHAR },
    { "n", SQL_INTEGER, SQL_INTEGER },
};
#define NCOLS ((int)(sizeof expected / sizeof expected[0]))

/* Connects through SQLDriverConnectW with the DSN of GC_TEST_DSN. */
static void connect_wide(st_conn *c)
{
    const char *dsn = getenv("GC_TEST_DSN");
    char narrow[256];
    snprintf(narrow, sizeof narrow, "DSN=%s;", dsn != NULL ? dsn : "");
    SQLWCHAR wide[256];
    size_t i = 0;
    for (; narrow[i] != '\0' && i + 1 < sizeof wide / sizeof wide[0]; i++)
        wide[i] = (SQLWCHAR)(unsigned char)narrow[i];
    wide[i] = 0;
    SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &c->env);
    SQLSetEnvAttr(c->env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
    SQLAllocHandle(SQL_HANDLE_DBC, c->env, &c->dbc);
    SQLRETURN rc = SQLDriverConnectW(c->dbc, NULL, wide, SQL_NTS, NULL, 0, NULL,
                                     SQL_DRIVER_NOPROMPT);
    if (!ST_SUCCEEDED(rc)) {
        fprintf(stderr, "cannot connect through SQLDriverConnectW\n");
        st_dump_diag(SQL_HANDLE_DBC, c->dbc);
        exit(2);
    }
}

/* The SQL type each column of the test table is described as. */
static void check_result_types(st_conn *c, bool wide, const char *how)
{
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"SELECT v, c, x, n FROM ansi_wide_t", SQL_NTS), s);
    for (int i = 0; i < NCOLS; i++) {
        SQLSMALLINT want = wide ? expected[i].wide : expected[i].narrow;
        SQLCHAR name[64];
        SQLSMALLINT name_len, type = 0, digits, nullable;
        SQLULEN size;
        ST_OK(SQLDescribeCol(s, (SQLUSMALLINT)(i + 1), name, sizeof name, &name_len, &type,
                             &size, &digits, &nullable), s);
        ST_CHECK(type == want, "%s: SQLDescribeCol(%s) is %d, wanted %d", how,
                 expected[i].name, type, want);
        SQLLEN concise = 0, verbose = 0;
        ST_OK(SQLColAttribute(s, (SQLUSMALLINT)(i + 1), SQL_DESC_CONCISE_TYPE, NULL, 0, NULL,
                              &concise), s);
        ST_OK(SQLColAttribute(s, (SQLUSMALLINT)(i + 1), SQL_DESC_TYPE, NULL, 0, NULL,
                              &verbose), s);
        ST_CHECK(concise == want && verbose == want,
                 "%s: SQLColAttribute(%s) concise %ld type %ld, wanted %d", how,
                 expected[i].name, (long)concise, (long)verbose, want);
    }
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* SQLColumns' DATA_TYPE (5) and SQL_DATA_TYPE (14) of each column. */
static void check_columns(st_conn *c, bool wide, const char *how)
{
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLColumns(s, NULL, 0, NULL, 0, (SQLCHAR *)"ansi_wide_t", SQL_NTS, NULL, 0), s);
    int rows = 0;
    while (SQLFetch(s) == SQL_SUCCESS && rows < NCOLS) {
        SQLSMALLINT data_type = 0, sql_data_type = 0;
        SQLLEN ind;
        char name[64] = "";
        ST_OK(SQLGetData(s, 4, SQL_C_CHAR, name, sizeof name, &ind), s);
        ST_OK(SQLGetData(s, 5, SQL_C_SSHORT, &data_type, 0, &ind), s);
        ST_OK(SQLGetData(s, 14, SQL_C_SSHORT, &sql_data_type, 0, &ind), s);
        SQLSMALLINT want = wide ? expected[rows].wide : expected[rows].narrow;
        ST_CHECK(strcmp(name, expected[rows].name) == 0, "%s: column %d is %s", how, rows + 1,
                 name);
        ST_CHECK(data_type == want && sql_data_type == want,
                 "%s: SQLColumns(%s) DATA_TYPE %d SQL_DATA_TYPE %d, wanted %d", how, name,
                 data_type, sql_data_type, want);
        rows++;
    }
    ST_CHECK(rows == NCOLS, "%s: SQLColumns gave %d rows", how, rows);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* SQLGetTypeInfo(SQL_ALL_TYPES) lists varchar with the type results give;
 * asking for the other width still finds it, reported as asked. */
static void check_type_info(st_conn *c, bool wide, const char *how)
{
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLGetTypeInfo(s, SQL_ALL_TYPES), s);
    SQLSMALLINT varchar_type = 0;
    int wide_rows = 0;
    while (SQLFetch(s) == SQL_SUCCESS) {
        char name[64] = "";
        SQLSMALLINT type = 0;
        SQLLEN ind;
        ST_OK(SQLGetData(s, 1, SQL_C_CHAR, name, sizeof name, &ind), s);
        ST_OK(SQLGetData(s, 2, SQL_C_SSHORT, &type, 0, &ind), s);
        if (strcmp(name, "varchar") == 0)
            varchar_type = type;
        if (type == SQL_WVARCHAR || type == SQL_WCHAR || type == SQL_WLONGVARCHAR)
            wide_rows++;
    }
    ST_CHECK(varchar_type == (wide ? SQL_WVARCHAR : SQL_VARCHAR),
             "%s: SQLGetTypeInfo(SQL_ALL_TYPES) lists varchar as %d", how, varchar_type);
    ST_CHECK(wide ? wide_rows > 0 : wide_rows == 0, "%s: %d rows of wide types", how,
             wide_rows);
    SQLFreeStmt(s, SQL_CLOSE);

    SQLSMALLINT other = wide ? SQL_VARCHAR : SQL_WVARCHAR;
    ST_OK(SQLGetTypeInfo(s, other), s);
    ST_OK(SQLFetch(s), s);
    SQLSMALLINT type = 0;
    SQLLEN ind;
    ST_OK(SQLGetData(s, 2, SQL_C_SSHORT, &type, 0, &ind), s);
    ST_CHECK(type == other, "%s: SQLGetTypeInfo(%d) reports %d", how, other, type);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

static void check_connection(st_conn *c, bool wide, const char *how)
{
    check_result_types(c, wide, how);
    check_columns(c, wide, how);
    check_type_info(c, wide, how);
}

int main(void)
{
    st_conn ansi;
    st_connect(&ansi);
    st_exec(&ansi, "DROP TABLE IF EXISTS ansi_wide_t");
    st_exec(&ansi, table_sql);
    check_connection(&ansi, false, "SQLDriverConnect");

    st_conn wide;
    connect_wide(&wide);
    check_connection(&wide, true, "SQLDriverConnectW");
    st_disconnect(&wide);

    /* The same handle connected again through the ANSI function is narrow
     * again: the width follows the last connect, not the handle's past. */
    connect_wide(&wide);
    SQLDisconnect(wide.dbc);
    const char *dsn = getenv("GC_TEST_DSN");
    char connstr[256];
    snprintf(connstr, sizeof connstr, "DSN=%s;", dsn);
    ST_CHECK(ST_SUCCEEDED(SQLDriverConnect(wide.dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL,
                                           0, NULL, SQL_DRIVER_NOPROMPT)),
             "reconnect through SQLDriverConnect");
    check_result_types(&wide, false, "SQLDriverConnect after SQLDriverConnectW");
    st_disconnect(&wide);

    st_exec(&ansi, "DROP TABLE ansi_wide_t");
    st_disconnect(&ansi);
    return st_finish("statements_ansi_wide_types");
}
