/*
 * gc_ddl_sequences: a cluster-wide DDL that makes a sequence (CREATE
 * SEQUENCE, a serial or identity column of a sharded parent) makes it on
 * every group, and each group's copy would count 1, 2, 3 on its own: a
 * value drawn on one group would come again from another. ALTER SEQUENCE
 * ... RESTART or INCREMENT BY, run on every copy alike, would do the same
 * to copies already apart. In the DDL's own transaction, each group's copy
 * is set to step by 100 from the group's position, the interleave gcctl
 * gives a sharded table's sequences (tools/gcctl/gcctl_sequences.c), so
 * gcctl later finds them in place.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "global/gc_ddl.h"
#include "global/gc_sequence_sql.h"
#include "util/gc_strbuf.h"

/* The sequences of the plan on this group: name, step, MAXVALUE, and the
 * group's slot (its catalog position + 1). */
static char *targets_sql(const gc_ddl_plan *plan)
{
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    gc_strbuf_append_str(&sb,
        "SELECT s.seqrelid::pg_catalog.regclass::text, s.seqincrement, s.seqmax,"
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
            " WHERE " GC_SQL_DEPEND_OWNS_SEQUENCE("d")
            " AND d.refobjid = pg_catalog.to_regclass(");
        gc_ddl_append_literal(&sb, plan->sequences_of);
        gc_strbuf_append_str(&sb, "))");
    }
    return gc_strbuf_take(&sb);
}

/* The value sequence `name` (step `step`) hands out next on m, into
 * *next; false with err when it cannot be read. */
static bool next_value(gc_member *m, const char *name, long long step, long long *next,
                       gc_error *err)
{
    char sql[512];
    snprintf(sql, sizeof sql, "SELECT last_value, is_called FROM %s", name);
    PGresult *r = gc_member_exec(m, sql, err);
    if (r == NULL)
        return false;
    long long last = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    bool called = strcmp(PQgetvalue(r, 0, 1), "t") == 0;
    PQclear(r);
    *next = called ? last + step : last;
    return true;
}

/* Brings one copy into the interleave unless it is in place. */
static bool interleave_one(gc_member *m, const char *name, long long step, long long max,
                           long long slot, gc_error *err)
{
    long long next;
    if (!next_value(m, name, step, &next, err))
        return false;
    long long residue = slot % GC_SEQUENCE_STRIDE, at = next % GC_SEQUENCE_STRIDE;
    long long off = ((residue - at) % GC_SEQUENCE_STRIDE + GC_SEQUENCE_STRIDE) % GC_SEQUENCE_STRIDE;
    if (step == GC_SEQUENCE_STRIDE && off == 0)
        return true;
    /* The first value at or above next that ends in the group's slot. */
    long long restart = next + off;
    if (restart > max)
        return true;
    char alter[512];
    snprintf(alter, sizeof alter, "ALTER SEQUENCE %s INCREMENT BY %d RESTART WITH %lld", name,
             GC_SEQUENCE_STRIDE, restart);
    PGresult *done = gc_member_exec(m, alter, err);
    PQclear(done);
    return done != NULL;
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
        if (PQgetisnull(r, row, 3) || step <= 0)
            continue;    /* no catalog slot, or counting down */
        ok = interleave_one(m, PQgetvalue(r, row, 0), step,
                            strtoll(PQgetvalue(r, row, 2), NULL, 10),
                            strtoll(PQgetvalue(r, row, 3), NULL, 10), err);
    }
    PQclear(r);
    return ok;
}
