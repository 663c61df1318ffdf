/* The process-wide shard map cache (see gc_shardmap_cache_get). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "global/gc_shardmap_internal.h"

/* One (cluster, version) slot. While `loading`, one caller is reading the
 * catalog and the others wait on cache_cond. */
typedef struct cache_entry {
    char *cluster;
    int64_t version;
    gc_shardmap *map;       /* the cache's own reference; NULL while loading */
    bool loading;
    struct cache_entry *next;
} cache_entry;

/* cache_lock guards cache_head and every entry reachable from it. */
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cache_cond = PTHREAD_COND_INITIALIZER;
static cache_entry *cache_head;

static cache_entry *find_entry(const char *cluster, int64_t version)
{
    for (cache_entry *e = cache_head; e; e = e->next)
        if (e->version == version && strcmp(e->cluster, cluster) == 0)
            return e;
    return NULL;
}

/* Unlinks and frees an entry (lock held); releases the cache's reference. */
static void drop_entry(cache_entry *victim)
{
    for (cache_entry **pp = &cache_head; *pp; pp = &(*pp)->next) {
        if (*pp == victim) {
            *pp = victim->next;
            break;
        }
    }
    gc_shardmap_release(victim->map);
    free(victim->cluster);
    free(victim);
}

/* Drops the maps of versions older than `version` (lock held): connections
 * still holding one keep it alive until they release it. */
static void drop_older(const char *cluster, int64_t version)
{
    cache_entry *e = cache_head;
    while (e) {
        cache_entry *next = e->next;
        if (!e->loading && e->version < version && strcmp(e->cluster, cluster) == 0)
            drop_entry(e);
        e = next;
    }
}

/* Returns the cached map for (cluster, version), loading it on a miss; one
 * load per key even when many threads ask at once. */
gc_shardmap *gc_shardmap_cache_get(const char *cluster, int64_t version,
                                   gc_member *session, const gc_topology *topo,
                                   int local_group, gc_trace *trace, gc_error *err)
{
    if (!cluster)
        cluster = "";
    pthread_mutex_lock(&cache_lock);
    for (;;) {
        cache_entry *e = find_entry(cluster, version);
        if (!e)
            break;
        if (!e->loading) {
            gc_shardmap *map = gc_shardmap_retain(e->map);
            pthread_mutex_unlock(&cache_lock);
            return map;
        }
        /* Another caller is loading this key: wait for its result. A failed
         * load removes the entry, and the loop then loads afresh. */
        pthread_cond_wait(&cache_cond, &cache_lock);
    }
    cache_entry *e = calloc(1, sizeof *e);
    if (!e || !(e->cluster = strdup(cluster))) {
        free(e);
        pthread_mutex_unlock(&cache_lock);
        gc_error_set(err, "HY001", 0, "out of memory");
        return NULL;
    }
    e->version = version;
    e->loading = true;
    e->next = cache_head;
    cache_head = e;
    pthread_mutex_unlock(&cache_lock);

    gc_shardmap *map = gc_shardmap_load(session, topo, local_group, trace, err);

    pthread_mutex_lock(&cache_lock);
    e->loading = false;
    if (map) {
        e->map = map;   /* the load's reference becomes the cache's */
        gc_shardmap_retain(map);
        drop_older(cluster, version);
    } else {
        drop_entry(e);
    }
    pthread_cond_broadcast(&cache_cond);
    pthread_mutex_unlock(&cache_lock);
    return map;
}
