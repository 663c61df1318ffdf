/*
 * A prepared statement executed again after its parameters were bound anew
 * with other types (pyodbc does so when the same text runs with an int, then
 * a str): each execution takes its own values, as psqlODBC does. Character
 * data after an integer reaches a text column; character data after binary
 * data is text again; a value the server cannot take is the server's error,
 * and the statement still runs afterwards.
 */
#include "st_test.h"

static void bind_int(SQLHSTMT s, SQLINTEGER *v)
{
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, v, 0, NULL),
          s);
}

static void bind_text(SQLHSTMT s, char *v, SQLLEN *len)
{
    *len = SQL_NTS;
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 20, 0, v, 0, len),
          s);
}

/* Fetches the one row of s and returns its first column as text and its
 * SQL type (SQLDescribeCol) in *type. */
static const char *fetch_text(SQLHSTMT s, SQLSMALLINT *type)
{
    static char buf[64];
    SQLLEN ind = 0;
    SQLULEN size = 0;
    SQLSMALLINT name_len = 0, digits = 0, nullable = 0;
    buf[0] = '\0';
    ST_OK(SQLDescribeCol(s, 1, NULL, 0, &name_len, type, &size, &digits, &nullable), s);
    ST_OK(SQLFetch(s), s);
    ST_OK(SQLGetData(s, 1, SQL_C_CHAR, buf, sizeof buf, &ind), s);
    SQLFreeStmt(s, SQL_CLOSE);
    return buf;
}

/* An integer, then character data, into a text column. */
static void text_column_after_int(st_conn *c)
{
    st_exec(c, "drop table if exists rb_t");
    st_exec(c, "create table rb_t (n serial, v text)");
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLPrepare(s, (SQLCHAR *)"insert into rb_t (v) values (?)", SQL_NTS), s);
    SQLINTEGER five = 5;
    bind_int(s, &five);
    ST_OK(SQLExecute(s), s);
    char abc[] = "abc";
    SQLLEN len;
    bind_text(s, abc, &len);
    ST_OK(SQLExecute(s), s);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    const char *got = st_query_text(c, "select string_agg(v, ',' order by n) from rb_t");
    ST_CHECK(strcmp(got, "5,abc") == 0, "rows: %s", got);
    st_exec(c, "drop table rb_t");
}

/* Executes s with what is bound and checks its one value against want;
 * returns the column's SQL type. */
static SQLSMALLINT expect_value(SQLHSTMT s, const char *want, const char *what)
{
    SQLSMALLINT type = 0;
    ST_OK(SQLExecute(s), s);
    const char *got = fetch_text(s, &type);
    ST_CHECK(strcmp(got, want) == 0, "%s: %s", what, got);
    return type;
}

/* sql run with the integer n, then with character data `text`: each
 * execution gives its own value (n_want, text_want), the second one no
 * refusal of the text as an integer. */
static void int_then_text(st_conn *c, const char *sql, SQLINTEGER n, const char *n_want,
                          const char *text, const char *text_want)
{
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLPrepare(s, (SQLCHAR *)sql, SQL_NTS), s);
    bind_int(s, &n);
    expect_value(s, n_want, sql);
    char buf[20];
    snprintf(buf, sizeof buf, "%s", text);
    SQLLEN len;
    bind_text(s, buf, &len);
    expect_value(s, text_want, text);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* Binary data, then character data: the second value is text again (a
 * character column, its letters), not bytea. */
static void select_after_binary(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLPrepare(s, (SQLCHAR *)"select ?", SQL_NTS), s);
    unsigned char bytes[2] = { 0x01, 0x02 };
    SQLLEN blen = 2;
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_BINARY, SQL_VARBINARY, 2, 0, bytes, 2,
                           &blen), s);
    SQLSMALLINT type = expect_value(s, "0102", "binary");
    ST_CHECK(type == SQL_VARBINARY || type == SQL_LONGVARBINARY, "binary: type %d", type);
    char z[] = "z";
    SQLLEN len;
    bind_text(s, z, &len);
    type = expect_value(s, "z", "text after binary");
    ST_CHECK(type != SQL_VARBINARY && type != SQL_LONGVARBINARY, "text after binary: type %d",
             type);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* `? + 1`: character data that is no number is the server's 22P02, and the
 * statement runs again with an integer afterwards. */
static void bad_text_then_int(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLPrepare(s, (SQLCHAR *)"select ? + 1", SQL_NTS), s);
    char bad[] = "abc";
    SQLLEN len;
    bind_text(s, bad, &len);
    ST_EXPECT_STATE(SQLExecute(s), s, "22P02");
    SQLFreeStmt(s, SQL_CLOSE);
    SQLINTEGER one = 1;
    bind_int(s, &one);
    expect_value(s, "2", "1 + 1 after the refusal");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    text_column_after_int(&c);
    int_then_text(&c, "select ?", 7, "7", "xyz", "xyz");
    int_then_text(&c, "select ? + 1", 1, "2", "4", "5");
    select_after_binary(&c);
    bad_text_then_int(&c);
    st_disconnect(&c);
    return st_finish("param_rebind_types");
}
