/*
 * gcctl_resolve: `gcctl resolve`, the operator's way to resolve the
 * prepared transactions that transactions across groups left behind
 * (docs/failover.md, "In-doubt transactions"; docs/cluster.md). The
 * decision is the driver's own code (src/global/gc_in_doubt.c) on gcctl's
 * superuser sessions to every group's primary.
 */
#ifndef GCCTL_RESOLVE_H
#define GCCTL_RESOLVE_H

#include <stdbool.h>

#include "gcctl_ops.h"

/* Default grace (seconds): transactions prepared more recently are left to
 * their coordinator. The driver's GC_IN_DOUBT_GRACE_MS. */
#define GCCTL_RESOLVE_GRACE_S 10.0
/* Default time (seconds) a rollback decision is kept after it was written
 * (see gcctl_resolve). */
#define GCCTL_RESOLVE_KEEP_ROLLBACKS_S 3600.0
/* How long a decision waits for a coordinator's transaction that is still
 * open before the transaction is left for a later run. */
#define GCCTL_RESOLVE_WAIT_S 30

/* Resolves, on every group's primary, each prepared gcx: transaction
 * prepared at least grace_s ago, printing one line per transaction and a
 * summary; lists cluster DDL left prepared (gcodbc_ddl_*) with what to
 * run. Then, only when every group's primary answered, deletes the
 * decisions (gcluster.commit_decisions) older than grace_s whose gid is
 * prepared on no group: commit decisions at once, rollback decisions only
 * once keep_rollbacks_s old (a coordinator that paused between its
 * PREPAREs and its decision must still find the rollback written for it).
 * True when nothing is left prepared; false with err saying what is. */
bool gcctl_resolve(gcctl_cluster *c, double grace_s, double keep_rollbacks_s, gc_error *err);

#endif
