/*
 * gc_keys: the one table of connection keys (DSN entries and connection
 * string attributes). Each row says how a key is spelled (name, GOLDILOCKS
 * alias, other aliases), what values it takes, its default, where its value
 * lives in gc_settings and what it means. Defaults, parsing, the output
 * connection string and docs/connection-keys.md are all made from it.
 *
 * The table is constant data: safe to read from any thread.
 */
#ifndef GC_KEYS_H
#define GC_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#include "config/gc_settings.h"
#include "util/gc_error.h"
#include "util/gc_strbuf.h"

typedef enum gc_key_type {
    GC_KEY_STRING,   /* char *; NULL = unset */
    GC_KEY_BOOL,     /* bool; Yes/No/1/0/true/false/on/off */
    GC_KEY_INT,      /* int within [min, max] */
    GC_KEY_ENUM,     /* char * holding one of choices (its canonical spelling) */
    GC_KEY_ACCEPTED, /* a psqlODBC key that has no effect here: any value is
                        accepted and stored nowhere; doc says why */
    GC_KEY_CX_MASK,  /* psqlODBC's CX: a hex mask standing for several Yes/No
                        keys, set through them (gc_psqlodbc.c) */
} gc_key_type;

/* flags */
#define GC_KEY_SECRET      0x1u  /* value never traced nor put in messages */
#define GC_KEY_NOT_IN_DSN  0x2u  /* not read from an odbc.ini section (DSN itself) */

#define GC_KEY_MAX_ALIASES 3
/* name, GOLDILOCKS alias, aliases, psqlODBC name and abbreviation */
#define GC_KEY_MAX_SPELLINGS (GC_KEY_MAX_ALIASES + 4)

/* Extra syntax check of a string value (Servers, Port). Returns false and
 * writes a short reason ("expected host:port,...") into why. */
typedef bool (*gc_key_check_fn)(const char *value, char *why, size_t why_size);

typedef struct gc_key {
    const char *name;                            /* canonical spelling */
    const char *goldilocks;                      /* GOLDILOCKS spelling or NULL */
    const char *aliases[GC_KEY_MAX_ALIASES + 1]; /* other spellings, NULL-ended */
    gc_key_type type;
    int min, max;                                /* GC_KEY_INT */
    const char *const *choices;                  /* GC_KEY_ENUM, NULL-ended */
    const char *default_value;                   /* as text; NULL = unset */
    size_t offset;                               /* field in gc_settings */
    unsigned flags;
    gc_key_check_fn check;                       /* GC_KEY_STRING, optional */
    const char *value_hint;                      /* type column text for strings */
    const char *doc;                             /* one paragraph, markdown */
    /* psqlODBC's side, for DSNs written for it and for the doc's table */
    const char *psqlodbc;                        /* its spelling, when it has the key */
    const char *psqlodbc_abbrev;                 /* its abbreviation (A0, B9, ...) */
    const char *psqlodbc_default;                /* its default, when not ours */
} gc_key;

extern const gc_key gc_keys[];
extern const size_t gc_keys_count;

/* Every spelling of key, each once (ignoring case), name first; returns
 * how many were written into out (at most GC_KEY_MAX_SPELLINGS). */
size_t gc_key_spellings(const gc_key *key, const char **out);

/* True for a key that has a field in gc_settings (not ACCEPTED nor CX). */
bool gc_key_has_field(const gc_key *key);

/* The key spelled `spelling` (name, GOLDILOCKS alias or alias; any case),
 * or NULL when the driver does not know it. */
const gc_key *gc_keys_find(const char *spelling);

/* Parses value (as the user wrote it under `spelling`, for the message) and
 * stores it in s, freeing what was there. An empty value restores the key's
 * default. A bad value: false with HY024 naming the key and what it accepts;
 * s is unchanged. */
bool gc_key_store(const gc_key *key, const char *spelling, const char *value,
                  gc_settings *s, gc_error *err);

/* The value of key in s as text for a connection string (malloc'd; caller
 * frees), or NULL when unset. *oom is set when an allocation failed. */
char *gc_key_format(const gc_key *key, const gc_settings *s, bool *oom);

/* True when s holds the key's default value. */
bool gc_key_is_default(const gc_key *key, const gc_settings *s);

/* Appends what the key accepts ("Yes or No", "integer 0 to 4", ...). */
void gc_key_describe_values(const gc_key *key, gc_strbuf *out);

/* Parses a boolean spelling; false when it is none of the accepted ones. */
bool gc_key_parse_bool(const char *text, bool *out);

#endif
