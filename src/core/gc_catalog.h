/*
 * gc_catalog: the ODBC catalog functions (SQLTables, SQLColumns, SQLGetTypeInfo
 * and the others). Each one turns its arguments into text parameters of a
 * fixed query against pg_catalog and makes the rows the statement's result
 * set (gc_stmt_exec_catalog), or builds the rows itself without a round trip
 * (SQLGetTypeInfo). Application strings never become SQL text.
 *
 * String arguments arrive as NUL-terminated UTF-8 (NULL = not given); the ODBC
 * layer converts ANSI and W arguments and their lengths. Whether an argument is
 * a search pattern or an identifier follows the statement's
 * SQL_ATTR_METADATA_ID. See docs/catalog.md for the rules.
 *
 * Every function returns an ODBC return code; failures are in the statement's
 * diagnostics.
 */
#ifndef GC_CATALOG_H
#define GC_CATALOG_H

#include <sql.h>
#include <sqlext.h>

#include "core/gc_handle.h"

SQLRETURN gc_catalog_tables(gc_stmt *s, const char *catalog, const char *schema,
                            const char *table, const char *table_types);
SQLRETURN gc_catalog_columns(gc_stmt *s, const char *catalog, const char *schema,
                             const char *table, const char *column);
SQLRETURN gc_catalog_primary_keys(gc_stmt *s, const char *catalog,
                                  const char *schema, const char *table);
SQLRETURN gc_catalog_foreign_keys(gc_stmt *s, const char *pk_catalog,
                                  const char *pk_schema, const char *pk_table,
                                  const char *fk_catalog, const char *fk_schema,
                                  const char *fk_table);
SQLRETURN gc_catalog_statistics(gc_stmt *s, const char *catalog,
                                const char *schema, const char *table,
                                SQLUSMALLINT unique, SQLUSMALLINT reserved);
SQLRETURN gc_catalog_special_columns(gc_stmt *s, SQLUSMALLINT identifier_type,
                                     const char *catalog, const char *schema,
                                     const char *table, SQLUSMALLINT scope,
                                     SQLUSMALLINT nullable);
SQLRETURN gc_catalog_procedures(gc_stmt *s, const char *catalog,
                                const char *schema, const char *procedure);
SQLRETURN gc_catalog_procedure_columns(gc_stmt *s, const char *catalog,
                                       const char *schema, const char *procedure,
                                       const char *column);
SQLRETURN gc_catalog_table_privileges(gc_stmt *s, const char *catalog,
                                      const char *schema, const char *table);
SQLRETURN gc_catalog_column_privileges(gc_stmt *s, const char *catalog,
                                       const char *schema, const char *table,
                                       const char *column);

/* SQLGetTypeInfo: built client-side from gc_pgtype_describe, no round trip. */
SQLRETURN gc_catalog_type_info(gc_stmt *s, SQLSMALLINT data_type);

#endif
