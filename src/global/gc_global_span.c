/*
 * gc_global_span: a row write whose rows the shard map cannot place in one
 * group (an UPDATE or DELETE without a usable key, an INSERT of rows for
 * several groups), run atomically across groups (docs/global-connection.md,
 * "Writes across groups").
 *
 * From any one member such a write would reach the other groups through
 * postgres_fdw, whose remote part commits on its own. Instead every group
 * that owns partitions of the table runs the statement on its own leaf
 * partitions only (the target renamed to each leaf, the table's name kept
 * as the alias; an INSERT sends each group its own VALUES rows), each in
 * its part of one transaction: the coordinator's
 * (pinned) and joined ones, committed by the two phases of
 * gc_global_commit_spread. A joined part that touched a foreign table
 * (another group's rows read in a subquery) cannot be prepared, so the
 * write is rolled back everywhere rather than committed in part.
 * An INSERT ... SELECT has its query run by the driver and its rows sent
 * to their groups (gc_global_span_select.c); a TRUNCATE truncates each
 * group's own leaves and solo tables (gc_global_span_truncate.c).
 */
#include <stdlib.h>
#include <string.h>

#include "global/gc_global_span_internal.h"
#include "global/gc_outcome.h"
#include "sql/gc_sql_lexer.h"

#define SPAN_SAVEPOINT "gc_span"

typedef gc_span_part span_part;

char *gc_global_leaf_text(const char *sql, const gc_analysis *a, const char *leaf)
{
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    gc_strbuf_append(&sb, sql, a->target_offset);
    gc_strbuf_append_str(&sb, leaf);
    if (!a->target_aliased) {
        gc_strbuf_append_str(&sb, " AS ");
        gc_strbuf_append(&sb, sql + a->target_name_offset, a->target_name_length);
    }
    gc_strbuf_append_str(&sb, sql + a->target_offset + a->target_length);
    return gc_strbuf_take(&sb);
}

/* Appends the rows of src to *all (made from the first result with rows). */
static bool gather_rows(PGresult **all, const PGresult *src)
{
    if (*all == NULL && (*all = PQcopyResult(src, PG_COPYRES_ATTRS)) == NULL)
        return false;
    int nf = PQnfields(src);
    for (int r = 0; r < PQntuples(src); r++) {
        int to = PQntuples(*all);
        for (int f = 0; f < nf; f++) {
            bool null = PQgetisnull(src, r, f);
            if (!PQsetvalue(*all, to, f, null ? NULL : PQgetvalue(src, r, f),
                            null ? -1 : PQgetlength(src, r, f)))
                return false;
        }
    }
    return true;
}

/* A session that broke lost the transaction (40001 / 19068, nothing
 * applied: docs/failover.md). */
void gc_span_part_failed(gc_global *g, const span_part *p, unsigned long generation,
                         gc_error *err)
{
    gc_span_part_failed_doing(g, p, generation, "the write across groups", err);
}

void gc_span_part_failed_doing(gc_global *g, const span_part *p, unsigned long generation,
                               const char *doing, gc_error *err)
{
    gc_member *m = g->members[p->member];
    bool lost = !gc_member_is_open(m) || gc_member_get_state(m) == GC_MEMBER_DOWN;
    if (lost)
        gc_global_member_failed(g, p->member, generation, err);
    gc_error named;
    gc_error_set(&named, lost || err->sqlstate[0] == '\0' ? "40001" : err->sqlstate,
                 lost ? 19068 : err->native, "%s (%s, on member %s of group %s)", err->message,
                 doing, g->topo.members[p->member].name,
                 g->topo.groups[p->group].name);
    *err = named;
}

bool gc_span_run_statement(gc_member *m, const char *text, const gc_span_params *params,
                           long long *rows, PGresult **returned, PGresult **tag,
                           gc_error *err)
{
    /* The extended protocol: one statement per text, parameters or not. */
    bool ok = gc_member_send_query_params(m, text, params->n, params->types, params->values,
                                          params->lengths, params->formats, err);
    PGresult *r;
    while (ok && (r = gc_member_next_result(m)) != NULL) {
        ExecStatusType st = PQresultStatus(r);
        if (st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK) {
            *rows += atoll(PQcmdTuples(r));
            if (st == PGRES_TUPLES_OK && !gather_rows(returned, r)) {
                gc_error_set(err, "HY001", 0, "out of memory");
                ok = false;
            }
            if (st == PGRES_COMMAND_OK) {
                PQclear(*tag);
                *tag = r;
                continue;
            }
        } else {
            gc_member_result_error(m, r, err);
            ok = false;
        }
        PQclear(r);
    }
    if (!ok)
        gc_member_drain(m);
    return ok;
}

bool gc_span_renumber_params(gc_strbuf *out, const char *text, size_t len, int n_params,
                             int first_number, int *used, int *n_used)
{
    /* PostgreSQL wants every parameter it is sent to be used. */
    int *renumbered = calloc(n_params > 0 ? (size_t)n_params : 1, sizeof *renumbered);
    if (renumbered == NULL)
        return false;
    *n_used = 0;
    gc_sql_lexer lx;
    gc_sql_lexer_init(&lx, text, len);
    gc_sql_token tok;
    size_t copied = 0;
    while (gc_sql_lexer_next(&lx, &tok)) {
        unsigned long old = gc_sql_token_param_number(&lx, &tok);
        if (tok.kind != GC_SQL_TOK_POSITIONAL_PARAM || old < 1 || old > (unsigned long)n_params)
            continue;
        if (renumbered[old - 1] == 0) {
            used[*n_used] = (int)old - 1;
            renumbered[old - 1] = first_number + (*n_used)++;
        }
        gc_strbuf_append(out, text + copied, tok.offset - copied);
        gc_strbuf_appendf(out, "$%d", renumbered[old - 1]);
        copied = tok.offset + tok.length;
    }
    gc_strbuf_append(out, text + copied, len - copied);
    free(renumbered);
    return !out->failed;
}

bool gc_span_wire_init(gc_span_wire *w, int cap)
{
    w->cap = cap > 0 ? cap : 1;
    w->used = malloc((size_t)w->cap * sizeof *w->used);
    w->types = calloc((size_t)w->cap, sizeof *w->types);
    w->values = calloc((size_t)w->cap, sizeof *w->values);
    w->lengths = calloc((size_t)w->cap, sizeof *w->lengths);
    w->formats = calloc((size_t)w->cap, sizeof *w->formats);
    return w->used != NULL && w->types != NULL && w->values != NULL && w->lengths != NULL &&
           w->formats != NULL;
}

void gc_span_wire_free(gc_span_wire *w)
{
    free(w->used);
    free(w->types);
    free(w->values);
    free(w->lengths);
    free(w->formats);
}

void gc_span_pick_params(const gc_span_params *params, gc_span_wire *w, int at, int n_used,
                         gc_span_params *mine)
{
    for (int k = 0; k < n_used; k++) {
        int i = w->used[k];
        w->types[at + k] = params->types != NULL ? params->types[i] : 0;
        w->values[at + k] = params->values[i];
        w->lengths[at + k] = params->lengths != NULL ? params->lengths[i] : 0;
        w->formats[at + k] = params->formats != NULL ? params->formats[i] : 0;
    }
    *mine = (gc_span_params){ .n = n_used, .types = w->types + at, .values = w->values + at,
                              .lengths = w->lengths + at, .formats = w->formats + at };
}

bool gc_span_row_goes(const gc_span_places *at, int r, int group, const char *leaf)
{
    return at->group_of[r] == group && (leaf == NULL || strcmp(at->leaf_of[r], leaf) == 0);
}

bool gc_span_row_starts_leaf(const gc_span_places *at, int r, int group)
{
    if (at->group_of[r] != group)
        return false;
    for (int e = 0; e < r && at->leaf_of != NULL; e++)
        if (gc_span_row_goes(at, e, group, at->leaf_of[r]))
            return false;
    return true;
}

/* The VALUES rows' places as routing made them (g->span_rows, and
 * g->span_leaves with ON CONFLICT (...)). */
static gc_span_places values_places(const gc_global *g, const gc_analysis *a)
{
    return (gc_span_places){ g->span_rows, a->conflict_target ? g->span_leaves : NULL };
}

/* The INSERT with only the VALUES rows of `group` (g->span_rows), and of
 * leaf when not NULL (then into that leaf), its parameters renumbered
 * (gc_span_renumber_params). NULL when memory runs out. */
static char *rows_text(const gc_global *g, const char *sql, const gc_analysis *a, int group,
                       const char *leaf, int n_params, int *used, int *n_used)
{
    gc_strbuf kept, out;
    gc_strbuf_init(&kept);
    gc_strbuf_init(&out);
    gc_strbuf_append(&kept, sql, a->row_offset[0]);
    gc_span_places at = values_places(g, a);
    bool first = true;
    for (int r = 0; r < a->n_rows; r++) {
        if (!gc_span_row_goes(&at, r, group, leaf))
            continue;
        if (!first)
            gc_strbuf_append_str(&kept, ", ");
        first = false;
        gc_strbuf_append(&kept, sql + a->row_offset[r], a->row_end[r] - a->row_offset[r]);
    }
    gc_strbuf_append_str(&kept, sql + a->row_end[a->n_rows - 1]);
    bool ok = !kept.failed &&
              gc_span_renumber_params(&out, kept.data, kept.len, n_params, 1, used, n_used);
    gc_strbuf_free(&kept);
    if (!ok) {
        gc_strbuf_free(&out);
        return NULL;
    }
    char *text = gc_strbuf_take(&out);
    if (leaf == NULL || text == NULL)
        return text;
    /* The target comes before the rows: where the analysis found it. */
    char *into_leaf = gc_global_leaf_text(text, a, leaf);
    free(text);
    return into_leaf;
}

/* Runs the INSERT with the group's rows only, and of leaf when not NULL
 * (see rows_text). */
static bool run_leaf_rows(gc_global *g, const span_part *p, const char *sql,
                          const gc_analysis *a, const char *leaf, const gc_span_params *params,
                          long long *rows, PGresult **returned, PGresult **tag, gc_error *err)
{
    gc_span_wire w;
    int n_used = 0;
    bool ok = gc_span_wire_init(&w, params->n);
    char *text = ok ? rows_text(g, sql, a, p->group, leaf, params->n, w.used, &n_used) : NULL;
    if (text == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        ok = false;
    } else {
        gc_span_params mine;
        gc_span_pick_params(params, &w, 0, n_used, &mine);
        ok = gc_span_run_statement(g->members[p->member], text, &mine, rows, returned, tag, err);
    }
    free(text);
    gc_span_wire_free(&w);
    return ok;
}

/* Runs the INSERT with the group's rows: with ON CONFLICT (...), one
 * statement per leaf partition they are in, into that leaf (the parent
 * has no unique index to infer from). */
static bool run_rows(gc_global *g, const span_part *p, const char *sql, const gc_analysis *a,
                     const gc_span_params *params, long long *rows, PGresult **returned,
                     PGresult **tag, gc_error *err)
{
    if (!a->conflict_target)
        return run_leaf_rows(g, p, sql, a, NULL, params, rows, returned, tag, err);
    gc_span_places at = values_places(g, a);
    bool ok = true;
    for (int r = 0; r < a->n_rows && ok; r++)
        if (gc_span_row_starts_leaf(&at, r, p->group))
            ok = run_leaf_rows(g, p, sql, a, at.leaf_of[r], params, rows, returned, tag, err);
    return ok;
}

/* Where each VALUES row's RETURNING row is among those the statements
 * gave, statement after statement as run_rows ran them (the parts in
 * order; in a part, each leaf's rows from the leaf's first row on): at[r].
 * Returns how many rows the statements hold between them. */
static int returned_positions(const gc_global *g, const gc_analysis *a, const span_part *parts,
                               int n, int *at)
{
    gc_span_places places = values_places(g, a);
    int pos = 0;
    for (int k = 0; k < n; k++) {
        int group = parts[k].group;
        for (int first = 0; first < a->n_rows; first++) {
            if (places.leaf_of == NULL) {
                if (places.group_of[first] == group)
                    at[first] = pos++;
            } else if (gc_span_row_starts_leaf(&places, first, group)) {
                for (int r = first; r < a->n_rows; r++)
                    if (gc_span_row_goes(&places, r, group, places.leaf_of[first]))
                        at[r] = pos++;
            }
        }
    }
    return pos;
}

/* The RETURNING rows of an INSERT whose VALUES rows went one statement
 * per group (and leaf), put back in the order of the VALUES rows, as one
 * server returns them: programs pair them with the rows they sent (an
 * ORM's new keys). Only when every row returned one (none skipped by ON
 * CONFLICT or a trigger); else, or when memory runs out, they stay
 * statement after statement. */
static PGresult *in_values_order(const gc_global *g, const gc_analysis *a,
                                 const span_part *parts, int n, PGresult *returned)
{
    if (a->kind != GC_SQL_INSERT || a->row_offset == NULL || a->n_rows < 2 ||
        PQntuples(returned) != a->n_rows)
        return returned;
    int *at = malloc((size_t)a->n_rows * sizeof *at);
    PGresult *ordered = at != NULL ? PQcopyResult(returned, PG_COPYRES_ATTRS) : NULL;
    bool ok = ordered != NULL && returned_positions(g, a, parts, n, at) == a->n_rows;
    for (int r = 0; r < a->n_rows && ok; r++) {
        for (int f = 0; f < PQnfields(returned) && ok; f++) {
            bool null = PQgetisnull(returned, at[r], f);
            ok = PQsetvalue(ordered, r, f, null ? NULL : PQgetvalue(returned, at[r], f),
                            null ? -1 : PQgetlength(returned, at[r], f));
        }
    }
    free(at);
    if (!ok) {
        PQclear(ordered);
        return returned;
    }
    PQclear(returned);
    return ordered;
}

/* Runs the TRUNCATE of what group p owns (tr); the coordinator's part
 * also takes the names the shard map does not know. */
static bool run_truncate(gc_global *g, const span_part *p, const gc_span_tables *tr,
                         const char *sql, bool coordinator, long long *rows, PGresult **tag,
                         gc_error *err)
{
    char *text = gc_span_tables_text(tr, sql, p->group, coordinator);
    if (text == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    PGresult *none = NULL;
    gc_span_params no_params = { .n = 0 };
    bool ok = gc_span_run_statement(g->members[p->member], text, &no_params, rows, &none, tag,
                                    err);
    PQclear(none);
    free(text);
    return ok;
}

/* Runs the write on group p's share of the rows: an UPDATE or DELETE on
 * each of the group's leaves of t, an INSERT with the group's rows, a
 * TRUNCATE (tr) of the group's own tables. */
static bool run_part(gc_global *g, const span_part *p, const gc_shard_table *t,
                     const gc_span_tables *tr, bool coordinator, const char *sql,
                     const gc_analysis *a, const gc_span_params *params,
                     long long *rows, PGresult **returned, PGresult **tag, gc_error *err)
{
    gc_member *m = g->members[p->member];
    unsigned long generation = gc_member_generation(m);
    bool ok = true;
    if (tr != NULL) {
        ok = run_truncate(g, p, tr, sql, coordinator, rows, tag, err);
    } else if (a->kind == GC_SQL_INSERT) {
        ok = run_rows(g, p, sql, a, params, rows, returned, tag, err);
    } else {
        int n = gc_shard_table_leaves(t, p->group, NULL, 0);
        const char **leaves = n > 0 ? malloc((size_t)n * sizeof *leaves) : NULL;
        if (n > 0 && leaves == NULL) {
            gc_error_set(err, "HY001", 0, "out of memory");
            return false;
        }
        gc_shard_table_leaves(t, p->group, leaves, n);
        for (int k = 0; k < n && ok; k++) {
            char *text = gc_global_leaf_text(sql, a, leaves[k]);
            if (text == NULL) {
                gc_error_set(err, "HY001", 0, "out of memory");
                ok = false;
                break;
            }
            ok = gc_span_run_statement(m, text, params, rows, returned, tag, err);
            free(text);
        }
        free(leaves);
    }
    if (!ok)
        gc_span_part_failed_doing(g, p, generation,
                                  tr != NULL && tr->lock ? "the LOCK TABLE across groups"
                                                         : "the write across groups", err);
    return ok;
}

bool gc_span_run_on(gc_global *g, const span_part *p, const char *sql, gc_error *err)
{
    PGresult *r = gc_member_exec(g->members[p->member], sql, err);
    if (r == NULL)
        return false;
    PQclear(r);
    return true;
}

/* After a part failed in a transaction that goes on: every part that set
 * the savepoint goes back to it, so the write is undone on every group.
 * A part that cannot go back leaves the whole transaction to be rolled
 * back (false). */
static bool back_to_savepoints(gc_global *g, const span_part *parts, int n)
{
    bool ok = true;
    for (int k = 0; k < n; k++) {
        if (!parts[k].savepoint)
            continue;
        gc_error e;
        gc_error_clear(&e);
        ok = gc_span_run_on(g, &parts[k], "ROLLBACK TO SAVEPOINT " SPAN_SAVEPOINT, &e) &&
             gc_span_run_on(g, &parts[k], "RELEASE SAVEPOINT " SPAN_SAVEPOINT, &e) && ok;
    }
    return ok;
}

/* Whether group gi has a share of the write: rows of the INSERT, or
 * leaves of t to update or delete in (or to insert the rows of an INSERT
 * ... SELECT in, which are known only as it runs; the open transaction's
 * group runs its query, so it takes part even without leaves), or tables
 * of the TRUNCATE tr. */
static bool has_share(const gc_global *g, const gc_shard_table *t, const gc_span_tables *tr,
                      const gc_analysis *a, int gi)
{
    if (tr != NULL)
        return gc_span_tables_has_share(tr, gi);
    if (a->kind == GC_SQL_INSERT && a->query_length > 0 && g->pinned >= 0 &&
        g->topo.members[g->pinned].group == gi)
        return true;
    if (a->kind != GC_SQL_INSERT || a->query_length > 0)
        return gc_shard_table_leaves(t, gi, NULL, 0) > 0;
    for (int r = 0; r < a->n_rows; r++)
        if (g->span_rows[r] == gi)
            return true;
    return false;
}

/* The groups with a share of the write, the open transaction's group first (it
 * coordinates), each with its primary, or the member the transaction
 * already holds there. Returns how many; -1 with err. */
static int find_parts(gc_global *g, const gc_shard_table *t, const gc_span_tables *tr,
                      const gc_analysis *a, const char *setup_sql, span_part *parts,
                      gc_error *err)
{
    int first = g->pinned >= 0 ? g->topo.members[g->pinned].group : -1;
    int n = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int gi = 0; gi < g->topo.n_groups; gi++) {
            if ((pass == 0) != (gi == first) || !has_share(g, t, tr, a, gi))
                continue;
            int held = gc_global_transaction_member_of_group(g, gi);
            int i = held >= 0 ? held
                              : gc_global_group_primary(g, gi, setup_sql, "a write across "
                                                        "groups", err);
            if (i < 0)
                return -1;
            if (gc_member_get_role(g->members[i]) == GC_ROLE_STANDBY) {
                gc_error_set(err, "25006", 0, "a write across groups needs every group's "
                             "primary, but the transaction runs on standby %s (read-only "
                             "access mode)", g->topo.members[i].name);
                return -1;
            }
            parts[n++] = (span_part){ .group = gi, .member = i };
        }
    }
    return n;
}

bool gc_global_run_spanning_write(gc_global *g, const gc_analysis *a, const char *sql,
                                  const gc_span_params *params, const char *begin_sql,
                                  const char *setup_sql, bool commit_now,
                                  gc_span_outcome *out, gc_error *err)
{
    out->result = NULL;
    out->rows = 0;
    out->rolled_back = false;
    out->sent = false;
    gc_error_clear(&out->info);
    /* TRUNCATE (the one DDL routed here) and LOCK TABLE name their tables
     * themselves. */
    gc_span_tables named;
    const gc_span_tables *tr = NULL;
    if (gc_global_may_name_tables_to_place(a)) {
        /* Read again, as routing read it: the route decision carries no
         * memory of its own. */
        if (!gc_span_tables_read(g, sql, &named)) {
            gc_error_set(err, "HY000", 0, "the tables of the statement left the shard map");
            return false;
        }
        tr = &named;
    }
    const gc_shard_table *t = g->map != NULL && tr == NULL
        ? gc_shardmap_find(g->map, a->schema, a->table, (const char *const *)g->search_path,
                           g->n_search_path)
        : NULL;
    if (t == NULL && tr == NULL) {
        gc_error_set(err, "HY000", 0, "table %s left the shard map", a->table);
        return false;
    }
    int key_at[32], nk = 0;
    bool pulls_rows = a->kind == GC_SQL_INSERT && a->query_length > 0;
    if (pulls_rows && !gc_span_select_plan(t, a, key_at, &nk, err))
        return false;
    int ng = g->topo.n_groups;
    span_part parts[ng > 0 ? ng : 1];
    int n = find_parts(g, t, tr, a, setup_sql, parts, err);
    if (n < 0) {
        if (tr != NULL)
            gc_span_tables_free(&named);
        return false;
    }
    bool ok = true;
    for (int k = 0; k < n && ok; k++) {
        ok = gc_global_enter_transaction(g, parts[k].member, begin_sql, err);
        if (ok && !commit_now) {
            ok = gc_span_run_on(g, &parts[k], "SAVEPOINT " SPAN_SAVEPOINT, err);
            parts[k].savepoint = ok;
        }
        if (!ok)
            gc_span_part_failed(g, &parts[k],
                                gc_member_generation(g->members[parts[k].member]), err);
    }
    PGresult *returned = NULL, *tag = NULL;
    out->sent = ok;
    if (ok && pulls_rows)
        ok = gc_span_insert_select(g, parts, n, t, sql, a, key_at, nk, params, &out->rows, &tag,
                                   err);
    for (int k = 0; k < n && ok && !pulls_rows; k++)
        ok = run_part(g, &parts[k], t, tr, k == 0, sql, a, params, &out->rows, &returned, &tag,
                      err);
    if (tr != NULL)
        gc_span_tables_free(&named);
    /* A release that fails leaves the groups released before it unable to
     * go back: the whole transaction is rolled back then. */
    bool released_some = false;
    for (int k = 0; k < n && ok && !commit_now; k++) {
        ok = gc_span_run_on(g, &parts[k], "RELEASE SAVEPOINT " SPAN_SAVEPOINT, err);
        released_some |= ok;
    }
    const char *what = tr == NULL ? a->table : tr->lock ? "(LOCK TABLE)" : "(TRUNCATE)";
    gc_trace_write(g->trace, GC_TRACE_INFO, "write across groups on table %s: %d groups, "
                   "%lld rows%s", what, n, out->rows, ok ? "" : ", failed");
    if (ok && commit_now) {
        gc_spread_outcome o = gc_global_commit_spread(g, setup_sql, err, &out->info);
        ok = o == GC_SPREAD_COMMITTED;
    } else if (!ok && (commit_now || released_some || !back_to_savepoints(g, parts, n))) {
        gc_global_rollback_transaction(g);
        out->rolled_back = !commit_now;
    }
    if (!ok) {
        /* An autocommit write told its own loss (gc_span_part_failed): the
         * next statement starts afresh. */
        if (gc_outcome_lost_told_once(commit_now))
            gc_global_clear_txn_lost(g);
        PQclear(returned);
        PQclear(tag);
        return false;
    }
    if (returned != NULL && tr == NULL && !pulls_rows)
        returned = in_values_order(g, a, parts, n, returned);
    out->result = returned != NULL ? returned : tag;
    if (returned != NULL)
        PQclear(tag);
    return true;
}
