/*
 * SELECT @@IDENTITY, as programs written for SQL Server and psqlODBC ask
 * for the key an insert just generated: the driver answers with the value
 * the session's last nextval() gave (lastval()). Where @@ is PostgreSQL's
 * text-search operator it is left alone; SQL_ATTR_NOSCAN sends the text
 * untouched. A global connection refuses it as it refuses lastval()
 * (0A000): its statements run in more than one server session.
 */
#include "st_test.h"

/* Inserts one row into `table` and returns what @@identity says after it. */
static long insert_and_ask(st_conn *c, const char *table)
{
    char sql[200];
    snprintf(sql, sizeof sql, "insert into %s (label) values ('row')", table);
    st_exec(c, sql);
    return atol(st_query_text(c, "select @@Identity as generated"));
}

/* On a global connection @@identity is refused like lastval() itself. */
static int global_refuses(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)"select @@identity", SQL_NTS), s, "0A000");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(c);
    return st_failures == 0 ? 0 : 1;
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    if (getenv("GC_TEST_GLOBAL") != NULL)
        return global_refuses(&c);
    st_exec(&c, "drop table if exists stmt_ident_a, stmt_ident_b");
    st_exec(&c, "create table stmt_ident_a(id serial primary key, label text)");
    st_exec(&c, "create table stmt_ident_b(id bigint generated always as identity "
                "(start with 500) primary key, label text)");

    long first = insert_and_ask(&c, "stmt_ident_a");
    long second = insert_and_ask(&c, "stmt_ident_a");
    long other = insert_and_ask(&c, "stmt_ident_b");
    ST_CHECK(first == 1 && second == 2, "serial keys %ld, %ld", first, second);
    ST_CHECK(other == 500, "identity column key %ld", other);
    ST_CHECK(strcmp(st_query_text(&c, "select max(id) from stmt_ident_a"), "2") == 0,
             "rows in stmt_ident_a");

    /* The column is named as the application wrote it. */
    SQLHSTMT s = st_stmt(&c);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select @@IDENTITY as last_insert", SQL_NTS), s);
    SQLCHAR name[64];
    SQLSMALLINT name_len;
    ST_OK(SQLDescribeCol(s, 1, name, sizeof name, &name_len, NULL, NULL, NULL, NULL), s);
    ST_CHECK(strcmp((char *)name, "last_insert") == 0, "column name %s", name);
    SQLFreeStmt(s, SQL_CLOSE);

    /* @@ after an operand is the text-search match, not @@identity. */
    ST_CHECK(strcmp(st_query_text(&c, "select to_tsvector('simple', 'identity') "
                                      "@@identity from (select to_tsquery('simple', "
                                      "'identity') as identity) q"), "1") == 0,
             "text-search match with a column named identity");

    /* With SQL_NOSCAN_ON the text goes as written: the server knows no
     * @@identity (42703, the column does not exist). */
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_NOSCAN, (SQLPOINTER)SQL_NOSCAN_ON, 0), s);
    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)"select @@identity", SQL_NTS), s, "42703");
    SQLFreeHandle(SQL_HANDLE_STMT, s);

    /* A session that generated no key yet: the server's 55000. */
    st_conn fresh;
    st_connect(&fresh);
    SQLHSTMT f = st_stmt(&fresh);
    ST_EXPECT_STATE(SQLExecDirect(f, (SQLCHAR *)"select @@identity", SQL_NTS), f, "55000");
    SQLFreeHandle(SQL_HANDLE_STMT, f);
    st_disconnect(&fresh);

    st_exec(&c, "drop table stmt_ident_a, stmt_ident_b");
    st_disconnect(&c);
    return st_failures == 0 ? 0 : 1;
}
