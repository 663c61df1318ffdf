/*
 * gc_nullability: SQL_NO_NULLS for a result column that is a NOT NULL column
 * of a table, as psqlODBC reports it. The server's description names each
 * column's table and column number (PQftable, PQftablecol) but not whether it
 * takes NULL, so the driver asks pg_attribute once per described result, and
 * only when the application asks for nullability (SQLDescribeCol,
 * SQLColAttribute, SQLGetDescField / SQLGetDescRec on the IRD).
 *
 * A column stays SQL_NULLABLE when the driver cannot be sure: the text has an
 * outer join, a set operation or grouping sets (which make NULLs of NOT NULL
 * columns), the connection is global (table oids differ between members),
 * another result is still streaming on the session (asking would read it all
 * into memory), or the transaction has failed. docs/psqlodbc-differences.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gc_cursor_target.h"
#include "core/gc_stmt.h"
#include "sql/gc_sql_lexer.h"

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

/* Whether asking the server now is safe and cheap: a general connection, a
 * session not streaming another set, a transaction that has not failed. */
static bool may_ask_server(const gc_stmt *s)
{
    const gc_conn *c = s->conn;
    if (c->global != NULL || c->session == NULL)
        return false;
    if (gc_member_txn_status(c->session) == PQTRANS_INERROR)
        return false;
    for (const gc_stmt *o = c->statements; o != NULL; o = o->next_in_conn)
        if (o->owns_session && !o->set_complete)
            return false;
    return true;
}

/* The array literal of the tables the IRD's columns come from ('{1,2}'),
 * malloc'd; NULL when no column comes from a table or out of memory. */
static char *table_array(const gc_desc *ird)
{
    char *out = malloc((size_t)ird->count * 12 + 3);
    if (out == NULL)
        return NULL;
    size_t len = 0;
    out[len++] = '{';
    for (int i = 0; i < ird->count; i++) {
        const gc_desc_rec *r = &ird->recs[i];
        if (r->pg_table != InvalidOid && r->pg_table_column > 0)
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

/* Marks SQL_NO_NULLS the IRD columns that are one of the NOT NULL columns
 * listed in `notnull` (rows of table oid, column number). */
static void mark_not_null(gc_desc *ird, const PGresult *notnull)
{
    for (int row = 0; row < PQntuples(notnull); row++) {
        Oid table = (Oid)strtoul(PQgetvalue(notnull, row, 0), NULL, 10);
        int column = atoi(PQgetvalue(notnull, row, 1));
        for (int i = 0; i < ird->count; i++) {
            gc_desc_rec *r = &ird->recs[i];
            if (r->pg_table == table && r->pg_table_column == column)
                r->nullable = SQL_NO_NULLS;
        }
    }
}

void gc_stmt_resolve_nullability(gc_stmt *s)
{
    if (s->nullability_known)
        return;
    s->nullability_known = true;
    if (s->sql == NULL || !may_ask_server(s) || text_may_null_columns(s->sql))
        return;
    char *tables = table_array(s->ird);
    if (tables == NULL)
        return;
    const char *values[] = { tables };
    /* A failed lookup only makes the answer less precise: its diagnostics go
     * to a scratch list, and the statement's own records stay as they were
     * (a descriptor call must not change them). */
    gc_diag kept = s->h.diag;
    gc_diag_init(&s->h.diag);
    PGresult *notnull = gc_cursor_run(s,
        "SELECT attrelid, attnum FROM pg_catalog.pg_attribute"
        " WHERE attnotnull AND attnum > 0 AND attrelid = ANY ($1::pg_catalog.oid[])",
        1, values, NULL);
    gc_diag_free(&s->h.diag);
    s->h.diag = kept;
    free(tables);
    if (notnull == NULL)
        return;
    mark_not_null(s->ird, notnull);
    PQclear(notnull);
}
