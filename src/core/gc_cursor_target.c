/*
 * gc_cursor_target: which table a static cursor writes to, and the helper
 * statement its catalog query and its writes run on.
 */
#include <stdlib.h>
#include <string.h>

#include "core/gc_cursor_target.h"

/* The table's name, and per column its number, quoted name and whether it
 * is in the primary key. */
static const char target_sql[] =
    "SELECT c.oid::regclass::text, a.attnum, quote_ident(a.attname),"
    "       coalesce(a.attnum = ANY (i.indkey::int2[]), false)"
    "  FROM pg_class c"
    "  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped"
    "  LEFT JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary"
    " WHERE c.oid = $1::oid";

void gc_cursor_target_free(gc_write_target *t)
{
    if (t == NULL)
        return;
    for (int i = 0; i < t->ncols; i++)
        free(t->column[i]);
    free(t->column);
    free(t->key);
    free(t->table);
    free(t);
}

/* Copies the helper statement's diagnostics to s. */
static void copy_diagnostics(gc_stmt *s, const gc_stmt *helper)
{
    for (int i = 0; i < helper->h.diag.count; i++) {
        const gc_diag_record *r = &helper->h.diag.records[i];
        gc_diag_add(&s->h.diag, r->sqlstate, r->native, "%s", r->message != NULL ? r->message : "");
    }
}

PGresult *gc_cursor_run(gc_stmt *s, const char *sql, int nparams,
                        const char *const *values, SQLLEN *row_count)
{
    gc_stmt *helper = NULL;
    if (gc_stmt_create(s->conn, &helper) != SQL_SUCCESS) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return NULL;
    }
    PGresult *res = NULL;
    SQLRETURN rc = gc_stmt_exec_catalog(helper, sql, nparams, values);
    if (SQL_SUCCEEDED(rc)) {
        gc_session_end_streaming(&s->conn->session_owner);      /* the whole result into memory */
        if (helper->set_error != NULL) {
            gc_diag_add_result(&s->h.diag, helper->set_error);
        } else if (helper->state == GC_STMT_CURSOR) {
            res = helper->block;
            helper->block = NULL;
        } else {
            res = PQmakeEmptyPGresult(NULL, PGRES_COMMAND_OK);
        }
        if (row_count != NULL)
            *row_count = helper->row_count;
    } else {
        copy_diagnostics(s, helper);
    }
    gc_stmt_destroy(helper);
    if (res == NULL && !gc_diag_has_records(&s->h.diag))
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
    return res;
}

/* The one table the set's columns come from; 0 with diagnostics if none or several. */
static Oid set_table(gc_stmt *s)
{
    Oid table = InvalidOid;
    for (int c = 0; c < PQnfields(s->block); c++) {
        Oid t = PQftable(s->block, c);
        if (t == InvalidOid)
            continue;
        if (table != InvalidOid && t != table) {
            gc_diag_add(&s->h.diag, "HY000", 0,
                        "the cursor's columns come from several tables: it cannot change rows");
            return InvalidOid;
        }
        table = t;
    }
    if (table == InvalidOid)
        gc_diag_add(&s->h.diag, "HY000", 0,
                    "the cursor's columns come from no table: it cannot change rows");
    return table;
}

/* Fills t's columns from the catalog rows; false when the select list has
 * neither the table's whole primary key nor all the table's columns. */
static bool match_columns(gc_stmt *s, gc_write_target *t, Oid table, const PGresult *cat)
{
    int keys_in_table = 0, keys_seen = 0, columns_seen = 0;
    for (int r = 0; r < PQntuples(cat); r++) {
        bool key = PQgetvalue(cat, r, 3)[0] == 't';
        keys_in_table += key;
        int attnum = atoi(PQgetvalue(cat, r, 1));
        bool seen = false;
        for (int c = 0; c < t->ncols; c++) {
            if (PQftable(s->block, c) != table || PQftablecol(s->block, c) != attnum)
                continue;
            if (t->column[c] == NULL && (t->column[c] = strdup(PQgetvalue(cat, r, 2))) == NULL) {
                gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
                return false;
            }
            t->key[c] = key;
            seen = true;
        }
        keys_seen += key && seen;
        columns_seen += seen;
    }
    if (keys_in_table > 0 && keys_seen == keys_in_table)
        return true;
    if (columns_seen == PQntuples(cat)) {
        t->by_values = true;
        memset(t->key, 0, (size_t)t->ncols * sizeof *t->key);
        return true;
    }
    gc_diag_add(&s->h.diag, "HY000", 0,
                "the cursor cannot change rows of %s: its primary key columns (or, "
                "without a primary key, all its columns) must be in the select list", t->table);
    return false;
}

/* Looks the target up in the catalog. */
static gc_write_target *find_target(gc_stmt *s)
{
    Oid table = set_table(s);
    if (table == InvalidOid)
        return NULL;
    char oid_text[16];
    snprintf(oid_text, sizeof oid_text, "%u", table);
    const char *values[] = { oid_text };
    PGresult *cat = gc_cursor_run(s, target_sql, 1, values, NULL);
    if (cat == NULL)
        return NULL;
    gc_write_target *t = calloc(1, sizeof *t);
    int n = PQnfields(s->block);
    if (t != NULL) {
        t->ncols = n;
        t->column = calloc((size_t)n + 1, sizeof *t->column);
        t->key = calloc((size_t)n + 1, sizeof *t->key);
        t->table = strdup(PQntuples(cat) > 0 ? PQgetvalue(cat, 0, 0) : "");
    }
    bool ok = t != NULL && t->column != NULL && t->key != NULL && t->table != NULL;
    if (!ok)
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
    if (ok && PQntuples(cat) == 0) {
        gc_diag_add(&s->h.diag, "HY000", 0, "the cursor's table no longer exists");
        ok = false;
    }
    ok = ok && match_columns(s, t, table, cat);
    PQclear(cat);
    if (!ok) {
        gc_cursor_target_free(t);
        return NULL;
    }
    return t;
}

const gc_write_target *gc_cursor_target(gc_stmt *s)
{
    if (s->scroll.target == NULL)
        s->scroll.target = find_target(s);
    return s->scroll.target;
}
