/*
 * gc_global_split_read: a SELECT, or an UPDATE or DELETE, that reads
 * tables the open transaction wrote on other groups' members
 * (docs/global-connection.md, "Reading the transaction's own writes").
 *
 * The member that runs it (the reader: the pin, or the transaction's
 * member where a keyed statement's rows are) reads other groups' rows
 * through postgres_fdw, in a session of its own that does not see the
 * transaction's writes there (gc_global_stale_reads.c). Such a statement
 * is split instead: for each table it reads whose rows the transaction
 * wrote elsewhere, each group holding such rows is asked, on the
 * transaction's member there (which sees those writes), for its rows of
 * the table as one json array; the reader then runs the statement with
 * each place the text reads the table from replaced by a union of the
 * leaves it reads itself (its own group's, and the groups' the transaction
 * did not write it in) and those rows (json_populate_recordset of the
 * table's row type). Whatever the statement does with its rows (joins,
 * subqueries, aggregates, ORDER BY, LIMIT) it does on the reader, over
 * the tables as the transaction sees them; a write's target is written
 * where it is. A SELECT of one table alone sends its WHERE along, so that
 * only the rows that pass it travel.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "global/gc_global_span_internal.h"
#include "sql/gc_sql_lexer.h"
#include "sql/gc_sql_table_refs.h"

#define SPLIT_SAVEPOINT "gc_split_read"
/* Rows one group may send to the reader for one table: past it the read is
 * refused, so the client never holds an unbounded copy of another group's
 * rows. */
#define SPLIT_MAX_ROWS 100000
#define SPLIT_MAX_ROWS_TEXT "100000"
#define SPLIT_MAX_REFS 16
#define SPLIT_MAX_TABLES 4

/* A table the statement reads whose rows the transaction wrote elsewhere. */
typedef struct split_table {
    const gc_shard_table *t;
    size_t name_offset, name_length;  /* as the text first names it: NULL::name
                                         is its row type on the reader */
    int param;                        /* the parameter that carries its rows */
} split_table;

/* How the statement is split. */
typedef struct split_plan {
    gc_sql_table_ref refs[SPLIT_MAX_REFS];
    int ref_table[SPLIT_MAX_REFS];    /* index into tables; -1: read as sent */
    int n_refs;
    split_table tables[SPLIT_MAX_TABLES];
    int n_tables;
    size_t where_end;                 /* one table alone: the end of its WHERE,
                                         sent to the members; 0: every row */
    bool keyed;                       /* one table alone, read by keys: only the
                                         leaves of g->split_keys hold its rows */
} split_plan;

static bool is_clause_after_from(const gc_sql_lexer *lx, const gc_sql_token *tok)
{
    static const char *const words[] = { "group", "having", "window", "order", "limit",
                                         "offset", "fetch", "for" };
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        if (gc_sql_token_is_keyword(lx, tok, words[k]))
            return true;
    return false;
}

/* For a SELECT of one table alone (ref, its one FROM item): where the rows
 * it reads are decided, the end of its WHERE (or of the table and its
 * alias), before GROUP BY, ORDER BY, LIMIT and the like; 0 when something
 * else follows the table (a column alias list). */
static size_t where_end_of(const char *sql, const gc_sql_table_ref *ref)
{
    gc_sql_lexer lx;
    gc_sql_lexer_init(&lx, sql, strlen(sql));
    lx.pos = ref->offset + ref->length;
    gc_sql_token tok;
    size_t end = lx.pos;
    int depth = 0, alias_tokens = 0;
    bool in_where = false;
    while (gc_sql_lexer_next_code(&lx, &tok)) {
        if (gc_sql_token_is_punct(&lx, &tok, '(')) {
            if (!in_where)
                return 0;
            depth++;
        } else if (gc_sql_token_is_punct(&lx, &tok, ')')) {
            depth--;
        }
        if (depth == 0 && (gc_sql_token_is_punct(&lx, &tok, ';') ||
                           is_clause_after_from(&lx, &tok)))
            break;
        if (depth == 0 && !in_where && gc_sql_token_is_keyword(&lx, &tok, "where"))
            in_where = true;
        else if (!in_where && ++alias_tokens > 2)
            return 0;
        end = tok.offset + tok.length;
    }
    return end;
}

/* The leaves of t that group gi owns, in a new array (*names; NULL when
 * none); their number, or -1 when memory runs out or they are unknown. */
static int group_leaves(const gc_shard_table *t, int gi, const char ***names)
{
    *names = NULL;
    int n = gc_shard_table_leaves(t, gi, NULL, 0);
    if (n <= 0)
        return n;
    if ((*names = malloc((size_t)n * sizeof **names)) == NULL)
        return -1;
    gc_shard_table_leaves(t, gi, *names, n);
    return n;
}

/* The group of the member that runs the statement. */
static int reader_group(const gc_global *g)
{
    return g->topo.members[g->split_reader].group;
}

/* Whether group gi holds rows of t that the transaction wrote on a member
 * other than the reader (any rows, when the split brings all): they must
 * come from that group's member. A group where the transaction holds no
 * member holds none of its writes, though it may be noted so: an INSERT
 * ... SELECT across groups is noted as written everywhere when it is
 * routed, before it joins the groups it writes in. */
static bool rows_elsewhere(const gc_global *g, const gc_shard_table *t, int gi)
{
    return gi != reader_group(g) && gc_shard_table_in_group(t, gi) &&
           (g->split_brings_all || (gc_global_written_in_group(g, t, gi) &&
                                    gc_global_transaction_member_of_group(g, gi) >= 0));
}

/* Whether the reader needs rows of t from another member; false too when a
 * group that holds some has no member in the transaction or unknown
 * leaves (*ok false). */
static bool needs_rows(const gc_global *g, const gc_shard_table *t, bool *ok)
{
    bool needs = false;
    for (int gi = 0; gi < g->topo.n_groups; gi++) {
        if (!rows_elsewhere(g, t, gi))
            continue;
        needs = true;
        if (gc_global_transaction_member_of_group(g, gi) < 0 ||
            (gc_shard_table_solo_group(t) < 0 && gc_shard_table_leaves(t, gi, NULL, 0) < 0))
            *ok = false;
    }
    return needs;
}

/* The cluster table the ref names, or NULL. */
static const gc_shard_table *ref_table(gc_global *g, const char *sql, const gc_sql_table_ref *ref)
{
    return gc_global_table_named(g, sql + ref->offset, ref->length);
}

/* Whether the identifier tok names a table the transaction wrote on
 * another member than the reader (any cluster table, when the record says
 * "any table"). */
static bool names_written_table(gc_global *g, const gc_sql_lexer *lx, const gc_sql_token *tok)
{
    char name[64];
    size_t n = gc_sql_token_identifier(lx, tok, name, sizeof name);
    if (n == 0 || n >= sizeof name)
        return false;
    const gc_shard_table *t = gc_shardmap_find(g->map, NULL, name,
                                               (const char *const *)g->search_path,
                                               g->n_search_path);
    for (int gi = 0; t != NULL && gi < g->topo.n_groups; gi++)
        if (gi != reader_group(g) && gc_global_written_in_group(g, t, gi))
            return true;
    return false;
}

/* Whether every mention of a table written elsewhere is one of the plan's
 * places, a qualifier (name.column) or a write's own target (the bytes
 * from target_at to target_end; none for a SELECT): a mention the finder
 * did not read as a table (a parenthesized join, a CTE or column of that
 * name) leaves the statement refused. */
static bool mentions_are_places(gc_global *g, const char *sql, const split_plan *p,
                                size_t target_at, size_t target_end)
{
    gc_sql_lexer lx;
    gc_sql_lexer_init(&lx, sql, strlen(sql));
    gc_sql_token tok, next;
    while (gc_sql_lexer_next_code(&lx, &tok)) {
        if (!gc_sql_token_is_name(&tok))
            continue;
        bool placed = tok.offset >= target_at && tok.offset < target_end;
        for (int k = 0; k < p->n_refs && !placed; k++)
            placed = tok.offset >= p->refs[k].offset &&
                     tok.offset < p->refs[k].offset + p->refs[k].length;
        gc_sql_lexer ahead = lx;
        bool qualifier = gc_sql_lexer_next_code(&ahead, &next) &&
                         gc_sql_token_is_punct(&ahead, &next, '.');
        if (!placed && !qualifier && names_written_table(g, &lx, &tok))
            return false;
    }
    return true;
}

/* Whether a is a statement the plan can split: a SELECT that writes
 * nothing, or an UPDATE or DELETE (of rows the reader holds: the caller
 * knows) reading other tables in its FROM list or subqueries, or an
 * INSERT ... SELECT (into a table the reader holds) reading them in its
 * query. */
static bool splittable(const gc_analysis *a)
{
    if (a->several || a->writes_in_with)
        return false;
    if (a->kind == GC_SQL_UPDATE || a->kind == GC_SQL_DELETE)
        return a->table != NULL;
    if (a->kind == GC_SQL_INSERT)
        return a->table != NULL && a->query_length > 0;
    return a->kind == GC_SQL_SELECT && !a->locking_read && !a->select_into &&
           (a->one_relation || a->read_only);
}

/* Makes the plan for the statement a (text sql, n_params parameters);
 * false when it cannot be split (then it stays refused). A write's
 * target is written where it is, never replaced. */
static bool make_plan(gc_global *g, const gc_analysis *a, const char *sql, int n_params,
                      split_plan *p)
{
    if (a == NULL || sql == NULL || !splittable(a) || g->pinned < 0 || g->split_reader < 0 ||
        g->map == NULL)
        return false;
    bool select = a->kind == GC_SQL_SELECT;
    size_t target_at = select ? SIZE_MAX : a->target_offset;
    size_t target_end = select ? SIZE_MAX : a->target_offset + a->target_length;
    memset(p, 0, sizeof *p);
    /* An INSERT names the tables it reads in its query only. */
    size_t from = a->kind == GC_SQL_INSERT ? a->query_offset : 0;
    size_t len = a->kind == GC_SQL_INSERT ? a->query_length : strlen(sql);
    p->n_refs = gc_sql_table_refs(sql + from, len, p->refs, SPLIT_MAX_REFS);
    if (p->n_refs < 0 || p->n_refs > SPLIT_MAX_REFS)
        return false;
    for (int k = 0; k < p->n_refs; k++) {
        p->refs[k].offset += from;
        p->refs[k].name_offset += from;
    }
    for (int k = 0; k < p->n_refs; k++) {
        const gc_sql_table_ref *ref = &p->refs[k];
        const gc_shard_table *t = ref_table(g, sql, ref);
        bool ok = true;
        p->ref_table[k] = -1;
        if (ref->offset == target_at || t == NULL || !needs_rows(g, t, &ok))
            continue;
        if (!ok || ref->only || ref->sampled)
            return false;
        int i = 0;
        while (i < p->n_tables && p->tables[i].t != t)
            i++;
        if (i == p->n_tables) {
            if (i == SPLIT_MAX_TABLES)
                return false;
            p->tables[i] = (split_table){ t, ref->offset, ref->length, n_params + 1 + i };
            p->n_tables++;
        }
        p->ref_table[k] = i;
    }
    if (p->n_tables == 0 || !mentions_are_places(g, sql, p, target_at, target_end))
        return false;
    if (select && a->one_relation && p->n_refs == 1)
        p->where_end = where_end_of(sql, &p->refs[0]);
    return true;
}

/* Notes in g the leaves the keys of a SELECT of one sharded table alone
 * place its rows in (g->split_keys), when they are known. */
static void note_keys(gc_global *g, const gc_route_request *req, const split_plan *p)
{
    g->n_split_keys = -1;
    const gc_shard_table *t = p->tables[0].t;
    if (req->analysis->kind != GC_SQL_SELECT || !req->analysis->one_relation ||
        p->n_refs != 1 || gc_shard_table_solo_group(t) >= 0)
        return;
    const char *names[32];
    int n = gc_global_key_partitions(g, req, t, names, 32);
    for (int j = 0; j < n; j++)
        if ((g->split_keys[j] = gc_shard_table_leaf(t, names[j])) == NULL)
            return;
    g->n_split_keys = n;
}

bool gc_global_read_splits(gc_global *g, const gc_route_request *req, int reader)
{
    split_plan plan;
    g->n_split_keys = -1;
    g->split_reader = reader;
    g->split_brings_all = false;
    if (!make_plan(g, req->analysis, req->sql, 0, &plan))
        return false;
    note_keys(g, req, &plan);
    return true;
}

/* Whether every table the text of a reads, but a write's own target
 * (its rows are the reader's), is the reader's group's own (a solo table
 * of it) or brought by the plan: nothing left to read through
 * postgres_fdw. A name the shard map does not know (a view) may read
 * anything. */
static bool reads_home(gc_global *g, const gc_analysis *a, const char *sql, const split_plan *p)
{
    for (int k = 0; k < p->n_refs; k++) {
        if (a->kind != GC_SQL_SELECT && p->refs[k].offset == a->target_offset)
            continue;
        const gc_shard_table *t = ref_table(g, sql, &p->refs[k]);
        if (t == NULL)
            return false;
        if (p->ref_table[k] < 0 && gc_shard_table_solo_group(t) != reader_group(g))
            return false;
    }
    return true;
}

bool gc_global_read_splits_home(gc_global *g, const gc_route_request *req, int reader)
{
    split_plan plan;
    g->n_split_keys = -1;
    g->split_reader = reader;
    g->split_brings_all = true;
    if (make_plan(g, req->analysis, req->sql, 0, &plan) &&
        reads_home(g, req->analysis, req->sql, &plan)) {
        note_keys(g, req, &plan);
        return true;
    }
    g->split_brings_all = false;
    return false;
}

/* Whether the plan reads leaf: every leaf, or one its keys place rows in. */
static bool reads_leaf(const gc_global *g, const split_plan *p, const char *leaf)
{
    if (!p->keyed)
        return true;
    for (int j = 0; j < g->n_split_keys; j++)
        if (strcmp(g->split_keys[j], leaf) == 0)
            return true;
    return false;
}

/* Whether group gi's member must send rows of st: it holds some the
 * transaction wrote there, and (read by keys) a leaf the keys place in. */
static bool sends_rows(const gc_global *g, const split_plan *p, const split_table *st, int gi)
{
    if (!rows_elsewhere(g, st->t, gi))
        return false;
    if (!p->keyed)
        return true;
    const char **leaves;
    int n = group_leaves(st->t, gi, &leaves);
    bool holds = n < 0;       /* unknown, or no memory: ask */
    for (int k = 0; k < n && !holds; k++)
        holds = reads_leaf(g, p, leaves[k]);
    free(leaves);
    return holds;
}

/* Appends ref's name as written, as an alias, when the text gives none
 * (the table's columns, qualified by its name, still resolve). */
static void append_alias(gc_strbuf *sb, const char *sql, const gc_sql_table_ref *ref)
{
    if (ref->aliased)
        return;
    gc_strbuf_append_str(sb, " AS ");
    gc_strbuf_append(sb, sql + ref->name_offset, ref->name_length);
}

/* Appends "SELECT * FROM source [AS name][ WHERE ...]" (source: len
 * bytes), the one table's WHERE when the plan sends it. */
static void append_source(gc_strbuf *q, const char *sql, const split_plan *p, const char *source,
                          size_t len)
{
    gc_strbuf_append_str(q, "SELECT * FROM ");
    gc_strbuf_append(q, source, len);
    if (p->where_end == 0)
        return;
    const gc_sql_table_ref *ref = &p->refs[0];
    size_t after = ref->offset + ref->length;
    append_alias(q, sql, ref);
    gc_strbuf_append(q, sql + after, p->where_end - after);
}

/* The query asking group gi's member for its rows of table st (those that
 * pass the WHERE when the plan sends it, its parameters renumbered into
 * used / *n_used): their count and the rows as one json array. NULL when
 * memory runs out. */
static char *rows_query(const gc_global *g, const char *sql, const split_plan *p,
                        const split_table *st, int gi, int n_params, int *used, int *n_used)
{
    gc_strbuf q, out;
    gc_strbuf_init(&q);
    gc_strbuf_init(&out);
    gc_strbuf_append_str(&q, "SELECT count(*), coalesce(json_agg(gc_r), '[]') FROM "
                             "(SELECT * FROM (");
    if (gc_shard_table_solo_group(st->t) >= 0) {
        /* The member's own plain table. */
        append_source(&q, sql, p, sql + st->name_offset, st->name_length);
    } else {
        const char **leaves;
        int n_leaves = group_leaves(st->t, gi, &leaves);
        bool first = true;
        for (int k = 0; k < n_leaves; k++) {
            if (!reads_leaf(g, p, leaves[k]))
                continue;
            if (!first)
                gc_strbuf_append_str(&q, " UNION ALL ");
            first = false;
            append_source(&q, sql, p, leaves[k], strlen(leaves[k]));
        }
        free(leaves);
        q.failed |= n_leaves < 0;
    }
    gc_strbuf_append_str(&q, ") gc_u LIMIT " SPLIT_MAX_ROWS_TEXT " + 1) gc_r");
    bool ok = !q.failed && gc_span_renumber_params(&out, q.data, q.len, n_params, 1, used,
                                                   n_used);
    gc_strbuf_free(&q);
    if (!ok) {
        gc_strbuf_free(&out);
        return NULL;
    }
    return gc_strbuf_take(&out);
}

/* Takes the answer of rows_query: appends the array's items to *rows
 * (after a comma when it holds some already); false with err when the
 * group has too many rows or memory runs out. */
static bool take_rows(const gc_global *g, const gc_span_part *p, const split_plan *plan,
                      const split_table *st, const PGresult *r, gc_strbuf *rows, gc_error *err)
{
    long long count = atoll(PQgetvalue(r, 0, 0));
    if (count > SPLIT_MAX_ROWS) {
        gc_error_set(err, "0A000", GC_GLOBAL_NATIVE_SPANNING_WRITE,
                     "this statement reads table %s, which the open transaction wrote on "
                     "member %s: more than " SPLIT_MAX_ROWS_TEXT " of its rows there%s, too "
                     "many to bring to member %s; %sread the rows by their sharding key, or "
                     "read after COMMIT; nothing was changed", gc_shard_table_name(st->t),
                     g->topo.members[p->member].name,
                     plan->where_end != 0 ? " pass the statement's WHERE" : "",
                     g->topo.members[g->split_reader].name,
                     plan->where_end != 0 ? "narrow the WHERE, " : "");
        return false;
    }
    const char *json = PQgetvalue(r, 0, 1);
    size_t len = (size_t)PQgetlength(r, 0, 1);
    if (count == 0 || len < 2)
        return true;
    if (rows->len > 1)
        gc_strbuf_append_char(rows, ',');
    gc_strbuf_append(rows, json + 1, len - 2);     /* without the brackets */
    if (rows->failed) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    return true;
}

/* Asks part p for its rows (query with params) behind a savepoint, so that
 * a failure (an error of the WHERE) leaves its transaction as it was; adds
 * them to *rows. *lost: the failure cost the transaction (the session
 * broke, or could not go back to the savepoint). */
static bool fetch_rows(gc_global *g, const gc_span_part *p, const split_plan *plan,
                       const split_table *st, const char *query, const gc_span_params *params,
                       gc_strbuf *rows, bool *lost, gc_error *err)
{
    gc_member *m = g->members[p->member];
    unsigned long generation = gc_member_generation(m);
    bool ok = gc_member_send_wrapped(m, "SAVEPOINT " SPLIT_SAVEPOINT,
                                     "RELEASE SAVEPOINT " SPLIT_SAVEPOINT, NULL, query, params->n,
                                     params->types, params->values, params->lengths,
                                     params->formats, err);
    bool sent = ok, answered = false;
    PGresult *r;
    while (ok && (r = gc_member_next_result(m)) != NULL) {
        if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 && PQnfields(r) == 2) {
            answered = true;
            ok = take_rows(g, p, plan, st, r, rows, err);
        } else {
            gc_member_result_error(m, r, err);
            ok = false;
        }
        PQclear(r);
    }
    if (ok && answered)
        return true;
    if (ok)
        gc_error_set(err, "HY000", 0, "member %s gave no answer for its rows",
                     g->topo.members[p->member].name);
    gc_member_drain(m);
    /* The member ran the query and released its savepoint; the driver
     * refused the answer (too many rows). */
    if (answered)
        return false;
    gc_span_part_failed_doing(g, p, generation, "reading the transaction's own rows there",
                              err);
    gc_error e;
    gc_error_clear(&e);
    *lost = !sent || !gc_member_is_open(m) ||
            !gc_span_run_on(g, p, "ROLLBACK TO SAVEPOINT " SPLIT_SAVEPOINT, &e) ||
            !gc_span_run_on(g, p, "RELEASE SAVEPOINT " SPLIT_SAVEPOINT, &e);
    return false;
}

/* Brings the rows of table st that other members hold into *rows, a json
 * array. */
static bool bring_rows(gc_global *g, const char *sql, const split_plan *plan,
                       const split_table *st, const gc_span_params *params, gc_strbuf *rows,
                       bool *lost, gc_error *err)
{
    gc_span_wire w;
    bool ok = gc_span_wire_init(&w, params->n);
    if (!ok)
        gc_error_set(err, "HY001", 0, "out of memory");
    gc_strbuf_append_char(rows, '[');
    for (int gi = 0; gi < g->topo.n_groups && ok; gi++) {
        if (!sends_rows(g, plan, st, gi))
            continue;
        gc_span_part part = { .group = gi,
                              .member = gc_global_transaction_member_of_group(g, gi) };
        int n_used = 0;
        char *query = rows_query(g, sql, plan, st, gi, params->n, w.used, &n_used);
        if (query == NULL) {
            gc_error_set(err, "HY001", 0, "out of memory");
            ok = false;
            break;
        }
        gc_span_params mine;
        gc_span_pick_params(params, &w, 0, n_used, &mine);
        ok = fetch_rows(g, &part, plan, st, query, &mine, rows, lost, err);
        free(query);
    }
    gc_strbuf_append_char(rows, ']');
    if (ok && rows->failed) {
        gc_error_set(err, "HY001", 0, "out of memory");
        ok = false;
    }
    gc_span_wire_free(&w);
    return ok;
}

/* Appends what the reader reads in place of table st: the leaves it reads
 * itself and the rows of st's parameter. False when memory runs out. */
static bool append_union(gc_strbuf *sb, const gc_global *g, const char *sql,
                         const split_plan *p, const split_table *st)
{
    gc_strbuf_append_char(sb, '(');
    for (int gi = 0; gi < g->topo.n_groups && gc_shard_table_solo_group(st->t) < 0; gi++) {
        if (rows_elsewhere(g, st->t, gi))
            continue;
        const char **leaves = NULL;
        int n = group_leaves(st->t, gi, &leaves);
        if (n < 0)
            return false;
        for (int k = 0; k < n; k++)
            if (reads_leaf(g, p, leaves[k]))
                gc_strbuf_appendf(sb, "SELECT * FROM %s UNION ALL ", leaves[k]);
        free(leaves);
    }
    gc_strbuf_append_str(sb, "SELECT * FROM json_populate_recordset(NULL::");
    gc_strbuf_append(sb, sql + st->name_offset, st->name_length);
    gc_strbuf_appendf(sb, ", $%d::json))", st->param);
    return true;
}

/* The statement as the reader runs it: each place it reads a table of the
 * plan replaced by append_union's. NULL when memory runs out. */
static char *reader_text(const gc_global *g, const char *sql, const split_plan *p)
{
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    size_t copied = 0;
    for (int k = 0; k < p->n_refs; k++) {
        const gc_sql_table_ref *ref = &p->refs[k];
        if (p->ref_table[k] < 0)
            continue;
        gc_strbuf_append(&sb, sql + copied, ref->offset - copied);
        if (!append_union(&sb, g, sql, p, &p->tables[p->ref_table[k]])) {
            gc_strbuf_free(&sb);
            return NULL;
        }
        append_alias(&sb, sql, ref);
        copied = ref->offset + ref->length;
    }
    gc_strbuf_append_str(&sb, sql + copied);
    return gc_strbuf_take(&sb);
}

/* Frees the json arrays of rows brought for n tables (arrays may be NULL). */
static void free_arrays(char **arrays, int n)
{
    for (int k = 0; arrays != NULL && k < n; k++)
        free(arrays[k]);
    free(arrays);
}

/* Whether the plan brings rows only to keep its reader from reading other
 * groups (gc_global_read_splits_home), none of them written by the
 * transaction outside the reader's group: read through postgres_fdw they
 * are the same rows. */
static bool keeps_home_only(const gc_global *g, const split_plan *p)
{
    if (!g->split_brings_all)
        return false;
    for (int k = 0; k < p->n_tables; k++)
        for (int gi = 0; gi < g->topo.n_groups; gi++)
            if (gi != reader_group(g) && gc_global_written_in_group(g, p->tables[k].t, gi))
                return false;
    return true;
}

char *gc_global_split_read_text(gc_global *g, const gc_analysis *a, const char *sql,
                                const gc_span_params *params, char ***rows, int *n_rows,
                                bool *rolled_back, gc_error *err)
{
    *rows = NULL;
    *n_rows = 0;
    *rolled_back = false;
    split_plan plan;
    bool planned = make_plan(g, a, sql, params->n, &plan);
    plan.keyed = planned && g->n_split_keys >= 0;    /* as routed (gc_global_read_splits) */
    if (!planned) {
        gc_error_set(err, "HY000", 0, "the read of table %s can no longer be split over the "
                     "transaction's members", a != NULL && a->table != NULL ? a->table : "?");
        return NULL;
    }
    char **arrays = calloc((size_t)plan.n_tables, sizeof *arrays);
    bool ok = arrays != NULL;
    if (!ok)
        gc_error_set(err, "HY001", 0, "out of memory");
    for (int k = 0; k < plan.n_tables && ok; k++) {
        gc_strbuf one;
        gc_strbuf_init(&one);
        ok = bring_rows(g, sql, &plan, &plan.tables[k], params, &one, rolled_back, err);
        arrays[k] = gc_strbuf_take(&one);
    }
    char *text = ok ? reader_text(g, sql, &plan) : NULL;
    if (ok && text == NULL)
        gc_error_set(err, "HY001", 0, "out of memory");
    if (text == NULL && !*rolled_back && keeps_home_only(g, &plan)) {
        /* Too many rows to keep the read home (or a failure to bring
         * them): none of them is the transaction's write, so the statement
         * reads them through postgres_fdw as sent, the member counted as
         * reaching another group. */
        gc_trace_write(g->trace, GC_TRACE_INFO, "read not kept home (%s): run as sent",
                       err->message);
        gc_error_clear(err);
        gc_global_note_reaching(g, g->split_reader);
        text = strdup(sql);
        if (text == NULL)
            gc_error_set(err, "HY001", 0, "out of memory");
        free_arrays(arrays, plan.n_tables);
        return text;
    }
    if (text == NULL) {
        free_arrays(arrays, plan.n_tables);
        if (*rolled_back)
            gc_global_rollback_transaction(g);
        return NULL;
    }
    gc_trace_write(g->trace, GC_TRACE_INFO, "read split: the rows of %d table(s) %s brought "
                   "to member %s", plan.n_tables, g->split_brings_all
                       ? "held by the transaction's members of other groups"
                       : "the transaction wrote on other groups' members",
                   g->topo.members[g->split_reader].name);
    *rows = arrays;
    *n_rows = plan.n_tables;
    return text;
}
