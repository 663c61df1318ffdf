/*
 * gc_stmt_describe: SQLNumResultCols, SQLDescribeCol, SQLColAttribute,
 * SQLRowCount. A prepared statement not yet executed is described by the
 * server (PQdescribePrepared) the first time it is asked. Column 0 is the
 * bookmark while SQL_ATTR_USE_BOOKMARKS is on (gc_desc_bookmark.h).
 */
#include "core/gc_desc.h"
#include "core/gc_desc_attr.h"
#include "core/gc_desc_bookmark.h"
#include "core/gc_param.h"
#include "core/gc_stmt.h"

/* Makes sure the IRD describes the statement's result. */
static SQLRETURN ensure_ird(gc_stmt *s)
{
    switch (s->state) {
    case GC_STMT_NEED_DATA:
        gc_diag_add(&s->h.diag, "HY010", 0, "function sequence error: data at execution pending");
        return SQL_ERROR;
    case GC_STMT_ALLOCATED:
        gc_diag_add(&s->h.diag, "HY010", 0, "function sequence error: no statement prepared or executed");
        return SQL_ERROR;
    case GC_STMT_PREPARED:
        if (!s->described)
            return gc_exec_describe_prepared(s);
        return SQL_SUCCESS;
    default:
        return SQL_SUCCESS;
    }
}

/* The IRD record of result column `col`; column 0 is the bookmark, described
 * into *bookmark while SQL_ATTR_USE_BOOKMARKS is on. NULL with 07009. */
static const gc_desc_rec *column_rec(gc_stmt *s, SQLUSMALLINT col, gc_desc_rec *bookmark)
{
    if (col == 0 && s->use_bookmarks != SQL_UB_OFF) {
        gc_desc_bookmark_describe(s, bookmark);
        return bookmark;
    }
    if (col == 0) {
        gc_diag_add(&s->h.diag, "07009", 0,
                    "invalid column number 0: SQL_ATTR_USE_BOOKMARKS is off");
        return NULL;
    }
    if (col > s->ird->count) {
        gc_diag_add(&s->h.diag, "07009", 0, "invalid column number %u", col);
        return NULL;
    }
    return &s->ird->recs[col - 1];
}

SQLRETURN gc_stmt_num_result_cols(gc_stmt *s, SQLSMALLINT *count)
{
    SQLRETURN rc = ensure_ird(s);
    if (!SQL_SUCCEEDED(rc))
        return rc;
    if (count != NULL)
        *count = s->ird->count;
    return SQL_SUCCESS;
}

SQLRETURN gc_stmt_describe_col(gc_stmt *s, SQLUSMALLINT col, const gc_strout *name,
                               SQLSMALLINT *name_length, SQLSMALLINT *type,
                               SQLULEN *size, SQLSMALLINT *digits,
                               SQLSMALLINT *nullable)
{
    SQLRETURN rc = ensure_ird(s);
    if (!SQL_SUCCEEDED(rc))
        return rc;
    if (nullable != NULL && col > 0)
        gc_stmt_resolve_nullability(s);
    gc_desc_rec bookmark;
    const gc_desc_rec *r = column_rec(s, col, &bookmark);
    if (r == NULL)
        return SQL_ERROR;
    if (type) *type = r->concise_type;
    if (size) *size = r->length;
    if (digits) *digits = r->scale;
    if (nullable) *nullable = r->nullable;
    return gc_strout_put_small(name, r->name, name_length, &s->h.diag);
}

SQLRETURN gc_stmt_col_attribute(gc_stmt *s, SQLUSMALLINT col, SQLUSMALLINT field,
                                const gc_strout *str, SQLSMALLINT *str_len,
                                SQLLEN *num)
{
    SQLRETURN rc = ensure_ird(s);
    if (!SQL_SUCCEEDED(rc))
        return rc;
    if (field == SQL_DESC_COUNT || field == SQL_COLUMN_COUNT) {
        if (num != NULL)
            *num = s->ird->count;
        return SQL_SUCCESS;
    }
    if (col > 0 && (field == SQL_DESC_NULLABLE || field == SQL_COLUMN_NULLABLE))
        gc_stmt_resolve_nullability(s);
    if (col > 0 && gc_desc_attr_names_origin(field))
        gc_stmt_resolve_origins(s);
    gc_desc_rec bookmark;
    const gc_desc_rec *r = column_rec(s, col, &bookmark);
    if (r == NULL)
        return SQL_ERROR;
    const char *text = NULL;
    SQLLEN value = 0;
    int kind = gc_desc_ird_attr(r, field, &text, &value);
    if (kind == GC_DESC_ATTR_STRING)
        return gc_strout_put_small(str, text, str_len, &s->h.diag);
    if (kind == 0) {
        gc_diag_add(&s->h.diag, "HY091", 0, "invalid descriptor field identifier %u", field);
        return SQL_ERROR;
    }
    if (num != NULL)
        *num = value;
    return SQL_SUCCESS;
}

SQLRETURN gc_stmt_row_count(gc_stmt *s, SQLLEN *count)
{
    if (s->state != GC_STMT_CURSOR && s->state != GC_STMT_EXECUTED) {
        gc_diag_add(&s->h.diag, "HY010", 0, "function sequence error: the statement has not been executed");
        return SQL_ERROR;
    }
    if (count != NULL)
        *count = s->row_count;
    return SQL_SUCCESS;
}
