/*
 * gc_catalog_procs: SQLProcedures and SQLProcedureColumns, from pg_proc.
 * Functions (prokind 'f') are SQL_PT_FUNCTION, procedures ('p')
 * SQL_PT_PROCEDURE; aggregates and window functions are not listed.
 */
#include <assert.h>

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

SQLRETURN gc_catalog_procedures(gc_stmt *s, const char *catalog,
                                const char *schema, const char *procedure)
{
    assert(s != NULL);
    gc_catq q;
    gc_catq_init(&q, s);
    gc_catq_arg(&q, catalog, GC_CATARG_ORDINARY, false);
    gc_catq_arg(&q, schema, GC_CATARG_PATTERN, true);
    gc_catq_arg(&q, procedure, GC_CATARG_PATTERN, true);
    gc_catq_text(&q, gc_catalog_names_schema(schema) ? "true" : "false");
    return gc_catq_run(&q, procedures_sql);
}

/*
 * $1 type map, $2 catalog, $3 schema, $4 procedure, $5 column, $6 show
 * system schemas. One row per argument in call order, after a return value
 * row (ordinal 0) for functions returning a value through RETURNS rather
 * than OUT or TABLE arguments. Argument modes: i/v input (SQL_PARAM_INPUT 1),
 * b INOUT (2), t TABLE column (SQL_RESULT_COL 3), o OUT (SQL_PARAM_OUTPUT 4),
 * the return value SQL_RETURN_VALUE (5).
 */
static const char procedure_columns_sql[] =
    "WITH " GC_CATALOG_TYPEMAP_CTE("$1") ","
    " procs AS (SELECT p.oid AS poid, n.nspname, p.proname, p.prorettype, p.prokind,"
    "  COALESCE(p.proallargtypes, p.proargtypes::oid[]) AS types,"
    "  p.proargmodes AS modes, p.proargnames AS names"
    "  FROM pg_catalog.pg_proc p"
    "  JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace"
    "  WHERE p.prokind IN ('f', 'p')"
    "  AND ($2::text IS NULL OR pg_catalog.current_database() LIKE $2)"
    "  AND ($3::text IS NULL OR n.nspname LIKE $3)"
    "  AND ($4::text IS NULL OR p.proname LIKE $4)"
    "  AND ($6::bool OR NOT " GC_CATALOG_SYSTEM_SCHEMA("n") ")),"
    " args AS (SELECT pr.poid, pr.nspname, pr.proname, k.typ, k.pos::int4 AS pos,"
    "  COALESCE(pr.modes[k.pos], 'i')::text AS mode,"
    "  COALESCE(pr.names[k.pos], '') AS name,"
    "  CASE WHEN pr.modes[k.pos] = 't' THEN k.pos - (SELECT count(*)"
    "   FROM unnest(pr.modes) AS m(x) WHERE m.x <> 't') ELSE k.pos END AS ordinal"
    "  FROM procs pr CROSS JOIN LATERAL unnest(pr.types) WITH ORDINALITY AS k(typ, pos)"
    "  UNION ALL"
    "  SELECT pr.poid, pr.nspname, pr.proname, pr.prorettype, 0, 'r', '', 0"
    "  FROM procs pr WHERE pr.prokind = 'f'"
    "  AND pr.prorettype <> 'pg_catalog.void'::pg_catalog.regtype"
    "  AND NOT COALESCE(pr.modes && ARRAY['o', 'b', 't']::\"char\"[], false))"
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
    GC_CATALOG_TYPE_LATERAL("a.typ", "-1", "pg_catalog.format_type(a.typ, NULL)")
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
    gc_catq_arg(&q, procedure, GC_CATARG_PATTERN, true);
    gc_catq_arg(&q, column, GC_CATARG_PATTERN, true);
    gc_catq_text(&q, gc_catalog_names_schema(schema) ? "true" : "false");
    return gc_catq_run(&q, procedure_columns_sql);
}
