/*
 * gc_global_view_reads: the tables a statement reads through the views it
 * names, asked of the member that will run it.
 *
 * The stale-read check (gc_global_stale_reads.c) reads table names in the
 * text; a view hides them. A view over a table the open transaction wrote
 * on another member reads that table through postgres_fdw on this member,
 * as the text naming the table would, and sees it as it was before the
 * transaction. So, only when the transaction wrote outside the member's
 * group and the text names relations the shard map does not know, the
 * member is asked which tables those views read, through views of views
 * too. A materialized view holds its own rows and reads nothing then.
 */
#include <stdlib.h>

#include "global/gc_ddl.h"
#include "global/gc_global_internal.h"
#include "util/gc_strbuf.h"

/* The relations named (an array of names as written, resolved by the
 * member's search_path) that are views, with every table they read,
 * directly or through other views: rows (view as written, table). */
#define Q_VIEWS_HEAD                                                            \
    "WITH RECURSIVE v(root, relid) AS ("                                       \
    " SELECT r.name, pg_catalog.to_regclass(r.name)::pg_catalog.oid"           \
    " FROM pg_catalog.unnest(ARRAY["
#define Q_VIEWS_TAIL                                                            \
    "]::text[]) AS r(name)"                                                    \
    " UNION SELECT v.root, d.refobjid FROM v"                                  \
    " JOIN pg_catalog.pg_class vc ON vc.oid = v.relid AND vc.relkind = 'v'"    \
    " JOIN pg_catalog.pg_rewrite w ON w.ev_class = v.relid"                    \
    " JOIN pg_catalog.pg_depend d"                                             \
    "  ON d.classid = 'pg_catalog.pg_rewrite'::pg_catalog.regclass"            \
    "  AND d.objid = w.oid"                                                    \
    "  AND d.refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass"          \
    "  AND d.refobjid <> v.relid)"                                             \
    " SELECT DISTINCT v.root, c.relname::text FROM v"                          \
    " JOIN pg_catalog.pg_class c ON c.oid = v.relid"                           \
    " WHERE c.relkind <> 'v' AND v.relid <> pg_catalog.to_regclass(v.root)"

PGresult *gc_global_views_read(gc_global *g, int member, const char *sql,
                               const gc_ddl_span *names, int n)
{
    gc_member *m = g->members[member];
    if (n == 0 || !gc_member_is_open(m))
        return NULL;
    /* A transaction the member has not begun yet (it joins for this
     * statement) needs no savepoint; an aborted one answers nothing. */
    PGTransactionStatusType status = gc_member_txn_status(m);
    if (status != PQTRANS_IDLE && status != PQTRANS_INTRANS)
        return NULL;
    /* In the transaction, a savepoint keeps a failure of the question
     * from aborting it; outside a transaction block none is needed. */
    bool in_block = status == PQTRANS_INTRANS;
    gc_strbuf q;
    gc_strbuf_init(&q);
    if (in_block)
        gc_strbuf_append_str(&q, "SAVEPOINT gc_view_reads; ");
    gc_strbuf_append_str(&q, Q_VIEWS_HEAD);
    gc_ddl_append_names_array(&q, sql, names, n);
    gc_strbuf_append_str(&q, Q_VIEWS_TAIL);
    if (in_block)
        gc_strbuf_append_str(&q, "; RELEASE SAVEPOINT gc_view_reads");
    char *query = gc_strbuf_take(&q);
    if (query == NULL)
        return NULL;
    gc_error err;
    gc_error_clear(&err);
    PGresult *rows = NULL;
    bool ok = gc_member_exec_rows(m, query, &rows, 1, &err);
    free(query);
    if (ok)
        return rows;
    /* A name the server cannot read: the statement gets its own answer. */
    if (gc_member_is_open(m) && gc_member_txn_status(m) == PQTRANS_INERROR)
        PQclear(gc_member_exec(m, "ROLLBACK TO SAVEPOINT gc_view_reads; "
                                  "RELEASE SAVEPOINT gc_view_reads", &err));
    gc_trace_write(g->trace, GC_TRACE_INFO, "member %s could not say what the views named "
                   "read: %s", g->topo.members[member].name, err.message);
    return NULL;
}
