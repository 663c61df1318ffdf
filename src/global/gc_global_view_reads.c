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
#include <string.h>
#include <strings.h>

#include "global/gc_ddl.h"
#include "global/gc_global_internal.h"
#include "sql/gc_sql_table_refs.h"
#include "util/gc_strbuf.h"

#define NAMED_MAX 16

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

/* Whether ref is qualified by a system schema, whose views read only
 * catalogs (the driver's own catalog queries name them so). */
static bool in_system_schema(const char *sql, const gc_sql_table_ref *ref)
{
    static const char *const schemas[] = { "pg_catalog.", "information_schema." };
    size_t len = ref->name_offset - ref->offset;
    for (size_t k = 0; ref->qualified && k < sizeof schemas / sizeof schemas[0]; k++)
        if (len == strlen(schemas[k]) && strncasecmp(sql + ref->offset, schemas[k], len) == 0)
            return true;
    return false;
}

/* The relations sql names that the shard map does not know (byte spans of
 * sql, up to NAMED_MAX): those that may be views. Their number. */
static int unknown_names(gc_global *g, const char *sql, gc_ddl_span names[NAMED_MAX])
{
    gc_sql_table_ref refs[NAMED_MAX];
    int n = gc_sql_table_refs(sql, strlen(sql), refs, NAMED_MAX), n_unknown = 0;
    for (int k = 0; k < n && k < NAMED_MAX; k++)
        if (!in_system_schema(sql, &refs[k]) &&
            gc_global_table_named(g, sql + refs[k].offset, refs[k].length) == NULL)
            names[n_unknown++] = (gc_ddl_span){ refs[k].offset, refs[k].offset + refs[k].length };
    return n_unknown;
}

PGresult *gc_global_views_read(gc_global *g, int member, const char *sql)
{
    gc_member *m = g->members[member];
    gc_ddl_span names[NAMED_MAX];
    int n = unknown_names(g, sql, names);
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
