/*
 * An integer parameter compared with a text column (`WHERE t = ?` with
 * pyodbc's int: declared int4, the server has no operator text = integer,
 * 42883) is sent again with its type left to the server, which reads it as
 * text, as psqlODBC sends it: in autocommit and inside a transaction, whose
 * earlier work stays. A function that does not exist for any type is still
 * 42883, and at RollbackOnError=0 the refusal that aborted the transaction
 * stands.
 */
#include "st_test.h"

/* Runs sql with the integer v bound; SQLExecDirect's return code. */
static SQLRETURN exec_int(SQLHSTMT s, const char *sql, SQLINTEGER *v)
{
    SQLFreeStmt(s, SQL_CLOSE);
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, v, 0, NULL),
          s);
    return SQLExecDirect(s, (SQLCHAR *)sql, SQL_NTS);
}

/* The one integer s returns. */
static SQLINTEGER fetch_int(SQLHSTMT s)
{
    SQLINTEGER n = -1;
    ST_OK(SQLFetch(s), s);
    ST_OK(SQLGetData(s, 1, SQL_C_SLONG, &n, 0, NULL), s);
    SQLFreeStmt(s, SQL_CLOSE);
    return n;
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    st_exec(&c, "drop table if exists op_retry");
    st_exec(&c, "create table op_retry (t text)");
    st_exec(&c, "insert into op_retry values ('5'), ('6')");
    SQLHSTMT s = st_stmt(&c);
    SQLINTEGER five = 5;

    ST_OK(exec_int(s, "select count(*) from op_retry where t = ?", &five), s);
    ST_CHECK(fetch_int(s) == 1, "autocommit: one row is '5'");

    /* In a transaction: the refusal is taken back, the earlier insert stays. */
    SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0);
    st_exec(&c, "insert into op_retry values ('5')");
    ST_OK(exec_int(s, "select count(*) from op_retry where t = ?", &five), s);
    ST_CHECK(fetch_int(s) == 2, "in a transaction: two rows are '5'");
    /* No function of that name at all: the server's 42883 either way, and
     * the transaction goes on. */
    ST_EXPECT_STATE(exec_int(s, "select no_such_function_op_retry(?)", &five), s, "42883");
    SQLFreeStmt(s, SQL_CLOSE);
    ST_OK(SQLEndTran(SQL_HANDLE_DBC, c.dbc, SQL_COMMIT), s);
    SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0);
    const char *rows = st_query_text(&c, "select count(*) from op_retry");
    ST_CHECK(strcmp(rows, "3") == 0, "rows after commit: %s", rows);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);

    /* RollbackOnError=0: the refusal aborted the open transaction; it stands. */
    st_connect_with(&c, "RollbackOnError=0");
    s = st_stmt(&c);
    SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0);
    st_exec(&c, "insert into op_retry values ('7')");
    ST_EXPECT_STATE(exec_int(s, "select count(*) from op_retry where t = ?", &five), s,
                    "42883");
    SQLEndTran(SQL_HANDLE_DBC, c.dbc, SQL_ROLLBACK);
    SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_exec(&c, "drop table op_retry");
    st_disconnect(&c);
    return st_finish("operator_type_retry");
}
