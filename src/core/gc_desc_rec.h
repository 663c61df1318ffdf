/*
 * gc_desc_rec: one record of an ODBC descriptor (gc_desc.h), as a type of
 * its own, for a module that reads records without needing the descriptor
 * (gc_desc_attr.h).
 */
#ifndef GC_DESC_REC_H
#define GC_DESC_REC_H

#include <libpq-fe.h>
#include <sql.h>
#include <sqlext.h>

#include "convert/gc_pgtype.h"

/* Where a result column comes from when it is a table column, as the
 * catalog names it (gc_table_columns.c); all NULL until looked up, or when
 * it is not one. Owned. */
typedef struct gc_column_origin {
    char *catalog, *schema, *table, *column;
} gc_column_origin;

/* One record: a bound column, a bound parameter or a result column. */
typedef struct gc_desc_rec {
    SQLSMALLINT type;                 /* SQL_DESC_TYPE (verbose: SQL_DATETIME...) */
    SQLSMALLINT concise_type;         /* SQL_DESC_CONCISE_TYPE */
    SQLSMALLINT datetime_interval_code;
    SQLINTEGER datetime_interval_precision;
    SQLULEN length;                   /* SQL_DESC_LENGTH (characters) */
    SQLSMALLINT precision;
    SQLSMALLINT scale;
    SQLLEN octet_length;              /* buffer length for app descriptors */
    SQLPOINTER data_ptr;
    SQLLEN *octet_length_ptr;
    SQLLEN *indicator_ptr;
    SQLSMALLINT parameter_type;       /* IPD: SQL_PARAM_INPUT... */
    SQLSMALLINT nullable;
    SQLSMALLINT unnamed;              /* SQL_NAMED / SQL_UNNAMED */
    char *name;                       /* owned; IRD column label, IPD name */

    /* IRD only: what the server said about the column. */
    Oid pg_type;
    int pg_typmod;
    Oid pg_table;
    int pg_table_column;              /* the column's number in pg_table, 0 if none */
    gc_column_origin origin;
    gc_pgtype_info info;
} gc_desc_rec;

/* Frees r's origin names (gc_desc.c). */
void gc_desc_rec_forget_origin(gc_desc_rec *r);

#endif
