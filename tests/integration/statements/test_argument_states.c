/*
 * Bad arguments get the SQLSTATE ODBC names for them (docs/sqlstates.md):
 * a string that is not valid UTF-16 (a lone surrogate) gives 22018 from
 * every W entry point alike, as a bound SQL_C_WCHAR parameter does; a bad
 * string length HY090; SQLBindParameter checks its type codes when it is
 * called (HY003 C type, HY004 SQL type); SQLGetTypeInfo of a code ODBC does
 * not define gives HY004. The handles stay usable after each.
 */
#include "st_test.h"

#include <sqlucode.h>

/* ASCII text as UTF-16 into out (NUL-terminated); returns out. */
static SQLWCHAR *wide(const char *text, SQLWCHAR *out)
{
    size_t i = 0;
    for (; text[i] != '\0'; i++)
        out[i] = (SQLWCHAR)(unsigned char)text[i];
    out[i] = 0;
    return out;
}

/* text with a lone high surrogate put in place of its first '#'. */
static SQLWCHAR *wide_with_lone_surrogate(const char *text, SQLWCHAR *out)
{
    wide(text, out);
    for (size_t i = 0; out[i] != 0; i++) {
        if (out[i] == '#') {
            out[i] = 0xD800;
            break;
        }
    }
    return out;
}

static void lone_surrogates_give_22018(st_conn *c)
{
    SQLWCHAR bad[256], ok[256], bad2[256];
    SQLHSTMT s = st_stmt(c);
    wide_with_lone_surrogate("select '#'", bad);
    ST_EXPECT_HANDLE_STATE(SQLExecDirectW(s, bad, SQL_NTS), SQL_HANDLE_STMT, s, "22018");
    ST_EXPECT_HANDLE_STATE(SQLPrepareW(s, bad, SQL_NTS), SQL_HANDLE_STMT, s, "22018");
    /* A lone low surrogate too, and a length that ends inside the text. */
    bad[8] = 0xDC00;
    ST_EXPECT_HANDLE_STATE(SQLExecDirectW(s, bad, 10), SQL_HANDLE_STMT, s, "22018");
    ST_EXPECT_HANDLE_STATE(SQLExecDirectW(s, wide("select 1", ok), -7), SQL_HANDLE_STMT, s, "HY090");

    wide_with_lone_surrogate("t#", bad2);
    ST_EXPECT_HANDLE_STATE(SQLColumnsW(s, NULL, 0, NULL, 0, bad2, SQL_NTS, NULL, 0), SQL_HANDLE_STMT, s,
             "22018");
    ST_EXPECT_HANDLE_STATE(SQLTablesW(s, NULL, 0, NULL, 0, bad2, SQL_NTS, NULL, 0), SQL_HANDLE_STMT, s,
             "22018");
    ST_EXPECT_HANDLE_STATE(SQLPrimaryKeysW(s, NULL, 0, NULL, 0, bad2, SQL_NTS), SQL_HANDLE_STMT, s, "22018");
    ST_EXPECT_HANDLE_STATE(SQLStatisticsW(s, NULL, 0, NULL, 0, bad2, SQL_NTS, SQL_INDEX_ALL, SQL_QUICK),
             SQL_HANDLE_STMT, s, "22018");
    ST_EXPECT_HANDLE_STATE(SQLProceduresW(s, NULL, 0, NULL, 0, bad2, SQL_NTS), SQL_HANDLE_STMT, s, "22018");
    ST_EXPECT_HANDLE_STATE(SQLSetCursorNameW(s, bad2, SQL_NTS), SQL_HANDLE_STMT, s, "22018");

    SQLHDESC ipd = SQL_NULL_HDESC;
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_IMP_PARAM_DESC, &ipd, 0, NULL), s);
    ST_EXPECT_HANDLE_STATE(SQLSetDescFieldW(ipd, 1, SQL_DESC_NAME, bad2, SQL_NTS),
                           SQL_HANDLE_DESC, ipd, "22018");

    /* The statement still works, through the W entry point. */
    ST_OK(SQLExecDirectW(s, wide("select 1", ok), SQL_NTS), s);
    ST_OK(SQLFetch(s), s);
    ST_OK(SQLCloseCursor(s), s);
    SQLFreeHandle(SQL_HANDLE_STMT, s);

    /* The connection's W entry points say the same. */
    SQLWCHAR out[256];
    SQLINTEGER out_len = 0;
    ST_EXPECT_HANDLE_STATE(SQLNativeSqlW(c->dbc, bad, SQL_NTS, out, 256, &out_len), SQL_HANDLE_DBC, c->dbc,
             "22018");
    ST_EXPECT_HANDLE_STATE(SQLSetConnectAttrW(c->dbc, SQL_ATTR_CURRENT_CATALOG, bad2, SQL_NTS),
             SQL_HANDLE_DBC, c->dbc, "22018");
    ST_CHECK(SQLNativeSqlW(c->dbc, wide("select 1", ok), SQL_NTS, out, 256, &out_len) ==
             SQL_SUCCESS, "SQLNativeSqlW works after the refusal");

    /* SQLDriverConnectW: a lone surrogate in a value. */
    SQLHDBC dbc;
    SQLAllocHandle(SQL_HANDLE_DBC, c->env, &dbc);
    char text[256];
    snprintf(text, sizeof text, "DSN=%s;ApplicationName=x#y", getenv("GC_TEST_DSN"));
    SQLSMALLINT out_small = 0;
    ST_EXPECT_HANDLE_STATE(SQLDriverConnectW(dbc, NULL, wide_with_lone_surrogate(text, bad), SQL_NTS, out,
                               256, &out_small, SQL_DRIVER_NOPROMPT),
             SQL_HANDLE_DBC, dbc, "22018");
    /* SQLConnectW: a lone surrogate in the password. */
    SQLWCHAR dsn[64];
    ST_EXPECT_HANDLE_STATE(SQLConnectW(dbc, wide(getenv("GC_TEST_DSN"), dsn), SQL_NTS, NULL, 0,
                                       bad2, SQL_NTS),
                           SQL_HANDLE_DBC, dbc, "22018");
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
}

/* The catalog functions' W entry points read every string argument: a lone
 * surrogate in the last one gives 22018 too (they share one implementation
 * with the ANSI ones, which must be told how many arguments there are). */
static void catalog_w_reads_every_argument(st_conn *c)
{
    SQLWCHAR bad[64];
    SQLHSTMT s = st_stmt(c);
    wide_with_lone_surrogate("x#", bad);
    ST_EXPECT_HANDLE_STATE(SQLColumnsW(s, NULL, 0, NULL, 0, NULL, 0, bad, SQL_NTS),
                           SQL_HANDLE_STMT, s, "22018");
    SQLWCHAR table[8];
    ST_EXPECT_HANDLE_STATE(SQLColumnPrivilegesW(s, NULL, 0, NULL, 0, wide("t", table), SQL_NTS,
                                                bad, SQL_NTS),
                           SQL_HANDLE_STMT, s, "22018");
    ST_EXPECT_HANDLE_STATE(SQLForeignKeysW(s, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0,
                                           bad, SQL_NTS),
                           SQL_HANDLE_STMT, s, "22018");
    ST_EXPECT_HANDLE_STATE(SQLProcedureColumnsW(s, NULL, 0, NULL, 0, NULL, 0, bad, SQL_NTS),
                           SQL_HANDLE_STMT, s, "22018");
    ST_EXPECT_HANDLE_STATE(SQLSpecialColumnsW(s, SQL_BEST_ROWID, NULL, 0, NULL, 0, bad,
                                              SQL_NTS, SQL_SCOPE_SESSION, SQL_NULLABLE),
                           SQL_HANDLE_STMT, s, "22018");
    ST_EXPECT_HANDLE_STATE(SQLTablePrivilegesW(s, NULL, 0, NULL, 0, bad, SQL_NTS),
                           SQL_HANDLE_STMT, s, "22018");
    ST_EXPECT_HANDLE_STATE(SQLTablesW(s, NULL, 0, NULL, 0, NULL, 0, bad, SQL_NTS),
                           SQL_HANDLE_STMT, s, "22018");
    /* The statement still works. */
    ST_OK(SQLTables(s, NULL, 0, NULL, 0, (SQLCHAR *)"no_such_table", SQL_NTS, NULL, 0), s);
    ST_CHECK(SQLFetch(s) == SQL_NO_DATA, "no table named no_such_table");
    ST_OK(SQLCloseCursor(s), s);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* Through an ODBC 3.8 environment: the driver manager then passes C type
 * codes from the driver-specific range (0x4000-0x7FFF) on to the driver (it
 * refuses other unknown ones itself, with its own HY003). */
static void bind_checks_type_codes(void)
{
    st_conn conn, *c = &conn;
    st_connect_as(c, SQL_OV_ODBC3_80);
    SQLHSTMT s = st_stmt(c);
    SQLINTEGER v = 7;
    SQLLEN ind = 0;
    ST_OK(SQLPrepare(s, (SQLCHAR *)"select ?::int + 1", SQL_NTS), s);
    ST_EXPECT_STATE(SQLBindParameter(s, 1, SQL_PARAM_INPUT, 0x4000, SQL_INTEGER, 0, 0, &v, 0,
                                     &ind), s, "HY003");
    ST_EXPECT_STATE(SQLBindParameter(s, 1, SQL_PARAM_INPUT, 31337, SQL_INTEGER, 0, 0, &v, 0,
                                     &ind), s, "HY003");
    ST_EXPECT_STATE(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_SLONG, 31337, 0, 0, &v, 0,
                                     &ind), s, "HY004");
    ST_EXPECT_STATE(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_DEFAULT, -31337, 0, 0, &v, 0,
                                     &ind), s, "HY004");
    /* Nothing was bound by the refusals: executing names the missing one. */
    ST_EXPECT_STATE(SQLExecute(s), s, "07002");
    /* ODBC 2 codes and SQL_C_DEFAULT are type codes too. */
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_LONG, SQL_INTEGER, 0, 0, &v, 0, &ind), s);
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_DEFAULT, SQL_INTEGER, 0, 0, &v, 0, &ind),
          s);
    ST_OK(SQLExecute(s), s);
    SQLINTEGER got = 0;
    ST_OK(SQLFetch(s), s);
    ST_OK(SQLGetData(s, 1, SQL_C_SLONG, &got, 0, NULL), s);
    ST_CHECK(got == 8, "7 + 1 gave %d", (int)got);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(c);
}

static void type_info_checks_the_code(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    ST_EXPECT_STATE(SQLGetTypeInfo(s, 31337), s, "HY004");
    ST_EXPECT_HANDLE_STATE(SQLGetTypeInfoW(s, -31337), SQL_HANDLE_STMT, s, "HY004");
    /* A code ODBC defines that no PostgreSQL type maps to: no rows. */
    ST_OK(SQLGetTypeInfo(s, SQL_INTERVAL_YEAR), s);
    ST_CHECK(SQLFetch(s) == SQL_NO_DATA, "no type for SQL_INTERVAL_YEAR");
    ST_OK(SQLCloseCursor(s), s);
    /* ODBC 2's SQL_DATE is SQL_TYPE_DATE. */
    ST_OK(SQLGetTypeInfo(s, SQL_DATE), s);
    ST_OK(SQLFetch(s), s);
    ST_OK(SQLCloseCursor(s), s);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    lone_surrogates_give_22018(&c);
    catalog_w_reads_every_argument(&c);
    bind_checks_type_codes();
    type_info_checks_the_code(&c);
    st_disconnect(&c);
    return st_finish("statements_argument_states");
}
