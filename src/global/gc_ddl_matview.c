/*
 * gc_ddl_matview: materialized views through a global connection
 * (docs/global-connection.md, "Materialized views").
 *
 * A materialized view made through the driver is a solo object: the view
 * on one owner group, a foreign table with its columns on every other
 * group. Its CREATE reads the cluster's tables through postgres_fdw on the
 * owner, and PostgreSQL cannot PREPARE a transaction that did: the owner's
 * transaction is not prepared but is the commit decision (gc_decision.h).
 * gc_ddl_run prepares every other group, then gc_ddl_decide_by_owner records
 * the decision in the owner's transaction and commits it; a COMMIT whose
 * answer was lost is resolved through a new session on the owner's primary.
 * CREATE TABLE ... AS makes a solo table the same way, for the same reason.
 * REFRESH runs on the owner's primary only, as a plain statement.
 */
#include <string.h>
#include <time.h>

#include "global/gc_commit_resolve.h"
#include "global/gc_ddl.h"
#include "global/gc_decision.h"

/* After the owner's COMMIT failed or its answer was lost: the decision in
 * force, asked of the owner's primary through a new session (the old one
 * may look open after its server ended it). decide_commit(gid, false)
 * waits while the owner's transaction is still open, so the answer is
 * final. Tried for GC_COMMIT_RESOLVE_WAIT_MS (a primary restarting). */
static bool resolve(gc_global *g, int owner_member, const char *gid, const char *setup_sql,
                    bool *committed, gc_error *err)
{
    gc_member *m = gc_global_member(g, owner_member);
    const struct timespec pause = { .tv_sec = 0, .tv_nsec = 100 * 1000 * 1000 };
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do {
        gc_error_clear(err);
        gc_member_close(m);
        if (gc_global_open_member(g, owner_member, setup_sql, err) &&
            gc_decision_resolve(m, gid, committed, err))
            return true;
        nanosleep(&pause, NULL);
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 <
             GC_COMMIT_RESOLVE_WAIT_MS);
    return false;
}

bool gc_ddl_decide_by_owner(gc_global *g, int owner_member, const char *gid,
                            const char *setup_sql, bool *committed, gc_error *why)
{
    gc_member *owner = gc_global_member(g, owner_member);
    if (!gc_decision_record_commit(owner, gid, committed, why) || !*committed) {
        if (why->sqlstate[0] == '\0')
            gc_error_set(why, "40001", 0, "the transaction was decided rolled back by a "
                         "resolver before the owner could commit it");
        *committed = false;
        gc_error e;
        gc_error_clear(&e);
        PQclear(gc_member_exec(owner, "ROLLBACK", &e));
        return true;
    }
    PGresult *r = gc_member_exec(owner, "COMMIT", why);
    bool answered = r != NULL;
    PQclear(r);
    if (answered)
        return true;
    /* The COMMIT failed (a deferred check, the server's own error) or its
     * answer was lost: what the owner's transaction became decides. */
    gc_error resolve_err;
    if (resolve(g, owner_member, gid, setup_sql, committed, &resolve_err)) {
        if (*committed)
            gc_error_clear(why);
        return true;
    }
    gc_error commit_err = *why;
    gc_error_set(why, "08007", 0,
                 "the outcome of the DDL is unknown: its owner group's COMMIT "
                 "failed (%s) and the decision could not be read (%s); the other groups "
                 "hold it prepared as '%s': run SELECT gcluster.decide_commit('%s', false) "
                 "on the owner's primary %s, then COMMIT PREPARED (true) or ROLLBACK "
                 "PREPARED (false) '%s' on each group's primary",
                 commit_err.message, resolve_err.message, gid, gid,
                 gc_member_name(owner), gid);
    return false;
}

bool gc_ddl_matview_refresh_where(const gc_ddl_places *p, int policy_k, const char *name,
                                  int *where, gc_error *err)
{
    /* The owner is the one group where the name is a materialized view
     * while it is a foreign table elsewhere; a view on every group (not
     * made by the driver) runs where the policy says, as any statement. */
    int owner = -1, views = 0;
    bool any_foreign = false;
    for (int k = 0; k < p->n; k++) {
        char kind;
        if (!gc_ddl_relkind(p->sessions[k], name, &kind, err))
            return false;
        if (kind == 'm') {
            owner = k;
            views++;
        }
        any_foreign |= kind == 'f';
    }
    *where = views == 1 && any_foreign ? owner : policy_k;
    return true;
}
