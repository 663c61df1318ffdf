/*
 * SQLSetPos(SQL_ADD), ODBC 2's way of inserting rows through a cursor that
 * ODBC 3 drivers keep: row 0 inserts every row of the bound arrays (also
 * right after the last rowset, when no rowset is current), row n only row
 * n; the rows get SQL_ROW_ADDED, count in SQLRowCount and show at the end
 * of the cursor. A failing row (duplicate key) reports
 * its error and status; a read-only cursor and a row past the array are
 * refused. The global twin runs the same on a solo table.
 */
#include "st_test.h"

#define ROWS 3

typedef struct rows {
    SQLINTEGER id[ROWS];
    SQLLEN id_ind[ROWS];
    char label[ROWS][12];
    SQLLEN label_ind[ROWS];
    SQLUSMALLINT status[ROWS];
} rows;

#define TABLE_ROWS "select id, label from pos_add order by id"

static SQLHSTMT open_cursor(st_conn *c, rows *r, SQLULEN cursor_type, SQLULEN concurrency,
                            const char *sql)
{
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)cursor_type, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CONCURRENCY, (SQLPOINTER)concurrency, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)ROWS, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_STATUS_PTR, r->status, 0), s);
    ST_OK(SQLBindCol(s, 1, SQL_C_SLONG, r->id, 0, r->id_ind), s);
    ST_OK(SQLBindCol(s, 2, SQL_C_CHAR, r->label, sizeof r->label[0], r->label_ind), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)sql, SQL_NTS), s);
    return s;
}

static void fill(rows *r, int first_id)
{
    for (int i = 0; i < ROWS; i++) {
        r->id[i] = first_id + i;
        r->id_ind[i] = 0;
        snprintf(r->label[i], sizeof r->label[i], "new %d", first_id + i);
        r->label_ind[i] = SQL_NTS;
        r->status[i] = 0xFFFF;
    }
}

static int stored_rows(st_conn *c, const char *where)
{
    char sql[128];
    snprintf(sql, sizeof sql, "select count(*) from pos_add where %s", where);
    return atoi(st_query_text(c, sql));
}

static void add_rows(st_conn *c, SQLULEN cursor_type)
{
    st_exec(c, "delete from pos_add where id > 4");
    rows r;
    SQLHSTMT s = open_cursor(c, &r, cursor_type, SQL_CONCUR_VALUES, TABLE_ROWS);
    /* To the end of the set first: no rowset is current. */
    ST_OK(SQLFetchScroll(s, SQL_FETCH_LAST, 0), s);
    ST_CHECK(SQLFetchScroll(s, SQL_FETCH_NEXT, 0) == SQL_NO_DATA, "past the end");
    fill(&r, 10);
    ST_OK(SQLSetPos(s, 0, SQL_ADD, SQL_LOCK_NO_CHANGE), s);
    for (int i = 0; i < ROWS; i++)
        ST_CHECK(r.status[i] == SQL_ROW_ADDED, "row %d status %u", i, r.status[i]);
    SQLLEN count = 0;
    ST_OK(SQLRowCount(s, &count), s);
    ST_CHECK(count == ROWS, "SQLRowCount after SQL_ADD: %ld", (long)count);
    ST_CHECK(stored_rows(c, "id between 10 and 12 and label like 'new %'") == ROWS,
             "added rows stored");

    /* Row 2 alone. */
    fill(&r, 20);
    ST_OK(SQLSetPos(s, 2, SQL_ADD, SQL_LOCK_NO_CHANGE), s);
    ST_CHECK(r.status[1] == SQL_ROW_ADDED && r.status[0] == 0xFFFF && r.status[2] == 0xFFFF,
             "only row 2 added: %u %u %u", r.status[0], r.status[1], r.status[2]);
    ST_CHECK(stored_rows(c, "id >= 20") == 1 && stored_rows(c, "id = 21") == 1,
             "row 2 stored alone");

    /* The added rows are the cursor's last ones. */
    ST_OK(SQLFetchScroll(s, SQL_FETCH_LAST, 0), s);
    ST_CHECK(r.id[0] == 11 && r.id[1] == 12 && r.id[2] == 21 && r.status[2] == SQL_ROW_ADDED,
             "last rowset %d %d %d", (int)r.id[0], (int)r.id[1], (int)r.id[2]);

    /* A duplicate key fails its row; the other rows are added. */
    fill(&r, 30);
    r.id[1] = 1;
    SQLRETURN rc = SQLSetPos(s, 0, SQL_ADD, SQL_LOCK_NO_CHANGE);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO && st_has_state(SQL_HANDLE_STMT, s, "23505"),
             "duplicate row: rc %d", rc);
    ST_CHECK(r.status[0] == SQL_ROW_ADDED && r.status[1] == SQL_ROW_ERROR &&
                 r.status[2] == SQL_ROW_ADDED,
             "statuses %u %u %u", r.status[0], r.status[1], r.status[2]);
    /* Past the bound array. */
    ST_EXPECT_STATE(SQLSetPos(s, ROWS + 1, SQL_ADD, SQL_LOCK_NO_CHANGE), s, "HY107");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* A read-only cursor adds nothing (HY092); `sql` names the rows. */
static void read_only(st_conn *c, const char *sql)
{
    rows r;
    SQLHSTMT s = open_cursor(c, &r, SQL_CURSOR_STATIC, SQL_CONCUR_READ_ONLY, sql);
    ST_OK(SQLFetchScroll(s, SQL_FETCH_FIRST, 0), s);
    fill(&r, 40);
    ST_EXPECT_STATE(SQLSetPos(s, 0, SQL_ADD, SQL_LOCK_NO_CHANGE), s, "HY092");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    /* The same on a global connection (a solo table there). */
    st_exec(&c, "drop table if exists pos_add");
    st_exec(&c, "create table pos_add(id int primary key, label text)");
    st_exec(&c, "insert into pos_add select g, 'old ' || g from generate_series(1, 4) g");
    add_rows(&c, SQL_CURSOR_STATIC);
    add_rows(&c, SQL_CURSOR_KEYSET_DRIVEN);
    read_only(&c, TABLE_ROWS);
    ST_CHECK(stored_rows(&c, "id >= 40") == 0, "nothing added by a read-only cursor");
    st_exec(&c, "drop table pos_add");
    st_disconnect(&c);
    return st_finish("cursors_setpos_add");
}
