/*
 * gc_pgtype: how PostgreSQL types look to ODBC (SQLDescribeCol,
 * SQLColAttribute), which PostgreSQL type an ODBC SQL type is sent as, and
 * the sizes and defaults of C types. Tables and switches only; docs/types.md
 * explains every choice.
 */
#include "convert/gc_pgtype.h"

#include <string.h>

/* Character types: SQL type, its wide twin, and column size. */
static void describe_text(gc_pgtype_info *out, const char *name, SQLSMALLINT sql_type,
                          SQLSMALLINT wide_type, SQLULEN size)
{
    out->type_name = name;
    out->sql_type = sql_type;
    out->sql_wide_type = wide_type;
    out->column_size = size;
    out->display_size = (SQLLEN)size;
    out->octet_length = (SQLLEN)size * 4;   /* UTF-8: up to 4 bytes a character */
    out->is_unsigned = true;   /* ODBC: true for anything not numeric */
    out->case_sensitive = true;
    out->searchable = SQL_PRED_SEARCHABLE;
    out->default_c_type = SQL_C_CHAR;
}

static void describe_fixed(gc_pgtype_info *out, const char *name, SQLSMALLINT sql_type,
                           SQLULEN size, SQLLEN display, SQLLEN octets,
                           SQLSMALLINT radix, SQLSMALLINT c_type)
{
    out->type_name = name;
    out->sql_type = sql_type;
    out->sql_wide_type = sql_type;
    out->column_size = size;
    out->display_size = display;
    out->octet_length = octets;
    out->num_prec_radix = radix;
    out->is_unsigned = radix == 0;   /* ODBC: true for anything not numeric */
    out->searchable = SQL_PRED_BASIC;
    out->default_c_type = c_type;
}

/* Time and timestamp sizes follow the fractional-second precision: the
 * typmod is the precision itself (0-6), -1 meaning the default of 6. */
static void describe_datetime(gc_pgtype_info *out, const char *name, SQLSMALLINT sql_type,
                              SQLULEN whole, int typmod, SQLLEN octets, SQLSMALLINT c_type)
{
    int precision = typmod >= 0 && typmod <= 6 ? typmod : 6;
    SQLULEN size = precision > 0 ? whole + 1 + (SQLULEN)precision : whole;
    describe_fixed(out, name, sql_type, size, (SQLLEN)size, octets, 0, c_type);
    out->decimal_digits = (SQLSMALLINT)precision;
}

/* The type name of an interval column: its declared fields (`interval day
 * to second`), as psqlODBC names them, or `interval` for all fields. The
 * typmod keeps PostgreSQL's field mask in its upper 16 bits. */
static const char *interval_type_name(int typmod)
{
    enum { MONTH = 1 << 1, YEAR = 1 << 2, DAY = 1 << 3, HOUR = 1 << 10,
           MINUTE = 1 << 11, SECOND = 1 << 12 };
    static const struct { int fields; const char *name; } names[] = {
        {YEAR, "interval year"}, {MONTH, "interval month"},
        {DAY, "interval day"}, {HOUR, "interval hour"},
        {MINUTE, "interval minute"}, {SECOND, "interval second"},
        {YEAR | MONTH, "interval year to month"},
        {DAY | HOUR, "interval day to hour"},
        {DAY | HOUR | MINUTE, "interval day to minute"},
        {DAY | HOUR | MINUTE | SECOND, "interval day to second"},
        {HOUR | MINUTE, "interval hour to minute"},
        {HOUR | MINUTE | SECOND, "interval hour to second"},
        {MINUTE | SECOND, "interval minute to second"},
    };
    if (typmod < 0)
        return "interval";
    int fields = (typmod >> 16) & 0x7fff;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].fields == fields)
            return names[i].name;
    return "interval";
}

/* Fills *out for a column of type oid/typmod; unknown types read as text. */
void gc_pgtype_describe(Oid oid, int typmod, gc_pgtype_info *out)
{
    memset(out, 0, sizeof *out);
    switch (oid) {
    case GC_OID_BOOL:
        describe_fixed(out, "bool", SQL_BIT, 1, 1, 1, 0, SQL_C_BIT);
        break;
    case GC_OID_INT2:
        describe_fixed(out, "int2", SQL_SMALLINT, 5, 6, 2, 10, SQL_C_SSHORT);
        break;
    case GC_OID_INT4:
        describe_fixed(out, "int4", SQL_INTEGER, 10, 11, 4, 10, SQL_C_SLONG);
        break;
    case GC_OID_INT8:
        describe_fixed(out, "int8", SQL_BIGINT, 19, 20, 8, 10, SQL_C_SBIGINT);
        break;
    case GC_OID_OID:
        describe_fixed(out, "oid", SQL_INTEGER, 10, 10, 4, 10, SQL_C_ULONG);
        out->is_unsigned = true;
        break;
    case GC_OID_NUMERIC: {
        SQLULEN precision = GC_NUMERIC_DEFAULT_PRECISION;
        SQLSMALLINT scale = GC_NUMERIC_DEFAULT_SCALE;
        if (typmod >= 4) {
            precision = (SQLULEN)(((unsigned)typmod - 4) >> 16);
            scale = (SQLSMALLINT)(((unsigned)typmod - 4) & 0xffff);
        }
        /* precision digits, a sign and a point */
        describe_fixed(out, "numeric", SQL_NUMERIC, precision, (SQLLEN)precision + 2,
                       (SQLLEN)precision + 2, 10, SQL_C_CHAR);
        out->decimal_digits = scale;
        break;
    }
    case GC_OID_FLOAT4:
        describe_fixed(out, "float4", SQL_REAL, 7, 14, 4, 10, SQL_C_FLOAT);
        break;
    case GC_OID_FLOAT8:
        describe_fixed(out, "float8", SQL_DOUBLE, 15, 24, 8, 10, SQL_C_DOUBLE);
        break;
    case GC_OID_MONEY:
        /* psqlODBC's mapping, which programs written for it read as a double;
         * the text keeps the currency symbol (gc_convert.c reads it). */
        describe_fixed(out, "money", SQL_FLOAT, 15, 24, 8, 10, SQL_C_DOUBLE);
        break;
    case GC_OID_CHAR:
        describe_text(out, "char", SQL_CHAR, SQL_WCHAR, 1);
        break;
    case GC_OID_NAME:
        describe_text(out, "name", SQL_VARCHAR, SQL_WVARCHAR, 63);
        break;
    case GC_OID_BPCHAR:
        if (typmod >= 4)
            describe_text(out, "bpchar", SQL_CHAR, SQL_WCHAR, (SQLULEN)(typmod - 4));
        else
            describe_text(out, "bpchar", SQL_LONGVARCHAR, SQL_WLONGVARCHAR,
                          GC_PG_LONG_COLUMN_SIZE);
        break;
    case GC_OID_VARCHAR:
        if (typmod >= 4)
            describe_text(out, "varchar", SQL_VARCHAR, SQL_WVARCHAR, (SQLULEN)(typmod - 4));
        else
            describe_text(out, "varchar", SQL_LONGVARCHAR, SQL_WLONGVARCHAR,
                          GC_PG_LONG_COLUMN_SIZE);
        break;
    case GC_OID_TEXT:
        describe_text(out, "text", SQL_LONGVARCHAR, SQL_WLONGVARCHAR, GC_PG_LONG_COLUMN_SIZE);
        break;
    case GC_OID_JSON:
        describe_text(out, "json", SQL_LONGVARCHAR, SQL_WLONGVARCHAR, GC_PG_LONG_COLUMN_SIZE);
        break;
    case GC_OID_JSONB:
        describe_text(out, "jsonb", SQL_LONGVARCHAR, SQL_WLONGVARCHAR, GC_PG_LONG_COLUMN_SIZE);
        break;
    case GC_OID_DATE:
        describe_fixed(out, "date", SQL_TYPE_DATE, 10, 10, (SQLLEN)sizeof(SQL_DATE_STRUCT),
                       0, SQL_C_TYPE_DATE);
        break;
    case GC_OID_TIME:
        describe_datetime(out, "time", SQL_TYPE_TIME, 8, typmod,
                          (SQLLEN)sizeof(SQL_TIME_STRUCT), SQL_C_TYPE_TIME);
        break;
    case GC_OID_TIMESTAMP:
        describe_datetime(out, "timestamp", SQL_TYPE_TIMESTAMP, 19, typmod,
                          (SQLLEN)sizeof(SQL_TIMESTAMP_STRUCT), SQL_C_TYPE_TIMESTAMP);
        break;
    case GC_OID_TIMESTAMPTZ:
        describe_datetime(out, "timestamptz", SQL_TYPE_TIMESTAMP, 19, typmod,
                          (SQLLEN)sizeof(SQL_TIMESTAMP_STRUCT), SQL_C_TYPE_TIMESTAMP);
        break;
    case GC_OID_BYTEA:
        describe_fixed(out, "bytea", SQL_LONGVARBINARY, GC_PG_LONG_COLUMN_SIZE,
                       2 * GC_PG_LONG_COLUMN_SIZE, GC_PG_LONG_COLUMN_SIZE, 0, SQL_C_BINARY);
        break;
    case GC_OID_UUID:
        describe_fixed(out, "uuid", SQL_GUID, 36, 36, 16, 0, SQL_C_GUID);
        break;
    case GC_OID_INTERVAL:
        /* Character, as psqlODBC: SQL_INTERVAL_* columns break clients
         * (pyodbc raises HY106 on them); docs/types.md explains. */
        describe_text(out, interval_type_name(typmod), SQL_VARCHAR, SQL_WVARCHAR,
                      GC_INTERVAL_COLUMN_SIZE);
        break;
    case GC_OID_TIMETZ:
        describe_text(out, "timetz", SQL_LONGVARCHAR, SQL_WLONGVARCHAR, GC_PG_LONG_COLUMN_SIZE);
        break;
    case GC_OID_UNKNOWN:
        describe_text(out, "unknown", SQL_LONGVARCHAR, SQL_WLONGVARCHAR, GC_PG_LONG_COLUMN_SIZE);
        break;
    default:
        describe_text(out, "unknown", SQL_LONGVARCHAR, SQL_WLONGVARCHAR, GC_PG_LONG_COLUMN_SIZE);
        break;
    }
}

/* Large objects read like bytea; their size has no useful bound either. */
void gc_pgtype_describe_large_object(gc_pgtype_info *out)
{
    memset(out, 0, sizeof *out);
    describe_fixed(out, "lo", SQL_LONGVARBINARY, GC_PG_LONG_COLUMN_SIZE,
                   2 * GC_PG_LONG_COLUMN_SIZE, GC_PG_LONG_COLUMN_SIZE, 0, SQL_C_BINARY);
    out->desc_octet_length = out->octet_length;
    out->large_object = true;
}

/* The type a parameter is declared as: character types and bits are left
 * to the server (0) so they fit any column (a bit's 1 or 0 is what a
 * boolean, an integer and a character column all take, as psqlODBC sends
 * it: a declared bool would reach a char(1) column as `true`); the rest
 * name the PostgreSQL type whose input syntax gc_convert_param_from_c
 * produces. A double goes as numeric
 * (its shortest exact decimal): PostgreSQL casts numeric to every number
 * type, money included, which it never does from float8; a double that no
 * numeric holds everywhere (NaN, an infinity) is re-declared float8 by
 * gc_convert_param_from_c. */
Oid gc_sqltype_to_pg_oid(SQLSMALLINT sql_type)
{
    switch (sql_type) {
    case SQL_TINYINT:
    case SQL_SMALLINT: return GC_OID_INT2;
    case SQL_INTEGER: return GC_OID_INT4;
    case SQL_BIGINT: return GC_OID_INT8;
    case SQL_NUMERIC:
    case SQL_DECIMAL: return GC_OID_NUMERIC;
    case SQL_REAL: return GC_OID_FLOAT4;
    case SQL_FLOAT:
    case SQL_DOUBLE: return GC_OID_NUMERIC;
    case SQL_DATE:
    case SQL_TYPE_DATE: return GC_OID_DATE;
    case SQL_TIME:
    case SQL_TYPE_TIME: return GC_OID_TIME;
    case SQL_TIMESTAMP:
    case SQL_TYPE_TIMESTAMP: return GC_OID_TIMESTAMP;
    case SQL_BINARY:
    case SQL_VARBINARY:
    case SQL_LONGVARBINARY: return GC_OID_BYTEA;
    case SQL_GUID: return GC_OID_UUID;
    case SQL_INTERVAL_YEAR: case SQL_INTERVAL_MONTH: case SQL_INTERVAL_DAY:
    case SQL_INTERVAL_HOUR: case SQL_INTERVAL_MINUTE: case SQL_INTERVAL_SECOND:
    case SQL_INTERVAL_YEAR_TO_MONTH: case SQL_INTERVAL_DAY_TO_HOUR:
    case SQL_INTERVAL_DAY_TO_MINUTE: case SQL_INTERVAL_DAY_TO_SECOND:
    case SQL_INTERVAL_HOUR_TO_MINUTE: case SQL_INTERVAL_HOUR_TO_SECOND:
    case SQL_INTERVAL_MINUTE_TO_SECOND: return GC_OID_INTERVAL;
    default: return 0;   /* character, bit and unknown types: inferred */
    }
}

/* Where the server cannot infer a parameter's type (42P18: `SELECT
 * pg_typeof(?)`, `jsonb_build_object('k', ?)`), a value left to it is
 * declared after all: a bit as bool, character data as text. */
Oid gc_sqltype_to_pg_oid_uninferred(SQLSMALLINT sql_type)
{
    switch (sql_type) {
    case SQL_BIT: return GC_OID_BOOL;
    case SQL_CHAR: case SQL_VARCHAR: case SQL_LONGVARCHAR:
    case SQL_WCHAR: case SQL_WVARCHAR: case SQL_WLONGVARCHAR: return GC_OID_TEXT;
    default: return gc_sqltype_to_pg_oid(sql_type);
    }
}

/* ODBC's default C type for each SQL type ("Default C Data Types"). */
SQLSMALLINT gc_sqltype_default_c_type(SQLSMALLINT sql_type)
{
    switch (sql_type) {
    case SQL_BIT: return SQL_C_BIT;
    case SQL_TINYINT: return SQL_C_STINYINT;
    case SQL_SMALLINT: return SQL_C_SSHORT;
    case SQL_INTEGER: return SQL_C_SLONG;
    case SQL_BIGINT: return SQL_C_SBIGINT;
    case SQL_REAL: return SQL_C_FLOAT;
    case SQL_FLOAT:
    case SQL_DOUBLE: return SQL_C_DOUBLE;
    case SQL_DATE:
    case SQL_TYPE_DATE: return SQL_C_TYPE_DATE;
    case SQL_TIME:
    case SQL_TYPE_TIME: return SQL_C_TYPE_TIME;
    case SQL_TIMESTAMP:
    case SQL_TYPE_TIMESTAMP: return SQL_C_TYPE_TIMESTAMP;
    case SQL_BINARY:
    case SQL_VARBINARY:
    case SQL_LONGVARBINARY: return SQL_C_BINARY;
    case SQL_GUID: return SQL_C_GUID;
    case SQL_WCHAR:
    case SQL_WVARCHAR:
    case SQL_WLONGVARCHAR: return SQL_C_WCHAR;
    default:   /* CHAR, VARCHAR, DECIMAL, NUMERIC; SQL_INTERVAL_X -> SQL_C_INTERVAL_X */
        return gc_c_type_is_interval(sql_type) ? sql_type : SQL_C_CHAR;
    }
}

/* Maps the ODBC 2 spellings to their ODBC 3 types; others pass unchanged. */
SQLSMALLINT gc_c_type_normalize(SQLSMALLINT c_type)
{
    switch (c_type) {
    case SQL_C_LONG: return SQL_C_SLONG;
    case SQL_C_SHORT: return SQL_C_SSHORT;
    case SQL_C_TINYINT: return SQL_C_STINYINT;
    case SQL_C_DATE: return SQL_C_TYPE_DATE;
    case SQL_C_TIME: return SQL_C_TYPE_TIME;
    case SQL_C_TIMESTAMP: return SQL_C_TYPE_TIMESTAMP;
    default: return c_type;
    }
}

/* True for the SQL_C_INTERVAL_* codes. */
bool gc_c_type_is_interval(SQLSMALLINT c_type)
{
    switch (c_type) {
    case SQL_C_INTERVAL_YEAR: case SQL_C_INTERVAL_MONTH: case SQL_C_INTERVAL_DAY:
    case SQL_C_INTERVAL_HOUR: case SQL_C_INTERVAL_MINUTE: case SQL_C_INTERVAL_SECOND:
    case SQL_C_INTERVAL_YEAR_TO_MONTH: case SQL_C_INTERVAL_DAY_TO_HOUR:
    case SQL_C_INTERVAL_DAY_TO_MINUTE: case SQL_C_INTERVAL_DAY_TO_SECOND:
    case SQL_C_INTERVAL_HOUR_TO_MINUTE: case SQL_C_INTERVAL_HOUR_TO_SECOND:
    case SQL_C_INTERVAL_MINUTE_TO_SECOND:
        return true;
    default:
        return false;
    }
}

/* Bytes one value of a fixed-size C type takes; 0 for CHAR, WCHAR, BINARY
 * and unknown codes. */
SQLLEN gc_c_type_size(SQLSMALLINT c_type)
{
    if (gc_c_type_is_interval(c_type))
        return (SQLLEN)sizeof(SQL_INTERVAL_STRUCT);
    switch (gc_c_type_normalize(c_type)) {
    case SQL_C_STINYINT: case SQL_C_UTINYINT: case SQL_C_BIT: return 1;
    case SQL_C_SSHORT: case SQL_C_USHORT: return 2;
    case SQL_C_SLONG: case SQL_C_ULONG: return 4;
    case SQL_C_SBIGINT: case SQL_C_UBIGINT: return 8;
    case SQL_C_FLOAT: return (SQLLEN)sizeof(SQLREAL);
    case SQL_C_DOUBLE: return (SQLLEN)sizeof(SQLDOUBLE);
    case SQL_C_NUMERIC: return (SQLLEN)sizeof(SQL_NUMERIC_STRUCT);
    case SQL_C_TYPE_DATE: return (SQLLEN)sizeof(SQL_DATE_STRUCT);
    case SQL_C_TYPE_TIME: return (SQLLEN)sizeof(SQL_TIME_STRUCT);
    case SQL_C_TYPE_TIMESTAMP: return (SQLLEN)sizeof(SQL_TIMESTAMP_STRUCT);
    case SQL_C_GUID: return (SQLLEN)sizeof(SQLGUID);
    default: return 0;
    }
}

bool gc_c_type_holds_bookmark(SQLSMALLINT c_type)
{
    switch (c_type) {
    case SQL_C_VARBOOKMARK:
    case SQL_C_ULONG: case SQL_C_SLONG: case SQL_C_LONG:
    case SQL_C_UBIGINT: case SQL_C_SBIGINT:
        return true;
    default:
        return false;
    }
}
