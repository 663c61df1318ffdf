/*
 * gc_global_route: the routing rules of ARCHITECTURE.md section 4, over the
 * cached shard map, the statement's analysis and the values of one
 * execution. No round trip: the only server state read is libpq's own view
 * of each session (open, role, transaction status).
 */
#include "global/gc_global_internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "global/gc_ddl.h"
#include "global/gc_temp_tables.h"
#include "member/gc_member_notify.h"
#include "placement/gc_keyval.h"
#include "sql/gc_sql_lexer.h"
#include "sql/gc_sql_statements.h"
#include "sql/gc_sql_table_refs.h"
#include "util/gc_clock.h"
#include "util/gc_strbuf.h"

/* A promoted standby reports in_hot_standby=off only when its session next
 * runs something, so an idle session still looks like a standby. When a
 * group has no primary for a write, its standby sessions are pinged (an
 * empty query, one round trip) at most this often, each bounded by the
 * timeout; a ping that gets no answer marks the member down. */
#define GC_ROLE_PROBE_INTERVAL_MS 200
#define GC_ROLE_PROBE_TIMEOUT_MS 1000

/* Tells the router what member i looks like now: usable or not, its role
 * (read live: a promoted standby reports it), its connect order. */
static void sync_member(gc_global *g, int i)
{
    gc_member *m = g->members[i];
    bool open = gc_member_is_open(m);
    /* A session libpq found broken between statements (reading the catalog
     * listener's notifications, say) is no longer open, so no statement
     * would go there to find it down and it would never be reconnected (an
     * old primary back as a standby would get no reads): marked down now,
     * which starts its reconnect schedule. */
    if (!open && gc_member_found_broken(m))
        gc_global_member_failed(g, i, gc_member_generation(m), NULL);
    /* On demand, a member not tried yet may be chosen: it is opened then. */
    bool usable = open || (g->on_demand && gc_member_get_state(m) != GC_MEMBER_DOWN);
    gc_member_role role = open ? gc_member_get_role(m)
                               : g->topo.members[i].catalog_primary ? GC_ROLE_PRIMARY
                                                                   : GC_ROLE_STANDBY;
    gc_router_set_member(g->router, i, usable, role, g->connect_order[i]);
}

void gc_global_sync_router(gc_global *g)
{
    for (int i = 0; i < g->topo.n_members; i++)
        sync_member(g, i);
}

/* The same for the members of one group only: a keyed statement needs no
 * more, and the statement path stays short. */
static void sync_group(gc_global *g, int group)
{
    for (int i = 0; i < g->topo.n_members; i++)
        if (g->topo.members[i].group == group)
            sync_member(g, i);
}

/* Asks the open standby sessions of group whether they still are (see
 * GC_ROLE_PROBE_INTERVAL_MS), then tells the router. */
static void probe_group_roles(gc_global *g, int group)
{
    long long now = gc_clock_ms();
    if (now - g->roles_probed_ms < GC_ROLE_PROBE_INTERVAL_MS)
        return;
    g->roles_probed_ms = now;
    for (int i = 0; i < g->topo.n_members; i++) {
        gc_member *m = g->members[i];
        if (g->topo.members[i].group != group || !gc_member_is_open(m) ||
            gc_member_busy(m) || gc_member_get_role(m) != GC_ROLE_STANDBY ||
            gc_member_txn_status(m) != PQTRANS_IDLE)
            continue;
        gc_error err;
        gc_error_clear(&err);
        unsigned long generation = gc_member_generation(m);
        if (!gc_member_ping(m, GC_ROLE_PROBE_TIMEOUT_MS, &err) &&
            gc_member_get_state(m) == GC_MEMBER_DOWN)
            gc_global_member_failed(g, i, generation, &err);
        else if (gc_member_get_role(m) == GC_ROLE_PRIMARY)
            gc_trace_write(g->trace, GC_TRACE_INFO, "member %s was promoted: now primary",
                           g->topo.members[i].name);
    }
    sync_group(g, group);
}

/* The analysis column that gives key column k of t its values: by name, or
 * by position for an INSERT without a column list. NULL when none. */
static const gc_pinned_column *key_source(const gc_analysis *a, const gc_shard_table *t,
                                          int k)
{
    const char *name = gc_shard_table_key_name(t, k);
    int position = gc_shard_table_key_position(t, k);
    for (int c = 0; c < a->n_columns; c++) {
        const gc_pinned_column *col = &a->columns[c];
        if (col->name != NULL ? strcmp(col->name, name) == 0 : col->position == position)
            return col;
    }
    return NULL;
}

/* The text of one pinned value for this execution; *known false when it is
 * a parameter whose value is not known here. */
static const char *value_text(const gc_value_source *v, const gc_route_request *req,
                              bool *known, bool *from_param)
{
    if (v->param < 0)
        return v->literal;
    *from_param = true;
    if (req->params == NULL || v->param >= req->nparams) {
        *known = false;
        return NULL;
    }
    return req->params[v->param];
}

/* The statement's target table in the shard map, or NULL when it is not a
 * cluster table (g->map not NULL; a->table, or else a->sequence: the solo
 * table whose column owns it). Remembered by the
 * analysis's serial until the map or the search_path changes: a prepared
 * statement is routed again and again, the lookup by name costs about 300
 * instructions. */
const gc_shard_table *gc_global_cluster_table(gc_global *g, const gc_analysis *a)
{
    gc_global_table_memo *memo = &g->table_memo[a->serial % GC_GLOBAL_TABLE_MEMO];
    if (a->serial != 0 && memo->serial == a->serial && memo->epoch == g->map_epoch)
        return memo->table;
    const char *const *path = (const char *const *)g->search_path;
    const gc_shard_table *t =
        a->table != NULL
            ? gc_shardmap_find(g->map, a->schema, a->table, path, g->n_search_path)
            : gc_shardmap_find_sequence_table(g->map, a->sequence_schema, a->sequence, path,
                                              g->n_search_path);
    if (a->serial != 0)
        *memo = (gc_global_table_memo){ a->serial, g->map_epoch, t };
    return t;
}

const gc_shard_table *gc_global_table_named(gc_global *g, const char *name, size_t len)
{
    char schema[64] = "", table[64] = "";
    int parts = 0;
    gc_sql_lexer lx;
    gc_sql_lexer_init(&lx, name, len);
    gc_sql_token tok;
    while (gc_sql_lexer_next_code(&lx, &tok)) {
        if (!gc_sql_token_is_name(&tok))
            continue;
        memcpy(schema, table, sizeof schema);
        size_t n = gc_sql_token_identifier(&lx, &tok, table, sizeof table);
        if (n == 0 || n >= sizeof table)
            return NULL;
        parts++;
    }
    if (parts == 0 || g->map == NULL)
        return NULL;
    return gc_shardmap_find(g->map, parts > 1 ? schema : NULL, table,
                            (const char *const *)g->search_path, g->n_search_path);
}

int gc_global_route_catalog_in_transaction(gc_global *g, const char *schema,
                                           const char *table, bool *joined)
{
    *joined = false;
    if (g->pinned < 0 || g->map == NULL)
        return -1;
    gc_analysis a;
    memset(&a, 0, sizeof a);
    a.schema = (char *)schema;   /* only read */
    a.table = (char *)table;
    const gc_shard_table *t = gc_global_cluster_table(g, &a);
    int group = t != NULL ? gc_shard_table_solo_group(t) : -1;
    if (group < 0 || group == g->topo.members[g->pinned].group)
        return -1;
    int i = gc_global_transaction_member_of_group(g, group);
    *joined = i >= 0;
    if (!*joined) {
        /* The primary, where the transaction's own statements would read
         * (a standby may not have replayed the connection's last DDL yet);
         * a standby when the group has no primary to serve. */
        sync_group(g, group);
        const char *reason = NULL;
        i = gc_router_member_in_group(g->router, group, GC_ACCESS_WRITE, &reason);
        if (i < 0)
            i = gc_router_member_in_group(g->router, group, GC_ACCESS_READ, &reason);
    }
    if (i >= 0)
        g->stats[i].routed_by_key++;
    return i;
}

/* Whether a is an UPDATE whose SET list assigns a sharding-key column of
 * t, which may move rows to another partition. Even sent by SQLExecDirect it
 * goes by its key: only on the owner group are the row's partitions the
 * table's own, so that PostgreSQL moves the row; from another group
 * postgres_fdw updates the partition itself, which refuses the new key
 * (23514), so the outcome would depend on the group the policy drew. */
static bool update_moves_key(const gc_analysis *a, const gc_shard_table *t)
{
    if (a->kind != GC_SQL_UPDATE)
        return false;
    for (int k = 0; k < gc_shard_table_key_count(t); k++)
        for (int c = 0; c < a->n_set_columns; c++)
            if (strcmp(a->set_columns[c], gc_shard_table_key_name(t, k)) == 0)
                return true;
    return false;
}

/* Where the key of t comes from in the statement: cols[k] for key column
 * k. Returns the number of key tuples (rows of an INSERT, values of IN),
 * or -1 with *why when some key column is not pinned. */
static int key_tuples(const gc_analysis *a, const gc_shard_table *t,
                      const gc_pinned_column **cols, int *nk, const char **why)
{
    *nk = gc_shard_table_key_count(t);
    if (*nk <= 0 || *nk > 32) {
        *why = "the table's key cannot be used";
        return -1;
    }
    int tuples = 1;
    for (int k = 0; k < *nk; k++) {
        cols[k] = key_source(a, t, k);
        if (cols[k] == NULL || cols[k]->n_values <= 0) {
            *why = a->not_routable != NULL ? a->not_routable
                                           : "the statement does not pin every key column";
            return -1;
        }
        if (cols[k]->n_values > 1) {
            if (tuples > 1 && cols[k]->n_values != tuples) {
                *why = "key columns with different numbers of values";
                return -1;
            }
            tuples = cols[k]->n_values;
        }
    }
    return tuples;
}

/* The group of key tuple j (its partition's name into *partition, when
 * not NULL), or -1 with *why (a parameter whose value is not known, a key
 * the map cannot place). */
static int place_tuple(gc_global *g, const gc_route_request *req,
                       const gc_shard_table *t, const gc_pinned_column *const *cols, int nk,
                       int j, bool *from_param, const char **partition, const char **why)
{
    const char *texts[32];
    char zoned[32][GC_GLOBAL_ZONED_KEY_MAX];
    bool known = true;
    for (int k = 0; k < nk; k++) {
        const gc_value_source *v = &cols[k]->values[cols[k]->n_values == 1 ? 0 : j];
        texts[k] = value_text(v, req, &known, from_param);
        if (gc_keytype_of_oid(gc_shard_table_key_type(t, k)) == GC_KEY_TIMESTAMPTZ)
            texts[k] = gc_global_zoned_key(g, texts[k], zoned[k]);
    }
    if (!known) {
        *why = "a key parameter's value is not known";
        return -1;
    }
    const char *why_not = NULL;
    int group = gc_shard_table_place(t, texts, partition, &why_not);
    if (group < 0 || group >= g->topo.n_groups) {
        *why = why_not != NULL ? why_not : "the key cannot be placed";
        return -1;
    }
    return group;
}

static bool row_write(const gc_analysis *a)
{
    if (a == NULL || a->read_only)
        return false;
    return a->kind == GC_SQL_INSERT || a->kind == GC_SQL_UPDATE || a->kind == GC_SQL_DELETE ||
           a->kind == GC_SQL_MERGE;
}

/* Whether a text of several statements (or a statement's data-modifying
 * WITH queries) may write: one of its statements is no read-only SELECT,
 * or they are not all known. */
static bool several_writes(const gc_analysis *a)
{
    if (a == NULL || !(a->several || a->writes_in_with))
        return false;
    for (int k = 0; k < a->n_several_targets; k++)
        if (a->several_targets[k].writes)
            return true;
    return a->n_several_targets < 0;
}

/* A row write, or a SELECT that locks rows (FOR UPDATE, FOR SHARE...): in
 * a transaction both must run where their rows are. A lock taken through
 * postgres_fdw belongs to postgres_fdw's session, not to the transaction:
 * the transaction's own later write of the row, sent to its owner, would
 * wait for it until the transaction ends, that is forever. */
static bool claims_rows(const gc_analysis *a)
{
    return row_write(a) || (a != NULL && a->locking_read);
}

const char *gc_global_conflict_leaf(gc_global *g, const gc_route_request *req,
                                    const gc_route_decision *d)
{
    const gc_analysis *a = req->analysis;
    if (a == NULL || a->kind != GC_SQL_INSERT || !a->conflict_target || a->query_length > 0 ||
        a->target_length == 0 || d->spans || d->member < 0 || g->map == NULL)
        return NULL;
    const gc_shard_table *t = gc_global_cluster_table(g, a);
    if (t == NULL || gc_shard_table_solo_group(t) >= 0)
        return NULL;
    const gc_pinned_column *cols[32];
    int nk;
    const char *why, *leaf = NULL;
    int tuples = key_tuples(a, t, cols, &nk, &why);
    for (int j = 0; j < tuples; j++) {
        bool from_param = false;
        const char *partition = NULL;
        int group = place_tuple(g, req, t, cols, nk, j, &from_param, &partition, &why);
        if (group != g->topo.members[d->member].group || partition == NULL ||
            (leaf != NULL && strcmp(partition, leaf) != 0))
            return NULL;
        leaf = partition;
    }
    return leaf != NULL ? gc_shard_table_leaf(t, leaf) : NULL;
}

static int keyed_owner(gc_global *g, const gc_route_request *req, bool *all_in);

/* The group a statement of a text of several statements (or a
 * data-modifying WITH query) keeps to: its solo table's, or for a write of
 * a sharded table the one its keys all place it in; -1 when there is none.
 * req: the execution's parameters, which a WITH query's `$n` name as the
 * whole statement numbers them (a text of several statements has none);
 * NULL: literal keys only. */
static int piece_group(gc_global *g, const gc_route_request *req,
                       const struct gc_several_target *p)
{
    const char *const *path = (const char *const *)g->search_path;
    const gc_shard_table *t = gc_shardmap_find(g->map, p->schema, p->table, path,
                                               g->n_search_path);
    if (t == NULL)
        return -1;
    int solo = gc_shard_table_solo_group(t);
    if (solo >= 0 || !p->writes || p->analysis == NULL || !row_write(p->analysis))
        return solo;
    gc_route_request keyed = { .analysis = p->analysis, .use_keys = true };
    if (req != NULL) {
        keyed.params = req->params;
        keyed.nparams = req->nparams;
    }
    bool all_in = false;
    int group = keyed_owner(g, &keyed, &all_in);
    return all_in ? group : -1;
}

/* The one group a text of several statements runs in, or -1. Its writes
 * must all keep to one group (solo tables of it, rows its keys place
 * there): run anywhere else they would go through postgres_fdw, which the
 * cluster's trigger refuses in such a text; its reads may read other
 * groups through postgres_fdw. A text that only reads keeps to the group
 * of its tables when all are solo tables of one. */
static int several_group(gc_global *g, const gc_route_request *req, const gc_analysis *a)
{
    int writes_in = -1, reads_in = -1;
    bool reads_apart = false;
    for (int k = 0; k < a->n_several_targets; k++) {
        const struct gc_several_target *p = &a->several_targets[k];
        int group = piece_group(g, req, p);
        if (p->writes) {
            if (group < 0 || (writes_in >= 0 && group != writes_in))
                return -1;
            writes_in = group;
        } else if (group < 0 || (reads_in >= 0 && group != reads_in)) {
            reads_apart = true;
        } else {
            reads_in = group;
        }
    }
    if (writes_in >= 0)
        return writes_in;
    return reads_apart ? -1 : reads_in;
}

bool gc_global_text_writes_apart(gc_global *g, const gc_analysis *a)
{
    return a != NULL && a->several && a->n_several_targets > 0 && g->map != NULL &&
           several_writes(a) && several_group(g, NULL, a) < 0;
}

bool gc_global_text_misses_writes(gc_global *g, const gc_analysis *a)
{
    if (a == NULL || !a->several || g->pinned < 0)
        return false;
    /* Run on the pin, its reads of tables written on the transaction's
     * other members would go through postgres_fdw. */
    if (g->n_joined_writes > 0)
        return true;
    /* Run on another group's member, its reads of the pin's writes would. */
    if (!gc_global_pin_wrote(g) || g->map == NULL || a->n_several_targets == 0)
        return false;
    int group = several_group(g, NULL, a);
    return group >= 0 && group != g->topo.members[g->pinned].group;
}

/* The group holding most of the statement's keys (see gc_global_route);
 * -1 with *why when there is none. *all_in: every key tuple is placed in
 * that group (a solo table's rows are all in its group), so a write
 * touches no other. */
static int group_by_key(gc_global *g, const gc_route_request *req, const char **why,
                        const char **source, bool *all_in)
{
    const gc_analysis *a = req->analysis;
    *source = "none";
    *all_in = false;
    /* A text of several statements whose writes keep to one group runs
     * there, as each of its writes alone would (several_group); so does
     * a statement whose data-modifying WITH queries and main statement
     * do (else it is placed by its main statement, as before). */
    int pieces_in = gc_analysis_has_targets(a) && g->map != NULL ? several_group(g, req, a) : -1;
    if (pieces_in >= 0 || (a != NULL && a->several && a->n_several_targets > 0 && g->map != NULL)) {
        *why = pieces_in < 0 ? "more than one statement" : NULL;
        *source = pieces_in < 0 ? "none"
                  : a->several ? "statements of one group" : "the writes of its WITH queries";
        *all_in = pieces_in >= 0;
        return pieces_in;
    }
    if (a == NULL || (a->table == NULL && a->sequence == NULL)) {
        *why = a != NULL && a->not_routable != NULL ? a->not_routable : "no target table";
        return -1;
    }
    if (g->map == NULL) {
        *why = "no shard map";
        return -1;
    }
    const gc_shard_table *t = gc_global_cluster_table(g, a);
    if (t == NULL) {
        *why = "not a cluster table the shard map knows";
        return -1;
    }
    /* Even a statement not routed by key: a solo table's group is the one
     * server that holds its rows. From another a write would go through
     * postgres_fdw, whose foreign table has none of the table's defaults
     * (serial, identity, now()), and a read would cost both servers. */
    int solo = gc_shard_table_solo_group(t);
    if (solo >= 0) {
        *source = "solo table";
        *all_in = true;
        return solo;
    }
    if (!req->use_keys && !update_moves_key(a, t)) {
        *why = "not routed by key (SQLExecDirect: DirectExecuteRouting=No)";
        return -1;
    }
    const gc_pinned_column *cols[32];
    int nk;
    int tuples = key_tuples(a, t, cols, &nk, why);
    if (tuples < 0)
        return -1;
    /* On the stack for clusters of up to 32 groups: no allocation per statement. */
    int few_votes[32] = { 0 };
    int *votes = g->topo.n_groups <= 32 ? few_votes
                                         : calloc((size_t)g->topo.n_groups, sizeof *votes);
    if (votes == NULL) {
        *why = "out of memory";
        return -1;
    }
    int first_group = -1, placed = 0;
    bool from_param = false;
    *why = NULL;
    for (int j = 0; j < tuples; j++) {
        int group = place_tuple(g, req, t, cols, nk, j, &from_param, NULL, why);
        if (group < 0)
            continue;
        if (first_group < 0)
            first_group = group;
        votes[group]++;
        placed++;
    }
    int group = placed > 0 ? gc_router_group_by_votes(g->router, votes, first_group) : -1;
    *all_in = group >= 0 && placed == tuples && votes[group] == tuples;
    if (votes != few_votes)
        free(votes);
    if (group >= 0)
        *source = from_param ? "parameter" : "literal";
    else if (*why == NULL)
        *why = "no key value";
    return group;
}

/* group_by_key looking at the keys whatever req->use_keys says: where the
 * rows are, however the statement is routed. */
int gc_global_key_partitions(gc_global *g, const gc_route_request *req,
                             const gc_shard_table *t, const char **names, int max)
{
    const gc_pinned_column *cols[32];
    int nk;
    const char *why;
    int tuples = req->analysis != NULL ? key_tuples(req->analysis, t, cols, &nk, &why) : -1;
    if (tuples < 0 || tuples > max)
        return -1;
    for (int j = 0; j < tuples; j++) {
        bool from_param = false;
        names[j] = NULL;
        if (place_tuple(g, req, t, cols, nk, j, &from_param, &names[j], &why) < 0 ||
            names[j] == NULL)
            return -1;
    }
    return tuples;
}

static int keyed_owner(gc_global *g, const gc_route_request *req, bool *all_in)
{
    gc_route_request keyed = *req;
    keyed.use_keys = true;
    const char *why, *source;
    return group_by_key(g, &keyed, &why, &source, all_in);
}

/* How many groups hold leaf partitions of t; -1 when unknown. */
static int groups_with_leaves(const gc_global *g, const gc_shard_table *t)
{
    int groups = 0;
    for (int gi = 0; gi < g->topo.n_groups; gi++) {
        int n = gc_shard_table_leaves(t, gi, NULL, 0);
        if (n < 0)
            return -1;
        groups += n > 0;
    }
    return groups;
}

/* For an INSERT whose VALUES rows the map places in several groups (or,
 * with ON CONFLICT (...), in several leaf partitions): every row's group
 * into g->span_rows and its leaf into g->span_leaves (the plan
 * gc_global_run_spanning_write follows). False when a row cannot be
 * placed (the INSERT then cannot be split) or memory runs out. */
static bool place_rows(gc_global *g, const gc_route_request *req, const gc_shard_table *t)
{
    const gc_analysis *a = req->analysis;
    const gc_pinned_column *cols[32];
    int nk;
    const char *why;
    if (a->row_offset == NULL || key_tuples(a, t, cols, &nk, &why) != a->n_rows)
        return false;
    int *rows = realloc(g->span_rows, (size_t)a->n_rows * sizeof *rows);
    if (rows != NULL)
        g->span_rows = rows;
    const char **leaves = realloc(g->span_leaves, (size_t)a->n_rows * sizeof *leaves);
    if (leaves != NULL)
        g->span_leaves = leaves;
    if (rows == NULL || leaves == NULL)
        return false;
    bool from_param = false;
    for (int j = 0; j < a->n_rows; j++) {
        const char *partition = NULL;
        rows[j] = place_tuple(g, req, t, cols, nk, j, &from_param, &partition, &why);
        leaves[j] = partition != NULL ? gc_shard_table_leaf(t, partition) : NULL;
        if (rows[j] < 0 || (a->conflict_target && leaves[j] == NULL))
            return false;
    }
    return true;
}

/* Whether the INSERT ... ON CONFLICT (...) whose rows place_rows placed
 * has them in several leaf partitions: none of them can take it whole
 * (its parent has no unique index to infer from), so each leaf's rows
 * go apart. */
static bool rows_in_several_leaves(const gc_global *g, const gc_analysis *a)
{
    for (int r = 1; r < a->n_rows; r++)
        if (strcmp(g->span_leaves[r], g->span_leaves[0]) != 0)
            return true;
    return false;
}

/* Whether the statement may write rows outside `group` (see
 * gc_global_may_write_elsewhere). owner and all_in: group_by_key's answer
 * when it looked at the keys, else owner -2 to look here. */
static bool writes_outside(gc_global *g, const gc_route_request *req, int group, int owner,
                           bool all_in)
{
    const gc_analysis *a = req->analysis;
    if (a != NULL && (a->read_only || a->locking_read))
        return false;    /* a row lock is no write */
    switch (a != NULL ? a->kind : GC_SQL_UNKNOWN) {
    case GC_SQL_BEGIN: case GC_SQL_COMMIT: case GC_SQL_ROLLBACK: case GC_SQL_SAVEPOINT:
    case GC_SQL_SET: case GC_SQL_SHOW: case GC_SQL_MAINTENANCE:
        return false;    /* write no rows */
    case GC_SQL_INSERT: case GC_SQL_UPDATE: case GC_SQL_DELETE: case GC_SQL_MERGE:
        break;
    default:
        return true;     /* a SELECT that writes, DDL, CALL...: cannot tell where */
    }
    if (owner == -2)
        owner = keyed_owner(g, req, &all_in);   /* however the statement is routed */
    if (owner >= 0)
        return owner != group || !all_in;
    /* Not placed by key: outside, unless its table is no cluster table
     * (the member's own). */
    return a->table == NULL || g->map == NULL || gc_global_cluster_table(g, a) != NULL;
}

/* Whether the statement, run on member i in a transaction, may reach
 * another group's rows through postgres_fdw there (after which PostgreSQL
 * refuses to PREPARE i's part): all but transaction control and a
 * statement of one cluster table (gc_analysis.one_relation) whose rows are
 * all in i's group. owner and all_in as for writes_outside. */
static bool may_reach_out(gc_global *g, const gc_route_request *req, int i, int owner,
                          bool all_in)
{
    const gc_analysis *a = req->analysis;
    switch (a != NULL ? a->kind : GC_SQL_UNKNOWN) {
    case GC_SQL_BEGIN: case GC_SQL_COMMIT: case GC_SQL_ROLLBACK: case GC_SQL_SAVEPOINT:
    case GC_SQL_SET: case GC_SQL_SHOW:
        return false;
    default:
        break;
    }
    if (a == NULL || !a->one_relation || g->map == NULL || gc_global_cluster_table(g, a) == NULL)
        return true;
    if (owner == -2)
        owner = keyed_owner(g, req, &all_in);
    return owner != g->topo.members[i].group || !all_in;
}

#define TABLES_READ_MAX 16

/* The cluster tables sql names in its FROM lists and JOINs (gc_sql_table_refs),
 * in order, NULL for a name the shard map does not know; their number, or
 * -1 when the text cannot be read or names more than TABLES_READ_MAX. */
static int tables_read(gc_global *g, const char *sql,
                       const gc_shard_table *tables[TABLES_READ_MAX])
{
    if (sql == NULL || g->map == NULL)
        return -1;
    gc_sql_table_ref refs[TABLES_READ_MAX];
    int n = gc_sql_table_refs(sql, strlen(sql), refs, TABLES_READ_MAX);
    if (n < 0 || n > TABLES_READ_MAX)
        return -1;
    for (int k = 0; k < n; k++)
        tables[k] = gc_global_table_named(g, sql + refs[k].offset, refs[k].length);
    return n;
}

/* Whether the statement of req, whose keys place all its rows of its own
 * table in group, names in a FROM list or a JOIN another cluster table
 * with rows outside group (another group's solo table, a sharded table):
 * run there, it reads them through postgres_fdw. */
static bool reads_outside(gc_global *g, const gc_route_request *req, int group)
{
    const gc_shard_table *tables[TABLES_READ_MAX];
    int n = req->analysis != NULL ? tables_read(g, req->sql, tables) : -1;
    const gc_shard_table *own = n > 0 ? gc_global_cluster_table(g, req->analysis) : NULL;
    for (int k = 0; k < n; k++)
        if (tables[k] != NULL && tables[k] != own && gc_shard_table_solo_group(tables[k]) != group)
            return true;
    return false;
}

/* Whether a read, sent to the transaction's member `held` rather than to
 * its pin, would make held a second member that read another group
 * through postgres_fdw, after the pin: PostgreSQL then refuses to PREPARE
 * one of them and the COMMIT fails, rolling everything back. On the pin,
 * which may have read through postgres_fdw already, it adds no such member
 * (the rows the transaction wrote on held come as a split read, or the
 * read is refused before it is sent, the transaction going on). */
static bool second_to_reach_out(gc_global *g, const gc_route_request *req, int held)
{
    return g->n_reaching == 1 && g->reaching == g->pinned &&
           reads_outside(g, req, g->topo.members[held].group);
}

/* Whether a split read run in group reads no other group through
 * postgres_fdw: every table it names in a FROM list or a JOIN is a solo
 * table, of that group or written by the transaction in its own group
 * (its rows brought as the split read's values). Anything else (a
 * sharded table, a view, a table the shard map does not know) counts as
 * read through postgres_fdw. */
static bool split_read_stays_home(gc_global *g, const char *sql, int group)
{
    if (g->split_brings_all)
        return true;    /* everything it reads elsewhere is brought */
    const gc_shard_table *tables[TABLES_READ_MAX];
    int n = tables_read(g, sql, tables);
    if (n <= 0)
        return false;
    for (int k = 0; k < n; k++) {
        int solo = tables[k] != NULL ? gc_shard_table_solo_group(tables[k]) : -1;
        if (solo < 0 || (solo != group && !gc_global_written_in_group(g, tables[k], solo)))
            return false;
    }
    return true;
}

void gc_global_note_reaching(gc_global *g, int i)
{
    if (g->n_reaching == 0)
        g->reaching = i;
    else if (g->reaching != i)
        g->n_reaching = 2;
    if (g->n_reaching == 0)
        g->n_reaching = 1;
}

/* A write across groups runs a part on a member of each group. The part
 * of one naming only its target (one_relation) reads that member's own
 * leaves, and a TRUNCATE's or LOCK TABLE's parts read nothing; others (a
 * subquery, a WITH query, UPDATE ... FROM), and the query of an INSERT ...
 * SELECT (read whole on the coordinator), may read other groups through
 * postgres_fdw: the commit asks which did (gc_global_settle_reaching). */
static void note_span_parts_reaching(gc_global *g, const gc_analysis *a)
{
    bool query_read_whole = a->kind == GC_SQL_INSERT && a->query_length > 0;
    if (query_read_whole || (!a->one_relation && !gc_global_may_name_tables_to_place(a)))
        g->n_reaching = 2;
}

static gc_route_access access_of(const gc_route_request *req)
{
    if (req->serializable || req->creates_temp)
        return GC_ACCESS_WRITE;   /* PostgreSQL has no serializable on a standby */
    if (req->read_only_mode)
        return GC_ACCESS_READ;
    if (req->transaction)
        return GC_ACCESS_WRITE;   /* the transaction may write later */
    /* route_as_read, not read_only: a SELECT calling a function the
     * analyzer does not know may go where reads go (a standby refuses a
     * write with 25006, applying nothing); re-running it stays forbidden. */
    return req->analysis != NULL && req->analysis->route_as_read ? GC_ACCESS_READ
                                                                 : GC_ACCESS_WRITE;
}

/* Whether the pinned member still has its transaction open (the server's
 * view through libpq; a COMMIT or ROLLBACK sent in SQL ends it). */
static bool pin_holds(gc_global *g)
{
    if (g->pinned < 0)
        return false;
    if (!gc_member_is_open(g->members[g->pinned])) {
        /* The transaction's member went down: the transaction is lost,
         * never silently continued elsewhere. */
        gc_global_member_failed(g, g->pinned, 0, NULL);
        return false;
    }
    PGTransactionStatusType ts = gc_member_txn_status(g->members[g->pinned]);
    if (ts == PQTRANS_INTRANS || ts == PQTRANS_INERROR || ts == PQTRANS_ACTIVE)
        return true;
    gc_global_release_pin(g);
    return false;
}

static const char *table_name(const gc_analysis *a)
{
    return a != NULL && a->table != NULL ? a->table : "-";
}

/* Where one statement between transactions goes: the group (by key, else
 * by policy) and its member; member -1 when none can serve. */
typedef struct route_choice {
    int group, member;
    int owner;                    /* the key's group; -1 none; -2 keys not used */
    bool by_key, all_in;
    bool key_group_down;          /* the key's group had no member to serve */
    const char *why, *source, *group_reason, *member_reason;   /* for the trace */
} route_choice;

static void choose(gc_global *g, const gc_route_request *req, gc_route_access access,
                   route_choice *c)
{
    c->why = NULL;
    c->source = "none";
    c->group_reason = NULL;
    c->member_reason = NULL;
    c->all_in = false;
    c->key_group_down = false;
    int group = group_by_key(g, req, &c->why, &c->source, &c->all_in);
    c->owner = req->use_keys ? group : -2;
    c->by_key = group >= 0;
    if (c->by_key) {
        sync_group(g, group);
        if (access == GC_ACCESS_WRITE && !gc_router_group_can_serve(g->router, group, access))
            probe_group_roles(g, group);   /* a standby may have been promoted */
    }
    if (!c->by_key || !gc_router_group_can_serve(g->router, group, access))
        gc_global_sync_router(g);   /* another group will be chosen */
    if (group >= 0 && !gc_router_group_can_serve(g->router, group, access)) {
        c->why = "the key's group has no usable member";
        group = -1;
        c->by_key = false;
        c->key_group_down = true;
    }
    if (group < 0)
        group = gc_router_group_by_policy(g->router, access, &c->group_reason);
    else
        c->group_reason = "the group owning the key";
    c->group = group;
    c->member = group >= 0 ? gc_router_member_in_group(g->router, group, access,
                                                       &c->member_reason)
                           : -1;
}

/* Whether a row write runs across groups (gc_global_span.c): an UPDATE or
 * DELETE of a sharded table whose rows the shard map does not place in one
 * group, whose target the text names plainly and whose every leaf's owner
 * is known; an INSERT whose VALUES rows the map places, in several
 * groups (their groups go into g->span_rows); an INSERT ... SELECT.
 * owner and all_in: group_by_key's answer; owner -2 when it did not look at
 * keys (they are looked at here: atomicity needs them). */
static bool spans_groups(gc_global *g, const gc_route_request *req, int owner, bool all_in)
{
    const gc_analysis *a = req->analysis;
    if (gc_global_may_name_tables_to_place(a))
        return gc_global_truncate_spans(g, req->sql, req->transaction);
    if (a != NULL && a->kind == GC_SQL_INSERT && a->conflict_target && a->n_rows > 1 &&
        owner >= 0 && all_in && a->table != NULL && g->map != NULL) {
        const gc_shard_table *t = gc_global_cluster_table(g, a);
        if (t != NULL && gc_shard_table_solo_group(t) < 0 && place_rows(g, req, t) &&
            rows_in_several_leaves(g, a)) {
            gc_trace_write(g->trace, GC_TRACE_INFO, "route: table %s: INSERT ... ON CONFLICT "
                           "of rows for several partitions, sent apart", a->table);
            return true;
        }
    }
    /* A write placed in one group (the common keyed write) is decided by
     * the answer routing already has: no second shard-map lookup. */
    if (!row_write(a) || a->kind == GC_SQL_MERGE || a->table == NULL || g->map == NULL ||
        (a->kind != GC_SQL_INSERT && a->target_length == 0) || (owner >= 0 && all_in))
        return false;
    if (owner == -2) {
        owner = keyed_owner(g, req, &all_in);
        if (owner >= 0 && all_in)
            return false;
    }
    const gc_shard_table *t = gc_global_cluster_table(g, a);
    if (t == NULL || gc_shard_table_solo_group(t) >= 0)
        return false;
    if (a->kind == GC_SQL_INSERT && a->query_length > 0) {
        /* INSERT ... SELECT: its rows are placed as the driver reads them. */
        gc_trace_write(g->trace, GC_TRACE_INFO, "route: table %s: INSERT ... SELECT, its "
                       "rows sent to their groups", a->table);
        return true;
    }
    if (a->kind == GC_SQL_INSERT) {
        if (!place_rows(g, req, t))
            return false;
        gc_trace_write(g->trace, GC_TRACE_INFO, "route: table %s: INSERT of rows for "
                       "several groups, sent apart", a->table);
        return true;
    }
    /* Leaves in one group only: that group is the statement's, as by key. */
    if (groups_with_leaves(g, t) < 2)
        return false;
    gc_trace_write(g->trace, GC_TRACE_INFO, "route: table %s: write across groups",
                   a->table);
    return true;
}

/* Refuses (0A000) a row write in a transaction that the shard map cannot
 * place in one group and that cannot run across groups (spans_groups): an
 * INSERT of rows for several groups, INSERT ... SELECT, MERGE. From any
 * member it would reach the other groups through postgres_fdw, which
 * commits its remote part on its own, before the transaction's COMMIT:
 * never atomically (docs/global-connection.md,
 * "Transactions across groups"). owner and all_in: group_by_key's answer
 * with keys used. */
static bool refuse_spanning_write(gc_global *g, const gc_route_request *req, int owner,
                                  bool all_in, const char *why, gc_error *err)
{
    const gc_analysis *a = req->analysis;
    if (!claims_rows(a) || a->table == NULL || g->map == NULL || (owner >= 0 && all_in))
        return false;
    const gc_shard_table *t = gc_global_cluster_table(g, a);
    if (t == NULL || gc_shard_table_solo_group(t) >= 0)
        return false;
    const char *keys =
        owner >= 0 ? "its keys belong to several groups" : why != NULL ? why : "no key";
    if (a->locking_read)
        gc_error_set(err, "0A000", GC_GLOBAL_NATIVE_SPANNING_WRITE,
                     "a SELECT that locks rows (FOR UPDATE, FOR SHARE) in a transaction on a "
                     "global connection must place its rows in one group: this one on "
                     "sharded table %s (%s) would lock other groups' rows through "
                     "postgres_fdw, whose session would hold the locks instead of the "
                     "transaction, and the transaction's own write of such a row would "
                     "wait for them; give the sharding key (one statement per owner group)",
                     a->table, keys);
    else
        gc_error_set(err, "0A000", GC_GLOBAL_NATIVE_SPANNING_WRITE,
                     "a write in a transaction on a global connection must place its rows in "
                     "one group: this one on sharded table %s (%s) would reach other groups "
                     "through postgres_fdw, whose part cannot commit atomically with the "
                     "transaction; give the sharding key (one statement per owner group)",
                     a->table, keys);
    gc_trace_write(g->trace, GC_TRACE_INFO, "route: table %s: %s across groups refused "
                   "in a transaction", a->table, a->locking_read ? "row locks" : "write");
    return true;
}

/* Decides member i of the open transaction (the pin or a joined member). */
static void to_transaction_member(const gc_global *g, int i, const char *reason,
                                  gc_route_decision *out)
{
    out->member = i;
    out->group = g->topo.members[i].group;
    out->pinned = i == g->pinned;
    out->reason = reason;
}

/* In the open transaction: its pinned member, unless the statement's key
 * (looked at even for SQLExecDirect: a write's owner decides atomicity)
 * places it in another group. There it runs on the member the transaction
 * holds in that group; a write, or a SELECT that locks rows, joins that
 * group's primary first (out->join). A read of a group the transaction
 * does not hold follows the pin, through postgres_fdw. */
static bool route_in_transaction_to(gc_global *g, const gc_route_request *req, bool names_temp,
                                    gc_route_decision *out, gc_error *err)
{
    int pin_group = g->topo.members[g->pinned].group;
    to_transaction_member(g, g->pinned, "pinned to the open transaction", out);
    const gc_analysis *a = req->analysis;
    /* A statement naming a temporary table runs where the table is: the
     * pin (temp_table_member refused any other). */
    if (!names_temp && gc_global_may_name_tables_to_place(a)) {
        bool spans;
        if (!gc_global_truncate_in_transaction(g, req->sql, &spans, err))
            return false;
        if (spans) {
            out->spans = true;    /* what it writes is noted (TRUNCATE) */
            return true;
        }
    }
    /* Rows it writes or locks, or a solo table's sequence (no foreign twin
     * reaches it), are served by their own group only. */
    bool on_owner = a != NULL && (claims_rows(a) || a->sequence != NULL ||
                                  gc_analysis_has_targets(a));
    /* Where the keys are, once looked at (-2: not looked at). */
    int owner = -2;
    bool all_in = false;
    if (!names_temp && a != NULL &&
        (a->table != NULL || a->sequence != NULL || a->n_several_targets > 0) &&
        g->map != NULL && (on_owner || g->n_joined > 0)) {
        gc_route_request keyed = *req;
        keyed.use_keys = true;
        const char *why = NULL, *source = NULL;
        owner = group_by_key(g, &keyed, &why, &source, &all_in);
        if (spans_groups(g, req, owner, all_in)) {
            /* An INSERT ... SELECT reads its query on the pin; other
             * spanning writes run on each group's own member. */
            if (a->kind == GC_SQL_INSERT && a->query_length > 0
                    ? !gc_global_span_query_sees_writes(g, req, &out->split_read, err)
                    : !gc_global_span_reads_see_writes(g, req, err))
                return false;
            out->spans = true;
            note_span_parts_reaching(g, a);
            gc_global_note_joined_write(g, a, -1);
            return true;
        }
        if (refuse_spanning_write(g, req, owner, all_in, why, err))
            return false;
        int held = owner >= 0 && all_in ? gc_global_transaction_member_of_group(g, owner) : -1;
        if (held >= 0 && owner != pin_group && !on_owner && second_to_reach_out(g, req, held))
            held = -1;    /* the read stays on the pin */
        if (owner >= 0 && all_in && owner != pin_group && held >= 0) {
            out->member = held;
            out->group = owner;
            out->by_key = true;
            out->reason = "the transaction's member of the key's group";
        } else if (owner >= 0 && all_in && owner != pin_group && on_owner) {
            sync_group(g, owner);
            /* As between transactions: a standby may have been promoted
             * (the primary this connection knew is down). */
            if (!gc_router_group_can_serve(g->router, owner, GC_ACCESS_WRITE))
                probe_group_roles(g, owner);
            const char *member_reason = NULL;
            int m = gc_router_member_in_group(g->router, owner, GC_ACCESS_WRITE, &member_reason);
            if (m < 0 || gc_member_get_role(g->members[m]) == GC_ROLE_STANDBY) {
                gc_error_set(err, "08S01", 0, "communication link failure: the transaction "
                             "writes in group %s, which has no primary to run it",
                             g->topo.groups[owner].name);
                return false;
            }
            out->member = m;
            out->group = owner;
            out->by_key = true;
            out->join = true;
            out->reason = "joins the key's group for the transaction";
        }
    }
    if (out->member != g->pinned && !names_temp) {
        /* After another member of the transaction read other groups, a
         * second that does could not PREPARE, and the COMMIT would fail:
         * what it would read elsewhere is brought to it when it can be. */
        if (g->n_reaching >= 1 && g->reaching != out->member &&
            may_reach_out(g, req, out->member, owner, all_in) &&
            gc_global_read_splits_home(g, req, out->member))
            out->split_read = true;
        else if (!gc_global_member_read_sees_writes(g, req, out->member, &out->split_read, err))
            return false;
    }
    bool writes = row_write(a) || several_writes(a);
    if (out->member == g->pinned && writes && !names_temp)
        gc_global_note_pin_write(g, a);
    if (out->member != g->pinned && writes) {
        gc_global_note_joined_write(g, a, out->group);
    } else if (out->member == g->pinned && !names_temp &&
               g->n_joined_writes > 0) {
        if (owner == -2)
            owner = keyed_owner(g, req, &all_in);
        if (!gc_global_read_sees_writes(g, req, owner, all_in, &out->split_read, err))
            return false;
    }
    if (out->by_key)
        g->stats[out->member].routed_by_key++;
    else
        g->stats[out->member].routed_by_policy++;
    /* Once the transaction may have written elsewhere, it stays so:
     * its later statements need not be placed. */
    if (!g->may_write_elsewhere && writes_outside(g, req, out->group, -2, false))
        g->may_write_elsewhere = true;
    /* Once several members may have reached out, no statement changes
     * who decides: nothing more to look at. */
    if (g->n_reaching < 2 &&
        (names_temp || (may_reach_out(g, req, out->member, owner, all_in) &&
                        !(out->split_read && split_read_stays_home(g, req->sql, out->group)))))
        gc_global_note_reaching(g, out->member);
    gc_trace_write(g->trace, GC_TRACE_INFO, "route: table %s -> member %s (%s)",
                   table_name(req->analysis), g->topo.members[out->member].name,
                   out->reason);
    return true;
}

/* The member whose open session is `generation`; -1 when none is (the
 * session failed, was closed or reconnected). */
static int member_of_session(const gc_global *g, unsigned long generation)
{
    for (int i = 0; i < g->topo.n_members; i++)
        if (gc_member_generation(g->members[i]) == generation &&
            gc_member_is_open(g->members[i]) &&
            gc_member_get_state(g->members[i]) != GC_MEMBER_DOWN)
            return i;
    return -1;
}

/* The member a statement must run on because it names a registered
 * temporary table: *member -1 when it names none. False with err when it
 * cannot run at all (see gc_global_route); nothing is sent then. */
static bool temp_table_member(gc_global *g, const gc_route_request *req, int *member,
                              gc_error *err)
{
    *member = -1;
    if (req->sql == NULL || gc_temp_tables_count(g->temps) == 0)
        return true;
    gc_temp_use use;
    size_t len = strlen(req->sql);
    int found = gc_temp_tables_find(g->temps, req->sql, len, &use, err);
    if (found <= 0)
        return found == 0;
    int i = member_of_session(g, use.generation);
    /* Creating a lost table again is the way back: nothing to report. */
    while (i < 0 && req->creates_temp && gc_temp_sql_creates(req->sql, len, use.table)) {
        gc_temp_tables_forget(g->temps, use.table);
        found = gc_temp_tables_find(g->temps, req->sql, len, &use, err);
        if (found <= 0)
            return found == 0;
        i = member_of_session(g, use.generation);
    }
    if (i < 0) {
        gc_error_set(err, "42P01", GC_TEMP_TABLES_NATIVE_LOST,
                     "temporary table %s was lost with member %s's session (the member "
                     "failed or its session was reconnected); nothing was sent; create "
                     "the table again", use.table, use.member);
        gc_trace_write(g->trace, GC_TRACE_INFO, "route: temporary table %s lost with %s",
                       use.table, use.member);
        /* Reported once: the name is an ordinary one again. */
        gc_temp_tables_forget(g->temps, use.table);
        return false;
    }
    if (pin_holds(g) && g->pinned != i) {
        gc_error_set(err, "0A000", GC_TEMP_TABLES_NATIVE_ELSEWHERE,
                     "temporary table %s lives on member %s's session, but the open "
                     "transaction runs on member %s; end the transaction first, or name "
                     "the table in the transaction's first statement",
                     use.table, use.member, g->topo.members[g->pinned].name);
        return false;
    }
    *member = i;
    return true;
}

/* Between transactions, a statement naming a temporary table goes to its
 * member (a primary: temporary tables are made there), and a transaction
 * it begins is pinned there; so does a statement that policy would place,
 * of a connection whose temporary tables all live on one member session
 * (temp_session_member). */
static bool route_to_temp_member(gc_global *g, const gc_route_request *req, int member,
                                 const char *reason, gc_route_decision *out)
{
    out->member = member;
    out->group = g->topo.members[member].group;
    out->reason = reason;
    g->stats[member].routed_by_policy++;
    g->may_write_elsewhere = writes_outside(g, req, out->group, -2, false);
    if (req->transaction) {
        g->pinned = member;
        gc_global_note_reaching(g, member);   /* temporary tables: it cannot PREPARE */
    }
    gc_trace_write(g->trace, GC_TRACE_INFO, "route: table %s -> member %s (%s)%s",
                   table_name(req->analysis), g->topo.members[member].name, out->reason,
                   req->transaction ? ", pinned for the transaction" : "");
    return true;
}

/* The member whose session holds every temporary table of the connection,
 * when they all live on one session that is still open; else -1. A
 * statement no key places and that is not read-only goes there rather
 * than where policy says: a function it calls may use those tables, which
 * no other session has (psqlODBC's own programs make such a function). A
 * read-only statement calls only functions the driver knows, and one that
 * names a temporary table goes to it anyway, so reads keep the policy. */
static int temp_session_member(const gc_global *g)
{
    unsigned long generation;
    if (!gc_temp_tables_one_session(g->temps, &generation))
        return -1;
    return member_of_session(g, generation);
}

/* Whether every row a row write may touch lies in one group: its key
 * tuples all placed in one (owner, all_in: group_by_key's answer, owner -2
 * when keys were not looked at), an INSERT of one VALUES row or of DEFAULT
 * VALUES (one row is in one partition, wherever its key, a sequence's
 * default say, places it), its table a solo one or one whose leaves are
 * all in one group, or no cluster table (the member's own). */
static bool rows_in_one_group(gc_global *g, const gc_route_request *req, int owner, bool all_in)
{
    const gc_analysis *a = req->analysis;
    if (owner == -2)
        owner = keyed_owner(g, req, &all_in);
    if (owner >= 0 && all_in)
        return true;
    bool one_row = (a->row_offset != NULL && a->n_rows == 1) || a->default_values;
    if (a->kind == GC_SQL_INSERT && one_row)
        return true;
    if (a->table == NULL || g->map == NULL)
        return false;
    const gc_shard_table *t = gc_global_cluster_table(g, a);
    if (t == NULL || gc_shard_table_solo_group(t) >= 0)
        return true;
    int n = groups_with_leaves(g, t);
    return n >= 0 && n <= 1;
}

/* gc_global_statement_marked for an autocommit statement routed to one
 * member (see there): only a plain write of one table proven to stay in
 * one group goes unmarked among the statements that may write rows. */
static bool needs_statement_mark(gc_global *g, const gc_route_request *req, int owner,
                                 bool all_in)
{
    const gc_analysis *a = req->analysis;
    if (a == NULL || a->several)
        return true;      /* unknown, or several statements */
    if (a->read_only || a->locking_read)
        return false;     /* writes no row: the trigger never fires */
    switch (a->kind) {
    case GC_SQL_BEGIN: case GC_SQL_COMMIT: case GC_SQL_ROLLBACK: case GC_SQL_SAVEPOINT:
    case GC_SQL_SET: case GC_SQL_SHOW: case GC_SQL_DDL:
        return false;
    case GC_SQL_MAINTENANCE:
        return false;     /* no rows; REINDEX of a partitioned table refuses a pipeline */
    case GC_SQL_INSERT: case GC_SQL_UPDATE: case GC_SQL_DELETE: case GC_SQL_MERGE:
        return !a->plain_write || !rows_in_one_group(g, req, owner, all_in);
    default:
        return true;      /* a SELECT that may write, CALL, DO, anything else */
    }
}

/* The member whose failed statement left the open transaction aborted
 * (rollback level 0), unless the statement ends the transaction or goes
 * back to a savepoint; else -1. */
static int aborted_before(const gc_global *g, const gc_route_request *req)
{
    const gc_analysis *a = req->analysis;
    if (a != NULL && (a->kind == GC_SQL_COMMIT || a->kind == GC_SQL_ROLLBACK ||
                      (a->kind == GC_SQL_SAVEPOINT && !a->several &&
                       gc_global_savepoint_goes_back(req->sql))))
        return -1;
    return gc_global_aborted_member(g);
}

/* Whether the target table a names is missing on the pin, as its open
 * transaction sees it (one round trip; a query that cannot fail there). */
static bool target_missing_on_pin(gc_global *g, const gc_analysis *a)
{
    if (a == NULL || a->table == NULL)
        return false;
    gc_strbuf name, sql;
    gc_strbuf_init(&name);
    gc_strbuf_init(&sql);
    if (a->schema != NULL) {
        gc_sql_append_identifier(&name, a->schema);
        gc_strbuf_append_str(&name, ".");
    }
    gc_sql_append_identifier(&name, a->table);
    gc_strbuf_append_str(&sql, "SELECT to_regclass(");
    gc_ddl_append_literal(&sql, name.failed ? "" : name.data);
    gc_strbuf_append_str(&sql, ") IS NULL");
    bool missing = false;
    gc_error e;
    gc_error_clear(&e);
    PGresult *r = name.failed || sql.failed ? NULL
                                            : gc_member_exec(g->members[g->pinned], sql.data, &e);
    if (r != NULL && PQntuples(r) == 1)
        missing = PQgetvalue(r, 0, 0)[0] == 't';
    PQclear(r);
    gc_strbuf_free(&name);
    gc_strbuf_free(&sql);
    return missing;
}

/* A statement the driver refused for a reason of its own (0A000, nothing
 * sent) whose target table does not exist: one server answers 42P01
 * first, so it goes to the pin, which answers so. */
static bool refusal_gives_way(gc_global *g, const gc_route_request *req, gc_route_decision *out,
                              gc_error *err)
{
    if (strcmp(err->sqlstate, "0A000") != 0 || !target_missing_on_pin(g, req->analysis))
        return false;
    gc_error_clear(err);
    memset(out, 0, sizeof *out);
    to_transaction_member(g, g->pinned,
                          "pinned to the open transaction (its target table does not exist there)",
                          out);
    return true;
}

/* Rollback level 0 leaves the transaction aborted after a failed
 * statement. On one server every later statement fails until the
 * transaction ends, with the server's own answer: a syntax error (42601)
 * before 25P02. So here every statement goes to the member whose failure
 * aborted the transaction, which answers so, whichever member it would
 * have run on (none joins, none runs it). Ending the transaction, and
 * ROLLBACK TO a savepoint, are routed as usual, as is every statement of
 * a transaction that is not aborted. */
static bool route_in_transaction(gc_global *g, const gc_route_request *req, bool names_temp,
                                 gc_route_decision *out, gc_error *err)
{
    int aborted = aborted_before(g, req);
    if (aborted < 0)
        return route_in_transaction_to(g, req, names_temp, out, err) ||
               refusal_gives_way(g, req, out, err);
    to_transaction_member(g, aborted, "the member whose failed statement left the transaction "
                                      "aborted (it answers as one server)", out);
    return true;
}

bool gc_global_route(gc_global *g, const gc_route_request *req, gc_route_decision *out,
                     gc_error *err)
{
    assert(g != NULL && req != NULL && out != NULL);
    memset(out, 0, sizeof *out);
    g->statement_marked = false;
    int temp_member;
    if (!temp_table_member(g, req, &temp_member, err))
        return false;
    if (pin_holds(g))
        return route_in_transaction(g, req, temp_member >= 0, out, err);
    if (req->transaction && gc_global_txn_lost(g)) {
        /* Until the application rolls back, its transaction stays lost. */
        gc_global_txn_lost_error(err);
        return false;
    }
    if (temp_member >= 0)
        return route_to_temp_member(g, req, temp_member,
                                    "names a temporary table of this member's session", out);
    /* Between transactions: members due for a reconnect try it now. */
    gc_global_retry_down_members(g, req->setup_sql);
    gc_route_access access = access_of(req);
    route_choice c;
    choose(g, req, access, &c);
    /* Nothing can run it, or only another group through postgres_fdw:
     * members not retried since they failed are tried now. */
    if ((c.member < 0 || c.key_group_down) && gc_global_retry_early(g, req->setup_sql))
        choose(g, req, access, &c);    /* a member came back */
    if (spans_groups(g, req, c.owner, c.all_in)) {
        out->spans = true;
        if (req->transaction && gc_global_may_name_tables_to_place(req->analysis))
            gc_global_note_truncate_begins(g, req->sql);
        else if (req->transaction)
            gc_global_note_joined_write(g, req->analysis, -1);
        note_span_parts_reaching(g, req->analysis);
        return true;
    }
    if (req->transaction && refuse_spanning_write(g, req, c.owner, c.all_in, c.why, err))
        return false;
    bool read_only = req->analysis != NULL && req->analysis->read_only;
    int affine = c.by_key || read_only ? -1 : temp_session_member(g);
    if (affine >= 0)
        return route_to_temp_member(g, req, affine, "the connection's temporary tables are on "
                                    "this member's session", out);
    /* A transaction's write runs in its key's group or not at all: from
     * another group it would reach it through postgres_fdw, outside the
     * two phases (docs/global-connection.md, "Transactions across groups").
     * So does a SELECT that locks rows (claims_rows). */
    if (req->transaction && claims_rows(req->analysis) && c.owner >= 0 && c.all_in &&
        c.group != c.owner) {
        gc_error_set(err, "08S01", 0, "communication link failure: the transaction writes in "
                     "group %s, which has no primary to run it", g->topo.groups[c.owner].name);
        return false;
    }
    if (c.member < 0) {
        gc_error_set(err, "08S01", 0,
                     "communication link failure: no member of the cluster can run the statement");
        gc_trace_write(g->trace, GC_TRACE_INFO, "route: table %s: no usable member",
                       table_name(req->analysis));
        return false;
    }
    out->member = c.member;
    out->group = c.group;
    out->by_key = c.by_key;
    /* A new transaction, or an autocommit statement: its own writes only. */
    g->may_write_elsewhere = writes_outside(g, req, c.group, c.owner, c.all_in);
    g->statement_marked = !req->transaction && needs_statement_mark(g, req, c.owner, c.all_in);
    out->reason = c.by_key ? "by key" : c.why;
    if (c.by_key)
        g->stats[c.member].routed_by_key++;
    else
        g->stats[c.member].routed_by_policy++;
    if (req->transaction) {
        g->pinned = c.member;
        if (row_write(req->analysis) || several_writes(req->analysis))
            gc_global_note_pin_write(g, req->analysis);
        if (may_reach_out(g, req, c.member, c.owner, c.all_in))
            gc_global_note_reaching(g, c.member);
    }
    gc_trace_write(g->trace, GC_TRACE_INFO,
                   "route: table %s, key from %s -> group %s (%s%s%s), member %s (%s)%s",
                   table_name(req->analysis), c.source, g->topo.groups[c.group].name,
                   c.group_reason != NULL ? c.group_reason : "",
                   c.by_key ? "" : ": ", c.by_key ? "" : (c.why != NULL ? c.why : ""),
                   g->topo.members[c.member].name,
                   c.member_reason != NULL ? c.member_reason : "",
                   req->transaction ? ", pinned for the transaction" : "");
    return true;
}

bool gc_global_may_write_elsewhere(const gc_global *g)
{
    return g->may_write_elsewhere;
}

bool gc_global_statement_marked(const gc_global *g)
{
    return g->statement_marked;
}
