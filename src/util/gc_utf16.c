/*
 * gc_utf16: UTF-8 <-> UTF-16 conversion. Strict in both directions: overlong
 * UTF-8, encoded surrogates, code points above U+10FFFF and unpaired UTF-16
 * surrogates are all invalid, so nothing ill-formed crosses the driver.
 */
#include "util/gc_utf16.h"

#include <stdlib.h>

/* Decodes one UTF-8 sequence at in[*pos] (len bytes in all) and advances *pos.
 * Returns the code point, or -1 when the sequence is ill-formed. */
static long utf8_decode_one(const unsigned char *in, size_t len, size_t *pos)
{
    size_t i = *pos;
    unsigned char c = in[i];
    long cp;
    int extra;
    long min;

    if (c < 0x80) {
        *pos = i + 1;
        return c;
    } else if (c >= 0xC2 && c <= 0xDF) {
        cp = c & 0x1F; extra = 1; min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        cp = c & 0x0F; extra = 2; min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        cp = c & 0x07; extra = 3; min = 0x10000;
    } else {
        return -1;   /* continuation byte, 0xC0/0xC1 or 0xF5.. */
    }
    if (len - i - 1 < (size_t)extra)
        return -1;
    for (int k = 1; k <= extra; k++) {
        unsigned char cc = in[i + (size_t)k];
        if ((cc & 0xC0) != 0x80)
            return -1;
        cp = (cp << 6) | (cc & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return -1;
    *pos = i + 1 + (size_t)extra;
    return cp;
}

/* Number of UTF-16 code units for `len` bytes of UTF-8; -1 when invalid. */
ssize_t gc_utf8_utf16_length(const char *in, size_t len)
{
    const unsigned char *s = (const unsigned char *)in;
    size_t pos = 0;
    ssize_t units = 0;

    while (pos < len) {
        long cp = utf8_decode_one(s, len, &pos);
        if (cp < 0)
            return -1;
        units += cp >= 0x10000 ? 2 : 1;
    }
    return units;
}

/* Writes up to cap_units-1 units and a NUL; never splits a surrogate pair,
 * so a short buffer ends at a whole character. Returns units written or -1
 * for invalid UTF-8 (anywhere in the input, even past what fits). */
ssize_t gc_utf8_to_utf16(const char *in, size_t len, uint16_t *out, size_t cap_units)
{
    const unsigned char *s = (const unsigned char *)in;
    size_t pos = 0;
    size_t written = 0;
    size_t room = cap_units > 0 ? cap_units - 1 : 0;
    bool full = false;

    while (pos < len) {
        long cp = utf8_decode_one(s, len, &pos);
        if (cp < 0)
            return -1;
        if (full)
            continue;   /* keep validating the rest */
        if (cp >= 0x10000) {
            if (room - written < 2) {
                full = true;
                continue;
            }
            long v = cp - 0x10000;
            out[written++] = (uint16_t)(0xD800 | (v >> 10));
            out[written++] = (uint16_t)(0xDC00 | (v & 0x3FF));
        } else {
            if (room - written < 1) {
                full = true;
                continue;
            }
            out[written++] = (uint16_t)cp;
        }
    }
    if (cap_units > 0)
        out[written] = 0;
    return (ssize_t)written;
}

/* Bytes of UTF-8 needed for a code point. */
static size_t utf8_width(unsigned long cp)
{
    return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/* Reads the code point at in[*i] (units in all), pairing surrogates; advances
 * *i. Returns -1 for an unpaired surrogate. */
static long utf16_decode_one(const uint16_t *in, size_t units, size_t *i)
{
    unsigned long u = in[*i];
    if (u >= 0xD800 && u <= 0xDBFF) {
        if (*i + 1 >= units)
            return -1;
        unsigned long lo = in[*i + 1];
        if (lo < 0xDC00 || lo > 0xDFFF)
            return -1;
        *i += 2;
        return (long)(0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00));
    }
    if (u >= 0xDC00 && u <= 0xDFFF)
        return -1;
    *i += 1;
    return (long)u;
}

/* Converts UTF-16 to a malloc'd UTF-8 string the caller frees. Two passes:
 * measure, then encode, so the allocation is exact. */
char *gc_utf16_to_utf8(const uint16_t *in, ssize_t units, size_t *out_len,
                       bool *invalid)
{
    if (invalid != NULL)
        *invalid = false;
    if (in == NULL)
        return NULL;

    size_t n = 0;
    if (units < 0) {
        while (in[n] != 0)
            n++;
    } else {
        n = (size_t)units;
    }

    size_t bytes = 0;
    for (size_t i = 0; i < n;) {
        long cp = utf16_decode_one(in, n, &i);
        if (cp < 0) {
            if (invalid != NULL)
                *invalid = true;
            return NULL;
        }
        bytes += utf8_width((unsigned long)cp);
    }

    char *out = malloc(bytes + 1);
    if (out == NULL)
        return NULL;
    unsigned char *p = (unsigned char *)out;
    for (size_t i = 0; i < n;) {
        unsigned long cp = (unsigned long)utf16_decode_one(in, n, &i);
        switch (utf8_width(cp)) {
        case 1:
            *p++ = (unsigned char)cp;
            break;
        case 2:
            *p++ = (unsigned char)(0xC0 | (cp >> 6));
            *p++ = (unsigned char)(0x80 | (cp & 0x3F));
            break;
        case 3:
            *p++ = (unsigned char)(0xE0 | (cp >> 12));
            *p++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
            *p++ = (unsigned char)(0x80 | (cp & 0x3F));
            break;
        default:
            *p++ = (unsigned char)(0xF0 | (cp >> 18));
            *p++ = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
            *p++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
            *p++ = (unsigned char)(0x80 | (cp & 0x3F));
            break;
        }
    }
    *p = '\0';
    if (out_len != NULL)
        *out_len = bytes;
    return out;
}

size_t gc_utf8_chars(const char *in, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += ((unsigned char)in[i] & 0xC0) != 0x80;
    return n;
}
