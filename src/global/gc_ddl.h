/*
 * gc_ddl: DDL through a global connection runs on every group's primary,
 * all groups or none, with two-phase commit (docs/global-connection.md,
 * section "DDL").
 *
 * gc_ddl_classify reads the statement's text (no round trip) and says how it
 * runs: routed like any statement (TRUNCATE: it is data; routing runs it on
 * every group owning rows of its tables), on every group's primary, as a new solo
 * table or materialized view (created on one group, a foreign table on the
 * others), as a REFRESH on a materialized view's owner, or refused.
 * gc_ddl_run runs it. A statement on one table that is a solo table runs
 * on its owner as written and, on the groups where the table is a foreign
 * table, in the form gc_ddl_twin_text maps it to (or is refused with 0A000).
 * A new solo table goes to the group its foreign keys need (gc_ddl_place.c);
 * an owner that reads rows (a materialized view, CREATE TABLE ... AS) is not
 * prepared but decides by its own commit (gc_ddl_matview.c).
 *
 * Not thread-safe: the owning ODBC connection's lock guards the gc_global.
 */
#ifndef GC_DDL_H
#define GC_DDL_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "global/gc_global.h"
#include "util/gc_error.h"

typedef enum gc_ddl_scope {
    GC_DDL_ONE_MEMBER = 0,  /* not cluster-wide: routed like any statement */
    GC_DDL_EVERY_GROUP,     /* the same text on every group's primary */
    GC_DDL_SOLO_TABLE,      /* CREATE TABLE of a new unpartitioned table */
    GC_DDL_SOLO_MATVIEW,    /* CREATE MATERIALIZED VIEW: one owner group, foreign twins
                               elsewhere, committed by the owner's decision */
    GC_DDL_MATVIEW_REFRESH, /* REFRESH MATERIALIZED VIEW: on the owner's primary only */
    GC_DDL_CONCURRENTLY,    /* CREATE / DROP INDEX CONCURRENTLY: outside a transaction
                               block, on the one group whose table or index it is */
    GC_DDL_REFUSED,         /* see why */
} gc_ddl_scope;

#define GC_DDL_NAME_MAX 128

/* The one object a statement changes, when what runs on a group depends on
 * what that object is there (docs/global-connection.md, "DDL on solo
 * tables"): a table that may be a solo table's foreign twin, or an index
 * that exists only where its table is a plain table. */
typedef enum gc_ddl_target {
    GC_DDL_TARGET_NONE = 0,
    GC_DDL_TARGET_TABLE,    /* target_as_written names a table */
    GC_DDL_TARGET_INDEX,    /* target_as_written names an index: runs where it exists */
    GC_DDL_TARGET_SEQUENCE, /* names a sequence (ALTER SEQUENCE): runs where it exists,
                               which for a solo table's serial is its owner only */
} gc_ddl_target;

/* What a group where the target table is a foreign table runs instead. */
typedef enum gc_ddl_twin {
    GC_DDL_TWIN_SAME = 0,   /* the text as is (PostgreSQL takes it for a foreign table) */
    GC_DDL_TWIN_SKIP,       /* nothing: an index, key, trigger, policy or rule lives
                               on the owner only */
    GC_DDL_TWIN_COMMENT,    /* COMMENT ON FOREIGN TABLE and the text after TABLE */
    GC_DDL_TWIN_ALTER,      /* ALTER FOREIGN TABLE with the actions mapped one by one */
    GC_DDL_TWIN_REFUSE,     /* 0A000 with twin_why, before anything runs */
} gc_ddl_twin;

/* One action of ALTER TABLE and what the foreign twin does with it. */
typedef enum gc_ddl_action_kind {
    GC_DDL_ACT_SAME = 0,        /* the same action text */
    GC_DDL_ACT_OWNER_ONLY,      /* constraints, storage, triggers...: nothing */
    GC_DDL_ACT_ADD_COLUMN,      /* ADD COLUMN as the owner now describes the column */
    GC_DDL_ACT_COLUMN_TYPE,     /* ALTER COLUMN TYPE: the owner's new type */
    GC_DDL_ACT_COLUMN_DEFAULT,  /* SET/DROP DEFAULT: the owner's default, if portable */
} gc_ddl_action_kind;

typedef struct gc_ddl_action {
    gc_ddl_action_kind kind;
    size_t start, end;                  /* the action's text in the statement */
    size_t column_start, column_end;    /* the column as written (sync kinds) */
    bool if_not_exists;                 /* ADD COLUMN IF NOT EXISTS */
} gc_ddl_action;

/* A name as written in a statement: offsets into its text. */
typedef struct gc_ddl_span {
    size_t start, end;
} gc_ddl_span;

/* Where a DROP ... CASCADE starts: the relations it names (DROP TABLE,
 * DROP MATERIALIZED VIEW, DROP VIEW), or every relation of the schemas it
 * names (DROP SCHEMA). What it reaches may be solo tables and materialized
 * views made through a global connection, whose catalog rows and foreign
 * tables on the other groups the cascade alone would leave behind. */
typedef enum gc_ddl_cascade {
    GC_DDL_CASCADE_NONE = 0,
    GC_DDL_CASCADE_RELATIONS,
    GC_DDL_CASCADE_SCHEMAS,
} gc_ddl_cascade;

/* Sequences a cluster-wide DDL may make on every group, each group's copy
 * counting on its own: they are interleaved in the DDL's transaction
 * (gc_ddl_sequences.c), as gcctl interleaves a sharded table's. */
typedef enum gc_ddl_sequences {
    GC_DDL_SEQ_NONE = 0,
    GC_DDL_SEQ_NAMED,       /* CREATE or ALTER SEQUENCE: the one sequences_of names */
    GC_DDL_SEQ_OF_TABLE,    /* CREATE TABLE ... PARTITION BY, ALTER TABLE: those
                               the columns of sequences_of own, where it is a
                               partitioned table (a sharded parent) */
} gc_ddl_sequences;

#define GC_DDL_MAX_ACTIONS 16
#define GC_DDL_MAX_DROP 32      /* tables one DROP TABLE may name */

typedef struct gc_ddl_plan {
    gc_ddl_scope scope;
    bool changes_map;       /* tables or schemas change: raise the catalog version */
    /* GC_DDL_SOLO_TABLE of CREATE TABLE ... AS (and every GC_DDL_SOLO_MATVIEW):
     * the owner may read other groups' rows through postgres_fdw, so it
     * cannot prepare; its own commit decides (gc_decision.h). */
    bool owner_decides;
    const char *why;        /* GC_DDL_REFUSED: static text */
    /* GC_DDL_SOLO_TABLE / GC_DDL_SOLO_MATVIEW / GC_DDL_MATVIEW_REFRESH: the
     * table's or view's name as written (text of the SQL, quotes kept), for
     * to_regclass on the owner. DROP TABLE: the first name. */
    char table_as_written[2 * GC_DDL_NAME_MAX + 8];
    /* CREATE TABLE / MATERIALIZED VIEW IF NOT EXISTS: when the name is
     * taken (a table, or another group's table's foreign twin), the text
     * runs on the first group alone, where the server skips it with its
     * notice, as on one server; making a twin elsewhere would fail. */
    bool if_not_exists;
    /* DROP TABLE: offset of what follows TABLE (0 otherwise), each table
     * named (offsets into the statement), IF EXISTS, and where the list
     * ends (CASCADE or RESTRICT may follow). A group drops the tables it
     * holds as foreign tables (solo tables' twins) with DROP FOREIGN TABLE,
     * the others with DROP TABLE. DROP MATERIALIZED VIEW likewise, the
     * others with DROP MATERIALIZED VIEW (drop_matview). */
    size_t drop_table_rest;
    bool drop_matview;
    int n_drop;
    gc_ddl_span drop_names[GC_DDL_MAX_DROP];
    bool drop_if_exists;
    size_t drop_tail;
    /* DROP ... CASCADE: where it starts, and the names it starts from (the
     * DROP TABLE's own names, or the views or schemas named). */
    gc_ddl_cascade cascade;
    int n_cascade;
    gc_ddl_span cascade_names[GC_DDL_MAX_DROP];
    /* CREATE [OR REPLACE] FUNCTION / PROCEDURE. */
    bool creates_routine;
    /* Such a statement whose body names a temporary table of the session
     * (gc_temp_tables_adjust_ddl): each group creates the routine with
     * check_function_bodies off for the statement. Checking the body
     * would touch the temporary table on its member, after which
     * PostgreSQL refuses to PREPARE the transaction, and would find no
     * such table on the other groups; the name is looked up when the
     * routine runs, as in a body PostgreSQL does not check. */
    bool skip_body_check;
    /* GC_DDL_EVERY_GROUP on one table or index (see gc_ddl_target). */
    gc_ddl_target target;
    /* ALTER TABLE: its ACCESS EXCLUSIVE lock on the target, held on every
     * group until the transaction ends, stops postgres_fdw's sessions (not
     * the transaction's own) reading the table's rows there. */
    bool locks_out_remote_reads;
    /* DROP INDEX (not CONCURRENTLY): its ACCESS EXCLUSIVE lock on the
     * index's table does the same where the table is. */
    bool drops_index;
    char target_as_written[2 * GC_DDL_NAME_MAX + 8];
    gc_ddl_twin twin;
    const char *twin_why;   /* GC_DDL_TWIN_REFUSE: static text */
    gc_ddl_sequences sequences;
    char sequences_of[2 * GC_DDL_NAME_MAX + 8];   /* as written */
    /* COMMENT: offset of what follows TABLE; ALTER TABLE: offset of what
     * follows TABLE ([IF EXISTS] [ONLY] name), up to actions[0].start. */
    size_t twin_rest;
    int n_actions;
    gc_ddl_action actions[GC_DDL_MAX_ACTIONS];
} gc_ddl_plan;

/* Classifies sql (NUL-terminated, the text the driver sends). Never fails:
 * text it does not recognise as DDL gets GC_DDL_ONE_MEMBER. */
void gc_ddl_classify(const char *sql, gc_ddl_plan *out);

#define GC_DDL_MAX_REFERENCES 16

/* The tables the REFERENCES clauses of sql name (column constraints and
 * FOREIGN KEY ... REFERENCES), in order, into names (max entries). Their
 * count, or -1 when there are more than max. */
int gc_ddl_references(const char *sql, gc_ddl_span *names, int max);

/* What the caller of gc_ddl_run gets back. */
typedef struct gc_ddl_outcome {
    PGresult *result;       /* the first group's command result (caller PQclears); NULL on error */
    gc_error info;          /* a warning (01000) when the DDL is decided but a group
                               could not be told to commit, or the version was not raised */
    bool sent;              /* in a transaction: the DDL reached a server (failed:
                               undone there); false is the driver's refusal, nothing run */
} gc_ddl_outcome;

/* Runs sql as plan says on every group's primary with two-phase commit
 * (see the header comment and the documentation). A new solo table is
 * registered in gcluster.tables, and a dropped one unregistered, in the same
 * transaction on every group. setup_sql (may be NULL) is run first on a
 * primary whose session must be opened now. False with err (naming the
 * group, and saying whether the transactions prepared for it were rolled
 * back) when the DDL did not take effect anywhere. */
bool gc_ddl_run(gc_global *g, const char *sql, const gc_ddl_plan *plan,
                const char *setup_sql, gc_ddl_outcome *out, gc_error *err);

/* Runs sql as plan says inside the open transaction of a global connection
 * (autocommit off, or a BEGIN sent in SQL): every group's primary joins the
 * transaction (the first statement's BEGIN is begin_sql, or the BEGIN held
 * back in SQL); its member coordinates it (chosen by LocalityGroupPolicy
 * when the DDL is its first statement), and a new solo table is made on its
 * group. Each group's part runs between a savepoint and its release; a
 * failure anywhere undoes the DDL on every group (the transaction goes on:
 * the caller applies the rollback level) and returns false with err naming
 * the group. The COMMIT is the transaction's (gc_global_commit_spread). */
bool gc_ddl_run_in_transaction(gc_global *g, const char *sql, const gc_ddl_plan *plan,
                               const char *begin_sql, const char *setup_sql,
                               gc_ddl_outcome *out, gc_error *err);

/* --- gc_ddl_sequences.c --- */

/* Brings the sequences plan->sequences names on session m (inside the
 * DDL's transaction on one group's primary, the DDL already run) into the
 * cluster's interleave: INCREMENT BY 100, the next value the first one at
 * or above the copy's own next value that ends in the group's position
 * (docs/global-connection.md, "Sequences"). A copy already in place, one
 * counting down, or one whose restart would pass its MAXVALUE is left
 * alone. False with err when a query failed. */
bool gc_ddl_interleave_sequences(gc_member *m, const gc_ddl_plan *plan, gc_error *err);

/* --- gc_ddl_twin.c --- */

/* What a group where plan's target table is a foreign table (a solo
 * table's twin) runs for sql; owner (an open session inside the DDL's
 * transaction on a group where the table is plain, the DDL already run
 * there) describes columns for the sync actions. *text gets NULL when
 * nothing runs there. False with err on failure; caller frees *text. */
bool gc_ddl_twin_text(const char *sql, const gc_ddl_plan *plan, gc_member *owner,
                      char **text, gc_error *err);

/* The relkind ('r', 'p', 'f', 'i'...) of name (as written, resolved by the
 * session's search_path) on session m; '\0' when there is no such
 * relation. False with err when the query failed. */
bool gc_ddl_relkind(gc_member *m, const char *name, char *relkind, gc_error *err);

/* Runs query_head followed by name as a string literal and `)` (a query
 * ending in `to_regclass(`) on session m: its result (the caller's to
 * PQclear), or NULL with err on failure. */
PGresult *gc_ddl_ask_about(gc_member *m, const char *query_head, const char *name,
                           gc_error *err);

/* Appends s to sb as an SQL string literal (E'' form when it holds a
 * backslash, so standard_conforming_strings does not matter). */
struct gc_strbuf;
void gc_ddl_append_literal(struct gc_strbuf *sb, const char *s);
/* Appends names (as written in sql) as the elements of an array literal,
 * each a string literal (gc_ddl_run.c). */
void gc_ddl_append_names_array(struct gc_strbuf *sb, const char *sql, const gc_ddl_span *names,
                               int n);

/* --- gc_ddl_remote_reads.c --- */

/* In the open transaction, before plan's ALTER TABLE or DROP runs: false
 * with err (55006, nothing run) when a member of the transaction read one
 * of the tables it names through postgres_fdw, whose lock on the table's
 * group the DDL would wait for until the transaction ends (a session on
 * one of the groups' primaries, primaries[k], n of them, holds one). */
bool gc_ddl_check_remote_reads(gc_global *g, gc_member *const *primaries, int n,
                               const char *sql, const gc_ddl_plan *plan, gc_error *err);
/* The same for the tables a statement names in sql at names[k] (a
 * TRUNCATE's, which locks them as ALTER TABLE does). */
bool gc_ddl_check_names_remote_reads(gc_global *g, gc_member *const *primaries, int n,
                                     const char *sql, const gc_ddl_span *names, int n_names,
                                     gc_error *err);
/* The same for plan's DROP INDEX, whose table is asked of the groups'
 * primaries (the index is where its table is a plain table). */
bool gc_ddl_check_index_remote_reads(gc_global *g, gc_member *const *primaries, int n,
                                     const gc_ddl_plan *plan, gc_error *err);

/* --- gc_ddl_place.c --- */

/* The groups a cluster-wide DDL runs on: the k-th has topology index
 * group_of[k] and its primary's open session sessions[k]. */
typedef struct gc_ddl_places {
    const gc_topology *topology;
    gc_member *const *sessions;
    const int *group_of;
    int n;
} gc_ddl_places;

/* CREATE TABLE: the group (k) where the new table (named table) must live
 * for its foreign keys; *owner comes in as the policy's choice and stays
 * when it holds every table referenced. False with err (0A000 naming the
 * tables and groups) when no one group can hold the keys, or a key names a
 * sharded table. */
bool gc_ddl_place_solo(const gc_ddl_places *p, const char *sql, const char *table, int *owner,
                       gc_error *err);

/* ALTER TABLE table ... REFERENCES: kinds[k] is table's relkind on group
 * k. False with err (0A000) when a key would reference a table that is not
 * a plain table on every group where table is one. */
bool gc_ddl_place_check_alter(const gc_ddl_places *p, const char *sql, const char *table,
                              const char *kinds, gc_error *err);

/* --- gc_ddl_matview.c --- */

/* The commit of a new materialized view (or CREATE TABLE ... AS), every
 * other group prepared as gid: in the owner's open transaction (on member owner_member) records
 * the decision and commits; a COMMIT that failed or whose answer was lost
 * is resolved on the owner's primary through a new session. True when the
 * decision is known: *committed, and why (the owner's error) when it is
 * false. False with why (08007, saying what to run) when the outcome could
 * not be learnt: the other groups must then stay prepared. */
bool gc_ddl_decide_by_owner(gc_global *g, int owner_member, const char *gid,
                            const char *setup_sql, bool *committed, gc_error *why);

/* REFRESH MATERIALIZED VIEW name runs (a plain statement) on the primary
 * of the one group where name is a materialized view while it is a
 * foreign table elsewhere, else on group policy_k's: *where, that
 * group's place in p. False with err. */
bool gc_ddl_matview_refresh_where(const gc_ddl_places *p, int policy_k, const char *name,
                                  int *where, gc_error *err);

/* --- gc_ddl_refresh.c --- */

/* After a DDL that changed tables: raises the catalog version on every
 * primary to (highest known + 1) and makes the connection follow it (new
 * shard map). False with err (a warning for the caller) when a step failed. */
bool gc_ddl_refresh(gc_global *g, gc_member *const *primaries, int n, const char *setup_sql,
                    gc_error *err);

#endif
