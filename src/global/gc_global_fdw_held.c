/*
 * gc_global_fdw_held: which members of the open transaction really hold a
 * postgres_fdw transaction, asked of their servers at COMMIT.
 *
 * Routing counts the members that may have read another group through
 * postgres_fdw (n_reaching) from the SQL text alone, so it counts some that
 * did not: a statement on a view or a table the shard map does not know, a
 * statement that failed before it read anything. PostgreSQL refuses to
 * PREPARE only a part that holds a postgres_fdw transaction; when the text
 * says "two or more" the servers can tell which one does, and that one
 * decides the commit (gc_global_spread.c, choose_decider).
 */
#include <stdlib.h>
#include <string.h>

#include "global/gc_global_internal.h"
#include "global/gc_temp_tables.h"

/* One round trip. postgres_fdw_disconnect_all() closes every cached
 * connection the transaction has not used, so those still listed after it
 * are the ones it holds. The functions are found in postgres_fdw's schema
 * (a search_path set for these statements only); all of it runs in a
 * savepoint gone back to, its warnings ("still in use") kept from the
 * application. The idle connections it closes cost a reconnect at their
 * next use. */
static const char held_sql[] =
    "SAVEPOINT gc_fdw_held; SET LOCAL client_min_messages = error; "
    "SELECT pg_catalog.set_config('search_path', coalesce((SELECT "
    "pg_catalog.quote_ident(n.nspname) FROM pg_catalog.pg_extension e "
    "JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace "
    "WHERE e.extname = 'postgres_fdw'), 'pg_catalog'), true); "
    "SELECT postgres_fdw_disconnect_all(); "
    "SELECT count(*) FROM postgres_fdw_get_connections(); "
    "ROLLBACK TO SAVEPOINT gc_fdw_held; RELEASE SAVEPOINT gc_fdw_held";

/* 1 when member i's session holds a postgres_fdw transaction, 0 when not,
 * -1 when it cannot be told (a database without postgres_fdw holds none,
 * but then this cluster has no foreign tables to read either). */
static int holds_fdw_transaction(gc_global *g, int i)
{
    gc_member *m = g->members[i];
    if (!gc_member_is_open(m) || gc_member_txn_status(m) != PQTRANS_INTRANS)
        return -1;
    gc_error err;
    gc_error_clear(&err);
    PGresult *rows[3];
    if (!gc_member_exec_rows(m, held_sql, rows, 3, &err)) {
        gc_error ignored;
        gc_error_clear(&ignored);
        if (gc_member_is_open(m) && gc_member_txn_status(m) == PQTRANS_INERROR)
            PQclear(gc_member_exec(m, "ROLLBACK TO SAVEPOINT gc_fdw_held; "
                                      "RELEASE SAVEPOINT gc_fdw_held", &ignored));
        gc_trace_write(g->trace, GC_TRACE_INFO, "member %s could not say whether it holds a "
                       "postgres_fdw transaction: %s", g->topo.members[i].name, err.message);
        return -1;
    }
    int held = PQntuples(rows[2]) == 1 && atol(PQgetvalue(rows[2], 0, 0)) > 0;
    for (int k = 0; k < 3; k++)
        PQclear(rows[k]);
    return held;
}

void gc_global_settle_reaching(gc_global *g)
{
    /* A temporary table also stops a PREPARE, which no server view shows. */
    if (g->n_reaching < 2 || g->pinned < 0 || g->n_joined == 0 ||
        g->txn_ddl_coordinator_decides || gc_temp_tables_count(g->temps) > 0)
        return;
    int n_held = 0, held = -1;
    for (int k = -1; k < g->n_joined && n_held < 2; k++) {
        int i = k < 0 ? g->pinned : g->joined[k];
        int h = holds_fdw_transaction(g, i);
        if (h < 0)
            return;   /* as before: the PREPAREs will tell */
        if (h > 0) {
            n_held++;
            held = i;
        }
    }
    if (n_held > 1) {    /* the PREPAREs of both will fail: no need to ask on */
        gc_trace_write(g->trace, GC_TRACE_INFO, "members that hold a postgres_fdw "
                       "transaction, asked at COMMIT: two or more");
        return;
    }
    gc_trace_write(g->trace, GC_TRACE_INFO, "members that hold a postgres_fdw transaction, "
                   "asked at COMMIT: %d%s%s", n_held, n_held == 1 ? ", " : "",
                   n_held == 1 ? g->topo.members[held].name : "");
    g->n_reaching = n_held;
    g->reaching = held;
}
