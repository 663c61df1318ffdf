/*
 * gc_global_span_select: an INSERT ... SELECT into a sharded table, run
 * atomically across groups (docs/global-connection.md, "INSERT ... SELECT
 * into a sharded table").
 *
 * From any one member the INSERT would reach the other groups' partitions
 * through postgres_fdw, whose part commits on its own. Instead the driver
 * runs the query itself, in a cursor on the coordinator's part (the
 * transaction's own member: it sees the transaction's writes there, and it
 * is never prepared, so the query may read other groups through
 * postgres_fdw), places every row by its sharding key and sends each
 * group's rows to that group's part as an INSERT ... VALUES with
 * parameters, a batch at a time, so that the client holds one batch only.
 * The write then commits with the two phases of every write across groups.
 */
#include <stdlib.h>
#include <string.h>

#include "global/gc_global_span_internal.h"

#define SELECT_CURSOR "gc_span_rows"
/* Rows fetched from the cursor at a time: the client's memory is one such
 * batch (and its INSERT texts), whatever the query returns. */
#define SELECT_BATCH_ROWS 1000
#define SELECT_FETCH "FETCH FORWARD 1000 FROM " SELECT_CURSOR
/* PostgreSQL's limit on one statement's parameters. */
#define MAX_STATEMENT_PARAMS 65535
/* Types below this OID are built in, the same on every member; a type of
 * the user's is sent as unknown, for the target column to take. */
#define FIRST_USER_OID 16384

bool gc_span_select_plan(const gc_shard_table *t, const gc_analysis *a, int *key_at, int *nk,
                         gc_error *err)
{
    if (a->query_returning) {
        gc_error_set(err, "0A000", GC_GLOBAL_NATIVE_SPANNING_WRITE, "an INSERT ... SELECT "
                     "into sharded table %s cannot have RETURNING on a global connection: the "
                     "driver sends the query's rows to their groups in batches; read the "
                     "rows back with a SELECT", a->table);
        return false;
    }
    *nk = gc_shard_table_key_count(t);
    if (*nk <= 0 || *nk > 32) {
        gc_error_set(err, "0A000", GC_GLOBAL_NATIVE_SPANNING_WRITE, "an INSERT ... SELECT "
                     "into sharded table %s cannot be placed: the table's key cannot be used",
                     a->table);
        return false;
    }
    for (int k = 0; k < *nk; k++) {
        const char *name = gc_shard_table_key_name(t, k);
        if (a->insert_columns == NULL) {
            key_at[k] = gc_shard_table_key_position(t, k);
            continue;
        }
        key_at[k] = gc_analysis_insert_column(a, name);
        if (key_at[k] < 0) {
            gc_error_set(err, "0A000", GC_GLOBAL_NATIVE_SPANNING_WRITE, "an INSERT ... "
                         "SELECT into sharded table %s must list its sharding key column %s: "
                         "the driver places each row by the key's value, not by a default",
                         a->table, name);
            return false;
        }
    }
    return true;
}

/* The group of every row of batch (into group_of), and its leaf
 * partition (into leaf_of, unless NULL), or false with err: a key the
 * shard map cannot place, or a query without the key's column. */
static bool place_batch(const gc_global *g, const gc_shard_table *t, const gc_analysis *a,
                        const PGresult *batch, const int *key_at, int nk, long long first_row,
                        int *group_of, const char **leaf_of, gc_error *err)
{
    for (int k = 0; k < nk; k++) {
        if (key_at[k] >= PQnfields(batch)) {
            gc_error_set(err, "0A000", GC_GLOBAL_NATIVE_SPANNING_WRITE, "the query of an "
                         "INSERT ... SELECT into sharded table %s gives no value for sharding "
                         "key column %s; nothing was applied", a->table,
                         gc_shard_table_key_name(t, k));
            return false;
        }
    }
    for (int r = 0; r < PQntuples(batch); r++) {
        const char *texts[32];
        for (int k = 0; k < nk; k++)
            texts[k] = PQgetisnull(batch, r, key_at[k]) ? NULL : PQgetvalue(batch, r, key_at[k]);
        const char *why = NULL, *partition = NULL;
        group_of[r] = gc_shard_table_place(t, texts, &partition, &why);
        if (leaf_of != NULL)
            leaf_of[r] = partition != NULL ? gc_shard_table_leaf(t, partition) : NULL;
        if (group_of[r] < 0 || group_of[r] >= g->topo.n_groups ||
            (leaf_of != NULL && leaf_of[r] == NULL)) {
            gc_error_set(err, "0A000", GC_GLOBAL_NATIVE_SPANNING_WRITE,
                         "row %lld of the query of an INSERT ... SELECT into sharded table %s: "
                         "its sharding key cannot be placed in a group (%s); nothing was "
                         "applied", first_row + r + 1, a->table, why != NULL ? why : "no owner");
            return false;
        }
    }
    return true;
}

/* Inserts rows [from, to) of batch that belong to part p's group (and to
 * leaf, when not NULL: into it), as one INSERT ... VALUES: the statement's
 * head and tail kept, the query replaced by the rows (text parameters,
 * typed as the query typed them). */
static bool insert_rows(gc_global *g, const gc_span_part *p, const char *sql,
                        const gc_analysis *a, const gc_span_params *params,
                        const PGresult *batch, const gc_span_places *at, const char *leaf,
                        int from, int to, gc_span_wire *w, long long *rows, PGresult **tag,
                        gc_error *err)
{
    int nf = PQnfields(batch), n = 0;
    /* Into the leaf: the head with its target replaced, the query moved
     * by as many bytes. */
    char *into_leaf = leaf != NULL ? gc_global_leaf_text(sql, a, leaf) : NULL;
    if (leaf != NULL && into_leaf == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    size_t head = a->query_offset + (into_leaf != NULL ? strlen(into_leaf) - strlen(sql) : 0);
    gc_strbuf text;
    gc_strbuf_init(&text);
    gc_strbuf_append(&text, into_leaf != NULL ? into_leaf : sql, head);
    free(into_leaf);
    gc_strbuf_append_str(&text, "VALUES ");
    for (int r = from; r < to; r++) {
        if (!gc_span_row_goes(at, r, p->group, leaf))
            continue;
        gc_strbuf_append_str(&text, n > 0 ? ", (" : "(");
        for (int f = 0; f < nf; f++) {
            Oid type = PQftype(batch, f);
            w->types[n] = type < FIRST_USER_OID ? type : 0;
            w->values[n] = PQgetisnull(batch, r, f) ? NULL : PQgetvalue(batch, r, f);
            w->lengths[n] = 0; /* text: the slot may have held a binary parameter before */
            w->formats[n] = 0;
            gc_strbuf_appendf(&text, f > 0 ? ", $%d" : "$%d", ++n);
        }
        gc_strbuf_append_str(&text, ")");
    }
    if (n == 0) {
        gc_strbuf_free(&text);
        return true;
    }
    const char *tail = sql + a->query_offset + a->query_length;
    int n_tail = 0;
    bool ok = gc_span_renumber_params(&text, tail, strlen(tail), params->n, n + 1, w->used,
                                      &n_tail);
    if (!ok) {
        gc_strbuf_free(&text);
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    gc_span_params picked;
    gc_span_pick_params(params, w, n, n_tail, &picked);
    gc_span_params all = { .n = n + n_tail, .types = w->types, .values = w->values,
                           .lengths = w->lengths, .formats = w->formats };
    PGresult *none = NULL;
    ok = gc_span_run_statement(g->members[p->member], text.data, &all, rows, &none, tag, err);
    PQclear(none);
    gc_strbuf_free(&text);
    return ok;
}

/* Inserts the rows of batch on part p's group (of leaf, when not NULL),
 * in INSERTs of at most per rows. */
static bool insert_group_rows(gc_global *g, const gc_span_part *p, const char *sql,
                              const gc_analysis *a, const gc_span_params *params,
                              const PGresult *batch, const gc_span_places *at, const char *leaf,
                              int per, gc_span_wire *w, long long *rows, PGresult **tag,
                              gc_error *err)
{
    for (int from = 0; from < PQntuples(batch); from += per) {
        int to = from + per < PQntuples(batch) ? from + per : PQntuples(batch);
        if (!insert_rows(g, p, sql, a, params, batch, at, leaf, from, to, w, rows, tag, err))
            return false;
    }
    return true;
}

/* Inserts every row of batch on its group's part (with ON CONFLICT (...),
 * each leaf's rows apart), in INSERTs of at most MAX_STATEMENT_PARAMS
 * parameters. */
static bool insert_batch(gc_global *g, const gc_span_part *parts, int n, const char *sql,
                         const gc_analysis *a, const gc_span_params *params,
                         const PGresult *batch, const gc_span_places *at, gc_span_wire *w,
                         long long *rows, PGresult **tag, gc_error *err)
{
    int nf = PQnfields(batch) > 0 ? PQnfields(batch) : 1;
    int per = (w->cap - params->n) / nf;
    if (per < 1) {
        gc_error_set(err, "54000", 0, "an INSERT ... SELECT into sharded table %s: its query "
                     "gives %d columns, more than one statement's parameters can carry",
                     a->table, nf);
        return false;
    }
    for (int k = 0; k < n; k++) {
        unsigned long generation = gc_member_generation(g->members[parts[k].member]);
        bool ok = true;
        if (at->leaf_of == NULL)
            ok = insert_group_rows(g, &parts[k], sql, a, params, batch, at, NULL, per, w,
                                   rows, tag, err);
        for (int r = 0; r < PQntuples(batch) && ok && at->leaf_of != NULL; r++)
            if (gc_span_row_starts_leaf(at, r, parts[k].group))
                ok = insert_group_rows(g, &parts[k], sql, a, params, batch, at,
                                       at->leaf_of[r], per, w, rows, tag, err);
        if (!ok) {
            gc_span_part_failed(g, &parts[k], generation, err);
            return false;
        }
    }
    return true;
}

/* When the query gave no row: an INSERT of none on the coordinator, whose
 * tag ("INSERT 0 0") makes the execution SQL_NO_DATA as any write that
 * changed no row (docs/statements.md). width: the query's columns. */
static bool insert_none(gc_global *g, const gc_span_part *p, const char *sql,
                        const gc_analysis *a, int width, long long *rows, PGresult **tag,
                        gc_error *err)
{
    gc_strbuf text;
    gc_strbuf_init(&text);
    gc_strbuf_append(&text, sql, a->query_offset);
    gc_strbuf_append_str(&text, "SELECT");
    for (int f = 0; f < width; f++)
        gc_strbuf_append_str(&text, f > 0 ? ", NULL" : " NULL");
    gc_strbuf_append_str(&text, " WHERE false");
    if (text.failed) {
        gc_strbuf_free(&text);
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    gc_span_params none = { .n = 0 };
    PGresult *returned = NULL;
    bool ok = gc_span_run_statement(g->members[p->member], text.data, &none, rows, &returned,
                                    tag, err);
    PQclear(returned);
    gc_strbuf_free(&text);
    return ok;
}

/* Opens the cursor over the INSERT's query on the coordinator (its
 * parameters renumbered, as the query may not use them all). */
static bool open_cursor(gc_global *g, const gc_span_part *coordinator, const char *sql,
                        const gc_analysis *a, const gc_span_params *params, gc_error *err)
{
    gc_span_wire w;
    int n_used = 0;
    gc_strbuf text;
    gc_strbuf_init(&text);
    gc_strbuf_append_str(&text, "DECLARE " SELECT_CURSOR " NO SCROLL CURSOR FOR ");
    bool ok = gc_span_wire_init(&w, params->n) &&
              gc_span_renumber_params(&text, sql + a->query_offset, a->query_length,
                                      params->n, 1, w.used, &n_used);
    if (!ok) {
        gc_error_set(err, "HY001", 0, "out of memory");
    } else {
        gc_span_params mine;
        gc_span_pick_params(params, &w, 0, n_used, &mine);
        long long none_rows = 0;
        PGresult *none = NULL, *tag = NULL;
        ok = gc_span_run_statement(g->members[coordinator->member], text.data, &mine,
                                   &none_rows, &none, &tag, err);
        PQclear(none);
        PQclear(tag);
    }
    gc_span_wire_free(&w);
    gc_strbuf_free(&text);
    return ok;
}

bool gc_span_insert_select(gc_global *g, const gc_span_part *parts, int n,
                           const gc_shard_table *t, const char *sql, const gc_analysis *a,
                           const int *key_at, int nk, const gc_span_params *params,
                           long long *rows, PGresult **tag, gc_error *err)
{
    gc_member *cm = g->members[parts[0].member];
    unsigned long generation = gc_member_generation(cm);
    if (!open_cursor(g, &parts[0], sql, a, params, err)) {
        gc_span_part_failed(g, &parts[0], generation, err);
        return false;
    }
    /* Room for a batch's row values and the application's parameters: the
     * wire's used[] (cap slots) holds the latter, as cap >= params->n. */
    gc_span_wire w;
    int *group_of = malloc(SELECT_BATCH_ROWS * sizeof *group_of);
    const char **leaf_of = a->conflict_target ? malloc(SELECT_BATCH_ROWS * sizeof *leaf_of)
                                              : NULL;
    gc_span_places at = { group_of, leaf_of };
    bool ok = gc_span_wire_init(&w, MAX_STATEMENT_PARAMS) && group_of != NULL &&
              (leaf_of != NULL || !a->conflict_target);
    if (!ok)
        gc_error_set(err, "HY001", 0, "out of memory");
    long long fetched = 0;
    int batches = 0, width = 0;
    while (ok) {
        PGresult *batch = gc_member_exec(cm, SELECT_FETCH, err);
        if (batch == NULL) {
            gc_span_part_failed(g, &parts[0], generation, err);
            ok = false;
            break;
        }
        int got = PQntuples(batch);
        width = PQnfields(batch);
        ok = got == 0 ||
             (place_batch(g, t, a, batch, key_at, nk, fetched, group_of, leaf_of, err) &&
              insert_batch(g, parts, n, sql, a, params, batch, &at, &w, rows, tag, err));
        PQclear(batch);
        fetched += got;
        batches += got > 0;
        if (got == 0)
            break;
    }
    gc_span_wire_free(&w);
    free(group_of);
    free(leaf_of);
    gc_trace_write(g->trace, GC_TRACE_INFO, "INSERT ... SELECT into table %s: %lld rows of the "
                   "query in %d batches%s", a->table, fetched, batches, ok ? "" : ", failed");
    if (!ok)
        return false;
    PGresult *closed = gc_member_exec(cm, "CLOSE " SELECT_CURSOR, err);
    if (closed == NULL) {
        gc_span_part_failed(g, &parts[0], generation, err);
        return false;
    }
    PQclear(closed);
    if (*tag == NULL && !insert_none(g, &parts[0], sql, a, width, rows, tag, err)) {
        gc_span_part_failed(g, &parts[0], generation, err);
        return false;
    }
    return true;
}
