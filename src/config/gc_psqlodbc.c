/*
 * gc_psqlodbc: psqlODBC's CX option mask and its percent-encoding.
 */
#include "config/gc_psqlodbc.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/gc_keys.h"
#include "util/gc_hex.h"

/* Bit n of CX stands for key cx_bits[n] (NULL: a bit with no key, such as
 * psqlODBC's old protocol choices). Bits 6 and 7 together say UnknownSizes. */
static const char *const cx_bits[] = {
    "LFConversion", "UpdatableCursors", "DisallowPremature", "UniqueIndex",
    NULL, NULL, NULL, NULL, "Optimizer", NULL, "CommLog", "Debug", "Parse",
    "CancelAsFreeStmt", "UseDeclareFetch", "ReadOnly", "TextAsLongVarchar",
    "UnknownsAsLongVarchar", "BoolsAsChar", "RowVersioning", "ShowSystemTables",
    "ShowOidColumn", "FakeOidIndex", "TrueIsMinus1", "ByteaAsLongVarBinary",
    "UseServerSidePrepare", "LowerCaseIdentifier", "GssAuthUseGSS",
};
#define CX_BIT_COUNT (sizeof cx_bits / sizeof cx_bits[0])
#define CX_UNKNOWN_DONTKNOW 6
#define CX_UNKNOWN_ASMAX 7

/* Parses the mask's hex digits; false when one is not hex or it overflows. */
static bool parse_hex(const char *text, size_t len, uint64_t *out)
{
    uint64_t v = 0;
    if (len == 0 || len > 16)
        return false;
    for (size_t i = 0; i < len; i++) {
        int d = gc_hex_value(text[i]);
        if (d < 0)
            return false;
        v = v << 4 | (uint64_t)d;
    }
    *out = v;
    return true;
}

/* Stores "1"/"0" (or a number) under key name; the value is always valid. */
static void store(gc_settings *s, const char *name, const char *value)
{
    const gc_key *key = gc_keys_find(name);
    assert(key != NULL);
    if (!gc_key_has_field(key))
        return;
    gc_error err;
    gc_error_clear(&err);
    bool ok = gc_key_store(key, name, value, s, &err);
    assert(ok);
    (void)ok;
}

bool gc_psqlodbc_apply_cx(const char *value, gc_settings *s)
{
    size_t len = strlen(value);
    uint64_t count, mask = 0;
    if (len == 1) {
        /* One digit: a mask of psqlODBC's first three bits, as it reads it. */
        count = 3;
        if (!parse_hex(value, 1, &mask))
            return false;
    } else if (len < 2 || !parse_hex(value, 2, &count) ||
               (len > 2 && !parse_hex(value + 2, len - 2, &mask))) {
        return false;
    }
    if (count > CX_BIT_COUNT)
        count = CX_BIT_COUNT;
    for (size_t bit = 0; bit < count; bit++)
        if (cx_bits[bit] != NULL)
            store(s, cx_bits[bit], (mask >> bit & 1) ? "1" : "0");
    if (count > CX_UNKNOWN_ASMAX) {
        const char *sizes = (mask >> CX_UNKNOWN_DONTKNOW & 1) ? "1"
                          : (mask >> CX_UNKNOWN_ASMAX & 1) ? "0" : "2";
        store(s, "UnknownSizes", sizes);
    }
    return true;
}

/* Reads the extra options mask into *mask; false when it is not a number
 * in one of psqlODBC's three forms. */
static bool parse_extra_options(const char *value, unsigned long *mask)
{
    if (value[0] == '\0' || value[0] == '-' || value[0] == '+' || isspace((unsigned char)value[0]))
        return false;
    char *end;
    errno = 0;
    *mask = strtoul(value, &end, 0);
    return errno == 0 && *end == '\0';
}

bool gc_psqlodbc_check_extra_options(const char *value, char *why, size_t why_len)
{
    unsigned long mask;
    if (parse_extra_options(value, &mask))
        return true;
    snprintf(why, why_len, "not a number (0x hex, 0 octal, or decimal)");
    return false;
}

bool gc_psqlodbc_cvt_null_date(const char *extra_options)
{
    unsigned long mask;
    return extra_options != NULL && parse_extra_options(extra_options, &mask) &&
           (mask & 0x8) != 0;
}

/* Decodes %XX sequences, and '+' as a space when plus_is_space. */
static char *decode(const char *text, bool plus_is_space)
{
    size_t len = strlen(text);
    char *out = malloc(len + 1);
    if (out == NULL)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        int hi, lo;
        if (text[i] == '%' && i + 2 < len && (hi = gc_hex_value(text[i + 1])) >= 0 &&
            (lo = gc_hex_value(text[i + 2])) >= 0) {
            out[n++] = (char)(hi << 4 | lo);
            i += 2;
        } else if (plus_is_space && text[i] == '+') {
            out[n++] = ' ';
        } else {
            out[n++] = text[i];
        }
    }
    out[n] = '\0';
    return out;
}

char *gc_psqlodbc_decode_percent(const char *text)
{
    return decode(text, false);
}

char *gc_psqlodbc_decode_conn_settings(const char *text)
{
    return decode(text, true);
}
