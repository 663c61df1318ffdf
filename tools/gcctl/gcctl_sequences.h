/*
 * gcctl_sequences: cluster-unique values from the sequences of sharded
 * tables. Every group holds the partitioned parent, and with it its own
 * copy of each sequence a column owns (serial, identity). Drawn on two
 * groups, two copies would hand out the same keys. The copies are
 * interleaved instead: on the group at spec position p (1, 2, ...) the
 * sequence steps by GC_SEQUENCE_STRIDE and yields values whose remainder
 * by the stride is p, so no two groups ever hand out the same value, and
 * the last two digits of a key tell the group that drew it.
 */
#ifndef GCCTL_SEQUENCES_H
#define GCCTL_SEQUENCES_H
#include <libpq-fe.h>
#include <stdbool.h>
#include <stddef.h>
#include "gcctl_spec.h"
#include "global/gc_sequence_sql.h"
#include "util/gc_error.h"

/* One group's primary, connected to the cluster database as superuser. */
typedef struct gcctl_sequence_group {
    PGconn *conn;
    const char *who;     /* the member's name, for messages */
} gcctl_sequence_group;

/* Interleaves the column-owned sequences of every sharded table of spec on
 * groups[0..n) (the spec's groups, in its order, all reached). Sequences
 * already interleaved for their group's position are left alone; otherwise
 * every group's copy restarts above the highest value any copy has handed
 * out, so no value is handed out twice. Sets *changed when it altered one. */
bool gcctl_sequences_interleave(const gcctl_spec *spec, const gcctl_sequence_group *groups,
                                size_t n, bool *changed, gc_error *err);

#endif
