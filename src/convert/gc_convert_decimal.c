/*
 * Decimal numbers for gc_convert: parsing numeric literals exactly (no
 * floating point), integer extraction with range checks, SQL_NUMERIC_STRUCT
 * in both directions, and doubles read and written in the "C" locale whatever
 * locale the application has set.
 */
#include "convert/gc_convert_internal.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static bool word_equals(const char *s, size_t len, const char *word)
{
    return strlen(word) == len && strncasecmp(s, word, len) == 0;
}

/* Parses a numeric literal into d; see the header for the accepted forms. */
bool gc_decnum_parse(const char *s, size_t len, gc_decnum *d)
{
    size_t i = 0;
    memset(d, 0, sizeof *d);
    d->kind = GC_DECNUM_FINITE;

    while (len > 0 && is_space(s[len - 1]))
        len--;
    while (i < len && is_space(s[i]))
        i++;
    if (i < len && (s[i] == '+' || s[i] == '-')) {
        d->negative = s[i] == '-';
        i++;
    }
    if (i < len && !(s[i] >= '0' && s[i] <= '9') && s[i] != '.') {
        const char *w = s + i;
        size_t wl = len - i;
        if (word_equals(w, wl, "nan")) {
            d->kind = GC_DECNUM_NAN;
            d->negative = false;
            return true;
        }
        if (word_equals(w, wl, "inf") || word_equals(w, wl, "infinity")) {
            d->kind = d->negative ? GC_DECNUM_NEG_INF : GC_DECNUM_POS_INF;
            return true;
        }
        return false;
    }

    bool any_digit = false, seen_point = false;
    long frac_digits = 0;   /* digits after the point that were counted */
    for (; i < len; i++) {
        char c = s[i];
        if (c == '.') {
            if (seen_point)
                return false;
            seen_point = true;
            continue;
        }
        if (c < '0' || c > '9')
            break;
        any_digit = true;
        if (seen_point)
            d->written_scale++;
        if (c == '0' && d->ndigits == 0) {
            if (seen_point)
                frac_digits++;   /* leading zero after the point scales */
            continue;
        }
        if (d->ndigits < GC_DECNUM_MAX_DIGITS) {
            d->digits[d->ndigits++] = c;
            if (seen_point)
                frac_digits++;
        } else {
            /* dropped digit: scales the value when before the point */
            if (!seen_point)
                d->exp10++;
            if (c != '0')
                d->dropped_nonzero = true;
        }
    }
    if (!any_digit)
        return false;
    d->exp10 -= frac_digits;

    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        bool eneg = false;
        if (i < len && (s[i] == '+' || s[i] == '-')) {
            eneg = s[i] == '-';
            i++;
        }
        if (i >= len || s[i] < '0' || s[i] > '9')
            return false;
        long e = 0;
        for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
            if (e < 1000000)
                e = e * 10 + (s[i] - '0');
        }
        d->exp10 += eneg ? -e : e;
        d->written_scale -= eneg ? -e : e;
    }
    if (i != len)
        return false;

    /* Trailing zeros of the kept digits move into the exponent. */
    while (d->ndigits > 0 && d->digits[d->ndigits - 1] == '0' && !d->dropped_nonzero) {
        d->ndigits--;
        d->exp10++;
    }
    if (d->ndigits == 0)
        d->exp10 = 0;
    return true;
}

/* Integer part of d as sign/magnitude; see the header. */
bool gc_decnum_integer(const gc_decnum *d, bool *negative, uint64_t *magnitude,
                       bool *fraction_lost)
{
    *negative = d->negative;
    *magnitude = 0;
    *fraction_lost = false;
    if (d->kind != GC_DECNUM_FINITE)
        return false;
    if (d->ndigits == 0) {
        *negative = false;
        return true;
    }
    long int_digits = d->ndigits + d->exp10;   /* digits before the point */
    if (int_digits > 20)
        return false;
    uint64_t m = 0;
    for (long k = 0; k < int_digits; k++) {
        unsigned digit = k < d->ndigits ? (unsigned)(d->digits[k] - '0') : 0;
        if (m > (UINT64_MAX - digit) / 10)
            return false;
        m = m * 10 + digit;
    }
    long first_frac = int_digits < 0 ? 0 : int_digits;
    for (long k = first_frac; k < d->ndigits; k++) {
        if (d->digits[k] != '0')
            *fraction_lost = true;
    }
    if (d->dropped_nonzero && d->exp10 < 0)
        *fraction_lost = true;
    *magnitude = m;
    if (m == 0)
        *negative = false;
    return true;
}

bool gc_integer_in_range(bool negative, uint64_t magnitude, int64_t min, uint64_t max)
{
    if (!negative)
        return magnitude <= max;
    if (min >= 0)
        return magnitude == 0;
    uint64_t limit = (uint64_t)(-(min + 1)) + 1;   /* |min| without overflow */
    return magnitude <= limit;
}

/* The precision and scale d has as written ("7.70": 3 and 2, "0": 0 and
 * 0), for a SQL_NUMERIC_STRUCT that takes the value as it comes. */
static void own_precision_and_scale(const gc_decnum *d, int *precision, int *scale)
{
    long s = d->written_scale > 0 ? d->written_scale : 0;
    long whole = d->ndigits + d->exp10;   /* digits before the point */
    long p = (whole > 0 ? whole : 0) + s;
    *scale = (int)(s > 127 ? 127 : s);
    *precision = d->ndigits == 0 ? 0 : (int)(p > 255 ? 255 : p);
}

/* Rounds toward zero to `scale` decimals and packs into the struct;
 * precision 0 with scale 0 takes the value's own precision and scale. */
bool gc_decnum_to_numeric(const gc_decnum *d, int precision, int scale,
                          SQL_NUMERIC_STRUCT *out, bool *fraction_lost)
{
    memset(out, 0, sizeof *out);
    *fraction_lost = false;
    bool own = precision == 0 && scale == 0 && d->kind == GC_DECNUM_FINITE;
    if (own)
        own_precision_and_scale(d, &precision, &scale);
    else if (precision < 1 || precision > 38)
        precision = 38;
    out->precision = (SQLCHAR)precision;
    out->scale = (SQLSCHAR)scale;
    out->sign = d->negative ? 0 : 1;
    if (d->kind != GC_DECNUM_FINITE)
        return false;
    if (d->ndigits == 0) {
        out->sign = 1;
        return true;
    }
    /* The scaled integer is digits * 10^(exp10 + scale); count its digits.
     * The value's own precision may pass 38 as long as 128 bits hold it. */
    long shift = d->exp10 + scale;
    long int_digits = d->ndigits + shift;
    if (int_digits > (own ? 39 : precision))
        return false;
    unsigned __int128 v = 0;
    const unsigned __int128 max = ~(unsigned __int128)0;
    for (long k = 0; k < int_digits; k++) {
        unsigned digit = k < d->ndigits ? (unsigned)(d->digits[k] - '0') : 0;
        if (v > (max - digit) / 10)
            return false;
        v = v * 10 + digit;
    }
    for (long k = int_digits < 0 ? 0 : int_digits; k < d->ndigits; k++) {
        if (d->digits[k] != '0')
            *fraction_lost = true;
    }
    if (d->dropped_nonzero)
        *fraction_lost = true;
    if (v == 0)
        out->sign = 1;   /* no negative zero */
    for (int b = 0; b < SQL_MAX_NUMERIC_LEN; b++) {
        out->val[b] = (SQLCHAR)(v & 0xFF);
        v >>= 8;
    }
    return true;
}

/* Writes the decimal text of n: the 128-bit value, with the point placed by
 * scale (a negative scale appends zeros). */
void gc_numeric_to_text(const SQL_NUMERIC_STRUCT *n, char buf[GC_NUMERIC_TEXT_MAX])
{
    unsigned __int128 v = 0;
    for (int b = SQL_MAX_NUMERIC_LEN - 1; b >= 0; b--)
        v = (v << 8) | n->val[b];

    char digits[64];
    int nd = 0;
    do {
        digits[nd++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v != 0);   /* digits[] holds them least significant first */

    char *p = buf;
    bool zero = nd == 1 && digits[0] == '0';
    if (n->sign == 0 && !zero)
        *p++ = '-';
    int scale = n->scale;
    if (scale <= 0) {
        for (int k = nd - 1; k >= 0; k--)
            *p++ = digits[k];
        for (int k = 0; k < -scale && !zero; k++)
            *p++ = '0';
    } else {
        int int_digits = nd - scale;
        if (int_digits <= 0) {
            *p++ = '0';
        } else {
            for (int k = nd - 1; k >= scale; k--)
                *p++ = digits[k];
        }
        *p++ = '.';
        for (int k = 0; k < -int_digits; k++)
            *p++ = '0';
        for (int k = (int_digits > 0 ? scale : nd) - 1; k >= 0; k--)
            *p++ = digits[k];
    }
    *p = '\0';
}

/* One "C" locale for the process, made once; read-only afterwards. */
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;
static locale_t c_locale;

static void make_c_locale(void)
{
    c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

static locale_t get_c_locale(void)
{
    pthread_once(&c_locale_once, make_c_locale);
    return c_locale;
}

/* Parses a double: syntax checked by gc_decnum_parse (so strtod's hex and
 * partial forms are refused), value by strtod in the C locale (uselocale: per thread). */
gc_num_status gc_parse_double(const char *s, size_t len, double *out)
{
    gc_decnum d;
    if (!gc_decnum_parse(s, len, &d))
        return GC_NUM_SYNTAX;
    switch (d.kind) {
    case GC_DECNUM_NAN: *out = NAN; return GC_NUM_OK;
    case GC_DECNUM_POS_INF: *out = INFINITY; return GC_NUM_OK;
    case GC_DECNUM_NEG_INF: *out = -INFINITY; return GC_NUM_OK;
    case GC_DECNUM_FINITE: break;
    }
    if (d.ndigits == 0) {
        *out = d.negative ? -0.0 : 0.0;
        return GC_NUM_OK;
    }
    /* Rebuild a canonical literal from the parsed digits: short and bounded. */
    char lit[GC_DECNUM_MAX_DIGITS + 32];
    int n = snprintf(lit, sizeof lit, "%s%.*se%ld", d.negative ? "-" : "",
                     d.ndigits, d.digits, d.exp10);
    if (n < 0 || (size_t)n >= sizeof lit)
        return GC_NUM_SYNTAX;
    locale_t loc = get_c_locale();
    locale_t old = loc != (locale_t)0 ? uselocale(loc) : (locale_t)0;
    errno = 0;
    double v = strtod(lit, NULL);
    int saved_errno = errno;
    if (old != (locale_t)0)
        uselocale(old);
    if (saved_errno == ERANGE && isinf(v))
        return GC_NUM_RANGE;
    *out = v;
    return GC_NUM_OK;
}

/* Formats v with the fewest digits (up to max_digits) that read back as v. */
void gc_format_double(double v, int max_digits, char buf[GC_DOUBLE_TEXT_MAX])
{
    if (isnan(v)) {
        strcpy(buf, "NaN");
        return;
    }
    if (isinf(v)) {
        strcpy(buf, v > 0 ? "Infinity" : "-Infinity");
        return;
    }
    locale_t loc = get_c_locale();
    locale_t old = loc != (locale_t)0 ? uselocale(loc) : (locale_t)0;
    for (int digits = 1; digits <= max_digits; digits++) {
        snprintf(buf, GC_DOUBLE_TEXT_MAX, "%.*g", digits, v);
        double back = strtod(buf, NULL);
        if (max_digits <= 9 ? (float)back == (float)v : back == v)
            break;
    }
    if (old != (locale_t)0)
        uselocale(old);
}
