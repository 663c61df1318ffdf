/*
 * gc_desc_bookmark: record 0 of a statement's ARD and IRD, read from and
 * written to the statement's bookmark binding (gc_desc_bookmark.h).
 */
#include "core/gc_desc_bookmark.h"

#include <string.h>

#include "convert/gc_pgtype.h"
#include "core/gc_stmt.h"

enum { BOOKMARK_BYTES = 4 };    /* a bookmark is a 4-byte row number (gc_bookmark.c) */

/* Whether s uses the fixed 32-bit bookmarks of ODBC 2: asked for, or an
 * ODBC 2 application (whose SQL_UB_ON the driver manager passes on as
 * SQL_UB_VARIABLE). */
static bool fixed_bookmarks(const gc_stmt *s)
{
    return s->use_bookmarks == SQL_UB_FIXED || s->conn->env->odbc_version == SQL_OV_ODBC2;
}

void gc_desc_bookmark_describe(const gc_stmt *s, gc_desc_rec *out)
{
    memset(out, 0, sizeof *out);
    bool fixed = fixed_bookmarks(s);
    gc_desc_rec_set_concise(out, fixed ? SQL_INTEGER : SQL_BINARY);
    out->length = fixed ? 10 : BOOKMARK_BYTES;
    out->precision = fixed ? 10 : 0;
    out->octet_length = BOOKMARK_BYTES;
    out->nullable = SQL_NO_NULLS;
    out->unnamed = SQL_UNNAMED;
    out->info.type_name = "";
    out->info.sql_type = out->concise_type;
    out->info.sql_wide_type = out->concise_type;
    out->info.column_size = out->length;
    out->info.display_size = fixed ? 10 : 2 * BOOKMARK_BYTES;
    out->info.octet_length = BOOKMARK_BYTES;
    out->info.num_prec_radix = fixed ? 10 : 0;
    out->info.is_unsigned = fixed;
    out->info.searchable = SQL_PRED_NONE;
    out->info.default_c_type = fixed ? SQL_C_ULONG : SQL_C_VARBOOKMARK;
}

/* The ARD record 0 view of a statement's bookmark binding. */
static void binding_view(const gc_stmt *s, gc_desc_rec *out)
{
    const gc_bookmark_bind *b = &s->bookmark_col;
    memset(out, 0, sizeof *out);
    gc_desc_rec_set_concise(out, b->c_type != 0 ? b->c_type : SQL_C_DEFAULT);
    out->octet_length = b->buffer_length;
    out->length = (SQLULEN)b->buffer_length;
    out->data_ptr = b->data_ptr;
    out->indicator_ptr = b->indicator_ptr;
    out->octet_length_ptr = b->indicator_ptr;
    out->nullable = SQL_NO_NULLS;
    out->unnamed = SQL_UNNAMED;
}

bool gc_desc_bookmark_view(gc_desc *d, gc_desc_rec *out)
{
    if (d->owner != NULL && d->kind == GC_DESC_ARD) {
        binding_view(d->owner, out);
        return true;
    }
    if (d->owner != NULL && d->kind == GC_DESC_IRD && d->owner->use_bookmarks != SQL_UB_OFF) {
        gc_desc_bookmark_describe(d->owner, out);
        return true;
    }
    if (d->kind == GC_DESC_IRD)
        gc_diag_add(&d->h.diag, "07009", 0,
                    "invalid descriptor index 0: SQL_ATTR_USE_BOOKMARKS is off");
    else if (d->kind == GC_DESC_EXPLICIT)
        gc_diag_add(&d->h.diag, "07009", 0, "invalid descriptor index 0: the bookmark "
                    "record is kept by a statement's own ARD, not by an explicit descriptor");
    else
        gc_diag_add(&d->h.diag, "07009", 0,
                    "invalid descriptor index 0: parameter descriptors have no bookmark record");
    return false;
}

bool gc_desc_bookmark_store(gc_desc *d, const gc_desc_rec *view)
{
    SQLLEN *indicator = view->indicator_ptr != NULL ? view->indicator_ptr
                                                    : view->octet_length_ptr;
    /* Checked when a buffer is bound, as ODBC checks SQL_DESC_DATA_PTR. */
    if (view->data_ptr != NULL && !gc_c_type_holds_bookmark(view->concise_type)) {
        gc_diag_add(&d->h.diag, "HY021", 0, "inconsistent descriptor information: a bookmark "
                    "is bound as SQL_C_VARBOOKMARK or a 32- or 64-bit integer type");
        return false;
    }
    d->owner->bookmark_col = (gc_bookmark_bind){ view->concise_type, view->data_ptr,
                                                 view->octet_length, indicator };
    return true;
}
