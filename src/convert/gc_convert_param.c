/*
 * gc_convert, parameters: one bound application value into PostgreSQL input
 * text (bytea as binary), following ODBC's "Converting Data from C to SQL
 * Data Types". Every C value is first read into one of three shapes
 * (character text, a number's text, a date/time) and then written for the
 * SQL type's PostgreSQL type.
 */
#include "convert/gc_convert.h"
#include "convert/gc_convert_internal.h"
#include "util/gc_hex.h"
#include "util/gc_utf16.h"

#include <assert.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* What the SQL type needs from the value. */
typedef enum target_kind {
    T_CHAR, T_BIT, T_INT, T_NUMERIC, T_FLOAT, T_DATE, T_TIME, T_TIMESTAMP,
    T_BINARY, T_GUID, T_INTERVAL, T_UNKNOWN
} target_kind;

typedef struct target {
    target_kind kind;
    SQLSMALLINT sql_type;
    int64_t min;      /* T_INT range */
    uint64_t max;
    bool real;        /* T_FLOAT: SQL_REAL (float4) */
} target;

static target target_of(SQLSMALLINT sql_type)
{
    target t = { T_UNKNOWN, sql_type, 0, 0, false };
    switch (sql_type) {
    case SQL_CHAR: case SQL_VARCHAR: case SQL_LONGVARCHAR:
    case SQL_WCHAR: case SQL_WVARCHAR: case SQL_WLONGVARCHAR:
        t.kind = T_CHAR; break;
    case SQL_BIT: t.kind = T_BIT; break;
    /* TINYINT travels as int2: PostgreSQL has no one-byte integer. */
    case SQL_TINYINT: case SQL_SMALLINT:
        t.kind = T_INT; t.min = INT16_MIN; t.max = INT16_MAX; break;
    case SQL_INTEGER: t.kind = T_INT; t.min = INT32_MIN; t.max = INT32_MAX; break;
    case SQL_BIGINT: t.kind = T_INT; t.min = INT64_MIN; t.max = INT64_MAX; break;
    case SQL_NUMERIC: case SQL_DECIMAL: t.kind = T_NUMERIC; break;
    case SQL_REAL: t.kind = T_FLOAT; t.real = true; break;
    case SQL_FLOAT: case SQL_DOUBLE: t.kind = T_FLOAT; break;
    case SQL_DATE: case SQL_TYPE_DATE: t.kind = T_DATE; break;
    case SQL_TIME: case SQL_TYPE_TIME: t.kind = T_TIME; break;
    case SQL_TIMESTAMP: case SQL_TYPE_TIMESTAMP: t.kind = T_TIMESTAMP; break;
    case SQL_BINARY: case SQL_VARBINARY: case SQL_LONGVARBINARY: t.kind = T_BINARY; break;
    case SQL_GUID: t.kind = T_GUID; break;
    case SQL_INTERVAL_YEAR: case SQL_INTERVAL_MONTH: case SQL_INTERVAL_DAY:
    case SQL_INTERVAL_HOUR: case SQL_INTERVAL_MINUTE: case SQL_INTERVAL_SECOND:
    case SQL_INTERVAL_YEAR_TO_MONTH: case SQL_INTERVAL_DAY_TO_HOUR:
    case SQL_INTERVAL_DAY_TO_MINUTE: case SQL_INTERVAL_DAY_TO_SECOND:
    case SQL_INTERVAL_HOUR_TO_MINUTE: case SQL_INTERVAL_HOUR_TO_SECOND:
    case SQL_INTERVAL_MINUTE_TO_SECOND:
        t.kind = T_INTERVAL; break;
    default: break;
    }
    return t;
}

bool gc_sql_type_is_valid(SQLSMALLINT sql_type)
{
    return target_of(sql_type).kind != T_UNKNOWN;
}

bool gc_c_type_is_valid(SQLSMALLINT c_type)
{
    c_type = gc_c_type_normalize(c_type);
    return c_type == SQL_C_DEFAULT || c_type == SQL_C_CHAR || c_type == SQL_C_WCHAR ||
           c_type == SQL_C_BINARY || gc_c_type_is_interval(c_type) ||
           gc_c_type_size(c_type) > 0;
}

static SQLRETURN error(gc_error *err, const char *state, const char *msg)
{
    gc_error_set(err, state, 0, "%s", msg);
    return SQL_ERROR;
}

static SQLRETURN restricted(gc_error *err, SQLSMALLINT c_type, SQLSMALLINT sql_type)
{
    gc_error_set(err, "07006", 0,
                 "Restricted data type attribute violation: C type %d cannot be sent "
                 "as SQL type %d", (int)c_type, (int)sql_type);
    return SQL_ERROR;
}

/* Stores a malloc'd copy of len bytes (NUL-terminated) as the value. */
static SQLRETURN emit(gc_param_value *out, const void *bytes, size_t len, int format,
                      gc_error *err)
{
    if (len > INT32_MAX)
        return error(err, "HY090", "Parameter value longer than 2 GB");
    out->data = malloc(len + 1);
    if (out->data == NULL)
        return error(err, "HY001", "Memory allocation error");
    if (len > 0)
        memcpy(out->data, bytes, len);
    out->data[len] = '\0';
    out->length = (int)len;
    out->format = format;
    return SQL_SUCCESS;
}

static SQLRETURN emit_str(gc_param_value *out, const char *s, gc_error *err)
{
    return emit(out, s, strlen(s), 0, err);
}

static SQLRETURN with_info(SQLRETURN rc, gc_error *err, const char *state, const char *msg)
{
    if (rc != SQL_SUCCESS)
        return rc;
    gc_error_set(err, state, 0, "%s", msg);
    return SQL_SUCCESS_WITH_INFO;
}

static bool bool_word(const char *s, size_t len, bool *value)
{
    static const char *const yes[] = { "t", "true", "y", "yes", "on" };
    static const char *const no[] = { "f", "false", "n", "no", "off" };
    while (len > 0 && s[len - 1] == ' ')
        len--;
    while (len > 0 && *s == ' ') {
        s++;
        len--;
    }
    for (size_t k = 0; k < sizeof yes / sizeof yes[0]; k++) {
        if (strlen(yes[k]) == len && strncasecmp(s, yes[k], len) == 0) {
            *value = true;
            return true;
        }
        if (strlen(no[k]) == len && strncasecmp(s, no[k], len) == 0) {
            *value = false;
            return true;
        }
    }
    return false;
}

/* A number given as text (the application's characters, or the canonical
 * text of a numeric C value) written for a numeric, bit or character target.
 * from_char: bad text is the application's (22018). */
static SQLRETURN number_to_target(const char *s, size_t len, const target *t,
                                  bool from_char, gc_param_value *out, gc_error *err)
{
    gc_decnum d;
    if (t->kind == T_BIT && from_char) {
        bool v;
        if (bool_word(s, len, &v))
            return emit_str(out, v ? "1" : "0", err);
    }
    if (!gc_decnum_parse(s, len, &d))
        return error(err, "22018", "Invalid character value for cast specification");

    switch (t->kind) {
    case T_BIT: {
        bool negative, lost;
        uint64_t mag;
        if (d.kind != GC_DECNUM_FINITE || (d.negative && d.ndigits > 0) ||
            !gc_decnum_integer(&d, &negative, &mag, &lost) || mag > 1)
            return error(err, "22003", "Numeric value out of range for a bit");
        /* 1 and 0, as psqlODBC sends bits: a boolean takes them, and so
         * does an integer column when the declared type is refused and the
         * server types the parameter (gc_exec's 42804 retry). */
        SQLRETURN rc = emit_str(out, mag ? "1" : "0", err);
        return lost ? with_info(rc, err, "01S07", "Fractional truncation") : rc;
    }
    case T_INT: {
        bool negative, lost;
        uint64_t mag;
        if (!gc_decnum_integer(&d, &negative, &mag, &lost) ||
            !gc_integer_in_range(negative, mag, t->min, t->max))
            return error(err, "22003", "Numeric value out of range");
        char buf[32];
        snprintf(buf, sizeof buf, "%s%" PRIu64, negative ? "-" : "", mag);
        SQLRETURN rc = emit_str(out, buf, err);
        return lost ? with_info(rc, err, "01S07", "Fractional truncation") : rc;
    }
    case T_NUMERIC:
        if (d.kind == GC_DECNUM_NAN)
            return emit_str(out, "NaN", err);
        if (d.kind != GC_DECNUM_FINITE)
            return emit_str(out, d.kind == GC_DECNUM_POS_INF ? "Infinity" : "-Infinity", err);
        /* The validated literal itself: exact, however many digits. */
        while (len > 0 && s[len - 1] == ' ')
            len--;
        while (len > 0 && *s == ' ') {
            s++;
            len--;
        }
        return emit(out, s, len, 0, err);
    case T_FLOAT: {
        double v;
        gc_num_status st = gc_parse_double(s, len, &v);
        if (st == GC_NUM_SYNTAX)
            return error(err, "22018", "Invalid character value for cast specification");
        if (st == GC_NUM_RANGE || (t->real && isfinite(v) && fabs(v) > FLT_MAX))
            return error(err, "22003", "Numeric value out of range");
        char buf[GC_DOUBLE_TEXT_MAX];
        gc_format_double(t->real ? (double)(float)v : v, t->real ? 9 : 17, buf);
        return emit_str(out, buf, err);
    }
    default:   /* T_CHAR */
        return emit(out, s, len, 0, err);
    }
}

/* A date/time value written for a datetime or character target. from_char:
 * the value came from the application's text. */
static SQLRETURN datetime_to_target(gc_datetime dt, const target *t, SQLSMALLINT c_type,
                                    gc_param_value *out, gc_error *err)
{
    if (dt.infinite != 0) {
        if (t->kind != T_DATE && t->kind != T_TIMESTAMP && t->kind != T_CHAR)
            return error(err, "22007", "Invalid datetime format: infinity has no time");
        return emit_str(out, dt.infinite > 0 ? "infinity" : "-infinity", err);
    }
    if (!gc_datetime_valid(&dt))
        return error(err, "22007", "Invalid datetime format: field out of range");

    switch (t->kind) {
    case T_DATE:
        if (!dt.has_date)
            return c_type == SQL_C_TYPE_TIME ? restricted(err, c_type, t->sql_type)
                                             : error(err, "22018", "Not a date literal");
        if (dt.has_time && (dt.hour || dt.minute || dt.second || dt.fraction))
            return error(err, "22008", "Datetime field overflow: time part is not zero");
        dt.has_time = false;
        break;
    case T_TIME:
        if (!dt.has_time)
            return c_type == SQL_C_TYPE_DATE ? restricted(err, c_type, t->sql_type)
                                             : error(err, "22018", "Not a time literal");
        dt.has_date = false;
        dt.bc = false;
        break;
    case T_TIMESTAMP:
        if (!dt.has_date)
            gc_datetime_today(&dt.year, &dt.month, &dt.day);
        dt.has_date = dt.has_time = true;
        break;
    case T_CHAR:
        break;
    default:
        return restricted(err, c_type, t->sql_type);
    }
    char buf[GC_DATETIME_TEXT_MAX];
    gc_datetime_format(&dt, buf);
    return emit_str(out, buf, err);
}

/* Character data for a binary column: pairs of hex digits (ODBC's rule),
 * optionally after 0x or \x. Sent as binary bytea. */
static SQLRETURN hex_to_bytea(const char *s, size_t len, gc_param_value *out, gc_error *err)
{
    if (len >= 2 && (s[0] == '0' || s[0] == '\\') && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
        len -= 2;
    }
    if (len % 2 != 0)
        return error(err, "22018", "Invalid character value: odd number of hex digits");
    unsigned char *bytes = malloc(len / 2 + 1);
    if (bytes == NULL)
        return error(err, "HY001", "Memory allocation error");
    for (size_t i = 0; i < len; i += 2) {
        int hi = gc_hex_value(s[i]), lo = gc_hex_value(s[i + 1]);
        if (hi < 0 || lo < 0) {
            free(bytes);
            return error(err, "22018", "Invalid character value: not hex digits");
        }
        bytes[i / 2] = (unsigned char)(hi << 4 | lo);
    }
    SQLRETURN rc = emit(out, bytes, len / 2, 1, err);
    free(bytes);
    return rc;
}

/* An interval written for an interval SQL type: it must keep every field
 * (22015 otherwise), and travels as PostgreSQL interval text. */
static SQLRETURN interval_to_target(const gc_interval *iv, const target *t,
                                    gc_param_value *out, gc_error *err)
{
    if (t->kind == T_INTERVAL && gc_interval_fit(iv, t->sql_type, err) != SQL_SUCCESS)
        return SQL_ERROR;
    char buf[GC_INTERVAL_TEXT_MAX];
    gc_interval_format(iv, buf);
    return emit_str(out, buf, err);
}

/* Character data for an interval SQL type: an interval literal the driver
 * reads (checked against the type's fields), or ISO 8601 ('P1DT2H'), which
 * the server reads. */
static SQLRETURN text_to_interval(const char *s, size_t len, const target *t,
                                  gc_param_value *out, gc_error *err)
{
    size_t lead = 0;
    while (lead < len && (s[lead] == ' ' || s[lead] == '-' || s[lead] == '+'))
        lead++;
    if (lead < len && (s[lead] == 'P' || s[lead] == 'p'))
        return emit(out, s, len, 0, err);
    gc_interval iv;
    if (!gc_interval_parse(s, len, &iv))
        return error(err, "22018", "Invalid character value: not an interval literal");
    return interval_to_target(&iv, t, out, err);
}

/* Character data (UTF-8) for any target. */
static SQLRETURN text_to_target(const char *s, size_t len, const target *t,
                                gc_param_value *out, gc_error *err)
{
    switch (t->kind) {
    case T_CHAR:
        return emit(out, s, len, 0, err);
    case T_INTERVAL:
        return text_to_interval(s, len, t, out, err);
    case T_BIT: case T_INT: case T_NUMERIC: case T_FLOAT:
        return number_to_target(s, len, t, true, out, err);
    case T_DATE: case T_TIME: case T_TIMESTAMP: {
        gc_datetime dt;
        gc_datetime_strip_escape(&s, &len);
        if (!gc_datetime_parse(s, len, &dt))
            return error(err, "22018", "Invalid character value: not a datetime literal");
        return datetime_to_target(dt, t, SQL_C_CHAR, out, err);
    }
    case T_BINARY:
        return hex_to_bytea(s, len, out, err);
    case T_GUID: {
        SQLGUID g;
        char buf[37];
        if (!gc_guid_parse(s, len, &g))
            return error(err, "22018", "Invalid character value: not a GUID");
        gc_guid_format(&g, buf);
        return emit_str(out, buf, err);
    }
    default:
        return error(err, "HY004", "Invalid SQL data type");
    }
}

/* Reads a date/time C struct into a gc_datetime. */
static gc_datetime datetime_from_struct(SQLSMALLINT c_type, const void *value)
{
    gc_datetime dt;
    memset(&dt, 0, sizeof dt);
    if (c_type == SQL_C_TYPE_DATE) {
        SQL_DATE_STRUCT v;
        memcpy(&v, value, sizeof v);
        dt.has_date = true;
        dt.year = v.year; dt.month = v.month; dt.day = v.day;
    } else if (c_type == SQL_C_TYPE_TIME) {
        SQL_TIME_STRUCT v;
        memcpy(&v, value, sizeof v);
        dt.has_time = true;
        dt.hour = v.hour; dt.minute = v.minute; dt.second = v.second;
    } else {
        SQL_TIMESTAMP_STRUCT v;
        memcpy(&v, value, sizeof v);
        dt.has_date = dt.has_time = true;
        dt.year = v.year; dt.month = v.month; dt.day = v.day;
        dt.hour = v.hour; dt.minute = v.minute; dt.second = v.second;
        dt.fraction = v.fraction;
    }
    return dt;
}

/* The canonical text of a numeric C value; false for a bad SQL_C_BIT. The
 * value is copied out first: a row-wise bound buffer need not be aligned. */
static bool number_text(SQLSMALLINT c_type, const void *value, char *buf, size_t cap)
{
    union {
        SQLSCHAR sc; SQLCHAR uc; SQLSMALLINT ss; SQLUSMALLINT us; SQLINTEGER sl;
        SQLUINTEGER ul; SQLBIGINT sb; SQLUBIGINT ub; SQLREAL f; SQLDOUBLE d;
        SQL_NUMERIC_STRUCT n;
    } u;
    assert((size_t)gc_c_type_size(c_type) <= sizeof u);
    memcpy(&u, value, (size_t)gc_c_type_size(c_type));
    switch (c_type) {
    case SQL_C_STINYINT: snprintf(buf, cap, "%d", u.sc); break;
    case SQL_C_UTINYINT: snprintf(buf, cap, "%u", u.uc); break;
    case SQL_C_SSHORT: snprintf(buf, cap, "%d", u.ss); break;
    case SQL_C_USHORT: snprintf(buf, cap, "%u", u.us); break;
    case SQL_C_SLONG: snprintf(buf, cap, "%d", (int)u.sl); break;
    case SQL_C_ULONG: snprintf(buf, cap, "%u", (unsigned)u.ul); break;
    case SQL_C_SBIGINT: snprintf(buf, cap, "%" PRId64, (int64_t)u.sb); break;
    case SQL_C_UBIGINT: snprintf(buf, cap, "%" PRIu64, (uint64_t)u.ub); break;
    case SQL_C_BIT:
        if (u.uc > 1)
            return false;
        snprintf(buf, cap, "%u", u.uc);
        break;
    case SQL_C_FLOAT: gc_format_double(u.f, 9, buf); break;
    case SQL_C_DOUBLE: gc_format_double(u.d, 17, buf); break;
    default: gc_numeric_to_text(&u.n, buf); break;   /* SQL_C_NUMERIC */
    }
    return true;
}

/* An integer C value (the tiny, short, long and bigint types, signed or
 * not) as sign and magnitude; false for every other C type. */
static bool integer_value(SQLSMALLINT c_type, const void *value, bool *negative, uint64_t *mag)
{
    union {
        SQLSCHAR sc; SQLCHAR uc; SQLSMALLINT ss; SQLUSMALLINT us; SQLINTEGER sl;
        SQLUINTEGER ul; SQLBIGINT sb; SQLUBIGINT ub;
    } u;
    int64_t v;
    switch (c_type) {
    case SQL_C_STINYINT: memcpy(&u.sc, value, sizeof u.sc); v = u.sc; break;
    case SQL_C_SSHORT: memcpy(&u.ss, value, sizeof u.ss); v = u.ss; break;
    case SQL_C_SLONG: memcpy(&u.sl, value, sizeof u.sl); v = u.sl; break;
    case SQL_C_SBIGINT: memcpy(&u.sb, value, sizeof u.sb); v = u.sb; break;
    case SQL_C_UTINYINT: memcpy(&u.uc, value, sizeof u.uc); *negative = false; *mag = u.uc; return true;
    case SQL_C_USHORT: memcpy(&u.us, value, sizeof u.us); *negative = false; *mag = u.us; return true;
    case SQL_C_ULONG: memcpy(&u.ul, value, sizeof u.ul); *negative = false; *mag = u.ul; return true;
    case SQL_C_UBIGINT: memcpy(&u.ub, value, sizeof u.ub); *negative = false; *mag = u.ub; return true;
    default: return false;
    }
    *negative = v < 0;
    *mag = v < 0 ? (uint64_t)(-(v + 1)) + 1 : (uint64_t)v;   /* INT64_MIN without overflow */
    return true;
}

/* An integer C value for an integer, numeric or character target: its
 * decimal text written straight from the value (what number_text and
 * number_to_target give, without formatting and parsing it back: this is
 * the key of every point statement). Range errors as number_to_target's. */
static SQLRETURN integer_to_target(bool negative, uint64_t mag, const target *t,
                                   gc_param_value *out, gc_error *err)
{
    if (t->kind == T_INT && !gc_integer_in_range(negative, mag, t->min, t->max))
        return error(err, "22003", "Numeric value out of range");
    char buf[24];   /* "-" and 20 digits */
    char *p = buf + sizeof buf;
    do {
        *--p = (char)('0' + (int)(mag % 10));
        mag /= 10;
    } while (mag != 0);
    if (negative)
        *--p = '-';
    return emit(out, p, (size_t)(buf + sizeof buf - p), 0, err);
}

/* Character C data (CHAR as given, WCHAR converted to UTF-8) for any target. */
static SQLRETURN character_param(SQLSMALLINT c_type, const void *value, SQLLEN octet_length,
                                 const target *t, gc_param_value *out, gc_error *err)
{
    if (c_type == SQL_C_CHAR) {
        const char *s = value;
        size_t len = octet_length == SQL_NTS ? strlen(s)
                                             : strnlen(s, (size_t)octet_length);
        return text_to_target(s, len, t, out, err);
    }
    ssize_t units = -1;
    if (octet_length != SQL_NTS) {
        const uint16_t *w = value;
        size_t max = (size_t)octet_length / 2, n = 0;
        while (n < max && w[n] != 0)
            n++;
        units = (ssize_t)n;
    }
    bool invalid = false;
    size_t len = 0;
    char *utf8 = gc_utf16_to_utf8(value, units, &len, &invalid);
    if (utf8 == NULL)
        return invalid ? error(err, "22018", "Invalid character value: unpaired UTF-16 surrogate")
                       : error(err, "HY001", "Memory allocation error");
    SQLRETURN rc = text_to_target(utf8, len, t, out, err);
    free(utf8);
    return rc;
}

/* SQL_C_BINARY: bytes as bytea, as text for character columns (PostgreSQL
 * text holds no NUL byte), or a 16-byte SQLGUID for a GUID column. */
static SQLRETURN binary_param(const void *value, SQLLEN octet_length, const target *t,
                              gc_param_value *out, gc_error *err)
{
    if (octet_length < 0)
        return error(err, "HY090", "Invalid string or buffer length for binary data");
    size_t len = (size_t)octet_length;
    switch (t->kind) {
    case T_BINARY:
        return emit(out, value, len, 1, err);
    case T_CHAR:
        if (memchr(value, 0, len) != NULL)
            return error(err, "22018", "Invalid character value: NUL byte in text");
        return emit(out, value, len, 0, err);
    case T_GUID: {
        SQLGUID g;
        char buf[37];
        if (len != sizeof g)
            return error(err, "22018", "Invalid character value: a GUID is 16 bytes");
        memcpy(&g, value, sizeof g);
        gc_guid_format(&g, buf);
        return emit_str(out, buf, err);
    }
    default:
        return restricted(err, SQL_C_BINARY, t->sql_type);
    }
}

/* SQL_C_INTERVAL_*: to an interval type of the same kind (year-month or
 * day-time), to character types as interval text, and, for a single-field
 * interval, to the exact numeric types as its number. */
static SQLRETURN interval_param(SQLSMALLINT c_type, const void *value, const target *t,
                                gc_param_value *out, gc_error *err)
{
    /* Which conversions exist is decided before the value is read. */
    bool number = t->kind == T_INT || t->kind == T_NUMERIC;
    if ((t->kind == T_INTERVAL &&
         gc_interval_type_is_year_month(c_type) != gc_interval_type_is_year_month(t->sql_type)) ||
        (number && !gc_interval_type_is_single_field(c_type)))
        return restricted(err, c_type, t->sql_type);
    SQL_INTERVAL_STRUCT in;
    memcpy(&in, value, sizeof in);   /* a row-wise bound buffer need not be aligned */
    gc_interval iv;
    if ((t->kind == T_INTERVAL || t->kind == T_CHAR || number) &&
        gc_interval_from_struct(c_type, &in, &iv, err) != SQL_SUCCESS)
        return SQL_ERROR;
    switch (t->kind) {
    case T_INTERVAL:
    case T_CHAR:
        return interval_to_target(&iv, t, out, err);
    case T_INT:
    case T_NUMERIC: {
        char buf[GC_INTERVAL_TEXT_MAX];
        gc_interval_single_field_text(c_type, &in, buf);
        return number_to_target(buf, strlen(buf), t, false, out, err);
    }
    default:
        return restricted(err, c_type, t->sql_type);
    }
}

/* Whether a double's text (gc_format_double's) is a finite number, not
 * NaN or an infinity. */
static bool is_finite_text(const char *text)
{
    return strcmp(text, "NaN") != 0 && strstr(text, "Infinity") == NULL;
}

/* Converts one bound parameter; see gc_convert.h. out->data is the caller's
 * to release with gc_param_value_free. */
SQLRETURN gc_convert_param_from_c(SQLSMALLINT c_type, SQLSMALLINT sql_type,
                                  SQLULEN column_size, SQLSMALLINT decimal_digits,
                                  const void *value, SQLLEN buffer_length,
                                  SQLLEN octet_length, gc_param_value *out,
                                  gc_error *err)
{
    assert(out != NULL && err != NULL);
    gc_error_clear(err);
    memset(out, 0, sizeof *out);
    target t = target_of(sql_type);
    if (t.kind == T_UNKNOWN)
        return error(err, "HY004", "Invalid SQL data type");
    out->type_oid = gc_sqltype_to_pg_oid(sql_type);
    /* Only a value left to the server has another type to fall back on. */
    out->type_uninferred =
        out->type_oid != 0 ? out->type_oid : gc_sqltype_to_pg_oid_uninferred(sql_type);

    if (octet_length == SQL_NULL_DATA)
        return SQL_SUCCESS;
    if (octet_length == SQL_DEFAULT_PARAM)
        return error(err, "07S01", "Invalid use of default parameter");

    if (c_type == SQL_C_DEFAULT)
        c_type = gc_sqltype_default_c_type(sql_type);
    c_type = gc_c_type_normalize(c_type);
    bool variable = c_type == SQL_C_CHAR || c_type == SQL_C_WCHAR || c_type == SQL_C_BINARY;
    if (!variable && gc_c_type_size(c_type) == 0)
        return error(err, "HY003", "Invalid application buffer type");
    if (variable && octet_length < 0 && octet_length != SQL_NTS)
        return error(err, "HY090", "Invalid string or buffer length");
    if (value == NULL)
        return error(err, "HY009", "Invalid use of null pointer");

    SQLRETURN rc;
    switch (gc_c_type_is_interval(c_type) ? SQL_C_INTERVAL_DAY : c_type) {
    case SQL_C_INTERVAL_DAY:   /* every interval C type */
        rc = interval_param(c_type, value, &t, out, err);
        break;
    case SQL_C_CHAR:
    case SQL_C_WCHAR:
        rc = character_param(c_type, value, octet_length, &t, out, err);
        break;
    case SQL_C_BINARY:
        rc = binary_param(value, octet_length, &t, out, err);
        break;
    case SQL_C_TYPE_DATE: case SQL_C_TYPE_TIME: case SQL_C_TYPE_TIMESTAMP:
        rc = datetime_to_target(datetime_from_struct(c_type, value), &t, c_type, out, err);
        break;
    case SQL_C_GUID:
        if (t.kind != T_CHAR && t.kind != T_GUID) {
            rc = restricted(err, c_type, sql_type);
        } else {
            char buf[37];
            SQLGUID g;
            memcpy(&g, value, sizeof g);
            gc_guid_format(&g, buf);
            rc = emit_str(out, buf, err);
        }
        break;
    default: {   /* the numeric C types */
        if (t.kind != T_CHAR && t.kind != T_BIT && t.kind != T_INT &&
            t.kind != T_NUMERIC && t.kind != T_FLOAT) {
            rc = restricted(err, c_type, sql_type);
            break;
        }
        bool negative;
        uint64_t mag;
        if ((t.kind == T_INT || t.kind == T_NUMERIC || t.kind == T_CHAR) &&
            integer_value(c_type, value, &negative, &mag)) {
            rc = integer_to_target(negative, mag, &t, out, err);
            break;
        }
        char buf[GC_NUMERIC_TEXT_MAX];
        if (!number_text(c_type, value, buf, sizeof buf)) {
            rc = error(err, "22003", "Numeric value out of range: a bit is 0 or 1");
            break;
        }
        rc = number_to_target(buf, strlen(buf), &t, false, out, err);
        break;
    }
    }
    if (rc == SQL_ERROR)
        gc_param_value_free(out);
    else if (t.kind == T_FLOAT && !t.real && out->data != NULL && !is_finite_text(out->data))
        out->type_oid = out->type_uninferred = GC_OID_FLOAT8;   /* numeric: no infinity before 14 */
    return rc;
}

void gc_param_value_free(gc_param_value *p)
{
    if (p == NULL)
        return;
    free(p->data);
    p->data = NULL;
    p->length = 0;
}

/* The text of a converted value: binary values (bytea) in PostgreSQL's hex form. */
char *gc_param_value_text(const gc_param_value *pv, size_t *len)
{
    if (pv->format == 0) {
        *len = strlen(pv->data);
        return strdup(pv->data);
    }
    static const char hex[] = "0123456789abcdef";
    char *t = malloc(2 + 2 * (size_t)pv->length + 1);
    if (t == NULL)
        return NULL;
    t[0] = '\\';
    t[1] = 'x';
    for (int i = 0; i < pv->length; i++) {
        t[2 + 2 * i] = hex[(unsigned char)pv->data[i] >> 4];
        t[3 + 2 * i] = hex[(unsigned char)pv->data[i] & 0xF];
    }
    *len = 2 + 2 * (size_t)pv->length;
    t[*len] = '\0';
    return t;
}
