/*
 * ODBC 1's SQLSetParam, which old programs (and psqlODBC's users) still
 * call: the driver manager passes it on as SQLBindParameter with
 * SQL_PARAM_INPUT_OUTPUT and the buffer length SQL_SETPARAM_VALUE_MAX. The
 * value binds and is sent; any other negative buffer length stays HY090.
 */
#include "st_test.h"

int main(void)
{
    st_conn c;
    st_connect(&c);
    SQLHSTMT s = st_stmt(&c);

    SQLSMALLINT number = 41;
    ST_OK(SQLSetParam(s, 1, SQL_C_SSHORT, SQL_SMALLINT, 0, 0, &number, NULL), s);
    char text[8] = "abc";    /* no indicator: a null-terminated string */
    ST_OK(SQLSetParam(s, 2, SQL_C_CHAR, SQL_VARCHAR, 10, 0, text, NULL), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select ?::int + 1, ?::text || 'd'", SQL_NTS), s);
    ST_OK(SQLFetch(s), s);
    SQLINTEGER sum = 0;
    char joined[16] = "";
    SQLLEN ind;
    ST_OK(SQLGetData(s, 1, SQL_C_SLONG, &sum, 0, &ind), s);
    ST_OK(SQLGetData(s, 2, SQL_C_CHAR, joined, sizeof joined, &ind), s);
    ST_CHECK(sum == 42 && strcmp(joined, "abcd") == 0, "got %d, '%s'", (int)sum, joined);
    ST_OK(SQLCloseCursor(s), s);

    /* Any other negative buffer length is still refused. */
    ST_EXPECT_STATE(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 10, 0,
                                     text, -5, NULL),
                    s, "HY090");

    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);
    return st_finish("statements_set_param");
}
