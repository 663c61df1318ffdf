/*
 * gc_sql_table_refs: the tables a query reads, where its text names them
 * in a FROM list or a JOIN, at any depth (subqueries, WITH bodies, each
 * branch of a UNION), so that a caller can put a subquery in a table's
 * place (global/gc_global_split_read.c). Read from the tokens, without a
 * parser: a FROM counts only at the level of a query (the text's own, or
 * parentheses, that open with SELECT, WITH, VALUES or TABLE; or with
 * UPDATE, whose FROM list is found, or DELETE, whose target after FROM
 * is), never the FROM of a function's syntax (extract(year FROM d)) or of
 * IS DISTINCT FROM. A caller that must not miss a table checks that every
 * other mention of its name is a qualifier (name.column): a table named
 * in a parenthesized join tree ((a JOIN b ON ...)) or in a DELETE's USING
 * is not found.
 */
#ifndef GC_SQL_TABLE_REFS_H
#define GC_SQL_TABLE_REFS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct gc_sql_table_ref {
    size_t offset, length;            /* its [schema.]name as written */
    size_t name_offset, name_length;  /* the name's last part */
    bool qualified;                   /* a schema is written */
    bool aliased;                     /* an alias follows (AS x, or x) */
    bool only;                        /* ONLY before it */
    bool sampled;                     /* TABLESAMPLE after it (and its alias) */
} gc_sql_table_ref;

/* The tables the text sql (len bytes) reads, in the order written, up to
 * max of them into refs; returns how many there are (may exceed max), or
 * -1 when the text cannot be read (an unterminated string, nesting deeper
 * than 64). */
int gc_sql_table_refs(const char *sql, size_t len, gc_sql_table_ref *refs, int max);

#endif
