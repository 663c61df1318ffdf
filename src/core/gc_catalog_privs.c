/*
 * gc_catalog_privs: SQLTablePrivileges and SQLColumnPrivileges, from the
 * access control lists (aclexplode; an object without an ACL has its
 * owner's default privileges). The grantee 0 is PUBLIC. IS_GRANTABLE is YES
 * for a grant WITH GRANT OPTION and for the owner and the members of its
 * role, who may always grant (as information_schema.table_privileges says).
 */
#include <assert.h>

#include "core/gc_catalog_internal.h"

/* $1 catalog, $2 schema, $3 table, $4 show system schemas. */
static const char table_privileges_sql[] =
    "SELECT pg_catalog.current_database()::varchar(128) AS \"TABLE_CAT\","
    " n.nspname::varchar(128) AS \"TABLE_SCHEM\","
    " c.relname::varchar(128) AS \"TABLE_NAME\","
    " pg_catalog.pg_get_userbyid(x.grantor)::varchar(128) AS \"GRANTOR\","
    " (CASE WHEN x.grantee = 0 THEN 'PUBLIC'"
    "  ELSE pg_catalog.pg_get_userbyid(x.grantee)::text END)::varchar(128) AS \"GRANTEE\","
    " x.privilege_type::varchar(128) AS \"PRIVILEGE\","
    " (CASE WHEN x.is_grantable OR (x.grantee <> 0"
    "  AND pg_catalog.pg_has_role(x.grantee, c.relowner, 'USAGE'))"
    "  THEN 'YES' ELSE 'NO' END)::varchar(3) AS \"IS_GRANTABLE\""
    " FROM pg_catalog.pg_class c"
    " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
    " CROSS JOIN LATERAL pg_catalog.aclexplode(COALESCE(c.relacl,"
    "  pg_catalog.acldefault('r', c.relowner))) x"
    " WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f')"
    " AND ($1::text IS NULL OR pg_catalog.current_database() LIKE $1)"
    " AND ($2::text IS NULL OR n.nspname LIKE $2)"
    " AND ($3::text IS NULL OR c.relname LIKE $3)"
    " AND ($4::bool OR NOT " GC_CATALOG_SYSTEM_SCHEMA("n") ")"
    " ORDER BY 1, 2, 3, 6, 5";

SQLRETURN gc_catalog_table_privileges(gc_stmt *s, const char *catalog,
                                      const char *schema, const char *table)
{
    assert(s != NULL);
    gc_catq q;
    gc_catq_init(&q, s);
    gc_catq_arg(&q, catalog, GC_CATARG_ORDINARY, false);
    gc_catq_arg(&q, schema, GC_CATARG_PATTERN, true);
    gc_catq_name_arg(&q, table, GC_CATARG_PATTERN, true);
    gc_catq_on_owner_of(&q, schema, table, GC_CATARG_PATTERN);
    gc_catq_text(&q, gc_catalog_names_schema(schema) ? "true" : "false");
    return gc_catq_run(&q, table_privileges_sql);
}

/*
 * $1 catalog, $2 schema, $3 table, $4 column. A column's privileges are the
 * table-level SELECT, INSERT, UPDATE and REFERENCES (they cover every
 * column) and the column's own grants.
 */
static const char column_privileges_sql[] =
    "WITH t AS (SELECT c.oid, n.nspname, c.relname, c.relacl, c.relowner"
    "  FROM pg_catalog.pg_class c"
    "  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
    "  WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f')"
    "  AND ($1::text IS NULL OR pg_catalog.current_database() LIKE $1)"
    "  AND ($2::text IS NULL OR n.nspname LIKE $2)"
    "  AND c.relname LIKE $3),"
    " cols AS (SELECT t.*, a.attname, a.attacl FROM t"
    "  JOIN pg_catalog.pg_attribute a ON a.attrelid = t.oid"
    "   AND a.attnum > 0 AND NOT a.attisdropped"
    "  WHERE ($4::text IS NULL OR a.attname LIKE $4)),"
    " privs AS (SELECT cols.nspname, cols.relname, cols.attname, cols.relowner,"
    "   x.grantor, x.grantee, x.privilege_type, x.is_grantable"
    "  FROM cols CROSS JOIN LATERAL pg_catalog.aclexplode(COALESCE(cols.relacl,"
    "   pg_catalog.acldefault('r', cols.relowner))) x"
    "  WHERE x.privilege_type IN ('SELECT', 'INSERT', 'UPDATE', 'REFERENCES')"
    "  UNION"
    "  SELECT cols.nspname, cols.relname, cols.attname, cols.relowner,"
    "   x.grantor, x.grantee, x.privilege_type, x.is_grantable"
    "  FROM cols CROSS JOIN LATERAL pg_catalog.aclexplode(cols.attacl) x"
    "  WHERE cols.attacl IS NOT NULL)"
    " SELECT pg_catalog.current_database()::varchar(128) AS \"TABLE_CAT\","
    " p.nspname::varchar(128) AS \"TABLE_SCHEM\","
    " p.relname::varchar(128) AS \"TABLE_NAME\","
    " p.attname::varchar(128) AS \"COLUMN_NAME\","
    " pg_catalog.pg_get_userbyid(p.grantor)::varchar(128) AS \"GRANTOR\","
    " (CASE WHEN p.grantee = 0 THEN 'PUBLIC'"
    "  ELSE pg_catalog.pg_get_userbyid(p.grantee)::text END)::varchar(128) AS \"GRANTEE\","
    " p.privilege_type::varchar(128) AS \"PRIVILEGE\","
    " (CASE WHEN p.is_grantable OR (p.grantee <> 0"
    "  AND pg_catalog.pg_has_role(p.grantee, p.relowner, 'USAGE'))"
    "  THEN 'YES' ELSE 'NO' END)::varchar(3) AS \"IS_GRANTABLE\""
    " FROM privs p"
    " ORDER BY 1, 2, 3, 4, 7, 6";

SQLRETURN gc_catalog_column_privileges(gc_stmt *s, const char *catalog,
                                       const char *schema, const char *table,
                                       const char *column)
{
    assert(s != NULL);
    if (table == NULL) {
        gc_diag_add(gc_catalog_diag(s), "HY009", 0,
                    "invalid use of null pointer: TableName is required");
        return SQL_ERROR;
    }
    gc_catq q;
    gc_catq_init(&q, s);
    gc_catq_arg(&q, catalog, GC_CATARG_ORDINARY, false);
    gc_catq_arg(&q, schema, GC_CATARG_ORDINARY, true);
    gc_catq_name_arg(&q, table, GC_CATARG_ORDINARY, true);
    gc_catq_name_arg(&q, column, GC_CATARG_PATTERN, true);
    gc_catq_on_owner_of(&q, schema, table, GC_CATARG_ORDINARY);
    return gc_catq_run(&q, column_privileges_sql);
}
