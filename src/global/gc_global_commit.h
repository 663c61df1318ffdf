/*
 * gc_global_commit: the global connection's part of a COMMIT or an
 * autocommit write sent with its transaction id (docs/failover.md "A
 * COMMIT whose answer was lost"): the id query ready on the member, the
 * COMMIT's exchange, settling a lost answer by the rules of gc_outcome.h
 * (asking pg_xact_status through gc_commit_resolve.h when they say so),
 * and what that does to the connection's state (the pin, the member marked
 * down, "may run again"). What the application must hear comes back as a
 * gc_commit_report; the core (core/gc_commit.c) sends the write, puts the
 * results and the diagnostics on the handle.
 */
#ifndef GC_GLOBAL_COMMIT_H
#define GC_GLOBAL_COMMIT_H

#include <stdatomic.h>
#include <stdbool.h>

#include "global/gc_global.h"
#include "member/gc_member.h"

/* What the application hears of such an exchange, in order: `before`
 * when set, then the server's error when server_error (server_result,
 * with its DETAIL and HINT, else the send's error), then `after` when set.
 * drop_earlier: the diagnostics gathered before (the dying session's
 * notices) go first; they would hide the outcome from applications that
 * read only the first record. Owns server_result (gc_commit_report_clear). */
typedef struct gc_commit_report {
    bool drop_earlier;
    gc_error before;
    bool server_error;
    PGresult *server_result;
    gc_error server;
    gc_error after;
} gc_commit_report;

void gc_commit_report_init(gc_commit_report *r);
void gc_commit_report_clear(gc_commit_report *r);

/* How it ended for the application. */
typedef enum gc_commit_end {
    GC_COMMIT_END_OK,            /* success */
    GC_COMMIT_END_OK_WITH_INFO,  /* success, `after` says what happened */
    GC_COMMIT_END_FAILED,        /* error */
} gc_commit_end;

/* Whether member i's session holds the prepared id query; prepares it
 * (one round trip, once per session) when not. False when that failed:
 * the text query is sent instead (slower, same outcome). */
bool gc_global_xid_statement_ready(gc_global *g, int i);

/* Commits the transaction pinned to member i with its transaction id
 * (gc_member_commit_with_xid), settles a lost answer, releases the pin
 * and marks the member down when it broke. in_call (may be NULL) is set
 * while the server is asked (SQLCancel reads it). */
gc_commit_end gc_global_commit_with_id(gc_global *g, int i, atomic_bool *in_call,
                                       gc_commit_report *report);

/* Commits a transaction that joined members of other groups or ran
 * cluster DDL (gc_global_commit_spread): success, success with 01000, or
 * the error (40000, 40001 / 19068, 08007...). The pin is released.
 * setup_sql: for sessions reopened on the way. */
gc_commit_end gc_global_commit_across_groups(gc_global *g, const char *setup_sql,
                                             gc_commit_report *report);

/* Whether a SQL COMMIT (and_chain: AND CHAIN) run on member i ends the
 * open transaction pinned there, so gc_global_commit_sql can send it: the
 * transaction not failed, and AND CHAIN only where the transaction spans
 * groups (where it is refused, never sent to one member). */
bool gc_global_sql_commit_applies(const gc_global *g, int i, bool and_chain);

/* A SQL COMMIT (or COMMIT AND CHAIN: and_chain) of the transaction pinned
 * to member i, which ran the statement: across groups when it spans them
 * (refused, 0A000, with AND CHAIN), else with its transaction id. */
gc_commit_end gc_global_commit_sql(gc_global *g, int i, bool and_chain, const char *setup_sql,
                                   atomic_bool *in_call, gc_commit_report *report);

/* The autocommit write `run` on member i was refused by its server
 * (run->outcome GC_XID_NOT_COMMITTED, the member up): the server's error,
 * after a warning when postgres_fdw may have committed a part elsewhere. */
void gc_global_write_refused(gc_global *g, int i, gc_member_xid_run *run, const gc_error *err,
                             gc_commit_report *report);

/* How a write whose member broke under it settled. */
typedef enum gc_write_settled {
    GC_WRITE_RERUN,       /* certainly not committed: it may run again
                             elsewhere (gc_global_rerun_safe is set) */
    GC_WRITE_UNKNOWN,     /* error: report->after says why (40003) */
    GC_WRITE_COMMITTED,   /* it took effect once: run->result is its answer */
} gc_write_settled;

/* The autocommit write `run` lost its member i (marked down already, by
 * gc_global_end_statement): settles it by the rules, asking pg_xact_status
 * when they say so. err: the send's error (for the trace). */
gc_write_settled gc_global_settle_lost_write(gc_global *g, int i, const gc_member_xid_run *run,
                                             const gc_error *err, gc_commit_report *report);

#endif
