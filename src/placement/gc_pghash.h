/* PostgreSQL 15 hash partition placement, reproduced on the client.
 *
 * The server places a row in a hash partition by hashing each key column with
 * its type's extended hash (support function 2 of the hash opclass), seeded
 * with GC_PGHASH_PARTITION_SEED, combining the column hashes, and taking the
 * result modulo the partition's modulus. These functions compute the same
 * numbers, bit for bit, for a little-endian server whose C char is signed.
 * All are pure: no allocation, no state, safe from any thread.
 *
 * Values come in their server form: text in the server encoding, dates as
 * days since 2000-01-01, timestamps as microseconds since 2000-01-01 (UTC for
 * timestamptz), numerics as decimal text already rounded to the column's
 * typmod. */
#ifndef GC_PGHASH_H
#define GC_PGHASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The seed the server uses for partition routing (HASH_PARTITION_SEED). */
#define GC_PGHASH_PARTITION_SEED UINT64_C(0x7A5B22367996DCFD)

/* Incremental form of gc_pghash_bytes(), for callers that produce the bytes
 * piece by piece. The total length must be known up front: it is part of the
 * starting state. */
typedef struct gc_pghash_stream {
    uint32_t a, b, c;
    size_t total;        /* length announced at start */
    size_t fed;          /* bytes fed so far */
    unsigned char block[12];
    size_t in_block;     /* bytes waiting in block (0..11) */
} gc_pghash_stream;

void gc_pghash_stream_start(gc_pghash_stream *s, size_t total_len, uint64_t seed);
void gc_pghash_stream_feed(gc_pghash_stream *s, const void *k, size_t len);
uint64_t gc_pghash_stream_finish(gc_pghash_stream *s);

/* The byte-string hash (a lookup3 variant) and its 32-bit-integer form. */
uint64_t gc_pghash_bytes(const void *k, size_t len, uint64_t seed);
uint64_t gc_pghash_uint32(uint32_t k, uint64_t seed);

/* Per-type extended hashes H(value, seed). */
uint64_t gc_pghash_int2(int16_t v, uint64_t seed);
uint64_t gc_pghash_int4(int32_t v, uint64_t seed);
uint64_t gc_pghash_int8(int64_t v, uint64_t seed);
uint64_t gc_pghash_oid(uint32_t v, uint64_t seed);
uint64_t gc_pghash_bool(bool v, uint64_t seed);
uint64_t gc_pghash_char(char v, uint64_t seed);          /* the "char" type */
uint64_t gc_pghash_date(int32_t days_since_2000, uint64_t seed);
uint64_t gc_pghash_timestamp(int64_t usecs_since_2000, uint64_t seed);
uint64_t gc_pghash_text(const char *s, size_t len, uint64_t seed); /* text, varchar */
uint64_t gc_pghash_bpchar(const char *s, size_t len, uint64_t seed);
uint64_t gc_pghash_bytea(const void *p, size_t len, uint64_t seed);
uint64_t gc_pghash_uuid(const unsigned char uuid[16], uint64_t seed);

/* numeric from its decimal text ("-12.50", "1.5e3", "NaN", "-Infinity";
 * surrounding blanks allowed). Stores H in *out and returns true; returns
 * false, leaving *out alone, for text the server would not accept as a
 * numeric (or that lies outside numeric's range). */
bool gc_pghash_numeric_text(const char *text, size_t len, uint64_t seed, uint64_t *out);

/* Row hash: fold one column hash into the running row hash (start at 0). */
uint64_t gc_pghash_combine(uint64_t a, uint64_t b);

/* Row hash of n key columns in key order; is_null may be NULL (no NULLs).
 * NULL columns are skipped; all NULL gives 0. */
uint64_t gc_pghash_row(const uint64_t *column_hashes, const bool *is_null, size_t n);

/* True when a row hash lands in the partition (MODULUS m, REMAINDER r). */
bool gc_pghash_in_partition(uint64_t row_hash, uint64_t modulus, uint64_t remainder);

#endif
