/*
 * gc_key_cache: keys a global connection drew from sharded tables'
 * sequences ahead of need, kept for its next INSERTs (SequenceCache), as a
 * sequence's own CACHE keeps values in one server session. Values are
 * unique in the cluster once drawn (gcctl interleaves the sequences), so
 * any of them serves any later INSERT of the same sequence. Draws grow:
 * the first takes only what its INSERT needs, each later one as many more
 * as the connection drew of that sequence before, up to the limit, so a
 * connection that inserts one row wastes no value and one that inserts
 * many saves most of its draws. Keys belong to one shard map (its epoch):
 * a new map may name a new sequence of the same name, and the keys of the
 * old one are dropped.
 */
#ifndef GC_KEY_CACHE_H
#define GC_KEY_CACHE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct gc_key_cache gc_key_cache;

/* An empty cache; NULL when memory runs out. */
gc_key_cache *gc_key_cache_create(void);
void gc_key_cache_destroy(gc_key_cache *c);

/* Moves up to n keys of sequence, drawn under the map of `epoch`, into out
 * (in the order drawn); returns how many. Keys of another epoch are
 * dropped. */
int gc_key_cache_take(gc_key_cache *c, const char *sequence, unsigned long epoch, int n,
                      int64_t *out);

/* Keys the next draw of sequence should take beyond its need: as many as
 * were drawn of it before (under epoch), at most limit - 1 (limit: the
 * SequenceCache setting, >= 1). */
int gc_key_cache_spare(gc_key_cache *c, const char *sequence, unsigned long epoch, int limit);

/* Records a draw of `drawn` keys of sequence and keeps spare[0..n_spare)
 * of them for later INSERTs. False when memory runs out: the spare keys
 * are lost, as a closed session's cached values are. */
bool gc_key_cache_drew(gc_key_cache *c, const char *sequence, unsigned long epoch, int drawn,
                       const int64_t *spare, int n_spare);

#endif
