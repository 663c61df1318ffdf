/*
 * gc_route: where a statement of a global connection runs. The statement's
 * text is analyzed once (SQLPrepare / SQLExecDirect); each execution hands
 * the converted parameter values to the global connection's router
 * (gc_global_route) and makes the chosen member the connection's session.
 * A statement's server-side prepared statement is made lazily on each
 * member session the first time it runs there, tracked per member and
 * session generation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gc_conn_global.h"
#include "core/gc_desc.h"
#include "core/gc_remote_refusal.h"
#include "core/gc_route.h"
#include "core/gc_route_session.h"
#include "core/gc_stmt.h"
#include "global/gc_global.h"
#include "global/gc_global_settings.h"
#include "global/gc_outcome.h"
#include "global/gc_session_pool.h"
#include "global/gc_temp_tables.h"
#include "sql/gc_analyzer.h"
#include "sql/gc_session_sql.h"

void gc_route_analyze(gc_stmt *s)
{
    if (s->sql == NULL)
        return;
    if (s->analysis != NULL) {
        gc_analysis_free(s->analysis);
        free(s->analysis);
        s->analysis = NULL;
    }
    s->temp_effects = 0;
    gc_analysis *a = calloc(1, sizeof *a);
    gc_error err;
    gc_error_clear(&err);
    if (a != NULL && !gc_analyze(s->sql, strlen(s->sql), a, &err)) {
        gc_trace_write(s->conn->trace, GC_TRACE_INFO, "not analyzed (%s): routed by policy",
                       err.message);
        free(a);
        a = NULL;
    }
    s->analysis = a;   /* NULL: routes by policy */
    /* A read-only statement (a SELECT without INTO...) creates and drops
     * nothing: most statements are not read a second time. */
    if (a == NULL || !a->read_only)
        s->temp_effects = gc_temp_sql_effects(s->sql, strlen(s->sql));
}

/* Whether the statement runs in a transaction: autocommit off, or a BEGIN
 * held back in SQL makes it the transaction's first statement. */
static bool in_transaction(const gc_conn *c)
{
    return !c->autocommit || gc_global_prelude_pending(c->global);
}

SQLRETURN gc_route_draw_keys(gc_stmt *s)
{
    gc_conn *c = s->conn;
    gc_error err;
    char *text = gc_global_with_drawn_keys(c->global, s->sql, s->analysis, in_transaction(c),
                                           &err);
    if (text == NULL) {
        if (err.sqlstate[0] == '\0')
            return SQL_SUCCESS;
        gc_diag_add_error(&s->h.diag, &err);
        return SQL_ERROR;
    }
    gc_analysis *a = calloc(1, sizeof *a);
    if (a == NULL || !gc_analyze(text, strlen(text), a, &err)) {
        if (a == NULL)
            gc_error_set(&err, "HY001", 0, "out of memory");
        gc_diag_add_error(&s->h.diag, &err);
        free(a);
        free(text);
        return SQL_ERROR;
    }
    gc_trace_write(c->trace, GC_TRACE_DEBUG, "sent with the keys drawn: %s", text);
    s->key_swap.active = true;
    s->key_swap.sql = s->sql;
    s->key_swap.analysis = s->analysis;
    s->key_swap.prepared = s->prepared;
    s->sql = text;
    s->analysis = a;
    s->prepared = false;    /* the server statement holds the text without them */
    return SQL_SUCCESS;
}

void gc_route_keys_done(gc_stmt *s)
{
    if (!s->key_swap.active)
        return;
    gc_analysis_free(s->analysis);
    free(s->analysis);
    free(s->sql);
    s->sql = s->key_swap.sql;
    s->analysis = s->key_swap.analysis;
    s->prepared = s->key_swap.prepared;
    s->key_swap.active = false;
}

bool gc_route_session_sql_allowed(gc_stmt *s)
{
    gc_conn *c = s->conn;
    if (s->sql == NULL)
        return true;
    const gc_topology *t = gc_global_topology(c->global);
    int n = t->n_members + t->n_groups;
    const char *names[n > 0 ? n : 1];
    for (int i = 0; i < t->n_members; i++)
        names[i] = t->members[i].name;
    for (int i = 0; i < t->n_groups; i++)
        names[t->n_members + i] = t->groups[i].name;
    gc_error err;
    gc_error_clear(&err);
    if (gc_session_sql_check_names(s->sql, strlen(s->sql), names, (size_t)n, &err))
        return true;
    gc_diag_add_error(&s->h.diag, &err);
    return false;
}

bool gc_route_global_session_allows(gc_stmt *s)
{
    gc_conn *c = s->conn;
    if (!gc_global_shares_sessions(c->global) || s->sql == NULL)
        return true;
    bool is_ddl = s->analysis != NULL && s->analysis->kind == GC_SQL_DDL;
    gc_error err;
    gc_error_clear(&err);
    if (!gc_session_pool_refuses(is_ddl, (s->temp_effects & GC_TEMP_SQL_CREATES) != 0, &err)) {
        gc_global_note_query_settings(c->global, s->sql);
        return true;
    }
    gc_diag_add_error(&s->h.diag, &err);
    return false;
}

void gc_route_free(gc_stmt *s)
{
    free(s->target_leaf);
    s->target_leaf = NULL;
    if (s->analysis != NULL) {
        gc_analysis_free(s->analysis);
        free(s->analysis);
        s->analysis = NULL;
    }
}

/* The text of a binary parameter as the server would print it: bytea's
 * hex form (the only type the driver sends in binary). Caller frees. */
static char *hex_text(const gc_param_value *v)
{
    size_t n = v->length > 0 ? (size_t)v->length : 0;
    char *t = malloc(2 * n + 3);
    if (t == NULL)
        return NULL;
    static const char digits[] = "0123456789abcdef";
    t[0] = '\\';
    t[1] = 'x';
    for (size_t i = 0; i < n; i++) {
        unsigned char b = (unsigned char)v->data[i];
        t[2 + 2 * i] = digits[b >> 4];
        t[3 + 2 * i] = digits[b & 15];
    }
    t[2 + 2 * n] = '\0';
    return t;
}

/* Whether opening a member failed because no shared session came free in
 * time (GlobalSessionMax, HYT00), not because the member is unreachable. */
static bool waited_in_vain(const gc_error *err)
{
    return strcmp(err->sqlstate, "HYT00") == 0;
}

/* Opens the chosen member when it is closed (LocalityOnDemand, or a
 * shared session borrowed) with the connection's session characteristics. */
static bool open_chosen(gc_conn *c, int member, gc_error *err)
{
    gc_session *m = gc_global_member(c->global, member);
    if (gc_session_is_open(m))
        return true;
    char buf[128];
    return gc_global_open_member(c->global, member,
                                 gc_conn_characteristics_sql(c, buf, sizeof buf), err);
}

/* Gets member i's session ready for the routed statement: the session
 * settings it has not had yet (opened on demand, or reconnected), then a
 * BEGIN held back in SQL with what followed it. */
static SQLRETURN prepare_session(gc_stmt *s, int i)
{
    gc_global *g = s->conn->global;
    gc_error err;
    gc_error_clear(&err);
    if (!gc_global_settings_replay(g, i, &err)) {
        gc_diag_add(&s->h.diag, err.sqlstate[0] != '\0' ? err.sqlstate : "HY000", err.native,
                    "the session settings could not be replayed on member %s: %s",
                    gc_session_name(gc_global_member(g, i)), err.message);
        return SQL_ERROR;
    }
    if (!gc_global_prelude_send(g, i, &err)) {
        gc_diag_add_error(&s->h.diag, &err);
        return SQL_ERROR;
    }
    return SQL_SUCCESS;
}

/* The cheap check before sending (no round trip): a session the server
 * has closed or reset is found now, while nothing was sent, so routing
 * again is always safe. True (and the member marked down, see
 * gc_global_member_failed) when member i is dead. */
static bool chosen_is_dead(gc_conn *c, int i, gc_error *err)
{
    gc_session *m = gc_global_member(c->global, i);
    unsigned long generation = gc_session_generation(m);
    if (gc_session_check_alive(m, err))
        return false;
    gc_global_member_failed(c->global, i, generation, err);
    return true;
}

/* The open transaction joins member i, of another group, for a write
 * there (gc_global.h, "transactions across groups"): opened when closed,
 * its session settings replayed, then BEGIN. A member that cannot join
 * fails this statement only; the transaction goes on where it was. */
static SQLRETURN join_chosen(gc_stmt *s, int i)
{
    gc_conn *c = s->conn;
    gc_error err;
    gc_error_clear(&err);
    if (!open_chosen(c, i, &err) && waited_in_vain(&err)) {
        gc_diag_add_error(&s->h.diag, &err);
        return SQL_ERROR;
    }
    if (!gc_session_is_open(gc_global_member(c->global, i)) || chosen_is_dead(c, i, &err)) {
        gc_diag_add(&s->h.diag, "08S01", 0, "communication link failure: the transaction "
                    "must join member %s for this write, which does not answer: %s",
                    gc_session_name(gc_global_member(c->global, i)), err.message);
        return SQL_ERROR;
    }
    gc_conn_use_member(c, i);
    SQLRETURN rc = prepare_session(s, i);
    if (rc != SQL_SUCCESS)
        return rc;
    char begin[96];
    gc_conn_begin_sql(c, begin, sizeof begin);
    if (!gc_global_join(c->global, i, begin, &err)) {
        gc_diag_add_error(&s->h.diag, &err);
        return SQL_ERROR;
    }
    return SQL_SUCCESS;
}

SQLRETURN gc_route_statement(gc_stmt *s, const gc_param_value *pv)
{
    gc_conn *c = s->conn;
    /* Between transactions: follow a new catalog version first, so this
     * statement already routes by the new topology and shard map. */
    gc_global_check_unknown_write(c->global, s->analysis);
    gc_conn_global_between_transactions(c);
    gc_global_statement_starts(c->global);
    s->spans_groups = false;
    s->split_read = false;
    s->routed_by_key = false;
    free(s->target_leaf);
    s->target_leaf = NULL;
    /* The transaction's first statement chooses, and pins, the member. */
    bool transaction = in_transaction(c);
    /* Savepoints belong to a transaction; a text of several statements may
     * hold savepoint statements anywhere. */
    if (s->analysis != NULL &&
        (s->analysis->kind == GC_SQL_SAVEPOINT || s->analysis->several) &&
        (transaction || gc_global_pinned_member(c->global) >= 0)) {
        gc_error err;
        gc_error_clear(&err);
        if (!gc_global_savepoint_before(c->global, s->sql, s->analysis->several, &err)) {
            gc_diag_add_error(&s->h.diag, &err);
            return SQL_ERROR;
        }
    }
    int n = pv != NULL ? s->nparams : 0;
    /* In a transaction a write's keys decide where it may run atomically,
     * however it was sent; so do a parameter array's, whose batches are
     * each one transaction only on the rows' owners (a row the policy
     * placed would write through postgres_fdw, a transaction of its own).
     * An INSERT ... ON CONFLICT (...) runs only on its rows' owner, into
     * their leaf partition (the parent has no unique index to infer). */
    bool array = pv != NULL && s->apd->array_size > 1;
    bool use_keys = s->prepared || c->settings.direct_execute_routing || s->key_swap.active ||
                    ((transaction || array) && s->analysis != NULL && !s->analysis->read_only) ||
                    (s->analysis != NULL && s->analysis->conflict_target);
    /* On the heap beyond a few: at 65,535 parameters they make 1 MB, more
     * than the stack of an application thread may hold; a few, the common
     * case, cost no allocation per statement. */
    enum { FEW = 16 };
    const char *few_texts[FEW];
    char *few_owned[FEW] = { NULL };
    size_t slots = n > 0 ? (size_t)n : 1;
    const char **texts = slots <= FEW ? few_texts : malloc(slots * sizeof *texts);
    char **owned = slots <= FEW ? few_owned : calloc(slots, sizeof *owned);
    if (texts == NULL || owned == NULL) {
        if (texts != few_texts)
            free(texts);
        if (owned != few_owned)
            free(owned);
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    for (int i = 0; i < n; i++)
        texts[i] = pv[i].data;
    /* Binary (bytea) values are spelled out in hex only when routing may
     * read them as a key: a large value bound for another column costs
     * nothing here. */
    if (use_keys && s->analysis != NULL) {
        for (int c_i = 0; c_i < s->analysis->n_columns; c_i++) {
            const gc_pinned_column *col = &s->analysis->columns[c_i];
            for (int v = 0; v < col->n_values; v++) {
                int i = col->values[v].param;
                if (i >= 0 && i < n && owned[i] == NULL && pv[i].format == 1 &&
                    pv[i].data != NULL)
                    texts[i] = owned[i] = hex_text(&pv[i]);
            }
        }
    }
    char setup_buf[128];
    gc_route_request req = {
        .analysis = s->analysis,
        .use_keys = use_keys,
        .transaction = transaction,
        .read_only_mode = c->access_mode == SQL_MODE_READ_ONLY,
        .serializable = c->txn_isolation == SQL_TXN_SERIALIZABLE,
        .nparams = n,
        .params = n > 0 ? texts : NULL,
        .setup_sql = gc_conn_characteristics_sql(c, setup_buf, sizeof setup_buf),
        .sql = s->sql,
        .creates_temp = (s->temp_effects & GC_TEMP_SQL_CREATES) != 0,
    };
    SQLRETURN rc = SQL_ERROR;
    /* A member that does not answer when opened is dropped by the router;
     * the next choice goes elsewhere. At most one try per member. */
    for (int tries = 0; tries <= gc_global_member_count(c->global); tries++) {
        gc_route_decision d;
        gc_error err;
        gc_error_clear(&err);
        if (!gc_global_begin_statement(c->global, &req, &d, c->autocommit, &err)) {
            gc_diag_add_error(&s->h.diag, &err);
            break;
        }
        s->routed_by_key = d.by_key;
        s->split_read = d.split_read;
        free(s->target_leaf);    /* a try before chose another member */
        s->target_leaf = NULL;
        if (d.leaf != NULL && (s->target_leaf = strdup(d.leaf)) == NULL) {
            gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
            break;
        }
        if (d.spans) {
            s->spans_groups = true;    /* no member: gc_span_exec runs it */
            rc = SQL_SUCCESS;
            break;
        }
        if (d.join) {
            rc = join_chosen(s, d.member);
            break;
        }
        bool read_only = s->analysis != NULL && s->analysis->read_only;
        if (open_chosen(c, d.member, &err) &&
            (gc_outcome_skips_alive_check(transaction, c->autocommit, read_only) ||
             !chosen_is_dead(c, d.member, &err))) {
            gc_conn_use_member(c, d.member);
            rc = prepare_session(s, d.member);
            break;
        }
        gc_error report;
        if (gc_global_chosen_unusable(c->global, d.pinned, c->autocommit, &err, &report))
            continue;   /* nothing was sent or begun there: choose again */
        gc_diag_add_error(&s->h.diag, &report);
        break;
    }
    for (int i = 0; i < n; i++)
        free(owned[i]);
    if (owned != few_owned)
        free(owned);
    if (texts != few_texts)
        free(texts);
    return rc;
}

/* The statement that just succeeded on the connection's session created or
 * dropped temporary tables: the registry hears of it. */
static void note_temp_tables(gc_stmt *s, PGTransactionStatusType ts)
{
    gc_conn *c = s->conn;
    bool in_transaction = ts == PQTRANS_INTRANS || ts == PQTRANS_INERROR;
    if (!gc_temp_tables_note(gc_global_temp_tables(c->global), s->sql, strlen(s->sql),
                             gc_session_name(c->session), gc_session_generation(c->session),
                             in_transaction))
        gc_trace_write(c->trace, GC_TRACE_ERROR,
                       "out of memory: a temporary table was not registered");
}

/* Replaces s's diagnostics with the error the outcome rules chose. */
static void report_instead(gc_stmt *s, const gc_error *err)
{
    gc_diag_clear(&s->h.diag);
    gc_diag_add_error(&s->h.diag, err);
}

void gc_route_done(gc_stmt *s, SQLRETURN rc)
{
    gc_conn *c = s->conn;
    int i = gc_global_member_index(c->global, c->session);
    /* The cluster's trigger refused a write through postgres_fdw (a live
     * session's error): named before the outcome may release the pin. */
    if (rc == SQL_ERROR && i >= 0 && gc_session_get_state(c->session) != GC_MEMBER_DOWN)
        gc_remote_refusal_after_failure(s, i);
    /* Before the pin may end: the ON COMMIT DROP tables of its session
     * leave the registry with it. */
    if (rc != SQL_ERROR && i >= 0 && s->temp_effects != 0)
        note_temp_tables(s, gc_session_txn_status(c->session));
    bool is_commit = s->analysis != NULL && s->analysis->kind == GC_SQL_COMMIT;
    gc_error report;
    gc_error_clear(&report);
    if (rc != SQL_ERROR && gc_route_session_sets_in_transaction(s) &&
        !gc_global_txn_setting_add(c->global, s->sql, &report))
        rc = SQL_ERROR;   /* the transaction was rolled back on every group */
    gc_global_end_statement(c->global, i, rc == SQL_ERROR, is_commit, c->autocommit, &report);
    if (report.sqlstate[0] != '\0')
        report_instead(s, &report);
}

/* Whether session generation g holds server statement st. */
static bool holds_statement(const gc_server_stmt *st, unsigned long g)
{
    for (int i = 0; i < st->prepared_on_n; i++)
        if (st->prepared_on[i] == g)
            return true;
    return false;
}

bool gc_route_holds(const gc_conn *c, const gc_server_stmt *st, const gc_session *m)
{
    (void)c;
    return st->name[0] != '\0' && holds_statement(st, gc_session_generation(m));
}

/* Drops the generations of sessions that are gone (reconnected members,
 * members the topology no longer has). */
static void forget_gone_sessions(gc_stmt *s)
{
    const gc_global *g = s->conn->global;
    /* A shared session (GlobalSession=Yes) not held now is in the pool,
     * its statements with it: forgetting one would prepare its name again
     * there (42P05). The list grows with the sessions the statement ran
     * on, which the pool bounds. */
    if (gc_global_shares_sessions(g))
        return;
    int kept = 0;
    for (int i = 0; i < s->server.prepared_on_n; i++) {
        for (int j = 0; j < gc_global_member_count(g); j++) {
            if (gc_session_generation(gc_global_member(g, j)) == s->server.prepared_on[i]) {
                s->server.prepared_on[kept++] = s->server.prepared_on[i];
                break;
            }
        }
    }
    s->server.prepared_on_n = kept;
}

void gc_route_mark_prepared(gc_stmt *s, const gc_session *m)
{
    unsigned long generation = gc_session_generation(m);
    s->server.generation = generation;
    if (holds_statement(&s->server, generation))
        return;
    if (s->server.prepared_on_n == s->server.prepared_on_cap)
        forget_gone_sessions(s);
    if (s->server.prepared_on_n == s->server.prepared_on_cap) {
        int cap = s->server.prepared_on_cap ? 2 * s->server.prepared_on_cap : 4;
        unsigned long *grown = realloc(s->server.prepared_on, (size_t)cap * sizeof *grown);
        if (grown == NULL)
            return;   /* prepared again next time: slower, still right */
        s->server.prepared_on = grown;
        s->server.prepared_on_cap = cap;
    }
    s->server.prepared_on[s->server.prepared_on_n++] = generation;
}

bool gc_route_may_rerun(const gc_stmt *s)
{
    const gc_conn *c = s->conn;
    /* Read-only, or a write whose transaction is known not to have
     * committed (gc_commit_run_write). */
    gc_rerun_facts f = {
        .autocommit = c->autocommit,
        .in_transaction = gc_global_prelude_pending(c->global) ||
                          gc_global_pinned_member(c->global) >= 0,
        .read_only = s->analysis != NULL && s->analysis->read_only,
        .known_not_applied = s->analysis != NULL && gc_global_rerun_safe(c->global),
        .member_broke = c->session != NULL && gc_session_get_state(c->session) == GC_MEMBER_DOWN,
    };
    return gc_outcome_may_rerun(&f);
}

bool gc_route_group_not_writable(const gc_stmt *s)
{
    const gc_conn *c = s->conn;
    if (!c->autocommit || c->access_mode == SQL_MODE_READ_ONLY ||
        gc_global_prelude_pending(c->global) || gc_global_pinned_member(c->global) >= 0 ||
        s->analysis == NULL || s->spans_groups)
        return false;
    /* Row writes only: a SELECT calling an unknown function goes where reads
     * go, so a standby would refuse it again. */
    gc_sql_kind kind = s->analysis->kind;
    if (kind != GC_SQL_INSERT && kind != GC_SQL_UPDATE && kind != GC_SQL_DELETE &&
        kind != GC_SQL_MERGE)
        return false;
    const gc_diag *d = &s->h.diag;
    for (int i = 0; i < d->count; i++)
        if (strcmp(d->records[i].sqlstate, "25006") == 0 ||
            strcmp(d->records[i].sqlstate, "08001") == 0)
            return true;
    return false;
}

void gc_route_fetch_failed(gc_stmt *s)
{
    gc_conn *c = s->conn;
    gc_remote_refusal_name(&s->h.diag);
    if (c->session == NULL ||
        gc_session_get_state(c->session) != GC_MEMBER_DOWN)
        return;   /* the statement's own error */
    int i = gc_global_member_index(c->global, c->session);
    bool pinned = i >= 0 && gc_global_holds_transaction(c->global, i);
    const char *name = gc_session_name(c->session);
    gc_fetch_verdict v =
        gc_outcome_fetch_failed(pinned, s->analysis != NULL && s->analysis->read_only);
    /* Marks the member down; a pinned transaction is lost (40001 / 19068). */
    gc_route_done(s, SQL_ERROR);
    if (v.action == GC_FETCH_TXN_LOST)
        return;
    gc_error err;
    if (v.report.native == GC_NATIVE_TXN_LOST)
        gc_error_set(&err, v.report.sqlstate, v.report.native,
                     "member %s failed while rows were fetched: the result is incomplete; "
                     "the statement may be run again (nothing of it was applied)", name);
    else
        gc_error_set(&err, v.report.sqlstate, v.report.native,
                     "member %s failed while rows were fetched: whether the statement "
                     "completed is unknown", name);
    report_instead(s, &err);
}
