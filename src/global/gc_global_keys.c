/*
 * gc_global_keys: keys the driver draws for an INSERT that leaves a sharded
 * table's key to its sequence (docs/global-connection.md, "INSERT without
 * the key"). The server draws such a key only while it inserts the row, too
 * late for the driver to place it; where the INSERT could not run as sent,
 * the driver draws the keys first and writes them into the text, and the
 * INSERT is then placed by its keys like any other. gcctl interleaves every
 * group's copy of a sharded table's sequences, so a key drawn on any group
 * is unique in the cluster (docs/cluster.md).
 */
#include <stdlib.h>
#include <string.h>

#include "global/gc_ddl.h"
#include "global/gc_global_internal.h"
#include "sql/gc_sql_statements.h"
#include "util/gc_strbuf.h"

/* A key column the INSERT leaves to its sequence. */
typedef struct missing_key {
    const char *column;
    const char *sequence;
    bool always;
    PGresult *drawn;      /* one row per VALUES row */
} missing_key;

/* Whether the column list of a names column. */
static bool listed(const gc_analysis *a, const char *column)
{
    for (int c = 0; c < a->n_insert_columns; c++)
        if (a->insert_columns[c] != NULL && strcmp(a->insert_columns[c], column) == 0)
            return true;
    return false;
}

/* The key columns of t the INSERT leaves to their sequences, into keys
 * (*n of them); false when one it leaves out has no sequence (nothing the
 * driver could draw), or the statement names OVERRIDING (USER VALUE would
 * drop a drawn key). */
static bool missing_keys(const gc_analysis *a, const gc_shard_table *t, missing_key *keys,
                         int *n)
{
    *n = 0;
    int nk = gc_shard_table_key_count(t);
    if (nk <= 0 || nk > 32)
        return false;
    for (int k = 0; k < nk; k++) {
        const char *column = gc_shard_table_key_name(t, k);
        if (listed(a, column))
            continue;
        bool always;
        const char *sequence = gc_shard_table_key_sequence(t, k, &always);
        if (sequence == NULL || a->insert_overriding)
            return false;
        keys[(*n)++] = (missing_key){ column, sequence, always, NULL };
    }
    return true;
}

/* The member to draw on, without waiting for a connect when it can: an
 * open primary outside the open transaction (a sequence's value belongs to
 * no transaction, and a draw that fails then takes nothing with it); else
 * one holding the transaction (*inside: the draw runs in it); else a
 * group's primary opened now. -1 with err when none answers. */
static int draw_member(gc_global *g, bool *inside, gc_error *err)
{
    *inside = false;
    int held = -1;
    for (int i = 0; i < g->topo.n_members; i++) {
        gc_member *m = g->members[i];
        if (!gc_member_is_open(m) || gc_member_get_role(m) != GC_ROLE_PRIMARY)
            continue;
        if (!gc_global_holds_transaction(g, i))
            return i;
        if (held < 0)
            held = i;
    }
    if (held >= 0) {
        *inside = true;
        return held;
    }
    for (int gi = 0; gi < g->topo.n_groups; gi++) {
        gc_error_clear(err);
        int i = gc_global_group_primary(g, gi, NULL, "drawing a sharding key", err);
        if (i >= 0)
            return i;
    }
    return -1;
}

/* n_rows values of key's sequence, drawn on member i; inside its open
 * transaction, behind a savepoint, so a failing draw (no privilege on the
 * sequence, say) fails the INSERT alone, as the sequence's default would. */
static bool draw(gc_global *g, int i, bool inside, missing_key *key, int n_rows, gc_error *err)
{
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    if (inside)
        gc_strbuf_append_str(&sb, "SAVEPOINT gc_draw; ");
    gc_strbuf_append_str(&sb, "SELECT pg_catalog.nextval(");
    gc_ddl_append_literal(&sb, key->sequence);
    gc_strbuf_appendf(&sb, "::pg_catalog.regclass) FROM pg_catalog.generate_series(1, %d)",
                      n_rows);
    if (inside)
        gc_strbuf_append_str(&sb, "; RELEASE SAVEPOINT gc_draw");
    char *sql = gc_strbuf_take(&sb);
    if (sql == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    gc_member *m = g->members[i];
    bool ran = gc_member_exec_rows(m, sql, &key->drawn, 1, err);
    free(sql);
    if (!ran) {
        key->drawn = NULL;
        gc_error undo_err;
        PGresult *undone;
        if (inside && gc_member_is_open(m) && gc_member_txn_status(m) == PQTRANS_INERROR &&
            (undone = gc_member_exec(m, "ROLLBACK TO SAVEPOINT gc_draw; "
                                        "RELEASE SAVEPOINT gc_draw", &undo_err)) != NULL)
            PQclear(undone);
        return false;
    }
    if (PQntuples(key->drawn) != n_rows) {
        gc_error_set(err, "HY000", 0, "drawing keys of %s gave %d values for %d rows",
                     key->sequence, PQntuples(key->drawn), n_rows);
        return false;
    }
    gc_trace_write(g->trace, GC_TRACE_INFO, "drew %d key(s) of %s for %s on member %s", n_rows,
                   key->sequence, key->column, g->topo.members[i].name);
    return true;
}

/* sql with the drawn keys written in: each key column added to the column
 * list (OVERRIDING SYSTEM VALUE after it for an identity GENERATED ALWAYS),
 * each row's value before the row's ")". */
static char *text_with_keys(const char *sql, const gc_analysis *a, const missing_key *keys,
                            int n)
{
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    gc_strbuf_append(&sb, sql, a->insert_list_close);
    bool always = false;
    for (int k = 0; k < n; k++) {
        gc_strbuf_append_str(&sb, ", ");
        gc_sql_append_identifier(&sb, keys[k].column);
        always = always || keys[k].always;
    }
    gc_strbuf_append_char(&sb, ')');
    if (always)
        gc_strbuf_append_str(&sb, " OVERRIDING SYSTEM VALUE");
    size_t from = a->insert_list_close + 1;
    for (int r = 0; r < a->n_rows; r++) {
        size_t close = a->row_end[r] - 1;
        gc_strbuf_append(&sb, sql + from, close - from);
        for (int k = 0; k < n; k++) {
            gc_strbuf_append_str(&sb, ", ");
            gc_strbuf_append_str(&sb, PQgetvalue(keys[k].drawn, r, 0));
        }
        from = close;
    }
    gc_strbuf_append_str(&sb, sql + from);
    return gc_strbuf_take(&sb);
}

/* Whether the statement is an INSERT whose keys the driver draws: the key
 * columns it leaves to their sequences into keys (*n of them). */
static bool keys_wanted(gc_global *g, const gc_analysis *a, bool transaction, missing_key *keys,
                        int *n)
{
    /* Every execution asks: the text's own facts first, they settle most. */
    if (a == NULL || a->kind != GC_SQL_INSERT || a->several || a->row_offset == NULL ||
        a->insert_list_close == 0 || a->insert_columns == NULL || g->map == NULL)
        return false;
    /* An autocommit INSERT of one row runs as sent: its one row commits
     * atomically wherever the member's sequence places it. A transaction
     * opened by SQL BEGIN in autocommit mode holds its pin. */
    int pinned = gc_global_pinned_member(g);
    if (a->n_rows <= 1 && !transaction &&
        !(pinned >= 0 && gc_global_holds_transaction(g, pinned)))
        return false;
    const gc_shard_table *t = gc_global_cluster_table(g, a);
    return t != NULL && gc_shard_table_solo_group(t) < 0 && missing_keys(a, t, keys, n) && *n > 0;
}

bool gc_global_draws_keys(gc_global *g, const gc_analysis *a, bool transaction)
{
    missing_key keys[32];
    int n;
    return keys_wanted(g, a, transaction, keys, &n);
}

char *gc_global_with_drawn_keys(gc_global *g, const char *sql, const gc_analysis *a,
                                bool transaction, gc_error *err)
{
    gc_error_clear(err);
    missing_key keys[32];
    int n;
    if (!keys_wanted(g, a, transaction, keys, &n))
        return NULL;
    /* A member that breaks under its draw is down afterwards: the next
     * choice is another. At most one try per member. */
    bool drawn = false;
    for (int tries = 0; tries < g->topo.n_members; tries++) {
        bool inside;
        int i = draw_member(g, &inside, err);
        if (i < 0)
            break;
        drawn = true;
        for (int k = 0; k < n && drawn; k++)
            drawn = draw(g, i, inside, &keys[k], a->n_rows, err);
        if (drawn || gc_member_is_open(g->members[i]))
            break;    /* drawn, or the server refused the draw: err says why */
        for (int k = 0; k < n; k++) {
            PQclear(keys[k].drawn);
            keys[k].drawn = NULL;
        }
        if (inside) {
            gc_error_clear(err);   /* the transaction's member broke: routing tells */
            break;
        }
    }
    char *text = NULL;
    if (drawn && (text = text_with_keys(sql, a, keys, n)) == NULL)
        gc_error_set(err, "HY001", 0, "out of memory");
    for (int k = 0; k < n; k++)
        PQclear(keys[k].drawn);
    return text;
}
