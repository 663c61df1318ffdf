/*
 * gc_global_split_read: a SELECT of one sharded table that the open
 * transaction wrote on other groups' members (docs/global-connection.md,
 * "Reading the transaction's own writes").
 *
 * The pin reads other groups' rows through postgres_fdw, in a session of
 * its own that does not see the transaction's writes there
 * (gc_global_stale_reads.c). Such a SELECT is split instead: each group
 * whose rows of the table the transaction wrote elsewhere is asked, on the
 * transaction's member there (which sees those writes), for its rows that
 * pass the statement's WHERE, as one json array; the pin then runs the
 * statement with the table replaced by its own group's and the unwritten
 * groups' leaves, plus those rows (json_populate_recordset of the table's
 * row type). Whatever the SELECT does with its rows (aggregates, GROUP BY,
 * ORDER BY, LIMIT, DISTINCT) it does on the pin, over the table as the
 * transaction sees it.
 */
#include <stdlib.h>
#include <string.h>

#include "global/gc_global_span_internal.h"
#include "sql/gc_sql_lexer.h"

#define SPLIT_SAVEPOINT "gc_split_read"
/* Rows one group may send to the pin: past it the read is refused, so the
 * client never holds an unbounded copy of another group's rows. */
#define SPLIT_MAX_ROWS 100000
#define SPLIT_MAX_ROWS_TEXT "100000"

static bool is_clause_after_from(const gc_sql_lexer *lx, const gc_sql_token *tok)
{
    static const char *const words[] = { "group", "having", "window", "order", "limit",
                                         "offset", "fetch", "for" };
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        if (gc_sql_token_is_keyword(lx, tok, words[k]))
            return true;
    return false;
}

static bool is_set_operation(const gc_sql_lexer *lx, const gc_sql_token *tok)
{
    return gc_sql_token_is_keyword(lx, tok, "union") ||
           gc_sql_token_is_keyword(lx, tok, "intersect") ||
           gc_sql_token_is_keyword(lx, tok, "except");
}

/* Reads the SELECT sql (analysed as a): its table is the only item of its
 * FROM, followed by at most an alias; *where_end is where the rows it reads
 * are decided (the end of its WHERE, or of the table and alias), before
 * GROUP BY, ORDER BY, LIMIT and the like. False when it is not one the
 * split can rewrite exactly (no FROM right before the table, ONLY, a column
 * alias list, TABLESAMPLE, a set operation): it stays refused. */
static bool read_shape(const char *sql, const gc_analysis *a, size_t *where_end)
{
    size_t len = strlen(sql), target_end = a->target_offset + a->target_length;
    gc_sql_lexer lx;
    gc_sql_lexer_init(&lx, sql, len);
    gc_sql_token tok, before = { 0 };
    bool first = true, seen_before = false;
    int depth = 0;
    /* Up to the table: a SELECT whose FROM names it first. */
    while (gc_sql_lexer_next_code(&lx, &tok) && tok.offset < a->target_offset) {
        if (first && !gc_sql_token_is_keyword(&lx, &tok, "select"))
            return false;
        first = false;
        if (gc_sql_token_is_punct(&lx, &tok, '('))
            depth++;
        else if (gc_sql_token_is_punct(&lx, &tok, ')'))
            depth--;
        before = tok;
        seen_before = true;
    }
    if (!seen_before || depth != 0 || !gc_sql_token_is_keyword(&lx, &before, "from"))
        return false;
    /* Past it: [AS] alias, then WHERE ... up to the next clause. */
    gc_sql_lexer_init(&lx, sql, len);
    lx.pos = target_end;
    int alias_tokens = 0;
    bool in_where = false;
    *where_end = target_end;
    while (gc_sql_lexer_next_code(&lx, &tok)) {
        if (gc_sql_token_is_punct(&lx, &tok, '(')) {
            if (!in_where)
                return false;     /* a column alias list, TABLESAMPLE (...) */
            depth++;
        } else if (gc_sql_token_is_punct(&lx, &tok, ')')) {
            depth--;
        }
        if (depth > 0)
            continue;
        if (is_set_operation(&lx, &tok))
            return false;
        if (gc_sql_token_is_punct(&lx, &tok, ';') || is_clause_after_from(&lx, &tok))
            break;
        if (!in_where && gc_sql_token_is_keyword(&lx, &tok, "where")) {
            in_where = true;
        } else if (!in_where) {
            bool as = alias_tokens == 0 && gc_sql_token_is_keyword(&lx, &tok, "as");
            if (++alias_tokens > 2 || (!as && !gc_sql_token_is_name(&tok)))
                return false;
        }
        *where_end = tok.offset + tok.length;
    }
    /* The clauses after the WHERE may not start another query either. */
    while (gc_sql_lexer_next_code(&lx, &tok)) {
        if (gc_sql_token_is_punct(&lx, &tok, '('))
            depth++;
        else if (gc_sql_token_is_punct(&lx, &tok, ')'))
            depth--;
        else if (depth == 0 && is_set_operation(&lx, &tok))
            return false;
    }
    return true;
}

/* The groups other than the pin's whose rows of t the transaction wrote on
 * another member, each with that member (parts, room for every group): the
 * rows come from there. Returns how many, or -1 when a written group has no
 * member in the transaction or its leaves are unknown. */
static int written_groups(gc_global *g, const gc_shard_table *t, gc_span_part *parts)
{
    int pin_group = g->topo.members[g->pinned].group, n = 0;
    for (int gi = 0; gi < g->topo.n_groups; gi++) {
        if (gi == pin_group || !gc_global_written_elsewhere(g, t, gi))
            continue;
        int leaves = gc_shard_table_leaves(t, gi, NULL, 0);
        if (leaves == 0)
            continue;
        int member = gc_global_transaction_member_of_group(g, gi);
        if (leaves < 0 || member < 0)
            return -1;
        parts[n++] = (gc_span_part){ .group = gi, .member = member };
    }
    return n;
}

/* The table the split reads, or NULL when the statement is not one it can
 * run exactly (then it stays refused). */
static const gc_shard_table *split_table(gc_global *g, const gc_analysis *a, const char *sql,
                                         size_t *where_end)
{
    if (a == NULL || sql == NULL || a->kind != GC_SQL_SELECT || !a->one_relation ||
        a->several || a->locking_read || a->select_into || a->target_length == 0 ||
        g->pinned < 0 || g->map == NULL)
        return NULL;
    const gc_shard_table *t = gc_global_cluster_table(g, a);
    if (t == NULL || gc_shard_table_solo_group(t) >= 0 || !read_shape(sql, a, where_end))
        return NULL;
    return t;
}

bool gc_global_read_splits(gc_global *g, const gc_analysis *a, const char *sql)
{
    size_t where_end;
    const gc_shard_table *t = split_table(g, a, sql, &where_end);
    int ng = g->topo.n_groups;
    gc_span_part parts[ng > 0 ? ng : 1];
    return t != NULL && written_groups(g, t, parts) > 0;
}

/* Appends the table's name as the statement writes it, as an alias, when
 * the text gives none (the table's columns, qualified by its name, still
 * resolve). */
static void append_alias(gc_strbuf *sb, const char *sql, const gc_analysis *a)
{
    if (a->target_aliased)
        return;
    gc_strbuf_append_str(sb, " AS ");
    gc_strbuf_append(sb, sql + a->target_name_offset, a->target_name_length);
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

/* The query asking group gi's member for its rows of t that pass the
 * statement's WHERE (its parameters renumbered into used / *n_used): their
 * count and the rows as one json array. NULL when memory runs out. */
static char *rows_query(const char *sql, const gc_analysis *a, size_t where_end,
                        const gc_shard_table *t, int gi, int n_params, int *used, int *n_used)
{
    const char **leaves;
    int n_leaves = group_leaves(t, gi, &leaves);
    if (n_leaves < 0)
        return NULL;
    size_t target_end = a->target_offset + a->target_length;
    gc_strbuf q, out;
    gc_strbuf_init(&q);
    gc_strbuf_init(&out);
    gc_strbuf_append_str(&q, "SELECT count(*), coalesce(json_agg(gc_r), '[]') FROM "
                             "(SELECT * FROM (");
    for (int k = 0; k < n_leaves; k++) {
        gc_strbuf_append_str(&q, k > 0 ? " UNION ALL SELECT * FROM " : "SELECT * FROM ");
        gc_strbuf_append_str(&q, leaves[k]);
        append_alias(&q, sql, a);
        gc_strbuf_append(&q, sql + target_end, where_end - target_end);
    }
    free(leaves);
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
static bool take_rows(gc_global *g, const gc_span_part *p, const gc_shard_table *t,
                      const PGresult *r, gc_strbuf *rows, gc_error *err)
{
    long long count = atoll(PQgetvalue(r, 0, 0));
    if (count > SPLIT_MAX_ROWS) {
        gc_error_set(err, "0A000", GC_GLOBAL_NATIVE_SPANNING_WRITE,
                     "this statement reads table %s, which the open transaction wrote on "
                     "member %s: more than " SPLIT_MAX_ROWS_TEXT " of its rows there pass "
                     "the statement's WHERE, too many to bring to member %s; narrow the "
                     "WHERE, read the rows by their sharding key, or read after COMMIT; "
                     "nothing was changed", gc_shard_table_name(t),
                     g->topo.members[p->member].name, g->topo.members[g->pinned].name);
        return false;
    }
    const char *json = PQgetvalue(r, 0, 1);
    size_t len = (size_t)PQgetlength(r, 0, 1);
    if (count == 0 || len < 2)
        return true;
    if (rows->len > 0)
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
static bool fetch_rows(gc_global *g, const gc_span_part *p, const gc_shard_table *t,
                       const char *query, const gc_span_params *params, gc_strbuf *rows,
                       bool *lost, gc_error *err)
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
            ok = take_rows(g, p, t, r, rows, err);
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

/* The statement as the pin runs it: its table replaced by the leaves the
 * pin reads itself (its own group's, and those of groups whose rows the
 * transaction did not write elsewhere) and the rows in parameter
 * $rows_param. NULL when memory runs out. */
static char *pin_text(const gc_global *g, const char *sql, const gc_analysis *a,
                      const gc_shard_table *t, const gc_span_part *parts, int n_parts,
                      int rows_param)
{
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    gc_strbuf_append(&sb, sql, a->target_offset);
    gc_strbuf_append_char(&sb, '(');
    for (int gi = 0; gi < g->topo.n_groups; gi++) {
        bool fetched = false;
        for (int k = 0; k < n_parts; k++)
            fetched = fetched || parts[k].group == gi;
        const char **leaves = NULL;
        int n = fetched ? 0 : group_leaves(t, gi, &leaves);
        if (n < 0) {
            gc_strbuf_free(&sb);
            return NULL;
        }
        for (int k = 0; k < n; k++)
            gc_strbuf_appendf(&sb, "SELECT * FROM %s UNION ALL ", leaves[k]);
        free(leaves);
    }
    gc_strbuf_append_str(&sb, "SELECT * FROM json_populate_recordset(NULL::");
    gc_strbuf_append(&sb, sql + a->target_offset, a->target_length);
    gc_strbuf_appendf(&sb, ", $%d::json))", rows_param);
    append_alias(&sb, sql, a);
    gc_strbuf_append_str(&sb, sql + a->target_offset + a->target_length);
    return gc_strbuf_take(&sb);
}

char *gc_global_split_read_text(gc_global *g, const gc_analysis *a, const char *sql,
                                const gc_span_params *params, char **rows, bool *rolled_back,
                                gc_error *err)
{
    *rows = NULL;
    *rolled_back = false;
    size_t where_end;
    const gc_shard_table *t = split_table(g, a, sql, &where_end);
    int ng = g->topo.n_groups;
    gc_span_part parts[ng > 0 ? ng : 1];
    int n_parts = t != NULL ? written_groups(g, t, parts) : -1;
    if (n_parts <= 0) {
        gc_error_set(err, "HY000", 0, "the read of table %s can no longer be split over the "
                     "transaction's members", a != NULL && a->table != NULL ? a->table : "?");
        return NULL;
    }
    size_t slots = params->n > 0 ? (size_t)params->n : 1;
    int *used = malloc(slots * sizeof *used);
    Oid *types = malloc(slots * sizeof *types);
    const char **values = malloc(slots * sizeof *values);
    int *lengths = malloc(slots * sizeof *lengths), *formats = malloc(slots * sizeof *formats);
    gc_strbuf all;
    gc_strbuf_init(&all);
    gc_strbuf_append_char(&all, '[');
    bool ok = used != NULL && types != NULL && values != NULL && lengths != NULL &&
              formats != NULL;
    if (!ok)
        gc_error_set(err, "HY001", 0, "out of memory");
    gc_strbuf items;
    gc_strbuf_init(&items);
    for (int k = 0; k < n_parts && ok; k++) {
        int n_used = 0;
        char *query = rows_query(sql, a, where_end, t, parts[k].group, params->n, used, &n_used);
        if (query == NULL) {
            gc_error_set(err, "HY001", 0, "out of memory");
            ok = false;
            break;
        }
        gc_span_params mine;
        gc_span_pick_params(params, used, n_used, types, values, lengths, formats, &mine);
        ok = fetch_rows(g, &parts[k], t, query, &mine, &items, rolled_back, err);
        free(query);
    }
    free(used);
    free(types);
    free(values);
    free(lengths);
    free(formats);
    char *text = NULL;
    if (ok) {
        gc_strbuf_append(&all, items.data != NULL ? items.data : "", items.len);
        gc_strbuf_append_char(&all, ']');
        text = all.failed ? NULL : pin_text(g, sql, a, t, parts, n_parts, params->n + 1);
        if (text == NULL)
            gc_error_set(err, "HY001", 0, "out of memory");
    }
    gc_strbuf_free(&items);
    if (text == NULL) {
        gc_strbuf_free(&all);
        if (*rolled_back)
            gc_global_rollback_transaction(g);
        return NULL;
    }
    gc_trace_write(g->trace, GC_TRACE_INFO, "read of table %s split: the rows the "
                   "transaction wrote on %d other group(s) brought to member %s",
                   gc_shard_table_name(t), n_parts, g->topo.members[g->pinned].name);
    *rows = gc_strbuf_take(&all);
    return text;
}
