/*
 * st_test: helpers the statement tests share. Every test talks to the driver
 * through the unixODBC driver manager (DSN from GC_TEST_DSN), as an
 * application does, and exits non-zero when a check failed.
 */
#ifndef ST_TEST_H
#define ST_TEST_H

#include <sql.h>
#include <sqlext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int st_failures;

#define ST_CHECK(cond, ...)                                                   \
    do {                                                                      \
        if (!(cond)) {                                                        \
            st_failures++;                                                    \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);   \
            fprintf(stderr, __VA_ARGS__);                                     \
            fputc('\n', stderr);                                              \
        }                                                                     \
    } while (0)

#define ST_SUCCEEDED(rc) ((rc) == SQL_SUCCESS || (rc) == SQL_SUCCESS_WITH_INFO)

static inline void st_dump_diag(SQLSMALLINT type, SQLHANDLE h)
{
    SQLCHAR state[6], msg[1024];
    SQLINTEGER native;
    SQLSMALLINT len;
    for (SQLSMALLINT i = 1;
         SQLGetDiagRec(type, h, i, state, &native, msg, sizeof msg, &len) == SQL_SUCCESS; i++)
        fprintf(stderr, "  diag %d: %s (%d) %s\n", i, state, (int)native, msg);
}

/* Checks that rc succeeded; prints the statement's diagnostics otherwise. */
#define ST_OK(rc, stmt)                                                       \
    do {                                                                      \
        SQLRETURN st_rc_ = (rc);                                              \
        if (!ST_SUCCEEDED(st_rc_)) {                                          \
            st_failures++;                                                    \
            fprintf(stderr, "FAIL %s:%d: %s returned %d\n", __FILE__,         \
                    __LINE__, #rc, (int)st_rc_);                              \
            st_dump_diag(SQL_HANDLE_STMT, stmt);                              \
        }                                                                     \
    } while (0)

/* Whether a diagnostic record of h has SQLSTATE `want`. */
static inline int st_has_state(SQLSMALLINT type, SQLHANDLE h, const char *want)
{
    SQLCHAR state[6], msg[1024];
    SQLINTEGER native;
    SQLSMALLINT len;
    for (SQLSMALLINT i = 1;
         SQLGetDiagRec(type, h, i, state, &native, msg, sizeof msg, &len) == SQL_SUCCESS; i++)
        if (strcmp((char *)state, want) == 0)
            return 1;
    return 0;
}

/* Expects rc == SQL_ERROR with SQLSTATE `state` on handle h of `type`. */
#define ST_EXPECT_HANDLE_STATE(rc, type, h, state)                            \
    do {                                                                      \
        SQLRETURN st_rc_ = (rc);                                              \
        if (st_rc_ != SQL_ERROR || !st_has_state(type, h, state)) {           \
            st_failures++;                                                    \
            fprintf(stderr, "FAIL %s:%d: %s: wanted SQL_ERROR %s, got %d\n",  \
                    __FILE__, __LINE__, #rc, state, (int)st_rc_);             \
            st_dump_diag(type, h);                                            \
        }                                                                     \
    } while (0)

/* Expects rc == SQL_ERROR with SQLSTATE `state` on the statement. */
#define ST_EXPECT_STATE(rc, stmt, state) \
    ST_EXPECT_HANDLE_STATE(rc, SQL_HANDLE_STMT, stmt, state)

typedef struct st_conn {
    SQLHENV env;
    SQLHDBC dbc;
} st_conn;

/* Connects to GC_TEST_DSN (autocommit on) with further connection-string
 * keys `extra` ("" for none) and the environment's SQL_ATTR_ODBC_VERSION set
 * to odbc_version; exits when it cannot. */
static inline void st_connect_opts(st_conn *c, SQLINTEGER odbc_version, const char *extra)
{
    const char *dsn = getenv("GC_TEST_DSN");
    if (dsn == NULL) {
        fprintf(stderr, "GC_TEST_DSN is not set\n");
        exit(2);
    }
    SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &c->env);
    SQLSetEnvAttr(c->env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)(SQLLEN)odbc_version, 0);
    SQLAllocHandle(SQL_HANDLE_DBC, c->env, &c->dbc);
    char connstr[512];
    snprintf(connstr, sizeof connstr, "DSN=%s;%s", dsn, extra);
    SQLRETURN rc = SQLDriverConnect(c->dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0,
                                    NULL, SQL_DRIVER_NOPROMPT);
    if (!ST_SUCCEEDED(rc)) {
        fprintf(stderr, "cannot connect to %s\n", dsn);
        st_dump_diag(SQL_HANDLE_DBC, c->dbc);
        exit(2);
    }
}

/* Expects connecting with the keys `extra` to fail with SQLSTATE `state`. */
static inline void st_expect_connect_state(const char *extra, const char *state)
{
    SQLHENV env;
    SQLHDBC dbc;
    SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env);
    SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    char connstr[512];
    snprintf(connstr, sizeof connstr, "DSN=%s;%s", getenv("GC_TEST_DSN"), extra);
    ST_EXPECT_HANDLE_STATE(SQLDriverConnect(dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0,
                                            NULL, SQL_DRIVER_NOPROMPT),
                           SQL_HANDLE_DBC, dbc, state);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
}

/* Connects as an ODBC 3 application with the keys `extra`. */
static inline void st_connect_with(st_conn *c, const char *extra)
{
    st_connect_opts(c, SQL_OV_ODBC3, extra);
}

/* Connects with the DSN alone as an application of odbc_version. */
static inline void st_connect_as(st_conn *c, SQLINTEGER odbc_version)
{
    st_connect_opts(c, odbc_version, "");
}

/* Connects to GC_TEST_DSN as an ODBC 3 application; exits when it cannot. */
static inline void st_connect(st_conn *c)
{
    st_connect_opts(c, SQL_OV_ODBC3, "");
}

static inline void st_disconnect(st_conn *c)
{
    SQLDisconnect(c->dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, c->dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, c->env);
}

static inline SQLHSTMT st_stmt(st_conn *c)
{
    SQLHSTMT s = SQL_NULL_HSTMT;
    if (!ST_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, c->dbc, &s))) {
        fprintf(stderr, "cannot allocate a statement\n");
        exit(2);
    }
    return s;
}

/* Runs sql on a fresh statement and frees it; checks success. */
static inline void st_exec(st_conn *c, const char *sql)
{
    SQLHSTMT s = st_stmt(c);
    SQLRETURN rc = SQLExecDirect(s, (SQLCHAR *)sql, SQL_NTS);
    if (!ST_SUCCEEDED(rc) && rc != SQL_NO_DATA) {
        st_failures++;
        fprintf(stderr, "FAIL: %s\n", sql);
        st_dump_diag(SQL_HANDLE_STMT, s);
    }
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* The first column of the first row of sql, as text (static buffer). */
static inline const char *st_query_text(st_conn *c, const char *sql)
{
    static char buf[4096];
    buf[0] = '\0';
    SQLHSTMT s = st_stmt(c);
    SQLLEN ind = 0;
    ST_OK(SQLExecDirect(s, (SQLCHAR *)sql, SQL_NTS), s);
    ST_OK(SQLFetch(s), s);
    ST_OK(SQLGetData(s, 1, SQL_C_CHAR, buf, sizeof buf, &ind), s);
    if (ind == SQL_NULL_DATA)
        strcpy(buf, "<null>");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    return buf;
}

/* Closes s's cursor and runs sql on it directly. */
static inline SQLRETURN st_run(SQLHSTMT s, const char *sql)
{
    SQLFreeStmt(s, SQL_CLOSE);
    return SQLExecDirect(s, (SQLCHAR *)sql, SQL_NTS);
}

/* SQLRowCount of s (checked; -2 when it fails). */
static inline SQLLEN st_row_count(SQLHSTMT s)
{
    SQLLEN n = -2;
    ST_OK(SQLRowCount(s, &n), s);
    return n;
}

static inline int st_finish(const char *name)
{
    if (st_failures == 0)
        printf("%s: all checks passed\n", name);
    else
        printf("%s: %d check(s) failed\n", name, st_failures);
    return st_failures == 0 ? 0 : 1;
}

#endif
