/*
 * A result column that is a table column names where it comes from, as
 * psqlODBC names it: SQL_DESC_TABLE_NAME and BASE_TABLE_NAME (the table, or
 * the view the query read), SCHEMA_NAME, CATALOG_NAME (the database) and
 * BASE_COLUMN_NAME (the column's own name under an alias); an expression
 * has empty names and its label as BASE_COLUMN_NAME. Through
 * SQLColAttribute(W), the IRD (SQLGetDescField), a prepared statement not
 * yet executed, and an ODBC 2 application's SQLColAttributes codes
 * (SQL_COLUMN_TABLE_NAME, _OWNER_NAME, _QUALIFIER_NAME). A renamed table is
 * named anew after the DDL. The _global twin runs the same on a global
 * connection (but the rename, which it refuses for a solo table).
 */
#include "st_test.h"

static char database[128];

/* SQLColAttribute string field `field` of column col. */
static const char *attr(SQLHSTMT s, SQLUSMALLINT col, SQLUSMALLINT field)
{
    static char buf[256];
    SQLSMALLINT len = -1;
    buf[0] = '\0';
    ST_OK(SQLColAttribute(s, col, field, buf, sizeof buf, &len, NULL), s);
    ST_CHECK(len == (SQLSMALLINT)strlen(buf), "field %u of column %u: length %d for '%s'",
             field, col, len, buf);
    return buf;
}

/* Checks column col's table, schema, catalog and base column names. */
static void expect_origin(SQLHSTMT s, SQLUSMALLINT col, const char *table, const char *schema,
                          const char *base_column, const char *what)
{
    const char *catalog = table[0] != '\0' ? database : "";
    ST_CHECK(strcmp(attr(s, col, SQL_DESC_TABLE_NAME), table) == 0, "%s: TABLE_NAME '%s'",
             what, attr(s, col, SQL_DESC_TABLE_NAME));
    ST_CHECK(strcmp(attr(s, col, SQL_DESC_BASE_TABLE_NAME), table) == 0,
             "%s: BASE_TABLE_NAME '%s'", what, attr(s, col, SQL_DESC_BASE_TABLE_NAME));
    ST_CHECK(strcmp(attr(s, col, SQL_DESC_SCHEMA_NAME), schema) == 0, "%s: SCHEMA_NAME '%s'",
             what, attr(s, col, SQL_DESC_SCHEMA_NAME));
    ST_CHECK(strcmp(attr(s, col, SQL_DESC_CATALOG_NAME), catalog) == 0,
             "%s: CATALOG_NAME '%s', expected '%s'", what, attr(s, col, SQL_DESC_CATALOG_NAME),
             catalog);
    ST_CHECK(strcmp(attr(s, col, SQL_DESC_BASE_COLUMN_NAME), base_column) == 0,
             "%s: BASE_COLUMN_NAME '%s'", what, attr(s, col, SQL_DESC_BASE_COLUMN_NAME));
}

/* An ODBC 2 application asks with SQLColAttributes' codes. */
static void odbc2_application(void)
{
    st_conn c;
    st_connect_as(&c, SQL_OV_ODBC2);
    SQLHSTMT s = st_stmt(&c);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"SELECT b FROM co_t", SQL_NTS), s);
    char buf[64];
    SQLSMALLINT len;
    ST_OK(SQLColAttributes(s, 1, SQL_COLUMN_TABLE_NAME, buf, sizeof buf, &len, NULL), s);
    ST_CHECK(strcmp(buf, "co_t") == 0, "ODBC 2 SQL_COLUMN_TABLE_NAME '%s'", buf);
    ST_OK(SQLColAttributes(s, 1, SQL_COLUMN_OWNER_NAME, buf, sizeof buf, &len, NULL), s);
    ST_CHECK(strcmp(buf, "public") == 0, "ODBC 2 SQL_COLUMN_OWNER_NAME '%s'", buf);
    ST_OK(SQLColAttributes(s, 1, SQL_COLUMN_QUALIFIER_NAME, buf, sizeof buf, &len, NULL), s);
    ST_CHECK(strcmp(buf, database) == 0, "ODBC 2 SQL_COLUMN_QUALIFIER_NAME '%s'", buf);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    SQLSMALLINT dblen;
    ST_OK(SQLGetInfo(c.dbc, SQL_DATABASE_NAME, database, sizeof database, &dblen), c.dbc);
    st_exec(&c, "DROP VIEW IF EXISTS co_v");
    st_exec(&c, "DROP TABLE IF EXISTS co_t");
    st_exec(&c, "DROP TABLE IF EXISTS co_t2");
    st_exec(&c, "DROP SCHEMA IF EXISTS co_s CASCADE");
    st_exec(&c, "CREATE TABLE co_t (id int PRIMARY KEY, b text NOT NULL)");
    st_exec(&c, "CREATE SCHEMA co_s");
    st_exec(&c, "CREATE TABLE co_s.co_u (id int, d text)");
    st_exec(&c, "CREATE VIEW co_v AS SELECT id, b FROM co_t");
    SQLHSTMT s = st_stmt(&c);

    /* An alias, an expression, a literal. */
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"SELECT id AS k, b || 'y' AS e, 1 AS z FROM co_t",
                        SQL_NTS), s);
    expect_origin(s, 1, "co_t", "public", "id", "an aliased column");
    ST_CHECK(strcmp(attr(s, 1, SQL_DESC_LABEL), "k") == 0, "the alias stays the label");
    expect_origin(s, 2, "", "", "e", "an expression");
    expect_origin(s, 3, "", "", "z", "a literal");
    SQLFreeStmt(s, SQL_CLOSE);

    /* Two tables of two schemas; a view is named as the query names it. */
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"SELECT t.id, u.d FROM co_t t JOIN co_s.co_u u "
                                      "ON u.id = t.id", SQL_NTS), s);
    expect_origin(s, 1, "co_t", "public", "id", "the join's first table");
    expect_origin(s, 2, "co_u", "co_s", "d", "the join's table of schema co_s");
    SQLFreeStmt(s, SQL_CLOSE);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"SELECT b FROM co_v", SQL_NTS), s);
    expect_origin(s, 1, "co_v", "public", "b", "a view");
    SQLFreeStmt(s, SQL_CLOSE);

    /* Prepared, not executed: the server's description names the table. */
    ST_OK(SQLPrepare(s, (SQLCHAR *)"SELECT b AS bee FROM co_t WHERE id = ?", SQL_NTS), s);
    expect_origin(s, 1, "co_t", "public", "b", "prepared, not executed");
    SQLFreeStmt(s, SQL_CLOSE);

    /* The IRD, wide: lengths in bytes; a short buffer is cut with 01004. */
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"SELECT d FROM co_s.co_u", SQL_NTS), s);
    SQLHDESC ird = SQL_NULL_HDESC;
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_IMP_ROW_DESC, &ird, 0, NULL), s);
    char name[64] = "";
    SQLINTEGER len = -1;
    ST_CHECK(SQLGetDescField(ird, 1, SQL_DESC_BASE_TABLE_NAME, name, sizeof name, &len) ==
                 SQL_SUCCESS && strcmp(name, "co_u") == 0 && len == 4,
             "SQLGetDescField BASE_TABLE_NAME '%s' (%d)", name, (int)len);
    SQLWCHAR wide[16];
    SQLSMALLINT wlen = -1;
    ST_OK(SQLColAttributeW(s, 1, SQL_DESC_SCHEMA_NAME, wide, sizeof wide, &wlen, NULL), s);
    ST_CHECK(wlen == 8 && wide[0] == 'c' && wide[3] == 's', "SQLColAttributeW SCHEMA_NAME: %d",
             wlen);
    char small[3];
    SQLSMALLINT slen = -1;
    SQLRETURN rc = SQLColAttribute(s, 1, SQL_DESC_TABLE_NAME, small, sizeof small, &slen, NULL);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO && st_has_state(SQL_HANDLE_STMT, s, "01004") &&
                 slen == 4 && strcmp(small, "co") == 0,
             "a 3-byte buffer: rc %d, length %d, '%s'", rc, slen, small);
    SQLFreeStmt(s, SQL_CLOSE);

    odbc2_application();

    /* A renamed table is named anew: the connection forgets at DDL. (A
     * global connection refuses to rename a solo table.) */
    st_exec(&c, "DROP VIEW co_v");
    if (getenv("GC_TEST_GLOBAL") == NULL) {
        st_exec(&c, "ALTER TABLE co_t RENAME TO co_t2");
        ST_OK(SQLExecDirect(s, (SQLCHAR *)"SELECT id FROM co_t2", SQL_NTS), s);
        expect_origin(s, 1, "co_t2", "public", "id", "the renamed table");
        SQLFreeStmt(s, SQL_CLOSE);
        st_exec(&c, "ALTER TABLE co_t2 RENAME TO co_t");
    }

    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_exec(&c, "DROP TABLE co_t");
    st_exec(&c, "DROP SCHEMA co_s CASCADE");
    st_disconnect(&c);
    return st_finish("column_origins");
}
