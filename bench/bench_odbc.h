/*
 * bench_odbc.h: one ODBC session for a benchmark client (shared by the
 * programs under bench/): environment, connection and one statement, opened
 * from a connection string through the driver manager, and the printing of
 * a failed call's diagnostics.
 */
#ifndef BENCH_ODBC_H
#define BENCH_ODBC_H

#include <stdbool.h>
#include <stdio.h>

#include <sql.h>
#include <sqlext.h>

typedef struct bench_odbc {
    SQLHENV env;
    SQLHDBC dbc;
    SQLHSTMT stmt;
} bench_odbc;

/* Prints "<tool>: <what> failed" and the handle's diagnostics; returns false. */
static inline bool bench_odbc_fail(const char *tool, SQLSMALLINT htype, SQLHANDLE h,
                                   const char *what)
{
    SQLCHAR state[6], msg[512];
    SQLINTEGER native;
    SQLSMALLINT len;

    fprintf(stderr, "%s: %s failed\n", tool, what);
    for (SQLSMALLINT i = 1;
         SQL_SUCCEEDED(SQLGetDiagRec(htype, h, i, state, &native, msg, sizeof msg, &len)); i++)
        fprintf(stderr, "  [%s] %s\n", (char *)state, (char *)msg);
    return false;
}

/* Frees whatever of o is open; o can be opened again afterwards. */
static inline void bench_odbc_close(bench_odbc *o)
{
    if (o->stmt)
        SQLFreeHandle(SQL_HANDLE_STMT, o->stmt);
    if (o->dbc) {
        SQLDisconnect(o->dbc);
        SQLFreeHandle(SQL_HANDLE_DBC, o->dbc);
    }
    if (o->env)
        SQLFreeHandle(SQL_HANDLE_ENV, o->env);
    o->env = o->dbc = o->stmt = NULL;
}

/* Connects with connstr (ODBC 3) and allocates one statement. On failure
 * prints why, closes what was opened and returns false. */
static inline bool bench_odbc_open(bench_odbc *o, const char *tool, const char *connstr)
{
    o->env = o->dbc = o->stmt = NULL;
    if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &o->env)) ||
        !SQL_SUCCEEDED(SQLSetEnvAttr(o->env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0)) ||
        !SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_DBC, o->env, &o->dbc))) {
        fprintf(stderr, "%s: cannot allocate ODBC handles\n", tool);
        bench_odbc_close(o);
        return false;
    }
    if (!SQL_SUCCEEDED(SQLDriverConnect(o->dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0,
                                        NULL, SQL_DRIVER_NOPROMPT))) {
        bench_odbc_fail(tool, SQL_HANDLE_DBC, o->dbc, "SQLDriverConnect");
        bench_odbc_close(o);
        return false;
    }
    if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, o->dbc, &o->stmt))) {
        bench_odbc_fail(tool, SQL_HANDLE_DBC, o->dbc, "SQLAllocHandle(STMT)");
        bench_odbc_close(o);
        return false;
    }
    return true;
}

#endif
