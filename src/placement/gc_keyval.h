/*
 * gc_keyval: the value PostgreSQL compares and hashes for a sharding key,
 * read from the key's text form (a bound parameter, a literal, or a bound
 * printed by pg_get_expr).
 *
 * Parsing follows the server's input functions for the forms applications
 * and the server's own output send, and refuses (returns false) every text
 * whose value the client cannot know exactly: a timestamptz without an
 * explicit UTC offset (its meaning depends on the session TimeZone), digits
 * the column's typmod would round away, date forms that depend on DateStyle,
 * and anything malformed (the server would reject it anyway). Refusing is
 * always safe: the router then falls back to its group policy.
 *
 * A gc_keyval may borrow the text it was parsed from (text, varchar, bpchar);
 * gc_keyval_own() makes it self-contained. gc_keyval_free() releases what it
 * owns. No global state; safe from any thread.
 */
#ifndef GC_KEYVAL_H
#define GC_KEYVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The key types the driver can place, by PostgreSQL type OID. */
typedef enum gc_keytype {
    GC_KEY_UNSUPPORTED = 0,
    GC_KEY_INT2,
    GC_KEY_INT4,
    GC_KEY_INT8,
    GC_KEY_OID,
    GC_KEY_BOOL,
    GC_KEY_CHAR,        /* the one-byte "char" type */
    GC_KEY_DATE,
    GC_KEY_TIMESTAMP,
    GC_KEY_TIMESTAMPTZ,
    GC_KEY_TEXT,
    GC_KEY_VARCHAR,
    GC_KEY_BPCHAR,
    GC_KEY_BYTEA,
    GC_KEY_UUID,
    GC_KEY_NUMERIC,
} gc_keytype;

/* Numeric special values, ordered as the server orders them. */
typedef enum gc_numeric_kind {
    GC_NUM_NEG_INF = 0,
    GC_NUM_FINITE = 1,
    GC_NUM_POS_INF = 2,
    GC_NUM_NAN = 3,     /* NaN sorts above everything and equals itself */
} gc_numeric_kind;

typedef struct gc_keyval {
    gc_keytype type;
    bool is_null;
    /* int2/int4/int8/date/timestamp(tz): the value (days or microseconds
     * since 2000-01-01, UTC for timestamptz); oid: 0..2^32-1; bool: 0/1;
     * "char": the byte as 0..255. */
    int64_t i;
    /* text/varchar/bpchar/bytea: the bytes (bpchar without trailing blanks);
     * uuid: 16 bytes; numeric: the significant decimal digits as ASCII
     * (no leading or trailing zeros; empty for zero). */
    const unsigned char *data;
    size_t len;
    /* numeric only: kind, sign (true = negative), and the power of ten of
     * the first digit (value = 0.d1d2... * 10^exp10). */
    gc_numeric_kind num_kind;
    bool num_negative;
    int32_t num_exp10;
    /* numeric only: the text it was parsed from, for the server's hash. */
    const char *num_text;
    size_t num_text_len;
    unsigned char *owned;   /* heap buffer `data`/`num_text` point into, or NULL */
    unsigned char uuid[16];
} gc_keyval;

/* The key type of a PostgreSQL type OID; GC_KEY_UNSUPPORTED for others. */
gc_keytype gc_keytype_of_oid(unsigned int type_oid);
const char *gc_keytype_name(gc_keytype t);

/* Parses text (len bytes, need not be NUL-terminated) as a value of type t
 * with the column's typmod (-1 when none). text NULL makes an SQL NULL.
 * Returns false, with *why (static text) set, when the value cannot be
 * placed exactly; *out is then empty and owns nothing. On success *out may
 * borrow text (see gc_keyval_own). */
bool gc_keyval_parse(gc_keytype t, int32_t typmod, const char *text, size_t len,
                     gc_keyval *out, const char **why);
/* Copies borrowed bytes into memory the value owns. False on out-of-memory. */
bool gc_keyval_own(gc_keyval *v);
void gc_keyval_free(gc_keyval *v);

/* Orders two non-NULL values of the same type as the type's default btree
 * comparator does (text types by byte order, i.e. the "C" collation):
 * negative, zero or positive. */
int gc_keyval_compare(const gc_keyval *a, const gc_keyval *b);

/* The value's extended hash H(value, seed) as the server's hash opclass
 * computes it (support function 2). False for a type it cannot hash. */
bool gc_keyval_hash(const gc_keyval *v, uint64_t seed, uint64_t *out);

/* Whether text is a timestamp in a form gc_keyval_parse takes but without
 * a UTC offset (not a special value): a timestamptz key the session's
 * TimeZone must complete. *has_time: a time of day is written (else the
 * text is a date alone, midnight). */
bool gc_keyval_timestamp_is_local(const char *text, size_t len, bool *has_time);

#endif
