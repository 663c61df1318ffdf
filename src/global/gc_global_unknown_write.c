/*
 * gc_global_unknown_write: a write to a table the shard map does not know.
 * Another connection may have made it moments ago: its DDL raised the
 * catalog version, but the notification can still be on its way, or
 * unread (the listener is read at most every 25 ms). Routed by the old map,
 * the write would go by policy, to a group where the table may be a solo
 * table's foreign twin: refused in a transaction (0A000), or its serial
 * column NULL (23502). So the version is read first, once per name and
 * map: a table of the node's own (made with a general connection, or a
 * temporary one) costs one round trip per map, not one per write.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "global/gc_global_internal.h"

static bool writes_rows(const gc_analysis *a)
{
    return a->kind == GC_SQL_INSERT || a->kind == GC_SQL_UPDATE || a->kind == GC_SQL_DELETE ||
           a->kind == GC_SQL_MERGE;
}

void gc_global_unknown_writes_free(gc_global *g)
{
    gc_global_unknown_writes *u = &g->unknown_writes;
    for (int k = 0; k < GC_GLOBAL_UNKNOWN_WRITES; k++) {
        free(u->names[k]);
        u->names[k] = NULL;
    }
}

/* Whether the name was checked under the current map; remembers it if not
 * (memory permitting). */
static bool checked_before(gc_global *g, const char *name)
{
    gc_global_unknown_writes *u = &g->unknown_writes;
    if (u->epoch != g->map_epoch) {
        gc_global_unknown_writes_free(g);
        u->epoch = g->map_epoch;
    }
    for (int k = 0; k < GC_GLOBAL_UNKNOWN_WRITES; k++)
        if (u->names[k] != NULL && strcmp(u->names[k], name) == 0)
            return true;
    free(u->names[u->next]);
    u->names[u->next] = strdup(name);
    u->next = (u->next + 1) % GC_GLOBAL_UNKNOWN_WRITES;
    return false;
}

void gc_global_check_unknown_write(gc_global *g, const gc_analysis *a)
{
    if (a == NULL || a->table == NULL || g->map == NULL || g->pinned >= 0 || !writes_rows(a) ||
        gc_global_cluster_table(g, a) != NULL)
        return;
    char name[2 * 64 + 2];
    snprintf(name, sizeof name, "%s.%s", a->schema != NULL ? a->schema : "", a->table);
    if (checked_before(g, name))
        return;
    int i = gc_global_catalog_query_member(g);
    if (i < 0)
        return;
    gc_error err;
    gc_error_clear(&err);
    int64_t version = gc_global_read_catalog_version(g, i, &err);
    gc_trace_write(g->trace, GC_TRACE_INFO, "a write of %s, a table the shard map does not "
                   "know: catalog version %lld (the map's %lld)", name, (long long)version,
                   (long long)g->topo.version);
    gc_global_refresh_heard(g, version);
}
