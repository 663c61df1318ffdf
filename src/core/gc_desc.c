/*
 * gc_desc: descriptor storage and the SQLGetDescField / SQLSetDescField /
 * SQLGetDescRec / SQLSetDescRec / SQLCopyDesc logic.
 */
#include "core/gc_desc.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/gc_conn.h"
#include "core/gc_desc_attr.h"
#include "core/gc_desc_bookmark.h"
#include "core/gc_stmt.h"

/* Sets the header defaults of a descriptor of `kind`. */
static void desc_init(gc_desc *d, gc_conn *c, gc_desc_kind kind)
{
    d->h.kind = GC_HANDLE_DESC;
    gc_diag_init(&d->h.diag);
    d->conn = c;
    d->kind = kind;
    d->alloc_type = kind == GC_DESC_EXPLICIT ? SQL_DESC_ALLOC_USER : SQL_DESC_ALLOC_AUTO;
    d->array_size = 1;
    d->bind_type = SQL_BIND_BY_COLUMN;
}

gc_desc *gc_desc_create_implicit(gc_stmt *owner, gc_conn *c, gc_desc_kind kind)
{
    assert(kind != GC_DESC_EXPLICIT);
    gc_desc *d = calloc(1, sizeof *d);
    if (d == NULL)
        return NULL;
    desc_init(d, c, kind);
    d->owner = owner;
    return d;
}

static void desc_free(gc_desc *d)
{
    gc_desc_clear_records(d);
    free(d->recs);
    gc_diag_free(&d->h.diag);
    d->h.kind = GC_HANDLE_FREED;
    free(d);
}

void gc_desc_destroy_implicit(gc_desc *d)
{
    if (d == NULL)
        return;
    assert(d->kind != GC_DESC_EXPLICIT);
    desc_free(d);
}

/* Allocates an explicit descriptor linked into c->descriptors; the
 * connection (through gc_desc_destroy_explicit) frees it. */
SQLRETURN gc_desc_create_explicit(gc_conn *c, gc_desc **out)
{
    gc_desc *d = calloc(1, sizeof *d);
    if (d == NULL) {
        gc_diag_add(&c->h.diag, "HY001", 0, "out of memory allocating a descriptor");
        return SQL_ERROR;
    }
    desc_init(d, c, GC_DESC_EXPLICIT);
    d->next_in_conn = c->descriptors;
    c->descriptors = d;
    *out = d;
    return SQL_SUCCESS;
}

/* Unlinks and frees; statements using d go back to their implicit ARD/APD. */
void gc_desc_destroy_explicit(gc_desc *d)
{
    if (d == NULL)
        return;
    assert(d->kind == GC_DESC_EXPLICIT);
    gc_conn *c = d->conn;
    for (gc_stmt *s = c->statements; s != NULL; s = s->next_in_conn) {
        if (s->ard == d)
            s->ard = s->ard_implicit;
        if (s->apd == d)
            s->apd = s->apd_implicit;
    }
    for (gc_desc **p = &c->descriptors; *p != NULL; p = &(*p)->next_in_conn) {
        if (*p == d) {
            *p = d->next_in_conn;
            break;
        }
    }
    desc_free(d);
}

gc_desc_rec *gc_desc_rec_get(gc_desc *d, int n)
{
    if (n < 1 || n > GC_DESC_MAX_RECORDS)
        return NULL;
    if (n > d->capacity) {
        int cap = d->capacity ? d->capacity : 8;
        while (cap < n)
            cap *= 2;
        if (cap > GC_DESC_MAX_RECORDS)
            cap = GC_DESC_MAX_RECORDS;
        gc_desc_rec *r = realloc(d->recs, (size_t)cap * sizeof *r);
        if (r == NULL)
            return NULL;
        memset(r + d->capacity, 0, (size_t)(cap - d->capacity) * sizeof *r);
        d->recs = r;
        d->capacity = cap;
    }
    if (n > d->count) {
        for (int i = d->count; i < n; i++) {
            gc_desc_rec *r = &d->recs[i];
            free(r->name);
            gc_desc_rec_forget_origin(r);
            memset(r, 0, sizeof *r);
            r->parameter_type = SQL_PARAM_INPUT;
            r->nullable = SQL_NULLABLE;
            r->unnamed = SQL_UNNAMED;
            gc_desc_rec_set_concise(r, d->kind == GC_DESC_IPD ? SQL_VARCHAR : SQL_C_DEFAULT);
        }
        d->count = n;
    }
    return &d->recs[n - 1];
}

void gc_desc_rec_forget_origin(gc_desc_rec *r)
{
    free(r->origin.catalog);
    free(r->origin.schema);
    free(r->origin.table);
    free(r->origin.column);
    r->origin = (gc_column_origin){ NULL, NULL, NULL, NULL };
}

gc_desc_rec *gc_desc_rec_find(gc_desc *d, int n)
{
    return n >= 1 && n <= d->count ? &d->recs[n - 1] : NULL;
}

void gc_desc_clear_records(gc_desc *d)
{
    for (int i = 0; i < d->capacity; i++) {
        free(d->recs[i].name);
        d->recs[i].name = NULL;
        gc_desc_rec_forget_origin(&d->recs[i]);
    }
    d->count = 0;
}

void gc_desc_trim_count(gc_desc *d)
{
    while (d->count > 0) {
        const gc_desc_rec *r = &d->recs[d->count - 1];
        if (r->data_ptr != NULL || r->indicator_ptr != NULL || r->octet_length_ptr != NULL)
            break;
        d->count--;
    }
}

/* Whether a concise type is one of the thirteen interval types: SQL and C
 * interval types share the numbers 100 + SQL_CODE_YEAR..MINUTE_TO_SECOND. */
static bool is_interval_concise(SQLSMALLINT concise)
{
    return concise >= SQL_INTERVAL_YEAR && concise <= SQL_INTERVAL_MINUTE_TO_SECOND;
}

/* Datetime and interval concise types split into a verbose type
 * (SQL_DATETIME, SQL_INTERVAL) plus a subcode, both for SQL and C types,
 * which share the numbers. */
void gc_desc_rec_set_concise(gc_desc_rec *r, SQLSMALLINT concise)
{
    r->concise_type = concise;
    r->datetime_interval_code = 0;
    switch (concise) {
    case SQL_TYPE_DATE: case SQL_DATE:
        r->type = SQL_DATETIME; r->datetime_interval_code = SQL_CODE_DATE; break;
    case SQL_TYPE_TIME: case SQL_TIME:
        r->type = SQL_DATETIME; r->datetime_interval_code = SQL_CODE_TIME; break;
    case SQL_TYPE_TIMESTAMP: case SQL_TIMESTAMP:
        r->type = SQL_DATETIME; r->datetime_interval_code = SQL_CODE_TIMESTAMP; break;
    default:
        if (is_interval_concise(concise)) {
            r->type = SQL_INTERVAL;
            r->datetime_interval_code = (SQLSMALLINT)(concise - 100);
        } else {
            r->type = concise;
        }
        break;
    }
}

void *gc_desc_bound_ptr(const gc_desc *ard, void *base, SQLULEN slot, SQLLEN elem_size)
{
    if (base == NULL)
        return NULL;
    SQLLEN offset = ard->bind_offset_ptr ? *ard->bind_offset_ptr : 0;
    SQLLEN stride = ard->bind_type == SQL_BIND_BY_COLUMN ? elem_size : ard->bind_type;
    return (char *)base + offset + (SQLLEN)slot * stride;
}

/* The concise type that a verbose type plus subcode means: SQL_DATETIME
 * and SQL_INTERVAL need the subcode (0 while it is not set yet). */
static SQLSMALLINT concise_from_verbose(SQLSMALLINT type, SQLSMALLINT code)
{
    if (type == SQL_INTERVAL)
        return is_interval_concise((SQLSMALLINT)(100 + code)) ? (SQLSMALLINT)(100 + code)
                                                              : SQL_INTERVAL;
    if (type != SQL_DATETIME)
        return type;
    switch (code) {
    case SQL_CODE_DATE: return SQL_TYPE_DATE;
    case SQL_CODE_TIME: return SQL_TYPE_TIME;
    default: return SQL_TYPE_TIMESTAMP;
    }
}

/* Whether code is a subcode of the verbose type: SQL_CODE_DATE..TIMESTAMP
 * for SQL_DATETIME, SQL_CODE_YEAR..MINUTE_TO_SECOND for SQL_INTERVAL; any
 * value for other types, which ignore it. */
static bool interval_code_fits(SQLSMALLINT type, SQLLEN code)
{
    if (type == SQL_DATETIME)
        return code >= SQL_CODE_DATE && code <= SQL_CODE_TIMESTAMP;
    if (type == SQL_INTERVAL)
        return code >= SQL_CODE_YEAR && code <= SQL_CODE_MINUTE_TO_SECOND;
    return true;
}

static bool is_app_desc(const gc_desc *d)
{
    return d->kind == GC_DESC_ARD || d->kind == GC_DESC_APD || d->kind == GC_DESC_EXPLICIT;
}

/* Writes an integer field of the size ODBC defines for it. */
static void put_int(SQLPOINTER value, int size, SQLLEN v)
{
    if (value == NULL)
        return;
    switch (size) {
    case 2: *(SQLSMALLINT *)value = (SQLSMALLINT)v; break;
    case 4: *(SQLINTEGER *)value = (SQLINTEGER)v; break;
    default: *(SQLLEN *)value = v; break;
    }
}

/* An IRD's nullable fields come from a catalog lookup made when first asked
 * (gc_stmt_resolve_nullability); other descriptors hold what was set. */
static void resolve_ird_nullability(gc_desc *d)
{
    if (d->kind == GC_DESC_IRD && d->owner != NULL)
        gc_stmt_resolve_nullability(d->owner);
}

/* SQLGetDescField. String fields are UTF-8 or UTF-16 (wide), lengths in bytes. */
SQLRETURN gc_desc_get_field(gc_desc *d, SQLSMALLINT recno, SQLSMALLINT field,
                            SQLPOINTER value, SQLINTEGER buffer_length,
                            SQLINTEGER *string_length, bool wide)
{
    gc_diag *diag = &d->h.diag;
    /* Header fields. */
    switch (field) {
    case SQL_DESC_ALLOC_TYPE: put_int(value, 2, d->alloc_type); return SQL_SUCCESS;
    case SQL_DESC_ARRAY_SIZE: put_int(value, 8, (SQLLEN)d->array_size); return SQL_SUCCESS;
    case SQL_DESC_ARRAY_STATUS_PTR:
        if (value) *(SQLPOINTER *)value = d->array_status_ptr;
        return SQL_SUCCESS;
    case SQL_DESC_BIND_OFFSET_PTR:
        if (value) *(SQLPOINTER *)value = d->bind_offset_ptr;
        return SQL_SUCCESS;
    case SQL_DESC_BIND_TYPE: put_int(value, 4, d->bind_type); return SQL_SUCCESS;
    case SQL_DESC_COUNT: put_int(value, 2, d->count); return SQL_SUCCESS;
    case SQL_DESC_ROWS_PROCESSED_PTR:
        if (value) *(SQLPOINTER *)value = d->rows_processed_ptr;
        return SQL_SUCCESS;
    default: break;
    }
    if (recno < 0) {
        gc_diag_add(diag, "07009", 0, "invalid descriptor index %d", recno);
        return SQL_ERROR;
    }
    gc_desc_rec bookmark;
    if (recno == 0 && !gc_desc_bookmark_view(d, &bookmark))
        return SQL_ERROR;
    if (field == SQL_DESC_NULLABLE && recno > 0)
        resolve_ird_nullability(d);
    if (gc_desc_attr_names_origin((SQLUSMALLINT)field) && recno > 0 &&
        d->kind == GC_DESC_IRD && d->owner != NULL)
        gc_stmt_resolve_origins(d->owner);
    gc_desc_rec *r = recno == 0 ? &bookmark : gc_desc_rec_find(d, recno);
    if (r == NULL)
        return SQL_NO_DATA;
    switch (field) {
    case SQL_DESC_TYPE: put_int(value, 2, r->type); return SQL_SUCCESS;
    case SQL_DESC_CONCISE_TYPE: put_int(value, 2, r->concise_type); return SQL_SUCCESS;
    case SQL_DESC_DATETIME_INTERVAL_CODE: put_int(value, 2, r->datetime_interval_code); return SQL_SUCCESS;
    case SQL_DESC_DATETIME_INTERVAL_PRECISION: put_int(value, 4, r->datetime_interval_precision); return SQL_SUCCESS;
    case SQL_DESC_LENGTH: put_int(value, 8, (SQLLEN)r->length); return SQL_SUCCESS;
    case SQL_DESC_PRECISION: put_int(value, 2, r->precision); return SQL_SUCCESS;
    case SQL_DESC_SCALE: put_int(value, 2, r->scale); return SQL_SUCCESS;
    case SQL_DESC_OCTET_LENGTH: put_int(value, 8, r->octet_length); return SQL_SUCCESS;
    case SQL_DESC_DATA_PTR:
        if (value) *(SQLPOINTER *)value = r->data_ptr;
        return SQL_SUCCESS;
    case SQL_DESC_OCTET_LENGTH_PTR:
        if (value) *(SQLPOINTER *)value = r->octet_length_ptr;
        return SQL_SUCCESS;
    case SQL_DESC_INDICATOR_PTR:
        if (value) *(SQLPOINTER *)value = r->indicator_ptr;
        return SQL_SUCCESS;
    case SQL_DESC_PARAMETER_TYPE: put_int(value, 2, r->parameter_type); return SQL_SUCCESS;
    case SQL_DESC_NULLABLE: put_int(value, 2, r->nullable); return SQL_SUCCESS;
    case SQL_DESC_UNNAMED: put_int(value, 2, r->unnamed); return SQL_SUCCESS;
    case SQL_DESC_NAME: {
        gc_strout out = { value, buffer_length, wide, GC_LEN_BYTES };
        return gc_strout_put_int(&out, r->name, string_length, diag);
    }
    default: break;
    }
    if (d->kind == GC_DESC_IRD) {
        const char *str = NULL;
        SQLLEN num = 0;
        int size = gc_desc_ird_attr(r, (SQLUSMALLINT)field, &str, &num);
        if (size == GC_DESC_ATTR_STRING) {
            gc_strout out = { value, buffer_length, wide, GC_LEN_BYTES };
            return gc_strout_put_int(&out, str, string_length, diag);
        }
        if (size > 0) {
            put_int(value, size, num);
            return SQL_SUCCESS;
        }
    }
    gc_diag_add(diag, "HY091", 0, "invalid descriptor field identifier %d", field);
    return SQL_ERROR;
}

static SQLRETURN set_bookmark_field(gc_desc *d, SQLSMALLINT field, SQLPOINTER value,
                                    SQLINTEGER buffer_length);
static SQLRETURN set_record_field(gc_desc *d, gc_desc_rec *r, SQLSMALLINT field,
                                  SQLPOINTER value, SQLINTEGER buffer_length);

/* SQLSetDescField. The IRD is read-only (HY016); record 0 is the bookmark. */
SQLRETURN gc_desc_set_field(gc_desc *d, SQLSMALLINT recno, SQLSMALLINT field,
                            SQLPOINTER value, SQLINTEGER buffer_length)
{
    gc_diag *diag = &d->h.diag;
    if (d->kind == GC_DESC_IRD && field != SQL_DESC_ARRAY_STATUS_PTR &&
        field != SQL_DESC_ROWS_PROCESSED_PTR) {
        gc_diag_add(diag, "HY016", 0, "cannot modify an implementation row descriptor");
        return SQL_ERROR;
    }
    SQLLEN iv = (SQLLEN)(intptr_t)value;
    switch (field) {
    case SQL_DESC_ARRAY_SIZE:
        if (iv < 1) {
            gc_diag_add(diag, "HY024", 0, "invalid array size %ld", (long)iv);
            return SQL_ERROR;
        }
        d->array_size = (SQLULEN)iv;
        return SQL_SUCCESS;
    case SQL_DESC_ARRAY_STATUS_PTR: d->array_status_ptr = value; return SQL_SUCCESS;
    case SQL_DESC_BIND_OFFSET_PTR: d->bind_offset_ptr = value; return SQL_SUCCESS;
    case SQL_DESC_BIND_TYPE: d->bind_type = (SQLINTEGER)iv; return SQL_SUCCESS;
    case SQL_DESC_ROWS_PROCESSED_PTR: d->rows_processed_ptr = value; return SQL_SUCCESS;
    case SQL_DESC_ALLOC_TYPE:
        gc_diag_add(diag, "HY091", 0, "SQL_DESC_ALLOC_TYPE is read-only");
        return SQL_ERROR;
    case SQL_DESC_COUNT:
        if (iv < 0 || iv > 32767) {
            gc_diag_add(diag, "07009", 0, "invalid descriptor count %ld", (long)iv);
            return SQL_ERROR;
        }
        if (iv > d->count) {
            if (gc_desc_rec_get(d, (int)iv) == NULL) {
                gc_diag_add(diag, "HY001", 0, "out of memory");
                return SQL_ERROR;
            }
        } else {
            for (int i = (int)iv; i < d->count; i++) {
                free(d->recs[i].name);
                d->recs[i].name = NULL;
                gc_desc_rec_forget_origin(&d->recs[i]);
            }
            d->count = (int)iv;
        }
        return SQL_SUCCESS;
    default: break;
    }
    if (recno < 0) {
        gc_diag_add(diag, "07009", 0, "invalid descriptor index %d", recno);
        return SQL_ERROR;
    }
    if (recno == 0)
        return set_bookmark_field(d, field, value, buffer_length);
    gc_desc_rec *r = gc_desc_rec_get(d, recno);
    if (r == NULL) {
        gc_diag_add(diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    return set_record_field(d, r, field, value, buffer_length);
}

/* SQLSetDescField on record 0, the bookmark (gc_desc_bookmark.h): the field
 * is set on a view of the statement's bookmark binding, stored back whole. */
static SQLRETURN set_bookmark_field(gc_desc *d, SQLSMALLINT field, SQLPOINTER value,
                                    SQLINTEGER buffer_length)
{
    gc_desc_rec view;
    if (!gc_desc_bookmark_view(d, &view))
        return SQL_ERROR;
    if (field == SQL_DESC_NAME || field == SQL_DESC_UNNAMED) {
        gc_diag_add(&d->h.diag, "HY091", 0, "the bookmark record has no name");
        return SQL_ERROR;
    }
    SQLRETURN rc = set_record_field(d, &view, field, value, buffer_length);
    if (rc != SQL_SUCCESS)
        return rc;
    return gc_desc_bookmark_store(d, &view) ? SQL_SUCCESS : SQL_ERROR;
}

/* Sets a field of record r of d. */
static SQLRETURN set_record_field(gc_desc *d, gc_desc_rec *r, SQLSMALLINT field,
                                  SQLPOINTER value, SQLINTEGER buffer_length)
{
    gc_diag *diag = &d->h.diag;
    SQLLEN iv = (SQLLEN)(intptr_t)value;
    switch (field) {
    case SQL_DESC_TYPE:
        r->type = (SQLSMALLINT)iv;
        r->concise_type = concise_from_verbose(r->type, r->datetime_interval_code);
        if (r->type == SQL_DATETIME && r->datetime_interval_code == 0)
            gc_desc_rec_set_concise(r, r->concise_type);
        break;
    case SQL_DESC_CONCISE_TYPE: gc_desc_rec_set_concise(r, (SQLSMALLINT)iv); break;
    case SQL_DESC_DATETIME_INTERVAL_CODE:
        if (!interval_code_fits(r->type, iv)) {
            gc_diag_add(diag, "HY021", 0, "inconsistent descriptor information: %ld is no "
                        "SQL_DESC_DATETIME_INTERVAL_CODE of type %d", (long)iv, r->type);
            return SQL_ERROR;
        }
        r->datetime_interval_code = (SQLSMALLINT)iv;
        r->concise_type = concise_from_verbose(r->type, r->datetime_interval_code);
        break;
    case SQL_DESC_DATETIME_INTERVAL_PRECISION: r->datetime_interval_precision = (SQLINTEGER)iv; break;
    case SQL_DESC_LENGTH: r->length = (SQLULEN)iv; break;
    case SQL_DESC_PRECISION: r->precision = (SQLSMALLINT)iv; break;
    case SQL_DESC_SCALE: r->scale = (SQLSMALLINT)iv; break;
    case SQL_DESC_OCTET_LENGTH: r->octet_length = iv; break;
    case SQL_DESC_DATA_PTR: r->data_ptr = value; break;
    case SQL_DESC_OCTET_LENGTH_PTR: r->octet_length_ptr = value; break;
    case SQL_DESC_INDICATOR_PTR: r->indicator_ptr = value; break;
    case SQL_DESC_PARAMETER_TYPE:
        if (iv != SQL_PARAM_INPUT) {
            gc_diag_add(diag, "HYC00", 0, "only input parameters are supported");
            return SQL_ERROR;
        }
        r->parameter_type = (SQLSMALLINT)iv;
        break;
    case SQL_DESC_NULLABLE: r->nullable = (SQLSMALLINT)iv; break;
    case SQL_DESC_UNNAMED: r->unnamed = (SQLSMALLINT)iv; break;
    case SQL_DESC_NAME: {
        char *copy = NULL;
        if (value != NULL) {
            size_t n = buffer_length == SQL_NTS ? strlen(value) : (size_t)buffer_length;
            copy = malloc(n + 1);
            if (copy == NULL) {
                gc_diag_add(diag, "HY001", 0, "out of memory");
                return SQL_ERROR;
            }
            memcpy(copy, value, n);
            copy[n] = '\0';
        }
        free(r->name);
        r->name = copy;
        r->unnamed = copy != NULL && copy[0] ? SQL_NAMED : SQL_UNNAMED;
        break;
    }
    default:
        gc_diag_add(diag, "HY091", 0, "invalid or read-only descriptor field %d", field);
        return SQL_ERROR;
    }
    if (is_app_desc(d))
        gc_desc_trim_count(d);
    return SQL_SUCCESS;
}

SQLRETURN gc_desc_get_rec(gc_desc *d, SQLSMALLINT recno, const gc_strout *name,
                          SQLSMALLINT *name_length, SQLSMALLINT *type,
                          SQLSMALLINT *sub_type, SQLLEN *length,
                          SQLSMALLINT *precision, SQLSMALLINT *scale,
                          SQLSMALLINT *nullable)
{
    if (recno < 0) {
        gc_diag_add(&d->h.diag, "07009", 0, "invalid descriptor index %d", recno);
        return SQL_ERROR;
    }
    gc_desc_rec bookmark;
    if (recno == 0 && !gc_desc_bookmark_view(d, &bookmark))
        return SQL_ERROR;
    if (nullable != NULL && recno > 0)
        resolve_ird_nullability(d);
    gc_desc_rec *r = recno == 0 ? &bookmark : gc_desc_rec_find(d, recno);
    if (r == NULL)
        return SQL_NO_DATA;
    if (type) *type = r->type;
    if (sub_type) *sub_type = r->datetime_interval_code;
    if (length) *length = r->octet_length;
    if (precision) *precision = r->precision;
    if (scale) *scale = r->scale;
    if (nullable) *nullable = r->nullable;
    return gc_strout_put_small(name, r->name, name_length, &d->h.diag);
}

SQLRETURN gc_desc_set_rec(gc_desc *d, SQLSMALLINT recno, SQLSMALLINT type,
                          SQLSMALLINT sub_type, SQLLEN length, SQLSMALLINT precision,
                          SQLSMALLINT scale, SQLPOINTER data, SQLLEN *string_length,
                          SQLLEN *indicator)
{
    if (d->kind == GC_DESC_IRD) {
        gc_diag_add(&d->h.diag, "HY016", 0, "cannot modify an implementation row descriptor");
        return SQL_ERROR;
    }
    if (recno < 0) {
        gc_diag_add(&d->h.diag, "07009", 0, "invalid descriptor index %d", recno);
        return SQL_ERROR;
    }
    gc_desc_rec bookmark;
    if (recno == 0 && !gc_desc_bookmark_view(d, &bookmark))
        return SQL_ERROR;
    gc_desc_rec *r = recno == 0 ? &bookmark : gc_desc_rec_get(d, recno);
    if (r == NULL) {
        gc_diag_add(&d->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    r->type = type;
    r->datetime_interval_code = type == SQL_DATETIME || type == SQL_INTERVAL ? sub_type : 0;
    r->concise_type = concise_from_verbose(type, sub_type);
    r->octet_length = length;
    r->length = (SQLULEN)length;
    r->precision = precision;
    r->scale = scale;
    r->data_ptr = data;
    r->octet_length_ptr = string_length;
    r->indicator_ptr = indicator;
    if (recno == 0)
        return gc_desc_bookmark_store(d, r) ? SQL_SUCCESS : SQL_ERROR;
    if (is_app_desc(d))
        gc_desc_trim_count(d);
    return SQL_SUCCESS;
}

/* SQLCopyDesc: every field but the allocation type and the owner. */
SQLRETURN gc_desc_copy(gc_desc *src, gc_desc *dst)
{
    if (dst->kind == GC_DESC_IRD) {
        gc_diag_add(&dst->h.diag, "HY016", 0, "cannot modify an implementation row descriptor");
        return SQL_ERROR;
    }
    if (src == dst)
        return SQL_SUCCESS;
    gc_desc_clear_records(dst);
    if (src->count > 0 && gc_desc_rec_get(dst, src->count) == NULL) {
        gc_diag_add(&dst->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    for (int i = 0; i < src->count; i++) {
        gc_desc_rec *to = &dst->recs[i];
        *to = src->recs[i];
        to->name = src->recs[i].name ? strdup(src->recs[i].name) : NULL;
        to->origin = (gc_column_origin){ NULL, NULL, NULL, NULL };
    }
    dst->count = src->count;
    dst->array_size = src->array_size;
    dst->array_status_ptr = src->array_status_ptr;
    dst->bind_offset_ptr = src->bind_offset_ptr;
    dst->bind_type = src->bind_type;
    dst->rows_processed_ptr = src->rows_processed_ptr;
    return SQL_SUCCESS;
}
