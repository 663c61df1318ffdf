/*
 * gc_global_stale_reads: a transaction across groups keeps each group's
 * writes on that group's member (docs/global-connection.md, "Transactions
 * across groups"). Its pin reads other groups' rows through postgres_fdw,
 * whose session is not the transaction's: it sees those rows as they were
 * before the transaction, not as the transaction wrote them. On one server
 * a transaction always reads its own writes, so rather than answer with
 * rows the transaction has changed, such a read is split (a SELECT whose
 * FROM lists name the tables: gc_global_split_read.c) or else refused
 * before it is sent. A read that names no table the transaction wrote elsewhere, or
 * whose keys are all in the pin's group (it reads the pin's own rows), or
 * all in one group where the transaction did not write that table, or all
 * in one joined group (routed to that member, which sees its writes), is
 * not affected.
 */
#include <string.h>

#include "global/gc_global_internal.h"
#include "sql/gc_sql_lexer.h"

void gc_global_forget_joined_writes(gc_global *g)
{
    g->n_joined_writes = 0;
    g->n_pin_writes = 0;
    g->pin_writes_any_depth = -1;
    g->writes_mark = gc_global_writes_mark(g);
}

/* Notes the table `name` written on the pin (NULL: a table not known). */
static void note_pin_table(gc_global *g, const char *name)
{
    int depth = g->savepoints.n;
    if (g->pin_writes_any_depth >= 0 && g->pin_writes_any_depth <= depth)
        return;
    int cap = (int)(sizeof g->pin_writes / sizeof g->pin_writes[0]);
    if (name == NULL || strlen(name) >= sizeof g->pin_writes[0].table || g->n_pin_writes == cap) {
        g->pin_writes_any_depth = depth;
        return;
    }
    for (int k = 0; k < g->n_pin_writes; k++)
        if (strcmp(g->pin_writes[k].table, name) == 0 && g->pin_writes[k].depth <= depth)
            return;
    struct gc_pin_write *w = &g->pin_writes[g->n_pin_writes++];
    strcpy(w->table, name);
    w->depth = depth;
}

void gc_global_note_pin_write(gc_global *g, const gc_analysis *a)
{
    if (gc_analysis_has_targets(a)) {
        for (int k = 0; k < a->n_several_targets; k++)
            if (a->several_targets[k].writes)
                note_pin_table(g, a->several_targets[k].table);
        return;
    }
    note_pin_table(g, a != NULL ? a->table : NULL);
}

/* Whether the list holds t written in group (-1: every group), or in
 * every group, or any table, at depth or before it. */
static bool already_noted(const gc_global *g, const gc_shard_table *t, int group, int depth)
{
    for (int k = 0; k < g->n_joined_writes; k++) {
        const struct gc_joined_write *w = &g->joined_writes[k];
        if ((w->table == NULL || w->table == t) && (w->group == -1 || w->group == group) &&
            w->depth <= depth)
            return true;
    }
    return false;
}

/* Notes t written in group on a member other than the pin. */
static void note_joined_table(gc_global *g, const gc_shard_table *t, int group)
{
    /* A TRUNCATE of several tables, a write of a table the map does not
     * know: every table counts (table NULL). */
    if (t == NULL)
        group = -1;
    int depth = g->savepoints.n;
    if (already_noted(g, t, group, depth))
        return;
    int cap = (int)(sizeof g->joined_writes / sizeof g->joined_writes[0]);
    if (g->n_joined_writes == cap) {
        struct gc_joined_write *last = &g->joined_writes[cap - 1];
        *last = (struct gc_joined_write){ NULL, -1, depth < last->depth ? depth : last->depth };
        return;
    }
    if (g->n_joined_writes == cap - 1) {
        t = NULL;    /* the last place says: any table */
        group = -1;
    }
    g->joined_writes[g->n_joined_writes++] = (struct gc_joined_write){ t, group, depth };
}

void gc_global_note_joined_write(gc_global *g, const gc_analysis *a, int group)
{
    if (gc_analysis_has_targets(a) && g->map != NULL) {
        const char *const *path = (const char *const *)g->search_path;
        for (int k = 0; k < a->n_several_targets; k++)
            if (a->several_targets[k].writes)
                note_joined_table(g, gc_shardmap_find(g->map, a->several_targets[k].schema,
                                                      a->several_targets[k].table, path,
                                                      g->n_search_path),
                                  group);
        return;
    }
    note_joined_table(g, a != NULL && a->table != NULL && g->map != NULL
                             ? gc_global_cluster_table(g, a) : NULL,
                      group);
}

void gc_global_note_locked_table(gc_global *g, const char *name, int coordinator_group)
{
    /* A table the map does not know yet was made by this transaction, on
     * the coordinator's group, where its reads run. */
    const gc_shard_table *t = gc_global_table_named(g, name, strlen(name));
    if (t != NULL)
        gc_global_note_table_written(g, t, coordinator_group);
}

void gc_global_note_table_written(gc_global *g, const gc_shard_table *t, int coordinator_group)
{
    for (int gi = 0; gi < g->topo.n_groups; gi++) {
        if (!gc_shard_table_in_group(t, gi))
            continue;
        if (gi == coordinator_group)
            note_pin_table(g, gc_shard_table_name(t));
        else
            note_joined_table(g, t, gi);
    }
}

gc_writes_mark gc_global_writes_mark(const gc_global *g)
{
    return (gc_writes_mark){ g->n_joined_writes, g->n_pin_writes, g->pin_writes_any_depth };
}

void gc_global_writes_undone(gc_global *g, gc_writes_mark mark)
{
    if (mark.joined >= g->n_joined_writes && mark.pin >= g->n_pin_writes &&
        mark.pin_any_depth == g->pin_writes_any_depth)
        return;
    gc_trace_write(g->trace, GC_TRACE_DEBUG, "the writes of the rolled-back statement "
                   "leave the transaction's record of tables written");
    if (mark.joined >= 0 && mark.joined < g->n_joined_writes)
        g->n_joined_writes = mark.joined;
    if (mark.pin >= 0 && mark.pin < g->n_pin_writes)
        g->n_pin_writes = mark.pin;
    g->pin_writes_any_depth = mark.pin_any_depth;
}

/* The depth a write noted at `depth` has once the savepoints above `kept`
 * are released or rolled back to; -1: the write is undone. */
static int depth_after_savepoints(int depth, int kept, bool rolled_back)
{
    if (depth < 0 || (depth >= kept && rolled_back))
        return -1;    /* written after the savepoint gone back to */
    return depth > kept ? kept : depth;
}

void gc_global_writes_savepoints(gc_global *g, int kept, bool rolled_back)
{
    int n = 0;
    for (int k = 0; k < g->n_joined_writes; k++) {
        struct gc_joined_write w = g->joined_writes[k];
        w.depth = depth_after_savepoints(w.depth, kept, rolled_back);
        if (w.depth >= 0)
            g->joined_writes[n++] = w;
    }
    g->n_joined_writes = n;
    n = 0;
    for (int k = 0; k < g->n_pin_writes; k++) {
        struct gc_pin_write w = g->pin_writes[k];
        w.depth = depth_after_savepoints(w.depth, kept, rolled_back);
        if (w.depth >= 0)
            g->pin_writes[n++] = w;
    }
    g->n_pin_writes = n;
    g->pin_writes_any_depth = depth_after_savepoints(g->pin_writes_any_depth, kept, rolled_back);
    g->writes_mark = gc_global_writes_mark(g);
}

/* Whether map knows a cluster table called name along the session's
 * search_path. */
static bool map_names(const gc_global *g, const gc_shardmap *map, const char *name)
{
    return gc_shardmap_find(map, NULL, name, (const char *const *)g->search_path,
                            g->n_search_path) != NULL;
}

void gc_global_writes_remap(gc_global *g, const gc_shardmap *to)
{
    for (int k = 0; k < g->n_joined_writes; k++) {
        struct gc_joined_write *w = &g->joined_writes[k];
        if (w->table != NULL)
            w->table = gc_shardmap_find(to, gc_shard_table_schema(w->table),
                                        gc_shard_table_name(w->table), NULL, 0);
    }
    /* A name the transaction's DDL took away (DROP TABLE) names nothing
     * now: the pin's record of it goes, and a later statement naming it
     * gets the server's 42P01, as on one server, not a refusal for stale
     * reads. */
    int kept = 0;
    for (int k = 0; k < g->n_pin_writes; k++) {
        const char *name = g->pin_writes[k].table;
        if (!map_names(g, g->map, name) || map_names(g, to, name))
            g->pin_writes[kept++] = g->pin_writes[k];
    }
    g->n_pin_writes = kept;
}

/* Whether the transaction holds a member of a group other than group
 * (of any group, when group is -1). */
static bool holds_group_besides(const gc_global *g, int group)
{
    for (int gi = 0; gi < g->topo.n_groups; gi++)
        if (gi != group && gc_global_transaction_member_of_group(g, gi) >= 0)
            return true;
    return false;
}

/* Whether record w may be a write in group (in any group, when -1) on a
 * member other than the pin. One of "every group" (a write across groups,
 * noted before it ran) counts only in the groups where the transaction
 * holds such a member: one it never joined holds none of its writes (such
 * a write whose rows all went to the pin's group ran there alone). */
static bool may_be_in(const gc_global *g, const struct gc_joined_write *w, int group)
{
    int pin_group = g->topo.members[g->pinned].group;
    if (w->group == -1)
        return group == -1 ? holds_group_besides(g, pin_group)
                           : group != pin_group &&
                                 gc_global_transaction_member_of_group(g, group) >= 0;
    return group == -1 || w->group == group;
}

/* Whether record w may be a write outside group. */
static bool may_be_outside(const gc_global *g, const struct gc_joined_write *w, int group)
{
    return w->group == -1 ? holds_group_besides(g, group) : w->group != group;
}

bool gc_global_written_elsewhere(const gc_global *g, const gc_shard_table *t, int group)
{
    for (int k = 0; k < g->n_joined_writes; k++) {
        const struct gc_joined_write *w = &g->joined_writes[k];
        if ((w->table == NULL || w->table == t) && may_be_in(g, w, group))
            return true;
    }
    return false;
}

/* The pin's record of the table `name`, when its statements wrote it by
 * name; else NULL. */
static const char *pin_wrote_by_name(const gc_global *g, const char *name)
{
    for (int k = 0; k < g->n_pin_writes; k++)
        if (strcmp(g->pin_writes[k].table, name) == 0)
            return g->pin_writes[k].table;
    return NULL;
}

/* Whether a write across groups of t (a record of "every group") is in
 * the list: it wrote on the pin too. */
static bool spanned(const gc_global *g, const gc_shard_table *t)
{
    for (int k = 0; k < g->n_joined_writes; k++)
        if (g->joined_writes[k].group == -1 &&
            (g->joined_writes[k].table == NULL || g->joined_writes[k].table == t))
            return true;
    return false;
}

bool gc_global_written_in_group(const gc_global *g, const gc_shard_table *t, int group)
{
    if (gc_global_written_elsewhere(g, t, group))
        return true;
    if (group != g->topo.members[g->pinned].group)
        return false;
    return g->pin_writes_any_depth >= 0 || pin_wrote_by_name(g, gc_shard_table_name(t)) != NULL ||
           spanned(g, t);
}

bool gc_global_pin_wrote(const gc_global *g)
{
    return g->n_pin_writes > 0 || g->pin_writes_any_depth >= 0;
}

/* Whether the transaction wrote anything on its pin or its other members. */
static bool wrote_anything(const gc_global *g)
{
    return g->n_joined_writes > 0 || gc_global_pin_wrote(g);
}

/* Whether the list says "any table". */
static bool any_table_written(const gc_global *g)
{
    for (int k = 0; k < g->n_joined_writes; k++)
        if (g->joined_writes[k].table == NULL)
            return true;
    return false;
}

/* The table `name` as the transaction's record of writes holds it, when
 * it wrote it in a group other than `group`: on its pin (another group's)
 * or on another group's member; else NULL. */
static const char *written_outside(const gc_global *g, const char *name, int group)
{
    if (group != g->topo.members[g->pinned].group) {
        const char *on_pin = pin_wrote_by_name(g, name);
        if (on_pin != NULL)
            return on_pin;
    }
    for (int k = 0; k < g->n_joined_writes; k++) {
        const struct gc_joined_write *w = &g->joined_writes[k];
        if (w->table != NULL && may_be_outside(g, w, group) &&
            strcmp(gc_shard_table_name(w->table), name) == 0)
            return gc_shard_table_name(w->table);
    }
    return NULL;
}

/* Whether the transaction wrote anything outside group, named or not: on
 * its pin (of another group) or on another group's member. */
static bool wrote_outside_group(const gc_global *g, int group)
{
    if (gc_global_pin_wrote(g) && group != g->topo.members[g->pinned].group)
        return true;
    for (int k = 0; k < g->n_joined_writes; k++)
        if (may_be_outside(g, &g->joined_writes[k], group))
            return true;
    return false;
}

/* Whether, of what it wrote outside group, the record names no table
 * (a write of "any table"): then every name may be one of them. */
static bool unnamed_written_outside(const gc_global *g, int group)
{
    if (g->pin_writes_any_depth >= 0 && group != g->topo.members[g->pinned].group)
        return true;
    for (int k = 0; k < g->n_joined_writes; k++)
        if (g->joined_writes[k].table == NULL && may_be_outside(g, &g->joined_writes[k], group))
            return true;
    return false;
}

/* Whether the name token just read by lx qualifies a column
 * (`accounts.id`): a dot follows it. A table named in a FROM list, a
 * JOIN or USING is followed by an alias, a keyword or other punctuation. */
static bool qualifies_column(const gc_sql_lexer *lx)
{
    gc_sql_lexer ahead = *lx;
    gc_sql_token next;
    return gc_sql_lexer_next_code(&ahead, &next) && gc_sql_token_is_punct(&ahead, &next, '.');
}

/* The write targets of a statement run where its keys placed their rows:
 * its own, and its data-modifying WITH queries' (placed with it). */
#define WRITE_TARGETS_MAX (1 + GC_SEVERAL_TARGETS_MAX)

typedef struct write_target {
    size_t at, end;       /* the bytes naming it as the target */
    const char *table;
} write_target;

static int write_targets(const gc_analysis *a, write_target out[WRITE_TARGETS_MAX])
{
    int n = 0;
    if (a == NULL)
        return 0;
    out[n++] = (write_target){ a->target_offset, a->target_offset + a->target_length,
                               a->table };
    for (int k = 0; a->writes_in_with && k < a->n_several_targets; k++) {
        const struct gc_several_target *p = &a->several_targets[k];
        if (!p->writes || p->analysis == NULL || n == WRITE_TARGETS_MAX)
            continue;
        size_t at = p->offset + p->analysis->target_offset;
        out[n++] = (write_target){ at, at + p->analysis->target_length, p->table };
    }
    return n;
}

/* The first table written outside group (written_outside) whose name the
 * text (len bytes) holds as an identifier, qualified or not (over-cautiously
 * also where it names something else); NULL when none. With a target
 * (a statement run where its keys placed its rows), the bytes naming it
 * (or a data-modifying WITH query's target) as the target are passed over,
 * and such a name elsewhere counts only where it does not qualify a
 * column (`WHERE accounts.id = ?`): a FROM list, a JOIN, USING or a
 * subquery naming it reads it again. */
static const char *named_written_outside(const gc_global *g, const char *sql, size_t len,
                                         int group, const gc_analysis *target)
{
    write_target targets[WRITE_TARGETS_MAX];
    int n_targets = write_targets(target, targets);
    gc_sql_lexer lx;
    gc_sql_lexer_init(&lx, sql, len);
    gc_sql_token tok;
    while (gc_sql_lexer_next_code(&lx, &tok)) {
        if (!gc_sql_token_is_name(&tok))
            continue;
        bool own = false, naming_target = false;
        char name[64];
        size_t n = gc_sql_token_identifier(&lx, &tok, name, sizeof name);
        for (int k = 0; k < n_targets; k++) {
            naming_target |= tok.offset >= targets[k].at && tok.offset < targets[k].end;
            own |= targets[k].table != NULL && n > 0 && strcmp(name, targets[k].table) == 0;
        }
        if (naming_target)
            continue;
        const char *written = n > 0 && n < sizeof name ? written_outside(g, name, group) : NULL;
        if (written != NULL && (!own || !qualifies_column(&lx)))
            return written;
    }
    return NULL;
}

/* Whether the write a (text sql) reads tables besides its target: a FROM,
 * JOIN, USING or TABLE outside the target's name (an UPDATE's FROM list, a
 * DELETE's USING, a subquery, a WITH query), other than a DELETE's own
 * FROM before its target. */
static bool reads_besides_target(const gc_analysis *a, const char *sql, size_t len)
{
    if (a->target_length == 0)
        return true;
    size_t target_end = a->target_offset + a->target_length;
    gc_sql_lexer lx;
    gc_sql_lexer_init(&lx, sql, len);
    gc_sql_token tok;
    while (gc_sql_lexer_next_code(&lx, &tok)) {
        if (tok.offset >= a->target_offset && tok.offset < target_end)
            continue;
        if (gc_sql_token_is_keyword(&lx, &tok, "FROM")) {
            gc_sql_lexer ahead = lx;
            gc_sql_token next;
            if (gc_sql_lexer_next_code(&ahead, &next) && next.offset == a->target_offset)
                continue;    /* DELETE FROM target */
            return true;
        }
        if (gc_sql_token_is_keyword(&lx, &tok, "JOIN") ||
            gc_sql_token_is_keyword(&lx, &tok, "USING") ||
            gc_sql_token_is_keyword(&lx, &tok, "TABLE"))
            return true;
    }
    return false;
}

/* The first table the write a (text sql) reads, other than the rows of
 * its target that its keys placed, which the transaction wrote outside
 * group: a name anywhere (over-cautiously, as a column too), its target
 * only where it reads it again. "(several)" when tables it does not name
 * count; NULL when none. */
static const char *read_written_outside(const gc_global *g, const gc_analysis *a,
                                        const char *sql, int group)
{
    size_t len = strlen(sql);
    if (unnamed_written_outside(g, group) && reads_besides_target(a, sql, len))
        return "(several)";
    return named_written_outside(g, sql, len, group, a);
}

/* False with err (0A000, nothing sent) when a view the statement names
 * (a relation the shard map does not know, in a FROM list or a JOIN)
 * reads, on member, a table the transaction wrote outside member's group
 * (gc_global_view_reads.c): through postgres_fdw it would see that table
 * as it was before the transaction. Asked only when the transaction wrote
 * outside that group; a split read does not replace what a view reads. */
static bool views_see_writes(gc_global *g, const char *sql, int member, gc_error *err)
{
    int group = g->topo.members[member].group;
    if (sql == NULL || g->map == NULL || !wrote_outside_group(g, group))
        return true;
    PGresult *read = gc_global_views_read(g, member, sql);
    const char *view = NULL, *table = NULL;
    for (int r = 0; read != NULL && r < PQntuples(read) && table == NULL; r++) {
        table = written_outside(g, PQgetvalue(read, r, 1), group);
        view = PQgetvalue(read, r, 0);
    }
    if (table != NULL) {
        gc_error_set(err, "0A000", GC_GLOBAL_NATIVE_SPANNING_WRITE,
                     "this statement reads view %s, which would read table %s on member %s "
                     "through postgres_fdw, which does not see what the open transaction "
                     "wrote in it on its other members: read the table itself (the rows the "
                     "transaction wrote elsewhere are then brought to the read), or after "
                     "COMMIT; nothing was sent", view, table, g->topo.members[member].name);
        gc_trace_write(g->trace, GC_TRACE_INFO, "route: view %s reads table %s, written "
                       "outside member %s's group: refused", view, table,
                       g->topo.members[member].name);
    }
    PQclear(read);
    return table == NULL;
}

/* The member form of the check, on the statement's text alone. */
static bool member_text_sees_writes(gc_global *g, const gc_route_request *req, int member,
                                    bool *split, gc_error *err)
{
    const gc_analysis *a = req->analysis;
    if (!wrote_anything(g))
        return true;
    if (a == NULL || req->sql == NULL ||
        !(a->kind == GC_SQL_SELECT || a->kind == GC_SQL_INSERT || a->kind == GC_SQL_UPDATE ||
          a->kind == GC_SQL_DELETE || a->kind == GC_SQL_MERGE))
        return true;
    int group = g->topo.members[member].group;
    const char *table = read_written_outside(g, a, req->sql, group);
    if (table == NULL)
        return true;
    if (gc_global_read_splits(g, req, member)) {
        *split = true;
        return true;
    }
    gc_error_set(err, "0A000", GC_GLOBAL_NATIVE_SPANNING_WRITE,
                 "this statement runs on member %s, the open transaction's member in group %s "
                 "where its rows are, and would read table %s there through postgres_fdw, "
                 "which does not see what the open transaction wrote in it on its other members: "
                 "read those rows in a statement of their own (a SELECT sees the "
                 "transaction's writes) and pass their values, or COMMIT first; nothing was "
                 "sent", g->topo.members[member].name, g->topo.groups[group].name, table);
    gc_trace_write(g->trace, GC_TRACE_INFO, "route: a read of table %s on member %s would "
                   "miss the transaction's writes on its other members: refused", table,
                   g->topo.members[member].name);
    return false;
}

bool gc_global_span_reads_see_writes(gc_global *g, const gc_route_request *req, gc_error *err)
{
    const gc_analysis *a = req->analysis;
    if (!wrote_anything(g) || a == NULL || req->sql == NULL)
        return true;
    for (int gi = 0; gi < g->topo.n_groups; gi++) {
        const char *table = read_written_outside(g, a, req->sql, gi);
        if (table == NULL)
            continue;
        gc_error_set(err, "0A000", GC_GLOBAL_NATIVE_SPANNING_WRITE,
                     "this statement runs on every group holding its rows, and on group %s "
                     "would read table %s through postgres_fdw, which does not see what the "
                     "open transaction wrote in it (or waits for the lock its DDL holds) on "
                     "its other members: read those rows in a statement of their own and "
                     "pass their values, or COMMIT first; nothing was sent",
                     g->topo.groups[gi].name, table);
        gc_trace_write(g->trace, GC_TRACE_INFO, "route: a write across groups would read "
                       "table %s on group %s through postgres_fdw: refused", table,
                       g->topo.groups[gi].name);
        return false;
    }
    return true;
}

/* Whether the code of sql names no relation: it has no FROM, JOIN or
 * TABLE. Over-cautious: a function's FROM (extract(year FROM d)) counts
 * too. */
static bool names_no_relation(const char *sql)
{
    gc_sql_lexer lx;
    gc_sql_lexer_init(&lx, sql, strlen(sql));
    gc_sql_token tok;
    while (gc_sql_lexer_next_code(&lx, &tok))
        if (gc_sql_token_is_keyword(&lx, &tok, "FROM") ||
            gc_sql_token_is_keyword(&lx, &tok, "JOIN") ||
            gc_sql_token_is_keyword(&lx, &tok, "TABLE"))
            return false;
    return true;
}

/* Whether a read-only SELECT reads no relation at all (SELECT 1 / 0,
 * SELECT now()). */
static bool reads_no_relation(const gc_analysis *a, const char *sql)
{
    return a->kind == GC_SQL_SELECT && a->read_only && sql != NULL && names_no_relation(sql);
}

bool gc_global_ddl_query_sees_writes(gc_global *g, const char *sql, gc_error *err)
{
    if (g->pinned < 0 || !wrote_anything(g))
        return true;
    int pin_group = g->topo.members[g->pinned].group;
    const char *table = unnamed_written_outside(g, pin_group) && !names_no_relation(sql)
                            ? "(several)"
                            : named_written_outside(g, sql, strlen(sql), pin_group, NULL);
    if (table == NULL)
        return true;
    gc_error_set(err, "0A000", GC_GLOBAL_NATIVE_SPANNING_WRITE,
                 "this statement's query would read table %s on member %s through "
                 "postgres_fdw, which does not see what the open transaction wrote in it (or "
                 "waits for the lock its DDL holds) on other groups' members: create it after "
                 "COMMIT, or from rows read in a statement of their own; nothing was sent",
                 table, g->topo.members[g->pinned].name);
    gc_trace_write(g->trace, GC_TRACE_INFO, "route: the query of a DDL would read table %s "
                   "through postgres_fdw, missing the transaction's writes: refused", table);
    return false;
}

bool gc_global_member_read_sees_writes(gc_global *g, const gc_route_request *req, int member,
                                       bool *split, gc_error *err)
{
    return member_text_sees_writes(g, req, member, split, err) &&
           views_see_writes(g, req->sql, member, err);
}

/* The pin's form of the check, on the statement's text alone. */
static bool pin_text_sees_writes(gc_global *g, const gc_route_request *req, int owner,
                                 bool all_in, bool *split, gc_error *err)
{
    const gc_analysis *a = req->analysis;
    if (g->n_joined_writes == 0)
        return true;
    if (a == NULL || !(a->kind == GC_SQL_SELECT || a->kind == GC_SQL_INSERT ||
                       a->kind == GC_SQL_UPDATE || a->kind == GC_SQL_DELETE ||
                       a->kind == GC_SQL_MERGE))
        return true;
    int pin_group = g->topo.members[g->pinned].group;
    const char *table = NULL;
    if (a->one_relation && g->map != NULL) {
        /* Keys all in one group: the rows of that group only. */
        const gc_shard_table *t = gc_global_cluster_table(g, a);
        int group = owner >= 0 && all_in ? owner : -1;
        if (t == NULL || group == pin_group || !gc_global_written_elsewhere(g, t, group))
            return true;
        if (split != NULL && gc_global_read_splits(g, req, g->pinned)) {
            *split = true;
            return true;
        }
        table = gc_shard_table_name(t);
    } else if (a->kind == GC_SQL_SELECT && split != NULL &&
               gc_global_read_splits(g, req, g->pinned)) {
        *split = true;
        return true;
    } else if (any_table_written(g)) {
        if (reads_no_relation(a, req->sql))
            return true;
        table = "(several)";
    } else if ((a->kind != GC_SQL_SELECT || a->writes_in_with) && a->query_length == 0 &&
               owner == pin_group && all_in && req->sql != NULL) {
        /* A write whose keys placed its rows in the pin's group changes
         * them there: only what else it reads counts, and an UPDATE or
         * DELETE can have those rows brought to it. */
        table = read_written_outside(g, a, req->sql, pin_group);
        if (table == NULL)
            return true;
        if (split != NULL && gc_global_read_splits(g, req, g->pinned)) {
            *split = true;
            return true;
        }
    } else {
        /* An INSERT ... SELECT's query runs on the pin; its target is
         * written where each row belongs: on the pin too when the keys
         * place it there (a solo table of the pin's group), and then the
         * rows its query reads can be brought to it. */
        const char *sql = req->sql != NULL ? req->sql : "";
        bool query = a->kind == GC_SQL_INSERT && a->query_length > 0;
        table = named_written_outside(g, query ? sql + a->query_offset : sql,
                                      query ? a->query_length : strlen(sql), pin_group, NULL);
        if (table == NULL)
            return true;
        if (query && owner == pin_group && all_in && split != NULL &&
            gc_global_read_splits(g, req, g->pinned)) {
            *split = true;
            return true;
        }
    }
    gc_error_set(err, "0A000", GC_GLOBAL_NATIVE_SPANNING_WRITE,
                 "this statement would read table %s on member %s through postgres_fdw, "
                 "which does not see what the open transaction wrote in it on other groups' "
                 "members: read those rows by their sharding key (the read then runs where "
                 "they were written), or after COMMIT; nothing was sent",
                 table, g->topo.members[g->pinned].name);
    return false;
}

bool gc_global_read_sees_writes(gc_global *g, const gc_route_request *req, int owner,
                                bool all_in, bool *split, gc_error *err)
{
    return pin_text_sees_writes(g, req, owner, all_in, split, err) &&
           views_see_writes(g, req->sql, g->pinned, err);
}

bool gc_global_span_query_sees_writes(gc_global *g, const gc_route_request *req, bool *split,
                                      gc_error *err)
{
    if (g->pinned < 0)
        return true;
    /* The pin's group coordinates when it holds a share of the target
     * (gc_global_span.c): its query is then read as one whose rows are
     * the pin's, and can have the rows written elsewhere brought to it. */
    int pin_group = g->topo.members[g->pinned].group;
    const gc_shard_table *t = gc_global_cluster_table(g, req->analysis);
    bool coordinates = t != NULL && gc_shard_table_leaves(t, pin_group, NULL, 0) > 0;
    return gc_global_read_sees_writes(g, req, pin_group, true, coordinates ? split : NULL, err);
}
