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
 *   other and stays with its own, nor a set_config called in a query of
 *   one (the session is reset when given back); their prepared statements, numbered
 *   alike per connection, never collide; DDL and temporary tables are
 *   refused with 0A000 naming GlobalSession.
 *        global_session DSN wait
 *   GlobalSessionMax=1, GlobalSessionWait=1: with one connection's
 *   transaction holding its member's only session, another connection's
 *   statement for that member waits about a second, then fails with HYT00;
 *   after the transaction ends it runs. SHOW GLOBAL SESSION counts both.
 *        global_session DSN kill
 *   Runs a statement on every group, prints "ready" and waits while the
 *   script terminates the idle shared sessions on every member; then runs
 *   on every group again without an error, and SHOW GLOBAL SESSION shows
 *   the dead sessions discarded by the pool, none lost while held (no
 *   dead session was handed out) and no member down; SQL_ATTR_CONNECTION_DEAD
 *   says alive throughout, though no session is held between calls.
 *        global_session DSN threads
 *   8 threads, each with 8 connections of its own and a setting of its
 *   own (work_mem), share one pool bounded by GlobalSessionMax=2: each
 *   thread runs transactions (UPDATE by key, a read of it, COMMIT) turning
 *   over its connections. Every increment is applied exactly once, every
 *   read sees its own connection's setting, and at the end no session is
 *   borrowed and no member holds more than GlobalSessionMax.
 */
#include <pthread.h>
#include <sql.h>
#include <sqlext.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gcodbc.h"
#include "global_test.h"

#define N_CONNECTIONS 64
#define N_TRANSACTIONS 8

static const char *dsn;

static SQLHDBC connect_with(SQLHENV env, const char *global_session, const char *extra)
{
    SQLHDBC dbc;
    fail_on(SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc), SQL_HANDLE_ENV, env, "alloc dbc");
    char connstr[256];
    snprintf(connstr, sizeof connstr, "DSN=%s;GlobalSession=%s;ApplicationName=gsession%s",
             dsn, global_session, extra);
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
static SQLHDBC connect_one(SQLHENV env, const char *global_session)
{
    return connect_with(env, global_session, "");
}

static void run_keyed(SQLHDBC dbc, const char *sql, SQLBIGINT key, char *out, size_t size)
{
    SQLHSTMT st;
    fail_on(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st), SQL_HANDLE_DBC, dbc, "alloc stmt");
    SQLLEN ind = 0;
    fail_on(SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0, &key, 0,
                             &ind), SQL_HANDLE_STMT, st, "bind");
    /* Prepared: routed by its key (SQLExecDirect goes by policy). */
    fail_on(SQLPrepare(st, (SQLCHAR *)sql, SQL_NTS), SQL_HANDLE_STMT, st, sql);
    fail_on(SQLExecute(st), SQL_HANDLE_STMT, st, sql);
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
    char sql[96];
    /* On key 1's owner: every run wants a session of the same member. */
    snprintf(sql, sizeof sql, "SELECT ?::bigint * %d FROM accounts WHERE id = 1", factor);
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
    /* Checked by a server when it is set, though no session is held. */
    fail_on(SQLAllocHandle(SQL_HANDLE_STMT, a, &st), SQL_HANDLE_DBC, a, "alloc stmt");
    SQLRETURN rc = SQLExecDirect(st, (SQLCHAR *)"SET work_mem = 'plenty'", SQL_NTS);
    SQLCHAR state[6] = "";
    SQLINTEGER native = 0;
    SQLSMALLINT len = 0;
    SQLCHAR msg[256] = "";
    SQLGetDiagRec(SQL_HANDLE_STMT, st, 1, state, &native, msg, sizeof msg, &len);
    if (rc != SQL_ERROR || strcmp((char *)state, "22023") != 0) {
        fprintf(stderr, "FAIL: SET work_mem = 'plenty': rc %d, %s %s\n", rc, state, msg);
        exit(1);
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    expect_value(a, "SELECT current_setting('work_mem')", "7777kB", "after a refused SET");
    printf("ok: a bad SET is refused at once (%s)\n", state);

    /* set_config inside a query is no SET the driver logs: the session it
     * ran on is reset before the next borrower gets it. Both statements
     * are keyed to key 1's primary: the same shared session. */
    char setting[64] = "";
    run_keyed(b, "SELECT set_config('maintenance_work_mem', '6666kB', false) FROM accounts "
                 "WHERE id = ?", 1, setting, sizeof setting);
    for (int round = 0; round < 3; round++) {
        run_keyed(a, "SELECT current_setting('maintenance_work_mem') FROM accounts WHERE id = ?",
                  1, setting, sizeof setting);
        if (strcmp(setting, "6666kB") == 0) {
            fprintf(stderr, "FAIL: another connection's set_config reached this one (%s)\n",
                    setting);
            exit(1);
        }
    }
    printf("ok: a set_config of one connection is not seen by another (%s there)\n", setting);

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

    /* One statement on more sessions than it first keeps track of: each
     * run takes the next idle session while helpers hold the ones before,
     * twice round, so it comes back to sessions it prepared on earlier. */
    SQLHDBC helpers[7];
    for (int j = 0; j < 7; j++) {
        helpers[j] = connect_one(env, "Yes");
        fail_on(SQLSetConnectAttr(helpers[j], SQL_ATTR_AUTOCOMMIT,
                                  (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0), SQL_HANDLE_DBC,
                helpers[j], "autocommit off");
    }
    sa = prepare_times(a, 5, &pa, &ra);
    for (int round = 0; round < 2; round++) {
        for (int j = 0; j < 7; j++) {
            char got[32];
            run_keyed(helpers[j], "SELECT balance FROM accounts WHERE id = ?", 1, got,
                      sizeof got);
            run_times(sa, &pa, &ra, j + 1, 5);
        }
        for (int j = 0; j < 7; j++)
            fail_on(SQLEndTran(SQL_HANDLE_DBC, helpers[j], SQL_ROLLBACK), SQL_HANDLE_DBC,
                    helpers[j], "rollback");
    }
    SQLFreeHandle(SQL_HANDLE_STMT, sa);
    for (int j = 0; j < 7; j++) {
        SQLDisconnect(helpers[j]);
        SQLFreeHandle(SQL_HANDLE_DBC, helpers[j]);
    }
    printf("ok: a prepared statement comes back to sessions it was prepared on\n");

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

/* The sum over members of column col (1-based) of SHOW GLOBAL SESSION; or,
 * with member set, that member's value only. */
static long session_figure(SQLHDBC dbc, int col, const char *member)
{
    SQLHSTMT st;
    fail_on(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st), SQL_HANDLE_DBC, dbc, "alloc stmt");
    fail_on(SQLExecDirect(st, (SQLCHAR *)"SHOW GLOBAL SESSION", SQL_NTS), SQL_HANDLE_STMT, st,
            "SHOW GLOBAL SESSION");
    long sum = 0;
    int rows = 0;
    while (SQLFetch(st) == SQL_SUCCESS) {
        char name[64] = "";
        SQLBIGINT v = 0;
        SQLLEN ind = 0;
        fail_on(SQLGetData(st, 1, SQL_C_CHAR, name, sizeof name, &ind), SQL_HANDLE_STMT, st,
                "member name");
        fail_on(SQLGetData(st, (SQLUSMALLINT)col, SQL_C_SBIGINT, &v, 0, &ind), SQL_HANDLE_STMT,
                st, "figure");
        if (member == NULL || strcmp(member, name) == 0)
            sum += (long)v;
        rows++;
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    if (rows != 6) {
        fprintf(stderr, "FAIL: SHOW GLOBAL SESSION gave %d rows, expected one per member (6)\n",
                rows);
        exit(1);
    }
    return sum;
}

enum { COL_SESSIONS = 3, COL_BORROWED, COL_IDLE, COL_WAITS, COL_TIMEOUTS, COL_OPENED,
       COL_DISCARDED, COL_LOST };

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The name of the member that ran dbc's last statement. */
static void last_member(SQLHDBC dbc, char *buf, SQLINTEGER size)
{
    SQLINTEGER len = 0;
    fail_on(SQLGetConnectAttr(dbc, GCODBC_ATTR_LAST_MEMBER, buf, size, &len), SQL_HANDLE_DBC,
            dbc, "last member");
}

static int wait_for_session(SQLHENV env)
{
    const char *bounded = ";GlobalSessionMax=1;GlobalSessionWait=1";
    SQLHDBC a = connect_with(env, "Yes", bounded), b = connect_with(env, "Yes", bounded);
    fail_on(SQLSetConnectAttr(a, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0),
            SQL_HANDLE_DBC, a, "autocommit off");
    run_keyed(a, "UPDATE accounts SET balance = balance + 1 WHERE id = ?", 1, NULL, 0);
    char member[64] = "";
    last_member(a, member, sizeof member);

    SQLHSTMT st;
    fail_on(SQLAllocHandle(SQL_HANDLE_STMT, b, &st), SQL_HANDLE_DBC, b, "alloc stmt");
    SQLBIGINT key = 1;
    SQLLEN ind = 0;
    fail_on(SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0, &key, 0,
                             &ind), SQL_HANDLE_STMT, st, "bind");
    /* A read: it needs the member's session, not the row A holds. */
    const char *read = "SELECT balance FROM accounts WHERE id = ?";
    fail_on(SQLPrepare(st, (SQLCHAR *)read, SQL_NTS), SQL_HANDLE_STMT, st, read);
    double started = now_s();
    SQLRETURN rc = SQLExecute(st);
    double waited = now_s() - started;
    SQLCHAR state[6] = "", msg[512] = "";
    SQLINTEGER native = 0;
    SQLSMALLINT len = 0;
    SQLGetDiagRec(SQL_HANDLE_STMT, st, 1, state, &native, msg, sizeof msg, &len);
    if (rc != SQL_ERROR || strcmp((char *)state, "HYT00") != 0 ||
        strstr((char *)msg, member) == NULL || waited < 0.9 || waited > 5) {
        fprintf(stderr, "FAIL: a statement for busy member %s: rc %d after %.2f s, %s %s\n",
                member, rc, waited, state, msg);
        exit(1);
    }
    printf("ok: waited %.2f s for member %s, then %s: %s\n", waited, member, state, msg);
    if (session_figure(b, COL_WAITS, member) < 1 || session_figure(b, COL_TIMEOUTS, member) < 1 ||
        session_figure(b, COL_SESSIONS, member) != 1) {
        fprintf(stderr, "FAIL: SHOW GLOBAL SESSION does not show the wait on %s\n", member);
        exit(1);
    }
    fail_on(SQLEndTran(SQL_HANDLE_DBC, a, SQL_ROLLBACK), SQL_HANDLE_DBC, a, "rollback");
    fail_on(SQLExecute(st), SQL_HANDLE_STMT, st, "the same statement once the transaction ended");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    printf("ok: the statement runs once the session is given back\n");
    SQLDisconnect(a);
    SQLFreeHandle(SQL_HANDLE_DBC, a);
    SQLDisconnect(b);
    SQLFreeHandle(SQL_HANDLE_DBC, b);
    return 0;
}

/* Keys 1..40, owned by every group: an UPDATE of each, autocommit, each
 * on its owner's primary. */
static void touch_every_group(SQLHDBC dbc)
{
    for (SQLBIGINT k = 1; k <= 40; k++)
        run_keyed(dbc, "UPDATE accounts SET balance = balance + 1 WHERE id = ?", k, NULL, 0);
}

/* Between calls the connection holds no member session, yet it lives: a
 * driver manager's pool asks SQL_ATTR_CONNECTION_DEAD before handing it to
 * the next user (before, SQL_CD_TRUE, and the pool connected anew each
 * time). */
static void expect_alive(SQLHDBC dbc, const char *when)
{
    SQLUINTEGER dead = SQL_CD_TRUE;
    fail_on(SQLGetConnectAttr(dbc, SQL_ATTR_CONNECTION_DEAD, &dead, 0, NULL), SQL_HANDLE_DBC,
            dbc, "SQL_ATTR_CONNECTION_DEAD");
    if (dead != SQL_CD_FALSE) {
        fprintf(stderr, "FAIL: %s, SQL_ATTR_CONNECTION_DEAD says the connection is dead\n",
                when);
        exit(1);
    }
}

static int kill_sessions(SQLHENV env)
{
    SQLHDBC a = connect_one(env, "Yes");
    expect_alive(a, "connected");
    touch_every_group(a);
    expect_alive(a, "idle between calls");
    long idle = session_figure(a, COL_IDLE, NULL);
    printf("idle %ld\n", idle);
    wait_for_script();
    expect_alive(a, "its idle shared sessions terminated");
    touch_every_group(a);
    long discarded = session_figure(a, COL_DISCARDED, NULL);
    long lost = session_figure(a, COL_LOST, NULL);
    if (discarded < idle || lost != 0) {
        fprintf(stderr, "FAIL: after %ld idle sessions were terminated: %ld discarded, %ld lost "
                "while held\n", idle, discarded, lost);
        exit(1);
    }
    SQLHSTMT st;
    fail_on(SQLAllocHandle(SQL_HANDLE_STMT, a, &st), SQL_HANDLE_DBC, a, "alloc stmt");
    fail_on(SQLExecDirect(st, (SQLCHAR *)"SHOW GLOBAL CONNECTION", SQL_NTS), SQL_HANDLE_STMT, st,
            "SHOW GLOBAL CONNECTION");
    while (SQLFetch(st) == SQL_SUCCESS) {
        char name[64] = "", state[16] = "";
        SQLLEN ind = 0;
        SQLGetData(st, 1, SQL_C_CHAR, name, sizeof name, &ind);
        SQLGetData(st, 4, SQL_C_CHAR, state, sizeof state, &ind);
        /* unknown: never needed (a standby with SELECTs on primaries). */
        if (strcmp(state, "down") == 0) {
            fprintf(stderr, "FAIL: member %s is %s: a dead shared session reached it\n", name,
                    state);
            exit(1);
        }
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    printf("ok: %ld terminated idle sessions discarded by the pool, none handed out\n",
           discarded);
    SQLDisconnect(a);
    SQLFreeHandle(SQL_HANDLE_DBC, a);
    return 0;
}

enum { N_THREADS = 8, CONNS_PER_THREAD = 8, ROUNDS = 40 };

/* One thread of `threads`: its connections, their keys and what went wrong. */
typedef struct {
    SQLHENV env;
    int thread;
    int failures;
    char failure[600];
} session_thread;

/* The key of connection c of thread t: one row per connection, spread over
 * every group. */
static SQLBIGINT thread_key(int t, int c)
{
    return (SQLBIGINT)(t * CONNS_PER_THREAD + c + 1);
}

/* The work_mem connection c of thread t sets: its own value, in kB. */
static int thread_work_mem(int t, int c)
{
    return 64 + t * CONNS_PER_THREAD + c;
}

/* Notes the first failure of a thread (the thread goes on, counted). */
static void thread_failed(session_thread *w, SQLSMALLINT type, SQLHANDLE h, const char *what)
{
    SQLCHAR state[6] = "", msg[400] = "";
    SQLINTEGER native = 0;
    SQLSMALLINT len = 0;
    if (h != NULL)
        SQLGetDiagRec(type, h, 1, state, &native, msg, sizeof msg, &len);
    if (w->failures++ == 0)
        snprintf(w->failure, sizeof w->failure, "thread %d: %s: %s %s", w->thread, what, state,
                 msg);
}

/* Runs sql (one bigint parameter: key) on st; false (noted) when it fails. */
static bool run_on(session_thread *w, SQLHSTMT st, const char *sql, SQLBIGINT *key)
{
    SQLFreeStmt(st, SQL_CLOSE);
    SQLLEN ind = 0;
    if (SQL_SUCCEEDED(SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0,
                                       key, 0, &ind)) &&
        SQL_SUCCEEDED(SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS)))
        return true;
    thread_failed(w, SQL_HANDLE_STMT, st, sql);
    return false;
}

/* The work_mem in force where the transaction reads key, checked against
 * the connection's own; false (noted) when it differs or fails. */
static bool setting_is_own(session_thread *w, SQLHSTMT st, SQLBIGINT *key, int work_mem)
{
    if (!run_on(w, st, "SELECT current_setting('work_mem') FROM accounts WHERE id = ?", key))
        return false;
    char setting[32] = "", want[32];
    SQLLEN got = 0;
    if (!SQL_SUCCEEDED(SQLFetch(st)) ||
        !SQL_SUCCEEDED(SQLGetData(st, 1, SQL_C_CHAR, setting, sizeof setting, &got))) {
        thread_failed(w, SQL_HANDLE_STMT, st, "fetch the setting");
        return false;
    }
    snprintf(want, sizeof want, "%dkB", work_mem);
    if (strcmp(setting, want) == 0)
        return true;
    char what[128];
    snprintf(what, sizeof what, "work_mem is %s in the transaction, the connection set %s",
             setting, want);
    thread_failed(w, 0, NULL, what);
    return false;
}

/* One transaction on dbc: the key's balance + 1 and a read of the setting
 * in force, then COMMIT (ROLLBACK when a step failed, noted). */
static void one_transaction(session_thread *w, SQLHDBC dbc, SQLBIGINT key, int work_mem)
{
    SQLHSTMT st;
    if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st))) {
        thread_failed(w, SQL_HANDLE_DBC, dbc, "alloc stmt");
        return;
    }
    bool ok = run_on(w, st, "UPDATE accounts SET balance = balance + 1 WHERE id = ?", &key) &&
              setting_is_own(w, st, &key, work_mem);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    if (!SQL_SUCCEEDED(SQLEndTran(SQL_HANDLE_DBC, dbc, ok ? SQL_COMMIT : SQL_ROLLBACK)))
        thread_failed(w, SQL_HANDLE_DBC, dbc, "SQLEndTran");
}

/* A thread of `threads`: connects its 8 connections (each with its own
 * work_mem and autocommit off), then ROUNDS times a transaction on each. */
static void *session_thread_main(void *arg)
{
    session_thread *w = arg;
    SQLHDBC dbc[CONNS_PER_THREAD];
    for (int c = 0; c < CONNS_PER_THREAD; c++) {
        dbc[c] = connect_with(w->env, "Yes", ";GlobalSessionMax=2;GlobalSessionWait=60");
        SQLSetConnectAttr(dbc[c], SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0);
        SQLHSTMT st;
        SQLAllocHandle(SQL_HANDLE_STMT, dbc[c], &st);
        char set[64];
        snprintf(set, sizeof set, "SET work_mem = '%dkB'", thread_work_mem(w->thread, c));
        if (!SQL_SUCCEEDED(SQLExecDirect(st, (SQLCHAR *)set, SQL_NTS)))
            thread_failed(w, SQL_HANDLE_STMT, st, set);
        SQLFreeHandle(SQL_HANDLE_STMT, st);
        SQLEndTran(SQL_HANDLE_DBC, dbc[c], SQL_COMMIT);
    }
    for (int r = 0; r < ROUNDS; r++)
        for (int c = 0; c < CONNS_PER_THREAD; c++)
            one_transaction(w, dbc[c], thread_key(w->thread, c), thread_work_mem(w->thread, c));
    for (int c = 0; c < CONNS_PER_THREAD; c++) {
        SQLDisconnect(dbc[c]);
        SQLFreeHandle(SQL_HANDLE_DBC, dbc[c]);
    }
    return NULL;
}

/* The balance of every key 1..N_THREADS*CONNS_PER_THREAD, read on a
 * connection of its own without the global session. */
static void read_balances(SQLHENV env, SQLBIGINT *balance)
{
    SQLHDBC dbc = connect_one(env, "No");
    for (int k = 1; k <= N_THREADS * CONNS_PER_THREAD; k++) {
        char out[32];
        run_keyed(dbc, "SELECT balance FROM accounts WHERE id = ?", k, out, sizeof out);
        balance[k - 1] = strtoll(out, NULL, 10);
    }
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
}

static int threads(SQLHENV env)
{
    enum { KEYS = N_THREADS * CONNS_PER_THREAD };
    SQLBIGINT before[KEYS], after[KEYS];
    read_balances(env, before);
    /* Connected through the run, the observer keeps the pool (which ends
     * with its last connection) to be seen at rest after the threads. */
    SQLHDBC observer = connect_with(env, "Yes", ";GlobalSessionMax=2;GlobalSessionWait=60");
    session_thread w[N_THREADS];
    pthread_t tid[N_THREADS];
    double started = now_s();
    for (int t = 0; t < N_THREADS; t++) {
        w[t] = (session_thread){.env = env, .thread = t};
        if (pthread_create(&tid[t], NULL, session_thread_main, &w[t]) != 0) {
            fprintf(stderr, "FAIL: pthread_create\n");
            exit(1);
        }
    }
    for (int t = 0; t < N_THREADS; t++)
        pthread_join(tid[t], NULL);
    double took = now_s() - started;
    read_balances(env, after);
    int failed = 0;
    for (int t = 0; t < N_THREADS; t++)
        if (w[t].failures > 0) {
            fprintf(stderr, "FAIL: %d failures, the first: %s\n", w[t].failures, w[t].failure);
            failed = 1;
        }
    for (int k = 0; k < KEYS; k++)
        if (after[k] - before[k] != ROUNDS) {
            fprintf(stderr, "FAIL: key %d: balance %lld -> %lld, expected +%d\n", k + 1,
                    (long long)before[k], (long long)after[k], ROUNDS);
            failed = 1;
        }
    /* Borrowed: the observer's own, for SHOW GLOBAL SESSION. */
    long borrowed = session_figure(observer, COL_BORROWED, NULL);
    long sessions = session_figure(observer, COL_SESSIONS, NULL);
    long waits = session_figure(observer, COL_WAITS, NULL);
    SQLDisconnect(observer);
    SQLFreeHandle(SQL_HANDLE_DBC, observer);
    if (borrowed != 1 || sessions > 2 * 6 || waits < 1) {
        fprintf(stderr, "FAIL: after the threads: %ld sessions borrowed (the observer's 1), %ld "
                "open (at most %d), %ld waits (8 threads for 2 sessions per member)\n", borrowed,
                sessions, 2 * 6, waits);
        failed = 1;
    }
    printf("%s: %d threads x %d connections x %d transactions in %.1f s, %ld shared sessions "
           "at the end, %ld waits for one\n", failed ? "FAIL" : "ok", N_THREADS,
           CONNS_PER_THREAD, ROUNDS, took, sessions, waits);
    return failed;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: global_session DSN count Yes|No | leak | wait | kill | threads\n");
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
    else if (strcmp(argv[2], "wait") == 0)
        rc = wait_for_session(env);
    else if (strcmp(argv[2], "kill") == 0)
        rc = kill_sessions(env);
    else if (strcmp(argv[2], "threads") == 0)
        rc = threads(env);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    return rc;
}
