/*
 * gc_global_spread: transactions that hold members of several groups (see
 * gc_global.h, "transactions across groups"). The pinned member is the
 * coordinator: it is never prepared, so it may have read through
 * postgres_fdw or used temporary tables; its COMMIT, with the decision
 * recorded inside it (gc_decision.h), decides for every joined member.
 */
#include <stdlib.h>
#include <string.h>

#include "global/gc_ddl.h"
#include "global/gc_decision.h"
#include "global/gc_global_internal.h"
#include "global/gc_global_settings.h"
#include "util/gc_strbuf.h"

int gc_global_joined_count(const gc_global *g)
{
    return g->n_joined;
}

bool gc_global_holds_transaction(const gc_global *g, int i)
{
    if (i >= 0 && i == g->pinned)
        return true;
    for (int k = 0; k < g->n_joined; k++)
        if (g->joined[k] == i)
            return true;
    return false;
}

int gc_global_transaction_member_of_group(const gc_global *g, int gi)
{
    if (g->pinned >= 0 && g->topo.members[g->pinned].group == gi)
        return g->pinned;
    for (int k = 0; k < g->n_joined; k++)
        if (g->topo.members[g->joined[k]].group == gi)
            return g->joined[k];
    return -1;
}

int gc_global_aborted_member(const gc_global *g)
{
    if (g->pinned >= 0 && gc_member_txn_status(g->members[g->pinned]) == PQTRANS_INERROR)
        return g->pinned;
    for (int k = 0; k < g->n_joined; k++)
        if (gc_member_txn_status(g->members[g->joined[k]]) == PQTRANS_INERROR)
            return g->joined[k];
    return -1;
}

/* ROLLBACK on session m when it holds a transaction; errors do not matter
 * (a session that broke has lost its transaction with it). */
static void rollback_session(gc_member *m)
{
    if (!gc_member_is_open(m) || gc_member_txn_status(m) == PQTRANS_IDLE)
        return;
    gc_error e;
    gc_error_clear(&e);
    PQclear(gc_member_exec(m, "ROLLBACK", &e));
}

bool gc_global_join(gc_global *g, int i, const char *begin_sql, gc_error *err)
{
    if (gc_global_holds_transaction(g, i))
        return true;
    int *grown = realloc(g->joined, (size_t)(g->n_joined + 1) * sizeof *grown);
    if (grown == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    g->joined = grown;
    gc_member *m = g->members[i];
    unsigned long generation = gc_member_generation(m);
    /* The savepoints in force go with the BEGIN, in one round trip, so that
     * going back to one is right on this member too. */
    gc_strbuf begin;
    gc_strbuf_init(&begin);
    gc_strbuf_append_str(&begin, begin_sql);
    gc_global_savepoints_append_replay(g, &begin);
    if (begin.failed) {
        gc_strbuf_free(&begin);
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    PGresult *r = gc_member_exec(m, begin.data, err);
    gc_strbuf_free(&begin);
    if (r == NULL) {
        if (!gc_member_is_open(m) || gc_member_get_state(m) == GC_MEMBER_DOWN)
            gc_global_member_failed(g, i, generation, err);
        else
            rollback_session(m);
        return false;
    }
    PQclear(r);
    g->joined[g->n_joined++] = i;
    g->joined_now = i;
    gc_trace_write(g->trace, GC_TRACE_INFO, "transaction on %s joined member %s (group %s)",
                   g->pinned >= 0 ? g->topo.members[g->pinned].name : "-",
                   g->topo.members[i].name, g->topo.groups[g->topo.members[i].group].name);
    return true;
}

int gc_global_group_primary(gc_global *g, int gi, const char *setup_sql, const char *what,
                            gc_error *err)
{
    const gc_topology *t = &g->topo;
    for (int i = 0; i < t->n_members; i++) {
        gc_member *m = g->members[i];
        if (t->members[i].group == gi && gc_member_is_open(m) &&
            gc_member_get_role(m) == GC_ROLE_PRIMARY)
            return i;
    }
    for (int i = 0; i < t->n_members; i++) {
        if (t->members[i].group != gi || !t->members[i].catalog_primary)
            continue;
        gc_error e;
        gc_error_clear(&e);
        if (gc_global_open_member(g, i, setup_sql, &e) &&
            gc_member_get_role(g->members[i]) != GC_ROLE_STANDBY)
            return i;
        gc_error_set(err, "08S01", 0, "%s needs every group's primary; group %s's primary "
                     "%s does not answer%s%s", what, t->groups[gi].name, t->members[i].name,
                     e.message[0] ? ": " : "", e.message);
        return -1;
    }
    gc_error_set(err, "08S01", 0, "%s needs every group's primary; group %s has none", what,
                 t->groups[gi].name);
    return -1;
}

bool gc_global_enter_transaction(gc_global *g, int i, const char *begin_sql, gc_error *err)
{
    if (gc_global_holds_transaction(g, i))
        return true;
    if (!gc_global_settings_replay(g, i, err))
        return false;
    if (g->pinned >= 0)
        return gc_global_join(g, i, begin_sql, err);
    if (gc_global_prelude_pending(g)) {
        if (!gc_global_prelude_send(g, i, err))
            return false;
    } else {
        PGresult *r = gc_member_exec(g->members[i], begin_sql, err);
        if (r == NULL)
            return false;
        PQclear(r);
    }
    gc_global_pin(g, i);
    return true;
}

void gc_global_note_transaction_ddl(gc_global *g, bool changes_map, bool coordinator_decides)
{
    g->txn_ddl = true;
    g->txn_ddl_changes_map |= changes_map;
    g->txn_ddl_coordinator_decides |= coordinator_decides;
    if (changes_map)
        gc_global_follow_transaction_catalog(g);
}

bool gc_global_commit_is_spread(const gc_global *g)
{
    return g->n_joined > 0 || g->txn_ddl;
}

void gc_global_spread_abandon(gc_global *g)
{
    for (int k = 0; k < g->n_joined; k++) {
        gc_trace_write(g->trace, GC_TRACE_INFO, "transaction part on %s rolled back",
                       g->topo.members[g->joined[k]].name);
        rollback_session(g->members[g->joined[k]]);
    }
    g->n_joined = 0;
    gc_global_savepoints_forget(g);
    g->txn_ddl = false;
    g->txn_ddl_changes_map = false;
    g->txn_ddl_coordinator_decides = false;
    gc_global_forget_transaction_shardmap(g);
}

bool gc_global_leave_failed_join(gc_global *g, int i)
{
    if (i < 0 || i != g->joined_now || !gc_member_is_open(g->members[i]) ||
        gc_member_txn_status(g->members[i]) != PQTRANS_INTRANS)
        return false;
    int k = 0;
    while (k < g->n_joined && g->joined[k] != i)
        k++;
    if (k == g->n_joined)
        return false;
    rollback_session(g->members[i]);
    g->joined[k] = g->joined[--g->n_joined];
    g->joined_now = -1;
    if (g->n_reaching == 1 && g->reaching == i)
        g->n_reaching = 0;
    gc_trace_write(g->trace, GC_TRACE_INFO, "the statement that joined member %s failed: its "
                   "part, which held nothing else, rolled back and left the transaction",
                   g->topo.members[i].name);
    return true;
}

void gc_global_rollback_transaction(gc_global *g)
{
    gc_global_spread_abandon(g);
    if (g->pinned >= 0)
        rollback_session(g->members[g->pinned]);
    gc_global_release_pin(g);
}

void gc_global_leave_aborted(gc_global *g)
{
    if (g->pinned < 0 || gc_global_aborted_member(g) >= 0)
        return;          /* no transaction, or a member that answers 25P02 already */
    /* Any error aborts a transaction: this one says why in the server's log. */
    gc_error e;
    gc_error_clear(&e);
    PQclear(gc_member_exec(g->members[g->pinned],
                           "DO $gc$BEGIN RAISE EXCEPTION USING ERRCODE = '25P02', MESSAGE = "
                           "'gcodbc: a statement of this transaction failed (RollbackOnError=0)"
                           "'; END$gc$", &e));
    gc_trace_write(g->trace, GC_TRACE_INFO, "a statement run on several members failed: the "
                   "transaction is left aborted on member %s (rollback level 0)",
                   g->topo.members[g->pinned].name);
}

bool gc_global_finish_prepared(gc_global *g, int i, const char *gid, bool commit,
                               const char *setup_sql, bool *was_prepared, gc_error *err)
{
    gc_member *m = g->members[i];
    for (int attempt = 0; attempt < 2; attempt++) {
        gc_error_clear(err);
        if (attempt > 0)
            gc_member_close(m);
        if (!gc_member_is_open(m) && !gc_global_open_member(g, i, setup_sql, err))
            continue;
        if (gc_decision_finish(m, gid, commit, was_prepared, err))
            return true;
    }
    return false;
}

/* After a failure before the decision: every part is rolled back (the
 * coordinator's transaction, each joined member's open or prepared one).
 * A prepared part that cannot be reached is rolled back later by in-doubt
 * resolution (no decision was recorded, so it will be). err gets that
 * appended. */
static void undo_all(gc_global *g, const char *gid, const bool *prepare_sent,
                     const char *setup_sql, gc_error *err)
{
    if (g->pinned >= 0)
        rollback_session(g->members[g->pinned]);
    for (int k = 0; k < g->n_joined; k++) {
        int i = g->joined[k];
        if (!prepare_sent[k]) {
            rollback_session(g->members[i]);
            continue;
        }
        gc_error e;
        if (!gc_global_finish_prepared(g, i, gid, false, setup_sql, NULL, &e)) {
            gc_error named;
            gc_error_set(&named, err->sqlstate, err->native,
                         "%s; the part prepared on member %s could not be rolled back now "
                         "(%s): in-doubt resolution rolls it back (gcctl resolve, or the "
                         "driver's next check)", err->message, g->topo.members[i].name,
                         e.message);
            *err = named;
        }
    }
    g->n_joined = 0;
    gc_global_release_pin(g);
}

/* The coordinator's COMMIT answer was lost: asks its group, through a new
 * session to the coordinator's server, what the decision is (waiting for
 * the old transaction to end). GC_SPREAD_UNKNOWN when it cannot be asked. */
static gc_spread_outcome resolve_lost_commit(gc_global *g, gc_member *coordinator,
                                             const char *gid, gc_error *err)
{
    gc_error e;
    gc_error_clear(&e);
    gc_member *asker = gc_member_open_asker(coordinator, &e);
    bool committed = false;
    bool known = asker != NULL && gc_decision_resolve(asker, gid, &committed, &e);
    gc_member_destroy(asker);
    if (!known) {
        gc_error_set(err, "08007", 0,
                     "member %s failed during the COMMIT of a transaction across groups: "
                     "whether it committed is unknown until its group answers (%s); the "
                     "prepared parts are then committed or rolled back with it",
                     gc_member_name(coordinator), e.message);
        return GC_SPREAD_UNKNOWN;
    }
    return committed ? GC_SPREAD_COMMITTED : GC_SPREAD_NOT_COMMITTED;
}

/* Whether a leaf partition the shard map gives member i's group is a
 * foreign table on its server now: move-shard switched it (before the
 * catalog records the move). One round trip. */
static bool leaf_went_foreign(gc_global *g, int i)
{
    int group = g->topo.members[i].group;
    int n = g->map != NULL ? gc_shardmap_group_leaves(g->map, group, NULL, 0) : 0;
    /* (A statement carries at most 65535 parameters: past that, unknown.) */
    const char **names = n > 0 && n <= 65535 ? malloc((size_t)n * sizeof *names) : NULL;
    if (names == NULL)
        return false;
    gc_shardmap_group_leaves(g->map, group, names, n);
    gc_strbuf sql;
    gc_strbuf_init(&sql);
    gc_strbuf_append_str(&sql, "SELECT count(*) FROM pg_class WHERE relkind = 'f' AND oid IN (");
    for (int k = 0; k < n; k++)
        gc_strbuf_appendf(&sql, k > 0 ? ", to_regclass($%d)" : "to_regclass($%d)", k + 1);
    gc_strbuf_append_str(&sql, ")");
    gc_member *m = g->members[i];
    gc_error e;
    gc_error_clear(&e);
    bool foreign = false;
    if (!sql.failed && gc_member_send_query_params(m, sql.data, n, NULL, names, NULL, NULL, &e)) {
        PGresult *r;
        while ((r = gc_member_next_result(m)) != NULL) {
            if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1)
                foreign = atoll(PQgetvalue(r, 0, 0)) > 0;
            PQclear(r);
        }
    }
    gc_strbuf_free(&sql);
    free(names);
    return foreign;
}

/* (gc_global.h) Asked of member i's session, idle since its PREPARE (or
 * its autocommit statement) failed, or in the transaction its statement
 * failed in. At PREPARE, a part that read another group in a subquery
 * (its SQL, not the map) is refused the same way, and running it again
 * would not help: that one keeps its 0A000. */
bool gc_global_shard_map_moved(gc_global *g, int i)
{
    PGTransactionStatusType ts = gc_member_txn_status(g->members[i]);
    if (ts != PQTRANS_IDLE && ts != PQTRANS_INTRANS)
        return false;
    gc_error e;
    gc_error_clear(&e);
    int64_t v = gc_global_read_catalog_version(g, i, &e);
    return (v >= 0 && v != gc_global_catalog_version(g)) || leaf_went_foreign(g, i);
}

/* err, the failure of joined member i at PREPARE, as the application gets
 * it: a session that broke lost its part, so the transaction is lost
 * (40001 / 19068, docs/failover.md), whatever the server said as it went
 * (57P01 from a dying server); a part that went through postgres_fdw
 * (0A000) wrote a shard that moved: 40001, run it again; a server that
 * refused otherwise keeps its SQLSTATE. */
static void prepare_failed(gc_global *g, int i, gc_error *err)
{
    gc_member *m = g->members[i];
    bool lost = !gc_member_is_open(m) || gc_member_get_state(m) == GC_MEMBER_DOWN;
    gc_error named;
    /* 0A000: the part went through postgres_fdw, which a shard map older
     * than a move-shard makes it do; the next transaction routes by the
     * catalog read again, so running it again is the way out. */
    if (!lost && strcmp(err->sqlstate, "0A000") == 0)
        gc_global_check_catalog_soon(g);
    if (!lost && strcmp(err->sqlstate, "0A000") == 0 && gc_global_shard_map_moved(g, i)) {
        gc_error_set(&named, "40001", 0, "the transaction across groups was rolled back, "
                     "nothing applied: the shard map changed (a shard moved) while it ran, "
                     "so its part on member %s (group %s) reached another group through "
                     "postgres_fdw and could not be prepared; run the transaction again (%s)",
                     g->topo.members[i].name, g->topo.groups[g->topo.members[i].group].name,
                     err->message);
        *err = named;
        return;
    }
    gc_error_set(&named, lost || err->sqlstate[0] == '\0' ? "40001" : err->sqlstate,
                 lost ? 19068 : err->native, "the transaction across groups was rolled back: "
                 "member %s (group %s) could not prepare its part: %s",
                 g->topo.members[i].name, g->topo.groups[g->topo.members[i].group].name,
                 err->message);
    *err = named;
}

/* Phase one: PREPARE TRANSACTION gid on every joined member. From the
 * moment it is sent a part may be prepared, even when the answer is lost;
 * a session found dead before (no round trip) was sent nothing. */
static bool prepare_joined(gc_global *g, const char *gid, bool *prepare_sent, gc_error *err)
{
    char sql[GC_DECISION_GID_MAX + 32];
    snprintf(sql, sizeof sql, "PREPARE TRANSACTION '%s'", gid);
    for (int k = 0; k < g->n_joined; k++) {
        int i = g->joined[k];
        gc_member *m = g->members[i];
        if (!gc_member_check_alive(m, err)) {
            prepare_failed(g, i, err);
            return false;
        }
        prepare_sent[k] = true;
        PGresult *r = gc_member_exec(m, sql, err);
        if (r == NULL) {
            prepare_failed(g, i, err);
            return false;
        }
        /* A part a failed statement aborted answers ROLLBACK. */
        bool rolled_back = strcmp(PQcmdStatus(r), "ROLLBACK") == 0;
        PQclear(r);
        if (rolled_back) {
            gc_error_set(err, "40000", 0, "the transaction was rolled back because a "
                         "statement in it failed (on member %s); nothing was committed",
                         g->topo.members[i].name);
            return false;
        }
    }
    return true;
}

/* 40000: a failed statement had aborted the transaction. */
static void aborted_error(gc_error *err)
{
    gc_error_set(err, "40000", 0, GC_ROLLED_BACK_AT_COMMIT_TEXT);
}

/* Records the decision on the coordinator and commits it there, in one
 * round trip: the moment the transaction commits everywhere. */
static gc_spread_outcome commit_coordinator(gc_global *g, const char *gid, gc_error *err)
{
    gc_member *cm = g->members[g->pinned];
    if (gc_member_txn_status(cm) == PQTRANS_INERROR) {
        aborted_error(err);
        return GC_SPREAD_NOT_COMMITTED;
    }
    gc_error dead;
    if (!gc_member_check_alive(cm, &dead)) {
        /* Its session ended before the decision was sent (no round trip to
         * know it): its server rolled the transaction back, so nothing can
         * commit and the outcome is known, not lost. */
        gc_error_set(err, "40001", 19068, "the transaction across groups was rolled back: "
                     "its member %s failed before the commit (%s); nothing was committed",
                     gc_member_name(cm), dead.message);
        return GC_SPREAD_NOT_COMMITTED;
    }
    if (g->n_joined > 0) {
        switch (gc_decision_commit(cm, gid, err)) {
        case GC_DECISION_COMMITTED:
            return GC_SPREAD_COMMITTED;
        case GC_DECISION_NOT_COMMITTED:
            return GC_SPREAD_NOT_COMMITTED;
        case GC_DECISION_ANSWER_LOST:
            return resolve_lost_commit(g, cm, gid, err);
        }
    }
    /* Alone (DDL on a cluster of one group): a plain COMMIT, no decision
     * recorded, so a lost answer stays unknown. */
    PGresult *r = gc_member_exec(cm, "COMMIT", err);
    if (r == NULL && gc_member_is_open(cm) && gc_member_txn_status(cm) == PQTRANS_IDLE)
        return GC_SPREAD_NOT_COMMITTED;
    if (r == NULL) {
        gc_error_set(err, "08007", 0, "member %s failed during COMMIT: whether the "
                     "transaction committed is unknown (%s)", gc_member_name(cm), err->message);
        return GC_SPREAD_UNKNOWN;
    }
    bool rolled_back = strcmp(PQcmdStatus(r), "ROLLBACK") == 0;
    PQclear(r);
    if (rolled_back) {
        aborted_error(err);
        return GC_SPREAD_NOT_COMMITTED;
    }
    return GC_SPREAD_COMMITTED;
}

/* Phase two: COMMIT PREPARED on every joined member; one that cannot be
 * told is committed later by in-doubt resolution (the decision says so). */
static bool commit_joined(gc_global *g, const char *gid, const char *setup_sql, gc_error *info)
{
    bool all = true;
    for (int k = 0; k < g->n_joined; k++) {
        gc_error e;
        if (gc_global_finish_prepared(g, g->joined[k], gid, true, setup_sql, NULL, &e))
            continue;
        all = false;
        gc_error_set(info, "01000", 0,
                     "the transaction is committed; its part on member %s is prepared and "
                     "could not be committed now (%s): in-doubt resolution commits it "
                     "(gcctl resolve, or the driver's next check); until then it holds its "
                     "locks there", g->topo.members[g->joined[k]].name, e.message);
    }
    return all;
}

/* After DDL that changed tables: the catalog version rises on every
 * group's primary the transaction held. */
static void raise_version(gc_global *g, const int *members, int n, const char *setup_sql,
                          gc_error *info)
{
    gc_member *primaries[n > 0 ? n : 1];
    for (int k = 0; k < n; k++)
        primaries[k] = g->members[members[k]];
    gc_error e;
    gc_error_clear(&e);
    if (!gc_ddl_refresh(g, primaries, n, setup_sql, &e) && info->sqlstate[0] == '\0')
        *info = e;
}

/* The decider is the member whose own COMMIT decides; every other member
 * of the transaction PREPAREs first. PostgreSQL cannot PREPARE a part that
 * used postgres_fdw or a temporary table, so when the one member that may
 * have (n_reaching) is a joined one, it takes the pin's place: the pin ran
 * only statements of its own group's rows and can prepare (its part of
 * the transaction's DDL too). A solo object made from a query (CREATE
 * MATERIALIZED VIEW, CREATE TABLE ... AS) keeps its coordinator: that part
 * read through postgres_fdw and cannot prepare. */
static void choose_decider(gc_global *g)
{
    gc_global_settle_reaching(g);
    if (g->txn_ddl_coordinator_decides || g->n_reaching != 1 || g->reaching == g->pinned)
        return;
    for (int k = 0; k < g->n_joined; k++) {
        if (g->joined[k] != g->reaching)
            continue;
        gc_trace_write(g->trace, GC_TRACE_INFO, "the commit is decided on %s, which may have "
                       "read another group through postgres_fdw; %s prepares",
                       g->topo.members[g->reaching].name, g->topo.members[g->pinned].name);
        g->joined[k] = g->pinned;
        g->pinned = g->reaching;
        return;
    }
}

gc_spread_outcome gc_global_commit_spread(gc_global *g, const char *setup_sql, gc_error *err,
                                          gc_error *info)
{
    gc_error_clear(info);
    if (g->pinned < 0) {
        gc_global_spread_abandon(g);
        gc_global_txn_lost_error(err);
        return GC_SPREAD_NOT_COMMITTED;
    }
    choose_decider(g);
    int n = g->n_joined + 1;
    int members[n];
    members[0] = g->pinned;
    memcpy(members + 1, g->joined, (size_t)g->n_joined * sizeof *members);
    bool changes_map = g->txn_ddl_changes_map;
    int coordinator_group = g->topo.members[g->pinned].group;
    bool prepare_sent[n];
    memset(prepare_sent, 0, sizeof prepare_sent);
    char gid[GC_DECISION_GID_MAX];
    if (!gc_decision_new_gid(gid, sizeof gid, g->topo.groups[coordinator_group].name)) {
        gc_error_set(err, "HY000", 0, "group name %s cannot name a transaction",
                     g->topo.groups[coordinator_group].name);
        undo_all(g, "", prepare_sent, setup_sql, err);
        return GC_SPREAD_NOT_COMMITTED;
    }
    gc_trace_write(g->trace, GC_TRACE_INFO, "COMMIT across %d members, coordinator %s: %s", n,
                   g->topo.members[g->pinned].name, gid);
    gc_spread_outcome outcome = GC_SPREAD_NOT_COMMITTED;
    if (prepare_joined(g, gid, prepare_sent, err))
        outcome = commit_coordinator(g, gid, err);
    if (outcome == GC_SPREAD_NOT_COMMITTED) {
        undo_all(g, gid, prepare_sent, setup_sql, err);
        return outcome;
    }
    if (outcome == GC_SPREAD_UNKNOWN) {
        /* Resolution finishes the prepared parts once the decision is known. */
        g->n_joined = 0;
        gc_global_release_pin(g);
        return outcome;
    }
    int coordinator = g->pinned;
    bool all = commit_joined(g, gid, setup_sql, info);
    g->n_joined = 0;
    gc_global_release_pin(g);
    if (all) {
        gc_error e;
        gc_error_clear(&e);
        gc_member *cm = g->members[coordinator];
        if (n > 1 && gc_member_is_open(cm) && !gc_decision_forget(cm, gid, &e))
            gc_trace_write(g->trace, GC_TRACE_INFO, "decision %s not forgotten: %s", gid,
                           e.message);
    }
    if (changes_map)
        raise_version(g, members, n, setup_sql, info);
    return GC_SPREAD_COMMITTED;
}
