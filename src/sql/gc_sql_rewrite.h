/*
 * gc_sql_rewrite: turns the SQL text an ODBC application wrote into the text
 * PostgreSQL runs. Two independent jobs, chosen by flags:
 *
 *   GC_SQL_MARKERS_TO_DOLLAR   each `?` parameter marker becomes $1, $2, ...
 *                              in the order the markers appear (SQLPrepare,
 *                              SQLExecDirect);
 *   GC_SQL_TRANSLATE_ESCAPES   ODBC escape sequences ({fn}, {d}, {t}, {ts},
 *                              {guid}, {interval}, {call}, {oj}, {escape})
 *                              become PostgreSQL syntax (SQLNativeSql uses
 *                              this alone and keeps the markers).
 *   GC_SQL_BACKSLASH_STRINGS   the server has standard_conforming_strings
 *                              off: a backslash escapes in '...' too.
 *
 * Nothing inside a string, comment, quoted identifier or dollar quote is ever
 * touched. The lexical rules, the `?` decision and the escape table are in
 * gc_sql_lexer.h, gc_sql_escape_fn.c and docs/sql-rewriting.md.
 *
 * Errors (err set, out->text NULL):
 *   42601  an unterminated string, quoted identifier, dollar quote or comment
 *   42000  a malformed, unbalanced or unknown ODBC escape (the message gives
 *          the byte offset); `?` markers mixed with $n positional parameters
 *   42000  {?= ...} without `call` after the `=`
 *   22021  the text contains a NUL byte (PostgreSQL cannot receive it)
 *   54000  more than UINT_MAX markers
 *   HY001  out of memory
 */
#ifndef GC_SQL_REWRITE_H
#define GC_SQL_REWRITE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/gc_error.h"

#define GC_SQL_MARKERS_TO_DOLLAR 0x1u
#define GC_SQL_TRANSLATE_ESCAPES 0x2u
#define GC_SQL_BACKSLASH_STRINGS 0x4u

typedef struct gc_sql_rewritten {
    char *text;               /* malloc'd, NUL-terminated; owned, see gc_sql_rewritten_free */
    size_t length;            /* bytes before the NUL */
    unsigned marker_count;    /* `?` markers in the statement */
    unsigned max_positional;  /* highest $n the application wrote, 0 if none */
    unsigned param_count;     /* parameters the text takes: marker_count, or
                                 max_positional when there is no marker */
    bool call_escape;         /* the whole text is one {call} or {?= call}
                                 escape, rewritten "SELECT * FROM name(args)" */
    bool return_value;        /* {?= call}: marker 1 is the result, not in the text */
} gc_sql_rewritten;

/* Rewrites sql (len bytes, need not be NUL-terminated) into *out. On success
 * returns true and the caller owns out->text; on failure returns false, sets
 * err and leaves *out empty (text NULL). */
bool gc_sql_rewrite(const char *sql, size_t len, unsigned flags,
                   gc_sql_rewritten *out, gc_error *err);

/* Frees out->text and empties *out; safe on an empty or failed result. */
void gc_sql_rewritten_free(gc_sql_rewritten *out);

#endif
