/*
 * global_test: what the global connection's test programs share.
 */
#ifndef GLOBAL_TEST_H
#define GLOBAL_TEST_H

#include <sql.h>
#include <sqlext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The count of failed CHECKs of the program. */
static inline int *check_failures(void)
{
    static int failures;
    return &failures;
}

/* Reports a failed check (printf-style message) and counts it; the program
 * goes on, and says at its end whether any failed. */
#define CHECK(ok, ...)                                     \
    do {                                                   \
        if (!(ok)) {                                       \
            fprintf(stderr, "FAIL: " __VA_ARGS__);         \
            fputc('\n', stderr);                           \
            (*check_failures())++;                         \
        }                                                  \
    } while (0)

/* The lines of the file at path holding both a and b ("" matches any);
 * -1 when it cannot be read. */
static inline int trace_lines(const char *path, const char *a, const char *b)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    int n = 0;
    char line[4096];
    while (fgets(line, sizeof line, f) != NULL)
        n += strstr(line, a) != NULL && strstr(line, b) != NULL;
    fclose(f);
    return n;
}

#endif
