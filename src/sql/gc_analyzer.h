/*
 * gc_analyzer: what a statement is and where its sharding key could come
 * from, read from its text once at SQLPrepare (or SQLExecDirect) time.
 *
 * The input is the statement as the driver sends it: PostgreSQL SQL with
 * `$n` parameters (gc_sql_rewrite has already turned `?` markers into $n and
 * translated ODBC escapes). The analyzer knows nothing of shard maps: it
 * reports, for the target table, every column that the statement pins to a
 * value (INSERT columns and rows; `col = value`, `value = col`,
 * `t.col = value` and `col IN (v1, v2, ...)` in the top-level AND of WHERE).
 * The router matches them against the table's sharding key.
 *
 * Anything it does not understand is not an error: the analysis says
 * "not routable by key" and why, and the statement goes by policy.
 */
#ifndef GC_ANALYZER_H
#define GC_ANALYZER_H

#include <stdbool.h>
#include <stddef.h>

#include "util/gc_error.h"

/* The statements of one text whose targets gc_analysis keeps. */
#define GC_SEVERAL_TARGETS_MAX 8

typedef enum gc_sql_kind {
    GC_SQL_UNKNOWN = 0,
    GC_SQL_SELECT,        /* also VALUES, TABLE, WITH ... SELECT */
    GC_SQL_INSERT,
    GC_SQL_UPDATE,
    GC_SQL_DELETE,
    GC_SQL_MERGE,
    GC_SQL_BEGIN,         /* BEGIN, START TRANSACTION */
    GC_SQL_COMMIT,        /* COMMIT, END, COMMIT PREPARED is GC_SQL_OTHER */
    GC_SQL_ROLLBACK,      /* ROLLBACK, ABORT (not ROLLBACK TO SAVEPOINT) */
    GC_SQL_SAVEPOINT,     /* SAVEPOINT, RELEASE, ROLLBACK TO */
    GC_SQL_SET,           /* SET, RESET, SET LOCAL (see is_local) */
    GC_SQL_SHOW,
    GC_SQL_DDL,           /* CREATE, ALTER, DROP, TRUNCATE, COMMENT, GRANT, REVOKE,
                             REFRESH */
    GC_SQL_MAINTENANCE,   /* VACUUM, ANALYZE, REINDEX, CLUSTER, CHECKPOINT: they
                             write no rows */
    GC_SQL_OTHER,
} gc_sql_kind;

/* Where one pinned value comes from. */
typedef struct gc_value_source {
    int param;            /* 0-based parameter number ($1 -> 0), or -1 for a literal */
    char *literal;        /* the literal's value as text (quotes removed,
                             escapes resolved); NULL for the SQL NULL literal */
} gc_value_source;

/* One column of the target table the statement pins to values. INSERT: one
 * value per row, in row order. WHERE: one value for `=`, several for IN. */
typedef struct gc_pinned_column {
    char *name;           /* as the server stores it (folded, unquoted); NULL
                             for INSERT without a column list: see position */
    int position;         /* 0-based position in INSERT without a column list, else -1 */
    int n_values;
    gc_value_source *values;
} gc_pinned_column;

/* An INSERT ... VALUES item that leaves its column to a sequence: the lone
 * keyword DEFAULT, or nextval('<literal>') alone (pg_catalog's, the literal
 * possibly cast). */
typedef struct gc_value_gap {
    size_t at, length;    /* the item's bytes; at 0: the item gives a value */
    char *sequence;       /* nextval's literal as written (regclass input
                             text); NULL for DEFAULT */
} gc_value_gap;

typedef struct gc_analysis {
    gc_sql_kind kind;
    bool read_only;       /* cannot write, so safe to run again after a
                             failure: SHOW, or a SELECT without FOR
                             UPDATE/SHARE, INTO, data-modifying WITH, and
                             calling only functions the driver knows to read
                             (docs/analyzer.md); false when unsure */
    bool route_as_read;   /* may go where policies send reads: read_only, or
                             a SELECT whose only doubt is a function the
                             driver does not know (a user's). A standby
                             refuses its write (25006), nothing applied; never
                             run such a statement twice (read_only is false) */
    bool plain_write;     /* one INSERT, UPDATE, DELETE or MERGE alone in the
                             text, without a data-modifying WITH, whose function
                             calls are all built-ins known to read (or sequence
                             functions): it writes its one table and nothing
                             else (its table's triggers are not looked into) */
    bool one_relation;    /* one SELECT, INSERT, UPDATE or DELETE alone in
                             the text, without WITH, naming its target table
                             and no other relation (no subquery, join, FROM
                             list of several, UPDATE ... FROM, DELETE ...
                             USING), whose function calls are all built-ins
                             known to read (a write's: or sequence functions):
                             run where its target's rows are, it reads
                             nothing of another server */
    bool locking_read;    /* one SELECT alone in the text that writes nothing
                             but row locks: a locking clause (FOR UPDATE,
                             NO KEY UPDATE, SHARE, KEY SHARE), no INTO, no
                             data-modifying WITH, and function calls all
                             known to read. Not read_only: it locks */
    bool select_into;     /* a SELECT with INTO: it makes a table, as
                             CREATE TABLE ... AS does */
    bool several;         /* the text holds more than one statement */
    bool writes_in_with;  /* several_targets holds the targets of its
                             data-modifying WITH queries and of the main
                             statement (one statement, not several) */
    /* A text of several statements, each a SELECT, INSERT, UPDATE, DELETE
     * or MERGE: the table each names as its target, "schema.table" when
     * qualified (up to GC_SEVERAL_TARGETS_MAX; statements without a table,
     * SELECT 1, name none). n_several_targets -1 when a statement is
     * anything else or names no target the analyzer can read, or there
     * are more. */
    struct gc_several_target {
        char *schema;     /* folded, NULL when not written */
        char *table;
        bool writes;      /* its statement may write (not a read-only SELECT) */
        struct gc_analysis *analysis;  /* owned: the statement's own analysis,
                                          whose keys place its rows */
        size_t offset;    /* where its text begins in the whole text: its
                             analysis's offsets count from there */
    } several_targets[GC_SEVERAL_TARGETS_MAX];
    int n_several_targets;
    bool is_local;        /* SET LOCAL */
    bool and_chain;       /* COMMIT / ROLLBACK ... AND CHAIN */
    char *schema;         /* target table's schema as written (folded), or NULL */
    char *table;          /* target table (folded), NULL when none found */
    /* Where the target table is named in the text, so that a write can be
     * sent with it replaced (one partition at a time, gc_global_span.c):
     * the bytes of [schema.]name, and of its last part. Lengths 0 when the
     * name cannot simply be replaced. */
    size_t target_offset, target_length;
    size_t target_name_offset, target_name_length;
    bool target_aliased;  /* an alias follows the name */
    int n_rows;           /* INSERT: rows in VALUES; else 1 */
    size_t *row_offset;   /* INSERT ... VALUES, a plain list of rows: where each
                             row's "(...)" starts and ends (past its ")") in the
                             text, n_rows of each, so rows can be sent apart;
                             NULL otherwise */
    size_t *row_end;
    int row_width;        /* INSERT ... VALUES: items in each row, else 0 */
    gc_value_gap *gaps;   /* INSERT ... VALUES: row_width items per row, each
                             where the item leaves its column to a sequence
                             (a key the driver may draw: gc_global_keys.c);
                             NULL when no item does */
    size_t values_at, values_end; /* INSERT: the bytes of its VALUES keyword,
                             or of DEFAULT VALUES; 0 otherwise */
    bool default_values;  /* INSERT ... DEFAULT VALUES (one row) */
    int n_columns;
    gc_pinned_column *columns;
    char **set_columns;   /* UPDATE: the columns its SET list assigns (folded
                             or unquoted), in order; NULL otherwise */
    int n_set_columns;
    const char *not_routable;  /* static text: why no key can come from this
                                  statement (NULL when columns may give one) */
    /* INSERT ... SELECT (any query feeding the rows, no WITH before the
     * INSERT): the bytes of the query, so that the driver can run it and
     * send its rows as VALUES (gc_global_span_select.c); query_length 0
     * otherwise. What precedes it is the INSERT's head (target, column
     * list, OVERRIDING), what follows its tail (ON CONFLICT ...). */
    size_t query_offset, query_length;
    bool query_returning;   /* the tail has a RETURNING clause */
    bool conflict_target;   /* INSERT: its ON CONFLICT names what to infer a
                               unique index from, ON CONFLICT (...) */
    char **insert_columns;  /* INSERT ... SELECT and INSERT ... VALUES: the
                               column list's names (NULL for an item that is
                               no plain column), NULL without one */
    int n_insert_columns;
    size_t insert_list_close; /* INSERT with a column list: the byte of its
                                 ")", where a column can be added; else 0 */
    bool insert_overriding;   /* INSERT ... OVERRIDING {SYSTEM | USER} VALUE */
    /* A SELECT without a target table that calls nextval or setval on a
     * sequence named by a string literal (`SELECT nextval('items_id_seq')`):
     * the name the literal gives (folded or unquoted), and its schema when
     * qualified, else NULL. A serial of a solo table lives on one group
     * (gc_global_route.c). */
    char *sequence_schema, *sequence;
    unsigned long serial; /* this analysis among the process's, from 1: lets
                             routing remember what it found for it (its
                             table in the shard map); 0 for one made by hand */
    size_t returning_at;  /* an INSERT, UPDATE or DELETE alone in the text,
                             without a RETURNING of its own: the byte just
                             past its last token, where a RETURNING clause
                             may be appended (only `;`, blanks and comments
                             follow); 0 otherwise */
} gc_analysis;

/* Analyzes sql (len bytes). Fails (false, err 42601) only on text the lexer
 * cannot read (an unterminated string, say); everything else yields an
 * analysis. Free with gc_analysis_free. */
bool gc_analyze(const char *sql, size_t len, gc_analysis *out, gc_error *err);
/* Whether a's several_targets are there to place it: a text of several
 * statements, or a statement with data-modifying WITH queries. */
static inline bool gc_analysis_has_targets(const gc_analysis *a)
{
    return a != NULL && (a->several || a->writes_in_with) && a->n_several_targets > 0;
}
void gc_analysis_free(gc_analysis *a);

/* The item of the INSERT's column list that names column (as the server
 * stores it), or -1: none, or no column list. */
int gc_analysis_insert_column(const gc_analysis *a, const char *column);

#endif
