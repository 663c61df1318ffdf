/*
 * global_session: the global session (GlobalSession=Yes) through the
 * unixODBC driver manager, the servers as witnesses (global_session.sh
 * counts their backends).
 * usage: global_session DSN count Yes|No
 *   Opens 64 global connections (ApplicationName=gsession), runs one keyed
 *   SELECT on each, prints "ready" and waits for a line on stdin (the
 *   script counts backends meanwhile); then 8 of them open a transaction
 *   each (an UPDATE by key, not committed), prints "ready" again, waits,
 *   rolls back and closes everything.
 *        global_session DSN leak
 *   Two connections sharing sessions: a SET of one is not seen by the
 *   other and stays with its own; their prepared statements, numbered
 *   alike per connection, never collide; DDL and temporary tables are
 *   refused with 0A000 naming GlobalSession.
 */
#include <sql.h>
#include <sqlext.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "global_test.h"

#define N_CONNECTIONS 64
#define N_TRANSACTIONS 8

static const char *dsn;

static SQLHDBC connect_one(SQLHENV env, const char *global_session)
{
    SQLHDBC dbc;
    fail_on(SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc), SQL_HANDLE_ENV, env, "alloc dbc");
    char connstr[256];
    snprintf(connstr, sizeof connstr, "DSN=%s;GlobalSession=%s;ApplicationName=gsession", dsn,
             global_session);
    SQLRETURN rc = SQLDriverConnect(dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0, NULL,
                                    SQL_DRIVER_NOPROMPT);
    fail_on(rc, SQL_HANDLE_DBC, dbc, connstr);
    if (rc == SQL_SUCCESS_WITH_INFO) {
        SQLCHAR state[6] = "", msg[512] = "";
        SQLINTEGER native = 0;
        SQLSMALLINT len = 0;
        SQLGetDiagRec(SQL_HANDLE_DBC, dbc, 1, state, &native, msg, sizeof msg, &len);
        fprintf(stderr, "FAIL: connect with GlobalSession=%s answered %s %s\n", global_session,
                state, msg);
        exit(1);
    }
    return dbc;
}

/* Runs sql with one bigint parameter on dbc; the first column of the first
 * row into out (may be NULL). */
static void run_keyed(SQLHDBC dbc, const char *sql, SQLBIGINT key, char *out, size_t size)
{
    SQLHSTMT st;
    fail_on(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st), SQL_HANDLE_DBC, dbc, "alloc stmt");
    SQLLEN ind = 0;
    fail_on(SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0, &key, 0,
                             &ind), SQL_HANDLE_STMT, st, "bind");
    fail_on(SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS), SQL_HANDLE_STMT, st, sql);
    if (out != NULL) {
        SQLLEN got = 0;
        fail_on(SQLFetch(st), SQL_HANDLE_STMT, st, "fetch");
        fail_on(SQLGetData(st, 1, SQL_C_CHAR, out, (SQLLEN)size, &got), SQL_HANDLE_STMT, st,
                "getdata");
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

static void wait_for_script(void)
{
    printf("ready\n");
    fflush(stdout);
    char line[16];
    if (fgets(line, sizeof line, stdin) == NULL) {
        fprintf(stderr, "FAIL: the script did not answer\n");
        exit(1);
    }
}

static int count(SQLHENV env, const char *global_session)
{
    SQLHDBC dbc[N_CONNECTIONS];
    for (int i = 0; i < N_CONNECTIONS; i++) {
        dbc[i] = connect_one(env, global_session);
        char owner[32];
        run_keyed(dbc[i], "SELECT count(*) FROM accounts WHERE id = ?", i + 1, owner,
                  sizeof owner);
    }
    wait_for_script();
    for (int i = 0; i < N_TRANSACTIONS; i++) {
        fail_on(SQLSetConnectAttr(dbc[i], SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF,
                                  0), SQL_HANDLE_DBC, dbc[i], "autocommit off");
        run_keyed(dbc[i], "UPDATE accounts SET balance = balance + 1 WHERE id = ?", i + 1,
                  NULL, 0);
    }
    wait_for_script();
    for (int i = 0; i < N_CONNECTIONS; i++) {
        if (i < N_TRANSACTIONS)
            fail_on(SQLEndTran(SQL_HANDLE_DBC, dbc[i], SQL_ROLLBACK), SQL_HANDLE_DBC, dbc[i],
                    "rollback");
        SQLDisconnect(dbc[i]);
        SQLFreeHandle(SQL_HANDLE_DBC, dbc[i]);
    }
    return 0;
}

/* The first column of the single row sql answers on dbc. */
static void one_value(SQLHDBC dbc, const char *sql, char *out, size_t size)
{
    SQLHSTMT st;
    fail_on(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st), SQL_HANDLE_DBC, dbc, "alloc stmt");
    fail_on(SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS), SQL_HANDLE_STMT, st, sql);
    SQLLEN got = 0;
    fail_on(SQLFetch(st), SQL_HANDLE_STMT, st, "fetch");
    fail_on(SQLGetData(st, 1, SQL_C_CHAR, out, (SQLLEN)size, &got), SQL_HANDLE_STMT, st,
            "getdata");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

static void expect_value(SQLHDBC dbc, const char *sql, const char *want, const char *who)
{
    char got[64] = "";
    one_value(dbc, sql, got, sizeof got);
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "FAIL: %s: %s gave %s, expected %s\n", who, sql, got, want);
        exit(1);
    }
}

/* sql must be refused with 0A000 and a message naming GlobalSession. */
static void expect_refused(SQLHDBC dbc, const char *sql)
{
    SQLHSTMT st;
    fail_on(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st), SQL_HANDLE_DBC, dbc, "alloc stmt");
    SQLRETURN rc = SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS);
    SQLCHAR state[6] = "", msg[512] = "";
    SQLINTEGER native = 0;
    SQLSMALLINT len = 0;
    SQLGetDiagRec(SQL_HANDLE_STMT, st, 1, state, &native, msg, sizeof msg, &len);
    if (rc != SQL_ERROR || strcmp((char *)state, "0A000") != 0 ||
        strstr((char *)msg, "GlobalSession") == NULL) {
        fprintf(stderr, "FAIL: %s: rc %d, %s %s\n", sql, rc, state, msg);
        exit(1);
    }
    printf("ok: refused: %s (%s)\n", sql, msg);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* A prepared statement of dbc computing $1 * factor. */
static SQLHSTMT prepare_times(SQLHDBC dbc, int factor, SQLBIGINT *param, SQLBIGINT *result)
{
    SQLHSTMT st;
    fail_on(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st), SQL_HANDLE_DBC, dbc, "alloc stmt");
    char sql[64];
    snprintf(sql, sizeof sql, "SELECT ?::bigint * %d", factor);
    fail_on(SQLPrepare(st, (SQLCHAR *)sql, SQL_NTS), SQL_HANDLE_STMT, st, sql);
    static SQLLEN ind;
    fail_on(SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0, param, 0,
                             &ind), SQL_HANDLE_STMT, st, "bind");
    fail_on(SQLBindCol(st, 1, SQL_C_SBIGINT, result, 0, NULL), SQL_HANDLE_STMT, st, "bindcol");
    return st;
}

static void run_times(SQLHSTMT st, SQLBIGINT *param, SQLBIGINT *result, SQLBIGINT x,
                      int factor)
{
    *param = x;
    fail_on(SQLExecute(st), SQL_HANDLE_STMT, st, "execute prepared");
    fail_on(SQLFetch(st), SQL_HANDLE_STMT, st, "fetch prepared");
    SQLCloseCursor(st);
    if (*result != x * factor) {
        fprintf(stderr, "FAIL: prepared statement: %lld * %d gave %lld\n", (long long)x, factor,
                (long long)*result);
        exit(1);
    }
}

static int leak(SQLHENV env)
{
    SQLHDBC a = connect_one(env, "Yes"), b = connect_one(env, "Yes");
    char base[64] = "";
    one_value(b, "SELECT current_setting('work_mem')", base, sizeof base);
    SQLHSTMT st;
    fail_on(SQLAllocHandle(SQL_HANDLE_STMT, a, &st), SQL_HANDLE_DBC, a, "alloc stmt");
    fail_on(SQLExecDirect(st, (SQLCHAR *)"SET work_mem = '7777kB'", SQL_NTS), SQL_HANDLE_STMT,
            st, "SET");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    for (int round = 0; round < 5; round++) {
        expect_value(a, "SELECT current_setting('work_mem')", "7777kB", "the connection that SET");
        expect_value(b, "SELECT current_setting('work_mem')", base, "the other connection");
    }
    printf("ok: a SET stays with its connection (%s elsewhere)\n", base);

    SQLBIGINT pa = 0, ra = 0, pb = 0, rb = 0;
    SQLHSTMT sa = prepare_times(a, 2, &pa, &ra);
    SQLHSTMT sb = prepare_times(b, 3, &pb, &rb);
    for (SQLBIGINT x = 1; x <= 20; x++) {
        run_times(sa, &pa, &ra, x, 2);
        run_times(sb, &pb, &rb, x, 3);
    }
    SQLFreeHandle(SQL_HANDLE_STMT, sa);
    SQLFreeHandle(SQL_HANDLE_STMT, sb);
    printf("ok: prepared statements of two connections on shared sessions never collide\n");

    expect_refused(a, "CREATE TABLE gsession_refused (id int)");
    expect_refused(a, "CREATE TEMPORARY TABLE gsession_temp (id int)");
    expect_refused(a, "SELECT 1 AS x INTO TEMP gsession_temp2");
    /* Still usable after the refusals. */
    expect_value(a, "SELECT 41 + 1", "42", "after the refusals");

    SQLDisconnect(a);
    SQLFreeHandle(SQL_HANDLE_DBC, a);
    SQLDisconnect(b);
    SQLFreeHandle(SQL_HANDLE_DBC, b);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: global_session DSN count Yes|No | leak\n");
        return 2;
    }
    dsn = argv[1];
    SQLHENV env;
    SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env);
    SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
    int rc = 2;
    if (strcmp(argv[2], "count") == 0 && argc == 4)
        rc = count(env, argv[3]);
    else if (strcmp(argv[2], "leak") == 0)
        rc = leak(env);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    return rc;
}
