/*
 * The inside of a shard map, shared by gc_shardmap*.c only. A map is built
 * once by the loader and never changed afterwards; all memory hangs off the
 * map and is freed with it.
 */
#ifndef GC_SHARDMAP_INTERNAL_H
#define GC_SHARDMAP_INTERNAL_H

#include <stdatomic.h>

#include "global/gc_shardmap.h"
#include "placement/gc_keyval.h"
#include "placement/gc_shardmap_bound.h"

typedef struct gc_prel gc_prel;

/* One key column of a partitioned relation. */
typedef struct gc_pkey {
    char *name;
    Oid type;
    int32_t typmod;
    gc_keytype kt;
    int top_index;      /* sub-partition keys: the top-level key column of the
                           same name and type, -1 when there is none */
    char *sequence;     /* the sequence the column owns (serial, identity),
                           schema.name quoted as SQL needs; NULL when none */
    bool always;        /* an identity GENERATED ALWAYS */
} gc_pkey;

/* One partition: a leaf (plain or foreign table) or a partitioned table. */
typedef struct gc_part {
    Oid oid;
    char *name;         /* relname */
    char *qualified;    /* schema.relname, each quoted as SQL needs */
    char relkind;       /* 'r', 'f' or 'p' */
    int group;          /* leaves: owner group, -1 when unknown */
    gc_prel *sub;       /* relkind 'p' */
} gc_part;

/* A partitioned relation: its key and its partitions. */
struct gc_prel {
    Oid oid;
    char strategy;      /* 'h', 'r', 'l' */
    int nkeys;
    gc_pkey *keys;
    int nparts;
    gc_part *parts;
    gc_part_bound *bounds;  /* parts[i]'s bound */
    gc_hash_slots hash_slots;   /* strategy 'h': the bounds by remainder */
    const char *why_not;    /* static text: why keys cannot be placed; NULL = they can */
    int common_group;       /* the group of every leaf below, -1 when they differ */
};

struct gc_shard_table {
    char *schema, *name;
    Oid oid;
    int solo_group;     /* >= 0: a solo table */
    gc_prel *root;      /* sharded tables */
    int ncols;
    char **cols;        /* visible columns in table order */
    int *key_pos;       /* per top-level key column: index in cols, -1 if absent */
    bool text_ascii_only;   /* the server encoding is neither UTF8 nor SQL_ASCII */
};

struct gc_shardmap {
    atomic_long refs;
    char *user;             /* the session user, for "$user" in search_path */
    int ntables;
    gc_shard_table *tables; /* sorted by (name, schema) */
};

/* Frees a map's contents and the map (refcount ignored). */
void gc_shardmap_destroy(gc_shardmap *map);
void gc_prel_free(gc_prel *p);
/* Sorts map->tables for gc_shardmap_find. */
void gc_shardmap_sort_tables(gc_shardmap *map);

#endif
