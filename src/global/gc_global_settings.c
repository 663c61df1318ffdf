/*
 * gc_global_settings: SET / RESET on every member session, their replay on
 * sessions opened later, and the prelude of a transaction begun in SQL.
 * See gc_global_settings.h for the rules.
 */
#include "global/gc_global_internal.h"
#include "global/gc_global_settings.h"
#include "global/gc_remote_write.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "util/gc_strbuf.h"

typedef struct gc_global_settings_state {
    char **log;                    /* session SET / RESET texts, in order; owned */
    int n_log;
    int cap_log;
    /* The member sessions holding the whole log: which session and which of
     * its generations. Keyed by session, not index: a topology refresh may
     * renumber members. */
    const gc_member **replayed;
    unsigned long *replayed_gen;
    int n_replayed;
    int cap_replayed;
    gc_strbuf prelude;             /* held-back BEGIN ...; empty when none */
} gc_global_settings_state;

/* g's state, made on first use; NULL on out-of-memory. */
static gc_global_settings_state *state_of(gc_global *g)
{
    if (g->settings != NULL)
        return g->settings;
    gc_global_settings_state *st = calloc(1, sizeof *st);
    if (st == NULL)
        return NULL;
    gc_strbuf_init(&st->prelude);
    g->settings = st;
    return st;
}

static void clear_log(gc_global_settings_state *st)
{
    for (int i = 0; i < st->n_log; i++)
        free(st->log[i]);
    st->n_log = 0;
}

/* Appends sql to the log. An earlier identical text is dropped first: the
 * later one sets the same thing again, so replaying the log stays right and
 * an application repeating one SET does not grow it. RESET ALL is logged
 * like any other (it leaves SET ROLE alone, so the log cannot just restart). */
static bool log_append(gc_global_settings_state *st, const char *sql)
{
    for (int i = 0; i < st->n_log; i++) {
        if (strcmp(st->log[i], sql) == 0) {
            free(st->log[i]);
            memmove(&st->log[i], &st->log[i + 1],
                    (size_t)(st->n_log - i - 1) * sizeof *st->log);
            st->n_log--;
            break;
        }
    }
    if (st->n_log == st->cap_log) {
        int cap = st->cap_log > 0 ? 2 * st->cap_log : 8;
        char **grown = realloc(st->log, (size_t)cap * sizeof *grown);
        if (grown == NULL)
            return false;
        st->log = grown;
        st->cap_log = cap;
    }
    char *copy = strdup(sql);
    if (copy == NULL)
        return false;
    st->log[st->n_log++] = copy;
    return true;
}

/* The generation of m's session that holds the whole log; 0 when none. */
static unsigned long replayed_generation(const gc_global_settings_state *st,
                                         const gc_member *m)
{
    for (int k = 0; k < st->n_replayed; k++)
        if (st->replayed[k] == m)
            return st->replayed_gen[k];
    return 0;
}

/* Records that generation gen of m's session holds the whole log. False on
 * out-of-memory (the log is then replayed again: slower, still right). */
static bool set_replayed(gc_global_settings_state *st, const gc_member *m,
                         unsigned long gen)
{
    for (int k = 0; k < st->n_replayed; k++) {
        if (st->replayed[k] == m) {
            st->replayed_gen[k] = gen;
            return true;
        }
    }
    if (st->n_replayed == st->cap_replayed) {
        int cap = st->cap_replayed > 0 ? 2 * st->cap_replayed : 8;
        const gc_member **grown = realloc(st->replayed, (size_t)cap * sizeof *grown);
        if (grown == NULL)
            return false;
        st->replayed = grown;
        unsigned long *grown_gen = realloc(st->replayed_gen, (size_t)cap * sizeof *grown_gen);
        if (grown_gen == NULL)
            return false;
        st->replayed_gen = grown_gen;
        st->cap_replayed = cap;
    }
    st->replayed[st->n_replayed] = m;
    st->replayed_gen[st->n_replayed] = gen;
    st->n_replayed++;
    return true;
}

/* Runs sql on m and drops its result. False with err when it failed. */
static bool run(gc_member *m, const char *sql, gc_error *err)
{
    PGresult *r = gc_member_exec(m, sql, err);
    if (r == NULL)
        return false;
    PQclear(r);
    return true;
}

void gc_global_settings_refresh_search_path(gc_global *g, int i)
{
    gc_error err;
    gc_error_clear(&err);
    PGresult *r = gc_member_exec(g->members[i], "SHOW search_path", &err);
    if (r != NULL && PQntuples(r) == 1) {
        gc_global_split_search_path(g, PQgetvalue(r, 0, 0));
        gc_trace_write(g->trace, GC_TRACE_INFO, "search_path is now %s",
                       PQgetvalue(r, 0, 0));
    } else {
        gc_trace_write(g->trace, GC_TRACE_INFO, "search_path not read again: %s",
                       err.message);
    }
    PQclear(r);
}

bool gc_global_settings_replay(gc_global *g, int i, gc_error *err)
{
    assert(i >= 0 && i < g->topo.n_members);
    gc_global_settings_state *st = g->settings;
    if (st == NULL)
        return true;
    gc_member *m = g->members[i];
    unsigned long gen = gc_member_generation(m);
    if (replayed_generation(st, m) == gen)
        return true;
    for (int k = 0; k < st->n_log; k++) {
        if (!run(m, st->log[k], err)) {
            gc_trace_write(g->trace, GC_TRACE_INFO,
                           "member %s refused the replayed setting \"%s\": %s",
                           g->topo.members[i].name, st->log[k], err->message);
            return false;
        }
    }
    if (st->n_log > 0)
        gc_trace_write(g->trace, GC_TRACE_INFO, "member %s: %d session settings replayed",
                       g->topo.members[i].name, st->n_log);
    set_replayed(st, m, gen);
    return true;
}

/* Ends the transactions begun on the members marked in `begun`: COMMIT when
 * commit, else ROLLBACK. Errors are ignored: a member whose session broke
 * gets the log replayed when it is reopened. */
static void end_all(gc_global *g, const bool *begun, bool commit)
{
    for (int i = 0; i < g->topo.n_members; i++) {
        if (!begun[i])
            continue;
        gc_error ignored;
        gc_error_clear(&ignored);
        run(g->members[i], commit ? "COMMIT" : "ROLLBACK", &ignored);
    }
}

bool gc_global_set_everywhere(gc_global *g, const char *sql, gc_error *err)
{
    gc_global_settings_state *st = state_of(g);
    if (st == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    /* Under the global session nothing may be held now: one member's
     * session is borrowed, so the server checks the setting (and the
     * search_path is read again) rather than every later statement. */
    if (gc_global_shares_sessions(g) && gc_global_first_open_member(g) < 0)
        gc_global_borrow_for_query(g);
    int n = g->topo.n_members;
    bool begun[n > 0 ? n : 1];
    memset(begun, 0, sizeof begun);
    int first_open = -1;
    for (int i = 0; i < n; i++) {
        gc_member *m = g->members[i];
        if (!gc_member_is_open(m))
            continue;
        gc_error e;
        gc_error_clear(&e);
        /* A session that missed earlier settings gets them first, so every
         * member ends with the same log applied. */
        bool ok = gc_global_settings_replay(g, i, &e);
        if (ok) {
            ok = run(m, "BEGIN", &e);
            begun[i] = ok;
        }
        if (ok)
            ok = run(m, sql, &e);
        if (!ok) {
            end_all(g, begun, false);
            gc_error_set(err, e.sqlstate[0] != '\0' ? e.sqlstate : "HY000", e.native,
                         "member %s refused it, so no member keeps it: %s",
                         g->topo.members[i].name, e.message);
            gc_trace_write(g->trace, GC_TRACE_INFO, "setting \"%s\" undone: %s", sql,
                           err->message);
            return false;
        }
        if (first_open < 0)
            first_open = i;
    }
    end_all(g, begun, true);
    if (!log_append(st, sql)) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    for (int i = 0; i < n; i++)
        if (begun[i])
            set_replayed(st, g->members[i], gc_member_generation(g->members[i]));
    gc_trace_write(g->trace, GC_TRACE_INFO, "setting \"%s\" applied on every open member",
                   sql);
    if (first_open >= 0)
        gc_global_settings_refresh_search_path(g, first_open);
    return true;
}

void gc_global_settings_forget(gc_global *g, const gc_member *m)
{
    gc_global_settings_state *st = g->settings;
    if (st == NULL)
        return;
    for (int k = 0; k < st->n_replayed; k++) {
        if (st->replayed[k] == m) {
            st->n_replayed--;
            st->replayed[k] = st->replayed[st->n_replayed];
            st->replayed_gen[k] = st->replayed_gen[st->n_replayed];
            return;
        }
    }
}

int gc_global_settings_count(const gc_global *g)
{
    return g->settings != NULL ? g->settings->n_log : 0;
}

bool gc_global_prelude_add(gc_global *g, const char *sql)
{
    gc_global_settings_state *st = state_of(g);
    if (st == NULL)
        return false;
    if (st->prelude.len > 0 && !gc_strbuf_append_str(&st->prelude, ";\n"))
        return false;
    return gc_strbuf_append_str(&st->prelude, sql);
}

bool gc_global_prelude_pending(const gc_global *g)
{
    return g->settings != NULL && g->settings->prelude.len > 0;
}

void gc_global_prelude_drop(gc_global *g)
{
    if (g->settings != NULL)
        gc_strbuf_reset(&g->settings->prelude);
}

bool gc_global_prelude_send(gc_global *g, int i, gc_error *err)
{
    assert(i >= 0 && i < g->topo.n_members);
    if (!gc_global_prelude_pending(g))
        return true;
    gc_global_settings_state *st = g->settings;
    gc_trace_write(g->trace, GC_TRACE_INFO, "member %s: transaction begun in SQL starts here",
                   g->topo.members[i].name);
    /* Marked as the driver's transaction, as every BEGIN the driver sends
     * on a global connection is, in the same text. The newline first ends
     * a line comment the application's text may end with. */
    if (!gc_strbuf_append_str(&st->prelude, "\n;" GC_REMOTE_WRITE_TXN_MARK)) {
        gc_strbuf_reset(&st->prelude);
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    bool ok = run(g->members[i], st->prelude.data, err);
    gc_strbuf_reset(&st->prelude);
    return ok;
}

void gc_global_settings_free(gc_global *g)
{
    gc_global_settings_state *st = g->settings;
    if (st == NULL)
        return;
    clear_log(st);
    free(st->log);
    free(st->replayed);
    free(st->replayed_gen);
    gc_strbuf_free(&st->prelude);
    free(st);
    g->settings = NULL;
}
