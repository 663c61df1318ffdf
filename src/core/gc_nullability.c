/*
 * gc_nullability: SQL_NO_NULLS for a result column that is a NOT NULL column
 * of a table, as psqlODBC reports it. The server's description names each
 * column's table and column number (PQftable, PQftablecol) but not whether it
 * takes NULL, so the driver asks pg_attribute, when the application first
 * asks for nullability (SQLDescribeCol, SQLColAttribute, SQLGetDescField /
 * SQLGetDescRec on the IRD), for the tables it has not asked about yet. The
 * connection keeps the answers (gc_conn.not_null) until it runs DDL or rolls
 * back (gc_conn.ddl_epoch rises), so a program that runs the same queries
 * pays one lookup per table, not one per statement.
 *
 * On a global connection table oids differ between members: the member
 * session that described the result is asked, while it is still the
 * connection's current session, and the cache holds one member session's
 * answers (it starts again when another one asks).
 *
 * A column stays SQL_NULLABLE when the driver cannot be sure: the text has an
 * outer join, a set operation or grouping sets (which make NULLs of NOT NULL
 * columns), a table is not known yet and asking now would read a streaming
 * set into memory or cannot run (failed transaction), or, on a global
 * connection, the describing member's session is no longer the current one
 * or the result is not one member's (a write across groups, a parameter
 * array). docs/statements.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gc_conn_kind.h"
#include "core/gc_cursor_target.h"
#include "core/gc_desc.h"
#include "core/gc_stmt.h"
#include "sql/gc_sql_lexer.h"

/* Tables kept at most; past it the cache starts again (memory stays bounded). */
enum { MAX_TABLES = 256 };

typedef struct not_null_column {
    Oid table;
    int column;
} not_null_column;

struct gc_not_null_cache {
    unsigned epoch;               /* the connection's ddl_epoch when learnt */
    const gc_session *member;      /* global connection: the member session */
    unsigned long generation;     /* asked, and its generation; else NULL, 0 */
    Oid tables[MAX_TABLES];       /* tables asked about */
    int ntables;
    not_null_column *columns;     /* owned; their NOT NULL columns */
    int ncolumns;
};

void gc_conn_forget_not_null(gc_conn *c)
{
    if (c->not_null != NULL)
        free(c->not_null->columns);
    free(c->not_null);
    c->not_null = NULL;
}

/* Words whose presence may turn a NOT NULL table column's value into NULL. */
static const char *const nulling_words[] = {
    "left", "right", "full", "union", "intersect", "except", "rollup", "cube", "grouping",
};

/* Whether sql may produce NULL in a column that comes from a NOT NULL one. */
static bool text_may_null_columns(const char *sql)
{
    gc_sql_lexer lx;
    gc_sql_lexer_init(&lx, sql, strlen(sql));
    gc_sql_token tok;
    while (gc_sql_lexer_next_code(&lx, &tok))
        for (size_t i = 0; i < sizeof nulling_words / sizeof nulling_words[0]; i++)
            if (gc_sql_token_is_keyword(&lx, &tok, nulling_words[i]))
                return true;
    return false;
}

/* Whether asking the server now is safe and cheap: a session not streaming
 * another set, a transaction that has not failed. */
static bool may_ask_server(const gc_stmt *s)
{
    const gc_conn *c = s->conn;
    if (c->session == NULL || gc_session_txn_status(c->session) == PQTRANS_INERROR)
        return false;
    for (const gc_stmt *o = c->statements; o != NULL; o = o->next_in_conn)
        if (gc_result_streams(o) && !o->set_complete)
            return false;
    return true;
}

/* The connection's cache for the answers of member session m (generation
 * g; NULL, 0 on a general connection), emptied when DDL ran since it was
 * filled or another member session filled it; NULL when out of memory. */
static struct gc_not_null_cache *current_cache(gc_conn *c, const gc_session *m,
                                               unsigned long g)
{
    if (c->not_null != NULL && (c->not_null->epoch != c->ddl_epoch ||
                                c->not_null->member != m || c->not_null->generation != g))
        gc_conn_forget_not_null(c);
    if (c->not_null == NULL) {
        c->not_null = calloc(1, sizeof *c->not_null);
        if (c->not_null != NULL) {
            c->not_null->epoch = c->ddl_epoch;
            c->not_null->member = m;
            c->not_null->generation = g;
        }
    }
    return c->not_null;
}

static bool cache_knows(const struct gc_not_null_cache *cache, Oid table)
{
    for (int i = 0; i < cache->ntables; i++)
        if (cache->tables[i] == table)
            return true;
    return false;
}

/* Whether the IRD record comes from a table column. */
static bool from_table(const gc_desc_rec *r)
{
    return r->pg_table != InvalidOid && r->pg_table_column > 0;
}

/* The array literal of the IRD's tables the cache does not know ('{1,2}'),
 * malloc'd; NULL when it knows them all or out of memory. */
static char *unknown_tables(const gc_desc *ird, const struct gc_not_null_cache *cache)
{
    char *out = malloc((size_t)ird->count * 12 + 3);
    if (out == NULL)
        return NULL;
    size_t len = 0;
    out[len++] = '{';
    for (int i = 0; i < ird->count; i++) {
        const gc_desc_rec *r = &ird->recs[i];
        if (from_table(r) && !cache_knows(cache, r->pg_table))
            len += (size_t)sprintf(out + len, "%s%u", len > 1 ? "," : "", r->pg_table);
    }
    if (len == 1) {
        free(out);
        return NULL;
    }
    out[len++] = '}';
    out[len] = '\0';
    return out;
}

/* Asks the server for the NOT NULL columns of `tables` (an array literal);
 * NULL when the lookup failed. A failed lookup only makes the answer less
 * precise: its diagnostics go to a scratch list and s's own records stay as
 * they were (a descriptor call must not change them). */
static PGresult *ask_not_null(gc_stmt *s, const char *tables)
{
    const char *values[] = { tables };
    gc_diag kept = s->h.diag;
    gc_diag_init(&s->h.diag);
    PGresult *res = gc_cursor_run_catalog(s,
        "SELECT attrelid, attnum FROM pg_catalog.pg_attribute"
        " WHERE attnotnull AND attnum > 0 AND attrelid = ANY ($1::pg_catalog.oid[])",
        1, values);
    gc_diag_free(&s->h.diag);
    s->h.diag = kept;
    return res;
}

/* Adds the IRD's tables and the NOT NULL columns in `res` to `cache`; false
 * when out of memory (the caller drops the cache). */
static bool learn(struct gc_not_null_cache *cache, const gc_desc *ird, const PGresult *res)
{
    int n = PQntuples(res);
    not_null_column *grown = realloc(cache->columns,
                                     (size_t)(cache->ncolumns + n + 1) * sizeof *grown);
    if (grown == NULL)
        return false;
    cache->columns = grown;
    for (int row = 0; row < n; row++) {
        not_null_column *col = &cache->columns[cache->ncolumns++];
        col->table = (Oid)strtoul(PQgetvalue(res, row, 0), NULL, 10);
        col->column = atoi(PQgetvalue(res, row, 1));
    }
    for (int i = 0; i < ird->count; i++) {
        Oid table = ird->recs[i].pg_table;
        if (from_table(&ird->recs[i]) && !cache_knows(cache, table))
            cache->tables[cache->ntables++] = table;
    }
    return true;
}

/* Marks SQL_NO_NULLS the IRD columns the cache lists as NOT NULL. */
static void mark_not_null(gc_desc *ird, const struct gc_not_null_cache *cache)
{
    for (int i = 0; i < ird->count; i++) {
        gc_desc_rec *r = &ird->recs[i];
        for (int k = 0; k < cache->ncolumns && from_table(r); k++)
            if (cache->columns[k].table == r->pg_table &&
                cache->columns[k].column == r->pg_table_column)
                r->nullable = SQL_NO_NULLS;
    }
}

void gc_stmt_resolve_nullability(gc_stmt *s)
{
    if (s->nullability_known)
        return;
    s->nullability_known = true;
    gc_conn *c = s->conn;
    if (s->sql == NULL || text_may_null_columns(s->sql))
        return;
    const gc_session *m = NULL;
    unsigned long generation = 0;
    if (c->kind->several_sessions) {
        if (!gc_result_described_by_current_session(s))
            return;
        m = s->ird_member;
        generation = s->ird_generation;
    }
    struct gc_not_null_cache *cache = current_cache(c, m, generation);
    if (cache != NULL && cache->ntables + s->ird->count > MAX_TABLES) {
        gc_conn_forget_not_null(c);   /* no room for this result's tables */
        cache = current_cache(c, m, generation);
    }
    if (cache == NULL)
        return;
    char *tables = unknown_tables(s->ird, cache);
    if (tables != NULL) {
        PGresult *res = may_ask_server(s) ? ask_not_null(s, tables) : NULL;
        free(tables);
        bool learnt = res != NULL && learn(cache, s->ird, res);
        if (res != NULL && !learnt)
            gc_conn_forget_not_null(c);
        PQclear(res);
        if (!learnt)
            return;
    }
    mark_not_null(s->ird, c->not_null);
}
