/*
 * global_test: what the global connection's test programs share.
 */
#ifndef GLOBAL_TEST_H
#define GLOBAL_TEST_H

#include <sql.h>
#include <sqlext.h>
#include <stdio.h>
#include <stdlib.h>

/* Stops the test (exit 1) with the first diagnostic of h when rc failed. */
static inline void fail_on(SQLRETURN rc, SQLSMALLINT type, SQLHANDLE h, const char *what)
{
    if (SQL_SUCCEEDED(rc))
        return;
    SQLCHAR state[6] = "", msg[512] = "";
    SQLINTEGER native = 0;
    SQLSMALLINT len = 0;
    SQLGetDiagRec(type, h, 1, state, &native, msg, sizeof msg, &len);
    fprintf(stderr, "FAIL: %s: %s %s\n", what, state, msg);
    exit(1);
}

#endif
