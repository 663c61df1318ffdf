/*
 * odbc_catalog: the ANSI entry points of the catalog functions. Each converts
 * its string arguments (SQLCHAR, UTF-8; a byte length or SQL_NTS) into
 * NUL-terminated strings and calls the core catalog function (gc_catalog.h).
 */
#include <stdlib.h>

#include "core/gc_catalog.h"
#include "core/gc_stmt.h"
#include "odbc/odbc_entry.h"

/* Copies n string arguments into a[] (NULL stays NULL). On failure every
 * a[i] is NULL and a diagnostic is recorded: HY090 for a negative length
 * other than SQL_NTS, HY001 when out of memory. The caller frees a[] with
 * args_free. */
static SQLRETURN args_in(gc_stmt *s, const SQLCHAR *const *in, const SQLSMALLINT *len,
                         int n, char **a)
{
    for (int i = 0; i < n; i++)
        a[i] = NULL;
    for (int i = 0; i < n; i++) {
        if (in[i] != NULL && len[i] < 0 && len[i] != SQL_NTS) {
            gc_diag_add(&s->h.diag, "HY090", 0, "invalid string or buffer length");
            return SQL_ERROR;
        }
    }
    for (int i = 0; i < n; i++) {
        bool ok;
        a[i] = gc_odbc_ansi_in(in[i], len[i], &ok);
        if (!ok) {
            gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
            return SQL_ERROR;
        }
    }
    return SQL_SUCCESS;
}

static void args_free(char **a, int n)
{
    for (int i = 0; i < n; i++) {
        free(a[i]);
        a[i] = NULL;
    }
}

SQLRETURN SQL_API SQLGetTypeInfo(SQLHSTMT hstmt, SQLSMALLINT data_type)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    return gc_odbc_leave_stmt(s, gc_catalog_type_info(s, data_type));
}

SQLRETURN SQL_API SQLColumns(SQLHSTMT hstmt,
    SQLCHAR *catalog, SQLSMALLINT catalog_len,
    SQLCHAR *schema, SQLSMALLINT schema_len,
    SQLCHAR *table, SQLSMALLINT table_len,
    SQLCHAR *column, SQLSMALLINT column_len)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    const SQLCHAR *const in[4] = {catalog, schema, table, column};
    SQLSMALLINT len[4] = {catalog_len, schema_len, table_len, column_len};
    char *a[4];
    SQLRETURN rc = args_in(s, in, len, 4, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_columns(s, a[0], a[1], a[2], a[3]);
    args_free(a, 4);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN SQL_API SQLColumnPrivileges(SQLHSTMT hstmt,
    SQLCHAR *catalog, SQLSMALLINT catalog_len,
    SQLCHAR *schema, SQLSMALLINT schema_len,
    SQLCHAR *table, SQLSMALLINT table_len,
    SQLCHAR *column, SQLSMALLINT column_len)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    const SQLCHAR *const in[4] = {catalog, schema, table, column};
    SQLSMALLINT len[4] = {catalog_len, schema_len, table_len, column_len};
    char *a[4];
    SQLRETURN rc = args_in(s, in, len, 4, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_column_privileges(s, a[0], a[1], a[2], a[3]);
    args_free(a, 4);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN SQL_API SQLForeignKeys(SQLHSTMT hstmt,
    SQLCHAR *pk_catalog, SQLSMALLINT pk_catalog_len,
    SQLCHAR *pk_schema, SQLSMALLINT pk_schema_len,
    SQLCHAR *pk_table, SQLSMALLINT pk_table_len,
    SQLCHAR *fk_catalog, SQLSMALLINT fk_catalog_len,
    SQLCHAR *fk_schema, SQLSMALLINT fk_schema_len,
    SQLCHAR *fk_table, SQLSMALLINT fk_table_len)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    const SQLCHAR *const in[6] = {pk_catalog, pk_schema, pk_table,
                                    fk_catalog, fk_schema, fk_table};
    SQLSMALLINT len[6] = {pk_catalog_len, pk_schema_len, pk_table_len,
                           fk_catalog_len, fk_schema_len, fk_table_len};
    char *a[6];
    SQLRETURN rc = args_in(s, in, len, 6, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_foreign_keys(s, a[0], a[1], a[2], a[3], a[4], a[5]);
    args_free(a, 6);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN SQL_API SQLPrimaryKeys(SQLHSTMT hstmt,
    SQLCHAR *catalog, SQLSMALLINT catalog_len,
    SQLCHAR *schema, SQLSMALLINT schema_len,
    SQLCHAR *table, SQLSMALLINT table_len)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    const SQLCHAR *const in[3] = {catalog, schema, table};
    SQLSMALLINT len[3] = {catalog_len, schema_len, table_len};
    char *a[3];
    SQLRETURN rc = args_in(s, in, len, 3, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_primary_keys(s, a[0], a[1], a[2]);
    args_free(a, 3);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN SQL_API SQLProcedureColumns(SQLHSTMT hstmt,
    SQLCHAR *catalog, SQLSMALLINT catalog_len,
    SQLCHAR *schema, SQLSMALLINT schema_len,
    SQLCHAR *procedure, SQLSMALLINT procedure_len,
    SQLCHAR *column, SQLSMALLINT column_len)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    const SQLCHAR *const in[4] = {catalog, schema, procedure, column};
    SQLSMALLINT len[4] = {catalog_len, schema_len, procedure_len, column_len};
    char *a[4];
    SQLRETURN rc = args_in(s, in, len, 4, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_procedure_columns(s, a[0], a[1], a[2], a[3]);
    args_free(a, 4);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN SQL_API SQLProcedures(SQLHSTMT hstmt,
    SQLCHAR *catalog, SQLSMALLINT catalog_len,
    SQLCHAR *schema, SQLSMALLINT schema_len,
    SQLCHAR *procedure, SQLSMALLINT procedure_len)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    const SQLCHAR *const in[3] = {catalog, schema, procedure};
    SQLSMALLINT len[3] = {catalog_len, schema_len, procedure_len};
    char *a[3];
    SQLRETURN rc = args_in(s, in, len, 3, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_procedures(s, a[0], a[1], a[2]);
    args_free(a, 3);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN SQL_API SQLSpecialColumns(SQLHSTMT hstmt,
    SQLUSMALLINT identifier_type,
    SQLCHAR *catalog, SQLSMALLINT catalog_len,
    SQLCHAR *schema, SQLSMALLINT schema_len,
    SQLCHAR *table, SQLSMALLINT table_len,
    SQLUSMALLINT scope,
    SQLUSMALLINT nullable)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    const SQLCHAR *const in[3] = {catalog, schema, table};
    SQLSMALLINT len[3] = {catalog_len, schema_len, table_len};
    char *a[3];
    SQLRETURN rc = args_in(s, in, len, 3, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_special_columns(s, identifier_type, a[0], a[1], a[2], scope, nullable);
    args_free(a, 3);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN SQL_API SQLStatistics(SQLHSTMT hstmt,
    SQLCHAR *catalog, SQLSMALLINT catalog_len,
    SQLCHAR *schema, SQLSMALLINT schema_len,
    SQLCHAR *table, SQLSMALLINT table_len,
    SQLUSMALLINT unique,
    SQLUSMALLINT reserved)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    const SQLCHAR *const in[3] = {catalog, schema, table};
    SQLSMALLINT len[3] = {catalog_len, schema_len, table_len};
    char *a[3];
    SQLRETURN rc = args_in(s, in, len, 3, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_statistics(s, a[0], a[1], a[2], unique, reserved);
    args_free(a, 3);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN SQL_API SQLTablePrivileges(SQLHSTMT hstmt,
    SQLCHAR *catalog, SQLSMALLINT catalog_len,
    SQLCHAR *schema, SQLSMALLINT schema_len,
    SQLCHAR *table, SQLSMALLINT table_len)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    const SQLCHAR *const in[3] = {catalog, schema, table};
    SQLSMALLINT len[3] = {catalog_len, schema_len, table_len};
    char *a[3];
    SQLRETURN rc = args_in(s, in, len, 3, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_table_privileges(s, a[0], a[1], a[2]);
    args_free(a, 3);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN SQL_API SQLTables(SQLHSTMT hstmt,
    SQLCHAR *catalog, SQLSMALLINT catalog_len,
    SQLCHAR *schema, SQLSMALLINT schema_len,
    SQLCHAR *table, SQLSMALLINT table_len,
    SQLCHAR *table_types, SQLSMALLINT table_types_len)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    const SQLCHAR *const in[4] = {catalog, schema, table, table_types};
    SQLSMALLINT len[4] = {catalog_len, schema_len, table_len, table_types_len};
    char *a[4];
    SQLRETURN rc = args_in(s, in, len, 4, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_tables(s, a[0], a[1], a[2], a[3]);
    args_free(a, 4);
    return gc_odbc_leave_stmt(s, rc);
}
