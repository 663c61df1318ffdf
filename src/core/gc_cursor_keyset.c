/*
 * gc_cursor_keyset: keyset-driven cursors. The set is buffered at the first
 * fetch as for a static cursor, and the keyset is the primary key values of
 * its rows (the key gc_cursor_target finds for writing rows back). Each
 * rowset a fetch or SQLSetPos(SQL_REFRESH) delivers is first re-read from
 * the server by key, in one query per rowset:
 *   SELECT <table columns of the select list> FROM t WHERE (key) IN ((..), ...)
 * A row whose values changed since the cursor last read it gets the new
 * values and reports SQL_ROW_UPDATED from then on; a row whose key is gone
 * reports SQL_ROW_DELETED. Rows others insert are not in the keyset.
 * A table without a primary key whose every column is in the select list
 * is keyed by all those values (as gc_cursor_target finds such rows to
 * write them), compared with IS NOT DISTINCT FROM so NULLs match.
 * A set that has no such key (a join, neither the key nor every column in
 * the select list, a computed-only list) gets a static cursor, 01S02.
 * On a global connection each row is re-read by a query of its own, keyed
 * and routed as the application's would be: to its owner group, where the
 * open transaction sees its own changes.
 * The re-read also reads each row's xmin (SQL_CONCUR_ROWVER: the row's
 * version) or locks the rows (SQL_CONCUR_LOCK: FOR UPDATE, in a
 * transaction); SQLSetPos(SQL_LOCK_EXCLUSIVE) locks rows the same way.
 */
#include <stdlib.h>
#include <string.h>

#include "core/gc_conn_kind.h"
#include "core/gc_cursor.h"
#include "core/gc_cursor_target.h"
#include "util/gc_strbuf.h"

/* The set's table, looked up without a word: the reasons a lookup gives
 * become one 01S02 that names the fallback, or are said by the change
 * that needs the table. (The lookup's records are set aside, not cut off
 * by count: a record files itself in ODBC's order, before warnings the
 * call already has.) */
static const gc_write_target *quiet_target(gc_stmt *s)
{
    gc_diag kept;
    gc_diag_set_aside(&s->h.diag, &kept);
    const gc_write_target *t = gc_cursor_target(s);
    gc_diag_take_back(&s->h.diag, &kept, NULL, 0);
    return t;
}

/* Whether a column of the table shows twice in the set: a self-join most
 * likely (libpq names the same table for both sides), whose rows are not
 * the table's rows, so re-reading them by key would be wrong. */
static bool column_twice(const gc_write_target *t)
{
    for (int c = 0; c < t->ncols; c++) {
        for (int d = c + 1; d < t->ncols && t->column[c] != NULL; d++) {
            if (t->column[d] != NULL && t->attnum[c] == t->attnum[d])
                return true;
        }
    }
    return false;
}

/* Makes the cursor static when the set has no key to re-read rows by;
 * 01S02 then. */
static SQLRETURN keep_keyset(gc_stmt *s)
{
    const char *why = NULL;
    const gc_write_target *t = quiet_target(s);
    if (t == NULL && s->spans_groups)
        why = "its rows were read from several groups' members";
    else if (t == NULL)
        why = "the select list must come from one table and hold its primary key "
              "(or, without one, all its columns)";
    else if (column_twice(t))
        why = "a column of the table is twice in the select list (a self-join?)";
    if (why == NULL)
        return SQL_SUCCESS;
    s->cursor_type = SQL_CURSOR_STATIC;
    gc_diag_add(&s->h.diag, "01S02", 0,
                "option value changed: the keyset-driven cursor became static: %s", why);
    return SQL_SUCCESS_WITH_INFO;
}

/* Concurrency the cursor cannot give becomes SQL_CONCUR_VALUES, 01S02:
 * row versions are read with each rowset's re-read and locks taken by it,
 * so both need a keyset cursor, and a lock lasts only as long as the
 * transaction (autocommit off) it is taken in. */
static SQLRETURN keep_concurrency(gc_stmt *s)
{
    const char *why = NULL;
    bool keyset = s->cursor_type == SQL_CURSOR_KEYSET_DRIVEN;
    if (s->concurrency == SQL_CONCUR_ROWVER && !keyset)
        why = "SQL_CONCUR_ROWVER needs a keyset-driven cursor";
    else if (s->concurrency == SQL_CONCUR_LOCK && !keyset)
        why = "SQL_CONCUR_LOCK needs a keyset-driven cursor";
    else if (s->concurrency == SQL_CONCUR_LOCK && s->conn->autocommit)
        why = "SQL_CONCUR_LOCK needs a transaction (autocommit off): PostgreSQL keeps a row "
              "lock until the transaction ends";
    if (why == NULL)
        return SQL_SUCCESS;
    s->concurrency = SQL_CONCUR_VALUES;
    gc_diag_add(&s->h.diag, "01S02", 0, "option value changed: %s; SQL_CONCUR_VALUES instead",
                why);
    return SQL_SUCCESS_WITH_INFO;
}

SQLRETURN gc_keyset_open(gc_stmt *s)
{
    if (s->scroll.keyset_checked)
        return SQL_SUCCESS;
    s->scroll.keyset_checked = true;
    SQLRETURN rc = SQL_SUCCESS;
    if (s->cursor_type == SQL_CURSOR_KEYSET_DRIVEN)
        rc = keep_keyset(s);
    if (s->concurrency == SQL_CONCUR_ROWVER || s->concurrency == SQL_CONCUR_LOCK) {
        if (keep_concurrency(s) != SQL_SUCCESS)
            rc = SQL_SUCCESS_WITH_INFO;
    }
    /* On a global connection only the member that described the set knows
     * its table's oid: the table is looked up now, for the changes to come
     * (a failure is reported by the change that needs the table). */
    if (s->conn->kind->several_sessions && s->concurrency != SQL_CONCUR_READ_ONLY &&
        s->scroll.target == NULL)
        (void)quiet_target(s);
    return rc;
}

SQLRETURN gc_keyset_open_at_execute(gc_stmt *s, SQLRETURN rc)
{
    bool reads_by_key = s->cursor_type == SQL_CURSOR_KEYSET_DRIVEN ||
                        s->concurrency != SQL_CONCUR_READ_ONLY;
    if (!SQL_SUCCEEDED(rc) || s->state != GC_STMT_CURSOR || !gc_cursor_scrollable(s) ||
        !reads_by_key)
        return rc;
    /* The lookup runs on the same session: the set is read whole first,
     * as the first fetch of a scrollable cursor would. An error that ended
     * the set is the fetch's to report (gc_cursor_buffer). */
    if (!gc_cursor_read_whole(s) || s->set_error != NULL)
        return rc;
    return gc_keyset_open(s) == SQL_SUCCESS ? rc : SQL_SUCCESS_WITH_INFO;
}

/* Whether column c of the set is part of the key rows are re-read by: the
 * primary key's columns, or every table column when there is no key. */
static bool is_key(const gc_write_target *t, int c)
{
    return t->by_values ? t->column[c] != NULL : t->key[c];
}

/* Whether result row r of `res` (columns: the table columns of the set, in
 * set order) has the key of block row `row`. */
static bool same_key(const gc_stmt *s, const gc_write_target *t, int row, const PGresult *res,
                     int r)
{
    for (int c = 0, rc = 0; c < t->ncols; c++) {
        if (t->column[c] == NULL)
            continue;
        if (is_key(t, c) &&
            (PQgetisnull(s->block, row, c) != PQgetisnull(res, r, rc) ||
             strcmp(PQgetvalue(s->block, row, c), PQgetvalue(res, r, rc)) != 0))
            return false;
        rc++;
    }
    return true;
}

/* Block row `row` takes the values of result row r; true when one differed.
 * *oom on an allocation failure. */
static bool take_values(gc_stmt *s, const gc_write_target *t, int row, const PGresult *res,
                        int r, bool *oom)
{
    bool changed = false;
    for (int c = 0, rc = 0; c < t->ncols; c++) {
        if (t->column[c] == NULL)
            continue;
        bool null = PQgetisnull(res, r, rc);
        int len = PQgetlength(res, r, rc);
        const char *v = PQgetvalue(res, r, rc);
        rc++;
        if (null == (bool)PQgetisnull(s->block, row, c) &&
            (null || (len == PQgetlength(s->block, row, c) &&
                      memcmp(v, PQgetvalue(s->block, row, c), (size_t)len) == 0)))
            continue;
        changed = true;
        if (!PQsetvalue(s->block, row, c, null ? NULL : (char *)v, null ? -1 : len))
            *oom = true;
    }
    return changed;
}

/* The re-read query of the block rows `list` names (count of them) that the
 * cursor has not deleted, or with `recheck` of those it has; its key values
 * go to `values` (borrowed from block). The row's xmin comes last with
 * SQL_CONCUR_ROWVER; `lock` adds FOR UPDATE. */
static int build_reread(gc_stmt *s, const gc_write_target *t, const int *list, SQLULEN count,
                        bool recheck, bool lock, gc_strbuf *sql, const char **values)
{
    int n = 0;
    gc_strbuf_appendf(sql, "SELECT ");
    for (int c = 0, k = 0; c < t->ncols; c++) {
        if (t->column[c] != NULL)
            gc_strbuf_appendf(sql, "%s%s", k++ ? ", " : "", t->column[c]);
    }
    if (s->concurrency == SQL_CONCUR_ROWVER)
        gc_strbuf_appendf(sql, ", xmin");
    /* (key) IN ((..), ...); by values, (columns) IS NOT DISTINCT FROM (..)
     * OR ..., so that a NULL finds its row. */
    gc_strbuf key;
    gc_strbuf_init(&key);
    for (int c = 0, k = 0; c < t->ncols; c++) {
        if (is_key(t, c))
            gc_strbuf_appendf(&key, "%s%s", k++ ? ", " : "", t->column[c]);
    }
    /* One row by its key: key = $n AND ..., the form routing reads keys from. */
    bool one_row = count == 1 && !t->by_values;
    if (t->by_values || one_row)
        gc_strbuf_appendf(sql, " FROM %s WHERE ", t->table);
    else
        gc_strbuf_appendf(sql, " FROM %s WHERE (%s) IN (", t->table, key.data);
    int tuples = 0;
    for (SQLULEN i = 0; i < count; i++) {
        int row = list[i];
        if ((gc_cursor_row_mark(s, row) == SQL_ROW_DELETED) != recheck)
            continue;
        if (t->by_values)
            gc_strbuf_appendf(sql, "%s(%s) IS NOT DISTINCT FROM (", tuples++ ? " OR " : "",
                              key.data);
        else if (!one_row)
            gc_strbuf_appendf(sql, "%s(", tuples++ ? ", " : "");
        else
            tuples++;
        for (int c = 0, k = 0; c < t->ncols; c++) {
            if (!is_key(t, c))
                continue;
            values[n++] = PQgetisnull(s->block, row, c) ? NULL : PQgetvalue(s->block, row, c);
            if (one_row)
                gc_strbuf_appendf(sql, "%s%s = $%d", k++ ? " AND " : "", t->column[c], n);
            else
                gc_strbuf_appendf(sql, "%s$%d", k++ ? ", " : "", n);
        }
        if (!one_row)
            gc_strbuf_appendf(sql, ")");
    }
    gc_strbuf_appendf(sql, "%s%s", t->by_values || one_row ? "" : ")", lock ? " FOR UPDATE" : "");
    if (key.failed)
        sql->failed = true;
    gc_strbuf_free(&key);
    return tuples > 0 ? n : 0;
}

/* Marks each re-read row updated when its values changed, deleted when its
 * key is gone; with `recheck` (rows marked deleted were read) a row found
 * again is no longer deleted (a rollback undid its deletion). */
static bool apply_reread(gc_stmt *s, const gc_write_target *t, const int *list, SQLULEN count,
                         bool recheck, const PGresult *res)
{
    bool oom = false;
    for (SQLULEN i = 0; i < count && !oom; i++) {
        int row = list[i];
        SQLUSMALLINT mark = gc_cursor_row_mark(s, row);
        if ((mark == SQL_ROW_DELETED) != recheck)
            continue;
        int r = 0;
        while (r < PQntuples(res) && !same_key(s, t, row, res, r))
            r++;
        if (r == PQntuples(res)) {
            /* A row the cursor added and no longer finds was taken away by
             * a rollback: it leaves the rowsets as the cursor's deletions do. */
            if (!recheck)
                oom = !(mark == SQL_ROW_ADDED ? gc_cursor_hide_row(s, row)
                                              : gc_cursor_mark_row(s, row, SQL_ROW_DELETED));
            continue;
        }
        if (recheck) {
            mark = 0;
            oom = !gc_cursor_mark_row(s, row, mark);
        }
        if (take_values(s, t, row, res, r, &oom) && mark != SQL_ROW_ADDED)
            oom = oom || !gc_cursor_mark_row(s, row, SQL_ROW_UPDATED);
        if (s->concurrency == SQL_CONCUR_ROWVER)
            oom = oom || !gc_cursor_set_version(s, row, PQgetvalue(res, r, PQnfields(res) - 1));
    }
    return !oom;
}

/* Re-reads (and with `lock` locks) the block rows `list` names by key in
 * one query; `apply` makes the rows take what was read. With `recheck` the
 * rows read are those marked deleted. */
static SQLRETURN reread(gc_stmt *s, const gc_write_target *t, const int *list, SQLULEN count,
                        bool recheck, bool lock, bool apply)
{
    /* A global connection routes a query by its key: one row's key places
     * it in its owner group, the keys of a rowset would not. */
    if (s->conn->kind->several_sessions && count > 1) {
        SQLRETURN rc = SQL_SUCCESS;
        for (SQLULEN i = 0; i < count && rc != SQL_ERROR; i++)
            rc = reread(s, t, list + i, 1, recheck, lock, apply);
        return rc;
    }
    int nkeys = 0;
    for (int c = 0; c < t->ncols; c++)
        nkeys += is_key(t, c);
    const char **values = calloc(count * (SQLULEN)nkeys + 1, sizeof *values);
    gc_strbuf sql;
    gc_strbuf_init(&sql);
    SQLRETURN rc = SQL_ERROR;
    int n = values != NULL ? build_reread(s, t, list, count, recheck, lock, &sql, values) : 0;
    if (values == NULL || sql.failed) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
    } else if (n == 0) {
        rc = SQL_SUCCESS;           /* every row of the rowset is deleted */
    } else {
        PGresult *res = gc_cursor_run(s, sql.data, n, values, NULL);
        if (res != NULL) {
            rc = SQL_SUCCESS;
            if (apply && !apply_reread(s, t, list, count, recheck, res)) {
                gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
                rc = SQL_ERROR;
            }
            PQclear(res);
        }
    }
    free(values);
    gc_strbuf_free(&sql);
    return rc;
}

SQLRETURN gc_keyset_reread(gc_stmt *s, const int *rows, SQLULEN count)
{
    if (s->cursor_type != SQL_CURSOR_KEYSET_DRIVEN || s->scroll.target == NULL || count == 0)
        return SQL_SUCCESS;
    /* The target was found by gc_keyset_open at the set's first fetch.
     * SQL_CONCUR_LOCK locks rows as they are read (keep_concurrency made
     * sure a transaction is open). */
    bool lock = s->concurrency == SQL_CONCUR_LOCK && !s->conn->autocommit;
    return reread(s, s->scroll.target, rows, count, false, lock, true);
}

/* Rows whose keys one recheck query carries at most (libpq takes 65,535
 * parameters). */
#define RECHECK_PARAMS 60000

SQLRETURN gc_keyset_recheck_deleted(gc_stmt *s)
{
    /* With autocommit on, a deletion is committed and stays. */
    if (s->cursor_type != SQL_CURSOR_KEYSET_DRIVEN || s->scroll.target == NULL ||
        s->scroll.hidden_rows == 0 || s->conn->autocommit)
        return SQL_SUCCESS;
    const gc_write_target *t = s->scroll.target;
    int nkeys = 0;
    for (int c = 0; c < t->ncols; c++)
        nkeys += is_key(t, c);
    SQLULEN chunk = RECHECK_PARAMS / (SQLULEN)(nkeys > 0 ? nkeys : 1);
    SQLULEN count = 0;
    for (int row = 0; row < PQntuples(s->block); row++)
        count += gc_cursor_row_mark(s, row) == SQL_ROW_DELETED;
    if (count == 0)
        return SQL_SUCCESS;
    int *list = malloc(count * sizeof *list);
    if (list == NULL) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    count = 0;
    for (int row = 0; row < PQntuples(s->block); row++) {
        if (gc_cursor_row_mark(s, row) == SQL_ROW_DELETED)
            list[count++] = row;
    }
    SQLRETURN rc = SQL_SUCCESS;
    for (SQLULEN done = 0; done < count && rc != SQL_ERROR; done += chunk) {
        SQLULEN part = count - done < chunk ? count - done : chunk;
        rc = reread(s, t, list + done, part, true, false, true);
    }
    free(list);
    return rc;
}

SQLRETURN gc_cursor_lock_rows(gc_stmt *s, const int *rows, SQLULEN count)
{
    if (s->conn->autocommit) {
        gc_diag_add(&s->h.diag, "HYC00", 0, "optional feature not implemented: "
                    "SQL_LOCK_EXCLUSIVE needs a transaction (autocommit off): PostgreSQL keeps "
                    "a row lock until the transaction ends");
        return SQL_ERROR;
    }
    const gc_write_target *t = gc_cursor_target(s);
    if (t == NULL)
        return SQL_ERROR;
    if (t->by_values) {
        gc_diag_add(&s->h.diag, "HYC00", 0,
                    "optional feature not implemented: locking rows needs the table's primary "
                    "key in the select list");
        return SQL_ERROR;
    }
    return reread(s, t, rows, count, false, true, s->cursor_type == SQL_CURSOR_KEYSET_DRIVEN);
}
