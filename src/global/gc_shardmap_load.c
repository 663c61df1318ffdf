/* Loading a shard map from one member's catalog (design:
 * pg-hash-partitioning.md, "Catalog queries that load a shard map"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "global/gc_sequence_sql.h"
#include "global/gc_shardmap_internal.h"
#include "placement/gc_pghash.h"

/* Bounds are printed in the session's DateStyle: the load pins ISO (and
 * standard strings) for its own transaction or savepoint only. JIT is off
 * there too: these reads are small, but the never-analyzed gcluster tables
 * can be planned big enough to compile, tens of milliseconds per connect. */
#define LOAD_SETTINGS                                                          \
    "SET LOCAL DateStyle = 'ISO, YMD'; SET LOCAL standard_conforming_strings = on;" \
    " SET LOCAL jit = off;"

/* Server checks: encoding, and two hashes that differ on a big-endian server
 * or one whose C char is unsigned. */
#define Q_SERVER                                                               \
    "SELECT current_setting('server_encoding'),"                             \
    " hashtextextended('gcodbc', x'7A5B22367996DCFD'::int8),"                \
    " hashcharextended('\\303'::\"char\", x'7A5B22367996DCFD'::int8),"       \
    " to_regclass('gcluster.tables') IS NOT NULL, session_user;"
#define Q_KEYS                                                                 \
    "SELECT pt.partrelid, pt.partstrat, k.attnum, a.attname, a.atttypid,"    \
    " a.atttypmod, ap.amproc::regproc, coll.collname,"                       \
    " coll.collisdeterministic, n.nspname, c.relname, c.relispartition,"     \
    " (SELECT quote_ident(sn.nspname) || '.' || quote_ident(sc.relname)"     \
    "  FROM pg_depend d JOIN pg_class sc ON sc.oid = d.objid AND sc.relkind = 'S'" \
    "  JOIN pg_namespace sn ON sn.oid = sc.relnamespace"                     \
    "  WHERE " GC_SQL_DEPEND_OWNS_SEQUENCE("d")                              \
    "  AND d.refobjid = pt.partrelid AND d.refobjsubid = k.attnum"           \
    "  LIMIT 1), a.attidentity"                                              \
    " FROM pg_partitioned_table pt"                                          \
    " JOIN pg_class c ON c.oid = pt.partrelid"                               \
    " JOIN pg_namespace n ON n.oid = c.relnamespace"                         \
    " CROSS JOIN LATERAL unnest(pt.partattrs::int2[]) WITH ORDINALITY k(attnum, ord)" \
    " LEFT JOIN pg_attribute a ON a.attrelid = pt.partrelid AND a.attnum = k.attnum" \
    " JOIN pg_opclass opc ON opc.oid = pt.partclass[k.ord - 1]"              \
    " LEFT JOIN pg_amproc ap ON ap.amprocfamily = opc.opcfamily"             \
    "  AND ap.amproclefttype = opc.opcintype AND ap.amprocrighttype = opc.opcintype" \
    "  AND ap.amprocnum = CASE pt.partstrat WHEN 'h' THEN 2 ELSE 1 END"       \
    " LEFT JOIN pg_collation coll ON coll.oid = pt.partcollation[k.ord - 1]" \
    " ORDER BY pt.partrelid, k.ord;"
#define Q_PARTS                                                                \
    "SELECT i.inhparent, c.oid, c.relname, c.relkind,"                       \
    " pg_get_expr(c.relpartbound, c.oid), fs.srvname,"                       \
    " quote_ident(n.nspname) || '.' || quote_ident(c.relname)"              \
    " FROM pg_inherits i"                                                    \
    " JOIN pg_class c ON c.oid = i.inhrelid AND c.relispartition"            \
    " JOIN pg_namespace n ON n.oid = c.relnamespace"                         \
    " LEFT JOIN pg_foreign_table ft ON ft.ftrelid = c.oid"                   \
    " LEFT JOIN pg_foreign_server fs ON fs.oid = ft.ftserver"                \
    " WHERE NOT i.inhdetachpending ORDER BY i.inhparent, c.oid;"
#define Q_COLUMNS                                                              \
    "SELECT a.attrelid, a.attname FROM pg_attribute a"                       \
    " JOIN pg_class c ON c.oid = a.attrelid"                                 \
    " WHERE c.relkind IN ('p', 'f', 'r') AND NOT c.relispartition"           \
    " AND c.relnamespace NOT IN ('pg_catalog'::regnamespace,"                \
    " 'information_schema'::regnamespace)"                                   \
    " AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attrelid, a.attnum;"
#define Q_FOREIGN                                                              \
    "SELECT c.oid, n.nspname, c.relname, fs.srvname FROM pg_foreign_table ft" \
    " JOIN pg_class c ON c.oid = ft.ftrelid AND NOT c.relispartition"        \
    " JOIN pg_namespace n ON n.oid = c.relnamespace"                         \
    " JOIN pg_foreign_server fs ON fs.oid = ft.ftserver;"
#define Q_SOLO                                                                 \
    "SELECT c.oid, n.nspname, c.relname, c.relkind, t.owner_group"           \
    " FROM gcluster.tables t"                                                \
    " JOIN pg_class c ON c.oid = " GC_CATALOG_ROW_REGCLASS("t")                 \
    " JOIN pg_namespace n ON n.oid = c.relnamespace"                         \
    " WHERE t.method = 'solo' OR c.relkind = 'r'"

/* R_SOLO is read in the same batch only when the catalog is known to be
 * there (see gc_shardmap_load). */
enum { R_SERVER, R_KEYS, R_PARTS, R_COLUMNS, R_FOREIGN, R_SOLO, R_COUNT };

typedef struct loader {
    gc_member *session;
    const gc_topology *topo;
    int local_group;
    gc_error *err;
    PGresult *res[R_COUNT];
    Oid *key_rel, *part_parent, *col_rel;  /* first column of R_KEYS, R_PARTS,
                                              R_COLUMNS: each sorted ascending */
    const char *why_not_all;   /* server checks failed */
    bool ascii_only;
    gc_shardmap *map;
} loader;

/* Wraps catalog queries so the settings they need never leak into the
 * application's session: a read-only transaction when idle, a savepoint
 * inside an open one. Returns a heap string. */
static char *wrap(gc_member *session, const char *queries, gc_error *err)
{
    PGTransactionStatusType ts = gc_member_txn_status(session);
    const char *head, *tail;
    if (ts == PQTRANS_IDLE) {
        head = "BEGIN READ ONLY; " LOAD_SETTINGS;
        tail = "COMMIT;";
    } else if (ts == PQTRANS_INTRANS) {
        head = "SAVEPOINT gc_shardmap_load; " LOAD_SETTINGS;
        tail = "ROLLBACK TO SAVEPOINT gc_shardmap_load; RELEASE SAVEPOINT gc_shardmap_load;";
    } else {
        gc_error_set(err, "25000", 0, "shard map: the session is not idle");
        return NULL;
    }
    size_t n = strlen(head) + strlen(queries) + strlen(tail) + 1;
    char *sql = malloc(n);
    if (!sql) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return NULL;
    }
    snprintf(sql, n, "%s%s%s", head, queries, tail);
    return sql;
}

static Oid oid_at(const PGresult *r, int row, int col)
{
    return (Oid)strtoul(PQgetvalue(r, row, col), NULL, 10);
}

/* Reads the first column of a result (an oid, rows sorted by it). */
static Oid *oid_column(const PGresult *r)
{
    Oid *v = malloc(sizeof *v * ((size_t)PQntuples(r) + 1));
    for (int i = 0; v && i < PQntuples(r); i++)
        v[i] = oid_at(r, i, 0);
    return v;
}

/* The rows [*first, return) whose sorted oid column equals key. */
static int rows_of(const Oid *col, int n, Oid key, int *first)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (col[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    *first = lo;
    while (hi < n && col[hi] == key)
        hi++;
    return hi;
}

/* The support function the server must use for the type and strategy, for
 * placement to be exact; NULL when the type is not supported. */
static const char *expected_support(gc_keytype kt, char strategy)
{
    static const char *const hash_fn[] = {
        NULL, "hashint2extended", "hashint4extended", "hashint8extended",
        "hashoidextended", "hashcharextended", "hashcharextended", "hashint4extended",
        "timestamp_hash_extended", "timestamp_hash_extended", "hashtextextended",
        "hashtextextended", "hashbpcharextended", "hashvarlenaextended",
        "uuid_hash_extended", "hash_numeric_extended",
    };
    static const char *const cmp_fn[] = {
        NULL, "btint2cmp", "btint4cmp", "btint8cmp", "btoidcmp", "btboolcmp",
        "btcharcmp", "date_cmp", "timestamp_cmp", "timestamptz_cmp", "bttextcmp",
        "bttextcmp", "bpcharcmp", "byteacmp", "uuid_cmp", "numeric_cmp",
    };
    return strategy == 'h' ? hash_fn[kt] : cmp_fn[kt];
}

static bool is_text_type(gc_keytype kt)
{
    return kt == GC_KEY_TEXT || kt == GC_KEY_VARCHAR || kt == GC_KEY_BPCHAR;
}

/* Builds the partitioned relation `relid` (and its partitioned partitions)
 * from the key and partition results. top: the top-level relation, for
 * matching sub-partition keys; NULL at the top. Returns NULL on OOM. */
static gc_prel *build_prel(loader *ld, Oid relid, const gc_prel *top)
{
    const PGresult *kr = ld->res[R_KEYS], *pr = ld->res[R_PARTS];
    gc_prel *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->oid = relid;
    p->common_group = -1;
    p->why_not = ld->why_not_all;
    int first;
    int nk = rows_of(ld->key_rel, PQntuples(kr), relid, &first) - first;
    if (nk == 0 || nk > 32) {
        p->why_not = "partition key not found or too wide";
        return p;
    }
    p->strategy = PQgetvalue(kr, first, 1)[0];
    p->keys = calloc((size_t)nk, sizeof *p->keys);
    if (!p->keys)
        goto oom;
    p->nkeys = nk;
    gc_keytype types[32];
    for (int k = 0; k < nk; k++) {
        int row = first + k;
        gc_pkey *key = &p->keys[k];
        key->top_index = -1;
        key->name = strdup(PQgetisnull(kr, row, 3) ? "" : PQgetvalue(kr, row, 3));
        if (!key->name)
            goto oom;
        key->type = oid_at(kr, row, 4);
        key->typmod = (int32_t)strtol(PQgetvalue(kr, row, 5), NULL, 10);
        key->kt = gc_keytype_of_oid(key->type);
        types[k] = key->kt;
        if (!PQgetisnull(kr, row, 12) && !(key->sequence = strdup(PQgetvalue(kr, row, 12))))
            goto oom;
        key->always = !PQgetisnull(kr, row, 13) && PQgetvalue(kr, row, 13)[0] == 'a';
        const char *fn = PQgetvalue(kr, row, 6);
        const char *want = expected_support(key->kt, p->strategy);
        if (atoi(PQgetvalue(kr, row, 2)) == 0)
            p->why_not = "the partition key is an expression";
        else if (key->kt == GC_KEY_UNSUPPORTED)
            p->why_not = "a key column's type is not supported";
        else if (PQgetisnull(kr, row, 6) || !want || strcmp(fn, want) != 0)
            p->why_not = "a key column uses an operator class the driver does not reproduce";
        else if (is_text_type(key->kt) && strcmp(PQgetvalue(kr, row, 8), "t") != 0)
            p->why_not = "a text key has a nondeterministic collation";
        else if (is_text_type(key->kt) && p->strategy == 'r' &&
                 strcmp(PQgetvalue(kr, row, 7), "C") != 0 &&
                 strcmp(PQgetvalue(kr, row, 7), "POSIX") != 0)
            p->why_not = "a range key on text has a collation other than \"C\"";
        if (top) {
            for (int t = 0; t < top->nkeys; t++)
                if (strcmp(top->keys[t].name, key->name) == 0 &&
                    top->keys[t].type == key->type && top->keys[t].typmod == key->typmod)
                    key->top_index = t;
        }
    }
    int part_first, part_end = rows_of(ld->part_parent, PQntuples(pr), relid, &part_first);
    p->nparts = part_end - part_first;
    p->parts = calloc((size_t)p->nparts + 1, sizeof *p->parts);
    p->bounds = calloc((size_t)p->nparts + 1, sizeof *p->bounds);
    if (!p->parts || !p->bounds)
        goto oom;
    int n = 0;
    bool first_leaf = true, same = true;
    int group = -1;
    for (int i = part_first; i < part_end; i++) {
        gc_part *part = &p->parts[n];
        part->oid = oid_at(pr, i, 1);
        part->relkind = PQgetvalue(pr, i, 3)[0];
        part->group = -1;
        if (!(part->name = strdup(PQgetvalue(pr, i, 2))) ||
            !(part->qualified = strdup(PQgetvalue(pr, i, 6))))
            goto oom;
        const char *why;
        if (!gc_part_bound_parse(PQgetvalue(pr, i, 4), types, nk, &p->bounds[n], &why) &&
            !p->why_not)
            p->why_not = why;
        n++;
        int g;
        if (part->relkind == 'p') {
            if (!(part->sub = build_prel(ld, part->oid, top ? top : p)))
                goto oom;
            g = part->sub->common_group;
        } else if (part->relkind == 'f') {
            g = PQgetisnull(pr, i, 5) ? -1
                : gc_topology_group_of_fdw_server(ld->topo, PQgetvalue(pr, i, 5));
            part->group = g;
        } else {
            g = part->group = ld->local_group;
        }
        if (first_leaf)
            group = g;
        else if (g != group)
            same = false;
        first_leaf = false;
    }
    p->common_group = same ? group : -1;
    if (p->strategy == 'h' && !p->why_not &&
        !gc_hash_slots_build(p->bounds, p->nparts, &p->hash_slots))
        goto oom;
    return p;
oom:
    gc_prel_free(p);
    return NULL;
}

/* Adds a table with its visible columns; returns it or NULL on OOM. */
static gc_shard_table *add_table(loader *ld, Oid oid, const char *schema, const char *name)
{
    gc_shardmap *map = ld->map;
    gc_shard_table *grown = realloc(map->tables, sizeof *grown * (size_t)(map->ntables + 1));
    if (!grown)
        return NULL;
    map->tables = grown;
    gc_shard_table *t = &map->tables[map->ntables++];
    memset(t, 0, sizeof *t);
    t->oid = oid;
    t->solo_group = -1;
    t->text_ascii_only = ld->ascii_only;
    t->schema = strdup(schema);
    t->name = strdup(name);
    if (!t->schema || !t->name)
        return NULL;
    const PGresult *cr = ld->res[R_COLUMNS];
    int first, end = rows_of(ld->col_rel, PQntuples(cr), oid, &first);
    t->cols = calloc((size_t)(end - first) + 1, sizeof *t->cols);
    if (!t->cols)
        return NULL;
    for (int i = first; i < end; i++)
        if (!(t->cols[t->ncols++] = strdup(PQgetvalue(cr, i, 1))))
            return NULL;
    return t;
}

static gc_shard_table *table_by_oid(gc_shardmap *map, Oid oid)
{
    for (int i = 0; i < map->ntables; i++)
        if (map->tables[i].oid == oid)
            return &map->tables[i];
    return NULL;
}

/* Everything the first round trip brought, turned into tables. */
static bool build_tables(loader *ld)
{
    const PGresult *kr = ld->res[R_KEYS], *fr = ld->res[R_FOREIGN];
    for (int i = 0; i < PQntuples(kr); i++) {
        Oid relid = oid_at(kr, i, 0);
        if (strcmp(PQgetvalue(kr, i, 11), "t") == 0 || table_by_oid(ld->map, relid))
            continue;   /* a partition, or a table already built */
        gc_shard_table *t = add_table(ld, relid, PQgetvalue(kr, i, 9), PQgetvalue(kr, i, 10));
        if (!t || !(t->root = build_prel(ld, relid, NULL)))
            return false;
        t->key_pos = calloc((size_t)t->root->nkeys + 1, sizeof *t->key_pos);
        if (!t->key_pos)
            return false;
        for (int k = 0; k < t->root->nkeys; k++) {
            t->key_pos[k] = -1;
            for (int c = 0; c < t->ncols; c++)
                if (strcmp(t->cols[c], t->root->keys[k].name) == 0)
                    t->key_pos[k] = c;
        }
    }
    for (int i = 0; i < PQntuples(fr); i++) {
        int g = gc_topology_group_of_fdw_server(ld->topo, PQgetvalue(fr, i, 3));
        if (g < 0)
            continue;   /* a foreign table that is not a cluster group's */
        gc_shard_table *t = add_table(ld, oid_at(fr, i, 0), PQgetvalue(fr, i, 1),
                                      PQgetvalue(fr, i, 2));
        if (!t)
            return false;
        t->solo_group = g;
    }
    return true;
}

/* After a failed batch, takes the session back to where wrap() found it:
 * the failed statement left the load's transaction or savepoint aborted. */
static void unwrap_failed(gc_member *session, PGTransactionStatusType before)
{
    if (gc_member_txn_status(session) != PQTRANS_INERROR)
        return;
    gc_error ignored;
    PQclear(gc_member_exec(session,
                           before == PQTRANS_IDLE
                               ? "ROLLBACK"
                               : "ROLLBACK TO SAVEPOINT gc_shardmap_load;"
                                 " RELEASE SAVEPOINT gc_shardmap_load",
                           &ignored));
}

/* Runs catalog queries wrapped (see wrap), keeping their n row sets in out;
 * on failure the session is as it was before. */
static bool run_wrapped(loader *ld, const char *queries, PGresult **out, int n)
{
    PGTransactionStatusType before = gc_member_txn_status(ld->session);
    char *sql = wrap(ld->session, queries, ld->err);
    bool ok = sql && gc_member_exec_rows(ld->session, sql, out, n, ld->err);
    free(sql);
    if (!ok)
        unwrap_failed(ld->session, before);
    return ok;
}

/* Solo tables listed in gcluster.tables: from the batch when it read them,
 * else in a second round trip. */
static bool load_solo(loader *ld)
{
    PGresult *r = ld->res[R_SOLO];
    ld->res[R_SOLO] = NULL;
    bool ok = r != NULL || run_wrapped(ld, Q_SOLO ";", &r, 1);
    for (int i = 0; ok && i < PQntuples(r); i++) {
        Oid oid = oid_at(r, i, 0);
        char kind = PQgetvalue(r, i, 3)[0];
        if (kind == 'p')
            continue;
        gc_shard_table *t = table_by_oid(ld->map, oid);
        if (!t && !(t = add_table(ld, oid, PQgetvalue(r, i, 1), PQgetvalue(r, i, 2)))) {
            gc_error_set(ld->err, "HY001", 0, "out of memory");
            ok = false;
            break;
        }
        if (!PQgetisnull(r, i, 4))
            t->solo_group = gc_topology_group_index(ld->topo, PQgetvalue(r, i, 4));
        else if (kind == 'r')
            t->solo_group = ld->local_group;
    }
    PQclear(r);
    return ok;
}

/* The catalog queries in one round trip; with_solo adds gcluster.tables. */
static bool run_batch(loader *ld, bool with_solo)
{
    return run_wrapped(ld,
                       with_solo ? Q_SERVER Q_KEYS Q_PARTS Q_COLUMNS Q_FOREIGN Q_SOLO ";"
                                 : Q_SERVER Q_KEYS Q_PARTS Q_COLUMNS Q_FOREIGN,
                       ld->res, with_solo ? R_COUNT : R_SOLO);
}

/* Loads a map (see gc_shardmap.h). */
gc_shardmap *gc_shardmap_load(gc_member *session, const gc_topology *topo,
                              int local_group, gc_trace *trace, gc_error *err)
{
    loader ld = {.session = session, .topo = topo, .local_group = local_group, .err = err};
    /* A topology read from a catalog (version known) says gcluster.tables
     * is there: its solo tables come in the same round trip. A catalog
     * without the table (42P01) is asked again the old way. */
    bool with_solo = topo->version >= 0;
    if (!run_batch(&ld, with_solo)) {
        if (!with_solo || strcmp(err->sqlstate, "42P01") != 0)
            return NULL;
        gc_error_clear(err);
        if (!run_batch(&ld, false))
            return NULL;
    }
    const PGresult *sr = ld.res[R_SERVER];
    const char *enc = PQgetvalue(sr, 0, 0);
    ld.ascii_only = strcmp(enc, "UTF8") != 0 && strcmp(enc, "SQL_ASCII") != 0;
    uint64_t text_h = (uint64_t)strtoll(PQgetvalue(sr, 0, 1), NULL, 10);
    uint64_t char_h = (uint64_t)strtoll(PQgetvalue(sr, 0, 2), NULL, 10);
    if (text_h != gc_pghash_text("gcodbc", 6, GC_PGHASH_PARTITION_SEED) ||
        char_h != gc_pghash_char((char)0xC3, GC_PGHASH_PARTITION_SEED))
        ld.why_not_all = "the server's byte order or char signedness differs (hashes do not match)";
    bool has_catalog = strcmp(PQgetvalue(sr, 0, 3), "t") == 0;
    ld.key_rel = oid_column(ld.res[R_KEYS]);
    ld.part_parent = oid_column(ld.res[R_PARTS]);
    ld.col_rel = oid_column(ld.res[R_COLUMNS]);
    ld.map = calloc(1, sizeof *ld.map);
    bool ok = ld.key_rel && ld.part_parent && ld.col_rel && ld.map && (ld.map->user = strdup(PQgetvalue(sr, 0, 4))) != NULL;
    if (ok)
        atomic_init(&ld.map->refs, 1);
    if (ok && !build_tables(&ld)) {
        gc_error_set(err, "HY001", 0, "out of memory");
        ok = false;
    }
    if (ok && has_catalog)
        ok = load_solo(&ld);
    for (int i = 0; i < R_COUNT; i++)
        PQclear(ld.res[i]);
    free(ld.key_rel);
    free(ld.part_parent);
    free(ld.col_rel);
    if (!ok) {
        if (ld.map)
            gc_shardmap_destroy(ld.map);
        if (!gc_error_is_set(err))
            gc_error_set(err, "HY001", 0, "out of memory");
        return NULL;
    }
    gc_shardmap_sort_tables(ld.map);
    if (ld.why_not_all)
        gc_trace_write(trace, GC_TRACE_INFO, "shard map: not routing by key: %s", ld.why_not_all);
    gc_trace_write(trace, GC_TRACE_INFO, "shard map: %d tables loaded", ld.map->ntables);
    return ld.map;
}
