/*
 * gc_ddl: how a DDL statement of a global connection runs, read from its
 * text (see gc_ddl.h). The running itself is in gc_ddl_run.c.
 */
#include <string.h>

#include "global/gc_ddl.h"
#include "sql/gc_sql_lexer.h"

/* A small cursor over the statement's code tokens (comments skipped). */
typedef struct ddl_cursor {
    gc_sql_lexer lx;
    gc_sql_token tok;
    bool have;
} ddl_cursor;

static void advance(ddl_cursor *c)
{
    c->have = gc_sql_lexer_next_code(&c->lx, &c->tok);
}

static bool is_kw(const ddl_cursor *c, const char *word)
{
    return c->have && gc_sql_token_is_keyword(&c->lx, &c->tok, word);
}

/* Consumes the keyword when it is next. */
static bool take_kw(ddl_cursor *c, const char *word)
{
    if (!is_kw(c, word))
        return false;
    advance(c);
    return true;
}

static bool is_name_token(const ddl_cursor *c)
{
    return c->have && gc_sql_token_is_name(&c->tok);
}

static void refuse(gc_ddl_plan *out, const char *why)
{
    out->scope = GC_DDL_REFUSED;
    out->why = why;
}

/* Consumes a possibly qualified name (a.b.c); *start and *end get its text.
 * False when the cursor is not on a name. */
static bool take_name(ddl_cursor *c, size_t *start, size_t *end)
{
    if (!is_name_token(c))
        return false;
    *start = c->tok.offset;
    *end = c->tok.offset + c->tok.length;
    advance(c);
    while (c->have && gc_sql_token_is_punct(&c->lx, &c->tok, '.')) {
        advance(c);
        if (!is_name_token(c))
            break;
        *end = c->tok.offset + c->tok.length;
        advance(c);
    }
    return true;
}

/* Moves the cursor past the keyword `word` at parenthesis depth 0 (false
 * when the statement ends first). */
static bool skip_past_kw(ddl_cursor *c, const char *word)
{
    int depth = 0;
    for (; c->have; advance(c)) {
        if (gc_sql_token_is_punct(&c->lx, &c->tok, '('))
            depth++;
        else if (gc_sql_token_is_punct(&c->lx, &c->tok, ')'))
            depth--;
        else if (depth == 0 && gc_sql_token_is_punct(&c->lx, &c->tok, ';'))
            return false;
        else if (depth == 0 && is_kw(c, word)) {
            advance(c);
            return true;
        }
    }
    return false;
}

/* Copies the text [start, end) of the statement into dst (size bytes) as a
 * string; false, copying nothing, when it does not fit. */
static bool copy_written(char *dst, size_t size, const ddl_cursor *c, size_t start, size_t end)
{
    if (end - start >= size)
        return false;
    memcpy(dst, c->lx.text + start, end - start);
    dst[end - start] = '\0';
    return true;
}

/* Whether the name written in [start, end) is qualified by pg_temp (the
 * session's temporary schema). */
static bool names_pg_temp(const ddl_cursor *c, size_t start, size_t end)
{
    gc_sql_lexer lx;
    gc_sql_lexer_init(&lx, c->lx.text + start, end - start);
    gc_sql_token schema, dot;
    char name[16];
    return gc_sql_lexer_next_code(&lx, &schema) && gc_sql_lexer_next_code(&lx, &dot) &&
           gc_sql_token_is_punct(&lx, &dot, '.') &&
           gc_sql_token_identifier(&lx, &schema, name, sizeof name) == strlen("pg_temp") &&
           strcmp(name, "pg_temp") == 0;
}

_Static_assert(sizeof ((gc_ddl_plan *)0)->sequences_of ==
                   sizeof ((gc_ddl_plan *)0)->target_as_written,
               "a target's name fits sequences_of");

/* The sequences the DDL may make on every group: those of the name at
 * [start, end) of the text, as `which` says. */
static void note_sequences(const ddl_cursor *c, size_t start, size_t end, gc_ddl_sequences which,
                           gc_ddl_plan *out)
{
    if (copy_written(out->sequences_of, sizeof out->sequences_of, c, start, end))
        out->sequences = which;
}

/* CREATE SEQUENCE, the cursor after SEQUENCE. */
static void classify_create_sequence(ddl_cursor *c, gc_ddl_plan *out)
{
    if (take_kw(c, "if") && take_kw(c, "not"))
        take_kw(c, "exists");
    size_t start, end;
    if (take_name(c, &start, &end))
        note_sequences(c, start, end, GC_DDL_SEQ_NAMED, out);
}

/* CREATE [UNLOGGED] TABLE, the cursor after TABLE: a new unpartitioned table
 * is a solo table; PARTITION BY makes a new sharded parent on every group;
 * PARTITION OF would place a shard, which gcctl does. */
static void classify_create_table(ddl_cursor *c, gc_ddl_plan *out)
{
    out->changes_map = true;
    out->if_not_exists = take_kw(c, "if") && take_kw(c, "not") && take_kw(c, "exists");
    size_t start, end;
    if (!take_name(c, &start, &end)) {
        out->scope = GC_DDL_EVERY_GROUP;   /* PostgreSQL will say what is wrong */
        return;
    }
    if (names_pg_temp(c, start, end)) {
        out->scope = GC_DDL_ONE_MEMBER;    /* CREATE TABLE pg_temp.t: a temporary table */
        out->changes_map = false;
        return;
    }
    ddl_cursor as = *c;
    out->owner_decides = skip_past_kw(&as, "as");
    if (skip_past_kw(c, "partition")) {
        if (is_kw(c, "of")) {
            refuse(out, "CREATE TABLE ... PARTITION OF places a shard on every group; "
                        "add shards with gcctl (apply or move-shard)");
        } else {
            out->scope = GC_DDL_EVERY_GROUP;
            note_sequences(c, start, end, GC_DDL_SEQ_OF_TABLE, out);
        }
        return;
    }
    if (!copy_written(out->table_as_written, sizeof out->table_as_written, c, start, end)) {
        refuse(out, "the table name is too long");
        return;
    }
    out->scope = GC_DDL_SOLO_TABLE;
}

/* SELECT ... INTO [UNLOGGED] [TABLE] name ...: CREATE TABLE ... AS written
 * the older way, a solo table made by its query. INTO TEMP (a table of one
 * session) and an INTO the cursor cannot read stay with the member. */
static void classify_select_into(ddl_cursor *c, gc_ddl_plan *out)
{
    if (!skip_past_kw(c, "into") || is_kw(c, "temp") || is_kw(c, "temporary") ||
        is_kw(c, "local") || is_kw(c, "global"))
        return;
    take_kw(c, "unlogged");
    take_kw(c, "table");
    size_t start, end;
    if (!take_name(c, &start, &end) || names_pg_temp(c, start, end))
        return;
    out->changes_map = true;
    if (!copy_written(out->table_as_written, sizeof out->table_as_written, c, start, end)) {
        refuse(out, "the table name is too long");
        return;
    }
    out->owner_decides = true;
    out->scope = GC_DDL_SOLO_TABLE;
}

/* CREATE MATERIALIZED VIEW, the cursor after VIEW: a solo object, like a
 * new table; its owner cannot prepare (it read foreign tables), so the
 * owner's commit decides (gc_ddl_run.c). */
static void classify_create_matview(ddl_cursor *c, gc_ddl_plan *out)
{
    out->changes_map = true;
    out->if_not_exists = take_kw(c, "if") && take_kw(c, "not") && take_kw(c, "exists");
    size_t start, end;
    if (!take_name(c, &start, &end))
        return;   /* every group: PostgreSQL will say what is wrong */
    if (!copy_written(out->table_as_written, sizeof out->table_as_written, c, start, end)) {
        refuse(out, "the materialized view's name is too long");
        return;
    }
    out->scope = GC_DDL_SOLO_MATVIEW;
}

/* REFRESH MATERIALIZED VIEW [CONCURRENTLY] name, the cursor after REFRESH. */
static void classify_refresh(ddl_cursor *c, gc_ddl_plan *out)
{
    size_t start, end;
    if (!take_kw(c, "materialized") || !take_kw(c, "view"))
        return;
    take_kw(c, "concurrently");
    if (take_name(c, &start, &end) &&
        copy_written(out->table_as_written, sizeof out->table_as_written, c, start, end))
        out->scope = GC_DDL_MATVIEW_REFRESH;
}

int gc_ddl_references(const char *sql, gc_ddl_span *names, int max)
{
    ddl_cursor c;
    gc_sql_lexer_init(&c.lx, sql, strlen(sql));
    int n = 0;
    for (advance(&c); c.have;) {
        if (!take_kw(&c, "references")) {
            advance(&c);
            continue;
        }
        size_t start, end;
        if (!take_name(&c, &start, &end))
            continue;
        if (n == max)
            return -1;
        names[n].start = start;
        names[n].end = end;
        n++;
    }
    return n;
}

/* DROP TABLE, the cursor after TABLE: remembers where the name list starts,
 * each name in it (the first also as table_as_written) and where it ends. */
static void note_drop_table(ddl_cursor *c, gc_ddl_plan *out)
{
    out->drop_table_rest = c->tok.offset;
    if (take_kw(c, "if"))
        out->drop_if_exists = take_kw(c, "exists");
    size_t start, end;
    while (take_name(c, &start, &end)) {
        if (out->n_drop == GC_DDL_MAX_DROP) {
            refuse(out, "DROP TABLE names more than 32 tables; drop them in several statements");
            return;
        }
        out->drop_names[out->n_drop].start = start;
        out->drop_names[out->n_drop].end = end;
        out->n_drop++;
        out->drop_tail = end;
        if (!c->have || !gc_sql_token_is_punct(&c->lx, &c->tok, ','))
            break;
        advance(c);
    }
    if (out->n_drop > 0 && take_kw(c, "cascade")) {
        out->cascade = GC_DDL_CASCADE_RELATIONS;
        out->n_cascade = out->n_drop;
        memcpy(out->cascade_names, out->drop_names, sizeof out->drop_names);
    }
    if (out->n_drop > 0)
        copy_written(out->table_as_written, sizeof out->table_as_written, c,
                     out->drop_names[0].start, out->drop_names[0].end);
}

/* DROP VIEW or DROP SCHEMA, the cursor after VIEW or SCHEMA: with CASCADE,
 * remembers the names it starts from (`from` says what they name). */
static void note_drop_cascade(ddl_cursor *c, gc_ddl_cascade from, gc_ddl_plan *out)
{
    if (take_kw(c, "if"))
        take_kw(c, "exists");
    gc_ddl_span names[GC_DDL_MAX_DROP];
    int n = 0;
    size_t start, end;
    while (take_name(c, &start, &end)) {
        if (n == GC_DDL_MAX_DROP) {
            refuse(out, "DROP ... CASCADE names more than 32 objects; drop them in several "
                        "statements");
            return;
        }
        names[n++] = (gc_ddl_span){ start, end };
        if (!c->have || !gc_sql_token_is_punct(&c->lx, &c->tok, ','))
            break;
        advance(c);
    }
    if (n == 0 || !take_kw(c, "cascade"))
        return;
    out->cascade = from;
    out->n_cascade = n;
    memcpy(out->cascade_names, names, (size_t)n * sizeof names[0]);
    out->changes_map = true;    /* the catalog rows of what it reaches go */
}

/* The statement changes the table or index named next (cursor on it). */
static bool take_target(ddl_cursor *c, gc_ddl_plan *out, gc_ddl_target target,
                        gc_ddl_twin twin)
{
    size_t start, end;
    if (!take_name(c, &start, &end) ||
        !copy_written(out->target_as_written, sizeof out->target_as_written, c, start, end))
        return false;
    out->target = target;
    out->twin = twin;
    return true;
}

static const char refuse_concurrently[] =
    "CONCURRENTLY cannot run inside a transaction block, which a cluster-wide DDL "
    "needs (two-phase commit); leave it out, or run it on each primary with a "
    "general connection";

/* Whether the cursor is at the end of one ALTER TABLE action. */
static bool action_ends(const ddl_cursor *c, int depth)
{
    return !c->have || (depth == 0 && (gc_sql_token_is_punct(&c->lx, &c->tok, ',') ||
                                       gc_sql_token_is_punct(&c->lx, &c->tok, ';')));
}

/* Notes the column named next (cursor on it) for a sync action. */
static void take_action_column(ddl_cursor *c, gc_ddl_action *a)
{
    if (is_name_token(c)) {
        a->column_start = c->tok.offset;
        a->column_end = c->tok.offset + c->tok.length;
        advance(c);
    }
}

/* One ALTER TABLE action, cursor on its first word: what the foreign twin
 * of a solo table does with it. NULL, or why it cannot be mapped (static
 * text). */
static const char *classify_action(ddl_cursor *c, gc_ddl_action *a)
{
    static const char *const owner_only_words[] = {
        "enable", "disable", "force", "cluster", "replica", "validate", "reset", NULL };
    a->kind = GC_DDL_ACT_OWNER_ONLY;
    if (take_kw(c, "add")) {
        if (is_kw(c, "constraint") || is_kw(c, "primary") || is_kw(c, "unique") ||
            is_kw(c, "foreign") || is_kw(c, "check") || is_kw(c, "exclude"))
            return NULL;
        take_kw(c, "column");
        if (take_kw(c, "if") && take_kw(c, "not") && take_kw(c, "exists"))
            a->if_not_exists = true;
        a->kind = GC_DDL_ACT_ADD_COLUMN;
        take_action_column(c, a);
        return NULL;
    }
    if (take_kw(c, "drop")) {
        if (!is_kw(c, "constraint"))
            a->kind = GC_DDL_ACT_SAME;   /* DROP [COLUMN] */
        return NULL;
    }
    if (take_kw(c, "alter")) {
        if (is_kw(c, "constraint"))
            return NULL;
        take_kw(c, "column");
        take_action_column(c, a);
        bool set = false;
        if (take_kw(c, "type") || ((set = take_kw(c, "set")) && take_kw(c, "data"))) {
            a->kind = GC_DDL_ACT_COLUMN_TYPE;
        } else if (set || take_kw(c, "drop")) {
            if (is_kw(c, "default"))
                a->kind = GC_DDL_ACT_COLUMN_DEFAULT;
            else if (is_kw(c, "not"))
                a->kind = GC_DDL_ACT_SAME;   /* SET / DROP NOT NULL */
        }
        return NULL;   /* statistics, storage, identity, options: the owner's */
    }
    if (take_kw(c, "rename")) {
        if (is_kw(c, "to"))
            return "renaming a solo table would leave its foreign tables and the cluster "
                   "catalog pointing at the old name; create the new table and copy the "
                   "rows, or rename it on each group with a general connection and "
                   "update the cluster spec";
        if (!is_kw(c, "constraint"))
            a->kind = GC_DDL_ACT_SAME;   /* RENAME [COLUMN] a TO b */
        return NULL;
    }
    if (take_kw(c, "owner")) {
        a->kind = GC_DDL_ACT_SAME;
        return NULL;
    }
    if (take_kw(c, "set")) {
        if (is_kw(c, "schema"))
            return "moving a solo table to another schema would leave its foreign tables "
                   "and the cluster catalog pointing at the old one; move it on each "
                   "group with a general connection";
        return NULL;   /* LOGGED, TABLESPACE, ACCESS METHOD, storage options... */
    }
    if (take_kw(c, "no")) {
        if (is_kw(c, "force"))
            return NULL;
    } else {
        for (int i = 0; owner_only_words[i] != NULL; i++)
            if (is_kw(c, owner_only_words[i]))
                return NULL;
    }
    return "this ALTER TABLE action (inheritance, typed tables, partitions) has no "
           "counterpart on a solo table's foreign tables; run it on the owner group "
           "with a general connection";
}

/* ALTER TABLE, the cursor after TABLE: the target table and each action
 * (docs/global-connection.md, "DDL on solo tables"). */
static void classify_alter_table(ddl_cursor *c, gc_ddl_plan *out)
{
    out->twin_rest = c->tok.offset;
    if (is_kw(c, "all"))
        return;   /* ALTER TABLE ALL IN TABLESPACE: no one table */
    if (take_kw(c, "if"))
        take_kw(c, "exists");
    take_kw(c, "only");
    if (!take_target(c, out, GC_DDL_TARGET_TABLE, GC_DDL_TWIN_ALTER))
        return;
    out->locks_out_remote_reads = true;
    memcpy(out->sequences_of, out->target_as_written, sizeof out->sequences_of);
    out->sequences = GC_DDL_SEQ_OF_TABLE;   /* a column it adds may own one */
    if (c->have && gc_sql_token_is_operator(&c->lx, &c->tok, "*"))
        advance(c);
    while (c->have && !gc_sql_token_is_punct(&c->lx, &c->tok, ';')) {
        if (out->n_actions == GC_DDL_MAX_ACTIONS) {
            out->twin = GC_DDL_TWIN_REFUSE;
            out->twin_why = "too many actions in one ALTER TABLE of a solo table; "
                            "split it into several statements";
            return;
        }
        gc_ddl_action *a = &out->actions[out->n_actions++];
        memset(a, 0, sizeof *a);
        a->start = c->tok.offset;
        const char *why = classify_action(c, a);
        if (why != NULL && out->twin != GC_DDL_TWIN_REFUSE) {
            out->twin = GC_DDL_TWIN_REFUSE;
            out->twin_why = why;
        }
        int depth = 0;
        a->end = a->start;
        for (; !action_ends(c, depth); advance(c)) {
            if (gc_sql_token_is_punct(&c->lx, &c->tok, '('))
                depth++;
            else if (gc_sql_token_is_punct(&c->lx, &c->tok, ')'))
                depth--;
            a->end = c->tok.offset + c->tok.length;
        }
        if (a->end < a->column_end)
            a->end = a->column_end;
        if (c->have && gc_sql_token_is_punct(&c->lx, &c->tok, ','))
            advance(c);
    }
}

/* CREATE / ALTER / DROP of an object that hangs on one table or index,
 * cursor on the object's kind word. True when it was recognised (out is
 * then complete). */
static bool classify_table_object(ddl_cursor *c, bool create, bool drop, gc_ddl_plan *out)
{
    if (create && (is_kw(c, "unique") || is_kw(c, "index"))) {
        take_kw(c, "unique");
        if (!take_kw(c, "index"))
            return false;
        bool concurrently = take_kw(c, "concurrently");
        if (skip_past_kw(c, "on")) {
            take_kw(c, "only");
            take_target(c, out, GC_DDL_TARGET_TABLE, GC_DDL_TWIN_SKIP);
        }
        if (concurrently)
            out->scope = GC_DDL_CONCURRENTLY;
        return true;
    }
    if (create && (take_kw(c, "constraint") || is_kw(c, "trigger") || is_kw(c, "policy"))) {
        if (skip_past_kw(c, "on"))
            take_target(c, out, GC_DDL_TARGET_TABLE, GC_DDL_TWIN_SKIP);
        return true;
    }
    if (create && take_kw(c, "rule")) {
        if (skip_past_kw(c, "to"))
            take_target(c, out, GC_DDL_TARGET_TABLE, GC_DDL_TWIN_SKIP);
        return true;
    }
    if (!create && !drop && take_kw(c, "table")) {
        classify_alter_table(c, out);
        return true;
    }
    if (!create && (is_kw(c, "trigger") || is_kw(c, "policy") || (drop && is_kw(c, "rule")))) {
        if (skip_past_kw(c, "on"))
            take_target(c, out, GC_DDL_TARGET_TABLE, GC_DDL_TWIN_SKIP);
        return true;
    }
    if (!create && !drop && take_kw(c, "sequence")) {
        if (take_kw(c, "if"))
            take_kw(c, "exists");
        if (take_target(c, out, GC_DDL_TARGET_SEQUENCE, GC_DDL_TWIN_SAME)) {
            /* RESTART or INCREMENT BY would take every copy out of the
             * interleave; it is brought back in the same transaction. */
            memcpy(out->sequences_of, out->target_as_written, sizeof out->sequences_of);
            out->sequences = GC_DDL_SEQ_NAMED;
        }
        return true;
    }
    if (!create && take_kw(c, "index")) {
        bool concurrently = drop && take_kw(c, "concurrently");
        if (is_kw(c, "all"))
            return true;
        if (take_kw(c, "if"))
            take_kw(c, "exists");
        take_target(c, out, GC_DDL_TARGET_INDEX, GC_DDL_TWIN_SAME);
        out->drops_index = drop && !concurrently;
        if (concurrently) {
            /* One index: PostgreSQL refuses DROP INDEX CONCURRENTLY of several. */
            out->scope = GC_DDL_CONCURRENTLY;
            if (c->have && gc_sql_token_is_punct(&c->lx, &c->tok, ','))
                refuse(out, "DROP INDEX CONCURRENTLY drops one index at a time");
        }
        return true;
    }
    return false;
}

/* COMMENT ON, cursor after ON: a table's comment becomes COMMENT ON
 * FOREIGN TABLE on its foreign twins; one on an index, constraint,
 * trigger, policy or rule exists only where they do. */
static void classify_comment(ddl_cursor *c, gc_ddl_plan *out)
{
    if (take_kw(c, "table")) {
        out->twin_rest = c->have ? c->tok.offset : 0;
        take_target(c, out, GC_DDL_TARGET_TABLE, GC_DDL_TWIN_COMMENT);
        return;
    }
    if (take_kw(c, "index")) {
        take_target(c, out, GC_DDL_TARGET_INDEX, GC_DDL_TWIN_SAME);
        return;
    }
    if (take_kw(c, "constraint") || take_kw(c, "trigger") || take_kw(c, "policy") ||
        take_kw(c, "rule")) {
        if (skip_past_kw(c, "on") && !is_kw(c, "domain"))
            take_target(c, out, GC_DDL_TARGET_TABLE, GC_DDL_TWIN_SKIP);
    }
}

/* The statement's words after CREATE / ALTER / DROP, cursor on the first. */
static void classify_object(ddl_cursor *c, bool create, bool drop, gc_ddl_plan *out)
{
    out->scope = GC_DDL_EVERY_GROUP;
    if (create && take_kw(c, "or"))
        take_kw(c, "replace");
    out->creates_routine = create && (is_kw(c, "function") || is_kw(c, "procedure"));
    if (is_kw(c, "database") || is_kw(c, "tablespace") || is_kw(c, "subscription") ||
        is_kw(c, "system")) {
        refuse(out, "a statement PostgreSQL does not run inside a transaction block "
                    "cannot be cluster-wide (two-phase commit needs one); run it on each "
                    "server with a general connection");
        return;
    }
    /* A temporary table lives in one member session: CREATE [GLOBAL|LOCAL]
     * TEMP ... runs on one member like any statement (temporary views and
     * sequences are refused before this, by gc_session_sql). */
    if (create && (take_kw(c, "global") || take_kw(c, "local") || is_kw(c, "temp") ||
                   is_kw(c, "temporary"))) {
        out->scope = GC_DDL_ONE_MEMBER;
        return;
    }
    if (create && take_kw(c, "unlogged")) {
        if (is_kw(c, "table")) {
            advance(c);
            classify_create_table(c, out);
        }
        return;
    }
    if (create && is_kw(c, "table")) {
        advance(c);
        classify_create_table(c, out);
        return;
    }
    if (create && take_kw(c, "sequence")) {
        classify_create_sequence(c, out);
        return;
    }
    if (take_kw(c, "materialized")) {
        if (!take_kw(c, "view"))
            return;
        if (create) {
            classify_create_matview(c, out);
        } else if (drop && c->have) {
            out->changes_map = true;
            out->drop_matview = true;
            note_drop_table(c, out);
        } else {
            if (take_kw(c, "if"))
                take_kw(c, "exists");
            take_target(c, out, GC_DDL_TARGET_TABLE, GC_DDL_TWIN_REFUSE);
            out->twin_why = "ALTER MATERIALIZED VIEW has no counterpart on the foreign "
                            "tables of a materialized view made through a global "
                            "connection; drop it and create it again";
        }
        return;
    }
    bool foreign = take_kw(c, "foreign");
    if (is_kw(c, "table") || is_kw(c, "schema") || is_kw(c, "owned"))
        out->changes_map = true;
    if (!foreign && classify_table_object(c, create, drop, out))
        return;
    if (drop && !foreign && take_kw(c, "table") && c->have) {
        note_drop_table(c, out);
        return;
    }
    if (drop && !foreign && (is_kw(c, "view") || is_kw(c, "schema"))) {
        gc_ddl_cascade from =
            is_kw(c, "view") ? GC_DDL_CASCADE_RELATIONS : GC_DDL_CASCADE_SCHEMAS;
        advance(c);
        note_drop_cascade(c, from, out);
        return;
    }
    /* Other CONCURRENTLY forms (ALTER TABLE ... DETACH PARTITION ...
     * CONCURRENTLY): refused by PostgreSQL in a transaction. */
    for (; c->have; advance(c)) {
        if (is_kw(c, "concurrently")) {
            refuse(out, refuse_concurrently);
            return;
        }
        if (gc_sql_token_is_punct(&c->lx, &c->tok, '('))
            return;   /* past the object's name: the rest is definitions */
    }
}

void gc_ddl_classify(const char *sql, gc_ddl_plan *out)
{
    memset(out, 0, sizeof *out);
    out->scope = GC_DDL_ONE_MEMBER;
    ddl_cursor c;
    gc_sql_lexer_init(&c.lx, sql, strlen(sql));
    advance(&c);
    if (take_kw(&c, "create"))
        classify_object(&c, true, false, out);
    else if (take_kw(&c, "alter"))
        classify_object(&c, false, false, out);
    else if (take_kw(&c, "drop"))
        classify_object(&c, false, true, out);
    else if (take_kw(&c, "comment")) {
        out->scope = GC_DDL_EVERY_GROUP;
        if (take_kw(&c, "on"))
            classify_comment(&c, out);
    } else if (take_kw(&c, "select")) {
        classify_select_into(&c, out);
    } else if (take_kw(&c, "refresh")) {
        classify_refresh(&c, out);
    } else if (is_kw(&c, "grant") || is_kw(&c, "revoke") || is_kw(&c, "security"))
        /* GRANT / REVOKE ON TABLE take a foreign table as they take a plain
         * one: the same text everywhere. */
        out->scope = GC_DDL_EVERY_GROUP;
    /* TRUNCATE and anything else: routed like any statement. TRUNCATE is
     * data: of tables with rows in several groups, routing runs it on each
     * group's own tables (gc_global_span_truncate.c). */
}
