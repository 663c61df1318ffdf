/*
 * gc_in_doubt: see gc_in_doubt.h.
 */
#include "global/gc_in_doubt.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "global/gc_global_internal.h"   /* the connection's trace */
#include "member/gc_member_notify.h"

/* Our gids are letters, digits and ":._" (gc_decision_new_gid): anything
 * else is not ours, and never reaches the SQL the gid is quoted into. */
static bool gid_of_ours(const char *gid, char *coordinator, size_t size)
{
    if (strlen(gid) >= GC_DECISION_GID_MAX)
        return false;
    for (const char *s = gid; *s != '\0'; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || *s == ':' || *s == '.' || *s == '_'))
            return false;
    return gc_decision_gid_coordinator(gid, coordinator, size);
}

bool gc_in_doubt_find(gc_member *participant, int grace_ms, gc_in_doubt_list *out,
                      gc_error *err)
{
    out->items = NULL;
    out->n = 0;
    /* The server's clock on both sides of the age: no skew with ours. The
     * function under pg_prepared_xacts, without the view's joins: a third
     * of the view's cost, and this runs at every check. */
    static const char sql[] =
        "SELECT gid, ownerid::regrole::text, extract(epoch FROM now() - prepared)::float8,"
        "       ownerid = current_user::regrole::oid"
        "       OR current_setting('is_superuser')::bool"
        "  FROM pg_prepared_xact() p(transaction, gid, prepared, ownerid, dbid)"
        " WHERE left(gid, 4) = '" GC_DECISION_GID_PREFIX "'"
        "   AND dbid = (SELECT oid FROM pg_database WHERE datname = current_database())"
        " ORDER BY prepared";
    PGresult *r = gc_member_exec(participant, sql, err);
    if (r == NULL)
        return false;
    int rows = PQntuples(r);
    if (rows > 0) {
        out->items = calloc((size_t)rows, sizeof *out->items);
        if (out->items == NULL) {
            PQclear(r);
            gc_error_set(err, "HY001", 0, "out of memory");
            return false;
        }
    }
    for (int i = 0; i < rows; i++) {
        gc_in_doubt_xact *x = &out->items[out->n];
        const char *gid = PQgetvalue(r, i, 0);
        if (!gid_of_ours(gid, x->coordinator, sizeof x->coordinator))
            continue;
        snprintf(x->gid, sizeof x->gid, "%s", gid);
        snprintf(x->owner, sizeof x->owner, "%s", PQgetvalue(r, i, 1));
        x->age_s = strtod(PQgetvalue(r, i, 2), NULL);
        x->ripe = x->age_s * 1000.0 >= (double)grace_ms;
        x->finishable = strcmp(PQgetvalue(r, i, 3), "t") == 0;
        out->n++;
    }
    PQclear(r);
    return true;
}

void gc_in_doubt_list_free(gc_in_doubt_list *l)
{
    free(l->items);
    l->items = NULL;
    l->n = 0;
}

bool gc_in_doubt_bound_wait(gc_member *coordinator, int wait_ms, gc_error *err)
{
    char sql[64];
    snprintf(sql, sizeof sql, "SET lock_timeout = %d", wait_ms > 0 ? wait_ms : 1);
    PGresult *r = gc_member_exec(coordinator, sql, err);
    PQclear(r);
    return r != NULL;
}

gc_in_doubt_outcome gc_in_doubt_settle(gc_member *participant, gc_member *coordinator,
                                       const char *gid, gc_error *why)
{
    gc_error_clear(why);
    bool committed = false;
    if (!gc_decision_resolve(coordinator, gid, &committed, why)) {
        /* lock_not_available: the coordinator's decision is not committed
         * or rolled back yet; it will be, and the next round follows it. */
        if (strcmp(why->sqlstate, "55P03") == 0)
            gc_error_set(why, "55P03", 0,
                         "the coordinator's transaction is still open (its decision is "
                         "not committed yet)");
        return GC_IN_DOUBT_LEFT;
    }
    /* A decision stands once written: when the finish fails, the next
     * round reads the same decision and finishes it then. */
    if (!gc_decision_finish(participant, gid, committed, NULL, why))
        return GC_IN_DOUBT_LEFT;
    return committed ? GC_IN_DOUBT_COMMITTED : GC_IN_DOUBT_ROLLED_BACK;
}

void gc_in_doubt_count(gc_in_doubt_counts *counts, gc_in_doubt_outcome outcome)
{
    switch (outcome) {
    case GC_IN_DOUBT_COMMITTED: counts->committed++; break;
    case GC_IN_DOUBT_ROLLED_BACK: counts->rolled_back++; break;
    case GC_IN_DOUBT_LEFT: counts->left++; break;
    }
}

/* ---- one group of a global connection ---- */

/* The member whose open session is group's primary and can run a statement
 * now (idle, outside any transaction); -1 when none. */
static int idle_primary(const gc_global *g, int group)
{
    const gc_topology *t = gc_global_topology(g);
    for (int i = 0; i < t->n_members; i++) {
        gc_member *m = gc_global_member(g, i);
        if (t->members[i].group == group && gc_member_is_open(m) && !gc_member_busy(m) &&
            gc_member_get_role(m) == GC_ROLE_PRIMARY &&
            gc_member_txn_status(m) == PQTRANS_IDLE)
            return i;
    }
    return -1;
}

/* The member to ask for group's decisions: the one whose session says it
 * is the primary, else the catalog's primary, else the group's first. */
static int decision_member(const gc_global *g, int group)
{
    const gc_topology *t = gc_global_topology(g);
    int catalog = -1, first = -1;
    for (int i = 0; i < t->n_members; i++) {
        if (t->members[i].group != group)
            continue;
        gc_member *m = gc_global_member(g, i);
        if (gc_member_is_open(m) && gc_member_get_role(m) == GC_ROLE_PRIMARY)
            return i;
        if (catalog < 0 && t->members[i].catalog_primary)
            catalog = i;
        if (first < 0)
            first = i;
    }
    return catalog >= 0 ? catalog : first;
}

/* The short-lived sessions of one resolution, one per coordinator group,
 * opened on first need (a group that did not answer is not asked again). */
typedef struct asker_set {
    gc_member **sessions;   /* n_groups; owned */
    gc_error *failed;       /* n_groups; why a group's session could not open */
    bool *tried;
    int n;
} asker_set;

static gc_member *asker_for(gc_global *g, asker_set *a, int group, gc_error *why)
{
    if (!a->tried[group]) {
        a->tried[group] = true;
        int j = decision_member(g, group);
        gc_error_clear(&a->failed[group]);
        if (j < 0) {
            gc_error_set(&a->failed[group], "08001", 0, "the group has no member");
        } else if (gc_member_get_state(gc_global_member(g, j)) == GC_MEMBER_DOWN) {
            /* Not a connect timeout at every check while the group is
             * down: its reconnect schedule tells when it is back. */
            gc_error_set(&a->failed[group], "08001", 0,
                         "the coordinator group's primary %s is down",
                         gc_global_topology(g)->members[j].name);
        } else {
            a->sessions[group] = gc_member_open_asker(gc_global_member(g, j), &a->failed[group]);
            if (a->sessions[group] != NULL &&
                !gc_in_doubt_bound_wait(a->sessions[group], GC_IN_DOUBT_DRIVER_WAIT_MS,
                                        &a->failed[group])) {
                gc_member_destroy(a->sessions[group]);
                a->sessions[group] = NULL;
            }
        }
    }
    if (a->sessions[group] == NULL)
        *why = a->failed[group];
    return a->sessions[group];
}

static void askers_free(asker_set *a)
{
    for (int k = 0; a->sessions != NULL && k < a->n; k++)
        gc_member_destroy(a->sessions[k]);
    free(a->sessions);
    free(a->failed);
    free(a->tried);
}

/* Resolves one ripe transaction found through session participant. */
static gc_in_doubt_outcome resolve_one(gc_global *g, gc_member *participant, asker_set *a,
                                       const gc_in_doubt_xact *x, gc_error *why)
{
    gc_error_clear(why);
    if (!x->finishable) {
        gc_error_set(why, "42501", 0, "prepared by role %s, which this connection's role may not "
                     "finish", x->owner);
        return GC_IN_DOUBT_LEFT;
    }
    int cg = gc_topology_group_index(gc_global_topology(g), x->coordinator);
    if (cg < 0) {
        gc_error_set(why, "HY000", 0, "its coordinator group %s is not in the topology",
                     x->coordinator);
        return GC_IN_DOUBT_LEFT;
    }
    gc_member *coordinator = asker_for(g, a, cg, why);
    if (coordinator == NULL)
        return GC_IN_DOUBT_LEFT;
    return gc_in_doubt_settle(participant, coordinator, x->gid, why);
}

const char *gc_in_doubt_outcome_name(gc_in_doubt_outcome o)
{
    return o == GC_IN_DOUBT_COMMITTED ? "committed"
           : o == GC_IN_DOUBT_ROLLED_BACK ? "rolled back" : "left";
}

/* Finds the in-doubt transactions of member p's server through session
 * participant (the connection's own, or one of the caller's) and settles
 * the ripe ones. False with err when participant failed. */
static bool settle_on(gc_global *g, int p, gc_member *participant, int grace_ms,
                      gc_in_doubt_counts *out, gc_error *err)
{
    const gc_topology *t = gc_global_topology(g);
    gc_in_doubt_list list;
    if (!gc_in_doubt_find(participant, grace_ms, &list, err))
        return false;
    asker_set a = { .n = t->n_groups };
    if (list.n > 0) {
        a.sessions = calloc((size_t)a.n, sizeof *a.sessions);
        a.failed = calloc((size_t)a.n, sizeof *a.failed);
        a.tried = calloc((size_t)a.n, sizeof *a.tried);
        if (a.sessions == NULL || a.failed == NULL || a.tried == NULL) {
            askers_free(&a);
            gc_in_doubt_list_free(&list);
            gc_error_set(err, "HY001", 0, "out of memory");
            return false;
        }
    }
    bool ok = true;
    for (int k = 0; k < list.n; k++) {
        const gc_in_doubt_xact *x = &list.items[k];
        if (!x->ripe) {
            out->young++;
            continue;
        }
        gc_error why;
        gc_in_doubt_outcome o = ok ? resolve_one(g, participant, &a, x, &why)
                                   : GC_IN_DOUBT_LEFT;
        gc_in_doubt_count(out, o);
        if (!ok)
            continue;
        gc_trace_write(g->trace, GC_TRACE_INFO, "in-doubt transaction %s on %s: %s%s%s", x->gid,
                       t->members[p].name, gc_in_doubt_outcome_name(o), why.message[0] ? ": " : "",
                       why.message);
        if (!gc_member_is_open(participant)) {
            /* The participant's own session broke: the rest wait. */
            *err = why;
            ok = false;
        }
    }
    askers_free(&a);
    gc_in_doubt_list_free(&list);
    return ok;
}

bool gc_in_doubt_resolve_group(gc_global *g, int group, int grace_ms, gc_in_doubt_counts *out,
                               gc_error *err)
{
    memset(out, 0, sizeof *out);
    gc_error_clear(err);
    const gc_topology *t = gc_global_topology(g);
    assert(group >= 0 && group < t->n_groups);
    if (gc_global_pinned_member(g) >= 0) {
        gc_error_set(err, "HY010", 0, "in-doubt transactions are resolved between transactions");
        return false;
    }
    int p = idle_primary(g, group);
    if (p < 0) {
        gc_error_set(err, "08S01", 0, "group %s has no open, idle primary session",
                     t->groups[group].name);
        return false;
    }
    gc_member *m = gc_global_member(g, p);
    unsigned long generation = gc_member_generation(m);
    bool ok = settle_on(g, p, m, grace_ms, out, err);
    if (!ok && !gc_member_is_open(m))
        gc_global_member_failed(g, p, generation, err);
    return ok;
}

void gc_in_doubt_settle_for_waiter(gc_global *g, int member)
{
    gc_error err;
    gc_error_clear(&err);
    gc_in_doubt_counts c;
    memset(&c, 0, sizeof c);
    gc_member *participant = gc_member_open_asker(gc_global_member(g, member), &err);
    bool ok = participant != NULL &&
              settle_on(g, member, participant, GC_IN_DOUBT_GRACE_MS, &c, &err);
    gc_member_destroy(participant);
    if (!ok || c.committed + c.rolled_back + c.left > 0)
        gc_trace_write(g->trace, GC_TRACE_INFO, "a statement waits on %s: in-doubt "
                       "transactions there: %d committed, %d rolled back, %d left%s%s",
                       gc_global_topology(g)->members[member].name, c.committed,
                       c.rolled_back, c.left, ok ? "" : "; stopped: ", ok ? "" : err.message);
}

void gc_in_doubt_check(gc_global *g)
{
    const gc_topology *t = gc_global_topology(g);
    for (int group = 0; group < t->n_groups; group++) {
        if (gc_global_pinned_member(g) >= 0 || idle_primary(g, group) < 0)
            continue;
        gc_in_doubt_counts c;
        gc_error err;
        bool ok = gc_in_doubt_resolve_group(g, group, GC_IN_DOUBT_GRACE_MS, &c, &err);
        if (!ok || c.committed + c.rolled_back + c.left + c.young > 0)
            gc_trace_write(g->trace, GC_TRACE_INFO,
                           "in-doubt transactions on group %s: %d committed, %d rolled back, "
                           "%d left, %d within the grace%s%s",
                           t->groups[group].name, c.committed, c.rolled_back, c.left, c.young,
                           ok ? "" : "; stopped: ", ok ? "" : err.message);
    }
}
