/*
 * gc_datetime: dates, times, timestamps and GUIDs as text, for the
 * conversions (gc_convert*.c): PostgreSQL's ISO output and ODBC literals in,
 * PostgreSQL input text out. Nothing here allocates.
 */
#ifndef GC_DATETIME_H
#define GC_DATETIME_H

#include <sql.h>
#include <sqlext.h>
#include <stdbool.h>
#include <stddef.h>

/* A date, time or timestamp read from text. */
typedef struct gc_datetime {
    bool has_date, has_time;
    int infinite;            /* +1 'infinity', -1 '-infinity', else 0 */
    bool bc;                 /* ' BC' suffix */
    long year;
    int month, day, hour, minute, second;
    unsigned long fraction;  /* nanoseconds */
    bool fraction_cut;       /* nonzero digits past nanoseconds were dropped */
} gc_datetime;

/* Parses 'YYYY-MM-DD', 'HH:MM[:SS[.f]]', or both separated by ' ' or 'T',
 * with an optional UTC offset ('+02', '-03:30', 'Z') that is dropped, an
 * optional ' BC'/' AD', or '[-+]infinity'. Checks the shape, not the ranges. */
bool gc_datetime_parse(const char *s, size_t len, gc_datetime *out);

/* True when the fields present are a real calendar date / clock time
 * (year >= 1, month 1-12, day within month, 00:00:00-23:59:59). */
bool gc_datetime_valid(const gc_datetime *dt);

/* Strips an ODBC escape around a literal: {d '...'}, {t '...'}, {ts '...'}.
 * Returns the inner text through s and len; unchanged when there is none. */
void gc_datetime_strip_escape(const char **s, size_t *len);

/* Longest text gc_datetime_format writes, NUL included. */
#define GC_DATETIME_TEXT_MAX 48

/* Writes the parts of dt that are present in PostgreSQL input syntax:
 * 'YYYY-MM-DD', 'HH:MM:SS[.fffffffff]' (trailing zeros trimmed) or both. */
void gc_datetime_format(const gc_datetime *dt, char buf[GC_DATETIME_TEXT_MAX]);

/* Today's date in the local time zone (ODBC: a time converted to a timestamp
 * takes the current date). */
void gc_datetime_today(long *year, int *month, int *day);

/* Parses 8-4-4-4-12 hex (optionally in braces) into a SQLGUID. */
bool gc_guid_parse(const char *s, size_t len, SQLGUID *out);

/* Writes the 36-character lowercase text of a SQLGUID and a NUL. */
void gc_guid_format(const SQLGUID *g, char buf[37]);

#endif
