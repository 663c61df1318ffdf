/*
 * gc_connstr: connection string parsing and writing, and
 * gc_settings_from_connection_string (the SQLDriverConnect input).
 */
#include "config/gc_connstr.h"

#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/gc_keys.h"
#include "config/gc_settings.h"

static bool is_space(char c)
{
    return isspace((unsigned char)c) != 0;
}

static char *dup_range(const char *start, size_t len)
{
    char *copy = malloc(len + 1);
    if (copy != NULL) {
        memcpy(copy, start, len);
        copy[len] = '\0';
    }
    return copy;
}

/* Appends one pair to cs, taking ownership of key and value (freed on
 * failure). The array doubles when full: a string of n pairs costs O(n). */
static bool add_pair(gc_connstr *cs, char *key, char *value)
{
    if (key == NULL || value == NULL) {
        free(key);
        free(value);
        return false;
    }
    if (cs->count == cs->capacity) {
        size_t capacity = cs->capacity ? cs->capacity * 2 : 16;
        gc_connstr_pair *grown = realloc(cs->pairs, capacity * sizeof *cs->pairs);
        if (grown == NULL) {
            free(key);
            free(value);
            return false;
        }
        cs->pairs = grown;
        cs->capacity = capacity;
    }
    cs->pairs[cs->count].key = key;
    cs->pairs[cs->count].value = value;
    cs->count++;
    return true;
}

/* Reads a braced value starting just after '{' at text[*pos]; on success
 * *pos is just after the closing brace and *out the unquoted value. */
static bool read_braced(const char *text, size_t len, size_t *pos, char **out)
{
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    size_t i = *pos;
    for (;;) {
        if (i >= len) {
            gc_strbuf_free(&sb);
            return false;
        }
        if (text[i] == '}') {
            if (i + 1 < len && text[i + 1] == '}') {
                gc_strbuf_append_char(&sb, '}');
                i += 2;
                continue;
            }
            break;
        }
        gc_strbuf_append_char(&sb, text[i]);
        i++;
    }
    *pos = i + 1;
    /* take() never returns NULL for an empty success; NULL means no memory */
    *out = gc_strbuf_take(&sb);
    return true;
}

bool gc_connstr_parse(const char *text, size_t len, gc_connstr *out, gc_error *err)
{
    assert(out != NULL);
    out->pairs = NULL;
    out->count = 0;
    out->capacity = 0;
    if (text == NULL)
        return true;
    size_t limit = len == GC_CONNSTR_NTS ? strlen(text) : strnlen(text, len);
    size_t pos = 0;
    while (pos < limit) {
        while (pos < limit && (is_space(text[pos]) || text[pos] == ';'))
            pos++;
        if (pos >= limit)
            break;
        size_t key_start = pos;
        while (pos < limit && text[pos] != '=' && text[pos] != ';')
            pos++;
        size_t key_end = pos;
        while (key_end > key_start && is_space(text[key_end - 1]))
            key_end--;
        if (pos >= limit || text[pos] != '=') {
            /* Not quoted: an unbraced ';' in a password would put part of
             * the password here. */
            gc_error_set(err, "01S00", 0,
                         "invalid connection string attribute at offset %zu: "
                         "no '=' before the next ';' (braces quote a value "
                         "holding ';': KEY={a;b})", key_start);
            return false;
        }
        if (key_end == key_start) {
            gc_error_set(err, "01S00", 0,
                         "invalid connection string attribute at offset %zu: "
                         "empty key before '='", key_start);
            return false;
        }
        char *key = dup_range(text + key_start, key_end - key_start);
        pos++;   /* '=' */
        while (pos < limit && is_space(text[pos]))
            pos++;
        char *value = NULL;
        if (pos < limit && text[pos] == '{') {
            size_t brace = pos;
            pos++;
            if (!read_braced(text, limit, &pos, &value)) {
                gc_error_set(err, "01S00", 0,
                             "invalid connection string attribute at offset %zu: "
                             "'{' opening the value of %s is never closed",
                             brace, key ? key : "a key");
                free(key);
                return false;
            }
            while (pos < limit && is_space(text[pos]))
                pos++;
            if (pos < limit && text[pos] != ';') {
                gc_error_set(err, "01S00", 0,
                             "invalid connection string attribute at offset %zu: "
                             "text after the closing '}' of %s (a literal '}' is "
                             "written '}}')", pos, key ? key : "a key");
                free(key);
                free(value);
                return false;
            }
        } else {
            size_t value_start = pos;
            while (pos < limit && text[pos] != ';')
                pos++;
            size_t value_end = pos;
            while (value_end > value_start && is_space(text[value_end - 1]))
                value_end--;
            value = dup_range(text + value_start, value_end - value_start);
        }
        if (!add_pair(out, key, value)) {
            gc_error_set(err, "HY001", 0, "out of memory parsing the connection string");
            return false;
        }
    }
    return true;
}

void gc_connstr_free(gc_connstr *cs)
{
    if (cs == NULL)
        return;
    for (size_t i = 0; i < cs->count; i++) {
        free(cs->pairs[i].key);
        free(cs->pairs[i].value);
    }
    free(cs->pairs);
    cs->pairs = NULL;
    cs->count = 0;
    cs->capacity = 0;
}

void gc_connstr_append_pair(gc_strbuf *sb, const char *key, const char *value)
{
    size_t len = strlen(value);
    bool brace = strpbrk(value, ";{}") != NULL ||
                 (len > 0 && (is_space(value[0]) || is_space(value[len - 1])));
    gc_strbuf_append_str(sb, key);
    gc_strbuf_append_char(sb, '=');
    if (!brace) {
        gc_strbuf_append_str(sb, value);
    } else {
        gc_strbuf_append_char(sb, '{');
        for (const char *p = value; *p != '\0'; p++) {
            gc_strbuf_append_char(sb, *p);
            if (*p == '}')
                gc_strbuf_append_char(sb, '}');
        }
        gc_strbuf_append_char(sb, '}');
    }
    gc_strbuf_append_char(sb, ';');
}

static bool is_dsn_key(const char *key)
{
    return strcasecmp(key, "DSN") == 0;
}

static bool is_driver_key(const char *key)
{
    return strcasecmp(key, "DRIVER") == 0 || strcasecmp(key, "FILEDSN") == 0;
}

/* Loads the DSN the string names, then applies the string's pairs in order,
 * so the string overrides the DSN and, among duplicates, the last one wins.
 * As in the unixODBC driver manager, whichever of DSN and DRIVER (or FILEDSN)
 * comes first decides; pairs of the other kind are ignored. */
bool gc_settings_from_connection_string(gc_settings *s, const char *connstr,
                                        size_t len, gc_trace *trace, gc_error *err)
{
    assert(s != NULL);
    gc_connstr cs;
    if (!gc_connstr_parse(connstr, len, &cs, err)) {
        gc_connstr_free(&cs);
        return false;
    }
    int mode = 0;   /* 0 none yet, 1 DSN, 2 DRIVER */
    const char *dsn = NULL;
    for (size_t i = 0; i < cs.count; i++) {
        if (mode == 0 && is_dsn_key(cs.pairs[i].key))
            mode = 1;
        else if (mode == 0 && is_driver_key(cs.pairs[i].key))
            mode = 2;
        if (mode == 1 && is_dsn_key(cs.pairs[i].key))
            dsn = cs.pairs[i].value;
    }
    bool ok = true;
    if (dsn != NULL && dsn[0] != '\0')
        ok = gc_settings_load_dsn(s, dsn, trace, err);
    for (size_t i = 0; ok && i < cs.count; i++) {
        const gc_connstr_pair *pair = &cs.pairs[i];
        if ((mode == 1 && is_driver_key(pair->key)) ||
            (mode == 2 && is_dsn_key(pair->key))) {
            gc_trace_write(trace, GC_TRACE_INFO,
                           "ignoring %s: the connection string named %s first",
                           pair->key, mode == 1 ? "DSN" : "DRIVER");
            continue;
        }
        ok = gc_settings_set(s, pair->key, pair->value, trace, err);
    }
    gc_connstr_free(&cs);
    return ok;
}
