/*
 * gc_exec_array: a parameter array sent in one pipeline (libpq's pipeline
 * mode through the session layer), each row's result kept for
 * SQLMoreResults. docs/parameter-arrays.md has the rules.
 */
#ifndef GC_EXEC_ARRAY_H
#define GC_EXEC_ARRAY_H

#include "core/gc_stmt.h"

/* Whether the parameter array of s (rows rows, execution not yet started)
 * goes pipelined: one statement with parameters, no data at execution in
 * any row, no output parameters; on a global connection only in autocommit
 * with no transaction open (the rows are routed one by one and each
 * member's rows pipelined). Otherwise it runs row by row. */
bool gc_exec_array_applies(gc_stmt *s, SQLULEN rows);

/* The part of gc_exec_array_applies that is not the connection kind's:
 * several rows of one statement with parameters, none at execution, no
 * output parameters. */
bool gc_exec_array_rows_alike(gc_stmt *s, SQLULEN rows);

/* How many rows of an autocommit array of s go in one transaction:
 * psqlODBC's BatchSize, or 1 for a prepared statement the application
 * described or ran one row at a time (psqlODBC runs its arrays row by
 * row). */
SQLULEN gc_exec_array_batch_size(const gc_stmt *s);

/* Runs every row of the array of s in one pipeline (one per member on a
 * global connection) and makes the results
 * of the rows that ran the statement's results, in row order. Fills the
 * status array, the processed count and the diagnostics (each failed row's
 * with its row number), *result the execution's return code. The caller
 * has checked the bindings and reset the execution (start_exec). False,
 * with nothing sent, when a row of a global connection's array is a write
 * across groups (gc_span_exec.h): the caller runs the rows one by one. */
bool gc_exec_array_run(gc_stmt *s, SQLULEN rows, SQLRETURN *result);

/* Shared with gc_exec.c: converts the parameters of one row (*pv_out gets
 * nparams values, freed with gc_exec_free_values); conversion errors are
 * added with the row's number. */
SQLRETURN gc_exec_convert_row(gc_stmt *s, SQLULEN row, gc_param_value **pv_out);
void gc_exec_free_values(gc_param_value *pv, int n);
/* The connection's open session, or NULL with 08003 / 08S01 added. */
gc_session *gc_exec_open_session(gc_stmt *s);
/* After the server refused to prepare the text of s: whether that lost no
 * transaction of the application's (none open, none open before the call:
 * idle_before, or the rollback level's savepoint took it back), so the
 * text may be sent again. */
bool gc_exec_refusal_lost_nothing(const gc_stmt *s, bool idle_before);
/* Whether state is the server refusing a declared parameter type where the
 * text uses it: 42804 (no implicit cast to the column's type), 42883 (no
 * operator or function for it). */
bool gc_exec_is_type_refusal(const char *state);

/* Whether s on a global connection can have its array routed row by row
 * and sent in one pipeline per member (the global kind's array_applies,
 * gc_conn_kind.h). */
bool gc_exec_array_global_applies(gc_stmt *s);

/* How an array's rows are placed on pipelines ("lanes"): the connection's
 * kind says (its array_lanes), gc_exec_array_run follows. */
struct gc_array_run;
typedef struct gc_array_lanes {
    /* Sets the run up (its memory, the lanes known before any row); false,
     * diagnostics added, when nothing can be sent. */
    bool (*start)(struct gc_array_run *a);
    /* Converts every row and queues it on its lane, then ends the lanes'
     * queues. */
    void (*queue)(struct gc_array_run *a, gc_error *err);
    /* Once every lane's answers are read: what follows a statement. */
    void (*finish)(struct gc_array_run *a);
} gc_array_lanes;

/* The general kind's: one lane on the one session, autocommit rows in
 * batches (docs/parameter-arrays.md). */
extern const gc_array_lanes gc_exec_array_one_session;
/* The global kind's: each row routed by its own values to a lane per
 * member; in autocommit batches per lane, or window by window when the
 * rows write on several members; two steps in a transaction. */
extern const gc_array_lanes gc_exec_array_per_member;

#endif
