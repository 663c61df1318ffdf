/*
 * The analyzer's back half: the target table of the main statement and the
 * columns it pins, from INSERT rows or from the top-level AND of WHERE.
 */
#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "sql/gc_analyzer_internal.h"

/* Nesting of parentheses the WHERE walk follows; deeper groups are ignored. */
#define MAX_WHERE_DEPTH 32

/* The target table as the statement names it. */
typedef struct target {
    char *alias;          /* folded, owned; NULL when none */
} target;

/* An identifier that can name a table or column: PostgreSQL rejects "" and
 * a NUL byte cannot travel in a C string, so neither is one. */
static bool is_name(const gc_az *az, size_t i)
{
    if (i >= az->n)
        return false;
    const gc_sql_token *t = &az->tok[i];
    if (t->kind != GC_SQL_TOK_IDENT && t->kind != GC_SQL_TOK_QUOTED_IDENT)
        return false;
    if (t->kind == GC_SQL_TOK_QUOTED_IDENT && t->length <= 2)
        return false;
    return memchr(gc_sql_token_text(&az->lx, t), '\0', t->length) == NULL;
}

/* Words after a table name that start the next clause, never an alias. */
static bool is_clause_word(const gc_az *az, size_t i)
{
    static const char *const words[] = {
        "where", "set", "join", "inner", "left", "right", "full", "cross",
        "natural", "on", "using", "group", "order", "limit", "offset", "fetch",
        "for", "window", "having", "union", "intersect", "except", "returning",
        "tablesample", "default", "values", "select", "overriding", "lateral",
        "into", "as", "only", "table", "with",
    };
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
        if (gc_az_kw(az, i, words[w]))
            return true;
    return false;
}

static bool ident_equals(gc_az *az, size_t i, const char *name)
{
    if (name == NULL)
        return false;
    char *s = gc_az_ident(az, i);
    bool eq = s != NULL && strcmp(s, name) == 0;
    free(s);
    return eq;
}

/* Reads a table reference at i: [ONLY] name[.name[.name]] [*] and, when
 * allowed, an alias ([AS] alias; INSERT only takes AS). Fills out->schema,
 * out->table and tg->alias. Returns the index past it, or 0 with
 * out->not_routable set when it is no plain table. */
static size_t read_table(gc_az *az, size_t i, target *tg, bool bare_alias)
{
    gc_analysis *out = az->out;
    if (gc_az_kw(az, i, "only"))
        i++;
    if (gc_az_punct(az, i, '(') || gc_az_kw(az, i, "lateral")) {
        out->not_routable = "the target is a subquery";
        return 0;
    }
    if (!is_name(az, i) || is_clause_word(az, i)) {
        out->not_routable = "no target table";
        return 0;
    }
    size_t first = i, last = i;
    while (gc_az_punct(az, last + 1, '.') && is_name(az, last + 2))
        last += 2;
    if (bare_alias && gc_az_punct(az, last + 1, '(')) {
        out->not_routable = "the target is a function";
        return 0;
    }
    out->table = gc_az_ident(az, last);
    if (last > first)
        out->schema = gc_az_ident(az, last - 2);
    if (out->table == NULL) {
        out->not_routable = "no target table";
        return 0;
    }
    i = last + 1;
    bool star = gc_az_op(az, i, "*");
    if (star)
        i++;
    size_t alias_at = 0;
    if (gc_az_kw(az, i, "as") && is_name(az, i + 1))
        alias_at = i + 1;
    else if (bare_alias && is_name(az, i) && !is_clause_word(az, i))
        alias_at = i;
    if (!star) {
        const gc_sql_token *from = &az->tok[first], *to = &az->tok[last];
        out->target_offset = from->offset;
        out->target_length = to->offset + to->length - from->offset;
        out->target_name_offset = to->offset;
        out->target_name_length = to->length;
        out->target_aliased = alias_at != 0;
    }
    if (alias_at != 0) {
        tg->alias = gc_az_ident(az, alias_at);
        i = alias_at + 1;
        if (gc_az_punct(az, i, '(') && bare_alias) {
            out->not_routable = "the alias renames columns";
            return 0;
        }
    }
    return i;
}

/* Appends a pinned column (taking name and values). */
static void add_column(gc_az *az, char *name, int position, gc_value_source *values,
                       int n_values)
{
    gc_analysis *out = az->out;
    gc_pinned_column *p = realloc(out->columns, (size_t)(out->n_columns + 1) * sizeof *p);
    if (p == NULL) {
        az->oom = true;
        free(name);
        for (int v = 0; v < n_values; v++)
            free(values[v].literal);
        free(values);
        return;
    }
    out->columns = p;
    p[out->n_columns].name = name;
    p[out->n_columns].position = position;
    p[out->n_columns].n_values = n_values;
    p[out->n_columns].values = values;
    out->n_columns++;
}

/* Splits the parenthesized list whose `(` is at open and `)` at close into
 * items at top-level commas: fills starts[k] and ends[k] (k < max, ends[k]
 * is the index of the comma or close) and returns the number of items; 0
 * for an empty list or an empty item. */
static size_t split_row(const gc_az *az, size_t open, size_t close, size_t *starts,
                        size_t *ends, size_t max)
{
    size_t count = 0, item = open + 1, i = open + 1;
    if (item >= close)
        return 0;
    for (;;) {
        if (i >= close || gc_az_punct(az, i, ',')) {
            if (i == item)
                return 0;
            if (count < max) {
                starts[count] = item;
                ends[count] = i;
            }
            count++;
            if (i >= close)
                return count;
            item = ++i;
        } else if (gc_az_punct(az, i, '(')) {
            i = gc_az_skip_parens(az, i, close);
        } else {
            i++;
        }
    }
}

/* ---- WHERE ---- */

/* A column of the target at [i, end): col, q.col or s.q.col where q names
 * the target (table or alias) and s its schema. Returns the column's token
 * index, or 0 when it is none. */
static size_t column_of_target(gc_az *az, size_t i, size_t end, const target *tg)
{
    const gc_analysis *out = az->out;
    static const char *const not_columns[] = {
        "true", "false", "null", "current_date", "current_time", "current_timestamp",
        "localtime", "localtimestamp", "current_user", "current_role", "session_user",
        "user", "current_catalog", "current_schema", "default",
    };
    size_t len = end - i;
    if (len == 1 && is_name(az, i)) {
        for (size_t w = 0; w < sizeof not_columns / sizeof not_columns[0]; w++)
            if (gc_az_kw(az, i, not_columns[w]))
                return 0;
        return i;
    }
    if (len == 3 && is_name(az, i) && gc_az_punct(az, i + 1, '.') && is_name(az, i + 2) &&
        (ident_equals(az, i, tg->alias) || ident_equals(az, i, out->table)))
        return i + 2;
    if (len == 5 && is_name(az, i) && gc_az_punct(az, i + 1, '.') && is_name(az, i + 2) &&
        gc_az_punct(az, i + 3, '.') && is_name(az, i + 4) &&
        ident_equals(az, i, out->schema) && ident_equals(az, i + 2, out->table))
        return i + 4;
    return 0;
}

/* `col = v`, `v = col` or `col IN (v, ...)` filling [a, b); adds a pinned
 * column when it is one. */
/* Adds one pinned column named by token col with the single value v. */
static void add_single(gc_az *az, size_t col, gc_value_source v)
{
    gc_value_source *vals = malloc(sizeof *vals);
    char *name = gc_az_ident(az, col);
    if (vals == NULL || name == NULL) {
        az->oom = true;
        free(vals);
        free(name);
        free(v.literal);
        return;
    }
    vals[0] = v;
    add_column(az, name, -1, vals, 1);
}

/* `(c1, c2) = (v1, v2)` at [a, b) with `=` at eq: a column per pair when
 * every left item is a column of the target and every right one a value. */
static void read_row_comparison(gc_az *az, size_t a, size_t eq, size_t b, const target *tg)
{
    enum { MAX_ROW = 32 };
    size_t ls[MAX_ROW], le[MAX_ROW], rs[MAX_ROW], re[MAX_ROW];
    if (!gc_az_punct(az, a, '(') || gc_az_skip_parens(az, a, eq) != eq ||
        !gc_az_punct(az, eq - 1, ')') || !gc_az_punct(az, eq + 1, '(') ||
        gc_az_skip_parens(az, eq + 1, b) != b || !gc_az_punct(az, b - 1, ')'))
        return;
    size_t n = split_row(az, a, eq - 1, ls, le, MAX_ROW);
    if (n < 2 || n > MAX_ROW || split_row(az, eq + 1, b - 1, rs, re, MAX_ROW) != n)
        return;
    size_t cols[MAX_ROW];
    gc_value_source vals[MAX_ROW];
    size_t k = 0;
    for (; k < n; k++) {
        cols[k] = column_of_target(az, ls[k], le[k], tg);
        if (cols[k] == 0 || gc_az_parse_value(az, rs[k], re[k], &vals[k]) != re[k])
            break;
    }
    if (k < n) {
        while (k-- > 0)
            free(vals[k].literal);
        return;
    }
    for (k = 0; k < n; k++)
        add_single(az, cols[k], vals[k]);
}

static void read_comparison(gc_az *az, size_t a, size_t b, const target *tg)
{
    for (size_t i = a; i < b; i++) {
        if (gc_az_op(az, i, "=") && gc_az_punct(az, a, '(')) {
            read_row_comparison(az, a, i, b, tg);
            return;
        }
        if (gc_az_op(az, i, "=")) {
            gc_value_source v;
            size_t col = column_of_target(az, a, i, tg);
            if (col != 0 && gc_az_parse_value(az, i + 1, b, &v) == b) {
                /* col = v */
            } else if ((col = column_of_target(az, i + 1, b, tg)) != 0 &&
                       gc_az_parse_value(az, a, i, &v) == i) {
                /* v = col */
            } else {
                return;
            }
            add_single(az, col, v);
            return;
        }
        if (gc_az_kw(az, i, "in")) {
            size_t col = column_of_target(az, a, i, tg);
            if (col == 0 || !gc_az_punct(az, i + 1, '(') ||
                gc_az_skip_parens(az, i + 1, b) != b || !gc_az_punct(az, b - 1, ')'))
                return;
            size_t n = split_row(az, i + 1, b - 1, NULL, NULL, 0);
            if (n == 0 || n > INT_MAX / 2)
                return;
            size_t *starts = malloc(n * sizeof *starts), *ends = malloc(n * sizeof *ends);
            gc_value_source *vals = calloc(n, sizeof *vals);
            char *name = gc_az_ident(az, col);
            bool ok = starts != NULL && ends != NULL && vals != NULL && name != NULL;
            if (!ok)
                az->oom = true;
            else
                split_row(az, i + 1, b - 1, starts, ends, n);
            for (size_t k = 0; ok && k < n; k++)
                ok = gc_az_parse_value(az, starts[k], ends[k], &vals[k]) == ends[k];
            free(starts);
            free(ends);
            if (ok) {
                add_column(az, name, -1, vals, (int)n);
                return;
            }
            for (size_t k = 0; vals != NULL && k < n; k++)
                free(vals[k].literal);
            free(vals);
            free(name);
            return;
        }
    }
}

/* Walks [a, b) as a conjunction: each top-level AND operand is either a
 * comparison or, in parentheses without OR, another conjunction. */
static void read_conjunction(gc_az *az, size_t a, size_t b, const target *tg, int depth)
{
    long level = 0;
    for (size_t i = a; i < b; i++) {
        if (gc_az_punct(az, i, '('))
            level++;
        else if (gc_az_punct(az, i, ')'))
            level--;
        else if (level == 0 && gc_az_kw(az, i, "or")) {
            if (depth == 0)
                az->out->not_routable = "OR at the top of WHERE";
            return;
        }
    }
    size_t start = a;
    bool between = false;
    level = 0;
    for (size_t i = a; i <= b && !az->oom; i++) {
        if (i < b && gc_az_punct(az, i, '('))
            level++;
        else if (i < b && gc_az_punct(az, i, ')'))
            level--;
        if (i < b && level == 0 && gc_az_kw(az, i, "between")) {
            between = true;
            continue;
        }
        if (i < b && !(level == 0 && gc_az_kw(az, i, "and")))
            continue;
        if (between) {   /* this AND belongs to BETWEEN x AND y */
            between = false;
            continue;
        }
        if (i > start && gc_az_punct(az, start, '(') &&
            gc_az_skip_parens(az, start, i) == i && gc_az_punct(az, i - 1, ')')) {
            if (depth < MAX_WHERE_DEPTH)
                read_conjunction(az, start + 1, i - 1, tg, depth + 1);
        } else if (i > start) {
            read_comparison(az, start, i, tg);
        }
        start = i + 1;
    }
}

/* The first top-level token from i to the statement's end that is `word`. */
static size_t find_top_level(const gc_az *az, size_t i, const char *word)
{
    long level = 0;
    for (; i < az->stmt_end; i++) {
        if (gc_az_punct(az, i, '('))
            level++;
        else if (gc_az_punct(az, i, ')'))
            level--;
        else if (level == 0 && gc_az_kw(az, i, word))
            return i;
    }
    return az->stmt_end;
}

/* The end of a WHERE clause starting at i: the next top-level clause. */
static size_t where_end(const gc_az *az, size_t i)
{
    static const char *const stops[] = {
        "group", "order", "limit", "offset", "fetch", "for", "window", "having",
        "union", "intersect", "except", "returning",
    };
    long level = 0;
    for (; i < az->stmt_end; i++) {
        if (gc_az_punct(az, i, '('))
            level++;
        else if (gc_az_punct(az, i, ')'))
            level--;
        else if (level == 0)
            for (size_t w = 0; w < sizeof stops / sizeof stops[0]; w++)
                if (gc_az_kw(az, i, stops[w]))
                    return i;
    }
    return az->stmt_end;
}

/* True when UNION, INTERSECT or EXCEPT joins the main query to another one. */
static bool has_set_operation(const gc_az *az)
{
    long level = 0, base = 0;
    for (size_t i = 0; i < az->n; i++) {
        if (i == az->stmt_begin)
            base = level;
        if (gc_az_punct(az, i, '('))
            level++;
        else if (gc_az_punct(az, i, ')'))
            level--;
        else if (i >= az->stmt_begin && level <= base &&
                 (gc_az_kw(az, i, "union") || gc_az_kw(az, i, "intersect") ||
                  gc_az_kw(az, i, "except")))
            return true;
    }
    return false;
}

/* True when the target names a WITH query rather than a table. */
static bool target_is_cte(gc_az *az)
{
    if (az->out->schema != NULL)
        return false;
    for (size_t c = 0; c < az->n_ctes; c++)
        if (ident_equals(az, az->cte_name[c], az->out->table))
            return true;
    return false;
}

/* Appends the column an UPDATE's SET item names at i (name, or the first
 * token of name[...] or name.field) to out->set_columns. */
static void add_set_column(gc_az *az, size_t i)
{
    gc_analysis *out = az->out;
    if (!is_name(az, i))
        return;
    char **grown = realloc(out->set_columns, (size_t)(out->n_set_columns + 1) * sizeof *grown);
    char *name = gc_az_ident(az, i);
    if (grown == NULL || name == NULL) {
        az->oom = true;
        free(name);
        if (grown != NULL)
            out->set_columns = grown;
        return;
    }
    out->set_columns = grown;
    out->set_columns[out->n_set_columns++] = name;
}

/* The columns UPDATE's SET list at i assigns (`col = ...`, `col[1] = ...`,
 * `(a, b) = ...`), up to its top-level FROM, WHERE or RETURNING. */
static void read_set_columns(gc_az *az, size_t i)
{
    long depth = 0;
    bool item_start = true;
    for (; i < az->stmt_end && !az->oom; i++) {
        if (depth == 0 && (gc_az_kw(az, i, "from") || gc_az_kw(az, i, "where") ||
                           gc_az_kw(az, i, "returning")))
            return;
        if (depth == 0 && item_start && gc_az_punct(az, i, '(')) {
            for (size_t k = i + 1; k < az->stmt_end && !gc_az_punct(az, k, ')'); k++)
                if (gc_az_punct(az, k - 1, '(') || gc_az_punct(az, k - 1, ','))
                    add_set_column(az, k);
        } else if (depth == 0 && item_start) {
            add_set_column(az, i);
        }
        item_start = depth == 0 && gc_az_punct(az, i, ',');
        if (gc_az_punct(az, i, '(') || gc_az_punct(az, i, '['))
            depth++;
        else if (gc_az_punct(az, i, ')') || gc_az_punct(az, i, ']'))
            depth--;
    }
}

void gc_az_analyze_filtered(gc_az *az)
{
    gc_analysis *out = az->out;
    size_t i = az->stmt_begin;
    target tg = {NULL};
    if (gc_az_kw(az, i, "values")) {
        out->not_routable = "no table";
        return;
    }
    if (gc_az_kw(az, i, "select")) {
        i = find_top_level(az, i, "from");
        if (i == az->stmt_end) {
            out->not_routable = "no FROM clause";
            return;
        }
    } else if (gc_az_kw(az, i, "delete") || gc_az_kw(az, i, "merge")) {
        i++;   /* FROM or INTO */
    }
    i = read_table(az, i + 1, &tg, true);
    if (i != 0 && target_is_cte(az)) {
        out->not_routable = "the target is a WITH query";
        i = 0;
    }
    if (i == 0 || az->oom) {
        free(out->schema);
        free(out->table);
        out->schema = out->table = NULL;
        free(tg.alias);
        return;
    }
    if (out->kind == GC_SQL_UPDATE && gc_az_kw(az, i, "set"))
        read_set_columns(az, i + 1);
    if (gc_az_kw(az, az->stmt_begin, "merge")) {
        out->not_routable = "MERGE is not routed by key";
    } else if (has_set_operation(az)) {
        out->not_routable = "a set operation joins another query";
    } else {
        size_t w = find_top_level(az, i, "where");
        if (w == az->stmt_end)
            out->not_routable = "no WHERE clause";
        else if (gc_az_kw(az, w + 1, "current") && gc_az_kw(az, w + 2, "of"))
            out->not_routable = "WHERE CURRENT OF a cursor";
        else
            read_conjunction(az, w + 1, where_end(az, w + 1), &tg, 0);
    }
    free(tg.alias);
}

/* ---- INSERT ---- */

/* The column list (...) at open: a malloc'd array of names (NULL for an
 * item that is not a plain column); *count gets its length. */
static char **read_column_list(gc_az *az, size_t open, size_t close, size_t *count)
{
    size_t n = split_row(az, open, close, NULL, NULL, 0);
    *count = n;
    if (n == 0)
        return NULL;
    size_t *starts = malloc(n * sizeof *starts), *ends = malloc(n * sizeof *ends);
    char **names = calloc(n, sizeof *names);
    if (starts == NULL || ends == NULL || names == NULL) {
        az->oom = true;
        free(starts), free(ends), free(names);
        *count = 0;
        return NULL;
    }
    split_row(az, open, close, starts, ends, n);
    for (size_t k = 0; k < n; k++)
        if (ends[k] == starts[k] + 1 && is_name(az, starts[k]))
            names[k] = gc_az_ident(az, starts[k]);
    free(starts);
    free(ends);
    return names;
}

/* The literal of nextval('<literal>') filling tokens [i, end) exactly
 * (malloc'd), or NULL. */
static char *nextval_literal(gc_az *az, size_t i, size_t end)
{
    if (i + 2 < end && gc_az_kw(az, i, "pg_catalog") && gc_az_punct(az, i + 1, '.'))
        i += 2;
    if (i + 3 >= end || !gc_az_kw(az, i, "nextval") || !gc_az_punct(az, i + 1, '(') ||
        gc_az_skip_parens(az, i + 1, end) != end)
        return NULL;
    gc_value_source v;
    if (gc_az_parse_value(az, i + 2, end - 1, &v) != end - 1 || v.literal == NULL) {
        free(v.literal);
        return NULL;
    }
    return v.literal;
}

/* Notes VALUES item `item` (of n_items, row by row) at tokens [i, end)
 * when it leaves its column to a sequence (gc_value_gap). */
static void note_gap(gc_az *az, size_t item, size_t n_items, size_t i, size_t end)
{
    gc_analysis *out = az->out;
    char *sequence = NULL;
    if (!(end == i + 1 && gc_az_kw(az, i, "default")) &&
        (sequence = nextval_literal(az, i, end)) == NULL)
        return;
    if (out->gaps == NULL)
        out->gaps = calloc(n_items, sizeof *out->gaps);
    if (out->gaps == NULL) {
        free(sequence);
        az->oom = true;
        return;
    }
    const gc_sql_token *last = &az->tok[end - 1];
    out->gaps[item] = (gc_value_gap){ az->tok[i].offset,
                                      last->offset + last->length - az->tok[i].offset, sequence };
}

/* Reads VALUES rows from i into per-column value arrays and adds every
 * column with a value in every row. names (n_names entries) names the
 * columns, or is NULL for positions. */
static void read_rows(gc_az *az, size_t i, char **names, size_t n_names)
{
    gc_analysis *out = az->out;
    size_t n_rows = 0, width = 0;
    size_t j = i;
    /* First pass: count rows, check they have one width, find the end. */
    while (gc_az_punct(az, j, '(')) {
        size_t close = gc_az_skip_parens(az, j, az->stmt_end);
        if (!gc_az_punct(az, close - 1, ')')) {
            out->not_routable = "unbalanced VALUES row";
            return;
        }
        size_t w = split_row(az, j, close - 1, NULL, NULL, 0);
        if (w == 0 || (n_rows > 0 && w != width)) {
            out->not_routable = "VALUES rows of different lengths";
            return;
        }
        width = w;
        n_rows++;
        j = close;
        if (!gc_az_punct(az, j, ','))
            break;
        j++;
    }
    if (n_rows == 0 || (j != az->stmt_end && !gc_az_kw(az, j, "on") &&
                        !gc_az_kw(az, j, "returning"))) {
        out->not_routable = "VALUES is not a plain list of rows";
        return;
    }
    if (names != NULL && n_names != width) {
        out->not_routable = "VALUES rows do not match the column list";
        return;
    }
    if (n_rows > (size_t)INT_MAX / 2 || width > (size_t)INT_MAX / 2) {
        out->not_routable = "too many rows";
        return;
    }
    out->n_rows = (int)n_rows;
    out->row_width = (int)width;   /* before any gap is noted: the count frees them */
    gc_value_source **vals = calloc(width, sizeof *vals);
    bool *ok = malloc(width * sizeof *ok);
    size_t *starts = malloc(width * sizeof *starts), *ends = malloc(width * sizeof *ends);
    if (vals == NULL || ok == NULL || starts == NULL || ends == NULL) {
        az->oom = true;
        goto done;
    }
    for (size_t c = 0; c < width; c++) {
        ok[c] = names == NULL || names[c] != NULL;
        vals[c] = calloc(n_rows, sizeof **vals);
        if (vals[c] == NULL) {
            az->oom = true;
            goto done;
        }
    }
    out->row_offset = malloc(n_rows * sizeof *out->row_offset);
    out->row_end = malloc(n_rows * sizeof *out->row_end);
    if (out->row_offset == NULL || out->row_end == NULL) {
        az->oom = true;
        goto done;
    }
    j = i;
    for (size_t r = 0; r < n_rows; r++) {
        size_t close = gc_az_skip_parens(az, j, az->stmt_end);
        out->row_offset[r] = az->tok[j].offset;
        out->row_end[r] = az->tok[close - 1].offset + 1;
        split_row(az, j, close - 1, starts, ends, width);
        for (size_t c = 0; c < width; c++) {
            note_gap(az, r * width + c, n_rows * width, starts[c], ends[c]);
            if (ok[c] && gc_az_parse_value(az, starts[c], ends[c], &vals[c][r]) != ends[c])
                ok[c] = false;
        }
        j = close + 1;
    }
    for (size_t c = 0; c < width && !az->oom; c++) {
        if (!ok[c])
            continue;
        char *name = NULL;
        if (names != NULL) {
            name = names[c];
            names[c] = NULL;
        }
        add_column(az, name, names == NULL ? (int)c : -1, vals[c], (int)n_rows);
        vals[c] = NULL;
    }
done:
    for (size_t c = 0; vals != NULL && c < width; c++) {
        if (vals[c] == NULL)
            continue;
        for (size_t r = 0; r < n_rows; r++)
            free(vals[c][r].literal);
        free(vals[c]);
    }
    free(vals);
    free(ok);
    free(starts);
    free(ends);
}

/* INSERT ... SELECT: where its query is in the text (from token i to a
 * top-level ON CONFLICT or RETURNING), and the column list (*names, taken
 * over). A WITH before the INSERT is left out: its queries would run again
 * with every batch of rows. */
static void read_query(gc_az *az, size_t i, char ***names, size_t n_names)
{
    gc_analysis *out = az->out;
    out->not_routable = "INSERT ... SELECT";
    if (az->stmt_begin != 0 || i >= az->stmt_end)
        return;
    size_t end = i;
    while (end < az->stmt_end && !gc_az_kw(az, end, "returning") &&
           !(gc_az_kw(az, end, "on") && gc_az_kw(az, end + 1, "conflict")))
        end = gc_az_punct(az, end, '(') ? gc_az_skip_parens(az, end, az->stmt_end) : end + 1;
    if (end == i)
        return;
    for (size_t k = end; k < az->stmt_end; k++)
        out->query_returning |= gc_az_kw(az, k, "returning");
    const gc_sql_token *last = &az->tok[end - 1];
    out->query_offset = az->tok[i].offset;
    out->query_length = last->offset + last->length - out->query_offset;
    out->insert_columns = *names;
    out->n_insert_columns = (int)n_names;
    *names = NULL;
}

/* INSERT ... VALUES: its rows, and a copy of the column list's names (for
 * a key the driver may add: gc_global_keys.c), made first because
 * read_rows takes the names it pins. */
static void read_values(gc_az *az, size_t i, char **names, size_t n_names)
{
    gc_analysis *out = az->out;
    if (names != NULL) {
        char **copy = calloc(n_names, sizeof *copy);
        for (size_t k = 0; copy != NULL && k < n_names; k++)
            if (names[k] != NULL && (copy[k] = strdup(names[k])) == NULL)
                az->oom = true;
        if (copy == NULL)
            az->oom = true;
        out->insert_columns = copy;
        out->n_insert_columns = copy != NULL ? (int)n_names : 0;
    }
    read_rows(az, i, names, n_names);
}

/* Whether the INSERT's top-level ON CONFLICT (from token i on) names what
 * to infer a unique index from: ON CONFLICT (...). */
static bool names_conflict_target(const gc_az *az, size_t i)
{
    for (size_t k = i; k + 2 < az->stmt_end;
         k = gc_az_punct(az, k, '(') ? gc_az_skip_parens(az, k, az->stmt_end) : k + 1)
        if (gc_az_kw(az, k, "on") && gc_az_kw(az, k + 1, "conflict"))
            return gc_az_punct(az, k + 2, '(');
    return false;
}

void gc_az_analyze_insert(gc_az *az)
{
    gc_analysis *out = az->out;
    size_t i = az->stmt_begin + 1;
    target tg = {NULL};
    if (!gc_az_kw(az, i, "into")) {
        out->not_routable = "no target table";
        return;
    }
    i = read_table(az, i + 1, &tg, false);
    free(tg.alias);
    if (i == 0)
        return;
    char **names = NULL;
    size_t n_names = 0;
    /* `INSERT INTO t (SELECT ...)`: a query in parentheses, no column list. */
    bool query_in_parens = gc_az_kw(az, i + 1, "select") || gc_az_kw(az, i + 1, "values") ||
                           gc_az_kw(az, i + 1, "with") || gc_az_kw(az, i + 1, "table");
    if (gc_az_punct(az, i, '(') && !query_in_parens) {
        size_t close = gc_az_skip_parens(az, i, az->stmt_end);
        if (!gc_az_punct(az, close - 1, ')')) {
            out->not_routable = "unbalanced column list";
            return;
        }
        names = read_column_list(az, i, close - 1, &n_names);
        if (names == NULL) {
            if (!az->oom)
                out->not_routable = "empty column list";
            return;
        }
        out->insert_list_close = az->tok[close - 1].offset;
        i = close;
    }
    if (gc_az_kw(az, i, "overriding")) {
        out->insert_overriding = true;
        i += 3;   /* OVERRIDING { SYSTEM | USER } VALUE */
    }
    out->conflict_target = names_conflict_target(az, i);
    bool default_values = gc_az_kw(az, i, "default") && gc_az_kw(az, i + 1, "values");
    if (default_values || gc_az_kw(az, i, "values")) {
        const gc_sql_token *last = &az->tok[default_values ? i + 1 : i];
        out->values_at = az->tok[i].offset;
        out->values_end = last->offset + last->length;
    }
    if (default_values) {
        out->not_routable = "DEFAULT VALUES";
        out->default_values = true;
    } else if (gc_az_kw(az, i, "values"))
        read_values(az, i + 1, names, n_names);
    else
        read_query(az, i, &names, n_names);
    for (size_t k = 0; names != NULL && k < n_names; k++)
        free(names[k]);
    free(names);
}

/* Reads the table whose name starts at token i ([schema.]name) into the
 * target; the token past its name, or 0 when no name is there. */
static size_t read_target_name(gc_az *az, size_t i)
{
    gc_analysis *out = az->out;
    if (!is_name(az, i))
        return 0;
    size_t last = i;
    while (gc_az_punct(az, last + 1, '.') && is_name(az, last + 2))
        last += 2;
    out->table = gc_az_ident(az, last);
    if (last > i)
        out->schema = gc_az_ident(az, last - 2);
    return last + 1;
}

/* COPY naming a table (COPY t [(columns)] FROM | TO ...): it becomes the
 * target, so that a solo table's COPY goes to its owner, the one group
 * where the table is not a foreign twin (PostgreSQL cannot COPY from a
 * foreign table). COPY (query) TO names no target. */
void gc_az_analyze_copy(gc_az *az)
{
    az->out->not_routable = "COPY names no key";
    read_target_name(az, az->stmt_begin + 1);
}

/* VACUUM, ANALYZE, REINDEX TABLE and CLUSTER naming one table: it becomes
 * the target (a solo table's maintenance then goes to its owner, the one
 * group where the table is not a foreign twin). Options in parentheses and
 * the option words before the name are skipped; a list of several tables,
 * or REINDEX of an index, schema or database, names no target. */
void gc_az_analyze_maintenance(gc_az *az)
{
    static const char *const option_words[] = {
        "full", "freeze", "verbose", "analyze", "analyse", "concurrently",
    };
    gc_analysis *out = az->out;
    out->not_routable = "maintenance names no key";
    size_t i = az->stmt_begin + 1;
    bool reindex = gc_az_kw(az, az->stmt_begin, "reindex");
    if (gc_az_punct(az, i, '('))
        i = gc_az_skip_parens(az, i, az->stmt_end);
    if (reindex && !gc_az_kw(az, i++, "table"))
        return;
    for (bool more = true; more;) {
        more = false;
        for (size_t w = 0; w < sizeof option_words / sizeof option_words[0]; w++)
            if (gc_az_kw(az, i, option_words[w])) {
                i++;
                more = true;
            }
    }
    size_t after = read_target_name(az, i);
    if (after == 0)
        return;
    if (gc_az_punct(az, after, '('))
        after = gc_az_skip_parens(az, after, az->stmt_end);   /* VACUUM t (columns) */
    if (gc_az_punct(az, after, ',')) {
        free(out->table);     /* several tables: no target */
        free(out->schema);
        out->table = out->schema = NULL;
    }
}
