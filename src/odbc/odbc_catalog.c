/*
 * odbc_catalog: the catalog functions, once for both encodings
 * (odbc_catalog.h), and their ANSI entry points (SQLCHAR, UTF-8; a byte
 * length or SQL_NTS), thin wrappers over them.
 */
#include <stdlib.h>

#include "core/gc_catalog.h"
#include "core/gc_stmt.h"
#include "odbc/odbc_catalog.h"

/* Copies the first n string arguments of t into a[] as NUL-terminated UTF-8
 * (NULL stays NULL). On failure a diagnostic is recorded: HY090 for a
 * negative length other than SQL_NTS, then, for a W argument, those of
 * gc_odbc_wide_arg (22018, HY001), for an ANSI one HY001 when out of memory.
 * Whatever was copied, the caller frees a[] with args_free. */
static SQLRETURN args_in(gc_stmt *s, const gc_odbc_texts *t, int n, char **a)
{
    for (int i = 0; i < n; i++)
        a[i] = NULL;
    for (int i = 0; i < n; i++) {
        if (t->text[i] != NULL && t->len[i] < 0 && t->len[i] != SQL_NTS) {
            gc_diag_add(&s->h.diag, "HY090", 0, "invalid string or buffer length");
            return SQL_ERROR;
        }
    }
    for (int i = 0; i < n; i++) {
        if (t->wide) {
            if (!gc_odbc_wide_arg(&s->h.diag, t->text[i], t->len[i], &a[i]))
                return SQL_ERROR;
            continue;
        }
        bool ok;
        a[i] = gc_odbc_ansi_in(t->text[i], t->len[i], &ok);
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

SQLRETURN gc_odbc_catalog_type_info(SQLHSTMT hstmt, SQLSMALLINT data_type)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    return gc_odbc_leave_stmt(s, gc_catalog_type_info(s, data_type));
}

SQLRETURN gc_odbc_catalog_columns(SQLHSTMT hstmt, const gc_odbc_texts *t)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    char *a[4];
    SQLRETURN rc = args_in(s, t, 4, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_columns(s, a[0], a[1], a[2], a[3]);
    args_free(a, 4);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN gc_odbc_catalog_column_privileges(SQLHSTMT hstmt, const gc_odbc_texts *t)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    char *a[4];
    SQLRETURN rc = args_in(s, t, 4, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_column_privileges(s, a[0], a[1], a[2], a[3]);
    args_free(a, 4);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN gc_odbc_catalog_foreign_keys(SQLHSTMT hstmt, const gc_odbc_texts *t)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    char *a[6];
    SQLRETURN rc = args_in(s, t, 6, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_foreign_keys(s, a[0], a[1], a[2], a[3], a[4], a[5]);
    args_free(a, 6);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN gc_odbc_catalog_primary_keys(SQLHSTMT hstmt, const gc_odbc_texts *t)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    char *a[3];
    SQLRETURN rc = args_in(s, t, 3, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_primary_keys(s, a[0], a[1], a[2]);
    args_free(a, 3);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN gc_odbc_catalog_procedure_columns(SQLHSTMT hstmt, const gc_odbc_texts *t)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    char *a[4];
    SQLRETURN rc = args_in(s, t, 4, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_procedure_columns(s, a[0], a[1], a[2], a[3]);
    args_free(a, 4);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN gc_odbc_catalog_procedures(SQLHSTMT hstmt, const gc_odbc_texts *t)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    char *a[3];
    SQLRETURN rc = args_in(s, t, 3, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_procedures(s, a[0], a[1], a[2]);
    args_free(a, 3);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN gc_odbc_catalog_special_columns(SQLHSTMT hstmt, const gc_odbc_texts *t, SQLUSMALLINT identifier_type, SQLUSMALLINT scope, SQLUSMALLINT nullable)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    char *a[3];
    SQLRETURN rc = args_in(s, t, 3, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_special_columns(s, identifier_type, a[0], a[1], a[2], scope, nullable);
    args_free(a, 3);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN gc_odbc_catalog_statistics(SQLHSTMT hstmt, const gc_odbc_texts *t, SQLUSMALLINT unique, SQLUSMALLINT reserved)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    char *a[3];
    SQLRETURN rc = args_in(s, t, 3, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_statistics(s, a[0], a[1], a[2], unique, reserved);
    args_free(a, 3);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN gc_odbc_catalog_table_privileges(SQLHSTMT hstmt, const gc_odbc_texts *t)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    char *a[3];
    SQLRETURN rc = args_in(s, t, 3, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_table_privileges(s, a[0], a[1], a[2]);
    args_free(a, 3);
    return gc_odbc_leave_stmt(s, rc);
}

SQLRETURN gc_odbc_catalog_tables(SQLHSTMT hstmt, const gc_odbc_texts *t)
{
    gc_stmt *s = gc_odbc_enter_stmt(hstmt);
    if (s == NULL)
        return SQL_INVALID_HANDLE;
    char *a[4];
    SQLRETURN rc = args_in(s, t, 4, a);
    if (rc == SQL_SUCCESS)
        rc = gc_catalog_tables(s, a[0], a[1], a[2], a[3]);
    args_free(a, 4);
    return gc_odbc_leave_stmt(s, rc);
}

/* --- the ANSI entry points --- */

SQLRETURN SQL_API SQLGetTypeInfo(SQLHSTMT hstmt, SQLSMALLINT data_type)
{
    return gc_odbc_catalog_type_info(hstmt, data_type);
}

SQLRETURN SQL_API SQLColumns(SQLHSTMT hstmt,
    SQLCHAR *catalog, SQLSMALLINT catalog_len,
    SQLCHAR *schema, SQLSMALLINT schema_len,
    SQLCHAR *table, SQLSMALLINT table_len,
    SQLCHAR *column, SQLSMALLINT column_len)
{
    const gc_odbc_texts t = {false, {catalog, schema, table, column},
                             {catalog_len, schema_len, table_len, column_len}};
    return gc_odbc_catalog_columns(hstmt, &t);
}

SQLRETURN SQL_API SQLColumnPrivileges(SQLHSTMT hstmt,
    SQLCHAR *catalog, SQLSMALLINT catalog_len,
    SQLCHAR *schema, SQLSMALLINT schema_len,
    SQLCHAR *table, SQLSMALLINT table_len,
    SQLCHAR *column, SQLSMALLINT column_len)
{
    const gc_odbc_texts t = {false, {catalog, schema, table, column},
                             {catalog_len, schema_len, table_len, column_len}};
    return gc_odbc_catalog_column_privileges(hstmt, &t);
}

SQLRETURN SQL_API SQLForeignKeys(SQLHSTMT hstmt,
    SQLCHAR *pk_catalog, SQLSMALLINT pk_catalog_len,
    SQLCHAR *pk_schema, SQLSMALLINT pk_schema_len,
    SQLCHAR *pk_table, SQLSMALLINT pk_table_len,
    SQLCHAR *fk_catalog, SQLSMALLINT fk_catalog_len,
    SQLCHAR *fk_schema, SQLSMALLINT fk_schema_len,
    SQLCHAR *fk_table, SQLSMALLINT fk_table_len)
{
    const gc_odbc_texts t = {false, {pk_catalog, pk_schema, pk_table, fk_catalog, fk_schema, fk_table},
                             {pk_catalog_len, pk_schema_len, pk_table_len, fk_catalog_len, fk_schema_len, fk_table_len}};
    return gc_odbc_catalog_foreign_keys(hstmt, &t);
}

SQLRETURN SQL_API SQLPrimaryKeys(SQLHSTMT hstmt,
    SQLCHAR *catalog, SQLSMALLINT catalog_len,
    SQLCHAR *schema, SQLSMALLINT schema_len,
    SQLCHAR *table, SQLSMALLINT table_len)
{
    const gc_odbc_texts t = {false, {catalog, schema, table},
                             {catalog_len, schema_len, table_len}};
    return gc_odbc_catalog_primary_keys(hstmt, &t);
}

SQLRETURN SQL_API SQLProcedureColumns(SQLHSTMT hstmt,
    SQLCHAR *catalog, SQLSMALLINT catalog_len,
    SQLCHAR *schema, SQLSMALLINT schema_len,
    SQLCHAR *procedure, SQLSMALLINT procedure_len,
    SQLCHAR *column, SQLSMALLINT column_len)
{
    const gc_odbc_texts t = {false, {catalog, schema, procedure, column},
                             {catalog_len, schema_len, procedure_len, column_len}};
    return gc_odbc_catalog_procedure_columns(hstmt, &t);
}

SQLRETURN SQL_API SQLProcedures(SQLHSTMT hstmt,
    SQLCHAR *catalog, SQLSMALLINT catalog_len,
    SQLCHAR *schema, SQLSMALLINT schema_len,
    SQLCHAR *procedure, SQLSMALLINT procedure_len)
{
    const gc_odbc_texts t = {false, {catalog, schema, procedure},
                             {catalog_len, schema_len, procedure_len}};
    return gc_odbc_catalog_procedures(hstmt, &t);
}

SQLRETURN SQL_API SQLSpecialColumns(SQLHSTMT hstmt,
    SQLUSMALLINT identifier_type,
    SQLCHAR *catalog, SQLSMALLINT catalog_len,
    SQLCHAR *schema, SQLSMALLINT schema_len,
    SQLCHAR *table, SQLSMALLINT table_len,
    SQLUSMALLINT scope,
    SQLUSMALLINT nullable)
{
    const gc_odbc_texts t = {false, {catalog, schema, table},
                             {catalog_len, schema_len, table_len}};
    return gc_odbc_catalog_special_columns(hstmt, &t, identifier_type, scope, nullable);
}

SQLRETURN SQL_API SQLStatistics(SQLHSTMT hstmt,
    SQLCHAR *catalog, SQLSMALLINT catalog_len,
    SQLCHAR *schema, SQLSMALLINT schema_len,
    SQLCHAR *table, SQLSMALLINT table_len,
    SQLUSMALLINT unique,
    SQLUSMALLINT reserved)
{
    const gc_odbc_texts t = {false, {catalog, schema, table},
                             {catalog_len, schema_len, table_len}};
    return gc_odbc_catalog_statistics(hstmt, &t, unique, reserved);
}

SQLRETURN SQL_API SQLTablePrivileges(SQLHSTMT hstmt,
    SQLCHAR *catalog, SQLSMALLINT catalog_len,
    SQLCHAR *schema, SQLSMALLINT schema_len,
    SQLCHAR *table, SQLSMALLINT table_len)
{
    const gc_odbc_texts t = {false, {catalog, schema, table},
                             {catalog_len, schema_len, table_len}};
    return gc_odbc_catalog_table_privileges(hstmt, &t);
}

SQLRETURN SQL_API SQLTables(SQLHSTMT hstmt,
    SQLCHAR *catalog, SQLSMALLINT catalog_len,
    SQLCHAR *schema, SQLSMALLINT schema_len,
    SQLCHAR *table, SQLSMALLINT table_len,
    SQLCHAR *table_types, SQLSMALLINT table_types_len)
{
    const gc_odbc_texts t = {false, {catalog, schema, table, table_types},
                             {catalog_len, schema_len, table_len, table_types_len}};
    return gc_odbc_catalog_tables(hstmt, &t);
}
