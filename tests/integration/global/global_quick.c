/*
 * global_quick: drives a global connection through the unixODBC driver
 * manager and prints where each statement ran, one line per execution:
 *   OP KEY MEMBER
 * (OP: select, update, insert, txn). The calling script checks each line
 * against the servers (owner group of KEY, primary, pg_stat_statements).
 * It fails by itself on what the driver alone can prove: SHOW GLOBAL
 * CONNECTION's rows, the catalog-version attribute, and the pinning of a
 * transaction to its first statement's member.
 * usage: global_quick DSN MEMBERS
 * (GQ_EXTRA in the environment adds connection-string keys)
 *        global_quick DSN nocatalog      (expects 08001: no gcluster catalog)
 *        global_quick DSN unknownpaths   (expects 01000 naming the names in
 *                                         LocalityGroupPath and
 *                                         LocalityMemberPath the cluster
 *                                         does not have)
 *        global_quick DSN down MEMBER    (expects 01000 naming MEMBER, then
 *                                         a keyed statement still runs)
 *        global_quick DSN down MEMBER START_COMMAND
 *            (the same, then runs START_COMMAND to bring MEMBER back and,
 *             with SELECTs routed to standbys, keeps running keyed SELECTs
 *             until one runs on MEMBER: a member missing at connect time
 *             is retried by the driver without the application's help)
 */
#include <time.h>
#include <sql.h>
#include <stdbool.h>
#include <sqlext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcodbc.h"
#include "global_test.h"

static SQLHDBC dbc;

static void last_member(char *buf, SQLINTEGER size)
{
    SQLINTEGER len = 0;
    fail_on(SQLGetConnectAttr(dbc, GCODBC_ATTR_LAST_MEMBER, buf, size, &len), SQL_HANDLE_DBC,
            dbc, "SQLGetConnectAttr(GCODBC_ATTR_LAST_MEMBER)");
}

/* Runs the prepared statement of st once per key, printing where it ran. */
static void run_keys(SQLHSTMT st, const char *op, SQLBIGINT *key, long from, long to)
{
    for (long k = from; k <= to; k++) {
        *key = k;
        fail_on(SQLExecute(st), SQL_HANDLE_STMT, st, op);
        SQLCloseCursor(st);
        char m[64] = "";
        last_member(m, sizeof m);
        printf("%s %ld %s\n", op, k, m);
    }
}

static SQLHSTMT prepared(const char *sql)
{
    SQLHSTMT st;
    fail_on(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st), SQL_HANDLE_DBC, dbc, "alloc stmt");
    fail_on(SQLPrepare(st, (SQLCHAR *)sql, SQL_NTS), SQL_HANDLE_STMT, st, sql);
    return st;
}

/* The first diagnostic record of the connection: state and message. */
static void first_diag(SQLCHAR *state, SQLCHAR *msg, SQLSMALLINT size)
{
    SQLINTEGER native = 0;
    SQLSMALLINT len = 0;
    state[0] = msg[0] = '\0';
    SQLGetDiagRec(SQL_HANDLE_DBC, dbc, 1, state, &native, msg, size, &len);
}

/* Connecting to a database without the cluster catalog fails with 08001. */
static int expect_no_catalog(const char *dsn)
{
    char connstr[256];
    snprintf(connstr, sizeof connstr, "DSN=%s;Database=postgres", dsn);
    SQLRETURN rc = SQLDriverConnect(dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0, NULL,
                                    SQL_DRIVER_NOPROMPT);
    SQLCHAR state[6], msg[1024];
    first_diag(state, msg, sizeof msg);
    if (rc != SQL_ERROR || strcmp((char *)state, "08001") != 0 ||
        strstr((char *)msg, "gcluster") == NULL) {
        fprintf(stderr, "FAIL: no catalog: rc %d, %s %s\n", rc, state, msg);
        return 1;
    }
    printf("ok: no catalog: %s %s\n", state, msg);
    return 0;
}

/* LocalityGroupPath / LocalityMemberPath naming what the cluster does not
 * have: the connection opens with SQL_SUCCESS_WITH_INFO and a 01000 record
 * naming each unknown name (and none of the known ones), and routes. */
static int expect_unknown_paths(const char *dsn)
{
    char connstr[256];
    snprintf(connstr, sizeof connstr,
             "DSN=%s;LocalityGroupPolicy=1;LocalityGroupPath=G9,G1;"
             "LocalityMemberPolicy=4;LocalityMemberPath=G1N1,NoSuchMember", dsn);
    SQLRETURN rc = SQLDriverConnect(dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0, NULL,
                                    SQL_DRIVER_NOPROMPT);
    SQLCHAR state[6], msg[1024];
    first_diag(state, msg, sizeof msg);
    printf("unknown paths: rc %d, %s %s\n", rc, state, msg);
    const char *m = (const char *)msg;
    if (rc != SQL_SUCCESS_WITH_INFO || strcmp((char *)state, "01000") != 0 ||
        strstr(m, "LocalityGroupPath") == NULL || strstr(m, "G9") == NULL ||
        strstr(m, "LocalityMemberPath") == NULL || strstr(m, "NoSuchMember") == NULL ||
        strstr(m, "G1N1") != NULL) {
        fprintf(stderr, "FAIL: unknown path names: rc %d, %s %s\n", rc, state, msg);
        return 1;
    }
    SQLBIGINT key = 1;
    SQLHSTMT sel = prepared("SELECT owner FROM accounts WHERE id = ?");
    SQLBindParameter(sel, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0, &key, 0, NULL);
    fail_on(SQLExecute(sel), SQL_HANDLE_STMT, sel, "keyed select with unknown path names");
    SQLFreeHandle(SQL_HANDLE_STMT, sel);
    fail_on(SQLDisconnect(dbc), SQL_HANDLE_DBC, dbc, "disconnect");
    /* The same paths without the unknown names: no warning. */
    snprintf(connstr, sizeof connstr,
             "DSN=%s;LocalityGroupPolicy=1;LocalityGroupPath=G1;"
             "LocalityMemberPolicy=4;LocalityMemberPath=G1N1", dsn);
    rc = SQLDriverConnect(dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0, NULL,
                          SQL_DRIVER_NOPROMPT);
    first_diag(state, msg, sizeof msg);
    if (rc != SQL_SUCCESS) {
        fprintf(stderr, "FAIL: known path names: rc %d, %s %s\n", rc, state, msg);
        return 1;
    }
    fail_on(SQLDisconnect(dbc), SQL_HANDLE_DBC, dbc, "disconnect");
    printf("ok: unknown path names are named in a 01000 warning at connect\n");
    /* GlobalSession=Yes is built: it connects without a warning
     * (global_session.sh proves what it does). */
    snprintf(connstr, sizeof connstr, "DSN=%s;GlobalSession=Yes", dsn);
    rc = SQLDriverConnect(dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0, NULL,
                          SQL_DRIVER_NOPROMPT);
    first_diag(state, msg, sizeof msg);
    if (rc != SQL_SUCCESS) {
        fprintf(stderr, "FAIL: GlobalSession=Yes: rc %d, %s %s\n", rc, state, msg);
        return 1;
    }
    fail_on(SQLDisconnect(dbc), SQL_HANDLE_DBC, dbc, "disconnect");
    printf("ok: GlobalSession=Yes connects without a warning\n");
    return 0;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Runs keyed SELECTs over keys 1..20 until one runs on member; false after
 * timeout_ms. Prints how long it took. */
static bool wait_for_member(SQLHSTMT sel, SQLBIGINT *key, const char *member, double timeout_ms)
{
    double start = now_ms();
    for (long n = 0; now_ms() - start < timeout_ms; n++) {
        *key = 1 + n % 20;
        fail_on(SQLExecute(sel), SQL_HANDLE_STMT, sel, "select while waiting");
        SQLCloseCursor(sel);
        char m[64] = "";
        last_member(m, sizeof m);
        if (strcmp(m, member) == 0) {
            printf("ok: %s serves again %.0f ms after its start command returned\n", member,
                   now_ms() - start);
            return true;
        }
        struct timespec pause = { 0, 20 * 1000000L };
        nanosleep(&pause, NULL);
    }
    return false;
}

/* A member down: the connection opens with 01000 naming it, and works.
 * With start_command, the member is then started and must come to serve. */
static int expect_member_down(const char *dsn, const char *member, const char *start_command)
{
    char connstr[256];
    snprintf(connstr, sizeof connstr, "DSN=%s;ConnectTimeout=3%s", dsn,
             start_command != NULL ? ";LocalityMemberPolicy=3;ReconnectInterval=1" : "");
    SQLRETURN rc = SQLDriverConnect(dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0, NULL,
                                    SQL_DRIVER_NOPROMPT);
    SQLCHAR state[6], msg[1024];
    first_diag(state, msg, sizeof msg);
    if (rc != SQL_SUCCESS_WITH_INFO || strcmp((char *)state, "01000") != 0 ||
        strstr((char *)msg, member) == NULL) {
        fprintf(stderr, "FAIL: member down: rc %d, %s %s\n", rc, state, msg);
        return 1;
    }
    printf("ok: member down: %s %s\n", state, msg);
    SQLBIGINT key = 0;
    SQLHSTMT sel = prepared("SELECT owner FROM accounts WHERE id = ?");
    SQLBindParameter(sel, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0, &key, 0, NULL);
    run_keys(sel, "select", &key, 1, 20);
    if (start_command != NULL) {
        if (system(start_command) != 0) {
            fprintf(stderr, "FAIL: %s failed\n", start_command);
            return 1;
        }
        if (!wait_for_member(sel, &key, member, 10000)) {
            fprintf(stderr, "FAIL: %s, down at connect, did not serve within 10 s of its start\n",
                    member);
            return 1;
        }
    }
    SQLFreeHandle(SQL_HANDLE_STMT, sel);
    fail_on(SQLDisconnect(dbc), SQL_HANDLE_DBC, dbc, "disconnect");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[2], "nocatalog") == 0) {
        SQLHENV env;
        SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env);
        SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
        SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
        return expect_no_catalog(argv[1]);
    }
    if (argc == 3 && strcmp(argv[2], "unknownpaths") == 0) {
        SQLHENV env;
        SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env);
        SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
        SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
        return expect_unknown_paths(argv[1]);
    }
    if ((argc == 4 || argc == 5) && strcmp(argv[2], "down") == 0) {
        SQLHENV env;
        SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env);
        SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
        SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
        return expect_member_down(argv[1], argv[3], argc == 5 ? argv[4] : NULL);
    }
    if (argc != 3) {
        fprintf(stderr, "usage: global_quick DSN MEMBERS\n");
        return 2;
    }
    int members = atoi(argv[2]);
    SQLHENV env;
    SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env);
    SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    char connstr[256];
    const char *extra = getenv("GQ_EXTRA");   /* more connection-string keys */
    snprintf(connstr, sizeof connstr, "DSN=%s;%s", argv[1], extra != NULL ? extra : "");
    SQLRETURN rc = SQLDriverConnect(dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0, NULL,
                                    SQL_DRIVER_NOPROMPT);
    fail_on(rc, SQL_HANDLE_DBC, dbc, "connect");
    if (rc != SQL_SUCCESS) {
        fprintf(stderr, "FAIL: connect gave SQL_SUCCESS_WITH_INFO with every member up\n");
        return 1;
    }

    SQLBIGINT version = 0;
    fail_on(SQLGetConnectAttr(dbc, GCODBC_ATTR_CATALOG_VERSION, &version, 0, NULL),
            SQL_HANDLE_DBC, dbc, "catalog version");
    if (version <= 0) {
        fprintf(stderr, "FAIL: catalog version %lld\n", (long long)version);
        return 1;
    }

    SQLBIGINT key = 0;
    SQLCHAR owner[64];
    SQLHSTMT sel = prepared("SELECT owner FROM accounts WHERE id = ?");
    SQLBindParameter(sel, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0, &key, 0, NULL);
    run_keys(sel, "select", &key, 1, 20);
    SQLHSTMT upd = prepared("UPDATE accounts SET balance = balance + 1 WHERE id = ?");
    SQLBindParameter(upd, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0, &key, 0, NULL);
    run_keys(upd, "update", &key, 1, 20);
    SQLHSTMT ins = prepared("INSERT INTO accounts (id, owner) VALUES (?, 'quick')");
    SQLBindParameter(ins, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0, &key, 0, NULL);
    run_keys(ins, "insert", &key, 1001, 1020);

    /* A transaction's writes run on their keys' primaries, which join it
     * (the script checks each against its owner group); it commits on
     * both groups. */
    fail_on(SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0),
            SQL_HANDLE_DBC, dbc, "autocommit off");
    char first[64] = "";
    long txn_elsewhere = 0;   /* writes that left the first member: routed by key */
    for (long k = 1; k <= 20; k++) {
        key = k;
        fail_on(SQLExecute(upd), SQL_HANDLE_STMT, upd, "update in a transaction");
        char m[64] = "";
        last_member(m, sizeof m);
        if (k == 1)
            snprintf(first, sizeof first, "%s", m);
        else if (strcmp(first, m) != 0)
            txn_elsewhere++;
        printf("txnupdate %ld %s\n", k, m);
    }
    printf("txn 1 %s\n", first);
    fail_on(SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_COMMIT), SQL_HANDLE_DBC, dbc, "commit");
    fail_on(SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0),
            SQL_HANDLE_DBC, dbc, "autocommit on");

    /* SHOW GLOBAL CONNECTION: one row per member, counters that add up. */
    SQLHSTMT show;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &show);
    fail_on(SQLExecDirect(show, (SQLCHAR *)"show global connection", SQL_NTS), SQL_HANDLE_STMT,
            show, "SHOW GLOBAL CONNECTION");
    SQLSMALLINT cols = 0;
    SQLNumResultCols(show, &cols);
    if (cols != 7) {
        fprintf(stderr, "FAIL: SHOW GLOBAL CONNECTION has %d columns\n", cols);
        return 1;
    }
    /* The name columns are as wide as their longest value (G1N1, G1), so
     * isql draws a narrow table. */
    for (SQLUSMALLINT col = 1; col <= 2; col++) {
        SQLCHAR cname[32];
        SQLSMALLINT cname_len = 0, type = 0, digits = 0, nullable = 0;
        SQLULEN size = 0;
        fail_on(SQLDescribeCol(show, col, cname, sizeof cname, &cname_len, &type, &size, &digits,
                               &nullable),
                SQL_HANDLE_STMT, show, "describe SHOW GLOBAL CONNECTION");
        SQLULEN want = col == 1 ? 4 : 2;
        printf("show column %s: size %lu\n", cname, (unsigned long)size);
        if (size != want) {
            fprintf(stderr, "FAIL: SHOW GLOBAL CONNECTION describes %s as %lu characters, "
                            "expected %lu (its longest value)\n", cname, (unsigned long)size,
                    (unsigned long)want);
            return 1;
        }
    }
    int rows = 0;
    long by_key = 0;
    while (SQL_SUCCEEDED(SQLFetch(show))) {
        SQLCHAR name[32], group[32], role[16], state[16];
        SQLBIGINT k = 0, p = 0, e = 0;
        SQLGetData(show, 1, SQL_C_CHAR, name, sizeof name, NULL);
        SQLGetData(show, 2, SQL_C_CHAR, group, sizeof group, NULL);
        SQLGetData(show, 3, SQL_C_CHAR, role, sizeof role, NULL);
        SQLGetData(show, 4, SQL_C_CHAR, state, sizeof state, NULL);
        SQLGetData(show, 5, SQL_C_SBIGINT, &k, 0, NULL);
        SQLGetData(show, 6, SQL_C_SBIGINT, &p, 0, NULL);
        SQLGetData(show, 7, SQL_C_SBIGINT, &e, 0, NULL);
        printf("show %s %s %s %s %lld %lld %lld\n", name, group, role, state, (long long)k,
               (long long)p, (long long)e);
        rows++;
        by_key += (long)k;
    }
    if (rows != members) {
        fprintf(stderr, "FAIL: SHOW GLOBAL CONNECTION gave %d rows for %d members\n", rows, members);
        return 1;
    }
    /* 60 autocommit statements, the transaction's first one and its writes
     * on another group went by key. */
    if (by_key != 61 + txn_elsewhere) {
        fprintf(stderr, "FAIL: %ld statements routed by key, expected %ld\n", by_key,
                61 + txn_elsewhere);
        return 1;
    }
    /* The same through SQLPrepare: described before it runs, then run. */
    SQLHSTMT prep = prepared("SHOW GLOBAL CONNECTION;");
    cols = 0;
    fail_on(SQLNumResultCols(prep, &cols), SQL_HANDLE_STMT, prep, "describe SHOW");
    fail_on(SQLExecute(prep), SQL_HANDLE_STMT, prep, "execute SHOW");
    rows = 0;
    while (SQL_SUCCEEDED(SQLFetch(prep)))
        rows++;
    if (cols != 7 || rows != members) {
        fprintf(stderr, "FAIL: prepared SHOW GLOBAL CONNECTION: %d columns, %d rows\n", cols, rows);
        return 1;
    }
    SQLFreeHandle(SQL_HANDLE_STMT, prep);

    /* Session-dependent SQL is refused before anything is sent. */
    SQLHSTMT bad;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &bad);
    rc = SQLExecDirect(bad, (SQLCHAR *)"SELECT pg_backend_pid()", SQL_NTS);
    SQLCHAR bstate[6] = "", bmsg[256] = "";
    SQLINTEGER bnative = 0;
    SQLSMALLINT blen = 0;
    SQLGetDiagRec(SQL_HANDLE_STMT, bad, 1, bstate, &bnative, bmsg, sizeof bmsg, &blen);
    if (rc != SQL_ERROR || strcmp((char *)bstate, "0A000") != 0) {
        fprintf(stderr, "FAIL: pg_backend_pid() on a global connection: rc %d %s %s\n", rc,
                bstate, bmsg);
        return 1;
    }
    SQLFreeHandle(SQL_HANDLE_STMT, bad);
    (void)owner;
    SQLFreeHandle(SQL_HANDLE_STMT, show);
    SQLFreeHandle(SQL_HANDLE_STMT, sel);
    SQLFreeHandle(SQL_HANDLE_STMT, upd);
    SQLFreeHandle(SQL_HANDLE_STMT, ins);
    fail_on(SQLDisconnect(dbc), SQL_HANDLE_DBC, dbc, "disconnect");
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    return 0;
}
