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

#endif
