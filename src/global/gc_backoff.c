/*
 * gc_backoff: exponential reconnect backoff with jitter, one attempt in
 * flight at most. See gc_backoff.h.
 */
#include "global/gc_backoff.h"

#include <assert.h>
#include <stddef.h>

void gc_backoff_init(gc_backoff *b, long long initial_ms, long long max_ms, uint64_t seed)
{
    assert(b != NULL && initial_ms >= 1 && max_ms >= initial_ms);
    b->initial_ms = initial_ms;
    b->max_ms = max_ms;
    b->due_ms = 0;
    b->last_delay_ms = 0;
    b->failures = 0;
    b->in_flight = false;
    b->early_in_flight = false;
    b->early_used = false;
    /* xorshift must never hold 0; mix the seed so nearby seeds differ. */
    b->rng = (seed ^ 0x9E3779B97F4A7C15ULL) != 0 ? (seed ^ 0x9E3779B97F4A7C15ULL) : 1;
}

/* xorshift64*: small, fast, and good enough to spread reconnects. */
static uint64_t next_random(gc_backoff *b)
{
    uint64_t x = b->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    b->rng = x;
    return x * 0x2545F4914F6CDD1DULL;
}

bool gc_backoff_due(const gc_backoff *b, long long now_ms)
{
    return !b->in_flight && now_ms >= b->due_ms;
}

bool gc_backoff_begin_attempt(gc_backoff *b, long long now_ms)
{
    if (!gc_backoff_due(b, now_ms))
        return false;
    b->in_flight = true;
    return true;
}

bool gc_backoff_begin_early(gc_backoff *b)
{
    if (b->failures == 0 || b->in_flight || b->early_used)
        return false;
    b->in_flight = true;
    b->early_in_flight = true;
    b->early_used = true;
    return true;
}

bool gc_backoff_in_flight(const gc_backoff *b)
{
    return b->in_flight;
}

/* The base delay after `failures` failures: initial * 2^(failures-1),
 * capped, computed without overflow. */
static long long base_delay(const gc_backoff *b)
{
    long long d = b->initial_ms;
    for (int i = 1; i < b->failures && d < b->max_ms; i++)
        d = d > b->max_ms / 2 ? b->max_ms : d * 2;
    return d < b->max_ms ? d : b->max_ms;
}

void gc_backoff_failed(gc_backoff *b, long long now_ms)
{
    bool early = b->early_in_flight;
    b->in_flight = false;
    b->early_in_flight = false;
    if (early)
        return;    /* the schedule stays as it was */
    if (b->failures < 1000)     /* far past the cap; keeps the loop short */
        b->failures++;
    long long d = base_delay(b);
    /* Jitter in [3/4 d, d]: never later than the schedule promises, and
     * never sooner than 3/4 of it. */
    long long spread = d / 4;
    long long jitter = spread > 0 ? (long long)(next_random(b) % (uint64_t)(spread + 1)) : 0;
    b->last_delay_ms = d - jitter;
    b->due_ms = now_ms + b->last_delay_ms;
}

void gc_backoff_succeeded(gc_backoff *b)
{
    b->in_flight = false;
    b->early_in_flight = false;
    b->early_used = false;
    b->failures = 0;
    b->last_delay_ms = 0;
    b->due_ms = 0;
}

long long gc_backoff_due_at(const gc_backoff *b)
{
    return b->due_ms;
}
