/*
 * hello: connect through the unixODBC driver manager, ask the server who it
 * is, then run one prepared statement with parameters and fetch its rows
 * into bound columns.
 *
 *   hello ["DSN=gcodbc_demo;UID=...;PWD=..."]
 */
#include <stdio.h>

#include "example_util.h"

/* Prints the server's name and version as the driver reports them. */
static void show_server(SQLHDBC dbc)
{
    SQLCHAR name[128], version[128], driver[128];
    SQLSMALLINT len;

    example_check(SQLGetInfo(dbc, SQL_DBMS_NAME, name, sizeof name, &len),
                  SQL_HANDLE_DBC, dbc, "SQLGetInfo(DBMS_NAME)");
    example_check(SQLGetInfo(dbc, SQL_DBMS_VER, version, sizeof version, &len),
                  SQL_HANDLE_DBC, dbc, "SQLGetInfo(DBMS_VER)");
    example_check(SQLGetInfo(dbc, SQL_DRIVER_NAME, driver, sizeof driver, &len),
                  SQL_HANDLE_DBC, dbc, "SQLGetInfo(DRIVER_NAME)");
    printf("connected to %s %s through %s\n", (char *)name, (char *)version, (char *)driver);
}

/*
 * Prepares a query with two parameter markers once, then executes it for
 * two different limits, fetching each result through bound columns.
 */
static void squares(SQLHDBC dbc)
{
    SQLHSTMT stmt;
    SQLINTEGER limit, step;
    SQLINTEGER n;
    SQLBIGINT square;
    SQLCHAR label[32];
    SQLLEN n_ind, square_ind, label_ind;

    example_check(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &stmt), SQL_HANDLE_DBC, dbc,
                  "SQLAllocHandle(STMT)");
    example_check(SQLPrepare(stmt,
                             (SQLCHAR *)"SELECT n, n::bigint * n, 'row ' || n"
                                        " FROM generate_series(1, ?) AS n"
                                        " WHERE n % ? = 0 ORDER BY n",
                             SQL_NTS),
                  SQL_HANDLE_STMT, stmt, "SQLPrepare");
    example_check(SQLBindParameter(stmt, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0,
                                   &limit, 0, NULL),
                  SQL_HANDLE_STMT, stmt, "SQLBindParameter(1)");
    example_check(SQLBindParameter(stmt, 2, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0,
                                   &step, 0, NULL),
                  SQL_HANDLE_STMT, stmt, "SQLBindParameter(2)");
    example_check(SQLBindCol(stmt, 1, SQL_C_SLONG, &n, 0, &n_ind), SQL_HANDLE_STMT, stmt,
                  "SQLBindCol(1)");
    example_check(SQLBindCol(stmt, 2, SQL_C_SBIGINT, &square, 0, &square_ind),
                  SQL_HANDLE_STMT, stmt, "SQLBindCol(2)");
    example_check(SQLBindCol(stmt, 3, SQL_C_CHAR, label, sizeof label, &label_ind),
                  SQL_HANDLE_STMT, stmt, "SQLBindCol(3)");

    /* The bound variables are read at each SQLExecute. */
    const SQLINTEGER runs[2][2] = {{10, 3}, {100000, 25000}};
    for (int r = 0; r < 2; r++) {
        limit = runs[r][0];
        step = runs[r][1];
        printf("multiples of %d up to %d:\n", (int)step, (int)limit);
        example_check(SQLExecute(stmt), SQL_HANDLE_STMT, stmt, "SQLExecute");
        SQLRETURN rc;
        while ((rc = SQLFetch(stmt)) != SQL_NO_DATA) {
            example_check(rc, SQL_HANDLE_STMT, stmt, "SQLFetch");
            printf("  %-10s n=%-6d n*n=%lld\n", (char *)label, (int)n, (long long)square);
        }
        example_check(SQLCloseCursor(stmt), SQL_HANDLE_STMT, stmt, "SQLCloseCursor");
    }
    SQLFreeHandle(SQL_HANDLE_STMT, stmt);
}

int main(int argc, char **argv)
{
    char connstr[512];
    SQLHENV env;
    SQLHDBC dbc;

    example_connect(example_connstr(argc, argv, connstr, sizeof connstr), &env, &dbc);
    show_server(dbc);
    squares(dbc);
    example_disconnect(env, dbc);
    printf("hello: done\n");
    return 0;
}
