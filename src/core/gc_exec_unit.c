/*
 * gc_exec_unit: statements of one call kept one unit on a global
 * connection (see the header).
 */
#include "core/gc_exec_unit.h"

#include "core/gc_conn.h"
#include "core/gc_ddl_exec.h"
#include "core/gc_txn_guard.h"
#include "sql/gc_sql_txn.h"

/* The unit's savepoint in an open transaction at rollback level 2. */
#define UNIT_SAVEPOINT "gcodbc_unit"

gc_unit_bracket gc_unit_bracket_of(const gc_stmt *s)
{
    /* The text's own classification says whether any of its statements
     * controls the transaction (gc_sql_txn.h). */
    const gc_conn *c = s->conn;
    if (s->txn.kind == GC_SQL_TXN_CONTROL)
        return GC_UNIT_NONE;
    if (!gc_across_in_transaction(c))
        return GC_UNIT_TRANSACTION;
    return gc_txn_rollback_level(c) >= 2 ? GC_UNIT_SAVEPOINT : GC_UNIT_NONE;
}

SQLRETURN gc_unit_run(gc_stmt *inner, const char *sql, gc_diag *to)
{
    gc_diag_clear(&inner->h.diag);
    SQLRETURN rc = gc_stmt_exec_direct(inner, sql, SQL_NTS);
    if (to != NULL)
        gc_diag_move_at(to, &inner->h.diag, SQL_NO_ROW_NUMBER);
    return rc;
}

SQLRETURN gc_unit_open(gc_stmt *inner, gc_unit_bracket bracket, gc_diag *said)
{
    if (bracket == GC_UNIT_NONE)
        return SQL_SUCCESS;
    return gc_unit_run(inner, bracket == GC_UNIT_TRANSACTION ? "BEGIN"
                                                             : "SAVEPOINT " UNIT_SAVEPOINT, said);
}

void gc_unit_undo(gc_stmt *inner, gc_unit_bracket bracket)
{
    if (bracket == GC_UNIT_NONE)
        return;
    inner->query_timeout_left_ms = 0;   /* the undo is not the unit's: never timed */
    if (bracket == GC_UNIT_TRANSACTION)
        gc_unit_run(inner, "ROLLBACK", NULL);
    else if (gc_unit_run(inner, "ROLLBACK TO SAVEPOINT " UNIT_SAVEPOINT, NULL) != SQL_ERROR)
        gc_unit_run(inner, "RELEASE SAVEPOINT " UNIT_SAVEPOINT, NULL);
}

SQLRETURN gc_unit_close(gc_stmt *inner, gc_unit_bracket bracket, gc_diag *said)
{
    if (bracket == GC_UNIT_NONE)
        return SQL_SUCCESS;
    return gc_unit_run(inner, bracket == GC_UNIT_TRANSACTION ? "COMMIT"
                                                             : "RELEASE SAVEPOINT " UNIT_SAVEPOINT,
                       said);
}
