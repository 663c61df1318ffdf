/*
 * gcctl_sequences: see gcctl_sequences.h.
 */
#include "gcctl_sequences.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcctl_conn.h"

/* The sequences owned by columns of a table ($1, a qualified name): the
 * column, the sequence, its step. */
static const char owned_sql[] =
    "SELECT a.attname, d.objid::pg_catalog.regclass::text, q.seqincrement"
    " FROM pg_catalog.pg_depend d"
    " JOIN pg_catalog.pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid"
    " JOIN pg_catalog.pg_sequence q ON q.seqrelid = d.objid"
    " WHERE " GC_SQL_DEPEND_OWNS_SEQUENCE("d")
    "   AND d.refobjid = pg_catalog.to_regclass($1)"
    " ORDER BY a.attname";

/* One group's copy of one column's sequence. */
typedef struct copy {
    const char *name;     /* in its group's owned_sql result */
    long long step, last;
    bool called;
} copy;

/* The value the copy hands out next. */
static long long next_value(const copy *c)
{
    return c->called ? c->last + c->step : c->last;
}

static bool read_state(const gcctl_sequence_group *g, copy *c, gc_error *err)
{
    char sql[512];
    snprintf(sql, sizeof sql, "SELECT last_value, is_called FROM %s", c->name);
    PGresult *r = gcctl_query(g->conn, g->who, sql, 0, NULL, err);
    if (r == NULL)
        return false;
    c->last = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    c->called = strcmp(PQgetvalue(r, 0, 1), "t") == 0;
    PQclear(r);
    return true;
}

/* Brings one column's copies (copies[i] on groups[i]) into the interleave,
 * unless they already are. */
static bool interleave_column(const gcctl_sequence_group *groups, copy *copies, size_t n,
                              bool *changed, gc_error *err)
{
    bool in_place = true, any_called = false;
    long long highest = 0;
    for (size_t i = 0; i < n; i++) {
        if (!read_state(&groups[i], &copies[i], err))
            return false;
        long long slot = (long long)(i + 1) % GC_SEQUENCE_STRIDE;
        in_place = in_place && copies[i].step == GC_SEQUENCE_STRIDE &&
                   next_value(&copies[i]) % GC_SEQUENCE_STRIDE == slot;
        any_called = any_called || copies[i].called;
        if (copies[i].last > highest)
            highest = copies[i].last;
    }
    if (in_place)
        return true;
    /* Above every value any copy may have handed out; a sequence never
     * drawn from anywhere starts at its group's position. */
    long long base = any_called ? (highest / GC_SEQUENCE_STRIDE + 1) * GC_SEQUENCE_STRIDE : 0;
    for (size_t i = 0; i < n; i++) {
        char sql[512];
        snprintf(sql, sizeof sql, "ALTER SEQUENCE %s INCREMENT BY %d RESTART WITH %lld",
                 copies[i].name, GC_SEQUENCE_STRIDE, base + (long long)i + 1);
        if (!gcctl_exec(groups[i].conn, groups[i].who, sql, err))
            return false;
    }
    *changed = true;
    return true;
}

/* Row of res whose first column is `column`, or -1. */
static int row_of(const PGresult *res, const char *column)
{
    for (int r = 0; r < PQntuples(res); r++)
        if (strcmp(PQgetvalue(res, r, 0), column) == 0)
            return r;
    return -1;
}

static bool interleave_table(const gcctl_table *t, const gcctl_sequence_group *groups, size_t n,
                             bool *changed, gc_error *err)
{
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    gc_strbuf_append_str(&sb, "public.");
    gcctl_sb_ident(&sb, t->name);
    char *qualified = gcctl_sb_take(&sb);
    const char *params[1] = { qualified };
    PGresult **owned = gcctl_xcalloc(n, sizeof *owned);
    copy *copies = gcctl_xcalloc(n, sizeof *copies);
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++)
        ok = (owned[i] = gcctl_query(groups[i].conn, groups[i].who, owned_sql, 1, params, err)) != NULL;
    /* Each column the first group's parent has a sequence for; a group whose
     * parent lacks it (a table changed by hand) leaves the column alone. */
    for (int r = 0; ok && r < PQntuples(owned[0]); r++) {
        const char *column = PQgetvalue(owned[0], r, 0);
        bool everywhere = true;
        for (size_t i = 0; i < n && everywhere; i++) {
            int at = row_of(owned[i], column);
            everywhere = at >= 0;
            if (everywhere) {
                copies[i].name = PQgetvalue(owned[i], at, 1);
                copies[i].step = strtoll(PQgetvalue(owned[i], at, 2), NULL, 10);
            }
        }
        if (everywhere)
            ok = interleave_column(groups, copies, n, changed, err);
    }
    for (size_t i = 0; i < n; i++)
        PQclear(owned[i]);
    free(owned);
    free(copies);
    free(qualified);
    return ok;
}

bool gcctl_sequences_interleave(const gcctl_spec *spec, const gcctl_sequence_group *groups,
                                size_t n, bool *changed, gc_error *err)
{
    for (size_t i = 0; i < spec->ntables; i++)
        if (spec->tables[i].method != GCCTL_SOLO &&
            !interleave_table(&spec->tables[i], groups, n, changed, err))
            return false;
    return true;
}
