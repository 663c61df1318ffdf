/*
 * Column 0, the bookmark, in the metadata functions: SQLDescribeCol and
 * SQLColAttribute on column 0 (SQL_BINARY of 4 bytes for variable
 * bookmarks, SQL_INTEGER for the fixed ones of ODBC 2), record 0 of the IRD
 * describing it, and record 0 of the ARD as the bookmark's binding: what
 * SQLBindCol(0) set is read back through SQLGetDescField / SQLGetDescRec,
 * and a binding made with SQLSetDescField / SQLSetDescRec is filled by the
 * fetch. Errors: column 0 or IRD record 0 with bookmarks off (07009), APD
 * and IPD record 0 (07009), IRD record 0 written (HY016), a bookmark
 * buffer of a C type that cannot hold one (HY021).
 */
#include "st_test.h"

#define SET10 "select g, 'r' || g as label from generate_series(1, 10) g order by g"

static SQLHSTMT static_stmt(st_conn *c, SQLULEN use_bookmarks)
{
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_STATIC, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_USE_BOOKMARKS, (SQLPOINTER)use_bookmarks, 0), s);
    return s;
}

static SQLHDESC stmt_desc(SQLHSTMT s, SQLINTEGER which)
{
    SQLHDESC d = SQL_NULL_HDESC;
    ST_OK(SQLGetStmtAttr(s, which, &d, 0, NULL), s);
    return d;
}

/* SQLDescribeCol, SQLColAttribute and IRD record 0 on column 0. */
static void describe_variable(st_conn *c)
{
    SQLHSTMT s = static_stmt(c, SQL_UB_VARIABLE);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)SET10, SQL_NTS), s);
    SQLCHAR name[64] = "x";
    SQLSMALLINT name_len = -1, type = 0, digits = -1, nullable = -1;
    SQLULEN size = 0;
    ST_OK(SQLDescribeCol(s, 0, name, sizeof name, &name_len, &type, &size, &digits, &nullable), s);
    ST_CHECK(type == SQL_BINARY, "bookmark type %d", (int)type);
    ST_CHECK(size == 4, "bookmark size %lu", (unsigned long)size);
    ST_CHECK(digits == 0 && nullable == SQL_NO_NULLS, "digits %d nullable %d", (int)digits,
             (int)nullable);
    ST_CHECK(name_len == 0 && name[0] == '\0', "bookmark name '%s'", (char *)name);

    SQLLEN num = 0;
    ST_OK(SQLColAttribute(s, 0, SQL_DESC_TYPE, NULL, 0, NULL, &num), s);
    ST_CHECK(num == SQL_BINARY, "SQL_DESC_TYPE %ld", (long)num);
    ST_OK(SQLColAttribute(s, 0, SQL_DESC_OCTET_LENGTH, NULL, 0, NULL, &num), s);
    ST_CHECK(num == 4, "SQL_DESC_OCTET_LENGTH %ld", (long)num);
    ST_OK(SQLColAttribute(s, 0, SQL_DESC_UNNAMED, NULL, 0, NULL, &num), s);
    ST_CHECK(num == SQL_UNNAMED, "SQL_DESC_UNNAMED %ld", (long)num);
    ST_OK(SQLColAttribute(s, 0, SQL_DESC_SEARCHABLE, NULL, 0, NULL, &num), s);
    ST_CHECK(num == SQL_PRED_NONE, "SQL_DESC_SEARCHABLE %ld", (long)num);
    /* The count still counts the result's columns only. */
    ST_OK(SQLColAttribute(s, 0, SQL_DESC_COUNT, NULL, 0, NULL, &num), s);
    ST_CHECK(num == 2, "SQL_DESC_COUNT %ld", (long)num);

    SQLHDESC ird = stmt_desc(s, SQL_ATTR_IMP_ROW_DESC);
    SQLSMALLINT small = 0;
    ST_OK(SQLGetDescField(ird, 0, SQL_DESC_CONCISE_TYPE, &small, 0, NULL), s);
    ST_CHECK(small == SQL_BINARY, "IRD record 0 concise type %d", (int)small);
    SQLLEN octets = 0;
    ST_OK(SQLGetDescField(ird, 0, SQL_DESC_OCTET_LENGTH, &octets, 0, NULL), s);
    ST_CHECK(octets == 4, "IRD record 0 octet length %ld", (long)octets);
    ST_EXPECT_HANDLE_STATE(SQLSetDescField(ird, 0, SQL_DESC_OCTET_LENGTH, (SQLPOINTER)8, 0),
                           SQL_HANDLE_DESC, ird, "HY016");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* SQL_UB_FIXED (ODBC 2's SQL_UB_ON): an integer bookmark. */
static void describe_fixed(st_conn *c)
{
    SQLHSTMT s = static_stmt(c, SQL_UB_FIXED);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)SET10, SQL_NTS), s);
    SQLSMALLINT type = 0;
    SQLULEN size = 0;
    ST_OK(SQLDescribeCol(s, 0, NULL, 0, NULL, &type, &size, NULL, NULL), s);
    ST_CHECK(type == SQL_INTEGER, "fixed bookmark type %d", (int)type);
    SQLLEN num = 0;
    ST_OK(SQLColAttribute(s, 0, SQL_DESC_CONCISE_TYPE, NULL, 0, NULL, &num), s);
    ST_CHECK(num == SQL_INTEGER, "fixed SQL_DESC_CONCISE_TYPE %ld", (long)num);
    ST_OK(SQLColAttribute(s, 0, SQL_DESC_OCTET_LENGTH, NULL, 0, NULL, &num), s);
    ST_CHECK(num == 4, "fixed SQL_DESC_OCTET_LENGTH %ld", (long)num);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* Bookmarks off: column 0 and IRD record 0 are 07009; APD and IPD never
 * have a record 0. */
static void bookmarks_off(st_conn *c)
{
    SQLHSTMT s = static_stmt(c, SQL_UB_OFF);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)SET10, SQL_NTS), s);
    SQLSMALLINT type = 0;
    SQLULEN size = 0;
    ST_EXPECT_STATE(SQLDescribeCol(s, 0, NULL, 0, NULL, &type, &size, NULL, NULL), s, "07009");
    SQLLEN num = 0;
    ST_EXPECT_STATE(SQLColAttribute(s, 0, SQL_DESC_TYPE, NULL, 0, NULL, &num), s, "07009");
    SQLHDESC ird = stmt_desc(s, SQL_ATTR_IMP_ROW_DESC);
    SQLSMALLINT small = 0;
    ST_EXPECT_HANDLE_STATE(SQLGetDescField(ird, 0, SQL_DESC_TYPE, &small, 0, NULL),
                           SQL_HANDLE_DESC, ird, "07009");
    SQLHDESC apd = stmt_desc(s, SQL_ATTR_APP_PARAM_DESC);
    ST_EXPECT_HANDLE_STATE(SQLGetDescField(apd, 0, SQL_DESC_TYPE, &small, 0, NULL),
                           SQL_HANDLE_DESC, apd, "07009");
    SQLHDESC ipd = stmt_desc(s, SQL_ATTR_IMP_PARAM_DESC);
    ST_EXPECT_HANDLE_STATE(SQLSetDescField(ipd, 0, SQL_DESC_TYPE, (SQLPOINTER)SQL_INTEGER, 0),
                           SQL_HANDLE_DESC, ipd, "07009");
    /* Columns past the last stay 07009 too. */
    ST_EXPECT_STATE(SQLDescribeCol(s, 3, NULL, 0, NULL, &type, &size, NULL, NULL), s, "07009");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* SQLBindCol(0) is ARD record 0, and ARD record 0 is SQLBindCol(0). */
static void ard_record_zero(st_conn *c)
{
    SQLHSTMT s = static_stmt(c, SQL_UB_VARIABLE);
    SQLHDESC ard = stmt_desc(s, SQL_ATTR_APP_ROW_DESC);
    unsigned char mark[8];
    SQLLEN mark_len = 0;
    ST_OK(SQLBindCol(s, 0, SQL_C_VARBOOKMARK, mark, sizeof mark, &mark_len), s);
    SQLSMALLINT small = 0;
    ST_OK(SQLGetDescField(ard, 0, SQL_DESC_CONCISE_TYPE, &small, 0, NULL), s);
    ST_CHECK(small == SQL_C_VARBOOKMARK, "ARD record 0 type %d", (int)small);
    SQLPOINTER p = NULL;
    ST_OK(SQLGetDescField(ard, 0, SQL_DESC_DATA_PTR, &p, 0, NULL), s);
    ST_CHECK(p == mark, "ARD record 0 data pointer");
    ST_OK(SQLGetDescField(ard, 0, SQL_DESC_INDICATOR_PTR, &p, 0, NULL), s);
    ST_CHECK(p == &mark_len, "ARD record 0 indicator pointer");
    SQLLEN octets = 0;
    ST_OK(SQLGetDescField(ard, 0, SQL_DESC_OCTET_LENGTH, &octets, 0, NULL), s);
    ST_CHECK(octets == sizeof mark, "ARD record 0 octet length %ld", (long)octets);
    SQLSMALLINT count = -1;
    ST_OK(SQLGetDescField(ard, 0, SQL_DESC_COUNT, &count, 0, NULL), s);
    ST_CHECK(count == 0, "the bookmark is not counted: %d", (int)count);

    /* Rebound through the descriptor: a 32-bit integer bookmark, then
     * column 1 as usual; the fetch fills both. */
    SQLUINTEGER fixed = 0;
    SQLLEN fixed_len = 0;
    ST_OK(SQLSetDescField(ard, 0, SQL_DESC_CONCISE_TYPE, (SQLPOINTER)SQL_C_ULONG, 0), s);
    ST_OK(SQLSetDescField(ard, 0, SQL_DESC_DATA_PTR, &fixed, 0), s);
    ST_OK(SQLSetDescField(ard, 0, SQL_DESC_INDICATOR_PTR, &fixed_len, 0), s);
    SQLINTEGER g = 0;
    SQLLEN g_len = 0;
    ST_OK(SQLBindCol(s, 1, SQL_C_SLONG, &g, 0, &g_len), s);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)SET10, SQL_NTS), s);
    ST_OK(SQLFetchScroll(s, SQL_FETCH_ABSOLUTE, 6), s);
    ST_CHECK(g == 6, "row %d", (int)g);
    ST_CHECK(fixed != 0 && fixed_len == 4, "bookmark %u (%ld bytes) filled through ARD record 0",
             (unsigned)fixed, (long)fixed_len);
    ST_CHECK(mark_len == 0, "the old binding was replaced");
    /* The bookmark read so goes back to its row. */
    SQLUINTEGER mark6 = fixed;
    ST_OK(SQLFetchScroll(s, SQL_FETCH_FIRST, 0), s);
    ST_CHECK(g == 1 && fixed != mark6, "row %d has its own bookmark", (int)g);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_FETCH_BOOKMARK_PTR, &mark6, 0), s);
    ST_OK(SQLFetchScroll(s, SQL_FETCH_BOOKMARK, 0), s);
    ST_CHECK(g == 6 && fixed == mark6, "back to row %d by its bookmark", (int)g);
    ST_OK(SQLCloseCursor(s), s);

    /* SQLSetDescRec on record 0, read back with SQLGetDescRec. */
    unsigned char var[4];
    SQLLEN var_len = 0;
    ST_OK(SQLSetDescRec(ard, 0, SQL_C_VARBOOKMARK, 0, sizeof var, 0, 0, var, &var_len, &var_len),
          s);
    SQLSMALLINT type = 0, sub = -1, prec = 0, scale = 0, nullable = 0, name_len = 0;
    SQLLEN length = 0;
    SQLCHAR name[16];
    ST_OK(SQLGetDescRec(ard, 0, name, sizeof name, &name_len, &type, &sub, &length, &prec,
                        &scale, &nullable), s);
    ST_CHECK(type == SQL_C_VARBOOKMARK && length == sizeof var, "record 0: type %d length %ld",
             (int)type, (long)length);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)SET10, SQL_NTS), s);
    ST_OK(SQLFetchScroll(s, SQL_FETCH_LAST, 0), s);
    ST_CHECK(g == 10 && var_len == 4, "row %d, bookmark of %ld bytes", (int)g, (long)var_len);
    ST_OK(SQLCloseCursor(s), s);

    /* A buffer of a type that cannot hold a bookmark: HY021, and the
     * binding stays what it was. */
    ST_EXPECT_HANDLE_STATE(SQLSetDescField(ard, 0, SQL_DESC_CONCISE_TYPE,
                                           (SQLPOINTER)SQL_C_CHAR, 0),
                           SQL_HANDLE_DESC, ard, "HY021");
    ST_OK(SQLGetDescField(ard, 0, SQL_DESC_DATA_PTR, &p, 0, NULL), s);
    ST_CHECK(p == var, "binding kept after HY021");
    ST_OK(SQLGetDescField(ard, 0, SQL_DESC_CONCISE_TYPE, &small, 0, NULL), s);
    ST_CHECK(small == SQL_C_VARBOOKMARK, "type kept after HY021: %d", (int)small);
    ST_OK(SQLSetDescField(ard, 0, SQL_DESC_DATA_PTR, NULL, 0), s);
    ST_OK(SQLSetDescField(ard, 0, SQL_DESC_CONCISE_TYPE, (SQLPOINTER)SQL_C_CHAR, 0), s);
    char text[16];
    ST_EXPECT_HANDLE_STATE(SQLSetDescField(ard, 0, SQL_DESC_DATA_PTR, text, 0),
                           SQL_HANDLE_DESC, ard, "HY021");
    ST_OK(SQLGetDescField(ard, 0, SQL_DESC_DATA_PTR, &p, 0, NULL), s);
    ST_CHECK(p == NULL, "nothing bound after HY021");
    ST_EXPECT_HANDLE_STATE(SQLSetDescField(ard, 0, SQL_DESC_NAME, "b", SQL_NTS),
                           SQL_HANDLE_DESC, ard, "HY091");

    /* SQL_UNBIND also clears record 0. */
    ST_OK(SQLSetDescField(ard, 0, SQL_DESC_CONCISE_TYPE, (SQLPOINTER)SQL_C_VARBOOKMARK, 0), s);
    ST_OK(SQLSetDescField(ard, 0, SQL_DESC_DATA_PTR, var, 0), s);
    ST_OK(SQLFreeStmt(s, SQL_UNBIND), s);
    ST_OK(SQLGetDescField(ard, 0, SQL_DESC_DATA_PTR, &p, 0, NULL), s);
    ST_CHECK(p == NULL, "record 0 unbound");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    describe_variable(&c);
    describe_fixed(&c);
    bookmarks_off(&c);
    ard_record_zero(&c);
    st_disconnect(&c);
    return st_finish("bookmark_metadata");
}
