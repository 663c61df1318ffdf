/*
 * A result column that is a NOT NULL column of a table is SQL_NO_NULLS in
 * SQLDescribeCol, SQLColAttribute and the IRD (SQLGetDescRec,
 * SQLGetDescField), as psqlODBC reports it; expressions, nullable columns and
 * the columns of a text with an outer join or a set operation stay
 * SQL_NULLABLE. The lookup behind it leaves the statement's diagnostics as
 * they were; the connection keeps its answers until DDL or a rollback. On a
 * global connection (the _global twin) the same holds: the lookup asks the
 * member that described the result, whose table oids they are, and when
 * another member's session has become the current one since, the column
 * stays SQL_NULLABLE rather than be looked up on the wrong member.
 */
#include <stdbool.h>
#include <unistd.h>

#include "st_test.h"

static SQLSMALLINT described_nullable(SQLHSTMT s, SQLUSMALLINT col)
{
    SQLSMALLINT nullable = -1;
    ST_OK(SQLDescribeCol(s, col, NULL, 0, NULL, NULL, NULL, NULL, &nullable), s);
    return nullable;
}

static void expect_nullable(SQLHSTMT s, const SQLSMALLINT *want, SQLUSMALLINT n,
                            const char *what)
{
    for (SQLUSMALLINT col = 1; col <= n; col++) {
        SQLSMALLINT got = described_nullable(s, col);
        ST_CHECK(got == want[col - 1], "%s: column %u nullable %d, expected %d", what, col,
                 got, want[col - 1]);
    }
}

/* Global connection: SELECTs go to G1's standby (LocalityMemberPolicy=3),
 * writes to its primary. A result described on the standby and asked about
 * after a write made the primary's session the current one stays
 * SQL_NULLABLE; asked while the standby's is current, it is looked up. */
static void another_member_current(void)
{
    st_conn c;
    st_connect_with(&c, "LocalityMemberPolicy=3");
    SQLHSTMT s = st_stmt(&c);
    /* The standby replays the table's creation asynchronously. */
    bool seen = false;
    for (int i = 0; i < 100 && !seen; i++) {
        seen = SQL_SUCCEEDED(SQLExecDirect(s, (SQLCHAR *)"SELECT id, a FROM nn_cols", SQL_NTS));
        if (!seen)
            usleep(100 * 1000);
    }
    ST_CHECK(seen, "the standby shows nn_cols");
    st_exec(&c, "UPDATE nn_cols SET b = b");
    ST_CHECK(described_nullable(s, 1) == SQL_NULLABLE,
             "described on the standby, asked with the primary current");
    SQLFreeStmt(s, SQL_CLOSE);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"SELECT id, a FROM nn_cols", SQL_NTS), s);
    ST_CHECK(described_nullable(s, 2) == SQL_NO_NULLS, "described and asked on the standby");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);
}

int main(void)
{
    const SQLSMALLINT not_null = SQL_NO_NULLS;
    st_conn c;
    st_connect(&c);
    st_exec(&c, "DROP TABLE IF EXISTS nn_cols");
    st_exec(&c, "CREATE TABLE nn_cols (id int PRIMARY KEY, a text NOT NULL, b text)");
    st_exec(&c, "INSERT INTO nn_cols VALUES (1, 'x', NULL)");
    SQLHSTMT s = st_stmt(&c);

    /* Table columns, a nullable one, an expression, a literal. */
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"SELECT id, a, b, id + 1, 'lit' FROM nn_cols", SQL_NTS), s);
    const SQLSMALLINT plain[] = { not_null, not_null, SQL_NULLABLE, SQL_NULLABLE, SQL_NULLABLE };
    expect_nullable(s, plain, 5, "plain select");
    SQLLEN attr = -1;
    ST_OK(SQLColAttribute(s, 2, SQL_DESC_NULLABLE, NULL, 0, NULL, &attr), s);
    ST_CHECK(attr == not_null, "SQLColAttribute NULLABLE of a: %ld", (long)attr);
    SQLFreeStmt(s, SQL_CLOSE);

    /* The IRD, asked before anything else. */
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"SELECT b, id FROM nn_cols", SQL_NTS), s);
    SQLHDESC ird = SQL_NULL_HDESC;
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_IMP_ROW_DESC, &ird, 0, NULL), s);
    SQLSMALLINT type, sub, precision, scale, nullable = -1;
    SQLLEN length;
    SQLCHAR name[32];
    ST_CHECK(SQLGetDescRec(ird, 2, name, sizeof name, NULL, &type, &sub, &length, &precision,
                           &scale, &nullable) == SQL_SUCCESS && nullable == not_null,
             "SQLGetDescRec nullable of id: %d", nullable);
    SQLSMALLINT field = -1;
    ST_CHECK(SQLGetDescField(ird, 1, SQL_DESC_NULLABLE, &field, 0, NULL) == SQL_SUCCESS &&
             field == SQL_NULLABLE, "SQLGetDescField nullable of b: %d", field);
    SQLFreeStmt(s, SQL_CLOSE);

    /* Described before executing: the server's description names the table too. */
    ST_OK(SQLPrepare(s, (SQLCHAR *)"SELECT a FROM nn_cols WHERE id = ?", SQL_NTS), s);
    ST_CHECK(described_nullable(s, 1) == not_null, "prepared, not executed");
    SQLFreeStmt(s, SQL_CLOSE);

    /* An outer join or a set operation makes NULLs of NOT NULL columns. */
    ST_OK(SQLExecDirect(s, (SQLCHAR *)
        "SELECT t.id, u.id FROM nn_cols t LEFT JOIN nn_cols u ON false", SQL_NTS), s);
    const SQLSMALLINT joined[] = { SQL_NULLABLE, SQL_NULLABLE };
    expect_nullable(s, joined, 2, "left join");
    SQLFreeStmt(s, SQL_CLOSE);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)
        "SELECT id FROM nn_cols UNION ALL SELECT NULL", SQL_NTS), s);
    expect_nullable(s, joined, 1, "union");
    SQLFreeStmt(s, SQL_CLOSE);

    /* The statement's warning from SQLExecDirect survives the lookup made by
     * a descriptor call. */
    st_exec(&c, "CREATE OR REPLACE FUNCTION nn_notice() RETURNS boolean LANGUAGE plpgsql AS "
                "$$BEGIN RAISE NOTICE 'nn notice'; RETURN true; END$$");
    SQLRETURN rc = SQLExecDirect(s, (SQLCHAR *)"SELECT id FROM nn_cols WHERE nn_notice()", SQL_NTS);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO, "the notice makes SQL_SUCCESS_WITH_INFO: %d", rc);
    field = -1;
    ST_CHECK(SQLGetDescField(ird, 1, SQL_DESC_NULLABLE, &field, 0, NULL) == SQL_SUCCESS &&
             field == not_null, "nullable of id after a notice: %d", field);
    SQLCHAR state[6] = "", text[256] = "";
    SQLINTEGER native = 0;
    rc = SQLGetDiagRec(SQL_HANDLE_STMT, s, 1, state, &native, text, sizeof text, NULL);
    ST_CHECK(rc == SQL_SUCCESS && strstr((char *)text, "nn notice") != NULL,
             "the statement's notice is still there: rc %d '%s'", rc, text);
    SQLFreeStmt(s, SQL_CLOSE);

    /* The connection keeps what it learnt until DDL changes it, or a
     * rollback undoes the DDL. */
    st_exec(&c, "UPDATE nn_cols SET b = 'y'");
    st_exec(&c, "ALTER TABLE nn_cols ALTER COLUMN b SET NOT NULL");
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"SELECT b FROM nn_cols", SQL_NTS), s);
    ST_CHECK(described_nullable(s, 1) == not_null, "b after SET NOT NULL");
    SQLFreeStmt(s, SQL_CLOSE);
    ST_OK(SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0), s);
    st_exec(&c, "ALTER TABLE nn_cols ALTER COLUMN b DROP NOT NULL");
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"SELECT b FROM nn_cols", SQL_NTS), s);
    ST_CHECK(described_nullable(s, 1) == SQL_NULLABLE, "b after DROP NOT NULL");
    SQLFreeStmt(s, SQL_CLOSE);
    ST_OK(SQLEndTran(SQL_HANDLE_DBC, c.dbc, SQL_ROLLBACK), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"SELECT b FROM nn_cols", SQL_NTS), s);
    ST_CHECK(described_nullable(s, 1) == not_null, "b after the DROP NOT NULL rolled back");
    SQLFreeStmt(s, SQL_CLOSE);
    ST_OK(SQLEndTran(SQL_HANDLE_DBC, c.dbc, SQL_COMMIT), s);
    ST_OK(SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0), s);

    SQLFreeHandle(SQL_HANDLE_STMT, s);
    if (getenv("GC_TEST_GLOBAL") != NULL)
        another_member_current();
    st_exec(&c, "DROP FUNCTION nn_notice()");
    st_exec(&c, "DROP TABLE nn_cols");
    st_disconnect(&c);
    return st_finish("not_null_columns");
}
