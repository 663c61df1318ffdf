/*
 * gc_psqlodbc: what it takes for psqlODBC's connection strings to mean the
 * same here: its abbreviated option mask (CX) and the percent-encoding it
 * writes ConnSettings and pqopt in. The keys themselves are rows of the key
 * table (gc_keys.c); docs/connection-keys.md lists them with their status.
 */
#ifndef GC_PSQLODBC_H
#define GC_PSQLODBC_H

#include <stdbool.h>
#include <stddef.h>

#include "config/gc_settings.h"

/* Applies psqlODBC's CX value to s: two hex digits giving how many bits
 * count, then a hex mask whose bits each set a Yes/No key (or UnknownSizes).
 * Keys gcodbc accepts without effect are skipped. False, s unchanged, when
 * value is not of that form. */
bool gc_psqlodbc_apply_cx(const char *value, gc_settings *s);

/* psqlODBC's extra options mask (AB, ExtraOptions): "0x" and hex digits,
 * a leading 0 and octal digits, or decimal, as psqlODBC reads it. The check
 * of the key table: false, with the reason in why, when it is none of them. */
bool gc_psqlodbc_check_extra_options(const char *value, char *why, size_t why_len);

/* Whether the extra options mask (NULL: not given) has psqlODBC's bit 0x8:
 * an empty string for a date or timestamp parameter is sent as NULL. */
bool gc_psqlodbc_cvt_null_date(const char *extra_options);

/* Decodes %XX sequences of text, as psqlODBC reads ConnSettings and pqopt;
 * other bytes (a '%' not followed by two hex digits included) are kept.
 * Returns a malloc'd string the caller frees, NULL when memory ran out. */
char *gc_psqlodbc_decode_percent(const char *text);
/* The same for ConnSettings, where psqlODBC also reads '+' as a space (as in
 * a form-encoded value: "set+client_encoding+to+UTF8"); write %2B for a '+'. */
char *gc_psqlodbc_decode_conn_settings(const char *text);

#endif
