/*
 * gc_catalog_keys: SQLPrimaryKeys, SQLForeignKeys and SQLStatistics, from
 * pg_constraint and pg_index. All their name arguments are ordinary
 * arguments (taken literally, or as identifiers under SQL_ATTR_METADATA_ID).
 */
#include <assert.h>

#include "core/gc_catalog_internal.h"

/* $1 catalog, $2 schema, $3 table. */
static const char primary_keys_sql[] =
    "SELECT pg_catalog.current_database()::varchar(128) AS \"TABLE_CAT\","
    " n.nspname::varchar(128) AS \"TABLE_SCHEM\","
    " c.relname::varchar(128) AS \"TABLE_NAME\","
    " a.attname::varchar(128) AS \"COLUMN_NAME\","
    " k.seq::int2 AS \"KEY_SEQ\","
    " con.conname::varchar(128) AS \"PK_NAME\""
    " FROM pg_catalog.pg_constraint con"
    " JOIN pg_catalog.pg_class c ON c.oid = con.conrelid"
    " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
    " CROSS JOIN LATERAL unnest(con.conkey) WITH ORDINALITY AS k(attnum, seq)"
    " JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum"
    " WHERE con.contype = 'p'"
    " AND ($1::text IS NULL OR pg_catalog.current_database() LIKE $1)"
    " AND ($2::text IS NULL OR n.nspname LIKE $2)"
    " AND c.relname LIKE $3"
    " ORDER BY 1, 2, 3, 5";

SQLRETURN gc_catalog_primary_keys(gc_stmt *s, const char *catalog,
                                  const char *schema, const char *table)
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
    gc_catq_on_owner_of(&q, schema, table, GC_CATARG_ORDINARY);
    return gc_catalog_name_for_odbc2(s, gc_catq_run(&q, primary_keys_sql),
                                     GC_CATALOG_PRIMARY_KEYS);
}

/*
 * $1 PK catalog, $2 PK schema, $3 PK table, $4 FK catalog, $5 FK schema,
 * $6 FK table. A missing table selects any. PK_NAME is the constraint (or,
 * failing that, the unique index) the foreign key references.
 * Rule codes: c CASCADE 0, r RESTRICT 1, n SET NULL 2, a NO ACTION 3,
 * d SET DEFAULT 4 (SQL_CASCADE ... SQL_SET_DEFAULT).
 */
#define FOREIGN_KEYS_SELECT                                                     \
    "SELECT pg_catalog.current_database()::varchar(128) AS \"PKTABLE_CAT\","    \
    " pn.nspname::varchar(128) AS \"PKTABLE_SCHEM\","                           \
    " pc.relname::varchar(128) AS \"PKTABLE_NAME\","                            \
    " pa.attname::varchar(128) AS \"PKCOLUMN_NAME\","                           \
    " pg_catalog.current_database()::varchar(128) AS \"FKTABLE_CAT\","          \
    " fn.nspname::varchar(128) AS \"FKTABLE_SCHEM\","                           \
    " fc.relname::varchar(128) AS \"FKTABLE_NAME\","                            \
    " fa.attname::varchar(128) AS \"FKCOLUMN_NAME\","                           \
    " k.seq::int2 AS \"KEY_SEQ\","                                              \
    " (CASE con.confupdtype WHEN 'c' THEN 0 WHEN 'r' THEN 1 WHEN 'n' THEN 2"    \
    "  WHEN 'd' THEN 4 ELSE 3 END)::int2 AS \"UPDATE_RULE\","                   \
    " (CASE con.confdeltype WHEN 'c' THEN 0 WHEN 'r' THEN 1 WHEN 'n' THEN 2"    \
    "  WHEN 'd' THEN 4 ELSE 3 END)::int2 AS \"DELETE_RULE\","                   \
    " con.conname::varchar(128) AS \"FK_NAME\","                                \
    " COALESCE((SELECT pk.conname FROM pg_catalog.pg_constraint pk"             \
    "   WHERE pk.conindid = con.conindid AND pk.conrelid = con.confrelid"       \
    "   AND pk.contype IN ('p', 'u') LIMIT 1),"                                 \
    "  (SELECT ic.relname FROM pg_catalog.pg_class ic"                          \
    "   WHERE ic.oid = con.conindid))::varchar(128) AS \"PK_NAME\","            \
    " (CASE WHEN con.condeferrable AND con.condeferred THEN 5"                  \
    "  WHEN con.condeferrable THEN 6 ELSE 7 END)::int2 AS \"DEFERRABILITY\""    \
    " FROM pg_catalog.pg_constraint con"                                        \
    " JOIN pg_catalog.pg_class fc ON fc.oid = con.conrelid"                     \
    " JOIN pg_catalog.pg_namespace fn ON fn.oid = fc.relnamespace"              \
    " JOIN pg_catalog.pg_class pc ON pc.oid = con.confrelid"                    \
    " JOIN pg_catalog.pg_namespace pn ON pn.oid = pc.relnamespace"              \
    " CROSS JOIN LATERAL unnest(con.conkey, con.confkey)"                       \
    "  WITH ORDINALITY AS k(fkattnum, pkattnum, seq)"                           \
    " JOIN pg_catalog.pg_attribute fa ON fa.attrelid = fc.oid AND fa.attnum = k.fkattnum" \
    " JOIN pg_catalog.pg_attribute pa ON pa.attrelid = pc.oid AND pa.attnum = k.pkattnum" \
    " WHERE con.contype = 'f'"                                                  \
    " AND ($1::text IS NULL OR pg_catalog.current_database() LIKE $1)"         \
    " AND ($2::text IS NULL OR pn.nspname LIKE $2)"                             \
    " AND ($3::text IS NULL OR pc.relname LIKE $3)"                             \
    " AND ($4::text IS NULL OR pg_catalog.current_database() LIKE $4)"         \
    " AND ($5::text IS NULL OR fn.nspname LIKE $5)"                             \
    " AND ($6::text IS NULL OR fc.relname LIKE $6)"

/* Keys referencing a table: ordered by the referencing (FK) table. */
static const char foreign_keys_by_fk_sql[] =
    FOREIGN_KEYS_SELECT " ORDER BY 5, 6, 7, 9";
/* Keys of a table: ordered by the referenced (PK) table. */
static const char foreign_keys_by_pk_sql[] =
    FOREIGN_KEYS_SELECT " ORDER BY 1, 2, 3, 9";

SQLRETURN gc_catalog_foreign_keys(gc_stmt *s, const char *pk_catalog,
                                  const char *pk_schema, const char *pk_table,
                                  const char *fk_catalog, const char *fk_schema,
                                  const char *fk_table)
{
    assert(s != NULL);
    /* An empty name is given, and matches no table (gc_catq_name_arg). */
    bool have_pk = pk_table != NULL;
    bool have_fk = fk_table != NULL;
    if (!have_pk && !have_fk) {
        gc_diag_add(gc_catalog_diag(s), "HY009", 0,
                    "invalid use of null pointer: PKTableName or FKTableName is required");
        return SQL_ERROR;
    }
    gc_catq q;
    gc_catq_init(&q, s);
    gc_catq_arg(&q, pk_catalog, GC_CATARG_ORDINARY, false);
    gc_catq_arg(&q, pk_schema, GC_CATARG_ORDINARY, false);
    gc_catq_name_arg(&q, pk_table, GC_CATARG_ORDINARY, false);
    gc_catq_arg(&q, fk_catalog, GC_CATARG_ORDINARY, false);
    gc_catq_arg(&q, fk_schema, GC_CATARG_ORDINARY, false);
    gc_catq_name_arg(&q, fk_table, GC_CATARG_ORDINARY, false);
    /* A foreign key lives with its table, on the owner group (the table it
     * references is there too: a key cannot reference a foreign table). */
    if (have_fk)
        gc_catq_on_owner_of(&q, fk_schema, fk_table, GC_CATARG_ORDINARY);
    else
        gc_catq_on_owner_of(&q, pk_schema, pk_table, GC_CATARG_ORDINARY);
    return gc_catq_run(&q, have_fk ? foreign_keys_by_pk_sql : foreign_keys_by_fk_sql);
}

/*
 * $1 catalog, $2 schema, $3 table, $4 unique indexes only. The table's own
 * row (TYPE SQL_TABLE_STAT) comes first with the planner's estimates; then
 * one row per key column of each index. TYPE: SQL_INDEX_CLUSTERED (1) for
 * the index the table was CLUSTERed on, SQL_INDEX_HASHED (2) for hash
 * indexes, SQL_INDEX_OTHER (3) otherwise. Expression columns show the
 * expression as COLUMN_NAME. CARDINALITY and PAGES are the planner's
 * statistics (reltuples, relpages), not counts.
 */
static const char statistics_sql[] =
    "WITH t AS (SELECT c.oid, n.nspname, c.relname, c.reltuples, c.relpages"
    "  FROM pg_catalog.pg_class c"
    "  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
    "  WHERE c.relkind IN ('r', 'p', 'm', 'f')"
    "  AND ($1::text IS NULL OR pg_catalog.current_database() LIKE $1)"
    "  AND ($2::text IS NULL OR n.nspname LIKE $2)"
    "  AND c.relname LIKE $3)"
    " SELECT pg_catalog.current_database()::varchar(128) AS \"TABLE_CAT\","
    " t.nspname::varchar(128) AS \"TABLE_SCHEM\","
    " t.relname::varchar(128) AS \"TABLE_NAME\","
    " NULL::int2 AS \"NON_UNIQUE\", NULL::varchar(128) AS \"INDEX_QUALIFIER\","
    " NULL::varchar(128) AS \"INDEX_NAME\", 0::int2 AS \"TYPE\","
    " NULL::int2 AS \"ORDINAL_POSITION\", NULL::varchar(128) AS \"COLUMN_NAME\","
    " NULL::char(1) AS \"ASC_OR_DESC\","
    " least(greatest(t.reltuples, 0)::int8, 2147483647)::int4 AS \"CARDINALITY\","
    " t.relpages::int4 AS \"PAGES\","
    " NULL::varchar AS \"FILTER_CONDITION\""
    " FROM t"
    " UNION ALL"
    " SELECT pg_catalog.current_database()::varchar(128),"
    " t.nspname::varchar(128), t.relname::varchar(128),"
    " (CASE WHEN i.indisunique THEN 0 ELSE 1 END)::int2,"
    " t.nspname::varchar(128), ic.relname::varchar(128),"
    " (CASE WHEN i.indisclustered THEN 1 WHEN am.amname = 'hash' THEN 2 ELSE 3 END)::int2,"
    " k.pos::int2,"
    " (CASE WHEN k.attnum = 0 THEN pg_catalog.pg_get_indexdef(i.indexrelid, k.pos::int4, true)"
    "  ELSE a.attname::text END)::varchar(128),"
    " (CASE WHEN am.amname <> 'btree' THEN NULL"
    "  WHEN (i.indoption[k.pos - 1] & 1) = 1 THEN 'D' ELSE 'A' END)::char(1),"
    " least(greatest(ic.reltuples, 0)::int8, 2147483647)::int4,"
    " ic.relpages::int4,"
    " pg_catalog.pg_get_expr(i.indpred, i.indrelid)::varchar"
    " FROM t"
    " JOIN pg_catalog.pg_index i ON i.indrelid = t.oid"
    " JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid"
    " JOIN pg_catalog.pg_am am ON am.oid = ic.relam"
    " CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, pos)"
    " LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum"
    " WHERE k.pos <= i.indnkeyatts AND (NOT $4::bool OR i.indisunique)"
    " ORDER BY 4 NULLS FIRST, 7, 5, 6, 8";

SQLRETURN gc_catalog_statistics(gc_stmt *s, const char *catalog,
                                const char *schema, const char *table,
                                SQLUSMALLINT unique, SQLUSMALLINT reserved)
{
    assert(s != NULL);
    gc_diag *diag = gc_catalog_diag(s);
    if (unique != SQL_INDEX_UNIQUE && unique != SQL_INDEX_ALL) {
        gc_diag_add(diag, "HY100", 0, "uniqueness option type out of range");
        return SQL_ERROR;
    }
    if (reserved != SQL_ENSURE && reserved != SQL_QUICK) {
        gc_diag_add(diag, "HY101", 0, "accuracy option type out of range");
        return SQL_ERROR;
    }
    if (table == NULL) {
        gc_diag_add(diag, "HY009", 0, "invalid use of null pointer: TableName is required");
        return SQL_ERROR;
    }
    gc_catq q;
    gc_catq_init(&q, s);
    gc_catq_arg(&q, catalog, GC_CATARG_ORDINARY, false);
    gc_catq_arg(&q, schema, GC_CATARG_ORDINARY, true);
    gc_catq_name_arg(&q, table, GC_CATARG_ORDINARY, true);
    gc_catq_text(&q, unique == SQL_INDEX_UNIQUE ? "true" : "false");
    gc_catq_on_owner_of(&q, schema, table, GC_CATARG_ORDINARY);
    return gc_catalog_name_for_odbc2(s, gc_catq_run(&q, statistics_sql),
                                     GC_CATALOG_STATISTICS);
}
