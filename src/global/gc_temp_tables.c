/*
 * gc_temp_tables: the registry of a global connection's temporary tables
 * (see gc_temp_tables.h) and the reading of the statements that create,
 * drop and name them, over the code tokens of gc_sql_lexer.
 */
#include "global/gc_temp_tables.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "sql/gc_sql_lexer.h"

typedef struct temp_entry {
    char name[GC_TEMP_NAME_MAX];      /* folded, or exact when quoted */
    char member[GC_TEMP_NAME_MAX];    /* for messages */
    unsigned long generation;         /* the session that holds it */
    bool drop_at_txn_end;             /* ON COMMIT DROP, its transaction open */
    bool made_in_txn;                 /* created by the open transaction */
    bool dropped_in_txn;              /* dropped by the open transaction */
} temp_entry;

struct gc_temp_tables {
    temp_entry *entries;   /* owned, n used of cap */
    int n, cap;
};

gc_temp_tables *gc_temp_tables_create(void)
{
    return calloc(1, sizeof(gc_temp_tables));
}

void gc_temp_tables_destroy(gc_temp_tables *t)
{
    if (t == NULL)
        return;
    free(t->entries);
    free(t);
}

int gc_temp_tables_count(const gc_temp_tables *t)
{
    return t != NULL ? t->n : 0;
}

bool gc_temp_tables_one_session(const gc_temp_tables *t, unsigned long *generation)
{
    if (t == NULL || t->n == 0)
        return false;
    for (int i = 1; i < t->n; i++)
        if (t->entries[i].generation != t->entries[0].generation)
            return false;
    *generation = t->entries[0].generation;
    return true;
}

static int find_entry(const gc_temp_tables *t, const char *name)
{
    for (int i = 0; i < t->n; i++)
        if (strcmp(t->entries[i].name, name) == 0)
            return i;
    return -1;
}

static void remove_entry(gc_temp_tables *t, int i)
{
    t->entries[i] = t->entries[--t->n];
}

/* --- reading the text --- */

/* Whether text holds word in any ASCII case, anywhere: a quick test before
 * a text is lexed (a false answer is sure, a true one is checked). */
static bool contains_ci(const char *text, size_t len, const char *word)
{
    size_t n = strlen(word);
    for (size_t i = 0; i + n <= len; i++)
        if ((text[i] | 0x20) == (word[0] | 0x20) && gc_sql_ascii_equal_ci(text + i, n, word))
            return true;
    return false;
}

/* A cursor over one text's code tokens (comments skipped). */
typedef struct cursor {
    gc_sql_lexer lx;
    gc_sql_token tok;
    bool have;
} cursor;

static void advance(cursor *c)
{
    c->have = gc_sql_lexer_next_code(&c->lx, &c->tok);
}

static void cursor_init(cursor *c, const char *sql, size_t len)
{
    gc_sql_lexer_init(&c->lx, sql, len);
    advance(c);
}

static bool is_kw(const cursor *c, const char *word)
{
    return c->have && gc_sql_token_is_keyword(&c->lx, &c->tok, word);
}

static bool take_kw(cursor *c, const char *word)
{
    if (!is_kw(c, word))
        return false;
    advance(c);
    return true;
}

static bool is_punct(const cursor *c, char p)
{
    return c->have && gc_sql_token_is_punct(&c->lx, &c->tok, p);
}

/* The identifier under the cursor into buf; false for other tokens and
 * names too long to be a table's. */
static bool identifier(const cursor *c, char buf[GC_TEMP_NAME_MAX])
{
    if (!c->have || (c->tok.kind != GC_SQL_TOK_IDENT && c->tok.kind != GC_SQL_TOK_QUOTED_IDENT))
        return false;
    size_t n = gc_sql_token_identifier(&c->lx, &c->tok, buf, GC_TEMP_NAME_MAX);
    return n > 0 && n < GC_TEMP_NAME_MAX;
}

/* Consumes a table name, maybe qualified. *may_be_temp: unqualified or
 * qualified by pg_temp (another schema never holds a temporary table).
 * *qualified_by_pg_temp says which. False when no name is there. */
static bool take_table_name(cursor *c, char name[GC_TEMP_NAME_MAX], bool *may_be_temp,
                            bool *qualified_by_pg_temp)
{
    char parts[3][GC_TEMP_NAME_MAX];
    int n = 0;
    while (n < 3 && identifier(c, parts[n])) {
        n++;
        advance(c);
        if (!is_punct(c, '.'))
            break;
        advance(c);
    }
    if (n == 0)
        return false;
    memcpy(name, parts[n - 1], GC_TEMP_NAME_MAX);
    *qualified_by_pg_temp = n == 2 && strcmp(parts[0], "pg_temp") == 0;
    *may_be_temp = n == 1 || *qualified_by_pg_temp;
    return true;
}

/* Moves to the start of the next statement of the text (past `;` at depth 0). */
static void skip_statement(cursor *c)
{
    int depth = 0;
    for (; c->have; advance(c)) {
        if (is_punct(c, '('))
            depth++;
        else if (is_punct(c, ')'))
            depth--;
        else if (depth <= 0 && is_punct(c, ';')) {
            advance(c);
            return;
        }
    }
}

/* One table a statement creates or drops. */
typedef struct temp_change {
    char name[GC_TEMP_NAME_MAX];
    bool on_commit_drop;
} temp_change;

/* Calls back for each table; the reading stops at false. */
typedef bool (*change_fn)(void *ctx, const temp_change *change);

/* CREATE ..., cursor after CREATE: a temporary table's name, and whether
 * ON COMMIT DROP follows at depth 0. False when it creates none. */
static bool read_create(cursor *c, temp_change *out)
{
    if (!take_kw(c, "global"))
        take_kw(c, "local");
    bool temp = take_kw(c, "temp") || take_kw(c, "temporary");
    take_kw(c, "unlogged");
    if (!take_kw(c, "table"))
        return false;
    if (take_kw(c, "if") && take_kw(c, "not"))
        take_kw(c, "exists");
    bool may_be_temp, by_pg_temp;
    if (!take_table_name(c, out->name, &may_be_temp, &by_pg_temp) || !(temp || by_pg_temp))
        return false;
    out->on_commit_drop = false;
    int depth = 0;
    for (; c->have && !(depth == 0 && is_punct(c, ';')); advance(c)) {
        if (is_punct(c, '('))
            depth++;
        else if (is_punct(c, ')'))
            depth--;
        else if (depth == 0 && is_kw(c, "on")) {
            cursor ahead = *c;
            advance(&ahead);
            if (take_kw(&ahead, "commit") && is_kw(&ahead, "drop"))
                out->on_commit_drop = true;
        } else if (depth == 0 && is_kw(c, "as"))
            break;   /* CREATE TEMP TABLE t ... AS query: ON COMMIT comes before */
    }
    return true;
}

/* SELECT ... INTO [GLOBAL|LOCAL] TEMP|TEMPORARY [TABLE] name, cursor on the
 * statement's first token. */
static bool read_select_into(cursor *c, temp_change *out)
{
    int depth = 0;
    bool after_insert = false;
    for (; c->have && !(depth == 0 && is_punct(c, ';')); advance(c)) {
        if (is_punct(c, '('))
            depth++;
        else if (is_punct(c, ')'))
            depth--;
        else if (is_kw(c, "insert") || is_kw(c, "merge"))
            after_insert = true;
        else if (is_kw(c, "into") && !after_insert) {
            advance(c);
            if (!take_kw(c, "global"))
                take_kw(c, "local");
            if (!take_kw(c, "temp") && !take_kw(c, "temporary"))
                return false;
            if (is_kw(c, "from") || is_kw(c, "where"))
                return false;   /* a table named temp */
            take_kw(c, "table");
            bool may_be_temp, by_pg_temp;
            out->on_commit_drop = false;
            return take_table_name(c, out->name, &may_be_temp, &by_pg_temp);
        } else if (!is_kw(c, "into"))
            after_insert = false;
    }
    return false;
}

/* Reads every statement of the text: creations (creates) or the names of
 * DROP TABLE lists that may be temporary (not creates). */
static bool read_changes(const char *sql, size_t len, bool creates, change_fn fn, void *ctx)
{
    cursor c;
    cursor_init(&c, sql, len);
    while (c.have) {
        temp_change change;
        if (creates && take_kw(&c, "create")) {
            if (read_create(&c, &change) && !fn(ctx, &change))
                return false;
        } else if (creates && (is_kw(&c, "select") || is_kw(&c, "with") || is_punct(&c, '('))) {
            if (read_select_into(&c, &change) && !fn(ctx, &change))
                return false;
        } else if (!creates && take_kw(&c, "drop") && take_kw(&c, "table")) {
            if (take_kw(&c, "if"))
                take_kw(&c, "exists");
            bool may_be_temp, by_pg_temp;
            change.on_commit_drop = false;
            while (take_table_name(&c, change.name, &may_be_temp, &by_pg_temp)) {
                if (may_be_temp && !fn(ctx, &change))
                    return false;
                if (!is_punct(&c, ','))
                    break;
                advance(&c);
            }
        }
        skip_statement(&c);
    }
    return true;
}


unsigned gc_temp_sql_effects(const char *sql, size_t len)
{
    /* Every creation says TEMP, TEMPORARY or pg_temp; every drop DROP:
     * other texts are not lexed at all. */
    if (!contains_ci(sql, len, "temp") && !contains_ci(sql, len, "drop"))
        return 0;
    cursor c;
    cursor_init(&c, sql, len);
    unsigned effects = 0;
    /* Only statements that start with these words can create or drop. */
    while (c.have) {
        if (is_kw(&c, "drop")) {
            effects |= GC_TEMP_SQL_DROPS;
        } else if (is_kw(&c, "create") || is_kw(&c, "select") || is_kw(&c, "with") ||
                   is_punct(&c, '(')) {
            temp_change change;
            bool created = take_kw(&c, "create") ? read_create(&c, &change)
                                                 : read_select_into(&c, &change);
            if (created)
                effects |= GC_TEMP_SQL_CREATES;
        }
        skip_statement(&c);
    }
    return effects;
}

typedef struct creates_ctx {
    const char *name;
    bool found;
} creates_ctx;

static bool match_created(void *ctx, const temp_change *change)
{
    creates_ctx *c = ctx;
    c->found = strcmp(change->name, c->name) == 0;
    return !c->found;
}

bool gc_temp_sql_creates(const char *sql, size_t len, const char *name)
{
    creates_ctx c = {name, false};
    read_changes(sql, len, true, match_created, &c);
    return c.found;
}

/* --- keeping the registry --- */

typedef struct note_ctx {
    gc_temp_tables *t;
    const char *member;
    unsigned long generation;
    bool in_transaction;
    bool ok;
} note_ctx;

static bool note_created(void *ctx, const temp_change *change)
{
    note_ctx *n = ctx;
    gc_temp_tables *t = n->t;
    int i = find_entry(t, change->name);
    if (change->on_commit_drop && !n->in_transaction) {
        if (i >= 0)
            remove_entry(t, i);   /* dropped already, at its own commit */
        return true;
    }
    if (i < 0) {
        if (t->n == t->cap) {
            int cap = t->cap > 0 ? 2 * t->cap : 8;
            temp_entry *grown = realloc(t->entries, (size_t)cap * sizeof *grown);
            if (grown == NULL) {
                n->ok = false;
                return false;
            }
            t->entries = grown;
            t->cap = cap;
        }
        i = t->n++;
    }
    temp_entry *e = &t->entries[i];
    memset(e, 0, sizeof *e);
    memcpy(e->name, change->name, sizeof e->name);
    size_t len = strlen(n->member);
    memcpy(e->member, n->member, len < sizeof e->member ? len : sizeof e->member - 1);
    e->generation = n->generation;
    e->drop_at_txn_end = change->on_commit_drop;
    e->made_in_txn = n->in_transaction;
    return true;
}

static bool note_dropped(void *ctx, const temp_change *change)
{
    note_ctx *n = ctx;
    int i = find_entry(n->t, change->name);
    if (i < 0 || n->t->entries[i].generation != n->generation)
        return true;
    /* A ROLLBACK brings it back: its transaction's end settles it. */
    if (n->in_transaction)
        n->t->entries[i].dropped_in_txn = true;
    else
        remove_entry(n->t, i);
    return true;
}

bool gc_temp_tables_note(gc_temp_tables *t, const char *sql, size_t len, const char *member,
                         unsigned long generation, bool in_transaction)
{
    assert(t != NULL && sql != NULL && member != NULL);
    note_ctx n = {t, member, generation, in_transaction, true};
    if (t->n > 0)
        read_changes(sql, len, false, note_dropped, &n);
    read_changes(sql, len, true, note_created, &n);
    return n.ok;
}

int gc_temp_tables_in_doubt(const gc_temp_tables *t, unsigned long generation,
                            const char **names, int max)
{
    int n = 0;
    for (int i = 0; i < t->n && n < max; i++) {
        const temp_entry *e = &t->entries[i];
        if (e->generation == generation && !e->drop_at_txn_end &&
            (e->made_in_txn || e->dropped_in_txn))
            names[n++] = e->name;
    }
    return n;
}

void gc_temp_tables_settle(gc_temp_tables *t, const char *name, bool exists)
{
    int i = find_entry(t, name);
    if (i < 0)
        return;
    if (!exists) {
        remove_entry(t, i);
        return;
    }
    t->entries[i].made_in_txn = t->entries[i].dropped_in_txn = false;
}

void gc_temp_tables_transaction_ended(gc_temp_tables *t, unsigned long generation)
{
    for (int i = t->n - 1; i >= 0; i--) {
        temp_entry *e = &t->entries[i];
        if (e->generation != generation)
            continue;
        if (e->drop_at_txn_end)
            remove_entry(t, i);
    }
}

void gc_temp_tables_forget(gc_temp_tables *t, const char *name)
{
    int i = find_entry(t, name);
    if (i >= 0)
        remove_entry(t, i);
}

/* --- statements that name registered tables --- */

int gc_temp_tables_find(const gc_temp_tables *t, const char *sql, size_t len,
                        gc_temp_use *use, gc_error *err)
{
    if (t == NULL || t->n == 0)
        return 0;
    bool may_name_one = false;
    for (int i = 0; i < t->n && !may_name_one; i++)
        may_name_one = contains_ci(sql, len, t->entries[i].name);
    if (!may_name_one)
        return 0;
    gc_sql_lexer lx;
    gc_sql_lexer_init(&lx, sql, len);
    gc_sql_token tok;
    /* The two code tokens before tok: a qualified name is qualifier . name. */
    bool after_dot = false, after_pg_temp_dot = false, prev_is_pg_temp = false;
    const temp_entry *found = NULL;
    while (gc_sql_lexer_next_code(&lx, &tok)) {
        char name[GC_TEMP_NAME_MAX];
        bool is_name = tok.kind == GC_SQL_TOK_IDENT || tok.kind == GC_SQL_TOK_QUOTED_IDENT;
        size_t n = is_name ? gc_sql_token_identifier(&lx, &tok, name, sizeof name) : 0;
        bool dot = gc_sql_token_is_punct(&lx, &tok, '.');
        if (n > 0 && n < sizeof name && (!after_dot || after_pg_temp_dot)) {
            int i = find_entry(t, name);
            const temp_entry *e = i >= 0 ? &t->entries[i] : NULL;
            if (e != NULL && found != NULL && e->generation != found->generation) {
                gc_error_set(err, "0A000", GC_TEMP_TABLES_NATIVE_ELSEWHERE,
                             "the statement names temporary table %s, which lives on member "
                             "%s's session, and temporary table %s, which lives on member "
                             "%s's: one statement runs on one member session",
                             found->name, found->member, e->name, e->member);
                return -1;
            }
            if (e != NULL)
                found = e;
        }
        after_pg_temp_dot = dot && prev_is_pg_temp;
        after_dot = dot;
        prev_is_pg_temp = n > 0 && n < sizeof name && strcmp(name, "pg_temp") == 0;
    }
    if (found == NULL)
        return 0;
    use->table = found->name;
    use->member = found->member;
    use->generation = found->generation;
    return 1;
}

/* Whether the table named as written (maybe qualified) is registered. */
static bool written_name_is_temp(const gc_temp_tables *t, const char *written, size_t len)
{
    cursor c;
    cursor_init(&c, written, len);
    char name[GC_TEMP_NAME_MAX];
    bool may_be_temp, by_pg_temp;
    return take_table_name(&c, name, &may_be_temp, &by_pg_temp) && may_be_temp &&
           find_entry(t, name) >= 0;
}

/* Whether a string of sql (a routine's body: '...' or $tag$...$tag$)
 * names a registered table, read as SQL. */
static bool body_names_temp(const gc_temp_tables *t, const char *sql)
{
    gc_sql_lexer lx;
    gc_sql_lexer_init(&lx, sql, strlen(sql));
    gc_sql_token tok;
    while (gc_sql_lexer_next_code(&lx, &tok)) {
        const char *body = sql + tok.offset;
        size_t quote = 0;
        if (tok.kind == GC_SQL_TOK_STRING) {
            quote = 1;
        } else if (tok.kind == GC_SQL_TOK_DOLLAR_STRING) {
            const char *tag_end = memchr(body + 1, '$', tok.length - 1);
            quote = tag_end != NULL ? (size_t)(tag_end - body) + 1 : 0;
        }
        if (quote == 0 || tok.unterminated || tok.length < 2 * quote)
            continue;
        gc_temp_use use;
        gc_error err;
        if (gc_temp_tables_find(t, body + quote, tok.length - 2 * quote, &use, &err) != 0)
            return true;
    }
    return false;
}

void gc_temp_tables_adjust_ddl(const gc_temp_tables *t, const char *sql, gc_ddl_plan *plan)
{
    if (t == NULL || t->n == 0 || plan->scope == GC_DDL_ONE_MEMBER ||
        plan->scope == GC_DDL_REFUSED)
        return;
    if (plan->n_drop > 0) {
        int temps = 0;
        for (int i = 0; i < plan->n_drop; i++)
            temps += written_name_is_temp(t, sql + plan->drop_names[i].start,
                                          plan->drop_names[i].end - plan->drop_names[i].start);
        if (temps == plan->n_drop) {
            plan->scope = GC_DDL_ONE_MEMBER;
            plan->changes_map = false;
        } else if (temps > 0) {
            plan->scope = GC_DDL_REFUSED;
            plan->why = "DROP TABLE names a temporary table, which lives on one member "
                        "session, and tables that are dropped on every group; drop them "
                        "in separate statements";
        }
        return;
    }
    if (plan->target == GC_DDL_TARGET_TABLE &&
        written_name_is_temp(t, plan->target_as_written, strlen(plan->target_as_written))) {
        plan->scope = GC_DDL_ONE_MEMBER;
        plan->changes_map = false;
        return;
    }
    gc_temp_use use;
    gc_error err;
    if (gc_temp_tables_find(t, sql, strlen(sql), &use, &err) != 0) {
        plan->scope = GC_DDL_REFUSED;
        plan->why = "a DDL statement that runs on every group cannot use a temporary "
                    "table, which lives on one member session only";
    } else if (plan->creates_routine && body_names_temp(t, sql)) {
        plan->skip_body_check = true;
    }
}
