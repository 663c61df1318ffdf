/*
 * gc_table_columns: what the server's description of a result says only by
 * number. Each result column names its table and column number (PQftable,
 * PQftablecol); psqlODBC reports, for a column that is a table column, its
 * table, schema and database (SQL_DESC_TABLE_NAME, BASE_TABLE_NAME,
 * SCHEMA_NAME, CATALOG_NAME), its own name (BASE_COLUMN_NAME, also under an
 * alias) and SQL_NO_NULLS when it is NOT NULL. The driver asks
 * pg_class and pg_attribute, when the application first asks for one of
 * these, about the tables it has not asked about yet (one round trip for
 * all of them). The connection keeps the answers (gc_conn.table_columns)
 * until it runs DDL or rolls back (gc_conn.ddl_epoch rises), so a program
 * that runs the same queries pays one lookup per table, not one per
 * statement.
 *
 * On a global connection table oids differ between members: the member
 * session that described the result is asked, while it is still the
 * connection's current session, and the cache holds one member session's
 * answers (it starts again when another one asks).
 *
 * The driver does not ask, and the fields stay empty (names) or
 * SQL_NULLABLE, when asking now would read a streaming set into memory or
 * cannot run (a failed transaction), or, on a global connection, the
 * describing member's session is no longer the current one or the result
 * is not one member's (a write across groups, a parameter array). A column
 * stays SQL_NULLABLE when the text has an outer join, a set operation or
 * grouping sets, which make NULLs of NOT NULL columns. docs/statements.md.
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

typedef struct known_table {
    Oid oid;
    char *schema, *name;          /* owned; NULL when the server has no such table */
    int first, ncolumns;          /* its columns in gc_table_columns.columns, by number */
} known_table;

typedef struct known_column {
    Oid table;
    int number;
    bool not_null;
    char *name;                   /* owned */
} known_column;

struct gc_table_columns {
    unsigned epoch;               /* the connection's ddl_epoch when learnt */
    const gc_session *member;      /* global connection: the member session */
    unsigned long generation;     /* asked, and its generation; else NULL, 0 */
    char *database;               /* owned: the database the tables are in */
    known_table tables[MAX_TABLES];
    int ntables;
    known_column *columns;        /* owned: every column of those tables */
    int ncolumns;
};

void gc_conn_forget_table_columns(gc_conn *c)
{
    struct gc_table_columns *cache = c->table_columns;
    if (cache == NULL)
        return;
    for (int i = 0; i < cache->ntables; i++) {
        free(cache->tables[i].schema);
        free(cache->tables[i].name);
    }
    for (int i = 0; i < cache->ncolumns; i++)
        free(cache->columns[i].name);
    free(cache->columns);
    free(cache->database);
    free(cache);
    c->table_columns = NULL;
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
static struct gc_table_columns *current_cache(gc_conn *c, const gc_session *m,
                                              unsigned long g)
{
    if (c->table_columns != NULL &&
        (c->table_columns->epoch != c->ddl_epoch || c->table_columns->member != m ||
         c->table_columns->generation != g))
        gc_conn_forget_table_columns(c);
    if (c->table_columns == NULL) {
        struct gc_table_columns *cache = calloc(1, sizeof *cache);
        if (cache == NULL)
            return NULL;
        cache->epoch = c->ddl_epoch;
        cache->member = m;
        cache->generation = g;
        cache->database = strdup(gc_session_database(c->session));
        if (cache->database == NULL) {
            free(cache);
            return NULL;
        }
        c->table_columns = cache;
    }
    return c->table_columns;
}

static known_table *table_of(struct gc_table_columns *cache, Oid table)
{
    for (int i = 0; i < cache->ntables; i++)
        if (cache->tables[i].oid == table)
            return &cache->tables[i];
    return NULL;
}

/* Column `number` of table t; a table's columns are kept together, in
 * order (the lookup sorts them), so this costs the table's width at most. */
static const known_column *column_of(const struct gc_table_columns *cache,
                                     const known_table *t, int number)
{
    for (int i = t->first; i < t->first + t->ncolumns; i++)
        if (cache->columns[i].number == number)
            return &cache->columns[i];
    return NULL;
}

/* Whether the IRD record comes from a table column. */
static bool from_table(const gc_desc_rec *r)
{
    return r->pg_table != InvalidOid && r->pg_table_column > 0;
}

/* The table column IRD record r comes from, and its table into *table,
 * when the cache knows them; else NULL. */
static const known_column *source_column(struct gc_table_columns *cache, const gc_desc_rec *r,
                                         const known_table **table)
{
    const known_table *t = from_table(r) ? table_of(cache, r->pg_table) : NULL;
    *table = t;
    return t != NULL && t->name != NULL ? column_of(cache, t, r->pg_table_column) : NULL;
}

/* The array literal of the IRD's tables the cache does not know ('{1,2}'),
 * malloc'd; NULL when it knows them all or out of memory. */
static char *unknown_tables(const gc_desc *ird, struct gc_table_columns *cache)
{
    char *out = malloc((size_t)ird->count * 12 + 3);
    if (out == NULL)
        return NULL;
    size_t len = 0;
    out[len++] = '{';
    for (int i = 0; i < ird->count; i++) {
        const gc_desc_rec *r = &ird->recs[i];
        if (from_table(r) && table_of(cache, r->pg_table) == NULL)
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

/* Asks the server for the names and columns of `tables` (an array literal);
 * NULL when the lookup failed. A failed lookup only leaves the fields as
 * they were: its diagnostics go to a scratch list and s's own records stay
 * (a descriptor call must not change them). */
static PGresult *ask_tables(gc_stmt *s, const char *tables)
{
    const char *values[] = { tables };
    gc_diag kept;
    gc_diag_set_aside(&s->h.diag, &kept);
    PGresult *res = gc_cursor_run_catalog(s,
        "SELECT c.oid, n.nspname, c.relname, a.attnum, a.attnotnull, a.attname"
        " FROM pg_catalog.pg_class c"
        " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
        " JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid"
        " WHERE a.attnum > 0 AND NOT a.attisdropped AND c.oid = ANY ($1::pg_catalog.oid[])"
        " ORDER BY c.oid, a.attnum",
        1, values);
    gc_diag_take_back(&s->h.diag, &kept, NULL, SQL_NO_ROW_NUMBER);
    return res;
}

/* Adds the IRD's tables and the answer's columns to `cache`; false when
 * out of memory (the caller drops the cache). */
static bool learn(struct gc_table_columns *cache, const gc_desc *ird, const PGresult *res)
{
    int n = PQntuples(res);
    known_column *grown = realloc(cache->columns,
                                  (size_t)(cache->ncolumns + n + 1) * sizeof *grown);
    if (grown == NULL)
        return false;
    cache->columns = grown;
    for (int i = 0; i < ird->count; i++) {
        Oid table = ird->recs[i].pg_table;
        if (from_table(&ird->recs[i]) && table_of(cache, table) == NULL)
            cache->tables[cache->ntables++] = (known_table){ table, NULL, NULL, 0, 0 };
    }
    for (int row = 0; row < n; row++) {
        Oid table = (Oid)strtoul(PQgetvalue(res, row, 0), NULL, 10);
        known_table *t = table_of(cache, table);
        if (t == NULL)
            continue;
        if (t->name == NULL) {
            t->schema = strdup(PQgetvalue(res, row, 1));
            t->name = strdup(PQgetvalue(res, row, 2));
            t->first = cache->ncolumns;
            if (t->schema == NULL || t->name == NULL)
                return false;
        }
        known_column *col = &cache->columns[cache->ncolumns];
        *col = (known_column){ table, atoi(PQgetvalue(res, row, 3)),
                               PQgetvalue(res, row, 4)[0] == 't',
                               strdup(PQgetvalue(res, row, 5)) };
        if (col->name == NULL)
            return false;
        cache->ncolumns++;
        t->ncolumns++;
    }
    return true;
}

/* The connection's answers about the IRD's tables, asked for those it
 * lacks; NULL when they cannot be had now (see the top of the file). */
static struct gc_table_columns *known_tables(gc_stmt *s)
{
    gc_conn *c = s->conn;
    const gc_session *m = NULL;
    unsigned long generation = 0;
    if (c->kind->several_sessions) {
        if (!gc_result_described_by_current_session(s))
            return NULL;
        m = s->ird_member;
        generation = s->ird_generation;
    }
    if (c->session == NULL)
        return NULL;
    struct gc_table_columns *cache = current_cache(c, m, generation);
    if (cache != NULL && cache->ntables + s->ird->count > MAX_TABLES) {
        gc_conn_forget_table_columns(c);   /* no room for this result's tables */
        cache = current_cache(c, m, generation);
    }
    if (cache == NULL)
        return NULL;
    char *tables = unknown_tables(s->ird, cache);
    if (tables == NULL)
        return cache;
    PGresult *res = may_ask_server(s) ? ask_tables(s, tables) : NULL;
    free(tables);
    bool learnt = res != NULL && learn(cache, s->ird, res);
    PQclear(res);
    if (res != NULL && !learnt)
        gc_conn_forget_table_columns(c);
    return learnt ? c->table_columns : NULL;
}

void gc_stmt_resolve_nullability(gc_stmt *s)
{
    if (s->nullability_known)
        return;
    s->nullability_known = true;
    if (s->sql == NULL || text_may_null_columns(s->sql))
        return;
    struct gc_table_columns *cache = known_tables(s);
    for (int i = 0; cache != NULL && i < s->ird->count; i++) {
        gc_desc_rec *r = &s->ird->recs[i];
        const known_table *t;
        const known_column *col = source_column(cache, r, &t);
        if (col != NULL && col->not_null)
            r->nullable = SQL_NO_NULLS;
    }
}

void gc_stmt_resolve_origins(gc_stmt *s)
{
    if (s->origins_known)
        return;
    s->origins_known = true;
    if (s->sql == NULL)
        return;
    struct gc_table_columns *cache = known_tables(s);
    for (int i = 0; cache != NULL && i < s->ird->count; i++) {
        gc_desc_rec *r = &s->ird->recs[i];
        const known_table *t;
        const known_column *col = source_column(cache, r, &t);
        if (col == NULL)
            continue;
        gc_desc_rec_forget_origin(r);
        r->origin.catalog = strdup(cache->database);
        r->origin.schema = strdup(t->schema);
        r->origin.table = strdup(t->name);
        r->origin.column = strdup(col->name);
        if (r->origin.catalog == NULL || r->origin.schema == NULL || r->origin.table == NULL ||
            r->origin.column == NULL)
            gc_desc_rec_forget_origin(r);
    }
}
