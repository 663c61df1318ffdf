/*
 * Concurrency and locks through keyset-driven and static cursors, with a
 * second connection: SQL_CONCUR_ROWVER checks a row's xmin (a change by
 * another session that leaves every value as it was is still a conflict,
 * 01001); SQL_CONCUR_LOCK locks the rows of each fetched rowset until the
 * transaction ends (the other connection's UPDATE of such a row runs into
 * its lock_timeout, 55P03, and goes through after the commit), and becomes
 * SQL_CONCUR_VALUES with 01S02 under autocommit; SQLSetPos
 * SQL_LOCK_EXCLUSIVE locks only the rows it names, until the rollback.
 * The same through a global connection (GC_TEST_GLOBAL, a solo table):
 * each row is locked by a query of its own, on its owner group, joined to
 * the transaction.
 */
#include <stdbool.h>

#include "st_test.h"

#define ROWSET 3

typedef struct buffers {
    SQLINTEGER id[ROWSET];
    SQLLEN id_ind[ROWSET];
    SQLINTEGER qty[ROWSET];
    SQLLEN qty_ind[ROWSET];
    SQLUSMALLINT status[ROWSET];
} buffers;

/* A cursor of `type` and `concurrency` over "select id, qty" of lk_items. */
static SQLHSTMT open_cursor(st_conn *c, buffers *b, SQLULEN type, SQLULEN concurrency)
{
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)type, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CONCURRENCY, (SQLPOINTER)concurrency, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)ROWSET, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_ROW_STATUS_PTR, b->status, 0), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select id, qty from lk_items order by id", SQL_NTS), s);
    ST_OK(SQLBindCol(s, 1, SQL_C_SLONG, b->id, 0, b->id_ind), s);
    ST_OK(SQLBindCol(s, 2, SQL_C_SLONG, b->qty, 0, b->qty_ind), s);
    return s;
}

/* Runs sql on c; true when it succeeded, else whether it failed with `state`. */
static bool exec_gives(st_conn *c, const char *sql, const char *state)
{
    SQLHSTMT s = st_stmt(c);
    SQLRETURN rc = SQLExecDirect(s, (SQLCHAR *)sql, SQL_NTS);
    bool ok = state == NULL ? ST_SUCCEEDED(rc)
                            : rc == SQL_ERROR && st_has_state(SQL_HANDLE_STMT, s, state);
    if (!ok)
        st_dump_diag(SQL_HANDLE_STMT, s);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    return ok;
}

static const char *qty_of(st_conn *c, int id)
{
    char sql[96];
    snprintf(sql, sizeof sql, "select coalesce((select qty::text from lk_items where id = %d), "
                              "'gone')", id);
    return st_query_text(c, sql);
}

static void autocommit(st_conn *c, bool on)
{
    SQLRETURN rc = SQLSetConnectAttr(c->dbc, SQL_ATTR_AUTOCOMMIT,
                                     (SQLPOINTER)(on ? SQL_AUTOCOMMIT_ON : SQL_AUTOCOMMIT_OFF), 0);
    ST_CHECK(ST_SUCCEEDED(rc), "autocommit %d", on);
}

/* SQL_CONCUR_ROWVER: the row's xmin, not its values, says whether it changed. */
static void row_versions(st_conn *a, st_conn *other)
{
    buffers b;
    SQLHSTMT s = open_cursor(a, &b, SQL_CURSOR_KEYSET_DRIVEN, SQL_CONCUR_ROWVER);
    ST_OK(SQLFetchScroll(s, SQL_FETCH_FIRST, 0), s);
    SQLULEN v = 0;
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_CONCURRENCY, &v, 0, NULL), s);
    ST_CHECK(v == SQL_CONCUR_ROWVER, "keyset cursor keeps SQL_CONCUR_ROWVER (%lu)",
             (unsigned long)v);

    /* Same values, new version: a conflict. */
    ST_CHECK(exec_gives(other, "update lk_items set qty = qty where id = 1", NULL), "touch 1");
    b.qty[0] = 10;
    SQLRETURN rc = SQLSetPos(s, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO && st_has_state(SQL_HANDLE_STMT, s, "01001") &&
                 b.status[0] == SQL_ROW_ERROR,
             "update of a row with a new version: rc %d status %d", rc, b.status[0]);
    ST_CHECK(strcmp(qty_of(other, 1), "1") == 0, "nothing changed: %s", qty_of(other, 1));
    /* A refresh reads the new version; then the update goes through, and a
     * second one too (the cursor keeps the version its update made). */
    ST_OK(SQLSetPos(s, 1, SQL_REFRESH, SQL_LOCK_NO_CHANGE), s);
    ST_CHECK(b.status[0] == SQL_ROW_SUCCESS, "values unchanged: status %d", b.status[0]);
    b.qty[0] = 10;
    ST_OK(SQLSetPos(s, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE), s);
    b.qty[0] = 11;
    ST_OK(SQLSetPos(s, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE), s);
    ST_CHECK(strcmp(qty_of(other, 1), "11") == 0, "stored %s", qty_of(other, 1));

    /* A delete checks the version too. */
    ST_CHECK(exec_gives(other, "update lk_items set qty = qty where id = 2", NULL), "touch 2");
    rc = SQLSetPos(s, 2, SQL_DELETE, SQL_LOCK_NO_CHANGE);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO && st_has_state(SQL_HANDLE_STMT, s, "01001"),
             "delete of a row with a new version: rc %d", rc);
    ST_CHECK(strcmp(qty_of(other, 2), "2") == 0, "row 2 kept");
    ST_OK(SQLFetchScroll(s, SQL_FETCH_FIRST, 0), s);
    ST_OK(SQLSetPos(s, 2, SQL_DELETE, SQL_LOCK_NO_CHANGE), s);
    ST_CHECK(strcmp(qty_of(other, 2), "gone") == 0, "row 2 deleted after a fetch");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* SQL_CONCUR_LOCK: the rows of each fetched rowset stay locked until the
 * transaction ends. */
static void locking_cursor(st_conn *a, st_conn *other)
{
    autocommit(a, false);
    buffers b;
    SQLHSTMT s = open_cursor(a, &b, SQL_CURSOR_KEYSET_DRIVEN, SQL_CONCUR_LOCK);
    ST_OK(SQLFetchScroll(s, SQL_FETCH_ABSOLUTE, 3), s);
    ST_CHECK(b.id[0] == 4 && b.id[2] == 6, "rowset ids %d..%d", b.id[0], b.id[2]);
    SQLULEN v = 0;
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_CONCURRENCY, &v, 0, NULL), s);
    ST_CHECK(v == SQL_CONCUR_LOCK, "SQL_CONCUR_LOCK kept in a transaction (%lu)",
             (unsigned long)v);
    ST_CHECK(exec_gives(other, "update lk_items set qty = 50 where id = 5", "55P03"),
             "a row of the rowset is locked");
    ST_CHECK(exec_gives(other, "update lk_items set qty = 70 where id = 7", NULL),
             "a row outside the rowset is not");
    b.qty[1] = 55;
    ST_OK(SQLSetPos(s, 2, SQL_UPDATE, SQL_LOCK_NO_CHANGE), s);
    ST_OK(SQLEndTran(SQL_HANDLE_DBC, a->dbc, SQL_COMMIT), a->dbc);
    ST_CHECK(strcmp(qty_of(other, 5), "55") == 0, "the cursor's update committed");
    ST_CHECK(exec_gives(other, "update lk_items set qty = 5 where id = 5", NULL),
             "the commit released the lock");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    ST_OK(SQLEndTran(SQL_HANDLE_DBC, a->dbc, SQL_COMMIT), a->dbc);
    autocommit(a, true);

    /* Under autocommit a lock would end with the statement: values, 01S02
     * from the execute. */
    s = st_stmt(a);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_KEYSET_DRIVEN, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CONCURRENCY, (SQLPOINTER)SQL_CONCUR_LOCK, 0), s);
    SQLRETURN rc = SQLExecDirect(s, (SQLCHAR *)"select id, qty from lk_items order by id", SQL_NTS);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO && st_has_state(SQL_HANDLE_STMT, s, "01S02"),
             "lock under autocommit: execute rc %d", rc);
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_CONCURRENCY, &v, 0, NULL), s);
    ST_CHECK(v == SQL_CONCUR_VALUES, "became %lu", (unsigned long)v);
    ST_OK(SQLFetchScroll(s, SQL_FETCH_FIRST, 0), s);
    ST_CHECK(exec_gives(other, "update lk_items set qty = 4 where id = 4", NULL),
             "nothing locked under autocommit");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* SQLSetPos(SQL_LOCK_EXCLUSIVE) locks the rows it names on a static cursor. */
static void exclusive_lock(st_conn *a, st_conn *other)
{
    autocommit(a, false);
    buffers b;
    SQLHSTMT s = open_cursor(a, &b, SQL_CURSOR_STATIC, SQL_CONCUR_READ_ONLY);
    ST_OK(SQLFetchScroll(s, SQL_FETCH_ABSOLUTE, 6), s);
    ST_CHECK(b.id[1] == 8, "row 2 of the rowset is id %d", b.id[1]);
    ST_OK(SQLSetPos(s, 2, SQL_POSITION, SQL_LOCK_EXCLUSIVE), s);
    ST_CHECK(exec_gives(other, "update lk_items set qty = 80 where id = 8", "55P03"),
             "the locked row");
    ST_CHECK(exec_gives(other, "update lk_items set qty = 90 where id = 9", NULL),
             "the row next to it is free");
    /* SQL_LOCK_UNLOCK cannot release it: PostgreSQL keeps it to the end. */
    ST_EXPECT_STATE(SQLSetPos(s, 2, SQL_POSITION, SQL_LOCK_UNLOCK), s, "HYC00");
    ST_CHECK(exec_gives(other, "update lk_items set qty = 80 where id = 8", "55P03"),
             "still locked");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    ST_OK(SQLEndTran(SQL_HANDLE_DBC, a->dbc, SQL_ROLLBACK), a->dbc);
    ST_CHECK(exec_gives(other, "update lk_items set qty = 80 where id = 8", NULL),
             "the rollback released it");

    /* A set without the table's key cannot be locked row by row. */
    s = st_stmt(a);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_STATIC, 0), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select qty from lk_items order by id", SQL_NTS), s);
    ST_OK(SQLFetchScroll(s, SQL_FETCH_FIRST, 0), s);
    ST_EXPECT_STATE(SQLSetPos(s, 1, SQL_POSITION, SQL_LOCK_EXCLUSIVE), s, "HY000");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    ST_OK(SQLEndTran(SQL_HANDLE_DBC, a->dbc, SQL_ROLLBACK), a->dbc);
    autocommit(a, true);
}

int main(void)
{
    st_conn a, other;
    st_connect(&a);
    st_connect(&other);
    st_exec(&other, "set lock_timeout = '300ms'");
    st_exec(&a, "drop table if exists lk_items");
    st_exec(&a, "create table lk_items(id int primary key, qty int)");
    st_exec(&a, "insert into lk_items select g, g from generate_series(1, 10) g");
    row_versions(&a, &other);
    locking_cursor(&a, &other);
    exclusive_lock(&a, &other);
    st_exec(&a, "drop table lk_items");
    st_disconnect(&other);
    st_disconnect(&a);
    return st_finish("cursors_locks");
}
