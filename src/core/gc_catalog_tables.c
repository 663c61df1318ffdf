/*
 * gc_catalog_tables: SQLTables, with its three listing special cases
 * (catalogs, schemas, table types).
 *
 * TABLE_TYPE names: "TABLE" (ordinary and partitioned tables, and
 * partitions), "VIEW", "MATERIALIZED VIEW", "FOREIGN TABLE" (postgres_fdw
 * shards), "LOCAL TEMPORARY" (this session's temporary tables), and
 * "SYSTEM TABLE" / "SYSTEM VIEW" for relations in pg_catalog,
 * information_schema and the other pg_* schemas.
 */
#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/gc_catalog_internal.h"
#include "core/gc_conn.h"
#include "core/gc_conn_kind.h"
#include "global/gc_shardmap.h"
#include "util/gc_strbuf.h"

/* SOLO_ARM: on a global connection, a CASE arm that calls a solo table's
 * foreign twin (on the groups that do not own it) TABLE, as its owner does,
 * so the answer does not depend on which member gives it; a solo
 * materialized view's twin, made not updatable (gc_ddl_run.c), MATERIALIZED
 * VIEW. */
#define TABLES_SQL(SOLO_ARM)                                                   \
    "SELECT pg_catalog.current_database()::varchar(128) AS \"TABLE_CAT\","   \
    " n.nspname::varchar(128) AS \"TABLE_SCHEM\","                            \
    " c.relname::varchar(128) AS \"TABLE_NAME\","                             \
    " x.table_type::varchar(128) AS \"TABLE_TYPE\","                          \
    " pg_catalog.obj_description(c.oid, 'pg_class')::varchar AS \"REMARKS\""  \
    " FROM pg_catalog.pg_class c"                                              \
    " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"                \
    " CROSS JOIN LATERAL (SELECT CASE"                                         \
    "  WHEN " GC_CATALOG_SYSTEM_SCHEMA("n") " THEN"                            \
    "   CASE WHEN c.relkind IN ('v', 'm') THEN 'SYSTEM VIEW' ELSE 'SYSTEM TABLE' END" \
    "  WHEN c.relpersistence = 't' THEN 'LOCAL TEMPORARY'"                     \
    "  WHEN c.relkind IN ('r', 'p') THEN 'TABLE'"                              \
    SOLO_ARM                                                                   \
    "  WHEN c.relkind = 'v' THEN 'VIEW'"                                       \
    "  WHEN c.relkind = 'm' THEN 'MATERIALIZED VIEW'"                          \
    "  ELSE 'FOREIGN TABLE' END AS table_type) x"                              \
    " WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f')"                            \
    " AND ($1::text IS NULL OR pg_catalog.current_database() LIKE $1)"         \
    " AND ($2::text IS NULL OR n.nspname LIKE $2)"                             \
    " AND ($3::text IS NULL OR c.relname LIKE $3)"                             \
    " AND ($4::text IS NULL OR x.table_type = ANY (string_to_array($4, ',')))" \
    " AND (c.relpersistence <> 't' OR n.oid = pg_catalog.pg_my_temp_schema())" \
    " AND ($5::bool OR NOT " GC_CATALOG_SYSTEM_SCHEMA("n") ")"                 \
    " ORDER BY 4, 1, 2, 3"

static const char tables_sql[] = TABLES_SQL("");
static const char tables_sql_cluster[] = TABLES_SQL(
    "  WHEN c.relkind = 'f' AND NOT c.relispartition AND EXISTS (SELECT 1"
    "   FROM gcluster.tables t WHERE t.method = 'solo'"
    "   AND " GC_CATALOG_ROW_REGCLASS("t") " = c.oid) THEN"
    "   CASE WHEN 'updatable=false' = ANY (SELECT pg_catalog.unnest(f.ftoptions)"
    "    FROM pg_catalog.pg_foreign_table f WHERE f.ftrelid = c.oid)"
    "   THEN 'MATERIALIZED VIEW' ELSE 'TABLE' END");

static const char catalogs_sql[] =
    "SELECT pg_catalog.current_database()::varchar(128) AS \"TABLE_CAT\","
    " NULL::varchar(128) AS \"TABLE_SCHEM\", NULL::varchar(128) AS \"TABLE_NAME\","
    " NULL::varchar(128) AS \"TABLE_TYPE\", NULL::varchar AS \"REMARKS\"";

/* Every schema an application can name: other sessions' temporary schemas
 * and the TOAST schemas are left out. */
static const char schemas_sql[] =
    "SELECT NULL::varchar(128) AS \"TABLE_CAT\","
    " n.nspname::varchar(128) AS \"TABLE_SCHEM\", NULL::varchar(128) AS \"TABLE_NAME\","
    " NULL::varchar(128) AS \"TABLE_TYPE\","
    " pg_catalog.obj_description(n.oid, 'pg_namespace')::varchar AS \"REMARKS\""
    " FROM pg_catalog.pg_namespace n"
    " WHERE (n.nspname NOT LIKE 'pg\\_temp\\_%' AND n.nspname NOT LIKE 'pg\\_toast%')"
    " OR n.oid = pg_catalog.pg_my_temp_schema()"
    " ORDER BY 2";

static const char types_sql[] =
    "SELECT NULL::varchar(128) AS \"TABLE_CAT\", NULL::varchar(128) AS \"TABLE_SCHEM\","
    " NULL::varchar(128) AS \"TABLE_NAME\", t::varchar(128) AS \"TABLE_TYPE\","
    " NULL::varchar AS \"REMARKS\""
    " FROM unnest(ARRAY['FOREIGN TABLE', 'LOCAL TEMPORARY', 'MATERIALIZED VIEW',"
    " 'SYSTEM TABLE', 'SYSTEM VIEW', 'TABLE', 'VIEW']) AS t ORDER BY 4";

static bool is_empty(const char *s)
{
    return s != NULL && s[0] == '\0';
}

/*
 * The TableType argument ("TABLE,VIEW", "'TABLE','VIEW'", ...) as a comma
 * list of upper-case names without quotes or spaces; NULL when it selects
 * every type (not given or "%"). An empty list names no type, as psqlODBC
 * reads it. Sets *oom on allocation failure. Caller frees.
 */
static char *normalize_table_types(const char *types, bool *oom)
{
    *oom = false;
    if (types == NULL || strcmp(types, "%") == 0)
        return NULL;
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    const char *p = types;
    while (*p != '\0') {
        const char *end = strchr(p, ',');
        if (end == NULL)
            end = p + strlen(p);
        const char *a = p, *b = end;
        while (a < b && (isspace((unsigned char)*a) || *a == '\'' || *a == '"'))
            a++;
        while (b > a && (isspace((unsigned char)b[-1]) || b[-1] == '\'' || b[-1] == '"'))
            b--;
        if (b > a) {
            if (sb.len > 0)
                gc_strbuf_append_char(&sb, ',');
            for (const char *c = a; c < b; c++)
                gc_strbuf_append_char(&sb, (char)toupper((unsigned char)*c));
        }
        p = *end == ',' ? end + 1 : end;
    }
    if (sb.len == 0 && !sb.failed) {
        gc_strbuf_free(&sb);
        return strdup("");   /* empty, or only separators: matches no type */
    }
    char *out = gc_strbuf_take(&sb);
    *oom = out == NULL;
    return out;
}

/* True when the normalized type list asks for system relations. */
static bool types_name_system(const char *types)
{
    return types != NULL && strstr(types, "SYSTEM ") != NULL;
}

/*
 * SQLTables. System schemas are listed only when the schema argument names
 * schemas selectively (not absent, "" or "%") or the table types ask for
 * SYSTEM TABLE / SYSTEM VIEW.
 */
SQLRETURN gc_catalog_tables(gc_stmt *s, const char *catalog, const char *schema,
                            const char *table, const char *table_types)
{
    assert(s != NULL);
    if (catalog != NULL && strcmp(catalog, SQL_ALL_CATALOGS) == 0
        && is_empty(schema) && is_empty(table))
        return gc_catalog_name_for_odbc2(s, gc_stmt_exec_catalog(s, catalogs_sql, 0, NULL, false),
                                         GC_CATALOG_TABLES);
    /* ODBC asks for an empty catalog in the next two; a missing one is
     * accepted too, because some callers (DBD::ODBC) drop the catalog
     * argument, and no table has an empty name anyway. */
    if (schema != NULL && strcmp(schema, SQL_ALL_SCHEMAS) == 0
        && (catalog == NULL || is_empty(catalog)) && is_empty(table))
        return gc_catalog_name_for_odbc2(s, gc_stmt_exec_catalog(s, schemas_sql, 0, NULL, false),
                                         GC_CATALOG_TABLES);
    if (table_types != NULL && strcmp(table_types, SQL_ALL_TABLE_TYPES) == 0
        && (catalog == NULL || is_empty(catalog)) && is_empty(schema) && is_empty(table))
        return gc_catalog_name_for_odbc2(s, gc_stmt_exec_catalog(s, types_sql, 0, NULL, false),
                                         GC_CATALOG_TABLES);

    bool oom;
    char *types = normalize_table_types(table_types, &oom);
    if (oom) {
        gc_diag_add(gc_catalog_diag(s), "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    gc_catq q;
    gc_catq_init(&q, s);
    gc_catq_arg(&q, catalog, GC_CATARG_PATTERN, false);
    gc_catq_arg(&q, schema, GC_CATARG_PATTERN, true);
    gc_catq_arg(&q, table, GC_CATARG_PATTERN, true);
    gc_catq_text(&q, types);
    gc_catq_text(&q, gc_catalog_names_schema(schema) || types_name_system(types)
                         ? "true" : "false");
    free(types);
    /* One solo table named: its owner says TABLE, another group FOREIGN TABLE. */
    gc_catq_on_owner_of(&q, schema, table, GC_CATARG_PATTERN);
    /* A catalog version means the topology came from the gcluster catalog,
     * whose tables every member holds. */
    bool cluster = s->conn->kind->catalog_version(s->conn) >= 0;
    return gc_catalog_name_for_odbc2(s, gc_catq_run(&q, cluster ? tables_sql_cluster : tables_sql),
                                     GC_CATALOG_TABLES);
}
