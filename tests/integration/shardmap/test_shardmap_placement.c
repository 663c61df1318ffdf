/* Shard map placement equals the server's: partitioned tables of every key
 * type and strategy (hash, range, list, multi-column, sub-partitioned) are
 * created on the fixture's server, 100,000 random keys are inserted with
 * RETURNING tableoid::regclass, and gc_shard_table_place must name the same
 * partition for every row. Loads the map through a gc_member session with a
 * one-group topology in memory (local_group 0). Needs GC_TEST_STATE_DIR. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "global/gc_shardmap.h"
#include "global/gc_topology.h"
#include "member/gc_member.h"

#define SCHEMA "gc_shardmap_it"
#define TOTAL_KEYS 100000
#define BATCH 1000
#define MAX_KEYS 3

static uint64_t rng_state = UINT64_C(0x2545F4914F6CDD1D);
static const char *const search_path[] = {SCHEMA};

static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static uint64_t rnd_below(uint64_t n)
{
    return rnd() % n;
}

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("FAIL: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static void exec_ok(PGconn *c, const char *sql)
{
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK)
        die("%s: %s", sql, PQerrorMessage(c));
    PQclear(r);
}

typedef void (*gen_fn)(char *buf, size_t cap);

static void gen_int2(char *b, size_t n) { snprintf(b, n, " %d ", (int)(int16_t)rnd()); }
static void gen_int4(char *b, size_t n) { snprintf(b, n, "%d", (int)(int32_t)rnd()); }
static void gen_int8(char *b, size_t n)
{
    int64_t v = (int64_t)rnd();
    if (rnd_below(3) == 0)
        v >>= 33;  /* values in int32 range hash like int4 */
    snprintf(b, n, "%" PRId64, v);
}
static void gen_oid(char *b, size_t n)
{
    if (rnd_below(10) == 0)
        snprintf(b, n, "-%u", (unsigned)rnd_below(1000) + 1);
    else
        snprintf(b, n, "%u", (uint32_t)rnd());
}
static void gen_bool(char *b, size_t n)
{
    static const char *const w[] = {"t", "true", "yes", "on", "1", "f", "FALSE", "no", "off", "0", " y "};
    snprintf(b, n, "%s", w[rnd_below(11)]);
}
static void gen_char(char *b, size_t n)
{
    if (rnd_below(4) == 0)
        snprintf(b, n, "\\%03o", (unsigned)(128 + rnd_below(128)));
    else
        snprintf(b, n, "%c", (char)(' ' + 1 + rnd_below(94)));
}
static void ymd(char *b, size_t n)
{
    snprintf(b, n, "%04d-%02d-%02d", 1950 + (int)rnd_below(120), 1 + (int)rnd_below(12),
             1 + (int)rnd_below(28));
}
static void gen_date(char *b, size_t n)
{
    if (rnd_below(50) == 0)
        snprintf(b, n, "%s", rnd_below(2) ? "infinity" : "-infinity");
    else
        ymd(b, n);
}
static void hms(char *b, size_t n)
{
    char d[16], frac[8];
    ymd(d, sizeof d);
    int nd = 1 + (int)rnd_below(6);
    for (int i = 0; i < nd; i++)
        frac[i] = (char)('0' + rnd_below(10));
    frac[nd] = '\0';
    snprintf(b, n, "%s%c%02d:%02d:%02d.%s", d, rnd_below(2) ? ' ' : 'T', (int)rnd_below(24),
             (int)rnd_below(60), (int)rnd_below(60), frac);
}
static void gen_ts(char *b, size_t n) { hms(b, n); }
static void gen_tstz(char *b, size_t n)
{
    static const char *const off[] = {"Z", "+00", "+05:30", "-08", "+0900", " UTC", "-03:30"};
    char t[64];
    hms(t, sizeof t);
    snprintf(b, n, "%s%s", t, off[rnd_below(7)]);
}
static void gen_str(char *b, size_t n, int maxlen)
{
    static const char *const pieces[] = {"a", "b", "z", "M", " ", "'", "\\", "é", "한", "0", "x"};
    size_t at = 0;
    int len = (int)rnd_below((uint64_t)maxlen + 1);
    for (int i = 0; i < len && at + 4 < n; i++)
        at += (size_t)snprintf(b + at, n - at, "%s", pieces[rnd_below(11)]);
    b[at] = '\0';
}
static void gen_text(char *b, size_t n) { gen_str(b, n, 12); }
static void gen_varchar(char *b, size_t n) { gen_str(b, n, 8); }
static void gen_bpchar(char *b, size_t n)
{
    gen_str(b, n, 6);
    if (rnd_below(2))
        strcat(b, "  ");
}
static void gen_bytea(char *b, size_t n)
{
    size_t at = (size_t)snprintf(b, n, "\\x");
    int len = (int)rnd_below(20);
    for (int i = 0; i < len; i++)
        at += (size_t)snprintf(b + at, n - at, "%02x", (unsigned)rnd_below(256));
}
static void gen_uuid(char *b, size_t n)
{
    char hex[33];
    for (int i = 0; i < 32; i++)
        hex[i] = "0123456789abcdefABCDEF"[rnd_below(rnd_below(2) ? 16 : 22)];
    hex[32] = '\0';
    switch (rnd_below(3)) {
    case 0: snprintf(b, n, "%.8s-%.4s-%.4s-%.4s-%.12s", hex, hex + 8, hex + 12, hex + 16, hex + 20); break;
    case 1: snprintf(b, n, "{%s}", hex); break;
    default: snprintf(b, n, "%s", hex); break;
    }
}
static void gen_numeric(char *b, size_t n)
{
    switch (rnd_below(4)) {
    case 0: snprintf(b, n, "%d", (int)rnd_below(2000000) - 1000000); break;
    case 1: snprintf(b, n, "%d.%02d", (int)rnd_below(2000) - 1000, (int)rnd_below(100)); break;
    case 2: snprintf(b, n, "-%d.%d0", (int)rnd_below(100), (int)rnd_below(10)); break;
    default: snprintf(b, n, "0.0%d", (int)rnd_below(10)); break;
    }
}
static void gen_small_int(char *b, size_t n) { snprintf(b, n, "%d", (int)rnd_below(3000) - 1500); }
static void gen_list_text(char *b, size_t n)
{
    static const char *const w[] = {"a", "b", "c", "d", "kr", "jp", "us", "zz"};
    snprintf(b, n, "%s", w[rnd_below(8)]);
}
static void gen_range_numeric(char *b, size_t n)
{
    snprintf(b, n, "%d.%02d", (int)rnd_below(20) - 10, (int)rnd_below(100));
}
static void gen_recent_tstz(char *b, size_t n)
{
    static const char *const off[] = {"Z", "+00", "+05:30", "-08", "+09"};
    snprintf(b, n, "2026-0%d-%02d %02d:00:00%s", 1 + (int)rnd_below(3), 1 + (int)rnd_below(28),
             (int)rnd_below(24), off[rnd_below(5)]);
}
static void gen_recent_date(char *b, size_t n)
{
    snprintf(b, n, "20%02d-%02d-01", 20 + (int)rnd_below(12), 1 + (int)rnd_below(12));
}

/* One test table: DDL, the key columns' generators, and a NULL rate. */
typedef struct case_def {
    const char *label;
    const char *table;
    const char *ddl;
    int nkeys;
    gen_fn gens[MAX_KEYS];
    int null_per_mille;
    long placed, mismatched;
} case_def;

#define HASH5(t, type)                                                            \
    "CREATE TABLE " t " (id int, k " type ", v int) PARTITION BY HASH (k);"     \
    "CREATE TABLE " t "_0 PARTITION OF " t " FOR VALUES WITH (MODULUS 5, REMAINDER 0);" \
    "CREATE TABLE " t "_1 PARTITION OF " t " FOR VALUES WITH (MODULUS 5, REMAINDER 1);" \
    "CREATE TABLE " t "_2 PARTITION OF " t " FOR VALUES WITH (MODULUS 5, REMAINDER 2);" \
    "CREATE TABLE " t "_3 PARTITION OF " t " FOR VALUES WITH (MODULUS 5, REMAINDER 3);" \
    "CREATE TABLE " t "_4 PARTITION OF " t " FOR VALUES WITH (MODULUS 5, REMAINDER 4);"

static case_def cases[] = {
    {"hash int2", "h_int2", HASH5("h_int2", "int2"), 1, {gen_int2}, 10, 0, 0},
    {"hash int4", "h_int4", HASH5("h_int4", "int4"), 1, {gen_int4}, 10, 0, 0},
    {"hash int8", "h_int8", HASH5("h_int8", "int8"), 1, {gen_int8}, 0, 0, 0},
    {"hash oid", "h_oid", HASH5("h_oid", "oid"), 1, {gen_oid}, 0, 0, 0},
    {"hash bool", "h_bool", HASH5("h_bool", "bool"), 1, {gen_bool}, 0, 0, 0},
    {"hash \"char\"", "h_char", HASH5("h_char", "\"char\""), 1, {gen_char}, 0, 0, 0},
    {"hash date", "h_date", HASH5("h_date", "date"), 1, {gen_date}, 0, 0, 0},
    {"hash timestamp", "h_ts", HASH5("h_ts", "timestamp"), 1, {gen_ts}, 0, 0, 0},
    {"hash timestamptz", "h_tstz", HASH5("h_tstz", "timestamptz"), 1, {gen_tstz}, 0, 0, 0},
    {"hash text", "h_text", HASH5("h_text", "text"), 1, {gen_text}, 0, 0, 0},
    {"hash varchar(8)", "h_varchar", HASH5("h_varchar", "varchar(8)"), 1, {gen_varchar}, 0, 0, 0},
    {"hash bpchar(8)", "h_bpchar", HASH5("h_bpchar", "char(8)"), 1, {gen_bpchar}, 0, 0, 0},
    {"hash bytea", "h_bytea", HASH5("h_bytea", "bytea"), 1, {gen_bytea}, 0, 0, 0},
    {"hash uuid", "h_uuid", HASH5("h_uuid", "uuid"), 1, {gen_uuid}, 0, 0, 0},
    {"hash numeric(12,2)", "h_numeric", HASH5("h_numeric", "numeric(12,2)"), 1, {gen_numeric}, 0, 0, 0},
    {"hash (int8, text, date)", "h_multi",
     "CREATE TABLE h_multi (id int, a int8, b text, c date) PARTITION BY HASH (a, b, c);"
     "CREATE TABLE h_multi_0 PARTITION OF h_multi FOR VALUES WITH (MODULUS 2, REMAINDER 0);"
     "CREATE TABLE h_multi_1 PARTITION OF h_multi FOR VALUES WITH (MODULUS 4, REMAINDER 1);"
     "CREATE TABLE h_multi_3 PARTITION OF h_multi FOR VALUES WITH (MODULUS 4, REMAINDER 3);",
     3, {gen_int8, gen_text, gen_date}, 50, 0, 0},
    {"range int4", "r_int",
     "CREATE TABLE r_int (id int, k int4) PARTITION BY RANGE (k);"
     "CREATE TABLE r_int_lo PARTITION OF r_int FOR VALUES FROM (MINVALUE) TO (-1000);"
     "CREATE TABLE r_int_mid PARTITION OF r_int FOR VALUES FROM (-1000) TO (0);"
     "CREATE TABLE r_int_hi PARTITION OF r_int FOR VALUES FROM (0) TO (1000);"
     "CREATE TABLE r_int_def PARTITION OF r_int DEFAULT;",
     1, {gen_small_int}, 20, 0, 0},
    {"range date", "r_date",
     "CREATE TABLE r_date (id int, k date) PARTITION BY RANGE (k);"
     "CREATE TABLE r_date_old PARTITION OF r_date FOR VALUES FROM (MINVALUE) TO ('2025-01-01');"
     "CREATE TABLE r_date_25 PARTITION OF r_date FOR VALUES FROM ('2025-01-01') TO ('2026-01-01');"
     "CREATE TABLE r_date_new PARTITION OF r_date FOR VALUES FROM ('2026-01-01') TO ('infinity');"
     "CREATE TABLE r_date_def PARTITION OF r_date DEFAULT;",
     1, {gen_recent_date}, 10, 0, 0},
    {"range timestamptz", "r_tstz",
     "CREATE TABLE r_tstz (id int, k timestamptz) PARTITION BY RANGE (k);"
     "CREATE TABLE r_tstz_jan PARTITION OF r_tstz FOR VALUES FROM (MINVALUE) TO ('2026-02-01 00:00:00+00');"
     "CREATE TABLE r_tstz_feb PARTITION OF r_tstz FOR VALUES FROM ('2026-02-01 00:00:00+00') TO ('2026-03-01 05:30:00+05:30');"
     "CREATE TABLE r_tstz_mar PARTITION OF r_tstz FOR VALUES FROM ('2026-03-01 05:30:00+05:30') TO (MAXVALUE);",
     1, {gen_recent_tstz}, 0, 0, 0},
    {"range numeric(10,2)", "r_numeric",
     "CREATE TABLE r_numeric (id int, k numeric(10,2)) PARTITION BY RANGE (k);"
     "CREATE TABLE r_numeric_a PARTITION OF r_numeric FOR VALUES FROM (-1.5) TO (2.25);"
     "CREATE TABLE r_numeric_b PARTITION OF r_numeric FOR VALUES FROM (2.25) TO (5);"
     "CREATE TABLE r_numeric_def PARTITION OF r_numeric DEFAULT;",
     1, {gen_range_numeric}, 10, 0, 0},
    {"range (int4, text) MINVALUE/MAXVALUE", "r_multi",
     "CREATE TABLE r_multi (id int, a int4, b text COLLATE \"C\") PARTITION BY RANGE (a, b);"
     "CREATE TABLE r_multi_1 PARTITION OF r_multi FOR VALUES FROM (MINVALUE, MINVALUE) TO (0, 'M');"
     "CREATE TABLE r_multi_2 PARTITION OF r_multi FOR VALUES FROM (0, 'M') TO (500, MAXVALUE);"
     "CREATE TABLE r_multi_3 PARTITION OF r_multi FOR VALUES FROM (500, MAXVALUE) TO (1000, 'b');"
     "CREATE TABLE r_multi_def PARTITION OF r_multi DEFAULT;",
     2, {gen_small_int, gen_text}, 20, 0, 0},
    {"list text NULL/DEFAULT", "l_text",
     "CREATE TABLE l_text (id int, k text) PARTITION BY LIST (k);"
     "CREATE TABLE l_text_asia PARTITION OF l_text FOR VALUES IN ('kr', 'jp');"
     "CREATE TABLE l_text_null PARTITION OF l_text FOR VALUES IN (NULL, 'a');"
     "CREATE TABLE l_text_def PARTITION OF l_text DEFAULT;",
     1, {gen_list_text}, 100, 0, 0},
    {"sub-partitioned range -> hash", "s_int",
     "CREATE TABLE s_int (id int, k int8) PARTITION BY RANGE (k);"
     "CREATE TABLE s_int_neg PARTITION OF s_int FOR VALUES FROM (MINVALUE) TO (0) PARTITION BY HASH (k);"
     "CREATE TABLE s_int_neg_0 PARTITION OF s_int_neg FOR VALUES WITH (MODULUS 3, REMAINDER 0);"
     "CREATE TABLE s_int_neg_1 PARTITION OF s_int_neg FOR VALUES WITH (MODULUS 3, REMAINDER 1);"
     "CREATE TABLE s_int_neg_2 PARTITION OF s_int_neg FOR VALUES WITH (MODULUS 3, REMAINDER 2);"
     "CREATE TABLE s_int_pos PARTITION OF s_int FOR VALUES FROM (0) TO (MAXVALUE) PARTITION BY LIST (id);"
     "CREATE TABLE s_int_pos_d PARTITION OF s_int_pos DEFAULT;",
     1, {gen_int8}, 0, 0, 0},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

/* Inserts `count` random rows of one case and compares placements. */
static void run_batch(PGconn *c, const gc_shardmap *map, case_def *cd, int count)
{
    static char keys[BATCH][MAX_KEYS][128];
    static bool nulls[BATCH][MAX_KEYS];
    size_t cap = (size_t)count * 600 + 1024, at = 0;
    char *sql = malloc(cap);
    at += (size_t)snprintf(sql + at, cap - at, "INSERT INTO %s VALUES ", cd->table);
    for (int r = 0; r < count; r++) {
        at += (size_t)snprintf(sql + at, cap - at, "%s(%d", r ? "," : "", r);
        for (int k = 0; k < cd->nkeys; k++) {
            nulls[r][k] = (int)rnd_below(1000) < cd->null_per_mille;
            if (nulls[r][k]) {
                at += (size_t)snprintf(sql + at, cap - at, ",NULL");
                continue;
            }
            cd->gens[k](keys[r][k], sizeof keys[r][k]);
            char *lit = PQescapeLiteral(c, keys[r][k], strlen(keys[r][k]));
            at += (size_t)snprintf(sql + at, cap - at, ",%s", lit);
            PQfreemem(lit);
        }
        at += (size_t)snprintf(sql + at, cap - at, ")");
    }
    snprintf(sql + at, cap - at,
             " RETURNING id, tableoid::regclass::text,"
             " (SELECT inhparent::regclass::text FROM pg_inherits WHERE inhrelid = %s.tableoid)",
             cd->table);
    PGresult *res = PQexec(c, sql);
    if (PQresultStatus(res) != PGRES_TUPLES_OK)
        die("insert into %s: %s", cd->table, PQerrorMessage(c));
    const gc_shard_table *t = gc_shardmap_find(map, NULL, cd->table, search_path, 1);
    if (!t)
        die("table %s not in the shard map", cd->table);
    for (int i = 0; i < PQntuples(res); i++) {
        int r = atoi(PQgetvalue(res, i, 0));
        const char *text[MAX_KEYS];
        for (int k = 0; k < cd->nkeys; k++)
            text[k] = nulls[r][k] ? NULL : keys[r][k];
        const char *part = NULL, *why = NULL;
        int g = gc_shard_table_place(t, text, &part, &why);
        const char *leaf = PQgetvalue(res, i, 1), *parent = PQgetvalue(res, i, 2);
        bool same = g == 0 && part && (strcmp(part, leaf) == 0 || strcmp(part, parent) == 0);
        if (!same) {
            if (cd->mismatched < 5)
                fprintf(stderr, "MISMATCH %s key0='%s'%s: server %s, driver %s (%s)\n",
                        cd->table, text[0] ? text[0] : "NULL",
                        cd->nkeys > 1 ? " ..." : "", leaf, part ? part : "-",
                        g < 0 ? why : "group");
            cd->mismatched++;
        } else {
            cd->placed++;
        }
    }
    PQclear(res);
    free(sql);
}

static char *read_file(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f)
        die("cannot read %s", path);
    static char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
        n--;
    buf[n] = '\0';
    return strdup(buf);
}

int main(void)
{
    const char *dir = getenv("GC_TEST_STATE_DIR");
    if (!dir)
        die("GC_TEST_STATE_DIR is not set");
    char *conninfo = read_file(dir, "conninfo");
    PGconn *c = PQconnectdb(conninfo);
    if (PQstatus(c) != CONNECTION_OK)
        die("connect: %s", PQerrorMessage(c));
    exec_ok(c, "SET client_min_messages = warning");
    exec_ok(c, "DROP SCHEMA IF EXISTS " SCHEMA " CASCADE");
    exec_ok(c, "CREATE SCHEMA " SCHEMA);
    exec_ok(c, "SET search_path = " SCHEMA);
    for (int i = 0; i < NCASES; i++)
        exec_ok(c, cases[i].ddl);

    /* The member session the map is loaded through. */
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
    gc_member *m = gc_member_create(&p, NULL);
    gc_error err;
    gc_error_clear(&err);
    if (!m || !gc_member_connect(m, &err))
        die("gc_member_connect: %s", err.message);
    gc_topo_group group = {.name = "G1", .fdw_server = "G1"};
    gc_topology topo = {.cluster = "it", .version = 1, .n_groups = 1, .groups = &group};
    gc_shardmap *map = gc_shardmap_cache_get("it", 1, m, &topo, 0, NULL, &err);
    if (!map)
        die("gc_shardmap_cache_get: %s", err.message);
    gc_shardmap *again = gc_shardmap_cache_get("it", 1, m, &topo, 0, NULL, &err);
    if (again != map)
        die("the cache loaded the same (cluster, version) twice");
    gc_shardmap_release(again);

    const gc_shard_table *t = gc_shardmap_find(map, SCHEMA, "h_multi", NULL, 0);
    if (!t || gc_shard_table_key_count(t) != 3 || gc_shard_table_key_position(t, 1) != 2 ||
        strcmp(gc_shard_table_key_name(t, 2), "c") != 0 ||
        gc_shard_table_column_count(t) != 4)
        die("h_multi: key columns or positions wrong");

    int per_case = TOTAL_KEYS / NCASES + 1;
    long total = 0, bad = 0;
    for (int i = 0; i < NCASES; i++) {
        for (int done = 0; done < per_case; done += BATCH)
            run_batch(c, map, &cases[i], per_case - done < BATCH ? per_case - done : BATCH);
        printf("%-40s placed %6ld  mismatched %ld\n", cases[i].label, cases[i].placed,
               cases[i].mismatched);
        total += cases[i].placed + cases[i].mismatched;
        bad += cases[i].mismatched;
    }
    printf("total %ld keys, %ld mismatches\n", total, bad);
    gc_shardmap_release(map);
    exec_ok(c, "DROP SCHEMA " SCHEMA " CASCADE");
    gc_member_destroy(m);
    PQconninfoFree(opts);
    PQfinish(c);
    free(conninfo);
    return bad == 0 && total >= TOTAL_KEYS ? 0 : 1;
}
