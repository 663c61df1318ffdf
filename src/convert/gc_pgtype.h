/*
 * gc_pgtype: how PostgreSQL types look to ODBC (SQLDescribeCol,
 * SQLColAttribute, SQLGetTypeInfo) and the C type codes' facts (defaults,
 * sizes, ODBC 2 codes). Pure: no handles, no I/O. docs/types.md explains the
 * choices.
 */
#ifndef GC_PGTYPE_H
#define GC_PGTYPE_H

#include <libpq-fe.h>
#include <sql.h>
#include <sqlext.h>
#include <stdbool.h>

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
    SQLLEN octet_length;          /* bytes of a value in its default C type
                                   * (SQL_COLUMN_LENGTH) */
    SQLLEN desc_octet_length;     /* SQL_DESC_OCTET_LENGTH of a result column
                                   * (gc_pgtype_keys.h) */
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

/* The type declared for it when the server cannot infer one (42P18): bool
 * for a bit, text for character data, else gc_sqltype_to_pg_oid's. */
Oid gc_sqltype_to_pg_oid_uninferred(SQLSMALLINT sql_type);

/* Size in bytes of a fixed-size C type (SQL_C_SLONG -> 4 ...); 0 for
 * variable-length ones (CHAR, WCHAR, BINARY). Used for row-wise binding. */
SQLLEN gc_c_type_size(SQLSMALLINT c_type);

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

/* Whether c_type can hold a bookmark (SQLBindCol / SQLGetData column 0):
 * SQL_C_VARBOOKMARK and the 4- and 8-byte integers. */
bool gc_c_type_holds_bookmark(SQLSMALLINT c_type);

#endif
