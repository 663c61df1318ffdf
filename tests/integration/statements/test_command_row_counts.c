/*
 * SQLRowCount read from each kind of command tag (docs/statements.md, the
 * SQLRowCount item): the driver reads the count of a well-formed tag itself
 * and leaves the others to libpq (docs/performance.md). INSERT (whose tag
 * has an oid before the count), UPDATE, DELETE, MERGE, SELECT (CREATE
 * TABLE AS), MOVE and FETCH, counts of one digit and of six, a prepared
 * UPDATE executed again with new values, and tags without a count.
 */
#include "st_test.h"

/* Runs sql, which must succeed, and checks its row count. */
static void expect_count(SQLHSTMT s, const char *sql, SQLLEN want)
{
    ST_OK(st_run(s, sql), s);
    SQLLEN got = st_row_count(s);
    ST_CHECK(got == want, "%s: row count %ld, wanted %ld", sql, (long)got, (long)want);
}

/* A prepared UPDATE of one key executed for several keys: each execute's
 * own count. */
static void prepared_update(SQLHSTMT s)
{
    SQLINTEGER id = 0;
    SQLFreeStmt(s, SQL_CLOSE);
    ST_OK(SQLPrepare(s, (SQLCHAR *)"update rc_t set v = v || 'p' where id = ?", SQL_NTS), s);
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &id, 0, NULL),
          s);
    for (id = 1; id <= 4; id++) {
        ST_OK(SQLExecute(s), s);
        ST_CHECK(st_row_count(s) == 1, "prepared update of id %d: %ld", (int)id,
                 (long)st_row_count(s));
    }
    id = -1;
    SQLRETURN rc = SQLExecute(s);
    ST_CHECK(rc == SQL_NO_DATA, "prepared update of no row: rc=%d", (int)rc);
    ST_CHECK(st_row_count(s) == 0, "prepared update of no row: %ld", (long)st_row_count(s));
    SQLFreeStmt(s, SQL_RESET_PARAMS);
}

/* MOVE and FETCH of a cursor in a transaction. */
static void cursor_commands(st_conn *c, SQLHSTMT s)
{
    ST_OK(SQLSetConnectAttr(c->dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0), s);
    ST_OK(st_run(s, "declare rc_c cursor for select g from generate_series(1, 10) g"), s);
    expect_count(s, "move 3 in rc_c", 3);
    expect_count(s, "fetch 2 from rc_c", 2);
    SQLINTEGER g = 0;
    SQLLEN ind = 0;
    ST_OK(SQLFetch(s), s);
    ST_OK(SQLGetData(s, 1, SQL_C_SLONG, &g, 0, &ind), s);
    ST_CHECK(g == 4, "the fetch starts after the move: %d", (int)g);
    expect_count(s, "move forward all in rc_c", 5);
    expect_count(s, "fetch 1 from rc_c", 0);
    ST_OK(st_run(s, "close rc_c"), s);
    ST_CHECK(st_row_count(s) == 0, "CLOSE CURSOR, two words, counts 0: %ld", (long)st_row_count(s));
    SQLFreeStmt(s, SQL_CLOSE);
    ST_OK(SQLEndTran(SQL_HANDLE_DBC, c->dbc, SQL_COMMIT), s);
    ST_OK(SQLSetConnectAttr(c->dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0), s);
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    st_exec(&c, "drop table if exists rc_t");
    st_exec(&c, "drop table if exists rc_copy");
    st_exec(&c, "create table rc_t (id int primary key, v text)");
    SQLHSTMT s = st_stmt(&c);

    expect_count(s, "insert into rc_t values (1, 'a'), (2, 'b'), (3, 'c')", 3);
    expect_count(s, "insert into rc_t select g, 'g' from generate_series(4, 123459) g", 123456);
    expect_count(s, "update rc_t set v = 'u' where id <= 2", 2);
    expect_count(s, "delete from rc_t where id > 10", 123449);
    expect_count(s, "merge into rc_t t using (select g as id from generate_series(9, 12) g) n "
                    "on t.id = n.id when matched then update set v = 'm' "
                    "when not matched then insert values (n.id, 'n')", 4);
    expect_count(s, "create table rc_copy as select * from rc_t where id <= 5", 5);
    expect_count(s, "select * from rc_t where id <= 7", 7);
    prepared_update(s);
    cursor_commands(&c, s);

    /* Tags without a count: psqlODBC's -1 for one word, 0 for several. */
    expect_count(s, "set application_name = 'row counts'", -1);
    expect_count(s, "create index rc_t_v on rc_t (v)", 0);
    expect_count(s, "drop table rc_copy", -1);

    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_exec(&c, "drop table rc_t");
    st_disconnect(&c);
    return st_finish("command_row_counts");
}
