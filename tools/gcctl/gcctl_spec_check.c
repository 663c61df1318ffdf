/*
 * Validation of a parsed spec, and the derived data the rest of gcctl relies
 * on: the list of groups, which member is each group's primary, the owner of
 * every hash shard and a name for every shard.
 */
#include "gcctl_spec.h"
#include "gcctl_sequences.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool fail_pos(gc_error *err, const gcctl_spec *spec, gcctl_pos pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static bool fail_pos(gc_error *err, const gcctl_spec *spec, gcctl_pos pos, const char *fmt, ...)
{
    char msg[GC_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    gc_error_set(err, "HY000", 0, "%s:%d:%d: %s", spec->file, pos.line, pos.column, msg);
    return false;
}

/* Names that need no quoting anywhere: SQL, YAML, file names. Lower case
 * only for SQL objects so that unquoted SQL finds them. */
static bool is_plain_name(const char *s, bool lower_only)
{
    size_t len = strlen(s);
    if (len == 0 || len > 63 || (s[0] >= '0' && s[0] <= '9'))
        return false;
    for (const char *p = s; *p; p++) {
        bool ok = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' ||
                  (!lower_only && *p >= 'A' && *p <= 'Z');
        if (!ok)
            return false;
    }
    return true;
}

/* True when the definition carries a constraint PostgreSQL cannot keep on a
 * partitioned table with foreign partitions. */
static bool has_inline_unique(const char *def)
{
    char *lower = gcctl_xstrdup(def);
    for (char *p = lower; *p; p++)
        if (*p >= 'A' && *p <= 'Z') *p = (char)(*p + 32);
    bool found = strstr(lower, "primary key") || strstr(lower, "unique") || strstr(lower, "references");
    free(lower);
    return found;
}

static bool check_members(gcctl_spec *spec, gc_error *err)
{
    gcctl_strlist_free(&spec->groups);
    for (size_t i = 0; i < spec->nmembers; i++) {
        gcctl_member *m = &spec->members[i];
        if (!is_plain_name(m->name, false))
            return fail_pos(err, spec, m->pos, "member name '%s' must be letters, digits and _", m->name);
        if (!is_plain_name(m->group, false))
            return fail_pos(err, spec, m->pos, "group name '%s' must be letters, digits and _", m->group);
        for (size_t j = 0; j < i; j++) {
            if (strcasecmp(spec->members[j].name, m->name) == 0)
                return fail_pos(err, spec, m->pos, "member name %s is used twice", m->name);
            if (m->port != 0 && spec->members[j].port == m->port &&
                strcmp(spec->members[j].host, m->host) == 0)
                return fail_pos(err, spec, m->pos, "members %s and %s share %s:%d",
                                spec->members[j].name, m->name, m->host, m->port);
        }
        m->is_primary = !gcctl_strlist_contains(&spec->groups, m->group);
        if (m->is_primary) {
            for (size_t g = 0; g < spec->groups.n; g++)
                if (strcasecmp(spec->groups.items[g], m->group) == 0)
                    return fail_pos(err, spec, m->pos, "group %s differs from group %s only by case",
                                    m->group, spec->groups.items[g]);
            gcctl_strlist_push(&spec->groups, m->group);
        }
    }
    if (spec->groups.n > GC_SEQUENCE_STRIDE)
        return fail_pos(err, spec, spec->members[0].pos,
                        "a cluster has at most %d groups (the step of its interleaved "
                        "sequences), this one %zu", GC_SEQUENCE_STRIDE, spec->groups.n);
    for (size_t i = 0; i < spec->nmembers; i++)
        for (size_t g = 0; g < spec->groups.n; g++)
            if (strcasecmp(spec->members[i].name, spec->groups.items[g]) == 0)
                return fail_pos(err, spec, spec->members[i].pos,
                                "member %s has the name of a group", spec->members[i].name);
    return true;
}

static bool check_columns_known(const gcctl_spec *spec, const gcctl_table *t,
                                const gcctl_strlist *cols, const char *what, gc_error *err)
{
    for (size_t i = 0; i < cols->n; i++)
        if (!gcctl_strlist_contains(&t->column_names, cols->items[i]))
            return fail_pos(err, spec, t->pos, "table %s: %s column '%s' is not a column of the table",
                            t->name, what, cols->items[i]);
    return true;
}

/* A unique column set on a sharded table must include every key column:
 * otherwise two shards could hold the same value and nobody would notice. */
static bool check_includes_key(const gcctl_spec *spec, const gcctl_table *t,
                               const gcctl_strlist *cols, const char *what, gc_error *err)
{
    for (size_t i = 0; i < t->key.n; i++)
        if (!gcctl_strlist_contains(cols, t->key.items[i]))
            return fail_pos(err, spec, t->pos,
                            "table %s: the %s must include the sharding key column '%s' "
                            "(uniqueness is kept per shard)", t->name, what, t->key.items[i]);
    return true;
}

static bool check_shards(gcctl_spec *spec, gcctl_table *t, gc_error *err)
{
    bool has_default = false;
    for (size_t i = 0; i < t->nshards; i++) {
        gcctl_shard *s = &t->shards[i];
        if (!s->group)   /* hash shard counts: deal round-robin over the groups */
            s->group = gcctl_xstrdup(spec->groups.items[i % spec->groups.n]);
        if (!gcctl_spec_has_group(spec, s->group))
            return fail_pos(err, spec, s->pos, "table %s: shard group %s is not a group of the members",
                            t->name, s->group);
        if (!s->name) {
            char buf[160];
            snprintf(buf, sizeof buf, "%s_%zu", t->name, i);
            s->name = gcctl_xstrdup(buf);
        }
        if (!is_plain_name(s->name, true))
            return fail_pos(err, spec, s->pos, "shard name '%s' must be lower-case letters, digits and _", s->name);
        switch (t->method) {
        case GCCTL_HASH:
            if (s->nfrom || s->nto || s->nvalues || s->is_default)
                return fail_pos(err, spec, s->pos, "table %s: hash shards take only name and group", t->name);
            break;
        case GCCTL_RANGE:
            if (s->nvalues)
                return fail_pos(err, spec, s->pos, "table %s: range shards take from/to, not values", t->name);
            if (s->is_default) {
                if (s->nfrom || s->nto)
                    return fail_pos(err, spec, s->pos, "table %s: a default shard has no bounds", t->name);
            } else if (!s->nfrom && !s->nto) {
                return fail_pos(err, spec, s->pos, "table %s: a range shard needs from, to or both", t->name);
            }
            if ((s->nfrom && s->nfrom != t->key.n) || (s->nto && s->nto != t->key.n))
                return fail_pos(err, spec, s->pos, "table %s: a bound needs one value per key column (%zu)",
                                t->name, t->key.n);
            for (size_t v = 0; v < s->nfrom; v++)
                if (s->from[v].is_null)
                    return fail_pos(err, spec, s->pos, "table %s: range bounds cannot be null", t->name);
            for (size_t v = 0; v < s->nto; v++)
                if (s->to[v].is_null)
                    return fail_pos(err, spec, s->pos, "table %s: range bounds cannot be null", t->name);
            break;
        case GCCTL_LIST:
            if (s->nfrom || s->nto)
                return fail_pos(err, spec, s->pos, "table %s: list shards take values, not from/to", t->name);
            if (s->is_default ? s->nvalues != 0 : s->nvalues == 0)
                return fail_pos(err, spec, s->pos, "table %s: a list shard needs values or default: true (not both)", t->name);
            break;
        case GCCTL_SOLO:
            return fail_pos(err, spec, s->pos, "table %s: a solo table has no shards", t->name);
        }
        if (s->is_default) {
            if (has_default)
                return fail_pos(err, spec, s->pos, "table %s has two default shards", t->name);
            has_default = true;
        }
    }
    return true;
}

static bool check_table(gcctl_spec *spec, gcctl_table *t, gc_error *err)
{
    if (!is_plain_name(t->name, true))
        return fail_pos(err, spec, t->pos, "table name '%s' must be lower-case letters, digits and _", t->name);
    for (size_t i = 0; i < t->column_names.n; i++)
        for (size_t j = 0; j < i; j++)
            if (strcmp(t->column_names.items[i], t->column_names.items[j]) == 0)
                return fail_pos(err, spec, t->pos, "table %s: column %s is defined twice",
                                t->name, t->column_names.items[i]);
    if (!check_columns_known(spec, t, &t->primary_key, "primary_key", err))
        return false;
    for (size_t u = 0; u < t->nuniques; u++)
        if (!check_columns_known(spec, t, &t->uniques[u], "unique", err))
            return false;
    if (t->method == GCCTL_SOLO) {
        if (!gcctl_spec_has_group(spec, t->group))
            return fail_pos(err, spec, t->pos, "table %s: group %s is not a group of the members",
                            t->name, t->group);
        return true;
    }
    if (!check_columns_known(spec, t, &t->key, "sharding key", err))
        return false;
    if (t->method == GCCTL_LIST && t->key.n != 1)
        return fail_pos(err, spec, t->pos, "table %s: list sharding takes exactly one key column", t->name);
    for (size_t i = 0; i < t->columns.n; i++)
        if (has_inline_unique(t->columns.items[i]))
            return fail_pos(err, spec, t->pos,
                            "table %s: column '%s' declares primary key/unique/references inline; "
                            "a sharded table takes primary_key and unique lists instead",
                            t->name, t->column_names.items[i]);
    if (t->primary_key.n && !check_includes_key(spec, t, &t->primary_key, "primary key", err))
        return false;
    for (size_t u = 0; u < t->nuniques; u++)
        if (!check_includes_key(spec, t, &t->uniques[u], "unique constraint", err))
            return false;
    return check_shards(spec, t, err);
}

/* Every relation name (tables and shards) must be unique in the schema. */
static bool check_relation_names(const gcctl_spec *spec, gc_error *err)
{
    gcctl_strlist seen = { 0 };
    bool ok = true;
    for (size_t i = 0; i < spec->ntables && ok; i++) {
        const gcctl_table *t = &spec->tables[i];
        if (gcctl_strlist_contains(&seen, t->name))
            ok = fail_pos(err, spec, t->pos, "the name %s is used twice", t->name);
        gcctl_strlist_push(&seen, t->name);
        for (size_t s = 0; s < t->nshards && ok; s++) {
            if (gcctl_strlist_contains(&seen, t->shards[s].name))
                ok = fail_pos(err, spec, t->shards[s].pos, "the name %s is used twice", t->shards[s].name);
            gcctl_strlist_push(&seen, t->shards[s].name);
        }
    }
    gcctl_strlist_free(&seen);
    return ok;
}

/* replication: asynchronous (the default) or synchronous. */
static bool check_replication(gcctl_spec *spec, gc_error *err)
{
    const char *r = spec->replication_text;
    if (!r || strcasecmp(r, "asynchronous") == 0)
        spec->replication = GCCTL_REPLICATION_ASYNC;
    else if (strcasecmp(r, "synchronous") == 0)
        spec->replication = GCCTL_REPLICATION_SYNC;
    else
        return fail_pos(err, spec, spec->replication_pos,
                        "replication must be synchronous or asynchronous, not '%s'", r);
    return true;
}

bool gcctl_spec_check(gcctl_spec *spec, gc_error *err)
{
    gcctl_pos top = { 1, 1 };
    if (!is_plain_name(spec->cluster, false))
        return fail_pos(err, spec, top, "cluster name '%s' must be letters, digits and _", spec->cluster);
    if (!is_plain_name(spec->database, true))
        return fail_pos(err, spec, top, "database name '%s' must be lower-case letters, digits and _", spec->database);
    if (!is_plain_name(spec->user, true))
        return fail_pos(err, spec, top, "user '%s' must be lower-case letters, digits and _", spec->user);
    if (spec->admin && !is_plain_name(spec->admin, true))
        return fail_pos(err, spec, top, "admin '%s' must be lower-case letters, digits and _", spec->admin);
    if (!check_replication(spec, err) || !check_members(spec, err))
        return false;
    for (size_t i = 0; i < spec->ntables; i++)
        if (!check_table(spec, &spec->tables[i], err))
            return false;
    return check_relation_names(spec, err);
}
