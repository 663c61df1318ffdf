/*
 * Changing rows through a static cursor with SQL_CONCUR_VALUES: SQLSetPos
 * SQL_UPDATE / SQL_DELETE (one row, the whole rowset, SQL_COLUMN_IGNORE),
 * SQLBulkOperations SQL_ADD / SQL_UPDATE_BY_BOOKMARK / SQL_DELETE_BY_BOOKMARK,
 * the row statuses the cursor reports for its own changes, 01001 when the
 * row changed since the cursor read it, a rollback undoing them, a table
 * without a primary key (rows found by their values), and the cursors that
 * cannot change rows (a join, no key in the select list, a read-only
 * cursor). The global twin runs the same on solo tables: each change runs
 * on the table's owner group (routing_cursor_changes_rows_on_their_owners
 * proves that on sharded rows).
 */
#include <stdbool.h>

#include "st_test.h"

#define ROWSET 3

typedef struct buffers {
    SQLINTEGER marks[ROWSET];
    SQLLEN mark_len[ROWSET];
    SQLINTEGER id[ROWSET];
    SQLLEN id_ind[ROWSET];
    char name[ROWSET][16];
    SQLLEN name_ind[ROWSET];
    SQLINTEGER qty[ROWSET];
    SQLLEN qty_ind[ROWSET];
    SQLUSMALLINT status[ROWSET];
    SQLUSMALLINT operations[ROWSET];
} buffers;

static SQLHSTMT values_cursor(st_conn *c, buffers *b, const char *sql)
{
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_STATIC, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CONCURRENCY, (SQLPOINTER)SQL_CONCUR_VALUES, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_USE_BOOKMARKS, (SQLPOINTER)SQL_UB_VARIABLE, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)ROWSET, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_STATUS_PTR, b->status, 0), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)sql, SQL_NTS), s);
    ST_OK(SQLBindCol(s, 0, SQL_C_VARBOOKMARK, b->marks, sizeof b->marks[0], b->mark_len), s);
    ST_OK(SQLBindCol(s, 1, SQL_C_SLONG, b->id, 0, b->id_ind), s);
    ST_OK(SQLBindCol(s, 2, SQL_C_CHAR, b->name, sizeof b->name[0], b->name_ind), s);
    ST_OK(SQLBindCol(s, 3, SQL_C_SLONG, b->qty, 0, b->qty_ind), s);
    return s;
}

static const char *stored(st_conn *c, int id)
{
    char sql[128];
    snprintf(sql, sizeof sql,
             "select coalesce((select name || ':' || qty from cur_items where id = %d), 'gone')",
             id);
    return st_query_text(c, sql);
}

#define ITEMS "select id, name, qty from cur_items order by id"

static void set_pos_changes(st_conn *c)
{
    buffers b;
    SQLHSTMT s = values_cursor(c, &b, ITEMS);
    SQLULEN v = 0;
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_CONCURRENCY, &v, 0, NULL), s);
    ST_CHECK(v == SQL_CONCUR_VALUES, "concurrency %lu", (unsigned long)v);
    ST_OK(SQLFetchScroll(s, SQL_FETCH_FIRST, 0), s);
    ST_CHECK(b.id[0] == 1 && b.id[2] == 3, "rowset 1..3");

    /* Update row 2 of the rowset. */
    strcpy(b.name[1], "changed");
    b.name_ind[1] = SQL_NTS;
    b.qty[1] = 99;
    ST_OK(SQLSetPos(s, 2, SQL_UPDATE, SQL_LOCK_NO_CHANGE), s);
    ST_CHECK(b.status[1] == SQL_ROW_UPDATED, "status %d", b.status[1]);
    ST_CHECK(strcmp(stored(c, 2), "changed:99") == 0, "stored %s", stored(c, 2));
    /* SQL_COLUMN_IGNORE leaves a column alone. */
    b.name_ind[0] = SQL_COLUMN_IGNORE;
    b.qty[0] = 7;
    ST_OK(SQLSetPos(s, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE), s);
    ST_CHECK(strcmp(stored(c, 1), "item 1:7") == 0, "stored %s", stored(c, 1));
    /* Delete row 3. */
    ST_OK(SQLSetPos(s, 3, SQL_DELETE, SQL_LOCK_NO_CHANGE), s);
    ST_CHECK(b.status[2] == SQL_ROW_DELETED, "status %d", b.status[2]);
    ST_CHECK(strcmp(stored(c, 3), "gone") == 0, "row 3 %s", stored(c, 3));

    /* The cursor sees its own changes, and says which rows they were. */
    ST_OK(SQLFetchScroll(s, SQL_FETCH_LAST, 0), s);
    ST_OK(SQLFetchScroll(s, SQL_FETCH_FIRST, 0), s);
    ST_CHECK(strcmp(b.name[1], "changed") == 0 && b.qty[1] == 99 && b.qty[0] == 7,
             "refetched: %s %d %d", b.name[1], (int)b.qty[1], (int)b.qty[0]);
    ST_CHECK(b.status[0] == SQL_ROW_UPDATED && b.status[1] == SQL_ROW_UPDATED &&
             b.status[2] == SQL_ROW_DELETED, "statuses %d %d %d", b.status[0], b.status[1],
             b.status[2]);

    /* Someone else changes row 4: the cursor's update of it is a conflict. */
    ST_OK(SQLFetchScroll(s, SQL_FETCH_ABSOLUTE, 4), s);
    st_exec(c, "update cur_items set name = 'other' where id = 4");
    b.qty[0] = 1000;
    SQLRETURN rc = SQLSetPos(s, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO && st_has_state(SQL_HANDLE_STMT, s, "01001") &&
             b.status[0] == SQL_ROW_ERROR, "conflict: rc %d status %d", rc, b.status[0]);
    ST_CHECK(strcmp(stored(c, 4), "other:4") == 0, "row 4 kept: %s", stored(c, 4));
    rc = SQLSetPos(s, 1, SQL_DELETE, SQL_LOCK_NO_CHANGE);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO && st_has_state(SQL_HANDLE_STMT, s, "01001"),
             "delete conflict: rc %d", rc);
    ST_CHECK(strcmp(stored(c, 4), "other:4") == 0, "row 4 not deleted");

    /* Row 0: every row of the rowset but those SQL_ATTR_ROW_OPERATION_PTR ignores. */
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_OPERATION_PTR, b.operations, 0), s);
    b.operations[0] = SQL_ROW_IGNORE;     /* row 4, the conflict */
    b.operations[1] = b.operations[2] = SQL_ROW_PROCEED;
    b.qty[1] = 55;
    b.qty[2] = 66;
    ST_OK(SQLSetPos(s, 0, SQL_UPDATE, SQL_LOCK_NO_CHANGE), s);
    ST_CHECK(strcmp(stored(c, 5), "item 5:55") == 0 && strcmp(stored(c, 6), "item 6:66") == 0,
             "rows 5 and 6: %s", stored(c, 5));
    SQLLEN count = 0;
    ST_OK(SQLRowCount(s, &count), s);
    ST_CHECK(count == 2, "SQLRowCount after SQLSetPos: %ld", (long)count);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_OPERATION_PTR, NULL, 0), s);

    /* Errors: past the rowset. */
    ST_EXPECT_STATE(SQLSetPos(s, 4, SQL_UPDATE, SQL_LOCK_NO_CHANGE), s, "HY107");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

static void bulk_changes(st_conn *c)
{
    buffers b;
    SQLHSTMT s = values_cursor(c, &b, ITEMS);
    /* SQL_ADD two rows; the third slot is ignored. */
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_OPERATION_PTR, b.operations, 0), s);
    for (int i = 0; i < ROWSET; i++) {
        b.id[i] = 100 + i;
        b.id_ind[i] = 0;
        snprintf(b.name[i], sizeof b.name[i], "new %d", i);
        b.name_ind[i] = SQL_NTS;
        b.qty[i] = i;
        b.qty_ind[i] = 0;
        b.operations[i] = i < 2 ? SQL_ROW_PROCEED : SQL_ROW_IGNORE;
    }
    ST_OK(SQLBulkOperations(s, SQL_ADD), s);
    ST_CHECK(b.status[0] == SQL_ROW_ADDED && b.status[1] == SQL_ROW_ADDED, "added statuses");
    SQLLEN count = 0;
    ST_OK(SQLRowCount(s, &count), s);
    ST_CHECK(count == 2, "SQLRowCount after SQL_ADD: %ld", (long)count);
    /* The added rows' bookmarks came back in column 0: fetch the first by it. */
    SQLINTEGER added_mark = b.marks[0];
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_FETCH_BOOKMARK_PTR, &added_mark, 0), s);
    ST_OK(SQLFetchScroll(s, SQL_FETCH_BOOKMARK, 0), s);
    ST_CHECK(b.id[0] == 100 && b.status[0] == SQL_ROW_ADDED, "added row by its bookmark: %d",
             (int)b.id[0]);
    ST_CHECK(strcmp(stored(c, 100), "new 0:0") == 0 && strcmp(stored(c, 102), "gone") == 0,
             "added rows: %s", stored(c, 100));
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_OPERATION_PTR, NULL, 0), s);
    /* The added rows are at the end of the cursor. */
    ST_OK(SQLFetchScroll(s, SQL_FETCH_LAST, 0), s);
    ST_CHECK(b.id[1] == 100 && b.id[2] == 101 && b.status[2] == SQL_ROW_ADDED,
             "last rowset %d %d status %d", (int)b.id[1], (int)b.id[2], b.status[2]);
    /* A duplicate key fails that row. */
    b.id[0] = 100;
    SQLRETURN rc = SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)1, 0);
    ST_OK(rc, s);
    ST_EXPECT_STATE(SQLBulkOperations(s, SQL_ADD), s, "23505");
    ST_CHECK(b.status[0] == SQL_ROW_ERROR, "duplicate status %d", b.status[0]);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)ROWSET, 0), s);

    /* Update and delete by bookmark. */
    ST_OK(SQLFetchScroll(s, SQL_FETCH_ABSOLUTE, 6), s);    /* row 3 was deleted */
    ST_CHECK(b.id[0] == 7 && b.id[2] == 9 && b.mark_len[0] == 4, "rowset from 7");
    SQLINTEGER mark7 = b.marks[0], mark9 = b.marks[2];
    ST_OK(SQLFetchScroll(s, SQL_FETCH_FIRST, 0), s);
    b.marks[0] = mark7;
    b.marks[1] = mark9;
    b.id[0] = 7;
    b.id[1] = 9;
    strcpy(b.name[0], "seven");
    strcpy(b.name[1], "nine");
    b.name_ind[0] = b.name_ind[1] = SQL_NTS;
    b.qty[0] = 70;
    b.qty[1] = 90;
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)2, 0), s);
    ST_OK(SQLBulkOperations(s, SQL_UPDATE_BY_BOOKMARK), s);
    ST_CHECK(strcmp(stored(c, 7), "seven:70") == 0 && strcmp(stored(c, 9), "nine:90") == 0,
             "updated by bookmark: %s", stored(c, 7));
    ST_CHECK(b.status[0] == SQL_ROW_UPDATED, "status %d", b.status[0]);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)1, 0), s);
    b.marks[0] = mark9;
    ST_OK(SQLBulkOperations(s, SQL_DELETE_BY_BOOKMARK), s);
    ST_CHECK(strcmp(stored(c, 9), "gone") == 0 && b.status[0] == SQL_ROW_DELETED,
             "deleted by bookmark");
    b.marks[0] = 4242;
    ST_EXPECT_STATE(SQLBulkOperations(s, SQL_DELETE_BY_BOOKMARK), s, "HY111");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

static void rollback_and_refusals(st_conn *c)
{
    /* Changes through the cursor belong to the transaction. */
    ST_OK(SQLSetConnectAttr(c->dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0),
          c->dbc);
    buffers b;
    SQLHSTMT s = values_cursor(c, &b, ITEMS " ");
    ST_OK(SQLFetchScroll(s, SQL_FETCH_ABSOLUTE, 7), s);    /* rows 3 and 9 were deleted */
    ST_CHECK(b.id[0] == 8, "row 8: %d", (int)b.id[0]);
    ST_OK(SQLSetPos(s, 1, SQL_DELETE, SQL_LOCK_NO_CHANGE), s);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    ST_OK(SQLEndTran(SQL_HANDLE_DBC, c->dbc, SQL_ROLLBACK), c->dbc);
    ST_OK(SQLSetConnectAttr(c->dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0),
          c->dbc);
    ST_CHECK(strcmp(stored(c, 8), "item 8:8") == 0, "rolled back: %s", stored(c, 8));

    /* A join, and a select list without the key, cannot be written back. */
    s = values_cursor(c, &b, "select i.id, o.note, i.qty from cur_items i "
                             "join cur_other o using (id) order by 1");
    ST_OK(SQLFetchScroll(s, SQL_FETCH_FIRST, 0), s);
    ST_EXPECT_STATE(SQLSetPos(s, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE), s, "HY000");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    s = values_cursor(c, &b, "select qty, name, qty from cur_items order by id");
    ST_OK(SQLFetchScroll(s, SQL_FETCH_FIRST, 0), s);
    ST_EXPECT_STATE(SQLSetPos(s, 1, SQL_DELETE, SQL_LOCK_NO_CHANGE), s, "HY000");
    SQLFreeHandle(SQL_HANDLE_STMT, s);

    /* A read-only cursor changes nothing; on a static cursor LOCK and ROWVER
     * become VALUES at the execute (keyset cursors: test_keyset.c). */
    s = st_stmt(c);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_STATIC, 0), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)ITEMS, SQL_NTS), s);
    ST_OK(SQLFetchScroll(s, SQL_FETCH_FIRST, 0), s);
    ST_EXPECT_STATE(SQLSetPos(s, 1, SQL_DELETE, SQL_LOCK_NO_CHANGE), s, "HY092");
    ST_OK(SQLCloseCursor(s), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CONCURRENCY, (SQLPOINTER)SQL_CONCUR_ROWVER, 0), s);
    SQLULEN v = 0;
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_CONCURRENCY, &v, 0, NULL), s);
    ST_CHECK(v == SQL_CONCUR_ROWVER, "rowver kept until the cursor opens: %lu", (unsigned long)v);
    SQLRETURN rc = SQLExecDirect(s, (SQLCHAR *)ITEMS, SQL_NTS);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO && st_has_state(SQL_HANDLE_STMT, s, "01S02"),
             "static rowver: execute rc %d", rc);
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_CONCURRENCY, &v, 0, NULL), s);
    ST_CHECK(v == SQL_CONCUR_VALUES, "static rowver became %lu", (unsigned long)v);
    rc = SQLFetchScroll(s, SQL_FETCH_FIRST, 0);
    ST_CHECK(rc == SQL_SUCCESS, "the first fetch says it again: rc %d", rc);
    ST_OK(SQLCloseCursor(s), s);
    ST_EXPECT_STATE(SQLSetStmtAttr(s, SQL_ATTR_CONCURRENCY, (SQLPOINTER)99, 0), s, "HY024");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* Three rows of (int, text) bound for a static SQL_CONCUR_VALUES cursor. */
typedef struct int_text_rows {
    SQLINTEGER i[3];
    char text[3][8];
    SQLLEN i_ind[3], t_ind[3];
    SQLUSMALLINT status[3];
} int_text_rows;

/* A static SQL_CONCUR_VALUES cursor over sql (an int and a text column),
 * its first rowset of up to three rows fetched into r. */
static SQLHSTMT int_text_cursor(st_conn *c, int_text_rows *r, const char *sql)
{
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_STATIC, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CONCURRENCY, (SQLPOINTER)SQL_CONCUR_VALUES, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)3, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_STATUS_PTR, r->status, 0), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)sql, SQL_NTS), s);
    ST_OK(SQLBindCol(s, 1, SQL_C_SLONG, r->i, 0, r->i_ind), s);
    ST_OK(SQLBindCol(s, 2, SQL_C_CHAR, r->text, sizeof r->text[0], r->t_ind), s);
    ST_OK(SQLFetchScroll(s, SQL_FETCH_FIRST, 0), s);
    return s;
}

/* A table without a primary key: the select list has all its columns, so a
 * row is found by its values; of two equal rows one changes. */
static void table_without_key(st_conn *c)
{
    st_exec(c, "drop table if exists cur_nokey");
    st_exec(c, "create table cur_nokey(i int, t text)");
    st_exec(c, "insert into cur_nokey values (1, 'a'), (1, 'a'), (2, null)");
    int_text_rows r;
    SQLHSTMT s = int_text_cursor(c, &r, "select i, t from cur_nokey order by i");
    strcpy(r.text[0], "x");
    r.t_ind[0] = SQL_NTS;
    ST_OK(SQLSetPos(s, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE), s);
    ST_CHECK(strcmp(st_query_text(c, "select string_agg(coalesce(t, '-'), ',' order by t) "
                                     "from cur_nokey"), "a,x,-") == 0,
             "one of the equal rows updated: %s",
             st_query_text(c, "select string_agg(coalesce(t, '-'), ',' order by t) from cur_nokey"));
    ST_OK(SQLSetPos(s, 2, SQL_DELETE, SQL_LOCK_NO_CHANGE), s);
    ST_OK(SQLSetPos(s, 3, SQL_DELETE, SQL_LOCK_NO_CHANGE), s);     /* NULL matched too */
    ST_CHECK(strcmp(st_query_text(c, "select string_agg(t, ',') from cur_nokey"), "x") == 0,
             "left: %s", st_query_text(c, "select string_agg(t, ',') from cur_nokey"));
    SQLRETURN rc = SQLSetPos(s, 3, SQL_DELETE, SQL_LOCK_NO_CHANGE);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO && st_has_state(SQL_HANDLE_STMT, s, "01001"),
             "deleting a deleted row is a conflict: rc %d", rc);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_exec(c, "drop table cur_nokey");
}

/* A partitioned table without a primary key: each partition has a row at
 * ctid (0,1), and changing one row changes that row only. */
static void partitioned_without_key(st_conn *c)
{
    st_exec(c, "drop table if exists cur_parted");
    st_exec(c, "create table cur_parted(i int, t text) partition by list (i)");
    st_exec(c, "create table cur_parted_1 partition of cur_parted for values in (1)");
    st_exec(c, "create table cur_parted_2 partition of cur_parted for values in (2)");
    st_exec(c, "insert into cur_parted values (1, 'a'), (2, 'a')");
    int_text_rows r;
    SQLHSTMT s = int_text_cursor(c, &r, "select i, t from cur_parted order by i");
    strcpy(r.text[0], "x");
    r.t_ind[0] = SQL_NTS;
    ST_OK(SQLSetPos(s, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE), s);
    const char *q = "select string_agg(i || t, ',' order by i) from cur_parted";
    ST_CHECK(strcmp(st_query_text(c, q), "1x,2a") == 0, "one row of one partition updated: %s",
             st_query_text(c, q));
    ST_OK(SQLSetPos(s, 2, SQL_DELETE, SQL_LOCK_NO_CHANGE), s);
    ST_CHECK(strcmp(st_query_text(c, q), "1x") == 0, "one row deleted: %s", st_query_text(c, q));
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_exec(c, "drop table cur_parted");
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    bool global = getenv("GC_TEST_GLOBAL") != NULL;
    SQLUINTEGER ops = 0;
    SQLGetInfo(c.dbc, SQL_POS_OPERATIONS, &ops, sizeof ops, NULL);
    ST_CHECK(ops == (SQL_POS_POSITION | SQL_POS_REFRESH | SQL_POS_UPDATE | SQL_POS_DELETE |
                     SQL_POS_ADD),
             "SQL_POS_OPERATIONS %#x", (unsigned)ops);
    st_exec(&c, "drop table if exists cur_items");
    st_exec(&c, "create table cur_items(id int primary key, name text, qty int)");
    st_exec(&c, "insert into cur_items select g, 'item ' || g, g from generate_series(1, 10) g");
    st_exec(&c, "drop table if exists cur_other");
    st_exec(&c, "create table cur_other(id int primary key, note text)");
    st_exec(&c, "insert into cur_other select g, 'note ' || g from generate_series(1, 10) g");
    set_pos_changes(&c);
    bulk_changes(&c);
    rollback_and_refusals(&c);
    table_without_key(&c);
    if (!global)    /* CREATE TABLE ... PARTITION OF is gcctl's there */
        partitioned_without_key(&c);
    st_exec(&c, "drop table cur_items");
    st_exec(&c, "drop table cur_other");
    st_disconnect(&c);
    return st_finish("cursors_positioned_changes");
}
