/*
 * gc_dsn: reading a data source's keys from odbc.ini through unixODBC's
 * installer library (SQLGetPrivateProfileString), which looks in the user's
 * and the system's odbc.ini and honours ODBCINI and ODBCSYSINI.
 *
 * unixODBC caches what it reads for a short while, keyed by section and
 * entry: a file changed within the same process may be seen late.
 */
#include "config/gc_settings.h"

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <odbcinst.h>

#include "config/gc_keys.h"

/* unixODBC limits one value to 1000 bytes; key lists can be longer. */
#define VALUE_MAX 4096
#define KEY_LIST_MAX 16384

/* unixODBC's profile cache is process-wide; connections opened from several
 * threads read it through this lock so our reads never interleave. */
static pthread_mutex_t profile_lock = PTHREAD_MUTEX_INITIALIZER;

/* Stands for "entry absent": no odbc.ini value can hold a byte 0x01. */
static const char ABSENT[] = "\x01";

/* Reads entry of section dsn into buf; false when the entry is absent. */
static bool read_entry(const char *dsn, const char *entry, char *buf, int size)
{
    buf[0] = '\0';
    int n = SQLGetPrivateProfileString(dsn, entry, ABSENT, buf, size, "odbc.ini");
    if (n < 0)
        return false;
    return strcmp(buf, ABSENT) != 0;
}

/* Traces and remembers (for the connection's 01S00) every entry of the
 * section that is not one of our keys. Returns false when the section has
 * no entries at all (no such DSN). */
static bool list_entries(gc_settings *s, const char *dsn, gc_trace *trace)
{
    char *names = calloc(1, KEY_LIST_MAX);
    if (names == NULL)
        return true;   /* cannot tell; the Driver check below still runs */
    int n = SQLGetPrivateProfileString(dsn, NULL, "", names, KEY_LIST_MAX, "odbc.ini");
    bool found = n > 0 && names[0] != '\0';
    /* names is "a\0b\0c\0\0"; a truncated list just traces less. */
    for (const char *p = names; found && p < names + KEY_LIST_MAX && *p != '\0';
         p += strlen(p) + 1) {
        if (gc_keys_find(p) == NULL) {
            gc_trace_write(trace, GC_TRACE_INFO,
                           "DSN '%s': ignoring unknown key '%s'", dsn, p);
            gc_settings_note_unknown_key(s, p);
        }
    }
    free(names);
    return found;
}

static bool load_locked(gc_settings *s, const char *dsn, gc_trace *trace,
                        gc_error *err);

/* Reads section dsn of odbc.ini into s; see gc_settings.h. A bad value
 * leaves s partly filled: callers discard it on failure. */
bool gc_settings_load_dsn(gc_settings *s, const char *dsn, gc_trace *trace,
                          gc_error *err)
{
    assert(s != NULL);
    if (dsn == NULL || dsn[0] == '\0') {
        gc_error_set(err, "IM002", 0, "data source name not found: no DSN given");
        return false;
    }
    pthread_mutex_lock(&profile_lock);
    bool ok = load_locked(s, dsn, trace, err);
    pthread_mutex_unlock(&profile_lock);
    return ok;
}

/* With profile_lock held: checks that the section exists, then for each key
 * of the table stores the first of its spellings (name, GOLDILOCKS alias,
 * other aliases, psqlODBC's name and abbreviation) present in the section. */
static bool load_locked(gc_settings *s, const char *dsn, gc_trace *trace, gc_error *err)
{
    if (!list_entries(s, dsn, trace)) {
        gc_error_set(err, "IM002", 0,
                     "data source name not found: no DSN '%s' in odbc.ini "
                     "(user file ODBCINI or ~/.odbc.ini, system file in ODBCSYSINI)",
                     dsn);
        return false;
    }
    char *value = malloc(VALUE_MAX);
    if (value == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory reading DSN '%s'", dsn);
        return false;
    }
    bool ok = true;
    for (size_t i = 0; ok && i < gc_keys_count; i++) {
        const gc_key *key = &gc_keys[i];
        if (key->flags & GC_KEY_NOT_IN_DSN)
            continue;
        const char *spellings[GC_KEY_MAX_SPELLINGS];
        size_t n = gc_key_spellings(key, spellings);
        for (size_t k = 0; k < n; k++) {
            if (!read_entry(dsn, spellings[k], value, VALUE_MAX))
                continue;
            ok = gc_key_store(key, spellings[k], value, s, err);
            if (!ok) {
                /* Say where the bad value came from; the message already
                 * names the key. */
                gc_error inner = *err;
                gc_error_set(err, inner.sqlstate, inner.native, "DSN '%s': %s",
                             dsn, inner.message);
            }
            break;
        }
    }
    free(value);
    if (!ok)
        return false;
    char *name = strdup(dsn);
    if (name == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory reading DSN '%s'", dsn);
        return false;
    }
    free(s->dsn);
    s->dsn = name;
    return true;
}
