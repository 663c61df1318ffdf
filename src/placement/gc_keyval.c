/* Key values from text, compared and hashed as PostgreSQL does (see header). */
#include "placement/gc_keyval.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "placement/gc_keyval_datetime.h"
#include "placement/gc_pghash.h"
#include "util/gc_hex.h"
#include "util/gc_utf16.h"

/* The C locale's isspace/isdigit, independent of the process locale. */
static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* VARHDRSZ: typmods of varchar, bpchar and numeric carry it. */
#define TYPMOD_HEADER 4

gc_keytype gc_keytype_of_oid(unsigned int type_oid)
{
    switch (type_oid) {
    case 21: return GC_KEY_INT2;
    case 23: return GC_KEY_INT4;
    case 20: return GC_KEY_INT8;
    case 26: return GC_KEY_OID;
    case 16: return GC_KEY_BOOL;
    case 18: return GC_KEY_CHAR;
    case 1082: return GC_KEY_DATE;
    case 1114: return GC_KEY_TIMESTAMP;
    case 1184: return GC_KEY_TIMESTAMPTZ;
    case 25: return GC_KEY_TEXT;
    case 1043: return GC_KEY_VARCHAR;
    case 1042: return GC_KEY_BPCHAR;
    case 17: return GC_KEY_BYTEA;
    case 2950: return GC_KEY_UUID;
    case 1700: return GC_KEY_NUMERIC;
    default: return GC_KEY_UNSUPPORTED;
    }
}

const char *gc_keytype_name(gc_keytype t)
{
    static const char *const names[] = {
        "unsupported", "int2", "int4", "int8", "oid", "bool", "\"char\"", "date",
        "timestamp", "timestamptz", "text", "varchar", "bpchar", "bytea", "uuid",
        "numeric",
    };
    return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "unsupported";
}

/* The integer input functions: blanks, an optional sign, at least one digit,
 * blanks; out-of-range values are errors. */
static bool parse_integer(const char *s, size_t len, int64_t min, int64_t max, int64_t *out)
{
    const char *p = s, *end = s + len;
    while (p < end && is_blank(*p))
        p++;
    bool neg = false;
    if (p < end && (*p == '+' || *p == '-'))
        neg = *p++ == '-';
    if (p == end || !is_digit(*p))
        return false;
    /* Accumulate negatively so INT64_MIN fits; the overflow test compares
     * with constants (no division per digit: every routed key is parsed). */
    int64_t v = 0;
    while (p < end && is_digit(*p)) {
        int d = *p++ - '0';
        if (v < INT64_MIN / 10 || (v == INT64_MIN / 10 && d > -(INT64_MIN % 10)))
            return false;
        v = v * 10 - d;
    }
    while (p < end && is_blank(*p))
        p++;
    if (p != end)
        return false;
    if (!neg) {
        if (v == INT64_MIN)
            return false;
        v = -v;
    }
    if (v < min || v > max)
        return false;
    *out = v;
    return true;
}

/* boolin: blanks trimmed; any unambiguous prefix of true/false/yes/no,
 * at least two letters of on/off, or 1/0; case-insensitive. */
static bool parse_bool(const char *s, size_t len, int64_t *out)
{
    while (len > 0 && is_blank(*s))
        s++, len--;
    while (len > 0 && is_blank(s[len - 1]))
        len--;
    if (len == 0)
        return false;
    static const struct { const char *word; size_t min; int value; } words[] = {
        {"true", 1, 1}, {"false", 1, 0}, {"yes", 1, 1}, {"no", 1, 0},
        {"on", 2, 1}, {"off", 2, 0}, {"1", 1, 1}, {"0", 1, 0},
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (len >= words[i].min && len <= strlen(words[i].word) &&
            strncasecmp(s, words[i].word, len) == 0) {
            *out = words[i].value;
            return true;
        }
    }
    return false;
}

/* charin: the first byte, or a backslash and three octal digits (the form
 * the server prints for bytes that are not printable ASCII). */
static int64_t parse_char(const char *s, size_t len)
{
    if (len == 4 && s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
        s[2] <= '7' && s[3] >= '0' && s[3] <= '7')
        return ((s[1] - '0') << 6) | ((s[2] - '0') << 3) | (s[3] - '0');
    return len > 0 ? (unsigned char)s[0] : 0;
}

/* byteain: '\x' hex (blanks allowed between byte pairs) or the escape
 * format (\\ and \ooo). Fills a new heap buffer. */
static bool parse_bytea(const char *s, size_t len, gc_keyval *out)
{
    unsigned char *buf = malloc(len + 1);
    size_t n = 0;
    if (!buf)
        return false;
    if (len >= 2 && s[0] == '\\' && s[1] == 'x') {
        for (size_t i = 2; i < len;) {
            if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
                i++;
                continue;
            }
            int hi = gc_hex_value(s[i]);
            int lo = i + 1 < len ? gc_hex_value(s[i + 1]) : -1;
            if (hi < 0 || lo < 0)
                goto bad;
            buf[n++] = (unsigned char)(hi << 4 | lo);
            i += 2;
        }
    } else {
        for (size_t i = 0; i < len;) {
            if (s[i] != '\\') {
                buf[n++] = (unsigned char)s[i++];
            } else if (i + 1 < len && s[i + 1] == '\\') {
                buf[n++] = '\\';
                i += 2;
            } else if (i + 3 < len && s[i + 1] >= '0' && s[i + 1] <= '3' &&
                       s[i + 2] >= '0' && s[i + 2] <= '7' && s[i + 3] >= '0' &&
                       s[i + 3] <= '7') {
                buf[n++] = (unsigned char)(((s[i + 1] - '0') << 6) |
                                           ((s[i + 2] - '0') << 3) | (s[i + 3] - '0'));
                i += 4;
            } else {
                goto bad;
            }
        }
    }
    out->owned = buf;
    out->data = buf;
    out->len = n;
    return true;
bad:
    free(buf);
    return false;
}

/* uuid_in: optional braces around 32 hex digits; a hyphen may follow any
 * group of four digits; nothing else, not even blanks. */
static bool parse_uuid(const char *s, size_t len, unsigned char out[16])
{
    size_t i = 0;
    bool braces = len > 0 && s[0] == '{';
    if (braces)
        i++;
    for (int b = 0; b < 16; b++) {
        if (i + 2 > len)
            return false;
        int hi = gc_hex_value(s[i]), lo = gc_hex_value(s[i + 1]);
        if (hi < 0 || lo < 0)
            return false;
        out[b] = (unsigned char)(hi << 4 | lo);
        i += 2;
        if (b % 2 == 1 && b < 15 && i < len && s[i] == '-')
            i++;
    }
    if (braces) {
        if (i >= len || s[i] != '}')
            return false;
        i++;
    }
    return i == len;
}

/* numeric_in: blanks, NaN / [sign]Infinity, or [sign] digits [. digits]
 * [e [sign] digits], blanks. Keeps the significant digits for comparing and
 * checks the column's scale: digits the server would round away are refused. */
static bool parse_numeric(const char *s, size_t len, int32_t typmod, gc_keyval *out,
                          const char **why)
{
    const char *p = s, *end = s + len;
    while (p < end && is_blank(*p))
        p++;
    while (end > p && is_blank(end[-1]))
        end--;
    size_t n = (size_t)(end - p);
    out->num_text = s;
    out->num_text_len = len;
    if (n == 3 && strncasecmp(p, "NaN", 3) == 0) {
        out->num_kind = GC_NUM_NAN;
        return true;
    }
    bool neg = false;
    const char *q = p;
    if (q < end && (*q == '+' || *q == '-'))
        neg = *q++ == '-';
    if ((size_t)(end - q) == 8 && strncasecmp(q, "Infinity", 8) == 0) {
        out->num_kind = neg ? GC_NUM_NEG_INF : GC_NUM_POS_INF;
        return true;
    }
    unsigned char *digits = malloc(n + 1);
    if (!digits)
        return false;
    size_t nd = 0;
    long int_digits = 0;
    bool seen_point = false, any = false;
    for (; q < end; q++) {
        if (is_digit(*q)) {
            any = true;
            if (nd == 0 && *q == '0') {     /* leading zero: shifts the point */
                if (seen_point)
                    int_digits--;
                continue;
            }
            digits[nd++] = (unsigned char)*q;
            if (!seen_point)
                int_digits++;
        } else if (*q == '.' && !seen_point) {
            seen_point = true;
        } else {
            break;
        }
    }
    long exp = 0;
    if (any && q < end && (*q == 'e' || *q == 'E')) {
        int64_t e;
        if (!parse_integer(q + 1, (size_t)(end - q - 1), -1000, 1000, &e))
            goto bad;
        exp = (long)e;
        q = end;
    }
    if (!any || q != end)
        goto bad;
    while (nd > 0 && digits[nd - 1] == '0')
        nd--;
    out->num_kind = GC_NUM_FINITE;
    out->num_negative = nd > 0 && neg;
    out->num_exp10 = nd > 0 ? (int32_t)(int_digits + exp) : 0;
    out->owned = digits;
    out->data = digits;
    out->len = nd;
    if (typmod >= TYPMOD_HEADER && nd > 0) {
        int32_t precision = ((typmod - TYPMOD_HEADER) >> 16) & 0xffff;
        int32_t scale = (((typmod - TYPMOD_HEADER) & 0x7ff) ^ 1024) - 1024;
        if ((long)nd - out->num_exp10 > scale) {
            *why = "numeric has more fractional digits than the column's scale (the server rounds)";
            return false;   /* caller frees */
        }
        if (out->num_exp10 > precision - scale) {
            *why = "numeric does not fit the column's precision";
            return false;
        }
    }
    return true;
bad:
    free(digits);
    return false;
}

/* Parses text as type t (see header). */
bool gc_keyval_parse(gc_keytype t, int32_t typmod, const char *text, size_t len,
                     gc_keyval *out, const char **why)
{
    memset(out, 0, sizeof *out);
    out->type = t;
    if (!text) {
        out->is_null = true;
        return true;
    }
    const char *bad = "value is not valid input for the key type";
    bool ok = false;
    int32_t days;
    switch (t) {
    case GC_KEY_INT2: ok = parse_integer(text, len, INT16_MIN, INT16_MAX, &out->i); break;
    case GC_KEY_INT4: ok = parse_integer(text, len, INT32_MIN, INT32_MAX, &out->i); break;
    case GC_KEY_INT8: ok = parse_integer(text, len, INT64_MIN, INT64_MAX, &out->i); break;
    case GC_KEY_OID:
        /* oidin takes -2^31..2^32-1 and wraps negatives into oid's range. */
        ok = parse_integer(text, len, INT32_MIN, UINT32_MAX, &out->i);
        if (ok && out->i < 0)
            out->i += (int64_t)UINT32_MAX + 1;
        break;
    case GC_KEY_BOOL: ok = parse_bool(text, len, &out->i); break;
    case GC_KEY_CHAR:
        out->i = parse_char(text, len);
        ok = true;
        break;
    case GC_KEY_DATE:
        ok = gc_keyval_parse_date(text, len, &days, &bad);
        out->i = days;
        break;
    case GC_KEY_TIMESTAMP:
    case GC_KEY_TIMESTAMPTZ:
        ok = gc_keyval_parse_timestamp(text, len, t == GC_KEY_TIMESTAMPTZ,
                                       typmod >= 0 && typmod <= 6 ? typmod : -1,
                                       &out->i, &bad);
        break;
    case GC_KEY_TEXT:
    case GC_KEY_VARCHAR:
    case GC_KEY_BPCHAR:
        out->data = (const unsigned char *)text;
        out->len = len;
        if (t == GC_KEY_BPCHAR)     /* trailing blanks are insignificant */
            while (out->len > 0 && out->data[out->len - 1] == ' ')
                out->len--;
        ok = memchr(text, '\0', len) == NULL;
        if (ok && typmod >= TYPMOD_HEADER &&
            gc_utf8_chars((const char *)out->data, out->len) > (size_t)(typmod - TYPMOD_HEADER)) {
            bad = "value is longer than the column's length (the server would truncate or refuse it)";
            ok = false;
        }
        break;
    case GC_KEY_BYTEA: ok = parse_bytea(text, len, out); break;
    case GC_KEY_UUID:
        ok = parse_uuid(text, len, out->uuid);
        out->data = out->uuid;
        out->len = 16;
        break;
    case GC_KEY_NUMERIC: ok = parse_numeric(text, len, typmod, out, &bad); break;
    case GC_KEY_UNSUPPORTED:
        bad = "key type is not supported";
        break;
    }
    if (!ok) {
        gc_keyval_free(out);
        out->type = t;
        if (why)
            *why = bad;
    }
    return ok;
}

/* Copies the bytes a value refers to (borrowed text, a numeric's text) into
 * one buffer the value owns, replacing any buffer it owned before. */
bool gc_keyval_own(gc_keyval *v)
{
    if (v->is_null || v->type == GC_KEY_UUID)
        return true;
    size_t data_len = v->data ? v->len : 0;
    size_t text_len = v->num_text ? v->num_text_len : 0;
    unsigned char *buf = malloc(data_len + text_len + 1);
    if (!buf)
        return false;
    if (data_len)
        memcpy(buf, v->data, data_len);
    if (text_len)
        memcpy(buf + data_len, v->num_text, text_len);
    buf[data_len + text_len] = '\0';
    free(v->owned);
    v->owned = buf;
    v->data = v->data ? buf : NULL;
    if (v->num_text)
        v->num_text = (const char *)buf + data_len;
    return true;
}

void gc_keyval_free(gc_keyval *v)
{
    free(v->owned);
    memset(v, 0, sizeof *v);
}

static int cmp_int(int64_t a, int64_t b)
{
    return (a > b) - (a < b);
}

static int cmp_bytes(const gc_keyval *a, const gc_keyval *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int c = n ? memcmp(a->data, b->data, n) : 0;
    return c ? (c > 0) - (c < 0) : cmp_int((int64_t)a->len, (int64_t)b->len);
}

static int cmp_numeric(const gc_keyval *a, const gc_keyval *b)
{
    if (a->num_kind != b->num_kind)
        return cmp_int(a->num_kind, b->num_kind);
    if (a->num_kind != GC_NUM_FINITE)
        return 0;
    int sa = a->len == 0 ? 0 : a->num_negative ? -1 : 1;
    int sb = b->len == 0 ? 0 : b->num_negative ? -1 : 1;
    if (sa != sb || sa == 0)
        return cmp_int(sa, sb);
    int mag = a->num_exp10 != b->num_exp10 ? cmp_int(a->num_exp10, b->num_exp10)
                                           : cmp_bytes(a, b);
    return sa * mag;
}

/* Orders two values of one type as the default btree opclass does. */
int gc_keyval_compare(const gc_keyval *a, const gc_keyval *b)
{
    if (a->type != b->type)
        return cmp_int(a->type, b->type);
    switch (a->type) {
    case GC_KEY_TEXT:
    case GC_KEY_VARCHAR:
    case GC_KEY_BPCHAR:
    case GC_KEY_BYTEA:
    case GC_KEY_UUID:
        return cmp_bytes(a, b);
    case GC_KEY_NUMERIC:
        return cmp_numeric(a, b);
    default:
        return cmp_int(a->i, b->i);
    }
}

/* The type's extended hash, as the server's hash opclass computes it. */
bool gc_keyval_hash(const gc_keyval *v, uint64_t seed, uint64_t *out)
{
    switch (v->type) {
    case GC_KEY_INT2: *out = gc_pghash_int2((int16_t)v->i, seed); return true;
    case GC_KEY_INT4: *out = gc_pghash_int4((int32_t)v->i, seed); return true;
    case GC_KEY_INT8: *out = gc_pghash_int8(v->i, seed); return true;
    case GC_KEY_OID: *out = gc_pghash_oid((uint32_t)v->i, seed); return true;
    case GC_KEY_BOOL: *out = gc_pghash_bool(v->i != 0, seed); return true;
    case GC_KEY_CHAR: *out = gc_pghash_char((char)(unsigned char)v->i, seed); return true;
    case GC_KEY_DATE: *out = gc_pghash_date((int32_t)v->i, seed); return true;
    case GC_KEY_TIMESTAMP:
    case GC_KEY_TIMESTAMPTZ: *out = gc_pghash_timestamp(v->i, seed); return true;
    case GC_KEY_TEXT:
    case GC_KEY_VARCHAR:
        *out = gc_pghash_text((const char *)v->data, v->len, seed);
        return true;
    case GC_KEY_BPCHAR:
        *out = gc_pghash_bpchar((const char *)v->data, v->len, seed);
        return true;
    case GC_KEY_BYTEA: *out = gc_pghash_bytea(v->data, v->len, seed); return true;
    case GC_KEY_UUID: *out = gc_pghash_uuid(v->uuid, seed); return true;
    case GC_KEY_NUMERIC:
        if (v->num_kind != GC_NUM_FINITE) {
            *out = seed;    /* NaN and the infinities hash to the seed */
            return true;
        }
        return gc_pghash_numeric_text(v->num_text, v->num_text_len, seed, out);
    case GC_KEY_UNSUPPORTED:
        break;
    }
    return false;
}
