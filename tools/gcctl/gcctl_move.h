/*
 * gcctl_move: moving a shard to another group online.
 */
#ifndef GCCTL_MOVE_H
#define GCCTL_MOVE_H

#include <stdbool.h>

#include "gcctl_ops.h"

/* gcctl move-shard TABLE SHARD --to GROUP: copies the shard to the new owner
 * while clients keep writing, then switches ownership on every group in one
 * short write-blocking step and raises the version. */
bool gcctl_move_shard(gcctl_cluster *c, const char *table, const char *shard, const char *to,
                      gc_error *err);

#endif
