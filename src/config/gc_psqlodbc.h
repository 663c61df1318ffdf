/*
 * gc_psqlodbc: what it takes for psqlODBC's connection strings to mean the
 * same here: its abbreviated option mask (CX) and the percent-encoding it
 * writes ConnSettings and pqopt in. The keys themselves are rows of the key
 * table (gc_keys.c); docs/connection-keys.md lists them with their status.
 */
#ifndef GC_PSQLODBC_H
#define GC_PSQLODBC_H

#include <stdbool.h>

#include "config/gc_settings.h"

/* Applies psqlODBC's CX value to s: two hex digits giving how many bits
 * count, then a hex mask whose bits each set a Yes/No key (or UnknownSizes).
 * Keys gcodbc accepts without effect are skipped. False, s unchanged, when
 * value is not of that form. */
bool gc_psqlodbc_apply_cx(const char *value, gc_settings *s);

/* Decodes %XX sequences of text, as psqlODBC reads ConnSettings and pqopt;
 * other bytes (a '%' not followed by two hex digits included) are kept.
 * Returns a malloc'd string the caller frees, NULL when memory ran out. */
char *gc_psqlodbc_decode_percent(const char *text);
/* The same for ConnSettings, where psqlODBC also reads '+' as a space (as in
 * a form-encoded value: "set+client_encoding+to+UTF8"); write %2B for a '+'. */
char *gc_psqlodbc_decode_conn_settings(const char *text);

#endif
