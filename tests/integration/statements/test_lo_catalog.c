/*
 * SQLColumns on a column of the lo extension's type (a domain over oid
 * named `lo`): SQL_LONGVARBINARY named "lo", as psqlODBC reports it and as
 * SQLDescribeCol describes the same column in a result (gc_lo.c), with the
 * same COLUMN_SIZE; SQLProcedureColumns says the same of a function's lo
 * argument. A plain oid column and another domain over oid keep the oid's
 * description. Errors: an invalid name length is HY090.
 */
#include "st_test.h"

/* One SQLColumns row of stmt_lo_cat: DATA_TYPE, TYPE_NAME, COLUMN_SIZE,
 * SQL_DATA_TYPE and CHAR_OCTET_LENGTH (-1 when NULL). */
typedef struct catalog_column {
    SQLSMALLINT data_type, sql_data_type;
    char type_name[64];
    SQLINTEGER column_size, char_octet_length;
} catalog_column;

static catalog_column columns_row(st_conn *c, const char *column)
{
    catalog_column out = { 0, 0, "", 0, 0 };
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLColumns(s, NULL, 0, (SQLCHAR *)"public", SQL_NTS, (SQLCHAR *)"stmt_lo_cat", SQL_NTS,
                     (SQLCHAR *)column, SQL_NTS), s);
    ST_OK(SQLFetch(s), s);
    SQLLEN ind = 0;
    ST_OK(SQLGetData(s, 5, SQL_C_SSHORT, &out.data_type, 0, &ind), s);
    ST_OK(SQLGetData(s, 6, SQL_C_CHAR, out.type_name, sizeof out.type_name, &ind), s);
    ST_OK(SQLGetData(s, 7, SQL_C_SLONG, &out.column_size, 0, &ind), s);
    ST_OK(SQLGetData(s, 14, SQL_C_SSHORT, &out.sql_data_type, 0, &ind), s);
    ST_OK(SQLGetData(s, 16, SQL_C_SLONG, &out.char_octet_length, 0, &ind), s);
    if (ind == SQL_NULL_DATA)
        out.char_octet_length = -1;
    ST_CHECK(SQLFetch(s) == SQL_NO_DATA, "one row for column %s", column);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    return out;
}

/* SQLDescribeCol of `column` in a result over stmt_lo_cat. */
static void describe_result(st_conn *c, const char *column, SQLSMALLINT *type, SQLULEN *size)
{
    char sql[128];
    snprintf(sql, sizeof sql, "select %s from stmt_lo_cat", column);
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)sql, SQL_NTS), s);
    ST_OK(SQLDescribeCol(s, 1, NULL, 0, NULL, type, size, NULL, NULL), s);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* The catalog and the result agree on `column`; returns its DATA_TYPE. */
static SQLSMALLINT agreeing_type(st_conn *c, const char *column)
{
    catalog_column cat = columns_row(c, column);
    SQLSMALLINT type = 0;
    SQLULEN size = 0;
    describe_result(c, column, &type, &size);
    ST_CHECK(cat.data_type == type, "%s: SQLColumns says %d, SQLDescribeCol %d", column,
             (int)cat.data_type, (int)type);
    ST_CHECK((SQLULEN)cat.column_size == size, "%s: COLUMN_SIZE %d, described %lu", column,
             (int)cat.column_size, (unsigned long)size);
    return cat.data_type;
}

static void lo_columns(st_conn *c)
{
    catalog_column lo = columns_row(c, "l");
    ST_CHECK(lo.data_type == SQL_LONGVARBINARY && lo.sql_data_type == SQL_LONGVARBINARY,
             "lo column: DATA_TYPE %d SQL_DATA_TYPE %d", (int)lo.data_type,
             (int)lo.sql_data_type);
    ST_CHECK(strcmp(lo.type_name, "lo") == 0, "lo column: TYPE_NAME %s", lo.type_name);
    ST_CHECK(lo.char_octet_length > 0, "lo column: CHAR_OCTET_LENGTH %d",
             (int)lo.char_octet_length);
    ST_CHECK(agreeing_type(c, "l") == SQL_LONGVARBINARY, "lo column agrees");
    /* A plain oid and another domain over oid are no large objects (the
     * catalog's type map has no line for oid: both read as unknown types). */
    catalog_column oid = columns_row(c, "o"), domain = columns_row(c, "d");
    ST_CHECK(oid.data_type != SQL_LONGVARBINARY && strcmp(oid.type_name, "lo") != 0,
             "oid column: %d %s", (int)oid.data_type, oid.type_name);
    ST_CHECK(domain.data_type == oid.data_type && domain.column_size == oid.column_size,
             "domain over oid as oid: %d", (int)domain.data_type);
    ST_CHECK(agreeing_type(c, "b") == SQL_LONGVARBINARY, "bytea column");
}

/* SQLProcedureColumns describes a lo argument alike. */
static void lo_argument(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    ST_OK(SQLProcedureColumns(s, NULL, 0, (SQLCHAR *)"public", SQL_NTS,
                              (SQLCHAR *)"stmt_lo_cat_size", SQL_NTS, (SQLCHAR *)"blob", SQL_NTS),
          s);
    ST_OK(SQLFetch(s), s);
    SQLSMALLINT data_type = 0;
    char type_name[64] = "";
    SQLLEN ind = 0;
    ST_OK(SQLGetData(s, 6, SQL_C_SSHORT, &data_type, 0, &ind), s);
    ST_OK(SQLGetData(s, 7, SQL_C_CHAR, type_name, sizeof type_name, &ind), s);
    ST_CHECK(data_type == SQL_LONGVARBINARY && strcmp(type_name, "lo") == 0,
             "lo argument: %d %s", (int)data_type, type_name);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

static void bad_length(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    ST_EXPECT_STATE(SQLColumns(s, NULL, 0, (SQLCHAR *)"public", -5, (SQLCHAR *)"stmt_lo_cat",
                               SQL_NTS, NULL, 0), s, "HY090");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    st_exec(&c, "create extension if not exists lo");
    st_exec(&c, "drop table if exists stmt_lo_cat");
    st_exec(&c, "drop domain if exists stmt_lo_cat_oid");
    st_exec(&c, "create domain stmt_lo_cat_oid as oid");
    st_exec(&c, "create table stmt_lo_cat(id int, l lo, o oid, d stmt_lo_cat_oid, b bytea)");
    st_exec(&c, "create or replace function stmt_lo_cat_size(blob lo) returns int "
                "language sql as 'select 0'");
    lo_columns(&c);
    lo_argument(&c);
    bad_length(&c);
    st_exec(&c, "drop function stmt_lo_cat_size(lo)");
    st_exec(&c, "drop table stmt_lo_cat");
    st_exec(&c, "drop domain stmt_lo_cat_oid");
    st_disconnect(&c);
    return st_finish("lo_catalog");
}
