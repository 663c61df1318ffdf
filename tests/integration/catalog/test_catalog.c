/*
 * test_catalog: the ODBC catalog functions through the unixODBC driver
 * manager, as an application calls them, against the fixture's server.
 *
 * It makes its own schema (catalog_t) with a table with a primary key, one
 * with a foreign key to it and two indexes, a view, a function and a
 * procedure, then checks each catalog function's result set column by column:
 * the column names, order and SQL types ODBC 3.x prescribes, and the rows.
 * SQLColumns is also checked against SQLDescribeCol on the same table.
 *
 * The schema is made (and dropped) through a second connection of the same
 * DSN with GlobalConnection=No: on a single server that is the DSN as it
 * is; through a global connection it is the first seed server, the member
 * where statements without a sharding key run, because a cluster cannot
 * hold this schema on every group (indexes and comments on a table that is
 * foreign on the other groups; see docs/testing.md).
 *
 * Environment: GC_TEST_DSN names the DSN (ODBCSYSINI points at its ini).
 */
#include <sql.h>
#include <sqlext.h>
#include <sqlucode.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NUL NULL          /* expected SQL NULL */
static const char ANY[] = "*";   /* any value, not checked */

static int failures;
static SQLHENV env;
static SQLHDBC dbc;
static SQLHDBC setup_dbc;   /* general connection for the schema's DDL */

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("FAIL: ", stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
    failures++;
}

static void print_diag(SQLSMALLINT type, SQLHANDLE h)
{
    SQLCHAR state[6], msg[512];
    SQLINTEGER native;
    SQLSMALLINT len;
    for (SQLSMALLINT i = 1;
         SQLGetDiagRec(type, h, i, state, &native, msg, sizeof msg, &len) == SQL_SUCCESS; i++)
        printf("  diag %s: %s\n", state, msg);
}

/* The first diagnostic's SQLSTATE of a statement ("" when none). */
static const char *stmt_state(SQLHSTMT st)
{
    static SQLCHAR state[6];
    SQLCHAR msg[512];
    SQLINTEGER native;
    SQLSMALLINT len;
    if (SQLGetDiagRec(SQL_HANDLE_STMT, st, 1, state, &native, msg, sizeof msg, &len)
        != SQL_SUCCESS)
        state[0] = '\0';
    return (const char *)state;
}

static bool ok(SQLRETURN rc, SQLSMALLINT type, SQLHANDLE h, const char *what)
{
    if (SQL_SUCCEEDED(rc))
        return true;
    fail("%s returned %d", what, rc);
    print_diag(type, h);
    return false;
}

static SQLHSTMT new_stmt(void)
{
    SQLHSTMT st = SQL_NULL_HSTMT;
    if (!ok(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st), SQL_HANDLE_DBC, dbc, "SQLAllocHandle")) {
        exit(1);
    }
    return st;
}

/* Runs one statement of the schema's setup or teardown on setup_dbc;
 * exits when it fails (the checks would mean nothing). */
static void exec_sql(const char *sql)
{
    SQLHSTMT st = SQL_NULL_HSTMT;
    if (!ok(SQLAllocHandle(SQL_HANDLE_STMT, setup_dbc, &st), SQL_HANDLE_DBC, setup_dbc,
            "SQLAllocHandle"))
        exit(1);
    SQLRETURN rc = SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS);
    if (!SQL_SUCCEEDED(rc) && rc != SQL_NO_DATA) {
        fail("setup statement failed: %s", sql);
        print_diag(SQL_HANDLE_STMT, st);
        exit(1);
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* A result set read into strings (NULL for SQL NULL). */
typedef struct rows {
    int ncols, nrows;
    char **cell;   /* nrows * ncols */
} rows;

static void rows_free(rows *r)
{
    for (int i = 0; i < r->ncols * r->nrows; i++)
        free(r->cell[i]);
    free(r->cell);
    memset(r, 0, sizeof *r);
}

static const char *cell(const rows *r, int row, int col)
{
    return r->cell[row * r->ncols + col];
}

/* Reads every row of st with SQLGetData(SQL_C_CHAR). */
static bool fetch_all(SQLHSTMT st, rows *r, const char *what)
{
    memset(r, 0, sizeof *r);
    SQLSMALLINT ncols = 0;
    if (!ok(SQLNumResultCols(st, &ncols), SQL_HANDLE_STMT, st, what))
        return false;
    r->ncols = ncols;
    int cap = 0;
    SQLRETURN rc;
    while ((rc = SQLFetch(st)) == SQL_SUCCESS || rc == SQL_SUCCESS_WITH_INFO) {
        if (r->nrows == cap) {
            cap = cap ? cap * 2 : 16;
            r->cell = realloc(r->cell, sizeof(char *) * (size_t)(cap * ncols));
        }
        for (int c = 0; c < ncols; c++) {
            char buf[4096];
            SQLLEN ind = 0;
            rc = SQLGetData(st, (SQLUSMALLINT)(c + 1), SQL_C_CHAR, buf, sizeof buf, &ind);
            if (!ok(rc, SQL_HANDLE_STMT, st, "SQLGetData"))
                return false;
            r->cell[r->nrows * ncols + c] = ind == SQL_NULL_DATA ? NULL : strdup(buf);
        }
        r->nrows++;
    }
    if (rc != SQL_NO_DATA)
        return ok(rc, SQL_HANDLE_STMT, st, what);
    return true;
}

/* One result column as ODBC specifies it: name and SQL type. */
typedef struct colspec {
    const char *name;
    SQLSMALLINT type;   /* SQL_VARCHAR covers any character type */
} colspec;

static bool is_char_type(SQLSMALLINT t)
{
    return t == SQL_VARCHAR || t == SQL_CHAR || t == SQL_LONGVARCHAR || t == SQL_WVARCHAR
        || t == SQL_WCHAR || t == SQL_WLONGVARCHAR;
}

/* Checks the result columns of st: count, names, order and types. */
static void check_columns(SQLHSTMT st, const char *what, const colspec *cols, int n)
{
    SQLSMALLINT ncols = 0;
    SQLNumResultCols(st, &ncols);
    if (ncols != n) {
        fail("%s: %d result columns, expected %d", what, ncols, n);
        return;
    }
    for (int i = 0; i < n; i++) {
        SQLCHAR name[128];
        SQLSMALLINT name_len, type, digits, nullable;
        SQLULEN size;
        if (!ok(SQLDescribeCol(st, (SQLUSMALLINT)(i + 1), name, sizeof name, &name_len,
                               &type, &size, &digits, &nullable),
                SQL_HANDLE_STMT, st, "SQLDescribeCol"))
            return;
        if (strcmp((char *)name, cols[i].name) != 0)
            fail("%s: column %d is %s, expected %s", what, i + 1, name, cols[i].name);
        bool type_ok = is_char_type(cols[i].type) ? is_char_type(type) : type == cols[i].type;
        if (!type_ok)
            fail("%s: column %s has SQL type %d, expected %d", what, cols[i].name, type,
                 cols[i].type);
    }
}

/* Compares the rows with the expected ones (ANY skips a cell). */
static void check_rows(const rows *r, const char *what, int nexp, int ncols,
                       const char *const *exp)
{
    if (r->nrows != nexp) {
        fail("%s: %d rows, expected %d", what, r->nrows, nexp);
        for (int i = 0; i < r->nrows; i++) {
            printf("  row %d:", i + 1);
            for (int c = 0; c < r->ncols; c++)
                printf(" %s", cell(r, i, c) ? cell(r, i, c) : "<null>");
            printf("\n");
        }
        return;
    }
    for (int i = 0; i < nexp; i++) {
        for (int c = 0; c < ncols && c < r->ncols; c++) {
            const char *e = exp[i * ncols + c];
            const char *got = cell(r, i, c);
            if (e == ANY)
                continue;
            if ((e == NULL) != (got == NULL) || (e != NULL && strcmp(e, got) != 0))
                fail("%s: row %d column %d is %s, expected %s", what, i + 1, c + 1,
                     got ? got : "<null>", e ? e : "<null>");
        }
    }
}

/* Runs a catalog call's result through check_columns and check_rows. */
static void expect(SQLHSTMT st, SQLRETURN rc, const char *what, const colspec *cols,
                   int ncols, int nexp, const char *const *exp)
{
    if (!ok(rc, SQL_HANDLE_STMT, st, what))
        return;
    if (cols != NULL)
        check_columns(st, what, cols, ncols);
    rows r;
    if (fetch_all(st, &r, what))
        check_rows(&r, what, nexp, ncols, exp);
    rows_free(&r);
    SQLFreeStmt(st, SQL_CLOSE);
}

#define S(x) ((SQLCHAR *)(x))
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const colspec tables_cols[] = {
    {"TABLE_CAT", SQL_VARCHAR}, {"TABLE_SCHEM", SQL_VARCHAR}, {"TABLE_NAME", SQL_VARCHAR},
    {"TABLE_TYPE", SQL_VARCHAR}, {"REMARKS", SQL_VARCHAR},
};

static char dbname[128];
static char username[128];   /* the connection's user, the schema's owner */

static void test_tables(void)
{
    SQLHSTMT st = new_stmt();
    const char *all[] = {
        dbname, "catalog_t", "dept", "TABLE", "departments",
        dbname, "catalog_t", "emp", "TABLE", NUL,
        dbname, "catalog_t", "measure", "TABLE", NUL,
        dbname, "catalog_t", "mixed Case", "TABLE", NUL,
        dbname, "catalog_t", "emp_v", "VIEW", NUL,
    };
    expect(st, SQLTables(st, NULL, 0, S("catalog_t"), SQL_NTS, NULL, 0, NULL, 0),
           "SQLTables(schema catalog_t)", tables_cols, 5, 5, all);

    const char *views[] = {dbname, "catalog_t", "emp_v", "VIEW", NUL};
    expect(st, SQLTables(st, NULL, 0, S("catalog_t"), SQL_NTS, S("%"), SQL_NTS,
                         S("'VIEW'"), SQL_NTS),
           "SQLTables(type 'VIEW')", tables_cols, 5, 1, views);

    /* _ is a one-character wildcard; \_ a literal underscore. */
    const char *emp[] = {dbname, "catalog_t", "emp", "TABLE", NUL};
    expect(st, SQLTables(st, NULL, 0, S("catalog\\_t"), SQL_NTS, S("em_"), SQL_NTS, NULL, 0),
           "SQLTables(pattern em_)", tables_cols, 5, 1, emp);
    expect(st, SQLTables(st, NULL, 0, S("catalog_t"), SQL_NTS, S("emp\\_v"), SQL_NTS, NULL, 0),
           "SQLTables(pattern emp\\_v)", tables_cols, 5, 1, views);

    const char *catalogs[] = {dbname, NUL, NUL, NUL, NUL};
    expect(st, SQLTables(st, S("%"), SQL_NTS, S(""), 0, S(""), 0, NULL, 0),
           "SQLTables(catalogs)", tables_cols, 5, 1, catalogs);
    expect(st, SQLTables(st, S("no_such_db"), SQL_NTS, S("catalog_t"), SQL_NTS, NULL, 0, NULL, 0),
           "SQLTables(other catalog)", tables_cols, 5, 0, NULL);

    /* Schemas: catalog_t is listed; pg_toast is not. */
    rows r;
    if (ok(SQLTables(st, S(""), 0, S("%"), SQL_NTS, S(""), 0, NULL, 0), SQL_HANDLE_STMT, st,
           "SQLTables(schemas)") && fetch_all(st, &r, "SQLTables(schemas)")) {
        bool seen = false;
        for (int i = 0; i < r.nrows; i++) {
            if (cell(&r, i, 2) != NULL || cell(&r, i, 0) != NULL)
                fail("SQLTables(schemas): row %d has a catalog or table name", i + 1);
            if (cell(&r, i, 1) && strcmp(cell(&r, i, 1), "catalog_t") == 0)
                seen = true;
            if (cell(&r, i, 1) && strcmp(cell(&r, i, 1), "pg_toast") == 0)
                fail("SQLTables(schemas) lists pg_toast");
        }
        if (!seen)
            fail("SQLTables(schemas) does not list catalog_t");
        rows_free(&r);
    }
    SQLFreeStmt(st, SQL_CLOSE);

    const char *types[] = {
        NUL, NUL, NUL, "FOREIGN TABLE", NUL, NUL, NUL, NUL, "LOCAL TEMPORARY", NUL,
        NUL, NUL, NUL, "MATERIALIZED VIEW", NUL, NUL, NUL, NUL, "SYSTEM TABLE", NUL,
        NUL, NUL, NUL, "SYSTEM VIEW", NUL, NUL, NUL, NUL, "TABLE", NUL,
        NUL, NUL, NUL, "VIEW", NUL,
    };
    expect(st, SQLTables(st, S(""), 0, S(""), 0, S(""), 0, S("%"), SQL_NTS),
           "SQLTables(table types)", tables_cols, 5, 7, types);

    /* System schemas are hidden unless asked for. */
    expect(st, SQLTables(st, NULL, 0, NULL, 0, S("pg_class"), SQL_NTS, NULL, 0),
           "SQLTables(pg_class, any schema)", tables_cols, 5, 0, NULL);
    const char *pg_class[] = {dbname, "pg_catalog", "pg_class", "SYSTEM TABLE", ANY};
    expect(st, SQLTables(st, NULL, 0, S("pg_catalog"), SQL_NTS, S("pg_class"), SQL_NTS, NULL, 0),
           "SQLTables(pg_catalog.pg_class)", tables_cols, 5, 1, pg_class);

    /* SQL_ATTR_METADATA_ID: arguments are identifiers (unquoted ones fold
     * to lower case; quoted ones are exact; no wildcards). */
    SQLSetStmtAttr(st, SQL_ATTR_METADATA_ID, (SQLPOINTER)SQL_TRUE, 0);
    expect(st, SQLTables(st, NULL, 0, S("CATALOG_T"), SQL_NTS, S("EMP"), SQL_NTS, NULL, 0),
           "SQLTables(METADATA_ID EMP)", tables_cols, 5, 1, emp);
    const char *mixed[] = {dbname, "catalog_t", "mixed Case", "TABLE", NUL};
    expect(st, SQLTables(st, NULL, 0, S("catalog_t"), SQL_NTS, S("\"mixed Case\""), SQL_NTS,
                         NULL, 0),
           "SQLTables(METADATA_ID quoted)", tables_cols, 5, 1, mixed);
    expect(st, SQLTables(st, NULL, 0, S("catalog_t"), SQL_NTS, S("em_"), SQL_NTS, NULL, 0),
           "SQLTables(METADATA_ID em_ is no pattern)", tables_cols, 5, 0, NULL);
    SQLSetStmtAttr(st, SQL_ATTR_METADATA_ID, (SQLPOINTER)SQL_FALSE, 0);

    /* Arguments are parameters, never SQL text. */
    expect(st, SQLTables(st, NULL, 0, S("catalog_t"), SQL_NTS,
                         S("emp'; DROP TABLE catalog_t.emp; --"), SQL_NTS, NULL, 0),
           "SQLTables(quote in the name)", tables_cols, 5, 0, NULL);
    expect(st, SQLTables(st, NULL, 0, S("catalog_t"), SQL_NTS, S("emp"), SQL_NTS, NULL, 0),
           "SQLTables(emp still there)", tables_cols, 5, 1, emp);

    /* The schema listing also with a NULL catalog (DBD::ODBC's form). */
    if (ok(SQLTables(st, NULL, 0, S("%"), SQL_NTS, S(""), 0, NULL, 0), SQL_HANDLE_STMT, st,
           "SQLTables(NULL, %, \"\")") && fetch_all(st, &r, "SQLTables(NULL, %, \"\")")) {
        for (int i = 0; i < r.nrows; i++)
            if (cell(&r, i, 2) != NULL)
                fail("SQLTables(NULL, %%, \"\"): row %d has a table name", i + 1);
        if (r.nrows == 0)
            fail("SQLTables(NULL, %%, \"\"): no schemas");
        rows_free(&r);
    }
    SQLFreeStmt(st, SQL_CLOSE);

    /* The W entry point gives the same rows. */
    SQLWCHAR wschema[] = {'c', 'a', 't', 'a', 'l', 'o', 'g', '_', 't', 0};
    SQLWCHAR wtable[] = {'e', 'm', 'p', 0};
    expect(st, SQLTablesW(st, NULL, 0, wschema, SQL_NTS, wtable, 3, NULL, 0),
           "SQLTablesW(emp)", tables_cols, 5, 1, emp);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

static const colspec columns_cols[] = {
    {"TABLE_CAT", SQL_VARCHAR}, {"TABLE_SCHEM", SQL_VARCHAR}, {"TABLE_NAME", SQL_VARCHAR},
    {"COLUMN_NAME", SQL_VARCHAR}, {"DATA_TYPE", SQL_SMALLINT}, {"TYPE_NAME", SQL_VARCHAR},
    {"COLUMN_SIZE", SQL_INTEGER}, {"BUFFER_LENGTH", SQL_INTEGER},
    {"DECIMAL_DIGITS", SQL_SMALLINT}, {"NUM_PREC_RADIX", SQL_SMALLINT},
    {"NULLABLE", SQL_SMALLINT}, {"REMARKS", SQL_VARCHAR}, {"COLUMN_DEF", SQL_VARCHAR},
    {"SQL_DATA_TYPE", SQL_SMALLINT}, {"SQL_DATETIME_SUB", SQL_SMALLINT},
    {"CHAR_OCTET_LENGTH", SQL_INTEGER}, {"ORDINAL_POSITION", SQL_INTEGER},
    {"IS_NULLABLE", SQL_VARCHAR},
};

static void test_columns(void)
{
    SQLHSTMT st = new_stmt();
    /* Character columns are reported as SQLDescribeCol reports them
     * (test_columns_agree_with_describe checks that): the narrow types, since
     * this program connected through SQLDriverConnect, not its W twin. */
    char varchar[8];
    snprintf(varchar, sizeof varchar, "%d", SQL_VARCHAR);
    const char *dept[] = {
        dbname, "catalog_t", "dept", "id", "4", "int4", "10", "4", "0", "10", "0", NUL, NUL,
        "4", NUL, NUL, "1", "NO",
        dbname, "catalog_t", "dept", "name", varchar, "varchar", "40", "160", NUL, NUL, "0",
        "dept name", NUL, varchar, NUL, "160", "2", "NO",
        dbname, "catalog_t", "dept", "budget", "2", "numeric", "12", "14", "2", "10", "1",
        NUL, "0", "2", NUL, NUL, "3", "YES",
    };
    expect(st, SQLColumns(st, NULL, 0, S("catalog_t"), SQL_NTS, S("dept"), SQL_NTS, NULL, 0),
           "SQLColumns(dept)", columns_cols, 18, 3, dept);

    /* A dropped column leaves no gap in ORDINAL_POSITION; a column pattern
     * keeps the position. Date/time types have SQL_DATETIME and a subcode. */
    const char *hired[] = {
        dbname, "catalog_t", "emp", "hired", "93", "timestamp", "23", "16", "3", NUL, "1",
        NUL, NUL, "9", "3", NUL, "4", "YES",
    };
    expect(st, SQLColumns(st, NULL, 0, S("catalog_t"), SQL_NTS, S("emp"), SQL_NTS, S("hi%"),
                          SQL_NTS),
           "SQLColumns(emp.hi%)", columns_cols, 18, 1, hired);
    const char *score[] = {
        dbname, "catalog_t", "emp", "score", "8", "float8", ANY, ANY, NUL, "10", "1",
        NUL, NUL, "8", NUL, NUL, "6", "YES",
    };
    expect(st, SQLColumns(st, NULL, 0, S("catalog_t"), SQL_NTS, S("emp"), SQL_NTS, S("score"),
                          SQL_NTS),
           "SQLColumns(emp.score after a dropped column)", columns_cols, 18, 1, score);
    const char *view[] = {
        dbname, "catalog_t", "emp_v", "id", "-5", "int8", ANY, ANY, ANY, ANY, "1",
        NUL, NUL, "-5", NUL, NUL, "1", "YES",
        dbname, "catalog_t", "emp_v", "nm", ANY, "text", ANY, ANY, ANY, ANY, "1",
        NUL, NUL, ANY, NUL, ANY, "2", "YES",
    };
    expect(st, SQLColumns(st, NULL, 0, S("catalog_t"), SQL_NTS, S("emp_v"), SQL_NTS, NULL, 0),
           "SQLColumns(view)", columns_cols, 18, 2, view);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* SQLColumns on `conn` must describe each column of schema.table as
 * SQLDescribeCol does in a result; `how` names the connection in messages. */
static void columns_agree_with_describe(SQLHDBC conn, const char *schema, const char *table,
                                        const char *how)
{
    SQLHSTMT q = SQL_NULL_HSTMT, st = SQL_NULL_HSTMT;
    SQLAllocHandle(SQL_HANDLE_STMT, conn, &q);
    SQLAllocHandle(SQL_HANDLE_STMT, conn, &st);
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT * FROM %s.%s", schema, table);
    if (!ok(SQLExecDirect(q, S(sql), SQL_NTS), SQL_HANDLE_STMT, q, sql))
        return;
    rows r;
    if (!ok(SQLColumns(st, NULL, 0, S(schema), SQL_NTS, S(table), SQL_NTS, NULL, 0),
            SQL_HANDLE_STMT, st, "SQLColumns") || !fetch_all(st, &r, "SQLColumns"))
        return;
    SQLSMALLINT ncols = 0;
    SQLNumResultCols(q, &ncols);
    if (ncols != r.nrows)
        fail("%s: SQLColumns(%s): %d rows for %d result columns", how, table, r.nrows, ncols);
    for (int i = 0; i < ncols && i < r.nrows; i++) {
        SQLCHAR name[128];
        SQLSMALLINT name_len, type, digits, nullable;
        SQLULEN size;
        SQLDescribeCol(q, (SQLUSMALLINT)(i + 1), name, sizeof name, &name_len, &type, &size,
                       &digits, &nullable);
        char buf[32];
        if (strcmp((char *)name, cell(&r, i, 3)) != 0)
            fail("%s: column %d: SQLDescribeCol says %s, SQLColumns %s", how, i + 1, name, cell(&r, i, 3));
        snprintf(buf, sizeof buf, "%d", type);
        if (strcmp(buf, cell(&r, i, 4)) != 0)
            fail("%s: column %s: DATA_TYPE %s, SQLDescribeCol %s", how, name, cell(&r, i, 4), buf);
        snprintf(buf, sizeof buf, "%lu", (unsigned long)size);
        if (cell(&r, i, 6) == NULL || strcmp(buf, cell(&r, i, 6)) != 0)
            fail("%s: column %s: COLUMN_SIZE %s, SQLDescribeCol %s", how, name,
                 cell(&r, i, 6) ? cell(&r, i, 6) : "<null>", buf);
        snprintf(buf, sizeof buf, "%d", digits);
        if (cell(&r, i, 8) != NULL && strcmp(buf, cell(&r, i, 8)) != 0)
            fail("%s: column %s: DECIMAL_DIGITS %s, SQLDescribeCol %s", how, name, cell(&r, i, 8), buf);
        SQLCHAR tname[128];
        SQLSMALLINT tlen;
        SQLColAttribute(q, (SQLUSMALLINT)(i + 1), SQL_DESC_TYPE_NAME, tname, sizeof tname, &tlen,
                        NULL);
        if (strcmp((char *)tname, cell(&r, i, 5)) != 0)
            fail("%s: column %s: TYPE_NAME %s, SQL_DESC_TYPE_NAME %s", how, name, cell(&r, i, 5), tname);
    }
    rows_free(&r);
    SQLFreeHandle(SQL_HANDLE_STMT, q);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* The same on types SQLGetTypeInfo does not list (interval, name, oid,
 * "char", timetz), and on a connection whose psqlODBC type mapping keys
 * change how columns are described: SQLColumns follows the keys as results
 * do. */
static void test_columns_agree_with_describe(const char *dsn)
{
    columns_agree_with_describe(dbc, "catalog_t", "emp", "default keys");
    columns_agree_with_describe(dbc, "catalog_k", "odd", "default keys");
    SQLHDBC keyed = SQL_NULL_HDBC;
    SQLAllocHandle(SQL_HANDLE_DBC, env, &keyed);
    char connstr[256];
    snprintf(connstr, sizeof connstr,
             "DSN=%s;BoolsAsChar=1;TextAsLongVarchar=0;MaxVarcharSize=50;BI=12", dsn);
    if (ok(SQLDriverConnect(keyed, NULL, S(connstr), SQL_NTS, NULL, 0, NULL,
                            SQL_DRIVER_NOPROMPT), SQL_HANDLE_DBC, keyed, "SQLDriverConnect (keys)")) {
        columns_agree_with_describe(keyed, "catalog_k", "odd", "BoolsAsChar=1 ...");
        columns_agree_with_describe(keyed, "catalog_t", "emp", "BoolsAsChar=1 ...");
        SQLDisconnect(keyed);
    }
    SQLFreeHandle(SQL_HANDLE_DBC, keyed);
}

static const colspec pk_cols[] = {
    {"TABLE_CAT", SQL_VARCHAR}, {"TABLE_SCHEM", SQL_VARCHAR}, {"TABLE_NAME", SQL_VARCHAR},
    {"COLUMN_NAME", SQL_VARCHAR}, {"KEY_SEQ", SQL_SMALLINT}, {"PK_NAME", SQL_VARCHAR},
};

static const colspec fk_cols[] = {
    {"PKTABLE_CAT", SQL_VARCHAR}, {"PKTABLE_SCHEM", SQL_VARCHAR},
    {"PKTABLE_NAME", SQL_VARCHAR}, {"PKCOLUMN_NAME", SQL_VARCHAR},
    {"FKTABLE_CAT", SQL_VARCHAR}, {"FKTABLE_SCHEM", SQL_VARCHAR},
    {"FKTABLE_NAME", SQL_VARCHAR}, {"FKCOLUMN_NAME", SQL_VARCHAR},
    {"KEY_SEQ", SQL_SMALLINT}, {"UPDATE_RULE", SQL_SMALLINT}, {"DELETE_RULE", SQL_SMALLINT},
    {"FK_NAME", SQL_VARCHAR}, {"PK_NAME", SQL_VARCHAR}, {"DEFERRABILITY", SQL_SMALLINT},
};

static void test_keys(void)
{
    SQLHSTMT st = new_stmt();
    const char *pk[] = {
        dbname, "catalog_t", "measure", "site", "1", "measure_pk",
        dbname, "catalog_t", "measure", "day", "2", "measure_pk",
    };
    expect(st, SQLPrimaryKeys(st, NULL, 0, S("catalog_t"), SQL_NTS, S("measure"), SQL_NTS),
           "SQLPrimaryKeys(measure)", pk_cols, 6, 2, pk);
    /* Ordinary arguments are literal: _ is no wildcard. */
    expect(st, SQLPrimaryKeys(st, NULL, 0, S("catalog_t"), SQL_NTS, S("measur_"), SQL_NTS),
           "SQLPrimaryKeys(measur_)", pk_cols, 6, 0, NULL);

    char rules[2][8];
    snprintf(rules[0], sizeof rules[0], "%d", SQL_NO_ACTION);
    snprintf(rules[1], sizeof rules[1], "%d", SQL_CASCADE);
    char deferrable[8];
    snprintf(deferrable, sizeof deferrable, "%d", SQL_NOT_DEFERRABLE);
    const char *fk[] = {
        dbname, "catalog_t", "dept", "id", dbname, "catalog_t", "emp", "dept_id", "1",
        rules[0], rules[1], "emp_dept_fk", "dept_pkey", deferrable,
    };
    expect(st, SQLForeignKeys(st, NULL, 0, S("catalog_t"), SQL_NTS, S("dept"), SQL_NTS,
                              NULL, 0, NULL, 0, NULL, 0),
           "SQLForeignKeys(referencing dept)", fk_cols, 14, 1, fk);
    expect(st, SQLForeignKeys(st, NULL, 0, NULL, 0, NULL, 0, NULL, 0, S("catalog_t"), SQL_NTS,
                              S("emp"), SQL_NTS),
           "SQLForeignKeys(of emp)", fk_cols, 14, 1, fk);
    SQLRETURN rc = SQLForeignKeys(st, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0);
    if (rc != SQL_ERROR || strcmp(stmt_state(st), "HY009") != 0)
        fail("SQLForeignKeys without tables: rc %d state %s, expected HY009", rc, stmt_state(st));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

static const colspec stat_cols[] = {
    {"TABLE_CAT", SQL_VARCHAR}, {"TABLE_SCHEM", SQL_VARCHAR}, {"TABLE_NAME", SQL_VARCHAR},
    {"NON_UNIQUE", SQL_SMALLINT}, {"INDEX_QUALIFIER", SQL_VARCHAR},
    {"INDEX_NAME", SQL_VARCHAR}, {"TYPE", SQL_SMALLINT}, {"ORDINAL_POSITION", SQL_SMALLINT},
    {"COLUMN_NAME", SQL_VARCHAR}, {"ASC_OR_DESC", SQL_CHAR}, {"CARDINALITY", SQL_INTEGER},
    {"PAGES", SQL_INTEGER}, {"FILTER_CONDITION", SQL_VARCHAR},
};

static const colspec special_cols[] = {
    {"SCOPE", SQL_SMALLINT}, {"COLUMN_NAME", SQL_VARCHAR}, {"DATA_TYPE", SQL_SMALLINT},
    {"TYPE_NAME", SQL_VARCHAR}, {"COLUMN_SIZE", SQL_INTEGER}, {"BUFFER_LENGTH", SQL_INTEGER},
    {"DECIMAL_DIGITS", SQL_SMALLINT}, {"PSEUDO_COLUMN", SQL_SMALLINT},
};

static void test_statistics_and_special(void)
{
    SQLHSTMT st = new_stmt();
    const char *all[] = {
        dbname, "catalog_t", "emp", NUL, NUL, NUL, "0", NUL, NUL, NUL, ANY, ANY, NUL,
        dbname, "catalog_t", "emp", "0", "catalog_t", "emp_pkey", "3", "1", "id", "A",
        ANY, ANY, NUL,
        dbname, "catalog_t", "emp", "1", "catalog_t", "emp_dept_nm_idx", "3", "1", "dept_id",
        "A", ANY, ANY, NUL,
        dbname, "catalog_t", "emp", "1", "catalog_t", "emp_dept_nm_idx", "3", "2", "nm", "D",
        ANY, ANY, NUL,
    };
    expect(st, SQLStatistics(st, NULL, 0, S("catalog_t"), SQL_NTS, S("emp"), SQL_NTS,
                             SQL_INDEX_ALL, SQL_QUICK),
           "SQLStatistics(emp, all)", stat_cols, 13, 4, all);
    expect(st, SQLStatistics(st, NULL, 0, S("catalog_t"), SQL_NTS, S("emp"), SQL_NTS,
                             SQL_INDEX_UNIQUE, SQL_QUICK),
           "SQLStatistics(emp, unique)", stat_cols, 13, 2, all);

    char scope[8];
    snprintf(scope, sizeof scope, "%d", SQL_SCOPE_SESSION);
    const char *best[] = {scope, "id", "-5", "int8", "19", "8", "0", "1"};
    expect(st, SQLSpecialColumns(st, SQL_BEST_ROWID, NULL, 0, S("catalog_t"), SQL_NTS,
                                 S("emp"), SQL_NTS, SQL_SCOPE_TRANSACTION, SQL_NULLABLE),
           "SQLSpecialColumns(emp)", special_cols, 8, 1, best);
    expect(st, SQLSpecialColumns(st, SQL_ROWVER, NULL, 0, S("catalog_t"), SQL_NTS,
                                 S("emp"), SQL_NTS, SQL_SCOPE_TRANSACTION, SQL_NULLABLE),
           "SQLSpecialColumns(emp, ROWVER)", special_cols, 8, 0, NULL);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

static const colspec typeinfo_cols[] = {
    {"TYPE_NAME", SQL_VARCHAR}, {"DATA_TYPE", SQL_SMALLINT}, {"COLUMN_SIZE", SQL_INTEGER},
    {"LITERAL_PREFIX", SQL_VARCHAR}, {"LITERAL_SUFFIX", SQL_VARCHAR},
    {"CREATE_PARAMS", SQL_VARCHAR}, {"NULLABLE", SQL_SMALLINT},
    {"CASE_SENSITIVE", SQL_SMALLINT}, {"SEARCHABLE", SQL_SMALLINT},
    {"UNSIGNED_ATTRIBUTE", SQL_SMALLINT}, {"FIXED_PREC_SCALE", SQL_SMALLINT},
    {"AUTO_UNIQUE_VALUE", SQL_SMALLINT}, {"LOCAL_TYPE_NAME", SQL_VARCHAR},
    {"MINIMUM_SCALE", SQL_SMALLINT}, {"MAXIMUM_SCALE", SQL_SMALLINT},
    {"SQL_DATA_TYPE", SQL_SMALLINT}, {"SQL_DATETIME_SUB", SQL_SMALLINT},
    {"NUM_PREC_RADIX", SQL_INTEGER}, {"INTERVAL_PRECISION", SQL_SMALLINT},
};

static void test_type_info(void)
{
    SQLHSTMT st = new_stmt();
    SQLRETURN rc = SQLGetTypeInfo(st, SQL_ALL_TYPES);
    rows r;
    if (ok(rc, SQL_HANDLE_STMT, st, "SQLGetTypeInfo(ALL)")) {
        check_columns(st, "SQLGetTypeInfo", typeinfo_cols, COUNT(typeinfo_cols));
        if (fetch_all(st, &r, "SQLGetTypeInfo")) {
            if (r.nrows < 15)
                fail("SQLGetTypeInfo(ALL): only %d types", r.nrows);
            for (int i = 1; i < r.nrows; i++)
                if (atoi(cell(&r, i - 1, 1)) > atoi(cell(&r, i, 1)))
                    fail("SQLGetTypeInfo(ALL): not ordered by DATA_TYPE at row %d", i + 1);
            /* Each type creates a column that SQLColumns describes with the
             * same DATA_TYPE (a length is given where CREATE_PARAMS asks). */
            exec_sql("CREATE TABLE catalog_t.types_probe (dummy int)");
            for (int i = 0; i < r.nrows; i++) {
                char sql[256];
                snprintf(sql, sizeof sql, "ALTER TABLE catalog_t.types_probe ADD COLUMN c%d %s%s",
                         i, cell(&r, i, 0), cell(&r, i, 5) && strstr(cell(&r, i, 5), "length")
                         ? "(10)" : "");
                exec_sql(sql);
            }
            SQLHSTMT cs = new_stmt();
            rows c;
            if (ok(SQLColumns(cs, NULL, 0, S("catalog_t"), SQL_NTS, S("types_probe"), SQL_NTS,
                              NULL, 0), SQL_HANDLE_STMT, cs, "SQLColumns(types_probe)")
                && fetch_all(cs, &c, "SQLColumns(types_probe)")) {
                for (int i = 0; i < r.nrows && i + 1 < c.nrows; i++)
                    if (strcmp(cell(&r, i, 1), cell(&c, i + 1, 4)) != 0
                        || strcmp(cell(&r, i, 0), cell(&c, i + 1, 5)) != 0)
                        fail("type %s: SQLGetTypeInfo says %s, SQLColumns %s %s", cell(&r, i, 0),
                             cell(&r, i, 1), cell(&c, i + 1, 5), cell(&c, i + 1, 4));
                rows_free(&c);
            }
            SQLFreeHandle(SQL_HANDLE_STMT, cs);
            rows_free(&r);
        }
    }
    SQLFreeStmt(st, SQL_CLOSE);

    const char *varchar[] = {"varchar", "12", ANY, "'", "'", ANY, "1", "1", "3", NUL, "0",
                             NUL, ANY, NUL, NUL, "12", NUL, NUL, NUL};
    expect(st, SQLGetTypeInfo(st, SQL_VARCHAR), "SQLGetTypeInfo(VARCHAR)", typeinfo_cols,
           COUNT(typeinfo_cols), 1, varchar);
    const char *integer[] = {"int4", "4", "10", NUL, NUL, NUL, "1", "0", ANY, "0", "0",
                             "0", ANY, "0", "0", "4", NUL, "10", NUL};
    expect(st, SQLGetTypeInfo(st, SQL_INTEGER), "SQLGetTypeInfo(INTEGER)", typeinfo_cols,
           COUNT(typeinfo_cols), 1, integer);
    const char *timestamps[] = {
        "timestamp", "93", "26", "'", "'", ANY, "1", "0", ANY, NUL, "0", NUL, ANY, "0", "6",
        "9", "3", NUL, NUL,
        "timestamptz", "93", "26", "'", "'", ANY, "1", "0", ANY, NUL, "0", NUL, ANY, "0", "6",
        "9", "3", NUL, NUL,
    };
    expect(st, SQLGetTypeInfoW(st, SQL_TYPE_TIMESTAMP), "SQLGetTypeInfoW(TIMESTAMP)",
           typeinfo_cols, COUNT(typeinfo_cols), 2, timestamps);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

static const colspec proc_cols[] = {
    {"PROCEDURE_CAT", SQL_VARCHAR}, {"PROCEDURE_SCHEM", SQL_VARCHAR},
    {"PROCEDURE_NAME", SQL_VARCHAR}, {"NUM_INPUT_PARAMS", SQL_INTEGER},
    {"NUM_OUTPUT_PARAMS", SQL_INTEGER}, {"NUM_RESULT_SETS", SQL_INTEGER},
    {"REMARKS", SQL_VARCHAR}, {"PROCEDURE_TYPE", SQL_SMALLINT},
};

static const colspec proccol_cols[] = {
    {"PROCEDURE_CAT", SQL_VARCHAR}, {"PROCEDURE_SCHEM", SQL_VARCHAR},
    {"PROCEDURE_NAME", SQL_VARCHAR}, {"COLUMN_NAME", SQL_VARCHAR},
    {"COLUMN_TYPE", SQL_SMALLINT}, {"DATA_TYPE", SQL_SMALLINT}, {"TYPE_NAME", SQL_VARCHAR},
    {"COLUMN_SIZE", SQL_INTEGER}, {"BUFFER_LENGTH", SQL_INTEGER},
    {"DECIMAL_DIGITS", SQL_SMALLINT}, {"NUM_PREC_RADIX", SQL_SMALLINT},
    {"NULLABLE", SQL_SMALLINT}, {"REMARKS", SQL_VARCHAR}, {"COLUMN_DEF", SQL_VARCHAR},
    {"SQL_DATA_TYPE", SQL_SMALLINT}, {"SQL_DATETIME_SUB", SQL_SMALLINT},
    {"CHAR_OCTET_LENGTH", SQL_INTEGER}, {"ORDINAL_POSITION", SQL_INTEGER},
    {"IS_NULLABLE", SQL_VARCHAR},
};

static const colspec tpriv_cols[] = {
    {"TABLE_CAT", SQL_VARCHAR}, {"TABLE_SCHEM", SQL_VARCHAR}, {"TABLE_NAME", SQL_VARCHAR},
    {"GRANTOR", SQL_VARCHAR}, {"GRANTEE", SQL_VARCHAR}, {"PRIVILEGE", SQL_VARCHAR},
    {"IS_GRANTABLE", SQL_VARCHAR},
};

static const colspec cpriv_cols[] = {
    {"TABLE_CAT", SQL_VARCHAR}, {"TABLE_SCHEM", SQL_VARCHAR}, {"TABLE_NAME", SQL_VARCHAR},
    {"COLUMN_NAME", SQL_VARCHAR}, {"GRANTOR", SQL_VARCHAR}, {"GRANTEE", SQL_VARCHAR},
    {"PRIVILEGE", SQL_VARCHAR}, {"IS_GRANTABLE", SQL_VARCHAR},
};

static void test_procedures_and_privileges(void)
{
    SQLHSTMT st = new_stmt();
    const char *procs[] = {
        dbname, "catalog_t", "bump", NUL, NUL, NUL, NUL, "1",
        dbname, "catalog_t", "dept_budget", NUL, NUL, NUL, "budget of a department", "2",
        dbname, "catalog_t", "ids", NUL, NUL, NUL, NUL, "2",
        dbname, "catalog_t", "measure_of", NUL, NUL, NUL, NUL, "2",
        dbname, "catalog_t", "measures", NUL, NUL, NUL, NUL, "2",
        dbname, "catalog_t", "pairs", NUL, NUL, NUL, NUL, "2",
    };
    expect(st, SQLProcedures(st, NULL, 0, S("catalog_t"), SQL_NTS, NULL, 0),
           "SQLProcedures", proc_cols, 8, 6, procs);
    const char *cols[] = {
        dbname, "catalog_t", "dept_budget", "", "5", "2", "numeric", ANY, ANY, ANY, "10", "1",
        NUL, NUL, "2", NUL, NUL, "0", "YES",
        dbname, "catalog_t", "dept_budget", "d", "1", "4", "int4", "10", "4", "0", "10", "1",
        NUL, NUL, "4", NUL, NUL, "1", "YES",
        dbname, "catalog_t", "dept_budget", "fallback", "1", "2", "numeric", ANY, ANY, ANY,
        "10", "1", NUL, ANY, "2", NUL, NUL, "2", "YES",
    };
    expect(st, SQLProcedureColumns(st, NULL, 0, S("catalog_t"), SQL_NTS, S("dept_budget"),
                                   SQL_NTS, NULL, 0),
           "SQLProcedureColumns(dept_budget)", proccol_cols, 19, 3, cols);
    const char *inout[] = {
        dbname, "catalog_t", "bump", "n", "2", "4", "int4", "10", "4", "0", "10", "1",
        NUL, NUL, "4", NUL, NUL, "1", "YES",
    };
    expect(st, SQLProcedureColumns(st, NULL, 0, S("catalog_t"), SQL_NTS, S("bump"), SQL_NTS,
                                   NULL, 0),
           "SQLProcedureColumns(bump)", proccol_cols, 19, 1, inout);

    rows r;
    if (ok(SQLTablePrivileges(st, NULL, 0, S("catalog_t"), SQL_NTS, S("dept"), SQL_NTS),
           SQL_HANDLE_STMT, st, "SQLTablePrivileges")) {
        check_columns(st, "SQLTablePrivileges", tpriv_cols, 7);
        if (fetch_all(st, &r, "SQLTablePrivileges")) {
            bool public_select = false;
            int owner_rows = 0;
            for (int i = 0; i < r.nrows; i++) {
                if (strcmp(cell(&r, i, 4), "PUBLIC") == 0 && strcmp(cell(&r, i, 5), "SELECT") == 0)
                    public_select = true;
                /* The owner may always grant; PUBLIC got SELECT without the option. */
                const char *want = strcmp(cell(&r, i, 4), "PUBLIC") == 0 ? "NO"
                                   : strcmp(cell(&r, i, 4), username) == 0 ? "YES" : NULL;
                owner_rows += strcmp(cell(&r, i, 4), username) == 0;
                if (want != NULL && strcmp(cell(&r, i, 6), want) != 0)
                    fail("SQLTablePrivileges(dept): %s %s IS_GRANTABLE %s, expected %s",
                         cell(&r, i, 4), cell(&r, i, 5), cell(&r, i, 6), want);
            }
            if (!public_select || r.nrows < 2)
                fail("SQLTablePrivileges(dept): no SELECT for PUBLIC among %d rows", r.nrows);
            if (owner_rows == 0)
                fail("SQLTablePrivileges(dept): no row for the owner %s", username);
            rows_free(&r);
        }
    }
    SQLFreeStmt(st, SQL_CLOSE);
    if (ok(SQLColumnPrivileges(st, NULL, 0, S("catalog_t"), SQL_NTS, S("emp"), SQL_NTS,
                               S("nm"), SQL_NTS),
           SQL_HANDLE_STMT, st, "SQLColumnPrivileges")) {
        check_columns(st, "SQLColumnPrivileges", cpriv_cols, 8);
        if (fetch_all(st, &r, "SQLColumnPrivileges")) {
            bool public_update = false;
            for (int i = 0; i < r.nrows; i++) {
                if (strcmp(cell(&r, i, 3), "nm") != 0)
                    fail("SQLColumnPrivileges(emp.nm) returned column %s", cell(&r, i, 3));
                if (strcmp(cell(&r, i, 5), "PUBLIC") == 0 && strcmp(cell(&r, i, 6), "UPDATE") == 0)
                    public_update = true;
                if (strcmp(cell(&r, i, 5), username) == 0 && strcmp(cell(&r, i, 7), "YES") != 0)
                    fail("SQLColumnPrivileges(emp.nm): the owner's %s is not grantable",
                         cell(&r, i, 6));
            }
            if (!public_update)
                fail("SQLColumnPrivileges(emp.nm): the column grant UPDATE to PUBLIC is missing");
            rows_free(&r);
        }
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* Expected SQLProcedureColumns rows, checking COLUMN_NAME, COLUMN_TYPE,
 * DATA_TYPE, TYPE_NAME and ORDINAL_POSITION of the procedure `proc`. */
static void expect_proc_columns(SQLHSTMT st, const char *proc, int nexp,
                                const char *const *name_type_dt_tn_ord)
{
    const char **exp = calloc((size_t)nexp * 19, sizeof *exp);
    if (exp == NULL) {
        fail("out of memory");
        return;
    }
    for (int i = 0; i < nexp * 19; i++)
        exp[i] = ANY;
    for (int i = 0; i < nexp; i++) {
        const char *const *e = name_type_dt_tn_ord + i * 5;
        exp[i * 19 + 2] = proc;
        exp[i * 19 + 3] = e[0];
        exp[i * 19 + 4] = e[1];
        exp[i * 19 + 5] = e[2];
        exp[i * 19 + 6] = e[3];
        exp[i * 19 + 17] = e[4];
    }
    char what[96];
    snprintf(what, sizeof what, "SQLProcedureColumns(%s)", proc);
    expect(st, SQLProcedureColumns(st, NULL, 0, S("catalog_t"), SQL_NTS, S(proc), SQL_NTS,
                                   NULL, 0),
           what, proccol_cols, 19, nexp, exp);
    free(exp);
}

/* What a function returns besides a scalar: the attributes of a composite
 * type (OUT columns of its one row), the columns of the rows a SETOF
 * function returns (SQL_RESULT_COL, numbered among the result columns), and
 * a built-in found by its name without a schema. */
static void test_procedure_result_columns(void)
{
    SQLHSTMT st = new_stmt();
    const char *one_row[] = {
        "s", "1", "4", "int4", "1",
        "site", "4", "4", "int4", "2",
        "day", "4", "91", "date", "3",
        "v", "4", "7", "float4", "4",
    };
    expect_proc_columns(st, "measure_of", 4, one_row);
    const char *set_of_rows[] = {
        "s", "1", "4", "int4", "1",
        "site", "3", "4", "int4", "1",
        "day", "3", "91", "date", "2",
        "v", "3", "7", "float4", "3",
    };
    expect_proc_columns(st, "measures", 4, set_of_rows);
    const char *out_set[] = {
        "a", "3", "4", "int4", "1",
        "s", "1", "4", "int4", "2",
        "b", "3", "-1", "text", "2",
    };
    expect_proc_columns(st, "pairs", 3, out_set);
    const char *scalar_set[] = { "", "3", "4", "int4", "1" };
    expect_proc_columns(st, "ids", 1, scalar_set);

    const char *builtin[] = { ANY, "pg_catalog", "pg_backend_pid", ANY, ANY, ANY, ANY, "2" };
    expect(st, SQLProcedures(st, NULL, 0, NULL, 0, S("pg_backend_pid"), SQL_NTS),
           "SQLProcedures(no schema, pg_backend_pid)", proc_cols, 8, 1, builtin);
    const char *none[] = { NULL };
    expect(st, SQLProcedures(st, NULL, 0, NULL, 0, S("pg\\_backend\\_pid%"), SQL_NTS),
           "SQLProcedures(no schema, pg\\_backend\\_pid%)", proc_cols, 8, 0, none);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* The number of rows a catalog call gave (-1 when it failed). */
static int count_rows(SQLHSTMT st, SQLRETURN rc, const char *what)
{
    if (!ok(rc, SQL_HANDLE_STMT, st, what))
        return -1;
    int n = 0;
    while (SQL_SUCCEEDED(SQLFetch(st)))
        n++;
    SQLFreeStmt(st, SQL_CLOSE);
    return n;
}

static void expect_count(SQLHSTMT st, SQLRETURN rc, const char *what, int nexp)
{
    int n = count_rows(st, rc, what);
    if (n >= 0 && n != nexp)
        fail("%s: %d rows, expected %d", what, n, nexp);
}

/* An empty string (docs/catalog.md): a catalog or schema argument, and the
 * name SQLTables and SQLProcedures list by, do not filter; the name of the
 * object described matches only an empty name, so nothing (a procedure's
 * return value has one); an empty TableType names no type. As psqlODBC. */
static void test_empty_string_arguments(void)
{
    SQLHSTMT st = new_stmt();
    int tables = count_rows(st, SQLTables(st, NULL, 0, S("catalog_t"), SQL_NTS, NULL, 0,
                                          NULL, 0), "SQLTables(catalog_t)");
    if (tables < 5)
        fail("SQLTables(catalog_t): %d rows, expected at least the 5 made", tables);
    expect_count(st, SQLTables(st, S(""), 0, S("catalog_t"), SQL_NTS, S(""), 0, NULL, 0),
                 "SQLTables(catalog '', table '')", tables);
    expect_count(st, SQLTables(st, NULL, 0, S("catalog_t"), SQL_NTS, S("dept"), SQL_NTS,
                               S(""), 0),
                 "SQLTables(dept, TableType '')", 0);
    expect_count(st, SQLColumns(st, S(""), 0, S(""), 0, S("mixed Case"), SQL_NTS, NULL, 0),
                 "SQLColumns(catalog '', schema '', mixed Case)", 1);
    expect_count(st, SQLColumns(st, NULL, 0, S("catalog_t"), SQL_NTS, S(""), 0, NULL, 0),
                 "SQLColumns(table '')", 0);
    expect_count(st, SQLColumns(st, NULL, 0, S("catalog_t"), SQL_NTS, S("dept"), SQL_NTS,
                                S(""), 0),
                 "SQLColumns(dept, column '')", 0);
    expect_count(st, SQLPrimaryKeys(st, NULL, 0, S("catalog_t"), SQL_NTS, S(""), 0),
                 "SQLPrimaryKeys(table '')", 0);
    expect_count(st, SQLForeignKeys(st, NULL, 0, S(""), 0, NULL, 0, NULL, 0,
                                    S("catalog_t"), SQL_NTS, S("emp"), SQL_NTS),
                 "SQLForeignKeys(PK schema '', of emp)", 1);
    expect_count(st, SQLForeignKeys(st, NULL, 0, S("catalog_t"), SQL_NTS, S(""), 0, NULL, 0,
                                    S("catalog_t"), SQL_NTS, S("emp"), SQL_NTS),
                 "SQLForeignKeys(PK table '', of emp)", 0);
    expect_count(st, SQLForeignKeys(st, NULL, 0, S("catalog_t"), SQL_NTS, S("dept"), SQL_NTS,
                                    NULL, 0, S("catalog_t"), SQL_NTS, S(""), 0),
                 "SQLForeignKeys(referencing dept, FK table '')", 0);
    expect_count(st, SQLProcedures(st, NULL, 0, S("catalog_t"), SQL_NTS, S(""), 0),
                 "SQLProcedures(procedure '')", 6);
    expect_count(st, SQLProcedureColumns(st, NULL, 0, S("catalog_t"), SQL_NTS, S(""), 0,
                                         NULL, 0),
                 "SQLProcedureColumns(procedure '')", 0);
    expect_count(st, SQLProcedureColumns(st, NULL, 0, S("catalog_t"), SQL_NTS,
                                         S("dept_budget"), SQL_NTS, S(""), 0),
                 "SQLProcedureColumns(dept_budget, column '': the return value)", 1);
    expect_count(st, SQLTablePrivileges(st, NULL, 0, S("catalog_t"), SQL_NTS, S(""), 0),
                 "SQLTablePrivileges(table '')", 0);
    expect_count(st, SQLColumnPrivileges(st, NULL, 0, S("catalog_t"), SQL_NTS, S("emp"),
                                         SQL_NTS, S(""), 0),
                 "SQLColumnPrivileges(emp, column '')", 0);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

static void setup_schema(void)
{
    exec_sql("DROP SCHEMA IF EXISTS catalog_t CASCADE");
    exec_sql("CREATE SCHEMA catalog_t");
    exec_sql("CREATE TABLE catalog_t.dept (id int PRIMARY KEY, name varchar(40) NOT NULL,"
             " budget numeric(12,2) DEFAULT 0)");
    exec_sql("COMMENT ON TABLE catalog_t.dept IS 'departments'");
    exec_sql("COMMENT ON COLUMN catalog_t.dept.name IS 'dept name'");
    exec_sql("CREATE TABLE catalog_t.emp (id bigint PRIMARY KEY,"
             " dept_id int CONSTRAINT emp_dept_fk REFERENCES catalog_t.dept(id) ON DELETE CASCADE,"
             " nm text, hired timestamp(3), gone int, photo bytea, score float8)");
    exec_sql("ALTER TABLE catalog_t.emp DROP COLUMN gone");
    exec_sql("CREATE INDEX emp_dept_nm_idx ON catalog_t.emp (dept_id, nm DESC)");
    exec_sql("CREATE TABLE catalog_t.measure (site int, day date, v float4,"
             " CONSTRAINT measure_pk PRIMARY KEY (site, day))");
    exec_sql("CREATE TABLE catalog_t.\"mixed Case\" (a int)");
    exec_sql("DROP SCHEMA IF EXISTS catalog_k CASCADE");
    exec_sql("CREATE SCHEMA catalog_k");
    exec_sql("CREATE TABLE catalog_k.odd (iv interval, nm name, o oid, c \"char\", tz timetz,"
             " b bool, t text, v varchar, n bigint, w varchar(80))");
    exec_sql("CREATE VIEW catalog_t.emp_v AS SELECT id, nm FROM catalog_t.emp");
    exec_sql("GRANT SELECT ON catalog_t.dept TO PUBLIC");
    exec_sql("GRANT UPDATE (nm) ON catalog_t.emp TO PUBLIC");
    exec_sql("CREATE FUNCTION catalog_t.dept_budget(d int, fallback numeric DEFAULT 0)"
             " RETURNS numeric LANGUAGE sql AS"
             " 'SELECT coalesce(budget, fallback) FROM catalog_t.dept WHERE id = d'");
    exec_sql("COMMENT ON FUNCTION catalog_t.dept_budget(int, numeric) IS 'budget of a department'");
    exec_sql("CREATE PROCEDURE catalog_t.bump(INOUT n int) LANGUAGE plpgsql AS"
             " 'BEGIN n := n + 1; END'");
    exec_sql("CREATE FUNCTION catalog_t.measure_of(s int) RETURNS catalog_t.measure"
             " LANGUAGE sql AS 'SELECT * FROM catalog_t.measure WHERE site = s LIMIT 1'");
    exec_sql("CREATE FUNCTION catalog_t.measures(s int) RETURNS SETOF catalog_t.measure"
             " LANGUAGE sql AS 'SELECT * FROM catalog_t.measure WHERE site = s'");
    exec_sql("CREATE FUNCTION catalog_t.pairs(OUT a int, s int, OUT b text)"
             " RETURNS SETOF record LANGUAGE sql AS 'SELECT s, ''x''::text'");
    exec_sql("CREATE FUNCTION catalog_t.ids() RETURNS SETOF int LANGUAGE sql"
             " AS 'SELECT 1'");
}

int main(void)
{
    const char *dsn = getenv("GC_TEST_DSN");
    if (dsn == NULL || dsn[0] == '\0')
        dsn = "gcodbc_test";
    SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env);
    SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    char connstr[256];
    snprintf(connstr, sizeof connstr, "DSN=%s", dsn);
    if (!ok(SQLDriverConnect(dbc, NULL, S(connstr), SQL_NTS, NULL, 0, NULL,
                             SQL_DRIVER_NOPROMPT), SQL_HANDLE_DBC, dbc, "SQLDriverConnect"))
        return 1;
    SQLAllocHandle(SQL_HANDLE_DBC, env, &setup_dbc);
    snprintf(connstr, sizeof connstr, "DSN=%s;GlobalConnection=No", dsn);
    if (!ok(SQLDriverConnect(setup_dbc, NULL, S(connstr), SQL_NTS, NULL, 0, NULL,
                             SQL_DRIVER_NOPROMPT), SQL_HANDLE_DBC, setup_dbc,
            "SQLDriverConnect (setup)"))
        return 1;
    SQLSMALLINT len;
    SQLGetInfo(dbc, SQL_DATABASE_NAME, dbname, sizeof dbname, &len);
    SQLGetInfo(dbc, SQL_USER_NAME, username, sizeof username, &len);

    setup_schema();
    test_tables();
    test_columns();
    test_columns_agree_with_describe(dsn);
    test_keys();
    test_statistics_and_special();
    test_type_info();
    test_procedures_and_privileges();
    test_procedure_result_columns();
    test_empty_string_arguments();

    exec_sql("DROP SCHEMA catalog_t CASCADE");
    exec_sql("DROP SCHEMA catalog_k CASCADE");
    SQLDisconnect(setup_dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, setup_dbc);
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    if (failures > 0) {
        printf("%d failure(s)\n", failures);
        return 1;
    }
    printf("all catalog checks passed\n");
    return 0;
}
