/*
 * gcctl_spec: the cluster spec (YAML) as data. A spec names the cluster, the
 * database and the application role, lists the members (a group's first
 * member is its primary) and the tables (sharded or solo). Parsing keeps the
 * line and column of every item so that validation errors point at the file.
 */
#ifndef GCCTL_SPEC_H
#define GCCTL_SPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "util/gc_error.h"

/* Where an item starts in the spec file, 1-based. */
typedef struct gcctl_pos {
    int line;
    int column;
} gcctl_pos;

typedef struct gcctl_strlist {
    char **items;
    size_t n;
} gcctl_strlist;

typedef struct gcctl_member {
    char *name;
    char *group;
    char *host;
    int port;            /* 0: pick a free port (local clusters only) */
    bool is_primary;     /* first member of its group in the spec */
    gcctl_pos pos;
} gcctl_member;

typedef enum gcctl_method {
    GCCTL_SOLO = 0,
    GCCTL_HASH,
    GCCTL_RANGE,
    GCCTL_LIST
} gcctl_method;

/* A literal bound value: text as written, or NULL (list partitions). */
typedef struct gcctl_value {
    char *text;          /* NULL when is_null */
    bool is_null;
    bool is_keyword;     /* MINVALUE / MAXVALUE in a range bound */
} gcctl_value;

typedef struct gcctl_shard {
    char *name;          /* partition name; defaults to <table>_<n> */
    char *group;         /* owner group */
    int remainder;       /* hash: remainder of modulus = nshards */
    gcctl_value *from;   /* range: lower bound per key column, NULL = MINVALUE */
    size_t nfrom;
    gcctl_value *to;     /* range: upper bound per key column, NULL = MAXVALUE */
    size_t nto;
    gcctl_value *values; /* list: the listed values */
    size_t nvalues;
    bool is_default;     /* range/list DEFAULT partition */
    gcctl_pos pos;
} gcctl_shard;

typedef struct gcctl_table {
    char *name;
    gcctl_strlist columns;        /* column definitions, SQL as written */
    gcctl_strlist column_names;   /* the first word of each definition */
    gcctl_strlist primary_key;
    gcctl_strlist *uniques;       /* each a list of columns */
    size_t nuniques;
    gcctl_method method;
    gcctl_strlist key;            /* sharding key columns */
    char *group;                  /* solo tables: the owner group */
    gcctl_shard *shards;
    size_t nshards;
    gcctl_pos pos;
} gcctl_table;

/* How a group's primary commits: asynchronous (the COMMIT returns once the
 * primary has it) or synchronous (once a standby of the group has it too). */
typedef enum gcctl_replication {
    GCCTL_REPLICATION_ASYNC = 0,
    GCCTL_REPLICATION_SYNC
} gcctl_replication;

typedef struct gcctl_spec {
    char *file;                   /* where it was read from, for messages */
    char *cluster;
    char *database;
    char *user;                   /* the application role */
    char *password;
    char *admin;                  /* role allowed to bump the version; default user */
    char *superuser;              /* for connecting to members; NULL: libpq default */
    char *superuser_password;
    char *replication_text;       /* 'replication' as written; NULL: absent */
    gcctl_pos replication_pos;
    gcctl_replication replication; /* from replication_text, set by the check */
    bool ha;                      /* groups with a standby fail over by themselves
                                   * (pg_auto_failover, local clusters); true
                                   * unless the spec says 'ha: false' */
    gcctl_member *members;
    size_t nmembers;
    gcctl_strlist groups;         /* group names in order of first appearance */
    gcctl_table *tables;
    size_t ntables;
} gcctl_spec;

/* Reads and validates a spec file. On success fills *spec (the caller frees it
 * with gcctl_spec_free) and returns true; on failure sets err to one line
 * "file:line:column: what is wrong" and returns false. */
bool gcctl_spec_load(const char *path, gcctl_spec *spec, gc_error *err);

/* Parses without validating (gcctl_spec_check does that). */
bool gcctl_spec_parse(const char *path, gcctl_spec *spec, gc_error *err);

/* Validates a parsed spec and fills derived data (groups, primaries, hash
 * shard placement, default shard names). */
bool gcctl_spec_check(gcctl_spec *spec, gc_error *err);

void gcctl_spec_free(gcctl_spec *spec);

/* Writes the spec back as YAML (with its current ports). */
bool gcctl_spec_write(const gcctl_spec *spec, const char *path, gc_error *err);

/* Writes the locator file the driver reads: cluster name and every member. */
bool gcctl_spec_write_locator(const gcctl_spec *spec, const char *path, gc_error *err);

/* Appends a member (copies the strings); run gcctl_spec_check afterwards. */
void gcctl_spec_add_member(gcctl_spec *spec, const char *name, const char *group,
                           const char *host, int port);

/* Moves member m to just before the current primary of its group, making it
 * the primary; run gcctl_spec_check afterwards. */
void gcctl_spec_make_primary(gcctl_spec *spec, const char *name);

/* Lookups; NULL when absent. */
gcctl_member *gcctl_spec_member(const gcctl_spec *spec, const char *name);
gcctl_member *gcctl_spec_primary(const gcctl_spec *spec, const char *group);
gcctl_table *gcctl_spec_table(const gcctl_spec *spec, const char *name);
bool gcctl_spec_has_group(const gcctl_spec *spec, const char *group);

const char *gcctl_method_name(gcctl_method m);

/* strlist helpers: push copies s; returns false on allocation failure. */
bool gcctl_strlist_push(gcctl_strlist *l, const char *s);
bool gcctl_strlist_contains(const gcctl_strlist *l, const char *s);
void gcctl_strlist_free(gcctl_strlist *l);

/* Allocation helpers that never return NULL (the tool exits on OOM). */
void *gcctl_xcalloc(size_t n, size_t size);
char *gcctl_xstrdup(const char *s);

#endif
