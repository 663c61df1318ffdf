/*
 * gc_sql_table_refs: the tables a query names in its FROM lists and JOINs
 * (see gc_sql_table_refs.h).
 */
#include "sql/gc_sql_table_refs.h"

#include "sql/gc_sql_lexer.h"

#define MAX_DEPTH 64

/* What is known at one level of parentheses. */
typedef struct level {
    bool first;        /* no token read at this level yet */
    bool query;        /* the level is a query (it opened with SELECT...) */
    bool in_from;      /* inside its FROM list */
    bool expect_ref;   /* a table may come next (after FROM, a comma, JOIN) */
    bool only;         /* ONLY came before it */
    bool deletes;      /* the level is a DELETE: its USING list names tables too */
} level;

static bool is_word(const gc_sql_lexer *lx, const gc_sql_token *tok, const char *const *words,
                    size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (gc_sql_token_is_keyword(lx, tok, words[k]))
            return true;
    return false;
}

/* A level whose FROM lists name tables: a query, or an UPDATE (its FROM
 * list) or DELETE (its target, after FROM, and its USING list). */
static bool opens_query(const gc_sql_lexer *lx, const gc_sql_token *tok)
{
    static const char *const words[] = { "select", "with", "values", "table", "update",
                                         "delete" };
    return is_word(lx, tok, words, sizeof words / sizeof words[0]);
}

/* The clauses that end a FROM list. */
static bool ends_from_list(const gc_sql_lexer *lx, const gc_sql_token *tok)
{
    static const char *const words[] = { "where", "group", "having", "window", "order",
                                         "limit", "offset", "fetch", "for", "union",
                                         "intersect", "except", "returning" };
    return is_word(lx, tok, words, sizeof words / sizeof words[0]);
}

/* Words that may follow a table in a FROM list without being its alias. */
static bool follows_table(const gc_sql_lexer *lx, const gc_sql_token *tok)
{
    static const char *const words[] = { "join", "inner", "left", "right", "full", "cross",
                                         "natural", "on", "using", "tablesample" };
    return ends_from_list(lx, tok) || is_word(lx, tok, words, sizeof words / sizeof words[0]);
}

/* Whether tok, USING in a DELETE, opens its list of tables: not a join's
 * USING (column list), which a parenthesis follows. */
static bool opens_using_list(const level *l, const gc_sql_lexer *lx, const gc_sql_token *tok)
{
    if (!l->deletes || !gc_sql_token_is_keyword(lx, tok, "using"))
        return false;
    gc_sql_lexer ahead = *lx;
    gc_sql_token next;
    return gc_sql_lexer_next_code(&ahead, &next) && !gc_sql_token_is_punct(&ahead, &next, '(');
}

/* Reads the table whose name starts at tok (the lexer lx just past it):
 * its qualified name, then a look at what follows for an alias and
 * TABLESAMPLE. False when the name is a function's (a parenthesis
 * follows): no table. */
static bool read_ref(gc_sql_lexer *lx, const gc_sql_token *tok, gc_sql_table_ref *ref)
{
    *ref = (gc_sql_table_ref){ .offset = tok->offset, .length = tok->length,
                               .name_offset = tok->offset, .name_length = tok->length };
    gc_sql_token dot, part, next;
    for (;;) {
        gc_sql_lexer ahead = *lx;
        if (!gc_sql_lexer_next_code(&ahead, &dot) || !gc_sql_token_is_punct(&ahead, &dot, '.') ||
            !gc_sql_lexer_next_code(&ahead, &part) || !gc_sql_token_is_name(&part))
            break;
        *lx = ahead;
        ref->qualified = true;
        ref->name_offset = part.offset;
        ref->name_length = part.length;
        ref->length = part.offset + part.length - ref->offset;
    }
    gc_sql_lexer ahead = *lx;
    if (!gc_sql_lexer_next_code(&ahead, &next))
        return true;
    if (gc_sql_token_is_punct(&ahead, &next, '('))
        return false;
    if (gc_sql_token_is_keyword(&ahead, &next, "as")) {
        ref->aliased = true;
        gc_sql_lexer_next_code(&ahead, &next);            /* the alias */
        if (!gc_sql_lexer_next_code(&ahead, &next))
            return true;
    } else if (gc_sql_token_is_name(&next) && !follows_table(&ahead, &next)) {
        ref->aliased = true;
        if (!gc_sql_lexer_next_code(&ahead, &next))
            return true;
    }
    ref->sampled = gc_sql_token_is_keyword(&ahead, &next, "tablesample");
    return true;
}

int gc_sql_table_refs(const char *sql, size_t len, gc_sql_table_ref *refs, int max)
{
    gc_sql_lexer lx;
    gc_sql_lexer_init(&lx, sql, len);
    level levels[MAX_DEPTH] = { { .first = true } };
    int depth = 0, n = 0;
    gc_sql_token tok;
    bool after_distinct = false;
    while (gc_sql_lexer_next_code(&lx, &tok)) {
        if (tok.unterminated)
            return -1;
        level *l = &levels[depth];
        bool distinct = after_distinct;
        after_distinct = gc_sql_token_is_keyword(&lx, &tok, "distinct");
        if (l->first) {
            l->first = false;
            l->query = opens_query(&lx, &tok);
            l->deletes = gc_sql_token_is_keyword(&lx, &tok, "delete");
        }
        if (gc_sql_token_is_punct(&lx, &tok, '(')) {
            l->expect_ref = false;    /* a subquery or a function: its own level */
            if (++depth == MAX_DEPTH)
                return -1;
            levels[depth] = (level){ .first = true };
            continue;
        }
        if (gc_sql_token_is_punct(&lx, &tok, ')')) {
            if (depth > 0)
                depth--;
            continue;
        }
        if (!l->query)
            continue;
        if (gc_sql_token_is_keyword(&lx, &tok, "select")) {
            l->in_from = l->expect_ref = false;    /* the next branch of a UNION */
        } else if ((gc_sql_token_is_keyword(&lx, &tok, "from") && !distinct) ||
                   opens_using_list(l, &lx, &tok)) {
            l->in_from = l->expect_ref = true;
        } else if (!l->in_from) {
            continue;
        } else if (ends_from_list(&lx, &tok)) {
            l->in_from = l->expect_ref = false;
        } else if (gc_sql_token_is_punct(&lx, &tok, ',') ||
                   gc_sql_token_is_keyword(&lx, &tok, "join")) {
            l->expect_ref = true;
            l->only = false;
        } else if (l->expect_ref && gc_sql_token_is_keyword(&lx, &tok, "lateral")) {
            continue;
        } else if (l->expect_ref && gc_sql_token_is_keyword(&lx, &tok, "only")) {
            l->only = true;
        } else if (l->expect_ref && gc_sql_token_is_name(&tok)) {
            gc_sql_table_ref ref;
            if (read_ref(&lx, &tok, &ref)) {
                ref.only = l->only;
                if (n < max)
                    refs[n] = ref;
                n++;
            }
            l->expect_ref = l->only = false;
        } else {
            l->expect_ref = false;
        }
    }
    return n;
}
