/*
 * gc_topology_memory: the last topology each set of connection settings led
 * to in this process (gc_topology_remember / gc_topology_recall). A few
 * entries, the oldest replaced first: a process seldom talks to more than
 * one or two clusters.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "global/gc_topology.h"

enum { REMEMBERED_MAX = 8 };

typedef struct remembered {
    char *key;              /* NULL: a free slot */
    gc_topology topo;
    unsigned long stamp;    /* when it was stored; the smallest goes first */
} remembered;

/* memory_lock guards slots and clock. */
static pthread_mutex_t memory_lock = PTHREAD_MUTEX_INITIALIZER;
static remembered slots[REMEMBERED_MAX];
static unsigned long clock_now;

/* The slot holding key, else a free one, else the oldest (lock held). */
static remembered *slot_for(const char *key)
{
    remembered *oldest = &slots[0];
    for (int i = 0; i < REMEMBERED_MAX; i++) {
        if (slots[i].key != NULL && strcmp(slots[i].key, key) == 0)
            return &slots[i];
    }
    for (int i = 0; i < REMEMBERED_MAX; i++) {
        if (slots[i].key == NULL)
            return &slots[i];
        if (slots[i].stamp < oldest->stamp)
            oldest = &slots[i];
    }
    return oldest;
}

void gc_topology_remember(const char *key, const gc_topology *t)
{
    gc_topology copy;
    gc_error err;
    char *key_copy = strdup(key);
    if (key_copy == NULL || !gc_topology_copy(t, &copy, &err)) {
        free(key_copy);   /* only a guess is lost */
        return;
    }
    pthread_mutex_lock(&memory_lock);
    remembered *r = slot_for(key);
    gc_topology old = r->topo;
    char *old_key = r->key;
    r->key = key_copy;
    r->topo = copy;
    r->stamp = ++clock_now;
    pthread_mutex_unlock(&memory_lock);
    free(old_key);
    gc_topology_free(&old);
}

bool gc_topology_recall(const char *key, gc_topology *out)
{
    gc_error err;
    bool found = false;
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&memory_lock);
    for (int i = 0; i < REMEMBERED_MAX && !found; i++) {
        if (slots[i].key != NULL && strcmp(slots[i].key, key) == 0)
            found = gc_topology_copy(&slots[i].topo, out, &err);
    }
    pthread_mutex_unlock(&memory_lock);
    return found;
}
