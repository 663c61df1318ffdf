/*
 * What a process remembers of a cluster's topology between connections:
 * copies that own their memory, one entry per key, replaced by a newer
 * topology, the oldest key forgotten when more are stored than it keeps.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "global/gc_topology.h"

/* A topology of `groups` groups x 2 members on ports base, base+1, ... */
static gc_topology make(int groups, int base, int64_t version)
{
    gc_topology t = { .version = version };
    t.cluster = strdup("demo");
    t.groups = calloc((size_t)groups, sizeof *t.groups);
    t.members = calloc((size_t)groups * 2, sizeof *t.members);
    assert_non_null(t.groups);
    assert_non_null(t.members);
    char text[32];
    for (int g = 0; g < groups; g++) {
        snprintf(text, sizeof text, "G%d", g + 1);
        t.groups[t.n_groups].name = strdup(text);
        t.groups[t.n_groups++].fdw_server = strdup(text);
        for (int n = 0; n < 2; n++) {
            gc_topo_member *m = &t.members[t.n_members];
            snprintf(text, sizeof text, "G%dN%d", g + 1, n + 1);
            m->name = strdup(text);
            m->host = strdup("127.0.0.1");
            snprintf(text, sizeof text, "%d", base + t.n_members);
            m->port = strdup(text);
            m->group = g;
            m->catalog_primary = n == 0;
            t.n_members++;
        }
    }
    return t;
}

static void assert_same(const gc_topology *a, const gc_topology *b)
{
    assert_string_equal(a->cluster, b->cluster);
    assert_int_equal(a->version, b->version);
    assert_int_equal(a->n_groups, b->n_groups);
    assert_int_equal(a->n_members, b->n_members);
    for (int i = 0; i < a->n_groups; i++) {
        assert_string_equal(a->groups[i].name, b->groups[i].name);
        assert_string_equal(a->groups[i].fdw_server, b->groups[i].fdw_server);
        assert_ptr_not_equal(a->groups[i].name, b->groups[i].name);
    }
    for (int i = 0; i < a->n_members; i++) {
        assert_string_equal(a->members[i].name, b->members[i].name);
        assert_string_equal(a->members[i].host, b->members[i].host);
        assert_string_equal(a->members[i].port, b->members[i].port);
        assert_int_equal(a->members[i].group, b->members[i].group);
        assert_int_equal(a->members[i].catalog_primary, b->members[i].catalog_primary);
        assert_ptr_not_equal(a->members[i].host, b->members[i].host);
    }
}

static void copy_is_deep_and_equal(void **state)
{
    (void)state;
    gc_topology t = make(3, 5000, 7), c;
    gc_error err;
    assert_true(gc_topology_copy(&t, &c, &err));
    assert_same(&t, &c);
    gc_topology_free(&t);   /* the copy outlives its source */
    assert_string_equal(c.members[5].name, "G3N2");
    gc_topology_free(&c);
}

static void nothing_is_recalled_for_an_unknown_key(void **state)
{
    (void)state;
    gc_topology out;
    assert_false(gc_topology_recall("never stored", &out));
    assert_int_equal(out.n_members, 0);
    assert_null(out.members);
}

static void the_newest_topology_of_a_key_is_recalled(void **state)
{
    (void)state;
    gc_topology first = make(2, 6000, 1), second = make(3, 6100, 2), out;
    gc_topology_remember("dsn a", &first);
    gc_topology_remember("dsn a", &second);
    gc_topology_free(&first);
    assert_true(gc_topology_recall("dsn a", &out));
    assert_same(&second, &out);
    gc_topology_free(&second);
    gc_topology_free(&out);
}

static void keys_are_kept_apart_and_the_oldest_is_forgotten(void **state)
{
    (void)state;
    char key[32];
    enum { STORED = 20 };
    for (int k = 0; k < STORED; k++) {
        gc_topology t = make(1, 7000 + 10 * k, k);
        snprintf(key, sizeof key, "dsn %d", k);
        gc_topology_remember(key, &t);
        gc_topology_free(&t);
    }
    /* gc_topology_memory.c keeps the 8 newest keys. */
    enum { KEPT = 8 };
    gc_topology out;
    for (int k = 0; k < STORED; k++) {
        snprintf(key, sizeof key, "dsn %d", k);
        bool recalled = gc_topology_recall(key, &out);
        assert_int_equal(recalled, k >= STORED - KEPT);
        if (recalled) {
            assert_int_equal(out.version, k);
            snprintf(key, sizeof key, "%d", 7000 + 10 * k);
            assert_string_equal(out.members[0].port, key);
            gc_topology_free(&out);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(copy_is_deep_and_equal),
        cmocka_unit_test(nothing_is_recalled_for_an_unknown_key),
        cmocka_unit_test(the_newest_topology_of_a_key_is_recalled),
        cmocka_unit_test(keys_are_kept_apart_and_the_oldest_is_forgotten),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
