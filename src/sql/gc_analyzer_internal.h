/*
 * Private to the analyzer (gc_analyzer*.c): the statement as an array of code
 * tokens (comments dropped) and the helpers both halves share.
 */
#ifndef GC_ANALYZER_INTERNAL_H
#define GC_ANALYZER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "sql/gc_analyzer.h"
#include "sql/gc_sql_lexer.h"

#define GC_AZ_MAX_CTES 16

typedef struct gc_az {
    gc_sql_lexer lx;          /* over the whole text; only for the token helpers */
    gc_sql_token *tok;        /* code tokens, owned */
    size_t n;
    size_t stmt_begin;        /* the main statement (after WITH ...) */
    size_t stmt_end;          /* first token past it: `;`, an unmatched `)`, or n */
    size_t cte_name[GC_AZ_MAX_CTES];   /* token index of each WITH name */
    size_t n_ctes;
    /* The bodies of the data-modifying WITH queries, each one INSERT,
     * UPDATE, DELETE or MERGE: token ranges [from, to). -1 when one that
     * modifies data is anything else (or there are more). */
    size_t dml_cte[GC_AZ_MAX_CTES][2];
    int n_dml_ctes;
    bool oom;
    gc_analysis *out;
} gc_az;

bool gc_az_kw(const gc_az *az, size_t i, const char *word);
bool gc_az_punct(const gc_az *az, size_t i, char c);
bool gc_az_op(const gc_az *az, size_t i, const char *op);

/* Index just past the `)` matching the `(` at i; end when unbalanced. */
size_t gc_az_skip_parens(const gc_az *az, size_t i, size_t end);

/* A malloc'd copy of the identifier token i names (folded or unquoted);
 * NULL when it is no identifier or memory runs out (then az->oom). */
char *gc_az_ident(gc_az *az, size_t i);
/* The same for token tok of another lexer lx (a literal's text read as a
 * name). */
char *gc_az_identifier_of(gc_az *az, const gc_sql_lexer *lx, const gc_sql_token *tok);

/* Parses a value that fills tokens [i, end) exactly: $n or a literal, with
 * optional casts. Returns end and fills *v (literal malloc'd) on success;
 * 0 otherwise (v then holds param -1 and no literal). */
size_t gc_az_parse_value(gc_az *az, size_t i, size_t end, gc_value_source *v);

/* What the function calls of a statement may do, from least to most. */
typedef enum gc_az_call_class {
    GC_AZ_CALL_READS = 0,     /* no call, or only built-ins known to read */
    GC_AZ_CALL_MAY_WRITE,     /* a function the driver does not know (a user's) */
    GC_AZ_CALL_WRITES,        /* a built-in that writes, locks or signals */
} gc_az_call_class;

/* The class of the function `name` (folded, unquoted); user_schema when it
 * was called qualified by a schema other than pg_catalog. */
gc_az_call_class gc_az_function_class(const char *name, bool user_schema);

/* The most a call in the statement may do (gc_analyzer_calls.c). */
gc_az_call_class gc_az_classify_calls(const gc_az *az);

/* Whether every call in a row write (INSERT, UPDATE, DELETE, MERGE; its
 * target named in az->out) is a built-in known to read or a sequence
 * function: its function calls cannot write a row anywhere. */
bool gc_az_write_calls_plain(const gc_az *az);

/* Whether the main statement names its target and no other relation, its
 * calls all known to read (gc_analysis.one_relation; gc_analyzer_relations.c). */
bool gc_az_names_one_relation(const gc_az *az);

/* True when the name lists are sorted as bsearch needs (a unit test asks). */
bool gc_az_function_lists_sorted(void);

/* Target table and pinned columns of the main statement, by kind. Fill
 * az->out; set az->oom when memory runs out. */
void gc_az_analyze_insert(gc_az *az);
void gc_az_analyze_filtered(gc_az *az);   /* UPDATE, DELETE, SELECT, TABLE, MERGE */
void gc_az_analyze_maintenance(gc_az *az); /* VACUUM, ANALYZE, REINDEX TABLE, CLUSTER */
void gc_az_analyze_copy(gc_az *az);        /* COPY table ... */
/* The sequence the statement's first nextval or setval names by a string
 * literal, into az->out's sequence and sequence_schema (gc_analyzer_calls.c). */
void gc_az_find_sequence(gc_az *az);

#endif
