/*
 * gc_cursor_target: which table a static cursor writes to, and the helper
 * statement its catalog query and its writes run on.
 */
#include <stdlib.h>
#include <string.h>

#include "core/gc_conn_kind.h"
#include "core/gc_cursor_target.h"

/* The table's name, and per column its number, quoted name, whether it is
 * in the primary key and whether the table is partitioned. With $2, a
 * partitioned table without a primary key of its own takes that of one of
 * its partitions: a global connection's sharded table has its key on its
 * local shards alone (a parent with foreign partitions can have no unique
 * index), and the key includes the sharding key, so it is unique across
 * the shards. */
static const char target_sql[] =
    "WITH primary_key AS ("
    "  SELECT i.indrelid, i.indkey FROM pg_index i"
    "   WHERE i.indisprimary AND (i.indrelid = $1::oid OR ($2::bool AND i.indrelid IN"
    "         (SELECT inhrelid FROM pg_inherits WHERE inhparent = $1::oid)))"
    "   ORDER BY i.indrelid = $1::oid DESC LIMIT 1)"
    "SELECT c.oid::regclass::text, a.attnum, quote_ident(a.attname),"
    "       coalesce(a.attname IN (SELECT k.attname FROM primary_key p JOIN pg_attribute k"
    "           ON k.attrelid = p.indrelid AND k.attnum = ANY (p.indkey::int2[])), false),"
    "       c.relkind = 'p', c.relkind = 'f', n.nspname, c.relname"
    "  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
    "  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped"
    " WHERE c.oid = $1::oid";

void gc_cursor_target_free(gc_write_target *t)
{
    if (t == NULL)
        return;
    for (int i = 0; i < t->ncols; i++)
        free(t->column[i]);
    free(t->column);
    free(t->key);
    free(t->attnum);
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

/* Runs sql on `helper` as the application's prepared statement would run:
 * on a global connection routed by the key its WHERE or VALUES gives, so a
 * row is changed on its owner group, joining the open transaction there.
 * The values go as text of a type the server infers; SQL_NO_DATA (no row
 * changed) is a result like any other. */
static SQLRETURN exec_as_application(gc_stmt *helper, const char *sql, int nparams,
                                     const char *const *values)
{
    SQLRETURN rc = gc_stmt_prepare(helper, sql, SQL_NTS);
    SQLLEN *indicators = calloc((size_t)nparams + 1, sizeof *indicators);
    if (indicators == NULL) {
        gc_diag_add(&helper->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    for (int i = 0; i < nparams && SQL_SUCCEEDED(rc); i++) {
        indicators[i] = values[i] != NULL ? SQL_NTS : SQL_NULL_DATA;
        rc = gc_stmt_bind_parameter(helper, (SQLUSMALLINT)(i + 1), SQL_PARAM_INPUT, SQL_C_CHAR,
                                    SQL_VARCHAR, 0, 0, (SQLPOINTER)values[i], 0,
                                    &indicators[i]);
    }
    if (SQL_SUCCEEDED(rc))
        rc = gc_stmt_execute(helper);
    free(indicators);
    return rc == SQL_NO_DATA ? SQL_SUCCESS : rc;
}

/* Runs sql with text parameters on a helper statement of s's connection,
 * routed like the application's statement or as the driver's catalog
 * query on the connection's current session. */
static PGresult *run_helper(gc_stmt *s, bool routed, bool outside_transaction, const char *sql,
                            int nparams, const char *const *values, SQLLEN *row_count)
{
    gc_stmt *helper = NULL;
    if (gc_stmt_create(s->conn, &helper) != SQL_SUCCESS) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return NULL;
    }
    PGresult *res = NULL;
    SQLRETURN rc = routed ? exec_as_application(helper, sql, nparams, values)
                          : gc_stmt_exec_catalog(helper, sql, nparams, values,
                                                 outside_transaction);
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

PGresult *gc_cursor_run(gc_stmt *s, const char *sql, int nparams, const char *const *values,
                        SQLLEN *row_count)
{
    return run_helper(s, s->conn->kind->several_sessions, false, sql, nparams, values, row_count);
}

PGresult *gc_cursor_run_catalog(gc_stmt *s, const char *sql, int nparams,
                                const char *const *values)
{
    return run_helper(s, false, false, sql, nparams, values, NULL);
}

/* The one table the set's columns come from, by `origins` (the set, or
 * its statement's description: set_origins); 0 with diagnostics if none or
 * several. */
static Oid set_table(gc_stmt *s, const PGresult *origins)
{
    Oid table = InvalidOid;
    for (int c = 0; c < PQnfields(origins); c++) {
        Oid t = PQftable(origins, c);
        if (t == InvalidOid)
            continue;
        if (table != InvalidOid && t != table) {
            gc_diag_add(&s->h.diag, "HY000", 0,
                        "the cursor's columns come from several tables: it cannot change rows");
            return InvalidOid;
        }
        table = t;
    }
    if (table == InvalidOid) {
        gc_diag_add(&s->h.diag, "HY000", 0,
                    "the cursor's columns come from no table: it cannot change rows");
    } else if (s->conn->kind->several_sessions && !gc_result_described_by_current_session(s)) {
        /* Each member has its own oids: only the member that described the
         * set can tell which table it names. */
        if (s->spans_groups)
            gc_diag_add(&s->h.diag, "HY000", 0,
                        "the cursor cannot change rows: its rows were read from several groups' "
                        "members");
        else
            gc_diag_add(&s->h.diag, "HY000", 0,
                        "the cursor cannot change rows: its table is no longer known to the "
                        "member the connection uses now; execute the SELECT again");
        table = InvalidOid;
    }
    return table;
}

/* Whether the quoted column name is one of owner_keys' rows. */
static bool owner_key(const PGresult *owner_keys, const char *column)
{
    for (int r = 0; owner_keys != NULL && r < PQntuples(owner_keys); r++)
        if (strcmp(PQgetvalue(owner_keys, r, 0), column) == 0)
            return true;
    return false;
}

/* Fills t's columns from the catalog rows; false when the select list has
 * neither the table's whole primary key nor all the table's columns. A
 * column owner_keys names (owner_key_names) is a key column too. */
static bool match_columns(gc_stmt *s, gc_write_target *t, Oid table, const PGresult *origins,
                          const PGresult *cat, const PGresult *owner_keys)
{
    int keys_in_table = 0, keys_seen = 0, columns_seen = 0;
    for (int r = 0; r < PQntuples(cat); r++) {
        bool key = PQgetvalue(cat, r, 3)[0] == 't' || owner_key(owner_keys, PQgetvalue(cat, r, 2));
        keys_in_table += key;
        int attnum = atoi(PQgetvalue(cat, r, 1));
        bool seen = false;
        for (int c = 0; c < t->ncols; c++) {
            if (PQftable(origins, c) != table || PQftablecol(origins, c) != attnum)
                continue;
            if (t->column[c] == NULL && (t->column[c] = strdup(PQgetvalue(cat, r, 2))) == NULL) {
                gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
                return false;
            }
            t->key[c] = key;
            t->attnum[c] = attnum;
            seen = true;
        }
        keys_seen += key && seen;
        columns_seen += seen;
    }
    if (keys_in_table > 0 && keys_seen == keys_in_table)
        return true;
    /* A global connection finds a sharded table's row in its owner group by
     * the key: found by its values it would be looked for in every group. */
    bool partitioned = PQntuples(cat) > 0 && PQgetvalue(cat, 0, 4)[0] == 't';
    if (s->conn->kind->several_sessions && partitioned) {
        gc_diag_add(&s->h.diag, "HY000", 0,
                    "the cursor cannot change rows of %s: %s (a global connection finds a row "
                    "of a partitioned table, and the group that owns it, by the primary key)",
                    t->table,
                    keys_in_table > 0 ? "its primary key columns must be in the select list"
                                      : "the table has no primary key");
        return false;
    }
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

/* The quoted names of the primary key's columns of a solo table's owner
 * group: a global connection that read the table through postgres_fdw
 * described its foreign twin, which PostgreSQL gives no key. Asked where
 * catalog functions ask (gc_catalog_owner.c): a member of the owner group,
 * outside the transaction unless it joined that group. NULL when there is
 * nothing to ask (a general connection, a table with a key of its own). */
static PGresult *owner_key_names(gc_stmt *s, const PGresult *cat)
{
    static const char key_sql[] =
        "SELECT quote_ident(a.attname) FROM pg_index i JOIN pg_attribute a"
        "    ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey::int2[])"
        " WHERE i.indisprimary"
        "   AND i.indrelid = to_regclass(quote_ident($1) || '.' || quote_ident($2))";
    gc_conn *c = s->conn;
    bool twin = PQntuples(cat) > 0 && PQgetvalue(cat, 0, 5)[0] == 't';
    for (int r = 0; r < PQntuples(cat) && twin; r++)
        twin = PQgetvalue(cat, r, 3)[0] != 't';
    if (!c->kind->several_sessions || !twin)
        return NULL;
    const char *schema = PQgetvalue(cat, 0, 6), *name = PQgetvalue(cat, 0, 7);
    bool outside = c->kind->catalog_on_owner(c, schema, name);
    const char *values[] = { schema, name };
    return run_helper(s, false, outside, key_sql, 2, values, NULL);
}

/* Where the set's columns come from: the set itself (libpq's PQftable),
 * or, for a split read, whose rows came by a text of the driver's own that
 * brings other members' rows as values, the statement as written,
 * described on its member (*described: the caller's to PQclear). NULL
 * with diagnostics. */
static const PGresult *set_origins(gc_stmt *s, PGresult **described)
{
    *described = NULL;
    if (!s->split_read)
        return s->block;
    *described = gc_exec_describe_as_written(s);
    if (*described != NULL && PQnfields(*described) != PQnfields(s->block)) {
        gc_diag_add(&s->h.diag, "HY000", 0, "the cursor cannot change rows: its statement "
                    "describes other columns than it read");
        PQclear(*described);
        *described = NULL;
    }
    return *described;
}

/* Looks the target up in the catalog. */
static gc_write_target *find_target(gc_stmt *s)
{
    PGresult *described;
    const PGresult *origins = set_origins(s, &described);
    Oid table = origins != NULL ? set_table(s, origins) : InvalidOid;
    if (table == InvalidOid) {
        PQclear(described);
        return NULL;
    }
    char oid_text[16];
    snprintf(oid_text, sizeof oid_text, "%u", table);
    const char *values[] = { oid_text, s->conn->kind->several_sessions ? "true" : "false" };
    PGresult *cat = gc_cursor_run_catalog(s, target_sql, 2, values);
    if (cat == NULL) {
        PQclear(described);
        return NULL;
    }
    gc_write_target *t = calloc(1, sizeof *t);
    int n = PQnfields(s->block);
    if (t != NULL) {
        t->ncols = n;
        t->column = calloc((size_t)n + 1, sizeof *t->column);
        t->key = calloc((size_t)n + 1, sizeof *t->key);
        t->attnum = calloc((size_t)n + 1, sizeof *t->attnum);
        t->table = strdup(PQntuples(cat) > 0 ? PQgetvalue(cat, 0, 0) : "");
    }
    bool ok = t != NULL && t->column != NULL && t->key != NULL && t->attnum != NULL &&
              t->table != NULL;
    if (!ok)
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
    if (ok && PQntuples(cat) == 0) {
        gc_diag_add(&s->h.diag, "HY000", 0, "the cursor's table no longer exists");
        ok = false;
    }
    PGresult *owner_keys = ok ? owner_key_names(s, cat) : NULL;
    ok = ok && match_columns(s, t, table, origins, cat, owner_keys);
    PQclear(owner_keys);
    PQclear(cat);
    PQclear(described);
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
