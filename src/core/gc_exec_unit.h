/*
 * gc_exec_unit: several statements that one call of the application runs
 * kept one unit on a global connection, as PostgreSQL keeps a text of
 * several statements: a transaction of their own in autocommit (committed
 * in two phases when they span groups), a savepoint around them in an open
 * transaction at rollback level 2, so that a failing statement undoes
 * them all. The bracket's statements (BEGIN, SAVEPOINT, COMMIT...) run on
 * a statement handle of the driver's own through the application's path,
 * so a transaction across groups follows them as it follows the
 * application's own.
 *
 * Used by a text of several statements run one by one (gc_exec_split.c)
 * and by a parameter array whose rows run one by one
 * (gc_exec_row_batches.c).
 */
#ifndef GC_EXEC_UNIT_H
#define GC_EXEC_UNIT_H

#include "core/gc_diag.h"
#include "core/gc_stmt.h"

typedef enum gc_unit_bracket {
    GC_UNIT_NONE,          /* nothing added: the statements control the
                              transaction themselves, or levels 0 and 1 end
                              the transaction anyway */
    GC_UNIT_TRANSACTION,   /* autocommit: BEGIN ... COMMIT */
    GC_UNIT_SAVEPOINT,     /* in a transaction, level 2 */
} gc_unit_bracket;

/* The bracket for the statements of s now. */
gc_unit_bracket gc_unit_bracket_of(const gc_stmt *s);

/* Runs one statement on inner as the application's; what it says goes to
 * `to` (NULL: dropped). */
SQLRETURN gc_unit_run(gc_stmt *inner, const char *sql, gc_diag *to);

/* Opens the unit (BEGIN, SAVEPOINT); what that says goes to said. */
SQLRETURN gc_unit_open(gc_stmt *inner, gc_unit_bracket bracket, gc_diag *said);

/* A statement of the unit failed: the unit is undone whole (ROLLBACK, or
 * back to its savepoint); what the undo says is dropped. */
void gc_unit_undo(gc_stmt *inner, gc_unit_bracket bracket);

/* The unit's statements all ran: it is kept (COMMIT, RELEASE); what that
 * says goes to said. */
SQLRETURN gc_unit_close(gc_stmt *inner, gc_unit_bracket bracket, gc_diag *said);

#endif
