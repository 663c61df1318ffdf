/*
 * gc_locator: the locator file (Locator / LOCATOR_FILE key), a YAML list of
 * the cluster's members as gcctl writes it:
 *
 *   cluster: demo
 *   members:
 *     - {name: G1N1, group: G1, host: 127.0.0.1, port: 5433}
 *     - {name: G1N2, group: G1, host: 127.0.0.1, port: 5434}
 *
 * cluster is optional; members must list at least one member, each with
 * name, group, host and port (1..65535); member names are unique. Keys the
 * driver does not know are ignored, so newer files still load.
 *
 * Every failure (unreadable file, YAML syntax, a missing or bad field) is
 * SQLSTATE 08001 (the connection cannot be made from it), with a message
 * "locator FILE:LINE:COLUMN: what is wrong" (1-based line and column).
 */
#ifndef GC_LOCATOR_H
#define GC_LOCATOR_H

#include <stddef.h>

#include "util/gc_error.h"

typedef struct gc_locator_member {
    char *name;    /* e.g. G1N1 */
    char *group;   /* e.g. G1 */
    char *host;
    int port;      /* 1..65535 */
} gc_locator_member;

typedef struct gc_locator {
    char *cluster;                /* NULL when the file names none */
    gc_locator_member *members;   /* in file order */
    size_t member_count;          /* at least 1 */
} gc_locator;

/* Reads and parses the file at path. Returns a locator the caller frees with
 * gc_locator_free, or NULL with err (08001, or HY001 for memory). */
gc_locator *gc_locator_load(const char *path, gc_error *err);

/* Parses text[0..len); source names it in messages (a path, or "<string>"). */
gc_locator *gc_locator_parse(const char *text, size_t len, const char *source,
                             gc_error *err);

void gc_locator_free(gc_locator *locator);

#endif
