/*
 * gc_catalog_columns: SQLColumns and SQLSpecialColumns. Both describe
 * columns with the type map (gc_catalog_typemap.c), so DATA_TYPE,
 * COLUMN_SIZE and the rest match what SQLDescribeCol says about the same
 * column in a result set.
 */
#include <assert.h>

#include "core/gc_catalog_internal.h"

/* $1 type map, $2 catalog, $3 schema, $4 table, $5 column, $6 show system
 * schemas. The ordinal is counted over all live columns before the column
 * filter, so it is the column's position in SELECT *. */
static const char columns_sql[] =
    "WITH " GC_CATALOG_TYPEMAP_CTE("$1") ","
    " cols AS (SELECT c.oid AS relid, n.nspname, c.relname, a.attname, a.attnum,"
    "  a.atttypid, a.atttypmod, a.attnotnull,"
    "  row_number() OVER (PARTITION BY c.oid ORDER BY a.attnum) AS ordinal"
    "  FROM pg_catalog.pg_class c"
    "  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
    "  JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid"
    "   AND a.attnum > 0 AND NOT a.attisdropped"
    "  WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f')"
    "  AND ($2::text IS NULL OR pg_catalog.current_database() LIKE $2)"
    "  AND ($3::text IS NULL OR n.nspname LIKE $3)"
    "  AND ($4::text IS NULL OR c.relname LIKE $4)"
    "  AND (c.relpersistence <> 't' OR n.oid = pg_catalog.pg_my_temp_schema())"
    "  AND ($6::bool OR NOT " GC_CATALOG_SYSTEM_SCHEMA("n") "))"
    " SELECT pg_catalog.current_database()::varchar(128) AS \"TABLE_CAT\","
    " a.nspname::varchar(128) AS \"TABLE_SCHEM\","
    " a.relname::varchar(128) AS \"TABLE_NAME\","
    " a.attname::varchar(128) AS \"COLUMN_NAME\","
    " ty.data_type::int2 AS \"DATA_TYPE\","
    " ty.type_name::varchar(128) AS \"TYPE_NAME\","
    " ty.column_size::int4 AS \"COLUMN_SIZE\","
    " ty.buffer_length::int4 AS \"BUFFER_LENGTH\","
    " ty.decimal_digits::int2 AS \"DECIMAL_DIGITS\","
    " ty.radix::int2 AS \"NUM_PREC_RADIX\","
    " (CASE WHEN a.attnotnull THEN 0 ELSE 1 END)::int2 AS \"NULLABLE\","
    " pg_catalog.col_description(a.relid, a.attnum)::varchar AS \"REMARKS\","
    " pg_catalog.pg_get_expr(d.adbin, d.adrelid)::varchar AS \"COLUMN_DEF\","
    " ty.sql_data_type::int2 AS \"SQL_DATA_TYPE\","
    " ty.datetime_sub::int2 AS \"SQL_DATETIME_SUB\","
    " ty.char_octet_length::int4 AS \"CHAR_OCTET_LENGTH\","
    " a.ordinal::int4 AS \"ORDINAL_POSITION\","
    " (CASE WHEN a.attnotnull THEN 'NO' ELSE 'YES' END)::varchar(3) AS \"IS_NULLABLE\""
    " FROM cols a"
    " LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.relid AND d.adnum = a.attnum"
    GC_CATALOG_TYPE_LATERAL("a.atttypid", "a.atttypmod",
                            "pg_catalog.format_type(a.atttypid, NULL)")
    " WHERE ($5::text IS NULL OR a.attname LIKE $5)"
    " ORDER BY 1, 2, 3, 17";

/*
 * SQLColumns. Columns of tables, views, materialized views and foreign
 * tables; system schemas as in SQLTables.
 */
SQLRETURN gc_catalog_columns(gc_stmt *s, const char *catalog, const char *schema,
                             const char *table, const char *column)
{
    assert(s != NULL);
    gc_catq q;
    gc_catq_init(&q, s);
    gc_catq_typemap(&q);
    gc_catq_arg(&q, catalog, GC_CATARG_ORDINARY, false);
    gc_catq_arg(&q, schema, GC_CATARG_PATTERN, true);
    gc_catq_name_arg(&q, table, GC_CATARG_PATTERN, true);
    gc_catq_name_arg(&q, column, GC_CATARG_PATTERN, true);
    gc_catq_on_owner_of(&q, schema, table, GC_CATARG_PATTERN);
    gc_catq_text(&q, gc_catalog_names_schema(schema) ? "true" : "false");
    return gc_catalog_name_for_odbc2(s, gc_catq_run(&q, columns_sql), GC_CATALOG_COLUMNS);
}

/* $1 type map, $2 catalog, $3 schema, $4 table, $5 only NOT NULL columns,
 * $6 anything at all (false for SQL_ROWVER). The best row identifier is the
 * primary key, else the first valid unique index over NOT NULL columns
 * without expressions or predicate. */
static const char special_columns_sql[] =
    "WITH " GC_CATALOG_TYPEMAP_CTE("$1") ","
    " idx AS (SELECT DISTINCT ON (i.indrelid) i.indrelid, i.indkey, i.indnkeyatts"
    "  FROM pg_catalog.pg_index i"
    "  JOIN pg_catalog.pg_class c ON c.oid = i.indrelid"
    "  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
    "  WHERE $6::bool"
    "  AND ($2::text IS NULL OR pg_catalog.current_database() LIKE $2)"
    "  AND ($3::text IS NULL OR n.nspname LIKE $3)"
    "  AND c.relname LIKE $4"
    "  AND i.indisvalid AND (i.indisprimary OR (i.indisunique"
    "   AND i.indpred IS NULL AND i.indexprs IS NULL"
    "   AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_attribute x"
    "    WHERE x.attrelid = i.indrelid AND x.attnum = ANY (i.indkey::int2[])"
    "    AND NOT x.attnotnull)))"
    "  ORDER BY i.indrelid, i.indisprimary DESC, i.indexrelid)"
    " SELECT 2::int2 AS \"SCOPE\","
    " a.attname::varchar(128) AS \"COLUMN_NAME\","
    " ty.data_type::int2 AS \"DATA_TYPE\","
    " ty.type_name::varchar(128) AS \"TYPE_NAME\","
    " ty.column_size::int4 AS \"COLUMN_SIZE\","
    " ty.buffer_length::int4 AS \"BUFFER_LENGTH\","
    " ty.decimal_digits::int2 AS \"DECIMAL_DIGITS\","
    " 1::int2 AS \"PSEUDO_COLUMN\""
    " FROM idx"
    " CROSS JOIN LATERAL unnest(idx.indkey::int2[]) WITH ORDINALITY AS k(attnum, pos)"
    " JOIN pg_catalog.pg_attribute a ON a.attrelid = idx.indrelid AND a.attnum = k.attnum"
    GC_CATALOG_TYPE_LATERAL("a.atttypid", "a.atttypmod",
                            "pg_catalog.format_type(a.atttypid, NULL)")
    " WHERE k.pos <= idx.indnkeyatts AND (NOT $5::bool OR a.attnotnull)"
    " ORDER BY 1, idx.indrelid, k.pos";

/*
 * SQLSpecialColumns. SQL_BEST_ROWID: the primary key columns (scope
 * SQL_SCOPE_SESSION: they identify the row as long as it exists);
 * SQL_ROWVER: no columns (the system column xmin changes on update, but it
 * is a transaction id, not a value an application can compare portably).
 */
SQLRETURN gc_catalog_special_columns(gc_stmt *s, SQLUSMALLINT identifier_type,
                                     const char *catalog, const char *schema,
                                     const char *table, SQLUSMALLINT scope,
                                     SQLUSMALLINT nullable)
{
    assert(s != NULL);
    gc_diag *diag = gc_catalog_diag(s);
    if (identifier_type != SQL_BEST_ROWID && identifier_type != SQL_ROWVER) {
        gc_diag_add(diag, "HY097", 0, "column type out of range");
        return SQL_ERROR;
    }
    if (scope != SQL_SCOPE_CURROW && scope != SQL_SCOPE_TRANSACTION
        && scope != SQL_SCOPE_SESSION) {
        gc_diag_add(diag, "HY098", 0, "scope type out of range");
        return SQL_ERROR;
    }
    if (nullable != SQL_NO_NULLS && nullable != SQL_NULLABLE) {
        gc_diag_add(diag, "HY099", 0, "nullable type out of range");
        return SQL_ERROR;
    }
    if (table == NULL) {
        gc_diag_add(diag, "HY009", 0, "invalid use of null pointer: TableName is required");
        return SQL_ERROR;
    }
    gc_catq q;
    gc_catq_init(&q, s);
    gc_catq_typemap(&q);
    gc_catq_arg(&q, catalog, GC_CATARG_ORDINARY, false);
    gc_catq_arg(&q, schema, GC_CATARG_ORDINARY, true);
    gc_catq_name_arg(&q, table, GC_CATARG_ORDINARY, true);
    gc_catq_on_owner_of(&q, schema, table, GC_CATARG_ORDINARY);
    gc_catq_text(&q, nullable == SQL_NO_NULLS ? "true" : "false");
    gc_catq_text(&q, identifier_type == SQL_BEST_ROWID ? "true" : "false");
    return gc_catalog_name_for_odbc2(s, gc_catq_run(&q, special_columns_sql),
                                     GC_CATALOG_SPECIAL_COLUMNS);
}
