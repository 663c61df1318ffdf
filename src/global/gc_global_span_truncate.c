/*
 * gc_global_span_truncate: a TRUNCATE whose tables hold rows in several
 * groups, run as a write across groups (docs/global-connection.md,
 * "TRUNCATE across groups").
 *
 * From one member a TRUNCATE reaches the other groups' shards through
 * postgres_fdw, whose remote truncation commits on its own, and no trigger
 * can refuse it (PostgreSQL has no TRUNCATE trigger on foreign tables).
 * Instead each group truncates only what it owns, in its part of one
 * transaction across groups (gc_global_span.c): the leaf partitions the
 * shard map gives it and the solo tables it owns. The options after the
 * list (RESTART / CONTINUE IDENTITY, CASCADE / RESTRICT) go to every group
 * as written: a foreign key only references a table on its own server, so
 * what CASCADE reaches on a group is that group's own.
 *
 * LOCK TABLE names its tables the same way and is placed the same way (in
 * a transaction only: outside one the server refuses it): each group
 * locks the solo tables it owns and, named as written, the sharded tables
 * it holds leaves of (docs/global-connection.md, "LOCK TABLE").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "global/gc_ddl.h"
#include "global/gc_global_span_internal.h"
#include "sql/gc_sql_lexer.h"

/* One table name of the list at tok (the cursor moves past it): its place
 * in the text and the cluster table it names (NULL: the map does not know
 * it). False when it is not a plain name of one or two parts. */
static bool read_name(const gc_global *g, gc_sql_lexer *lx, gc_sql_token *tok, bool *have,
                      gc_span_tables_name *out)
{
    char parts[2][128];
    int n = 0;
    out->start = tok->offset;
    for (;;) {
        if (!gc_sql_token_is_name(tok) || n == 2)
            return false;
        size_t len = gc_sql_token_identifier(lx, tok, parts[n], sizeof parts[n]);
        if (len == 0 || len >= sizeof parts[n])
            return false;
        n++;
        out->end = tok->offset + tok->length;
        *have = gc_sql_lexer_next_code(lx, tok);
        if (!*have || !gc_sql_token_is_punct(lx, tok, '.'))
            break;
        if (!(*have = gc_sql_lexer_next_code(lx, tok)))
            return false;
    }
    out->table = gc_shardmap_find(g->map, n == 2 ? parts[0] : NULL, parts[n - 1],
                                  (const char *const *)g->search_path, g->n_search_path);
    return true;
}

/* LOCK's modes that conflict with none of the locks postgres_fdw's
 * sessions take for a member's reads and writes (ACCESS SHARE, ROW SHARE,
 * ROW EXCLUSIVE): such a LOCK never waits for them. */
static bool mode_waits_for_remote_reads(const char *mode)
{
    static const char *const weak[] = { "access share", "row share", "row exclusive",
                                        "share update exclusive" };
    for (size_t k = 0; k < sizeof weak / sizeof weak[0]; k++)
        if (strcmp(mode, weak[k]) == 0)
            return false;
    return true;
}

/* Whether the rest of the text (from tok) is only the statement's options
 * (TRUNCATE's identity and CASCADE, LOCK's mode and NOWAIT) and an
 * optional ';': anything else (a second statement) leaves the text to run
 * as it is. A LOCK's mode (ACCESS EXCLUSIVE when none is written) sets
 * out->waits_for_reads. */
static bool only_options(gc_sql_lexer *lx, gc_sql_token *tok, bool have, gc_span_tables *out)
{
    static const char *const truncate_words[] = { "restart", "continue", "identity",
                                                  "cascade", "restrict", NULL };
    static const char *const lock_words[] = { "in", "access", "row", "share", "update",
                                              "exclusive", "mode", "nowait", NULL };
    const char *const *words = out->lock ? lock_words : truncate_words;
    char mode[32] = "access exclusive";
    bool in_mode = false;
    for (; have; have = gc_sql_lexer_next_code(lx, tok)) {
        if (gc_sql_token_is_punct(lx, tok, ';')) {
            have = gc_sql_lexer_next_code(lx, tok);
            break;
        }
        size_t k = 0;
        while (words[k] != NULL && !gc_sql_token_is_keyword(lx, tok, words[k]))
            k++;
        if (words[k] == NULL)
            return false;
        if (strcmp(words[k], "cascade") == 0)
            out->cascades = true;
        if (in_mode && strcmp(words[k], "mode") == 0) {
            in_mode = false;
        } else if (in_mode) {
            size_t used = strlen(mode);
            snprintf(mode + used, sizeof mode - used, "%s%s", used > 0 ? " " : "", words[k]);
        } else if (strcmp(words[k], "in") == 0) {
            in_mode = true;
            mode[0] = '\0';
        }
    }
    out->waits_for_reads = !out->lock || mode_waits_for_remote_reads(mode);
    return !have;
}

bool gc_span_tables_read(const gc_global *g, const char *sql, gc_span_tables *out)
{
    memset(out, 0, sizeof *out);
    if (g->map == NULL || sql == NULL)
        return false;
    gc_sql_lexer lx;
    gc_sql_token tok;
    size_t len = strlen(sql);
    gc_sql_lexer_init(&lx, sql, len);
    bool have = gc_sql_lexer_next_code(&lx, &tok);
    if (have && gc_sql_token_is_keyword(&lx, &tok, "lock"))
        out->lock = true;
    else if (!have || !gc_sql_token_is_keyword(&lx, &tok, "truncate"))
        return false;
    have = gc_sql_lexer_next_code(&lx, &tok);
    if (have && gc_sql_token_is_keyword(&lx, &tok, "table"))
        have = gc_sql_lexer_next_code(&lx, &tok);
    int cap = 0;
    while (have) {
        /* ONLY: PostgreSQL refuses it for a partitioned table; the text
         * runs as it is and says so (its names are still read). */
        if (gc_sql_token_is_keyword(&lx, &tok, "only")) {
            out->only = true;
            if (!(have = gc_sql_lexer_next_code(&lx, &tok)))
                break;
        }
        if (out->n == cap) {
            cap = cap > 0 ? 2 * cap : 8;
            gc_span_tables_name *grown = realloc(out->names, (size_t)cap * sizeof *grown);
            if (grown == NULL)
                break;
            out->names = grown;
        }
        if (!read_name(g, &lx, &tok, &have, &out->names[out->n]))
            break;
        out->n++;
        if (have && gc_sql_token_is_operator(&lx, &tok, "*"))
            have = gc_sql_lexer_next_code(&lx, &tok);
        if (!have || !gc_sql_token_is_punct(&lx, &tok, ',')) {
            out->options = have ? tok.offset : len;
            if (only_options(&lx, &tok, have, out))
                return true;
            break;
        }
        have = gc_sql_lexer_next_code(&lx, &tok);
    }
    gc_span_tables_free(out);
    return false;
}

void gc_span_tables_free(gc_span_tables *tr)
{
    free(tr->names);
    memset(tr, 0, sizeof *tr);
}

/* The leaves group gi owns of sharded table t (solo tables: -1). */
static int leaves_of(const gc_shard_table *t, int gi)
{
    return gc_shard_table_solo_group(t) >= 0 ? -1 : gc_shard_table_leaves(t, gi, NULL, 0);
}

bool gc_span_tables_has_share(const gc_span_tables *tr, int gi)
{
    for (int k = 0; k < tr->n; k++) {
        const gc_shard_table *t = tr->names[k].table;
        if (t != NULL && (gc_shard_table_solo_group(t) == gi || leaves_of(t, gi) > 0))
            return true;
    }
    return false;
}

int gc_span_tables_groups(const gc_global *g, const gc_span_tables *tr, int *only_group)
{
    int n = 0;
    *only_group = -1;
    for (int k = 0; k < tr->n; k++) {
        /* A leaf whose owner the map does not know: the text runs as it is. */
        const gc_shard_table *t = tr->names[k].table;
        for (int gi = 0; t != NULL && gi < g->topo.n_groups; gi++)
            if (gc_shard_table_solo_group(t) < 0 && leaves_of(t, gi) < 0)
                return 0;
    }
    for (int gi = 0; gi < g->topo.n_groups; gi++) {
        if (!gc_span_tables_has_share(tr, gi))
            continue;
        n++;
        *only_group = gi;
    }
    if (n != 1)
        *only_group = -1;
    return n;
}

char *gc_span_tables_text(const gc_span_tables *tr, const char *sql, int gi,
                          bool coordinator)
{
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    gc_strbuf_append_str(&sb, tr->lock ? "LOCK TABLE " : "TRUNCATE ");
    int named = 0;
    for (int k = 0; k < tr->n; k++) {
        const gc_span_tables_name *name = &tr->names[k];
        const gc_shard_table *t = name->table;
        /* A LOCK names a sharded table itself on each group holding leaves
         * of it: its own leaves are locked with it there (the others are
         * foreign tables, whose lock stays on that server). */
        bool as_written = t == NULL ? coordinator
                                    : gc_shard_table_solo_group(t) == gi ||
                                          (tr->lock && leaves_of(t, gi) > 0);
        if (as_written) {
            gc_strbuf_append_str(&sb, named++ > 0 ? ", " : "");
            gc_strbuf_append(&sb, sql + name->start, name->end - name->start);
            continue;
        }
        int n = t != NULL ? leaves_of(t, gi) : 0;
        if (n <= 0)
            continue;
        const char **leaves = malloc((size_t)n * sizeof *leaves);
        if (leaves == NULL) {
            gc_strbuf_free(&sb);
            return NULL;
        }
        gc_shard_table_leaves(t, gi, leaves, n);
        for (int l = 0; l < n; l++) {
            gc_strbuf_append_str(&sb, named++ > 0 ? ", " : "");
            gc_strbuf_append_str(&sb, leaves[l]);
        }
        free(leaves);
    }
    if (sql[tr->options] != '\0') {
        gc_strbuf_append_char(&sb, ' ');
        gc_strbuf_append_str(&sb, sql + tr->options);
    }
    return gc_strbuf_take(&sb);
}

/* Whether tr runs as a write across groups (gc_global_truncate_spans). */
static bool truncate_spans(gc_global *g, const gc_span_tables *tr, bool transaction)
{
    /* LOCK outside a transaction block is refused by the server (25P01),
     * as on one server. */
    if (tr->only || (tr->lock && !transaction))
        return false;
    int only_group;
    int n = gc_span_tables_groups(g, tr, &only_group);
    int pin_group = g->pinned >= 0 ? g->topo.members[g->pinned].group : -1;
    bool spans = n >= 2 || (n == 1 && transaction && only_group != pin_group);
    if (spans)
        gc_trace_write(g->trace, GC_TRACE_INFO, "route: %s of tables of %d groups, "
                       "each group %s its own", tr->lock ? "LOCK TABLE" : "TRUNCATE", n,
                       tr->lock ? "locking" : "truncating");
    return spans;
}

bool gc_global_truncate_spans(gc_global *g, const char *sql, bool transaction)
{
    gc_span_tables tr;
    if (!gc_span_tables_read(g, sql, &tr))
        return false;
    bool spans = truncate_spans(g, &tr, transaction);
    gc_span_tables_free(&tr);
    return spans;
}

/* False with err when a member of the open transaction read one of tr's
 * tables through postgres_fdw (gc_ddl_remote_reads.c). The lock that
 * read left is looked for on each group owning rows of them, on the
 * transaction's member there or else the group's primary: where the
 * TRUNCATE will run, on the pin or across groups (a group not held is
 * one it spans to, hence that path's message when it has no primary). */
static bool no_read_blocks(gc_global *g, const gc_span_tables *tr, const char *sql,
                           gc_error *err)
{
    if (!tr->waits_for_reads || !gc_global_may_have_reached_out(g))
        return true;     /* nothing it would wait for */
    int ng = g->topo.n_groups;
    gc_member *primaries[ng > 0 ? ng : 1];
    int n = 0;
    for (int gi = 0; gi < ng; gi++) {
        if (!gc_span_tables_has_share(tr, gi))
            continue;
        int held = gc_global_transaction_member_of_group(g, gi);
        int i = held >= 0
                    ? held
                    : gc_global_group_primary(g, gi, NULL, "a write across groups", err);
        if (i < 0)
            return false;
        primaries[n++] = g->members[i];
    }
    if (n == 0)
        return true;
    gc_ddl_span *names = malloc((size_t)tr->n * sizeof *names);
    if (names == NULL) {
        gc_error_set(err, "HY001", 0, "memory allocation failure");
        return false;
    }
    for (int k = 0; k < tr->n; k++)
        names[k] = (gc_ddl_span){ tr->names[k].start, tr->names[k].end };
    bool ok = gc_ddl_check_names_remote_reads(g, primaries, n, sql, names, tr->n, err);
    free(names);
    return ok;
}

/* Notes what a TRUNCATE run across groups from the open transaction
 * writes: each table it names, in every group holding rows of it; every
 * table when it cascades (to tables it does not name) or names one the
 * shard map does not know. Its parts read nothing through postgres_fdw.
 * A LOCK TABLE writes nothing. coordinator_group: the pin's group, whose
 * part is the pin's own write; -1 when the TRUNCATE begins the
 * transaction (each group's part noted as another member's). */
static void note_truncated(gc_global *g, const gc_span_tables *tr, int coordinator_group)
{
    if (tr->lock)
        return;
    bool every_table = tr->cascades;
    for (int k = 0; k < tr->n; k++)
        every_table |= tr->names[k].table == NULL;
    if (every_table) {
        gc_global_note_joined_write(g, NULL, -1);
        return;
    }
    for (int k = 0; k < tr->n; k++)
        gc_global_note_table_written(g, tr->names[k].table, coordinator_group);
}

void gc_global_note_truncate_begins(gc_global *g, const char *sql)
{
    gc_span_tables tr;
    if (!gc_span_tables_read(g, sql, &tr))
        return;     /* not a TRUNCATE or LOCK TABLE it reads: it did not span */
    note_truncated(g, &tr, -1);
    gc_span_tables_free(&tr);
}

bool gc_global_truncate_in_transaction(gc_global *g, const char *sql, bool *spans,
                                       gc_error *err)
{
    *spans = false;
    gc_span_tables tr;
    if (!gc_span_tables_read(g, sql, &tr))
        return true;
    bool ok = no_read_blocks(g, &tr, sql, err);
    if (ok)
        *spans = truncate_spans(g, &tr, true);
    if (*spans)
        note_truncated(g, &tr, g->topo.members[g->pinned].group);
    gc_span_tables_free(&tr);
    return ok;
}
