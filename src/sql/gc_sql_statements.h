/*
 * gc_sql_statements: a text of several statements (`;` at the top level)
 * seen as its parts, for what the extended protocol cannot do with it: the
 * server prepares one statement only, so a text of several runs as a simple
 * query, its parameters written into it as literals, and is described by
 * its first statement (docs/statements.md, "Several statements in one text").
 */
#ifndef GC_SQL_STATEMENTS_H
#define GC_SQL_STATEMENTS_H

#include <stdbool.h>
#include <stddef.h>

/* Bytes of sql (len bytes) before the `;` that ends its first statement
 * (outside parentheses, strings, comments); len when there is none.
 * standard_strings: the server's standard_conforming_strings. */
size_t gc_sql_first_statement_length(const char *sql, size_t len, bool standard_strings);

/* A copy of sql (len bytes) in which every positional parameter $k with
 * 1 <= k <= n becomes literals[k - 1], written as it is (the caller makes
 * it a well-formed literal); strings, comments and quoted identifiers are
 * left alone. Returns a malloc'd NUL-terminated text, NULL when out of memory. */
char *gc_sql_substitute_params(const char *sql, size_t len, bool standard_strings,
                               const char *const *literals, unsigned n);

/* literal written as an escape string constant E'...' (a backslash and a
 * quote doubled), which reads the same whatever standard_conforming_strings
 * says, followed by ::type_name when type_name is not NULL. Returns a malloc'd
 * text, NULL when out of memory. */
char *gc_sql_quote_literal(const char *value, size_t len, const char *type_name);

/* Appends name to sb as a quoted identifier ("a""b" for a"b), which names
 * exactly name whatever its case or characters. */
struct gc_strbuf;
void gc_sql_append_identifier(struct gc_strbuf *sb, const char *name);

#endif
