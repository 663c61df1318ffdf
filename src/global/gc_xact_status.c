/*
 * gc_xact_status: resolving a COMMIT whose answer was lost. See
 * gc_xact_status.h.
 */
#include "global/gc_xact_status.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

const char *gc_xact_outcome_name(gc_xact_outcome outcome)
{
    switch (outcome) {
    case GC_XACT_COMMITTED: return "committed";
    case GC_XACT_NOT_COMMITTED: return "not committed";
    case GC_XACT_UNKNOWN: return "unknown";
    }
    return "unknown";
}

gc_xact_answer gc_xact_answer_parse(const char *status)
{
    if (status == NULL)
        return GC_XACT_ANSWER_NONE;
    if (strcmp(status, "committed") == 0)
        return GC_XACT_ANSWER_COMMITTED;
    if (strcmp(status, "aborted") == 0)
        return GC_XACT_ANSWER_ABORTED;
    if (strcmp(status, "in progress") == 0)
        return GC_XACT_ANSWER_IN_PROGRESS;
    return GC_XACT_ANSWER_NONE;
}

gc_xact_outcome gc_xact_status_decide(gc_xact_answer answer, bool same_incarnation)
{
    switch (answer) {
    case GC_XACT_ANSWER_ABORTED:
    case GC_XACT_ANSWER_FUTURE:
        return GC_XACT_NOT_COMMITTED;
    case GC_XACT_ANSWER_COMMITTED:
        return same_incarnation ? GC_XACT_COMMITTED : GC_XACT_UNKNOWN;
    case GC_XACT_ANSWER_IN_PROGRESS:
    case GC_XACT_ANSWER_NONE:
        return GC_XACT_UNKNOWN;
    }
    return GC_XACT_UNKNOWN;
}

/* One question with the server's incarnation. False with err when it could
 * not be asked or answered; else *answer, *standby and started_here set
 * (started_here "" when the server said "in the future"). */
static bool ask_with_incarnation(gc_member *m, const char *xid, gc_xact_answer *answer,
                                 bool *standby, char *started_here, size_t size,
                                 gc_error *err)
{
    const char *values[1] = { xid };
    if (!gc_member_send_query_params(m, "SELECT pg_xact_status($1::xid8), "
                                        "pg_postmaster_start_time()::text, pg_is_in_recovery()",
                                     1, NULL, values, NULL, NULL, err))
        return false;
    PGresult *got = NULL, *res;
    bool failed = false;
    while ((res = gc_member_next_result(m)) != NULL) {
        if (PQresultStatus(res) != PGRES_TUPLES_OK && !failed) {
            failed = true;
            gc_member_result_error(m, res, err);
        }
        if (got == NULL && PQresultStatus(res) == PGRES_TUPLES_OK)
            got = res;
        else
            PQclear(res);
    }
    started_here[0] = '\0';
    *standby = false;
    if (failed && strcmp(err->sqlstate, "22023") == 0) {
        PQclear(got);
        *answer = GC_XACT_ANSWER_FUTURE;
        *standby = gc_member_get_role(m) == GC_ROLE_STANDBY;
        return true;
    }
    if (failed || got == NULL || PQntuples(got) != 1 || PQnfields(got) != 3) {
        if (!failed)
            gc_error_set(err, "08007", 0, "no answer from pg_xact_status");
        PQclear(got);
        return false;
    }
    *answer = gc_xact_answer_parse(PQgetisnull(got, 0, 0) ? NULL : PQgetvalue(got, 0, 0));
    snprintf(started_here, size, "%s", PQgetvalue(got, 0, 1));
    *standby = strcmp(PQgetvalue(got, 0, 2), "t") == 0;
    PQclear(got);
    return true;
}

gc_xact_outcome gc_xact_status_resolve_on(gc_member *server, const char *xid,
                                          const char *started, int in_progress_wait_ms,
                                          bool *decisive, gc_error *err)
{
    assert(server != NULL && err != NULL && decisive != NULL);
    gc_error_clear(err);
    *decisive = true;
    if (xid == NULL || xid[0] == '\0' || strspn(xid, "0123456789") != strlen(xid) ||
        strlen(xid) > 20) {
        gc_error_set(err, "08007", 0, "the transaction id is not known");
        return GC_XACT_UNKNOWN;
    }
    const char *name = gc_member_name(server) ? gc_member_name(server) : "-";
    int waited_ms = 0;
    for (;;) {
        gc_xact_answer answer;
        bool standby;
        char started_here[64];
        if (!ask_with_incarnation(server, xid, &answer, &standby, started_here,
                                  sizeof started_here, err)) {
            *decisive = false;
            return GC_XACT_UNKNOWN;
        }
        if (standby) {
            /* A standby's view may lag its primary: "in the future" or
             * "in progress" there prove nothing. */
            *decisive = false;
            gc_error_set(err, "08007", 0, "member %s is a standby: it cannot tell whether "
                         "transaction %s committed", name, xid);
            return GC_XACT_UNKNOWN;
        }
        bool same = started != NULL && started[0] != '\0' &&
                    (answer == GC_XACT_ANSWER_FUTURE || strcmp(started, started_here) == 0);
        gc_xact_outcome outcome = gc_xact_status_decide(answer, same);
        if (outcome != GC_XACT_UNKNOWN) {
            gc_error_clear(err);
            return outcome;
        }
        if (answer != GC_XACT_ANSWER_IN_PROGRESS || !same || waited_ms >= in_progress_wait_ms) {
            gc_error_set(err, "08007", 0, "transaction %s on member %s: %s", xid, name,
                         answer == GC_XACT_ANSWER_NONE ? "the server no longer knows its status"
                         : same ? "still in progress"
                                : "the server restarted or another member was promoted since, "
                                  "and the id may have been reused");
            return GC_XACT_UNKNOWN;
        }
        /* The old session may not have ended yet on that server. */
        struct timespec pause = { .tv_sec = 0, .tv_nsec = 50 * 1000000L };
        nanosleep(&pause, NULL);
        waited_ms += 50;
    }
}
