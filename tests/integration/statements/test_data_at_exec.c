/*
 * Data at execution: parameters bound with SQL_LEN_DATA_AT_EXEC or
 * SQL_DATA_AT_EXEC make SQLExecute return SQL_NEED_DATA; SQLParamData names
 * each such parameter by its bound pointer, SQLPutData sends it in pieces
 * (or NULL), and the last SQLParamData runs the statement. SQLCancel drops a
 * pending data-at-execution sequence.
 */
#include "st_test.h"

#define BIG 300000

/* A parameter array with data at execution: while SQLParamData asks for a
 * row's data, SQL_ATTR_PARAMS_PROCESSED_PTR holds that row's number, so an
 * application that binds the same token in every row knows which value to
 * send. */
static void array_rows_name_their_row(st_conn *c)
{
    static const char *texts[] = {"first", "second", "third"};
    SQLHSTMT s = st_stmt(c);
    SQLULEN processed = 99;
    SQLUSMALLINT status[3];
    SQLINTEGER ids[3] = {10, 11, 12};
    SQLLEN t_ind[3] = {SQL_DATA_AT_EXEC, SQL_DATA_AT_EXEC, SQL_DATA_AT_EXEC};
    static char token[] = "t";
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)3, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMS_PROCESSED_PTR, &processed, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAM_STATUS_PTR, status, 0), s);
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, ids, 0, NULL), s);
    ST_OK(SQLBindParameter(s, 2, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 10, 0, token, 0, t_ind), s);
    SQLRETURN rc = SQLExecDirect(s, (SQLCHAR *)"insert into stmt_dae(id, t) values (?, ?)", SQL_NTS);
    ST_CHECK(rc == SQL_NEED_DATA, "array execute gave %d", (int)rc);
    ST_CHECK(processed == 1, "processed %lu while row 1's data is asked for", (unsigned long)processed);
    SQLPOINTER asked = NULL;
    SQLULEN rows_asked = 0;
    while ((rc = SQLParamData(s, &asked)) == SQL_NEED_DATA) {
        ST_CHECK(asked == token, "token %p", asked);
        ST_CHECK(processed == rows_asked + 1, "processed %lu when data is asked the %lu. time",
                 (unsigned long)processed, (unsigned long)rows_asked + 1);
        if (processed < 1 || processed > 3)
            break;
        ST_OK(SQLPutData(s, (SQLPOINTER)texts[processed - 1], SQL_NTS), s);
        rows_asked++;
    }
    ST_OK(rc, s);
    /* Every row's count is kept: the total first, then row by row. */
    SQLLEN count = -5;
    ST_OK(SQLRowCount(s, &count), s);
    ST_CHECK(count == 3, "row count after the array %ld", (long)count);
    for (int more = 2; more <= 3; more++) {
        ST_OK(SQLMoreResults(s), s);
        count = -5;
        ST_OK(SQLRowCount(s, &count), s);
        ST_CHECK(count == 1, "row %d's count %ld", more, (long)count);
    }
    rc = SQLMoreResults(s);
    ST_CHECK(rc == SQL_NO_DATA, "SQLMoreResults after the last row gave %d", (int)rc);
    ST_CHECK(rows_asked == 3 && processed == 3, "%lu rows asked, %lu processed",
             (unsigned long)rows_asked, (unsigned long)processed);
    ST_CHECK(status[0] == SQL_PARAM_SUCCESS && status[2] == SQL_PARAM_SUCCESS, "statuses %d %d",
             status[0], status[2]);
    ST_CHECK(strcmp(st_query_text(c, "select string_agg(id || '=' || t, ',' order by id) "
                                     "from stmt_dae where id >= 10"),
                    "10=first,11=second,12=third") == 0,
             "rows %s", st_query_text(c, "select string_agg(t, ',') from stmt_dae where id >= 10"));

    /* A query with data at execution: one result set per row, in row order. */
    SQLFreeStmt(s, SQL_CLOSE);
    SQLFreeStmt(s, SQL_RESET_PARAMS);
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 10, 0, token, 0, t_ind), s);
    rc = SQLExecDirect(s, (SQLCHAR *)"select id from stmt_dae where t = ? or t = 'first' order by id desc", SQL_NTS);
    while (rc == SQL_NEED_DATA && (rc = SQLParamData(s, &asked)) == SQL_NEED_DATA)
        ST_OK(SQLPutData(s, (SQLPOINTER)texts[processed - 1], SQL_NTS), s);
    ST_OK(rc, s);
    const char *want[] = {"10", "11,10", "12,10"};
    for (int set = 0; set < 3; set++) {
        char got[64] = "", cell[16];
        SQLLEN ind;
        while (SQLFetch(s) == SQL_SUCCESS) {
            ST_OK(SQLGetData(s, 1, SQL_C_CHAR, cell, sizeof cell, &ind), s);
            if (got[0] != '\0')
                strcat(got, ",");
            strcat(got, cell);
        }
        ST_CHECK(strcmp(got, want[set]) == 0, "set %d: %s", set + 1, got);
        rc = SQLMoreResults(s);
        ST_CHECK(set < 2 ? rc == SQL_SUCCESS : rc == SQL_NO_DATA, "SQLMoreResults after set %d: %d",
                 set + 1, (int)rc);
    }
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    st_exec(&c, "drop table if exists stmt_dae");
    st_exec(&c, "create table stmt_dae(id int, t text, b bytea, n text)");
    SQLHSTMT s = st_stmt(&c);
    ST_OK(SQLPrepare(s, (SQLCHAR *)"insert into stmt_dae values (?, ?, ?, ?)", SQL_NTS), s);
    SQLINTEGER id = 1;
    SQLLEN id_ind = 0;
    /* The bound "values" are tokens the application recognizes. */
    static char token_t[] = "t", token_b[] = "b", token_n[] = "n";
    SQLLEN t_ind = SQL_LEN_DATA_AT_EXEC(BIG), b_ind = SQL_DATA_AT_EXEC, n_ind = SQL_DATA_AT_EXEC;
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &id, 0, &id_ind), s);
    ST_OK(SQLBindParameter(s, 2, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_LONGVARCHAR, BIG, 0, token_t, 0, &t_ind), s);
    ST_OK(SQLBindParameter(s, 3, SQL_PARAM_INPUT, SQL_C_BINARY, SQL_LONGVARBINARY, BIG, 0, token_b, 0, &b_ind), s);
    ST_OK(SQLBindParameter(s, 4, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 10, 0, token_n, 0, &n_ind), s);

    SQLRETURN rc = SQLExecute(s);
    ST_CHECK(rc == SQL_NEED_DATA, "SQLExecute gave %d, wanted SQL_NEED_DATA", (int)rc);
    static char chunk[1000];
    unsigned char bchunk[256];
    for (int i = 0; i < 256; i++)
        bchunk[i] = (unsigned char)i;
    int seen = 0;
    SQLPOINTER token = NULL;
    while ((rc = SQLParamData(s, &token)) == SQL_NEED_DATA) {
        seen++;
        if (token == token_t) {
            for (int i = 0; i < BIG / 1000; i++) {
                memset(chunk, 'a' + i % 26, sizeof chunk);
                ST_OK(SQLPutData(s, chunk, sizeof chunk), s);
            }
        } else if (token == token_b) {
            for (int i = 0; i < 10; i++)
                ST_OK(SQLPutData(s, bchunk, sizeof bchunk), s);
        } else if (token == token_n) {
            ST_OK(SQLPutData(s, NULL, SQL_NULL_DATA), s);
        } else {
            ST_CHECK(0, "unknown token %p", token);
            break;
        }
    }
    ST_OK(rc, s);
    ST_CHECK(seen == 3, "%d parameters asked for", seen);
    ST_CHECK(strcmp(st_query_text(&c, "select length(t) || ',' || length(b) || ',' || "
                                      "(n is null) || ',' || (md5(t) = md5((select string_agg(repeat(chr(97 + (i % 26)), 1000), '' order by i) from generate_series(0, 299) i))) "
                                      "from stmt_dae"),
                    "300000,2560,true,true") == 0,
             "stored %s", st_query_text(&c, "select length(t) || ',' || length(b) from stmt_dae"));
    ST_CHECK(strcmp(st_query_text(&c, "select get_byte(b, 255) || ',' || get_byte(b, 256) from stmt_dae"),
                    "255,0") == 0, "bytea pieces in order");

    /* Function sequence: SQLPutData before SQLParamData, other calls while
     * data is pending. */
    rc = SQLExecute(s);
    ST_CHECK(rc == SQL_NEED_DATA, "second execute %d", (int)rc);
    ST_EXPECT_STATE(SQLPutData(s, "x", 1), s, "HY010");
    /* SQLCancel ends the sequence; the statement can run again. */
    ST_OK(SQLCancel(s), s);
    n_ind = 0;
    t_ind = SQL_NTS;
    b_ind = 1;
    id = 2;
    ST_OK(SQLExecute(s), s);
    ST_CHECK(strcmp(st_query_text(&c, "select count(*) from stmt_dae"), "2") == 0,
             "two rows after the cancelled sequence");

    SQLFreeHandle(SQL_HANDLE_STMT, s);
    array_rows_name_their_row(&c);
    st_exec(&c, "drop table stmt_dae");
    st_disconnect(&c);
    return st_finish("data_at_exec");
}
