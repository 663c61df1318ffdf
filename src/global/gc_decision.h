/*
 * gc_decision: the commit decision of a transaction that spans groups
 * (docs/global-connection.md, "Transactions across groups").
 *
 * One participant, the coordinator, is never prepared: every other one is
 * prepared (PREPARE TRANSACTION gid), then the coordinator records the
 * decision inside its own transaction (gcluster.decide_commit(gid, true))
 * and commits; its COMMIT is the decision. Whoever finds a prepared
 * transaction later (the driver after a lost answer, another driver,
 * gcctl) asks the coordinator's group with decide_commit(gid, false): that
 * waits for the coordinator's transaction to end (the decision table's
 * unique key) and returns the decision in force, so a prepared transaction
 * is committed exactly when its coordinator committed. The gid names the
 * coordinator's group, so it can be resolved from any participant.
 *
 * gid: "gcx:<pid>:<seconds>.<nanoseconds>:<counter>:<coordinator group>".
 * Group names are letters, digits and _ (gcctl's rule), so a gid needs no
 * quoting.
 */
#ifndef GC_DECISION_H
#define GC_DECISION_H

#include <stdbool.h>
#include <stddef.h>

#include "member/gc_member.h"
#include "util/gc_error.h"

#define GC_DECISION_GID_PREFIX "gcx:"
#define GC_DECISION_GID_MAX 128

/* A new gid for a transaction coordinated by group `coordinator_group`,
 * unique in the cluster (process id, clock, counter). False when the group
 * name is not a plain name or does not fit. */
bool gc_decision_new_gid(char *buf, size_t size, const char *coordinator_group);

/* The coordinator group a gid names; false when gid is not one of ours. */
bool gc_decision_gid_coordinator(const char *gid, char *group, size_t size);

/* In the coordinator's open transaction, just before its COMMIT: records
 * the decision to commit. *committed is the decision in force: false when
 * a resolver decided to roll back first (the coordinator must then roll
 * back). False with err when the statement failed; a catalog without the
 * function (made by an older gcctl) gets 55000 saying to run gcctl apply. */
bool gc_decision_record_commit(gc_member *coordinator, const char *gid, bool *committed,
                               gc_error *err);

typedef enum gc_decision_commit_result {
    GC_DECISION_COMMITTED,
    GC_DECISION_NOT_COMMITTED,   /* err says why; the transaction is over or aborted */
    GC_DECISION_ANSWER_LOST,     /* the session broke: resolve (gc_decision_resolve) */
} gc_decision_commit_result;

/* In the coordinator's open transaction, in one round trip: records the
 * decision to commit and commits. A decision already recorded as "roll
 * back" (a resolver came first) makes the statement fail (22012, division
 * by the decision), so the COMMIT after it never runs: 40001 / 19068. A
 * catalog without the function: 55000 saying to run gcctl apply. */
gc_decision_commit_result gc_decision_commit(gc_member *coordinator, const char *gid,
                                             gc_error *err);

/* Outside any transaction, on the coordinator group's primary: the
 * decision for gid, deciding "roll back" when none was recorded. Waits
 * while the coordinator's transaction is still open. */
bool gc_decision_resolve(gc_member *coordinator_primary, const char *gid, bool *committed,
                         gc_error *err);

/* After every participant committed: the decision is no longer needed. */
bool gc_decision_forget(gc_member *coordinator_primary, const char *gid, gc_error *err);

/* COMMIT PREPARED or ROLLBACK PREPARED gid on session m, outside any
 * transaction. A gid the server does not hold (42704: finished already,
 * or never prepared) counts as done; *was_prepared (may be NULL) says
 * which. False with err when the server could not be asked. */
bool gc_decision_finish(gc_member *m, const char *gid, bool commit, bool *was_prepared,
                        gc_error *err);

#endif
