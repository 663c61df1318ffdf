/* Shard maps: lookup, accessors, placement and lifetime (see gc_shardmap.h). */
#include "global/gc_shardmap.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "global/gc_shardmap_internal.h"

gc_shardmap *gc_shardmap_retain(gc_shardmap *map)
{
    if (map)
        atomic_fetch_add(&map->refs, 1);
    return map;
}

void gc_shardmap_release(gc_shardmap *map)
{
    if (map && atomic_fetch_sub(&map->refs, 1) == 1)
        gc_shardmap_destroy(map);
}

void gc_prel_free(gc_prel *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->nkeys; i++) {
        free(p->keys[i].name);
        free(p->keys[i].sequence);
    }
    for (int i = 0; i < p->nparts; i++) {
        free(p->parts[i].name);
        free(p->parts[i].qualified);
        if (p->bounds)
            gc_part_bound_free(&p->bounds[i]);
        gc_prel_free(p->parts[i].sub);
    }
    free(p->keys);
    free(p->parts);
    free(p->bounds);
    gc_hash_slots_free(&p->hash_slots);
    free(p);
}

void gc_shardmap_destroy(gc_shardmap *map)
{
    for (int i = 0; i < map->ntables; i++) {
        gc_shard_table *t = &map->tables[i];
        free(t->schema);
        free(t->name);
        gc_prel_free(t->root);
        for (int c = 0; c < t->ncols; c++)
            free(t->cols[c]);
        free(t->cols);
        free(t->key_pos);
    }
    free(map->tables);
    free(map->user);
    free(map);
}

static int table_order(const void *a, const void *b)
{
    const gc_shard_table *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : strcmp(x->schema, y->schema);
}

void gc_shardmap_sort_tables(gc_shardmap *map)
{
    if (map->ntables > 1)
        qsort(map->tables, (size_t)map->ntables, sizeof *map->tables, table_order);
}

static const gc_shard_table *find_exact(const gc_shardmap *map, const char *schema,
                                        const char *name)
{
    if (map->ntables == 0)
        return NULL;   /* tables may be NULL: bsearch must not see it */
    gc_shard_table key = {.schema = (char *)schema, .name = (char *)name};
    return bsearch(&key, map->tables, (size_t)map->ntables, sizeof *map->tables,
                   table_order);
}

/* What find(map, schema, name) gives in schema, or along search_path when
 * schema is NULL (see gc_shardmap_find). */
static const gc_shard_table *
along_path(const gc_shardmap *map, const char *schema, const char *name,
           const char *const *search_path, int n_path,
           const gc_shard_table *(*find)(const gc_shardmap *, const char *, const char *))
{
    static const char *const default_path[] = {"$user", "public"};
    if (!map || !name)
        return NULL;
    if (schema)
        return find(map, schema, name);
    if (!search_path || n_path <= 0) {
        search_path = default_path;
        n_path = 2;
    }
    for (int i = 0; i < n_path; i++) {
        const char *s = search_path[i];
        if (!s)
            continue;
        if (strcmp(s, "$user") == 0) {
            if (!map->user)
                continue;
            s = map->user;
        }
        const gc_shard_table *t = find(map, s, name);
        if (t)
            return t;
    }
    return NULL;
}

const gc_shard_table *gc_shardmap_find(const gc_shardmap *map, const char *schema,
                                       const char *name, const char *const *search_path,
                                       int n_path)
{
    return along_path(map, schema, name, search_path, n_path, find_exact);
}

/* Whether seq is table_column_seq for t and one of its columns. */
static bool names_a_column_sequence(const gc_shard_table *t, const char *seq)
{
    size_t tl = strlen(t->name), sl = strlen(seq);
    if (sl < tl + 6 || strncmp(seq, t->name, tl) != 0 || seq[tl] != '_' ||
        strcmp(seq + sl - 4, "_seq") != 0)
        return false;
    const char *column = seq + tl + 1;
    size_t cl = sl - tl - 5;
    for (int c = 0; c < t->ncols; c++)
        if (strlen(t->cols[c]) == cl && strncmp(t->cols[c], column, cl) == 0)
            return true;
    return false;
}

static const gc_shard_table *sequence_table_in(const gc_shardmap *map, const char *schema,
                                              const char *name)
{
    for (int i = 0; i < map->ntables; i++) {
        const gc_shard_table *t = &map->tables[i];
        if (t->root == NULL && t->solo_group >= 0 && strcmp(t->schema, schema) == 0 &&
            names_a_column_sequence(t, name))
            return t;
    }
    return NULL;
}

const gc_shard_table *gc_shardmap_find_sequence_table(const gc_shardmap *map, const char *schema,
                                                      const char *name,
                                                      const char *const *search_path, int n_path)
{
    return along_path(map, schema, name, search_path, n_path, sequence_table_in);
}

int gc_shard_table_solo_group(const gc_shard_table *t)
{
    return t->root ? -1 : t->solo_group;
}

int gc_shard_table_key_count(const gc_shard_table *t)
{
    return t->root ? t->root->nkeys : 0;
}

const char *gc_shard_table_schema(const gc_shard_table *t)
{
    return t->schema;
}

const char *gc_shard_table_name(const gc_shard_table *t)
{
    return t->name;
}

const char *gc_shard_table_key_name(const gc_shard_table *t, int i)
{
    assert(t->root && i >= 0 && i < t->root->nkeys);
    return t->root->keys[i].name;
}

const char *gc_shard_table_key_sequence(const gc_shard_table *t, int i, bool *always)
{
    assert(t->root && i >= 0 && i < t->root->nkeys);
    *always = t->root->keys[i].always;
    return t->root->keys[i].sequence;
}

Oid gc_shard_table_key_type(const gc_shard_table *t, int i)
{
    assert(t->root && i >= 0 && i < t->root->nkeys);
    return t->root->keys[i].type;
}

int gc_shard_table_key_position(const gc_shard_table *t, int i)
{
    assert(t->root && i >= 0 && i < t->root->nkeys);
    return t->key_pos[i];
}

int gc_shard_table_column_count(const gc_shard_table *t)
{
    return t->ncols;
}

const char *gc_shard_table_column_name(const gc_shard_table *t, int i)
{
    assert(i >= 0 && i < t->ncols);
    return t->cols[i];
}

static bool is_ascii(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] & 0x80)
            return false;
    return true;
}

/* Walks down from the root to the partition that holds the key, given the
 * top-level key values. Returns the owner group or -1 with *why. */
static int place_in(const gc_prel *rel, const gc_keyval *top_keys, const char **partition,
                    const char **why)
{
    gc_keyval level_keys[32];
    const gc_keyval *keys = top_keys;
    for (;;) {
        if (rel->why_not) {
            *why = rel->why_not;
            return -1;
        }
        int idx = gc_part_choose_slotted(rel->strategy, rel->bounds, rel->nparts,
                                         &rel->hash_slots, keys, rel->nkeys, why);
        if (idx < 0)
            return -1;
        const gc_part *part = &rel->parts[idx];
        if (!part->sub) {
            if (part->group < 0) {
                *why = "the partition's owner group is unknown (its FDW server is not a group's)";
                return -1;
            }
            if (partition)
                *partition = part->name;
            return part->group;
        }
        const gc_prel *sub = part->sub;
        bool follows = sub->why_not == NULL && sub->nkeys <= 32;
        for (int k = 0; follows && k < sub->nkeys; k++)
            follows = sub->keys[k].top_index >= 0;
        if (!follows) {
            if (sub->common_group >= 0) {
                if (partition)
                    *partition = part->name;
                return sub->common_group;
            }
            *why = "sub-partitioned by columns outside the key, across groups";
            return -1;
        }
        for (int k = 0; k < sub->nkeys; k++)
            level_keys[k] = top_keys[sub->keys[k].top_index];
        keys = level_keys;
        rel = sub;
    }
}

/* Places one row (see header). */
int gc_shard_table_place(const gc_shard_table *t, const char *const *key_text,
                         const char **partition, const char **why)
{
    static const char *unused;
    if (!why)
        why = &unused;
    if (!t->root) {
        if (partition)
            *partition = t->name;
        if (t->solo_group < 0)
            *why = "the solo table's owner group is unknown";
        return t->solo_group;
    }
    const gc_prel *root = t->root;
    if (root->why_not) {
        *why = root->why_not;
        return -1;
    }
    if (root->nkeys > 32) {
        *why = "too many key columns";
        return -1;
    }
    gc_keyval keys[32];
    int parsed = 0, group = -1;
    for (; parsed < root->nkeys; parsed++) {
        const gc_pkey *k = &root->keys[parsed];
        const char *s = key_text[parsed];
        if (!gc_keyval_parse(k->kt, k->typmod, s, s ? strlen(s) : 0, &keys[parsed], why))
            goto done;
        if (t->text_ascii_only && !keys[parsed].is_null &&
            (k->kt == GC_KEY_TEXT || k->kt == GC_KEY_VARCHAR || k->kt == GC_KEY_BPCHAR) &&
            !is_ascii(keys[parsed].data, keys[parsed].len)) {
            *why = "non-ASCII text key and a server encoding other than UTF8";
            parsed++;
            goto done;
        }
    }
    group = place_in(root, keys, partition, why);
done:
    for (int i = 0; i < parsed; i++)
        gc_keyval_free(&keys[i]);
    return group;
}

/* Adds the leaves below rel owned by group to names (up to max). Returns
 * false when a leaf's owner is unknown. */
static bool collect_leaves(const gc_prel *rel, int group, const char **names, int max,
                           int *n)
{
    for (int i = 0; i < rel->nparts; i++) {
        const gc_part *part = &rel->parts[i];
        if (part->sub != NULL) {
            if (!collect_leaves(part->sub, group, names, max, n))
                return false;
            continue;
        }
        if (part->group < 0)
            return false;
        if (part->group != group)
            continue;
        if (*n < max)
            names[*n] = part->qualified;
        (*n)++;
    }
    return true;
}

/* The leaf below rel whose name is name (see gc_shard_table_leaf). */
static const gc_part *find_leaf(const gc_prel *rel, const char *name)
{
    for (int i = 0; i < rel->nparts; i++) {
        const gc_part *part = &rel->parts[i];
        const gc_part *leaf = part->sub != NULL ? find_leaf(part->sub, name)
                                                : strcmp(part->name, name) == 0 ? part : NULL;
        if (leaf != NULL)
            return leaf;
    }
    return NULL;
}

const char *gc_shard_table_leaf(const gc_shard_table *t, const char *name)
{
    const gc_part *leaf = t->root != NULL && name != NULL ? find_leaf(t->root, name) : NULL;
    return leaf != NULL ? leaf->qualified : NULL;
}

int gc_shardmap_group_leaves(const gc_shardmap *map, int group, const char **names, int max)
{
    int n = 0;
    for (int k = 0; k < map->ntables; k++) {
        const gc_shard_table *t = &map->tables[k];
        /* A leaf of unknown owner is skipped: only known ones are asked about. */
        int before = n;
        if (t->root != NULL && !collect_leaves(t->root, group, names, max, &n))
            n = before;
    }
    return n;
}

int gc_shard_table_leaves(const gc_shard_table *t, int group, const char **names, int max)
{
    if (t->root == NULL)
        return -1;
    int n = 0;
    return collect_leaves(t->root, group, names, max, &n) ? n : -1;
}

bool gc_shard_table_in_group(const gc_shard_table *t, int group)
{
    int solo = gc_shard_table_solo_group(t);
    return solo >= 0 ? solo == group : gc_shard_table_leaves(t, group, NULL, 0) != 0;
}
