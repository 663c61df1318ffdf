/*
 * gc_show_global: SHOW GLOBAL CONNECTION, answered by the driver itself with
 * a client-built result: one row per member of a global connection; on a
 * general connection one row for its single server (named host:port, no
 * group), so the same monitoring query works on both (docs/global-connection.md).
 * Its companion SHOW GLOBAL SESSION shows the shared member sessions of the
 * global session (GlobalSession=Yes), one row per member.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert/gc_convert.h"
#include "core/gc_conn_kind.h"
#include "core/gc_stmt.h"
#include "global/gc_global.h"
#include "global/gc_session_pool.h"
#include "sql/gc_sql_lexer.h"

bool gc_show_global_matches(const char *sql, size_t len)
{
    static const char *const words[] = { "SHOW", "GLOBAL", "CONNECTION" };
    static const char *const session_words[] = { "SHOW", "GLOBAL", "SESSION" };
    return gc_sql_text_is_words(sql, len, words, sizeof words / sizeof words[0]) ||
           gc_sql_text_is_words(sql, len, session_words, 3);
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
                    gc_session *m, const gc_global_member_stats *st)
{
    char counts[3][24];
    snprintf(counts[0], sizeof counts[0], "%lu", st->routed_by_key);
    snprintf(counts[1], sizeof counts[1], "%lu", st->routed_by_policy);
    snprintf(counts[2], sizeof counts[2], "%lu", st->errors);
    const char *v[7] = { name, group, role_text(gc_session_get_role(m)),
                         state_text(gc_session_get_state(m)), counts[0], counts[1],
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

/* An empty result with n columns: the first n_text varchar of the given
 * widths, the others bigint. NULL on out-of-memory. */
static PGresult *make_result(const char *const *names, int n, int n_text,
                             const int *text_width)
{
    PGresAttDesc attrs[16];
    if (n > 16)
        return NULL;
    memset(attrs, 0, sizeof attrs);
    for (int f = 0; f < n; f++) {
        attrs[f].name = (char *)names[f];
        attrs[f].typid = f < n_text ? GC_OID_VARCHAR : GC_OID_INT8;
        attrs[f].typlen = f < n_text ? -1 : 8;
        /* varchar typmod: n + header */
        attrs[f].atttypmod = f < n_text ? text_width[f] + 4 : -1;
    }
    PGresult *res = PQmakeEmptyPGresult(NULL, PGRES_TUPLES_OK);
    if (res == NULL || !PQsetResultAttrs(res, n, attrs)) {
        PQclear(res);
        return NULL;
    }
    return res;
}

/* SHOW GLOBAL CONNECTION's seven columns; the text columns are varchar of
 * the given widths (MEMBER_NAME, GROUP_NAME). NULL on out-of-memory. */
static PGresult *empty_result(int name_width, int group_width)
{
    static const char *const names[7] = { "MEMBER_NAME", "GROUP_NAME", "ROLE", "STATE",
                                          "ROUTED_BY_KEY", "ROUTED_BY_POLICY", "ERRORS" };
    /* ROLE and STATE: "primary", "standby", "unknown", "up", "down". */
    const int text_width[4] = { name_width, group_width, 7, 7 };
    return make_result(names, 7, 4, text_width);
}

/* A general connection's one row: its server as host:port (no group); it
 * routes nothing, so its counters stay 0. */
PGresult *gc_show_global_server(gc_conn *c)
{
    gc_global_member_stats none = { 0 };
    char *host = NULL, *port = NULL;
    gc_error err;
    gc_error_clear(&err);
    char name[300];
    if (gc_settings_first_server(&c->settings, &host, &port, &err))
        snprintf(name, sizeof name, "%s:%s", host, port);
    else
        snprintf(name, sizeof name, "%s", gc_session_host(c->session));
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

/* SHOW GLOBAL SESSION: one row per member with the figures of the shared
 * sessions of its server (gc_session_pool_stats), for the first n members
 * of t (n is 0 without the global session: no row). */
static PGresult *session_result(gc_conn *c, const gc_topology *t, int n)
{
    static const char *const names[10] = { "MEMBER_NAME", "GROUP_NAME", "SESSIONS",
                                           "BORROWED", "IDLE", "WAITS", "TIMEOUTS", "OPENED",
                                           "DISCARDED", "LOST" };
    const char *member_names[n > 0 ? n : 1];
    const char *group_names[n > 0 ? n : 1];
    for (int i = 0; i < n; i++) {
        member_names[i] = t->members[i].name;
        group_names[i] = t->groups[t->members[i].group].name;
    }
    const int text_width[2] = { widest(member_names, n), widest(group_names, n) };
    PGresult *res = make_result(names, 10, 2, text_width);
    for (int i = 0; res != NULL && i < n; i++) {
        gc_session_pool_stats st;
        gc_global_pool_stats(c->global, i, &st);
        char v[8][24];
        snprintf(v[0], sizeof v[0], "%d", st.borrowed + st.idle);
        snprintf(v[1], sizeof v[1], "%d", st.borrowed);
        snprintf(v[2], sizeof v[2], "%d", st.idle);
        snprintf(v[3], sizeof v[3], "%lu", st.waits);
        snprintf(v[4], sizeof v[4], "%lu", st.timeouts);
        snprintf(v[5], sizeof v[5], "%lu", st.opened);
        snprintf(v[6], sizeof v[6], "%lu", st.discarded);
        snprintf(v[7], sizeof v[7], "%lu", st.lost);
        bool ok = PQsetvalue(res, i, 0, (char *)member_names[i], (int)strlen(member_names[i])) &&
                  PQsetvalue(res, i, 1, (char *)group_names[i], (int)strlen(group_names[i]));
        for (int f = 0; ok && f < 8; f++)
            ok = PQsetvalue(res, i, f + 2, v[f], (int)strlen(v[f]));
        if (!ok) {
            PQclear(res);
            res = NULL;
        }
    }
    return res;
}

/* A general connection shares no session: no row. */
PGresult *gc_show_global_no_sessions(gc_conn *c)
{
    return session_result(c, NULL, 0);
}

PGresult *gc_show_global_shared_sessions(gc_conn *c)
{
    const gc_topology *t = gc_global_topology(c->global);
    return session_result(c, t, gc_global_shares_sessions(c->global) ? t->n_members : 0);
}

PGresult *gc_show_global_result(gc_conn *c, const char *sql)
{
    static const char *const session_words[] = { "SHOW", "GLOBAL", "SESSION" };
    if (sql != NULL && gc_sql_text_is_words(sql, strlen(sql), session_words, 3))
        return c->kind->show_sessions(c);
    return c->kind->show_connection(c);
}

/* A global connection's rows: one per member of its topology. */
PGresult *gc_show_global_members(gc_conn *c)
{
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
