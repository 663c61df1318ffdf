/*
 * gc_desc: ODBC descriptors, the storage of everything a statement knows
 * about its parameters and result columns.
 *
 *   ARD  application row descriptor        SQLBindCol
 *   APD  application parameter descriptor  SQLBindParameter, C side
 *   IRD  implementation row descriptor     result columns (read-only to apps)
 *   IPD  implementation parameter desc.    SQLBindParameter, SQL side
 *
 * Every statement owns four implicit descriptors; an application may also
 * allocate explicit ones (SQLAllocHandle(SQL_HANDLE_DESC)) and make them a
 * statement's ARD or APD. Records are numbered from 1 as in ODBC; record 0
 * of a statement's ARD and IRD, the bookmark column, is a view of the
 * statement's bookmark binding (gc_desc_bookmark.h), not stored here.
 *
 * Locking: a descriptor is guarded by its connection's lock, like statements.
 */
#ifndef GC_DESC_H
#define GC_DESC_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "core/gc_desc_rec.h"
#include "core/gc_handle.h"
#include "core/gc_strout.h"

typedef enum gc_desc_kind {
    GC_DESC_ARD = 1,
    GC_DESC_APD,
    GC_DESC_IRD,
    GC_DESC_IPD,
    GC_DESC_EXPLICIT,     /* allocated by the application; used as ARD or APD */
} gc_desc_kind;

struct gc_desc {
    gc_handle h;
    gc_conn *conn;
    gc_desc *next_in_conn;            /* explicit descriptors: conn->descriptors */
    gc_desc_kind kind;
    gc_stmt *owner;                   /* implicit descriptors: their statement */

    /* Header fields. */
    SQLSMALLINT alloc_type;           /* SQL_DESC_ALLOC_AUTO / SQL_DESC_ALLOC_USER */
    SQLULEN array_size;
    SQLUSMALLINT *array_status_ptr;
    SQLLEN *bind_offset_ptr;
    SQLINTEGER bind_type;             /* SQL_BIND_BY_COLUMN or a row size */
    SQLULEN *rows_processed_ptr;

    /* int, not SQLSMALLINT: parameters are numbered up to 65,535. */
    int count;                        /* highest record in use */
    int capacity;
    gc_desc_rec *recs;                /* recs[0] is record 1 */
};

/* Allocates an implicit descriptor of a statement; NULL on out-of-memory. */
gc_desc *gc_desc_create_implicit(gc_stmt *owner, gc_conn *c, gc_desc_kind kind);
void gc_desc_destroy_implicit(gc_desc *d);

/* SQLAllocHandle(SQL_HANDLE_DESC): links the descriptor into c->descriptors.
 * SQLFreeHandle: unlinks it, and every statement using it as ARD or APD goes
 * back to its implicit one. */
SQLRETURN gc_desc_create_explicit(gc_conn *c, gc_desc **out);
void gc_desc_destroy_explicit(gc_desc *d);

/* The highest record number: parameter numbers are SQLUSMALLINT, and
 * PostgreSQL takes at most 65,535 parameters. */
#define GC_DESC_MAX_RECORDS 65535

/* Record `n` (1-based), growing the array as needed (count is raised to n).
 * NULL on out-of-memory or n outside 1..GC_DESC_MAX_RECORDS. */
gc_desc_rec *gc_desc_rec_get(gc_desc *d, int n);
/* Record n if it exists (n <= count), else NULL. */
gc_desc_rec *gc_desc_rec_find(gc_desc *d, int n);
/* Drops every record (count = 0), freeing names. */
void gc_desc_clear_records(gc_desc *d);
/* Lowers count to the highest record that is bound (data or indicator). */
void gc_desc_trim_count(gc_desc *d);
/* Fills type, datetime_interval_code and concise_type from a concise type. */
void gc_desc_rec_set_concise(gc_desc_rec *r, SQLSMALLINT concise);
/* Address of rowset row `slot` of a bound buffer `base` whose elements are
 * elem_size bytes when bound by column (row-wise binding strides by the
 * row size), shifted by SQL_ATTR_ROW_BIND_OFFSET_PTR; NULL when base is. */
void *gc_desc_bound_ptr(const gc_desc *ard, void *base, SQLULEN slot, SQLLEN elem_size);

/* The descriptor functions; `out` says how strings go to the application. */
SQLRETURN gc_desc_get_field(gc_desc *d, SQLSMALLINT rec, SQLSMALLINT field,
                            SQLPOINTER value, SQLINTEGER buffer_length,
                            SQLINTEGER *string_length, bool wide);
SQLRETURN gc_desc_set_field(gc_desc *d, SQLSMALLINT rec, SQLSMALLINT field,
                            SQLPOINTER value, SQLINTEGER buffer_length);
SQLRETURN gc_desc_get_rec(gc_desc *d, SQLSMALLINT rec, const gc_strout *name,
                          SQLSMALLINT *name_length, SQLSMALLINT *type,
                          SQLSMALLINT *sub_type, SQLLEN *length,
                          SQLSMALLINT *precision, SQLSMALLINT *scale,
                          SQLSMALLINT *nullable);
SQLRETURN gc_desc_set_rec(gc_desc *d, SQLSMALLINT rec, SQLSMALLINT type,
                          SQLSMALLINT sub_type, SQLLEN length, SQLSMALLINT precision,
                          SQLSMALLINT scale, SQLPOINTER data, SQLLEN *string_length,
                          SQLLEN *indicator);
SQLRETURN gc_desc_copy(gc_desc *src, gc_desc *dst);

#endif
