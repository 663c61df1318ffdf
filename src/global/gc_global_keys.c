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
#include "global/gc_key_cache.h"
#include "sql/gc_sql_statements.h"
#include "util/gc_strbuf.h"

/* How an INSERT leaves a key column to its sequence. */
typedef enum key_gap {
    GAP_UNLISTED,    /* out of its column list: added to it, a value per row */
    GAP_DEFAULT,     /* DEFAULT or nextval('s') in some rows (their item
                        `item`): replaced */
    GAP_PAST_ROWS,   /* no column list, rows shorter than its position
                        `item`: DEFAULT up to it, then its value */
    GAP_NO_ROWS,     /* DEFAULT VALUES: a column list and one row written */
} key_gap;

/* A key column the INSERT leaves to its sequence. */
typedef struct missing_key {
    const char *column;
    const char *sequence;
    bool always;
    key_gap gap;
    int item;
    int needed;           /* keys wanted: rows that leave it out */
    int have;             /* of them, in values so far */
    int used;             /* of them, written into the text so far */
    int64_t *values;      /* `needed` keys; owned */
} missing_key;

/* Row r's item `item` when it leaves its column to a sequence, else NULL. */
static const gc_value_gap *gap_item(const gc_analysis *a, int r, int item)
{
    if (a->gaps == NULL || item < 0 || item >= a->row_width)
        return NULL;
    const gc_value_gap *gap = &a->gaps[(size_t)r * (size_t)a->row_width + (size_t)item];
    return gap->at != 0 ? gap : NULL;
}

/* How the INSERT leaves key column `column` (at `position` among its
 * table's columns) out, and for how many of its rows; 0 when every row
 * gives it. *named: the sequence its rows name (nextval('s')), NULL for
 * the column's own (DEFAULT, or left out); -1 when rows leave it to two
 * different sequences. */
static int key_gap_of(const gc_analysis *a, const char *column, int position, key_gap *gap,
                      int *item, const char **named)
{
    *item = -1;
    *named = NULL;
    if (a->default_values) {
        *gap = GAP_NO_ROWS;
        return 1;
    }
    if (a->insert_columns != NULL) {
        *item = gc_analysis_insert_column(a, column);
        if (*item < 0) {
            *gap = GAP_UNLISTED;
            return a->n_rows;
        }
    } else {
        *item = position;
        if (position >= a->row_width) {
            *gap = GAP_PAST_ROWS;
            return a->n_rows;
        }
    }
    *gap = GAP_DEFAULT;
    int rows = 0;
    for (int r = 0; r < a->n_rows; r++) {
        const gc_value_gap *g = gap_item(a, r, *item);
        if (g == NULL)
            continue;
        if (rows > 0 && (g->sequence == NULL) != (*named == NULL))
            return -1;
        if (rows > 0 && g->sequence != NULL && strcmp(g->sequence, *named) != 0)
            return -1;
        *named = g->sequence;
        rows++;
    }
    return rows;
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
        int position = gc_shard_table_key_position(t, k);
        key_gap gap;
        int item;
        const char *named;
        if (position < 0)
            return false;
        int needed = key_gap_of(a, column, position, &gap, &item, &named);
        if (needed == 0)
            continue;
        bool always;
        const char *sequence = gc_shard_table_key_sequence(t, k, &always);
        if (named != NULL)
            sequence = named;   /* nextval('s') in the row: s, as the server would */
        if (needed < 0 || sequence == NULL || a->insert_overriding)
            return false;
        keys[(*n)++] = (missing_key){ column, sequence, always, gap, item, needed, 0, 0, NULL };
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
    gc_error last;
    gc_error_clear(&last);
    for (int gi = 0; gi < g->topo.n_groups; gi++) {
        gc_error_clear(&last);
        int i = gc_global_group_primary(g, gi, NULL, "drawing a sharding key", &last);
        if (i >= 0)
            return i;
    }
    /* Any one primary would do: say that none answered, and why the last not. */
    const char *why = strstr(last.message, "; ");
    gc_error_set(err, "08S01", 0, "drawing a sharding key needs a group's primary, and none "
                 "answers%s", why != NULL ? why : "");
    return -1;
}

/* pg_catalog.nextval('<sequence>'::pg_catalog.regclass), the draw the
 * driver makes and the one it writes into an INSERT ... SELECT's query. */
static void append_nextval(gc_strbuf *sb, const char *sequence)
{
    gc_strbuf_append_str(sb, "pg_catalog.nextval(");
    gc_ddl_append_literal(sb, sequence);
    gc_strbuf_append_str(sb, "::pg_catalog.regclass)");
}

/* ", column" for each key the column list leaves out, in key order: the
 * order each row's values are added in. */
static void append_unlisted_columns(gc_strbuf *sb, const missing_key *keys, int n)
{
    for (int k = 0; k < n; k++)
        if (keys[k].gap == GAP_UNLISTED) {
            gc_strbuf_append_str(sb, ", ");
            gc_sql_append_identifier(sb, keys[k].column);
        }
}

/* Whether a drawn key goes into an identity GENERATED ALWAYS column: the
 * INSERT then needs OVERRIDING SYSTEM VALUE. */
static bool any_always(const missing_key *keys, int n)
{
    for (int k = 0; k < n; k++)
        if (keys[k].always)
            return true;
    return false;
}

/* The keys key still wants, drawn on member i, with as many more as the
 * cache asks (kept there); inside its open transaction, behind a
 * savepoint, so a failing draw (no privilege on the sequence, say) fails
 * the INSERT alone, as the sequence's default would. */
static bool draw(gc_global *g, int i, bool inside, missing_key *key, gc_error *err)
{
    int wanted = key->needed - key->have;
    int spare = gc_key_cache_spare(g->key_cache, key->sequence, g->map_epoch, g->sequence_cache);
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    if (inside)
        gc_strbuf_append_str(&sb, "SAVEPOINT gc_draw; ");
    gc_strbuf_append_str(&sb, "SELECT ");
    append_nextval(&sb, key->sequence);
    gc_strbuf_appendf(&sb, " FROM pg_catalog.generate_series(1, %d)", wanted + spare);
    if (inside)
        gc_strbuf_append_str(&sb, "; RELEASE SAVEPOINT gc_draw");
    char *sql = gc_strbuf_take(&sb);
    if (sql == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    gc_member *m = g->members[i];
    PGresult *drawn;
    bool ran = gc_member_exec_rows(m, sql, &drawn, 1, err);
    free(sql);
    if (!ran) {
        gc_error undo_err;
        PGresult *undone;
        if (inside && gc_member_is_open(m) && gc_member_txn_status(m) == PQTRANS_INERROR &&
            (undone = gc_member_exec(m, "ROLLBACK TO SAVEPOINT gc_draw; "
                                        "RELEASE SAVEPOINT gc_draw", &undo_err)) != NULL)
            PQclear(undone);
        return false;
    }
    int got = PQntuples(drawn);
    if (got != wanted + spare) {
        gc_error_set(err, "HY000", 0, "drawing keys of %s gave %d values for %d", key->sequence,
                     got, wanted + spare);
        PQclear(drawn);
        return false;
    }
    /* Spare keys that find no memory are lost, as a closed session's are. */
    int64_t *kept = spare > 0 ? malloc((size_t)spare * sizeof *kept) : NULL;
    for (int r = 0; r < got; r++) {
        int64_t v = strtoll(PQgetvalue(drawn, r, 0), NULL, 10);
        if (r < wanted)
            key->values[key->have++] = v;
        else if (kept != NULL)
            kept[r - wanted] = v;
    }
    PQclear(drawn);
    gc_key_cache_drew(g->key_cache, key->sequence, g->map_epoch, got, kept, kept ? spare : 0);
    free(kept);
    gc_trace_write(g->trace, GC_TRACE_INFO, "drew %d key(s) of %s for %s on member %s (%d kept)",
                   got, key->sequence, key->column, g->topo.members[i].name, spare);
    return true;
}

/* One change to the text: bytes [at, at + cut) become pieces[from, + len). */
typedef struct text_edit {
    size_t at, cut, from, len;
} text_edit;

/* The changes that write drawn keys into a text, in the order made. */
typedef struct key_edits {
    text_edit *edits;
    int n;
    gc_strbuf pieces;
} key_edits;

static void edit_begin(key_edits *ke, size_t at, size_t cut)
{
    ke->edits[ke->n] = (text_edit){ at, cut, ke->pieces.len, 0 };
}

static void edit_end(key_edits *ke)
{
    text_edit *e = &ke->edits[ke->n++];
    e->len = ke->pieces.len - e->from;
}

/* The next drawn value of key. */
static void append_drawn(gc_strbuf *sb, missing_key *key)
{
    gc_strbuf_appendf(sb, "%lld", (long long)key->values[key->used++]);
}

/* DEFAULT VALUES becomes a list of the keys and one row of their values. */
static void edit_default_values(key_edits *ke, const gc_analysis *a, missing_key *keys, int n,
                                bool always)
{
    edit_begin(ke, a->values_at, a->values_end - a->values_at);
    gc_strbuf *sb = &ke->pieces;
    for (int k = 0; k < n; k++) {
        gc_strbuf_append_str(sb, k == 0 ? "(" : ", ");
        gc_sql_append_identifier(sb, keys[k].column);
    }
    gc_strbuf_append_str(sb, always ? ") OVERRIDING SYSTEM VALUE VALUES " : ") VALUES ");
    for (int k = 0; k < n; k++) {
        gc_strbuf_append_str(sb, k == 0 ? "(" : ", ");
        append_drawn(sb, &keys[k]);
    }
    gc_strbuf_append_char(sb, ')');
    edit_end(ke);
}

/* Row r: each DEFAULT or nextval of a key replaced, and the keys its text
 * leaves out added before its ")": after the list's other items (a key
 * added to the list), or at their positions after DEFAULTs (no column
 * list). */
static void edit_row(key_edits *ke, const gc_analysis *a, int r, missing_key *keys, int n)
{
    int last = -1;
    for (int k = 0; k < n; k++) {
        const gc_value_gap *g = keys[k].gap == GAP_DEFAULT ? gap_item(a, r, keys[k].item) : NULL;
        if (g != NULL) {
            edit_begin(ke, g->at, g->length);
            append_drawn(&ke->pieces, &keys[k]);
            edit_end(ke);
        }
        if (keys[k].gap == GAP_PAST_ROWS && keys[k].item > last)
            last = keys[k].item;
    }
    edit_begin(ke, a->row_end[r] - 1, 0);
    for (int k = 0; k < n; k++)
        if (keys[k].gap == GAP_UNLISTED) {
            gc_strbuf_append_str(&ke->pieces, ", ");
            append_drawn(&ke->pieces, &keys[k]);
        }
    for (int position = a->row_width; position <= last; position++) {
        int k = 0;
        while (k < n && !(keys[k].gap == GAP_PAST_ROWS && keys[k].item == position))
            k++;
        gc_strbuf_append_str(&ke->pieces, ", ");
        if (k < n)
            append_drawn(&ke->pieces, &keys[k]);
        else
            gc_strbuf_append_str(&ke->pieces, "DEFAULT");
    }
    edit_end(ke);
}

static int edit_order(const void *x, const void *y)
{
    const text_edit *a = x, *b = y;
    return a->at < b->at ? -1 : a->at > b->at;
}

/* sql with the drawn keys written in (see key_gap); OVERRIDING SYSTEM
 * VALUE before VALUES for an identity GENERATED ALWAYS. NULL when memory
 * runs out. */
static char *text_with_keys(const char *sql, const gc_analysis *a, missing_key *keys, int n)
{
    bool always = any_always(keys, n), unlisted = false;
    for (int k = 0; k < n; k++)
        unlisted = unlisted || keys[k].gap == GAP_UNLISTED;
    key_edits ke = { .edits = calloc(2 + (size_t)a->n_rows * (size_t)(n + 1), sizeof(text_edit)) };
    gc_strbuf_init(&ke.pieces);
    if (ke.edits == NULL)
        return NULL;
    if (a->default_values) {
        edit_default_values(&ke, a, keys, n, always);
    } else {
        if (unlisted) {
            edit_begin(&ke, a->insert_list_close, 0);
            append_unlisted_columns(&ke.pieces, keys, n);
            edit_end(&ke);
        }
        if (always) {
            edit_begin(&ke, a->values_at, 0);
            gc_strbuf_append_str(&ke.pieces, "OVERRIDING SYSTEM VALUE ");
            edit_end(&ke);
        }
        for (int r = 0; r < a->n_rows; r++)
            edit_row(&ke, a, r, keys, n);
    }
    qsort(ke.edits, (size_t)ke.n, sizeof *ke.edits, edit_order);
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    size_t from = 0;
    for (int e = 0; e < ke.n && !ke.pieces.failed; e++) {
        const text_edit *ed = &ke.edits[e];
        gc_strbuf_append(&sb, sql + from, ed->at - from);
        if (ed->len > 0)
            gc_strbuf_append(&sb, ke.pieces.data + ed->from, ed->len);
        from = ed->at + ed->cut;
    }
    gc_strbuf_append_str(&sb, sql + from);
    char *text = ke.pieces.failed ? NULL : gc_strbuf_take(&sb);
    gc_strbuf_free(&sb);
    gc_strbuf_free(&ke.pieces);
    free(ke.edits);
    return text;
}

/* An INSERT ... SELECT whose query draws the keys itself: each key column
 * added to the column list, and to the query's rows as the sequence's
 * nextval, run where the driver runs the query (the transaction's own
 * member: gc_global_span_select.c), whose copy of the sequence hands out
 * values unique in the cluster. NULL when memory runs out. */
static char *query_with_keys(const char *sql, const gc_analysis *a, const missing_key *keys,
                             int n)
{
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    gc_strbuf_append(&sb, sql, a->insert_list_close);
    append_unlisted_columns(&sb, keys, n);   /* every key: a query has no DEFAULT items */
    gc_strbuf_append(&sb, sql + a->insert_list_close, a->query_offset - a->insert_list_close);
    if (any_always(keys, n))
        gc_strbuf_append_str(&sb, "OVERRIDING SYSTEM VALUE ");
    gc_strbuf_append_str(&sb, "SELECT gc_rows.*");
    for (int k = 0; k < n; k++) {
        gc_strbuf_append_str(&sb, ", ");
        append_nextval(&sb, keys[k].sequence);
    }
    gc_strbuf_append_str(&sb, " FROM (");
    gc_strbuf_append(&sb, sql + a->query_offset, a->query_length);
    gc_strbuf_append_str(&sb, ") AS gc_rows");
    gc_strbuf_append_str(&sb, sql + a->query_offset + a->query_length);
    return gc_strbuf_take(&sb);
}

/* Whether the statement is an INSERT whose keys the driver draws: the key
 * columns it leaves to their sequences into keys (*n of them). */
static bool keys_wanted(gc_global *g, const gc_analysis *a, bool transaction, missing_key *keys,
                        int *n)
{
    /* Every execution asks: the text's own facts first, they settle most.
     * An INSERT ... SELECT counts with a column list only: without one,
     * which of the query's columns is the key is the query's to say. */
    bool query = a != NULL && a->query_length > 0 && a->insert_columns != NULL;
    if (a == NULL || a->kind != GC_SQL_INSERT || a->several || g->map == NULL ||
        (a->row_offset == NULL && !a->default_values && !query) ||
        (a->insert_list_close != 0) != (a->insert_columns != NULL))
        return false;
    /* An autocommit INSERT of one row runs as sent: its one row commits
     * atomically wherever the member's sequence places it. A transaction
     * opened by SQL BEGIN in autocommit mode holds its pin. */
    int pinned = gc_global_pinned_member(g);
    if (a->n_rows <= 1 && !query && !transaction &&
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

/* Fills each key's values: from the connection's cache first, the rest
 * drawn (see draw_member). A member that breaks under its draw is down
 * afterwards: the next choice is another, one try per member; keys
 * drawn before the break are kept (a sequence's values are unique whoever
 * drew them). */
static bool fill_keys(gc_global *g, missing_key *keys, int n, gc_error *err)
{
    if (g->key_cache == NULL && (g->key_cache = gc_key_cache_create()) == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    bool short_of_keys = false;
    for (int k = 0; k < n; k++) {
        keys[k].values = malloc((size_t)keys[k].needed * sizeof *keys[k].values);
        if (keys[k].values == NULL) {
            gc_error_set(err, "HY001", 0, "out of memory");
            return false;
        }
        keys[k].have = gc_key_cache_take(g->key_cache, keys[k].sequence, g->map_epoch,
                                         keys[k].needed, keys[k].values);
        short_of_keys = short_of_keys || keys[k].have < keys[k].needed;
    }
    if (!short_of_keys)
        return true;
    /* One try more than members: once every open one broke, the last
     * looks for a primary to open (and says none answers). */
    for (int tries = 0; tries <= g->topo.n_members; tries++) {
        bool inside;
        int i = draw_member(g, &inside, err);
        if (i < 0)
            return false;
        bool drawn = true;
        for (int k = 0; k < n && drawn; k++)
            drawn = keys[k].have == keys[k].needed || draw(g, i, inside, &keys[k], err);
        if (drawn || gc_member_is_open(g->members[i]))
            return drawn;    /* drawn, or the server refused the draw: err says why */
        if (inside) {
            gc_error_clear(err);   /* the transaction's member broke: routing tells */
            return false;
        }
    }
    return false;
}

char *gc_global_with_drawn_keys(gc_global *g, const char *sql, const gc_analysis *a,
                                bool transaction, gc_error *err)
{
    gc_error_clear(err);
    missing_key keys[32];
    int n;
    if (!keys_wanted(g, a, transaction, keys, &n))
        return NULL;
    char *text = NULL;
    if (a->query_length > 0) {
        if ((text = query_with_keys(sql, a, keys, n)) == NULL)
            gc_error_set(err, "HY001", 0, "out of memory");
        return text;
    }
    if (fill_keys(g, keys, n, err) && (text = text_with_keys(sql, a, keys, n)) == NULL)
        gc_error_set(err, "HY001", 0, "out of memory");
    for (int k = 0; k < n; k++)
        free(keys[k].values);
    return text;
}

void gc_global_forget_drawn_keys(gc_global *g)
{
    gc_key_cache_destroy(g->key_cache);
    g->key_cache = NULL;
}
