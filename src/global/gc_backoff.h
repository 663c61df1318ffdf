/*
 * gc_backoff: when to try reconnecting a member that is down. A pure
 * scheduler (no clock, no I/O): the caller passes the time in milliseconds
 * from any monotonic clock, so tests drive it with a fake one.
 *
 * Delays grow exponentially from the initial delay (ReconnectInterval) up to
 * the cap (60 s), each drawn with jitter in [3/4 d, d] so many drivers that
 * lost the same server do not all come back at the same instant; at most one
 * attempt is in flight at a time; a success resets the schedule. Once per
 * failure, when nothing else can serve, one attempt may go ahead of the
 * schedule (gc_backoff_begin_early) without moving it.
 *
 * Not thread-safe by itself: the owner (the global connection, under its
 * lock) serializes calls.
 */
#ifndef GC_BACKOFF_H
#define GC_BACKOFF_H

#include <stdbool.h>
#include <stdint.h>

typedef struct gc_backoff {
    long long initial_ms;    /* first delay (ReconnectInterval) */
    long long max_ms;        /* cap of every delay (60 s) */
    long long due_ms;        /* the next attempt may start at this time */
    long long last_delay_ms; /* the delay drawn by the last failure; 0 none */
    int failures;            /* failures since the last success */
    bool in_flight;          /* an attempt has begun and not ended */
    bool early_in_flight;    /* ...and it is the early one */
    bool early_used;         /* the early attempt of this failure was made */
    uint64_t rng;            /* xorshift state for the jitter; never 0 */
} gc_backoff;

/* A member with no failure yet: an attempt is due at once. initial_ms >= 1,
 * max_ms >= initial_ms; seed picks the jitter sequence (any value). */
void gc_backoff_init(gc_backoff *b, long long initial_ms, long long max_ms, uint64_t seed);

/* True when an attempt may start now: none in flight and now_ms >= due. */
bool gc_backoff_due(const gc_backoff *b, long long now_ms);

/* Claims the single attempt slot: true (and in flight) when due, false
 * otherwise. The caller must end the attempt with _failed or _succeeded. */
bool gc_backoff_begin_attempt(gc_backoff *b, long long now_ms);

/* Claims the attempt slot ahead of the schedule: true (and in flight) when
 * the member has failed, none is in flight, and no early attempt was made
 * since the last success. Its failure leaves the schedule as it was (the
 * next attempt is still due when it was). For the moment nothing else can
 * serve: a server that only closed the session (pg_terminate_backend, a
 * restart already over) is back at once, and a dead one costs one extra
 * attempt per failure, not one per statement. */
bool gc_backoff_begin_early(gc_backoff *b);

bool gc_backoff_in_flight(const gc_backoff *b);

/* An attempt failed, or the member was found down: ends any attempt in
 * flight and schedules the next one after the next jittered delay (an
 * early attempt's failure only ends it). */
void gc_backoff_failed(gc_backoff *b, long long now_ms);

/* An attempt succeeded: ends it and resets the schedule (next failure waits
 * the initial delay again). */
void gc_backoff_succeeded(gc_backoff *b);

/* When the next attempt is due (monotonic ms, as passed in). */
long long gc_backoff_due_at(const gc_backoff *b);

#endif
