/*
 * odbc_catalog_w: the W entry points of the catalog functions. String
 * arguments are SQLWCHAR (UTF-16) with a length in characters or SQL_NTS;
 * they are converted to UTF-8 and passed to the same core functions as the
 * ANSI entry points. Result sets are the same; the application reads them
 * as SQL_C_WCHAR or SQL_C_CHAR as it binds.
 */
#include <stdlib.h>

#include "core/gc_catalog.h"
#include "core/gc_stmt.h"
#include "odbc/odbc_entry.h"

/* As args_in of odbc_catalog.c, for UTF-16 arguments: the diagnostics of
 * gc_odbc_wide_arg (HY090 bad length, 22018 not valid UTF-16, HY001). */
static SQLRETURN args_in(gc_stmt *s, const SQLWCHAR *const *in, const SQLSMALLINT *len,
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
        if (!gc_odbc_wide_arg(&s->h.diag, in[i], len[i], &a[i]))
            return SQL_ERROR;
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

SQLRETURN SQL_API SQLGetTypeInfoW(SQLHSTMT hstmt, SQLSMALLINT data_type)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    return gc_odbc_leave_stmt(s, gc_catalog_type_info(s, data_type));
}

SQLRETURN SQL_API SQLColumnsW(SQLHSTMT hstmt,
    SQLWCHAR *catalog, SQLSMALLINT catalog_len,
    SQLWCHAR *schema, SQLSMALLINT schema_len,
    SQLWCHAR *table, SQLSMALLINT table_len,
    SQLWCHAR *column, SQLSMALLINT column_len)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    const SQLWCHAR *const in[4] = {catalog, schema, table, column};
    SQLSMALLINT len[4] = {catalog_len, schema_len, table_len, column_len};
    char *a[4];
    SQLRETURN rc = args_in(s, in, len, 4, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_columns(s, a[0], a[1], a[2], a[3]);
    args_free(a, 4);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN SQL_API SQLColumnPrivilegesW(SQLHSTMT hstmt,
    SQLWCHAR *catalog, SQLSMALLINT catalog_len,
    SQLWCHAR *schema, SQLSMALLINT schema_len,
    SQLWCHAR *table, SQLSMALLINT table_len,
    SQLWCHAR *column, SQLSMALLINT column_len)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    const SQLWCHAR *const in[4] = {catalog, schema, table, column};
    SQLSMALLINT len[4] = {catalog_len, schema_len, table_len, column_len};
    char *a[4];
    SQLRETURN rc = args_in(s, in, len, 4, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_column_privileges(s, a[0], a[1], a[2], a[3]);
    args_free(a, 4);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN SQL_API SQLForeignKeysW(SQLHSTMT hstmt,
    SQLWCHAR *pk_catalog, SQLSMALLINT pk_catalog_len,
    SQLWCHAR *pk_schema, SQLSMALLINT pk_schema_len,
    SQLWCHAR *pk_table, SQLSMALLINT pk_table_len,
    SQLWCHAR *fk_catalog, SQLSMALLINT fk_catalog_len,
    SQLWCHAR *fk_schema, SQLSMALLINT fk_schema_len,
    SQLWCHAR *fk_table, SQLSMALLINT fk_table_len)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    const SQLWCHAR *const in[6] = {pk_catalog, pk_schema, pk_table,
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

SQLRETURN SQL_API SQLPrimaryKeysW(SQLHSTMT hstmt,
    SQLWCHAR *catalog, SQLSMALLINT catalog_len,
    SQLWCHAR *schema, SQLSMALLINT schema_len,
    SQLWCHAR *table, SQLSMALLINT table_len)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    const SQLWCHAR *const in[3] = {catalog, schema, table};
    SQLSMALLINT len[3] = {catalog_len, schema_len, table_len};
    char *a[3];
    SQLRETURN rc = args_in(s, in, len, 3, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_primary_keys(s, a[0], a[1], a[2]);
    args_free(a, 3);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN SQL_API SQLProcedureColumnsW(SQLHSTMT hstmt,
    SQLWCHAR *catalog, SQLSMALLINT catalog_len,
    SQLWCHAR *schema, SQLSMALLINT schema_len,
    SQLWCHAR *procedure, SQLSMALLINT procedure_len,
    SQLWCHAR *column, SQLSMALLINT column_len)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    const SQLWCHAR *const in[4] = {catalog, schema, procedure, column};
    SQLSMALLINT len[4] = {catalog_len, schema_len, procedure_len, column_len};
    char *a[4];
    SQLRETURN rc = args_in(s, in, len, 4, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_procedure_columns(s, a[0], a[1], a[2], a[3]);
    args_free(a, 4);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN SQL_API SQLProceduresW(SQLHSTMT hstmt,
    SQLWCHAR *catalog, SQLSMALLINT catalog_len,
    SQLWCHAR *schema, SQLSMALLINT schema_len,
    SQLWCHAR *procedure, SQLSMALLINT procedure_len)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    const SQLWCHAR *const in[3] = {catalog, schema, procedure};
    SQLSMALLINT len[3] = {catalog_len, schema_len, procedure_len};
    char *a[3];
    SQLRETURN rc = args_in(s, in, len, 3, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_procedures(s, a[0], a[1], a[2]);
    args_free(a, 3);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN SQL_API SQLSpecialColumnsW(SQLHSTMT hstmt,
    SQLUSMALLINT identifier_type,
    SQLWCHAR *catalog, SQLSMALLINT catalog_len,
    SQLWCHAR *schema, SQLSMALLINT schema_len,
    SQLWCHAR *table, SQLSMALLINT table_len,
    SQLUSMALLINT scope,
    SQLUSMALLINT nullable)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    const SQLWCHAR *const in[3] = {catalog, schema, table};
    SQLSMALLINT len[3] = {catalog_len, schema_len, table_len};
    char *a[3];
    SQLRETURN rc = args_in(s, in, len, 3, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_special_columns(s, identifier_type, a[0], a[1], a[2], scope, nullable);
    args_free(a, 3);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN SQL_API SQLStatisticsW(SQLHSTMT hstmt,
    SQLWCHAR *catalog, SQLSMALLINT catalog_len,
    SQLWCHAR *schema, SQLSMALLINT schema_len,
    SQLWCHAR *table, SQLSMALLINT table_len,
    SQLUSMALLINT unique,
    SQLUSMALLINT reserved)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    const SQLWCHAR *const in[3] = {catalog, schema, table};
    SQLSMALLINT len[3] = {catalog_len, schema_len, table_len};
    char *a[3];
    SQLRETURN rc = args_in(s, in, len, 3, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_statistics(s, a[0], a[1], a[2], unique, reserved);
    args_free(a, 3);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN SQL_API SQLTablePrivilegesW(SQLHSTMT hstmt,
    SQLWCHAR *catalog, SQLSMALLINT catalog_len,
    SQLWCHAR *schema, SQLSMALLINT schema_len,
    SQLWCHAR *table, SQLSMALLINT table_len)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    const SQLWCHAR *const in[3] = {catalog, schema, table};
    SQLSMALLINT len[3] = {catalog_len, schema_len, table_len};
    char *a[3];
    SQLRETURN rc = args_in(s, in, len, 3, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_table_privileges(s, a[0], a[1], a[2]);
    args_free(a, 3);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN SQL_API SQLTablesW(SQLHSTMT hstmt,
    SQLWCHAR *catalog, SQLSMALLINT catalog_len,
    SQLWCHAR *schema, SQLSMALLINT schema_len,
    SQLWCHAR *table, SQLSMALLINT table_len,
    SQLWCHAR *table_types, SQLSMALLINT table_types_len)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    const SQLWCHAR *const in[4] = {catalog, schema, table, table_types};
    SQLSMALLINT len[4] = {catalog_len, schema_len, table_len, table_types_len};
    char *a[4];
    SQLRETURN rc = args_in(s, in, len, 4, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_tables(s, a[0], a[1], a[2], a[3]);
    args_free(a, 4);
    return gc_odbc_leave_stmt(s, rc);
}
