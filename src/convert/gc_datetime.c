/*
 * Dates, times, timestamps and GUIDs as text for gc_convert: PostgreSQL's ISO
 * output (DateStyle=ISO) and ODBC literals in, PostgreSQL input text out.
 */
#include "convert/gc_datetime.h"
#include "util/gc_hex.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

typedef struct cursor {
    const char *s;
    size_t len;
    size_t i;
} cursor;

static bool at_digit(const cursor *c)
{
    return c->i < c->len && c->s[c->i] >= '0' && c->s[c->i] <= '9';
}

/* Reads between min_n and max_n digits into *out. */
static bool read_digits(cursor *c, int min_n, int max_n, long *out)
{
    long v = 0;
    int n = 0;
    while (n < max_n && at_digit(c)) {
        v = v * 10 + (c->s[c->i] - '0');
        c->i++;
        n++;
    }
    *out = v;
    return n >= min_n;
}

static bool accept(cursor *c, char ch)
{
    if (c->i < c->len && c->s[c->i] == ch) {
        c->i++;
        return true;
    }
    return false;
}

/* HH:MM[:SS[.fraction]] */
static bool parse_time(cursor *c, gc_datetime *dt)
{
    long h, m, sec = 0;
    if (!read_digits(c, 1, 2, &h) || !accept(c, ':') || !read_digits(c, 2, 2, &m))
        return false;
    if (accept(c, ':')) {
        if (!read_digits(c, 2, 2, &sec))
            return false;
        if (accept(c, '.')) {
            unsigned long frac = 0;
            int n = 0;
            if (!at_digit(c))
                return false;
            while (at_digit(c)) {
                int digit = c->s[c->i] - '0';
                if (n < 9) {
                    frac = frac * 10 + (unsigned long)digit;
                    n++;
                } else if (digit != 0) {
                    dt->fraction_cut = true;
                }
                c->i++;
            }
            for (; n < 9; n++)
                frac *= 10;
            dt->fraction = frac;
        }
    }
    dt->has_time = true;
    dt->hour = (int)h;
    dt->minute = (int)m;
    dt->second = (int)sec;
    return true;
}

/* A UTC offset after a time: Z, +HH, +HH:MM, +HH:MM:SS, +HHMM. Dropped: the
 * server already shows the value in the session time zone. */
static bool skip_offset(cursor *c)
{
    long part;
    if (accept(c, 'Z') || accept(c, 'z'))
        return true;
    if (!(accept(c, '+') || accept(c, '-')))
        return true;   /* no offset */
    if (!read_digits(c, 1, 4, &part))
        return false;
    for (int k = 0; k < 2 && accept(c, ':'); k++) {
        if (!read_digits(c, 2, 2, &part))
            return false;
    }
    return true;
}

/* Parses the forms listed in the header; ranges are checked elsewhere. */
bool gc_datetime_parse(const char *s, size_t len, gc_datetime *dt)
{
    memset(dt, 0, sizeof *dt);
    while (len > 0 && s[len - 1] == ' ')
        len--;
    while (len > 0 && *s == ' ') {
        s++;
        len--;
    }
    if (len == 8 && strncasecmp(s, "infinity", 8) == 0) {
        dt->infinite = 1;
        return true;
    }
    if (len == 9 && (s[0] == '-' || s[0] == '+') && strncasecmp(s + 1, "infinity", 8) == 0) {
        dt->infinite = s[0] == '-' ? -1 : 1;
        return true;
    }

    cursor c = { s, len, 0 };
    size_t lead = 0;
    while (lead < len && s[lead] >= '0' && s[lead] <= '9')
        lead++;
    if (lead < len && s[lead] == '-') {
        long y, mo, d;
        if (!read_digits(&c, 1, 7, &y) || !accept(&c, '-') || !read_digits(&c, 1, 2, &mo) ||
            !accept(&c, '-') || !read_digits(&c, 1, 2, &d))
            return false;
        dt->has_date = true;
        dt->year = y;
        dt->month = (int)mo;
        dt->day = (int)d;
        if ((accept(&c, ' ') || accept(&c, 'T')) && at_digit(&c)) {
            if (!parse_time(&c, dt) || !skip_offset(&c))
                return false;
        }
    } else if (!parse_time(&c, dt) || !skip_offset(&c)) {
        return false;
    }
    if (c.len - c.i == 3 && c.s[c.i] == ' ') {
        if (strncasecmp(c.s + c.i + 1, "BC", 2) == 0)
            dt->bc = true;
        else if (strncasecmp(c.s + c.i + 1, "AD", 2) != 0)
            return false;
        c.i += 3;
    }
    return c.i == c.len;
}

static bool is_leap(long y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Checks the calendar and clock ranges of the fields present. */
bool gc_datetime_valid(const gc_datetime *dt)
{
    static const int days_in_month[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    if (dt->infinite != 0)
        return false;
    if (dt->has_date) {
        if (dt->year < 1 || dt->month < 1 || dt->month > 12 || dt->day < 1)
            return false;
        int dim = days_in_month[dt->month - 1] + (dt->month == 2 && is_leap(dt->year));
        if (dt->day > dim)
            return false;
    }
    if (dt->has_time) {
        if (dt->hour < 0 || dt->hour > 23 || dt->minute < 0 || dt->minute > 59 ||
            dt->second < 0 || dt->second > 59 || dt->fraction > 999999999UL)
            return false;
    }
    return true;
}

/* Strips {d '...'}, {t '...'} or {ts '...'} (any case, spaces allowed). */
void gc_datetime_strip_escape(const char **s, size_t *len)
{
    const char *p = *s;
    size_t n = *len;
    while (n > 0 && p[n - 1] == ' ')
        n--;
    while (n > 0 && *p == ' ') {
        p++;
        n--;
    }
    if (n < 5 || p[0] != '{' || p[n - 1] != '}')
        return;
    size_t i = 1;
    while (i < n && p[i] == ' ')
        i++;
    size_t kw = i;
    while (i < n && (p[i] == 'd' || p[i] == 'D' || p[i] == 't' || p[i] == 'T' ||
                     p[i] == 's' || p[i] == 'S'))
        i++;
    if (i == kw)
        return;
    while (i < n && p[i] == ' ')
        i++;
    size_t end = n - 1;
    while (end > i && p[end - 1] == ' ')
        end--;
    if (i >= end || p[i] != '\'' || p[end - 1] != '\'' || end - i < 2)
        return;
    *s = p + i + 1;
    *len = end - i - 2;
}

/* Writes 'YYYY-MM-DD', 'HH:MM:SS[.f]' or both for the parts present. */
void gc_datetime_format(const gc_datetime *dt, char buf[GC_DATETIME_TEXT_MAX])
{
    size_t n = 0;
    buf[0] = '\0';
    if (dt->has_date)
        n += (size_t)snprintf(buf, GC_DATETIME_TEXT_MAX, "%04ld-%02d-%02d",
                              dt->year, dt->month, dt->day);
    if (dt->has_time) {
        n += (size_t)snprintf(buf + n, GC_DATETIME_TEXT_MAX - n, "%s%02d:%02d:%02d",
                              dt->has_date ? " " : "", dt->hour, dt->minute, dt->second);
        if (dt->fraction != 0) {
            char frac[24];   /* room for any unsigned long */
            snprintf(frac, sizeof frac, "%09lu", dt->fraction);
            int keep = 9;
            while (keep > 1 && frac[keep - 1] == '0')
                keep--;
            n += (size_t)snprintf(buf + n, GC_DATETIME_TEXT_MAX - n, ".%.*s", keep, frac);
        }
    }
    if (dt->has_date && dt->bc)
        snprintf(buf + n, GC_DATETIME_TEXT_MAX - n, " BC");
}

void gc_datetime_today(long *year, int *month, int *day)
{
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    *year = tm.tm_year + 1900L;
    *month = tm.tm_mon + 1;
    *day = tm.tm_mday;
}

/* Parses 8-4-4-4-12 hex digits, optionally inside braces. */
bool gc_guid_parse(const char *s, size_t len, SQLGUID *out)
{
    while (len > 0 && s[len - 1] == ' ')
        len--;
    while (len > 0 && *s == ' ') {
        s++;
        len--;
    }
    if (len == 38 && s[0] == '{' && s[37] == '}') {
        s++;
        len -= 2;
    }
    if (len != 36)
        return false;
    unsigned char bytes[16];
    int nb = 0;
    for (size_t i = 0; i < 36; i++) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (s[i] != '-')
                return false;
            continue;
        }
        int hi = gc_hex_value(s[i]), lo = gc_hex_value(s[i + 1]);
        if (hi < 0 || lo < 0)
            return false;
        bytes[nb++] = (unsigned char)(hi << 4 | lo);
        i++;
    }
    out->Data1 = (unsigned)bytes[0] << 24 | (unsigned)bytes[1] << 16 |
                 (unsigned)bytes[2] << 8 | bytes[3];
    out->Data2 = (unsigned short)(bytes[4] << 8 | bytes[5]);
    out->Data3 = (unsigned short)(bytes[6] << 8 | bytes[7]);
    memcpy(out->Data4, bytes + 8, 8);
    return true;
}

void gc_guid_format(const SQLGUID *g, char buf[37])
{
    snprintf(buf, 37, "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x",
             (unsigned)g->Data1, (unsigned)g->Data2, (unsigned)g->Data3,
             g->Data4[0], g->Data4[1], g->Data4[2], g->Data4[3],
             g->Data4[4], g->Data4[5], g->Data4[6], g->Data4[7]);
}
