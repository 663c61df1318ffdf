/*
 * ODBC 3: SQLExecute / SQLExecDirect of a searched UPDATE or DELETE (and an
 * INSERT ... SELECT or MERGE) that changes no row return SQL_NO_DATA, and
 * SQLRowCount then says 0. Not for a statement that changed rows, a SELECT
 * without rows, a batch with a result after it, a parameter array of several
 * rows (SQL_SUCCESS, as psqlODBC), nor for an ODBC 2 application
 * (SQL_SUCCESS). Errors stay SQL_ERROR.
 */
#include "st_test.h"

#define EXPECT_RC(call, s, want)                                                  \
    do {                                                                          \
        SQLRETURN rc_ = (call);                                                   \
        ST_CHECK(rc_ == (want), "%s: rc=%d, wanted %d", #call, (int)rc_, (int)(want)); \
        if (rc_ != (want))                                                        \
            st_dump_diag(SQL_HANDLE_STMT, s);                                     \
    } while (0)

static void odbc3(void)
{
    st_conn c;
    st_connect(&c);
    st_exec(&c, "drop table if exists nd_t");
    st_exec(&c, "create table nd_t (id int primary key, v text)");
    st_exec(&c, "insert into nd_t values (1, 'a'), (2, 'b')");
    SQLHSTMT s = st_stmt(&c);

    EXPECT_RC(st_run(s, "update nd_t set v = 'x' where id = 99"), s, SQL_NO_DATA);
    ST_CHECK(st_row_count(s) == 0, "row count after SQL_NO_DATA");
    EXPECT_RC(st_run(s, "delete from nd_t where id < 0"), s, SQL_NO_DATA);
    EXPECT_RC(st_run(s, "insert into nd_t select * from nd_t where false"), s, SQL_NO_DATA);
    EXPECT_RC(st_run(s, "insert into nd_t values (1, 'a') on conflict do nothing"), s, SQL_NO_DATA);
    EXPECT_RC(st_run(s, "merge into nd_t t using (select 7 as id) n on t.id = n.id "
                     "when matched then delete"), s, SQL_NO_DATA);
    /* Rows changed, rows returned, or another result to come: success. */
    EXPECT_RC(st_run(s, "update nd_t set v = 'y' where id = 1"), s, SQL_SUCCESS);
    ST_CHECK(st_row_count(s) == 1, "one row updated");
    EXPECT_RC(st_run(s, "select * from nd_t where false"), s, SQL_SUCCESS);
    /* (In a transaction: a global connection sends an autocommit write
     * with its transaction id, which takes one statement only.) */
    SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0);
    EXPECT_RC(st_run(s, "update nd_t set v = 'x' where id = 99; select 1"), s, SQL_SUCCESS);
    EXPECT_RC(SQLMoreResults(s), s, SQL_SUCCESS);
    SQLFreeStmt(s, SQL_CLOSE);
    SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0);
    EXPECT_RC(st_run(s, "comment on table nd_t is 'no data test'"), s, SQL_SUCCESS);
    ST_CHECK(st_row_count(s) == -1, "COMMENT has no count: %ld", (long)st_row_count(s));
    EXPECT_RC(st_run(s, "create index nd_t_v on nd_t (v)"), s, SQL_SUCCESS);
    ST_CHECK(st_row_count(s) == 0, "CREATE INDEX counts 0, as psqlODBC: %ld",
             (long)st_row_count(s));
    EXPECT_RC(st_run(s, "drop index nd_t_v"), s, SQL_SUCCESS);
    /* An error stays an error. */
    ST_EXPECT_STATE(st_run(s, "update no_such_table set v = 1"), s, "42P01");

    /* Prepared, with a parameter; and a parameter array. */
    SQLINTEGER ids[3] = { 99, 98, 97 };
    SQLFreeStmt(s, SQL_CLOSE);
    ST_OK(SQLPrepare(s, (SQLCHAR *)"delete from nd_t where id = ?", SQL_NTS), s);
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, ids, 0, NULL),
          s);
    EXPECT_RC(SQLExecute(s), s, SQL_NO_DATA);
    /* An array of several rows that changed nothing succeeds, as through
     * psqlODBC: programs check an array's execute for SQL_SUCCESS. */
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)3, 0), s);
    EXPECT_RC(SQLExecute(s), s, SQL_SUCCESS);
    ST_CHECK(st_row_count(s) == 0, "array of no change counts 0: %ld", (long)st_row_count(s));
    ids[1] = 2;
    EXPECT_RC(SQLExecute(s), s, SQL_SUCCESS);
    ST_CHECK(st_row_count(s) == 1, "array deleted one row");
    /* (Row 2 is gone now: the same array changes nothing, executed directly.) */
    EXPECT_RC(SQLExecDirect(s, (SQLCHAR *)"update nd_t set v = 'y' where id = ?", SQL_NTS), s,
              SQL_SUCCESS);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)1, 0), s);

    /* Data at execution: the SQLParamData that runs it. */
    SQLLEN at_exec = SQL_DATA_AT_EXEC;
    SQLFreeStmt(s, SQL_RESET_PARAMS);
    ST_OK(SQLPrepare(s, (SQLCHAR *)"update nd_t set v = 'z' where v = ?", SQL_NTS), s);
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 10, 0,
                           (SQLPOINTER)1, 0, &at_exec), s);
    EXPECT_RC(SQLExecute(s), s, SQL_NEED_DATA);
    SQLPOINTER token;
    EXPECT_RC(SQLParamData(s, &token), s, SQL_NEED_DATA);
    ST_OK(SQLPutData(s, "nothing", SQL_NTS), s);
    EXPECT_RC(SQLParamData(s, &token), s, SQL_NO_DATA);

    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_exec(&c, "drop table nd_t");
    st_disconnect(&c);
}

/* An ODBC 2 application gets SQL_SUCCESS and a row count of 0. */
static void odbc2(void)
{
    SQLHENV env;
    SQLHDBC dbc;
    SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env);
    SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC2, 0);
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    char connstr[256];
    snprintf(connstr, sizeof connstr, "DSN=%s", getenv("GC_TEST_DSN"));
    SQLRETURN rc = SQLDriverConnect(dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0, NULL,
                                    SQL_DRIVER_NOPROMPT);
    ST_CHECK(ST_SUCCEEDED(rc), "ODBC 2 connect rc=%d", (int)rc);
    SQLHSTMT s;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &s);
    st_run(s, "drop table if exists nd_t2");
    EXPECT_RC(st_run(s, "create table nd_t2 (id int)"), s, SQL_SUCCESS);
    EXPECT_RC(st_run(s, "update nd_t2 set id = 1 where id = 2"), s, SQL_SUCCESS);
    ST_CHECK(st_row_count(s) == 0, "ODBC 2 row count");
    EXPECT_RC(st_run(s, "drop table nd_t2"), s, SQL_SUCCESS);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
}

int main(void)
{
    odbc3();
    odbc2();
    return st_finish("no_data");
}
