/*
 * gc_exec_several: a text of several statements with parameters. The server
 * prepares one statement only, so such a text runs as a simple query with
 * each parameter written into it as a literal of its type, and it is
 * described before it runs by its first statement, as psqlODBC does
 * (docs/statements.md, "Several statements in one text").
 */
#ifndef GC_EXEC_SEVERAL_H
#define GC_EXEC_SEVERAL_H

#include "core/gc_param.h"

/* Bytes of sql (len bytes, a text of s's) before the `;` that ends its
 * first statement, read as s's server reads strings; len when none. */
size_t gc_exec_several_statement_length(const gc_stmt *s, const char *sql, size_t len);

/* A malloc'd copy of the first statement of s->sql; NULL with HY001 added. */
char *gc_exec_several_first_statement(gc_stmt *s);

/* A malloc'd copy of s->sql with its parameters $1..$n replaced by the n
 * converted values pv as literals (NULL, or E'...'::type); NULL with HY001
 * added. */
char *gc_exec_several_with_values(gc_stmt *s, const gc_param_value *pv, int n);

#endif
