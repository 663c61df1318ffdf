/* Date and timestamp text to PostgreSQL's internal values (see header). */
#include "placement/gc_keyval_datetime.h"

#include "placement/gc_keyval.h"

#include <string.h>
#include <strings.h>

/* The C locale's isspace/isdigit, independent of the process locale. */
static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

#define USECS_PER_SEC INT64_C(1000000)
#define USECS_PER_DAY (INT64_C(86400) * USECS_PER_SEC)
/* 1970-01-01 is day -10957 of the server's epoch 2000-01-01. */
#define UNIX_EPOCH_DAY (-10957)

typedef struct cursor {
    const char *p, *end;
} cursor;

static void skip_blanks(cursor *c)
{
    while (c->p < c->end && is_blank(*c->p))
        c->p++;
}

/* Reads exactly n digits (n > 0) into *v. */
static bool read_digits(cursor *c, int n, int *v)
{
    int x = 0;
    if (c->end - c->p < n)
        return false;
    for (int i = 0; i < n; i++) {
        if (!is_digit(c->p[i]))
            return false;
        x = x * 10 + (c->p[i] - '0');
    }
    c->p += n;
    *v = x;
    return true;
}

static bool accept_char(cursor *c, char ch)
{
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return true;
    }
    return false;
}

static bool rest_is_word(const cursor *c, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(c->end - c->p) == n && strncasecmp(c->p, word, n) == 0;
}

static bool is_leap(int y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Days from 1970-01-01 to the proleptic Gregorian date (civil calendar). */
static int64_t days_from_civil(int y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* YYYY-MM-DD with a valid day; returns days since 2000-01-01. */
static bool read_ymd(cursor *c, int32_t *days)
{
    static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int y, m, d;
    if (!read_digits(c, 4, &y) || !accept_char(c, '-') || !read_digits(c, 2, &m) ||
        !accept_char(c, '-') || !read_digits(c, 2, &d))
        return false;
    if (y < 1 || m < 1 || m > 12 || d < 1)
        return false;
    if (d > mdays[m - 1] + (m == 2 && is_leap(y)))
        return false;
    *days = (int32_t)(days_from_civil(y, m, d) - days_from_civil(2000, 1, 1));
    return true;
}

/* The special values dates and timestamps share, as the whole text. */
typedef enum special_value_kind {
    SPECIAL_NONE,
    SPECIAL_INFINITY,
    SPECIAL_MINUS_INFINITY,
    SPECIAL_EPOCH,
} special_value_kind;

static special_value_kind special_value(const cursor *c)
{
    if (rest_is_word(c, "infinity") || rest_is_word(c, "+infinity"))
        return SPECIAL_INFINITY;
    if (rest_is_word(c, "-infinity"))
        return SPECIAL_MINUS_INFINITY;
    if (rest_is_word(c, "epoch"))
        return SPECIAL_EPOCH;
    return SPECIAL_NONE;
}

/* Parses the date forms listed in the header. */
bool gc_keyval_parse_date(const char *s, size_t len, int32_t *days, const char **why)
{
    cursor c = {s, s + len};
    skip_blanks(&c);
    while (c.end > c.p && is_blank(c.end[-1]))
        c.end--;
    switch (special_value(&c)) {
    case SPECIAL_INFINITY: *days = INT32_MAX; return true;
    case SPECIAL_MINUS_INFINITY: *days = INT32_MIN; return true;
    case SPECIAL_EPOCH: *days = UNIX_EPOCH_DAY; return true;
    case SPECIAL_NONE: break;
    }
    if (!read_ymd(&c, days) || c.p != c.end) {
        *why = "date is not in ISO form YYYY-MM-DD (other forms depend on DateStyle)";
        return false;
    }
    return true;
}

/* Reads a UTC offset ('Z', 'UTC', 'GMT', +H, +HH, +HHMM, +HH:MM, +HH:MM:SS)
 * into *secs east of UTC. */
static bool read_offset(cursor *c, int64_t *secs)
{
    if (c->end - c->p == 1 && (*c->p == 'Z' || *c->p == 'z')) {
        c->p++;
        *secs = 0;
        return true;
    }
    if (rest_is_word(c, "UTC") || rest_is_word(c, "GMT")) {
        c->p = c->end;
        *secs = 0;
        return true;
    }
    int sign;
    if (accept_char(c, '+'))
        sign = 1;
    else if (accept_char(c, '-'))
        sign = -1;
    else
        return false;
    size_t ndig = 0;
    while (c->p + ndig < c->end && is_digit(c->p[ndig]))
        ndig++;
    int h = 0, m = 0, sec = 0;
    if (ndig == 1 || ndig == 2) {
        read_digits(c, (int)ndig, &h);
        if (accept_char(c, ':')) {
            if (!read_digits(c, 2, &m))
                return false;
            if (accept_char(c, ':') && !read_digits(c, 2, &sec))
                return false;
        }
    } else if (ndig == 4) {
        read_digits(c, 2, &h);
        read_digits(c, 2, &m);
    } else {
        return false;
    }
    if (h > 15 || m > 59 || sec > 59)
        return false;
    *secs = sign * (int64_t)(h * 3600 + m * 60 + sec);
    return true;
}

/* A timestamp's text read in parts: the local time in microseconds since
 * 2000-01-01 and the offset it gives, if any. */
typedef struct timestamp_parts {
    int64_t local;          /* INT64_MAX / INT64_MIN for +/-infinity */
    bool special;           /* infinity, -infinity or epoch: no offset applies */
    bool has_time, has_offset;
    int64_t offset;         /* seconds east of UTC */
} timestamp_parts;

/* Reads the timestamp forms listed in the header into *ts. */
static bool read_timestamp(const char *s, size_t len, int32_t typmod, timestamp_parts *ts,
                           const char **why)
{
    memset(ts, 0, sizeof *ts);
    cursor c = {s, s + len};
    skip_blanks(&c);
    while (c.end > c.p && is_blank(c.end[-1]))
        c.end--;
    switch (special_value(&c)) {
    case SPECIAL_INFINITY: ts->local = INT64_MAX; ts->special = true; return true;
    case SPECIAL_MINUS_INFINITY: ts->local = INT64_MIN; ts->special = true; return true;
    case SPECIAL_EPOCH:
        ts->local = (int64_t)UNIX_EPOCH_DAY * USECS_PER_DAY;
        ts->special = true;
        return true;
    case SPECIAL_NONE: break;
    }
    *why = "timestamp is not in ISO form YYYY-MM-DD HH:MM:SS[.ffffff][+HH:MM]";
    int32_t days;
    if (!read_ymd(&c, &days))
        return false;
    int h = 0, m = 0, sec = 0;
    int64_t frac = 0;
    bool has_time = false;
    if (c.p < c.end && (*c.p == ' ' || *c.p == 'T' || *c.p == 't')) {
        cursor save = c;
        c.p++;
        skip_blanks(&c);
        if (read_digits(&c, 2, &h) && accept_char(&c, ':') && read_digits(&c, 2, &m)) {
            has_time = true;
            if (accept_char(&c, ':')) {
                if (!read_digits(&c, 2, &sec))
                    return false;
                if (accept_char(&c, '.')) {
                    int nd = 0;
                    while (c.p < c.end && is_digit(*c.p)) {
                        int d = *c.p++ - '0';
                        nd++;
                        if (nd <= 6)
                            frac = frac * 10 + d;
                        else if (d != 0) {
                            *why = "timestamp has more than 6 fractional digits (the server rounds)";
                            return false;
                        }
                        if (typmod >= 0 && nd > typmod && d != 0) {
                            *why = "timestamp has more fractional digits than the column's precision";
                            return false;
                        }
                    }
                    if (nd == 0)
                        return false;
                    for (int k = nd; k < 6; k++)
                        frac *= 10;
                }
            }
        } else {
            c = save;
        }
    }
    if (h > 24 || m > 59 || sec > 59 || (h == 24 && (m || sec || frac)))
        return false;
    skip_blanks(&c);
    if (c.p < c.end) {
        if (!has_time || !read_offset(&c, &ts->offset) || c.p != c.end)
            return false;
        ts->has_offset = true;
    }
    ts->has_time = has_time;
    ts->local = (int64_t)days * USECS_PER_DAY +
                ((int64_t)h * 3600 + m * 60 + sec) * USECS_PER_SEC + frac;
    return true;
}

bool gc_keyval_parse_timestamp(const char *s, size_t len, bool with_tz, int32_t typmod,
                               int64_t *usecs, const char **why)
{
    timestamp_parts ts;
    if (!read_timestamp(s, len, typmod, &ts, why))
        return false;
    if (ts.special || !with_tz) {
        *usecs = ts.local;   /* timestamp without time zone ignores a given offset */
        return true;
    }
    if (!ts.has_offset) {
        *why = "timestamptz without an explicit UTC offset depends on the session TimeZone";
        return false;
    }
    *usecs = ts.local - ts.offset * USECS_PER_SEC;
    return true;
}

bool gc_keyval_timestamp_is_local(const char *s, size_t len, bool *has_time)
{
    timestamp_parts ts;
    const char *why;
    if (!read_timestamp(s, len, -1, &ts, &why) || ts.special || ts.has_offset)
        return false;
    *has_time = ts.has_time;
    return true;
}
