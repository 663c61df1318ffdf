/*
 * gc_ddl_sequences: a cluster-wide DDL that makes a sequence (CREATE
 * SEQUENCE, a serial or identity column of a sharded parent) makes it on
 * every group, and each group's copy would count 1, 2, 3 on its own: a
 * value drawn on one group would come again from another. In the DDL's
 * own transaction, each group's copy is set to step by 100 from the
 * group's position, the interleave gcctl gives a sharded table's
 * sequences (tools/gcctl/gcctl_sequences.c), so gcctl later finds them in
 * place.
 */
#include <stdio.h>
#include <stdlib.h>

#include "global/gc_ddl.h"
#include "util/gc_strbuf.h"

/* Must match GCCTL_SEQUENCE_STRIDE. */
#define STRIDE 100

/* The sequences of the plan on this group: name, step, MAXVALUE, the last
 * value handed out (NULL: none yet), and the group's slot (its catalog
 * position + 1). */
static char *targets_sql(const gc_ddl_plan *plan)
{
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    gc_strbuf_append_str(&sb,
        "SELECT s.seqrelid::pg_catalog.regclass::text, s.seqincrement, s.seqmax,"
        " pg_catalog.pg_sequence_last_value(s.seqrelid),"
        " (SELECT g.position + 1 FROM gcluster.groups g"
        "  JOIN gcluster.cluster c ON c.local_group = g.name)"
        " FROM pg_catalog.pg_sequence s WHERE ");
    if (plan->sequences == GC_DDL_SEQ_NAMED) {
        gc_strbuf_append_str(&sb, "s.seqrelid = pg_catalog.to_regclass(");
        gc_ddl_append_literal(&sb, plan->sequences_of);
        gc_strbuf_append_str(&sb, ")");
    } else {
        gc_strbuf_append_str(&sb,
            "s.seqrelid IN (SELECT d.objid FROM pg_catalog.pg_depend d"
            " JOIN pg_catalog.pg_class t ON t.oid = d.refobjid AND t.relkind = 'p'"
            " WHERE d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass"
            " AND d.refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass"
            " AND d.deptype IN ('a', 'i') AND d.refobjid = pg_catalog.to_regclass(");
        gc_ddl_append_literal(&sb, plan->sequences_of);
        gc_strbuf_append_str(&sb, "))");
    }
    return gc_strbuf_take(&sb);
}

bool gc_ddl_interleave_sequences(gc_member *m, const gc_ddl_plan *plan, gc_error *err)
{
    if (plan->sequences == GC_DDL_SEQ_NONE)
        return true;
    char *sql = targets_sql(plan);
    if (sql == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    PGresult *r = gc_member_exec(m, sql, err);
    free(sql);
    if (r == NULL)
        return false;
    bool ok = true;
    for (int row = 0; row < PQntuples(r) && ok; row++) {
        long long step = strtoll(PQgetvalue(r, row, 1), NULL, 10);
        long long max = strtoll(PQgetvalue(r, row, 2), NULL, 10);
        if (PQgetisnull(r, row, 4) || step <= 0 || step == STRIDE)
            continue;    /* no catalog slot, counting down, or in place */
        long long slot = strtoll(PQgetvalue(r, row, 4), NULL, 10);
        /* A copy that handed out values (ADD COLUMN filled the rows) goes on
         * above them. */
        long long base = 0;
        if (!PQgetisnull(r, row, 3))
            base = (strtoll(PQgetvalue(r, row, 3), NULL, 10) / STRIDE + 1) * STRIDE;
        long long restart = base + slot;
        if (restart > max)
            continue;
        char alter[512];
        snprintf(alter, sizeof alter, "ALTER SEQUENCE %s INCREMENT BY %d RESTART WITH %lld",
                 PQgetvalue(r, row, 0), STRIDE, restart);
        PGresult *done = gc_member_exec(m, alter, err);
        ok = done != NULL;
        PQclear(done);
    }
    PQclear(r);
    return ok;
}
