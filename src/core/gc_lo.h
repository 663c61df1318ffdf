/*
 * gc_lo: large objects as psqlODBC maps them. A column whose declared type
 * is named `lo` (the lo extension's domain over oid) is described as
 * SQL_LONGVARBINARY, and reading it as binary (or character) data reads the
 * large object its value names, in pieces, through SQL on the statement's
 * session (lo_open / lo_get): the core never touches libpq's connection.
 * docs/types.md, "Large objects", says what it costs.
 */
#ifndef GC_LO_H
#define GC_LO_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "convert/gc_convert.h"
#include "core/gc_param.h"
#include "core/gc_stmt.h"
#include "util/gc_error.h"

/* After s's IRD was filled from `res` (s owns the result, s->block == res):
 * finds the columns of type oid that come from a table column declared as
 * `lo` and describes them as large objects. Costs one catalog query, only
 * for results that have such oid columns; a failed lookup leaves the
 * columns described as oid. */
void gc_lo_describe_columns(gc_stmt *s, const PGresult *res);

/* Reads the large object named by `oid_text` (the column's value, NULL
 * when is_null) into target: SQL_C_BINARY (and SQL_C_DEFAULT) give its
 * bytes, in pieces counted by *piece_offset (NULL for a bound column); every
 * other C type reads the oid itself, as psqlODBC does (SQL_C_CHAR gives the
 * oid's digits). One query per piece; the length reported is what remains
 * of the whole object. The oid text is read before the query, which may
 * move s's rows into memory. */
SQLRETURN gc_lo_read(gc_stmt *s, const char *oid_text, bool is_null,
                     const gc_fetch_target *target, size_t *piece_offset, gc_error *err);

/* Before a row of parameters is sent: each SQL_LONGVARBINARY, SQL_VARBINARY
 * or SQL_BINARY parameter (binary data, not NULL) whose target the server infers as a type named
 * `lo` becomes a new large object (lo_from_bytea, in the statement's
 * transaction) and the parameter its oid. The targets are learnt once per
 * statement text by describing it with those parameters unspecified (in a
 * savepoint inside a transaction, so a text the server cannot describe
 * that way aborts nothing); other targets keep the bytea. SQL_ERROR with
 * diagnostics on s when a large object cannot be made. */
SQLRETURN gc_lo_resolve_params(gc_stmt *s, SQLULEN row, gc_param_value *pv);

/* Whether parameters of s may become large objects: one is bound as a
 * binary SQL type and the database has a type named lo (asked once per
 * connection, gc_lo_resolve_params). */
bool gc_lo_params_possible(gc_stmt *s);

/* Learns the types the server infers for the parameters of s by describing
 * s->sql as the unnamed statement, the long binary parameters of the row
 * unspecified and the others as pv declares them (in a savepoint inside a
 * transaction); keeps the answer in s->described_param_types (zeros when
 * it cannot tell, NULL in a failed transaction). */
void gc_lo_describe_params(gc_stmt *s, SQLULEN row, const gc_param_value *pv);

#endif
