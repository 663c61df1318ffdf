/*
 * gc_global_txn_settings: a session-level SET or RESET sent inside an open
 * transaction of a global connection (pyodbc's default, autocommit off,
 * makes every statement after the first one such). On one server the
 * setting holds at once, stays when the transaction commits, and goes when
 * it rolls back, or when it rolls back to a savepoint set before the SET.
 * Here the transaction's members run it inside the transaction (its first
 * member as the statement itself, the joined ones right after, a member
 * that joins later with its BEGIN), so their own ROLLBACK undoes it; the
 * other member sessions get it, through gc_global_set_everywhere and the
 * settings log, only once the transaction has committed.
 */
#include <stdlib.h>
#include <string.h>

#include "global/gc_global_internal.h"
#include "global/gc_global_settings.h"
#include "member/gc_member_notify.h"
#include "util/gc_strbuf.h"

typedef struct txn_setting {
    char *sql;              /* owned */
    int depth;              /* savepoints in force when it ran */
    unsigned long serial;   /* the transaction's (g->txn_serial) */
} txn_setting;

struct gc_txn_settings {
    txn_setting *v;
    int n, cap;
};

static void drop_from(struct gc_txn_settings *ts, int k)
{
    while (ts->n > k)
        free(ts->v[--ts->n].sql);
}

/* Drops what earlier transactions left (they ended without a commit that
 * applied them). */
static void drop_older(gc_global *g)
{
    struct gc_txn_settings *ts = g->txn_settings;
    int kept = 0;
    for (int k = 0; k < ts->n; k++) {
        if (ts->v[k].serial == g->txn_serial)
            ts->v[kept++] = ts->v[k];
        else
            free(ts->v[k].sql);
    }
    ts->n = kept;
}

void gc_global_txn_settings_free(gc_global *g)
{
    if (g->txn_settings == NULL)
        return;
    drop_from(g->txn_settings, 0);
    free(g->txn_settings->v);
    free(g->txn_settings);
    g->txn_settings = NULL;
}

static bool record(gc_global *g, const char *sql)
{
    if (g->txn_settings == NULL && (g->txn_settings = calloc(1, sizeof *g->txn_settings)) == NULL)
        return false;
    struct gc_txn_settings *ts = g->txn_settings;
    drop_older(g);
    if (ts->n == ts->cap) {
        int cap = ts->cap > 0 ? ts->cap * 2 : 4;
        txn_setting *grown = realloc(ts->v, (size_t)cap * sizeof *grown);
        if (grown == NULL)
            return false;
        ts->v = grown;
        ts->cap = cap;
    }
    char *copy = strdup(sql);
    if (copy == NULL)
        return false;
    ts->v[ts->n++] = (txn_setting){ copy, g->savepoints.n, g->txn_serial };
    return true;
}

bool gc_global_txn_setting_add(gc_global *g, const char *sql, gc_error *err)
{
    if (!gc_global_run_on_joined(g, sql, err)) {
        /* The statement itself succeeded on the first member: the
         * application learns of the rollback at its next call. */
        gc_global_mark_txn_lost(g);
        return false;
    }
    if (!record(g, sql)) {
        gc_error_set(err, "HY001", 0, "out of memory keeping a setting of the transaction");
        return false;
    }
    if (g->pinned >= 0)
        gc_global_settings_refresh_search_path(g, g->pinned);
    gc_trace_write(g->trace, GC_TRACE_INFO, "setting \"%s\" made in the transaction: every "
                   "member gets it when it commits", sql);
    return true;
}

void gc_global_txn_settings_append(const gc_global *g, gc_strbuf *sb, int depth)
{
    const struct gc_txn_settings *ts = g->txn_settings;
    for (int k = 0; ts != NULL && k < ts->n; k++) {
        if (ts->v[k].serial != g->txn_serial || ts->v[k].depth != depth)
            continue;
        gc_strbuf_append_str(sb, "; ");
        gc_strbuf_append_str(sb, ts->v[k].sql);
    }
}

void gc_global_txn_settings_savepoints(gc_global *g, int kept, bool rolled_back)
{
    struct gc_txn_settings *ts = g->txn_settings;
    if (ts == NULL)
        return;
    int n = 0;
    for (int k = 0; k < ts->n; k++) {
        txn_setting *e = &ts->v[k];
        if (e->serial == g->txn_serial && e->depth >= kept && rolled_back) {
            free(e->sql);
            continue;
        }
        if (e->serial == g->txn_serial && e->depth > kept)
            e->depth = kept;
        ts->v[n++] = *e;
    }
    ts->n = n;
}

bool gc_global_txn_settings_made(const gc_global *g, unsigned long serial)
{
    const struct gc_txn_settings *ts = g->txn_settings;
    for (int k = 0; ts != NULL && k < ts->n; k++)
        if (ts->v[k].serial == serial)
            return true;
    return false;
}

void gc_global_txn_settings_ended(gc_global *g, unsigned long serial, bool committed,
                                  gc_error *info)
{
    struct gc_txn_settings *ts = g->txn_settings;
    if (ts == NULL)
        return;
    /* Taken out first: applying them goes through the settings log. */
    struct gc_txn_settings mine = *ts;
    *ts = (struct gc_txn_settings){ 0 };
    bool undone = false;
    for (int k = 0; k < mine.n; k++) {
        undone |= !committed && mine.v[k].serial == serial;
        gc_error e;
        gc_error_clear(&e);
        if (committed && mine.v[k].serial == serial &&
            !gc_global_set_everywhere(g, mine.v[k].sql, &e) && info->sqlstate[0] == '\0')
            gc_error_set(info, "01000", 0, "the transaction committed with its setting \"%s\", "
                         "which could not be given to every member session: %s",
                         mine.v[k].sql, e.message);
        free(mine.v[k].sql);
    }
    free(mine.v);
    /* Rolled back: the search_path routing reads may be the undone one. */
    for (int i = 0; undone && i < g->topo.n_members; i++) {
        if (gc_member_is_open(g->members[i]) && !gc_member_busy(g->members[i]) &&
            gc_member_txn_status(g->members[i]) == PQTRANS_IDLE) {
            gc_global_settings_refresh_search_path(g, i);
            break;
        }
    }
}
