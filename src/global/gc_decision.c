/*
 * gc_decision: see gc_decision.h.
 */
#include "global/gc_decision.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Letters, digits and _ only: a gid is then safe inside quotes. */
static bool plain_name(const char *s)
{
    if (*s == '\0')
        return false;
    for (; *s != '\0'; s++) {
        char ch = *s;
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '_'))
            return false;
    }
    return true;
}

bool gc_decision_new_gid(char *buf, size_t size, const char *coordinator_group)
{
    static atomic_ulong counter;
    if (!plain_name(coordinator_group))
        return false;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    unsigned long n = atomic_fetch_add(&counter, 1) + 1;
    int w = snprintf(buf, size, GC_DECISION_GID_PREFIX "%ld:%lld.%09ld:%lu:%s", (long)getpid(),
                     (long long)now.tv_sec, now.tv_nsec, n, coordinator_group);
    return w > 0 && (size_t)w < size;
}

bool gc_decision_gid_coordinator(const char *gid, char *group, size_t size)
{
    if (strncmp(gid, GC_DECISION_GID_PREFIX, strlen(GC_DECISION_GID_PREFIX)) != 0)
        return false;
    const char *last = strrchr(gid, ':');
    if (last == NULL || !plain_name(last + 1) || strlen(last + 1) >= size)
        return false;
    strcpy(group, last + 1);
    return true;
}

/* A catalog older than the decision functions: say what to do. */
static void explain_missing(gc_error *err)
{
    if (strcmp(err->sqlstate, "42883") == 0 || strcmp(err->sqlstate, "3F000") == 0)
        gc_error_set(err, "55000", 0,
                     "a transaction across groups needs gcluster.decide_commit, which this "
                     "cluster's catalog lacks: run gcctl apply to update it (%s)",
                     err->message);
}

gc_decision_commit_result gc_decision_commit(gc_member *coordinator, const char *gid,
                                             gc_error *err)
{
    if (strchr(gid, '\'') != NULL) {
        gc_error_set(err, "HY000", 0, "invalid transaction name");
        return GC_DECISION_NOT_COMMITTED;
    }
    /* The decision divides: a "roll back" found in place raises 22012, and
     * the rest of the text, the COMMIT, does not run. A function call is
     * not folded at plan time, as a constant 1/0 would be. */
    char sql[GC_DECISION_GID_MAX + 96];
    snprintf(sql, sizeof sql, "SELECT 1 / gcluster.decide_commit('%s', true)::int; COMMIT", gid);
    PGresult *r = gc_member_exec(coordinator, sql, err);
    if (r == NULL) {
        PGTransactionStatusType ts = gc_member_txn_status(coordinator);
        if (!gc_member_is_open(coordinator) || ts == PQTRANS_UNKNOWN || ts == PQTRANS_ACTIVE)
            return GC_DECISION_ANSWER_LOST;
        if (strcmp(err->sqlstate, "22012") == 0)
            gc_error_set(err, "40001", 19068, "the transaction across groups was rolled back: "
                         "in-doubt resolution decided it before its COMMIT");
        else
            explain_missing(err);
        return GC_DECISION_NOT_COMMITTED;
    }
    bool rolled_back = strcmp(PQcmdStatus(r), "ROLLBACK") == 0;
    PQclear(r);
    if (rolled_back) {
        gc_error_set(err, "40000", 0, GC_ROLLED_BACK_AT_COMMIT_TEXT);
        return GC_DECISION_NOT_COMMITTED;
    }
    return GC_DECISION_COMMITTED;
}

/* Runs "SELECT gcluster.decide_commit('gid', commit)" on m. */
static bool decide(gc_member *m, const char *gid, bool commit, bool *committed, gc_error *err)
{
    if (strchr(gid, '\'') != NULL) {
        gc_error_set(err, "HY000", 0, "invalid transaction name");
        return false;
    }
    char sql[GC_DECISION_GID_MAX + 64];
    snprintf(sql, sizeof sql, "SELECT gcluster.decide_commit('%s', %s)", gid,
             commit ? "true" : "false");
    PGresult *r = gc_member_exec(m, sql, err);
    if (r == NULL) {
        explain_missing(err);
        return false;
    }
    bool ok = PQntuples(r) == 1 && !PQgetisnull(r, 0, 0);
    if (ok)
        *committed = strcmp(PQgetvalue(r, 0, 0), "t") == 0;
    else
        gc_error_set(err, "HY000", 0, "gcluster.decide_commit gave no decision for %s", gid);
    PQclear(r);
    return ok;
}

bool gc_decision_record_commit(gc_member *coordinator, const char *gid, bool *committed,
                               gc_error *err)
{
    return decide(coordinator, gid, true, committed, err);
}

bool gc_decision_resolve(gc_member *coordinator_primary, const char *gid, bool *committed,
                         gc_error *err)
{
    return decide(coordinator_primary, gid, false, committed, err);
}

bool gc_decision_forget(gc_member *coordinator_primary, const char *gid, gc_error *err)
{
    char sql[GC_DECISION_GID_MAX + 64];
    snprintf(sql, sizeof sql, "SELECT gcluster.forget_commit_decision('%s')", gid);
    PGresult *r = gc_member_exec(coordinator_primary, sql, err);
    PQclear(r);
    return r != NULL;
}

bool gc_decision_finish(gc_member *m, const char *gid, bool commit, bool *was_prepared,
                        gc_error *err)
{
    char sql[GC_DECISION_GID_MAX + 32];
    snprintf(sql, sizeof sql, "%s PREPARED '%s'", commit ? "COMMIT" : "ROLLBACK", gid);
    PGresult *r = gc_member_exec(m, sql, err);
    if (r == NULL && strcmp(err->sqlstate, "42704") != 0)
        return false;
    if (was_prepared != NULL)
        *was_prepared = r != NULL;
    PQclear(r);
    gc_error_clear(err);
    return true;
}
