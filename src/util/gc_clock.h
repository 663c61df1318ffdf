/*
 * gc_clock: the monotonic clock, the one every timeout and interval of
 * the driver is measured on (wall-clock steps must not shorten or stretch
 * them).
 */
#ifndef GC_CLOCK_H
#define GC_CLOCK_H

#include <time.h>

/* Milliseconds on the monotonic clock (from an arbitrary start). */
long long gc_clock_ms(void);

/* The monotonic time ms milliseconds from now, for a
 * pthread_cond_timedwait whose condition uses CLOCK_MONOTONIC. */
struct timespec gc_clock_deadline_in(long long ms);

#endif
