/*
 * Keyset-driven cursors: each rowset is re-read in one query; while one
 * connection scrolls a keyset cursor over
 * a table, another updates, deletes and inserts rows; each fetch and
 * SQLSetPos(SQL_REFRESH) shows the other's updates (SQL_ROW_UPDATED) and
 * deletions (SQL_ROW_DELETED) and not its insertions. Optimistic updates
 * through the cursor check against what the last re-read saw (01001 before
 * a refresh, success after). A set without its table's key, a join, a
 * self-join showing a column twice and a set from no table get a static
 * cursor with 01S02 from the execute; a table dropped under the cursor
 * makes the fetch fail (42P01). The global twin runs the same on solo
 * tables, where each row is re-read by a query of its own (not counted),
 * and a statement on another group's member between the execute and the
 * first fetch leaves the cursor keyset-driven.
 */
#include <stdbool.h>

#include "st_test.h"

#define ROWSET 3

typedef struct buffers {
    SQLINTEGER id[ROWSET];
    SQLLEN id_ind[ROWSET];
    char name[ROWSET][16];
    SQLLEN name_ind[ROWSET];
    SQLINTEGER qty[ROWSET];
    SQLLEN qty_ind[ROWSET];
    SQLUSMALLINT status[ROWSET];
    SQLULEN fetched;
} buffers;

/* A keyset cursor over sql on c, rowset ROWSET, its columns bound to b. */
static SQLHSTMT keyset_cursor(st_conn *c, buffers *b, SQLULEN concurrency, const char *sql)
{
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_KEYSET_DRIVEN, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CONCURRENCY, (SQLPOINTER)concurrency, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)ROWSET, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_STATUS_PTR, b->status, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROWS_FETCHED_PTR, &b->fetched, 0), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)sql, SQL_NTS), s);
    ST_OK(SQLBindCol(s, 1, SQL_C_SLONG, b->id, 0, b->id_ind), s);
    ST_OK(SQLBindCol(s, 2, SQL_C_CHAR, b->name, sizeof b->name[0], b->name_ind), s);
    ST_OK(SQLBindCol(s, 3, SQL_C_SLONG, b->qty, 0, b->qty_ind), s);
    return s;
}

static SQLULEN cursor_type(SQLHSTMT s)
{
    SQLULEN v = 0;
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, &v, 0, NULL), s);
    return v;
}

#define ITEMS "select id, name, qty from ks_items order by id"

/* Others' updates, deletions and insertions while the cursor scrolls. */
static void sees_others_changes(st_conn *a, st_conn *other)
{
    buffers b;
    SQLHSTMT s = keyset_cursor(a, &b, SQL_CONCUR_READ_ONLY, ITEMS);
    ST_CHECK(cursor_type(s) == SQL_CURSOR_KEYSET_DRIVEN, "cursor type %lu",
             (unsigned long)cursor_type(s));
    SQLRETURN rc = SQLFetchScroll(s, SQL_FETCH_FIRST, 0);
    ST_CHECK(rc == SQL_SUCCESS, "first fetch of a keyset cursor: rc %d", rc);
    ST_CHECK(cursor_type(s) == SQL_CURSOR_KEYSET_DRIVEN, "stays keyset-driven");
    SQLULEN sensitivity = 0;
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_CURSOR_SENSITIVITY, &sensitivity, 0, NULL), s);
    ST_CHECK(sensitivity == SQL_UNSPECIFIED, "keyset sensitivity %lu", (unsigned long)sensitivity);
    ST_CHECK(b.fetched == 3 && b.id[0] == 1 && b.id[2] == 3 && b.status[1] == SQL_ROW_SUCCESS,
             "first rowset: %lu rows, ids %d..%d", (unsigned long)b.fetched, b.id[0], b.id[2]);

    st_exec(other, "update ks_items set qty = 100 where id = 2");
    st_exec(other, "delete from ks_items where id = 3");
    st_exec(other, "insert into ks_items values (11, 'new', 11)");
    ST_OK(SQLFetchScroll(s, SQL_FETCH_FIRST, 0), s);
    ST_CHECK(b.status[0] == SQL_ROW_SUCCESS && b.qty[0] == 1, "row 1 unchanged: %d, qty %d",
             b.status[0], b.qty[0]);
    ST_CHECK(b.status[1] == SQL_ROW_UPDATED && b.qty[1] == 100, "row 2 updated: %d, qty %d",
             b.status[1], b.qty[1]);
    ST_CHECK(b.status[2] == SQL_ROW_DELETED, "row 3 deleted: %d", b.status[2]);

    /* The next rowset is read again too; SQLGetData reads the new values. */
    st_exec(other, "update ks_items set name = 'renamed' where id = 4");
    ST_OK(SQLFetchScroll(s, SQL_FETCH_NEXT, 0), s);
    ST_CHECK(b.id[0] == 4 && b.status[0] == SQL_ROW_UPDATED && strcmp(b.name[0], "renamed") == 0,
             "row 4: id %d status %d name %s", b.id[0], b.status[0], b.name[0]);
    char name[16];
    SQLLEN ind = 0;
    ST_OK(SQLGetData(s, 2, SQL_C_CHAR, name, sizeof name, &ind), s);
    ST_CHECK(strcmp(name, "renamed") == 0, "SQLGetData %s", name);

    /* Rows others insert are not in the keyset: the last rowset ends at 10. */
    ST_OK(SQLFetchScroll(s, SQL_FETCH_LAST, 0), s);
    ST_CHECK(b.fetched == 3 && b.id[0] == 8 && b.id[2] == 10, "last rowset ids %d..%d",
             b.id[0], b.id[2]);
    SQLLEN count = 0;
    ST_OK(SQLRowCount(s, &count), s);
    ST_CHECK(count == 10, "keyset of 10 rows, row count %ld", (long)count);

    /* SQLSetPos(SQL_REFRESH) re-reads the rowset (row 0) or one row. */
    st_exec(other, "update ks_items set qty = 900 where id = 9");
    ST_OK(SQLSetPos(s, 0, SQL_REFRESH, SQL_LOCK_NO_CHANGE), s);
    ST_CHECK(b.status[1] == SQL_ROW_UPDATED && b.qty[1] == 900, "refreshed row 9: %d qty %d",
             b.status[1], b.qty[1]);
    st_exec(other, "delete from ks_items where id = 10");
    ST_OK(SQLSetPos(s, 3, SQL_REFRESH, SQL_LOCK_NO_CHANGE), s);
    ST_CHECK(b.status[2] == SQL_ROW_DELETED, "refreshed row 10: %d", b.status[2]);

    /* Scrolling back: the deleted row 3 stays deleted. */
    ST_OK(SQLFetchScroll(s, SQL_FETCH_ABSOLUTE, 2), s);
    ST_CHECK(b.id[0] == 2 && b.status[0] == SQL_ROW_UPDATED && b.status[1] == SQL_ROW_DELETED,
             "absolute 2: id %d statuses %d %d", b.id[0], b.status[0], b.status[1]);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* Optimistic updates through a keyset cursor check against the last re-read. */
static void updates_after_refresh(st_conn *a, st_conn *other)
{
    buffers b;
    SQLHSTMT s = keyset_cursor(a, &b, SQL_CONCUR_VALUES, ITEMS);
    ST_OK(SQLFetchScroll(s, SQL_FETCH_FIRST, 0), s);
    ST_CHECK(b.id[0] == 1 && b.id[1] == 2, "rowset ids %d %d", b.id[0], b.id[1]);
    st_exec(other, "update ks_items set qty = 5 where id = 1");
    b.qty[0] = 7;
    SQLRETURN rc = SQLSetPos(s, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO && st_has_state(SQL_HANDLE_STMT, s, "01001"),
             "update of a row changed since the cursor read it: rc %d", rc);
    ST_CHECK(strcmp(st_query_text(other, "select qty from ks_items where id = 1"), "5") == 0,
             "the conflicting update changed nothing");
    ST_OK(SQLSetPos(s, 1, SQL_REFRESH, SQL_LOCK_NO_CHANGE), s);
    ST_CHECK(b.qty[0] == 5, "refresh read qty %d", b.qty[0]);
    b.qty[0] = 7;
    ST_OK(SQLSetPos(s, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE), s);
    ST_CHECK(strcmp(st_query_text(other, "select qty from ks_items where id = 1"), "7") == 0,
             "the update after a refresh is stored");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* Table scans of ks_items by a's backend (its current transaction and
 * what it has not yet reported). */
static long scans(st_conn *a)
{
    return atol(st_query_text(a, "select seq_scan + coalesce(idx_scan, 0) "
                                 "from pg_stat_xact_user_tables where relname = 'ks_items'"));
}

/* Each rowset is re-read in one query, whatever its size: counted as
 * table scans in one transaction, with plans that scan once per query. */
static void one_query_per_rowset(st_conn *a)
{
    SQLSetConnectAttr(a->dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0);
    st_exec(a, "set local enable_indexscan = off");
    st_exec(a, "set local enable_bitmapscan = off");
    buffers b;
    long before = scans(a);     /* with this backend's stats not yet flushed */
    SQLHSTMT s = keyset_cursor(a, &b, SQL_CONCUR_READ_ONLY, ITEMS);
    ST_OK(SQLFetchScroll(s, SQL_FETCH_FIRST, 0), s);
    long opened = scans(a);
    ST_CHECK(opened - before == 2, "the select and one re-read: %ld scans", opened - before);
    ST_OK(SQLFetchScroll(s, SQL_FETCH_NEXT, 0), s);
    ST_OK(SQLFetchScroll(s, SQL_FETCH_LAST, 0), s);
    ST_OK(SQLSetPos(s, 0, SQL_REFRESH, SQL_LOCK_NO_CHANGE), s);
    long after = scans(a);
    ST_CHECK(after - opened == 3, "three rowsets of 3 rows: %ld scans", after - opened);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    ST_OK(SQLEndTran(SQL_HANDLE_DBC, a->dbc, SQL_ROLLBACK), a->dbc);
    SQLSetConnectAttr(a->dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0);
}

/* A keyset cursor that cannot be had becomes static at the execute, which
 * says so; with SQL_CONCUR_VALUES too (on a global connection its table is
 * looked up there as well, whose failure must not hide the 01S02). */
static void falls_back_to_static(st_conn *c, const char *sql, const char *what)
{
    for (int values = 0; values <= 1; values++) {
        SQLHSTMT s = st_stmt(c);
        ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_KEYSET_DRIVEN, 0),
              s);
        SQLULEN concurrency = values ? SQL_CONCUR_VALUES : SQL_CONCUR_READ_ONLY;
        ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CONCURRENCY, (SQLPOINTER)concurrency, 0), s);
        SQLRETURN rc = SQLExecDirect(s, (SQLCHAR *)sql, SQL_NTS);
        ST_CHECK(rc == SQL_SUCCESS_WITH_INFO && st_has_state(SQL_HANDLE_STMT, s, "01S02"),
                 "%s (concurrency %lu): execute rc %d, 01S02", what, (unsigned long)concurrency,
                 rc);
        ST_CHECK(!st_has_state(SQL_HANDLE_STMT, s, "HY000"), "%s: only the 01S02", what);
        ST_CHECK(cursor_type(s) == SQL_CURSOR_STATIC, "%s: became static (%lu)", what,
                 (unsigned long)cursor_type(s));
        rc = SQLFetchScroll(s, SQL_FETCH_FIRST, 0);
        ST_CHECK(rc == SQL_SUCCESS, "%s: the first fetch says nothing more: rc %d", what, rc);
        ST_OK(SQLFetchScroll(s, SQL_FETCH_LAST, 0), s);
        SQLFreeHandle(SQL_HANDLE_STMT, s);
    }
}

/* The static fallback does not see others' changes. */
static void fallback_is_static(st_conn *a, st_conn *other)
{
    falls_back_to_static(a, "select name, qty from ks_items order by name", "no key");
    falls_back_to_static(a,
                         "select i.id, o.note from ks_items i join ks_other o on o.id = i.id",
                         "join");
    falls_back_to_static(a,
                         "select x.id, y.id from ks_items x join ks_items y on y.id = x.id + 1",
                         "self-join");
    SQLHSTMT s = st_stmt(a);
    SQLINTEGER qty = 0;
    SQLLEN ind = 0;
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_KEYSET_DRIVEN, 0), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select qty from ks_items where id = 2", SQL_NTS), s);
    ST_OK(SQLBindCol(s, 1, SQL_C_SLONG, &qty, 0, &ind), s);
    SQLFetchScroll(s, SQL_FETCH_FIRST, 0);
    st_exec(other, "update ks_items set qty = 222 where id = 2");
    ST_OK(SQLFetchScroll(s, SQL_FETCH_FIRST, 0), s);
    ST_CHECK(qty == 100, "static fallback keeps what it read: %d", (int)qty);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* The table dropped under an open keyset cursor: the re-read fails. */
static void table_dropped(st_conn *a, st_conn *other)
{
    st_exec(other, "create table ks_gone(id int primary key, v text)");
    st_exec(other, "insert into ks_gone values (1, 'a'), (2, 'b')");
    SQLHSTMT s = st_stmt(a);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_KEYSET_DRIVEN, 0), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select id, v from ks_gone", SQL_NTS), s);
    ST_OK(SQLFetchScroll(s, SQL_FETCH_FIRST, 0), s);
    st_exec(other, "drop table ks_gone");
    ST_EXPECT_STATE(SQLFetchScroll(s, SQL_FETCH_NEXT, 0), s, "42P01");
    /* The connection goes on. */
    ST_CHECK(strcmp(st_query_text(a, "select 1"), "1") == 0, "connection usable");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* On a global connection: between the execute and the first fetch, a
 * statement on another handle runs on the other group's member (ks_far is
 * a solo table of G2; ks_items one of G1). The cursor stays keyset-driven
 * and changes its rows: its table was looked up as the execute ended, on
 * the member that described the set, which alone knows the table's oid. */
static void outlives_a_move(st_conn *a)
{
    st_conn far;
    st_connect_with(&far, "LocalityGroupPath=G2");
    st_exec(&far, "drop table if exists ks_far");
    st_exec(&far, "create table ks_far(id int primary key)");
    st_disconnect(&far);
    buffers b;
    SQLHSTMT s = keyset_cursor(a, &b, SQL_CONCUR_VALUES, ITEMS);
    ST_CHECK(strcmp(st_query_text(a, "select count(*) from ks_far"), "0") == 0,
             "the statement on G2 ran");
    SQLRETURN rc = SQLFetchScroll(s, SQL_FETCH_FIRST, 0);
    ST_CHECK(rc == SQL_SUCCESS, "first fetch after a statement on another member: rc %d", rc);
    if (rc != SQL_SUCCESS)
        st_dump_diag(SQL_HANDLE_STMT, s);
    ST_CHECK(cursor_type(s) == SQL_CURSOR_KEYSET_DRIVEN, "stays keyset-driven: %lu",
             (unsigned long)cursor_type(s));
    b.qty[0] = 500;
    ST_OK(SQLSetPos(s, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE), s);
    ST_CHECK(strcmp(st_query_text(a, "select qty from ks_items where id = 1"), "500") == 0,
             "the cursor's update is stored");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_exec(a, "drop table ks_far");
}

int main(void)
{
    st_conn a, other;
    st_connect(&a);
    bool global = getenv("GC_TEST_GLOBAL") != NULL;
    st_connect(&other);
    st_exec(&a, "drop table if exists ks_items");
    st_exec(&a, "create table ks_items(id int primary key, name text, qty int)");
    st_exec(&a, "insert into ks_items select g, 'item ' || g, g from generate_series(1, 10) g");
    st_exec(&a, "drop table if exists ks_other");
    st_exec(&a, "create table ks_other(id int primary key, note text)");
    st_exec(&a, "insert into ks_other select g, 'note ' || g from generate_series(1, 10) g");
    if (!global)
        one_query_per_rowset(&a);
    sees_others_changes(&a, &other);
    updates_after_refresh(&a, &other);
    fallback_is_static(&a, &other);
    falls_back_to_static(&a, "select g from generate_series(1, 5) g", "no table");
    table_dropped(&a, &other);
    if (global)
        outlives_a_move(&a);
    st_exec(&a, "drop table ks_items");
    st_exec(&a, "drop table ks_other");
    st_disconnect(&other);
    st_disconnect(&a);
    return st_finish("cursors_keyset");
}
