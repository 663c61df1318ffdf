/*
 * gc_utf16: UTF-8 <-> UTF-16 for the W entry points and SQL_C_WCHAR.
 * unixODBC's SQLWCHAR is 16 bits; the driver works in UTF-8 inside.
 */
#ifndef GC_UTF16_H
#define GC_UTF16_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Converts `units` UTF-16 code units (or up to the first 0 when units < 0,
 * e.g. SQL_NTS) to a malloc'd NUL-terminated UTF-8 string; *out_len (if not
 * NULL) gets its length in bytes. NULL input gives NULL. Returns NULL on
 * out-of-memory or an unpaired surrogate (sets *invalid when given). */
char *gc_utf16_to_utf8(const uint16_t *in, ssize_t units, size_t *out_len,
                       bool *invalid);

/* Characters in `len` bytes of UTF-8 text: its bytes that do not continue
 * one (the text is taken as valid, as the server sent it). */
size_t gc_utf8_chars(const char *in, size_t len);

/* Number of UTF-16 code units needed for `len` bytes of UTF-8 (no NUL).
 * Returns -1 for invalid UTF-8. */
ssize_t gc_utf8_utf16_length(const char *in, size_t len);

/* Writes at most cap_units-1 code units of the UTF-8 input to out and a NUL
 * (when cap_units > 0), never splitting a surrogate pair. Returns the number of
 * units written (without NUL), or -1 for invalid UTF-8. */
ssize_t gc_utf8_to_utf16(const char *in, size_t len, uint16_t *out, size_t cap_units);

#endif
