/*
 * A parameter declared with a type the server cannot cast to the column's
 * (a real, declared float4, into money: 42804) is sent again with its type
 * left to the server, as psqlODBC sends numbers: by SQLExecDirect and SQLPrepare, in
 * autocommit and in a transaction, one row or a parameter array (sent
 * again whole: every row once). With RollbackOnError=0 in a
 * transaction the refusal has aborted the transaction, so it stands (no
 * silent second try in a transaction that is gone).
 */
#include "st_test.h"

static void bind_real(SQLHSTMT s, SQLUSMALLINT n, float *v)
{
    ST_OK(SQLBindParameter(s, n, SQL_PARAM_INPUT, SQL_C_FLOAT, SQL_REAL, 7, 0, v, 0, NULL), s);
}

#define ARRAY_ROWS 3

/* Inserts `amounts` into money as one parameter array by SQLExecDirect;
 * the execution's return code, its row statuses in status. The statement
 * keeps the array until single_rows. */
static SQLRETURN insert_real_array(SQLHSTMT s, float *amounts, SQLUSMALLINT *status,
                                   SQLULEN *processed)
{
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)(SQLULEN)ARRAY_ROWS, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAM_STATUS_PTR, status, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMS_PROCESSED_PTR, processed, 0), s);
    bind_real(s, 1, amounts);
    return SQLExecDirect(s, (SQLCHAR *)"insert into stmt_retry(m) values (?)", SQL_NTS);
}

/* Back to one row per execution, parameter 1 bound to *v. */
static void single_rows(SQLHSTMT s, float *v)
{
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)(SQLULEN)1, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAM_STATUS_PTR, NULL, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMS_PROCESSED_PTR, NULL, 0), s);
    bind_real(s, 1, v);
}

static void expect_array_ran(SQLHSTMT s, SQLRETURN rc, const SQLUSMALLINT *status,
                             SQLULEN processed, const char *when)
{
    if (rc != SQL_SUCCESS)
        st_dump_diag(SQL_HANDLE_STMT, s);
    ST_CHECK(rc == SQL_SUCCESS && processed == ARRAY_ROWS && status[0] == SQL_PARAM_SUCCESS &&
                 status[1] == SQL_PARAM_SUCCESS && status[2] == SQL_PARAM_SUCCESS,
             "%s: rc %d, %lu processed, statuses %u %u %u", when, rc, (unsigned long)processed,
             status[0], status[1], status[2]);
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    st_exec(&c, "drop table if exists stmt_retry");
    st_exec(&c, "create table stmt_retry(id serial, m money)");
    SQLHSTMT s = st_stmt(&c);
    float amount = 1234.56f;

    /* Direct, autocommit. */
    bind_real(s, 1, &amount);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"insert into stmt_retry(m) values (?)", SQL_NTS), s);
    /* Prepared, executed twice (the second reuses the untyped statement). */
    ST_OK(SQLPrepare(s, (SQLCHAR *)"insert into stmt_retry(m) values (?)", SQL_NTS), s);
    amount = -2.5f;
    ST_OK(SQLExecute(s), s);
    amount = 7.25f;
    ST_OK(SQLExecute(s), s);
    /* A declared real still works where the text computes with it. */
    SQLLEN ind = 0;
    char got[32];
    amount = 1.5f;
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select ? * 2", SQL_NTS), s);
    ST_OK(SQLFetch(s), s);
    ST_OK(SQLGetData(s, 1, SQL_C_CHAR, got, sizeof got, &ind), s);
    ST_CHECK(strcmp(got, "3") == 0, "1.5 * 2 is '%s'", got);
    ST_OK(SQLFreeStmt(s, SQL_CLOSE), s);

    /* A parameter array, autocommit: every row once. */
    float amounts[ARRAY_ROWS] = { 10.25f, 20.5f, 30.75f };
    SQLUSMALLINT status[ARRAY_ROWS];
    SQLULEN processed = 0;
    SQLRETURN rc = insert_real_array(s, amounts, status, &processed);
    expect_array_ran(s, rc, status, processed, "array, autocommit");
    single_rows(s, &amount);
    const char *count = st_query_text(&c, "select count(*) from stmt_retry");
    ST_CHECK(strcmp(count, "6") == 0, "3 single rows and 3 of the array, not %s", count);

    /* In a transaction (the default rollback level): the earlier insert stays. */
    ST_OK(SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0),
          c.dbc);
    st_exec(&c, "insert into stmt_retry(m) values (100)");
    amount = 0.5f;
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"insert into stmt_retry(m) values (?)", SQL_NTS), s);
    float more[ARRAY_ROWS] = { 1.0f, 1.25f, 0.75f };
    rc = insert_real_array(s, more, status, &processed);
    expect_array_ran(s, rc, status, processed, "array, in a transaction");
    single_rows(s, &amount);
    ST_OK(SQLEndTran(SQL_HANDLE_DBC, c.dbc, SQL_COMMIT), c.dbc);
    ST_OK(SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0),
          c.dbc);
    const char *sum = st_query_text(&c, "select sum(m::numeric) from stmt_retry");
    ST_CHECK(strcmp(sum, "1404.31") == 0, "the amounts add up to %s", sum);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);

    /* RollbackOnError=0 in a transaction: the refusal aborted it; it stands. */
    st_connect_with(&c, "RollbackOnError=0");
    s = st_stmt(&c);
    ST_OK(SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0),
          c.dbc);
    st_exec(&c, "insert into stmt_retry(m) values (1)");
    bind_real(s, 1, &amount);
    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)"insert into stmt_retry(m) values (?)", SQL_NTS),
                    s, "42804");
    ST_OK(SQLEndTran(SQL_HANDLE_DBC, c.dbc, SQL_ROLLBACK), c.dbc);
    st_exec(&c, "insert into stmt_retry(m) values (1)");
    rc = insert_real_array(s, amounts, status, &processed);
    ST_CHECK(rc == SQL_ERROR && st_has_state(SQL_HANDLE_STMT, s, "42804") &&
                 status[0] == SQL_PARAM_ERROR,
             "array with RollbackOnError=0 in a transaction: rc %d, status %u", rc, status[0]);
    ST_OK(SQLEndTran(SQL_HANDLE_DBC, c.dbc, SQL_ROLLBACK), c.dbc);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);

    st_connect(&c);
    st_exec(&c, "drop table stmt_retry");
    st_disconnect(&c);
    return st_finish("declared_type_retry");
}
