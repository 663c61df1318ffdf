/*
 * gc_global_savepoint: the application's SAVEPOINT and ROLLBACK TO SAVEPOINT
 * in a transaction that holds members of several groups (gc_global.h,
 * "transactions across groups"; docs/global-connection.md).
 *
 * A savepoint is set on every member the transaction holds at that moment,
 * so going back to it is right on each of them as long as no member joined
 * after the transaction's first savepoint: a member that joined later has
 * work no savepoint of its own covers, and the statement is then refused.
 * RELEASE needs nothing beyond the pin: a savepoint left on a joined member
 * ends with its transaction.
 */
#include "global/gc_global_internal.h"
#include "sql/gc_sql_lexer.h"

#include <string.h>

typedef enum savepoint_kind { SAVEPOINT_SET, SAVEPOINT_ROLLBACK_TO, SAVEPOINT_OTHER } savepoint_kind;

static savepoint_kind kind_of(const char *sql)
{
    gc_sql_lexer lx;
    gc_sql_token tok;
    gc_sql_lexer_init(&lx, sql, strlen(sql));
    if (!gc_sql_lexer_next_code(&lx, &tok))
        return SAVEPOINT_OTHER;
    if (gc_sql_token_is_keyword(&lx, &tok, "SAVEPOINT"))
        return SAVEPOINT_SET;
    return gc_sql_token_is_keyword(&lx, &tok, "ROLLBACK") ? SAVEPOINT_ROLLBACK_TO
                                                          : SAVEPOINT_OTHER;
}

/* Runs sql on every joined member. One that refuses it (a savepoint name
 * never set, a broken session) has its part aborted, which no savepoint of
 * the pin can mend: the whole transaction is rolled back, and err says so. */
static bool run_on_joined(gc_global *g, const char *sql, gc_error *err)
{
    for (int k = 0; k < g->n_joined; k++) {
        int i = g->joined[k];
        gc_error e;
        gc_error_clear(&e);
        PGresult *r = gc_member_exec(g->members[i], sql, &e);
        if (r == NULL) {
            gc_error_set(err, e.sqlstate, e.native,
                         "member %s, which the transaction joined: %s; the transaction was "
                         "rolled back on every group", g->topo.members[i].name, e.message);
            gc_global_rollback_transaction(g);
            return false;
        }
        PQclear(r);
    }
    return true;
}

bool gc_global_savepoint_before(gc_global *g, const char *sql, bool several, gc_error *err)
{
    switch (kind_of(sql)) {
    case SAVEPOINT_SET:
        /* The rest of a text of several statements must not run on the
         * joined members: the savepoint is the pin's alone, so going back
         * to any savepoint is refused once a member is joined. */
        if (several)
            g->savepoint_joined = 0;
        else if (g->savepoint_joined < 0)
            g->savepoint_joined = g->n_joined;
        return several || run_on_joined(g, sql, err);
    case SAVEPOINT_ROLLBACK_TO:
        if (g->n_joined == 0)
            return true;
        if (several) {
            gc_error_set(err, "0A000", GC_GLOBAL_NATIVE_SPANNING_WRITE,
                         "ROLLBACK TO SAVEPOINT in a text of several statements is not "
                         "supported in a transaction that joined another group's member: "
                         "send it on its own");
            return false;
        }
        /* No savepoint set in this transaction: the pin says so (3B001). */
        if (g->savepoint_joined < 0)
            return true;
        if (g->n_joined > g->savepoint_joined) {
            gc_error_set(err, "0A000", GC_GLOBAL_NATIVE_SPANNING_WRITE,
                         "ROLLBACK TO SAVEPOINT is not supported after the transaction joined "
                         "another group's member (a write there, or DDL) following its first "
                         "savepoint: that member's work has no savepoint; roll back the "
                         "transaction instead");
            return false;
        }
        return run_on_joined(g, sql, err);
    case SAVEPOINT_OTHER:
        break;
    }
    return true;
}
