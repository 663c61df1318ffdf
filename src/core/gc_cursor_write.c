/*
 * gc_cursor_write: rows of a scrollable cursor changed through it, with
 * SQL_ATTR_CONCURRENCY = SQL_CONCUR_VALUES (optimistic concurrency by
 * values; also SQL_CONCUR_LOCK, whose rows are locked when read) or
 * SQL_CONCUR_ROWVER (by the row's xmin, keyset cursors). SQLSetPos
 * SQL_UPDATE / SQL_DELETE and SQLBulkOperations by bookmark find the row
 * again by its primary key, or by all its values (gc_cursor_target.h), and
 * change it only if every column of the table the cursor shows still holds
 * the value the cursor read (or its xmin is the one read); otherwise
 * nothing changes and the row reports 01001 (cursor operation conflict).
 * SQL_ADD inserts and appends the row, as the server returned it, to the
 * buffered set. The cursor sees its own changes: updated values replace
 * the buffered ones, and fetches report SQL_ROW_UPDATED / _DELETED /
 * _ADDED for the rows it changed.
 */
#include <stdlib.h>
#include <string.h>

#include "core/gc_bookmark.h"
#include "core/gc_cursor.h"
#include "core/gc_cursor_target.h"
#include "core/gc_desc.h"
#include "core/gc_fetch.h"
#include "util/gc_strbuf.h"

void gc_cursor_write_reset(gc_stmt *s)
{
    free(s->scroll.row_marks);
    s->scroll.row_marks = NULL;
    s->scroll.marks_cap = 0;
    s->scroll.hidden_rows = 0;
    free(s->scroll.row_versions);
    s->scroll.row_versions = NULL;
    s->scroll.versions_cap = 0;
    gc_cursor_target_free(s->scroll.target);
    s->scroll.target = NULL;
}

/* The bit of a row's mark that leaves it out of a keyset cursor's rowsets
 * (the row statuses fit below it). */
#define HIDDEN_BIT 0x80

SQLUSMALLINT gc_cursor_row_mark(const gc_stmt *s, int row)
{
    return row < s->scroll.marks_cap ? s->scroll.row_marks[row] & ~HIDDEN_BIT : 0;
}

bool gc_cursor_row_hidden(const gc_stmt *s, int row)
{
    return row < s->scroll.marks_cap && (s->scroll.row_marks[row] & HIDDEN_BIT) != 0;
}

SQLUSMALLINT gc_cursor_row_status(const gc_stmt *s, int row, SQLRETURN row_rc)
{
    if (row_rc == SQL_SUCCESS && gc_cursor_row_mark(s, row) != 0)
        return gc_cursor_row_mark(s, row);
    return gc_fetch_row_status(row_rc);
}

/* Sets row's mark, with HIDDEN_BIT or not; false on OOM. */
static bool set_mark(gc_stmt *s, int row, unsigned char mark)
{
    if (row >= s->scroll.marks_cap) {
        int cap = PQntuples(s->block) > row ? PQntuples(s->block) : row + 1;
        cap += cap / 2 + 16;
        unsigned char *m = realloc(s->scroll.row_marks, (size_t)cap);
        if (m == NULL)
            return false;
        memset(m + s->scroll.marks_cap, 0, (size_t)(cap - s->scroll.marks_cap));
        s->scroll.row_marks = m;
        s->scroll.marks_cap = cap;
    }
    /* Counted so that a cursor without hidden rows skips nothing cheaply. */
    s->scroll.hidden_rows += ((mark & HIDDEN_BIT) != 0) -
                             ((s->scroll.row_marks[row] & HIDDEN_BIT) != 0);
    s->scroll.row_marks[row] = mark;
    return true;
}

bool gc_cursor_mark_row(gc_stmt *s, int row, SQLUSMALLINT mark)
{
    return set_mark(s, row, (unsigned char)mark);
}

bool gc_cursor_hide_row(gc_stmt *s, int row)
{
    return set_mark(s, row, SQL_ROW_DELETED | HIDDEN_BIT);
}

uint32_t gc_cursor_row_version(const gc_stmt *s, int row)
{
    return row < s->scroll.versions_cap ? s->scroll.row_versions[row] : 0;
}

bool gc_cursor_set_version(gc_stmt *s, int row, const char *xmin)
{
    if (row >= s->scroll.versions_cap) {
        int cap = PQntuples(s->block) > row ? PQntuples(s->block) : row + 1;
        cap += cap / 2 + 16;
        uint32_t *v = realloc(s->scroll.row_versions, (size_t)cap * sizeof *v);
        if (v == NULL)
            return false;
        memset(v + s->scroll.versions_cap, 0, (size_t)(cap - s->scroll.versions_cap) * sizeof *v);
        s->scroll.row_versions = v;
        s->scroll.versions_cap = cap;
    }
    s->scroll.row_versions[row] = (uint32_t)strtoul(xmin, NULL, 10);
    return true;
}

bool gc_cursor_writable(gc_stmt *s)
{
    if (s->concurrency == SQL_CONCUR_READ_ONLY) {
        gc_diag_add(&s->h.diag, "HY092", 0,
                    "the cursor is read-only (SQL_ATTR_CONCURRENCY is SQL_CONCUR_READ_ONLY)");
        return false;
    }
    return true;
}

/* The parameters of one statement: text values (NULL for SQL NULL), owned. */
typedef struct params {
    char **values;
    int count, cap;
} params;

static void params_free(params *p)
{
    for (int i = 0; i < p->count; i++)
        free(p->values[i]);
    free(p->values);
}

/* Adds a value (a copy; NULL is SQL NULL) and returns its $ number, 0 on OOM. */
static int params_add(params *p, const char *value, size_t len)
{
    if (p->count == p->cap) {
        int cap = p->cap ? p->cap * 2 : 8;
        char **v = realloc(p->values, (size_t)cap * sizeof *v);
        if (v == NULL)
            return 0;
        p->values = v;
        p->cap = cap;
    }
    char *copy = NULL;
    if (value != NULL && (copy = strndup(value, len)) == NULL)
        return 0;
    p->values[p->count++] = copy;
    return p->count;
}

/* The new value of result column c from rowset row `slot`'s bound buffer.
 * Returns 0 and *skip when the column is unbound or SQL_COLUMN_IGNORE;
 * 1 with *text (owned, NULL for SQL NULL); -1 with diagnostics. */
static int bound_value(gc_stmt *s, int c, SQLULEN slot, char **text, size_t *len, bool *skip)
{
    *skip = true;
    *text = NULL;
    const gc_desc_rec *b = gc_desc_rec_find(s->ard, c + 1);
    if (b == NULL || b->data_ptr == NULL)
        return 0;
    const gc_desc_rec *col = &s->ird->recs[c];
    SQLSMALLINT c_type = b->concise_type == SQL_C_DEFAULT ? col->info.default_c_type
                                                          : b->concise_type;
    SQLLEN size = gc_c_type_size(c_type);
    const SQLLEN *ind = gc_desc_bound_ptr(s->ard, b->indicator_ptr, slot, sizeof(SQLLEN));
    const SQLLEN *octets = gc_desc_bound_ptr(s->ard, b->octet_length_ptr, slot, sizeof(SQLLEN));
    if (ind != NULL && *ind == SQL_COLUMN_IGNORE)
        return 0;
    *skip = false;
    if (ind != NULL && *ind == SQL_NULL_DATA)
        return 1;
    SQLLEN octet_length = octets != NULL ? *octets : SQL_NTS;
    if (octet_length == SQL_DATA_AT_EXEC || octet_length <= SQL_LEN_DATA_AT_EXEC_OFFSET) {
        gc_diag_add(&s->h.diag, "HYC00", 0,
                    "data at execution is not supported for SQLSetPos / SQLBulkOperations");
        return -1;
    }
    gc_param_value pv = { 0 };
    gc_error err;
    gc_error_clear(&err);
    SQLRETURN rc = gc_convert_param_from_c(
        c_type, col->concise_type, col->length, col->scale,
        gc_desc_bound_ptr(s->ard, b->data_ptr, slot, size > 0 ? size : b->octet_length),
        b->octet_length, octet_length, &pv, &err);
    if (rc == SQL_ERROR) {
        gc_diag_add_error_at(&s->h.diag, &err, (SQLLEN)slot + 1, c + 1);
        return -1;
    }
    if (pv.data != NULL && (*text = gc_param_value_text(&pv, len)) == NULL) {
        gc_param_value_free(&pv);
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return -1;
    }
    gc_param_value_free(&pv);
    return 1;
}

/* SQL_CONCUR_ROWVER: " WHERE <key> = $n ... AND xmin = $m", the row's
 * version being the xmin the cursor last read. */
static bool append_version_check(gc_stmt *s, const gc_write_target *t, int row,
                                 uint32_t version, gc_strbuf *sql, params *p)
{
    char text[16];
    const char *glue = " WHERE ";
    for (int c = 0; c < t->ncols; c++) {
        if (!t->key[c])
            continue;
        int n = params_add(p, PQgetvalue(s->block, row, c), (size_t)PQgetlength(s->block, row, c));
        if (n == 0)
            return false;
        gc_strbuf_appendf(sql, "%s%s = $%d", glue, t->column[c], n);
        glue = " AND ";
    }
    int n = snprintf(text, sizeof text, "%u", version);
    int k = params_add(p, text, (size_t)n);
    if (k == 0)
        return false;
    gc_strbuf_appendf(sql, " AND xmin = $%d", k);
    return !sql->failed;
}

/* Appends the condition that finds block row `row` again and checks it
 * still holds what the cursor read (the row's version with
 * SQL_CONCUR_ROWVER when the cursor read one: a row a global connection
 * read through postgres_fdw has xmin 0, no version, and is checked by its
 * values):
 *   " WHERE <key> = $n ... AND <column> IS NOT DISTINCT FROM $m ..."
 * or, without a usable key, one row equal in every column:
 *   " WHERE (tableoid, ctid) = (SELECT tableoid, ctid FROM t WHERE <column> IS NOT
 *   DISTINCT FROM $m ... LIMIT 1)"
 * (a ctid is unique within one table only: every partition of a partitioned
 * table has its row (0,1)). */
static bool append_row_check(gc_stmt *s, const gc_write_target *t, int row, gc_strbuf *sql,
                             params *p)
{
    uint32_t version = s->concurrency == SQL_CONCUR_ROWVER ? gc_cursor_row_version(s, row) : 0;
    if (version != 0 && !t->by_values)
        return append_version_check(s, t, row, version, sql, p);
    if (t->by_values)
        gc_strbuf_appendf(sql, " WHERE (tableoid, ctid) = (SELECT tableoid, ctid FROM %s",
                          t->table);
    const char *glue = " WHERE ";
    for (int c = 0; c < t->ncols; c++) {
        if (t->column[c] == NULL)
            continue;
        bool null = PQgetisnull(s->block, row, c);
        int n = params_add(p, null ? NULL : PQgetvalue(s->block, row, c),
                           (size_t)PQgetlength(s->block, row, c));
        if (n == 0)
            return false;
        gc_strbuf_appendf(sql, "%s%s %s $%d", glue, t->column[c],
                          t->key[c] ? "=" : "IS NOT DISTINCT FROM", n);
        glue = " AND ";
    }
    if (t->by_values)
        gc_strbuf_appendf(sql, " LIMIT 1)");
    return !sql->failed;
}

/* Runs a statement that changes one row; its row count says whether it did. */
static SQLRETURN run_change(gc_stmt *s, const gc_strbuf *sql, const params *p, int row,
                            SQLULEN slot, SQLUSMALLINT mark, SQLUSMALLINT *status)
{
    SQLLEN count = 0;
    if (sql->failed) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    PGresult *res = gc_cursor_run(s, sql->data, p->count,
                                  (const char *const *)p->values, &count);
    if (res == NULL) {
        *status = SQL_ROW_ERROR;
        return SQL_ERROR;
    }
    /* An update RETURNING xmin (SQL_CONCUR_ROWVER): the row's new version. */
    bool stored = PQntuples(res) != 1 || PQnfields(res) != 1 ||
                  gc_cursor_set_version(s, row, PQgetvalue(res, 0, 0));
    PQclear(res);
    if (!stored) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    if (count != 1) {
        gc_error err;
        gc_error_set(&err, "01001", 0,
                     "cursor operation conflict: the row was changed or deleted since the "
                     "cursor read it (%ld rows matched)", (long)count);
        gc_diag_add_error_at(&s->h.diag, &err, (SQLLEN)slot + 1, SQL_NO_COLUMN_NUMBER);
        *status = SQL_ROW_ERROR;
        return SQL_SUCCESS_WITH_INFO;
    }
    /* A row the cursor deleted leaves a keyset cursor's later rowsets. */
    if (!(mark == SQL_ROW_DELETED ? gc_cursor_hide_row(s, row) : gc_cursor_mark_row(s, row, mark))) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        *status = SQL_ROW_ERROR;
        return SQL_ERROR;
    }
    *status = mark;
    return SQL_SUCCESS;
}

/* The new values of rowset row `slot`: each bound, not ignored column of
 * the table becomes a parameter of p, whose number param_of[c] records
 * (0: the column takes no value). False with diagnostics on an error. */
static bool collect_new_values(gc_stmt *s, const gc_write_target *t, SQLULEN slot, params *p,
                               int *param_of)
{
    for (int c = 0; c < t->ncols; c++) {
        char *text;
        size_t len = 0;
        bool skip;
        param_of[c] = 0;
        if (bound_value(s, c, slot, &text, &len, &skip) < 0)
            return false;
        if (!skip && t->column[c] != NULL)
            param_of[c] = params_add(p, text, len);
        free(text);
        if (!skip && t->column[c] != NULL && param_of[c] == 0) {
            gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
            return false;
        }
    }
    return true;
}

/* The cursor sees its own update: the new values replace the buffered ones. */
static bool store_new_values(gc_stmt *s, const gc_write_target *t, int row, const params *p,
                             const int *param_of)
{
    for (int c = 0; c < t->ncols; c++) {
        const char *v = param_of[c] > 0 ? p->values[param_of[c] - 1] : NULL;
        if (param_of[c] > 0 && !PQsetvalue(s->block, row, c, (char *)v, v ? (int)strlen(v) : -1))
            return false;
    }
    return true;
}

SQLRETURN gc_cursor_update_row(gc_stmt *s, int row, SQLULEN slot, SQLUSMALLINT *status)
{
    *status = SQL_ROW_ERROR;
    const gc_write_target *t = gc_cursor_target(s);
    if (t == NULL)
        return SQL_ERROR;
    int *param_of = calloc((size_t)t->ncols + 1, sizeof *param_of);
    gc_strbuf sql;
    gc_strbuf_init(&sql);
    params p = { 0 };
    SQLRETURN rc = SQL_ERROR;
    if (param_of == NULL) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
    } else if (collect_new_values(s, t, slot, &p, param_of)) {
        gc_strbuf_appendf(&sql, "UPDATE %s SET ", t->table);
        for (int c = 0, n = 0; c < t->ncols; c++) {
            if (param_of[c] > 0)
                gc_strbuf_appendf(&sql, "%s%s = $%d", n++ ? ", " : "", t->column[c], param_of[c]);
        }
        if (p.count == 0) {
            gc_diag_add(&s->h.diag, "21S02", 0,
                        "no bound column of the table to update (all unbound or "
                        "SQL_COLUMN_IGNORE)");
        } else if (!append_row_check(s, t, row, &sql, &p)) {
            gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        } else {
            if (s->concurrency == SQL_CONCUR_ROWVER && gc_cursor_row_version(s, row) != 0)
                gc_strbuf_appendf(&sql, " RETURNING xmin");
            rc = run_change(s, &sql, &p, row, slot, SQL_ROW_UPDATED, status);
            if (rc == SQL_SUCCESS && !store_new_values(s, t, row, &p, param_of)) {
                gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
                rc = SQL_ERROR;
            }
        }
    }
    free(param_of);
    params_free(&p);
    gc_strbuf_free(&sql);
    return rc;
}

SQLRETURN gc_cursor_delete_row(gc_stmt *s, int row, SQLULEN slot, SQLUSMALLINT *status)
{
    *status = SQL_ROW_ERROR;
    const gc_write_target *t = gc_cursor_target(s);
    if (t == NULL)
        return SQL_ERROR;
    gc_strbuf sql;
    gc_strbuf_init(&sql);
    params p = { 0 };
    SQLRETURN rc;
    gc_strbuf_appendf(&sql, "DELETE FROM %s", t->table);
    if (append_row_check(s, t, row, &sql, &p)) {
        rc = run_change(s, &sql, &p, row, slot, SQL_ROW_DELETED, status);
    } else {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        rc = SQL_ERROR;
    }
    params_free(&p);
    gc_strbuf_free(&sql);
    return rc;
}

/* Appends the row the server returned to the buffered set, marked added. */
static bool append_added(gc_stmt *s, const PGresult *res)
{
    int row = PQntuples(s->block);
    for (int c = 0; c < PQnfields(s->block); c++) {
        bool null = PQgetisnull(res, 0, c);
        if (!PQsetvalue(s->block, row, c, null ? NULL : PQgetvalue(res, 0, c),
                        null ? -1 : PQgetlength(res, 0, c)))
            return false;
    }
    return gc_cursor_mark_row(s, row, SQL_ROW_ADDED);
}

SQLRETURN gc_cursor_add_row(gc_stmt *s, SQLULEN slot, SQLUSMALLINT *status)
{
    *status = SQL_ROW_ERROR;
    const gc_write_target *t = gc_cursor_target(s);
    if (t == NULL)
        return SQL_ERROR;
    int *param_of = calloc((size_t)t->ncols + 1, sizeof *param_of);
    gc_strbuf names, sql;
    gc_strbuf_init(&names);
    gc_strbuf_init(&sql);
    params p = { 0 };
    SQLRETURN rc = SQL_ERROR;
    if (param_of == NULL) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        goto done;
    }
    if (!collect_new_values(s, t, slot, &p, param_of))
        goto done;
    gc_strbuf_appendf(&sql, "INSERT INTO %s", t->table);
    if (p.count == 0) {
        gc_strbuf_appendf(&sql, " DEFAULT VALUES");
    } else {
        for (int c = 0; c < t->ncols; c++) {
            if (param_of[c] > 0)
                gc_strbuf_appendf(&names, "%s%s", param_of[c] > 1 ? ", " : "", t->column[c]);
        }
        gc_strbuf_appendf(&sql, " (%s) VALUES (", names.data);
        for (int i = 1; i <= p.count; i++)
            gc_strbuf_appendf(&sql, "%s$%d", i > 1 ? ", " : "", i);
        gc_strbuf_appendf(&sql, ")");
    }
    /* The row as the cursor shows it: defaults filled in, computed columns NULL. */
    gc_strbuf_appendf(&sql, " RETURNING ");
    for (int c = 0; c < t->ncols; c++)
        gc_strbuf_appendf(&sql, "%s%s", c ? ", " : "", t->column[c] ? t->column[c] : "NULL");
    if (sql.failed || names.failed)
        goto oom;
    PGresult *res = gc_cursor_run(s, sql.data, p.count, (const char *const *)p.values, NULL);
    if (res == NULL)
        goto done;
    int row = PQntuples(s->block);
    bool ok = PQntuples(res) == 1 && append_added(s, res);
    PQclear(res);
    if (!ok)
        goto oom;
    *status = SQL_ROW_ADDED;
    /* The new row's bookmark goes to the bound column 0, as ODBC asks. */
    rc = gc_bookmark_store(s, row, slot);
    goto done;
oom:
    gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
done:
    free(param_of);
    params_free(&p);
    gc_strbuf_free(&names);
    gc_strbuf_free(&sql);
    return rc;
}
