/*
 * Keyset-driven cursors over a table without a primary key whose every
 * column is in the select list: the cursor stays keyset-driven (no 01S02)
 * and finds its rows again by all their values, a NULL included. Two
 * updates of the same row through the cursor both land (the second finds
 * the row by the values the first wrote), a row the cursor deleted leaves
 * its later rowsets (the positions after it move up), and a
 * row another connection changed is no longer found by its old values
 * (reported deleted, as documented). The global twin runs the same on a
 * solo table (not partitioned, so its rows may be found by their values).
 */
#include "st_test.h"

typedef struct row {
    char name[16];
    SQLLEN name_ind;
    SQLINTEGER qty;
    SQLLEN qty_ind;
    SQLUSMALLINT status;
} row;

/* A keyset cursor with SQL_CONCUR_ROWVER over the table, columns bound. */
static SQLHSTMT open_cursor(st_conn *c, row *r)
{
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CONCURRENCY, (SQLPOINTER)SQL_CONCUR_ROWVER, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_KEYSET_DRIVEN, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_STATUS_PTR, &r->status, 0), s);
    ST_OK(SQLBindCol(s, 1, SQL_C_CHAR, r->name, sizeof r->name, &r->name_ind), s);
    ST_OK(SQLBindCol(s, 2, SQL_C_SLONG, &r->qty, 0, &r->qty_ind), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select name, qty from kv_items order by name", SQL_NTS),
          s);
    return s;
}

/* Fetches absolute row n and checks its name. */
static void at(SQLHSTMT s, row *r, SQLLEN n, const char *name)
{
    SQLRETURN rc = SQLFetchScroll(s, SQL_FETCH_ABSOLUTE, n);
    ST_CHECK(rc == SQL_SUCCESS, "row %ld: rc %d", (long)n, rc);
    if (rc != SQL_SUCCESS)
        st_dump_diag(SQL_HANDLE_STMT, s);
    ST_CHECK(strcmp(r->name, name) == 0, "row %ld is '%s', wanted '%s'", (long)n, r->name, name);
}

int main(void)
{
    st_conn a;
    st_connect(&a);
    st_conn other;
    st_connect(&other);
    st_exec(&a, "drop table if exists kv_items");
    st_exec(&a, "create table kv_items(name text, qty int)");
    st_exec(&a, "insert into kv_items values ('a', 1), ('b', 2), ('c', null), ('d', 4)");

    row r = {0};
    SQLHSTMT s = open_cursor(&a, &r);
    at(s, &r, 1, "a");
    SQLULEN type = 0;
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, &type, 0, NULL), s);
    ST_CHECK(type == SQL_CURSOR_KEYSET_DRIVEN, "still keyset-driven: %lu", (unsigned long)type);

    /* Two updates of one row: the second finds it by the first's values. */
    at(s, &r, 2, "b");
    r.qty = 20;
    ST_OK(SQLSetPos(s, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE), s);
    r.qty = 30;
    ST_OK(SQLSetPos(s, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE), s);

    /* A NULL value is part of the key: the row is found and deleted. */
    at(s, &r, 3, "c");
    ST_CHECK(r.qty_ind == SQL_NULL_DATA && r.status != SQL_ROW_DELETED,
             "row with a NULL re-read: status %u", r.status);
    ST_OK(SQLSetPos(s, 1, SQL_DELETE, SQL_LOCK_NO_CHANGE), s);

    /* Another connection's change: the old values find no row, a hole.
     * The row the cursor deleted has left its rowsets: 'd' is row 3 now. */
    st_exec(&other, "update kv_items set qty = 44 where name = 'd'");
    at(s, &r, 3, "d");
    ST_CHECK(r.status == SQL_ROW_DELETED, "row changed by another: status %u", r.status);

    at(s, &r, 2, "b");
    ST_CHECK(r.qty == 30 && r.status != SQL_ROW_DELETED, "b after two updates: %d, status %u",
             (int)r.qty, r.status);
    ST_CHECK(SQLFetchScroll(s, SQL_FETCH_ABSOLUTE, 4) == SQL_NO_DATA, "c left out: 3 rows");
    SQLFreeHandle(SQL_HANDLE_STMT, s);

    ST_CHECK(strcmp(st_query_text(&a, "select string_agg(name || ':' || coalesce(qty::text, "
                                      "'null'), ',' order by name) from kv_items"),
                    "a:1,b:30,d:44") == 0,
             "table after the cursor's changes: %s",
             st_query_text(&a, "select string_agg(name || ':' || coalesce(qty::text, 'null'), "
                               "',' order by name) from kv_items"));
    st_exec(&a, "drop table kv_items");
    st_disconnect(&other);
    st_disconnect(&a);
    return st_finish("cursors_keyset_by_values");
}
