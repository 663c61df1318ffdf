/*
 * bench_rollback_levels: statements per second inside transactions, with
 * autocommit off, through one ODBC connection string (which carries the
 * rollback level). Runs `ops` executions of one prepared statement with a
 * parameter, committing every `per_txn`, and prints
 *   <statements/s> <microseconds per statement>
 * A benchmark, not a test: it asserts nothing about speed.
 *
 *   bench_rollback_levels CONNSTR select|insert OPS PER_TXN
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"
#include "bench_odbc.h"

static const char *const TOOL = "bench_rollback_levels";

int main(int argc, char **argv)
{
    if (argc != 5 || (strcmp(argv[2], "select") != 0 && strcmp(argv[2], "insert") != 0)) {
        fprintf(stderr, "usage: %s CONNSTR select|insert OPS PER_TXN\n", TOOL);
        return 2;
    }
    long ops = atol(argv[3]), per_txn = atol(argv[4]);
    bench_odbc o;
    if (ops <= 0 || per_txn <= 0 || !bench_odbc_open(&o, TOOL, argv[1]))
        return 1;
    SQLSetConnectAttr(o.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0);
    const char *sql = strcmp(argv[2], "select") == 0
                          ? "SELECT name FROM bench_items WHERE id = ?"
                          : "INSERT INTO bench_log (item, note) VALUES (?, 'rollback level')";
    SQLINTEGER id = 1;
    if (!SQL_SUCCEEDED(SQLPrepare(o.stmt, (SQLCHAR *)sql, SQL_NTS)) ||
        !SQL_SUCCEEDED(SQLBindParameter(o.stmt, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0,
                                        0, &id, 0, NULL)))
        return bench_odbc_fail(TOOL, SQL_HANDLE_STMT, o.stmt, "SQLPrepare"), 1;
    double start = bench_now_seconds();
    for (long i = 0; i < ops; i++) {
        id = (SQLINTEGER)(i % 100000) + 1;
        if (!SQL_SUCCEEDED(SQLExecute(o.stmt)))
            return bench_odbc_fail(TOOL, SQL_HANDLE_STMT, o.stmt, "SQLExecute"), 1;
        SQLFreeStmt(o.stmt, SQL_CLOSE);
        if ((i + 1) % per_txn == 0 &&
            !SQL_SUCCEEDED(SQLEndTran(SQL_HANDLE_DBC, o.dbc, SQL_COMMIT)))
            return bench_odbc_fail(TOOL, SQL_HANDLE_DBC, o.dbc, "SQLEndTran"), 1;
    }
    SQLEndTran(SQL_HANDLE_DBC, o.dbc, SQL_COMMIT);
    double elapsed = bench_now_seconds() - start;
    printf("%.0f %.1f\n", (double)ops / elapsed, elapsed * 1e6 / (double)ops);
    bench_odbc_close(&o);
    return 0;
}
