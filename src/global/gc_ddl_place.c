/*
 * gc_ddl_place: foreign keys place tables together (docs/global-connection.md,
 * "Placement by foreign key"). A key can only reference a table whose rows
 * are on the same server: a new solo table whose keys reference solo tables
 * goes to their owner group, and a key that no one group can hold is
 * refused (0A000) before anything runs.
 *
 * Where a referenced table lives is asked of each group's primary (one
 * query per group, relkind of every name), not read from the shard map:
 * the map may be older than the table (a solo table another connection
 * made a moment ago), and the DDL talks to every primary anyway. A name
 * that is a plain table on one group and a foreign table elsewhere (a solo
 * table, or a shard named directly) constrains placement to the groups
 * where it is plain; a partitioned table (a sharded parent) has rows on
 * several groups and cannot be referenced; a plain table on every group,
 * or a name no group has (a self-reference, or PostgreSQL's own error to
 * come), does not constrain anything.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "global/gc_ddl.h"
#include "util/gc_strbuf.h"

/* What one referenced name is across the groups. */
typedef struct place_ref {
    char name[2 * GC_DDL_NAME_MAX + 8];
    bool sharded;        /* a partitioned table somewhere */
    bool constrains;     /* a foreign table on some group: its rows are elsewhere */
    unsigned long plain; /* bit k: a plain table on the k-th group asked */
} place_ref;

/* One group's relkind of every name: kinds[r] ('\0' when the name is not
 * there). One round trip. False with err. */
static bool ask_kinds(gc_member *m, const place_ref *refs, int n, char *kinds, gc_error *err)
{
    gc_strbuf q;
    gc_strbuf_init(&q);
    gc_strbuf_append_str(&q, "SELECT coalesce((SELECT relkind::text FROM pg_catalog.pg_class"
                             " WHERE oid = pg_catalog.to_regclass(n)), '')"
                             " FROM unnest(ARRAY[");
    for (int r = 0; r < n; r++) {
        if (r > 0)
            gc_strbuf_append_str(&q, ", ");
        gc_ddl_append_literal(&q, refs[r].name);
    }
    gc_strbuf_append_str(&q, "]::text[]) WITH ORDINALITY AS u(n, i) ORDER BY i");
    char *sql = gc_strbuf_take(&q);
    if (sql == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    PGresult *res = gc_member_exec(m, sql, err);
    free(sql);
    if (res == NULL)
        return false;
    bool ok = PQntuples(res) == n;
    for (int r = 0; r < n && ok; r++)
        kinds[r] = PQgetvalue(res, r, 0)[0];
    PQclear(res);
    if (!ok)
        gc_error_set(err, "HY000", 0, "unexpected answer to the question where the "
                     "referenced tables are");
    return ok;
}

/* Reads the statement's REFERENCES names and asks every group what each
 * is there. *n gets how many (0: nothing to check). False with err. */
static bool find_refs(const gc_ddl_places *p, const char *sql, place_ref *refs, int *n,
                      gc_error *err)
{
    gc_ddl_span spans[GC_DDL_MAX_REFERENCES];
    *n = gc_ddl_references(sql, spans, GC_DDL_MAX_REFERENCES);
    if (*n > 0 && p->n >= (int)(8 * sizeof refs[0].plain)) {
        gc_error_set(err, "0A000", 0, "feature not supported on a global connection: "
                     "foreign keys in a cluster of more than %d groups",
                     (int)(8 * sizeof refs[0].plain) - 1);
        return false;
    }
    if (*n < 0) {
        gc_error_set(err, "0A000", 0, "feature not supported on a global connection: more "
                     "than %d REFERENCES in one statement; add the other foreign keys with "
                     "ALTER TABLE", GC_DDL_MAX_REFERENCES);
        return false;
    }
    for (int r = 0; r < *n; r++) {
        size_t len = spans[r].end - spans[r].start;
        if (len >= sizeof refs[r].name)
            len = sizeof refs[r].name - 1;
        memcpy(refs[r].name, sql + spans[r].start, len);
        refs[r].name[len] = '\0';
        refs[r].sharded = refs[r].constrains = false;
        refs[r].plain = 0;
    }
    if (*n == 0)
        return true;
    for (int k = 0; k < p->n; k++) {
        char kinds[GC_DDL_MAX_REFERENCES];
        if (!ask_kinds(p->sessions[k], refs, *n, kinds, err))
            return false;
        for (int r = 0; r < *n; r++) {
            refs[r].sharded |= kinds[r] == 'p';
            refs[r].constrains |= kinds[r] == 'f';
            if (kinds[r] == 'r')
                refs[r].plain |= 1UL << k;
        }
    }
    return true;
}

/* Appends the names of the groups whose bit is set in mask ("G1, G2",
 * "no group" when none). */
static void append_groups(gc_strbuf *sb, const gc_ddl_places *p, unsigned long mask)
{
    bool first = true;
    for (int k = 0; k < p->n; k++) {
        if ((mask & (1UL << k)) == 0)
            continue;
        gc_strbuf_appendf(sb, "%s%s", first ? "" : ", ", p->topology->groups[p->group_of[k]].name);
        first = false;
    }
    if (first)
        gc_strbuf_append_str(sb, "no group");
}

/* Sets err to 0A000 with text built in sb (taken). */
static void refuse_built(gc_strbuf *sb, gc_error *err)
{
    char *text = gc_strbuf_take(sb);
    gc_error_set(err, "0A000", 0, "feature not supported on a global connection: %s",
                 text != NULL ? text : "a foreign key cannot be placed");
    free(text);
}

/* The refusal of a key to a sharded table. */
static void refuse_sharded(const char *table, const place_ref *ref, gc_error *err)
{
    gc_error_set(err, "0A000", 0, "feature not supported on a global connection: %s has a "
                 "foreign key to %s, a sharded table whose rows live on several groups, "
                 "and a key can only reference rows on its own group; leave the foreign key "
                 "out (check the reference in the application or with a trigger)",
                 table, ref->name);
}

bool gc_ddl_place_solo(const gc_ddl_places *p, const char *sql, const char *table, int *owner,
                       gc_error *err)
{
    place_ref refs[GC_DDL_MAX_REFERENCES];
    int n;
    if (!find_refs(p, sql, refs, &n, err))
        return false;
    unsigned long allowed = ~0UL;
    bool constrained = false;
    for (int r = 0; r < n; r++) {
        if (refs[r].sharded) {
            refuse_sharded(table, &refs[r], err);
            return false;
        }
        if (refs[r].constrains) {
            allowed &= refs[r].plain;
            constrained = true;
        }
    }
    if (!constrained || (allowed & (1UL << *owner)) != 0)
        return true;   /* the policy's group holds every referenced table */
    for (int k = 0; k < p->n; k++) {
        if ((allowed & (1UL << k)) != 0) {
            *owner = k;
            return true;
        }
    }
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    gc_strbuf_appendf(&sb, "the foreign keys of the new table %s reference tables no one "
                      "group holds (", table);
    bool first = true;
    for (int r = 0; r < n; r++) {
        if (!refs[r].constrains)
            continue;
        gc_strbuf_appendf(&sb, "%s%s on ", first ? "" : "; ", refs[r].name);
        append_groups(&sb, p, refs[r].plain);
        first = false;
    }
    gc_strbuf_append_str(&sb, "), and a table lives on one group; reference tables of one "
                              "group only (move them together with gcctl), or leave the "
                              "other keys out");
    refuse_built(&sb, err);
    return false;
}

bool gc_ddl_place_check_alter(const gc_ddl_places *p, const char *sql, const char *table,
                              const char *kinds, gc_error *err)
{
    place_ref refs[GC_DDL_MAX_REFERENCES];
    int n;
    if (!find_refs(p, sql, refs, &n, err))
        return false;
    /* The key is made where the table is not a foreign table. */
    unsigned long runs_on = 0;
    for (int k = 0; k < p->n; k++)
        if (kinds[k] != 'f' && kinds[k] != '\0')
            runs_on |= 1UL << k;
    for (int r = 0; r < n; r++) {
        if (refs[r].sharded) {
            refuse_sharded(table, &refs[r], err);
            return false;
        }
        if (!refs[r].constrains || (runs_on & ~refs[r].plain) == 0)
            continue;
        gc_strbuf sb;
        gc_strbuf_init(&sb);
        gc_strbuf_appendf(&sb, "a foreign key from %s (a table on ", table);
        append_groups(&sb, p, runs_on);
        gc_strbuf_appendf(&sb, ") to %s (a table on ", refs[r].name);
        append_groups(&sb, p, refs[r].plain);
        gc_strbuf_append_str(&sb, " only) cannot hold: a key can only reference a table on "
                                  "its own group; put both tables on one group, or leave "
                                  "the key out");
        refuse_built(&sb, err);
        return false;
    }
    return true;
}
