/*
 * gc_txn_guard: the rollback level applied to a failed statement (see the
 * header for the rules and their cost).
 */
#include "core/gc_conn_kind.h"
#include "core/gc_txn_guard.h"

#include <string.h>

#include "core/gc_stmt.h"

int gc_txn_rollback_level(const gc_conn *c)
{
    const char *v = c->settings.rollback_on_error;
    if (v == NULL || strcmp(v, "7.4") == 0)
        return 2;                        /* psqlODBC's default on servers with savepoints */
    char last = v[strlen(v) - 1];        /* "1" or "7.4-1": the level is the last digit */
    return last >= '0' && last <= '2' ? last - '0' : 2;
}

SQLRETURN gc_txn_guard_arm(gc_stmt *s, bool was_in_block, bool can_pipeline,
                           gc_txn_guard_mode *mode)
{
    gc_conn *c = s->conn;
    *mode = GC_GUARD_NONE;
    c->txn_guard.stmt = NULL;
    int level = gc_txn_rollback_level(c);
    PGTransactionStatusType ts = gc_session_idle_txn_status(&c->session_owner, c->session);
    if (level == 0 || ts != PQTRANS_INTRANS)
        return SQL_SUCCESS;             /* no transaction, or one already failed */
    c->txn_guard.stmt = s;
    c->txn_guard.mode = GC_GUARD_NONE;
    bool ends_savepoints = s->txn.ends_savepoints;
    if (level < 2 || !was_in_block || (s->txn.kind == GC_SQL_TXN_CONTROL && !ends_savepoints))
        return SQL_SUCCESS;             /* undone, if need be, by rolling back */
    if (can_pipeline && !ends_savepoints && !s->txn.several && !s->txn.copy &&
        !s->simple_query) {
        *mode = GC_GUARD_PIPELINED;
    } else {
        gc_error err;
        gc_error_clear(&err);
        PGresult *r = gc_session_exec(c->session, GC_TXN_SAVEPOINT_SQL, &err);
        if (r == NULL) {
            c->txn_guard.stmt = NULL;
            gc_diag_add_error(&s->h.diag, &err);
            return SQL_ERROR;
        }
        PQclear(r);
        *mode = ends_savepoints ? GC_GUARD_SET_ENDED : GC_GUARD_SET;
    }
    c->txn_guard.mode = (int)*mode;
    return SQL_SUCCESS;
}

void gc_txn_guard_arm_begun(gc_stmt *s)
{
    gc_conn *c = s->conn;
    c->txn_guard.stmt = gc_txn_rollback_level(c) > 0 ? s : NULL;
    c->txn_guard.mode = GC_GUARD_NONE;
}

/* Runs one internal command of the guard; its failure goes to s's
 * diagnostics. */
static bool run(gc_stmt *s, gc_session *m, const char *sql)
{
    gc_error err;
    gc_error_clear(&err);
    PGresult *r = gc_session_exec(m, sql, &err);
    if (r == NULL) {
        gc_diag_add_error(&s->h.diag, &err);
        return false;
    }
    PQclear(r);
    return true;
}

void gc_txn_guard_settle(gc_stmt *s)
{
    gc_conn *c = s->conn;
    if (c->txn_guard.stmt != s)
        return;
    gc_txn_guard_mode mode = (gc_txn_guard_mode)c->txn_guard.mode;
    c->txn_guard.stmt = NULL;
    gc_session *m = c->session;
    if (m == NULL || !gc_session_is_open(m))
        return;
    PGTransactionStatusType ts = gc_session_txn_status(m);
    if (ts == PQTRANS_INTRANS && mode == GC_GUARD_SET) {
        run(s, m, GC_TXN_RELEASE_SQL);
        return;
    }
    if (ts != PQTRANS_INERROR)
        return;
    if (mode != GC_GUARD_NONE &&
        run(s, m, "ROLLBACK TO SAVEPOINT gc_statement; " GC_TXN_RELEASE_SQL)) {
        gc_trace_write(c->trace, GC_TRACE_INFO,
                       "statement failed in a transaction: rolled back to its savepoint");
        return;
    }
    gc_trace_write(c->trace, GC_TRACE_INFO,
                   "statement failed in a transaction: transaction rolled back");
    if (c->kind->rolled_back_everywhere(c, m))
        return;
    c->ddl_epoch++;   /* DDL the transaction ran is undone: ask the catalog again */
    if (run(s, m, "ROLLBACK"))
        c->kind->rolled_back_on(c, m);
}

bool gc_txn_guard_prepare_begin(gc_stmt *s, gc_session *m)
{
    if (gc_txn_rollback_level(s->conn) == 0 ||
        gc_session_idle_txn_status(&s->conn->session_owner, m) != PQTRANS_INTRANS)
        return false;
    gc_error err;
    gc_error_clear(&err);
    PGresult *r = gc_session_exec(m, GC_TXN_SAVEPOINT_SQL, &err);
    PQclear(r);
    return r != NULL;
}

void gc_txn_guard_prepare_end(gc_stmt *s, gc_session *m, bool prepared, bool failed)
{
    if (!gc_session_is_open(m))
        return;
    if (prepared) {
        run(s, m, GC_TXN_RELEASE_SQL);
        return;
    }
    if (failed && gc_txn_rollback_level(s->conn) == 1) {
        /* Level 1: the failed statement takes its transaction with it. */
        s->conn->txn_guard.stmt = s;
        s->conn->txn_guard.mode = GC_GUARD_NONE;
        gc_txn_guard_settle(s);
        return;
    }
    if (run(s, m, "ROLLBACK TO SAVEPOINT gc_statement; " GC_TXN_RELEASE_SQL))
        gc_trace_write(s->conn->trace, GC_TRACE_INFO,
                       "statement refused by the server's PREPARE in a transaction: "
                       "rolled back to its savepoint");
}

void gc_txn_guard_disarm(gc_stmt *s)
{
    if (s->conn->txn_guard.stmt == s)
        s->conn->txn_guard.stmt = NULL;
}
