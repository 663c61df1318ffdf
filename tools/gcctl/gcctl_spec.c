/*
 * gcctl_spec: lookups, freeing, and writing a spec back as YAML (the local
 * cluster keeps its spec with real ports in DIR/cluster.yaml) and the
 * locator file the driver reads.
 */
#include "gcctl_spec.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gcctl_replace.h"

void *gcctl_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) {
        fputs("gcctl: out of memory\n", stderr);
        exit(2);
    }
    return p;
}

char *gcctl_xstrdup(const char *s)
{
    size_t len = strlen(s);
    char *p = gcctl_xcalloc(len + 1, 1);
    memcpy(p, s, len);
    return p;
}

bool gcctl_strlist_push(gcctl_strlist *l, const char *s)
{
    char **items = realloc(l->items, (l->n + 1) * sizeof *items);
    if (!items) {
        fputs("gcctl: out of memory\n", stderr);
        exit(2);
    }
    l->items = items;
    l->items[l->n++] = gcctl_xstrdup(s);
    return true;
}

bool gcctl_strlist_contains(const gcctl_strlist *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i], s) == 0)
            return true;
    return false;
}

void gcctl_strlist_free(gcctl_strlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->items[i]);
    free(l->items);
    l->items = NULL;
    l->n = 0;
}

static void values_free(gcctl_value *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i].text);
    free(v);
}

void gcctl_spec_free(gcctl_spec *spec)
{
    free(spec->file);
    free(spec->cluster);
    free(spec->database);
    free(spec->user);
    free(spec->password);
    free(spec->admin);
    free(spec->superuser);
    free(spec->superuser_password);
    free(spec->replication_text);
    for (size_t i = 0; i < spec->nmembers; i++) {
        free(spec->members[i].name);
        free(spec->members[i].group);
        free(spec->members[i].host);
    }
    free(spec->members);
    gcctl_strlist_free(&spec->groups);
    for (size_t i = 0; i < spec->ntables; i++) {
        gcctl_table *t = &spec->tables[i];
        free(t->name);
        free(t->group);
        gcctl_strlist_free(&t->columns);
        gcctl_strlist_free(&t->column_names);
        gcctl_strlist_free(&t->primary_key);
        gcctl_strlist_free(&t->key);
        for (size_t u = 0; u < t->nuniques; u++)
            gcctl_strlist_free(&t->uniques[u]);
        free(t->uniques);
        for (size_t s = 0; s < t->nshards; s++) {
            free(t->shards[s].name);
            free(t->shards[s].group);
            values_free(t->shards[s].from, t->shards[s].nfrom);
            values_free(t->shards[s].to, t->shards[s].nto);
            values_free(t->shards[s].values, t->shards[s].nvalues);
        }
        free(t->shards);
    }
    free(spec->tables);
    memset(spec, 0, sizeof *spec);
}

void gcctl_spec_add_member(gcctl_spec *spec, const char *name, const char *group,
                           const char *host, int port)
{
    gcctl_member *members = realloc(spec->members, (spec->nmembers + 1) * sizeof *members);
    if (!members) {
        fputs("gcctl: out of memory\n", stderr);
        exit(2);
    }
    spec->members = members;
    gcctl_member *m = &spec->members[spec->nmembers++];
    memset(m, 0, sizeof *m);
    m->name = gcctl_xstrdup(name);
    m->group = gcctl_xstrdup(group);
    m->host = gcctl_xstrdup(host);
    m->port = port;
    m->pos.line = 1;
    m->pos.column = 1;
}

void gcctl_spec_make_primary(gcctl_spec *spec, const char *name)
{
    gcctl_member *m = gcctl_spec_member(spec, name);
    assert(m != NULL);
    size_t from = (size_t)(m - spec->members), to = from;
    for (size_t i = 0; i < spec->nmembers; i++)
        if (spec->members[i].is_primary && strcmp(spec->members[i].group, m->group) == 0)
            to = i;
    if (to >= from)
        return;
    gcctl_member moved = *m;
    memmove(&spec->members[to + 1], &spec->members[to], (from - to) * sizeof moved);
    spec->members[to] = moved;
}

gcctl_member *gcctl_spec_member(const gcctl_spec *spec, const char *name)
{
    for (size_t i = 0; i < spec->nmembers; i++)
        if (strcasecmp(spec->members[i].name, name) == 0)
            return &spec->members[i];
    return NULL;
}

gcctl_member *gcctl_spec_primary(const gcctl_spec *spec, const char *group)
{
    for (size_t i = 0; i < spec->nmembers; i++)
        if (spec->members[i].is_primary && strcmp(spec->members[i].group, group) == 0)
            return &spec->members[i];
    return NULL;
}

gcctl_table *gcctl_spec_table(const gcctl_spec *spec, const char *name)
{
    for (size_t i = 0; i < spec->ntables; i++)
        if (strcmp(spec->tables[i].name, name) == 0)
            return &spec->tables[i];
    return NULL;
}

bool gcctl_spec_has_group(const gcctl_spec *spec, const char *group)
{
    return gcctl_strlist_contains(&spec->groups, group);
}

const char *gcctl_method_name(gcctl_method m)
{
    switch (m) {
    case GCCTL_HASH: return "hash";
    case GCCTL_RANGE: return "range";
    case GCCTL_LIST: return "list";
    case GCCTL_SOLO: return "solo";
    }
    return "?";
}

/* Writes s as a double-quoted YAML scalar. */
static void put_quoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void put_strlist(FILE *f, const gcctl_strlist *l)
{
    fputc('[', f);
    for (size_t i = 0; i < l->n; i++) {
        if (i) fputs(", ", f);
        put_quoted(f, l->items[i]);
    }
    fputc(']', f);
}

static void put_values(FILE *f, const gcctl_value *v, size_t n)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++) {
        if (i) fputs(", ", f);
        if (v[i].is_null) fputs("null", f);
        else if (v[i].is_keyword) fputs(v[i].text, f);
        else put_quoted(f, v[i].text);
    }
    fputc(']', f);
}

static void put_table(FILE *f, const gcctl_table *t)
{
    fprintf(f, "  - name: %s\n    columns: ", t->name);
    put_strlist(f, &t->columns);
    fputc('\n', f);
    if (t->primary_key.n) {
        fputs("    primary_key: ", f);
        put_strlist(f, &t->primary_key);
        fputc('\n', f);
    }
    if (t->nuniques) {
        fputs("    unique: [", f);
        for (size_t u = 0; u < t->nuniques; u++) {
            if (u) fputs(", ", f);
            put_strlist(f, &t->uniques[u]);
        }
        fputs("]\n", f);
    }
    if (t->method == GCCTL_SOLO) {
        fprintf(f, "    group: %s\n", t->group);
        return;
    }
    fprintf(f, "    sharding:\n      method: %s\n      key: ", gcctl_method_name(t->method));
    put_strlist(f, &t->key);
    fputs("\n      shards:\n", f);
    for (size_t s = 0; s < t->nshards; s++) {
        const gcctl_shard *sh = &t->shards[s];
        fprintf(f, "        - {name: %s, group: %s", sh->name, sh->group);
        if (sh->nfrom) { fputs(", from: ", f); put_values(f, sh->from, sh->nfrom); }
        if (sh->nto) { fputs(", to: ", f); put_values(f, sh->to, sh->nto); }
        if (sh->nvalues) { fputs(", values: ", f); put_values(f, sh->values, sh->nvalues); }
        if (sh->is_default) fputs(", default: true", f);
        fputs("}\n", f);
    }
}

/* A spec holds passwords: a new one is private, a rewrite keeps the mode
 * the user gave the file. */
bool gcctl_spec_write(const gcctl_spec *spec, const char *path, gc_error *err)
{
    gcctl_replacement r;
    if (!gcctl_replace_begin(&r, path, GCCTL_MODE_SECRET, err))
        return false;
    FILE *f = r.f;
    fprintf(f, "# written by gcctl: the cluster spec with the ports in use\n");
    fprintf(f, "cluster: %s\ndatabase: %s\nuser: %s\npassword: ", spec->cluster, spec->database, spec->user);
    put_quoted(f, spec->password);
    fputc('\n', f);
    if (spec->admin)
        fprintf(f, "admin: %s\n", spec->admin);
    if (spec->superuser)
        fprintf(f, "superuser: %s\n", spec->superuser);
    if (spec->superuser_password) {
        fputs("superuser_password: ", f);
        put_quoted(f, spec->superuser_password);
        fputc('\n', f);
    }
    if (spec->replication == GCCTL_REPLICATION_SYNC)
        fputs("replication: synchronous\n", f);
    fputs(spec->ha ? "ha: true\n" : "ha: false\n", f);
    fputs("members:\n", f);
    for (size_t i = 0; i < spec->nmembers; i++) {
        const gcctl_member *m = &spec->members[i];
        fprintf(f, "  - {name: %s, group: %s, host: %s, port: %d}\n", m->name, m->group, m->host, m->port);
    }
    if (spec->ntables) {
        fputs("tables:\n", f);
        for (size_t i = 0; i < spec->ntables; i++)
            put_table(f, &spec->tables[i]);
    }
    return gcctl_replace_commit(&r, err);
}

bool gcctl_spec_write_locator(const gcctl_spec *spec, const char *path, gc_error *err)
{
    gcctl_replacement r;
    if (!gcctl_replace_begin(&r, path, GCCTL_MODE_PUBLIC, err))
        return false;
    FILE *f = r.f;
    fprintf(f, "cluster: %s\nmembers:\n", spec->cluster);
    for (size_t i = 0; i < spec->nmembers; i++) {
        const gcctl_member *m = &spec->members[i];
        fprintf(f, "  - {name: %s, group: %s, host: %s, port: %d}\n", m->name, m->group, m->host, m->port);
    }
    return gcctl_replace_commit(&r, err);
}
