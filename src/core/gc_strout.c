/*
 * gc_strout: UTF-8 strings out to application buffers with ODBC's
 * truncation rules (see gc_strout.h).
 */
#include "core/gc_strout.h"

#include <stdint.h>
#include <string.h>

#include "util/gc_utf16.h"

/* Largest prefix of s[0..len) that does not end inside a UTF-8 sequence. */
static size_t utf8_clip(const char *s, size_t len)
{
    size_t cut = len;
    /* step back over continuation bytes, then check the lead byte fits */
    while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
        cut--;
    return cut;
}

/* Copies s into an ANSI buffer of buffer_length bytes (> 0), clipped at a
 * character boundary. Returns true when it all fit. */
static bool put_ansi(const gc_strout *out, const char *s, size_t len)
{
    size_t cap = (size_t)out->buffer_length;
    if (len < cap) {
        memcpy(out->buffer, s, len + 1);
        return true;
    }
    size_t n = utf8_clip(s, cap - 1);
    memcpy(out->buffer, s, n);
    ((char *)out->buffer)[n] = '\0';
    return false;
}

SQLRETURN gc_strout_put(const gc_strout *out, const char *s, SQLLEN *full_length,
                        gc_diag *diag)
{
    if (s == NULL)
        s = "";
    if (out->buffer_length < 0) {
        gc_diag_add(diag, "HY090", 0, "invalid string or buffer length");
        return SQL_ERROR;
    }
    size_t len = strlen(s);
    bool truncated;
    SQLLEN total;

    if (!out->wide) {
        total = (SQLLEN)len;
        if (out->buffer == NULL)
            truncated = false;   /* length query only */
        else if (out->buffer_length == 0)
            truncated = len > 0; /* not even room for the NUL */
        else
            truncated = !put_ansi(out, s, len);
    } else {
        ssize_t units = gc_utf8_utf16_length(s, len);
        if (units < 0) {
            gc_diag_add(diag, "HY000", 0, "invalid UTF-8 in a string value");
            return SQL_ERROR;
        }
        size_t cap_units = out->unit == GC_LEN_BYTES
            ? (size_t)out->buffer_length / sizeof(SQLWCHAR)
            : (size_t)out->buffer_length;
        total = out->unit == GC_LEN_BYTES ? (SQLLEN)units * (SQLLEN)sizeof(SQLWCHAR)
                                          : (SQLLEN)units;
        if (out->buffer == NULL) {
            truncated = false;
        } else if (cap_units == 0) {
            truncated = units > 0;   /* not even room for the NUL */
        } else {
            ssize_t written = gc_utf8_to_utf16(s, len, (uint16_t *)out->buffer,
                                               cap_units);
            truncated = written < units;
        }
    }
    if (full_length != NULL)
        *full_length = total;
    if (truncated) {
        gc_diag_add(diag, "01004", 0, "string data, right truncated");
        return SQL_SUCCESS_WITH_INFO;
    }
    return SQL_SUCCESS;
}

SQLRETURN gc_strout_put_small(const gc_strout *out, const char *s,
                              SQLSMALLINT *full_length, gc_diag *diag)
{
    SQLLEN len = 0;
    SQLRETURN rc = gc_strout_put(out, s, &len, diag);
    if (full_length != NULL && rc != SQL_ERROR)
        *full_length = len > 0x7fff ? 0x7fff : (SQLSMALLINT)len;
    return rc;
}

SQLRETURN gc_strout_put_int(const gc_strout *out, const char *s,
                            SQLINTEGER *full_length, gc_diag *diag)
{
    SQLLEN len = 0;
    SQLRETURN rc = gc_strout_put(out, s, &len, diag);
    if (full_length != NULL && rc != SQL_ERROR)
        *full_length = (SQLINTEGER)len;
    return rc;
}
