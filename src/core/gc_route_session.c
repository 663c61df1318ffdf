/*
 * gc_route_session: SET / RESET and SQL-level BEGIN on a global connection,
 * handled before routing (gc_route_session.h).
 */
#include "core/gc_route_session.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "global/gc_global.h"
#include "global/gc_global_settings.h"

/* Whether the connection has a transaction open from the application's
 * view: a pinned member whose session says so, or a BEGIN held back. */
static bool transaction_open(gc_conn *c)
{
    if (gc_global_prelude_pending(c->global))
        return true;
    int p = gc_global_pinned_member(c->global);
    if (p < 0)
        return false;
    PGTransactionStatusType ts = gc_session_txn_status(gc_global_member(c->global, p));
    return ts == PQTRANS_INTRANS || ts == PQTRANS_INERROR || ts == PQTRANS_ACTIVE;
}

/* The n-th word (0-based) of sql, lower-cased into buf; "" when none. Only
 * leading words of SET statements are read, which the analyzer has already
 * recognised, so plain whitespace separation is enough. */
static const char *word_at(const char *sql, int n, char *buf, size_t size)
{
    const char *p = sql;
    for (int w = 0;; w++) {
        while (*p != '\0' && isspace((unsigned char)*p))
            p++;
        size_t len = 0;
        while (p[len] != '\0' && (isalnum((unsigned char)p[len]) || p[len] == '_'))
            len++;
        if (w == n || len == 0) {
            size_t k = 0;
            for (; k < len && k + 1 < size; k++)
                buf[k] = (char)tolower((unsigned char)p[k]);
            buf[k] = '\0';
            return buf;
        }
        p += len;
    }
}

/* SET TRANSACTION and SET CONSTRAINTS act on the open transaction only,
 * like SET LOCAL: they run where the transaction runs. */
static bool transaction_scoped(const gc_stmt *s)
{
    if (s->analysis->is_local)
        return true;
    char w0[16], w1[16];
    word_at(s->sql, 0, w0, sizeof w0);
    word_at(s->sql, 1, w1, sizeof w1);
    return strcmp(w0, "set") == 0 &&
           (strcmp(w1, "transaction") == 0 || strcmp(w1, "constraints") == 0);
}

/* A session-level SET / RESET between transactions: every member session,
 * or none. */
static SQLRETURN set_everywhere(gc_stmt *s)
{
    gc_error err;
    gc_error_clear(&err);
    if (!gc_global_set_everywhere(s->conn->global, s->sql, &err)) {
        gc_diag_add_error(&s->h.diag, &err);
        return SQL_ERROR;
    }
    return gc_stmt_set_empty_result(s);
}

/* Holds sql back as part of a transaction's prelude. */
static SQLRETURN hold_back(gc_stmt *s)
{
    if (!gc_global_prelude_add(s->conn->global, s->sql)) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    return gc_stmt_set_empty_result(s);
}

bool gc_route_session_sets_in_transaction(const gc_stmt *s)
{
    return s->analysis != NULL && s->analysis->kind == GC_SQL_SET && !transaction_scoped(s) &&
           transaction_open(s->conn);
}

/* A session-level SET / RESET in a transaction whose BEGIN is held back:
 * it goes with the BEGIN, and belongs to the transaction
 * (gc_global_txn_setting_add). */
static SQLRETURN hold_back_setting(gc_stmt *s)
{
    SQLRETURN rc = hold_back(s);
    gc_error err;
    gc_error_clear(&err);
    if (rc != SQL_ERROR && !gc_global_txn_setting_add(s->conn->global, s->sql, &err)) {
        gc_diag_add_error(&s->h.diag, &err);
        return SQL_ERROR;
    }
    return rc;
}

/* A COMMIT or ROLLBACK of a transaction whose BEGIN was held back and that
 * ran nothing: its settings are applied, or dropped. */
static SQLRETURN end_unsent(gc_stmt *s, bool committed)
{
    gc_global *g = s->conn->global;
    gc_global_prelude_drop(g);
    gc_trace_write(s->conn->trace, GC_TRACE_INFO,
                   "transaction begun in SQL ended before any statement: nothing sent");
    gc_error info;
    gc_error_clear(&info);
    gc_global_txn_settings_ended(g, gc_global_txn_serial(g), committed, &info);
    SQLRETURN rc = gc_stmt_set_empty_result(s);
    if (info.sqlstate[0] != '\0') {
        gc_diag_add_error(&s->h.diag, &info);
        rc = SQL_SUCCESS_WITH_INFO;
    }
    return rc;
}

bool gc_route_session_control(gc_stmt *s, SQLRETURN *rc)
{
    gc_conn *c = s->conn;
    if (s->analysis == NULL)
        return false;
    gc_sql_kind kind = s->analysis->kind;
    bool pending = gc_global_prelude_pending(c->global);
    if (kind == GC_SQL_SET && !transaction_scoped(s)) {
        /* Inside a transaction that holds a member it runs there as any
         * statement (gc_route_done keeps it for the others); so it does as
         * the first statement with autocommit off, which opens the
         * transaction (a ROLLBACK undoes it, as on one server). */
        if (pending)
            *rc = hold_back_setting(s);
        else if (!transaction_open(c) && c->autocommit)
            *rc = set_everywhere(s);
        else
            return false;
        return true;
    }
    if (pending) {
        /* Statements that need no member yet join the held-back BEGIN; a
         * COMMIT or ROLLBACK of a transaction that ran nothing ends it here. */
        if (kind == GC_SQL_SET || kind == GC_SQL_SAVEPOINT || kind == GC_SQL_BEGIN) {
            *rc = hold_back(s);
            return true;
        }
        if (kind == GC_SQL_COMMIT || kind == GC_SQL_ROLLBACK) {
            *rc = end_unsent(s, kind == GC_SQL_COMMIT);
            return true;
        }
        return false;
    }
    if (kind == GC_SQL_BEGIN && c->autocommit && !transaction_open(c)) {
        gc_trace_write(c->trace, GC_TRACE_INFO,
                       "BEGIN held back: the next statement chooses the member");
        *rc = hold_back(s);
        return true;
    }
    return false;
}
