/*
 * Private helpers shared by the gc_convert files: decimal numbers parsed from
 * text, locale-independent doubles, SQL_NUMERIC_STRUCT arithmetic and intervals;
 * dates, times and GUIDs are gc_datetime.h. Nothing here allocates.
 */
#ifndef GC_CONVERT_INTERNAL_H
#define GC_CONVERT_INTERNAL_H

#include <sql.h>
#include <sqlext.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "convert/gc_datetime.h"
#include "util/gc_error.h"

/* Significant digits kept from a decimal text; more than any C type needs
 * (SQL_NUMERIC_STRUCT holds 38). Nonzero digits beyond are only remembered. */
#define GC_DECNUM_MAX_DIGITS 64

typedef enum gc_decnum_kind {
    GC_DECNUM_FINITE, GC_DECNUM_NAN, GC_DECNUM_POS_INF, GC_DECNUM_NEG_INF
} gc_decnum_kind;

/* value = (negative ? -1 : 1) * digits * 10^exp10 (+ less than 10^exp10 when
 * dropped_nonzero). digits has no leading zeros; ndigits == 0 means zero. */
typedef struct gc_decnum {
    gc_decnum_kind kind;
    bool negative;
    char digits[GC_DECNUM_MAX_DIGITS];   /* ASCII, not NUL-terminated */
    int ndigits;
    long exp10;
    bool dropped_nonzero;
    long written_scale;                  /* digits after the point as written,
                                          * less the exponent ("7.70": 2) */
} gc_decnum;

/* Parses a numeric literal: optional spaces, sign, digits with an optional
 * point, optional exponent, spaces; or NaN / Inf / Infinity in any case.
 * Returns false when the text is not such a literal. */
bool gc_decnum_parse(const char *s, size_t len, gc_decnum *out);

/* The integer part of d as sign and magnitude; *fraction_lost when a nonzero
 * fraction was cut off. Returns false when d is NaN, infinite or its
 * magnitude exceeds UINT64_MAX. */
bool gc_decnum_integer(const gc_decnum *d, bool *negative, uint64_t *magnitude,
                       bool *fraction_lost);

/* True when sign/magnitude lies in [min, max]. */
bool gc_integer_in_range(bool negative, uint64_t magnitude, int64_t min, uint64_t max);

/* d rounded toward zero to `scale` decimals into a SQL_NUMERIC_STRUCT of
 * `precision` digits (1..38); precision 0 with scale 0 keeps the value's own
 * precision and scale, as psqlODBC does. Returns false when it does not fit
 * (22003: more digits than the precision, or more than 128 bits);
 * *fraction_lost when digits beyond scale were dropped. */
bool gc_decnum_to_numeric(const gc_decnum *d, int precision, int scale,
                          SQL_NUMERIC_STRUCT *out, bool *fraction_lost);

/* Longest text gc_numeric_to_text writes, NUL included. */
#define GC_NUMERIC_TEXT_MAX 200

/* Writes the decimal text of a SQL_NUMERIC_STRUCT ("-12.340", "0.5"). */
void gc_numeric_to_text(const SQL_NUMERIC_STRUCT *n, char buf[GC_NUMERIC_TEXT_MAX]);

typedef enum gc_num_status { GC_NUM_OK, GC_NUM_SYNTAX, GC_NUM_RANGE } gc_num_status;

/* Parses a double regardless of the process locale; out-of-range finite
 * literals (1e400) give GC_NUM_RANGE, tiny ones round to zero. */
gc_num_status gc_parse_double(const char *s, size_t len, double *out);

/* Longest text gc_format_double writes, NUL included. */
#define GC_DOUBLE_TEXT_MAX 40

/* Shortest text (at most max_digits significant digits) that reads back as v,
 * in PostgreSQL's spelling of the special values (NaN, Infinity). Ignores
 * the process locale. */
void gc_format_double(double v, int max_digits, char buf[GC_DOUBLE_TEXT_MAX]);

/* An interval as PostgreSQL keeps it: months, days and microseconds, each
 * with its own sign ('1 mon -2 days 03:00'). */
typedef struct gc_interval {
    int64_t months;
    int64_t days;
    int64_t micros;
    int infinite;            /* +1 'infinity', -1 '-infinity' (PostgreSQL 17), else 0 */
    bool fraction_cut;       /* nonzero digits past microseconds were dropped */
} gc_interval;

/* Parses PostgreSQL's interval output (IntervalStyle postgres, postgres_verbose
 * and the simple sql_standard forms 'Y-M' and 'D H:MM:SS') and the same
 * forms typed by an application: items "N unit" (year, mon, week, day, hour,
 * minute, second and their abbreviations; only seconds take a fraction),
 * "[-]H:MM[:SS[.f]]", "[-]Y-M", a day count before a clock, "ago", and
 * [-]infinity. Returns false when the text is none of these or overflows. */
bool gc_interval_parse(const char *s, size_t len, gc_interval *out);

/* True for year-month interval codes (C or SQL: YEAR, MONTH, YEAR_TO_MONTH). */
bool gc_interval_type_is_year_month(SQLSMALLINT type);

/* True for YEAR, MONTH, DAY, HOUR, MINUTE and SECOND. */
bool gc_interval_type_is_single_field(SQLSMALLINT type);

/* iv into an SQL_INTERVAL_STRUCT of interval type `type` (C or SQL code).
 * leading_precision: digits the leading field may have (0 = what the struct
 * holds); seconds_precision: digits of the fraction field (-1 = 6, above 9
 * = 9).
 * SQL_SUCCESS_WITH_INFO with 01S07 when trailing fields or fraction digits
 * were cut; SQL_ERROR with 22015 when the leading field is too long, the
 * value is infinite, or it has months for a day-time type (days or a time
 * for a year-month type). */
SQLRETURN gc_interval_to_struct(const gc_interval *iv, SQLSMALLINT type,
                                int leading_precision, int seconds_precision,
                                SQL_INTERVAL_STRUCT *out, gc_error *err);

/* An SQL_INTERVAL_STRUCT of C type `type` as a gc_interval; the fraction is
 * in microseconds (seconds precision 6). Every field of a day-time struct
 * adds, those outside the type's too, as psqlODBC reads it. 22015 when a trailing field is out
 * of its range (hour 24, minute 60, month 12) or the fraction is a second or
 * more. */
SQLRETURN gc_interval_from_struct(SQLSMALLINT type, const SQL_INTERVAL_STRUCT *in,
                                  gc_interval *out, gc_error *err);

/* 22015 unless iv fits SQL interval type sql_type without cutting a field. */
SQLRETURN gc_interval_fit(const gc_interval *iv, SQLSMALLINT sql_type, gc_error *err);

/* Longest text gc_interval_format / gc_interval_single_field_text write. */
#define GC_INTERVAL_TEXT_MAX 128

/* PostgreSQL input text for iv, every part with its own sign. */
void gc_interval_format(const gc_interval *iv, char buf[GC_INTERVAL_TEXT_MAX]);

/* The one field of a single-field interval struct as a decimal number. */
void gc_interval_single_field_text(SQLSMALLINT type, const SQL_INTERVAL_STRUCT *in,
                                   char buf[GC_INTERVAL_TEXT_MAX]);

#endif
