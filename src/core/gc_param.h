/*
 * gc_param: what the statement module needs to read bound parameters
 * (internal to src/core's statement files).
 */
#ifndef GC_PARAM_H
#define GC_PARAM_H

#include "core/gc_stmt.h"

/* PostgreSQL's limit: Parse and Bind count parameters in 16 bits. A text
 * with more `?` markers is refused at SQLPrepare / SQLExecDirect (54023). */
#define GC_PARAM_MAX 65535

/* The most parameters the server can describe to us: libpq (15 and the
 * versions before it) takes a ParameterDescription message longer than
 * 30,000 bytes (4 for its length, 2, and 4 per parameter: 7,499 make 30,002)
 * for lost synchronization and drops the connection. Beyond this the driver
 * never asks for one (docs/statements.md). */
#define GC_DESCRIBE_PARAMS_MAX ((30000 - 4 - 2) / 4)

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

/* The four arrays libpq takes for one execution's parameters, in one heap
 * block: at PostgreSQL's 65,535 parameters they make 1.3 MB, more than the
 * stack of an application thread may hold. */
typedef struct gc_param_wire {
    const char **values;
    Oid *types;
    int *lengths;
    int *formats;
} gc_param_wire;

/* Fills w's arrays from the n converted values pv (which keep owning the
 * data); false on out-of-memory. Freed with gc_param_wire_free. */
bool gc_param_wire_fill(gc_param_wire *w, const gc_param_value *pv, int n);
void gc_param_wire_free(gc_param_wire *w);

/* The type parameter i (0-based) of s is declared as, value v: what the
 * server refused before (gc_stmt.params_untyped: a value in text goes
 * without one) or could not infer (gc_stmt.params_uninferred: its
 * type_uninferred) decides it. */
Oid gc_param_declared_type(const gc_stmt *s, int i, const gc_param_value *v);

/* The parameter (0-based) that a 42P18 error, "could not determine data
 * type of parameter $2", names, when not declared by its type_uninferred
 * yet; else -1. */
int gc_param_uninferred(const gc_stmt *s, const char *sqlstate, const char *message);

/* Declares parameter i by its type_uninferred from now on; false when out
 * of memory. */
bool gc_param_mark_uninferred(gc_stmt *s, int i);

/* Prepares s on the server with unspecified parameter types (if not yet) and
 * describes it: fills the IRD and the parameter types (gc_exec.c). A text
 * with more than GC_DESCRIBE_PARAMS_MAX markers is refused (54000) before
 * anything is sent, so the session stays usable. */
SQLRETURN gc_exec_describe_prepared(gc_stmt *s);

#endif
