/*
 * gc_fetch: SQLBindCol, SQLFetch / SQLFetchScroll (forward only, row arrays,
 * column- and row-wise binding, bind offsets), SQLGetData.
 */
#include <string.h>

#include "core/gc_lo.h"
#include "core/gc_stmt.h"

SQLRETURN gc_stmt_bind_col(gc_stmt *s, SQLUSMALLINT col, SQLSMALLINT c_type,
                           SQLPOINTER value, SQLLEN buffer_length, SQLLEN *ind)
{
    if (s->state == GC_STMT_NEED_DATA) {
        gc_diag_add(&s->h.diag, "HY010", 0, "function sequence error: data at execution pending");
        return SQL_ERROR;
    }
    if (col < 1) {
        gc_diag_add(&s->h.diag, "07009", 0, "invalid column number 0: bookmarks are not supported");
        return SQL_ERROR;
    }
    if (buffer_length < 0) {
        gc_diag_add(&s->h.diag, "HY090", 0, "invalid buffer length %ld", (long)buffer_length);
        return SQL_ERROR;
    }
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
        r->precision = 38;    /* ODBC's defaults for an SQLBindCol'd numeric */
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

static void *offset_ptr(void *base, SQLLEN offset)
{
    return base == NULL ? NULL : (char *)base + offset;
}

/* Converts the current row into the bound columns as row i of the rowset. */
static SQLRETURN store_bound_row(gc_stmt *s, SQLULEN i)
{
    const gc_desc *ard = s->ard;
    SQLLEN offset = ard->bind_offset_ptr ? *ard->bind_offset_ptr : 0;
    int ncols = ard->count < s->ird->count ? ard->count : s->ird->count;
    SQLRETURN result = SQL_SUCCESS;
    for (int c = 0; c < ncols; c++) {
        const gc_desc_rec *b = &ard->recs[c];
        if (b->data_ptr == NULL && b->indicator_ptr == NULL && b->octet_length_ptr == NULL)
            continue;
        const gc_desc_rec *col = &s->ird->recs[c];
        SQLSMALLINT c_type = b->concise_type == SQL_C_DEFAULT ? col->info.default_c_type
                                                              : b->concise_type;
        SQLLEN size = gc_c_type_size(c_type);
        SQLLEN data_stride, len_stride;
        if (ard->bind_type == SQL_BIND_BY_COLUMN) {
            data_stride = size > 0 ? size : b->octet_length;
            len_stride = sizeof(SQLLEN);
        } else {
            data_stride = len_stride = ard->bind_type;
        }
        gc_fetch_target t = {
            .c_type = c_type,
            .buffer = offset_ptr(b->data_ptr, offset + (SQLLEN)i * data_stride),
            .buffer_length = b->octet_length,
            .length = offset_ptr(b->octet_length_ptr, offset + (SQLLEN)i * len_stride),
            .indicator = offset_ptr(b->indicator_ptr, offset + (SQLLEN)i * len_stride),
            .precision = b->precision,
            .scale = b->scale,
            .interval_leading_precision = b->datetime_interval_precision,
        };
        bool null = PQgetisnull(s->block, s->current_row, c);
        gc_error err;
        gc_error_clear(&err);
        SQLRETURN rc = col->info.large_object
            ? gc_lo_read(s, PQgetvalue(s->block, s->current_row, c), null, &t, NULL, &err)
            : gc_convert_value_to_c(col->pg_type, PQgetvalue(s->block, s->current_row, c),
                                    (size_t)PQgetlength(s->block, s->current_row, c),
                                    null, &t, NULL, &err);
        if (rc == SQL_ERROR) {
            add_value_diag(s, &err, (SQLLEN)i + 1, c + 1);
            result = SQL_ERROR;
        } else if (rc == SQL_SUCCESS_WITH_INFO) {
            add_value_diag(s, &err, (SQLLEN)i + 1, c + 1);
            if (result == SQL_SUCCESS)
                result = rc;
        }
    }
    return result;
}

SQLRETURN gc_stmt_fetch(gc_stmt *s, SQLSMALLINT orientation, SQLLEN offset)
{
    (void)offset;
    if (s->state == GC_STMT_NEED_DATA) {
        gc_diag_add(&s->h.diag, "HY010", 0, "function sequence error: data at execution pending");
        return SQL_ERROR;
    }
    if (!cursor_open(s))
        return SQL_ERROR;
    if (orientation != SQL_FETCH_NEXT) {
        gc_diag_add(&s->h.diag, "HY106", 0,
                    "fetch type out of range: the cursor is forward-only (SQL_FETCH_NEXT only)");
        return SQL_ERROR;
    }
    SQLULEN rows = s->ard->array_size;
    SQLUSMALLINT *status = s->ird->array_status_ptr;
    SQLULEN fetched = 0;
    bool info = false, row_error = false;
    SQLRETURN fail = SQL_SUCCESS;
    s->getdata_column = 0;
    s->getdata_offset = 0;
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
        s->row_number++;
        SQLRETURN row_rc = SQL_SUCCESS;
        if (s->retrieve_data != SQL_RD_OFF)
            row_rc = store_bound_row(s, i);
        if (status != NULL)
            status[i] = row_rc == SQL_SUCCESS ? SQL_ROW_SUCCESS
                      : row_rc == SQL_SUCCESS_WITH_INFO ? SQL_ROW_SUCCESS_WITH_INFO
                      : SQL_ROW_ERROR;
        info = info || row_rc == SQL_SUCCESS_WITH_INFO;
        row_error = row_error || row_rc == SQL_ERROR;
        fetched++;
    }
    for (SQLULEN i = fetched; status != NULL && i < rows; i++)
        status[i] = SQL_ROW_NOROW;
    if (s->ird->rows_processed_ptr != NULL)
        *s->ird->rows_processed_ptr = fetched;
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

SQLRETURN gc_stmt_get_data(gc_stmt *s, SQLUSMALLINT col, SQLSMALLINT c_type,
                           SQLPOINTER value, SQLLEN buffer_length, SQLLEN *ind)
{
    if (s->state == GC_STMT_NEED_DATA) {
        gc_diag_add(&s->h.diag, "HY010", 0, "function sequence error: data at execution pending");
        return SQL_ERROR;
    }
    if (!cursor_open(s))
        return SQL_ERROR;
    if (s->current_row < 0 || s->block == NULL) {
        gc_diag_add(&s->h.diag, "24000", 0, "invalid cursor state: no current row");
        return SQL_ERROR;
    }
    if (col < 1 || col > s->ird->count) {
        gc_diag_add(&s->h.diag, "07009", 0, "invalid column number %u", col);
        return SQL_ERROR;
    }
    if (buffer_length < 0) {
        gc_diag_add(&s->h.diag, "HY090", 0, "invalid buffer length %ld", (long)buffer_length);
        return SQL_ERROR;
    }
    if (s->ard->array_size > 1) {
        gc_diag_add(&s->h.diag, "HYC00", 0, "SQLGetData with a row array size above 1 is not supported");
        return SQL_ERROR;
    }
    SQLSMALLINT precision = 0, scale = 0;
    int leading_precision = 0;
    if (c_type == SQL_ARD_TYPE) {
        const gc_desc_rec *b = gc_desc_rec_find(s->ard, col);
        c_type = b != NULL ? b->concise_type : SQL_C_DEFAULT;
        precision = b != NULL ? b->precision : 0;
        scale = b != NULL ? b->scale : 0;
        leading_precision = b != NULL ? b->datetime_interval_precision : 0;
    } else if (c_type == SQL_C_NUMERIC) {
        precision = 38;
    }
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
    };
    int c = col - 1;
    gc_error err;
    gc_error_clear(&err);
    SQLRETURN rc = rec->info.large_object
        ? gc_lo_read(s, PQgetvalue(s->block, s->current_row, c),
                     PQgetisnull(s->block, s->current_row, c), &t, &s->getdata_offset, &err)
        : gc_convert_value_to_c(rec->pg_type, PQgetvalue(s->block, s->current_row, c),
                                (size_t)PQgetlength(s->block, s->current_row, c),
                                PQgetisnull(s->block, s->current_row, c),
                                &t, &s->getdata_offset, &err);
    if (rc == SQL_ERROR || rc == SQL_SUCCESS_WITH_INFO)
        add_value_diag(s, &err, SQL_NO_ROW_NUMBER, col);
    return rc;
}
