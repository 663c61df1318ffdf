/*
 * gc_time_zone: the UTC offset of a PostgreSQL TimeZone setting that has
 * one offset for all time, read from the setting's name alone: the UTC
 * names (UTC, GMT, Zulu, ... with or without "Etc/"), Etc/GMT+N and
 * Etc/GMT-N, and the POSIX form without daylight-saving rules that the
 * server reports for a numeric setting (SET TIME ZONE 9 reads back
 * "<+09>-09"). Any other name (Asia/Seoul, Europe/Paris, CET, EST5EDT) may
 * have changed its offset over the years: the caller asks the server.
 * No global state; safe from any thread.
 */
#ifndef GC_TIME_ZONE_H
#define GC_TIME_ZONE_H

#include <stdbool.h>
#include <stdint.h>

/* True with *east_seconds (seconds east of UTC) when zone has one offset. */
bool gc_time_zone_fixed_offset(const char *zone, int32_t *east_seconds);

#endif
