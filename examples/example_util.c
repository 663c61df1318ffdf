/* example_util.c: see example_util.h. */
#include "example_util.h"

#include <stdio.h>
#include <stdlib.h>

void example_print_diag(SQLSMALLINT htype, SQLHANDLE handle)
{
    SQLCHAR state[6];
    SQLCHAR message[1024];
    SQLINTEGER native;
    SQLSMALLINT len;

    for (SQLSMALLINT i = 1;; i++) {
        SQLRETURN rc = SQLGetDiagRec(htype, handle, i, state, &native, message,
                                     sizeof message, &len);
        if (!SQL_SUCCEEDED(rc))
            break;
        fprintf(stderr, "  [%s] (native %d) %s\n", (char *)state, (int)native,
                (char *)message);
    }
}

void example_check(SQLRETURN rc, SQLSMALLINT htype, SQLHANDLE handle, const char *what)
{
    if (rc == SQL_SUCCESS || rc == SQL_NO_DATA)
        return;
    if (rc == SQL_SUCCESS_WITH_INFO) {
        fprintf(stderr, "%s: note\n", what);
        example_print_diag(htype, handle);
        return;
    }
    fprintf(stderr, "%s failed (return code %d)\n", what, (int)rc);
    example_print_diag(htype, handle);
    exit(1);
}

void example_connect(const char *connstr, SQLHENV *env, SQLHDBC *dbc)
{
    SQLCHAR out[1024];
    SQLSMALLINT outlen;

    if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, env))) {
        fprintf(stderr, "cannot allocate an ODBC environment\n");
        exit(1);
    }
    example_check(SQLSetEnvAttr(*env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0),
                  SQL_HANDLE_ENV, *env, "SQLSetEnvAttr(ODBC_VERSION)");
    example_check(SQLAllocHandle(SQL_HANDLE_DBC, *env, dbc), SQL_HANDLE_ENV, *env,
                  "SQLAllocHandle(DBC)");
    example_check(SQLDriverConnect(*dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, out,
                                   sizeof out, &outlen, SQL_DRIVER_NOPROMPT),
                  SQL_HANDLE_DBC, *dbc, "SQLDriverConnect");
}

void example_disconnect(SQLHENV env, SQLHDBC dbc)
{
    example_check(SQLDisconnect(dbc), SQL_HANDLE_DBC, dbc, "SQLDisconnect");
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
}

const char *example_connstr(int argc, char **argv, char *buf, size_t size)
{
    const char *dsn = getenv("GC_DEMO_DSN");

    if (argc > 1)
        snprintf(buf, size, "%s", argv[1]);
    else
        snprintf(buf, size, "DSN=%s", dsn && *dsn ? dsn : "gcodbc_test");
    return buf;
}
