/*
 * gc_connstr: the ODBC connection string grammar.
 *
 *   string := [pair] (';' [pair])*        empty pairs (";;") are skipped
 *   pair   := key '=' value
 *   key    := any characters but '=' and ';', whitespace around it trimmed
 *   value  := '{' braced '}' | plain
 *   braced := any characters; "}}" is one literal '}'; kept exactly
 *   plain  := any characters but ';', whitespace around it trimmed
 *
 * A pair without '=', an empty key, an unterminated brace or text after a
 * closing brace is malformed: SQLSTATE 01S00 (invalid connection string
 * attribute), returned as an error.
 */
#ifndef GC_CONNSTR_H
#define GC_CONNSTR_H

#include <stdbool.h>
#include <stddef.h>

#include "util/gc_error.h"
#include "util/gc_strbuf.h"

/* len value meaning "NUL-terminated" (the caller's SQL_NTS, translated). */
#define GC_CONNSTR_NTS ((size_t)-1)

typedef struct gc_connstr_pair {
    char *key;     /* trimmed, as written */
    char *value;   /* unquoted; "" for an empty value */
} gc_connstr_pair;

typedef struct gc_connstr {
    gc_connstr_pair *pairs;   /* in the order written; duplicates kept */
    size_t count;
    size_t capacity;          /* pairs allocated; doubles, so parsing is linear */
} gc_connstr;

/* Parses text[0..len) (stopping early at a NUL) into out, which the caller
 * frees with gc_connstr_free (also after a failure). Malformed: false with
 * err 01S00 giving the byte offset; values are never quoted in the message. */
bool gc_connstr_parse(const char *text, size_t len, gc_connstr *out, gc_error *err);
void gc_connstr_free(gc_connstr *cs);

/* Appends "key=value;" to sb, bracing value when it must be: it contains ';',
 * '{' or '}', or starts or ends with whitespace ('}' is then doubled). */
void gc_connstr_append_pair(gc_strbuf *sb, const char *key, const char *value);

#endif
