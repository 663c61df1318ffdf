/*
 * example_util.h: the few helpers the example programs share: print the
 * diagnostics of a failed ODBC call and stop, connect from the command line.
 */
#ifndef EXAMPLE_UTIL_H
#define EXAMPLE_UTIL_H

#include <stddef.h>

#include <sql.h>
#include <sqlext.h>

/* Prints every diagnostic record of handle (type htype) to stderr. */
void example_print_diag(SQLSMALLINT htype, SQLHANDLE handle);

/*
 * Checks an ODBC return code: on SQL_SUCCESS_WITH_INFO prints the
 * diagnostics and goes on; on an error prints them with what was being done
 * and exits the program with status 1.
 */
void example_check(SQLRETURN rc, SQLSMALLINT htype, SQLHANDLE handle, const char *what);

/*
 * Allocates an ODBC 3 environment and a connection and connects with the
 * connection string (for example "DSN=gcodbc_demo"). The caller frees both
 * with example_disconnect.
 */
void example_connect(const char *connstr, SQLHENV *env, SQLHDBC *dbc);
void example_disconnect(SQLHENV env, SQLHDBC dbc);

/*
 * Writes into buf (size bytes) the connection string to use: argv[1] when
 * given, else "DSN=" and the environment variable GC_DEMO_DSN, else
 * "DSN=gcodbc_test". Returns buf.
 */
const char *example_connstr(int argc, char **argv, char *buf, size_t size);

#endif
