/* Shard maps on the fixture's server, beyond placement by value:
 * - foreign partitions belong to the group whose FDW server they use, plain
 *   ones to the local group, and a foreign table on a group's server is a
 *   solo table of that group;
 * - a partition sub-partitioned by columns outside the key, whose leaves
 *   span groups, is not placed;
 * - keys the driver cannot place exactly are refused: expression keys, range
 *   keys on text with a collation other than "C", nondeterministic
 *   collations, unsupported types, timestamptz without an offset;
 * - the cache shares one map between threads loading the same (cluster,
 *   version) at once, and keeps an older map alive while it is referenced.
 * Needs GC_TEST_STATE_DIR (conninfo, admin_conninfo). */
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "global/gc_shardmap.h"
#include "global/gc_topology.h"
#include "member/gc_member.h"

#define SCHEMA "gc_shardmap_groups_it"
#define FDW_SERVER "gc_shardmap_it_g2"
#define THREADS 4

static int failures;
static const char *const search_path[] = {SCHEMA};

static void check(bool ok, const char *fmt, ...)
{
    if (ok)
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("FAIL: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    failures++;
}

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "FAIL: %s: %s\n", what, detail);
    exit(1);
}

static void exec_ok(PGconn *c, const char *sql)
{
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK)
        die(sql, PQerrorMessage(c));
    PQclear(r);
}

static char *read_state(const char *name)
{
    const char *dir = getenv("GC_TEST_STATE_DIR");
    if (!dir)
        die("GC_TEST_STATE_DIR", "not set");
    char path[4096], buf[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f)
        die("cannot read", path);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
        n--;
    buf[n] = '\0';
    return strdup(buf);
}

static gc_member *connect_member(const char *conninfo)
{
    PQconninfoOption *opts = PQconninfoParse(conninfo, NULL);
    gc_member_params p = {0};
    for (PQconninfoOption *o = opts; o && o->keyword; o++) {
        if (!o->val)
            continue;
        if (!strcmp(o->keyword, "host")) p.host = o->val;
        else if (!strcmp(o->keyword, "port")) p.port = o->val;
        else if (!strcmp(o->keyword, "dbname")) p.dbname = o->val;
        else if (!strcmp(o->keyword, "user")) p.user = o->val;
        else if (!strcmp(o->keyword, "password")) p.password = o->val;
    }
    gc_member *m = gc_member_create(&p, NULL);   /* copies the strings */
    PQconninfoFree(opts);
    gc_error err;
    gc_error_clear(&err);
    if (!m || !gc_member_connect(m, &err))
        die("gc_member_connect", err.message);
    return m;
}

static gc_topo_group groups[2] = {{.name = "G1", .fdw_server = "G1"},
                                  {.name = "G2", .fdw_server = FDW_SERVER}};
static gc_topology topo = {.cluster = "groups_it", .version = 1, .n_groups = 2, .groups = groups};

typedef struct loader_arg {
    gc_member *session;
    int64_t version;
    gc_shardmap *map;
} loader_arg;

static void *load_thread(void *p)
{
    loader_arg *a = p;
    gc_error err;
    gc_error_clear(&err);
    a->map = gc_shardmap_cache_get("groups_it", a->version, a->session, &topo, 0, NULL, &err);
    if (!a->map)
        fprintf(stderr, "load: %s\n", err.message);
    return NULL;
}

static const gc_shard_table *table(const gc_shardmap *map, const char *name)
{
    const gc_shard_table *t = gc_shardmap_find(map, NULL, name, search_path, 1);
    if (!t)
        die("table not in the map", name);
    return t;
}

static int place1(const gc_shard_table *t, const char *key, const char **part, const char **why)
{
    const char *keys[1] = {key};
    *part = NULL;
    *why = NULL;
    return gc_shard_table_place(t, keys, part, why);
}

static void expect_refused(const gc_shardmap *map, const char *name, const char *key)
{
    const char *part, *why;
    int g = place1(table(map, name), key, &part, &why);
    check(g == -1 && why != NULL, "%s: key '%s' should be refused, got group %d", name, key, g);
    if (g == -1)
        printf("refused %-14s key %-24s: %s\n", name, key, why);
}

int main(void)
{
    char *admin_info = read_state("admin_conninfo"), *app_info = read_state("conninfo");
    PGconn *admin = PQconnectdb(admin_info);
    if (PQstatus(admin) != CONNECTION_OK)
        die("admin connect", PQerrorMessage(admin));
    exec_ok(admin, "SET client_min_messages = warning");
    exec_ok(admin, "DROP SCHEMA IF EXISTS " SCHEMA " CASCADE");
    exec_ok(admin, "DROP SERVER IF EXISTS " FDW_SERVER " CASCADE");
    exec_ok(admin, "CREATE EXTENSION IF NOT EXISTS postgres_fdw");
    exec_ok(admin, "CREATE SCHEMA " SCHEMA);
    exec_ok(admin, "CREATE SERVER " FDW_SERVER " FOREIGN DATA WRAPPER postgres_fdw"
                   " OPTIONS (host '127.0.0.1', port '1', dbname 'none')");
    exec_ok(admin, "SET search_path = " SCHEMA);
    exec_ok(admin,
        "CREATE TABLE f_hash (id int, k int8) PARTITION BY HASH (k);"
        "CREATE TABLE f_hash_0 PARTITION OF f_hash FOR VALUES WITH (MODULUS 2, REMAINDER 0);"
        "CREATE FOREIGN TABLE f_hash_1 PARTITION OF f_hash FOR VALUES WITH (MODULUS 2, REMAINDER 1)"
        " SERVER " FDW_SERVER ";"
        "CREATE TABLE f_sub (id int, k int8, v int) PARTITION BY RANGE (k);"
        "CREATE TABLE f_sub_a PARTITION OF f_sub FOR VALUES FROM (MINVALUE) TO (0) PARTITION BY LIST (v);"
        "CREATE TABLE f_sub_a1 PARTITION OF f_sub_a FOR VALUES IN (1);"
        "CREATE FOREIGN TABLE f_sub_a2 PARTITION OF f_sub_a DEFAULT SERVER " FDW_SERVER ";"
        "CREATE TABLE f_sub_b PARTITION OF f_sub FOR VALUES FROM (0) TO (1000) PARTITION BY LIST (v);"
        "CREATE FOREIGN TABLE f_sub_b1 PARTITION OF f_sub_b FOR VALUES IN (1) SERVER " FDW_SERVER ";"
        "CREATE FOREIGN TABLE f_sub_b2 PARTITION OF f_sub_b DEFAULT SERVER " FDW_SERVER ";"
        "CREATE FOREIGN TABLE f_sub_c PARTITION OF f_sub FOR VALUES FROM (1000) TO (MAXVALUE)"
        " SERVER " FDW_SERVER ";"
        "CREATE FOREIGN TABLE f_solo (id int, note text) SERVER " FDW_SERVER ";"
        "CREATE TABLE x_expr (k int) PARTITION BY HASH ((k + 1));"
        "CREATE TABLE x_expr_0 PARTITION OF x_expr FOR VALUES WITH (MODULUS 1, REMAINDER 0);"
        "CREATE TABLE x_icu_range (k text COLLATE \"und-x-icu\") PARTITION BY RANGE (k);"
        "CREATE TABLE x_icu_range_0 PARTITION OF x_icu_range DEFAULT;"
        "CREATE TABLE x_icu_list (k text COLLATE \"und-x-icu\") PARTITION BY LIST (k);"
        "CREATE TABLE x_icu_list_a PARTITION OF x_icu_list FOR VALUES IN ('a');"
        "CREATE TABLE x_icu_list_d PARTITION OF x_icu_list DEFAULT;"
        "CREATE COLLATION ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);"
        "CREATE TABLE x_ci (k text COLLATE ci) PARTITION BY HASH (k);"
        "CREATE TABLE x_ci_0 PARTITION OF x_ci FOR VALUES WITH (MODULUS 1, REMAINDER 0);"
        "CREATE TABLE x_float (k float8) PARTITION BY HASH (k);"
        "CREATE TABLE x_float_0 PARTITION OF x_float FOR VALUES WITH (MODULUS 1, REMAINDER 0);"
        "CREATE TABLE x_tstz (k timestamptz) PARTITION BY HASH (k);"
        "CREATE TABLE x_tstz_0 PARTITION OF x_tstz FOR VALUES WITH (MODULUS 1, REMAINDER 0);"
        "CREATE TABLE x_num (k numeric(6,1)) PARTITION BY HASH (k);"
        "CREATE TABLE x_num_0 PARTITION OF x_num FOR VALUES WITH (MODULUS 1, REMAINDER 0);");

    /* THREADS sessions ask for the same (cluster, version) at once. */
    gc_member *sessions[THREADS];
    loader_arg args[THREADS];
    pthread_t tids[THREADS];
    for (int i = 0; i < THREADS; i++) {
        sessions[i] = connect_member(app_info);
        args[i] = (loader_arg){.session = sessions[i], .version = 7};
    }
    for (int i = 0; i < THREADS; i++)
        pthread_create(&tids[i], NULL, load_thread, &args[i]);
    for (int i = 0; i < THREADS; i++)
        pthread_join(tids[i], NULL);
    gc_shardmap *map = args[0].map;
    if (!map)
        die("load", "no map");
    for (int i = 1; i < THREADS; i++)
        check(args[i].map == map, "thread %d got a different map for the same version", i);

    /* Owner groups: local partitions group 0, foreign ones group 1. */
    const gc_shard_table *fh = table(map, "f_hash");
    int seen[2] = {0, 0};
    char sql[64 * 1024];
    size_t at = (size_t)snprintf(sql, sizeof sql, "SELECT k, satisfies_hash_partition('"
                                 SCHEMA ".f_hash'::regclass, 2, 1, k) FROM unnest(ARRAY[");
    for (int i = 0; i < 500; i++)
        at += (size_t)snprintf(sql + at, sizeof sql - at, "%s%d::int8", i ? "," : "", i * 7919 - 1000000);
    snprintf(sql + at, sizeof sql - at, "]) k");
    PGresult *r = PQexec(admin, sql);
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        die("satisfies_hash_partition", PQerrorMessage(admin));
    for (int i = 0; i < PQntuples(r); i++) {
        const char *part, *why;
        int g = place1(fh, PQgetvalue(r, i, 0), &part, &why);
        bool foreign = strcmp(PQgetvalue(r, i, 1), "t") == 0;
        check(g == (foreign ? 1 : 0) && part && strcmp(part, foreign ? "f_hash_1" : "f_hash_0") == 0,
              "f_hash key %s: group %d partition %s", PQgetvalue(r, i, 0), g, part ? part : "-");
        if (g >= 0)
            seen[g]++;
    }
    PQclear(r);
    check(seen[0] > 100 && seen[1] > 100, "f_hash: keys on both groups (%d, %d)", seen[0], seen[1]);
    printf("f_hash: %d keys on the local group, %d on the foreign group\n", seen[0], seen[1]);

    /* Leaves of f_sub_a span groups and are chosen by v, not by the key. */
    expect_refused(map, "f_sub", "-5");
    /* Every leaf of f_sub_b is on group 1: its group is known without v. */
    const char *part, *why;
    check(place1(table(map, "f_sub"), "5", &part, &why) == 1 && strcmp(part, "f_sub_b") == 0,
          "f_sub key 5 should be placed in f_sub_b on group 1");
    check(place1(table(map, "f_sub"), "1000", &part, &why) == 1 && strcmp(part, "f_sub_c") == 0,
          "f_sub key 1000 should be placed in the foreign f_sub_c");

    const gc_shard_table *solo = table(map, "f_solo");
    check(gc_shard_table_solo_group(solo) == 1 && gc_shard_table_key_count(solo) == 0 &&
          gc_shard_table_column_count(solo) == 2 &&
          strcmp(gc_shard_table_column_name(solo, 1), "note") == 0,
          "f_solo should be a solo table of group 1 with columns (id, note)");
    check(gc_shard_table_solo_group(fh) == -1, "f_hash is not a solo table");

    expect_refused(map, "x_expr", "1");
    expect_refused(map, "x_icu_range", "a");
    expect_refused(map, "x_ci", "a");
    expect_refused(map, "x_float", "1.5");
    expect_refused(map, "x_tstz", "2026-01-01 00:00:00");
    expect_refused(map, "x_num", "1.25");
    check(place1(table(map, "x_tstz"), "2026-01-01 00:00:00+00", &part, &why) == 0,
          "x_tstz with an offset should be placed");
    check(place1(table(map, "x_num"), "1.20", &part, &why) == 0, "x_num 1.20 should be placed");
    check(place1(table(map, "x_icu_list"), "a", &part, &why) == 0 && strcmp(part, "x_icu_list_a") == 0,
          "list on a deterministic collation places by equality");
    check(place1(table(map, "x_icu_list"), "A", &part, &why) == 0 && strcmp(part, "x_icu_list_d") == 0,
          "list on a deterministic collation: 'A' is not 'a'");

    /* A newer version replaces the cached one; the old map stays usable
     * while referenced. */
    gc_error err;
    gc_error_clear(&err);
    gc_shardmap *newer = gc_shardmap_cache_get("groups_it", 8, sessions[0], &topo, 0, NULL, &err);
    check(newer && newer != map, "version 8 should be a new map");
    check(place1(fh, "1", &part, &why) >= 0, "the old map still places keys");
    gc_shardmap *again = gc_shardmap_cache_get("groups_it", 8, sessions[1], &topo, 0, NULL, &err);
    check(again == newer, "version 8 should come from the cache");
    gc_shardmap_release(again);
    gc_shardmap_release(newer);

    /* Loading inside the application's open transaction leaves it open and
     * leaves its settings as they were. */
    PGresult *res = gc_member_exec(sessions[2], "BEGIN; SET LOCAL DateStyle = 'German'", &err);
    PQclear(res);
    gc_shardmap *in_txn = gc_shardmap_load(sessions[2], &topo, 0, NULL, &err);
    check(in_txn != NULL, "load inside a transaction: %s", err.message);
    check(gc_member_txn_status(sessions[2]) == PQTRANS_INTRANS, "the transaction is still open");
    res = gc_member_exec(sessions[2], "SHOW DateStyle", &err);
    check(res && strncmp(PQgetvalue(res, 0, 0), "German", 6) == 0,
          "the session's DateStyle survives the load");
    PQclear(res);
    PQclear(gc_member_exec(sessions[2], "ROLLBACK", &err));
    if (in_txn)
        check(place1(table(in_txn, "x_tstz"), "2026-01-01 00:00:00+00", &part, &why) == 0,
              "the map loaded inside a transaction places keys");
    gc_shardmap_release(in_txn);
    for (int i = 0; i < THREADS; i++) {
        gc_shardmap_release(args[i].map);
        gc_member_destroy(sessions[i]);
    }

    exec_ok(admin, "DROP SCHEMA " SCHEMA " CASCADE");
    exec_ok(admin, "DROP SERVER " FDW_SERVER " CASCADE");
    PQfinish(admin);
    free(admin_info);
    free(app_info);
    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    else
        printf("all owner-group, refusal and cache checks passed\n");
    return failures ? 1 : 0;
}
