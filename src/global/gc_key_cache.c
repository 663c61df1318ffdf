/*
 * gc_key_cache: a short list of sequences, each with the keys left over
 * from its draws. A connection inserts into few tables, so a linear search
 * is enough.
 */
#include <stdlib.h>
#include <string.h>

#include "global/gc_key_cache.h"

typedef struct cached_sequence {
    char *name;
    int64_t *keys;       /* keys[next..count) are unused */
    int next, count;
    long long drawn;     /* keys drawn of it under the epoch */
} cached_sequence;

struct gc_key_cache {
    unsigned long epoch;
    cached_sequence *seqs;
    int n;
};

gc_key_cache *gc_key_cache_create(void)
{
    return calloc(1, sizeof(gc_key_cache));
}

static void forget_all(gc_key_cache *c)
{
    for (int s = 0; s < c->n; s++) {
        free(c->seqs[s].name);
        free(c->seqs[s].keys);
    }
    free(c->seqs);
    c->seqs = NULL;
    c->n = 0;
}

void gc_key_cache_destroy(gc_key_cache *c)
{
    if (c == NULL)
        return;
    forget_all(c);
    free(c);
}

/* The entry of sequence under epoch, made when `make` (NULL when it is not
 * there, or memory runs out); everything of an older epoch forgotten
 * first. */
static cached_sequence *find(gc_key_cache *c, const char *sequence, unsigned long epoch, bool make)
{
    if (c->epoch != epoch) {
        forget_all(c);
        c->epoch = epoch;
    }
    for (int s = 0; s < c->n; s++)
        if (strcmp(c->seqs[s].name, sequence) == 0)
            return &c->seqs[s];
    if (!make)
        return NULL;
    cached_sequence *seqs = realloc(c->seqs, (size_t)(c->n + 1) * sizeof *seqs);
    if (seqs == NULL)
        return NULL;
    c->seqs = seqs;
    cached_sequence *e = &seqs[c->n];
    *e = (cached_sequence){ .name = strdup(sequence) };
    if (e->name == NULL)
        return NULL;
    c->n++;
    return e;
}

int gc_key_cache_take(gc_key_cache *c, const char *sequence, unsigned long epoch, int n,
                      int64_t *out)
{
    cached_sequence *e = find(c, sequence, epoch, false);
    if (e == NULL)
        return 0;
    int taken = e->count - e->next < n ? e->count - e->next : n;
    if (taken <= 0)
        return 0;
    memcpy(out, e->keys + e->next, (size_t)taken * sizeof *out);
    e->next += taken;
    return taken;
}

int gc_key_cache_spare(gc_key_cache *c, const char *sequence, unsigned long epoch, int limit)
{
    cached_sequence *e = find(c, sequence, epoch, false);
    long long before = e != NULL ? e->drawn : 0;
    return before < limit - 1 ? (int)before : limit - 1;
}

bool gc_key_cache_drew(gc_key_cache *c, const char *sequence, unsigned long epoch, int drawn,
                       const int64_t *spare, int n_spare)
{
    cached_sequence *e = find(c, sequence, epoch, true);
    if (e == NULL)
        return false;
    e->drawn += drawn;
    if (n_spare <= 0)
        return true;
    /* What is left of earlier draws goes first, then the new keys. */
    int left = e->count - e->next;
    int64_t *all = malloc((size_t)(left + n_spare) * sizeof *all);
    if (all == NULL)
        return false;
    if (left > 0)
        memcpy(all, e->keys + e->next, (size_t)left * sizeof *all);
    memcpy(all + left, spare, (size_t)n_spare * sizeof *all);
    free(e->keys);
    e->keys = all;
    e->next = 0;
    e->count = left + n_spare;
    return true;
}
