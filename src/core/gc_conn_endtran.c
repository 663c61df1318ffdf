/*
 * gc_conn_endtran: a connection's transactions: the BEGIN the driver sends,
 * and SQLEndTran on a connection and on an environment.
 *
 * The server is the only source of truth about whether a transaction is open
 * (PQtransactionStatus): the driver never keeps its own flag that could
 * disagree with it. With autocommit off, BEGIN is sent lazily before the first
 * statement, so SQLEndTran on a connection that ran nothing sends nothing.
 *
 * On a global connection the transaction lives on the one member it is
 * pinned to (gc_route.c); SQLEndTran ends it there and releases the pin. A
 * COMMIT there is sent with the transaction id, so that a lost answer is
 * resolved rather than reported as unknown (gc_commit.h).
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "core/gc_conn.h"
#include "core/gc_conn_endtran.h"
#include "core/gc_conn_kind.h"
#include "core/gc_env.h"
#include "core/gc_stmt.h"

/* The BEGIN statement that opens a transaction with the configured isolation
 * level and access mode (they also hold as session characteristics; saying
 * them again costs nothing and keeps BEGIN self-contained). On a global
 * connection the same text marks the transaction as the driver's, for the
 * cluster's trigger on foreign tables (global/gc_remote_write.h): no round
 * trip of its own. */
void gc_conn_begin_sql(const gc_conn *c, char *buf, size_t size)
{
    const char *level = gc_conn_isolation_sql(c->txn_isolation);
    int n = snprintf(buf, size, "BEGIN%s%s%s%s", level != NULL ? " ISOLATION LEVEL " : "",
                     level != NULL ? level : "",
                     c->access_mode == SQL_MODE_READ_ONLY ? " READ ONLY" : "",
                     c->kind->begin_suffix);
    assert(n > 0 && (size_t)n < size);    /* every caller's buffer holds the longest */
    (void)n;
}

bool gc_conn_begin_if_needed(gc_conn *c, gc_error *err)
{
    if (c->autocommit)
        return true;
    if (!gc_conn_is_connected(c)) {
        gc_error_set(err, "08003", 0, "connection not open");
        return false;
    }
    PGTransactionStatusType ts = gc_session_idle_txn_status(&c->session_owner, c->session);
    if (ts == PQTRANS_INTRANS || ts == PQTRANS_INERROR)
        return true;
    if (ts == PQTRANS_UNKNOWN) {
        gc_error_set(err, "08S01", 0, "communication link failure: the connection to the server was lost");
        return false;
    }
    char sql[96];
    gc_conn_begin_sql(c, sql, sizeof sql);
    PGresult *res = gc_session_exec(c->session, sql, err);
    if (res == NULL)
        return false;
    PQclear(res);
    c->kind->began_outside_routing(c);
    return true;
}

/* " on <member>" in the trace, where the connection has several sessions. */
static const char *on_word(const gc_conn *c)
{
    return c->kind->several_sessions ? " on " : "";
}

static const char *on_name(const gc_conn *c, const gc_session *m)
{
    return c->kind->several_sessions ? gc_session_name(m) : "";
}

/* A ROLLBACK that finds m's session gone as it is sent (its backend was
 * terminated while the transaction sat idle, or the link was lost): the
 * server ends the transaction of a session that ends, so the rollback is
 * done; the kind says what follows. why is the error that showed the loss. */
static SQLRETURN rollback_of_lost_session(gc_conn *c, gc_session *m, const gc_error *why)
{
    const char *reason = why->message[0] != '\0' ? why->message : "session lost";
    gc_trace_write(c->trace, GC_TRACE_INFO, "ROLLBACK%s%s: the session is gone (%s), so is "
                   "the transaction", on_word(c), on_name(c, m), reason);
    return c->kind->rolled_back_with_session(c, m, why, reason);
}

/* Commits or rolls back what the server has open.
 * COMMIT of a transaction a failed statement aborted is answered by the
 * server with ROLLBACK: that is reported as 40000, since nothing was
 * committed. */
static SQLRETURN end_on_member(gc_conn *c, gc_session *m, SQLSMALLINT completion)
{
    PGTransactionStatusType ts = gc_session_txn_status(m);
    if (ts == PQTRANS_UNKNOWN || !gc_session_is_open(m)) {
        /* Known dead before (a global connection learnt it through the
         * failover, gc_conn_end_tran). A COMMIT cannot be done: a general
         * connection reports the loss on every call. A ROLLBACK is done, the
         * server ended the transaction with the session: answered as when
         * the ROLLBACK finds the loss, as psqlODBC answers it (a program's
         * `except: rollback()` must not raise in turn). */
        gc_error lost;
        gc_error_set(&lost, "08S01", 0,
                     "communication link failure: the connection to the server was lost");
        if (completion != SQL_COMMIT) {
            const gc_error *why = gc_session_down_error(m);
            return rollback_of_lost_session(c, m,
                                            why != NULL && gc_error_is_set(why) ? why : &lost);
        }
        gc_diag_add_error(&c->h.diag, &lost);
        return SQL_ERROR;
    }
    if (ts != PQTRANS_INTRANS && ts != PQTRANS_INERROR)
        return SQL_SUCCESS;   /* nothing open: nothing to send */

    bool commit = completion == SQL_COMMIT;
    bool was_aborted = ts == PQTRANS_INERROR;
    gc_error err;
    gc_error_clear(&err);
    gc_trace_write(c->trace, GC_TRACE_DEBUG, "%s%s%s", commit ? "COMMIT" : "ROLLBACK",
                   on_word(c), on_name(c, m));
    PGresult *res = gc_session_exec(m, commit ? "COMMIT" : "ROLLBACK", &err);
    if (res == NULL && !commit && !gc_session_is_open(m))
        return rollback_of_lost_session(c, m, &err);
    if (res == NULL) {
        gc_diag_add_error(&c->h.diag, &err);
        return SQL_ERROR;
    }
    bool rolled_back = commit && strcmp(PQcmdStatus(res), "ROLLBACK") == 0;
    PQclear(res);
    if (!commit || rolled_back)
        c->ddl_epoch++;   /* DDL the transaction ran is undone: ask the catalog again */
    if (rolled_back || (commit && was_aborted)) {
        gc_diag_add(&c->h.diag, "40000", 0, GC_ROLLED_BACK_AT_COMMIT_TEXT);
        return SQL_ERROR;
    }
    return SQL_SUCCESS;
}

SQLRETURN gc_conn_with_records(const gc_conn *c, SQLRETURN rc)
{
    if (rc == SQL_ERROR)
        return rc;
    return gc_diag_has_records(&c->h.diag) ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS;
}

SQLRETURN gc_conn_end_on_session(gc_conn *c, gc_session *m, bool commit)
{
    return gc_conn_with_records(c, end_on_member(c, m, commit ? SQL_COMMIT : SQL_ROLLBACK));
}

/* Commits or rolls back what the server has open.
 * COMMIT of a transaction a failed statement aborted is answered by the
 * server with ROLLBACK: that is reported as 40000, since nothing was
 * committed. */
SQLRETURN gc_conn_end_tran(gc_conn *c, SQLSMALLINT completion)
{
    if (completion != SQL_COMMIT && completion != SQL_ROLLBACK) {
        gc_diag_add(&c->h.diag, "HY012", 0, "invalid transaction operation code %d", (int)completion);
        return SQL_ERROR;
    }
    if (!gc_conn_is_connected(c)) {
        gc_diag_add(&c->h.diag, "08003", 0, "connection not open");
        return SQL_ERROR;
    }
    /* A result still streaming is buffered first: its rows were computed
     * already and stay readable after the transaction ends (SQL_CB_PRESERVE). */
    gc_session_end_streaming(&c->session_owner);
    return c->kind->end_tran(c, completion == SQL_COMMIT);
}

/* Commits or rolls back on every connection. The environment lock is held
 * while walking the list so no connection is freed under us; each
 * connection's own lock is taken inside (lock order: env, then connection). */
SQLRETURN gc_conn_end_tran_env(gc_env *e, SQLSMALLINT completion)
{
    if (completion != SQL_COMMIT && completion != SQL_ROLLBACK) {
        gc_diag_add(&e->h.diag, "HY012", 0, "invalid transaction operation code %d", (int)completion);
        return SQL_ERROR;
    }
    SQLRETURN result = SQL_SUCCESS;
    pthread_mutex_lock(&e->lock);
    for (gc_conn *c = e->connections; c != NULL; c = c->next_in_env) {
        pthread_mutex_lock(&c->lock);
        if (gc_conn_is_connected(c)) {
            gc_diag_clear(&c->h.diag);
            SQLRETURN rc = gc_conn_end_tran(c, completion);
            if (rc == SQL_ERROR) {
                result = SQL_ERROR;
                for (int i = 0; i < c->h.diag.count; i++) {
                    const gc_diag_record *r = &c->h.diag.records[i];
                    gc_diag_add(&e->h.diag, r->sqlstate, r->native, "%s", r->message);
                }
            } else if (rc == SQL_SUCCESS_WITH_INFO && result == SQL_SUCCESS) {
                result = SQL_SUCCESS_WITH_INFO;
            }
        }
        pthread_mutex_unlock(&c->lock);
    }
    pthread_mutex_unlock(&e->lock);
    return result;
}
