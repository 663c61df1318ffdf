/*
 * gc_topology: who is in the cluster. Read from the `gcluster` catalog of any
 * member (docs/cluster.md), or from a locator file when no seed answers.
 * Plain data, owned by whoever loaded it; safe to share read-only.
 */
#ifndef GC_TOPOLOGY_H
#define GC_TOPOLOGY_H

#include <stdbool.h>
#include <stdint.h>

#include "config/gc_locator.h"
#include "member/gc_member.h"
#include "util/gc_error.h"

typedef struct gc_topo_member {
    char *name;          /* "G1N1" */
    int group;           /* index into gc_topology.groups */
    char *host;
    char *port;
    bool catalog_primary; /* the catalog's view; the server's in_hot_standby is the truth */
} gc_topo_member;

typedef struct gc_topo_group {
    char *name;          /* "G1" */
    char *fdw_server;    /* the postgres_fdw server that reaches this group from the others */
} gc_topo_group;

typedef struct gc_topology {
    char *cluster;       /* cluster name; NULL when unknown (locator without one) */
    int64_t version;     /* gcluster.version; -1 when read from a locator file */
    int n_groups;
    gc_topo_group *groups;      /* in catalog (spec) order */
    int n_members;
    gc_topo_member *members;    /* in catalog order: a group's primary first */
} gc_topology;

/* Reads the catalog through an open session (one round trip). On failure
 * returns false with err; *out is left empty. Free with gc_topology_free. */
bool gc_topology_load(gc_member *session, gc_topology *out, gc_error *err);
/* The same, with more statements in the same round trip: `also` (simple-query
 * text) runs after the topology query, and the results of its first n_also
 * (at most 7) statements that return rows go to also_rows when the whole
 * load succeeds (the caller PQclears them). */
bool gc_topology_load_with(gc_member *session, const char *also, PGresult **also_rows,
                           int n_also, gc_topology *out, gc_error *err);

/* Builds a topology from a locator file's members (version -1). */
bool gc_topology_from_locator(const gc_locator *loc, gc_topology *out, gc_error *err);

void gc_topology_free(gc_topology *t);

/* A deep copy of src into *dst (which the caller frees); false with HY001
 * when memory runs out, *dst left empty. */
bool gc_topology_copy(const gc_topology *src, gc_topology *dst, gc_error *err);

/* The process remembers the last topology read from a catalog for each set
 * of connection settings (key: whatever names them, made by the caller), so
 * a later connection can open every member at once instead of first a seed,
 * then the rest. What it remembers is only a guess: the catalog is still
 * read, through one of those sessions. get fills *out with a copy (free it)
 * and returns false when nothing is known. */
void gc_topology_remember(const char *key, const gc_topology *t);
bool gc_topology_recall(const char *key, gc_topology *out);

/* Index of the group named `name`, or of the group whose FDW server is
 * `fdw_server`; -1 when none. */
int gc_topology_group_index(const gc_topology *t, const char *name);
int gc_topology_group_of_fdw_server(const gc_topology *t, const char *fdw_server);

#endif
