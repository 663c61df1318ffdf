/*
 * gc_settings: defaults, setting one key, and the completed connection
 * string, all driven by the key table (gc_keys.c).
 */
#include "config/gc_settings.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "config/gc_connstr.h"
#include "config/gc_keys.h"
#include "util/gc_strbuf.h"

/* Zeroes s and stores every key's default. Defaults are constant text the
 * table tests prove parseable; only an allocation can fail, and then the
 * string field stays NULL (libpq's default), which is harmless. */
void gc_settings_init(gc_settings *s)
{
    assert(s != NULL);
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < gc_keys_count; i++) {
        const gc_key *key = &gc_keys[i];
        if (key->default_value == NULL)
            continue;
        gc_error err;
        gc_error_clear(&err);
        bool ok = gc_key_store(key, key->name, key->default_value, s, &err);
        assert(ok || strcmp(err.sqlstate, "HY001") == 0);
        (void)ok;
    }
}

/* Frees every string field; s can be initialized again afterwards. */
void gc_settings_free(gc_settings *s)
{
    if (s == NULL)
        return;
    for (size_t i = 0; i < gc_keys_count; i++) {
        const gc_key *key = &gc_keys[i];
        if (gc_key_has_field(key) &&
            (key->type == GC_KEY_STRING || key->type == GC_KEY_ENUM)) {
            char **field = (char **)((char *)s + key->offset);
            free(*field);
            *field = NULL;
        }
    }
    free(s->unknown_keys);
    s->unknown_keys = NULL;
    s->unknown_key_count = 0;
}

/* Keeps the name while fewer than GC_SETTINGS_UNKNOWN_KEPT are kept, each
 * cut at GC_SETTINGS_UNKNOWN_NAME_MAX bytes, so the list stays small and
 * each call costs at most one copy of it. Losing a name to a failed
 * allocation only loses it from a message. */
void gc_settings_note_unknown_key(gc_settings *s, const char *key)
{
    assert(s != NULL && key != NULL);
    s->unknown_key_count++;
    if (s->unknown_key_count > GC_SETTINGS_UNKNOWN_KEPT)
        return;
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    if (s->unknown_keys != NULL)
        gc_strbuf_appendf(&sb, "%s, ", s->unknown_keys);
    gc_strbuf_appendf(&sb, "%.*s", GC_SETTINGS_UNKNOWN_NAME_MAX, key);
    char *names = gc_strbuf_take(&sb);
    if (names != NULL) {
        free(s->unknown_keys);
        s->unknown_keys = names;
    }
}

bool gc_settings_set(gc_settings *s, const char *key, const char *value,
                     gc_trace *trace, gc_error *err)
{
    assert(s != NULL && key != NULL);
    const gc_key *entry = gc_keys_find(key);
    if (entry == NULL) {
        /* Only the name: an unknown key may well carry a password. */
        gc_trace_write(trace, GC_TRACE_INFO, "ignoring unknown connection key '%s'", key);
        gc_settings_note_unknown_key(s, key);
        return true;
    }
    return gc_key_store(entry, key, value ? value : "", s, err);
}

/* Appends KEY=value; to sb, using the key's canonical name. */
static void append_key(gc_strbuf *sb, const gc_key *key, const gc_settings *s,
                       bool *oom)
{
    char *value = gc_key_format(key, s, oom);
    if (value != NULL)
        gc_connstr_append_pair(sb, key->name, value);
    free(value);
}

/* DSN= (or DRIVER= when there is no DSN) first, then every key whose value
 * is not its default, in table order. Returns a malloc'd string or NULL when
 * memory ran out. */
char *gc_settings_to_connection_string(const gc_settings *s)
{
    assert(s != NULL);
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    bool oom = false;
    const gc_key *dsn = gc_keys_find("DSN");
    const gc_key *driver = gc_keys_find("Driver");
    bool has_dsn = s->dsn != NULL && s->dsn[0] != '\0';
    /* With a DSN the driver manager finds the driver from odbc.ini; naming
     * both would make it pick whichever comes first. */
    append_key(&sb, has_dsn ? dsn : driver, s, &oom);
    for (size_t i = 0; i < gc_keys_count && !oom; i++) {
        const gc_key *key = &gc_keys[i];
        if (key == dsn || key == driver || gc_key_is_default(key, s))
            continue;
        append_key(&sb, key, s, &oom);
    }
    if (oom) {
        gc_strbuf_free(&sb);
        return NULL;
    }
    return gc_strbuf_take(&sb);
}
