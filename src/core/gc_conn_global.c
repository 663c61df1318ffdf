/*
 * gc_conn_global: the ODBC connection's side of a global connection:
 * opening it, closing it, and switching the connection's current session
 * between member sessions. Which member runs a statement is gc_route.c's.
 */
#include <stdio.h>

#include "core/gc_conn.h"
#include "core/gc_stmt.h"
#include "global/gc_global.h"

/* Server notices go to the handle whose call is running (see notice_diag). */
static void global_notice(void *ctx, const char *sqlstate, const char *message)
{
    gc_conn *c = ctx;
    if (c->notice_diag != NULL)
        gc_diag_add_notice(c->notice_diag, sqlstate, message);
}

SQLRETURN gc_conn_open_global(gc_conn *c, const gc_member_params *params)
{
    gc_global_options opt = {
        .settings = &c->settings,
        .member = *params,
        .trace = c->trace,
        .notice_fn = global_notice,
        .notice_ctx = c,
    };
    gc_error err, info;
    gc_error_clear(&err);
    gc_error_clear(&info);
    gc_global *g = gc_global_connect(&opt, &err, &info);
    if (g == NULL) {
        gc_diag_add_error(&c->h.diag, &err);
        return SQL_ERROR;
    }
    c->global = g;
    c->session = gc_global_member(g, gc_global_first_open_member(g));
    /* Attributes set before connecting take effect now, on every member. */
    if ((c->txn_isolation != 0 || c->access_mode == SQL_MODE_READ_ONLY) &&
        !gc_conn_apply_session_characteristics(c, &err)) {
        gc_diag_add_error(&c->h.diag, &err);
        gc_global_destroy(g);
        c->global = NULL;
        c->session = NULL;
        return SQL_ERROR;
    }
    if (info.sqlstate[0] != '\0')
        gc_diag_add_error(&c->h.diag, &info);
    return gc_diag_has_records(&c->h.diag) ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS;
}

bool gc_conn_close_global(gc_conn *c)
{
    gc_global *g = c->global;
    bool rolled_back = false;
    gc_stmt_free_session(c);
    for (int i = 0; i < gc_global_member_count(g); i++) {
        gc_member *m = gc_global_member(g, i);
        if (!gc_member_is_open(m))
            continue;
        gc_member_drain(m);
        PGTransactionStatusType ts = gc_member_txn_status(m);
        if (ts == PQTRANS_INTRANS || ts == PQTRANS_INERROR) {
            gc_error err;
            gc_error_clear(&err);
            PQclear(gc_member_exec(m, "ROLLBACK", &err));
            rolled_back = true;
        }
    }
    gc_trace_write(c->trace, GC_TRACE_INFO, "disconnecting the global connection");
    c->session = NULL;
    c->global = NULL;
    gc_global_destroy(g);
    return rolled_back;
}

void gc_conn_use_member(gc_conn *c, int i)
{
    gc_member *m = gc_global_member(c->global, i);
    if (m == c->session)
        return;
    /* Only one statement streams at a time, on the current session: it
     * buffers its rows before another session becomes current. */
    gc_stmt_free_session(c);
    c->session = m;
}
