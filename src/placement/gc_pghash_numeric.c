/* numeric's extended hash computed from the value's decimal text, without
 * building a numeric: the base-10000 digits are produced one at a time and
 * streamed into the byte hash. */
#include "placement/gc_pghash.h"

#include <assert.h>
#include <stdint.h>
#include <strings.h>

/* Limits of the server's numeric input: the exponent of 'e' notation, the
 * display scale and the base-10000 weight. Text beyond them is an error on
 * the server, so it is refused here too. */
#define NUMERIC_MAX_EXPONENT 1000
#define NUMERIC_MAX_DSCALE 16383
#define NUMERIC_MAX_WEIGHT 32767

static bool is_blank(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f';
}

static bool is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

/* Floor division by 4 that is right for negative decimal positions too. */
static long long group_of(long long decimal_pos)
{
    return decimal_pos >= 0 ? decimal_pos / 4 : -((-decimal_pos + 3) / 4);
}

/* True when [p, end) spells one of the names the server accepts for the
 * special values (case-insensitively): NaN, or an optionally signed
 * Infinity / inf. */
static bool is_special(const char *p, const char *end)
{
    size_t n = (size_t)(end - p);
    if (n == 3 && strncasecmp(p, "nan", 3) == 0)
        return true;
    if (n > 0 && (*p == '+' || *p == '-')) {
        p++;
        n--;
    }
    return (n == 8 && strncasecmp(p, "infinity", 8) == 0) ||
           (n == 3 && strncasecmp(p, "inf", 3) == 0);
}

/* The parsed shape of a finite numeric literal: where its digits are and
 * where the decimal point falls. */
typedef struct numeric_text {
    const char *digits;       /* first digit character (may be the '.') */
    const char *digits_end;   /* one past the last digit or '.' */
    long long int_digits;     /* digits before the decimal point */
    long long frac_digits;    /* digits after it */
    long long exponent;       /* from 'e' notation, 0 without */
} numeric_text;

/* Parses [p, end) as [sign] digits [. digits] [e [sign] digits], with at least
 * one digit in the mantissa. Returns false on anything else. */
static bool parse_finite(const char *p, const char *end, numeric_text *nt)
{
    if (p < end && (*p == '+' || *p == '-'))
        p++;
    nt->digits = p;
    nt->int_digits = nt->frac_digits = nt->exponent = 0;
    while (p < end && is_digit(*p)) {
        nt->int_digits++;
        p++;
    }
    if (p < end && *p == '.') {
        p++;
        while (p < end && is_digit(*p)) {
            nt->frac_digits++;
            p++;
        }
    }
    nt->digits_end = p;
    if (nt->int_digits + nt->frac_digits == 0)
        return false;
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        bool negative = false;
        if (p < end && (*p == '+' || *p == '-'))
            negative = *p++ == '-';
        if (p == end || !is_digit(*p))
            return false;
        while (p < end && is_digit(*p)) {
            nt->exponent = nt->exponent * 10 + (*p++ - '0');
            if (nt->exponent > NUMERIC_MAX_EXPONENT)
                return false;
        }
        if (negative)
            nt->exponent = -nt->exponent;
    }
    return p == end;
}

/* Computes H for numeric text; see gc_pghash.h. */
bool gc_pghash_numeric_text(const char *text, size_t len, uint64_t seed, uint64_t *out)
{
    assert(out != NULL);
    assert(len == 0 || text != NULL);
    const char *p = text, *end = text + len;
    while (p < end && is_blank(*p))
        p++;
    while (end > p && is_blank(end[-1]))
        end--;

    /* NaN and the infinities hash to the seed itself. */
    if (is_special(p, end)) {
        *out = seed;
        return true;
    }
    numeric_text nt;
    if (!parse_finite(p, end, &nt))
        return false;
    long long dscale = nt.frac_digits - nt.exponent;
    if (dscale > NUMERIC_MAX_DSCALE)
        return false;

    /* Find the first and last nonzero digits and their decimal positions
     * (the power of ten each stands for). Leading and trailing zeros do not
     * take part in the hash. */
    long long index = 0, first = -1, last = -1;
    for (const char *q = nt.digits; q < nt.digits_end; q++) {
        if (*q == '.')
            continue;
        if (*q != '0') {
            if (first < 0)
                first = index;
            last = index;
        }
        index++;
    }
    if (first < 0) {
        /* Zero, whatever its sign or scale. */
        *out = seed - 1;
        return true;
    }
    long long pos_first = nt.int_digits - 1 - first + nt.exponent;
    long long pos_last = nt.int_digits - 1 - last + nt.exponent;
    long long weight = group_of(pos_first);
    long long last_group = group_of(pos_last);
    if (weight > NUMERIC_MAX_WEIGHT)
        return false;
    size_t ngroups = (size_t)(weight - last_group + 1);

    /* Stream the base-10000 digits, most significant first, as little-endian
     * int16s. Consecutive decimal digits fall in the same or the next group,
     * so a group is complete when the next digit's group differs. */
    gc_pghash_stream s;
    gc_pghash_stream_start(&s, ngroups * 2, seed);
    long long group = weight;
    unsigned value = 0;
    index = 0;
    for (const char *q = nt.digits; q < nt.digits_end; q++) {
        if (*q == '.')
            continue;
        long long i = index++;
        if (i < first || i > last)
            continue;
        long long pos = nt.int_digits - 1 - i + nt.exponent;
        long long g = group_of(pos);
        if (g != group) {
            assert(g == group - 1);
            unsigned char le[2] = { (unsigned char)(value & 0xff), (unsigned char)(value >> 8) };
            gc_pghash_stream_feed(&s, le, sizeof le);
            group = g;
            value = 0;
        }
        static const unsigned pow10[4] = { 1, 10, 100, 1000 };
        value += (unsigned)(*q - '0') * pow10[pos - 4 * g];
    }
    unsigned char le[2] = { (unsigned char)(value & 0xff), (unsigned char)(value >> 8) };
    gc_pghash_stream_feed(&s, le, sizeof le);
    assert(group == last_group);

    *out = gc_pghash_stream_finish(&s) ^ (uint64_t)(int64_t)weight;
    return true;
}
