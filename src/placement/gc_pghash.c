/* Byte, integer and per-type hashes equal to PostgreSQL 15's extended hashes
 * (see gc_pghash.h). Written from the behaviour described in the design notes
 * and checked against a server; the numeric hash is in gc_pghash_numeric.c. */
#include "placement/gc_pghash.h"

#include <assert.h>
#include <string.h>

/* The combine constant of the server's hash_combine64. */
#define GC_PGHASH_COMBINE_K UINT64_C(0x49a0f4dd15e5a8e3)
/* Starting value of a, b and c before the length is added. */
#define GC_PGHASH_INIT (UINT32_C(0x9e3779b9) + UINT32_C(3923095))

static inline uint32_t rot32(uint32_t x, unsigned k)
{
    return (x << k) | (x >> (32 - k));
}

static inline void mix(uint32_t *a, uint32_t *b, uint32_t *c)
{
    *a -= *c; *a ^= rot32(*c, 4);  *c += *b;
    *b -= *a; *b ^= rot32(*a, 6);  *a += *c;
    *c -= *b; *c ^= rot32(*b, 8);  *b += *a;
    *a -= *c; *a ^= rot32(*c, 16); *c += *b;
    *b -= *a; *b ^= rot32(*a, 19); *a += *c;
    *c -= *b; *c ^= rot32(*b, 4);  *b += *a;
}

static inline void final(uint32_t *a, uint32_t *b, uint32_t *c)
{
    *c ^= *b; *c -= rot32(*b, 14);
    *a ^= *c; *a -= rot32(*c, 11);
    *b ^= *a; *b -= rot32(*a, 25);
    *c ^= *b; *c -= rot32(*b, 16);
    *a ^= *c; *a -= rot32(*c, 4);
    *b ^= *a; *b -= rot32(*a, 14);
    *c ^= *b; *c -= rot32(*b, 24);
}

/* Little-endian 32-bit word at p, whatever the host's byte order: the server
 * we match is little-endian. */
static inline uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Sets a, b, c for a key of len bytes and folds in the seed. The length is
 * truncated to 32 bits, as the server does. */
static void start_state(uint32_t *a, uint32_t *b, uint32_t *c, size_t len, uint64_t seed)
{
    *a = *b = *c = GC_PGHASH_INIT + (uint32_t)len;
    if (seed != 0) {
        *a += (uint32_t)(seed >> 32);
        *b += (uint32_t)seed;
        mix(a, b, c);
    }
}

static inline uint64_t result_of(uint32_t b, uint32_t c)
{
    return ((uint64_t)b << 32) | c;
}

/* Prepares s to hash exactly total_len bytes with the given seed. */
void gc_pghash_stream_start(gc_pghash_stream *s, size_t total_len, uint64_t seed)
{
    assert(s != NULL);
    start_state(&s->a, &s->b, &s->c, total_len, seed);
    s->total = total_len;
    s->fed = 0;
    s->in_block = 0;
}

/* Feeds len more bytes. Every full 12-byte block is mixed at once: the server
 * mixes while 12 or more bytes remain, so a tail is never a whole block. */
void gc_pghash_stream_feed(gc_pghash_stream *s, const void *k, size_t len)
{
    assert(s != NULL);
    assert(len == 0 || k != NULL);
    assert(s->fed + len <= s->total);
    const unsigned char *p = k;
    s->fed += len;
    while (len > 0) {
        size_t take = sizeof s->block - s->in_block;
        if (take > len)
            take = len;
        memcpy(s->block + s->in_block, p, take);
        s->in_block += take;
        p += take;
        len -= take;
        if (s->in_block == sizeof s->block) {
            s->a += le32(s->block);
            s->b += le32(s->block + 4);
            s->c += le32(s->block + 8);
            mix(&s->a, &s->b, &s->c);
            s->in_block = 0;
        }
    }
}

/* Adds the 0..11 tail bytes and returns the hash. c's low byte is left for
 * the length in the original design, so the tail bytes 8..10 go above it. */
uint64_t gc_pghash_stream_finish(gc_pghash_stream *s)
{
    assert(s != NULL);
    assert(s->fed == s->total);
    const unsigned char *t = s->block;
    switch (s->in_block) {
    case 11: s->c += (uint32_t)t[10] << 24; /* fall through */
    case 10: s->c += (uint32_t)t[9] << 16;  /* fall through */
    case 9:  s->c += (uint32_t)t[8] << 8;   /* fall through */
    case 8:  s->b += (uint32_t)t[7] << 24;  /* fall through */
    case 7:  s->b += (uint32_t)t[6] << 16;  /* fall through */
    case 6:  s->b += (uint32_t)t[5] << 8;   /* fall through */
    case 5:  s->b += t[4];                  /* fall through */
    case 4:  s->a += (uint32_t)t[3] << 24;  /* fall through */
    case 3:  s->a += (uint32_t)t[2] << 16;  /* fall through */
    case 2:  s->a += (uint32_t)t[1] << 8;   /* fall through */
    case 1:  s->a += t[0];                  /* fall through */
    default: break;
    }
    final(&s->a, &s->b, &s->c);
    return result_of(s->b, s->c);
}

/* Hash of len bytes at k (k may be NULL when len is 0). */
uint64_t gc_pghash_bytes(const void *k, size_t len, uint64_t seed)
{
    gc_pghash_stream s;
    gc_pghash_stream_start(&s, len, seed);
    gc_pghash_stream_feed(&s, k, len);
    return gc_pghash_stream_finish(&s);
}

/* Hash of one 32-bit value: the 4-byte start, then the value added to a. */
uint64_t gc_pghash_uint32(uint32_t k, uint64_t seed)
{
    uint32_t a, b, c;
    start_state(&a, &b, &c, 4, seed);
    a += k;
    final(&a, &b, &c);
    return result_of(b, c);
}

uint64_t gc_pghash_int2(int16_t v, uint64_t seed)
{
    return gc_pghash_uint32((uint32_t)(int32_t)v, seed);
}

uint64_t gc_pghash_int4(int32_t v, uint64_t seed)
{
    return gc_pghash_uint32((uint32_t)v, seed);
}

/* Folds the high word into the low one so that values in int32 range hash
 * as int4 (negative values fold the complement, which is then zero too). */
uint64_t gc_pghash_int8(int64_t v, uint64_t seed)
{
    uint32_t lo = (uint32_t)(uint64_t)v;
    /* Arithmetic shift without relying on implementation-defined >>. */
    uint32_t hi = (uint32_t)((uint64_t)v >> 32);
    lo ^= v >= 0 ? hi : ~hi;
    return gc_pghash_uint32(lo, seed);
}

uint64_t gc_pghash_oid(uint32_t v, uint64_t seed)
{
    return gc_pghash_uint32(v, seed);
}

uint64_t gc_pghash_bool(bool v, uint64_t seed)
{
    return gc_pghash_uint32(v ? 1u : 0u, seed);
}

/* The server widens "char" through C char, which is signed on x86-64: bytes
 * 0x80..0xFF become negative int32s. On a server where char is unsigned
 * (aarch64 Linux) those bytes hash differently; callers must refuse to route
 * "char" keys there. */
uint64_t gc_pghash_char(char v, uint64_t seed)
{
    return gc_pghash_uint32((uint32_t)(int32_t)(signed char)v, seed);
}

uint64_t gc_pghash_date(int32_t days_since_2000, uint64_t seed)
{
    return gc_pghash_int4(days_since_2000, seed);
}

uint64_t gc_pghash_timestamp(int64_t usecs_since_2000, uint64_t seed)
{
    return gc_pghash_int8(usecs_since_2000, seed);
}

uint64_t gc_pghash_text(const char *s, size_t len, uint64_t seed)
{
    return gc_pghash_bytes(s, len, seed);
}

/* bpchar ignores trailing blanks: 'ab' and 'ab  ' are equal, so they must
 * hash alike. Only 0x20 counts as a blank. */
uint64_t gc_pghash_bpchar(const char *s, size_t len, uint64_t seed)
{
    while (len > 0 && s[len - 1] == ' ')
        len--;
    return gc_pghash_bytes(s, len, seed);
}

uint64_t gc_pghash_bytea(const void *p, size_t len, uint64_t seed)
{
    return gc_pghash_bytes(p, len, seed);
}

uint64_t gc_pghash_uuid(const unsigned char uuid[16], uint64_t seed)
{
    return gc_pghash_bytes(uuid, 16, seed);
}

uint64_t gc_pghash_combine(uint64_t a, uint64_t b)
{
    return a ^ (b + GC_PGHASH_COMBINE_K + (a << 54) + (a >> 7));
}

uint64_t gc_pghash_row(const uint64_t *column_hashes, const bool *is_null, size_t n)
{
    assert(n == 0 || column_hashes != NULL);
    uint64_t row = 0;
    for (size_t i = 0; i < n; i++) {
        if (is_null != NULL && is_null[i])
            continue;
        row = gc_pghash_combine(row, column_hashes[i]);
    }
    return row;
}

bool gc_pghash_in_partition(uint64_t row_hash, uint64_t modulus, uint64_t remainder)
{
    assert(modulus > 0);
    return row_hash % modulus == remainder;
}
