/*
 * gc_commit: see gc_commit.h.
 */
#include "core/gc_commit.h"

#include <stdlib.h>
#include <string.h>

#include "core/gc_exec_timer.h"
#include "global/gc_global.h"
#include "global/gc_global_commit.h"
#include "global/gc_global_settings.h"
#include "global/gc_remote_write.h"

bool gc_commit_write_applies(const gc_stmt *s)
{
    const gc_conn *c = s->conn;
    /* A text of several statements (simple_query, or seen several by the
     * analysis before any server refused to prepare it) keeps its own path:
     * the id's pipeline is the extended protocol, which carries one
     * statement per query; such a text carries its mark at its head
     * (gc_exec.c). A marked single statement comes here: its mark goes
     * first in the id's pipeline (marked_before). */
    if (!c->settings.resolve_lost_writes || !c->autocommit ||
        s->analysis == NULL || s->simple_query || s->analysis->several ||
        gc_global_prelude_pending(c->global) || gc_global_pinned_member(c->global) >= 0)
        return false;
    gc_sql_kind k = s->analysis->kind;
    if (k != GC_SQL_INSERT && k != GC_SQL_UPDATE && k != GC_SQL_DELETE && k != GC_SQL_MERGE)
        return false;
    return !s->analysis->read_only;
}

bool gc_commit_sql_applies(const gc_stmt *s)
{
    const gc_conn *c = s->conn;
    if (s->analysis == NULL || s->analysis->kind != GC_SQL_COMMIT ||
        s->simple_query || c->session == NULL)
        return false;
    return gc_global_sql_commit_applies(c->global, gc_global_member_index(c->global, c->session),
                                        s->analysis->and_chain);
}

/* The server's error with its DETAIL and HINT when there is one. */
static void add_error(gc_diag *diag, const gc_member_xid_run *run, const gc_error *err)
{
    if (run->error != NULL)
        gc_diag_add_result(diag, run->error);
    else
        gc_diag_add_error(diag, err);
}

/* Puts report on diag, in its order. */
static void put_report(gc_diag *diag, const gc_commit_report *report)
{
    if (report->drop_earlier)
        gc_diag_clear(diag);
    if (report->before.sqlstate[0] != '\0')
        gc_diag_add_error(diag, &report->before);
    if (report->server_error && report->server_result != NULL)
        gc_diag_add_result(diag, report->server_result);
    else if (report->server_error)
        gc_diag_add_error(diag, &report->server);
    if (report->after.sqlstate[0] != '\0')
        gc_diag_add_error(diag, &report->after);
}

/* The ODBC return code of end, its report put on diag and cleared. */
static SQLRETURN reported(gc_commit_end end, gc_commit_report *report, gc_diag *diag)
{
    put_report(diag, report);
    gc_commit_report_clear(report);
    if (end == GC_COMMIT_END_FAILED)
        return SQL_ERROR;
    return end == GC_COMMIT_END_OK_WITH_INFO ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS;
}

SQLRETURN gc_commit_spread(gc_conn *c, gc_diag *diag)
{
    char buf[128];
    const char *setup = gc_conn_characteristics_sql(c, buf, sizeof buf);
    gc_commit_report report;
    gc_commit_report_init(&report);
    return reported(gc_global_commit_across_groups(c->global, setup, &report), &report, diag);
}

SQLRETURN gc_commit_settings_ended(gc_conn *c, unsigned long serial, bool committed,
                                   gc_diag *diag, SQLRETURN rc)
{
    gc_error info;
    gc_error_clear(&info);
    gc_global_txn_settings_ended(c->global, serial, committed, &info);
    if (info.sqlstate[0] == '\0')
        return rc;
    gc_diag_add_error(diag, &info);
    return rc == SQL_SUCCESS ? SQL_SUCCESS_WITH_INFO : rc;
}

SQLRETURN gc_commit_run_sql(gc_stmt *s)
{
    gc_conn *c = s->conn;
    unsigned long serial = gc_global_txn_serial(c->global);
    char buf[128];
    const char *setup = gc_conn_characteristics_sql(c, buf, sizeof buf);
    gc_commit_report report;
    gc_commit_report_init(&report);
    gc_commit_end end = gc_global_commit_sql(c->global,
                                             gc_global_member_index(c->global, c->session),
                                             s->analysis->and_chain, setup, &s->in_server_call,
                                             &report);
    SQLRETURN rc = gc_commit_settings_ended(c, serial, end != GC_COMMIT_END_FAILED, &s->h.diag,
                                            reported(end, &report, &s->h.diag));
    if (rc == SQL_ERROR)
        return rc;
    SQLRETURN set = gc_stmt_set_empty_result(s);
    return set == SQL_SUCCESS ? rc : set;
}

SQLRETURN gc_commit_end_tran(gc_conn *c, int i)
{
    gc_trace_write(c->trace, GC_TRACE_DEBUG, "COMMIT on %s, with its transaction id",
                   gc_session_name(gc_global_member(c->global, i)));
    gc_commit_report report;
    gc_commit_report_init(&report);
    return reported(gc_global_commit_with_id(c->global, i, NULL, &report), &report,
                    &c->h.diag);
}

/* Whether s's text may carry the RETURNING of its transaction id. */
static bool twin_wanted(const gc_stmt *s)
{
    return s->conn->settings.resolve_lost_writes &&
           s->analysis != NULL && s->analysis->returning_at > 0 && !s->simple_query;
}

/* The name of the twin of server statement st (its name and an "x") into
 * out, of sizeof st->name + 1 bytes: written directly, as it is on every
 * autocommit write (snprintf cost some 600 instructions there). */
static void twin_name(const gc_server_stmt *st, char *out)
{
    size_t len = strlen(st->name);
    memcpy(out, st->name, len);
    out[len] = 'x';
    out[len + 1] = '\0';
}

void gc_commit_prepare_twin(gc_stmt *s, gc_session *m)
{
    gc_server_stmt *st = &s->server;
    /* A refused PREPARE inside a transaction would abort it: only an idle
     * session gets the twin, and a server statement made in a transaction
     * never has one (its autocommit writes send the id query). */
    if (st->xid_twin >= 0 && (!twin_wanted(s) || gc_session_txn_status(m) != PQTRANS_IDLE))
        st->xid_twin = -1;    /* never again: it must be beside it everywhere */
    if (st->xid_twin < 0)
        return;
    size_t at = s->analysis->returning_at;
    size_t len = at + sizeof GC_XID_RETURNING;
    char *sql = malloc(len);
    char name[sizeof st->name + 1];
    gc_error err;
    gc_error_set(&err, "HY001", 0, "out of memory");
    bool sent = false, ok = false;
    if (sql != NULL) {
        memcpy(sql, s->sql, at);
        memcpy(sql + at, GC_XID_RETURNING, sizeof GC_XID_RETURNING);
        twin_name(st, name);
        gc_error_clear(&err);
        sent = ok = gc_session_send_prepare(m, name, sql, st->nparams, st->param_types, &err);
        free(sql);
    }
    PGresult *r;
    while (sent && (r = gc_session_next_result(m)) != NULL) {
        if (PQresultStatus(r) != PGRES_COMMAND_OK && ok) {
            gc_session_result_error(m, r, &err);
            ok = false;
        }
        PQclear(r);
    }
    if (!ok)
        gc_trace_write(s->conn->trace, GC_TRACE_INFO, "statement %s returning its transaction "
                       "id not made on %s (%s): its writes send the id query",
                       st->name, gc_session_name(m), err.message);
    st->xid_twin = ok ? 1 : -1;
}

/* Where this run of the write s on m (through its server statement
 * stmt_name, or NULL) gets its transaction id: from its twin's RETURNING
 * when its rows stay in m's group by key (routing said so: no postgres_fdw
 * in it, so the appended function leaves the plan as it was), else from
 * the id query. */
static gc_member_xid_source xid_source(gc_stmt *s, gc_session *m, const char *stmt_name)
{
    gc_global *g = s->conn->global;
    if (stmt_name != NULL && !s->simple_query && s->server.xid_twin > 0 &&
        gc_route_holds(s->conn, &s->server, m) && !gc_global_may_write_elsewhere(g))
        return GC_XID_RETURNED;
    return gc_global_xid_statement_ready(g, gc_global_member_index(g, m)) ? GC_XID_QUERY_PREPARED
                                                                          : GC_XID_QUERY_TEXT;
}

/* Takes a write's answer as its result: with source GC_XID_RETURNED the
 * rows are the appended RETURNING's, which the application never asked
 * for, so only the command's row count remains. Takes result. */
static SQLRETURN set_write_result(gc_stmt *s, gc_member_xid_source source, PGresult *result)
{
    if (source == GC_XID_RETURNED)
        return gc_stmt_set_command_result(s, result);
    return gc_stmt_set_local_result(s, result);
}

/* The command the write goes after in its pipeline: the statement mark
 * when routing gave it one (the trigger on foreign tables then refuses
 * its writes through postgres_fdw, docs/global-connection.md), else none.
 * An INSERT, UPDATE, DELETE or MERGE is never a COPY nor refused in a
 * transaction block, the cases where gc_exec.c sends a statement unmarked. */
static const char *marked_before(const gc_stmt *s)
{
    return gc_global_statement_marked(s->conn->global) ? GC_REMOTE_WRITE_STATEMENT_MARK : NULL;
}

/* Sends the write sql, through server statement name unless NULL (after
 * its mark, if any), and collects it all, under the query timeout. */
static bool send_write(gc_stmt *s, gc_session *m, gc_member_xid_source source,
                       const char *sql, const char *name, int n, const Oid *types,
                       const char *const *values, const int *lengths, const int *formats,
                       gc_member_xid_run *run, gc_error *err)
{
    char twin[sizeof s->server.name + 1];
    if (source == GC_XID_RETURNED) {
        twin_name(&s->server, twin);
        name = twin;
    }
    gc_exec_timer timer;
    gc_exec_timer_start(&timer, s);
    atomic_store(&s->in_server_call, true);
    bool ok = gc_session_run_statement_with_xid(m, source, marked_before(s), name, sql, n,
                                                types, values, lengths, formats, run, err);
    atomic_store(&s->in_server_call, false);
    gc_exec_timer_stop(&timer);
    return ok;
}

/* An autocommit write that committed although its member failed before
 * the sync's answer. The id query is answered after the statement, so the
 * statement's own answer (its row count, and the rows of a RETURNING) had
 * arrived in full: the application gets it, with 01000 saying what
 * happened (without it, should that ever be, the row count is -1). Takes
 * run's result. */
static SQLRETURN committed_after_loss(gc_stmt *s, gc_session *m, gc_member_xid_source source,
                                      gc_member_xid_run *run)
{
    PGresult *result = run->result;
    run->result = NULL;
    gc_session_xid_run_clear(run);
    bool answered = result != NULL;
    SQLRETURN rc = answered ? set_write_result(s, source, result)
                            : gc_stmt_set_empty_result(s);   /* row count -1 */
    if (rc == SQL_ERROR)
        return SQL_ERROR;
    gc_diag_add(&s->h.diag, "01000", 0, "member %s failed after the statement committed: "
                "it took effect once; %s", gc_session_name(m),
                answered ? "its answer had arrived in full"
                         : "the number of rows it affected is unknown");
    return SQL_SUCCESS_WITH_INFO;
}

SQLRETURN gc_commit_run_write(gc_stmt *s, gc_session *m, const char *sql,
                              const char *stmt_name, int nparams, const Oid *types,
                              const char *const *values, const int *lengths,
                              const int *formats)
{
    gc_conn *c = s->conn;
    gc_global *g = c->global;
    gc_member_xid_run run;
    gc_error err;
    gc_error_clear(&err);
    gc_member_xid_source source = xid_source(s, m, stmt_name);
    if (send_write(s, m, source, sql, stmt_name, nparams, types, values, lengths, formats, &run,
                   &err)) {
        SQLRETURN rc = run.result != NULL ? set_write_result(s, source, run.result)
                                          : gc_stmt_set_empty_result(s);
        gc_route_done(s, rc);
        return rc;
    }
    int i = gc_global_member_index(g, m);
    gc_commit_report report;
    gc_commit_report_init(&report);
    if (gc_session_get_state(m) != GC_MEMBER_DOWN) {
        /* The server refused it (constraint, timeout...): the application's to handle. */
        if (gc_exec_timer_fired(s, err.sqlstate)) {
            gc_error timeout;
            gc_exec_timeout_error(&timeout, NULL);
            gc_diag_add_error(&s->h.diag, &timeout);
        } else {
            gc_global_write_refused(g, i, &run, &err, &report);
            put_report(&s->h.diag, &report);
            gc_commit_report_clear(&report);
        }
        gc_session_xid_run_clear(&run);
        gc_route_done(s, SQL_ERROR);
        return SQL_ERROR;
    }
    add_error(&s->h.diag, &run, &err);
    gc_route_done(s, SQL_ERROR);    /* marks the member down */
    gc_write_settled settled = gc_global_settle_lost_write(g, i, &run, &err, &report);
    if (settled != GC_WRITE_COMMITTED) {
        gc_session_xid_run_clear(&run);
        reported(GC_COMMIT_END_FAILED, &report, &s->h.diag);
        return SQL_ERROR;
    }
    put_report(&s->h.diag, &report);
    return committed_after_loss(s, m, source, &run);
}
