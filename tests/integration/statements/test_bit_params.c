/*
 * SQL_BIT parameters (pyodbc binds Python's True and False so) go as 1 and 0
 * with their type left to the server, as psqlODBC sends them: a boolean
 * column takes them, an integer column, and a character one as `1` and `0`
 * (char(1) too): in autocommit, as the first statement of a transaction, and
 * inside one. Where the server cannot infer the type (42P18: `SELECT
 * pg_typeof(?)`), the value goes again declared bool, and character data
 * declared text: one execution, a prepared statement run twice, a parameter
 * array. A bit that is neither is refused before anything is sent (22003).
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

/* Runs the prepared statement, its parameters bound, and gives its first
 * column's text. */
static const char *execute_text(SQLHSTMT s)
{
    static char text[64];
    text[0] = '\0';
    SQLLEN len = 0;
    ST_OK(SQLExecute(s), s);
    ST_OK(SQLFetch(s), s);
    ST_OK(SQLGetData(s, 1, SQL_C_CHAR, text, sizeof text, &len), s);
    SQLFreeStmt(s, SQL_CLOSE);
    return text;
}

static const char *execute_bit_text(SQLHSTMT s, SQLCHAR *bit)
{
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_BIT, SQL_BIT, 1, 0, bit, 0, NULL), s);
    return execute_text(s);
}

static void prepare(SQLHSTMT s, const char *sql)
{
    SQLFreeStmt(s, SQL_CLOSE);
    SQLFreeStmt(s, SQL_RESET_PARAMS);
    ST_OK(SQLPrepare(s, (SQLCHAR *)sql, SQL_NTS), s);
}

/* Where the server cannot tell a value's type from the text (42P18), it
 * is declared after all: a bit as bool, character data as text. */
static void uninferred_types_declared(st_conn *c, SQLHSTMT s)
{
    SQLCHAR one = 1, zero = 0;
    prepare(s, "select pg_typeof(?)::text");
    const char *got = execute_bit_text(s, &one);
    ST_CHECK(strcmp(got, "boolean") == 0, "pg_typeof of a bit: %s", got);
    got = execute_bit_text(s, &zero);     /* prepared with the type learnt */
    ST_CHECK(strcmp(got, "boolean") == 0, "pg_typeof of a bit, again: %s", got);
    prepare(s, "select jsonb_build_object('k', ?)::text");
    got = execute_bit_text(s, &one);
    ST_CHECK(strcmp(got, "{\"k\": true}") == 0, "json of a bit: %s", got);

    prepare(s, "select jsonb_build_object('w', ?)::text");
    char word[] = "x";
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 10, 0, word,
                           sizeof word, NULL), s);
    got = execute_text(s);
    ST_CHECK(strcmp(got, "{\"w\": \"x\"}") == 0, "json of a word: %s", got);
    SQLFreeStmt(s, SQL_RESET_PARAMS);

    /* A parameter array: sent again whole with the bit declared. */
    st_exec(c, "drop table if exists bit_j");
    st_exec(c, "create table bit_j (n int, j text)");
    SQLINTEGER ns[2] = { 1, 2 };
    SQLCHAR bits[2] = { 1, 0 };
    SQLUSMALLINT status[2] = { 9, 9 };
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)2, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAM_STATUS_PTR, status, 0), s);
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, ns, 0, NULL), s);
    ST_OK(SQLBindParameter(s, 2, SQL_PARAM_INPUT, SQL_C_BIT, SQL_BIT, 1, 0, bits, 0, NULL), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"insert into bit_j values (?, jsonb_build_object('k', ?))",
                        SQL_NTS), s);
    ST_CHECK(status[0] == SQL_PARAM_SUCCESS && status[1] == SQL_PARAM_SUCCESS,
             "array statuses %d %d", status[0], status[1]);
    got = st_query_text(c, "select string_agg(j, ',' order by n) from bit_j");
    ST_CHECK(strcmp(got, "{\"k\": true},{\"k\": false}") == 0, "array rows: %s", got);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)1, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAM_STATUS_PTR, NULL, 0), s);
    SQLFreeStmt(s, SQL_RESET_PARAMS);
    st_exec(c, "drop table bit_j");
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
    /* A character column gets 1 and 0, as through psqlODBC (a bit declared
     * bool would reach char(1) as `true`: 22001). */
    st_exec(&c, "drop table if exists bit_c");
    st_exec(&c, "create table bit_c (f char(1), v varchar(5))");
    ST_OK(exec_bit(s, "insert into bit_c (f) values (?)", &one), s);
    ST_OK(exec_bit(s, "insert into bit_c (v) values (?)", &zero), s);
    got = st_query_text(&c, "select string_agg(coalesce(f, v), ',' order by ctid) from bit_c");
    ST_CHECK(strcmp(got, "1,0") == 0, "character rows: %s", got);
    st_exec(&c, "drop table bit_c");
    uninferred_types_declared(&c, s);

    /* A bit of 2 is no bit. */
    ST_EXPECT_STATE(exec_bit(s, "insert into bit_t (n) values (?)", &two), s, "22003");

    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);

    /* RollbackOnError=1 inside an open transaction: an integer column
     * takes the bit with nothing refused, so nothing is lost. A text whose
     * bit's type the server cannot infer rolled the whole transaction back,
     * so its 42P18 stands (no silent second try in a transaction that is
     * gone), and the row before it goes with the transaction. */
    st_connect_with(&c, "RollbackOnError=1");
    s = st_stmt(&c);
    SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0);
    ST_OK(exec_bit(s, "insert into bit_t (b) values (?)", &one), s);
    ST_OK(exec_bit(s, "insert into bit_t (n) values (?)", &one), s);
    ST_OK(SQLEndTran(SQL_HANDLE_DBC, c.dbc, SQL_COMMIT), s);
    ST_OK(exec_bit(s, "insert into bit_t (b) values (?)", &one), s);
    ST_EXPECT_STATE(exec_bit(s, "select pg_typeof(?)::text", &one), s, "42P18");
    SQLEndTran(SQL_HANDLE_DBC, c.dbc, SQL_COMMIT);
    SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0);
    got = st_query_text(&c, "select count(*) from bit_t");
    ST_CHECK(strcmp(got, "9") == 0, "rows after the lost transaction: %s", got);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_exec(&c, "drop table bit_t");
    st_disconnect(&c);
    return st_finish("bit_params");
}
