/*
 * An autocommit parameter array with a failing row, as psqlODBC runs it:
 * a prepared statement psqlODBC has prepared on the server by then (the
 * application described it with SQLNumResultCols or SQLDescribeParam, or
 * executed it one row at a time) goes row by row, each row its own
 * transaction: the rows before the failing one stay (SQL_PARAM_SUCCESS),
 * the failing row is SQL_PARAM_ERROR, SQLExecute returns SQL_ERROR.
 * Otherwise (not described, SQLPrepare again, SQLExecDirect) the rows go in
 * one batch (BatchSize, default 100) that the failing row undoes.
 * A global connection does the same on the member the rows go to
 * (docs/parameter-arrays.md).
 */
#include "st_test.h"

#define ROWS 4

typedef enum { PLAIN, NUM_RESULT_COLS, DESCRIBE_PARAM, RAN_ONE_ROW, PREPARED_AGAIN, DIRECT } how;

static const char *how_name[] = {
    "not described", "SQLNumResultCols first", "SQLDescribeParam first",
    "one row executed first", "described, then SQLPrepare again", "SQLExecDirect",
};

/* Runs the array 1, 2, 3, 1 (row 4 repeats row 1's key) on an empty table
 * after doing `h` to the statement; checks the rows that stay and the
 * statuses. */
static void run_case(st_conn *c, how h)
{
    const char *insert = "INSERT INTO array_after_describe VALUES (?)";
    st_exec(c, "DELETE FROM array_after_describe");
    SQLHSTMT s = st_stmt(c);
    SQLINTEGER one = 100;
    if (h != DIRECT)
        ST_OK(SQLPrepare(s, (SQLCHAR *)insert, SQL_NTS), s);
    if (h == NUM_RESULT_COLS || h == PREPARED_AGAIN) {
        SQLSMALLINT cols = -1;
        ST_OK(SQLNumResultCols(s, &cols), s);
        ST_CHECK(cols == 0, "%s: an INSERT has no result columns, got %d", how_name[h], cols);
    }
    if (h == DESCRIBE_PARAM) {
        SQLSMALLINT type, digits, nullable;
        SQLULEN size;
        ST_OK(SQLDescribeParam(s, 1, &type, &size, &digits, &nullable), s);
        ST_CHECK(type == SQL_INTEGER, "%s: parameter type %d", how_name[h], type);
    }
    if (h == RAN_ONE_ROW) {
        ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0,
                               &one, 0, NULL), s);
        ST_OK(SQLExecute(s), s);
        SQLFreeStmt(s, SQL_CLOSE);
    }
    if (h == PREPARED_AGAIN)
        ST_OK(SQLPrepare(s, (SQLCHAR *)insert, SQL_NTS), s);

    SQLINTEGER keys[ROWS] = { 1, 2, 3, 1 };
    SQLUSMALLINT status[ROWS];
    SQLULEN processed = 0;
    SQLSetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)ROWS, 0);
    SQLSetStmtAttr(s, SQL_ATTR_PARAM_STATUS_PTR, status, 0);
    SQLSetStmtAttr(s, SQL_ATTR_PARAMS_PROCESSED_PTR, &processed, 0);
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, keys, 0,
                           NULL), s);
    SQLRETURN rc = h == DIRECT ? SQLExecDirect(s, (SQLCHAR *)insert, SQL_NTS) : SQLExecute(s);

    int row_by_row = h == NUM_RESULT_COLS || h == DESCRIBE_PARAM || h == RAN_ONE_ROW;
    const char *want = row_by_row ? (h == RAN_ONE_ROW ? "1,2,3,100" : "1,2,3")
                                  : "<null>";
    const char *got = st_query_text(c, "SELECT string_agg(a::text, ',' ORDER BY a)"
                                       " FROM array_after_describe");
    ST_CHECK(strcmp(got, want) == 0, "%s: rows %s, wanted %s", how_name[h], got, want);
    ST_CHECK(rc == SQL_ERROR, "%s: SQLExecute returned %d", how_name[h], rc);
    ST_CHECK(st_has_state(SQL_HANDLE_STMT, s, "23505"), "%s: no 23505 record", how_name[h]);
    ST_CHECK(processed == ROWS, "%s: %lu rows processed", how_name[h], (unsigned long)processed);
    for (int r = 0; r < ROWS - 1; r++)
        ST_CHECK(status[r] == (row_by_row ? SQL_PARAM_SUCCESS : SQL_PARAM_ERROR),
                 "%s: row %d status %d", how_name[h], r + 1, status[r]);
    ST_CHECK(status[ROWS - 1] == SQL_PARAM_ERROR, "%s: failing row status %d", how_name[h],
             status[ROWS - 1]);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    st_exec(&c, "DROP TABLE IF EXISTS array_after_describe");
    st_exec(&c, "CREATE TABLE array_after_describe (a int PRIMARY KEY)");
    for (how h = PLAIN; h <= DIRECT; h++)
        run_case(&c, h);
    st_exec(&c, "DROP TABLE array_after_describe");
    st_disconnect(&c);
    return st_finish("array_after_describe");
}
