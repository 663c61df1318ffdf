/*
 * Parameter arrays (SQL_ATTR_PARAMSET_SIZE, column- and row-wise, status and
 * processed pointers, SQLRowCount summing the rows) and row arrays on fetch
 * (SQL_ATTR_ROW_ARRAY_SIZE, column- and row-wise binding, bind offsets,
 * ROWS_FETCHED_PTR, ROW_STATUS_PTR).
 */
#include <stddef.h>

#include "st_test.h"

#define N 100

typedef struct row {
    SQLINTEGER id;
    SQLLEN id_ind;
    char name[16];
    SQLLEN name_ind;
} row;

int main(void)
{
    st_conn c;
    st_connect(&c);
    st_exec(&c, "drop table if exists stmt_arr");
    st_exec(&c, "create table stmt_arr(id int primary key, name text)");
    SQLHSTMT s = st_stmt(&c);

    /* Column-wise parameter array. */
    SQLINTEGER ids[N];
    char names[N][16];
    SQLLEN id_ind[N], name_ind[N];
    SQLUSMALLINT status[N];
    SQLULEN processed = 0;
    for (int i = 0; i < N; i++) {
        ids[i] = i + 1;
        snprintf(names[i], sizeof names[i], "n%d", i + 1);
        id_ind[i] = 0;
        name_ind[i] = i == 5 ? SQL_NULL_DATA : SQL_NTS;
    }
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)N, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAM_STATUS_PTR, status, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMS_PROCESSED_PTR, &processed, 0), s);
    ST_OK(SQLPrepare(s, (SQLCHAR *)"insert into stmt_arr values (?, ?)", SQL_NTS), s);
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, ids, 0, id_ind), s);
    ST_OK(SQLBindParameter(s, 2, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 15, 0, names, 16, name_ind), s);
    ST_OK(SQLExecute(s), s);
    SQLLEN count = 0;
    ST_OK(SQLRowCount(s, &count), s);
    ST_CHECK(count == N, "row count %ld", (long)count);
    ST_CHECK(processed == N, "processed %lu", (unsigned long)processed);
    int all_ok = 1;
    for (int i = 0; i < N; i++)
        all_ok = all_ok && status[i] == SQL_PARAM_SUCCESS;
    ST_CHECK(all_ok, "every status SQL_PARAM_SUCCESS");
    ST_CHECK(strcmp(st_query_text(&c, "select count(*) || ',' || count(name) || ',' || sum(id) from stmt_arr"),
                    "100,99,5050") == 0, "stored rows");

    /* Row-wise parameter array with a duplicate key in row 3: status says
     * which. Autocommit: the rows go in psqlODBC's batches (on a global
     * connection on each member): rows 1 and 2 are undone with row 3's
     * batch and row 4 is not run (docs/parameter-arrays.md). */
    row rows[4];
    for (int i = 0; i < 4; i++) {
        rows[i].id = 1000 + i;
        rows[i].id_ind = 0;
        snprintf(rows[i].name, sizeof rows[i].name, "r%d", i);
        rows[i].name_ind = SQL_NTS;
    }
    rows[2].id = 1;     /* exists */
    SQLHSTMT s2 = st_stmt(&c);
    ST_OK(SQLSetStmtAttr(s2, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)4, 0), s2);
    ST_OK(SQLSetStmtAttr(s2, SQL_ATTR_PARAM_BIND_TYPE, (SQLPOINTER)sizeof(row), 0), s2);
    ST_OK(SQLSetStmtAttr(s2, SQL_ATTR_PARAM_STATUS_PTR, status, 0), s2);
    ST_OK(SQLBindParameter(s2, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &rows[0].id, 0, &rows[0].id_ind), s2);
    ST_OK(SQLBindParameter(s2, 2, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 15, 0, rows[0].name, 16, &rows[0].name_ind), s2);
    SQLRETURN xrc = SQLExecDirect(s2, (SQLCHAR *)"insert into stmt_arr values (?, ?)", SQL_NTS);
    ST_CHECK(xrc == SQL_ERROR &&
             st_has_state(SQL_HANDLE_STMT, s2, "23505"),
             "a failed row among good ones: rc %d", (int)xrc);
    SQLLEN diag_row = 0;
    ST_OK(SQLGetDiagField(SQL_HANDLE_STMT, s2, 1, SQL_DIAG_ROW_NUMBER, &diag_row, 0, NULL), s2);
    ST_CHECK(diag_row == 3, "SQL_DIAG_ROW_NUMBER %ld", (long)diag_row);
    ST_CHECK(status[0] == SQL_PARAM_ERROR && status[1] == SQL_PARAM_ERROR &&
             status[2] == SQL_PARAM_ERROR && status[3] == SQL_PARAM_UNUSED,
             "statuses %d %d %d %d", status[0], status[1], status[2], status[3]);
    ST_CHECK(strcmp(st_query_text(&c, "select count(*) from stmt_arr where id >= 1000"),
                    "0") == 0, "rows stored");
    SQLFreeHandle(SQL_HANDLE_STMT, s2);

    /* Row array fetch, column-wise, 7 rows at a time (the last block short). */
    SQLHSTMT f = st_stmt(&c);
    SQLINTEGER fid[7];
    SQLLEN fid_ind[7];
    char fname[7][16];
    SQLLEN fname_ind[7];
    SQLULEN fetched = 0;
    SQLUSMALLINT rstatus[7];
    ST_OK(SQLSetStmtAttr(f, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)7, 0), f);
    ST_OK(SQLSetStmtAttr(f, SQL_ATTR_ROWS_FETCHED_PTR, &fetched, 0), f);
    ST_OK(SQLSetStmtAttr(f, SQL_ATTR_ROW_STATUS_PTR, rstatus, 0), f);
    ST_OK(SQLExecDirect(f, (SQLCHAR *)"select id, name from stmt_arr where id <= 100 order by id", SQL_NTS), f);
    ST_OK(SQLBindCol(f, 1, SQL_C_SLONG, fid, 0, fid_ind), f);
    ST_OK(SQLBindCol(f, 2, SQL_C_CHAR, fname, 16, fname_ind), f);
    int total = 0, good = 1;
    SQLRETURN rc;
    while ((rc = SQLFetchScroll(f, SQL_FETCH_NEXT, 0)) == SQL_SUCCESS) {
        for (SQLULEN i = 0; i < fetched; i++) {
            int want = total + 1;
            char wname[16];
            snprintf(wname, sizeof wname, "n%d", want);
            good = good && fid[i] == want && rstatus[i] == SQL_ROW_SUCCESS &&
                   (want == 6 ? fname_ind[i] == SQL_NULL_DATA : strcmp(fname[i], wname) == 0);
            total++;
        }
        if (fetched < 7)
            ST_CHECK(rstatus[fetched] == SQL_ROW_NOROW, "SQL_ROW_NOROW after the last row");
    }
    ST_CHECK(rc == SQL_NO_DATA, "ended with %d", (int)rc);
    ST_CHECK(total == N && good, "column-wise: %d rows, content %s", total, good ? "ok" : "wrong");
    ST_EXPECT_STATE(SQLFetchScroll(f, SQL_FETCH_PRIOR, 0), f, "HY106");
    SQLFreeHandle(SQL_HANDLE_STMT, f);

    /* Row-wise with a bind offset: rows land in the second half of a buffer. */
    f = st_stmt(&c);
    row buf[10];
    memset(buf, 0, sizeof buf);
    SQLLEN offset = 5 * (SQLLEN)sizeof(row);
    ST_OK(SQLSetStmtAttr(f, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)5, 0), f);
    ST_OK(SQLSetStmtAttr(f, SQL_ATTR_ROW_BIND_TYPE, (SQLPOINTER)sizeof(row), 0), f);
    ST_OK(SQLSetStmtAttr(f, SQL_ATTR_ROW_BIND_OFFSET_PTR, &offset, 0), f);
    ST_OK(SQLSetStmtAttr(f, SQL_ATTR_ROWS_FETCHED_PTR, &fetched, 0), f);
    ST_OK(SQLExecDirect(f, (SQLCHAR *)"select id, name from stmt_arr where id between 11 and 15 order by id", SQL_NTS), f);
    ST_OK(SQLBindCol(f, 1, SQL_C_SLONG, &buf[0].id, 0, &buf[0].id_ind), f);
    ST_OK(SQLBindCol(f, 2, SQL_C_CHAR, buf[0].name, 16, &buf[0].name_ind), f);
    ST_OK(SQLFetch(f), f);
    ST_CHECK(fetched == 5, "row-wise fetched %lu", (unsigned long)fetched);
    ST_CHECK(buf[0].id == 0 && buf[5].id == 11 && buf[9].id == 15 && strcmp(buf[9].name, "n15") == 0,
             "row-wise with offset: %d %d %d '%s'", (int)buf[0].id, (int)buf[5].id, (int)buf[9].id, buf[9].name);
    SQLFreeHandle(SQL_HANDLE_STMT, f);

    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_exec(&c, "drop table stmt_arr");
    st_disconnect(&c);
    return st_finish("arrays");
}
