/*
 * gc_keyval_datetime: date, timestamp and timestamptz text to the server's
 * internal numbers (days / microseconds since 2000-01-01). Private to
 * gc_keyval. Accepts the ISO forms (what applications send and what the
 * server prints with DateStyle ISO): 'YYYY-MM-DD', 'YYYY-MM-DD HH:MM[:SS[.f]]'
 * (or 'T' between), an offset 'Z', 'UTC', '+HH', '+HH:MM', '+HHMM',
 * '+HH:MM:SS'; 'infinity', '-infinity', 'epoch'. Everything else (month
 * names, DateStyle-dependent orders, BC, time zone names) is refused.
 */
#ifndef GC_KEYVAL_DATETIME_H
#define GC_KEYVAL_DATETIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

bool gc_keyval_parse_date(const char *s, size_t len, int32_t *days, const char **why);
/* with_tz: timestamptz (an explicit offset is required and applied);
 * otherwise an offset is accepted and ignored, as the server does.
 * typmod: fractional-second precision 0..6, or -1. */
bool gc_keyval_parse_timestamp(const char *s, size_t len, bool with_tz, int32_t typmod,
                               int64_t *usecs, const char **why);

#endif
