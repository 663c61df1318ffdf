/*
 * bench_owners.h: the owners file of the sharded benchmarks (shared by the
 * programs under bench/): one "id group" line per account, group being the
 * 0-based index of the group whose servers store it, as run.sh read it
 * from the servers.
 */
#ifndef BENCH_OWNERS_H
#define BENCH_OWNERS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct bench_owners {
    int64_t *ids;
    int *groups;
    size_t n;
} bench_owners;

/* Frees what bench_owners_load allocated. */
static inline void bench_owners_free(bench_owners *o)
{
    free(o->ids);
    free(o->groups);
    memset(o, 0, sizeof *o);
}

/* Reads path into o; false with a message (prefixed with tool) on failure. */
static inline bool bench_owners_load(bench_owners *o, const char *tool, const char *path)
{
    FILE *f = fopen(path, "r");
    size_t cap = 1024;
    long long id;
    int g;

    memset(o, 0, sizeof *o);
    if (!f) {
        fprintf(stderr, "%s: cannot read %s\n", tool, path);
        return false;
    }
    bool failed = false;
    o->ids = malloc(cap * sizeof *o->ids);
    o->groups = malloc(cap * sizeof *o->groups);
    failed = !o->ids || !o->groups;
    while (!failed && fscanf(f, "%lld %d", &id, &g) == 2) {
        if (o->n == cap) {
            cap *= 2;
            int64_t *ids = realloc(o->ids, cap * sizeof *ids);
            if (ids)
                o->ids = ids;
            int *groups = ids ? realloc(o->groups, cap * sizeof *groups) : NULL;
            if (groups)
                o->groups = groups;
            failed = !ids || !groups;
            if (failed)
                break;
        }
        o->ids[o->n] = id;
        o->groups[o->n++] = g;
    }
    fclose(f);
    if (failed || o->n == 0) {
        fprintf(stderr, "%s: %s: no accounts (or out of memory)\n", tool, path);
        bench_owners_free(o);
        return false;
    }
    return true;
}

#endif
