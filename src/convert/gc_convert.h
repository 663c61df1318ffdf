/*
 * gc_convert: values between ODBC C types and PostgreSQL.
 *
 * Results arrive in libpq's text format; parameters leave as text (bytea as
 * binary). These functions are pure: no handles, no I/O; errors come back in a
 * gc_error with ODBC's SQLSTATEs (22003 out of range, 22018 invalid character
 * value, 22007 invalid datetime, 01004 truncated, 07006 restricted conversion,
 * 01S07 fractional truncation, 22015 interval field overflow, HY003/HY004
 * bad type codes). How a PostgreSQL type looks to ODBC is gc_pgtype.h.
 */
#ifndef GC_CONVERT_H
#define GC_CONVERT_H

#include <libpq-fe.h>
#include <sql.h>
#include <sqlext.h>
#include <stdbool.h>
#include <stddef.h>

#include "convert/gc_pgtype.h"
#include "util/gc_error.h"

/* Where a fetched value goes (from a SQLBindCol binding or SQLGetData call). */
typedef struct gc_fetch_target {
    SQLSMALLINT c_type;           /* may be SQL_C_DEFAULT */
    SQLPOINTER buffer;            /* may be NULL: only the length is reported */
    SQLLEN buffer_length;         /* bytes, for CHAR/WCHAR/BINARY */
    SQLLEN *length;               /* octet length out (may be NULL) */
    SQLLEN *indicator;            /* SQL_NULL_DATA out (may be NULL, may equal length) */
    SQLSMALLINT precision;        /* SQL_C_NUMERIC; seconds precision of the
                                   * interval types (0: the default, 6) */
    SQLSMALLINT scale;
    int interval_leading_precision; /* SQL_C_INTERVAL_*: digits allowed in the
                                   * leading field (0: what the struct holds) */
    bool lf_to_crlf;              /* LFConversion: text's LF read as CR LF */
    bool null_date_as_empty;      /* AB 0x8: a NULL date, timestamp or
                                   * timestamptz read as CHAR/WCHAR is '' */
} gc_fetch_target;

/*
 * Converts one result value (text format; is_null for SQL NULL) of type
 * pg_type into target.
 *
 * *piece_offset supports piecewise SQLGetData of CHAR, WCHAR and BINARY: it
 * counts bytes of the converted value already returned (0 on the first call)
 * and is advanced. A value returned whole, or a fixed-size type already
 * returned, gives SQL_NO_DATA on the next call. Pass NULL for SQLBindCol.
 *
 * Returns SQL_SUCCESS, SQL_SUCCESS_WITH_INFO (err: 01004 truncated, 01S07),
 * SQL_NO_DATA, or SQL_ERROR (err: 22003, 22018, 22007, 07006, 22002 when NULL
 * has no indicator, HY003).
 */
SQLRETURN gc_convert_value_to_c(Oid pg_type, const char *text, size_t text_len,
                                bool is_null, const gc_fetch_target *target,
                                size_t *piece_offset, gc_error *err);

/* A parameter ready for libpq. */
typedef struct gc_param_value {
    char *data;                   /* owned; NULL for SQL NULL */
    int length;                   /* bytes (binary format) */
    int format;                   /* 0 text, 1 binary */
    Oid type_oid;                 /* what to declare when preparing; 0 = infer */
    Oid type_uninferred;          /* what to declare where the server cannot
                                     infer it (42P18) */
} gc_param_value;

/*
 * Converts one bound parameter. `octet_length` is what the application's
 * StrLen_or_IndPtr holds: SQL_NULL_DATA, SQL_NTS, SQL_DEFAULT_PARAM or a byte
 * length (ignored for fixed-size C types); pass SQL_NTS when the pointer is NULL.
 * Returns SQL_SUCCESS, SQL_SUCCESS_WITH_INFO, or SQL_ERROR with err
 * (22003, 22018, 22007, 07006, HY003, HY004, HY090).
 */
SQLRETURN gc_convert_param_from_c(SQLSMALLINT c_type, SQLSMALLINT sql_type,
                                  SQLULEN column_size, SQLSMALLINT decimal_digits,
                                  const void *value, SQLLEN buffer_length,
                                  SQLLEN octet_length, gc_param_value *out,
                                  gc_error *err);
void gc_param_value_free(gc_param_value *p);

/* The text of a converted (non-NULL) value, binary ones (bytea) in
 * PostgreSQL's hex form: malloc'd, its length in *len; NULL when out of memory. */
char *gc_param_value_text(const gc_param_value *pv, size_t *len);

/* Whether a type code is one ODBC defines and the driver knows (else HY004 /
 * HY003, at SQLBindParameter and SQLGetTypeInfo): the SQL types
 * gc_convert_param_from_c converts to, and the C types it reads (interval C
 * types included: they are refused later, with 07006). */
bool gc_sql_type_is_valid(SQLSMALLINT sql_type);
bool gc_c_type_is_valid(SQLSMALLINT c_type);

/* *piece_offset after the last piece of a value (or its NULL, or a
 * fixed-size value) was returned: the next call gives SQL_NO_DATA. Any other
 * value counts bytes returned so far. */
#define GC_PIECE_DONE ((size_t)-1)

#endif
