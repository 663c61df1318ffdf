/*
 * gc_convert, results: one PostgreSQL value in text format into an ODBC C
 * type, following ODBC's "Converting Data from SQL to C Data Types". The
 * PostgreSQL types are grouped into families that convert alike.
 */
#include "convert/gc_convert.h"
#include "convert/gc_convert_internal.h"
#include "util/gc_hex.h"
#include "util/gc_utf16.h"

#include <assert.h>
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef enum family {
    FAM_BOOL, FAM_INT, FAM_NUMERIC, FAM_FLOAT, FAM_MONEY, FAM_TEXT,
    FAM_DATE, FAM_TIME, FAM_TIMESTAMP, FAM_BYTEA, FAM_UUID
} family;

static family family_of(Oid t)
{
    switch (t) {
    case GC_OID_BOOL: return FAM_BOOL;
    case GC_OID_INT2: case GC_OID_INT4: case GC_OID_INT8: case GC_OID_OID: return FAM_INT;
    case GC_OID_NUMERIC: return FAM_NUMERIC;
    case GC_OID_FLOAT4: case GC_OID_FLOAT8: return FAM_FLOAT;
    case GC_OID_MONEY: return FAM_MONEY;
    case GC_OID_DATE: return FAM_DATE;
    case GC_OID_TIME: return FAM_TIME;
    case GC_OID_TIMESTAMP: case GC_OID_TIMESTAMPTZ: return FAM_TIMESTAMP;
    case GC_OID_BYTEA: return FAM_BYTEA;
    case GC_OID_UUID: return FAM_UUID;
    default: return FAM_TEXT;   /* text, varchar, json, interval, unknown ... */
    }
}

/* A value in hand: the text and where it came from. */
typedef struct source {
    Oid oid;
    family fam;
    const char *text;
    size_t len;
} source;

/* A bool's text as the server sends it ('t' or 'f'; '1' and '0' accepted). */
static bool source_is_true(const source *src)
{
    return src->len > 0 && (src->text[0] == 't' || src->text[0] == '1');
}

/* Reports the octet length of the data: to the length buffer, and to a
 * separate indicator buffer as 0 ("not NULL"), or as the length when there
 * is no length buffer, so a caller passing only one pointer still gets it. */
static void set_length(const gc_fetch_target *t, SQLLEN n)
{
    if (t->length != NULL)
        *t->length = n;
    if (t->indicator != NULL && t->indicator != t->length)
        *t->indicator = t->length == NULL ? n : 0;
}

static void mark_done(size_t *piece_offset)
{
    if (piece_offset != NULL)
        *piece_offset = GC_PIECE_DONE;
}

static SQLRETURN fail(gc_error *err, const char *state, const char *msg, const source *src)
{
    gc_error_set(err, state, 0, "%s (value of type oid %u)", msg, (unsigned)src->oid);
    return SQL_ERROR;
}

static SQLRETURN restricted(gc_error *err, const source *src, SQLSMALLINT c_type)
{
    gc_error_set(err, "07006", 0,
                 "Restricted data type attribute violation: type oid %u cannot be "
                 "converted to C type %d", (unsigned)src->oid, (int)c_type);
    return SQL_ERROR;
}

/* After a piece of n bytes at offset of a value with `remaining` bytes left:
 * done (the next call is SQL_NO_DATA), or 01004 and the offset moves on. */
static SQLRETURN end_piece(size_t offset, size_t n, size_t remaining, size_t *piece_offset,
                           gc_error *err)
{
    if (n == remaining) {
        mark_done(piece_offset);
        return SQL_SUCCESS;
    }
    if (piece_offset != NULL)
        *piece_offset = offset + n;
    gc_error_set(err, "01004", 0, "String data, right truncated");
    return SQL_SUCCESS_WITH_INFO;
}

/* Hands out the next piece of a variable-length value: `data` holds all of it
 * (UTF-16 bytes for WCHAR), nul_size is 1 (CHAR), 2 (WCHAR) or 0 (BINARY).
 * The length reported is what remains before this call; 01004 when the piece
 * did not hold all of it. */
static SQLRETURN put_pieces(const gc_fetch_target *t, const unsigned char *data,
                            size_t total, size_t nul_size, size_t *piece_offset,
                            gc_error *err)
{
    size_t offset = piece_offset != NULL ? *piece_offset : 0;
    if (offset > total)
        offset = total;
    size_t remaining = total - offset;
    if (t->buffer_length < 0) {
        gc_error_set(err, "HY090", 0, "Invalid string or buffer length");
        return SQL_ERROR;
    }
    size_t cap = t->buffer != NULL ? (size_t)t->buffer_length : 0;
    size_t room = cap >= nul_size ? cap - nul_size : 0;
    if (nul_size == 2)
        room &= ~(size_t)1;
    size_t n = remaining < room ? remaining : room;
    /* Do not end a piece between the halves of a surrogate pair unless the
     * buffer holds a single unit (no progress otherwise). */
    if (nul_size == 2 && n < remaining && n >= 4) {
        unsigned unit = (unsigned)data[offset + n - 2] | (unsigned)data[offset + n - 1] << 8;
        if (unit >= 0xD800 && unit <= 0xDBFF)
            n -= 2;
    }
    set_length(t, (SQLLEN)remaining);
    if (t->buffer != NULL) {
        unsigned char *out = t->buffer;
        if (n > 0)
            memcpy(out, data + offset, n);
        if (nul_size > 0 && cap >= nul_size)
            memset(out + n, 0, nul_size);
        else if (nul_size > 0 && cap > 0)
            memset(out, 0, cap);   /* a WCHAR buffer of one byte */
    }
    if (t->buffer != NULL && nul_size > 0 && cap > 0 && cap < nul_size) {
        /* Not even the terminator fits: truncated, even for an empty value. */
        gc_error_set(err, "01004", 0, "String data, right truncated");
        return SQL_SUCCESS_WITH_INFO;
    }
    return end_piece(offset, n, remaining, piece_offset, err);
}

/* Decodes bytea text ('\x0a0b' hex, or the older escape format) into a
 * malloc'd buffer the caller frees. Returns NULL on bad text or no memory
 * (*bad tells which). */
static unsigned char *bytea_decode(const char *s, size_t len, size_t *out_len, bool *bad)
{
    *bad = false;
    unsigned char *out = malloc(len + 1);
    if (out == NULL)
        return NULL;
    size_t n = 0;
    if (len >= 2 && s[0] == '\\' && s[1] == 'x') {
        for (size_t i = 2; i < len; i += 2) {
            int hi = gc_hex_value(s[i]), lo = i + 1 < len ? gc_hex_value(s[i + 1]) : -1;
            if (hi < 0 || lo < 0) {
                free(out);
                *bad = true;
                return NULL;
            }
            out[n++] = (unsigned char)(hi << 4 | lo);
        }
    } else {
        for (size_t i = 0; i < len; i++) {
            if (s[i] != '\\') {
                out[n++] = (unsigned char)s[i];
            } else if (i + 1 < len && s[i + 1] == '\\') {
                out[n++] = '\\';
                i++;
            } else if (i + 3 < len && s[i + 1] >= '0' && s[i + 1] <= '3' &&
                       s[i + 2] >= '0' && s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
                out[n++] = (unsigned char)((s[i + 1] - '0') << 6 | (s[i + 2] - '0') << 3 |
                                           (s[i + 3] - '0'));
                i += 3;
            } else {
                free(out);
                *bad = true;
                return NULL;
            }
        }
    }
    *out_len = n;
    return out;
}

/* For the families whose character form must not be cut in its whole part
 * (numbers, dates, times, bool, uuid): how many leading bytes must fit.
 * 0 for character and binary data, which may be cut anywhere. */
static size_t whole_part_length(const source *src, const char *text, size_t len)
{
    switch (src->fam) {
    case FAM_TEXT:
    case FAM_BYTEA:
        return 0;
    case FAM_INT: case FAM_NUMERIC: case FAM_FLOAT: case FAM_MONEY:
    case FAM_TIME: case FAM_TIMESTAMP: {
        const char *dot = memchr(text, '.', len);
        if (dot == NULL || memchr(text, 'e', len) != NULL || memchr(text, 'E', len) != NULL)
            return len;
        return (size_t)(dot - text);
    }
    default:
        return len;
    }
}

/* A timestamptz's text (ISO DateStyle: "2020-01-02 03:04:05.5+05:30", maybe
 * with " BC") without its zone offset, into *out (malloc'd, caller frees):
 * the column is SQL_TYPE_TIMESTAMP, whose character form ODBC defines as
 * "yyyy-mm-dd hh:mm:ss[.f...]", in the session's time zone, as psqlODBC
 * gives it. Text without an offset (infinity) is copied unchanged. False
 * when memory ran out. */
static bool timestamptz_without_zone(const char *text, size_t len, char **out, size_t *out_len)
{
    const char *space = memchr(text, ' ', len);
    size_t zone = len, zone_end = len;
    for (size_t i = space != NULL ? (size_t)(space - text) : len; i < len; i++) {
        if (text[i] == '+' || text[i] == '-') {
            zone = i;
            for (zone_end = i; zone_end < len && text[zone_end] != ' '; zone_end++)
                ;
            break;
        }
    }
    *out = malloc(len + 1);
    if (*out == NULL)
        return false;
    memcpy(*out, text, zone);
    memcpy(*out + zone, text + zone_end, len - zone_end);
    *out_len = zone + (len - zone_end);
    (*out)[*out_len] = '\0';
    return true;
}

/* text in upper case, malloc'd (the caller frees); NULL when memory ran
 * out. */
static unsigned char *upper_copy(const char *text, size_t len)
{
    unsigned char *out = malloc(len + 1);
    if (out == NULL)
        return NULL;
    for (size_t i = 0; i < len; i++)
        out[i] = (unsigned char)toupper((unsigned char)text[i]);
    out[len] = '\0';
    return out;
}

/* text with each LF not already after a CR turned into CR LF, into *out
 * (malloc'd, caller frees). False when memory ran out. */
static bool lf_to_crlf(const char *text, size_t len, char **out, size_t *out_len)
{
    size_t added = 0;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n' && (i == 0 || text[i - 1] != '\r'))
            added++;
    *out = malloc(len + added + 1);
    if (*out == NULL)
        return false;
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n' && (i == 0 || text[i - 1] != '\r'))
            (*out)[n++] = '\r';
        (*out)[n++] = text[i];
    }
    (*out)[n] = '\0';
    *out_len = n;
    return true;
}

/* The character form of a date or timestamp 'infinity' / '-infinity': the
 * moment the ODBC structures read it as (infinity_as_limit), so that a
 * program reading dates as text (R's RODBC) gets a date it can convert, as
 * psqlODBC gives the latest timestamp; NULL for any other text. */
static const char *infinity_text(const source *src)
{
    bool date = src->fam == FAM_DATE;
    if (!date && src->fam != FAM_TIMESTAMP)
        return NULL;
    if (src->len == 8 && memcmp(src->text, "infinity", 8) == 0)
        return date ? "9999-12-31" : "9999-12-31 23:59:59";
    if (src->len == 9 && memcmp(src->text, "-infinity", 9) == 0)
        return date ? "0001-01-01" : "0001-01-01 00:00:00";
    return NULL;
}

/* SQL_C_CHAR and SQL_C_WCHAR: the value's character form, piecewise. */
static SQLRETURN to_character(const source *src, const gc_fetch_target *t, bool wide,
                              size_t *piece_offset, gc_error *err)
{
    const char *text = src->text;
    size_t len = src->len;
    unsigned char *owned = NULL;

    if (src->fam == FAM_BOOL) {
        text = source_is_true(src) ? "1" : "0";
        len = 1;
    } else if (src->fam == FAM_BYTEA) {
        if (len >= 2 && text[0] == '\\' && text[1] == 'x') {
            text += 2;   /* the server's hex digits, as psqlODBC passes them */
            len -= 2;
        } else {
            /* The escape format: encoded here, upper case as psqlODBC does. */
            size_t n;
            bool bad;
            unsigned char *bytes = bytea_decode(text, len, &n, &bad);
            if (bytes == NULL)
                return fail(err, bad ? "22018" : "HY001",
                            bad ? "Invalid bytea text" : "Memory allocation error", src);
            owned = malloc(2 * n + 1);
            if (owned == NULL) {
                free(bytes);
                return fail(err, "HY001", "Memory allocation error", src);
            }
            static const char hex[] = "0123456789ABCDEF";
            for (size_t i = 0; i < n; i++) {
                owned[2 * i] = (unsigned char)hex[bytes[i] >> 4];
                owned[2 * i + 1] = (unsigned char)hex[bytes[i] & 15];
            }
            free(bytes);
            text = (const char *)owned;
            len = 2 * n;
        }
    } else if (infinity_text(src) != NULL) {
        text = infinity_text(src);
        len = strlen(text);
    } else if (src->oid == GC_OID_TIMESTAMPTZ) {
        char *plain;
        if (!timestamptz_without_zone(text, len, &plain, &len))
            return fail(err, "HY001", "Memory allocation error", src);
        owned = (unsigned char *)plain;
        text = plain;
    } else if (src->fam == FAM_UUID) {
        /* A GUID's character form is upper case, as psqlODBC (and SQL
         * Server) give it; pyodbc and its users compare the text. */
        if ((owned = upper_copy(text, len)) == NULL)
            return fail(err, "HY001", "Memory allocation error", src);
        text = (const char *)owned;
    } else if (t->lf_to_crlf && src->fam == FAM_TEXT && memchr(text, '\n', len) != NULL) {
        char *converted;
        if (!lf_to_crlf(text, len, &converted, &len))
            return fail(err, "HY001", "Memory allocation error", src);
        owned = (unsigned char *)converted;
        text = converted;
    }

    size_t unit = wide ? 2 : 1;
    size_t whole = whole_part_length(src, text, len);
    bool first = piece_offset == NULL || *piece_offset == 0;
    if (whole > 0 && first && t->buffer != NULL && t->buffer_length >= 0 &&
        (len + 1) * unit > (size_t)t->buffer_length &&
        (whole + 1) * unit > (size_t)t->buffer_length) {
        free(owned);
        return fail(err, "22003", "Numeric value out of range: buffer too small for the value", src);
    }

    SQLRETURN rc;
    if (!wide) {
        rc = put_pieces(t, (const unsigned char *)text, len, 1, piece_offset, err);
    } else {
        ssize_t units = gc_utf8_utf16_length(text, len);
        if (units < 0) {
            free(owned);
            return fail(err, "22018", "Invalid character value: not UTF-8", src);
        }
        uint16_t *w = malloc(((size_t)units + 1) * sizeof *w);
        if (w == NULL) {
            free(owned);
            return fail(err, "HY001", "Memory allocation error", src);
        }
        gc_utf8_to_utf16(text, len, w, (size_t)units + 1);
        rc = put_pieces(t, (const unsigned char *)w, (size_t)units * 2, 2, piece_offset, err);
        free(w);
    }
    free(owned);
    return rc;
}

/* bytea in hex text ('\x0a0b') as SQL_C_BINARY, piece by piece as
 * put_pieces hands them out, but decoding only the piece asked for: reading
 * a long value in small pieces stays linear in its length. */
static SQLRETURN bytea_hex_pieces(const source *src, const gc_fetch_target *t,
                                  size_t *piece_offset, gc_error *err)
{
    if (t->buffer_length < 0) {
        gc_error_set(err, "HY090", 0, "Invalid string or buffer length");
        return SQL_ERROR;
    }
    if ((src->len - 2) % 2 != 0)
        return fail(err, "22018", "Invalid bytea text", src);
    size_t total = (src->len - 2) / 2;
    size_t offset = piece_offset != NULL ? *piece_offset : 0;
    if (offset > total)
        offset = total;
    size_t remaining = total - offset;
    size_t room = t->buffer != NULL ? (size_t)t->buffer_length : 0;
    size_t n = remaining < room ? remaining : room;
    const char *hex = src->text + 2 + 2 * offset;
    unsigned char *out = t->buffer;
    for (size_t i = 0; i < n; i++) {
        int hi = gc_hex_value(hex[2 * i]), lo = gc_hex_value(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return fail(err, "22018", "Invalid bytea text", src);
        out[i] = (unsigned char)(hi << 4 | lo);
    }
    set_length(t, (SQLLEN)remaining);
    return end_piece(offset, n, remaining, piece_offset, err);
}

/* An integer or floating-point column as SQL_C_BINARY: the value in the
 * machine's form for its type (int4: 4 bytes, float8: 8 ...), ODBC's
 * "driver-specific binary form", as psqlODBC gives an int4. 22003 when the
 * buffer is shorter; 22018 when the text is not a number of the type. */
static SQLRETURN number_to_binary(const source *src, const gc_fetch_target *t, gc_error *err)
{
    union { int16_t i2; int32_t i4; int64_t i8; uint32_t u4; float f4; double f8; } v;
    size_t size;
    if (src->fam == FAM_FLOAT) {
        double d;
        if (gc_parse_double(src->text, src->len, &d) == GC_NUM_SYNTAX)
            return fail(err, "22018", "Invalid character value for cast specification", src);
        if (src->oid == GC_OID_FLOAT4) {
            v.f4 = (float)d;
            size = sizeof v.f4;
        } else {
            v.f8 = d;
            size = sizeof v.f8;
        }
    } else {
        char text[32], *end;
        if (src->len == 0 || src->len >= sizeof text)
            return fail(err, "22018", "Invalid character value for cast specification", src);
        memcpy(text, src->text, src->len);
        text[src->len] = '\0';
        long long i = strtoll(text, &end, 10);
        if (*end != '\0')
            return fail(err, "22018", "Invalid character value for cast specification", src);
        switch (src->oid) {
        case GC_OID_INT2: v.i2 = (int16_t)i; size = sizeof v.i2; break;
        case GC_OID_INT4: v.i4 = (int32_t)i; size = sizeof v.i4; break;
        case GC_OID_OID: v.u4 = (uint32_t)i; size = sizeof v.u4; break;
        default: v.i8 = (int64_t)i; size = sizeof v.i8; break;
        }
    }
    if (t->buffer != NULL && t->buffer_length < (SQLLEN)size)
        return fail(err, "22003", "Numeric value out of range: binary buffer too small", src);
    if (t->buffer != NULL)
        memcpy(t->buffer, &v, size);
    set_length(t, (SQLLEN)size);
    return SQL_SUCCESS;
}

/* A boolean (SQL_BIT) as SQL_C_BINARY: the bit in binary form, one byte 1
 * or 0, as ODBC converts SQL_BIT and as PostgreSQL sends a bool in binary. */
static SQLRETURN bit_to_binary(const source *src, const gc_fetch_target *t, gc_error *err)
{
    unsigned char bit = source_is_true(src);
    if (t->buffer != NULL && t->buffer_length < 1)
        return fail(err, "22003", "Numeric value out of range: binary buffer too small", src);
    if (t->buffer != NULL)
        *(unsigned char *)t->buffer = bit;
    set_length(t, 1);
    return SQL_SUCCESS;
}

/* SQL_C_BINARY: bytea as its bytes, numbers and booleans in binary form,
 * anything else as its text bytes. */
static SQLRETURN to_binary(const source *src, const gc_fetch_target *t,
                           size_t *piece_offset, gc_error *err)
{
    if (src->fam == FAM_INT || src->fam == FAM_FLOAT || src->fam == FAM_BOOL) {
        SQLRETURN rc = src->fam == FAM_BOOL ? bit_to_binary(src, t, err)
                                            : number_to_binary(src, t, err);
        if (SQL_SUCCEEDED(rc))
            mark_done(piece_offset);
        return rc;
    }
    if (src->fam != FAM_BYTEA)
        return put_pieces(t, (const unsigned char *)src->text, src->len, 0, piece_offset, err);
    if (src->len >= 2 && src->text[0] == '\\' && src->text[1] == 'x')
        return bytea_hex_pieces(src, t, piece_offset, err);
    size_t n;
    bool bad;
    unsigned char *bytes = bytea_decode(src->text, src->len, &n, &bad);
    if (bytes == NULL)
        return fail(err, bad ? "22018" : "HY001",
                    bad ? "Invalid bytea text" : "Memory allocation error", src);
    SQLRETURN rc = put_pieces(t, bytes, n, 0, piece_offset, err);
    free(bytes);
    return rc;
}

/* Reads the value as a number for the numeric C types. */
static SQLRETURN source_number(const source *src, SQLSMALLINT c_type, gc_decnum *d,
                               gc_error *err)
{
    switch (src->fam) {
    case FAM_BOOL: {
        gc_decnum_parse(source_is_true(src) ? "1" : "0", 1, d);
        return SQL_SUCCESS;
    }
    case FAM_INT: case FAM_NUMERIC: case FAM_FLOAT: case FAM_TEXT:
        if (!gc_decnum_parse(src->text, src->len, d))
            return fail(err, "22018", "Invalid character value for cast specification", src);
        return SQL_SUCCESS;
    default:
        return restricted(err, src, c_type);
    }
}

static SQLRETURN fraction_warning(gc_error *err)
{
    gc_error_set(err, "01S07", 0, "Fractional truncation");
    return SQL_SUCCESS_WITH_INFO;
}

/* The text of a server integer (an optional '-' and at most 19 digits,
 * as PostgreSQL prints int2, int4 and int8) read straight into sign and
 * magnitude: a streamed integer column costs no decimal parse. False for
 * anything else, which the decimal parser then reads. */
static bool plain_integer(const source *src, bool *negative, uint64_t *mag)
{
    const char *p = src->text;
    size_t n = src->len;
    if (src->fam != FAM_INT || n == 0)
        return false;
    *negative = p[0] == '-';
    size_t i = *negative ? 1 : 0;
    if (i == n || n - i > 19)
        return false;
    uint64_t v = 0;
    for (; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return false;
        v = v * 10 + (uint64_t)(p[i] - '0');
    }
    *mag = v;
    return true;
}

/* The integer C types, with their ranges. */
static SQLRETURN to_integer(const source *src, const gc_fetch_target *t, SQLSMALLINT c_type,
                            gc_error *err)
{
    int64_t min;
    uint64_t max;
    switch (c_type) {
    case SQL_C_STINYINT: min = INT8_MIN; max = INT8_MAX; break;
    case SQL_C_UTINYINT: min = 0; max = UINT8_MAX; break;
    case SQL_C_SSHORT: min = INT16_MIN; max = INT16_MAX; break;
    case SQL_C_USHORT: min = 0; max = UINT16_MAX; break;
    case SQL_C_SLONG: min = INT32_MIN; max = INT32_MAX; break;
    case SQL_C_ULONG: min = 0; max = UINT32_MAX; break;
    case SQL_C_SBIGINT: min = INT64_MIN; max = INT64_MAX; break;
    default: min = 0; max = UINT64_MAX; break;   /* SQL_C_UBIGINT */
    }
    bool negative, fraction_lost = false;
    uint64_t mag;
    if (!plain_integer(src, &negative, &mag)) {
        gc_decnum d;
        SQLRETURN rc = source_number(src, c_type, &d, err);
        if (rc != SQL_SUCCESS)
            return rc;
        if (!gc_decnum_integer(&d, &negative, &mag, &fraction_lost))
            return fail(err, "22003", "Numeric value out of range", src);
    }
    if (!gc_integer_in_range(negative, mag, min, max))
        return fail(err, "22003", "Numeric value out of range", src);
    /* Two's complement negation through unsigned arithmetic: exact for INT64_MIN. */
    uint64_t bits = negative ? (uint64_t)0 - mag : mag;
    /* Stores go through memcpy: a row-wise bound buffer need not be aligned. */
    if (t->buffer != NULL) {
        switch (c_type) {
        case SQL_C_STINYINT: { SQLSCHAR v = (SQLSCHAR)(int64_t)bits; memcpy(t->buffer, &v, sizeof v); break; }
        case SQL_C_UTINYINT: { SQLCHAR v = (SQLCHAR)bits; memcpy(t->buffer, &v, sizeof v); break; }
        case SQL_C_SSHORT: { SQLSMALLINT v = (SQLSMALLINT)(int64_t)bits; memcpy(t->buffer, &v, sizeof v); break; }
        case SQL_C_USHORT: { SQLUSMALLINT v = (SQLUSMALLINT)bits; memcpy(t->buffer, &v, sizeof v); break; }
        case SQL_C_SLONG: { SQLINTEGER v = (SQLINTEGER)(int64_t)bits; memcpy(t->buffer, &v, sizeof v); break; }
        case SQL_C_ULONG: { SQLUINTEGER v = (SQLUINTEGER)bits; memcpy(t->buffer, &v, sizeof v); break; }
        case SQL_C_SBIGINT: { SQLBIGINT v = (SQLBIGINT)bits; memcpy(t->buffer, &v, sizeof v); break; }
        default: { SQLUBIGINT v = bits; memcpy(t->buffer, &v, sizeof v); break; }
        }
    }
    set_length(t, gc_c_type_size(c_type));
    return fraction_lost ? fraction_warning(err) : SQL_SUCCESS;
}

/* SQL_C_BIT: 0 or 1; values in (0, 2) truncate with 01S07, others 22003. */
static SQLRETURN to_bit(const source *src, const gc_fetch_target *t, gc_error *err)
{
    gc_decnum d;
    SQLRETURN rc = source_number(src, SQL_C_BIT, &d, err);
    if (rc != SQL_SUCCESS)
        return rc;
    bool negative, fraction_lost;
    uint64_t mag;
    if (d.kind != GC_DECNUM_FINITE || (d.negative && d.ndigits > 0) ||
        !gc_decnum_integer(&d, &negative, &mag, &fraction_lost) || mag > 1)
        return fail(err, "22003", "Numeric value out of range for a bit", src);
    if (t->buffer != NULL)
        *(SQLCHAR *)t->buffer = (SQLCHAR)mag;   /* one byte: no alignment */
    set_length(t, 1);
    return fraction_lost ? fraction_warning(err) : SQL_SUCCESS;
}

/* SQL_C_FLOAT and SQL_C_DOUBLE. */
static SQLRETURN to_float(const source *src, const gc_fetch_target *t, SQLSMALLINT c_type,
                          gc_error *err)
{
    double v;
    if (src->fam == FAM_BOOL) {
        v = source_is_true(src) ? 1.0 : 0.0;
    } else if (src->fam == FAM_INT || src->fam == FAM_NUMERIC || src->fam == FAM_FLOAT ||
               src->fam == FAM_TEXT) {
        gc_num_status st = gc_parse_double(src->text, src->len, &v);
        if (st == GC_NUM_SYNTAX)
            return fail(err, "22018", "Invalid character value for cast specification", src);
        if (st == GC_NUM_RANGE)
            return fail(err, "22003", "Numeric value out of range", src);
    } else {
        return restricted(err, src, c_type);
    }
    if (c_type == SQL_C_FLOAT) {
        if (isfinite(v) && fabs(v) > FLT_MAX)
            return fail(err, "22003", "Numeric value out of range for a float", src);
        SQLREAL f = (SQLREAL)v;
        if (t->buffer != NULL)
            memcpy(t->buffer, &f, sizeof f);
    } else if (t->buffer != NULL) {
        memcpy(t->buffer, &v, sizeof v);
    }
    set_length(t, gc_c_type_size(c_type));
    return SQL_SUCCESS;
}

/* SQL_C_NUMERIC with the target's precision and scale. */
static SQLRETURN to_numeric(const source *src, const gc_fetch_target *t, gc_error *err)
{
    gc_decnum d;
    SQLRETURN rc = source_number(src, SQL_C_NUMERIC, &d, err);
    if (rc != SQL_SUCCESS)
        return rc;
    SQL_NUMERIC_STRUCT n;
    bool fraction_lost;
    if (!gc_decnum_to_numeric(&d, t->precision, t->scale, &n, &fraction_lost))
        return fail(err, "22003", "Numeric value out of range for the precision", src);
    if (t->buffer != NULL)
        memcpy(t->buffer, &n, sizeof n);
    set_length(t, (SQLLEN)sizeof n);
    return fraction_lost ? fraction_warning(err) : SQL_SUCCESS;
}

/* 'infinity' and '-infinity' as the latest and earliest moments an ODBC
 * structure holds in psqlODBC's reading (9999-12-31 23:59:59, 0001-01-01
 * 00:00:00), so that a date or timestamp column holding them can be read
 * as dates. */
static void infinity_as_limit(gc_datetime *dt)
{
    bool latest = dt->infinite > 0;
    memset(dt, 0, sizeof *dt);
    dt->has_date = true;
    dt->year = latest ? 9999 : 1;
    dt->month = latest ? 12 : 1;
    dt->day = latest ? 31 : 1;
    if (latest) {
        dt->hour = 23;
        dt->minute = 59;
        dt->second = 59;
    }
}

/* SQL_C_TYPE_DATE, _TIME and _TIMESTAMP. */
static SQLRETURN to_datetime(const source *src, const gc_fetch_target *t, SQLSMALLINT c_type,
                             gc_error *err)
{
    bool from_text = src->fam == FAM_TEXT;
    bool allowed = from_text || src->fam == FAM_TIMESTAMP ||
                   (src->fam == FAM_DATE && c_type != SQL_C_TYPE_TIME) ||
                   (src->fam == FAM_TIME && c_type != SQL_C_TYPE_DATE);
    if (!allowed)
        return restricted(err, src, c_type);
    const char *bad_state = from_text ? "22018" : "22007";
    gc_datetime dt;
    if (!gc_datetime_parse(src->text, src->len, &dt))
        return fail(err, bad_state, "Invalid datetime format", src);
    if (dt.infinite != 0 && c_type != SQL_C_TYPE_TIME)
        infinity_as_limit(&dt);
    if (dt.infinite != 0 || dt.bc || (dt.has_date && dt.year > 32767))
        return fail(err, "22007", "Datetime value cannot be represented in an ODBC structure", src);
    if (!gc_datetime_valid(&dt))
        return fail(err, bad_state, "Invalid datetime value", src);

    bool lost = dt.fraction_cut;
    if (c_type == SQL_C_TYPE_DATE) {
        if (!dt.has_date)
            return fail(err, bad_state, "Value has no date part", src);
        lost = dt.has_time && (dt.hour || dt.minute || dt.second || dt.fraction);
        SQL_DATE_STRUCT o = { (SQLSMALLINT)dt.year, (SQLUSMALLINT)dt.month,
                              (SQLUSMALLINT)dt.day };
        if (t->buffer != NULL)
            memcpy(t->buffer, &o, sizeof o);
    } else if (c_type == SQL_C_TYPE_TIME) {
        if (!dt.has_time)
            return fail(err, bad_state, "Value has no time part", src);
        lost = dt.fraction != 0 || dt.fraction_cut;
        SQL_TIME_STRUCT o = { (SQLUSMALLINT)dt.hour, (SQLUSMALLINT)dt.minute,
                              (SQLUSMALLINT)dt.second };
        if (t->buffer != NULL)
            memcpy(t->buffer, &o, sizeof o);
    } else {
        if (!dt.has_date)
            gc_datetime_today(&dt.year, &dt.month, &dt.day);
        SQL_TIMESTAMP_STRUCT o = { (SQLSMALLINT)dt.year, (SQLUSMALLINT)dt.month,
                                   (SQLUSMALLINT)dt.day, (SQLUSMALLINT)dt.hour,
                                   (SQLUSMALLINT)dt.minute, (SQLUSMALLINT)dt.second,
                                   (SQLUINTEGER)dt.fraction };
        if (t->buffer != NULL)
            memcpy(t->buffer, &o, sizeof o);
    }
    set_length(t, gc_c_type_size(c_type));
    return lost ? fraction_warning(err) : SQL_SUCCESS;
}

/* SQL_C_GUID from uuid or from text holding one. */
static SQLRETURN to_guid(const source *src, const gc_fetch_target *t, gc_error *err)
{
    if (src->fam != FAM_UUID && src->fam != FAM_TEXT)
        return restricted(err, src, SQL_C_GUID);
    SQLGUID g;
    if (!gc_guid_parse(src->text, src->len, &g))
        return fail(err, "22018", "Invalid character value for a GUID", src);
    if (t->buffer != NULL)
        memcpy(t->buffer, &g, sizeof g);
    set_length(t, (SQLLEN)sizeof g);
    return SQL_SUCCESS;
}

/* SQL_C_INTERVAL_*: from an interval, or from text holding one. The
 * leading precision and seconds precision come from the target. */
static SQLRETURN to_interval(const source *src, const gc_fetch_target *t, SQLSMALLINT c_type,
                             gc_error *err)
{
    if (src->fam != FAM_TEXT)
        return restricted(err, src, c_type);
    gc_interval iv;
    if (!gc_interval_parse(src->text, src->len, &iv))
        return fail(err, "22018", "Invalid character value: not an interval", src);
    SQL_INTERVAL_STRUCT out;
    SQLRETURN rc = gc_interval_to_struct(&iv, c_type, t->interval_leading_precision,
                                         t->precision > 0 ? t->precision : -1, &out, err);
    if (rc == SQL_ERROR)
        return rc;
    if (t->buffer != NULL)
        memcpy(t->buffer, &out, sizeof out);
    set_length(t, (SQLLEN)sizeof out);
    return rc;
}

/* The longest plain decimal a money value becomes: int8's 19 digits, a
 * sign and a point, with room to spare. */
enum { MONEY_DECIMAL_MAX = 32 };

/* Money's text ("$1,234.56", "-$1,234.56", "1.234,56 EUR", "($5.00)": the
 * symbol and separators follow the server's lc_monetary) as a plain decimal
 * ("-1234.56") into out (MONEY_DECIMAL_MAX bytes), for the numeric C types.
 * The decimal separator is the last '.' or ',' unless exactly three digits
 * follow it and no other separator precedes it: then it groups thousands.
 * False for text that holds no digit or too many. */
static bool money_as_decimal(const char *text, size_t len, char *out, size_t *out_len)
{
    size_t point = len;   /* index of the decimal separator, len if none */
    for (size_t i = len; i-- > 0;) {
        if (text[i] != '.' && text[i] != ',')
            continue;
        size_t digits = 0;
        while (i + 1 + digits < len && isdigit((unsigned char)text[i + 1 + digits]))
            digits++;
        bool other_before = memchr(text, text[i] == '.' ? ',' : '.', i) != NULL;
        if (digits != 3 || other_before)
            point = i;
        break;
    }
    bool negative = memchr(text, '-', len) != NULL || memchr(text, '(', len) != NULL;
    size_t n = 0, digits = 0;
    if (negative)
        out[n++] = '-';
    for (size_t i = 0; i < len; i++) {
        if (i == point) {
            out[n++] = '.';
        } else if (isdigit((unsigned char)text[i])) {
            if (n + 2 >= MONEY_DECIMAL_MAX)
                return false;
            out[n++] = text[i];
            digits++;
        }
    }
    out[n] = '\0';
    *out_len = n;
    return digits > 0;
}

/* Converts one value; see gc_convert.h for the contract. Fixed-size results
 * and NULL are returned whole, so the next call on them is SQL_NO_DATA. */
SQLRETURN gc_convert_value_to_c(Oid pg_type, const char *text, size_t text_len,
                                bool is_null, const gc_fetch_target *target,
                                size_t *piece_offset, gc_error *err)
{
    assert(target != NULL && err != NULL);
    gc_error_clear(err);
    if (piece_offset != NULL && *piece_offset == GC_PIECE_DONE)
        return SQL_NO_DATA;

    SQLSMALLINT wanted = gc_c_type_normalize(target->c_type);
    if (is_null && target->null_date_as_empty &&
        (wanted == SQL_C_CHAR || wanted == SQL_C_WCHAR) &&
        (family_of(pg_type) == FAM_DATE || family_of(pg_type) == FAM_TIMESTAMP)) {
        /* psqlODBC's empty-date option read back: NULL is the empty string. */
        source empty = { pg_type, FAM_TEXT, "", 0 };
        return to_character(&empty, target, wanted == SQL_C_WCHAR, piece_offset, err);
    }
    if (is_null) {
        if (target->indicator == NULL) {
            gc_error_set(err, "22002", 0, "Indicator variable required but not supplied");
            return SQL_ERROR;
        }
        *target->indicator = SQL_NULL_DATA;
        mark_done(piece_offset);
        return SQL_SUCCESS;
    }
    assert(text != NULL);

    SQLSMALLINT c_type = target->c_type;
    if (c_type == SQL_C_DEFAULT) {
        gc_pgtype_info info;
        gc_pgtype_describe(pg_type, -1, &info);
        c_type = info.default_c_type;
    }
    c_type = gc_c_type_normalize(c_type);
    source src = { pg_type, family_of(pg_type), text, text_len };
    char money[MONEY_DECIMAL_MAX];
    if (src.fam == FAM_MONEY && c_type != SQL_C_CHAR && c_type != SQL_C_WCHAR &&
        c_type != SQL_C_BINARY) {
        /* Numbers read money as the decimal it holds; text keeps its symbol. */
        if (!money_as_decimal(text, text_len, money, &src.len))
            return fail(err, "22018", "Invalid character value for cast specification", &src);
        src.fam = FAM_NUMERIC;
        src.text = money;
    }

    SQLRETURN rc;
    switch (c_type) {
    case SQL_C_CHAR:
        return to_character(&src, target, false, piece_offset, err);
    case SQL_C_WCHAR:
        return to_character(&src, target, true, piece_offset, err);
    case SQL_C_BINARY:
        return to_binary(&src, target, piece_offset, err);
    case SQL_C_STINYINT: case SQL_C_UTINYINT: case SQL_C_SSHORT: case SQL_C_USHORT:
    case SQL_C_SLONG: case SQL_C_ULONG: case SQL_C_SBIGINT: case SQL_C_UBIGINT:
        rc = to_integer(&src, target, c_type, err);
        break;
    case SQL_C_BIT:
        rc = to_bit(&src, target, err);
        break;
    case SQL_C_FLOAT: case SQL_C_DOUBLE:
        rc = to_float(&src, target, c_type, err);
        break;
    case SQL_C_NUMERIC:
        rc = to_numeric(&src, target, err);
        break;
    case SQL_C_TYPE_DATE: case SQL_C_TYPE_TIME: case SQL_C_TYPE_TIMESTAMP:
        rc = to_datetime(&src, target, c_type, err);
        break;
    case SQL_C_GUID:
        rc = to_guid(&src, target, err);
        break;
    default:
        if (!gc_c_type_is_interval(c_type)) {
            gc_error_set(err, "HY003", 0, "Invalid application buffer type %d", (int)c_type);
            return SQL_ERROR;
        }
        rc = to_interval(&src, target, c_type, err);
        break;
    }
    if (SQL_SUCCEEDED(rc))
        mark_done(piece_offset);
    return rc;
}
