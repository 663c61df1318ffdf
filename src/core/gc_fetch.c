/*
 * gc_fetch: SQLBindCol, SQLFetch / SQLFetchScroll / SQLExtendedFetch (row
 * arrays, column- and row-wise binding, bind offsets), SQLGetData. Forward-only
 * cursors stream here; scrollable ones are positioned by gc_cursor.c.
 */
#include <string.h>

#include "config/gc_psqlodbc.h"
#include "core/gc_bookmark.h"
#include "core/gc_cursor.h"
#include "core/gc_desc.h"
#include "core/gc_fetch.h"
#include "core/gc_lo.h"

/* Whether column 0 (the bookmark) may be used with c_type. */
static bool bookmark_column_ok(gc_stmt *s, SQLSMALLINT c_type)
{
    if (s->use_bookmarks == SQL_UB_OFF) {
        gc_diag_add(&s->h.diag, "07009", 0,
                    "invalid column number 0: SQL_ATTR_USE_BOOKMARKS is off");
        return false;
    }
    if (!gc_c_type_holds_bookmark(c_type)) {
        gc_diag_add(&s->h.diag, "07006", 0,
                    "restricted data type attribute violation: a bookmark is "
                    "SQL_C_VARBOOKMARK or SQL_C_BOOKMARK");
        return false;
    }
    return true;
}

/* SQLBindCol on column 0: binds (or with no buffers unbinds) the bookmark. */
static SQLRETURN bind_bookmark(gc_stmt *s, SQLSMALLINT c_type, SQLPOINTER value,
                               SQLLEN buffer_length, SQLLEN *ind)
{
    if (value == NULL && ind == NULL) {
        s->bookmark_col.data_ptr = NULL;
        s->bookmark_col.indicator_ptr = NULL;
        return SQL_SUCCESS;
    }
    if (!bookmark_column_ok(s, c_type))
        return SQL_ERROR;
    s->bookmark_col = (gc_bookmark_bind){ c_type, value, buffer_length, ind };
    return SQL_SUCCESS;
}

SQLRETURN gc_stmt_bind_col(gc_stmt *s, SQLUSMALLINT col, SQLSMALLINT c_type,
                           SQLPOINTER value, SQLLEN buffer_length, SQLLEN *ind)
{
    if (s->state == GC_STMT_NEED_DATA) {
        gc_diag_add(&s->h.diag, "HY010", 0, "function sequence error: data at execution pending");
        return SQL_ERROR;
    }
    if (buffer_length < 0) {
        gc_diag_add(&s->h.diag, "HY090", 0, "invalid buffer length %ld", (long)buffer_length);
        return SQL_ERROR;
    }
    if (col == 0)
        return bind_bookmark(s, c_type, value, buffer_length, ind);
    gc_desc *ard = s->ard;
    if (value == NULL && ind == NULL) {
        gc_desc_rec *r = gc_desc_rec_find(ard, col);
        if (r != NULL) {
            r->data_ptr = NULL;
            r->indicator_ptr = NULL;
            r->octet_length_ptr = NULL;
            gc_desc_trim_count(ard);
        }
        return SQL_SUCCESS;
    }
    gc_desc_rec *r = gc_desc_rec_get(ard, col);
    if (r == NULL) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    gc_desc_rec_set_concise(r, c_type);
    r->data_ptr = value;
    r->octet_length = buffer_length;
    r->octet_length_ptr = ind;
    r->indicator_ptr = ind;
    if (c_type == SQL_C_NUMERIC) {
        /* 0 and 0: the value's own precision and scale, as psqlODBC gives
         * them, until the application sets SQL_DESC_PRECISION / _SCALE. */
        r->precision = 0;
        r->scale = 0;
    }
    return SQL_SUCCESS;
}

/* State checks of SQLFetch and SQLGetData. */
static bool cursor_open(gc_stmt *s)
{
    if (s->state == GC_STMT_CURSOR)
        return true;
    if (s->state == GC_STMT_EXECUTED)
        gc_diag_add(&s->h.diag, "24000", 0, "invalid cursor state: the statement returned no result set");
    else
        gc_diag_add(&s->h.diag, "HY010", 0, "function sequence error: the statement has not been executed");
    return false;
}

/* Adds a conversion diagnostic for (row, column). */
static void add_value_diag(gc_stmt *s, const gc_error *err, SQLLEN row, int col)
{
    gc_diag_add_error_at(&s->h.diag, err, row, col);
}

SQLUSMALLINT gc_fetch_row_status(SQLRETURN row_rc)
{
    return row_rc == SQL_SUCCESS ? SQL_ROW_SUCCESS
         : row_rc == SQL_SUCCESS_WITH_INFO ? SQL_ROW_SUCCESS_WITH_INFO
         : SQL_ROW_ERROR;
}

SQLRETURN gc_fetch_store_row(gc_stmt *s, int row, SQLULEN slot)
{
    const gc_desc *ard = s->ard;
    int ncols = ard->count < s->ird->count ? ard->count : s->ird->count;
    SQLRETURN result = SQL_SUCCESS;
    bool null_dates = gc_psqlodbc_cvt_null_date(s->conn->settings.extra_options);
    for (int c = 0; c < ncols; c++) {
        const gc_desc_rec *b = &ard->recs[c];
        if (b->data_ptr == NULL && b->indicator_ptr == NULL && b->octet_length_ptr == NULL)
            continue;
        const gc_desc_rec *col = &s->ird->recs[c];
        SQLSMALLINT c_type = b->concise_type == SQL_C_DEFAULT ? col->info.default_c_type
                                                              : b->concise_type;
        SQLLEN size = gc_c_type_size(c_type);
        gc_fetch_target t = {
            .c_type = c_type,
            .buffer = gc_desc_bound_ptr(ard, b->data_ptr, slot, size > 0 ? size : b->octet_length),
            .buffer_length = b->octet_length,
            .length = gc_desc_bound_ptr(ard, b->octet_length_ptr, slot, sizeof(SQLLEN)),
            .indicator = gc_desc_bound_ptr(ard, b->indicator_ptr, slot, sizeof(SQLLEN)),
            .precision = b->precision,
            .scale = b->scale,
            .interval_leading_precision = b->datetime_interval_precision,
            .lf_to_crlf = s->conn->settings.lf_conversion,
            .null_date_as_empty = null_dates,
        };
        bool null = PQgetisnull(s->block, row, c);
        gc_error err;
        gc_error_clear(&err);
        SQLRETURN rc = col->info.large_object
            ? gc_lo_read(s, PQgetvalue(s->block, row, c), null, &t, NULL, &err)
            : gc_convert_value_to_c(col->pg_type, PQgetvalue(s->block, row, c),
                                    (size_t)PQgetlength(s->block, row, c),
                                    null, &t, NULL, &err);
        if (rc == SQL_ERROR) {
            add_value_diag(s, &err, (SQLLEN)slot + 1, c + 1);
            result = SQL_ERROR;
        } else if (rc == SQL_SUCCESS_WITH_INFO) {
            add_value_diag(s, &err, (SQLLEN)slot + 1, c + 1);
            if (result == SQL_SUCCESS)
                result = rc;
        }
    }
    return result;
}

SQLRETURN gc_fetch_store_slot(gc_stmt *s, int row, int bookmark_row, SQLULEN slot)
{
    SQLRETURN rc = gc_bookmark_store(s, bookmark_row, slot);
    if (s->retrieve_data != SQL_RD_OFF) {
        SQLRETURN data_rc = gc_fetch_store_row(s, row, slot);
        if (data_rc != SQL_SUCCESS && rc != SQL_ERROR)
            rc = data_rc;
    }
    return rc;
}

/* Forward-only: streams the next out->size rows into the rowset. */
static SQLRETURN fetch_forward(gc_stmt *s, const gc_rowset_out *out)
{
    SQLULEN rows = out->size;
    SQLUSMALLINT *status = out->status;
    SQLULEN fetched = 0;
    bool info = false, row_error = false;
    SQLRETURN fail = SQL_SUCCESS;
    gc_fwd_rowset_begin(&s->fwd, rows);
    for (SQLULEN i = 0; i < rows; i++) {
        if (s->max_rows > 0 && s->row_number >= s->max_rows)
            break;
        SQLRETURN rc = gc_result_next_row(s);
        if (rc == SQL_NO_DATA)
            break;
        if (rc == SQL_ERROR) {
            fail = SQL_ERROR;
            break;
        }
        gc_fwd_rowset_add(&s->fwd, s->block, s->current_row);
        s->row_number++;
        /* A bookmark is the row's number in the set, whatever the cursor. */
        SQLRETURN row_rc = gc_fetch_store_slot(s, s->current_row, (int)s->row_number - 1, i);
        if (status != NULL)
            status[i] = gc_fetch_row_status(row_rc);
        info = info || row_rc == SQL_SUCCESS_WITH_INFO;
        row_error = row_error || row_rc == SQL_ERROR;
        fetched++;
    }
    for (SQLULEN i = fetched; status != NULL && i < rows; i++)
        status[i] = SQL_ROW_NOROW;
    if (out->rows_fetched != NULL)
        *out->rows_fetched = fetched;
    if (fail == SQL_ERROR && fetched == 0)
        return SQL_ERROR;
    if (fetched == 0)
        return SQL_NO_DATA;
    if (row_error && rows == 1)
        return SQL_ERROR;
    if (row_error || info || fail == SQL_ERROR)
        return SQL_SUCCESS_WITH_INFO;
    return gc_stmt_rc_with_info(s, SQL_SUCCESS);
}

/* The checks every fetch makes, then the fetch itself. `bookmark` is the
 * bookmark SQL_FETCH_BOOKMARK starts from (0 when none was given). */
static SQLRETURN fetch_rowset(gc_stmt *s, SQLSMALLINT orientation, SQLLEN offset,
                              SQLLEN bookmark, const gc_rowset_out *out)
{
    if (s->state == GC_STMT_NEED_DATA) {
        gc_diag_add(&s->h.diag, "HY010", 0, "function sequence error: data at execution pending");
        return SQL_ERROR;
    }
    /* Checked first, with or without a result set, as psqlODBC does. */
    if (!gc_cursor_scrollable(s) && orientation != SQL_FETCH_NEXT) {
        gc_diag_add(&s->h.diag, "HY106", 0,
                    "fetch type out of range: the cursor is forward-only (SQL_FETCH_NEXT only)");
        return SQL_ERROR;
    }
    if (s->state == GC_STMT_EXECUTED || (s->execute_failed && s->state != GC_STMT_CURSOR)) {
        /* psqlODBC answers a fetch after a statement without a result set
         * (a SET, an INSERT), or after one that failed, with no data rather
         * than ODBC's 24000 or HY010, and its programs loop on that
         * (docs/psqlodbc-differences.md). */
        if (out->rows_fetched != NULL)
            *out->rows_fetched = 0;
        return SQL_NO_DATA;
    }
    if (!cursor_open(s))
        return SQL_ERROR;
    s->getdata_column = 0;
    s->getdata_offset = 0;
    if (gc_cursor_scrollable(s))
        return gc_cursor_fetch(s, orientation, offset, bookmark, out);
    return fetch_forward(s, out);
}

SQLRETURN gc_stmt_fetch(gc_stmt *s, SQLSMALLINT orientation, SQLLEN offset)
{
    s->error_context = GC_CONTEXT_FETCH;
    gc_rowset_out out = { s->ard->array_size, s->ird->rows_processed_ptr,
                          s->ird->array_status_ptr };
    SQLLEN bookmark = 0;
    if (orientation == SQL_FETCH_BOOKMARK && s->fetch_bookmark_ptr != NULL)
        bookmark = gc_bookmark_read(s->fetch_bookmark_ptr);
    return fetch_rowset(s, orientation, offset, bookmark, &out);
}

SQLRETURN gc_stmt_extended_fetch(gc_stmt *s, SQLUSMALLINT orientation, SQLLEN irow,
                                 SQLULEN *rows_fetched, SQLUSMALLINT *row_status)
{
    s->error_context = GC_CONTEXT_FETCH;
    gc_rowset_out out = { s->ext_rowset_size, rows_fetched, row_status };
    if (orientation == SQL_FETCH_BOOKMARK)
        return fetch_rowset(s, SQL_FETCH_BOOKMARK, 0, irow, &out);
    return fetch_rowset(s, (SQLSMALLINT)orientation, irow, 0, &out);
}

SQLRETURN gc_stmt_get_data(gc_stmt *s, SQLUSMALLINT col, SQLSMALLINT c_type,
                           SQLPOINTER value, SQLLEN buffer_length, SQLLEN *ind)
{
    if (s->state == GC_STMT_NEED_DATA) {
        gc_diag_add(&s->h.diag, "HY010", 0, "function sequence error: data at execution pending");
        return SQL_ERROR;
    }
    if (!cursor_open(s))
        return SQL_ERROR;
    /* A forward-only cursor reads the row SQLSetPos stood it on. */
    int row = s->current_row;
    const PGresult *res = gc_cursor_scrollable(s) ? NULL : gc_fwd_rowset_positioned(&s->fwd, &row);
    if (res == NULL)
        res = s->block;
    if (row < 0 || res == NULL) {
        gc_diag_add(&s->h.diag, "24000", 0, "invalid cursor state: no current row");
        return SQL_ERROR;
    }
    if (col > s->ird->count) {
        gc_diag_add(&s->h.diag, "07009", 0, "invalid column number %u", col);
        return SQL_ERROR;
    }
    if (buffer_length < 0) {
        gc_diag_add(&s->h.diag, "HY090", 0, "invalid buffer length %ld", (long)buffer_length);
        return SQL_ERROR;
    }
    if (col == 0) {
        if (c_type == SQL_ARD_TYPE)
            c_type = s->bookmark_col.c_type;
        if (!bookmark_column_ok(s, c_type))
            return SQL_ERROR;
        /* A forward-only row's bookmark is its number in the set. */
        int set_row = (int)s->row_number - 1;
        if (s->fwd.position > 0)
            set_row -= (int)(s->fwd.n_rows - s->fwd.position);
        return gc_bookmark_write(s, gc_cursor_scrollable(s) ? s->current_row : set_row, c_type,
                                 value, buffer_length, ind);
    }
    SQLSMALLINT precision = 0, scale = 0;
    int leading_precision = 0;
    if (c_type == SQL_ARD_TYPE) {
        const gc_desc_rec *b = gc_desc_rec_find(s->ard, col);
        c_type = b != NULL ? b->concise_type : SQL_C_DEFAULT;
        precision = b != NULL ? b->precision : 0;
        scale = b != NULL ? b->scale : 0;
        leading_precision = b != NULL ? b->datetime_interval_precision : 0;
    }   /* SQL_C_NUMERIC: 0 and 0, the value's own precision and scale */
    if (col != s->getdata_column) {
        s->getdata_column = col;
        s->getdata_offset = 0;
    }
    const gc_desc_rec *rec = &s->ird->recs[col - 1];
    gc_fetch_target t = {
        .c_type = c_type,
        .buffer = value,
        .buffer_length = buffer_length,
        .length = ind,
        .indicator = ind,
        .precision = precision,
        .scale = scale,
        .interval_leading_precision = leading_precision,
        .lf_to_crlf = s->conn->settings.lf_conversion,
        .null_date_as_empty = gc_psqlodbc_cvt_null_date(s->conn->settings.extra_options),
    };
    int c = col - 1;
    gc_error err;
    gc_error_clear(&err);
    SQLRETURN rc = rec->info.large_object
        ? gc_lo_read(s, PQgetvalue(res, row, c), PQgetisnull(res, row, c), &t,
                     &s->getdata_offset, &err)
        : gc_convert_value_to_c(rec->pg_type, PQgetvalue(res, row, c),
                                (size_t)PQgetlength(res, row, c), PQgetisnull(res, row, c),
                                &t, &s->getdata_offset, &err);
    if (rc == SQL_ERROR || rc == SQL_SUCCESS_WITH_INFO)
        add_value_diag(s, &err, SQL_NO_ROW_NUMBER, col);
    return rc;
}
