/*
 * SQL_BIT parameters (pyodbc binds Python's True and False so) go as 1 and 0,
 * as psqlODBC sends them: a boolean column takes them, and so does an
 * integer column, which refuses the declared bool (42804) and gets the value
 * again with its type left to the server: in autocommit, as the first
 * statement of a transaction, and inside one whose savepoint takes the
 * refusal back. A bit that is neither is refused before anything is sent
 * (22003).
 */
#include "st_test.h"

static SQLRETURN exec_bit(SQLHSTMT s, const char *sql, SQLCHAR *bit)
{
    SQLFreeStmt(s, SQL_CLOSE);
    SQLFreeStmt(s, SQL_RESET_PARAMS);
    SQLRETURN rc = SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_BIT, SQL_BIT, 1, 0, bit, 0,
                                    NULL);
    ST_OK(rc, s);
    return SQLExecDirect(s, (SQLCHAR *)sql, SQL_NTS);
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    st_exec(&c, "drop table if exists bit_t");
    st_exec(&c, "create table bit_t (n int, b boolean)");
    SQLHSTMT s = st_stmt(&c);
    SQLCHAR one = 1, zero = 0, two = 2;

    ST_OK(exec_bit(s, "insert into bit_t (n) values (?)", &one), s);
    ST_OK(exec_bit(s, "insert into bit_t (n) values (?)", &zero), s);
    ST_OK(exec_bit(s, "insert into bit_t (b) values (?)", &one), s);
    ST_OK(exec_bit(s, "insert into bit_t (b) values (?)", &zero), s);
    const char *got = st_query_text(&c, "select string_agg(coalesce(n::text, b::text), ',' "
                                        "order by ctid) from bit_t");
    ST_CHECK(strcmp(got, "1,0,true,false") == 0, "rows: %s", got);

    /* With autocommit off: as the first statement of a transaction (the
     * refusal loses nothing) and inside an open one (the statement's
     * savepoint takes the refusal back). */
    SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0);
    ST_OK(exec_bit(s, "insert into bit_t (n) values (?)", &one), s);
    ST_OK(exec_bit(s, "insert into bit_t (b) values (?)", &zero), s);
    ST_OK(exec_bit(s, "insert into bit_t (n) values (?)", &one), s);
    ST_OK(SQLEndTran(SQL_HANDLE_DBC, c.dbc, SQL_COMMIT), s);
    SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0);
    got = st_query_text(&c, "select count(*) from bit_t where n = 1");
    ST_CHECK(strcmp(got, "3") == 0, "n = 1 rows: %s", got);

    /* Compared with a boolean column. */
    ST_OK(exec_bit(s, "select count(*) from bit_t where b = ?", &one), s);
    SQLINTEGER count = -1;
    ST_OK(SQLFetch(s), s);
    ST_OK(SQLGetData(s, 1, SQL_C_SLONG, &count, 0, NULL), s);
    ST_CHECK(count == 1, "b = true rows: %d", (int)count);
    /* A bit of 2 is no bit. */
    ST_EXPECT_STATE(exec_bit(s, "insert into bit_t (n) values (?)", &two), s, "22003");

    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);

    /* RollbackOnError=1 inside an open transaction: the refusal rolled the
     * whole transaction back, so it stands (no silent second try in a
     * transaction that is gone). */
    st_connect_with(&c, "RollbackOnError=1");
    s = st_stmt(&c);
    SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0);
    ST_OK(exec_bit(s, "insert into bit_t (b) values (?)", &one), s);
    ST_EXPECT_STATE(exec_bit(s, "insert into bit_t (n) values (?)", &one), s, "42804");
    SQLEndTran(SQL_HANDLE_DBC, c.dbc, SQL_COMMIT);
    SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0);
    got = st_query_text(&c, "select count(*) from bit_t");
    ST_CHECK(strcmp(got, "7") == 0, "rows after the lost transaction: %s", got);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_exec(&c, "drop table bit_t");
    st_disconnect(&c);
    return st_finish("bit_params");
}
