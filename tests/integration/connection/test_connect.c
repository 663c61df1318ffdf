/*
 * Connecting through the driver manager: SQLConnect with a DSN,
 * SQLDriverConnect with DSN= and DRIVER= strings (braces, overrides, the
 * completed output string), failures with their SQLSTATEs, and the
 * environment's ODBC versions.
 */
#include "conn_test.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

/* Connects with a connection string; returns the SQLRETURN, the first
 * SQLSTATE in state and the completed string in out. */
static SQLRETURN driver_connect(SQLHENV env, const char *connstr, char state[6],
                                char *out, SQLSMALLINT out_size, SQLSMALLINT *out_len)
{
    SQLHDBC dbc;
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    SQLSMALLINT len = 0;
    SQLRETURN rc = SQLDriverConnect(dbc, NULL, (SQLCHAR *)connstr, SQL_NTS,
                                    (SQLCHAR *)out, out_size, &len, SQL_DRIVER_NOPROMPT);
    if (out_len != NULL)
        *out_len = len;
    snprintf(state, 6, "%s", ct_sqlstate(SQL_HANDLE_DBC, dbc));
    if (CT_OK(rc))
        SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    return rc;
}

/* A refused login answers 08001 (as psqlODBC: pyodbc raises
 * OperationalError), native 101, with libpq's message where the server's own
 * SQLSTATE, starting with server_state, follows its FATAL. */
static void check_login_refused(SQLHDBC dbc, SQLRETURN rc, const char *server_state)
{
    CT_CHECK(rc == SQL_ERROR, "rc=%d", rc);
    SQLCHAR st[6] = "", msg[1024] = "";
    SQLINTEGER native = -1;
    SQLSMALLINT mlen;
    SQLGetDiagRec(SQL_HANDLE_DBC, dbc, 1, st, &native, msg, sizeof msg, &mlen);
    char mark[16];
    snprintf(mark, sizeof mark, "FATAL %s", server_state);
    CT_CHECK(strcmp((char *)st, "08001") == 0 && native == 101 &&
             strstr((char *)msg, mark) != NULL,
             "want 08001 (101) with '%s': %s (%d) %s", mark, st, (int)native, msg);
}

/* SQLDriverConnect with connstr, which the server refuses with server_state. */
static void check_driver_connect_refused(SQLHENV env, const char *connstr,
                                         const char *server_state)
{
    SQLHDBC dbc;
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    SQLRETURN rc = SQLDriverConnect(dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0, NULL,
                                    SQL_DRIVER_NOPROMPT);
    check_login_refused(dbc, rc, server_state);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
}

/* A loopback port nothing listens on (bound, then closed). */
static int closed_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = 0 };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t alen = sizeof a;
    bind(fd, (struct sockaddr *)&a, sizeof a);
    getsockname(fd, (struct sockaddr *)&a, &alen);
    close(fd);
    return ntohs(a.sin_port);
}

static void test_sqlconnect_with_dsn(SQLHENV env)
{
    SQLHDBC dbc;
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    SQLRETURN rc = SQLConnect(dbc, (SQLCHAR *)ct_dsn(), SQL_NTS, NULL, 0, NULL, 0);
    CT_CHECK(CT_OK(rc), "SQLConnect rc=%d", rc);
    if (!CT_OK(rc))
        ct_dump_diag(SQL_HANDLE_DBC, dbc);
    SQLUINTEGER dead = 99;
    SQLGetConnectAttr(dbc, SQL_ATTR_CONNECTION_DEAD, &dead, 0, NULL);
    CT_CHECK(dead == SQL_CD_FALSE, "connection dead=%u", (unsigned)dead);
    /* A second connect on the same handle is refused. */
    rc = SQLConnect(dbc, (SQLCHAR *)ct_dsn(), SQL_NTS, NULL, 0, NULL, 0);
    CT_CHECK(rc == SQL_ERROR, "second SQLConnect rc=%d", rc);
    CT_CHECK(SQLDisconnect(dbc) == SQL_SUCCESS, "disconnect");
    /* Disconnecting twice: 08003 (the driver manager says so first). */
    rc = SQLDisconnect(dbc);
    CT_CHECK(rc == SQL_ERROR, "second disconnect rc=%d", rc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
}

static void test_sqlconnect_uid_pwd_override_dsn(SQLHENV env)
{
    SQLHDBC dbc;
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    /* The DSN's password is right; the argument's wrong one must win. */
    SQLRETURN rc = SQLConnect(dbc, (SQLCHAR *)ct_dsn(), SQL_NTS, (SQLCHAR *)"gcodbc",
                              SQL_NTS, (SQLCHAR *)"wrong-password", SQL_NTS);
    check_login_refused(dbc, rc, "28P01");
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
}

static void test_driver_connect_dsn_string(SQLHENV env)
{
    char state[6], out[1024];
    SQLSMALLINT len = 0;
    char connstr[256];
    snprintf(connstr, sizeof connstr, "DSN=%s", ct_dsn());
    SQLRETURN rc = driver_connect(env, connstr, state, out, sizeof out, &len);
    CT_CHECK(CT_OK(rc), "rc=%d state=%s", rc, state);
    CT_CHECK(len == (SQLSMALLINT)strlen(out), "out length %d vs %zu", len, strlen(out));
    CT_CHECK(strstr(out, "DSN=") != NULL || strstr(out, "dsn=") != NULL,
             "completed string lacks the DSN: %s", out);

    /* The output buffer too small: 01004, full length reported. */
    char tiny[8];
    rc = driver_connect(env, connstr, state, tiny, sizeof tiny, &len);
    CT_CHECK(rc == SQL_SUCCESS_WITH_INFO && strcmp(state, "01004") == 0,
             "rc=%d state=%s", rc, state);
    CT_CHECK(len > (SQLSMALLINT)sizeof tiny - 1, "len=%d", len);
    CT_CHECK(strlen(tiny) == sizeof tiny - 1, "tiny='%s'", tiny);
}

static void test_driver_connect_string_overrides_dsn(SQLHENV env)
{
    char connstr[256];
    /* UID from the string overrides the DSN's: an unknown role fails (the
     * server says 28P01 or 28000, as its pg_hba.conf has it). */
    snprintf(connstr, sizeof connstr, "DSN=%s;UID=no_such_role", ct_dsn());
    check_driver_connect_refused(env, connstr, "28");

    /* PWD with characters that need braces. */
    snprintf(connstr, sizeof connstr, "DSN=%s;PWD={x;y}}z=}", ct_dsn());
    check_driver_connect_refused(env, connstr, "28P01");

    /* Database from the string: a missing one, the server's 3D000. */
    snprintf(connstr, sizeof connstr, "DSN=%s;Database={no such db}", ct_dsn());
    check_driver_connect_refused(env, connstr, "3D000");
}

static void test_driver_connect_driver_path(SQLHENV env)
{
    char *port = ct_conninfo_value("port");
    char *user = ct_conninfo_value("user");
    char *password = ct_conninfo_value("password");
    char *dbname = ct_conninfo_value("dbname");
    const char *driver = getenv("GC_DRIVER_SO");
    char state[6], out[2048], connstr[1024];
    CT_CHECK(driver != NULL, "GC_DRIVER_SO not set");
    if (driver == NULL)
        return;
    snprintf(connstr, sizeof connstr,
             "DRIVER={%s};Servers=127.0.0.1:%s;Database={%s};UID=%s;PWD={%s}",
             driver, port, dbname, user, password);
    SQLRETURN rc = driver_connect(env, connstr, state, out, sizeof out, NULL);
    CT_CHECK(CT_OK(rc), "DRIVER= rc=%d state=%s", rc, state);

    /* GOLDILOCKS spellings HOST and PORT. */
    snprintf(connstr, sizeof connstr,
             "DRIVER={%s};HOST=127.0.0.1;PORT=%s;Database=%s;UID=%s;PWD={%s}",
             driver, port, dbname, user, password);
    rc = driver_connect(env, connstr, state, out, sizeof out, NULL);
    CT_CHECK(CT_OK(rc), "HOST/PORT rc=%d state=%s", rc, state);

    /* Braces quote a password holding ; } = { (a role made for this). */
    PGconn *admin = ct_pq_connect("admin_conninfo");
    ct_pq_exec(admin, "DROP ROLE IF EXISTS gc_brace_role");
    ct_pq_exec(admin, "CREATE ROLE gc_brace_role LOGIN PASSWORD 'a;b}c=d{e'");
    snprintf(connstr, sizeof connstr,
             "DRIVER={%s};Servers=127.0.0.1:%s;Database=%s;UID=gc_brace_role;PWD={a;b}}c=d{e}",
             driver, port, dbname);
    rc = driver_connect(env, connstr, state, out, sizeof out, NULL);
    CT_CHECK(CT_OK(rc), "braced password rc=%d state=%s", rc, state);
    ct_pq_exec(admin, "DROP ROLE IF EXISTS gc_brace_role");

    /* A role that may not log in: the server's 28000. */
    ct_pq_exec(admin, "DROP ROLE IF EXISTS gc_nologin_role");
    ct_pq_exec(admin, "CREATE ROLE gc_nologin_role NOLOGIN PASSWORD 'x'");
    snprintf(connstr, sizeof connstr,
             "DRIVER={%s};Servers=127.0.0.1:%s;Database=%s;UID=gc_nologin_role;PWD=x",
             driver, port, dbname);
    check_driver_connect_refused(env, connstr, "28000");
    ct_pq_exec(admin, "DROP ROLE IF EXISTS gc_nologin_role");
    PQfinish(admin);

    /* Wrong password: 08001 with the server's message and its 28P01. */
    snprintf(connstr, sizeof connstr,
             "DRIVER={%s};Servers=127.0.0.1:%s;Database=%s;UID=%s;PWD=bad",
             driver, port, dbname, user);
    SQLHDBC dbc;
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    rc = SQLDriverConnect(dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0, NULL,
                          SQL_DRIVER_NOPROMPT);
    CT_CHECK(rc == SQL_ERROR, "bad password rc=%d", rc);
    SQLCHAR st[6], msg[1024];
    SQLINTEGER native = -1;
    SQLSMALLINT mlen;
    rc = SQLGetDiagRec(SQL_HANDLE_DBC, dbc, 1, st, &native, msg, sizeof msg, &mlen);
    CT_CHECK(rc == SQL_SUCCESS, "diag rc=%d", rc);
    CT_CHECK(strcmp((char *)st, "08001") == 0, "state %s", st);
    /* libpq's words as they are, final newline included, and psqlODBC's
     * native error, as a program moving from psqlODBC reads them. */
    CT_CHECK(strncmp((char *)msg, "connection to server at \"127.0.0.1\"", 35) == 0,
             "not libpq's message: %s", msg);
    CT_CHECK(strstr((char *)msg, "FATAL 28P01 password authentication failed") != NULL,
             "msg %s", msg);
    CT_CHECK(mlen > 0 && msg[mlen - 1] == '\n', "libpq's final newline dropped: %s", msg);
    CT_CHECK(native == 101, "native %d", (int)native);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);

    /* No server on the port: 08001. */
    snprintf(connstr, sizeof connstr,
             "DRIVER={%s};Servers=127.0.0.1:%d;Database=%s;UID=%s;PWD=%s;ConnectTimeout=5",
             driver, closed_port(), dbname, user, password);
    rc = driver_connect(env, connstr, state, out, sizeof out, NULL);
    CT_CHECK(rc == SQL_ERROR && strcmp(state, "08001") == 0, "no server rc=%d state=%s", rc,
             state);
    /* ...with native 101 and libpq's reason, no server's FATAL. */
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    rc = SQLDriverConnect(dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0, NULL,
                          SQL_DRIVER_NOPROMPT);
    native = -1;
    msg[0] = '\0';
    SQLGetDiagRec(SQL_HANDLE_DBC, dbc, 1, st, &native, msg, sizeof msg, &mlen);
    CT_CHECK(rc == SQL_ERROR && native == 101 && strstr((char *)msg, "FATAL") == NULL &&
                 strstr((char *)msg, "Connection refused") != NULL,
             "no server: rc=%d native %d %s", rc, (int)native, msg);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    free(port);
    free(user);
    free(password);
    free(dbname);
}

static void test_unknown_dsn(SQLHENV env)
{
    char state[6], out[256];
    SQLRETURN rc = driver_connect(env, "DSN=no_such_dsn_anywhere", state, out, sizeof out, NULL);
    CT_CHECK(rc == SQL_ERROR && strcmp(state, "IM002") == 0, "rc=%d state=%s", rc, state);
}

/* An unknown key does not stop the connection; the trace log names it,
 * even when LogLevel/LogFile come after it, and never shows its value. */
static void test_unknown_key_is_traced_not_fatal(SQLHENV env)
{
    const char *state_dir = getenv("GC_TEST_STATE_DIR");
    char log_path[4096];
    snprintf(log_path, sizeof log_path, "%s/trace-XXXXXX", state_dir ? state_dir : ".");
    int fd = mkstemp(log_path);
    CT_CHECK(fd >= 0, "mkstemp");
    if (fd < 0)
        return;
    close(fd);
    char connstr[4096 + 256], state[6], out[1024];
    snprintf(connstr, sizeof connstr,
             "DSN=%s;NoSuchKey=secret-value;LogLevel=2;LogFile={%s}", ct_dsn(), log_path);
    SQLRETURN rc = driver_connect(env, connstr, state, out, sizeof out, NULL);
    CT_CHECK(CT_OK(rc), "rc=%d state=%s", rc, state);

    char trace[8192] = "";
    FILE *f = fopen(log_path, "r");
    if (f != NULL) {
        size_t n = fread(trace, 1, sizeof trace - 1, f);
        trace[n] = '\0';
        fclose(f);
    }
    unlink(log_path);
    CT_CHECK(strstr(trace, "NoSuchKey") != NULL, "trace does not name the key: %s", trace);
    CT_CHECK(strstr(trace, "secret-value") == NULL, "trace shows the value: %s", trace);
}

static void test_odbc_versions(void)
{
    const SQLINTEGER versions[] = { SQL_OV_ODBC2, SQL_OV_ODBC3, SQL_OV_ODBC3_80 };
    for (size_t i = 0; i < 3; i++) {
        SQLHENV env;
        SQLHDBC dbc;
        SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env);
        SQLRETURN rc = SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION,
                                     (SQLPOINTER)(intptr_t)versions[i], 0);
        CT_CHECK(rc == SQL_SUCCESS, "version %d rc=%d", (int)versions[i], rc);
        SQLINTEGER got = 0;
        SQLGetEnvAttr(env, SQL_ATTR_ODBC_VERSION, &got, 0, NULL);
        CT_CHECK(got == versions[i], "got %d", (int)got);
        SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
        rc = SQLConnect(dbc, (SQLCHAR *)ct_dsn(), SQL_NTS, NULL, 0, NULL, 0);
        CT_CHECK(CT_OK(rc), "connect under version %d rc=%d", (int)versions[i], rc);
        if (CT_OK(rc)) {
            SQLCHAR name[64];
            SQLSMALLINT len;
            rc = SQLGetInfo(dbc, SQL_DBMS_NAME, name, sizeof name, &len);
            CT_CHECK(CT_OK(rc) && strcmp((char *)name, "PostgreSQL") == 0, "dbms %s", name);
            SQLDisconnect(dbc);
        }
        SQLFreeHandle(SQL_HANDLE_DBC, dbc);
        SQLFreeHandle(SQL_HANDLE_ENV, env);
    }
}

int main(void)
{
    SQLHENV env;
    SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env);
    SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);

    test_sqlconnect_with_dsn(env);
    test_sqlconnect_uid_pwd_override_dsn(env);
    test_driver_connect_dsn_string(env);
    test_driver_connect_string_overrides_dsn(env);
    test_driver_connect_driver_path(env);
    test_unknown_dsn(env);
    test_unknown_key_is_traced_not_fatal(env);
    test_odbc_versions();

    SQLFreeHandle(SQL_HANDLE_ENV, env);
    return ct_finish("test_connect");
}
