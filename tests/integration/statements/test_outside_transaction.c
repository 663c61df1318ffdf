/*
 * Statements PostgreSQL refuses inside a transaction block (VACUUM, CREATE
 * INDEX CONCURRENTLY...; the list is in docs/transactions.md) run with
 * autocommit off too: the driver sends them without its BEGIN when no
 * transaction is open, and the connection goes on in manual-commit mode
 * afterwards. Inside an open transaction the server's error (25001) stands.
 */
#include <stdbool.h>

#include "st_test.h"

static SQLRETURN run(SQLHSTMT s, const char *sql)
{
    SQLFreeStmt(s, SQL_CLOSE);
    return SQLExecDirect(s, (SQLCHAR *)sql, SQL_NTS);
}

int main(void)
{
    st_conn observer, c;
    st_connect(&observer);
    st_exec(&observer, "drop table if exists ot_t");
    st_exec(&observer, "create table ot_t (id int, v text)");
    st_connect(&c);
    SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0);
    SQLHSTMT s = st_stmt(&c);

    /* A global connection runs CREATE / DROP INDEX CONCURRENTLY on the
     * group that owns the solo table ot_t, outside a transaction block too
     * (docs/global-connection.md, "DDL"). */
    static const char *const outside[] = {
        "vacuum ot_t",
        "VACUUM (ANALYZE) ot_t",
        "/* a comment */ create index concurrently ot_v on ot_t (v)",
        "reindex (verbose) table concurrently ot_t",
        "drop index concurrently ot_v",
        "cluster",
    };
    for (size_t i = 0; i < sizeof outside / sizeof outside[0]; i++) {
        ST_OK(run(s, outside[i]), s);
        /* Nothing was left open: the next statement begins a transaction. */
        ST_OK(run(s, "insert into ot_t values (1, 'a')"), s);
        ST_OK(SQLEndTran(SQL_HANDLE_DBC, c.dbc, SQL_ROLLBACK), s);
    }
    ST_CHECK(strcmp(st_query_text(&observer, "select count(*) from ot_t"), "0") == 0,
             "manual commit still holds: rolled back rows are gone");

    /* Prepared: the same. */
    SQLFreeStmt(s, SQL_CLOSE);
    ST_OK(SQLPrepare(s, (SQLCHAR *)"vacuum ot_t", SQL_NTS), s);
    ST_OK(SQLExecute(s), s);
    ST_OK(SQLExecute(s), s);

    /* A transaction is open: the server refuses, as it would anyway. */
    ST_OK(run(s, "insert into ot_t values (2, 'b')"), s);
    ST_EXPECT_STATE(run(s, "vacuum ot_t"), s, "25001");
    ST_OK(SQLEndTran(SQL_HANDLE_DBC, c.dbc, SQL_COMMIT), s);
    ST_CHECK(strcmp(st_query_text(&observer, "select count(*) from ot_t"), "1") == 0,
             "the row before the refused VACUUM was committed");

    /* Words that only look like such a statement get the driver's BEGIN. */
    ST_OK(run(s, "select 'vacuum' as vacuum"), s);
    ST_OK(run(s, "insert into ot_t values (3, 'create database x')"), s);
    ST_OK(SQLEndTran(SQL_HANDLE_DBC, c.dbc, SQL_ROLLBACK), s);
    ST_CHECK(strcmp(st_query_text(&observer, "select count(*) from ot_t"), "1") == 0,
             "an ordinary statement is still in a transaction");

    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);
    st_exec(&observer, "drop table ot_t");
    st_disconnect(&observer);
    return st_finish("outside_transaction");
}
