/*
 * A statement executed again keeps its result's description (the IRD) when
 * the new result has the same columns: what the application reads must
 * stay what a fresh description would say. On one handle: a new column
 * name, a new type, a new length, another column count, a column of the
 * same name and type from another table (its nullability differs), the
 * nullability looked up again after DDL, and the longest values of
 * UnknownSizes=2 changing from one execute to the next.
 */
#include "st_test.h"

typedef struct column {
    char name[32];
    SQLSMALLINT type;
    SQLULEN size;
    SQLSMALLINT nullable;
} column;

static column describe(SQLHSTMT s, SQLUSMALLINT col)
{
    column d = { "", 0, 0, -1 };
    SQLSMALLINT digits, len;
    ST_OK(SQLDescribeCol(s, col, (SQLCHAR *)d.name, sizeof d.name, &len, &d.type, &d.size,
                         &digits, &d.nullable), s);
    return d;
}

static SQLSMALLINT result_columns(SQLHSTMT s)
{
    SQLSMALLINT n = -1;
    ST_OK(SQLNumResultCols(s, &n), s);
    return n;
}

/* Runs sql on s, describes column col, reads the row and closes. */
static column run_and_describe(SQLHSTMT s, const char *sql, SQLUSMALLINT col)
{
    ST_OK(SQLExecDirect(s, (SQLCHAR *)sql, SQL_NTS), s);
    column d = describe(s, col);
    ST_OK(SQLFetch(s), s);
    ST_OK(SQLFreeStmt(s, SQL_CLOSE), s);
    return d;
}

/* Texts of the same shape but one difference each, on one handle. */
static void texts_on_one_handle(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    column d = run_and_describe(s, "SELECT 1::int4 AS a, 'x'::varchar(3) AS b", 1);
    ST_CHECK(strcmp(d.name, "a") == 0 && d.type == SQL_INTEGER, "first: '%s' type %d", d.name,
             d.type);
    d = run_and_describe(s, "SELECT 2::int4 AS a, 'y'::varchar(3) AS b", 1);
    ST_CHECK(strcmp(d.name, "a") == 0 && d.type == SQL_INTEGER, "same shape: '%s' type %d",
             d.name, d.type);
    d = run_and_describe(s, "SELECT 2::int4 AS c, 'y'::varchar(3) AS b", 1);
    ST_CHECK(strcmp(d.name, "c") == 0, "a new name: '%s'", d.name);
    d = run_and_describe(s, "SELECT 2::int8 AS c, 'y'::varchar(3) AS b", 1);
    ST_CHECK(d.type == SQL_BIGINT, "a new type: %d", d.type);
    d = run_and_describe(s, "SELECT 2::int8 AS c, 'y'::varchar(9) AS b", 2);
    ST_CHECK(d.type == SQL_VARCHAR && d.size == 9, "a new length: type %d size %lu", d.type,
             (unsigned long)d.size);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"SELECT 'y'::varchar(9) AS b", SQL_NTS), s);
    ST_CHECK(result_columns(s) == 1, "one column fewer: %d", result_columns(s));
    ST_EXPECT_STATE(SQLDescribeCol(s, 2, NULL, 0, NULL, NULL, NULL, NULL, NULL), s, "07009");
    ST_OK(SQLFreeStmt(s, SQL_CLOSE), s);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* The same column name and type from two tables, one NOT NULL: the
 * description follows the table, and the lookup runs again after DDL (on a
 * global connection too, where the describing member answers). */
static void nullability(st_conn *c)
{
    const SQLSMALLINT not_null = SQL_NO_NULLS;
    st_exec(c, "DROP TABLE IF EXISTS ird_reuse_a, ird_reuse_b");
    st_exec(c, "CREATE TABLE ird_reuse_a (id int NOT NULL)");
    st_exec(c, "CREATE TABLE ird_reuse_b (id int)");
    st_exec(c, "INSERT INTO ird_reuse_a VALUES (1)");
    st_exec(c, "INSERT INTO ird_reuse_b VALUES (1)");
    SQLHSTMT s = st_stmt(c);
    for (int i = 0; i < 2; i++) {
        column d = run_and_describe(s, "SELECT id FROM ird_reuse_a", 1);
        ST_CHECK(d.nullable == not_null, "NOT NULL column, execute %d: nullable %d", i + 1,
                 d.nullable);
    }
    column d = run_and_describe(s, "SELECT id FROM ird_reuse_b", 1);
    ST_CHECK(d.nullable == SQL_NULLABLE, "the other table's column: nullable %d", d.nullable);
    d = run_and_describe(s, "SELECT id FROM ird_reuse_a", 1);
    ST_CHECK(d.nullable == not_null, "back to the NOT NULL column: nullable %d", d.nullable);

    /* A prepared statement across DDL that keeps its result's shape. */
    ST_OK(SQLPrepare(s, (SQLCHAR *)"SELECT id FROM ird_reuse_a", SQL_NTS), s);
    ST_OK(SQLExecute(s), s);
    d = describe(s, 1);
    ST_CHECK(d.nullable == not_null, "prepared: nullable %d", d.nullable);
    ST_OK(SQLFreeStmt(s, SQL_CLOSE), s);
    st_exec(c, "ALTER TABLE ird_reuse_a ALTER id DROP NOT NULL");
    ST_OK(SQLExecute(s), s);
    d = describe(s, 1);
    ST_CHECK(d.nullable == SQL_NULLABLE, "after DROP NOT NULL: nullable %d", d.nullable);
    ST_OK(SQLFreeStmt(s, SQL_CLOSE), s);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_exec(c, "DROP TABLE ird_reuse_a, ird_reuse_b");
}

/* UnknownSizes=2: a text column is as long as the longest value of each
 * execute, not of the first. */
static void longest_values(void)
{
    st_conn c;
    st_connect_with(&c, "UnknownSizes=2;MaxVarcharSize=100");
    SQLHSTMT s = st_stmt(&c);
    ST_OK(SQLPrepare(s, (SQLCHAR *)"SELECT ?::text AS t", SQL_NTS), s);
    char value[16];
    SQLLEN nts = SQL_NTS;
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 15, 0, value,
                           sizeof value, &nts), s);
    static const char *const values[] = { "ab", "abcdef", "a" };
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        strcpy(value, values[i]);
        ST_OK(SQLExecute(s), s);
        column d = describe(s, 1);
        ST_CHECK(d.type == SQL_VARCHAR && d.size == strlen(values[i]),
                 "'%s': type %d size %lu", values[i], d.type, (unsigned long)d.size);
        ST_OK(SQLFreeStmt(s, SQL_CLOSE), s);
    }
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    texts_on_one_handle(&c);
    nullability(&c);
    st_disconnect(&c);
    longest_values();
    return st_finish("ird_reuse");
}
