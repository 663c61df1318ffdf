/*
 * global_arrays_txn: parameter arrays on a global connection inside a
 * transaction (autocommit off), through the unixODBC driver manager,
 * against a 2-group cluster whose accounts table is hash-sharded on id.
 * Proves on the driver's side:
 *   - an INSERT array over both groups runs pipelined (one parse per
 *     member the transaction holds, no single executions in the trace),
 *     every row SQL_PARAM_SUCCESS, and commits atomically with SQLEndTran;
 *   - a failing row (a duplicate key) at rollback level 2 fails the
 *     execution (SQL_ERROR), its status and SQL_DIAG_ROW_NUMBER name it,
 *     the rows after it on its member are SQL_PARAM_UNUSED, the whole
 *     array is undone on every member, and the transaction goes on: the
 *     work before and after the array commits;
 *   - at rollback level 1 the same failure rolls the transaction back;
 *   - at level 0 the transaction stays aborted: its COMMIT fails.
 * The calling script checks the servers (which member ran the rows, how
 * many savepoints each set).
 * usage: global_arrays_txn DSN FIRST_ID ROWS TRACE_FILE
 *   array 1 inserts ids FIRST_ID .. FIRST_ID+ROWS-1 and commits;
 *   array 2 inserts FIRST_ID+ROWS .. +2*ROWS-1 but its last row repeats
 *   FIRST_ID (fails), between the single rows FIRST_ID+10*ROWS (before)
 *   and FIRST_ID+10*ROWS+1 (after), then commits;
 *   array 3 (level 1) inserts FIRST_ID+2*ROWS .. with the same failure,
 *   after the single row FIRST_ID+10*ROWS+2, and commits what is left;
 *   array 4 (level 0) the same from FIRST_ID+3*ROWS after the single row
 *   FIRST_ID+10*ROWS+3, then tries to commit.
 */
#include <sql.h>
#include <sqlext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "global_test.h"

/* A connection with autocommit off and RollbackOnError=level. */
static SQLHDBC connect_manual(SQLHENV env, const char *dsn, const char *trace, int level)
{
    SQLHDBC dbc;
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    char connstr[512];
    snprintf(connstr, sizeof connstr, "DSN=%s;LogLevel=3;LogFile=%s;RollbackOnError=%d", dsn,
             trace, level);
    fail_on(SQLDriverConnect(dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0, NULL,
                               SQL_DRIVER_NOPROMPT), SQL_HANDLE_DBC, dbc, "connect");
    fail_on(SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0),
            SQL_HANDLE_DBC, dbc, "autocommit off");
    return dbc;
}

/* Inserts one row with a statement of its own. */
static void insert_one(SQLHDBC dbc, long id)
{
    SQLHSTMT st;
    char sql[128];
    snprintf(sql, sizeof sql, "INSERT INTO accounts (id, owner) VALUES (%ld, 'single')", id);
    fail_on(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st), SQL_HANDLE_DBC, dbc, "alloc");
    fail_on(SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS), SQL_HANDLE_STMT, st, "single insert");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* An INSERT array of ids first .. first+rows-1 (the last one replaced by
 * dup when dup is not 0); checks the return code and the statuses: all
 * success without dup; with it, the last row failed with 23505 at its
 * number and the rows before it undone with the array (SQL_PARAM_ERROR). */
static void insert_array(SQLHDBC dbc, long first, int rows, long dup)
{
    SQLHSTMT st;
    fail_on(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st), SQL_HANDLE_DBC, dbc, "alloc");
    SQLBIGINT *ids = calloc((size_t)rows, sizeof *ids);
    char (*owners)[16] = calloc((size_t)rows, sizeof *owners);
    SQLLEN *ind = calloc((size_t)rows, sizeof *ind), *oind = calloc((size_t)rows, sizeof *oind);
    SQLUSMALLINT *status = calloc((size_t)rows, sizeof *status);
    for (int r = 0; r < rows; r++) {
        ids[r] = first + r;
        snprintf(owners[r], sizeof owners[r], "a%ld", (long)ids[r]);
        oind[r] = SQL_NTS;
    }
    if (dup != 0)
        ids[rows - 1] = dup;
    SQLULEN processed = 0;
    fail_on(SQLPrepare(st, (SQLCHAR *)"INSERT INTO accounts (id, owner) VALUES (?, ?)",
                         SQL_NTS), SQL_HANDLE_STMT, st, "prepare insert");
    SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)(SQLULEN)rows, 0);
    SQLSetStmtAttr(st, SQL_ATTR_PARAM_STATUS_PTR, status, 0);
    SQLSetStmtAttr(st, SQL_ATTR_PARAMS_PROCESSED_PTR, &processed, 0);
    SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0, ids, 0, ind);
    SQLBindParameter(st, 2, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 15, 0, owners, 16, oind);
    SQLRETURN rc = SQLExecute(st);
    if (dup == 0) {
        CHECK(rc == SQL_SUCCESS, "array of %d rows in a transaction: SQL_SUCCESS expected, "
              "got %d", rows, (int)rc);
        int bad = 0;
        for (int r = 0; r < rows; r++)
            bad += status[r] != SQL_PARAM_SUCCESS;
        CHECK(bad == 0 && processed == (SQLULEN)rows, "%d statuses not success, processed %lu",
              bad, (unsigned long)processed);
        SQLLEN count = 0;
        SQLRowCount(st, &count);
        CHECK(count == rows, "SQLRowCount gives %ld, expected %d", (long)count, rows);
    } else {
        CHECK(rc == SQL_ERROR, "a failing row in a transaction: SQL_ERROR expected, got %d",
              (int)rc);
        CHECK(status[rows - 1] == SQL_PARAM_ERROR && processed == (SQLULEN)rows,
              "the failing row's status %d, processed %lu", (int)status[rows - 1],
              (unsigned long)processed);
        /* The array is one statement for the rollback level: the rows
         * before the failing one are undone with it. */
        int other = 0;
        for (int r = 0; r < rows - 1; r++)
            other += status[r] != SQL_PARAM_ERROR;
        CHECK(other == 0, "%d rows before the failing one not SQL_PARAM_ERROR (undone)", other);
        SQLCHAR state[6] = "";
        SQLLEN row = 0;
        SQLGetDiagRec(SQL_HANDLE_STMT, st, 1, state, NULL, NULL, 0, NULL);
        SQLGetDiagField(SQL_HANDLE_STMT, st, 1, SQL_DIAG_ROW_NUMBER, &row, 0, NULL);
        CHECK(strcmp((char *)state, "23505") == 0 && row == rows,
              "the failing row's record: %s at row %ld, expected 23505 at %d", state,
              (long)row, rows);
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    free(ids); free(owners); free(ind); free(oind); free(status);
}

static void commit(SQLHDBC dbc)
{
    fail_on(SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_COMMIT), SQL_HANDLE_DBC, dbc, "commit");
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: global_arrays_txn DSN FIRST_ID ROWS TRACE_FILE\n");
        return 2;
    }
    long first = atol(argv[2]);
    int rows = atoi(argv[3]);
    SQLHENV env;
    SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env);
    SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);

    SQLHDBC dbc = connect_manual(env, argv[1], argv[4], 2);
    insert_array(dbc, first, rows, 0);
    commit(dbc);
    insert_one(dbc, first + 10L * rows);
    insert_array(dbc, first + rows, rows, first);
    insert_one(dbc, first + 10L * rows + 1);
    commit(dbc);
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);

    dbc = connect_manual(env, argv[1], argv[4], 1);
    insert_one(dbc, first + 10L * rows + 2);
    insert_array(dbc, first + 2L * rows, rows, first);
    commit(dbc);
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);

    /* Level 0: the failed member's transaction stays aborted; the commit
     * fails and nothing of the transaction stays. */
    dbc = connect_manual(env, argv[1], argv[4], 0);
    insert_one(dbc, first + 10L * rows + 3);
    insert_array(dbc, first + 3L * rows, rows, first);
    CHECK(SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_COMMIT) == SQL_ERROR,
          "level 0: the commit of an aborted transaction fails");
    SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_ROLLBACK);
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, env);

    char pipelined[64];
    snprintf(pipelined, sizeof pipelined, "parameter array of %d rows pipelined", rows);
    int arrays = trace_lines(argv[4], pipelined, "");
    int parses = trace_lines(argv[4], "pipeline prepare (unnamed): INSERT INTO accounts", "");
    int single = trace_lines(argv[4], "runs row by row", "");
    CHECK(arrays == 4 && parses == 8 && single == 0,
          "each array went as one pipeline per primary: %d arrays (4), %d parses (8: 2 "
          "members each), %d row-by-row runs", arrays, parses, single);
    if (*check_failures() == 0)
        printf("ok: arrays in transactions pipelined, failures undone as one statement\n");
    return *check_failures() == 0 ? 0 : 1;
}
