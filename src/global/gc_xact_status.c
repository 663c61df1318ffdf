/*
 * gc_xact_status: resolving a COMMIT whose answer was lost. See
 * gc_xact_status.h.
 */
#include "global/gc_xact_status.h"

#include <assert.h>
#include <string.h>
#include <time.h>

gc_xact_outcome gc_xact_status_classify(const char *status)
{
    if (status == NULL)
        return GC_XACT_UNKNOWN;
    if (strcmp(status, "committed") == 0)
        return GC_XACT_COMMITTED;
    if (strcmp(status, "aborted") == 0)
        return GC_XACT_NOT_COMMITTED;
    return GC_XACT_UNKNOWN;    /* "in progress", or anything new */
}

const char *gc_xact_outcome_name(gc_xact_outcome outcome)
{
    switch (outcome) {
    case GC_XACT_COMMITTED: return "committed";
    case GC_XACT_NOT_COMMITTED: return "not committed";
    case GC_XACT_UNKNOWN: return "unknown";
    }
    return "unknown";
}

/* One question. Returns false with err filled when it could not be asked
 * or answered; else true with *in_progress or *outcome set. */
static bool ask_once(gc_member *m, const char *xid, gc_xact_outcome *outcome,
                     bool *in_progress, gc_error *err)
{
    const char *values[1] = { xid };
    if (!gc_member_send_query_params(m, "SELECT pg_xact_status($1::xid8)", 1, NULL, values,
                                     NULL, NULL, err))
        return false;
    PGresult *answer = NULL, *res;
    bool failed = false;
    while ((res = gc_member_next_result(m)) != NULL) {
        if (PQresultStatus(res) != PGRES_TUPLES_OK && !failed) {
            failed = true;
            gc_member_result_error(m, res, err);
        }
        if (answer == NULL && PQresultStatus(res) == PGRES_TUPLES_OK)
            answer = res;
        else
            PQclear(res);
    }
    if (failed && strcmp(err->sqlstate, "22023") == 0) {
        /* "transaction ID ... is in the future": this server (the group's
         * primary) never saw the id, so no commit of it exists here: lost
         * before a crash or a failover, it did not take effect. */
        PQclear(answer);
        *in_progress = false;
        *outcome = GC_XACT_NOT_COMMITTED;
        return true;
    }
    if (failed || answer == NULL || PQntuples(answer) != 1) {
        if (!failed)
            gc_error_set(err, "08007", 0, "no answer from pg_xact_status");
        PQclear(answer);
        return false;
    }
    const char *status = PQgetisnull(answer, 0, 0) ? NULL : PQgetvalue(answer, 0, 0);
    *in_progress = status != NULL && strcmp(status, "in progress") == 0;
    *outcome = gc_xact_status_classify(status);
    if (*outcome == GC_XACT_UNKNOWN && !*in_progress)
        gc_error_set(err, "08007", 0, "transaction %s: the server no longer knows its status", xid);
    PQclear(answer);
    return true;
}

gc_xact_outcome gc_xact_status_resolve(gc_member *primary, const char *xid,
                                       int in_progress_wait_ms, gc_error *err)
{
    assert(primary != NULL && err != NULL);
    gc_error_clear(err);
    if (xid == NULL || xid[0] == '\0') {
        gc_error_set(err, "08007", 0, "the transaction id was never learned");
        return GC_XACT_UNKNOWN;
    }
    /* The server's xid8 input accepts junk as 0 (PostgreSQL 15): check here. */
    if (strspn(xid, "0123456789") != strlen(xid) || strlen(xid) > 20) {
        gc_error_set(err, "08007", 0, "invalid transaction id \"%.40s\"", xid);
        return GC_XACT_UNKNOWN;
    }
    if (gc_member_get_role(primary) == GC_ROLE_STANDBY) {
        gc_error_set(err, "08007", 0, "member %s is a standby: it cannot tell whether "
                     "transaction %s committed", gc_member_name(primary) ? gc_member_name(primary) : "-", xid);
        return GC_XACT_UNKNOWN;
    }
    int waited_ms = 0;
    for (;;) {
        gc_xact_outcome outcome = GC_XACT_UNKNOWN;
        bool in_progress = false;
        if (!ask_once(primary, xid, &outcome, &in_progress, err))
            return GC_XACT_UNKNOWN;
        if (!in_progress) {
            if (outcome != GC_XACT_UNKNOWN)
                gc_error_clear(err);
            return outcome;
        }
        if (waited_ms >= in_progress_wait_ms) {
            gc_error_set(err, "08007", 0, "transaction %s is still in progress", xid);
            return GC_XACT_UNKNOWN;
        }
        /* The old session may not have noticed yet that its client is gone. */
        struct timespec pause = { .tv_sec = 0, .tv_nsec = 50 * 1000000L };
        nanosleep(&pause, NULL);
        waited_ms += 50;
    }
}
