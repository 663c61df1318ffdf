/*
 * Diagnostics (SQLGetDiagRec/Field on every handle kind, server errors and
 * notices), SQLGetInfo items applications ask for, connection attributes and
 * SQLNativeSql.
 *
 * Its tables are ordinary tables with names of their own, dropped at the
 * end, not temporary ones: a global connection refuses temporary objects
 * (docs/session-dependent-sql.md), and this test runs through both kinds of
 * connection (docs/testing.md).
 */
#include "conn_test.h"

#include <sqlucode.h>

#include "gcodbc.h"

static void check_info_string(SQLHDBC dbc, SQLUSMALLINT item, const char *name,
                              const char *want)
{
    char buf[256] = "";
    SQLSMALLINT len = -1;
    SQLRETURN rc = SQLGetInfo(dbc, item, buf, sizeof buf, &len);
    CT_CHECK(rc == SQL_SUCCESS, "%s rc=%d", name, rc);
    CT_CHECK(strcmp(buf, want) == 0, "%s = '%s', want '%s'", name, buf, want);
    CT_CHECK(len == (SQLSMALLINT)strlen(want), "%s length %d", name, len);
}

static SQLUINTEGER info_u32(SQLHDBC dbc, SQLUSMALLINT item)
{
    SQLUINTEGER v = 0xdeadbeef;
    SQLRETURN rc = SQLGetInfo(dbc, item, &v, sizeof v, NULL);
    CT_CHECK(rc == SQL_SUCCESS, "info %u rc=%d", (unsigned)item, rc);
    return v;
}

static SQLUSMALLINT info_u16(SQLHDBC dbc, SQLUSMALLINT item)
{
    SQLUSMALLINT v = 0xbeef;
    SQLRETURN rc = SQLGetInfo(dbc, item, &v, sizeof v, NULL);
    CT_CHECK(rc == SQL_SUCCESS, "info %u rc=%d", (unsigned)item, rc);
    return v;
}

/* SQL_DRIVER_VER: the psqlODBC release gcodbc behaves as, which clients key
 * their psqlODBC workarounds on (pyodbc's tests: ODBC 3's column names from
 * 13.02 on); gcodbc's own version, ##.##.####, from the numbers the build
 * takes its version from, is its own read-only attribute. */
static void test_driver_versions(SQLHDBC dbc)
{
    check_info_string(dbc, SQL_DRIVER_VER, "SQL_DRIVER_VER", "13.02.0000");
    char driver_ver[32], own[32];
    snprintf(driver_ver, sizeof driver_ver, "%02d.%02d.%04d", GCODBC_VERSION_MAJOR,
             GCODBC_VERSION_MINOR, GCODBC_VERSION_PATCH);
    SQLINTEGER own_len = 0;
    SQLRETURN rc = SQLGetConnectAttr(dbc, GCODBC_ATTR_DRIVER_VERSION, own, sizeof own,
                                     &own_len);
    CT_CHECK(rc == SQL_SUCCESS && strcmp(own, driver_ver) == 0 &&
             own_len == (SQLINTEGER)strlen(driver_ver),
             "GCODBC_ATTR_DRIVER_VERSION: rc=%d '%s', expected '%s'", rc, own, driver_ver);
    rc = SQLSetConnectAttr(dbc, GCODBC_ATTR_DRIVER_VERSION, (SQLPOINTER) "99.00.0000", SQL_NTS);
    CT_CHECK(rc == SQL_ERROR && ct_has_state(SQL_HANDLE_DBC, dbc, "HY092"),
             "setting GCODBC_ATTR_DRIVER_VERSION: rc=%d, expected HY092 (read-only)", rc);
}

static void test_get_info(SQLHDBC dbc)
{
    check_info_string(dbc, SQL_DBMS_NAME, "SQL_DBMS_NAME", "PostgreSQL");
    check_info_string(dbc, SQL_DRIVER_NAME, "SQL_DRIVER_NAME", "libgcodbc.so");
    check_info_string(dbc, SQL_DRIVER_ODBC_VER, "SQL_DRIVER_ODBC_VER", "03.51");
    test_driver_versions(dbc);
    check_info_string(dbc, SQL_IDENTIFIER_QUOTE_CHAR, "SQL_IDENTIFIER_QUOTE_CHAR", "\"");
    check_info_string(dbc, SQL_DATA_SOURCE_NAME, "SQL_DATA_SOURCE_NAME", ct_dsn());
    check_info_string(dbc, SQL_DATABASE_NAME, "SQL_DATABASE_NAME", "gcodbc_test");
    check_info_string(dbc, SQL_USER_NAME, "SQL_USER_NAME", "gcodbc");
    check_info_string(dbc, SQL_DATA_SOURCE_READ_ONLY, "SQL_DATA_SOURCE_READ_ONLY", "N");
    check_info_string(dbc, SQL_DESCRIBE_PARAMETER, "SQL_DESCRIBE_PARAMETER", "Y");
    check_info_string(dbc, SQL_NEED_LONG_DATA_LEN, "SQL_NEED_LONG_DATA_LEN", "N");

    /* SQL_DBMS_VER: ##.##.#### of the server we talk to, its minor version
     * in the second place (not "15.00.0018" for 15.18). */
    PGconn *pg = ct_pq_connect("conninfo");
    int server = PQserverVersion(pg);
    PQfinish(pg);
    char want[32], ver[64];
    snprintf(want, sizeof want, "%02d.%02d.0000", server / 10000, server % 10000);
    SQLGetInfo(dbc, SQL_DBMS_VER, ver, sizeof ver, NULL);
    CT_CHECK(strcmp(ver, want) == 0, "SQL_DBMS_VER %s, want %s", ver, want);

    CT_CHECK(info_u32(dbc, SQL_GETDATA_EXTENSIONS) ==
                 (SQL_GD_ANY_COLUMN | SQL_GD_ANY_ORDER | SQL_GD_BOUND | SQL_GD_BLOCK),
             "SQL_GETDATA_EXTENSIONS");
    /* Keyset-driven cursors: tests/integration/cursors (not on a global connection). */
    CT_CHECK((info_u32(dbc, SQL_SCROLL_OPTIONS) & (SQL_SO_FORWARD_ONLY | SQL_SO_STATIC)) ==
                 (SQL_SO_FORWARD_ONLY | SQL_SO_STATIC),
             "SQL_SCROLL_OPTIONS");
    CT_CHECK(info_u16(dbc, SQL_TXN_CAPABLE) == SQL_TC_ALL, "SQL_TXN_CAPABLE");
    CT_CHECK(info_u32(dbc, SQL_DEFAULT_TXN_ISOLATION) == SQL_TXN_READ_COMMITTED,
             "SQL_DEFAULT_TXN_ISOLATION");
    CT_CHECK(info_u32(dbc, SQL_TXN_ISOLATION_OPTION) & SQL_TXN_SERIALIZABLE,
             "SQL_TXN_ISOLATION_OPTION");
    CT_CHECK(info_u16(dbc, SQL_MAX_COLUMN_NAME_LEN) == 63, "SQL_MAX_COLUMN_NAME_LEN");
    CT_CHECK(info_u16(dbc, SQL_MAX_TABLE_NAME_LEN) == 63, "SQL_MAX_TABLE_NAME_LEN");
    CT_CHECK(info_u32(dbc, SQL_ASYNC_MODE) == SQL_AM_NONE, "SQL_ASYNC_MODE");
    CT_CHECK(info_u32(dbc, SQL_STRING_FUNCTIONS) & SQL_FN_STR_CONCAT, "SQL_STRING_FUNCTIONS");
    CT_CHECK(info_u32(dbc, SQL_NUMERIC_FUNCTIONS) & SQL_FN_NUM_ABS, "SQL_NUMERIC_FUNCTIONS");
    CT_CHECK(info_u32(dbc, SQL_CONVERT_INTEGER) & SQL_CVT_VARCHAR, "SQL_CONVERT_INTEGER");
    CT_CHECK(info_u16(dbc, SQL_CURSOR_COMMIT_BEHAVIOR) == SQL_CB_PRESERVE,
             "SQL_CURSOR_COMMIT_BEHAVIOR");

    /* Truncated string: 01004, full length reported. */
    char small[4];
    SQLSMALLINT len = 0;
    SQLRETURN rc = SQLGetInfo(dbc, SQL_DBMS_NAME, small, sizeof small, &len);
    CT_CHECK(rc == SQL_SUCCESS_WITH_INFO, "truncated rc=%d", rc);
    CT_CHECK(strcmp(ct_sqlstate(SQL_HANDLE_DBC, dbc), "01004") == 0, "state %s",
             ct_sqlstate(SQL_HANDLE_DBC, dbc));
    CT_CHECK(len == 10 && strcmp(small, "Pos") == 0, "len=%d small=%s", len, small);

    /* Wide: UTF-16, length in bytes. */
    SQLWCHAR wbuf[32];
    rc = SQLGetInfoW(dbc, SQL_DBMS_NAME, wbuf, sizeof wbuf, &len);
    CT_CHECK(rc == SQL_SUCCESS && len == 20 && wbuf[0] == 'P' && wbuf[9] == 'L' &&
                 wbuf[10] == 0,
             "SQLGetInfoW rc=%d len=%d", rc, len);

    /* An unknown item: HY096. */
    rc = SQLGetInfo(dbc, 9999, small, sizeof small, &len);
    CT_CHECK(rc == SQL_ERROR && strcmp(ct_sqlstate(SQL_HANDLE_DBC, dbc), "HY096") == 0,
             "unknown item rc=%d state=%s", rc, ct_sqlstate(SQL_HANDLE_DBC, dbc));
}

static void test_connection_attributes(SQLHDBC dbc)
{
    char cat[64];
    SQLINTEGER len = 0;
    SQLRETURN rc = SQLGetConnectAttr(dbc, SQL_ATTR_CURRENT_CATALOG, cat, sizeof cat, &len);
    CT_CHECK(rc == SQL_SUCCESS && strcmp(cat, "gcodbc_test") == 0 && len == 11,
             "catalog rc=%d '%s' len=%d", rc, cat, (int)len);
    rc = SQLSetConnectAttr(dbc, SQL_ATTR_CURRENT_CATALOG, "postgres", SQL_NTS);
    CT_CHECK(rc == SQL_ERROR, "switching database accepted");
    rc = SQLSetConnectAttr(dbc, SQL_ATTR_CURRENT_CATALOG, "gcodbc_test", SQL_NTS);
    CT_CHECK(rc == SQL_SUCCESS, "same database refused rc=%d", rc);

    SQLUINTEGER v = 99;
    SQLGetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, &v, 0, NULL);
    CT_CHECK(v == SQL_AUTOCOMMIT_ON, "autocommit default %u", (unsigned)v);
    SQLGetConnectAttr(dbc, SQL_ATTR_ACCESS_MODE, &v, 0, NULL);
    CT_CHECK(v == SQL_MODE_READ_WRITE, "access mode %u", (unsigned)v);
    SQLGetConnectAttr(dbc, SQL_ATTR_AUTO_IPD, &v, 0, NULL);
    CT_CHECK(v == SQL_FALSE, "auto ipd %u", (unsigned)v);

    rc = SQLSetConnectAttr(dbc, SQL_ATTR_LOGIN_TIMEOUT, (SQLPOINTER)7, 0);
    SQLGetConnectAttr(dbc, SQL_ATTR_LOGIN_TIMEOUT, &v, 0, NULL);
    CT_CHECK(rc == SQL_SUCCESS && v == 7, "login timeout %u", (unsigned)v);
    rc = SQLSetConnectAttr(dbc, SQL_ATTR_CONNECTION_TIMEOUT, (SQLPOINTER)9, 0);
    SQLGetConnectAttr(dbc, SQL_ATTR_CONNECTION_TIMEOUT, &v, 0, NULL);
    CT_CHECK(rc == SQL_SUCCESS && v == 9, "connection timeout %u", (unsigned)v);
    rc = SQLSetConnectAttr(dbc, SQL_ATTR_METADATA_ID, (SQLPOINTER)SQL_TRUE, 0);
    SQLGetConnectAttr(dbc, SQL_ATTR_METADATA_ID, &v, 0, NULL);
    CT_CHECK(rc == SQL_SUCCESS && v == SQL_TRUE, "metadata id %u", (unsigned)v);
    SQLSetConnectAttr(dbc, SQL_ATTR_METADATA_ID, (SQLPOINTER)SQL_FALSE, 0);

    rc = SQLSetConnectAttr(dbc, SQL_ATTR_ASYNC_ENABLE, (SQLPOINTER)SQL_ASYNC_ENABLE_ON, 0);
    CT_CHECK(rc == SQL_ERROR && strcmp(ct_sqlstate(SQL_HANDLE_DBC, dbc), "HYC00") == 0,
             "async on rc=%d state=%s", rc, ct_sqlstate(SQL_HANDLE_DBC, dbc));
    rc = SQLSetConnectAttr(dbc, SQL_ATTR_ASYNC_ENABLE, (SQLPOINTER)SQL_ASYNC_ENABLE_OFF, 0);
    CT_CHECK(rc == SQL_SUCCESS, "async off rc=%d", rc);
    /* The statement's attribute too: psqlODBC 13.02 says SQL_SUCCESS there
     * (docs/psqlodbc-differences.md). */
    SQLHSTMT st = SQL_NULL_HSTMT;
    SQLULEN async = 99;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    rc = SQLSetStmtAttr(st, SQL_ATTR_ASYNC_ENABLE, (SQLPOINTER)SQL_ASYNC_ENABLE_ON, 0);
    CT_CHECK(rc == SQL_ERROR && strcmp(ct_sqlstate(SQL_HANDLE_STMT, st), "HYC00") == 0,
             "statement async on rc=%d state=%s", rc, ct_sqlstate(SQL_HANDLE_STMT, st));
    SQLGetStmtAttr(st, SQL_ATTR_ASYNC_ENABLE, &async, 0, NULL);
    CT_CHECK(async == SQL_ASYNC_ENABLE_OFF, "statement async after refusal %lu",
             (unsigned long)async);
    SQLFreeHandle(SQL_HANDLE_STMT, st);

    rc = SQLSetConnectAttr(dbc, 31999, (SQLPOINTER)1, 0);
    CT_CHECK(rc == SQL_ERROR && strcmp(ct_sqlstate(SQL_HANDLE_DBC, dbc), "HY092") == 0,
             "unknown attribute rc=%d state=%s", rc, ct_sqlstate(SQL_HANDLE_DBC, dbc));
}

static void test_diag_fields_of_server_error(SQLHDBC dbc)
{
    SQLHSTMT st;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    SQLRETURN rc = SQLExecDirect(st, (SQLCHAR *)"SELECT * FROM gc_no_such_table", SQL_NTS);
    CT_CHECK(rc == SQL_ERROR, "rc=%d", rc);

    SQLINTEGER number = -1;
    rc = SQLGetDiagField(SQL_HANDLE_STMT, st, 0, SQL_DIAG_NUMBER, &number, 0, NULL);
    CT_CHECK(rc == SQL_SUCCESS && number == 1, "SQL_DIAG_NUMBER rc=%d n=%d", rc, (int)number);
    SQLRETURN retcode = 0;
    rc = SQLGetDiagField(SQL_HANDLE_STMT, st, 0, SQL_DIAG_RETURNCODE, &retcode, 0, NULL);
    CT_CHECK(rc == SQL_SUCCESS && retcode == SQL_ERROR, "SQL_DIAG_RETURNCODE %d", retcode);

    char text[512];
    SQLSMALLINT len = 0;
    rc = SQLGetDiagField(SQL_HANDLE_STMT, st, 1, SQL_DIAG_SQLSTATE, text, sizeof text, &len);
    CT_CHECK(rc == SQL_SUCCESS && strcmp(text, "42P01") == 0, "SQLSTATE %s", text);
    rc = SQLGetDiagField(SQL_HANDLE_STMT, st, 1, SQL_DIAG_MESSAGE_TEXT, text, sizeof text, &len);
    /* psqlODBC's wording: severity, the server's message, what the call did. */
    CT_CHECK(rc == SQL_SUCCESS &&
                 strcmp(text, "ERROR: relation \"gc_no_such_table\" does not exist;\n"
                              "Error while executing the query") == 0,
             "message %s", text);
    CT_CHECK(len == (SQLSMALLINT)strlen(text), "length %d", len);
    rc = SQLGetDiagField(SQL_HANDLE_STMT, st, 1, SQL_DIAG_CLASS_ORIGIN, text, sizeof text, &len);
    CT_CHECK(rc == SQL_SUCCESS && strcmp(text, "ISO 9075") == 0, "class origin %s", text);
    rc = SQLGetDiagField(SQL_HANDLE_STMT, st, 1, SQL_DIAG_SUBCLASS_ORIGIN, text, sizeof text,
                         &len);
    CT_CHECK(rc == SQL_SUCCESS && strcmp(text, "ISO 9075") == 0, "subclass origin %s", text);
    rc = SQLGetDiagField(SQL_HANDLE_STMT, st, 1, SQL_DIAG_SERVER_NAME, text, sizeof text, &len);
    CT_CHECK(rc == SQL_SUCCESS && strcmp(text, ct_dsn()) == 0, "server name %s", text);
    rc = SQLGetDiagField(SQL_HANDLE_STMT, st, 1, SQL_DIAG_CONNECTION_NAME, text, sizeof text,
                         &len);
    CT_CHECK(rc == SQL_SUCCESS, "connection name rc=%d", rc);
    SQLINTEGER native = -1;
    rc = SQLGetDiagField(SQL_HANDLE_STMT, st, 1, SQL_DIAG_NATIVE, &native, 0, NULL);
    CT_CHECK(rc == SQL_SUCCESS && native == 1, "native %d", (int)native);
    SQLLEN row = 0;
    rc = SQLGetDiagField(SQL_HANDLE_STMT, st, 1, SQL_DIAG_ROW_NUMBER, &row, 0, NULL);
    CT_CHECK(rc == SQL_SUCCESS && row == SQL_NO_ROW_NUMBER, "row number %ld", (long)row);
    SQLINTEGER col = 0;
    rc = SQLGetDiagField(SQL_HANDLE_STMT, st, 1, SQL_DIAG_COLUMN_NUMBER, &col, 0, NULL);
    CT_CHECK(rc == SQL_SUCCESS && col == SQL_NO_COLUMN_NUMBER, "column number %d", (int)col);

    /* Past the last record; record 0 for a record field. */
    rc = SQLGetDiagField(SQL_HANDLE_STMT, st, 2, SQL_DIAG_SQLSTATE, text, sizeof text, &len);
    CT_CHECK(rc == SQL_NO_DATA, "record 2 rc=%d", rc);
    SQLCHAR state[6];
    rc = SQLGetDiagRec(SQL_HANDLE_STMT, st, 2, state, &native, (SQLCHAR *)text, sizeof text,
                       &len);
    CT_CHECK(rc == SQL_NO_DATA, "rec 2 rc=%d", rc);

    /* A short buffer: SQL_SUCCESS_WITH_INFO, full length, no new record. */
    char tiny[8];
    rc = SQLGetDiagRec(SQL_HANDLE_STMT, st, 1, state, &native, (SQLCHAR *)tiny, sizeof tiny,
                       &len);
    CT_CHECK(rc == SQL_SUCCESS_WITH_INFO && len > 8 && strlen(tiny) == 7, "short rc=%d len=%d",
             rc, len);
    SQLGetDiagField(SQL_HANDLE_STMT, st, 0, SQL_DIAG_NUMBER, &number, 0, NULL);
    CT_CHECK(number == 1, "reading diagnostics added records: %d", (int)number);

    /* Wide record: UTF-16 state and text. */
    SQLWCHAR wstate[6], wtext[256];
    rc = SQLGetDiagRecW(SQL_HANDLE_STMT, st, 1, wstate, &native, wtext, 256, &len);
    CT_CHECK(rc == SQL_SUCCESS && wstate[0] == '4' && wstate[4] == '1' && wtext[0] == 'E',
             "W rc=%d", rc);

    /* SQL_DIAG_ROW_COUNT after an INSERT. */
    SQLExecDirect(st, (SQLCHAR *)"DROP TABLE IF EXISTS gc_diag_t", SQL_NTS);
    SQLExecDirect(st, (SQLCHAR *)"DROP TABLE IF EXISTS gc_diag_u", SQL_NTS);
    SQLExecDirect(st, (SQLCHAR *)"CREATE TABLE gc_diag_t (i int)", SQL_NTS);
    rc = SQLExecDirect(st, (SQLCHAR *)"INSERT INTO gc_diag_t VALUES (1),(2),(3)", SQL_NTS);
    CT_CHECK(rc == SQL_SUCCESS, "insert rc=%d", rc);
    SQLLEN count = -1;
    rc = SQLGetDiagField(SQL_HANDLE_STMT, st, 0, SQL_DIAG_ROW_COUNT, &count, 0, NULL);
    CT_CHECK(rc == SQL_SUCCESS && count == 3, "SQL_DIAG_ROW_COUNT rc=%d %ld", rc, (long)count);

    /* A server error with DETAIL: the detail follows the primary message,
     * before what the call was doing. */
    SQLExecDirect(st, (SQLCHAR *)"CREATE TABLE gc_diag_u (i int PRIMARY KEY)", SQL_NTS);
    SQLExecDirect(st, (SQLCHAR *)"INSERT INTO gc_diag_u VALUES (1)", SQL_NTS);
    rc = SQLExecDirect(st, (SQLCHAR *)"INSERT INTO gc_diag_u VALUES (1)", SQL_NTS);
    CT_CHECK(rc == SQL_ERROR, "duplicate rc=%d", rc);
    rc = SQLGetDiagRec(SQL_HANDLE_STMT, st, 1, state, &native, (SQLCHAR *)text, sizeof text,
                       &len);
    CT_CHECK(rc == SQL_SUCCESS && strcmp((char *)state, "23505") == 0 &&
                 strstr(text, "\nDETAIL: Key (i)=(1) already exists.;\n"
                              "Error while executing the query") != NULL,
             "duplicate: %s %s", state, text);
    /* One by one: through a global connection the two may belong to
     * different groups (docs/global-connection.md, DROP TABLE of solo tables). */
    rc = SQLExecDirect(st, (SQLCHAR *)"DROP TABLE gc_diag_t", SQL_NTS);
    CT_CHECK(CT_OK(rc), "drop rc=%d", rc);
    rc = SQLExecDirect(st, (SQLCHAR *)"DROP TABLE gc_diag_u", SQL_NTS);
    CT_CHECK(CT_OK(rc), "drop rc=%d", rc);
    SQLFreeHandle(SQL_HANDLE_STMT, st);

    /* Header fields that exist only for statements: error on a connection. */
    rc = SQLGetDiagField(SQL_HANDLE_DBC, dbc, 0, SQL_DIAG_ROW_COUNT, &count, 0, NULL);
    CT_CHECK(rc == SQL_ERROR, "row count on dbc rc=%d", rc);
}

static void test_diag_of_connection_and_environment(SQLHENV env, SQLHDBC dbc)
{
    /* (The driver manager checks many argument values itself: this one
     * only the driver can refuse.) */
    SQLRETURN rc = SQLSetConnectAttr(dbc, SQL_ATTR_CURRENT_CATALOG, "postgres", SQL_NTS);
    CT_CHECK(rc == SQL_ERROR, "switching database rc=%d", rc);
    char text[256];
    SQLSMALLINT len;
    rc = SQLGetDiagField(SQL_HANDLE_DBC, dbc, 1, SQL_DIAG_SQLSTATE, text, sizeof text, &len);
    CT_CHECK(rc == SQL_SUCCESS && strcmp(text, "HYC00") == 0, "dbc state %s", text);
    rc = SQLGetDiagField(SQL_HANDLE_DBC, dbc, 1, SQL_DIAG_MESSAGE_TEXT, text, sizeof text, &len);
    /* The driver's words, without a vendor prefix (as psqlODBC's). */
    CT_CHECK(rc == SQL_SUCCESS && text[0] != '\0' && text[0] != '[', "dbc message %s", text);

    /* A successful call clears the previous diagnostics. */
    SQLUINTEGER v;
    SQLGetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, &v, 0, NULL);
    SQLINTEGER n = -1;
    SQLGetDiagField(SQL_HANDLE_DBC, dbc, 0, SQL_DIAG_NUMBER, &n, 0, NULL);
    CT_CHECK(n == 0, "records after a clean call: %d", (int)n);

    /* Environment: no records after a clean call. */
    n = -1;
    rc = SQLGetDiagField(SQL_HANDLE_ENV, env, 0, SQL_DIAG_NUMBER, &n, 0, NULL);
    CT_CHECK(rc == SQL_SUCCESS && n == 0, "env records rc=%d n=%d", rc, (int)n);
}

static void test_notices_keep_their_sqlstate(SQLHDBC dbc)
{
    /* A statement-level notice. */
    SQLHSTMT st;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    SQLRETURN rc = SQLExecDirect(
        st, (SQLCHAR *)"DO $$ BEGIN RAISE NOTICE 'gc notice test'; END $$", SQL_NTS);
    CT_CHECK(rc == SQL_SUCCESS_WITH_INFO, "DO with notice rc=%d", rc);
    CT_CHECK(ct_has_state(SQL_HANDLE_STMT, st, "00000"), "no 00000 (RAISE NOTICE's) on the statement");

    /* A notice raised by COMMIT (a deferred trigger) reaches SQLEndTran.
     * The trigger is made beside the driver, on the server of the fixture's
     * conninfo: a global connection cannot make it on every group (a
     * constraint trigger on a table that is foreign there), and its
     * statements without a sharding key run on that server. */
    PGconn *pg = ct_pq_connect("conninfo");
    ct_pq_exec(pg, "DROP TABLE IF EXISTS gc_notice_t");
    ct_pq_exec(pg, "DROP FUNCTION IF EXISTS gc_notice_fn()");
    ct_pq_exec(pg, "CREATE TABLE gc_notice_t (i int)");
    ct_pq_exec(pg, "CREATE FUNCTION gc_notice_fn() RETURNS trigger LANGUAGE plpgsql AS "
                   "$$ BEGIN RAISE NOTICE 'gc deferred notice'; RETURN NULL; END $$");
    ct_pq_exec(pg, "CREATE CONSTRAINT TRIGGER gc_notice_trg AFTER INSERT ON gc_notice_t "
                   "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION gc_notice_fn()");
    SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0);
    rc = SQLExecDirect(st, (SQLCHAR *)"INSERT INTO gc_notice_t VALUES (1)", SQL_NTS);
    CT_CHECK(rc == SQL_SUCCESS, "insert rc=%d", rc);
    rc = SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_COMMIT);
    CT_CHECK(rc == SQL_SUCCESS_WITH_INFO, "commit with notice rc=%d", rc);
    char text[256];
    SQLSMALLINT len;
    SQLGetDiagField(SQL_HANDLE_DBC, dbc, 1, SQL_DIAG_SQLSTATE, text, sizeof text, &len);
    CT_CHECK(strcmp(text, "00000") == 0, "commit notice state %s", text);
    SQLGetDiagField(SQL_HANDLE_DBC, dbc, 1, SQL_DIAG_MESSAGE_TEXT, text, sizeof text, &len);
    CT_CHECK(strstr(text, "gc deferred notice") != NULL, "commit notice text %s", text);
    SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    ct_pq_exec(pg, "DROP TABLE gc_notice_t");
    ct_pq_exec(pg, "DROP FUNCTION gc_notice_fn()");
    PQfinish(pg);
}

static void test_native_sql(SQLHDBC dbc)
{
    const char *in = "SELECT {fn UCASE('a')}, ? FROM t WHERE d = {d '2024-01-02'}";
    char out[256];
    SQLINTEGER len = 0;
    SQLRETURN rc = SQLNativeSql(dbc, (SQLCHAR *)in, SQL_NTS, (SQLCHAR *)out, sizeof out, &len);
    CT_CHECK(rc == SQL_SUCCESS, "rc=%d", rc);
    CT_CHECK(strchr(out, '{') == NULL && strchr(out, '?') != NULL, "native: %s", out);
    CT_CHECK(len == (SQLINTEGER)strlen(out), "len %d", (int)len);
    rc = SQLNativeSql(dbc, (SQLCHAR *)"SELECT {fn", SQL_NTS, (SQLCHAR *)out, sizeof out, &len);
    CT_CHECK(rc == SQL_ERROR, "malformed escape rc=%d", rc);
}

int main(void)
{
    SQLHENV env;
    SQLHDBC dbc;
    ct_connect(&env, &dbc);
    test_get_info(dbc);
    test_connection_attributes(dbc);
    test_diag_fields_of_server_error(dbc);
    test_diag_of_connection_and_environment(env, dbc);
    test_notices_keep_their_sqlstate(dbc);
    test_native_sql(dbc);
    ct_disconnect(env, dbc);
    return ct_finish("test_diag_info");
}
