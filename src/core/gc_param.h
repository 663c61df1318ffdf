/*
 * gc_param: what the statement module needs to read bound parameters
 * (internal to src/core's statement files).
 */
#ifndef GC_PARAM_H
#define GC_PARAM_H

#include "core/gc_stmt.h"

/* One parameter of one row of the parameter array, as bound. */
typedef struct gc_param_ref {
    SQLSMALLINT c_type;
    SQLSMALLINT sql_type;
    SQLULEN column_size;
    SQLSMALLINT decimal_digits;
    const void *value;          /* the row's element, or NULL */
    SQLLEN buffer_length;
    SQLLEN octet_length;        /* SQL_NULL_DATA, SQL_NTS, a length, or data-at-exec */
    bool data_at_exec;
    SQLSMALLINT io_type;        /* SQL_PARAM_INPUT, _OUTPUT or _INPUT_OUTPUT */
    SQLLEN *indicator_ptr;      /* the row's indicator and length, where an */
    SQLLEN *length_ptr;         /* output value's are written (may be NULL) */
} gc_param_ref;

/* Locates parameter i (0-based; must be bound) of parameter row `row`. */
void gc_param_locate(const gc_stmt *s, int i, SQLULEN row, gc_param_ref *out);
/* True when parameters 1..nparams are all bound; else *missing names one. */
bool gc_param_all_bound(gc_stmt *s, int *missing);

/* Prepares s on the server with unspecified parameter types (if not yet) and
 * describes it: fills the IRD and the parameter types (gc_exec.c). */
SQLRETURN gc_exec_describe_prepared(gc_stmt *s);

#endif
