/*
 * gc_ddl_remote_reads: ALTER TABLE or DROP, in a transaction, of a table
 * the transaction already read through postgres_fdw (docs/global-connection.md,
 * "DDL in a transaction"). postgres_fdw's session on the table's group
 * holds the read's lock there until the transaction ends, and the DDL
 * needs the table's ACCESS EXCLUSIVE lock on that group: it would wait for
 * the transaction itself, for ever. The member that read holds a lock on
 * its foreign table (a solo table's twin, or a partition of another group)
 * for as long, so each member of the transaction is asked before anything
 * runs, and the DDL is refused as PostgreSQL refuses DDL of a table its
 * own session is still using. DROP INDEX locks its table the same way;
 * the index exists only where the table is a plain table, so its table is
 * asked of the groups' primaries first.
 */
#include <stdlib.h>
#include <string.h>

#include "global/gc_ddl.h"
#include "util/gc_strbuf.h"

/* The tables named (with their partitions) a member of the transaction
 * locked by reading or writing them through their foreign tables: a
 * scan's or a write's lock, not DDL's own on the twin. */
#define Q_NAMES                                                                \
    "SELECT pg_catalog.string_agg(DISTINCT c.relname, ', ') FROM pg_catalog.unnest(ARRAY["
#define Q_TREE                                                                 \
    "]::text[]) AS r(name)"                                                  \
    " CROSS JOIN LATERAL (SELECT pg_catalog.to_regclass(r.name) AS relid"     \
    "  UNION SELECT p.relid FROM"                                             \
    "  pg_catalog.pg_partition_tree(pg_catalog.to_regclass(r.name)) p) t"
#define Q_MEMBER_LOCKS                                                         \
    Q_TREE                                                                   \
    " JOIN pg_catalog.pg_class c ON c.oid = t.relid AND c.relkind = 'f'"     \
    " JOIN pg_catalog.pg_locks l ON l.locktype = 'relation' AND l.relation = t.relid" \
    "  AND l.pid = pg_catalog.pg_backend_pid()"                              \
    "  AND l.mode IN ('AccessShareLock', 'RowShareLock', 'RowExclusiveLock')"
/* ... and on a group's primary, whether another session (postgres_fdw's,
 * reading for a member) holds a lock on the tables themselves. A member's
 * lock on its foreign table alone proves no read: parsing a CREATE VIEW
 * or describing a statement takes it without reaching the other group. */
#define Q_OWNER_LOCKS                                                          \
    Q_TREE                                                                   \
    " JOIN pg_catalog.pg_class c ON c.oid = t.relid AND c.relkind IN ('r', 'p')" \
    " JOIN pg_catalog.pg_locks l ON l.locktype = 'relation' AND l.relation = t.relid" \
    "  AND l.granted AND l.pid <> pg_catalog.pg_backend_pid()"

/* The tables a statement locks exclusively: the names written in its
 * text at spans, or one name as a literal. */
typedef struct locked_names {
    const char *sql;
    const gc_ddl_span *spans;
    int n_spans;
    const char *literal;
} locked_names;

/* The names plan's DDL locks exclusively (or `table` when it is not
 * NULL); none when it locks none. */
static locked_names names_of_plan(const char *sql, const gc_ddl_plan *plan, const char *table)
{
    if (table != NULL)
        return (locked_names){ .literal = table };
    if (plan->n_drop > 0)
        return (locked_names){ .sql = sql, .spans = plan->drop_names, .n_spans = plan->n_drop };
    if (plan->locks_out_remote_reads && plan->target_as_written[0])
        return (locked_names){ .literal = plan->target_as_written };
    return (locked_names){ 0 };
}

/* The query (tail Q_MEMBER_LOCKS or Q_OWNER_LOCKS) for the names, or NULL
 * when there are none (or memory ran out: then nothing is checked).
 * Caller frees. */
static char *locked_query(locked_names names, const char *tail)
{
    if (names.literal == NULL && names.n_spans == 0)
        return NULL;
    gc_strbuf q;
    gc_strbuf_init(&q);
    gc_strbuf_append_str(&q, Q_NAMES);
    if (names.literal != NULL)
        gc_ddl_append_literal(&q, names.literal);
    else
        gc_ddl_append_names_array(&q, names.sql, names.spans, names.n_spans);
    gc_strbuf_append_str(&q, tail);
    return gc_strbuf_take(&q);
}

/* The tables a session answers q with (a malloc'd list), or NULL: none,
 * or *failed with err. */
static char *tables_answered(gc_member *m, const char *q, bool *failed, gc_error *err)
{
    PGresult *r = gc_member_exec(m, q, err);
    *failed = r == NULL;
    char *names = r != NULL && PQntuples(r) == 1 && !PQgetisnull(r, 0, 0)
                      ? strdup(PQgetvalue(r, 0, 0)) : NULL;
    PQclear(r);
    return names;
}

/* Whether another session holds a lock on the tables on one of the
 * groups' primaries (*failed with err when one could not be asked). */
static bool locked_on_a_primary(gc_member *const *primaries, int n, const char *q,
                                bool *failed, gc_error *err)
{
    for (int k = 0; k < n && !*failed; k++) {
        char *names = tables_answered(primaries[k], q, failed, err);
        free(names);
        if (names != NULL)
            return true;
    }
    return false;
}

/* False with err (55006) when a member of the open transaction read one
 * of the tables named through postgres_fdw: its foreign table is locked
 * by a scan there, and a session on one of the groups' primaries holds a
 * lock on the table, which the statement would wait for until the
 * transaction ends. */
static bool no_member_read(gc_global *g, gc_member *const *primaries, int n,
                           locked_names names, gc_error *err)
{
    if (gc_global_pinned_member(g) < 0 || !gc_global_may_have_reached_out(g))
        return true;
    char *q = locked_query(names, Q_MEMBER_LOCKS);
    if (q == NULL)
        return true;
    const gc_topology *t = gc_global_topology(g);
    bool failed = false;
    char *read_names = NULL;
    int reader = -1;
    for (int gi = 0; gi < t->n_groups && read_names == NULL && !failed; gi++) {
        int i = gc_global_transaction_member_of_group(g, gi);
        if (i >= 0 &&
            (read_names = tables_answered(gc_global_member(g, i), q, &failed, err)) != NULL)
            reader = i;
    }
    free(q);
    if (read_names == NULL)
        return !failed;
    bool read = false;
    if ((q = locked_query(names, Q_OWNER_LOCKS)) != NULL)
        read = locked_on_a_primary(primaries, n, q, &failed, err);
    free(q);
    if (read)
        gc_error_set(err, "55006", 0, "the transaction read %s through postgres_fdw on "
                     "member %s (group %s), whose session on the table's own group holds "
                     "that read's lock until the transaction ends: this statement would wait "
                     "for it for ever, so it was not run. Commit or roll back first, or "
                     "read and change the table in separate transactions", read_names,
                     t->members[reader].name, t->groups[t->members[reader].group].name);
    free(read_names);
    return !read && !failed;
}

bool gc_ddl_check_remote_reads(gc_global *g, gc_member *const *primaries, int n,
                               const char *sql, const gc_ddl_plan *plan, gc_error *err)
{
    return no_member_read(g, primaries, n, names_of_plan(sql, plan, NULL), err);
}

bool gc_ddl_check_names_remote_reads(gc_global *g, gc_member *const *primaries, int n,
                                     const char *sql, const gc_ddl_span *names, int n_names,
                                     gc_error *err)
{
    return no_member_read(g, primaries, n,
                          (locked_names){ .sql = sql, .spans = names, .n_spans = n_names }, err);
}

/* The table of the index named as written, as the group's primary m knows
 * it (schema-qualified, quoted as needed): a malloc'd name, or NULL with
 * *failed false when m has no such index. */
static char *index_table(gc_member *m, const char *index_as_written, bool *failed,
                         gc_error *err)
{
    PGresult *r = gc_ddl_ask_about(m, "SELECT i.indrelid::pg_catalog.regclass::text FROM "
                                      "pg_catalog.pg_index i WHERE i.indexrelid = "
                                      "pg_catalog.to_regclass(", index_as_written, err);
    *failed = r == NULL;
    char *table = r != NULL && PQntuples(r) == 1 ? strdup(PQgetvalue(r, 0, 0)) : NULL;
    PQclear(r);
    return table;
}

bool gc_ddl_check_index_remote_reads(gc_global *g, gc_member *const *primaries, int n,
                                     const gc_ddl_plan *plan, gc_error *err)
{
    if (!plan->drops_index || gc_global_pinned_member(g) < 0 ||
        !gc_global_may_have_reached_out(g))
        return true;
    /* The first group that knows the index names its table; any other
     * holding an index of that name has it on a table of the same name. */
    for (int k = 0; k < n; k++) {
        bool failed = false;
        char *table = index_table(primaries[k], plan->target_as_written, &failed, err);
        if (failed)
            return false;
        if (table == NULL)
            continue;
        bool ok = no_member_read(g, primaries, n, names_of_plan(NULL, plan, table), err);
        free(table);
        return ok;
    }
    return true;
}
