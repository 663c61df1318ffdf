/*
 * conn_test: small helpers the connection tests share. The tests call the
 * driver only through the unixODBC driver manager, as an application does;
 * libpq is used beside it to look at the server from a second session.
 */
#ifndef CONN_TEST_H
#define CONN_TEST_H

#include <libpq-fe.h>
#include <sql.h>
#include <sqlext.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ct_failures;

#define CT_CHECK(cond, ...)                                                   \
    do {                                                                      \
        if (!(cond)) {                                                        \
            ct_failures++;                                                    \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);   \
            fprintf(stderr, __VA_ARGS__);                                     \
            fputc('\n', stderr);                                              \
        }                                                                     \
    } while (0)

#define CT_OK(rc) ((rc) == SQL_SUCCESS || (rc) == SQL_SUCCESS_WITH_INFO)

/* Prints every diagnostic record of a handle to stderr. */
static inline void ct_dump_diag(SQLSMALLINT type, SQLHANDLE h)
{
    SQLCHAR state[6], msg[1024];
    SQLINTEGER native;
    SQLSMALLINT len;
    for (SQLSMALLINT i = 1;
         SQLGetDiagRec(type, h, i, state, &native, msg, sizeof msg, &len) == SQL_SUCCESS;
         i++)
        fprintf(stderr, "  diag %d: %s (%d) %s\n", i, state, (int)native, msg);
}

/* SQLSTATE of the first diagnostic record, "" when none. */
static inline const char *ct_sqlstate(SQLSMALLINT type, SQLHANDLE h)
{
    static __thread char state[6];
    SQLINTEGER native;
    SQLSMALLINT len;
    SQLCHAR msg[8];
    state[0] = '\0';
    SQLRETURN rc = SQLGetDiagRec(type, h, 1, (SQLCHAR *)state, &native, msg, sizeof msg, &len);
    if (rc != SQL_SUCCESS && rc != SQL_SUCCESS_WITH_INFO)
        state[0] = '\0';
    return state;
}

/* Whether any diagnostic record of h has SQLSTATE `want`. */
static inline int ct_has_state(SQLSMALLINT type, SQLHANDLE h, const char *want)
{
    SQLCHAR state[6], msg[1024];
    SQLINTEGER native;
    SQLSMALLINT len;
    for (SQLSMALLINT i = 1;; i++) {
        SQLRETURN rc = SQLGetDiagRec(type, h, i, state, &native, msg, sizeof msg, &len);
        if (rc != SQL_SUCCESS && rc != SQL_SUCCESS_WITH_INFO)
            return 0;
        if (strcmp((char *)state, want) == 0)
            return 1;
    }
}

/* Contents of a file of the fixture's state directory, without the
 * trailing newline (malloc'd). Exits when missing: the fixture is broken. */
static inline char *ct_state_file(const char *name)
{
    const char *dir = getenv("GC_TEST_STATE_DIR");
    if (dir == NULL) {
        fprintf(stderr, "GC_TEST_STATE_DIR is not set (run through ctest)\n");
        exit(2);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(2);
    }
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
        buf[--n] = '\0';
    return strdup(buf);
}

static inline const char *ct_dsn(void)
{
    const char *dsn = getenv("GC_TEST_DSN");
    return dsn != NULL ? dsn : "gcodbc_test";
}

/* One keyword's value from the application conninfo (malloc'd). */
static inline char *ct_conninfo_value(const char *keyword)
{
    char *conninfo = ct_state_file("conninfo");
    char *err = NULL;
    PQconninfoOption *opts = PQconninfoParse(conninfo, &err);
    free(conninfo);
    char *value = NULL;
    for (PQconninfoOption *o = opts; o != NULL && o->keyword != NULL; o++) {
        if (strcmp(o->keyword, keyword) == 0 && o->val != NULL)
            value = strdup(o->val);
    }
    PQconninfoFree(opts);
    PQfreemem(err);
    return value;
}

/* A libpq session as the application role: the "second connection" that
 * looks at what the driver did. */
static inline PGconn *ct_pq_connect(const char *which)
{
    char *conninfo = ct_state_file(which);
    PGconn *pg = PQconnectdb(conninfo);
    free(conninfo);
    if (PQstatus(pg) != CONNECTION_OK) {
        fprintf(stderr, "libpq connect failed: %s", PQerrorMessage(pg));
        exit(2);
    }
    return pg;
}

/* Runs sql on pg and returns the first value of the first row as a long,
 * or -1 on error. */
static inline long ct_pq_long(PGconn *pg, const char *sql)
{
    PGresult *res = PQexec(pg, sql);
    long v = -1;
    if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) > 0)
        v = atol(PQgetvalue(res, 0, 0));
    else if (PQresultStatus(res) != PGRES_TUPLES_OK)
        fprintf(stderr, "libpq: %s: %s", sql, PQresultErrorMessage(res));
    PQclear(res);
    return v;
}

static inline void ct_pq_exec(PGconn *pg, const char *sql)
{
    PGresult *res = PQexec(pg, sql);
    if (PQresultStatus(res) != PGRES_COMMAND_OK && PQresultStatus(res) != PGRES_TUPLES_OK)
        fprintf(stderr, "libpq: %s: %s", sql, PQresultErrorMessage(res));
    PQclear(res);
}

/* Allocates an ODBC 3 environment and a connection connected to the test
 * DSN; exits on failure. */
static inline void ct_connect(SQLHENV *env, SQLHDBC *dbc)
{
    SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, env);
    SQLSetEnvAttr(*env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
    SQLAllocHandle(SQL_HANDLE_DBC, *env, dbc);
    SQLRETURN rc = SQLConnect(*dbc, (SQLCHAR *)ct_dsn(), SQL_NTS, NULL, 0, NULL, 0);
    if (!CT_OK(rc)) {
        fprintf(stderr, "SQLConnect(%s) failed\n", ct_dsn());
        ct_dump_diag(SQL_HANDLE_DBC, *dbc);
        exit(1);
    }
}

static inline void ct_disconnect(SQLHENV env, SQLHDBC dbc)
{
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
}

/* Runs sql on a new statement of dbc; returns the SQLRETURN and, when
 * state is not NULL, the first SQLSTATE. */
static inline SQLRETURN ct_exec(SQLHDBC dbc, const char *sql, char state[6])
{
    SQLHSTMT st;
    SQLRETURN rc = SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    if (!CT_OK(rc)) {
        if (state != NULL)
            snprintf(state, 6, "%s", ct_sqlstate(SQL_HANDLE_DBC, dbc));
        return rc;
    }
    rc = SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS);
    if (state != NULL)
        snprintf(state, 6, "%s", ct_sqlstate(SQL_HANDLE_STMT, st));
    if (rc == SQL_ERROR && state == NULL)
        ct_dump_diag(SQL_HANDLE_STMT, st);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return rc;
}

/* The first column of the first row of sql as a string (malloc'd), NULL on
 * failure. */
static inline char *ct_query_string(SQLHDBC dbc, const char *sql)
{
    SQLHSTMT st;
    if (!CT_OK(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st)))
        return NULL;
    char buf[1024];
    SQLLEN ind = 0;
    char *out = NULL;
    if (CT_OK(SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS)) && CT_OK(SQLFetch(st)) &&
        CT_OK(SQLGetData(st, 1, SQL_C_CHAR, buf, sizeof buf, &ind)) && ind >= 0)
        out = strdup(buf);
    else
        ct_dump_diag(SQL_HANDLE_STMT, st);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return out;
}

static inline int ct_finish(const char *name)
{
    if (ct_failures == 0)
        printf("%s: all checks passed\n", name);
    else
        printf("%s: %d check(s) failed\n", name, ct_failures);
    return ct_failures == 0 ? 0 : 1;
}

#endif
