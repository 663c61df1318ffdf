/*
 * gc_call: ODBC call escapes with output parameters ({?= call f(?)},
 * {call p(?, ?)} with SQL_PARAM_OUTPUT / SQL_PARAM_INPUT_OUTPUT).
 *
 * The rewriter turns a call escape into `SELECT * FROM name(args)`. Before
 * the execution this module finds out (once per text, one catalog query)
 * whether `name` is a procedure, and then runs `CALL name(args)` for a
 * procedure (output arguments passed as NULL, as PostgreSQL wants), or the
 * SELECT without the output-only arguments for a function (PostgreSQL's
 * functions do not take their OUT arguments). After the execution the
 * first row's columns are written, in order, to the output parameters (the
 * result first for {?= call}), and the row stays the result set as psqlODBC
 * leaves it ({?= call} of a one-value function: a row of no columns).
 * docs/statements.md, "Output parameters".
 */
#ifndef GC_CALL_H
#define GC_CALL_H

#include "core/gc_stmt.h"

/* Whether s is a call escape with output parameters bound (or {?= call}). */
bool gc_call_has_outputs(const gc_stmt *s);

/* Before an execution of a call escape: sets s->sql to the text to run
 * (and drops the server statement of the text it replaces). Does nothing
 * for other statements. SQL_ERROR with diagnostics when the catalog query
 * failed. */
SQLRETURN gc_call_before_exec(gc_stmt *s);

/* Declares the types of the values an output-only parameter sends (NULL):
 * left to the server where the text uses it, text where it does not. */
void gc_call_adjust_values(const gc_stmt *s, gc_param_value *pv);

/* After parameter row `row` ran: writes the call's row to the output
 * parameters of that row (the result stays, see above). SQL_SUCCESS_WITH_INFO or
 * SQL_ERROR when a value did not fit (diagnostics added). */
SQLRETURN gc_call_take_outputs(gc_stmt *s, SQLULEN row);

#endif
