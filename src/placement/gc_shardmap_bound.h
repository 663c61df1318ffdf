/*
 * gc_shardmap_bound: one partition's bound, read from the text
 * pg_get_expr(relpartbound) prints, and the choice of a partition for a key
 * among a partitioned table's bounds, as PostgreSQL 15 chooses it.
 * Part of gc_shardmap; declared separately so unit tests can drive it.
 */
#ifndef GC_SHARDMAP_BOUND_H
#define GC_SHARDMAP_BOUND_H

#include <stdbool.h>
#include <stdint.h>

#include "placement/gc_keyval.h"

typedef enum gc_bound_kind {
    GC_BOUND_HASH,      /* FOR VALUES WITH (modulus m, remainder r) */
    GC_BOUND_RANGE,     /* FOR VALUES FROM (...) TO (...) */
    GC_BOUND_LIST,      /* FOR VALUES IN (...) */
    GC_BOUND_DEFAULT,   /* DEFAULT */
} gc_bound_kind;

typedef enum gc_range_datum_kind {
    GC_RANGE_VALUE,
    GC_RANGE_MINVALUE,
    GC_RANGE_MAXVALUE,
} gc_range_datum_kind;

typedef struct gc_range_datum {
    gc_range_datum_kind kind;
    gc_keyval value;    /* GC_RANGE_VALUE only; owns its bytes */
} gc_range_datum;

typedef struct gc_part_bound {
    gc_bound_kind kind;
    uint64_t modulus, remainder;         /* hash */
    int ncols;                           /* range: one datum per key column */
    gc_range_datum *lower, *upper;       /* lower inclusive, upper exclusive */
    int nvalues;                         /* list: the non-NULL values */
    gc_keyval *values;
    bool has_null;                       /* list: NULL is listed */
} gc_part_bound;

/* Parses a bound for a table whose key has nkeys columns of types/typmods.
 * False with *why (static text) when the text is not a bound the driver
 * understands or a value does not parse. Free with gc_part_bound_free. */
bool gc_part_bound_parse(const char *text, const gc_keytype *types, int nkeys,
                         gc_part_bound *out, const char **why);
void gc_part_bound_free(gc_part_bound *b);

/* Compares a key row with a range bound row, column by column; a MINVALUE
 * or MAXVALUE column decides regardless of later columns. Negative when the
 * key sorts below the bound, zero when equal, positive when above. */
int gc_range_compare_key(const gc_range_datum *bound, const gc_keyval *key, int n);

/* Chooses the partition of a key among nparts bounds of one partitioned
 * table with strategy 'h', 'r' or 'l' (key: nkeys values, NULLs allowed).
 * Returns the index, or -1 with *why when no partition takes the row (the
 * server would raise an error). Pure. */
int gc_part_choose(char strategy, const gc_part_bound *bounds, int nparts,
                   const gc_keyval *key, int nkeys, const char **why);

/* The hash partitions of one table found by the row hash's remainder at
 * the greatest modulus instead of by trying each bound: PostgreSQL makes
 * every modulus of a table divide the next larger one, so h % m == r
 * exactly when (h % greatest) % m == r. slot[r] is the first partition
 * (in bound order) taking remainder r, -1 when none does. Built once per
 * partitioned table; modulus 0 when it does not apply (not all bounds are
 * hash bounds, a modulus that does not divide the greatest, or more than
 * GC_HASH_SLOTS_MAX remainders): the bounds are then tried one by one. */
#define GC_HASH_SLOTS_MAX 4096
typedef struct gc_hash_slots {
    uint64_t modulus;
    int *slot;          /* modulus entries; owned */
} gc_hash_slots;

/* Builds slots for nparts bounds; false only when out of memory (slots
 * then modulus 0). */
bool gc_hash_slots_build(const gc_part_bound *bounds, int nparts, gc_hash_slots *slots);
void gc_hash_slots_free(gc_hash_slots *slots);

/* gc_part_choose with the table's hash slots (NULL or modulus 0: tried one
 * by one); the same answer either way. */
int gc_part_choose_slotted(char strategy, const gc_part_bound *bounds, int nparts,
                           const gc_hash_slots *slots, const gc_keyval *key, int nkeys,
                           const char **why);

#endif
