/*
 * A keyset-driven cursor's own deletions leave its later rowsets, as
 * psqlODBC's keyset cursors do: the rowset of the SQLSetPos(SQL_DELETE)
 * reports the row SQL_ROW_DELETED (also when fetched again with
 * SQL_FETCH_RELATIVE 0), SQL_FETCH_NEXT goes on after that rowset, and every
 * later rowset and position counts only the rows left. A rollback to a
 * savepoint (run on another statement of the connection) that undoes a
 * deletion brings the row back; one that undoes a row the cursor added
 * takes it away without a hole. Not on a global connection, which has no
 * keyset cursors.
 */
#include <stdbool.h>

#include "st_test.h"

#define ROWSET 3

typedef struct rowset {
    SQLINTEGER id[ROWSET];
    SQLLEN id_ind[ROWSET];
    SQLUSMALLINT status[ROWSET];
    SQLULEN fetched;
} rowset;

/* Whether the rowset holds exactly the ids given (0: no row there). */
static bool holds(const rowset *r, int a, int b, int c)
{
    int want[ROWSET] = { a, b, c };
    for (int i = 0; i < ROWSET; i++) {
        if (want[i] == 0 ? i < (int)r->fetched : i >= (int)r->fetched || r->id[i] != want[i])
            return false;
    }
    return true;
}

static void fetch(SQLHSTMT s, rowset *r, SQLSMALLINT orientation, SQLLEN offset)
{
    r->fetched = 0;
    for (int i = 0; i < ROWSET; i++)
        r->id[i] = 0;
    ST_OK(SQLFetchScroll(s, orientation, offset), s);
}

/* The ids the cursor shows from the first row to the last. */
static int count_rows(SQLHSTMT s, rowset *r)
{
    int rows = 0;
    SQLRETURN rc = SQLFetchScroll(s, SQL_FETCH_FIRST, 0);
    while (ST_SUCCEEDED(rc)) {
        rows += (int)r->fetched;
        rc = SQLFetchScroll(s, SQL_FETCH_NEXT, 0);
    }
    ST_CHECK(rc == SQL_NO_DATA, "scroll to the end: rc %d", rc);
    return rows;
}

static SQLHSTMT open_cursor(st_conn *c, rowset *r)
{
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_KEYSET_DRIVEN, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CONCURRENCY, (SQLPOINTER)SQL_CONCUR_VALUES, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)ROWSET, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_STATUS_PTR, r->status, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROWS_FETCHED_PTR, &r->fetched, 0), s);
    ST_OK(SQLBindCol(s, 1, SQL_C_SLONG, r->id, 0, r->id_ind), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select id from kd_items order by id", SQL_NTS), s);
    return s;
}

static void run(st_conn *c)
{
    SQLHSTMT other = st_stmt(c);    /* savepoints, on the same connection */
    rowset r;
    SQLHSTMT s = open_cursor(c, &r);

    fetch(s, &r, SQL_FETCH_FIRST, 0);
    ST_OK(SQLSetPos(s, 1, SQL_DELETE, SQL_LOCK_NO_CHANGE), s);
    ST_CHECK(r.status[0] == SQL_ROW_DELETED, "deleted row's status %u", r.status[0]);
    /* The current rowset again: the deleted row is still in it, as such. */
    fetch(s, &r, SQL_FETCH_RELATIVE, 0);
    ST_CHECK(holds(&r, 1, 2, 3) && r.status[0] == SQL_ROW_DELETED && r.status[1] == SQL_ROW_SUCCESS,
             "relative 0: %d %d %d, status %u", (int)r.id[0], (int)r.id[1], (int)r.id[2],
             r.status[0]);
    /* Deleting it again finds no row. */
    SQLRETURN rc = SQLSetPos(s, 1, SQL_DELETE, SQL_LOCK_NO_CHANGE);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO && st_has_state(SQL_HANDLE_STMT, s, "01001"),
             "second delete of a row: rc %d", rc);
    fetch(s, &r, SQL_FETCH_NEXT, 0);
    ST_CHECK(holds(&r, 4, 5, 6), "next after the rowset: %d %d %d", (int)r.id[0],
             (int)r.id[1], (int)r.id[2]);
    /* Later rowsets leave row 1 out; positions count the rows left. */
    fetch(s, &r, SQL_FETCH_FIRST, 0);
    ST_CHECK(holds(&r, 2, 3, 4) && r.status[0] == SQL_ROW_SUCCESS, "first: %d %d %d",
             (int)r.id[0], (int)r.id[1], (int)r.id[2]);
    fetch(s, &r, SQL_FETCH_ABSOLUTE, 9);
    ST_CHECK(holds(&r, 10, 0, 0), "absolute 9: %d", (int)r.id[0]);
    ST_CHECK(SQLFetchScroll(s, SQL_FETCH_ABSOLUTE, 10) == SQL_NO_DATA, "absolute 10: past the end");
    fetch(s, &r, SQL_FETCH_LAST, 0);
    fetch(s, &r, SQL_FETCH_PRIOR, 0);
    ST_CHECK(holds(&r, 5, 6, 7), "prior of the last: %d %d %d", (int)r.id[0], (int)r.id[1],
             (int)r.id[2]);
    ST_CHECK(count_rows(s, &r) == 9, "rows shown after one deletion");

    /* A deletion a rollback to a savepoint undoes: the row is back. */
    ST_OK(SQLExecDirect(other, (SQLCHAR *)"savepoint before_five", SQL_NTS), other);
    fetch(s, &r, SQL_FETCH_ABSOLUTE, 4);
    ST_CHECK(r.id[0] == 5, "absolute 4: %d", (int)r.id[0]);
    ST_OK(SQLSetPos(s, 1, SQL_DELETE, SQL_LOCK_NO_CHANGE), s);
    fetch(s, &r, SQL_FETCH_ABSOLUTE, 3);
    ST_CHECK(holds(&r, 4, 6, 7), "without 5: %d %d %d", (int)r.id[0], (int)r.id[1],
             (int)r.id[2]);
    ST_OK(SQLExecDirect(other, (SQLCHAR *)"rollback to savepoint before_five", SQL_NTS), other);
    fetch(s, &r, SQL_FETCH_ABSOLUTE, 3);
    ST_CHECK(holds(&r, 4, 5, 6) && r.status[1] == SQL_ROW_SUCCESS, "5 back: %d %d %d status %u",
             (int)r.id[0], (int)r.id[1], (int)r.id[2], r.status[1]);
    ST_CHECK(count_rows(s, &r) == 9, "row 1 stays deleted");

    /* A row the cursor added, taken away by a rollback: no hole. */
    ST_OK(SQLExecDirect(other, (SQLCHAR *)"savepoint before_add", SQL_NTS), other);
    r.id[0] = 11;
    r.id_ind[0] = 0;
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)1, 0), s);
    ST_OK(SQLBulkOperations(s, SQL_ADD), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)ROWSET, 0), s);
    fetch(s, &r, SQL_FETCH_LAST, 0);
    ST_CHECK(holds(&r, 9, 10, 11) && r.status[2] == SQL_ROW_ADDED, "added row last: %d",
             (int)r.id[2]);
    ST_OK(SQLExecDirect(other, (SQLCHAR *)"rollback to savepoint before_add", SQL_NTS), other);
    fetch(s, &r, SQL_FETCH_LAST, 0);
    ST_CHECK(holds(&r, 8, 9, 10) && r.status[2] == SQL_ROW_SUCCESS, "after the rollback: %d %d %d",
             (int)r.id[0], (int)r.id[1], (int)r.id[2]);
    ST_CHECK(count_rows(s, &r) == 9, "the added row left no hole");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    SQLFreeHandle(SQL_HANDLE_STMT, other);
    ST_CHECK(SQLEndTran(SQL_HANDLE_DBC, c->dbc, SQL_ROLLBACK) == SQL_SUCCESS, "rollback");
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    if (getenv("GC_TEST_GLOBAL") == NULL) {
        st_exec(&c, "drop table if exists kd_items");
        st_exec(&c, "create table kd_items(id int primary key)");
        st_exec(&c, "insert into kd_items select generate_series(1, 10)");
        SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0);
        run(&c);
        SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0);
        ST_CHECK(atoi(st_query_text(&c, "select count(*) from kd_items")) == 10,
                 "rolled back: 10 rows");
        st_exec(&c, "drop table kd_items");
    }
    st_disconnect(&c);
    return st_finish("cursors_keyset_own_deletes");
}
