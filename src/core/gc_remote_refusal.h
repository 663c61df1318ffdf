/*
 * gc_remote_refusal: a statement's refusal by the cluster's trigger
 * on foreign tables (global/gc_remote_write.h), as the application is told
 * it.
 */
#ifndef GC_REMOTE_REFUSAL_H
#define GC_REMOTE_REFUSAL_H

#include <stdbool.h>

#include "core/gc_diag.h"

struct gc_stmt;

/* Rewrites the trigger's refusals among d's records (the server's
 * GC_REMOTE_WRITE_SERVER_SQLSTATE, and its HINT record) to 0A000 with the
 * driver's native error; the message stays the server's. True when d held
 * one. */
bool gc_remote_refusal_name(gc_diag *d);

/* After statement s failed on member i of its global connection: names a
 * refusal, and when s was routed there by its sharding key answers 40001
 * instead (the shard moved: the map s was routed by is stale). */
void gc_remote_refusal_after_failure(struct gc_stmt *s, int i);

#endif
