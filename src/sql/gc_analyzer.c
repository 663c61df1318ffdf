/*
 * The analyzer's front half: tokens, the statement kind, read-only, WITH
 * lists and statement boundaries. The target table and the pinned columns
 * are in gc_analyzer_target.c.
 */
#include "sql/gc_analyzer.h"

#include <assert.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "sql/gc_analyzer_internal.h"

bool gc_az_kw(const gc_az *az, size_t i, const char *word)
{
    return i < az->n && gc_sql_token_is_keyword(&az->lx, &az->tok[i], word);
}

bool gc_az_punct(const gc_az *az, size_t i, char c)
{
    return i < az->n && gc_sql_token_is_punct(&az->lx, &az->tok[i], c);
}

bool gc_az_op(const gc_az *az, size_t i, const char *op)
{
    return i < az->n && gc_sql_token_is_operator(&az->lx, &az->tok[i], op);
}

size_t gc_az_skip_parens(const gc_az *az, size_t i, size_t end)
{
    assert(gc_az_punct(az, i, '('));
    size_t depth = 0;
    for (; i < end; i++) {
        if (gc_az_punct(az, i, '('))
            depth++;
        else if (gc_az_punct(az, i, ')') && --depth == 0)
            return i + 1;
    }
    return end;
}

char *gc_az_identifier_of(gc_az *az, const gc_sql_lexer *lx, const gc_sql_token *tok)
{
    size_t len = gc_sql_token_identifier(lx, tok, NULL, 0);
    if (len == 0)
        return NULL;
    char *s = malloc(len + 1);
    if (s == NULL) {
        az->oom = true;
        return NULL;
    }
    gc_sql_token_identifier(lx, tok, s, len + 1);
    return s;
}

char *gc_az_ident(gc_az *az, size_t i)
{
    return i < az->n ? gc_az_identifier_of(az, &az->lx, &az->tok[i]) : NULL;
}

/* Collects the code tokens of the text into az->tok. Returns false with err
 * set for an unterminated token (42601) or no memory (HY001). */
static bool collect_tokens(gc_az *az, gc_error *err)
{
    size_t cap = 0;
    gc_sql_token t;
    while (gc_sql_lexer_next_code(&az->lx, &t)) {
        if (t.unterminated) {
            gc_error_set(err, "42601", 0, "unterminated %s in the statement",
                         gc_sql_token_kind_name(t.kind));
            return false;
        }
        if (az->n == cap) {
            size_t ncap = cap ? cap * 2 : 64;
            gc_sql_token *p = realloc(az->tok, ncap * sizeof *p);
            if (p == NULL) {
                gc_error_set(err, "HY001", 0, "out of memory analyzing a statement");
                return false;
            }
            az->tok = p;
            cap = ncap;
        }
        az->tok[az->n++] = t;
    }
    return true;
}

/* True when the parenthesized body starting at i (just past its `(`) is a
 * data-modifying statement: INSERT, UPDATE, DELETE or MERGE, possibly after
 * more parentheses or its own WITH list. Conservative: any of those keywords
 * at the body's start means yes. */
static bool body_modifies(const gc_az *az, size_t i, size_t end)
{
    for (; i < end; i++) {
        if (gc_az_kw(az, i, "insert") || gc_az_kw(az, i, "update") ||
            gc_az_kw(az, i, "delete") || gc_az_kw(az, i, "merge"))
            return true;
    }
    return false;
}

/* Notes the body [from, to) of a WITH query that modifies data
 * (gc_az.dml_cte): one INSERT, UPDATE, DELETE or MERGE, or else none of
 * the bodies is noted. */
static void note_dml_body(gc_az *az, size_t from, size_t to)
{
    bool one_dml = from < to && (gc_az_kw(az, from, "insert") || gc_az_kw(az, from, "update") ||
                                 gc_az_kw(az, from, "delete") || gc_az_kw(az, from, "merge"));
    if (az->n_dml_ctes < 0)
        return;
    if (!one_dml || az->n_dml_ctes == GC_AZ_MAX_CTES) {
        az->n_dml_ctes = -1;
        return;
    }
    az->dml_cte[az->n_dml_ctes][0] = from;
    az->dml_cte[az->n_dml_ctes][1] = to;
    az->n_dml_ctes++;
}

/* Skips a WITH list starting at i (on WITH); records CTE names and whether
 * one modifies data. Returns the index of the main statement. */
static size_t skip_with(gc_az *az, size_t i, size_t end, bool *modifies)
{
    assert(gc_az_kw(az, i, "with"));
    i++;
    if (gc_az_kw(az, i, "recursive"))
        i++;
    while (i < end) {
        if (az->n_ctes < GC_AZ_MAX_CTES)
            az->cte_name[az->n_ctes++] = i;
        i++;
        if (gc_az_punct(az, i, '('))
            i = gc_az_skip_parens(az, i, end);
        if (!gc_az_kw(az, i, "as"))
            return i;   /* not a WITH list we understand: kind from here */
        i++;
        if (gc_az_kw(az, i, "not"))
            i++;
        if (gc_az_kw(az, i, "materialized"))
            i++;
        if (!gc_az_punct(az, i, '('))
            return i;
        size_t close = gc_az_skip_parens(az, i, end);
        if (body_modifies(az, i + 1, close)) {
            *modifies = true;
            /* the body ends before its `)` (close: past it, when balanced) */
            note_dml_body(az, i + 1, gc_az_punct(az, close - 1, ')') ? close - 1 : i + 1);
        }
        i = close;
        /* SEARCH and CYCLE clauses run to the next comma or the main verb. */
        while (i < end && (gc_az_kw(az, i, "search") || gc_az_kw(az, i, "cycle"))) {
            while (i < end && !gc_az_punct(az, i, ',') && !gc_az_kw(az, i, "select") &&
                   !gc_az_kw(az, i, "insert") && !gc_az_kw(az, i, "update") &&
                   !gc_az_kw(az, i, "delete") && !gc_az_kw(az, i, "values"))
                i++;
        }
        if (!gc_az_punct(az, i, ','))
            return i;
        i++;
    }
    return i;
}

/* The kind a statement has from its first keyword at i (after WITH). */
static gc_sql_kind kind_at(gc_az *az, size_t i)
{
    static const struct { const char *word; gc_sql_kind kind; } words[] = {
        {"select", GC_SQL_SELECT}, {"values", GC_SQL_SELECT}, {"table", GC_SQL_SELECT},
        {"insert", GC_SQL_INSERT}, {"update", GC_SQL_UPDATE}, {"delete", GC_SQL_DELETE},
        {"merge", GC_SQL_MERGE}, {"begin", GC_SQL_BEGIN}, {"start", GC_SQL_BEGIN},
        {"commit", GC_SQL_COMMIT}, {"end", GC_SQL_COMMIT},
        {"rollback", GC_SQL_ROLLBACK}, {"abort", GC_SQL_ROLLBACK},
        {"savepoint", GC_SQL_SAVEPOINT}, {"release", GC_SQL_SAVEPOINT},
        {"set", GC_SQL_SET}, {"reset", GC_SQL_SET}, {"show", GC_SQL_SHOW},
        {"create", GC_SQL_DDL}, {"alter", GC_SQL_DDL}, {"drop", GC_SQL_DDL},
        {"truncate", GC_SQL_DDL}, {"comment", GC_SQL_DDL}, {"grant", GC_SQL_DDL},
        {"revoke", GC_SQL_DDL}, {"refresh", GC_SQL_DDL},
        {"vacuum", GC_SQL_MAINTENANCE}, {"analyze", GC_SQL_MAINTENANCE},
        {"analyse", GC_SQL_MAINTENANCE}, {"reindex", GC_SQL_MAINTENANCE},
        {"cluster", GC_SQL_MAINTENANCE}, {"checkpoint", GC_SQL_MAINTENANCE},
    };
    if (i >= az->n)
        return GC_SQL_UNKNOWN;
    if (az->tok[i].kind != GC_SQL_TOK_IDENT)
        return GC_SQL_UNKNOWN;
    /* Every word is listed once: the first match is the kind. */
    gc_sql_kind kind = GC_SQL_OTHER;
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
        if (gc_az_kw(az, i, words[w].word)) {
            kind = words[w].kind;
            break;
        }
    }
    size_t j = i + 1;
    switch (kind) {
    case GC_SQL_COMMIT:
        if (gc_az_kw(az, j, "prepared"))
            kind = GC_SQL_OTHER;
        break;
    case GC_SQL_ROLLBACK:
        if (gc_az_kw(az, j, "prepared"))
            return GC_SQL_OTHER;
        if (gc_az_kw(az, j, "work") || gc_az_kw(az, j, "transaction"))
            j++;
        if (gc_az_kw(az, j, "to"))
            kind = GC_SQL_SAVEPOINT;
        break;
    case GC_SQL_BEGIN:
        if (gc_az_kw(az, i, "start") && !gc_az_kw(az, j, "transaction"))
            kind = GC_SQL_OTHER;
        break;
    case GC_SQL_SET:
        if (gc_az_kw(az, i, "set") && gc_az_kw(az, j, "local"))
            az->out->is_local = true;
        break;
    default:
        break;
    }
    return kind;
}

/* Whether a SELECT (its WITH list included) has a locking clause: FOR
 * UPDATE, NO KEY UPDATE, SHARE or KEY SHARE. */
static bool select_locks_rows(const gc_az *az)
{
    for (size_t i = 0; i < az->n; i++)
        if (gc_az_kw(az, i, "for") &&
            (gc_az_kw(az, i + 1, "update") || gc_az_kw(az, i + 1, "share") ||
             gc_az_kw(az, i + 1, "no") || gc_az_kw(az, i + 1, "key")))
            return true;
    return false;
}

/* Whether a SELECT has an INTO (it makes a table). */
static bool select_has_into(const gc_az *az)
{
    for (size_t i = 0; i < az->n; i++)
        if (gc_az_kw(az, i, "into"))
            return true;
    return false;
}

/* Whether the SELECT alone in the text has an INTO of its own (not in a
 * subquery): it makes a table. */
static bool select_makes_table(const gc_az *az)
{
    long depth = 0;
    for (size_t i = az->stmt_begin; i < az->stmt_end; i++) {
        if (gc_az_punct(az, i, '('))
            depth++;
        else if (gc_az_punct(az, i, ')'))
            depth--;
        else if (depth == 0 && gc_az_kw(az, i, "into"))
            return true;
    }
    return false;
}

/* The end of the statement starting at i: a `;` or a `)` closing a
 * parenthesis opened before i, at depth 0. */
static size_t statement_end(const gc_az *az, size_t i)
{
    long depth = 0;
    for (; i < az->n; i++) {
        if (gc_az_punct(az, i, '('))
            depth++;
        else if (gc_az_punct(az, i, ')') && --depth < 0)
            return i;
        else if (depth == 0 && gc_az_punct(az, i, ';'))
            return i;
    }
    return az->n;
}

/* True when code other than `;` and `)` follows the first statement. */
static bool has_second_statement(const gc_az *az)
{
    long depth = 0;
    size_t i = 0;
    for (; i < az->n; i++) {
        if (gc_az_punct(az, i, '('))
            depth++;
        else if (gc_az_punct(az, i, ')'))
            depth--;
        else if (depth <= 0 && gc_az_punct(az, i, ';'))
            break;
    }
    for (; i < az->n; i++)
        if (!gc_az_punct(az, i, ';'))
            return true;
    return false;
}

/* gc_analysis.returning_at for a statement alone in the text. */
static size_t returning_place(const gc_az *az)
{
    gc_sql_kind k = az->out->kind;
    if ((k != GC_SQL_INSERT && k != GC_SQL_UPDATE && k != GC_SQL_DELETE) ||
        gc_az_punct(az, 0, '(') || az->stmt_end == 0 ||
        (az->stmt_end < az->n && !gc_az_punct(az, az->stmt_end, ';')))
        return 0;
    for (size_t t = 0; t < az->stmt_end; t++)
        if (gc_az_kw(az, t, "returning"))
            return 0;
    const gc_sql_token *last = &az->tok[az->stmt_end - 1];
    return last->offset + last->length;
}

static void free_several_targets(gc_analysis *a)
{
    for (int k = 0; k < a->n_several_targets; k++) {
        free(a->several_targets[k].schema);
        free(a->several_targets[k].table);
        gc_analysis_free(a->several_targets[k].analysis);
        free(a->several_targets[k].analysis);
    }
    a->n_several_targets = 0;
}

/* Notes in out the target of the statement `one` of a text of several;
 * false when it is no row statement on a table, a SELECT of none, or
 * memory or room runs out. */
static bool note_target(gc_analysis *out, const gc_analysis *one)
{
    bool row_statement = one->kind == GC_SQL_SELECT || one->kind == GC_SQL_INSERT ||
                         one->kind == GC_SQL_UPDATE || one->kind == GC_SQL_DELETE ||
                         one->kind == GC_SQL_MERGE;
    if (!row_statement)
        return false;
    if (one->table == NULL)    /* SELECT 1, not a function that may write */
        return one->kind == GC_SQL_SELECT && one->sequence == NULL && one->read_only;
    if (out->n_several_targets >= GC_SEVERAL_TARGETS_MAX)
        return false;
    struct gc_several_target *t = &out->several_targets[out->n_several_targets];
    t->table = strdup(one->table);
    t->schema = one->schema != NULL ? strdup(one->schema) : NULL;
    t->writes = !(one->kind == GC_SQL_SELECT && one->read_only);
    out->n_several_targets++;
    return t->table != NULL && (one->schema == NULL || t->schema != NULL);
}

/* Analyzes the statement of tokens [from, to) of az's text and notes its
 * target in out; false as note_target says. */
static bool note_piece(const gc_az *az, size_t from, size_t to, gc_analysis *out)
{
    if (from == to)
        return true;    /* an empty statement (`;;`) */
    const char *text = az->lx.text;
    size_t begin = az->tok[from].offset;
    size_t end = az->tok[to - 1].offset + az->tok[to - 1].length;
    gc_analysis *one = calloc(1, sizeof *one);
    if (one == NULL)
        return false;
    gc_error ignored;
    gc_error_clear(&ignored);
    if (!gc_analyze(text + begin, end - begin, one, &ignored)) {
        free(one);
        return false;
    }
    int noted = out->n_several_targets;
    bool ok = !one->several && note_target(out, one);
    if (out->n_several_targets > noted) {
        out->several_targets[noted].analysis = one;     /* kept: routing places its keys */
        out->several_targets[noted].offset = begin;
    } else {
        gc_analysis_free(one);
        free(one);
    }
    return ok;
}

/* For a text of several statements: the target of each, split at the
 * `;` outside parentheses (gc_analysis.several_targets), or
 * n_several_targets -1. Each part holds one statement, so its own analysis
 * does not come back here. */
static void note_several_targets(const gc_az *az, gc_analysis *out)
{
    bool ok = true;
    long depth = 0;
    size_t from = 0;
    for (size_t i = 0; i <= az->n && ok; i++) {
        if (i < az->n && gc_az_punct(az, i, '('))
            depth++;
        else if (i < az->n && gc_az_punct(az, i, ')'))
            depth--;
        else if (i == az->n || (depth <= 0 && gc_az_punct(az, i, ';'))) {
            ok = note_piece(az, from, i, out);
            from = i + 1;
        }
    }
    if (!ok) {
        free_several_targets(out);
        out->n_several_targets = -1;
    }
}

/* For a statement with data-modifying WITH queries, each one INSERT,
 * UPDATE, DELETE or MERGE: their targets and the main statement's, as for
 * a text of several statements (routing places a statement whose writes
 * keep to one group there). Nothing noted when one cannot be read. */
static void note_with_targets(const gc_az *az, gc_analysis *out)
{
    if (az->n_dml_ctes <= 0)
        return;
    bool ok = true;
    for (int k = 0; k < az->n_dml_ctes && ok; k++)
        ok = note_piece(az, az->dml_cte[k][0], az->dml_cte[k][1], out);
    if (ok)
        ok = note_piece(az, az->stmt_begin, az->stmt_end, out);
    if (ok)
        out->writes_in_with = out->n_several_targets > 0;
    else
        free_several_targets(out);
}

/* The last serial handed out (gc_analysis.serial): analyses are made by
 * any thread. */
static atomic_ulong analysis_serials;

bool gc_analyze(const char *sql, size_t len, gc_analysis *out, gc_error *err)
{
    assert(out != NULL && err != NULL);
    assert(sql != NULL || len == 0);
    memset(out, 0, sizeof *out);
    out->n_rows = 1;
    out->serial = atomic_fetch_add_explicit(&analysis_serials, 1, memory_order_relaxed) + 1;

    gc_az az;
    memset(&az, 0, sizeof az);
    az.out = out;
    gc_sql_lexer_init(&az.lx, sql, len);
    if (!collect_tokens(&az, err)) {
        free(az.tok);
        return false;
    }

    size_t i = 0;
    while (gc_az_punct(&az, i, '('))
        i++;
    bool cte_modifies = false;
    if (gc_az_kw(&az, i, "with"))
        i = skip_with(&az, i, az.n, &cte_modifies);
    while (gc_az_punct(&az, i, '('))
        i++;
    az.stmt_begin = i;
    az.stmt_end = statement_end(&az, i);
    out->kind = kind_at(&az, i);

    if (out->kind == GC_SQL_SHOW) {
        out->read_only = true;
    } else if (out->kind == GC_SQL_SELECT && !cte_modifies && !select_has_into(&az)) {
        gc_az_call_class calls = gc_az_classify_calls(&az);
        if (select_locks_rows(&az)) {
            out->locking_read = calls == GC_AZ_CALL_READS;
        } else {
            out->read_only = calls == GC_AZ_CALL_READS;
            out->route_as_read = calls != GC_AZ_CALL_WRITES;
        }
    }
    if (out->read_only)
        out->route_as_read = true;
    for (size_t t = az.stmt_begin + 1; t < az.stmt_end; t++)
        if (gc_az_kw(&az, t, "chain") && gc_az_kw(&az, t - 1, "and"))
            out->and_chain = true;

    if (has_second_statement(&az)) {
        out->several = true;
        note_several_targets(&az, out);
        out->read_only = false;
        out->route_as_read = false;
        out->locking_read = false;
        out->not_routable = "more than one statement";
    } else if (out->kind == GC_SQL_INSERT) {
        out->returning_at = returning_place(&az);
        gc_az_analyze_insert(&az);
        if (cte_modifies)
            note_with_targets(&az, out);
    } else if (out->kind == GC_SQL_UPDATE || out->kind == GC_SQL_DELETE ||
               out->kind == GC_SQL_SELECT || out->kind == GC_SQL_MERGE) {
        out->returning_at = returning_place(&az);
        gc_az_analyze_filtered(&az);
        if (out->kind == GC_SQL_SELECT && out->table == NULL)
            gc_az_find_sequence(&az);
        if (cte_modifies)
            note_with_targets(&az, out);
    } else if (out->kind == GC_SQL_MAINTENANCE) {
        gc_az_analyze_maintenance(&az);
    } else if (gc_az_kw(&az, az.stmt_begin, "copy")) {
        gc_az_analyze_copy(&az);
    } else {
        out->not_routable = "not a statement on a table";
    }
    bool row_write = out->kind == GC_SQL_INSERT || out->kind == GC_SQL_UPDATE ||
                     out->kind == GC_SQL_DELETE || out->kind == GC_SQL_MERGE;
    out->plain_write = row_write && !out->several && !cte_modifies &&
                       gc_az_write_calls_plain(&az);
    out->one_relation = !out->several && gc_az_names_one_relation(&az);
    out->select_into = out->kind == GC_SQL_SELECT && !out->several && select_makes_table(&az);
    free(az.tok);
    if (az.oom) {
        gc_analysis_free(out);
        gc_error_set(err, "HY001", 0, "out of memory analyzing a statement");
        return false;
    }
    if (out->n_columns == 0 && out->not_routable == NULL)
        out->not_routable = "no column pinned to a value";
    return true;
}

int gc_analysis_insert_column(const gc_analysis *a, const char *column)
{
    for (int c = 0; a->insert_columns != NULL && c < a->n_insert_columns; c++)
        if (a->insert_columns[c] != NULL && strcmp(a->insert_columns[c], column) == 0)
            return c;
    return -1;
}

void gc_analysis_free(gc_analysis *a)
{
    if (a == NULL)
        return;
    free_several_targets(a);
    free(a->row_offset);
    free(a->row_end);
    for (size_t k = 0; a->gaps != NULL && k < (size_t)a->n_rows * (size_t)a->row_width; k++)
        free(a->gaps[k].sequence);
    free(a->gaps);
    a->gaps = NULL;
    a->row_offset = a->row_end = NULL;
    for (int c = 0; c < a->n_columns; c++) {
        gc_pinned_column *col = &a->columns[c];
        for (int v = 0; v < col->n_values; v++)
            free(col->values[v].literal);
        free(col->values);
        free(col->name);
    }
    free(a->columns);
    for (int c = 0; c < a->n_insert_columns; c++)
        free(a->insert_columns[c]);
    free(a->insert_columns);
    for (int c = 0; c < a->n_set_columns; c++)
        free(a->set_columns[c]);
    free(a->set_columns);
    free(a->schema);
    free(a->table);
    free(a->sequence_schema);
    free(a->sequence);
    memset(a, 0, sizeof *a);
}
