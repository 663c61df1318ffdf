/*
 * gc_convert: values between ODBC C types and PostgreSQL.
 *
 * Results arrive in libpq's text format; parameters leave as text (bytea as
 * binary). These functions are pure: no handles, no I/O; errors come back in a
 * gc_error with ODBC's SQLSTATEs (22003 out of range, 22018 invalid character
 * value, 22007 invalid datetime, 01004 truncated, 07006 restricted conversion,
 * 01S07 fractional truncation, 22015 interval field overflow, HY003/HY004
 * bad type codes).
 */
#ifndef GC_CONVERT_H
#define GC_CONVERT_H

#include <libpq-fe.h>
#include <sql.h>
#include <sqlext.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/gc_error.h"

/* PostgreSQL type OIDs the driver knows by name. */
enum {
    GC_OID_BOOL = 16, GC_OID_BYTEA = 17, GC_OID_CHAR = 18, GC_OID_NAME = 19,
    GC_OID_INT8 = 20, GC_OID_INT2 = 21, GC_OID_INT4 = 23, GC_OID_TEXT = 25,
    GC_OID_OID = 26, GC_OID_JSON = 114, GC_OID_FLOAT4 = 700, GC_OID_FLOAT8 = 701,
    GC_OID_UNKNOWN = 705, GC_OID_MONEY = 790, GC_OID_BPCHAR = 1042, GC_OID_VARCHAR = 1043,
    GC_OID_DATE = 1082, GC_OID_TIME = 1083, GC_OID_TIMESTAMP = 1114,
    GC_OID_TIMESTAMPTZ = 1184, GC_OID_INTERVAL = 1186, GC_OID_TIMETZ = 1266,
    GC_OID_NUMERIC = 1700, GC_OID_REFCURSOR = 1790, GC_OID_UUID = 2950,
    GC_OID_JSONB = 3802,
};

/* How a PostgreSQL column looks to ODBC (SQLDescribeCol, SQLColAttribute). */
typedef struct gc_pgtype_info {
    const char *type_name;        /* PostgreSQL's name: "int4", "varchar", ... */
    SQLSMALLINT sql_type;         /* SQL_INTEGER, SQL_VARCHAR, SQL_TYPE_TIMESTAMP, ... */
    SQLSMALLINT sql_wide_type;    /* SQL_WVARCHAR etc. for text types, else sql_type */
    SQLULEN column_size;
    SQLSMALLINT decimal_digits;
    SQLLEN display_size;
    SQLLEN octet_length;
    SQLSMALLINT num_prec_radix;   /* 10, 2 or 0 */
    bool is_unsigned;
    bool case_sensitive;
    SQLSMALLINT searchable;       /* SQL_PRED_* */
    bool fixed_prec_scale;
    SQLSMALLINT default_c_type;   /* SQL_C_DEFAULT resolves to this */
    bool large_object;            /* a `lo` column: values are large object oids
                                   * whose content is the data (gc_lo.c) */
    bool length_unknown;          /* a character column whose length the server
                                   * does not give (UnknownSizes applies) */
} gc_pgtype_info;

/* Describes a column of type `oid` with modifier `typmod` (-1 when none).
 * Unknown types look like long text (SQL_LONGVARCHAR), still readable as text. */
void gc_pgtype_describe(Oid oid, int typmod, gc_pgtype_info *out);

/* Describes a column whose declared type is named `lo` (the lo extension's
 * domain over oid): SQL_LONGVARBINARY, as psqlODBC shows it. */
void gc_pgtype_describe_large_object(gc_pgtype_info *out);

/* The PostgreSQL type a parameter of ODBC SQL type `sql_type` is declared as
 * when preparing; 0 lets the server infer it. */
Oid gc_sqltype_to_pg_oid(SQLSMALLINT sql_type);

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

/* Size in bytes of a fixed-size C type (SQL_C_SLONG -> 4 ...); 0 for
 * variable-length ones (CHAR, WCHAR, BINARY). Used for row-wise binding. */
SQLLEN gc_c_type_size(SQLSMALLINT c_type);

/* --- Added by the conversion module (docs/types.md explains the choices) --- */

/* *piece_offset after the last piece of a value (or its NULL, or a
 * fixed-size value) was returned: the next call gives SQL_NO_DATA. Any other
 * value counts bytes returned so far. */
#define GC_PIECE_DONE ((size_t)-1)

/* Column size reported for types without a length limit (text, json, bytea,
 * varchar and bpchar without typmod), as psqlODBC reports by default. */
#define GC_PG_LONG_COLUMN_SIZE 8190

/* Column size of interval columns: the longest text PostgreSQL writes,
 * '-178956970 years -8 mons -2147483648 days -2562047788:00:54.775808'. */
#define GC_INTERVAL_COLUMN_SIZE 66

/* Precision and scale reported for numeric without typmod (as psqlODBC). */
#define GC_NUMERIC_DEFAULT_PRECISION 28
#define GC_NUMERIC_DEFAULT_SCALE 6

/* ODBC's default C type for an SQL type (SQL_C_DEFAULT of a parameter). */
SQLSMALLINT gc_sqltype_default_c_type(SQLSMALLINT sql_type);

/* ODBC 2 C type codes (SQL_C_LONG, SQL_C_SHORT, SQL_C_TINYINT, SQL_C_DATE,
 * SQL_C_TIME, SQL_C_TIMESTAMP) mapped to their ODBC 3 codes; others unchanged. */
SQLSMALLINT gc_c_type_normalize(SQLSMALLINT c_type);

/* True for the SQL_C_INTERVAL_* codes (gc_convert_interval.c converts them). */
bool gc_c_type_is_interval(SQLSMALLINT c_type);

#endif
