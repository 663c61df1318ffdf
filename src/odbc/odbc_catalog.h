/*
 * odbc_catalog: the catalog functions' entry points, implemented once for
 * the ANSI (odbc_catalog.c) and the W (odbc_catalog_w.c) variants. Each
 * public entry point is a thin wrapper that gathers its string arguments as
 * the application passed them (gc_odbc_texts) and calls the function here,
 * which enters the statement, converts them to NUL-terminated UTF-8 and calls
 * the core catalog function (core/gc_catalog.h).
 */
#ifndef ODBC_CATALOG_H
#define ODBC_CATALOG_H

#include <stdbool.h>

#include "odbc/odbc_entry.h"

#define GC_ODBC_TEXTS_MAX 6

/* A catalog call's string arguments, in the order of its ODBC signature;
 * only as many as the function takes are read. */
typedef struct gc_odbc_texts {
    bool wide;   /* SQLWCHAR, lengths in characters; else SQLCHAR, in bytes */
    const void *text[GC_ODBC_TEXTS_MAX];     /* NULL: not given */
    SQLSMALLINT len[GC_ODBC_TEXTS_MAX];      /* a length or SQL_NTS */
} gc_odbc_texts;

/* Every function returns the entry point's return code; a bad argument
 * length is HY090, UTF-16 that is not well formed 22018, out of memory
 * HY001, all in the statement's diagnostics. */
SQLRETURN gc_odbc_catalog_type_info(SQLHSTMT hstmt, SQLSMALLINT data_type);
/* t: catalog, schema, table, column. */
SQLRETURN gc_odbc_catalog_columns(SQLHSTMT hstmt, const gc_odbc_texts *t);
/* t: catalog, schema, table, column. */
SQLRETURN gc_odbc_catalog_column_privileges(SQLHSTMT hstmt, const gc_odbc_texts *t);
/* t: pk_catalog, pk_schema, pk_table, fk_catalog, fk_schema, fk_table. */
SQLRETURN gc_odbc_catalog_foreign_keys(SQLHSTMT hstmt, const gc_odbc_texts *t);
/* t: catalog, schema, table. */
SQLRETURN gc_odbc_catalog_primary_keys(SQLHSTMT hstmt, const gc_odbc_texts *t);
/* t: catalog, schema, procedure, column. */
SQLRETURN gc_odbc_catalog_procedure_columns(SQLHSTMT hstmt, const gc_odbc_texts *t);
/* t: catalog, schema, procedure. */
SQLRETURN gc_odbc_catalog_procedures(SQLHSTMT hstmt, const gc_odbc_texts *t);
/* t: catalog, schema, table. */
SQLRETURN gc_odbc_catalog_special_columns(SQLHSTMT hstmt, const gc_odbc_texts *t, SQLUSMALLINT identifier_type, SQLUSMALLINT scope, SQLUSMALLINT nullable);
/* t: catalog, schema, table. */
SQLRETURN gc_odbc_catalog_statistics(SQLHSTMT hstmt, const gc_odbc_texts *t, SQLUSMALLINT unique, SQLUSMALLINT reserved);
/* t: catalog, schema, table. */
SQLRETURN gc_odbc_catalog_table_privileges(SQLHSTMT hstmt, const gc_odbc_texts *t);
/* t: catalog, schema, table, table_types. */
SQLRETURN gc_odbc_catalog_tables(SQLHSTMT hstmt, const gc_odbc_texts *t);

#endif
