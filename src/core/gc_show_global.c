/*
 * gc_show_global: SHOW GLOBAL CONNECTION, answered by the driver itself with
 * a client-built result: one row per member of a global connection; on a
 * general connection one row for its single server (named host:port, no
 * group), so the same monitoring query works on both (docs/global-connection.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gc_convert.h"
#include "core/gc_stmt.h"
#include "global/gc_global.h"
#include "sql/gc_sql_lexer.h"

bool gc_show_global_matches(const char *sql, size_t len)
{
    static const char *const words[] = { "SHOW", "GLOBAL", "CONNECTION" };
    return gc_sql_text_is_words(sql, len, words, sizeof words / sizeof words[0]);
}

static const char *role_text(gc_member_role r)
{
    return r == GC_ROLE_PRIMARY ? "primary" : r == GC_ROLE_STANDBY ? "standby" : "unknown";
}

static const char *state_text(gc_member_state s)
{
    return s == GC_MEMBER_UP ? "up" : s == GC_MEMBER_DOWN ? "down" : "unknown";
}

/* Fills one row; NULL strings are SQL NULL. */
static bool put_row(PGresult *res, int row, const char *name, const char *group,
                    const gc_member *m, const gc_global_member_stats *st)
{
    char counts[3][24];
    snprintf(counts[0], sizeof counts[0], "%lu", st->routed_by_key);
    snprintf(counts[1], sizeof counts[1], "%lu", st->routed_by_policy);
    snprintf(counts[2], sizeof counts[2], "%lu", st->errors);
    const char *v[7] = { name, group, role_text(gc_member_get_role(m)),
                         state_text(gc_member_get_state(m)), counts[0], counts[1],
                         counts[2] };
    for (int f = 0; f < 7; f++) {
        if (!PQsetvalue(res, row, f, (char *)v[f], v[f] != NULL ? (int)strlen(v[f]) : -1))
            return false;
    }
    return true;
}

/* The longest of n values, at least 1: a column is described as wide as
 * its longest value, so applications (isql) draw it no wider than needed. */
static int widest(const char *const *values, int n)
{
    size_t w = 1;
    for (int i = 0; i < n; i++)
        if (values[i] != NULL && strlen(values[i]) > w)
            w = strlen(values[i]);
    return (int)w;
}

/* An empty result with the seven columns; the text columns are varchar of
 * the given widths (MEMBER_NAME, GROUP_NAME). NULL on out-of-memory. */
static PGresult *empty_result(int name_width, int group_width)
{
    static const char *names[7] = { "MEMBER_NAME", "GROUP_NAME", "ROLE", "STATE",
                                    "ROUTED_BY_KEY", "ROUTED_BY_POLICY", "ERRORS" };
    /* ROLE and STATE: "primary", "standby", "unknown", "up", "down". */
    const int text_width[4] = { name_width, group_width, 7, 7 };
    PGresAttDesc attrs[7];
    memset(attrs, 0, sizeof attrs);
    for (int f = 0; f < 7; f++) {
        attrs[f].name = (char *)names[f];
        attrs[f].typid = f < 4 ? GC_OID_VARCHAR : GC_OID_INT8;
        attrs[f].typlen = f < 4 ? -1 : 8;
        attrs[f].atttypmod = f < 4 ? text_width[f] + 4 : -1;   /* varchar typmod: n + header */
    }
    PGresult *res = PQmakeEmptyPGresult(NULL, PGRES_TUPLES_OK);
    if (res == NULL || !PQsetResultAttrs(res, 7, attrs)) {
        PQclear(res);
        return NULL;
    }
    return res;
}

/* A general connection's one row: its server as host:port (no group); it
 * routes nothing, so its counters stay 0. */
static PGresult *general_result(gc_conn *c)
{
    gc_global_member_stats none = { 0 };
    char *host = NULL, *port = NULL;
    gc_error err;
    gc_error_clear(&err);
    char name[300];
    if (gc_settings_first_server(&c->settings, &host, &port, &err))
        snprintf(name, sizeof name, "%s:%s", host, port);
    else
        snprintf(name, sizeof name, "%s", gc_member_host(c->session));
    free(host);
    free(port);
    const char *value = name;
    PGresult *res = empty_result(widest(&value, 1), 1);
    if (res != NULL && !put_row(res, 0, name, NULL, c->session, &none)) {
        PQclear(res);
        return NULL;
    }
    return res;
}

PGresult *gc_show_global_result(gc_conn *c)
{
    if (c->global == NULL)
        return general_result(c);
    const gc_topology *t = gc_global_topology(c->global);
    const char *member_names[t->n_members > 0 ? t->n_members : 1];
    const char *group_names[t->n_groups > 0 ? t->n_groups : 1];
    for (int i = 0; i < t->n_members; i++)
        member_names[i] = t->members[i].name;
    for (int g = 0; g < t->n_groups; g++)
        group_names[g] = t->groups[g].name;
    PGresult *res = empty_result(widest(member_names, t->n_members),
                                 widest(group_names, t->n_groups));
    bool ok = res != NULL;
    for (int i = 0; ok && i < t->n_members; i++) {
        gc_global_member_stats st = gc_global_stats(c->global, i);
        ok = put_row(res, i, t->members[i].name, t->groups[t->members[i].group].name,
                     gc_global_member(c->global, i), &st);
    }
    if (!ok) {
        PQclear(res);
        return NULL;
    }
    return res;
}
