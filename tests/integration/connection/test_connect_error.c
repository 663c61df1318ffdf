/*
 * test_connect_error CONNSTR SQLSTATE MUST_CONTAIN [MUST_NOT_CONTAIN]: connects
 * with SQLDriverConnect through the driver manager and checks that the
 * connect fails with that SQLSTATE and a message holding MUST_CONTAIN (and
 * not MUST_NOT_CONTAIN). For scripts that set up the server themselves
 * (tls_seed_error.sh).
 */
#include <sql.h>
#include <sqlext.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s CONNSTR SQLSTATE MUST_CONTAIN [MUST_NOT_CONTAIN]\n", argv[0]);
        return 2;
    }
    SQLHENV env;
    SQLHDBC dbc;
    SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env);
    SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    SQLRETURN rc = SQLDriverConnect(dbc, NULL, (SQLCHAR *)argv[1], SQL_NTS, NULL, 0, NULL,
                                    SQL_DRIVER_NOPROMPT);
    SQLCHAR state[6] = "", msg[2048] = "";
    SQLINTEGER native = 0;
    SQLSMALLINT len = 0;
    SQLGetDiagRec(SQL_HANDLE_DBC, dbc, 1, state, &native, msg, sizeof msg, &len);
    printf("rc %d: %s %s\n", (int)rc, state, msg);
    int failures = 0;
    if (rc != SQL_ERROR || strcmp((char *)state, argv[2]) != 0) {
        fprintf(stderr, "FAIL: wanted SQL_ERROR %s\n", argv[2]);
        failures++;
    }
    if (strstr((char *)msg, argv[3]) == NULL) {
        fprintf(stderr, "FAIL: the message does not say \"%s\"\n", argv[3]);
        failures++;
    }
    if (argc > 4 && strstr((char *)msg, argv[4]) != NULL) {
        fprintf(stderr, "FAIL: the message says \"%s\"\n", argv[4]);
        failures++;
    }
    if (SQL_SUCCEEDED(rc))
        SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    return failures == 0 ? 0 : 1;
}
