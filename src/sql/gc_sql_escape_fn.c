/*
 * The ODBC scalar function table (ODBC 3.x, appendix E) and its PostgreSQL
 * forms. Names missing here (DIFFERENCE, SOUNDEX, ...) pass through unchanged.
 */
#include "sql/gc_sql_escape_fn.h"

#include <assert.h>
#include <stdbool.h>
#include <string.h>

#include "sql/gc_sql_lexer.h"

#define S GC_SQL_FN_STRING
#define N GC_SQL_FN_NUMERIC
#define T GC_SQL_FN_TIMEDATE
#define Y GC_SQL_FN_SYSTEM
#define C GC_SQL_FN_CONVERSION

static const gc_sql_fn_mapping fn_table[] = {
    /* string functions */
    {"ASCII", 1, S, "ascii(%1)"},
    {"BIT_LENGTH", 1, S, "bit_length(%1)"},
    {"CHAR", 1, S, "chr(%1)"},
    {"CHAR_LENGTH", 1, S, "char_length(%1)"},
    {"CHARACTER_LENGTH", 1, S, "char_length(%1)"},
    {"CONCAT", 2, S, "(%1 || %2)"},
    {"INSERT", 4, S, "overlay(%1 placing %4 from %2 for %3)"},
    {"LCASE", 1, S, "lower(%1)"},
    {"LEFT", 2, S, "left(%1, %2)"},
    /* ODBC: "the number of characters ... excluding trailing blanks" */
    {"LENGTH", 1, S, "char_length(rtrim(%1))"},
    /* LOCATE(needle, haystack[, start]): 1-based position or 0. With a start,
     * the start is named once in a FROM item so it is not written twice. */
    {"LOCATE", 2, S, "strpos(%2, %1)"},
    {"LOCATE", 3, S, "(SELECT coalesce(nullif(strpos(substr(%2, gc_start), %1), 0)"
                     " + gc_start - 1, 0) FROM CAST(%3 AS integer) AS gc_start)"},
    {"LTRIM", 1, S, "ltrim(%1)"},
    {"OCTET_LENGTH", 1, S, "octet_length(%1)"},
    {"POSITION", 1, S, "position(%1)"},   /* the argument is "a IN b" */
    {"REPEAT", 2, S, "repeat(%1, %2)"},
    {"REPLACE", 3, S, "replace(%1, %2, %3)"},
    {"RIGHT", 2, S, "right(%1, %2)"},
    {"RTRIM", 1, S, "rtrim(%1)"},
    {"SPACE", 1, S, "repeat(' ', %1)"},
    {"SUBSTRING", 2, S, "substr(%1, %2)"},
    {"SUBSTRING", 3, S, "substr(%1, %2, %3)"},
    {"UCASE", 1, S, "upper(%1)"},

    /* numeric functions */
    {"ABS", 1, N, "abs(%1)"},
    {"ACOS", 1, N, "acos(%1)"},
    {"ASIN", 1, N, "asin(%1)"},
    {"ATAN", 1, N, "atan(%1)"},
    {"ATAN2", 2, N, "atan2(%1, %2)"},
    {"CEILING", 1, N, "ceiling(%1)"},
    {"COS", 1, N, "cos(%1)"},
    {"COT", 1, N, "cot(%1)"},
    {"DEGREES", 1, N, "degrees(%1)"},
    {"EXP", 1, N, "exp(%1)"},
    {"FLOOR", 1, N, "floor(%1)"},
    {"LOG", 1, N, "ln(%1)"},
    {"LOG10", 1, N, "log(%1)"},
    {"MOD", 2, N, "mod(%1, %2)"},
    {"PI", 0, N, "pi()"},
    {"POWER", 2, N, "power(%1, %2)"},
    {"RADIANS", 1, N, "radians(%1)"},
    {"RAND", 0, N, "random()"},
    /* PostgreSQL rounds and truncates to a scale only for numeric. */
    {"ROUND", 2, N, "round(CAST(%1 AS numeric), %2)"},
    {"SIGN", 1, N, "sign(%1)"},
    {"SIN", 1, N, "sin(%1)"},
    {"SQRT", 1, N, "sqrt(%1)"},
    {"TAN", 1, N, "tan(%1)"},
    {"TRUNCATE", 2, N, "trunc(CAST(%1 AS numeric), %2)"},

    /* time and date functions */
    {"CURDATE", 0, T, "current_date"},
    {"CURRENT_DATE", 0, T, "current_date"},
    {"CURRENT_TIME", 0, T, "current_time"},
    {"CURRENT_TIME", 1, T, "current_time(%1)"},
    {"CURRENT_TIMESTAMP", 0, T, "current_timestamp"},
    {"CURRENT_TIMESTAMP", 1, T, "current_timestamp(%1)"},
    {"CURTIME", 0, T, "current_time"},
    /* The casts give an untyped parameter a type: extract() and to_char()
     * have several candidates and PostgreSQL would not choose. HOUR, MINUTE
     * and SECOND take a time or a timestamp, so they cast to time. */
    {"DAYNAME", 1, T, "to_char(CAST(%1 AS timestamp), 'FMDay')"},
    {"DAYOFMONTH", 1, T, "CAST(extract(day FROM CAST(%1 AS timestamp)) AS integer)"},
    /* ODBC counts Sunday as 1, PostgreSQL's dow counts it as 0. */
    {"DAYOFWEEK", 1, T, "CAST(extract(dow FROM CAST(%1 AS timestamp)) + 1 AS integer)"},
    {"DAYOFYEAR", 1, T, "CAST(extract(doy FROM CAST(%1 AS timestamp)) AS integer)"},
    {"HOUR", 1, T, "CAST(extract(hour FROM CAST(%1 AS time)) AS integer)"},
    {"MINUTE", 1, T, "CAST(extract(minute FROM CAST(%1 AS time)) AS integer)"},
    {"MONTH", 1, T, "CAST(extract(month FROM CAST(%1 AS timestamp)) AS integer)"},
    {"MONTHNAME", 1, T, "to_char(CAST(%1 AS timestamp), 'FMMonth')"},
    {"NOW", 0, T, "now()"},
    {"QUARTER", 1, T, "CAST(extract(quarter FROM CAST(%1 AS timestamp)) AS integer)"},
    /* extract(second) has a fraction; a cast would round 59.9 up to 60. */
    {"SECOND", 1, T, "CAST(floor(extract(second FROM CAST(%1 AS time))) AS integer)"},
    {"TIMESTAMPADD", 3, T, NULL},
    {"TIMESTAMPDIFF", 3, T, NULL},
    {"WEEK", 1, T, "CAST(extract(week FROM CAST(%1 AS timestamp)) AS integer)"},
    {"YEAR", 1, T, "CAST(extract(year FROM CAST(%1 AS timestamp)) AS integer)"},

    /* system functions */
    {"DATABASE", 0, Y, "current_database()"},
    {"IFNULL", 2, Y, "coalesce(%1, %2)"},
    {"USER", 0, Y, "current_user"},

    /* conversion */
    {"CONVERT", 2, C, NULL},
};

#undef S
#undef N
#undef T
#undef Y
#undef C

size_t gc_sql_escape_function_count(void)
{
    return sizeof fn_table / sizeof fn_table[0];
}

const gc_sql_fn_mapping *gc_sql_escape_function_at(size_t index)
{
    return index < gc_sql_escape_function_count() ? &fn_table[index] : NULL;
}

/* ODBC SQL data type names (SQL_ prefix optional) and the types they cast to. */
static const struct { const char *odbc; const char *postgres; } convert_types[] = {
    {"BIGINT", "bigint"},
    {"BINARY", "bytea"},
    {"BIT", "boolean"},
    {"CHAR", "varchar"},          /* char without a length would be char(1) */
    {"DATE", "date"},
    {"DECIMAL", "numeric"},
    {"DOUBLE", "double precision"},
    {"FLOAT", "double precision"},
    {"GUID", "uuid"},
    {"INTEGER", "integer"},
    {"INTERVAL", "interval"},
    {"LONGVARBINARY", "bytea"},
    {"LONGVARCHAR", "text"},
    {"NUMERIC", "numeric"},
    {"REAL", "real"},
    {"SMALLINT", "smallint"},
    {"TIME", "time"},
    {"TIMESTAMP", "timestamp"},
    {"TINYINT", "smallint"},
    {"TYPE_DATE", "date"},
    {"TYPE_TIME", "time"},
    {"TYPE_TIMESTAMP", "timestamp"},
    {"VARBINARY", "bytea"},
    {"VARCHAR", "varchar"},
    {"WCHAR", "varchar"},
    {"WLONGVARCHAR", "text"},
    {"WVARCHAR", "varchar"},
};

/* True when s (len bytes) starts with prefix, ignoring ASCII case. */
static bool has_prefix_ci(const char *s, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    return len >= n && gc_sql_ascii_equal_ci(s, n, prefix);
}

/* Strips an optional prefix such as "SQL_" or "SQL_TSI_", ignoring case. */
static void strip_prefix(const char **s, size_t *len, const char *prefix)
{
    if (*len > strlen(prefix) && has_prefix_ci(*s, *len, prefix)) {
        *s += strlen(prefix);
        *len -= strlen(prefix);
    }
}

const char *gc_sql_convert_type(const char *odbc_type, size_t len)
{
    strip_prefix(&odbc_type, &len, "SQL_");
    if (len > 9 && has_prefix_ci(odbc_type, len, "INTERVAL_"))
        return "interval";   /* SQL_INTERVAL_DAY_TO_SECOND and the rest */
    for (size_t i = 0; i < sizeof convert_types / sizeof convert_types[0]; i++)
        if (gc_sql_ascii_equal_ci(odbc_type, len, convert_types[i].odbc))
            return convert_types[i].postgres;
    return NULL;
}

/* SQL_TSI_xxx interval names (prefix optional) for TIMESTAMPADD/DIFF. */
typedef enum tsi_unit {
    TSI_FRAC_SECOND, TSI_SECOND, TSI_MINUTE, TSI_HOUR, TSI_DAY, TSI_WEEK,
    TSI_MONTH, TSI_QUARTER, TSI_YEAR, TSI_NONE
} tsi_unit;

static tsi_unit tsi_from_name(const char *s, size_t len)
{
    static const char *const names[] = {
        "FRAC_SECOND", "SECOND", "MINUTE", "HOUR", "DAY", "WEEK",
        "MONTH", "QUARTER", "YEAR",
    };
    strip_prefix(&s, &len, "SQL_TSI_");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (gc_sql_ascii_equal_ci(s, len, names[i]))
            return (tsi_unit)i;
    return TSI_NONE;
}

/* TIMESTAMPADD(unit, count, ts): ts plus count units. */
static void build_timestampadd(tsi_unit unit, const char *const *args, gc_strbuf *out)
{
    static const char *const step[] = {
        [TSI_FRAC_SECOND] = "/ 1000.0 * INTERVAL '1 microsecond'",   /* ODBC: nanoseconds */
        [TSI_SECOND] = "* INTERVAL '1 second'",
        [TSI_MINUTE] = "* INTERVAL '1 minute'",
        [TSI_HOUR] = "* INTERVAL '1 hour'",
        [TSI_DAY] = "* INTERVAL '1 day'",
        [TSI_WEEK] = "* INTERVAL '1 week'",
        [TSI_MONTH] = "* INTERVAL '1 month'",
        [TSI_QUARTER] = "* INTERVAL '3 months'",
        [TSI_YEAR] = "* INTERVAL '1 year'",
    };
    assert(unit < TSI_NONE);
    gc_strbuf_appendf(out, "(CAST(%s AS timestamp) + (%s) %s)", args[2], args[1], step[unit]);
}

/* TIMESTAMPDIFF(unit, ts1, ts2): whole units by which ts2 is later than ts1.
 * Fixed-length units divide the epoch difference; months, quarters and years
 * come from age(), named once in a FROM item so no argument is repeated. */
static void build_timestampdiff(tsi_unit unit, const char *const *args, gc_strbuf *out)
{
    static const char *const seconds_per[] = {
        [TSI_FRAC_SECOND] = " * 1000000000", [TSI_SECOND] = "",
        [TSI_MINUTE] = " / 60", [TSI_HOUR] = " / 3600", [TSI_DAY] = " / 86400",
        [TSI_WEEK] = " / 604800",
    };
    const char *t1 = args[1], *t2 = args[2];
    switch (unit) {
    case TSI_MONTH:
    case TSI_QUARTER:
        gc_strbuf_appendf(out,
            "(SELECT CAST(trunc((extract(year FROM gc_age) * 12 + extract(month FROM gc_age))%s)"
            " AS bigint) FROM age(CAST(%s AS timestamp), CAST(%s AS timestamp)) AS gc_age)",
            unit == TSI_QUARTER ? " / 3" : "", t2, t1);
        break;
    case TSI_YEAR:
        gc_strbuf_appendf(out,
            "CAST(extract(year FROM age(CAST(%s AS timestamp), CAST(%s AS timestamp))) AS bigint)",
            t2, t1);
        break;
    default:
        assert(unit < TSI_MONTH);
        gc_strbuf_appendf(out,
            "CAST(trunc(extract(epoch FROM CAST(%s AS timestamp) - CAST(%s AS timestamp))%s)"
            " AS bigint)", t2, t1, seconds_per[unit]);
        break;
    }
}

/* Expands a template; see the header for its syntax. */
static void expand_form(const char *form, const char *const *args, size_t nargs,
                        gc_strbuf *out)
{
    for (const char *p = form; *p; p++) {
        if (p[0] == '%' && p[1] >= '1' && p[1] <= '9') {
            size_t i = (size_t)(p[1] - '1');
            assert(i < nargs);
            gc_strbuf_append_str(out, args[i]);
            p++;
        } else if (p[0] == '%' && p[1] == '%') {
            gc_strbuf_append_char(out, '%');
            p++;
        } else {
            gc_strbuf_append_char(out, *p);
        }
    }
}

gc_sql_fn_result gc_sql_escape_function(const char *name, size_t name_len,
                                        const char *const *args, size_t nargs,
                                        gc_strbuf *out, gc_error *err)
{
    const gc_sql_fn_mapping *row = NULL;
    bool known = false;
    for (size_t i = 0; i < gc_sql_escape_function_count(); i++) {
        if (!gc_sql_ascii_equal_ci(name, name_len, fn_table[i].odbc_name))
            continue;
        known = true;
        if ((size_t)fn_table[i].nargs == nargs) {
            row = &fn_table[i];
            break;
        }
    }
    if (!known)
        return GC_SQL_FN_UNKNOWN;
    if (row == NULL) {
        gc_error_set(err, "42000", 0,
                     "ODBC function %.*s does not take %zu argument%s",
                     (int)name_len, name, nargs, nargs == 1 ? "" : "s");
        return GC_SQL_FN_FAILED;
    }
    if (row->postgres_form != NULL) {
        expand_form(row->postgres_form, args, nargs, out);
        return GC_SQL_FN_MAPPED;
    }
    if (strcmp(row->odbc_name, "CONVERT") == 0) {
        const char *type = gc_sql_convert_type(args[1], strlen(args[1]));
        if (type == NULL) {
            gc_error_set(err, "42000", 0,
                         "CONVERT to unknown ODBC data type '%s'", args[1]);
            return GC_SQL_FN_FAILED;
        }
        gc_strbuf_appendf(out, "CAST(%s AS %s)", args[0], type);
        return GC_SQL_FN_MAPPED;
    }
    tsi_unit unit = tsi_from_name(args[0], strlen(args[0]));
    if (unit == TSI_NONE) {
        gc_error_set(err, "42000", 0,
                     "%s with unknown interval '%s' (expected SQL_TSI_FRAC_SECOND .. SQL_TSI_YEAR)",
                     row->odbc_name, args[0]);
        return GC_SQL_FN_FAILED;
    }
    if (strcmp(row->odbc_name, "TIMESTAMPADD") == 0)
        build_timestampadd(unit, args, out);
    else
        build_timestampdiff(unit, args, out);
    return GC_SQL_FN_MAPPED;
}
