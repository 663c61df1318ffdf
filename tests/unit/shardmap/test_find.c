/* gc_shardmap_find: a schema-qualified name matches exactly; an unqualified
 * one follows search_path ("$user" is the session user, the default path is
 * "$user", public). The map is built in memory, as the loader would. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "global/gc_shardmap_internal.h"

static gc_shardmap *map_of(const char *const *schemas, const char *const *names, int n)
{
    gc_shardmap *map = calloc(1, sizeof *map);
    assert_non_null(map);
    atomic_init(&map->refs, 1);
    map->user = strdup("bob");
    map->tables = calloc((size_t)n, sizeof *map->tables);
    map->ntables = n;
    for (int i = 0; i < n; i++) {
        map->tables[i].schema = strdup(schemas[i]);
        map->tables[i].name = strdup(names[i]);
        map->tables[i].solo_group = i;
    }
    gc_shardmap_sort_tables(map);
    return map;
}

static int group_of(const gc_shard_table *t)
{
    return t ? gc_shard_table_solo_group(t) : -1;
}

static void qualified_names_match_exactly_and_paths_in_order(void **state)
{
    (void)state;
    const char *schemas[] = {"public", "sales", "bob", "public"};
    const char *names[] = {"orders", "orders", "orders", "items"};
    gc_shardmap *map = map_of(schemas, names, 4);
    assert_int_equal(group_of(gc_shardmap_find(map, "sales", "orders", NULL, 0)), 1);
    assert_null(gc_shardmap_find(map, "sales", "items", NULL, 0));
    /* default path: "$user" (bob) first, then public */
    assert_int_equal(group_of(gc_shardmap_find(map, NULL, "orders", NULL, 0)), 2);
    assert_int_equal(group_of(gc_shardmap_find(map, NULL, "items", NULL, 0)), 3);
    const char *path[] = {"sales", "public"};
    assert_int_equal(group_of(gc_shardmap_find(map, NULL, "orders", path, 2)), 1);
    const char *path2[] = {"nowhere", "$user"};
    assert_int_equal(group_of(gc_shardmap_find(map, NULL, "orders", path2, 2)), 2);
    assert_null(gc_shardmap_find(map, NULL, "items", path2, 2));
    assert_null(gc_shardmap_find(map, NULL, "Orders", NULL, 0));   /* names as stored */
    const char *part = NULL, *why = NULL;
    const gc_shard_table *t = gc_shardmap_find(map, "public", "items", NULL, 0);
    assert_int_equal(gc_shard_table_place(t, NULL, &part, &why), 3);   /* solo: its group */
    assert_string_equal(part, "items");
    assert_int_equal(gc_shard_table_key_count(t), 0);
    gc_shardmap_release(map);
}

/* A sequence named table_column_seq belongs to the solo table whose
 * column it names, found in its schema or along search_path. */
static void a_serial_sequence_names_its_solo_table(void **state)
{
    (void)state;
    const char *schemas[] = {"public", "sales", "public"};
    const char *names[] = {"items", "items", "line_items"};
    gc_shardmap *map = map_of(schemas, names, 3);
    const char *columns[] = {"id", "item_id"};
    for (int i = 0; i < map->ntables; i++) {
        gc_shard_table *t = &map->tables[i];
        t->cols = calloc(2, sizeof *t->cols);
        assert_non_null(t->cols);
        for (int c = 0; c < 2; c++)
            t->cols[t->ncols++] = strdup(columns[c]);
    }
    const gc_shard_table *t = gc_shardmap_find_sequence_table(map, NULL, "items_id_seq", NULL, 0);
    assert_non_null(t);
    assert_string_equal(t->schema, "public");
    assert_string_equal(t->name, "items");
    t = gc_shardmap_find_sequence_table(map, "sales", "items_item_id_seq", NULL, 0);
    assert_non_null(t);
    assert_string_equal(t->schema, "sales");
    t = gc_shardmap_find_sequence_table(map, NULL, "line_items_item_id_seq", NULL, 0);
    assert_non_null(t);
    assert_string_equal(t->name, "line_items");
    assert_null(gc_shardmap_find_sequence_table(map, NULL, "items_price_seq", NULL, 0));
    assert_null(gc_shardmap_find_sequence_table(map, NULL, "items_id", NULL, 0));
    assert_null(gc_shardmap_find_sequence_table(map, NULL, "items__seq", NULL, 0));
    const char *path[] = {"nowhere"};
    assert_null(gc_shardmap_find_sequence_table(map, NULL, "items_id_seq", path, 1));
    gc_shardmap_release(map);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(qualified_names_match_exactly_and_paths_in_order),
        cmocka_unit_test(a_serial_sequence_names_its_solo_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
