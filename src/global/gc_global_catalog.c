/*
 * gc_global_catalog: catalog reads that fail over (docs/failover.md,
 * "Catalog reads and RECONNECT"). Every group carries the gcluster
 * catalog, so any member that answers can serve a read of it: the version
 * check, the topology, the shard map. A read goes to a preferred member
 * (the session that LISTENs, or the one the caller names) and, when that
 * fails, to each other open and idle member in turn, primaries first; a
 * session that died
 * under the read is marked down and handed to the reconnect schedule like
 * any member that failed under a statement.
 */
#include <assert.h>

#include "global/gc_global_internal.h"

#include "member/gc_member_notify.h"

/* Whether member i can take a catalog read now. */
static bool can_read(const gc_global *g, int i)
{
    gc_member *m = g->members[i];
    return gc_member_is_open(m) && !gc_member_busy(m) &&
           gc_member_txn_status(m) == PQTRANS_IDLE;
}

/* Runs read on member i (see gc_global_catalog_read); false when it did
 * not serve. */
static bool read_on(gc_global *g, int i, gc_catalog_read_fn read, void *ctx, gc_error *err)
{
    gc_member *m = g->members[i];
    unsigned long generation = gc_member_generation(m);
    gc_error_clear(err);
    if (read(g, i, ctx, err))
        return true;
    if (gc_member_is_open(m)) {
        gc_trace_write(g->trace, GC_TRACE_INFO, "catalog read on %s: %s",
                       g->topo.members[i].name, err->message);
        return false;
    }
    gc_trace_write(g->trace, GC_TRACE_INFO,
                   "catalog read on %s: session lost (%s): reading on another member",
                   g->topo.members[i].name, err->message);
    gc_global_member_failed(g, i, generation, err);
    return false;
}

int gc_global_catalog_read(gc_global *g, int preferred, gc_catalog_read_fn read, void *ctx,
                           gc_error *err)
{
    bool tried = false;
    if (preferred >= 0 && can_read(g, preferred)) {
        tried = true;
        if (read_on(g, preferred, read, ctx, err))
            return preferred;
    }
    /* Primaries before standbys: a standby replays its primary's catalog
     * and may lag (or stay behind with a dead primary). */
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < g->topo.n_members; i++) {
            bool primary = gc_member_get_role(g->members[i]) == GC_ROLE_PRIMARY;
            if (i == preferred || primary != (pass == 0) || !can_read(g, i))
                continue;
            tried = true;
            if (read_on(g, i, read, ctx, err))
                return i;
        }
    }
    if (!tried)
        gc_error_set(err, "08S01", 0, "no member of the cluster is open to read the catalog");
    return -1;
}

/* One shard map load (a gc_catalog_read_fn): ctx is the map's place. */
static bool read_shardmap(gc_global *g, int i, void *ctx, gc_error *err)
{
    gc_shardmap **map = ctx;
    *map = gc_shardmap_cache_get(g->topo.cluster != NULL ? g->topo.cluster : "",
                                 g->topo.version, g->members[i], &g->topo,
                                 g->topo.members[i].group, g->trace, err);
    return *map != NULL;
}

void gc_global_load_shardmap(gc_global *g, int preferred)
{
    gc_global_forget_transaction_shardmap(g);
    if (g->map != NULL)
        gc_shardmap_release(g->map);
    g->map = NULL;
    g->map_epoch++;    /* what routing remembered of the old map is gone */
    gc_error err;
    gc_error_clear(&err);
    gc_shardmap *map = NULL;
    if (gc_global_catalog_read(g, preferred, read_shardmap, &map, &err) >= 0)
        g->map = map;
    else
        gc_trace_write(g->trace, GC_TRACE_INFO,
                       "no shard map (%s): every statement goes by LocalityGroupPolicy",
                       err.message);
}

/* g->map becomes `to` (one reference, taken): what routing remembered of
 * the old map points into it no longer. The old map's reference is kept as
 * the committed one, or dropped when it was a transaction's. */
static void switch_map(gc_global *g, gc_shardmap *to, bool to_transaction)
{
    assert(to != NULL && g->map != NULL);
    gc_global_writes_remap(g, to);
    g->n_split_keys = -1;
    g->map_epoch++;
    if (to_transaction && g->committed_map == NULL)
        g->committed_map = g->map;
    else
        gc_shardmap_release(g->map);
    g->map = to;
    g->txn_map_stale = false;
}

void gc_global_follow_transaction_catalog(gc_global *g)
{
    /* Without a map there is no cluster catalog to follow. */
    if (g->pinned < 0 || g->map == NULL)
        return;
    int pin = g->pinned;
    gc_error err;
    gc_error_clear(&err);
    gc_shardmap *map = gc_shardmap_load(g->members[pin], &g->topo, g->topo.members[pin].group,
                                        g->trace, &err);
    if (map == NULL) {
        gc_trace_write(g->trace, GC_TRACE_INFO, "the transaction's shard map was not read on "
                       "%s (%s): routing keeps the map it had",
                       g->topo.members[pin].name, err.message);
        return;
    }
    switch_map(g, map, true);
    gc_trace_write(g->trace, GC_TRACE_INFO, "routing follows the catalog as the open "
                   "transaction's DDL left it (read on %s)", g->topo.members[pin].name);
}

void gc_global_forget_transaction_shardmap(gc_global *g)
{
    gc_shardmap *committed = g->committed_map;
    if (committed == NULL)
        return;
    g->committed_map = NULL;
    switch_map(g, committed, false);
}
