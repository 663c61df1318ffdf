/*
 * gc_sql_txn: classifies a statement text for the driver's transaction
 * handling (see the header). The text is cut into statements at top-level
 * `;`; each statement is judged by its first words plus a few words that
 * may stand anywhere in it (CONCURRENTLY, PUBLICATION...).
 */
#include "sql/gc_sql_txn.h"

#include "sql/gc_sql_lexer.h"

#define FIRST_WORDS 6

/* What one statement's scan collected. */
typedef struct stmt_scan {
    gc_sql_lexer lx;                 /* the lexer the tokens belong to */
    gc_sql_token first[FIRST_WORDS]; /* its first code tokens */
    int n_first;
    int n_tokens;
    int depth;                       /* parenthesis depth while scanning */
    int names_at_top;                /* identifiers outside parentheses, after
                                        the first word, VERBOSE not counted */
    bool concurrently;               /* CONCURRENTLY anywhere */
    bool publication;                /* PUBLICATION anywhere */
    bool detach_partition;           /* DETACH PARTITION anywhere */
} stmt_scan;

static bool word(const stmt_scan *st, int i, const char *w)
{
    return i < st->n_first && gc_sql_token_is_keyword(&st->lx, &st->first[i], w);
}

static void scan_token(stmt_scan *st, const gc_sql_token *tok, const gc_sql_token *prev)
{
    if (st->n_first < FIRST_WORDS)
        st->first[st->n_first++] = *tok;
    if (gc_sql_token_is_punct(&st->lx, tok, '('))
        st->depth++;
    else if (gc_sql_token_is_punct(&st->lx, tok, ')') && st->depth > 0)
        st->depth--;
    else if (st->n_tokens > 0 && st->depth == 0 &&
             (tok->kind == GC_SQL_TOK_IDENT || tok->kind == GC_SQL_TOK_QUOTED_IDENT) &&
             !gc_sql_token_is_keyword(&st->lx, tok, "verbose"))
        st->names_at_top++;
    if (gc_sql_token_is_keyword(&st->lx, tok, "concurrently"))
        st->concurrently = true;
    if (gc_sql_token_is_keyword(&st->lx, tok, "publication"))
        st->publication = true;
    if (prev != NULL && gc_sql_token_is_keyword(&st->lx, prev, "detach") &&
        gc_sql_token_is_keyword(&st->lx, tok, "partition"))
        st->detach_partition = true;
    st->n_tokens++;
}

/* BEGIN, COMMIT, SAVEPOINT...: statements that change the transaction. */
static bool is_control(const stmt_scan *st)
{
    if (word(st, 0, "begin") || word(st, 0, "end") || word(st, 0, "abort") ||
        word(st, 0, "savepoint") || word(st, 0, "release"))
        return true;
    if (word(st, 0, "start"))
        return word(st, 1, "transaction");
    if (word(st, 0, "commit") || word(st, 0, "rollback"))
        return !word(st, 1, "prepared");
    return word(st, 0, "prepare") && word(st, 1, "transaction");
}

/* RELEASE or ROLLBACK TO: ends the savepoints set after the one it names. */
static bool ends_savepoints(const stmt_scan *st)
{
    if (word(st, 0, "release"))
        return true;
    if (!word(st, 0, "rollback"))
        return false;
    int to = word(st, 1, "work") || word(st, 1, "transaction") ? 2 : 1;
    return word(st, to, "to");
}

static bool commits(const stmt_scan *st)
{
    return word(st, 0, "end") || (word(st, 0, "commit") && !word(st, 1, "prepared"));
}

/* The statements PostgreSQL refuses inside a transaction block
 * (PreventInTransactionBlock), as far as the text tells. */
static bool is_outside_block(const stmt_scan *st)
{
    if (word(st, 0, "vacuum"))
        return true;
    if (word(st, 0, "create"))
        return word(st, 1, "database") || word(st, 1, "tablespace") ||
               word(st, 1, "subscription") ||
               ((word(st, 1, "index") || (word(st, 1, "unique") && word(st, 2, "index"))) &&
                st->concurrently);
    if (word(st, 0, "drop"))
        return word(st, 1, "database") || word(st, 1, "tablespace") ||
               word(st, 1, "subscription") || (word(st, 1, "index") && word(st, 2, "concurrently"));
    if (word(st, 0, "reindex"))
        return st->concurrently || word(st, 1, "database") || word(st, 1, "system") ||
               word(st, 1, "schema");
    if (word(st, 0, "alter"))
        return word(st, 1, "system") ||
               (word(st, 1, "database") && word(st, 3, "set") && word(st, 4, "tablespace")) ||
               (word(st, 1, "subscription") && st->publication) ||
               (word(st, 1, "table") && st->detach_partition && st->concurrently);
    if (word(st, 0, "cluster"))
        return st->names_at_top == 0;
    if (word(st, 0, "discard"))
        return word(st, 1, "all");
    if (word(st, 0, "commit") || word(st, 0, "rollback"))
        return word(st, 1, "prepared");
    return false;
}

gc_sql_txn_info gc_sql_txn_classify(const char *sql, size_t len)
{
    gc_sql_txn_info info = { .kind = GC_SQL_TXN_ORDINARY };
    stmt_scan st = { .n_first = 0 };
    gc_sql_lexer_init(&st.lx, sql, len);
    gc_sql_lexer lx = st.lx;
    gc_sql_token tok, prev;
    int statements = 0;
    bool any_control = false, outside = false, ends_them = false, commit = false;
    bool have_prev = false;
    for (;;) {
        bool more = gc_sql_lexer_next_code(&lx, &tok);
        bool at_end = !more || (st.depth == 0 && gc_sql_token_is_punct(&lx, &tok, ';'));
        if (at_end && st.n_tokens > 0) {
            statements++;
            any_control = any_control || is_control(&st);
            outside = is_outside_block(&st);
            ends_them = ends_savepoints(&st);
            commit = commits(&st);
            info.copy = info.copy || word(&st, 0, "copy");
            gc_sql_lexer base = st.lx;
            st = (stmt_scan){ .lx = base };
            have_prev = false;
        }
        if (!more)
            break;
        if (at_end)
            continue;
        scan_token(&st, &tok, have_prev ? &prev : NULL);
        prev = tok;
        have_prev = true;
    }
    info.several = statements > 1;
    info.ends_savepoints = ends_them && statements == 1;
    info.commits = commit && statements == 1;
    if (any_control)
        info.kind = GC_SQL_TXN_CONTROL;
    else if (outside && statements == 1)
        info.kind = GC_SQL_TXN_OUTSIDE_BLOCK;
    return info;
}
