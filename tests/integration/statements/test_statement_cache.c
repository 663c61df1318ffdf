/*
 * Server-side statements are kept for reuse (docs/statements.md,
 * "Server-side statements"), as the session's own pg_prepared_statements
 * shows: a handle that alternates two texts (what pyodbc's cursor.execute
 * does) and handles allocated per statement reuse the server statements
 * already made; at most 32 are kept; DDL run through the connection drops
 * them, so a query whose result changed shape is prepared afresh; after DDL
 * of another connection, such a query is prepared again when the server
 * refuses the kept one; a text prepared again on its handle after DDL is
 * prepared afresh, inside a transaction too.
 */
#include "st_test.h"

/* How many server statements of the session have a text matching the
 * regular expression `pattern` (the driver sends `?` as $1), and how many
 * executions they counted. */
static void server_statements(st_conn *c, const char *pattern, int *count, int *executions)
{
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT count(*) || ' ' || coalesce(sum(generic_plans + custom_plans), 0) "
             "FROM pg_prepared_statements WHERE statement ~ '%s'", pattern);
    *count = *executions = -1;
    ST_CHECK(sscanf(st_query_text(c, sql), "%d %d", count, executions) == 2,
             "pg_prepared_statements answered");
}

#define FIRST_TWO "^SELECT (v|id) FROM sc_t WHERE id [=>] \\$1$"
#define FORTY "^SELECT id \\+ [0-9]+ FROM sc_t WHERE id = \\$1$"

/* Prepares sql (one integer parameter) on s, runs it with `param` and reads
 * every row; returns the number of result columns. */
static SQLSMALLINT run(SQLHSTMT s, const char *sql, SQLINTEGER param)
{
    ST_OK(SQLPrepare(s, (SQLCHAR *)sql, SQL_NTS), s);
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &param, 0,
                           NULL), s);
    ST_OK(SQLExecute(s), s);
    SQLSMALLINT cols = 0;
    ST_OK(SQLNumResultCols(s, &cols), s);
    while (SQLFetch(s) == SQL_SUCCESS)
        ;
    ST_OK(SQLCloseCursor(s), s);
    return cols;
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    st_exec(&c, "DROP TABLE IF EXISTS sc_t");
    st_exec(&c, "CREATE TABLE sc_t (id int, v text)");
    st_exec(&c, "INSERT INTO sc_t SELECT g, 'v' || g FROM generate_series(1, 10) g");
    int n = 0, executions = 0;

    /* One handle, two texts in turn: two server statements, each run 50
     * times (without reuse: a new one per execution, each run once). */
    SQLHSTMT s = st_stmt(&c);
    for (int i = 0; i < 50; i++) {
        run(s, "SELECT v FROM sc_t WHERE id = ?", i % 10 + 1);
        run(s, "SELECT id FROM sc_t WHERE id > ?", i % 10);
    }
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    server_statements(&c, FIRST_TWO, &n, &executions);
    ST_CHECK(n == 2 && executions == 100,
             "two texts alternated 50 times: %d server statements, %d executions (wanted 2, 100)",
             n, executions);

    /* A handle per statement, 40 texts, twice: the second round reuses the
     * 32 kept (the newest), and no more than 32 are ever kept. */
    for (int round = 0; round < 2; round++) {
        for (int k = 0; k < 40; k++) {
            char sql[64];
            snprintf(sql, sizeof sql, "SELECT id + %d FROM sc_t WHERE id = ?", k);
            s = st_stmt(&c);
            run(s, sql, 1);
            SQLFreeHandle(SQL_HANDLE_STMT, s);
        }
    }
    server_statements(&c, FORTY, &n, &executions);
    ST_CHECK(n == 32, "40 texts on their own handles: %d server statements kept (wanted 32)", n);
    server_statements(&c, FIRST_TWO, &n, &executions);
    ST_CHECK(n == 0, "the oldest kept were deallocated first: %d of the first two left", n);

    /* DDL drops what is kept: SELECT * after a column was added has three
     * columns, not the error of a reused plan whose result type changed. */
    s = st_stmt(&c);
    ST_CHECK(run(s, "SELECT * FROM sc_t WHERE id = ?", 1) == 2, "two columns before");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_exec(&c, "ALTER TABLE sc_t ADD COLUMN w int DEFAULT 7");
    s = st_stmt(&c);
    ST_CHECK(run(s, "SELECT * FROM sc_t WHERE id = ?", 1) == 3, "three columns after ALTER TABLE");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    server_statements(&c, FORTY, &n, &executions);
    ST_CHECK(n == 0, "ALTER TABLE deallocated the kept statements: %d left", n);

    /* DDL of another connection: the kept statement is refused by the
     * server (its result type changed) and prepared again, unseen. */
    s = st_stmt(&c);
    ST_CHECK(run(s, "SELECT * FROM sc_t WHERE id = ?", 2) == 3, "three columns");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_conn other;
    st_connect(&other);
    st_exec(&other, "ALTER TABLE sc_t ADD COLUMN x int DEFAULT 8");
    st_disconnect(&other);
    s = st_stmt(&c);
    ST_CHECK(run(s, "SELECT * FROM sc_t WHERE id = ?", 2) == 4,
             "four columns after another connection's ALTER TABLE");
    SQLFreeHandle(SQL_HANDLE_STMT, s);

    /* A handle that holds its statement while DDL runs on the connection,
     * then prepares the same text again, inside a transaction: the new
     * shape is described before the execute and runs, where the held
     * statement was refused by the server ("cached plan must not change
     * result type", 0A000) and the refusal aborted the transaction. */
    s = st_stmt(&c);
    ST_CHECK(run(s, "SELECT * FROM sc_t WHERE id = ?", 3) == 4, "four columns");
    ST_CHECK(SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0) ==
                 SQL_SUCCESS, "autocommit off");
    st_exec(&c, "ALTER TABLE sc_t ADD COLUMN y int DEFAULT 9");
    st_exec(&c, "INSERT INTO sc_t (id) VALUES (11)");
    ST_OK(SQLPrepare(s, (SQLCHAR *)"SELECT * FROM sc_t WHERE id = ?", SQL_NTS), s);
    SQLSMALLINT cols = 0;
    ST_OK(SQLNumResultCols(s, &cols), s);
    ST_CHECK(cols == 5, "the text prepared again after ALTER TABLE describes %d columns "
             "before its execute (wanted 5)", cols);
    ST_CHECK(run(s, "SELECT * FROM sc_t WHERE id = ?", 11) == 5, "five columns after ALTER TABLE");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    ST_CHECK(SQLEndTran(SQL_HANDLE_DBC, c.dbc, SQL_COMMIT) == SQL_SUCCESS,
             "the transaction with the DDL and the statement prepared again commits");
    SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0);
    ST_CHECK(strcmp(st_query_text(&c, "SELECT count(*) FROM sc_t WHERE id = 11 AND y = 9"),
                    "1") == 0, "the transaction's row and column were committed");

    st_exec(&c, "DROP TABLE sc_t");
    st_disconnect(&c);
    return st_finish("statement_cache");
}
