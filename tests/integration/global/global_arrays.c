/*
 * global_arrays: parameter arrays on a global connection (autocommit),
 * driven through the unixODBC driver manager against a 2-group cluster
 * whose accounts table is hash-sharded on id. Proves on the driver's side:
 * per-row statuses, SQL_DIAG_ROW_NUMBER of a failing row (which fails the
 * execution: SQL_ERROR, and undoes its window of psqlODBC's BatchSize
 * rows on every member, as a general connection's batch is undone),
 * SQL_PARAM_IGNORE,
 * row counts through SQLMoreResults in the application's row order across
 * members (an UPDATE whose rows touch 1 or 0 rows alternately), one result
 * set per row of a SELECT in row order, and from the trace that the
 * INSERT went window by window, each window's rows in one pipeline per
 * primary (one parse per window and primary, no single executions). The
 * calling script checks the servers.
 * usage: global_arrays DSN FIRST_ID ROWS TRACE_FILE
 *   inserts ids FIRST_ID .. FIRST_ID+ROWS-1 (owner 'a<id>'), except row 5
 *   (ignored) and the last row, which repeats the first row's id (23505);
 *   prints "undone: <id>" for each row its window's rollback undid.
 * usage: global_arrays DSN runs IDS_A IDS_B
 *   inserts 250 ids of group A's (comma list), then 250 of B's, the 451st
 *   row repeating the 261st's id (23505): windows 1-2 go to A's primary,
 *   3 across the groups, 4-5 to B's; checks that windows 1-4 ran and 5
 *   was undone, the rows after the failing one unused. Then, described
 *   first (SQLDescribeParam: psqlODBC runs it row by row), 200 rows
 *   alternating A's ids 251-350 and B's 251-350: all stored.
 */
#include <sql.h>
#include <sqlext.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "global_test.h"

/* The INSERT array: statuses, the failing row's number, the counts. */
static void insert_array(SQLHDBC dbc, long first, int rows)
{
    SQLHSTMT st;
    fail_on(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st), SQL_HANDLE_DBC, dbc, "alloc");
    SQLBIGINT *ids = calloc((size_t)rows, sizeof *ids);
    char (*owners)[16] = calloc((size_t)rows, sizeof *owners);
    SQLLEN *ind = calloc((size_t)rows, sizeof *ind), *oind = calloc((size_t)rows, sizeof *oind);
    SQLUSMALLINT *status = calloc((size_t)rows, sizeof *status);
    SQLUSMALLINT *operation = calloc((size_t)rows, sizeof *operation);
    for (int r = 0; r < rows; r++) {
        ids[r] = first + r;
        snprintf(owners[r], sizeof owners[r], "a%ld", (long)ids[r]);
        oind[r] = SQL_NTS;
        operation[r] = r == 4 ? SQL_PARAM_IGNORE : SQL_PARAM_PROCEED;
    }
    ids[rows - 1] = first;    /* a duplicate key: this row fails, with its window */
    SQLULEN processed = 0;
    fail_on(SQLPrepare(st, (SQLCHAR *)"INSERT INTO accounts (id, owner) VALUES (?, ?)",
                         SQL_NTS), SQL_HANDLE_STMT, st, "prepare insert");
    SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)(SQLULEN)rows, 0);
    SQLSetStmtAttr(st, SQL_ATTR_PARAM_STATUS_PTR, status, 0);
    SQLSetStmtAttr(st, SQL_ATTR_PARAM_OPERATION_PTR, operation, 0);
    SQLSetStmtAttr(st, SQL_ATTR_PARAMS_PROCESSED_PTR, &processed, 0);
    SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0, ids, 0, ind);
    SQLBindParameter(st, 2, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 15, 0, owners, 16, oind);
    SQLRETURN rc = SQLExecute(st);
    CHECK(rc == SQL_ERROR, "insert array: SQL_ERROR expected (a row failed), got %d", (int)rc);
    /* The last row's window of BATCH rows is one transaction across the
     * groups: all its rows are undone (SQL_PARAM_ERROR), on both. */
    enum { BATCH = 100 };    /* psqlODBC's default BatchSize */
    int window = (rows - 1) - (rows - 1) % BATCH;
    int bad = 0, undone = 0;
    for (int r = 0; r < rows; r++) {
        SQLUSMALLINT want = r == 4 ? SQL_PARAM_UNUSED
                          : r == rows - 1 ? SQL_PARAM_ERROR : SQL_PARAM_SUCCESS;
        if (r >= window && r < rows - 1 && status[r] == SQL_PARAM_ERROR) {
            printf("undone: %ld\n", (long)ids[r]);
            undone++;
            continue;
        }
        bad += status[r] != want;
    }
    CHECK(bad == 0 && processed == (SQLULEN)rows, "insert statuses: %d wrong, processed %lu",
          bad, (unsigned long)processed);
    CHECK(undone == rows - 1 - window,
          "the failing row's window undid %d of its %d other rows: it should undo them all, "
          "on every member", undone, rows - 1 - window);
    SQLCHAR state[6] = "";
    SQLLEN row = 0;
    SQLGetDiagRec(SQL_HANDLE_STMT, st, 1, state, NULL, NULL, 0, NULL);
    SQLGetDiagField(SQL_HANDLE_STMT, st, 1, SQL_DIAG_ROW_NUMBER, &row, 0, NULL);
    CHECK(strcmp((char *)state, "23505") == 0 && row == rows,
          "the failing row's record: %s at row %ld, expected 23505 at %d", state, (long)row,
          rows);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    free(ids); free(owners); free(ind); free(oind); free(status); free(operation);
}

/* An UPDATE array over both groups, every other key missing: the counts
 * come back 1, 0, 1, 0... in the application's row order. */
static void update_counts_in_row_order(SQLHDBC dbc, long first)
{
    enum { N = 12 };
    SQLHSTMT st;
    fail_on(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st), SQL_HANDLE_DBC, dbc, "alloc");
    SQLBIGINT ids[N];
    SQLLEN ind[N] = {0};
    for (int r = 0; r < N; r++)
        ids[r] = r % 2 == 0 ? first + 10 + r : -1 - r;
    SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)N, 0);
    SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0, ids, 0, ind);
    fail_on(SQLPrepare(st, (SQLCHAR *)"UPDATE accounts SET balance = balance + 1 WHERE id = ?",
                         SQL_NTS), SQL_HANDLE_STMT, st, "prepare update");
    fail_on(SQLExecute(st), SQL_HANDLE_STMT, st, "update array");
    SQLLEN count = 0, total = 0;
    SQLRowCount(st, &total);
    CHECK(total == N / 2, "update total %ld", (long)total);
    int wrong = 0;
    for (int r = 1; r < N; r++) {
        fail_on(SQLMoreResults(st), SQL_HANDLE_STMT, st, "more results");
        SQLRowCount(st, &count);
        wrong += count != (r % 2 == 0 ? 1 : 0);
    }
    CHECK(wrong == 0, "%d update counts out of row order", wrong);
    CHECK(SQLMoreResults(st) == SQL_NO_DATA, "no result after the last row");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* A SELECT array over both groups: one result set per row, in row order. */
static void select_sets_in_row_order(SQLHDBC dbc, long first)
{
    enum { N = 8 };
    SQLHSTMT st;
    fail_on(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st), SQL_HANDLE_DBC, dbc, "alloc");
    SQLBIGINT ids[N];
    SQLLEN ind[N] = {0};
    for (int r = 0; r < N; r++)
        ids[r] = first + 20 + 3 * r;
    SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)N, 0);
    SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0, ids, 0, ind);
    fail_on(SQLPrepare(st, (SQLCHAR *)"SELECT owner FROM accounts WHERE id = ?", SQL_NTS),
              SQL_HANDLE_STMT, st, "prepare select");
    fail_on(SQLExecute(st), SQL_HANDLE_STMT, st, "select array");
    int wrong = 0;
    for (int r = 0; r < N; r++) {
        char got[32] = "", want[32];
        SQLLEN len = 0;
        snprintf(want, sizeof want, "a%ld", (long)ids[r]);
        if (r > 0)
            fail_on(SQLMoreResults(st), SQL_HANDLE_STMT, st, "next set");
        fail_on(SQLFetch(st), SQL_HANDLE_STMT, st, "fetch");
        SQLGetData(st, 1, SQL_C_CHAR, got, sizeof got, &len);
        wrong += strcmp(got, want) != 0;
        CHECK(SQLFetch(st) == SQL_NO_DATA, "set %d has one row", r + 1);
    }
    CHECK(wrong == 0, "%d result sets out of row order", wrong);
    CHECK(SQLMoreResults(st) == SQL_NO_DATA, "no set after the last row");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* Runs an INSERT array of N rows with ids from ids, owner `owner`, sent
 * with SQLExecDirect; returns its return code, *ran the rows it says ran. */
static SQLRETURN direct_insert_array(SQLHDBC dbc, SQLBIGINT *ids, int n, const char *owner,
                                     int *ran)
{
    SQLHSTMT st;
    fail_on(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st), SQL_HANDLE_DBC, dbc, "alloc");
    SQLUSMALLINT status[16];
    SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)(SQLULEN)n, 0);
    SQLSetStmtAttr(st, SQL_ATTR_PARAM_STATUS_PTR, status, 0);
    SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0, ids, 0, NULL);
    char sql[96];
    snprintf(sql, sizeof sql, "INSERT INTO accounts (owner, id) VALUES ('%s', ?)", owner);
    SQLRETURN rc = SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS);
    *ran = 0;
    for (int r = 0; r < n; r++)
        *ran += status[r] == SQL_PARAM_SUCCESS;
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return rc;
}

/* An INSERT array sent with SQLExecDirect is routed by its rows' keys, as a
 * prepared one, whatever DirectExecuteRouting says: its window is one
 * transaction on the rows' owners. By policy, a row of another group would
 * be written through postgres_fdw, which commits atomically only as a
 * transaction of its own: the rows before a failing one stayed, where a
 * general connection's batch undoes them. The script checks on the
 * servers that every row ran on its owner's primary and which stayed. */
static void direct_array_by_key(SQLHDBC dbc, long first)
{
    enum { N = 12 };
    SQLBIGINT ids[N];
    for (int r = 0; r < N; r++)
        ids[r] = first + r;
    int ran;
    SQLRETURN rc = direct_insert_array(dbc, ids, N, "direct", &ran);
    CHECK(rc == SQL_SUCCESS && ran == N, "direct array: rc %d, %d of %d rows ran", (int)rc,
          ran, N);
    /* The last row repeats the first: the window fails and is undone. */
    for (int r = 0; r < N; r++)
        ids[r] = first + N + r;
    ids[N - 1] = ids[0];
    rc = direct_insert_array(dbc, ids, N, "direct-undone", &ran);
    CHECK(rc == SQL_ERROR && ran == 0, "direct array with a duplicate last row: rc %d, %d "
          "rows said to have run (its window is undone)", (int)rc, ran);
}

/* Reads n ids from the comma list text into ids; false when it has fewer. */
static bool read_ids(const char *text, SQLBIGINT *ids, int n)
{
    for (int i = 0; i < n; i++) {
        char *end;
        ids[i] = strtoll(text, &end, 10);
        if (end == text)
            return false;
        text = *end == ',' ? end + 1 : end;
    }
    return true;
}

/* Windows on one member and across: 250 rows of group A, then 250 of B,
 * the 451st failing (it repeats the 261st's id). Windows 1-4 (rows
 * 1-400) stay, window 5's rows before the failing one are undone, and
 * the rows after it are not run. */
static void runs_on_one_member(SQLHDBC dbc, const char *ids_a, const char *ids_b)
{
    enum { HALF = 250, N = 2 * HALF, FAILING = 450, REPEATED = 260 };
    SQLBIGINT ids[N];
    SQLUSMALLINT status[N];
    if (!read_ids(ids_a, ids, HALF) || !read_ids(ids_b, ids + HALF, HALF)) {
        fprintf(stderr, "FAIL: runs: %d ids of each group expected\n", HALF);
        exit(2);
    }
    ids[FAILING] = ids[REPEATED];
    SQLHSTMT st;
    fail_on(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st), SQL_HANDLE_DBC, dbc, "alloc");
    SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)(SQLULEN)N, 0);
    SQLSetStmtAttr(st, SQL_ATTR_PARAM_STATUS_PTR, status, 0);
    SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0, ids, 0, NULL);
    fail_on(SQLPrepare(st, (SQLCHAR *)"INSERT INTO accounts (id, owner, balance) "
                       "VALUES (?, 'run', 0)", SQL_NTS), SQL_HANDLE_STMT, st, "prepare");
    SQLRETURN rc = SQLExecute(st);
    CHECK(rc == SQL_ERROR, "runs: SQL_ERROR expected (a row failed), got %d", (int)rc);
    int bad = 0;
    for (int r = 0; r < N; r++) {
        SQLUSMALLINT want = r < 400 ? SQL_PARAM_SUCCESS
                          : r <= FAILING ? SQL_PARAM_ERROR : SQL_PARAM_UNUSED;
        if (status[r] != want && bad++ < 3)
            fprintf(stderr, "runs: row %d has status %d, expected %d\n", r + 1,
                    (int)status[r], (int)want);
    }
    CHECK(bad == 0, "runs: %d of %d statuses wrong", bad, N);
    SQLCHAR state[6] = "";
    SQLLEN row = 0;
    SQLGetDiagRec(SQL_HANDLE_STMT, st, 1, state, NULL, NULL, 0, NULL);
    SQLGetDiagField(SQL_HANDLE_STMT, st, 1, SQL_DIAG_ROW_NUMBER, &row, 0, NULL);
    CHECK(strcmp((char *)state, "23505") == 0 && row == FAILING + 1,
          "runs: the failing row's record: %s at row %ld, expected 23505 at %d", state,
          (long)row, FAILING + 1);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* A described INSERT (windows of one row, as psqlODBC runs it row by
 * row) of 200 rows alternating between the groups: every row stored;
 * the servers say how (global_arrays.sh). */
static void described_rows_alternating(SQLHDBC dbc, const char *ids_a, const char *ids_b)
{
    enum { USED = 250, HALF = 100, N = 2 * HALF };
    SQLBIGINT a[USED + HALF], b[USED + HALF], ids[N];
    SQLUSMALLINT status[N];
    if (!read_ids(ids_a, a, USED + HALF) || !read_ids(ids_b, b, USED + HALF)) {
        fprintf(stderr, "FAIL: described: %d ids of each group expected\n", USED + HALF);
        exit(2);
    }
    for (int r = 0; r < N; r++)
        ids[r] = r % 2 == 0 ? a[USED + r / 2] : b[USED + r / 2];
    SQLHSTMT st;
    fail_on(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st), SQL_HANDLE_DBC, dbc, "alloc");
    fail_on(SQLPrepare(st, (SQLCHAR *)"INSERT INTO accounts (owner, id) VALUES ('described', ?)",
                       SQL_NTS), SQL_HANDLE_STMT, st, "prepare");
    SQLSMALLINT type = 0, digits = 0, nullable = 0;
    SQLULEN size = 0;
    fail_on(SQLDescribeParam(st, 1, &type, &size, &digits, &nullable), SQL_HANDLE_STMT, st,
            "describe");
    SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)(SQLULEN)N, 0);
    SQLSetStmtAttr(st, SQL_ATTR_PARAM_STATUS_PTR, status, 0);
    SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0, ids, 0, NULL);
    fail_on(SQLExecute(st), SQL_HANDLE_STMT, st, "described array");
    int ran = 0;
    for (int r = 0; r < N; r++)
        ran += status[r] == SQL_PARAM_SUCCESS;
    CHECK(ran == N, "described: %d of %d rows SQL_PARAM_SUCCESS", ran, N);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* Connects to dsn, its trace written to the file trace unless NULL. */
static SQLHDBC connect_traced(SQLHENV env, const char *dsn, const char *trace)
{
    SQLHDBC dbc;
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    char connstr[512];
    if (trace != NULL)
        snprintf(connstr, sizeof connstr, "DSN=%s;LogLevel=3;LogFile=%s", dsn, trace);
    else
        snprintf(connstr, sizeof connstr, "DSN=%s", dsn);
    fail_on(SQLDriverConnect(dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0, NULL,
                               SQL_DRIVER_NOPROMPT), SQL_HANDLE_DBC, dbc, "connect");
    return dbc;
}

int main(int argc, char **argv)
{
    bool runs = argc == 5 && strcmp(argv[2], "runs") == 0;
    if (argc != 5) {
        fprintf(stderr, "usage: global_arrays DSN FIRST_ID ROWS TRACE_FILE\n"
                        "       global_arrays DSN runs IDS_A IDS_B\n");
        return 2;
    }
    SQLHENV env;
    SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env);
    SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
    if (runs) {
        SQLHDBC dbc = connect_traced(env, argv[1], NULL);
        runs_on_one_member(dbc, argv[3], argv[4]);
        described_rows_alternating(dbc, argv[3], argv[4]);
        SQLDisconnect(dbc);
        SQLFreeHandle(SQL_HANDLE_DBC, dbc);
        SQLFreeHandle(SQL_HANDLE_ENV, env);
        if (*check_failures() == 0)
            printf("ok: windows on one member and across, a described array, statuses\n");
        return *check_failures() == 0 ? 0 : 1;
    }
    long first = atol(argv[2]);
    int rows = atoi(argv[3]);
    SQLHDBC dbc = connect_traced(env, argv[1], argv[4]);
    insert_array(dbc, first, rows);
    update_counts_in_row_order(dbc, first);
    select_sets_in_row_order(dbc, first);
    direct_array_by_key(dbc, first + 1000);
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    char pipelined[64];
    snprintf(pipelined, sizeof pipelined, "parameter array of %d rows pipelined", rows);
    int arrays = trace_lines(argv[4], pipelined, "");
    int windows = trace_lines(argv[4], "a transaction per window", "");
    int parses = trace_lines(argv[4], "pipeline prepare ",
                             ": INSERT INTO accounts (id, owner) VALUES ($1, $2)");
    int single = trace_lines(argv[4], "INSERT INTO accounts", "parameters)");
    int n_windows = (rows + 99) / 100;
    CHECK(arrays == 1 && windows == 4 && parses == 2 * n_windows && single == 0,
          "the insert array went window by window (the INSERT's, the UPDATE's and the two "
          "direct arrays': %d), each "
          "window as one pipeline per primary: %d arrays, %d parses (%d windows x 2 "
          "primaries), %d single executions", windows, arrays, parses, n_windows, single);
    if (*check_failures() == 0)
        printf("ok: array statuses, row numbers, counts and sets in row order\n");
    return *check_failures() == 0 ? 0 : 1;
}
