/*
 * gc_param: SQLBindParameter, SQLNumParams, SQLDescribeParam, and reading the
 * bound values of one row of the parameter array for execution.
 */
#include "core/gc_param.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/gc_desc.h"

SQLRETURN gc_stmt_bind_parameter(gc_stmt *s, SQLUSMALLINT n, SQLSMALLINT io_type,
                                 SQLSMALLINT c_type, SQLSMALLINT sql_type,
                                 SQLULEN column_size, SQLSMALLINT decimal_digits,
                                 SQLPOINTER value, SQLLEN buffer_length, SQLLEN *ind)
{
    if (s->state == GC_STMT_NEED_DATA) {
        gc_diag_add(&s->h.diag, "HY010", 0, "function sequence error: data at execution pending");
        return SQL_ERROR;
    }
    if (n < 1) {
        gc_diag_add(&s->h.diag, "07009", 0, "invalid parameter number %u", n);
        return SQL_ERROR;
    }
    if (io_type != SQL_PARAM_INPUT && io_type != SQL_PARAM_OUTPUT &&
        io_type != SQL_PARAM_INPUT_OUTPUT) {
        /* Streamed output parameters (ODBC 3.8) included: not supported. */
        gc_diag_add(&s->h.diag, "HY105", 0, "parameter %u: invalid parameter type %d", n,
                    (int)io_type);
        return SQL_ERROR;
    }
    if (buffer_length == SQL_SETPARAM_VALUE_MAX) {
        /* ODBC 1's SQLSetParam, as the driver manager passes it on: no buffer
         * length at all. An input value is read by its indicator or its C
         * type; nothing is ever written back past an unknown length. */
        buffer_length = 0;
    } else if (buffer_length < 0) {
        gc_diag_add(&s->h.diag, "HY090", 0, "invalid buffer length %ld", (long)buffer_length);
        return SQL_ERROR;
    }
    /* The type codes are checked here, where ODBC says; whether the pair
     * converts is still SQLExecute's question (07006). */
    if (!gc_c_type_is_valid(c_type)) {
        gc_diag_add(&s->h.diag, "HY003", 0, "parameter %u: invalid C data type %d", n,
                    (int)c_type);
        return SQL_ERROR;
    }
    if (!gc_sql_type_is_valid(sql_type)) {
        gc_diag_add(&s->h.diag, "HY004", 0, "parameter %u: invalid SQL data type %d", n,
                    (int)sql_type);
        return SQL_ERROR;
    }
    gc_desc_rec *a = gc_desc_rec_get(s->apd, n);
    gc_desc_rec *p = gc_desc_rec_get(s->ipd, n);
    if (a == NULL || p == NULL) {
        gc_diag_add(&s->h.diag, "HY001", 0, "out of memory");
        return SQL_ERROR;
    }
    gc_desc_rec_set_concise(a, c_type);
    a->data_ptr = value;
    a->octet_length = buffer_length;
    a->octet_length_ptr = ind;
    a->indicator_ptr = ind;
    a->precision = (SQLSMALLINT)(column_size > 32767 ? 32767 : column_size);
    a->scale = decimal_digits;
    gc_desc_rec_set_concise(p, sql_type);
    p->parameter_type = io_type;
    p->length = column_size;
    p->precision = (SQLSMALLINT)(column_size > 32767 ? 32767 : column_size);
    p->scale = decimal_digits;
    return SQL_SUCCESS;
}

SQLRETURN gc_stmt_num_params(gc_stmt *s, SQLSMALLINT *count)
{
    if (s->sql == NULL || s->state == GC_STMT_NEED_DATA) {
        gc_diag_add(&s->h.diag, "HY010", 0, "function sequence error: no statement prepared");
        return SQL_ERROR;
    }
    if (s->nparams > INT16_MAX) {
        /* The count does not fit the SQLSMALLINT ODBC gives it; a wrapped
         * negative count would only mislead. */
        gc_diag_add(&s->h.diag, "22003", 0,
                    "the statement has %d parameter markers; SQLNumParams can report "
                    "at most %d (bind by number up to %d instead)",
                    s->nparams, INT16_MAX, GC_PARAM_MAX);
        return SQL_ERROR;
    }
    if (count != NULL)
        *count = (SQLSMALLINT)s->nparams;
    return SQL_SUCCESS;
}

SQLRETURN gc_stmt_describe_param(gc_stmt *s, SQLUSMALLINT n, SQLSMALLINT *sql_type,
                                 SQLULEN *size, SQLSMALLINT *digits,
                                 SQLSMALLINT *nullable)
{
    if (s->sql == NULL || s->state == GC_STMT_NEED_DATA) {
        gc_diag_add(&s->h.diag, "HY010", 0, "function sequence error: no statement prepared");
        return SQL_ERROR;
    }
    if (n < 1 || (int)n > s->nparams) {
        gc_diag_add(&s->h.diag, "07009", 0, "invalid parameter number %u", n);
        return SQL_ERROR;
    }
    /* Beyond GC_DESCRIBE_PARAMS_MAX libpq cannot read the server's answer:
     * such a statement's parameters are described as bound, else as text. */
    if (s->prepared && !s->described && s->nparams <= GC_DESCRIBE_PARAMS_MAX) {
        SQLRETURN rc = gc_exec_describe_prepared(s);
        if (!SQL_SUCCEEDED(rc))
            return rc;
    }
    gc_pgtype_info info;
    memset(&info, 0, sizeof info);
    Oid oid = s->described && (int)n <= s->described_nparams
              ? s->described_param_types[n - 1] : 0;
    if (oid != 0) {
        gc_pgtype_describe(oid, -1, &info);
    } else {
        /* Not known to the server: what the application bound, else text. */
        const gc_desc_rec *p = gc_desc_rec_find(s->ipd, n);
        info.sql_type = p != NULL ? p->concise_type : SQL_VARCHAR;
        info.column_size = p != NULL ? p->length : 255;
        info.decimal_digits = p != NULL ? p->scale : 0;
    }
    if (sql_type) *sql_type = info.sql_type;
    if (size) *size = info.column_size;
    if (digits) *digits = info.decimal_digits;
    /* A PostgreSQL parameter always accepts NULL; a NOT NULL column the
     * value goes into refuses it when the statement runs, not here. */
    if (nullable) *nullable = SQL_NULLABLE;
    return SQL_SUCCESS;
}

/* Where row `row` of a bound value lives, following the binding
 * orientation and the bind offset. elem_size is the column-wise stride. */
static void *row_address(const gc_desc *apd, void *base, SQLULEN row, SQLLEN elem_size)
{
    if (base == NULL)
        return NULL;
    char *p = base;
    if (apd->bind_offset_ptr != NULL)
        p += *apd->bind_offset_ptr;
    SQLLEN stride = apd->bind_type == SQL_BIND_BY_COLUMN ? elem_size : apd->bind_type;
    return p + (SQLLEN)row * stride;
}

/* The SQLLEN at p: row-wise layouts (pyodbc's fast_executemany among
 * them) need not align it. */
static SQLLEN read_len(const SQLLEN *p)
{
    SQLLEN v;
    memcpy(&v, p, sizeof v);
    return v;
}

void gc_param_locate(const gc_stmt *s, int i, SQLULEN row, gc_param_ref *out)
{
    const gc_desc *apd = s->apd;
    const gc_desc_rec *a = &apd->recs[i];
    const gc_desc_rec *p = gc_desc_rec_find(s->ipd, i + 1);
    memset(out, 0, sizeof *out);
    out->c_type = a->concise_type;
    out->sql_type = p != NULL ? p->concise_type : SQL_VARCHAR;
    out->column_size = p != NULL ? p->length : 0;
    out->decimal_digits = p != NULL ? p->scale : 0;
    out->buffer_length = a->octet_length;
    SQLLEN size = gc_c_type_size(a->concise_type);
    out->value = row_address(apd, a->data_ptr, row, size > 0 ? size : a->octet_length);
    SQLLEN *ind = row_address(apd, a->indicator_ptr, row, sizeof(SQLLEN));
    SQLLEN *len = row_address(apd, a->octet_length_ptr, row, sizeof(SQLLEN));
    out->io_type = p != NULL && p->parameter_type != 0 ? p->parameter_type : SQL_PARAM_INPUT;
    out->indicator_ptr = ind;
    out->length_ptr = len;
    if (out->io_type == SQL_PARAM_OUTPUT)
        out->octet_length = SQL_NULL_DATA;    /* nothing to send: NULL in its place */
    else if (ind != NULL && read_len(ind) == SQL_NULL_DATA)
        out->octet_length = SQL_NULL_DATA;
    else if (len != NULL)
        out->octet_length = read_len(len);
    else
        out->octet_length = SQL_NTS;
    out->data_at_exec = out->octet_length == SQL_DATA_AT_EXEC ||
                        out->octet_length <= SQL_LEN_DATA_AT_EXEC_OFFSET;
}

bool gc_param_all_bound(gc_stmt *s, int *missing)
{
    for (int i = 0; i < s->nparams; i++) {
        const gc_desc_rec *a = gc_desc_rec_find(s->apd, i + 1);
        if (a == NULL || (a->data_ptr == NULL && a->indicator_ptr == NULL &&
                          a->octet_length_ptr == NULL)) {
            *missing = i + 1;
            return false;
        }
    }
    return true;
}

bool gc_param_wire_fill(gc_param_wire *w, const gc_param_value *pv, int n)
{
    size_t count = n > 0 ? (size_t)n : 1;
    char *block = malloc(count * (sizeof *w->values + sizeof *w->types +
                                  sizeof *w->lengths + sizeof *w->formats));
    if (block == NULL)
        return false;
    w->values = (const char **)(void *)block;     /* pointers first: widest alignment */
    w->types = (Oid *)(void *)(w->values + count);
    w->lengths = (int *)(void *)(w->types + count);
    w->formats = w->lengths + count;
    for (int i = 0; i < n; i++) {
        w->types[i] = pv[i].type_oid;
        w->values[i] = pv[i].data;
        w->lengths[i] = pv[i].length;
        w->formats[i] = pv[i].format;
    }
    return true;
}

void gc_param_wire_free(gc_param_wire *w)
{
    free(w->values);      /* the block's start */
    w->values = NULL;
}

Oid gc_param_declared_type(const gc_stmt *s, int i, const gc_param_value *v)
{
    if (s->params_uninferred != NULL && s->params_uninferred[i] && v->type_uninferred != 0)
        return v->type_uninferred;
    if (s->params_untyped && v->format == 0)
        return 0;
    return v->type_oid;
}

int gc_param_uninferred(const gc_stmt *s, const char *sqlstate, const char *message)
{
    if (sqlstate == NULL || message == NULL || strcmp(sqlstate, "42P18") != 0)
        return -1;
    /* The server's words may be translated; the marker is not. */
    const char *marker = strchr(message, '$');
    while (marker != NULL && !isdigit((unsigned char)marker[1]))
        marker = strchr(marker + 1, '$');
    long i = marker != NULL ? strtol(marker + 1, NULL, 10) - 1 : -1;
    if (i < 0 || i >= s->nparams)
        return -1;
    bool tried = s->params_uninferred != NULL && s->params_uninferred[i];
    return tried ? -1 : (int)i;
}

bool gc_param_mark_uninferred(gc_stmt *s, int i)
{
    if (s->params_uninferred == NULL) {
        s->params_uninferred = calloc((size_t)s->nparams, sizeof *s->params_uninferred);
        if (s->params_uninferred == NULL)
            return false;
    }
    s->params_uninferred[i] = true;
    return true;
}
