/*
 * gc_global: the global connection (GlobalConnection=Yes): the cluster's
 * topology, one member session per cluster member, the router, the shard map
 * and what the connection counts per member. It knows nothing of ODBC
 * handles: the core's connection holds one gc_global and asks it, before
 * each statement, which member session to run on (gc_global_route).
 *
 * Connecting (gc_global_connect): the seeds (Servers, else the Locator
 * file's members) are tried in order; the first that answers and holds the
 * `gcluster` catalog gives the topology. A Locator file is the fallback
 * when no seed answers. Then every member is opened at once with
 * non-blocking connects, unless LocalityOnDemand=Yes, when a member is
 * opened the first time the router chooses it. Members that do not answer
 * leave the connection open (with a 01000 note naming them) as long as one
 * member does.
 *
 * With GlobalSession=Yes (gc_global_session.c, gc_session_pool.h) the
 * member objects stay the connection's, but the server sessions in them are
 * borrowed from a process-wide pool when a member is chosen and given back
 * between transactions; members are then opened as on demand.
 *
 * Routing (gc_global_route.c) follows ARCHITECTURE.md section 4 and reads
 * only cached data: the shard map, the member states and the search_path
 * read at connect time. Every decision is traced at LogLevel 2.
 *
 * Not thread-safe: the owning ODBC connection's lock guards the object.
 */
#ifndef GC_GLOBAL_H
#define GC_GLOBAL_H

#include <stdbool.h>
#include <stdint.h>

#include "config/gc_settings.h"
#include "global/gc_outcome.h"
#include "global/gc_topology.h"
#include "member/gc_member.h"
#include "sql/gc_analyzer.h"
#include "util/gc_error.h"
#include "util/gc_trace.h"

typedef struct gc_global gc_global;

typedef struct gc_global_options {
    const gc_settings *settings;   /* seeds, locator, policies, on demand */
    gc_member_params member;       /* database, user, password, TLS, timeout and
                                      application name for every member session
                                      (name, group, host and port are filled in) */
    gc_trace *trace;               /* may be NULL */
    gc_member_notice_fn notice_fn; /* installed on every member session */
    void *notice_ctx;
    gc_member_before_send_fn before_send_fn; /* installed on every member session */
    void *before_send_ctx;
} gc_global_options;

/* What SHOW GLOBAL CONNECTION reports per member. */
typedef struct gc_global_member_stats {
    unsigned long routed_by_key;
    unsigned long routed_by_policy;
    unsigned long errors;
} gc_global_member_stats;

/* The warnings of a connect that succeeded, each cleared when it does not
 * apply; the caller hands them to the application (SQL_SUCCESS_WITH_INFO). */
typedef struct gc_global_connect_warnings {
    gc_error members_down;   /* 01000 naming the members that did not answer
                                (never on demand) */
    gc_error unknown_names;  /* 01000 naming what LocalityMemberPath or
                                LocalityGroupPath name that the cluster does
                                not have (ignored by the router) */
} gc_global_connect_warnings;

/* Connects as described above. Returns the object (caller destroys it) or
 * NULL with err: 08001 when no seed answers or the one that answers has no
 * cluster catalog, HY001 on out-of-memory. */
gc_global *gc_global_connect(const gc_global_options *opt, gc_error *err,
                             gc_global_connect_warnings *warnings);
/* Closes every member session (no ROLLBACK: the caller ends transactions). */
void gc_global_destroy(gc_global *g);

const gc_topology *gc_global_topology(const gc_global *g);
int64_t gc_global_catalog_version(const gc_global *g);
int gc_global_member_count(const gc_global *g);
/* Member i's session (owned by g); it may be closed (on demand, or down). */
gc_member *gc_global_member(const gc_global *g, int i);
/* Index of the session m among g's members; -1 when not one of them. */
int gc_global_member_index(const gc_global *g, const gc_member *m);
/* The first member whose session is open; -1 when none. */
int gc_global_first_open_member(const gc_global *g);
/* Opens member i when it is not open (on demand). Its new session gets
 * `setup_sql` (may be NULL) run first: the session settings the connection
 * applies to every member. False with err when it does not answer: the
 * member is DOWN, the router passes it over and the failover schedule
 * retries it between transactions. */
bool gc_global_open_member(gc_global *g, int i, const char *setup_sql, gc_error *err);

gc_global_member_stats gc_global_stats(const gc_global *g, int i);
void gc_global_count_error(gc_global *g, int i);

/* The member that ran the last statement (-1 before the first one). */
int gc_global_last_member(const gc_global *g);

/* The member the open transaction is pinned to, or -1. */
int gc_global_pinned_member(const gc_global *g);
/* Whether a failed statement left the open transaction aborted on one of
 * its members (rollback level 0): every statement then goes to that member
 * (gc_global_route), which answers as one server. */
bool gc_global_transaction_aborted(const gc_global *g);
/* Whether a member of the open transaction may have read or written
 * another group's rows through postgres_fdw (or used a temporary table). */
bool gc_global_may_have_reached_out(const gc_global *g);
/* The open transaction's number: it rises as each transaction ends. */
unsigned long gc_global_txn_serial(const gc_global *g);

/* --- the global session (gc_global_session.c, gc_session_pool.h) --- */

/* Whether g shares member sessions (GlobalSession=Yes). */
bool gc_global_shares_sessions(const gc_global *g);
/* Under the global session, before sql runs: a statement that calls
 * set_config (a setting changed inside a query, which the settings log
 * never sees) marks the sessions held until they are given back, so the
 * next borrower resets them (RESET ALL). Matched on the text, anywhere:
 * a false match costs that borrower one RESET ALL. No-op otherwise. */
void gc_global_note_query_settings(gc_global *g, const char *sql);
/* Gives every member session g holds back to the pool (no-op without the
 * global session). The caller has ended every transaction and streams no
 * result. dirty: the sessions carry session characteristics of g's own
 * (an isolation level, read-only) besides its logged SETs, which count
 * too; the next borrower resets them. */
void gc_global_give_back_sessions(gc_global *g, bool dirty);
/* The pool's figures for member i's server; false without the global
 * session. */
struct gc_session_pool_stats;
bool gc_global_pool_stats(const gc_global *g, int i, struct gc_session_pool_stats *out);

/* The connection's temporary tables (gc_temp_tables.h), owned by g. */
struct gc_temp_tables *gc_global_temp_tables(gc_global *g);

/* --- routing (gc_global_route.c) --- */

typedef struct gc_route_request {
    const gc_analysis *analysis;  /* NULL when the statement was not analyzed */
    bool use_keys;                /* look for a sharding key: prepared execution,
                                     or SQLExecDirect with DirectExecuteRouting=Yes */
    bool transaction;             /* autocommit off: the choice pins the member
                                     until the transaction ends */
    bool read_only_mode;          /* SQL_ATTR_ACCESS_MODE is read-only */
    bool serializable;            /* SQL_ATTR_TXN_ISOLATION is serializable: a
                                     hot standby refuses it, so primaries only */
    int nparams;
    const char *const *params;    /* each parameter's text (NULL = SQL NULL), or
                                     NULL when no values are known */
    const char *setup_sql;        /* the connection's session characteristics,
                                     run on a member reconnected meanwhile
                                     (NULL: none) */
    const char *sql;              /* the statement's text: a registered temporary
                                     table it names decides its member (NULL:
                                     none is looked for) */
    bool creates_temp;            /* it creates a temporary table: a primary */
} gc_route_request;

typedef struct gc_route_decision {
    int member;                   /* index of the member to run on */
    int group;
    bool by_key;                  /* the group came from the sharding key */
    bool pinned;                  /* the open transaction's member */
    bool join;                    /* a member of another group the open transaction
                                     must join first (gc_global_join) */
    bool spans;                   /* a write across groups: no member; run it with
                                     gc_global_run_spanning_write */
    bool split_read;              /* a read of rows the open transaction wrote on
                                     other members: run on member the text of
                                     gc_global_split_read_text (with spans: the
                                     INSERT ... SELECT whose query reads them) */
    const char *leaf;             /* an INSERT ... ON CONFLICT (...) into a sharded
                                     table whose rows one leaf partition of member
                                     holds: send it with that leaf as its target
                                     (gc_global_leaf_text), the parent having no
                                     unique index to infer; NULL otherwise. Into
                                     the map: valid until the next statement */
    const char *reason;           /* static text, for the trace */
} gc_route_decision;

/* Chooses the member for one execution (no round trip, except that between
 * transactions a down member whose reconnect is due is tried first:
 * gc_global_retry_down_members). A statement naming a registered
 * temporary table runs on its session's member; false with err 42P01 when
 * that session is gone (the table's entry is then forgotten), 0A000 when
 * the open transaction is pinned to another member or the statement names
 * tables of two sessions. False with err 40001 / 19068 while the
 * open transaction is lost (gc_global_txn_lost). The chosen member
 * may still be closed: the caller opens it (gc_global_open_member) and,
 * when that fails, asks again. False with err 08S01 when no usable member
 * can serve the statement. Counts the route in the member's stats and
 * traces it. */
/* --- keys the driver draws (gc_global_keys.c) --- */
/* For an INSERT ... (columns) VALUES into a sharded table that leaves key
 * columns to their sequences (serial, identity) and that could not run as
 * sent (in a transaction, or several rows in autocommit): the text with
 * keys drawn now (on an open primary outside the open transaction, else
 * inside it behind a savepoint, else on a group's primary opened now; a
 * member that breaks under the draw is passed over) added to its column
 * list and rows, to be analyzed and routed by them.
 * NULL with err clear when the statement is no such INSERT (or the
 * transaction's member broke under the draw: routing then tells); NULL with
 * err set when a draw failed. */
char *gc_global_with_drawn_keys(gc_global *g, const char *sql, const gc_analysis *a,
                                bool transaction, gc_error *err);
/* Whether gc_global_with_drawn_keys would draw keys for the statement. */
bool gc_global_draws_keys(gc_global *g, const gc_analysis *a, bool transaction);
/* Drops the keys drawn ahead: this connection's DDL may have restarted a
 * sequence below them, as a server session's own cached values go with its
 * ALTER SEQUENCE. */
void gc_global_forget_drawn_keys(gc_global *g);

bool gc_global_route(gc_global *g, const gc_route_request *req,
                     gc_route_decision *out, gc_error *err);

/* Whether a write of the open transaction (or of the last autocommit
 * statement routed) may have reached rows outside its member's group:
 * false only when every statement that may write was an INSERT, UPDATE,
 * DELETE or MERGE on a table that is not a cluster table (the member's
 * own), or whose every key tuple the shard map places in that group (or
 * on a solo table of that group). Such a transaction is on its member
 * alone; any other may have written through postgres_fdw, which commits
 * its remote part before the local commit, so "the member did not commit"
 * (or wrote nothing of its own) no longer proves that nothing applied
 * (docs/failover.md). Triggers, rules, and foreign tables or views the
 * application defined itself, are not looked into. */
bool gc_global_may_write_elsewhere(const gc_global *g);

/* Whether the autocommit statement routed last must carry the statement
 * mark (global/gc_remote_write.h): it is not one plain write of one table
 * whose rows the shard map places in one group, nor a statement that
 * cannot write (a read-only SELECT, SET, SHOW, transaction control) or
 * DDL. Every write it makes through postgres_fdw is then refused. False
 * in a transaction (its BEGIN carries the transaction's mark) and for a
 * write the driver runs across groups itself. */
bool gc_global_statement_marked(const gc_global *g);

/* --- transactions across groups (gc_global_spread.c, docs/global-connection.md
 * "Transactions across groups") ---
 *
 * A transaction is pinned to the member its first statement chose (its
 * coordinator). A write whose rows the shard map places in one other group,
 * and cluster DDL, make it join that group's primary (or every group's):
 * BEGIN there, and the statement runs there. Such a transaction commits with
 * PREPARE TRANSACTION on every joined member, the decision recorded and
 * committed on the coordinator (gc_decision.h), then COMMIT PREPARED. A
 * transaction that ends any other way (ROLLBACK, a failed member, the
 * rollback level) rolls back every part. */

/* The native code of a row write refused in a transaction because it
 * would reach several groups (SQLSTATE 0A000). */
#define GC_GLOBAL_NATIVE_SPANNING_WRITE 90122

/* Before a text that is, or may hold, the application's SAVEPOINT, RELEASE
 * or ROLLBACK TO SAVEPOINT (sql; several: a text of several statements) runs
 * on the pin: each runs on every joined member too, and a member that joins
 * later gets the savepoints in force, so going back to one goes back on each
 * of them. False with err when the statement must not run: 0A000 for a
 * ROLLBACK TO the driver cannot follow (in a text of several statements,
 * or after a savepoint set in one) once a member is joined; a joined
 * member's refusal, which rolled the transaction back (gc_global_savepoint.c). */
bool gc_global_savepoint_before(gc_global *g, const char *sql, bool several, gc_error *err);

/* Members the open transaction joined besides its pin. */
int gc_global_joined_count(const gc_global *g);
/* Whether member i holds part of the open transaction (pinned or joined). */
bool gc_global_holds_transaction(const gc_global *g, int i);
/* The member of group gi holding part of the open transaction, or -1. */
int gc_global_transaction_member_of_group(const gc_global *g, int gi);
/* Member i (open, its session settings replayed) joins the open transaction:
 * begin_sql is run there, and the application's savepoints in force are set
 * after it. False with err when it failed (the member is then
 * not joined; a broken session is marked down). */
bool gc_global_join(gc_global *g, int i, const char *begin_sql, gc_error *err);
/* The member serving as group gi's primary: an open session the server
 * says is a primary, else the catalog's primary (opened now with
 * setup_sql). -1 with err (08S01, naming `what` needs it) when none. */
int gc_global_group_primary(gc_global *g, int gi, const char *setup_sql, const char *what,
                            gc_error *err);
/* Gets member i (open, a primary) ready to hold part of the open
 * transaction: its session settings replayed, then the held-back SQL BEGIN
 * or begin_sql as the transaction's first member (pinned), or joined. */
bool gc_global_enter_transaction(gc_global *g, int i, const char *begin_sql, gc_error *err);
/* Cluster DDL ran in the open transaction (changes_map: it changed tables,
 * so the catalog version rises after the commit, and until the transaction
 * ends its statements are routed by the catalog as the DDL left it;
 * coordinator_decides: its part on the transaction's member cannot
 * prepare, so that member's COMMIT decides). */
void gc_global_note_transaction_ddl(gc_global *g, bool changes_map, bool coordinator_decides);
/* The open transaction's DDL locked the table `name` (as written) against
 * postgres_fdw's reads on every group holding its rows: they count as
 * written there (on the pin in the coordinator's group, elsewhere on the
 * group's member; gc_global_stale_reads.c), so a SELECT of them brings
 * them through the transaction's own sessions and any other read of them
 * through postgres_fdw is refused, where it would wait for the
 * transaction's own lock until the transaction ends. */
void gc_global_note_locked_table(gc_global *g, const char *name, int coordinator_group);
/* Whether the open transaction needs gc_global_commit_spread to commit:
 * it joined members, or ran cluster DDL. */
bool gc_global_commit_is_spread(const gc_global *g);

typedef enum gc_spread_outcome {
    GC_SPREAD_COMMITTED,        /* every part committed (or will, by resolution: info) */
    GC_SPREAD_NOT_COMMITTED,    /* no part committed; err says why */
    GC_SPREAD_UNKNOWN,          /* the coordinator's answer was lost and could not be
                                   resolved yet: 08007; resolution decides later */
} gc_spread_outcome;

/* Commits the open transaction (see above) and ends the pin. info gets a
 * 01000 warning when it committed but a joined member could not be told
 * (its part is committed by in-doubt resolution), or the catalog version
 * was not raised after DDL. setup_sql: for sessions reopened on the way. */
gc_spread_outcome gc_global_commit_spread(gc_global *g, const char *setup_sql, gc_error *err,
                                          gc_error *info);

/* COMMIT PREPARED or ROLLBACK PREPARED gid on member i, tried twice: the
 * second time through a new session (the old one broke, or still looks
 * open after its server ended it). A gid the server does not hold counts
 * as done. False with err when it could not be done; *was_prepared (may be
 * NULL) says whether the server held it. */
bool gc_global_finish_prepared(gc_global *g, int i, const char *gid, bool commit,
                               const char *setup_sql, bool *was_prepared, gc_error *err);

/* Rolls back every part of the open transaction, the pin's included, and
 * ends the pin. */
void gc_global_rollback_transaction(gc_global *g);
/* Rollback level 0, after a statement run on several members (cluster
 * DDL, a write across groups) failed and was undone on each: one server
 * would leave the transaction aborted, so the pin is made to fail (a
 * statement that raises 25P02), and answers every later statement as
 * one server would until the transaction ends or goes back to a savepoint
 * (route_in_transaction). Nothing when a member is aborted already. */
void gc_global_leave_aborted(gc_global *g);

/* --- writes across groups (gc_global_span.c, docs/global-connection.md
 * "Writes across groups") ---
 *
 * An UPDATE or DELETE of a sharded table that the shard map cannot place in
 * one group (no usable key, keys of several groups), and an INSERT whose
 * VALUES rows it places in several groups, are routed with decision.spans:
 * every group with a share runs it on its own rows (an UPDATE or DELETE
 * on each of its leaf partitions, an INSERT with its own rows), each
 * group's part in one transaction across groups, so it applies everywhere
 * or nowhere. */

/* One execution's parameters, as libpq takes them. */
typedef struct gc_span_params {
    int n;
    const Oid *types;
    const char *const *values;
    const int *lengths;
    const int *formats;
} gc_span_params;

typedef struct gc_span_outcome {
    PGresult *result;             /* the rows RETURNING gave (all groups'), else the
                                     last command's result; the caller owns it */
    long long rows;               /* rows written on every group together */
    bool rolled_back;             /* a failure in the open transaction rolled it back
                                     whole (a part could not go back to its savepoint) */
    bool sent;                    /* the statement reached a server (failed: undone
                                     there), where false is a refusal, nothing run */
    gc_error info;                /* a warning of the commit (01000), or empty */
} gc_span_outcome;

/* The row write a (text sql) with its target replaced by leaf, a leaf
 * partition's schema-qualified name: the table's own name becomes the
 * alias (unless the text has one) so that its columns, qualified by the
 * table's name, still resolve. NULL when out of memory. */
char *gc_global_leaf_text(const char *sql, const gc_analysis *a, const char *leaf);

/* Runs the write (analysis a, text sql) on every group with a share of
 * its rows (for an INSERT, the plan the router made). commit_now: no transaction is open, so the write is its
 * own and commits across groups here (gc_global_commit_spread); else it
 * joins the open transaction (pinning it when it is its first statement),
 * each part between a savepoint and its release, and a failure goes back
 * to the savepoints on every group. False with err: nothing of the write
 * applied (08007 when the commit's outcome is unknown). */
bool gc_global_run_spanning_write(gc_global *g, const gc_analysis *a, const char *sql,
                                  const gc_span_params *params, const char *begin_sql,
                                  const char *setup_sql, bool commit_now,
                                  gc_span_outcome *out, gc_error *err);

/* The statement a (text sql with its parameters params) routed with
 * decision.split_read, as its member runs it: the rows of the tables it reads
 * that the open transaction wrote on other groups' members are asked of
 * those members now, behind a savepoint there, and go in *rows (*n_rows
 * json arrays, a table each; the array and its strings owned by the
 * caller), which the text reads as parameters $(params->n + 1) on. NULL
 * with err when that failed (more than 100,000 rows of one table in one
 * group: 0A000; an error of the WHERE sent along names the member);
 * *rolled_back when the failure cost the whole transaction. */
char *gc_global_split_read_text(gc_global *g, const gc_analysis *a, const char *sql,
                                const gc_span_params *params, char ***rows, int *n_rows,
                                bool *rolled_back, gc_error *err);

/* Whether a, a text of several statements all of which the analyzer
 * knows, writes rows that do not all keep to one group (solo tables of
 * several groups, a sharded table's rows its literal keys do not place in
 * one): sent whole to one member, its writes of the other groups would go
 * through postgres_fdw, which the cluster refuses (gc_exec_split.h runs it
 * statement by statement instead). */
bool gc_global_text_writes_apart(gc_global *g, const gc_analysis *a);

/* Whether a, a text of several statements in the open transaction, sent
 * whole to one member could read there through postgres_fdw tables the
 * transaction wrote on another: it has written on a member other than
 * its pin, or on its pin while the text keeps to another group. Such a
 * read misses those writes and is refused (0A000 / 90122); statement by
 * statement, each read runs where the rows were written. */
bool gc_global_text_misses_writes(gc_global *g, const gc_analysis *a);

/* False with err (0A000, nothing sent) when the query of a DDL that reads
 * rows on the open transaction's pin (CREATE TABLE ... AS, CREATE
 * MATERIALIZED VIEW) may read a table the transaction wrote, or whose
 * lock its DDL holds, outside the pin's group: postgres_fdw would miss
 * the writes, or wait for the lock for ever. */
bool gc_global_ddl_query_sees_writes(gc_global *g, const char *sql, gc_error *err);

/* A call of the connection (a statement's execute) now waits on session
 * m's server (sent, no answer yet; m may be NULL: on nothing yet) / has
 * its answer. While it waits on a member longer than the in-doubt grace,
 * in-doubt transactions on that server, whose locks it may wait on, are
 * settled from another thread (gc_in_doubt.h). end holds the caller back
 * while a settlement or a cancel is under way. */
void gc_global_wait_begin(gc_global *g, gc_member *m);
void gc_global_wait_end(gc_global *g);
/* Within the call, a step that may wait (a cluster DDL's statement on a
 * group's primary) begins on member i / ends. begin is false, err 57014,
 * when the call was cancelled: the step is not to be sent. */
bool gc_global_wait_step_begin(gc_global *g, int i, gc_error *err);
void gc_global_wait_step_end(gc_global *g);
/* From another thread (SQLCancel, the query timeout): cancels what the
 * call waits on, and refuses the steps it would begin after this. Outside
 * a call, cancels `otherwise` (may be NULL), the session a statement of
 * the connection may wait on without a call begun (COMMIT). */
bool gc_global_cancel_wait(gc_global *g, gc_member *otherwise, gc_error *err);

/* --- failover (gc_global_failover.c, docs/failover.md) --- */

/* Member i was found dead on session `generation`: marks it down (a late
 * failure of an older session is ignored), starts its reconnect schedule
 * and, when it held the open transaction, ends the pin and marks the
 * transaction lost. */
void gc_global_member_failed(gc_global *g, int i, unsigned long generation,
                             const gc_error *why);
/* Whether the autocommit statement that just failed is known not to have
 * taken effect (gc_global_internal.h): it may run again elsewhere. Read by
 * the re-run decision (gc_route_may_rerun). */
bool gc_global_rerun_safe(const gc_global *g);
/* Between transactions (no-op while pinned): for each down member, starts
 * a reconnect when its backoff says a retry is due (waiting at most 100 ms
 * for the handshake), or advances the one in flight without waiting (at
 * most one attempt per member; it fails after the member's ConnectTimeout). A member that
 * answers gets setup_sql and is routable again, on a new session
 * generation (so session settings are replayed before it serves). */
void gc_global_retry_down_members(gc_global *g, const char *setup_sql);
/* When no member can run a statement, or only one of another group than
 * its key's (between transactions): every down member not yet retried
 * since it failed is retried now, ahead of its schedule and without moving
 * it (gc_backoff_begin_early), all within one 100 ms grace. A session the
 * server only closed (pg_terminate_backend, a restart already over) is then
 * back for this statement, instead of the statement failing with 08S01 or
 * going round through postgres_fdw. True when a member came back (route
 * again). */
bool gc_global_retry_early(gc_global *g, const char *setup_sql);
/* Member session m leaves the topology and is about to be destroyed: its
 * reconnect schedule and any reconnect in flight are dropped (so neither
 * is mistaken for a later session's at the same address). */
void gc_global_failover_forget(gc_global *g, const gc_member *m);
/* Fills err with 40001 / native 19068: the transaction was rolled back and
 * may be retried. */
void gc_global_txn_lost_error(gc_error *err);

/* --- the statement lifecycle (gc_global_lifecycle.c) ---
 *
 * What the core tells the global connection of each statement, and what
 * the connection makes of it by the rules of gc_outcome.h: it keeps the
 * pin, the "transaction lost" mark and the members' states itself, and
 * hands back what the application must hear as a gc_error. */

/* Routes one execution (gc_global_route) as its statement begins. False
 * with err when it cannot run: routing's own error, or 40001 / 19068 for
 * the statement of a transaction begun in SQL whose member was lost (told
 * once). */
bool gc_global_begin_statement(gc_global *g, const gc_route_request *req,
                               gc_route_decision *d, bool autocommit, gc_error *err);
/* The member routing chose (pinned: it holds the open transaction) could
 * not be opened, or was found dead before anything was sent; why says
 * how. True: route again. False with report: what the statement returns
 * (why itself, 40001 / 19068, or 08S01 with the pin released). */
bool gc_global_chosen_unusable(gc_global *g, bool pinned, bool autocommit,
                               const gc_error *why, gc_error *report);
/* A statement (not sent with its transaction id) ran on member i and
 * failed or not: pins the transaction it opened, releases the pin when it
 * ended in SQL, marks the member down when its session broke. report is
 * set (else left alone) when the application must hear it instead of the
 * server's error: 40001 / 19068, or 08007 for a COMMIT. */
gc_after_action gc_global_end_statement(gc_global *g, int i, bool failed, bool is_commit,
                                        bool autocommit, gc_error *report);
/* Member i's session broke under a COMMIT sent with its transaction id
 * (on session generation `generation`): marked down, the pin released;
 * the caller reports the outcome it settles (gc_outcome_settle). */
void gc_global_commit_lost_member(gc_global *g, int i, unsigned long generation);
/* A new execution begins (before routing): what was known of the last
 * send (whether it may run again) no longer holds. */
void gc_global_statement_starts(gc_global *g);
/* The open transaction's record of the tables it wrote, on its pin and on
 * its other members (gc_global_stale_reads.c), as a mark to go back to: a
 * statement, or a parameter array, that its rollback level undid takes
 * what it added out of the record. */
typedef struct gc_writes_mark {
    int joined;                    /* entries of the other members' list */
    int pin;                       /* entries of the pin's list */
    int pin_any_depth;             /* the pin's "any table" (-1: not said) */
} gc_writes_mark;
gc_writes_mark gc_global_writes_mark(const gc_global *g);
void gc_global_writes_undone(gc_global *g, gc_writes_mark mark);
/* The statement failed on member i before anything of it ran (its
 * PREPARE): when the member broke under it, an autocommit statement may
 * run again elsewhere. */
void gc_global_failed_before_running(gc_global *g, int i);
/* A transaction was begun on member i without routing (a catalog
 * function's BEGIN): it is pinned there, unless one already is, so
 * SQLEndTran finds it. */
void gc_global_began_outside_routing(gc_global *g, int i);
/* The transaction on member i was rolled back in SQL after a statement
 * failed in it: the pin, when it is there, is released. */
void gc_global_rolled_back_on(gc_global *g, int i);
/* A catalog function runs on member i, the owner of its solo table
 * (chosen by gc_global_route): the last statement's member. */
void gc_global_catalog_function_on(gc_global *g, int i);
/* In the open transaction, a catalog function names `table` of `schema`
 * (NULL: the search_path's): when the shard map knows it as a solo table
 * of another group than the pinned member's, the member that answers for
 * it, with *joined: the group's member holding part of the transaction, in
 * which it answers; else (*joined false) the group's primary (a standby
 * when it has none that can serve), which answers outside the
 * transaction. -1: the pinned member answers (not such a table, or no
 * member of its group can serve). Counted as routed by key, as
 * gc_global_route counts a catalog function between transactions. */
int gc_global_route_catalog_in_transaction(gc_global *g, const char *schema,
                                           const char *table, bool *joined);
/* SQLEndTran: what to do (gc_outcome_end_tran), with the pin released
 * when the rules say so. *member: the pinned member (-1: none); report:
 * 40001 / 19068 for the COMMIT of a lost transaction, else empty. */
gc_end_tran_action gc_global_end_transaction(gc_global *g, bool commit, int *member,
                                             gc_error *report);

/* --- following the catalog version (gc_global_refresh.c) --- */

/* Between transactions: whether gc_global_follow_catalog has work to do: a
 * gcluster notification with a newer version arrived on the listening
 * session (taken without a round trip), or TopologyRefresh seconds passed
 * since the last version check. Never true while a transaction is pinned. */
bool gc_global_refresh_pending(gc_global *g);
/* Makes the next gc_global_refresh_pending true: the shard map may be
 * stale (a part of a transaction reached a moved shard through
 * postgres_fdw), so the version is checked before the next transaction
 * rather than TopologyRefresh seconds later. */
void gc_global_check_catalog_soon(gc_global *g);
/* Before a statement is routed, between transactions: when it writes a
 * table the shard map does not know, and that name was not checked under
 * this map yet, the catalog version is read (one round trip), so that a
 * table another connection made moments ago (its notification not read
 * yet) is known before the write is routed: gc_global_refresh_pending is
 * then true (gc_global_unknown_write.c). */
void gc_global_check_unknown_write(gc_global *g, const gc_analysis *a);
/* Whether a shard moved since the shard map the connection routes by was
 * read: a leaf of member i's group by the map is foreign there now, or the
 * catalog version moved. One or two round trips on member i's session,
 * which must be idle or in a transaction that is not aborted (false
 * otherwise). */
bool gc_global_shard_map_moved(gc_global *g, int i);
/* Between transactions (never while pinned): takes queued notifications,
 * else checks the catalog version (one round trip), and when it is newer
 * follows it: topology read
 * again, new members opened (each gets `setup_sql`, may be NULL), removed
 * ones closed, the new version's shard map, the router made again. Member
 * indexes may change: callers holding one look their member up again.
 * When the version was raised by a reconnect request (ALTER SYSTEM
 * RECONNECT GLOBAL CONNECTION or gcctl reconnect, by gcluster.version's
 * reason), every member session is closed and opened again as well.
 * False with err when the new topology could not be read (the last good
 * one stays). The caller must have no statement streaming on any member. */
bool gc_global_follow_catalog(gc_global *g, const char *setup_sql, gc_error *err);
/* ALTER SYSTEM RECONNECT GLOBAL CONNECTION: closes and reopens every
 * member session (a member that does not answer is left down), then raises
 * the catalog version on every group's primary that answered to the
 * highest known + 1 (gcluster.bump_version, as gcctl reconnect) and follows
 * the new version. *version gets the new version. info gets 01000 naming
 * the groups left out (no member answered, or no primary: the version was
 * not raised there); cleared when none. False with err: the server's error
 * (42501 without the admin grant) when a primary refused the raise, 08S01
 * when no member or no primary answered. Never while pinned. */
bool gc_global_reconnect(gc_global *g, const char *setup_sql, int64_t *version,
                         gc_error *err, gc_error *info);

#endif
