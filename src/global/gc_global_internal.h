/*
 * gc_global_internal: the global connection object's fields, shared by
 * gc_global.c (connect, members, counters) and gc_global_route.c (routing).
 * Nothing outside src/global/gc_global*.c includes this.
 */
#ifndef GC_GLOBAL_INTERNAL_H
#define GC_GLOBAL_INTERNAL_H

#include <pthread.h>

#include "global/gc_global.h"
#include "global/gc_router.h"
#include "global/gc_shardmap.h"

/* The topology refresh: listening for and following a new catalog version
 * (gc_global_refresh.c). */
typedef struct gc_global_refresh gc_global_refresh;

/* What the shard map said about a routed statement's target table
 * (gc_global_route.c), by its analysis serial: found once, not looked up
 * by name on every execution. Valid while the connection's map_epoch is
 * the one it was found under. */
#define GC_GLOBAL_TABLE_MEMO 8
typedef struct gc_global_table_memo {
    unsigned long serial;          /* gc_analysis.serial; 0: empty */
    unsigned long epoch;           /* map_epoch when found */
    const gc_shard_table *table;   /* into map; NULL: not a cluster table */
} gc_global_table_memo;

/* Names of tables written while the shard map did not know them, whose
 * catalog version was checked then (gc_global_unknown_write.c): checked
 * once per name and map. */
#define GC_GLOBAL_UNKNOWN_WRITES 8
typedef struct gc_global_unknown_writes {
    char *names[GC_GLOBAL_UNKNOWN_WRITES];   /* "schema.table" or ".table"; owned */
    int next;                                /* slot the next name takes */
    unsigned long epoch;                     /* map_epoch they were checked under */
} gc_global_unknown_writes;

/* The savepoints the application set in the open transaction and has not
 * released or gone back past, oldest first, each as the server names it
 * (folded or unquoted): a member that joins the transaction gets them set
 * after its BEGIN (gc_global_savepoint.c). */
typedef struct gc_global_savepoints {
    char **names;                  /* n of them, each owned; owned */
    int n;
    int cap;
    bool unknown;                  /* a savepoint statement the list cannot
                                      follow (in a text of several
                                      statements): going back is refused once
                                      the transaction holds another member */
} gc_global_savepoints;

/* What a call of the connection waits on, for a cancel from another
 * thread (SQLCancel, the query timeout's timer): gc_global_wait.c. */
typedef struct gc_global_wait {
    pthread_mutex_t lock;
    gc_member *on;                 /* the server the call waits on, or NULL */
    bool in_call;                  /* between gc_global_wait_begin and _end */
    bool cancelled;                /* the call was cancelled: no step starts */
} gc_global_wait;

struct gc_global {
    gc_topology topo;              /* owned */
    gc_member **members;           /* topo.n_members sessions, owned */
    gc_global_member_stats *stats; /* topo.n_members */
    int *connect_order;            /* order members opened in (policy 2); -1 */
    int n_opened;                  /* members opened so far (next connect_order) */
    gc_router *router;             /* owned */
    gc_shardmap *map;              /* one reference; NULL: everything by policy */
    gc_shardmap *committed_map;    /* not NULL while map is the catalog as
                                      the open transaction's DDL left it,
                                      read on its coordinator
                                      (gc_global_catalog.c): the committed
                                      catalog's map, one reference, back in
                                      map when the transaction ends */
    bool txn_map_stale;            /* ... and a ROLLBACK TO may have undone
                                      some of that DDL: read again */
    char **search_path;            /* the session's search_path, split; owned */
    int n_search_path;
    unsigned long map_epoch;       /* rises whenever map or search_path changes */
    gc_global_table_memo table_memo[GC_GLOBAL_TABLE_MEMO];
    int pinned;                    /* member of the open transaction, or -1:
                                      its coordinator when it spans groups */
    int temps_to_settle;           /* member whose ended transaction made or
                                      dropped temporary tables, asked at the
                                      next statement (gc_global_statement_starts),
                                      or -1 */
    int *joined;                   /* members of other groups the open
                                      transaction joined (gc_global_spread.c),
                                      n_joined of them; owned */
    int n_joined;
    gc_global_savepoints savepoints; /* the open transaction's own
                                      (gc_global_savepoint.c) */
    bool txn_ddl;                  /* cluster DDL ran in the open transaction */
    bool txn_ddl_changes_map;      /* ... and changed tables: the catalog
                                      version rises after its commit */
    bool txn_ddl_coordinator_decides; /* ... and made a solo object from a
                                      query on the coordinator, which then
                                      cannot prepare: it decides the commit */
    bool may_write_elsewhere;      /* a write of the open transaction (or of
                                      the autocommit statement) may reach rows
                                      of another group, through postgres_fdw
                                      (gc_global_route.c) */
    int n_reaching;                /* members of the open transaction that
                                      ran a statement that may reach another
                                      group through postgres_fdw (such a
                                      member cannot PREPARE): 0, 1 (then
                                      `reaching`), 2 for several or unknown
                                      (gc_global_route.c; the commit's decider
                                      is chosen by it, gc_global_spread.c;
                                      2 is asked of the servers at COMMIT,
                                      gc_global_fdw_held.c) */
    int reaching;
    int joined_now;                /* the member the current statement made
                                      join the transaction, or -1 */
    /* Cluster tables the open transaction wrote on a member other than its
     * pin (a joined one, or every group by a spanning write): the pin's
     * reads of them go through postgres_fdw, which does not see those
     * writes (gc_global_stale_reads.c). Any table: more than fit, a TRUNCATE
     * of several, a table the map does not know. */
    struct gc_joined_write {
        const gc_shard_table *table;   /* NULL: any table */
        int group;                 /* -1: every group (a spanning write) */
        int depth;                 /* the application's savepoints in force
                                      when it was written */
    } joined_writes[8];
    int n_joined_writes;
    /* Names of the tables the open transaction wrote on its pin: a
     * statement it runs on another member (a write placed in another
     * group) reads them through postgres_fdw, which does not see those
     * writes. A statement that failed and a savepoint rolled back to take
     * theirs out, as the other members' list. Any table: more than fit, a
     * write whose table is not known. */
    struct gc_pin_write {
        char table[64];
        int depth;                 /* the application's savepoints in force
                                      when it was written */
    } pin_writes[8];
    int n_pin_writes;
    int pin_writes_any_depth;      /* any table since this many savepoints
                                      were in force; -1: not said */
    gc_writes_mark writes_mark;    /* the record as the current
                                      statement started */
    bool statement_marked;         /* the autocommit statement routed last
                                      carries the statement mark
                                      (gc_global_statement_marked) */
    int last_member;               /* member of the last statement, or -1 */
    bool on_demand;                /* LocalityOnDemand=Yes */
    gc_trace *trace;               /* borrowed from the connection */
    struct gc_global_settings_state *settings; /* SET log and SQL BEGIN prelude
                                      (gc_global_settings.c); NULL until used */
    gc_global_refresh *refresh;    /* topology refresh (gc_global_refresh.c);
                                      owned */
    struct gc_global_failover *failover; /* reconnect schedules and the lost
                                      transaction mark (gc_global_failover.c) */
    struct gc_temp_tables *temps;  /* temporary tables and their sessions
                                      (gc_temp_tables.h); owned */
    long long roles_probed_ms;     /* monotonic time standbys were last asked
                                      their role (gc_global_route.c) */
    struct gc_in_doubt_watch *in_doubt_watch; /* this connection in the process's
                                      in-doubt watcher (gc_in_doubt_watch.c) */
    gc_global_wait wait;           /* gc_global_wait.c */
    /* The partitions the keys of the SELECT last routed as a split read
     * place its rows in (pointers into map; gc_global_split_read.c), or
     * n_split_keys -1: its keys are unknown, every leaf may hold rows. */
    const char *split_keys[32];
    int n_split_keys;
    int split_reader;              /* the member that runs it (the pin, or the
                                      transaction's member where its rows are) */
    bool split_brings_all;         /* it brings every table it reads whose rows
                                      are outside the reader's group, written
                                      or not (gc_global_read_splits_home) */
    int *span_rows;                /* the group of each VALUES row of the INSERT
                                      last routed across groups (gc_global_span.c);
                                      owned */
    const char **span_leaves;      /* and its leaf partition (into the map), for
                                      an INSERT ... ON CONFLICT (...); owned */
    struct gc_session_pool *pool;  /* GlobalSession=Yes: the shared sessions
                                      (gc_session_pool.h), one join; else NULL */
    bool *held;                    /* with pool: member i's session counts as
                                      borrowed from it (topo.n_members) */
    int pool_wait_ms;              /* GlobalSessionWait */
    bool ran_setup;                /* with pool: session characteristics were
                                      run on a borrowed session */
    gc_global_unknown_writes unknown_writes;
    struct gc_key_cache *key_cache; /* keys drawn ahead (gc_key_cache.h); NULL
                                      until the first draw; owned */
    int sequence_cache;            /* SequenceCache */
    struct gc_txn_settings *txn_settings; /* SET / RESET of the open
                                      transaction (gc_global_txn_settings.c);
                                      NULL until the first; owned */
    unsigned long txn_serial;      /* rises as each transaction ends
                                      (gc_global_release_pin) */
    struct gc_zone_memo *zone_memo; /* UTC times of local timestamptz keys
                                      asked of the server (gc_global_zone.c);
                                      NULL until the first; owned */
    bool changed_settings;         /* with pool: a statement may have changed a
                                      setting the driver does not log
                                      (set_config): RESET ALL for the next
                                      borrower of the sessions held now */
};

/* For gc_global_unknown_write.c (gc_global_refresh.c): an open, idle
 * session to run a catalog query on, or -1; and the version it read, as
 * if its notification had arrived (followed between transactions). */
int gc_global_catalog_query_member(gc_global *g);
void gc_global_refresh_heard(gc_global *g, int64_t version);
/* Frees what gc_global_check_unknown_write remembered. */
void gc_global_unknown_writes_free(gc_global *g);

/* A timestamptz sharding key's text with the session TimeZone's UTC offset
 * written in when it has none (gc_global_zone.c): text itself when it
 * needs none or the offset cannot be had, else buf. */
#define GC_GLOBAL_ZONED_KEY_MAX 96
const char *gc_global_zoned_key(gc_global *g, const char *text,
                                char buf[GC_GLOBAL_ZONED_KEY_MAX]);
void gc_global_zone_memo_free(gc_global *g);

/* Whether the open transaction was lost with its member (the application
 * has not rolled back yet); cleared as the rules of gc_outcome.h say
 * (gc_global_lifecycle.c). */
bool gc_global_txn_lost(const gc_global *g);
void gc_global_clear_txn_lost(gc_global *g);
/* After a statement failed on member i, which joined the transaction for
 * it (gc_global_spread.c): when the rollback level undid the statement
 * (its session still in the transaction), the member's part holds nothing
 * and leaves the transaction, rolled back: a part that cannot PREPARE (the
 * failed statement reached postgres_fdw) must not take the transaction
 * with it at COMMIT. True when it left. */
bool gc_global_leave_failed_join(gc_global *g, int i);
/* A member of the open transaction whose part a failed statement left
 * aborted (rollback level 0), or -1. */
int gc_global_aborted_member(const gc_global *g);
/* gc_global_savepoint.c: whether sql is one ROLLBACK TO SAVEPOINT. */
bool gc_global_savepoint_goes_back(const char *sql);

/* gc_global_stale_reads.c: writes of the open transaction made on other
 * members than its pin, and the statements of the pin that would read
 * them through postgres_fdw, which does not see them. */
void gc_global_note_joined_write(gc_global *g, const gc_analysis *a, int group);
void gc_global_forget_joined_writes(gc_global *g);
/* ROLLBACK TO (rolled_back) or RELEASE left kept savepoints: the writes
 * made after the one gone back to leave the list. */
void gc_global_writes_savepoints(gc_global *g, int kept, bool rolled_back);
/* g->map is about to become `to`: the tables noted as written on joined
 * members point into it, found by name (a table it lacks, dropped or
 * renamed, counts as any table); a name the pin's record holds that `to`
 * no longer knows (the transaction dropped the table) leaves that record. */
void gc_global_writes_remap(gc_global *g, const gc_shardmap *to);
/* False with err (0A000, nothing sent) when the statement of req, run on
 * the pin, may read a table the transaction wrote on another member:
 * owner and all_in are where its keys are (group_by_key). When split is
 * not NULL, a SELECT the pin can run with those rows brought to it
 * (gc_global_split_read.c) gives true and *split set instead. */
bool gc_global_read_sees_writes(gc_global *g, const gc_route_request *req, int owner,
                                bool all_in, bool *split, gc_error *err);
/* For an INSERT ... VALUES with ON CONFLICT (...) into a sharded table
 * routed to d's member: the leaf partition holding all its rows when that
 * member's group owns it (see gc_route_decision.leaf), else NULL. */
const char *gc_global_conflict_leaf(gc_global *g, const gc_route_request *req,
                                    const gc_route_decision *d);
/* gc_global_read_sees_writes for the query of an INSERT ... SELECT across
 * groups, which the coordinator runs (the pin, when its group holds a
 * share of the target): a query the pin can run with the rows written on
 * other members brought to it gives true and *split set. */
bool gc_global_span_query_sees_writes(gc_global *g, const gc_route_request *req, bool *split,
                                      gc_error *err);
/* gc_global_view_reads.c: the views among the relations sql names in its
 * FROM lists and JOINs that the shard map does not know, and the tables
 * each reads, directly or through other views, asked of member's session:
 * rows (the view as written, the table's name), the caller's to PQclear;
 * NULL when it names none, none is a view, or it cannot be told. */
PGresult *gc_global_views_read(gc_global *g, int member, const char *sql);
/* False with err (0A000, nothing sent) when the write across groups of
 * req, which runs on each group's member, may read there through
 * postgres_fdw a table the transaction wrote (or its DDL locked) on
 * another of its members. */
bool gc_global_span_reads_see_writes(gc_global *g, const gc_route_request *req, gc_error *err);
/* A row write of the open transaction ran on its pin. */
void gc_global_note_pin_write(gc_global *g, const gc_analysis *a);
/* Whether the open transaction wrote rows on its pin. */
bool gc_global_pin_wrote(const gc_global *g);
/* False with err (0A000, nothing sent) when the statement of req, run on
 * the transaction's member `member` other than its pin, may read through
 * postgres_fdw a table the transaction wrote on another of its members
 * (its pin, or another group's member). A statement that member can run
 * with those rows brought to it gives true and *split set instead. */
bool gc_global_member_read_sees_writes(gc_global *g, const gc_route_request *req, int member,
                                       bool *split, gc_error *err);
/* Whether t was written in group `group` (-1: in any group) on a member
 * other than the pin. */
bool gc_global_written_elsewhere(const gc_global *g, const gc_shard_table *t, int group);
/* Whether the open transaction wrote t in group `group`: on its member
 * there, the pin included. */
bool gc_global_written_in_group(const gc_global *g, const gc_shard_table *t, int group);
/* Whether the statement of req, which member `reader` (a joined member)
 * would run reading other groups' tables through postgres_fdw after
 * another member of the transaction did, can run there with every such
 * table's rows brought from the transaction's members of their groups
 * instead (gc_global_split_read.c): it then reads no other group, and the
 * commit is not lost to two members that cannot PREPARE. Sets the split
 * up as gc_global_read_splits does. */
bool gc_global_read_splits_home(gc_global *g, const gc_route_request *req, int reader);
/* Counts member i among the open transaction's members that may have
 * reached another group (n_reaching; gc_global_route.c). */
void gc_global_note_reaching(gc_global *g, int i);
/* Whether the statement of req (a SELECT, or an UPDATE or DELETE of the
 * rows reader holds), which reads a table the transaction wrote on other
 * members, can run on member reader (the pin, or the transaction's member
 * where its rows are) with those members' rows brought to it
 * (gc_global_split_read.c); notes the reader and the partitions its keys
 * place it in. */
bool gc_global_read_splits(gc_global *g, const gc_route_request *req, int reader);
/* The partitions of t the key tuples of req's statement place rows in
 * (names pointers into the map, up to max); their number, or -1 when the
 * statement does not give every key column or a tuple cannot be placed. */
int gc_global_key_partitions(gc_global *g, const gc_route_request *req,
                             const gc_shard_table *t, const char **names, int max);

/* Runs sql (a savepoint statement, a SET) on every member the open
 * transaction joined (gc_global_savepoint.c). One that refuses it (a
 * savepoint name never set, a broken session) has its part aborted, which
 * no savepoint of the pin can mend: the whole transaction is rolled back,
 * and err says so. */
bool gc_global_run_on_joined(gc_global *g, const char *sql, gc_error *err);
/* Marks the open transaction lost (it was rolled back under the
 * application, which learns it at its next statement or COMMIT). */
void gc_global_mark_txn_lost(gc_global *g);

/* --- transaction state, changed by the lifecycle only (gc_global_lifecycle.c,
 * gc_global_commit.c) and the spread and failover code --- */
/* The member that ran the last statement (-1 before the first one). */
void gc_global_set_last_member(gc_global *g, int i);
/* Pins the open transaction to member i. */
void gc_global_pin(gc_global *g, int i);
/* Ends the pin (SQLEndTran, or the transaction ended in SQL); the ON
 * COMMIT DROP temporary tables of its session leave the registry. */
void gc_global_release_pin(gc_global *g);
/* Asks the member whose ended transaction made or dropped temporary tables
 * which of them exist (temps_to_settle), when it is idle. */
void gc_global_settle_temp_tables(gc_global *g);
/* The autocommit statement that just failed is known not to have taken
 * effect (its transaction was resolved as not committed, see
 * gc_commit_resolve.h), or nothing of it ran: it may run again elsewhere.
 * Cleared as each execution starts (gc_global_statement_starts). */
void gc_global_set_rerun_safe(gc_global *g, bool safe);

/* Tells the router what is known of every member now. */
void gc_global_sync_router(gc_global *g);

/* Replaces g's cached search_path with the split form of text ("\"$user\",
 * public"). False on out-of-memory (the list is then empty). */
bool gc_global_split_search_path(gc_global *g, const char *text);

/* What names a cluster for gc_topology_remember: the seeds, the locator
 * file, the database and the user. Heap string; NULL when memory runs out. */
char *gc_global_topology_key(const gc_settings *s);

/* --- following the catalog version (gc_global_refresh.c) --- */
/* The channel gcctl notifies when it bumps the catalog version. */
#define GC_CHANNEL "gcluster"
/* Keeps what following a new version needs from opt (copied) and LISTENs on
 * channel gcluster on the first open primary, unless member `listening`
 * (-1: none) already does. False on out-of-memory. */
bool gc_global_refresh_init(gc_global *g, const gc_global_options *opt, int listening);
void gc_global_refresh_free(gc_global *g);

/* --- catalog reads that fail over (gc_global_catalog.c) --- */
/* One read of the catalog on member i: true when it got what it wanted;
 * false with err otherwise (the next member is then tried). */
typedef bool (*gc_catalog_read_fn)(gc_global *g, int i, void *ctx, gc_error *err);
/* Runs read on member `preferred` (-1: none) and then on every other open,
 * idle member in turn (primaries first), each at most once, until one
 * succeeds; a member whose
 * session died under the read is marked down (gc_global_member_failed).
 * Returns the member that succeeded, or -1 with err (the last member's
 * error; 08S01 when no member was open). Between transactions only. */
int gc_global_catalog_read(gc_global *g, int preferred, gc_catalog_read_fn read, void *ctx,
                           gc_error *err);
/* Replaces g->map with the shard map of g's topology version, read through
 * gc_global_catalog_read (preferred first); NULL when no member gave it
 * (then every statement goes by LocalityGroupPolicy). */
void gc_global_load_shardmap(gc_global *g, int preferred);
/* The open transaction's DDL changed tables, or went back past such DDL
 * (ROLLBACK TO): g->map becomes the shard map read on the transaction's
 * coordinator inside the transaction, which sees that DDL, until the
 * transaction ends (gc_global_forget_transaction_shardmap). Left as it was
 * when the read fails (traced). */
void gc_global_follow_transaction_catalog(gc_global *g);
/* The transaction ended: g->map is the committed catalog's map again. */
void gc_global_forget_transaction_shardmap(gc_global *g);
/* --- routing (gc_global_route.c) --- */
/* The statement's target table in the shard map, or NULL when it is not a
 * cluster table (g->map and a->table not NULL); remembered per analysis. */
const gc_shard_table *gc_global_cluster_table(gc_global *g, const gc_analysis *a);
/* The cluster table a name of one or two parts as written (len bytes,
 * quotes kept) names, folded as the server stores names; NULL when the map
 * does not know it. */
const gc_shard_table *gc_global_table_named(gc_global *g, const char *name, size_t len);

/* Whether members are opened only when chosen: LocalityOnDemand=Yes, or
 * the global session (members are borrowed when chosen). */
bool gc_global_opens_on_demand(const gc_settings *s);

/* --- the global session (gc_global_session.c) --- */
/* Joins the process's pool for s (g->pool). False on out-of-memory. */
bool gc_global_join_pool(gc_global *g, const gc_settings *s);
/* Leaves it (no-op without one). */
void gc_global_leave_pool(gc_global *g);
/* Member i (closed) gets a session: an idle one of the pool (RESET ALL
 * first when it carries another connection's settings), else a new one;
 * then setup_sql (may be NULL). False with err when the member does not
 * answer (it is DOWN then, as for gc_global_open_member). */
bool gc_global_borrow_member(gc_global *g, int i, const char *setup_sql, gc_error *err);
/* Borrows a session of the first member not DOWN (a primary first), for
 * catalog queries; its index, or -1 when none answers. */
int gc_global_borrow_for_query(gc_global *g);
/* After a topology change renumbered the members (new_of_old[j]: old
 * member j's new index, -1 when it left): which sessions are held follows,
 * and a held session of a member that left counts as lost. Before the
 * members that left are destroyed. On out-of-memory nothing counts as
 * held (sessions given back later count as opened again). */
void gc_global_remap_held(gc_global *g, const int *new_of_old, int n_old, int n_new);
/* RECONNECT: the pool's idle sessions of g's cluster are closed, once for
 * catalog version `version` (-1: now, whatever was done before). */
void gc_global_drop_idle_sessions(gc_global *g, long long version);

/* --- TRUNCATE across groups (gc_global_span_truncate.c) --- */
/* Whether a statement may be a TRUNCATE (DDL) or a LOCK TABLE (OTHER):
 * both are placed by the tables they name, TRUNCATE alone writes. */
static inline bool gc_global_may_name_tables_to_place(const gc_analysis *a)
{
    return a != NULL && (a->kind == GC_SQL_DDL || a->kind == GC_SQL_OTHER);
}
/* Whether sql, a TRUNCATE or (in a transaction) a LOCK TABLE, runs as a
 * write across groups: its tables hold rows in several groups, or, in a
 * transaction, in one group other than the transaction's (the transaction
 * joins it there). */
bool gc_global_truncate_spans(gc_global *g, const char *sql, bool transaction);
/* The same in the open transaction (*spans), once nothing blocks it:
 * false with err (55006, nothing run) when a member of the transaction
 * read one of its tables through postgres_fdw, whose lock on the table's
 * group the TRUNCATE (or a LOCK in a mode conflicting with it) would wait
 * for until the transaction ends. A text that is neither: true, *spans
 * false. A TRUNCATE that spans is noted as the transaction's write of the
 * tables it names (of every table when it cascades). */
bool gc_global_truncate_in_transaction(gc_global *g, const char *sql, bool *spans,
                                       gc_error *err);
/* Notes what a TRUNCATE that spans as the first statement of a
 * transaction writes, as above; each group's part is noted as another
 * member's, the pin not chosen yet. A LOCK TABLE notes nothing. */
void gc_global_note_truncate_begins(gc_global *g, const char *sql);
/* Notes table t written by the open transaction in every group holding
 * rows of it: on the coordinator in its group, on a joined member in the
 * others (gc_global_stale_reads.c). */
void gc_global_note_table_written(gc_global *g, const gc_shard_table *t, int coordinator_group);

/* --- transactions across groups (gc_global_spread.c) --- */
/* Rolls back what the open transaction holds on joined members and forgets
 * them (the pin is the caller's). */
void gc_global_spread_abandon(gc_global *g);
/* At COMMIT, when several members of the open transaction may have read
 * another group through postgres_fdw (n_reaching 2), asks their servers
 * which really hold a postgres_fdw transaction and keeps that answer when
 * it is one member or none (gc_global_fdw_held.c). */
void gc_global_settle_reaching(gc_global *g);

/* --- the application's savepoints (gc_global_savepoint.c) --- */
/* Appends to sb what sets the open transaction's savepoints on a member
 * that joins it (`; SAVEPOINT "a"; ...`, to follow its BEGIN in one text);
 * nothing when there are none. */
struct gc_strbuf;
void gc_global_savepoints_append_replay(const gc_global *g, struct gc_strbuf *sb);
/* Forgets them: the transaction ended. */
void gc_global_savepoints_forget(gc_global *g);

/* --- failover (gc_global_failover.c) --- */
/* False on out-of-memory. */
bool gc_global_failover_init(gc_global *g, int reconnect_interval_s);
void gc_global_failover_free(gc_global *g);

/* The catalog version as member i's server has it (one round trip on its
 * idle session); -1 with err on failure (gc_global_refresh.c). */
int64_t gc_global_read_catalog_version(gc_global *g, int i, gc_error *err);

#endif
