/*
 * psqlODBC's keys through the driver manager: a data source written for
 * psqlODBC connects with only its Driver line changed, each key gcodbc
 * implements changes what it should (ReadOnly, ConnSettings, pqopt, the type
 * mapping keys, Debug/Logdir, CX), unknown keys come back as 01S00, and the
 * SQL scanner follows standard_conforming_strings = off.
 */
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conn_test.h"

static SQLHENV env;

/* Where the application role's server is (from the fixture's conninfo). */
static char *host, *port, *dbname, *user, *password;

/* SQLDriverConnect with connstr on a new connection handle; returns the
 * SQLRETURN and leaves the handle in *dbc (connected or not). */
static SQLRETURN driver_connect(const char *connstr, SQLHDBC *dbc)
{
    SQLAllocHandle(SQL_HANDLE_DBC, env, dbc);
    SQLCHAR out[2048];
    SQLSMALLINT out_len;
    return SQLDriverConnect(*dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, out, sizeof out,
                            &out_len, SQL_DRIVER_NOPROMPT);
}

static void drop(SQLHDBC dbc)
{
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
}

/* The test DSN plus extra attributes, connected; exits when it cannot be. */
static SQLHDBC connect_with(const char *extra)
{
    char connstr[1024];
    snprintf(connstr, sizeof connstr, "DSN=%s;%s", ct_dsn(), extra);
    SQLHDBC dbc;
    SQLRETURN rc = driver_connect(connstr, &dbc);
    if (!CT_OK(rc)) {
        fprintf(stderr, "connect with %s failed\n", extra);
        ct_dump_diag(SQL_HANDLE_DBC, dbc);
        exit(1);
    }
    return dbc;
}

/* A data source exactly as psqlODBC users write one (its usual keys, all
 * with psqlODBC's spellings), whose only change is the Driver line. */
static void test_psqlodbc_dsn_connects_with_only_its_driver_line_changed(void)
{
    char path[] = "/tmp/gc_psqlodbc_ini_XXXXXX";
    int fd = mkstemp(path);
    CT_CHECK(fd >= 0, "mkstemp");
    FILE *f = fdopen(fd, "w");
    fprintf(f,
            "[as_psqlodbc]\n"
            "Description = written for psqlODBC\n"
            "Driver = gcodbc\n"
            /* the driver manager's keys, as psqlODBC's regression DSN has them */
            "Trace = No\nTraceFile = \n"
            "Servername = %s\nPort = %s\nDatabase = %s\nUsername = %s\nPassword = %s\n"
            "SSLmode = disable\nReadOnly = 0\nProtocol7 = no\n"
            "Debug = 0\nCommLog = 0\nFetch = 100\nUniqueIndex = 1\nUseDeclareFetch = 0\n"
            "UnknownSizes = 0\nTextAsLongVarchar = 1\nUnknownsAsLongVarchar = 1\n"
            "BoolsAsChar = 0\nParse = 0\nMaxVarcharSize = 0\nMaxLongVarcharSize = 8190\n"
            "ExtraSysTablePrefixes = \nShowOidColumn = 0\nFakeOidIndex = 0\n"
            "RowVersioning = 0\nShowSystemTables = 0\nConnSettings = \npqopt = \n"
            "UpdatableCursors = 1\nLFConversion = 0\nTrueIsMinus1 = 0\nBI = 0\n"
            "ByteaAsLongVarBinary = 1\nUseServerSidePrepare = 1\n"
            "LowerCaseIdentifier = 0\nGssAuthUseGSS = 0\nKeepaliveTime = -1\n"
            "KeepaliveInterval = -1\nOptionalErrors = 0\nBatchSize = 100\n"
            "IgnoreTimeout = 0\nFetchRefcursors = 0\nXaOpt = 1\n",
            host, port, dbname, user, password);
    fclose(f);
    /* the user's odbc.ini, read by the driver manager and by the driver */
    setenv("ODBCINI", path, 1);
    SQLHDBC dbc;
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    SQLRETURN rc = SQLConnect(dbc, (SQLCHAR *)"as_psqlodbc", SQL_NTS, NULL, 0, NULL, 0);
    /* "Protocol7" is no key of anyone's: the one 01S00, naming it */
    CT_CHECK(rc == SQL_SUCCESS_WITH_INFO, "SQLConnect returned %d", (int)rc);
    if (!CT_OK(rc))
        ct_dump_diag(SQL_HANDLE_DBC, dbc);
    SQLCHAR state[6], msg[1024];
    SQLINTEGER native;
    SQLSMALLINT len;
    SQLRETURN drc = SQLGetDiagRec(SQL_HANDLE_DBC, dbc, 1, state, &native, msg,
                                  sizeof msg, &len);
    CT_CHECK(drc == SQL_SUCCESS && strcmp((char *)state, "01S00") == 0 &&
             strstr((char *)msg, "Protocol7") != NULL &&
             strstr((char *)msg, "Servername") == NULL &&
             strstr((char *)msg, "Trace") == NULL, "diag %s %s", state, msg);
    CT_CHECK(SQLGetDiagRec(SQL_HANDLE_DBC, dbc, 2, state, &native, msg, sizeof msg,
                           &len) == SQL_NO_DATA, "a second diagnostic: %s %s", state, msg);
    char *one = ct_query_string(dbc, "SELECT current_user");
    CT_CHECK(one != NULL && strcmp(one, user) == 0, "current_user %s", one ? one : "-");
    free(one);
    drop(dbc);
    unsetenv("ODBCINI");
    unlink(path);
}

/* A DSN-less string as a psqlODBC application writes it, abbreviations
 * included: no diagnostic at all. */
static void test_psqlodbc_connection_string_connects_cleanly(void)
{
    char connstr[1024];
    snprintf(connstr, sizeof connstr,
             "DRIVER={gcodbc};SERVERNAME=%s;PORT=%s;DATABASE=%s;USERNAME=%s;PASSWORD=%s;"
             "SSLmode=disable;A0=0;A6=;A7=100;A8=4096;B0=255;B1=8190;BI=0;C2=dd_;"
             "CX=1c305008b;D6=-101;B6=0",
             host, port, dbname, user, password);
    SQLHDBC dbc;
    SQLRETURN rc = driver_connect(connstr, &dbc);
    CT_CHECK(rc == SQL_SUCCESS, "psqlODBC string returned %d", (int)rc);
    if (rc != SQL_SUCCESS)
        ct_dump_diag(SQL_HANDLE_DBC, dbc);
    drop(dbc);
}

static void test_unknown_keys_are_reported_with_01S00(void)
{
    char connstr[256];
    snprintf(connstr, sizeof connstr, "DSN=%s;NoSuchKey=1;OtherUnknownKey=5;FetchWindowRows=500", ct_dsn());
    SQLHDBC dbc;
    SQLRETURN rc = driver_connect(connstr, &dbc);
    CT_CHECK(rc == SQL_SUCCESS_WITH_INFO, "unknown keys returned %d", (int)rc);
    SQLCHAR state[6], msg[1024];
    SQLINTEGER native;
    SQLSMALLINT len;
    CT_CHECK(SQLGetDiagRec(SQL_HANDLE_DBC, dbc, 1, state, &native, msg, sizeof msg,
                           &len) == SQL_SUCCESS, "no diagnostic");
    CT_CHECK(strcmp((char *)state, "01S00") == 0, "state %s", state);
    CT_CHECK(strstr((char *)msg, "NoSuchKey") && strstr((char *)msg, "OtherUnknownKey") &&
                 strstr((char *)msg, "FetchWindowRows") == NULL,
             "message %s", msg);
    char *one = ct_query_string(dbc, "SELECT 1");
    CT_CHECK(one != NULL && strcmp(one, "1") == 0, "the connection works");
    free(one);
    drop(dbc);
}

static void test_read_only_makes_the_connection_read_only(void)
{
    SQLHDBC dbc = connect_with("ReadOnly=1");
    SQLUINTEGER mode = 0;
    SQLGetConnectAttr(dbc, SQL_ATTR_ACCESS_MODE, &mode, 0, NULL);
    CT_CHECK(mode == SQL_MODE_READ_ONLY, "access mode %u", (unsigned)mode);
    char state[6];
    SQLRETURN rc = ct_exec(dbc, "CREATE TABLE psqlodbc_keys_ro (a int)", state);
    CT_CHECK(rc == SQL_ERROR && strcmp(state, "25006") == 0, "CREATE gave %d %s",
             (int)rc, state);
    drop(dbc);
    /* the abbreviation A0, and CX's bit 15, say the same */
    dbc = connect_with("A0=1");
    rc = ct_exec(dbc, "CREATE TABLE psqlodbc_keys_ro (a int)", state);
    CT_CHECK(rc == SQL_ERROR && strcmp(state, "25006") == 0, "A0=1: %d %s", (int)rc, state);
    drop(dbc);
    dbc = connect_with("CX=1c8000");
    rc = ct_exec(dbc, "CREATE TABLE psqlodbc_keys_ro (a int)", state);
    CT_CHECK(rc == SQL_ERROR && strcmp(state, "25006") == 0, "CX: %d %s", (int)rc, state);
    drop(dbc);
    /* and without it, writes go through */
    dbc = connect_with("ReadOnly=0");
    char *ro = ct_query_string(dbc, "SHOW transaction_read_only");
    CT_CHECK(ro != NULL && strcmp(ro, "off") == 0, "read-only %s", ro ? ro : "-");
    free(ro);
    drop(dbc);
}

static void test_conn_settings_run_after_connecting(void)
{
    SQLHDBC dbc = connect_with("ConnSettings={SET search_path = pg_catalog, public; "
                               "SET work_mem = '7MB'}");
    char *v = ct_query_string(dbc, "SHOW work_mem");
    CT_CHECK(v != NULL && strcmp(v, "7MB") == 0, "work_mem %s", v ? v : "-");
    free(v);
    v = ct_query_string(dbc, "SHOW search_path");
    CT_CHECK(v != NULL && strcmp(v, "pg_catalog, public") == 0, "search_path %s", v ? v : "-");
    free(v);
    drop(dbc);
    /* percent-encoded, as psqlODBC writes it, under its abbreviation */
    dbc = connect_with("A6=SET%20work_mem%3D%279MB%27");
    v = ct_query_string(dbc, "SHOW work_mem");
    CT_CHECK(v != NULL && strcmp(v, "9MB") == 0, "work_mem %s", v ? v : "-");
    free(v);
    drop(dbc);
    /* a statement the server refuses fails the connection with its SQLSTATE */
    char connstr[256];
    snprintf(connstr, sizeof connstr, "DSN=%s;ConnSettings={SET work_mem = 'lots'}",
             ct_dsn());
    SQLRETURN rc = driver_connect(connstr, &dbc);
    CT_CHECK(rc == SQL_ERROR, "bad ConnSettings returned %d", (int)rc);
    CT_CHECK(ct_has_state(SQL_HANDLE_DBC, dbc, "22023"), "state %s",
             ct_sqlstate(SQL_HANDLE_DBC, dbc));
    char state[6];
    CT_CHECK(ct_exec(dbc, "SELECT 1", state) == SQL_ERROR, "not connected");
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
}

/* ConnSettings written form-encoded, as psqlODBC reads it: a '+' is a
 * space and %2B the '+'; pqopt keeps its '+' (psqlODBC does the same). */
static void test_conn_settings_read_plus_as_space(void)
{
    SQLHDBC dbc = connect_with("ConnSettings=set+application_name+to+'a+b%2Bc'");
    char *v = ct_query_string(dbc, "SHOW application_name");
    CT_CHECK(v != NULL && strcmp(v, "a b+c") == 0, "application_name %s", v ? v : "-");
    free(v);
    drop(dbc);
    dbc = connect_with("pqopt={application_name=p+q}");
    v = ct_query_string(dbc, "SHOW application_name");
    CT_CHECK(v != NULL && strcmp(v, "p+q") == 0, "pqopt application_name %s", v ? v : "-");
    free(v);
    drop(dbc);
}

/* A global connection replays ConnSettings on every member, so it takes
 * only settings there; a general connection runs any SQL. */
static void test_conn_settings_beyond_set_on_a_global_connection_are_refused(void)
{
    bool global = getenv("GC_TEST_GLOBAL") != NULL;
    char connstr[256];
    snprintf(connstr, sizeof connstr,
             "DSN=%s;ConnSettings={SET work_mem = '5MB'; CREATE TEMP TABLE cs_t (a int)}",
             ct_dsn());
    SQLHDBC dbc;
    SQLRETURN rc = driver_connect(connstr, &dbc);
    if (global) {
        CT_CHECK(rc == SQL_ERROR, "global: mixed ConnSettings returned %d", (int)rc);
        CT_CHECK(ct_has_state(SQL_HANDLE_DBC, dbc, "08001"), "state %s",
                 ct_sqlstate(SQL_HANDLE_DBC, dbc));
        SQLFreeHandle(SQL_HANDLE_DBC, dbc);
        return;
    }
    CT_CHECK(rc == SQL_SUCCESS, "general: mixed ConnSettings returned %d", (int)rc);
    char *v = ct_query_string(dbc, "SELECT count(*) FROM cs_t");
    CT_CHECK(v != NULL && strcmp(v, "0") == 0, "the temporary table exists: %s", v ? v : "-");
    free(v);
    drop(dbc);
}

static void test_pqopt_passes_libpq_options(void)
{
    SQLHDBC dbc = connect_with("ApplicationName=ours;pqopt={application_name=from_pqopt}");
    char *v = ct_query_string(dbc, "SHOW application_name");
    CT_CHECK(v != NULL && strcmp(v, "from_pqopt") == 0, "application_name %s", v ? v : "-");
    free(v);
    drop(dbc);
    char connstr[256];
    snprintf(connstr, sizeof connstr, "DSN=%s;pqopt={no_such_libpq_option=1}", ct_dsn());
    SQLRETURN rc = driver_connect(connstr, &dbc);
    CT_CHECK(rc == SQL_ERROR, "bad pqopt returned %d", (int)rc);
    CT_CHECK(ct_has_state(SQL_HANDLE_DBC, dbc, "08001"), "state %s",
             ct_sqlstate(SQL_HANDLE_DBC, dbc));
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
}

/* SQLDescribeCol of the first column of sql on dbc. */
static void describe(SQLHDBC dbc, const char *sql, SQLSMALLINT *type, SQLULEN *size)
{
    SQLHSTMT st;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    *type = 0;
    *size = 12345;
    SQLCHAR name[64];
    SQLSMALLINT name_len, digits, nullable;
    if (!CT_OK(SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS)) ||
        !CT_OK(SQLDescribeCol(st, 1, name, sizeof name, &name_len, type, size, &digits,
                              &nullable)))
        ct_dump_diag(SQL_HANDLE_STMT, st);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

static void test_type_mapping_keys_change_what_columns_are_described_as(void)
{
    SQLSMALLINT type;
    SQLULEN size;
    SQLHDBC dbc = connect_with("");
    describe(dbc, "SELECT true", &type, &size);
    CT_CHECK(type == SQL_BIT, "bool is %d", type);
    describe(dbc, "SELECT 'x'::text", &type, &size);
    CT_CHECK(type == SQL_LONGVARCHAR && size == 8190, "text is %d(%lu)", type,
             (unsigned long)size);
    describe(dbc, "SELECT 'x'::varchar(300)", &type, &size);
    CT_CHECK(type == SQL_VARCHAR && size == 300, "varchar(300) is %d(%lu)", type,
             (unsigned long)size);
    drop(dbc);

    dbc = connect_with("BoolsAsChar=1;TextAsLongVarchar=0;MaxVarcharSize=100;"
                       "ByteaAsLongVarBinary=0;BI=4;UnknownsAsLongVarchar=0");
    describe(dbc, "SELECT true", &type, &size);
    CT_CHECK(type == SQL_VARCHAR && size == 5, "BoolsAsChar: bool is %d(%lu)", type,
             (unsigned long)size);
    char *v = ct_query_string(dbc, "SELECT true");
    CT_CHECK(v != NULL && strcmp(v, "1") == 0, "bool as char reads %s", v ? v : "-");
    free(v);
    describe(dbc, "SELECT 'x'::text", &type, &size);
    CT_CHECK(type == SQL_VARCHAR && size == 100, "TextAsLongVarchar=0: text is %d(%lu)",
             type, (unsigned long)size);
    describe(dbc, "SELECT 'x'::varchar(300)", &type, &size);
    CT_CHECK(type == SQL_LONGVARCHAR && size == 300, "MaxVarcharSize: %d(%lu)", type,
             (unsigned long)size);
    describe(dbc, "SELECT 'x'::varchar(50)", &type, &size);
    CT_CHECK(type == SQL_VARCHAR && size == 50, "varchar(50) is %d(%lu)", type,
             (unsigned long)size);
    describe(dbc, "SELECT '\\x01'::bytea", &type, &size);
    CT_CHECK(type == SQL_VARBINARY && size == 100, "bytea is %d(%lu)", type,
             (unsigned long)size);
    describe(dbc, "SELECT 1::int8", &type, &size);
    CT_CHECK(type == SQL_INTEGER, "BI=4: int8 is %d", type);
    describe(dbc, "SELECT '10.0.0.1'::inet", &type, &size);
    CT_CHECK(type == SQL_VARCHAR && size == 100, "inet is %d(%lu)", type,
             (unsigned long)size);
    /* SQLGetTypeInfo agrees: bool is listed among the VARCHAR types */
    SQLHSTMT st;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    bool bool_listed = false;
    if (CT_OK(SQLGetTypeInfo(st, SQL_VARCHAR))) {
        SQLCHAR name[64];
        SQLLEN ind;
        while (CT_OK(SQLFetch(st)))
            if (CT_OK(SQLGetData(st, 1, SQL_C_CHAR, name, sizeof name, &ind)) &&
                strcmp((char *)name, "bool") == 0)
                bool_listed = true;
    }
    CT_CHECK(bool_listed, "bool not among SQLGetTypeInfo(SQL_VARCHAR)");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    drop(dbc);

    dbc = connect_with("UnknownSizes=1;MaxLongVarcharSize=1000");
    describe(dbc, "SELECT 'x'::text", &type, &size);
    CT_CHECK(type == SQL_LONGVARCHAR && size == 0, "UnknownSizes=1: text is %d(%lu)",
             type, (unsigned long)size);
    drop(dbc);
    dbc = connect_with("MaxLongVarcharSize=1000");
    describe(dbc, "SELECT 'x'::text", &type, &size);
    CT_CHECK(type == SQL_LONGVARCHAR && size == 1000, "MaxLongVarcharSize: %d(%lu)",
             type, (unsigned long)size);
    drop(dbc);
}

static void test_debug_and_logdir_write_the_trace(void)
{
    char dir[] = "/tmp/gc_psqlodbc_logdir_XXXXXX";
    CT_CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    char extra[256];
    snprintf(extra, sizeof extra, "Debug=1;Logdir=%s", dir);
    SQLHDBC dbc = connect_with(extra);
    char *v = ct_query_string(dbc, "SELECT 'traced statement'");
    free(v);
    drop(dbc);
    char path[512];
    snprintf(path, sizeof path, "%s/gcodbc_%ld.log", dir, (long)getpid());
    FILE *f = fopen(path, "r");
    CT_CHECK(f != NULL, "no trace file %s", path);
    if (f != NULL) {
        char text[65536];
        size_t n = fread(text, 1, sizeof text - 1, f);
        text[n] = '\0';
        fclose(f);
        CT_CHECK(strstr(text, "traced statement") != NULL, "Debug=1 traces statements");
        unlink(path);
    }
    rmdir(dir);
}

/* CommLog=1 without Logdir or LogFile, as a psqlODBC data source has it:
 * the trace goes to gcodbc_PID.log in the temporary directory (TMPDIR),
 * where psqlODBC writes its logs, and nothing of it to standard error. */
static void test_comm_log_alone_writes_to_the_temporary_directory(void)
{
    char dir[] = "/tmp/gc_psqlodbc_tmpdir_XXXXXX";
    char err_path[] = "/tmp/gc_psqlodbc_stderr_XXXXXX";
    CT_CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    int err_fd = mkstemp(err_path);
    CT_CHECK(err_fd >= 0, "mkstemp");
    const char *old_tmp = getenv("TMPDIR");
    char *saved_tmp = old_tmp != NULL ? strdup(old_tmp) : NULL;
    setenv("TMPDIR", dir, 1);
    fflush(stderr);
    int saved_stderr = dup(2);
    dup2(err_fd, 2);
    SQLHDBC dbc = connect_with("CommLog=1");
    char *v = ct_query_string(dbc, "SELECT 'comm-logged statement'");
    free(v);
    drop(dbc);
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    if (saved_tmp != NULL)
        setenv("TMPDIR", saved_tmp, 1);
    else
        unsetenv("TMPDIR");
    free(saved_tmp);
    char text[65536];
    ssize_t n = pread(err_fd, text, sizeof text - 1, 0);
    text[n > 0 ? n : 0] = '\0';
    close(err_fd);
    unlink(err_path);
    CT_CHECK(strstr(text, "gcodbc") == NULL, "CommLog=1 wrote to standard error: %.200s", text);
    char path[512];
    snprintf(path, sizeof path, "%s/gcodbc_%ld.log", dir, (long)getpid());
    FILE *f = fopen(path, "r");
    CT_CHECK(f != NULL, "no trace file %s", path);
    if (f != NULL) {
        n = (ssize_t)fread(text, 1, sizeof text - 1, f);
        text[n] = '\0';
        fclose(f);
        CT_CHECK(strstr(text, "gcodbc #") != NULL, "CommLog=1 wrote no trace: %.200s", text);
        unlink(path);
    }
    rmdir(dir);
}

/* With standard_conforming_strings off on the server, 'it\'s ?' is one
 * literal: its ? is no parameter marker and the statement runs. */
static void test_scanner_follows_standard_conforming_strings_off(void)
{
    SQLHDBC dbc = connect_with("ConnSettings={SET standard_conforming_strings = off; "
                               "SET escape_string_warning = off}");
    SQLHSTMT st;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    SQLRETURN rc = SQLPrepare(st, (SQLCHAR *)"SELECT 'it\\'s ?' || ?", SQL_NTS);
    CT_CHECK(CT_OK(rc), "prepare returned %d", (int)rc);
    SQLSMALLINT nparams = -1;
    SQLNumParams(st, &nparams);
    CT_CHECK(nparams == 1, "%d parameters", nparams);
    char param[] = "!";
    SQLLEN param_len = SQL_NTS;
    SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 10, 0, param, 0,
                     &param_len);
    char buf[64] = "";
    SQLLEN ind = 0;
    if (CT_OK(rc))
        rc = SQLExecute(st);
    if (CT_OK(rc))
        rc = SQLFetch(st);
    if (CT_OK(rc))
        rc = SQLGetData(st, 1, SQL_C_CHAR, buf, sizeof buf, &ind);
    if (!CT_OK(rc))
        ct_dump_diag(SQL_HANDLE_STMT, st);
    CT_CHECK(strcmp(buf, "it's ?!") == 0, "got '%s'", buf);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    /* SET back on in the session: the scanner follows again */
    char state[6];
    CT_CHECK(ct_exec(dbc, "SET standard_conforming_strings = on", state) == SQL_SUCCESS,
             "SET on: %s", state);
    char *v = ct_query_string(dbc, "SELECT 'a\\' || 'b'");
    CT_CHECK(v != NULL && strcmp(v, "a\\b") == 0, "standard strings again: %s", v ? v : "-");
    free(v);
    drop(dbc);
}

int main(void)
{
    host = ct_conninfo_value("host");
    port = ct_conninfo_value("port");
    dbname = ct_conninfo_value("dbname");
    user = ct_conninfo_value("user");
    password = ct_conninfo_value("password");
    SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env);
    SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);

    test_psqlodbc_dsn_connects_with_only_its_driver_line_changed();
    test_psqlodbc_connection_string_connects_cleanly();
    test_unknown_keys_are_reported_with_01S00();
    test_read_only_makes_the_connection_read_only();
    test_conn_settings_run_after_connecting();
    test_conn_settings_read_plus_as_space();
    test_conn_settings_beyond_set_on_a_global_connection_are_refused();
    test_pqopt_passes_libpq_options();
    test_type_mapping_keys_change_what_columns_are_described_as();
    test_debug_and_logdir_write_the_trace();
    test_comm_log_alone_writes_to_the_temporary_directory();
    test_scanner_follows_standard_conforming_strings_off();

    SQLFreeHandle(SQL_HANDLE_ENV, env);
    free(host);
    free(port);
    free(dbname);
    free(user);
    free(password);
    return ct_finish("psqlodbc_keys");
}
