/*
 * gc_span_exec: the core's side of a write across groups on a global
 * connection (global/gc_global.h, "writes across groups"). The router
 * marks such a statement (s->spans_groups); it is run here on every group
 * owning partitions of its table instead of on one member.
 */
#ifndef GC_SPAN_EXEC_H
#define GC_SPAN_EXEC_H

#include "core/gc_param.h"
#include "core/gc_stmt.h"

/* Runs the write of s with the converted values pv: committed across
 * groups at once in autocommit, else joined to the open transaction. Its
 * row count (and the rows of a RETURNING) become the statement's result;
 * diagnostics go to s. */
SQLRETURN gc_span_exec_statement(gc_stmt *s, const gc_param_value *pv);

/* A statement routed as a read of the transaction's own writes across
 * groups (s->split_read: a SELECT, UPDATE or DELETE, or an INSERT ...
 * SELECT across groups, whose query the pin reads): the text the pin runs
 * and its parameters, the rows other members sent for it last
 * (gc_global_split_read_text). */
typedef struct gc_split_read {
    char *text;               /* owned */
    char **rows;              /* owned: a json array per table read, n_rows of them */
    int n_rows;
    gc_param_value *pv;       /* owned array of n: the statement's, then the rows */
    int n;
} gc_split_read;

/* Brings the rows for the statement of s (its converted values pv) to
 * its pin: *out then holds what to send there. SQL_ERROR with diagnostics in
 * s when that failed (at rollback levels 0 and 1 the transaction is rolled
 * back, as for a write across groups). */
SQLRETURN gc_span_split_read(gc_stmt *s, const gc_param_value *pv, gc_split_read *out);
void gc_span_split_read_free(gc_split_read *r);

#endif
