/*
 * Result and parameter metadata: SQLNumResultCols / SQLDescribeCol /
 * SQLDescribeParam before executing (the server describes the prepared
 * statement), SQLColAttribute fields, the implicit descriptors
 * (SQLGetStmtAttr + SQLGetDescField / SQLGetDescRec), an explicit descriptor
 * used as ARD, SQLCopyDesc, cursor names and statement attributes.
 */
#include "st_test.h"

int main(void)
{
    st_conn c;
    st_connect(&c);
    SQLHSTMT s = st_stmt(&c);
    ST_OK(SQLPrepare(s, (SQLCHAR *)
        "select ?::int4 + 1 as plus, ?::varchar(20) as name, 1.5::numeric(10,2) as num, "
        "now()::timestamp as ts, '\\x00'::bytea as bin", SQL_NTS), s);
    SQLSMALLINT cols = 0, params = 0;
    ST_OK(SQLNumResultCols(s, &cols), s);
    ST_CHECK(cols == 5, "%d columns before executing", cols);
    ST_OK(SQLNumParams(s, &params), s);
    ST_CHECK(params == 2, "%d parameters", params);
    SQLSMALLINT type = 0, digits = 0, nullable = 0, name_len = 0;
    SQLULEN size = 0;
    ST_OK(SQLDescribeParam(s, 1, &type, &size, &digits, &nullable), s);
    ST_CHECK(type == SQL_INTEGER, "parameter 1 type %d", type);
    /* Any PostgreSQL parameter takes NULL; an integer has no decimals. */
    ST_CHECK(nullable == SQL_NULLABLE, "parameter 1 nullable %d", nullable);
    ST_CHECK(digits == 0, "parameter 1 decimal digits %d", digits);
    ST_OK(SQLDescribeParam(s, 2, &type, &size, &digits, &nullable), s);
    ST_CHECK(type == SQL_VARCHAR || type == SQL_WVARCHAR || type == SQL_LONGVARCHAR ||
             type == SQL_WLONGVARCHAR, "parameter 2 type %d", type);

    char name[64];
    ST_OK(SQLDescribeCol(s, 1, (SQLCHAR *)name, sizeof name, &name_len, &type, &size, &digits, &nullable), s);
    ST_CHECK(strcmp(name, "plus") == 0 && type == SQL_INTEGER, "column 1 '%s' type %d", name, type);
    ST_OK(SQLDescribeCol(s, 3, (SQLCHAR *)name, sizeof name, &name_len, &type, &size, &digits, &nullable), s);
    ST_CHECK(type == SQL_NUMERIC && size == 10 && digits == 2, "numeric(10,2): type %d size %lu digits %d",
             type, (unsigned long)size, digits);
    ST_OK(SQLDescribeCol(s, 4, (SQLCHAR *)name, sizeof name, &name_len, &type, &size, &digits, &nullable), s);
    ST_CHECK(type == SQL_TYPE_TIMESTAMP, "timestamp type %d", type);
    /* Truncated name: 01004. */
    char tiny[3];
    SQLRETURN rc = SQLDescribeCol(s, 2, (SQLCHAR *)tiny, sizeof tiny, &name_len, NULL, NULL, NULL, NULL);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO && name_len == 4 && strcmp(tiny, "na") == 0,
             "truncated name: rc %d len %d '%s'", rc, name_len, tiny);

    /* Execute, then the attributes applications ask for. */
    SQLINTEGER a = 41;
    SQLLEN ind = 0, nts = SQL_NTS;
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &a, 0, &ind), s);
    ST_OK(SQLBindParameter(s, 2, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 20, 0, "bob", 0, &nts), s);
    ST_OK(SQLExecute(s), s);
    static const struct { SQLUSMALLINT field; const char *name; } numeric_fields[] = {
        { SQL_DESC_TYPE, "TYPE" }, { SQL_DESC_CONCISE_TYPE, "CONCISE_TYPE" },
        { SQL_DESC_LENGTH, "LENGTH" }, { SQL_DESC_OCTET_LENGTH, "OCTET_LENGTH" },
        { SQL_DESC_PRECISION, "PRECISION" }, { SQL_DESC_SCALE, "SCALE" },
        { SQL_DESC_DISPLAY_SIZE, "DISPLAY_SIZE" }, { SQL_DESC_NULLABLE, "NULLABLE" },
        { SQL_DESC_UNSIGNED, "UNSIGNED" }, { SQL_DESC_AUTO_UNIQUE_VALUE, "AUTO_UNIQUE_VALUE" },
        { SQL_DESC_CASE_SENSITIVE, "CASE_SENSITIVE" }, { SQL_DESC_SEARCHABLE, "SEARCHABLE" },
        { SQL_DESC_UPDATABLE, "UPDATABLE" }, { SQL_DESC_COUNT, "COUNT" },
        { SQL_DESC_FIXED_PREC_SCALE, "FIXED_PREC_SCALE" }, { SQL_DESC_NUM_PREC_RADIX, "NUM_PREC_RADIX" },
        { SQL_DESC_UNNAMED, "UNNAMED" }, { SQL_COLUMN_LENGTH, "COLUMN_LENGTH" },
        { SQL_COLUMN_PRECISION, "COLUMN_PRECISION" }, { SQL_COLUMN_SCALE, "COLUMN_SCALE" },
    };
    static const struct { SQLUSMALLINT field; const char *name; } string_fields[] = {
        { SQL_DESC_NAME, "NAME" }, { SQL_DESC_LABEL, "LABEL" }, { SQL_DESC_TYPE_NAME, "TYPE_NAME" },
        { SQL_DESC_TABLE_NAME, "TABLE_NAME" }, { SQL_DESC_BASE_COLUMN_NAME, "BASE_COLUMN_NAME" },
        { SQL_DESC_BASE_TABLE_NAME, "BASE_TABLE_NAME" }, { SQL_DESC_LITERAL_PREFIX, "LITERAL_PREFIX" },
        { SQL_DESC_LITERAL_SUFFIX, "LITERAL_SUFFIX" }, { SQL_DESC_LOCAL_TYPE_NAME, "LOCAL_TYPE_NAME" },
        { SQL_DESC_SCHEMA_NAME, "SCHEMA_NAME" }, { SQL_DESC_CATALOG_NAME, "CATALOG_NAME" },
    };
    for (SQLUSMALLINT col = 1; col <= 5; col++) {
        for (size_t i = 0; i < sizeof numeric_fields / sizeof numeric_fields[0]; i++) {
            SQLLEN num = -999;
            rc = SQLColAttribute(s, col, numeric_fields[i].field, NULL, 0, NULL, &num);
            ST_CHECK(rc == SQL_SUCCESS && num != -999, "column %u %s: rc %d", col, numeric_fields[i].name, rc);
        }
        for (size_t i = 0; i < sizeof string_fields / sizeof string_fields[0]; i++) {
            char buf[64] = "unset";
            SQLSMALLINT len = -1;
            rc = SQLColAttribute(s, col, string_fields[i].field, buf, sizeof buf, &len, NULL);
            ST_CHECK(rc == SQL_SUCCESS && len >= 0 && strcmp(buf, "unset") != 0,
                     "column %u %s: rc %d", col, string_fields[i].name, rc);
        }
    }
    char tname[32];
    SQLLEN num = 0;
    ST_OK(SQLColAttribute(s, 2, SQL_DESC_TYPE_NAME, tname, sizeof tname, NULL, NULL), s);
    ST_CHECK(strcmp(tname, "varchar") == 0, "type name '%s'", tname);
    ST_OK(SQLColAttribute(s, 1, SQL_DESC_COUNT, NULL, 0, NULL, &num), s);
    ST_CHECK(num == 5, "SQL_DESC_COUNT %ld", (long)num);
    ST_OK(SQLColAttribute(s, 3, SQL_DESC_PRECISION, NULL, 0, NULL, &num), s);
    ST_CHECK(num == 10, "numeric precision %ld", (long)num);
    ST_OK(SQLColAttribute(s, 2, SQL_DESC_LITERAL_PREFIX, tname, sizeof tname, NULL, NULL), s);
    ST_CHECK(strcmp(tname, "'") == 0, "literal prefix '%s'", tname);

    /* The implicit descriptors. */
    SQLHDESC ard = NULL, apd = NULL, ird = NULL, ipd = NULL;
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_APP_ROW_DESC, &ard, 0, NULL), s);
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_APP_PARAM_DESC, &apd, 0, NULL), s);
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_IMP_ROW_DESC, &ird, 0, NULL), s);
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_IMP_PARAM_DESC, &ipd, 0, NULL), s);
    ST_CHECK(ard && apd && ird && ipd, "four descriptors");
    SQLSMALLINT count = 0;
    ST_CHECK(SQLGetDescField(ird, 0, SQL_DESC_COUNT, &count, 0, NULL) == SQL_SUCCESS && count == 5,
             "IRD count %d", count);
    ST_CHECK(SQLGetDescField(apd, 0, SQL_DESC_COUNT, &count, 0, NULL) == SQL_SUCCESS && count == 2,
             "APD count %d", count);
    SQLSMALLINT sql_type = 0;
    ST_CHECK(SQLGetDescField(ipd, 2, SQL_DESC_CONCISE_TYPE, &sql_type, 0, NULL) == SQL_SUCCESS &&
             sql_type == SQL_VARCHAR, "IPD record 2 type %d", sql_type);
    SQLSMALLINT dtype = 0, sub = 0, prec = 0, scale = 0, nul = 0;
    SQLLEN len = 0;
    ST_CHECK(SQLGetDescRec(ird, 4, (SQLCHAR *)name, sizeof name, &name_len, &dtype, &sub, &len,
                           &prec, &scale, &nul) == SQL_SUCCESS &&
             dtype == SQL_DATETIME && sub == SQL_CODE_TIMESTAMP && strcmp(name, "ts") == 0,
             "IRD record 4: '%s' type %d sub %d", name, dtype, sub);
    ST_CHECK(SQLSetDescField(ird, 1, SQL_DESC_NAME, "x", SQL_NTS) == SQL_ERROR, "the IRD is read-only");
    ST_OK(SQLCloseCursor(s), s);

    /* An explicit descriptor as ARD, bound through SQLSetDescRec. */
    SQLHDESC mine = NULL;
    ST_CHECK(ST_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_DESC, c.dbc, &mine)), "allocate a descriptor");
    SQLINTEGER value = 0;
    SQLLEN vind = 0;
    ST_CHECK(SQLSetDescRec(mine, 1, SQL_C_SLONG, 0, sizeof value, 0, 0, &value, &vind, &vind) == SQL_SUCCESS,
             "SQLSetDescRec");
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_APP_ROW_DESC, mine, 0), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select 1234", SQL_NTS), s);
    ST_OK(SQLFetch(s), s);
    ST_CHECK(value == 1234, "explicit ARD got %d", (int)value);
    ST_OK(SQLCloseCursor(s), s);
    /* SQLCopyDesc into the implicit ARD; freeing the explicit one restores it. */
    ST_CHECK(SQLCopyDesc(mine, ard) == SQL_SUCCESS, "SQLCopyDesc");
    SQLFreeHandle(SQL_HANDLE_DESC, mine);
    SQLHDESC now_ard = NULL;
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_APP_ROW_DESC, &now_ard, 0, NULL), s);
    ST_CHECK(now_ard == ard, "implicit ARD back after freeing the explicit one");
    value = 0;
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select 99", SQL_NTS), s);
    ST_OK(SQLFetch(s), s);
    ST_CHECK(value == 99, "copied binding got %d", (int)value);
    ST_OK(SQLFreeStmt(s, SQL_CLOSE), s);
    ST_OK(SQLFreeStmt(s, SQL_UNBIND), s);

    /* Cursor names and attributes. */
    char cname[64];
    SQLSMALLINT clen = 0;
    ST_OK(SQLGetCursorName(s, (SQLCHAR *)cname, sizeof cname, &clen), s);
    ST_CHECK(strncmp(cname, "SQL_CUR", 7) == 0, "default cursor name '%s'", cname);
    ST_OK(SQLSetCursorName(s, (SQLCHAR *)"my_cursor", SQL_NTS), s);
    ST_OK(SQLGetCursorName(s, (SQLCHAR *)cname, sizeof cname, &clen), s);
    ST_CHECK(strcmp(cname, "my_cursor") == 0, "cursor name '%s'", cname);
    /* A name up to SQL_MAX_CURSOR_NAME_LEN (32, psqlODBC's limit) is taken,
     * a longer one is 34000 and the old name stays. */
    SQLUSMALLINT max_name = 0;
    ST_CHECK(SQLGetInfo(c.dbc, SQL_MAX_CURSOR_NAME_LEN, &max_name, sizeof max_name, NULL) ==
             SQL_SUCCESS && max_name == 32, "SQL_MAX_CURSOR_NAME_LEN %u", max_name);
    char longest[34];
    memset(longest, 'c', 33);
    longest[33] = '\0';
    ST_EXPECT_STATE(SQLSetCursorName(s, (SQLCHAR *)longest, SQL_NTS), s, "34000");
    ST_OK(SQLGetCursorName(s, (SQLCHAR *)cname, sizeof cname, &clen), s);
    ST_CHECK(strcmp(cname, "my_cursor") == 0, "cursor name after the refusal '%s'", cname);
    longest[32] = '\0';
    ST_OK(SQLSetCursorName(s, (SQLCHAR *)longest, SQL_NTS), s);
    ST_OK(SQLGetCursorName(s, (SQLCHAR *)cname, sizeof cname, &clen), s);
    ST_CHECK(clen == 32 && strcmp(cname, longest) == 0, "32-byte cursor name (%d)", clen);
    rc = SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_DYNAMIC, 0);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO && st_has_state(SQL_HANDLE_STMT, s, "01S02"),
             "dynamic cursor becomes static with 01S02 (rc %d)", rc);
    SQLULEN attr = 99;
    ST_OK(SQLGetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, &attr, 0, NULL), s);
    ST_CHECK(attr == SQL_CURSOR_STATIC, "cursor type %lu", (unsigned long)attr);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_FORWARD_ONLY, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_MAX_ROWS, (SQLPOINTER)3, 0), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select g from generate_series(1, 10) g", SQL_NTS), s);
    int rows = 0;
    while (SQLFetch(s) == SQL_SUCCESS)
        rows++;
    ST_CHECK(rows == 3, "SQL_ATTR_MAX_ROWS 3 gave %d rows", rows);

    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);
    return st_finish("describe");
}
