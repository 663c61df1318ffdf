/*
 * gc_shardmap: where every row of every cluster table lives, as PostgreSQL
 * itself would place it (design: pg-hash-partitioning.md).
 *
 * A shard map is loaded from one member's catalog (pg_partitioned_table,
 * pg_inherits, pg_foreign_table) and is immutable afterwards, so routing
 * reads it without locks. Maps are shared by all connections of a process to
 * the same cluster through a cache keyed by cluster and catalog version;
 * they are reference-counted.
 *
 * A table or key the map cannot place exactly is never guessed: placing it
 * returns -1 and says why, and the router falls back to its group policy.
 */
#ifndef GC_SHARDMAP_H
#define GC_SHARDMAP_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stdint.h>

#include "global/gc_topology.h"
#include "member/gc_member.h"
#include "util/gc_error.h"
#include "util/gc_trace.h"

typedef struct gc_shardmap gc_shardmap;
typedef struct gc_shard_table gc_shard_table;

/* Loads the map from `session` (a member of group `local_group`, whose
 * plain partitions are that group's; foreign ones belong to the group whose
 * FDW server they use, through topo). Returns NULL with err on failure.
 * The caller owns one reference. */
gc_shardmap *gc_shardmap_load(gc_member *session, const gc_topology *topo,
                              int local_group, gc_trace *trace, gc_error *err);
gc_shardmap *gc_shardmap_retain(gc_shardmap *map);
void gc_shardmap_release(gc_shardmap *map);

/* The process-wide cache. Returns a map (one reference for the caller) for
 * (cluster, version), loading it through session on a miss; concurrent
 * callers for the same key share one load. Maps of older versions are
 * dropped once unreferenced. */
gc_shardmap *gc_shardmap_cache_get(const char *cluster, int64_t version,
                                   gc_member *session, const gc_topology *topo,
                                   int local_group, gc_trace *trace, gc_error *err);

/* SQL: the regclass of the gcluster.tables row `t` (an alias): in its
 * schema_name when the row has one (a driver's solo table, which may lie
 * outside the search_path), else where the search_path finds its name (the
 * spec's tables, in public). The schema is read through to_jsonb, so the
 * text works on a catalog older than that column. */
#define GC_CATALOG_ROW_REGCLASS(t)                                             \
    "pg_catalog.to_regclass(CASE WHEN pg_catalog.to_jsonb(" t ") ->> 'schema_name' IS NULL" \
    " THEN pg_catalog.quote_ident(" t ".name) ELSE pg_catalog.quote_ident("  \
    "pg_catalog.to_jsonb(" t ") ->> 'schema_name') || '.' || pg_catalog.quote_ident(" t ".name) END)"

/* The table named (schema, name): names as the server stores them (already
 * case-folded/unquoted). schema NULL: the first match along search_path
 * (n_path entries; "$user" and pg_catalog as PostgreSQL treats them).
 * NULL when the table is not a cluster table the map knows. */
const gc_shard_table *gc_shardmap_find(const gc_shardmap *map, const char *schema,
                                       const char *name, const char *const *search_path,
                                       int n_path);

/* The solo table whose column owns sequence `name` by PostgreSQL's naming
 * of a serial's or identity's sequence (table_column_seq), in schema or
 * along search_path as gc_shardmap_find; NULL when none does. A sequence
 * renamed, or named apart from another of that name, is not found. */
const gc_shard_table *gc_shardmap_find_sequence_table(const gc_shardmap *map, const char *schema,
                                                      const char *name,
                                                      const char *const *search_path, int n_path);

/* The table's schema and name, as the server stores them (unquoted,
 * folded). */
const char *gc_shard_table_schema(const gc_shard_table *t);
const char *gc_shard_table_name(const gc_shard_table *t);
/* A solo table's owner group; -1 for a sharded table. */
int gc_shard_table_solo_group(const gc_shard_table *t);
/* Number of top-level key columns (0 for a solo table), and each one's name,
 * type and position among the table's visible (not dropped) columns, for
 * INSERT statements without a column list. */
int gc_shard_table_key_count(const gc_shard_table *t);
const char *gc_shard_table_key_name(const gc_shard_table *t, int i);
Oid gc_shard_table_key_type(const gc_shard_table *t, int i);
/* The sequence key column i owns (a serial or identity column), quoted
 * schema.name, and whether it is GENERATED ALWAYS; NULL when it owns none. */
const char *gc_shard_table_key_sequence(const gc_shard_table *t, int i, bool *always);
int gc_shard_table_key_position(const gc_shard_table *t, int i);
/* Every column name in table order (visible columns), for analysis. */
int gc_shard_table_column_count(const gc_shard_table *t);
const char *gc_shard_table_column_name(const gc_shard_table *t, int i);

/* Places one row: key_text[i] is the text form of key column i (NULL = SQL
 * NULL), as a parameter or literal would give it. A partition that is itself
 * partitioned by other columns places the row only when all its leaves share
 * one owner group. Returns the owner group index, or -1 with *why (static
 * text) when the row cannot be placed exactly. *partition (may be NULL)
 * receives the partition's name (pointer into the map), for tests and the
 * trace. */
int gc_shard_table_place(const gc_shard_table *t, const char *const *key_text,
                         const char **partition, const char **why);

/* The leaf partitions of sharded table t that group owns: up to max
 * schema-qualified names (quoted as SQL needs; pointers into the map) in
 * names. Returns how many there are (may exceed max), or -1 for a solo
 * table or when a leaf's owner is unknown. A write that spans groups runs
 * on each group's own leaves (gc_global_span.c). */
int gc_shard_table_leaves(const gc_shard_table *t, int group, const char **names, int max);
/* Whether group may hold rows of t: a solo table's owner, a group owning
 * leaves of a sharded table (or any group, when a leaf's owner is unknown). */
bool gc_shard_table_in_group(const gc_shard_table *t, int group);

/* The leaf partition of t named name (as gc_shard_table_place gives a
 * partition): its schema-qualified name as gc_shard_table_leaves gives it;
 * NULL when no leaf has that name (a partition partitioned further). */
const char *gc_shard_table_leaf(const gc_shard_table *t, const char *name);

/* The leaf partitions of every sharded table that group owns by this map
 * (names as gc_shard_table_leaves gives them, up to max); returns how many
 * there are. A shard moved since the map was read shows as one of them
 * being a foreign table on the group's servers. */
int gc_shardmap_group_leaves(const gc_shardmap *map, int group, const char **names, int max);

#endif
