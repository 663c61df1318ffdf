/*
 * gc_convert, intervals: PostgreSQL interval text and SQL_INTERVAL_STRUCT,
 * following ODBC's interval rules ("SQL to C: Year-Month / Day-Time
 * Intervals" and "C to SQL: ..."). A PostgreSQL interval keeps months, days
 * and microseconds apart, each with its own sign; an ODBC interval is either
 * year-month or day-time, one sign, a leading field of any size and trailing
 * fields in their clock ranges. Nothing here allocates.
 */
#include "convert/gc_convert_internal.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define USEC_PER_SEC INT64_C(1000000)
#define USEC_PER_MIN (60 * USEC_PER_SEC)
#define USEC_PER_HOUR (60 * USEC_PER_MIN)
#define USEC_PER_DAY (24 * USEC_PER_HOUR)

/* The fields of an ODBC interval, leading to trailing. */
typedef enum field { F_YEAR, F_MONTH, F_DAY, F_HOUR, F_MINUTE, F_SECOND } field;

typedef struct shape {
    field leading, trailing;
} shape;

/* Indexed by SQL_CODE_* - 1 (the C and SQL interval types are 100 + code). */
static const shape shapes[13] = {
    { F_YEAR, F_YEAR }, { F_MONTH, F_MONTH }, { F_DAY, F_DAY }, { F_HOUR, F_HOUR },
    { F_MINUTE, F_MINUTE }, { F_SECOND, F_SECOND }, { F_YEAR, F_MONTH },
    { F_DAY, F_HOUR }, { F_DAY, F_MINUTE }, { F_DAY, F_SECOND }, { F_HOUR, F_MINUTE },
    { F_HOUR, F_SECOND }, { F_MINUTE, F_SECOND },
};

/* The shape of an interval type code (C or SQL: both are 100 + SQL_CODE_*). */
static bool shape_of(SQLSMALLINT type, shape *out)
{
    int code = type - 100;
    if (code < SQL_CODE_YEAR || code > SQL_CODE_MINUTE_TO_SECOND)
        return false;
    *out = shapes[code - 1];
    return true;
}

bool gc_interval_type_is_year_month(SQLSMALLINT type)
{
    shape sh;
    return shape_of(type, &sh) && sh.leading <= F_MONTH;
}

bool gc_interval_type_is_single_field(SQLSMALLINT type)
{
    shape sh;
    return shape_of(type, &sh) && sh.leading == sh.trailing;
}

static SQLRETURN overflow(gc_error *err, const char *why)
{
    gc_error_set(err, "22015", 0, "Interval field overflow: %s", why);
    return SQL_ERROR;
}

/* ---- Parsing ---------------------------------------------------------- */

typedef struct cursor {
    const char *s;
    size_t len, i;
} cursor;

static void skip_spaces(cursor *c)
{
    while (c->i < c->len && c->s[c->i] == ' ')
        c->i++;
}

static bool at_digit(const cursor *c)
{
    return c->i < c->len && c->s[c->i] >= '0' && c->s[c->i] <= '9';
}

/* Unsigned decimal digits (at least one) without overflow. */
static bool read_number(cursor *c, int64_t *out)
{
    if (!at_digit(c))
        return false;
    int64_t v = 0;
    while (at_digit(c)) {
        if (__builtin_mul_overflow(v, 10, &v) ||
            __builtin_add_overflow(v, c->s[c->i] - '0', &v))
            return false;
        c->i++;
    }
    *out = v;
    return true;
}

/* '.digits' as microseconds; digits past the sixth must be zero only if the
 * caller cares (*cut reports nonzero ones). No point: 0. */
static bool read_fraction(cursor *c, int64_t *micros, bool *cut)
{
    *micros = 0;
    if (c->i >= c->len || c->s[c->i] != '.')
        return true;
    c->i++;
    if (!at_digit(c))
        return false;
    int n = 0;
    while (at_digit(c)) {
        int digit = c->s[c->i] - '0';
        if (n < 6) {
            *micros = *micros * 10 + digit;
            n++;
        } else if (digit != 0) {
            *cut = true;
        }
        c->i++;
    }
    for (; n < 6; n++)
        *micros *= 10;
    return true;
}

/* A unit word after a number: what one of it is in months, days or
 * microseconds (exactly one is nonzero). */
typedef struct unit {
    const char *names[5];
    int64_t months, days, micros;
} unit;

static const unit units[] = {
    { { "year", "years", "yr", "yrs", "y" }, 12, 0, 0 },
    { { "mon", "mons", "month", "months", NULL }, 1, 0, 0 },
    { { "week", "weeks", "w", NULL, NULL }, 0, 7, 0 },
    { { "day", "days", "d", NULL, NULL }, 0, 1, 0 },
    { { "hour", "hours", "hr", "hrs", "h" }, 0, 0, USEC_PER_HOUR },
    { { "minute", "minutes", "min", "mins", "m" }, 0, 0, USEC_PER_MIN },
    { { "second", "seconds", "sec", "secs", "s" }, 0, 0, USEC_PER_SEC },
};

static const unit *read_unit(cursor *c)
{
    size_t start = c->i;
    while (c->i < c->len && ((c->s[c->i] >= 'a' && c->s[c->i] <= 'z') ||
                             (c->s[c->i] >= 'A' && c->s[c->i] <= 'Z')))
        c->i++;
    size_t n = c->i - start;
    for (size_t u = 0; n > 0 && u < sizeof units / sizeof units[0]; u++) {
        for (int k = 0; k < 5 && units[u].names[k] != NULL; k++) {
            if (strlen(units[u].names[k]) == n &&
                strncasecmp(c->s + start, units[u].names[k], n) == 0)
                return &units[u];
        }
    }
    return NULL;
}

/* acc += sign * a * b, false on overflow. */
static bool add_product(int64_t *acc, int sign, int64_t a, int64_t b)
{
    int64_t p;
    if (__builtin_mul_overflow(a, b, &p))
        return false;
    return sign > 0 ? !__builtin_add_overflow(*acc, p, acc)
                    : !__builtin_sub_overflow(*acc, p, acc);
}

/* H:MM[:SS[.f]] after its sign, added to iv->micros. */
static bool read_clock(cursor *c, int sign, int64_t hours, gc_interval *iv)
{
    int64_t minutes, seconds = 0, frac = 0;
    c->i++;   /* the ':' */
    if (!read_number(c, &minutes) || minutes > 59)
        return false;
    if (c->i < c->len && c->s[c->i] == ':') {
        c->i++;
        if (!read_number(c, &seconds) || seconds > 59 ||
            !read_fraction(c, &frac, &iv->fraction_cut))
            return false;
    }
    return add_product(&iv->micros, sign, hours, USEC_PER_HOUR) &&
           add_product(&iv->micros, sign, minutes, USEC_PER_MIN) &&
           add_product(&iv->micros, sign, seconds, USEC_PER_SEC) &&
           add_product(&iv->micros, sign, frac, 1);
}

/* One item: "N unit", "N.f secs", "[-]H:MM[:SS[.f]]", "[-]Y-M" or a bare
 * day count before a clock (the SQL standard's "D H:MM:SS"). */
static bool read_item(cursor *c, gc_interval *iv)
{
    int sign = 1;
    if (c->s[c->i] == '-' || c->s[c->i] == '+') {
        sign = c->s[c->i] == '-' ? -1 : 1;
        c->i++;
    }
    int64_t n;
    if (!read_number(c, &n))
        return false;
    if (c->i < c->len && c->s[c->i] == ':')
        return read_clock(c, sign, n, iv);
    if (c->i < c->len && c->s[c->i] == '-') {   /* year-month */
        int64_t months;
        c->i++;
        if (!read_number(c, &months) || months > 11)
            return false;
        return add_product(&iv->months, sign, n, 12) && add_product(&iv->months, sign, months, 1);
    }
    int64_t frac = 0;
    bool has_fraction = c->i < c->len && c->s[c->i] == '.';
    if (!read_fraction(c, &frac, &iv->fraction_cut))
        return false;
    skip_spaces(c);
    if (!has_fraction && (at_digit(c) || (c->i < c->len && c->s[c->i] == '-') ||
                          (c->i < c->len && c->s[c->i] == '+')))
        return add_product(&iv->days, sign, n, 1);   /* a day count before a clock */
    const unit *u = read_unit(c);
    if (u == NULL || (has_fraction && u->micros != USEC_PER_SEC))
        return false;
    return add_product(&iv->months, sign, n, u->months) &&
           add_product(&iv->days, sign, n, u->days) &&
           add_product(&iv->micros, sign, n, u->micros) &&
           add_product(&iv->micros, sign, frac, 1);
}

bool gc_interval_parse(const char *s, size_t len, gc_interval *iv)
{
    memset(iv, 0, sizeof *iv);
    cursor c = { s, len, 0 };
    skip_spaces(&c);
    while (c.len > c.i && c.s[c.len - 1] == ' ')
        c.len--;
    size_t rest = c.len - c.i;
    if ((rest == 8 && strncasecmp(s + c.i, "infinity", 8) == 0) ||
        (rest == 9 && strncasecmp(s + c.i, "+infinity", 9) == 0)) {
        iv->infinite = 1;
        return true;
    }
    if (rest == 9 && strncasecmp(s + c.i, "-infinity", 9) == 0) {
        iv->infinite = -1;
        return true;
    }
    if (c.i < c.len && c.s[c.i] == '@') {   /* IntervalStyle=postgres_verbose */
        c.i++;
        skip_spaces(&c);
    }
    bool ago = false, any = false;
    while (c.i < c.len) {
        if (c.len - c.i == 3 && strncasecmp(c.s + c.i, "ago", 3) == 0) {
            ago = true;
            c.i = c.len;
            break;
        }
        if (!read_item(&c, iv))
            return false;
        any = true;
        skip_spaces(&c);
    }
    if (!any)
        return false;
    if (ago) {
        iv->months = -iv->months;
        iv->days = -iv->days;
        iv->micros = -iv->micros;
    }
    return true;
}

/* ---- PostgreSQL value to SQL_INTERVAL_STRUCT -------------------------- */

static int64_t abs64(int64_t v)
{
    return v == INT64_MIN ? INT64_MAX : v < 0 ? -v : v;
}

#define MAX_PART INT64_C(1000000000000)

/* Largest leading field value for a precision (0 = the struct's limit). */
static int64_t leading_limit(int leading_precision)
{
    int64_t limit = 1;
    if (leading_precision <= 0 || leading_precision > 9)
        return UINT32_MAX;
    for (int k = 0; k < leading_precision; k++)
        limit *= 10;
    return limit - 1;
}

/* Day-time parts with one sign: days and microseconds of the day (< 24 h).
 * PostgreSQL lets them differ in sign ('1 day -01:00' is 23 hours). */
static void day_time_parts(const gc_interval *iv, bool *negative, int64_t *days, int64_t *micros)
{
    int64_t d = iv->days + iv->micros / USEC_PER_DAY;
    int64_t u = iv->micros % USEC_PER_DAY;
    if (d > 0 && u < 0) {
        d--;
        u += USEC_PER_DAY;
    } else if (d < 0 && u > 0) {
        d++;
        u -= USEC_PER_DAY;
    }
    *negative = d < 0 || u < 0;
    *days = abs64(d);
    *micros = abs64(u);
}

SQLRETURN gc_interval_to_struct(const gc_interval *iv, SQLSMALLINT type,
                                int leading_precision, int seconds_precision,
                                SQL_INTERVAL_STRUCT *out, gc_error *err)
{
    shape sh;
    if (!shape_of(type, &sh)) {
        gc_error_set(err, "HY003", 0, "Invalid interval type %d", (int)type);
        return SQL_ERROR;
    }
    if (iv->infinite != 0)
        return overflow(err, "an infinite interval has no ODBC form");
    /* Far beyond PostgreSQL's range and the struct's: keeps the arithmetic
     * below exact. */
    if (abs64(iv->months) > MAX_PART || abs64(iv->days) > MAX_PART)
        return overflow(err, "the interval is too long");
    memset(out, 0, sizeof *out);
    out->interval_type = (SQLINTERVAL)(type - 100);
    int64_t limit = leading_limit(leading_precision);
    bool lost = false;

    if (sh.leading <= F_MONTH) {
        if (iv->days != 0 || iv->micros != 0)
            return overflow(err, "the value has days or a time of day, the target is year-month");
        int64_t m = abs64(iv->months);
        out->interval_sign = iv->months < 0 ? SQL_TRUE : SQL_FALSE;
        int64_t lead = sh.leading == F_YEAR ? m / 12 : m;
        if (lead > limit)
            return overflow(err, "the leading field exceeds its precision");
        if (sh.leading == F_YEAR) {
            out->intval.year_month.year = (SQLUINTEGER)lead;
            if (sh.trailing == F_MONTH)
                out->intval.year_month.month = (SQLUINTEGER)(m % 12);
            else
                lost = m % 12 != 0;
        } else {
            out->intval.year_month.month = (SQLUINTEGER)lead;
        }
    } else {
        if (iv->months != 0)
            return overflow(err, "the value has months, the target is day-time");
        bool negative;
        int64_t days, micros;
        day_time_parts(iv, &negative, &days, &micros);
        out->interval_sign = negative ? SQL_TRUE : SQL_FALSE;
        /* Each field's value as if it led; trailing ones are then cut. */
        int64_t hours = days * 24 + micros / USEC_PER_HOUR;
        int64_t minutes = hours * 60 + micros / USEC_PER_MIN % 60;
        int64_t seconds = minutes * 60 + micros / USEC_PER_SEC % 60;
        int64_t lead = sh.leading == F_DAY ? days : sh.leading == F_HOUR ? hours
                     : sh.leading == F_MINUTE ? minutes : seconds;
        if (lead > limit)
            return overflow(err, "the leading field exceeds its precision");
        SQL_DAY_SECOND_STRUCT *ds = &out->intval.day_second;
        int64_t parts[4] = { days, hours % 24, minutes % 60, seconds % 60 };
        SQLUINTEGER *dest[4] = { &ds->day, &ds->hour, &ds->minute, &ds->second };
        for (field f = F_DAY; f <= F_SECOND; f++) {
            int64_t v = f == sh.leading ? lead : parts[f - F_DAY];
            if (f >= sh.leading && f <= sh.trailing)
                *dest[f - F_DAY] = (SQLUINTEGER)v;
            else if (f > sh.trailing && v != 0)
                lost = true;
        }
        int64_t frac = micros % USEC_PER_SEC;
        if (sh.trailing == F_SECOND) {
            /* Above 9 digits (nanoseconds) is more than the fraction field
             * can mean: taken as 9, as psqlODBC clamps it. */
            int sp = seconds_precision < 0 ? 6 : seconds_precision > 9 ? 9 : seconds_precision;
            int64_t scaled = frac;
            for (int k = 6; k < sp; k++)
                scaled *= 10;
            for (int k = 6; k > sp; k--) {
                lost = lost || scaled % 10 != 0;
                scaled /= 10;
            }
            ds->fraction = (SQLUINTEGER)scaled;
        } else {
            lost = lost || frac != 0;
        }
    }
    lost = lost || iv->fraction_cut;
    if (!lost)
        return SQL_SUCCESS;
    gc_error_set(err, "01S07", 0, "Fractional truncation: trailing interval fields were cut");
    return SQL_SUCCESS_WITH_INFO;
}

/* ---- SQL_INTERVAL_STRUCT to a PostgreSQL value ------------------------ */

SQLRETURN gc_interval_from_struct(SQLSMALLINT type, const SQL_INTERVAL_STRUCT *in,
                                  gc_interval *iv, gc_error *err)
{
    shape sh;
    memset(iv, 0, sizeof *iv);
    if (!shape_of(type, &sh)) {
        gc_error_set(err, "HY003", 0, "Invalid interval type %d", (int)type);
        return SQL_ERROR;
    }
    int sign = in->interval_sign == SQL_TRUE ? -1 : 1;
    if (sh.leading <= F_MONTH) {
        int64_t years = sh.leading == F_YEAR ? in->intval.year_month.year : 0;
        int64_t months = sh.trailing == F_MONTH ? in->intval.year_month.month : 0;
        if (sh.leading == F_YEAR && months > 11)
            return overflow(err, "months above 11 after a year field");
        iv->months = sign * (years * 12 + months);
        return SQL_SUCCESS;
    }
    const SQL_DAY_SECOND_STRUCT *ds = &in->intval.day_second;
    static const int64_t ranges[4] = { 0, 24, 60, 60 };
    static const int64_t micros_per[4] = { 0, USEC_PER_HOUR, USEC_PER_MIN, USEC_PER_SEC };
    SQLUINTEGER values[4] = { ds->day, ds->hour, ds->minute, ds->second };
    /* Every field of the struct adds to the value, the ones outside the
     * type's fields too (ODBC calls them irrelevant; an application that
     * zeroes them sees no difference): psqlODBC reads a day-time struct
     * whole, and programs written for it set day, hour and minute of an
     * SQL_IS_SECOND value. The range rules hold for the type's fields. */
    for (field f = F_DAY; f <= F_SECOND; f++) {
        int64_t v = values[f - F_DAY];
        bool trailing = f > sh.leading && f <= sh.trailing;
        if (trailing && v >= ranges[f - F_DAY])
            return overflow(err, "a trailing field is out of its range");
        if (f == F_DAY)
            iv->days = sign * v;
        else if (!add_product(&iv->micros, sign, v, micros_per[f - F_DAY]))
            return overflow(err, "the interval is too long for PostgreSQL");
    }
    if (ds->fraction >= USEC_PER_SEC)
        return overflow(err, "the fraction is not below one second (microseconds)");
    iv->micros += sign * (int64_t)ds->fraction;
    return SQL_SUCCESS;
}

SQLRETURN gc_interval_fit(const gc_interval *iv, SQLSMALLINT sql_type, gc_error *err)
{
    SQL_INTERVAL_STRUCT unused;
    SQLRETURN rc = gc_interval_to_struct(iv, sql_type, 0, 6, &unused, err);
    if (rc == SQL_SUCCESS_WITH_INFO)
        return overflow(err, "fields the SQL type does not have would be cut");
    return rc;
}

/* Postgres-style text with every part's sign spelled out, so it reads the
 * same under any IntervalStyle: "-1 years -2 mons 3 days -04:05:06.5". */
void gc_interval_format(const gc_interval *iv, char buf[GC_INTERVAL_TEXT_MAX])
{
    size_t n = 0;
    buf[0] = '\0';
    if (iv->infinite != 0) {
        snprintf(buf, GC_INTERVAL_TEXT_MAX, "%sinfinity", iv->infinite < 0 ? "-" : "");
        return;
    }
    int64_t years = iv->months / 12, months = iv->months % 12;
    if (years != 0)
        n += (size_t)snprintf(buf + n, GC_INTERVAL_TEXT_MAX - n, "%lld year%s ",
                              (long long)years, years == 1 ? "" : "s");
    if (months != 0)
        n += (size_t)snprintf(buf + n, GC_INTERVAL_TEXT_MAX - n, "%lld mon%s ",
                              (long long)months, months == 1 ? "" : "s");
    if (iv->days != 0)
        n += (size_t)snprintf(buf + n, GC_INTERVAL_TEXT_MAX - n, "%lld day%s ",
                              (long long)iv->days, iv->days == 1 ? "" : "s");
    if (iv->micros != 0 || n == 0) {
        int64_t u = abs64(iv->micros);
        n += (size_t)snprintf(buf + n, GC_INTERVAL_TEXT_MAX - n, "%s%02lld:%02lld:%02lld",
                              iv->micros < 0 ? "-" : "", (long long)(u / USEC_PER_HOUR),
                              (long long)(u / USEC_PER_MIN % 60),
                              (long long)(u / USEC_PER_SEC % 60));
        if (u % USEC_PER_SEC != 0) {
            char frac[8];
            snprintf(frac, sizeof frac, "%06lld", (long long)(u % USEC_PER_SEC));
            int keep = 6;
            while (keep > 1 && frac[keep - 1] == '0')
                keep--;
            n += (size_t)snprintf(buf + n, GC_INTERVAL_TEXT_MAX - n, ".%.*s", keep, frac);
        }
    } else {
        buf[--n] = '\0';   /* the space after the last part */
    }
}

/* The leading field of a single-field interval struct as a decimal number
 * ("-90", "10.5" for seconds with a fraction in microseconds). */
void gc_interval_single_field_text(SQLSMALLINT type, const SQL_INTERVAL_STRUCT *in,
                                   char buf[GC_INTERVAL_TEXT_MAX])
{
    shape sh;
    if (!shape_of(type, &sh) || sh.leading != sh.trailing) {
        buf[0] = '\0';
        return;
    }
    const char *sign = in->interval_sign == SQL_TRUE ? "-" : "";
    const SQL_DAY_SECOND_STRUCT *ds = &in->intval.day_second;
    unsigned long v = sh.leading == F_YEAR ? in->intval.year_month.year
                    : sh.leading == F_MONTH ? in->intval.year_month.month
                    : sh.leading == F_DAY ? ds->day : sh.leading == F_HOUR ? ds->hour
                    : sh.leading == F_MINUTE ? ds->minute : ds->second;
    if (sh.leading == F_SECOND && ds->fraction != 0)
        snprintf(buf, GC_INTERVAL_TEXT_MAX, "%s%lu.%06lu", sign, v, (unsigned long)ds->fraction);
    else
        snprintf(buf, GC_INTERVAL_TEXT_MAX, "%s%lu", sign, v);
}
