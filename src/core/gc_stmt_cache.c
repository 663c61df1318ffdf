/*
 * gc_stmt_cache: see gc_stmt_cache.h.
 */
#include "core/gc_stmt_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gc_conn.h"
#include "core/gc_conn_kind.h"
#include "core/gc_stmt.h"
#include "sql/gc_sql_lexer.h"

/* DEALLOCATE of st on m when m holds it and can take it now (a statement
 * streaming there is buffered first). Otherwise it lives until the session
 * ends, which is harmless: names are never reused. */
static void deallocate_on(gc_conn *c, const gc_server_stmt *st, gc_session *m)
{
    if (m == NULL || !gc_session_is_open(m) || !c->kind->holds(c, st, m))
        return;
    PGTransactionStatusType ts = gc_session_idle_txn_status(&c->session_owner, m);
    if (ts != PQTRANS_IDLE && ts != PQTRANS_INTRANS)
        return;
    char sql[96];
    if (st->xid_twin > 0)
        snprintf(sql, sizeof sql, "DEALLOCATE %s; DEALLOCATE %sx", st->name, st->name);
    else
        snprintf(sql, sizeof sql, "DEALLOCATE %s", st->name);
    gc_error err;
    gc_error_clear(&err);
    PQclear(gc_session_exec(m, sql, &err));
}

/* Deallocates st on every session that holds it, and empties it. */
static void deallocate(gc_conn *c, gc_server_stmt *st)
{
    if (st->name[0] != '\0' && !c->stmt_cache.closing) {
        for (int i = 0; i < c->kind->session_count(c); i++)
            deallocate_on(c, st, c->kind->session_at(c, i));
    }
    gc_server_stmt_clear(st);
}

void gc_stmt_cache_discard(gc_stmt *s)
{
    deallocate(s->conn, &s->server);
}

/* Takes entry i out of the cache (its server statement is the caller's). */
static void remove_entry(gc_stmt_cache *cache, int i)
{
    free(cache->entries[i].sql);
    cache->entries[i] = cache->entries[--cache->n];
}

/* Deallocates entry i (not while closing) and takes it out. */
static void drop_entry(gc_conn *c, int i)
{
    deallocate(c, &c->stmt_cache.entries[i].server);
    remove_entry(&c->stmt_cache, i);
}

/* Drops every entry. */
static void drop_all(gc_conn *c)
{
    while (c->stmt_cache.n > 0)
        drop_entry(c, c->stmt_cache.n - 1);
}

void gc_stmt_cache_release(gc_stmt *s)
{
    gc_conn *c = s->conn;
    gc_stmt_cache *cache = &c->stmt_cache;
    /* A statement made before DDL ran may describe rows the table no
     * longer has (the server refuses it, "cached plan must not change
     * result type"): the next SQLPrepare of its text makes a new one. */
    bool current = s->server.schema_epoch == cache->schema_epoch;
    char *sql = s->server.name[0] != '\0' && s->sql != NULL && !cache->closing && current
                    ? strdup(s->sql) : NULL;
    if (sql == NULL) {
        deallocate(c, &s->server);
        return;
    }
    if (cache->n == GC_STMT_CACHE_SIZE) {
        int oldest = 0;
        for (int i = 1; i < cache->n; i++)
            if (cache->entries[i].parked_at < cache->entries[oldest].parked_at)
                oldest = i;
        drop_entry(c, oldest);
    }
    gc_parked_stmt *e = &cache->entries[cache->n++];
    e->sql = sql;
    e->server = s->server;
    e->parked_at = ++cache->clock;
    memset(&s->server, 0, sizeof s->server);
}

/* Whether st was prepared with exactly these parameter types. A parked
 * statement must match exactly: one prepared with `int2` would "fit" a
 * value whose type is left to the server, and then read it as int2. */
static bool same_types(const gc_server_stmt *st, int n, const Oid *types)
{
    if (st->nparams != n)
        return false;
    for (int i = 0; i < n; i++)
        if ((st->param_types ? st->param_types[i] : 0) != (types ? types[i] : 0))
            return false;
    return true;
}

bool gc_stmt_cache_take(gc_stmt *s, const Oid *types)
{
    gc_stmt_cache *cache = &s->conn->stmt_cache;
    for (int i = 0; i < cache->n; i++) {
        gc_parked_stmt *e = &cache->entries[i];
        if (strcmp(e->sql, s->sql) != 0 || !same_types(&e->server, s->nparams, types))
            continue;
        gc_server_stmt_clear(&s->server);
        s->server = e->server;
        remove_entry(cache, i);
        return true;
    }
    return false;
}

bool gc_stmt_cache_text_keeps(const char *sql)
{
    static const char *const harmless[] = {
        "select", "insert", "update", "delete", "merge", "with", "values", "table",
        "begin", "start", "commit", "end", "rollback", "abort", "savepoint", "release",
        "set", "reset", "show",
    };
    gc_sql_lexer lx;
    gc_sql_lexer_init(&lx, sql, strlen(sql));
    gc_sql_token tok;
    bool more;
    while ((more = gc_sql_lexer_next_code(&lx, &tok)) && gc_sql_token_is_punct(&lx, &tok, '('))
        ;
    for (size_t i = 0; more && i < sizeof harmless / sizeof harmless[0]; i++)
        if (gc_sql_token_is_keyword(&lx, &tok, harmless[i]))
            return true;
    return false;
}

void gc_stmt_cache_before_exec(gc_stmt *s)
{
    if (!s->keeps_parked_statements) {
        s->conn->stmt_cache.schema_epoch++;
        drop_all(s->conn);
    }
}

void gc_stmt_cache_close(gc_conn *c)
{
    c->stmt_cache.closing = true;    /* so drop_all deallocates nothing */
    drop_all(c);
}

void gc_stmt_cache_open(gc_conn *c)
{
    gc_stmt_cache_close(c);
    c->stmt_cache.closing = false;
    c->stmt_cache.clock = 0;
}
