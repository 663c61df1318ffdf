/*
 * gc_catalog_procs: SQLProcedures and SQLProcedureColumns, from pg_proc.
 * Functions (prokind 'f') are SQL_PT_FUNCTION, procedures ('p')
 * SQL_PT_PROCEDURE; aggregates and window functions are not listed.
 */
#include <assert.h>
#include <string.h>

#include "core/gc_catalog_internal.h"

/* $1 catalog, $2 schema, $3 procedure, $4 show system schemas. */
static const char procedures_sql[] =
    "SELECT pg_catalog.current_database()::varchar(128) AS \"PROCEDURE_CAT\","
    " n.nspname::varchar(128) AS \"PROCEDURE_SCHEM\","
    " p.proname::varchar(128) AS \"PROCEDURE_NAME\","
    " NULL::int4 AS \"NUM_INPUT_PARAMS\", NULL::int4 AS \"NUM_OUTPUT_PARAMS\","
    " NULL::int4 AS \"NUM_RESULT_SETS\","
    " pg_catalog.obj_description(p.oid, 'pg_proc')::varchar AS \"REMARKS\","
    " (CASE WHEN p.prokind = 'p' THEN 1 ELSE 2 END)::int2 AS \"PROCEDURE_TYPE\""
    " FROM pg_catalog.pg_proc p"
    " JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace"
    " WHERE p.prokind IN ('f', 'p')"
    " AND ($1::text IS NULL OR pg_catalog.current_database() LIKE $1)"
    " AND ($2::text IS NULL OR n.nspname LIKE $2)"
    " AND ($3::text IS NULL OR p.proname LIKE $3)"
    " AND ($4::bool OR NOT " GC_CATALOG_SYSTEM_SCHEMA("n") ")"
    " ORDER BY 1, 2, 3";

/*
 * True when the system schemas are searched too: the schema argument names
 * schemas selectively, or the procedure argument names procedures without a
 * `%` (a program looking for pg_catalog's set_byte with no schema finds it;
 * a listing of every procedure stays free of the hundreds of built-ins).
 */
static bool searches_system_schemas(const char *schema, const char *procedure)
{
    return gc_catalog_names_schema(schema)
           || (procedure != NULL && procedure[0] != '\0' && strchr(procedure, '%') == NULL);
}

SQLRETURN gc_catalog_procedures(gc_stmt *s, const char *catalog,
                                const char *schema, const char *procedure)
{
    assert(s != NULL);
    gc_catq q;
    gc_catq_init(&q, s);
    gc_catq_arg(&q, catalog, GC_CATARG_ORDINARY, false);
    gc_catq_arg(&q, schema, GC_CATARG_PATTERN, true);
    gc_catq_arg(&q, procedure, GC_CATARG_PATTERN, true);
    gc_catq_text(&q, searches_system_schemas(schema, procedure) ? "true" : "false");
    return gc_catq_run(&q, procedures_sql);
}

/*
 * $1 type map, $2 catalog, $3 schema, $4 procedure, $5 column, $6 show
 * system schemas. One row per argument in call order, then what the
 * function returns when no OUT or TABLE argument says it: a return value
 * row (SQL_RETURN_VALUE 5, ordinal 0) for a scalar, one row per attribute
 * for a composite type (as if they were OUT arguments). Argument modes: i/v
 * input (SQL_PARAM_INPUT 1), b INOUT (2), o OUT (SQL_PARAM_OUTPUT 4), t
 * result column (SQL_RESULT_COL 3): TABLE arguments, and the OUT arguments,
 * the composite's attributes or the scalar of a function returning SETOF,
 * which are the columns of the rows it returns; their ordinal is their
 * position among the result columns.
 */
static const char procedure_columns_sql[] =
    "WITH " GC_CATALOG_TYPEMAP_CTE("$1") ","
    " procs AS (SELECT p.oid AS poid, n.nspname, p.proname, p.prorettype, p.prokind,"
    "  p.proretset AS retset, rt.typrelid AS retrel,"
    "  COALESCE(p.proallargtypes, p.proargtypes::oid[]) AS types,"
    "  p.proargmodes AS modes, p.proargnames AS names,"
    "  COALESCE(p.proargmodes && ARRAY['o', 'b', 't']::\"char\"[], false) AS has_out"
    "  FROM pg_catalog.pg_proc p"
    "  JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace"
    "  JOIN pg_catalog.pg_type rt ON rt.oid = p.prorettype"
    "  WHERE p.prokind IN ('f', 'p')"
    "  AND ($2::text IS NULL OR pg_catalog.current_database() LIKE $2)"
    "  AND ($3::text IS NULL OR n.nspname LIKE $3)"
    "  AND ($4::text IS NULL OR p.proname LIKE $4)"
    "  AND ($6::bool OR NOT " GC_CATALOG_SYSTEM_SCHEMA("n") ")),"
    " params AS (SELECT pr.poid, pr.nspname, pr.proname, k.typ, -1 AS typmod,"
    "  k.pos::int4 AS pos, COALESCE(pr.names[k.pos], '') AS name,"
    "  CASE WHEN pr.retset AND pr.modes[k.pos] = 'o' THEN 't'"
    "   ELSE COALESCE(pr.modes[k.pos], 'i')::text END AS mode"
    "  FROM procs pr CROSS JOIN LATERAL unnest(pr.types) WITH ORDINALITY AS k(typ, pos)),"
    " args AS (SELECT poid, nspname, proname, typ, typmod, pos, mode, name,"
    "  CASE WHEN mode = 't' THEN count(*) FILTER (WHERE mode = 't')"
    "   OVER (PARTITION BY poid ORDER BY pos) ELSE pos END AS ordinal"
    "  FROM params"
    "  UNION ALL"
    "  SELECT pr.poid, pr.nspname, pr.proname, pr.prorettype, -1, 0,"
    "  CASE WHEN pr.retset THEN 't' ELSE 'r' END, '',"
    "  CASE WHEN pr.retset THEN 1 ELSE 0 END"
    "  FROM procs pr WHERE pr.prokind = 'f' AND pr.retrel = 0"
    "  AND pr.prorettype <> 'pg_catalog.void'::pg_catalog.regtype AND NOT pr.has_out"
    "  UNION ALL"
    "  SELECT pr.poid, pr.nspname, pr.proname, at.atttypid, at.atttypmod,"
    "  (cardinality(pr.types) + at.attnum)::int4,"
    "  CASE WHEN pr.retset THEN 't' ELSE 'o' END, at.attname::text,"
    "  CASE WHEN pr.retset THEN row_number() OVER (PARTITION BY pr.poid ORDER BY at.attnum)"
    "   ELSE cardinality(pr.types) + row_number() OVER (PARTITION BY pr.poid ORDER BY at.attnum) END"
    "  FROM procs pr JOIN pg_catalog.pg_attribute at ON at.attrelid = pr.retrel"
    "  AND at.attnum > 0 AND NOT at.attisdropped"
    "  WHERE pr.prokind = 'f' AND pr.retrel <> 0 AND NOT pr.has_out)"
    " SELECT pg_catalog.current_database()::varchar(128) AS \"PROCEDURE_CAT\","
    " a.nspname::varchar(128) AS \"PROCEDURE_SCHEM\","
    " a.proname::varchar(128) AS \"PROCEDURE_NAME\","
    " a.name::varchar(128) AS \"COLUMN_NAME\","
    " (CASE a.mode WHEN 'b' THEN 2 WHEN 't' THEN 3 WHEN 'o' THEN 4 WHEN 'r' THEN 5"
    "  ELSE 1 END)::int2 AS \"COLUMN_TYPE\","
    " ty.data_type::int2 AS \"DATA_TYPE\","
    " ty.type_name::varchar(128) AS \"TYPE_NAME\","
    " ty.column_size::int4 AS \"COLUMN_SIZE\","
    " ty.buffer_length::int4 AS \"BUFFER_LENGTH\","
    " ty.decimal_digits::int2 AS \"DECIMAL_DIGITS\","
    " ty.radix::int2 AS \"NUM_PREC_RADIX\","
    " 1::int2 AS \"NULLABLE\","
    " NULL::varchar AS \"REMARKS\","
    " (CASE WHEN a.mode IN ('i', 'b', 'v')"
    "  THEN pg_catalog.pg_get_function_arg_default(a.poid, a.pos) END)::varchar AS \"COLUMN_DEF\","
    " ty.sql_data_type::int2 AS \"SQL_DATA_TYPE\","
    " ty.datetime_sub::int2 AS \"SQL_DATETIME_SUB\","
    " ty.char_octet_length::int4 AS \"CHAR_OCTET_LENGTH\","
    " a.ordinal::int4 AS \"ORDINAL_POSITION\","
    " 'YES'::varchar(3) AS \"IS_NULLABLE\""
    " FROM args a"
    GC_CATALOG_TYPE_LATERAL("a.typ", "a.typmod", "pg_catalog.format_type(a.typ, NULL)")
    " WHERE ($5::text IS NULL OR a.name LIKE $5)"
    " ORDER BY 1, 2, 3, a.poid, a.pos";

SQLRETURN gc_catalog_procedure_columns(gc_stmt *s, const char *catalog,
                                       const char *schema, const char *procedure,
                                       const char *column)
{
    assert(s != NULL);
    gc_catq q;
    gc_catq_init(&q, s);
    gc_catq_typemap(&q);
    gc_catq_arg(&q, catalog, GC_CATARG_ORDINARY, false);
    gc_catq_arg(&q, schema, GC_CATARG_PATTERN, true);
    gc_catq_name_arg(&q, procedure, GC_CATARG_PATTERN, true);
    gc_catq_name_arg(&q, column, GC_CATARG_PATTERN, true);
    gc_catq_text(&q, searches_system_schemas(schema, procedure) ? "true" : "false");
    return gc_catq_run(&q, procedure_columns_sql);
}
