/*
 * gc_txn_guard: what the driver does when a statement fails inside a
 * transaction: the rollback level of RollbackOnError (psqlODBC's
 * `Protocol=7.4-<level>`), docs/transactions.md.
 *
 *   0  nothing: the transaction stays aborted (25P02) until SQLEndTran.
 *   1  the whole transaction is rolled back; the next statement begins anew.
 *   2  (default) only the failed statement is undone, through a savepoint
 *      set before it; the transaction goes on with what came before.
 *
 * The guard is armed just before a statement is sent (gc_txn_guard_arm)
 * and looks at the server's transaction status when the statement's
 * results have all arrived (gc_txn_guard_settle, from
 * gc_result_release_session): only then is the session free, and only
 * then is it known whether the statement failed, even when its error
 * came with its thousandth row.
 *
 * Level 2 costs no round trip when the statement can be pipelined (one
 * statement, not COPY): `SAVEPOINT`, the statement and `RELEASE SAVEPOINT`
 * go in one pipeline. A text of several statements gets its SAVEPOINT and
 * its RELEASE as round trips of their own. The first statement of a
 * transaction the driver begins needs no savepoint: undoing it is rolling
 * the transaction back. Statements that change the transaction themselves
 * (BEGIN, COMMIT, SAVEPOINT...) are not guarded by a savepoint; if one of
 * them fails, level 2 rolls the transaction back as level 1 does. The
 * exceptions are a lone RELEASE and ROLLBACK TO: the driver's savepoint,
 * set before one with a round trip of its own, is the newest, so the
 * statement ends it when it succeeds, and when it fails (a savepoint never
 * set, 3B001) going back to it undoes the failure alone.
 */
#ifndef GC_TXN_GUARD_H
#define GC_TXN_GUARD_H

#include <stdbool.h>

#include "core/gc_conn.h"

/* How the statement about to be sent is guarded. */
typedef enum gc_txn_guard_mode {
    GC_GUARD_NONE = 0,      /* nothing to do before sending */
    GC_GUARD_PIPELINED,     /* send it with gc_session_send_wrapped(GC_TXN_SAVEPOINT_SQL,
                               GC_TXN_RELEASE_SQL, ...) */
    GC_GUARD_SET,           /* its savepoint was set already (a round trip) */
    GC_GUARD_SET_ENDED,     /* likewise, and the statement ends it if it succeeds
                               (RELEASE, ROLLBACK TO) */
} gc_txn_guard_mode;

#define GC_TXN_SAVEPOINT_SQL "SAVEPOINT gc_statement"
#define GC_TXN_RELEASE_SQL "RELEASE SAVEPOINT gc_statement"

/* The connection's rollback level, 0 to 2. */
int gc_txn_rollback_level(const gc_conn *c);

/* Arms the guard for s, about to be sent on the connection's session.
 * was_in_block: a transaction block was open before the driver's BEGIN (if
 * any) for this statement. can_pipeline: the caller can send s with
 * gc_session_send_wrapped (a parameter array, which runs its own pipeline,
 * cannot). Returns how s must be sent; GC_GUARD_SET has cost a SAVEPOINT
 * round trip. SQL_ERROR (diagnostics added to s) only when that SAVEPOINT
 * failed. */
SQLRETURN gc_txn_guard_arm(gc_stmt *s, bool was_in_block, bool can_pipeline,
                           gc_txn_guard_mode *mode);

/* Arms the guard for s sent right behind the driver's BEGIN, in the same
 * pipeline (a parameter array): the transaction is not open yet, and
 * undoing s is rolling it back (levels 1 and 2). */
void gc_txn_guard_arm_begun(gc_stmt *s);

/* Called when s stops owning the session (all its results are in, or it
 * gave up): when s's guard is armed, applies the rollback level to what
 * the server says of the transaction. Errors of the rollback itself go to
 * s's diagnostics. */
void gc_txn_guard_settle(gc_stmt *s);

/* The server's PREPARE of s, sent on m while a transaction is open (a
 * statement prepared for the first time inside a transaction): a refused
 * PREPARE aborts the transaction as a failed statement does. At levels 1
 * and 2 gc_txn_guard_prepare_begin sets a savepoint first (a round trip)
 * and returns true; gc_txn_guard_prepare_end then releases it (prepared),
 * or goes back to it (refused), and when the refusal is the statement's
 * failure (failed) applies level 1 by rolling the transaction back, as
 * gc_txn_guard_settle does. False, and nothing to end, outside a
 * transaction, at level 0, or when the savepoint could not be set. */
bool gc_txn_guard_prepare_begin(gc_stmt *s, gc_session *m);
void gc_txn_guard_prepare_end(gc_stmt *s, gc_session *m, bool prepared, bool failed);

/* Forgets s's guard without looking at the transaction: for results the
 * application will never read (their error must stay the server's). A
 * savepoint set with its own round trip stays until the transaction ends. */
void gc_txn_guard_disarm(gc_stmt *s);

#endif
