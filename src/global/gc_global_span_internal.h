/*
 * Private to the writes across groups (gc_global_span*.c): one group's part
 * of the write and the helpers both the statement's own path and the
 * INSERT ... SELECT path (gc_global_span_select.c) use.
 */
#ifndef GC_GLOBAL_SPAN_INTERNAL_H
#define GC_GLOBAL_SPAN_INTERNAL_H

#include "global/gc_global_internal.h"
#include "util/gc_strbuf.h"

/* One group's part of the write. */
typedef struct gc_span_part {
    int group;
    int member;
    bool savepoint;      /* SAVEPOINT gc_span was set there */
} gc_span_part;

/* The failure err of part p as the application gets it (a broken session:
 * 40001 / 19068; a server's refusal keeps its SQLSTATE), naming the group.
 * generation: the part's session when it was sent the statement. */
void gc_span_part_failed(gc_global *g, const gc_span_part *p, unsigned long generation,
                         gc_error *err);
/* The same for another statement's part: doing names it ("the write
 * across groups"). */
void gc_span_part_failed_doing(gc_global *g, const gc_span_part *p, unsigned long generation,
                               const char *doing, gc_error *err);

/* Runs sql on part p's session; errors of a session that broke count. */
bool gc_span_run_on(gc_global *g, const gc_span_part *p, const char *sql, gc_error *err);

/* Sends one statement on m and reads its results: the row count added to
 * *rows, the rows of a RETURNING gathered into *returned, the last
 * command's result kept in *tag. */
bool gc_span_run_statement(gc_member *m, const char *text, const gc_span_params *params,
                           long long *rows, PGresult **returned, PGresult **tag,
                           gc_error *err);

/* Appends text (len bytes) to out with its parameters $1..$n_params
 * numbered again in order of first use, from first_number on: used[k]
 * gets the index of the application's parameter that new number
 * first_number + k stands for, *n_used how many there are (at most
 * n_params). False when memory runs out. */
bool gc_span_renumber_params(gc_strbuf *out, const char *text, size_t len, int n_params,
                             int first_number, int *used, int *n_used);

/* The wire arrays of a statement built from another's parameters: its
 * own values first (an INSERT ... SELECT's rows), then the application's
 * parameters it uses; used[] says which (gc_span_renumber_params). */
typedef struct gc_span_wire {
    int cap;
    int *used;
    Oid *types;
    const char **values;
    int *lengths, *formats;
} gc_span_wire;

/* Room for cap parameters (at least one). False when memory runs out; the
 * wire must be freed either way. */
bool gc_span_wire_init(gc_span_wire *w, int cap);
void gc_span_wire_free(gc_span_wire *w);

/* The parameters of params listed in w->used (n_used of them), into w's
 * arrays from slot at on; *mine describes them. */
void gc_span_pick_params(const gc_span_params *params, gc_span_wire *w, int at, int n_used,
                         gc_span_params *mine);

/* Where the rows of an INSERT go (its VALUES rows, or a batch of an
 * INSERT ... SELECT's): each row's group, and its leaf partition (NULL,
 * unless the INSERT has ON CONFLICT (...): then each leaf's rows go
 * apart, into that leaf, whose unique index the parent lacks). */
typedef struct gc_span_places {
    const int *group_of;
    const char *const *leaf_of;
} gc_span_places;

/* Whether row r goes in the statement for group (and leaf, when not
 * NULL). */
bool gc_span_row_goes(const gc_span_places *at, int r, int group, const char *leaf);
/* Whether row r is the first of group's rows in its leaf (any of group's
 * rows is, when the leaves do not count): one statement starts there. */
bool gc_span_row_starts_leaf(const gc_span_places *at, int r, int group);

/* INSERT ... SELECT into a sharded table (gc_global_span_select.c). */

/* Where each key column of t is among the inserted columns (key_at, up to
 * 32; *nk of them); refuses (0A000 / 90122, nothing sent) a RETURNING and
 * a key column the INSERT does not list. */
bool gc_span_select_plan(const gc_shard_table *t, const gc_analysis *a, int *key_at, int *nk,
                         gc_error *err);

/* Runs the INSERT's query on the coordinator's part (parts[0], the
 * transaction's own member: find_parts puts it first) and inserts its
 * rows, in batches, each row on its owner group's part. The row count goes to *rows, the last INSERT's result to
 * *tag. False with err (named after the part that failed). */
bool gc_span_insert_select(gc_global *g, const gc_span_part *parts, int n,
                           const gc_shard_table *t, const char *sql, const gc_analysis *a,
                           const int *key_at, int nk, const gc_span_params *params,
                           long long *rows, PGresult **tag, gc_error *err);

/* TRUNCATE across groups (gc_global_span_truncate.c). */

/* One table a TRUNCATE or LOCK TABLE names: its place in the text, and the cluster table
 * it is (NULL: one the shard map does not know). */
typedef struct gc_span_tables_name {
    size_t start, end;
    const gc_shard_table *table;
} gc_span_tables_name;

/* A TRUNCATE, or a LOCK TABLE (the same list of tables, placed the same
 * way), read from its text: its tables and where its options (RESTART
 * IDENTITY, CASCADE...; LOCK's mode, NOWAIT) begin. */
typedef struct gc_span_tables {
    int n;
    gc_span_tables_name *names;   /* owned: gc_span_tables_free */
    size_t options;
    bool only;                    /* a name has ONLY: the text runs as it is */
    bool lock;                    /* LOCK TABLE */
    bool waits_for_reads;         /* its lock conflicts with postgres_fdw's reads' */
    bool cascades;                /* TRUNCATE ... CASCADE: tables it does not name */
} gc_span_tables;

/* Reads sql as a TRUNCATE or LOCK TABLE of plain names (no second
 * statement) with g's shard map. False when it is not one (or memory ran
 * out): the text then runs as it is. *out is freed with
 * gc_span_tables_free. */
bool gc_span_tables_read(const gc_global *g, const char *sql, gc_span_tables *out);
void gc_span_tables_free(gc_span_tables *tr);

/* How many groups own rows of the tables tr names (0 when a leaf's owner
 * is unknown); *only_group gets the group when there is exactly one. */
int gc_span_tables_groups(const gc_global *g, const gc_span_tables *tr, int *only_group);

/* Whether group gi owns rows of a table tr names. */
bool gc_span_tables_has_share(const gc_span_tables *tr, int gi);

/* The TRUNCATE group gi runs: its own leaves of each sharded table, the
 * solo tables it owns, and (on the coordinator) the names the map does
 * not know, as written; then the statement's options. A LOCK TABLE names
 * a sharded table as written on each group holding leaves of it. Caller
 * frees; NULL when memory runs out. */
char *gc_span_tables_text(const gc_span_tables *tr, const char *sql, int gi,
                          bool coordinator);

#endif
