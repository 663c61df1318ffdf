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
    return c->have && (c->tok.kind == GC_SQL_TOK_IDENT ||
                       c->tok.kind == GC_SQL_TOK_QUOTED_IDENT);
}

static void refuse(gc_ddl_plan *out, const char *why)
{
    out->scope = GC_DDL_REFUSED;
    out->why = why;
}

/* CREATE [UNLOGGED] TABLE, the cursor after TABLE: a new unpartitioned table
 * is a solo table; PARTITION BY makes a new sharded parent on every group;
 * PARTITION OF would place a shard, which gcctl does. */
static void classify_create_table(ddl_cursor *c, gc_ddl_plan *out)
{
    out->changes_map = true;
    if (take_kw(c, "if") && take_kw(c, "not"))
        take_kw(c, "exists");
    if (!is_name_token(c)) {
        out->scope = GC_DDL_EVERY_GROUP;   /* PostgreSQL will say what is wrong */
        return;
    }
    size_t start = c->tok.offset, end = c->tok.offset + c->tok.length;
    advance(c);
    while (c->have && gc_sql_token_is_punct(&c->lx, &c->tok, '.')) {
        advance(c);
        if (!is_name_token(c))
            break;
        end = c->tok.offset + c->tok.length;
        advance(c);
    }
    int depth = 0;
    for (; c->have; advance(c)) {
        if (gc_sql_token_is_punct(&c->lx, &c->tok, '('))
            depth++;
        else if (gc_sql_token_is_punct(&c->lx, &c->tok, ')'))
            depth--;
        else if (depth == 0 && is_kw(c, "partition")) {
            advance(c);
            if (is_kw(c, "of")) {
                refuse(out, "CREATE TABLE ... PARTITION OF places a shard on every group; "
                            "add shards with gcctl (apply or move-shard)");
            } else {
                out->scope = GC_DDL_EVERY_GROUP;
            }
            return;
        }
    }
    if (end - start >= sizeof out->table_as_written) {
        refuse(out, "the table name is too long");
        return;
    }
    memcpy(out->table_as_written, c->lx.text + start, end - start);
    out->table_as_written[end - start] = '\0';
    out->scope = GC_DDL_SOLO_TABLE;
}

/* DROP TABLE, the cursor after TABLE: remembers where the name list starts
 * and its first name, so that a group holding that table as a foreign table
 * (a solo table's twin) runs DROP FOREIGN TABLE instead. */
static void note_drop_table(ddl_cursor *c, gc_ddl_plan *out)
{
    out->drop_table_rest = c->tok.offset;
    if (take_kw(c, "if"))
        take_kw(c, "exists");
    if (!is_name_token(c))
        return;
    size_t start = c->tok.offset, end = c->tok.offset + c->tok.length;
    advance(c);
    while (c->have && gc_sql_token_is_punct(&c->lx, &c->tok, '.')) {
        advance(c);
        if (!is_name_token(c))
            break;
        end = c->tok.offset + c->tok.length;
        advance(c);
    }
    if (end - start < sizeof out->table_as_written) {
        memcpy(out->table_as_written, c->lx.text + start, end - start);
        out->table_as_written[end - start] = '\0';
    }
}

/* The statement's words after CREATE / ALTER / DROP, cursor on the first. */
static void classify_object(ddl_cursor *c, bool create, bool drop, gc_ddl_plan *out)
{
    out->scope = GC_DDL_EVERY_GROUP;
    if (create && take_kw(c, "or"))
        take_kw(c, "replace");
    if (is_kw(c, "database") || is_kw(c, "tablespace") || is_kw(c, "subscription") ||
        is_kw(c, "system")) {
        refuse(out, "a statement PostgreSQL does not run inside a transaction block "
                    "cannot be cluster-wide (two-phase commit needs one); run it on each "
                    "server with a general connection");
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
    bool foreign = take_kw(c, "foreign");
    if (is_kw(c, "table") || is_kw(c, "schema") || is_kw(c, "owned"))
        out->changes_map = true;
    if (drop && !foreign && take_kw(c, "table") && c->have) {
        note_drop_table(c, out);
        return;
    }
    /* CREATE [UNIQUE] INDEX CONCURRENTLY, DROP INDEX CONCURRENTLY,
     * REINDEX ... CONCURRENTLY: refused by PostgreSQL in a transaction. */
    for (; c->have; advance(c)) {
        if (is_kw(c, "concurrently")) {
            refuse(out, "CONCURRENTLY cannot run inside a transaction block, which a "
                        "cluster-wide DDL needs (two-phase commit); leave it out, or run "
                        "it on each primary with a general connection");
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
    else if (is_kw(&c, "comment") || is_kw(&c, "grant") || is_kw(&c, "revoke") ||
             is_kw(&c, "security"))
        out->scope = GC_DDL_EVERY_GROUP;
    /* TRUNCATE and anything else: one member. TRUNCATE is data: from one
     * primary it empties every shard through postgres_fdw. */
}
