/*
 * odbc_catalog_w: the W entry points of the catalog functions, thin wrappers
 * over the one implementation in odbc_catalog.c: string arguments are
 * SQLWCHAR (UTF-16) with a length in characters or SQL_NTS, converted to
 * UTF-8 there. Result sets are the same as the ANSI entry points'; the
 * application reads them as SQL_C_WCHAR or SQL_C_CHAR as it binds.
 */
#include "odbc/odbc_catalog.h"

SQLRETURN SQL_API SQLGetTypeInfoW(SQLHSTMT hstmt, SQLSMALLINT data_type)
{
    return gc_odbc_catalog_type_info(hstmt, data_type);
}

SQLRETURN SQL_API SQLColumnsW(SQLHSTMT hstmt,
    SQLWCHAR *catalog, SQLSMALLINT catalog_len,
    SQLWCHAR *schema, SQLSMALLINT schema_len,
    SQLWCHAR *table, SQLSMALLINT table_len,
    SQLWCHAR *column, SQLSMALLINT column_len)
{
    const gc_odbc_texts t = {true, {catalog, schema, table, column},
                             {catalog_len, schema_len, table_len, column_len}};
    return gc_odbc_catalog_columns(hstmt, &t);
}

SQLRETURN SQL_API SQLColumnPrivilegesW(SQLHSTMT hstmt,
    SQLWCHAR *catalog, SQLSMALLINT catalog_len,
    SQLWCHAR *schema, SQLSMALLINT schema_len,
    SQLWCHAR *table, SQLSMALLINT table_len,
    SQLWCHAR *column, SQLSMALLINT column_len)
{
    const gc_odbc_texts t = {true, {catalog, schema, table, column},
                             {catalog_len, schema_len, table_len, column_len}};
    return gc_odbc_catalog_column_privileges(hstmt, &t);
}

SQLRETURN SQL_API SQLForeignKeysW(SQLHSTMT hstmt,
    SQLWCHAR *pk_catalog, SQLSMALLINT pk_catalog_len,
    SQLWCHAR *pk_schema, SQLSMALLINT pk_schema_len,
    SQLWCHAR *pk_table, SQLSMALLINT pk_table_len,
    SQLWCHAR *fk_catalog, SQLSMALLINT fk_catalog_len,
    SQLWCHAR *fk_schema, SQLSMALLINT fk_schema_len,
    SQLWCHAR *fk_table, SQLSMALLINT fk_table_len)
{
    const gc_odbc_texts t = {true, {pk_catalog, pk_schema, pk_table, fk_catalog, fk_schema, fk_table},
                             {pk_catalog_len, pk_schema_len, pk_table_len, fk_catalog_len, fk_schema_len, fk_table_len}};
    return gc_odbc_catalog_foreign_keys(hstmt, &t);
}

SQLRETURN SQL_API SQLPrimaryKeysW(SQLHSTMT hstmt,
    SQLWCHAR *catalog, SQLSMALLINT catalog_len,
    SQLWCHAR *schema, SQLSMALLINT schema_len,
    SQLWCHAR *table, SQLSMALLINT table_len)
{
    const gc_odbc_texts t = {true, {catalog, schema, table},
                             {catalog_len, schema_len, table_len}};
    return gc_odbc_catalog_primary_keys(hstmt, &t);
}

SQLRETURN SQL_API SQLProcedureColumnsW(SQLHSTMT hstmt,
    SQLWCHAR *catalog, SQLSMALLINT catalog_len,
    SQLWCHAR *schema, SQLSMALLINT schema_len,
    SQLWCHAR *procedure, SQLSMALLINT procedure_len,
    SQLWCHAR *column, SQLSMALLINT column_len)
{
    const gc_odbc_texts t = {true, {catalog, schema, procedure, column},
                             {catalog_len, schema_len, procedure_len, column_len}};
    return gc_odbc_catalog_procedure_columns(hstmt, &t);
}

SQLRETURN SQL_API SQLProceduresW(SQLHSTMT hstmt,
    SQLWCHAR *catalog, SQLSMALLINT catalog_len,
    SQLWCHAR *schema, SQLSMALLINT schema_len,
    SQLWCHAR *procedure, SQLSMALLINT procedure_len)
{
    const gc_odbc_texts t = {true, {catalog, schema, procedure},
                             {catalog_len, schema_len, procedure_len}};
    return gc_odbc_catalog_procedures(hstmt, &t);
}

SQLRETURN SQL_API SQLSpecialColumnsW(SQLHSTMT hstmt,
    SQLUSMALLINT identifier_type,
    SQLWCHAR *catalog, SQLSMALLINT catalog_len,
    SQLWCHAR *schema, SQLSMALLINT schema_len,
    SQLWCHAR *table, SQLSMALLINT table_len,
    SQLUSMALLINT scope,
    SQLUSMALLINT nullable)
{
    const gc_odbc_texts t = {true, {catalog, schema, table},
                             {catalog_len, schema_len, table_len}};
    return gc_odbc_catalog_special_columns(hstmt, &t, identifier_type, scope, nullable);
}

SQLRETURN SQL_API SQLStatisticsW(SQLHSTMT hstmt,
    SQLWCHAR *catalog, SQLSMALLINT catalog_len,
    SQLWCHAR *schema, SQLSMALLINT schema_len,
    SQLWCHAR *table, SQLSMALLINT table_len,
    SQLUSMALLINT unique,
    SQLUSMALLINT reserved)
{
    const gc_odbc_texts t = {true, {catalog, schema, table},
                             {catalog_len, schema_len, table_len}};
    return gc_odbc_catalog_statistics(hstmt, &t, unique, reserved);
}

SQLRETURN SQL_API SQLTablePrivilegesW(SQLHSTMT hstmt,
    SQLWCHAR *catalog, SQLSMALLINT catalog_len,
    SQLWCHAR *schema, SQLSMALLINT schema_len,
    SQLWCHAR *table, SQLSMALLINT table_len)
{
    const gc_odbc_texts t = {true, {catalog, schema, table},
                             {catalog_len, schema_len, table_len}};
    return gc_odbc_catalog_table_privileges(hstmt, &t);
}

SQLRETURN SQL_API SQLTablesW(SQLHSTMT hstmt,
    SQLWCHAR *catalog, SQLSMALLINT catalog_len,
    SQLWCHAR *schema, SQLSMALLINT schema_len,
    SQLWCHAR *table, SQLSMALLINT table_len,
    SQLWCHAR *table_types, SQLSMALLINT table_types_len)
{
    const gc_odbc_texts t = {true, {catalog, schema, table, table_types},
                             {catalog_len, schema_len, table_len, table_types_len}};
    return gc_odbc_catalog_tables(hstmt, &t);
}
