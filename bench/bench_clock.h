/*
 * bench_clock.h: the clocks the benchmarks read (shared by the programs
 * under bench/): wall time for throughput, and this process's CPU time, the
 * client library's own cost, which varies less than wall time when other
 * work shares the machine.
 */
#ifndef BENCH_CLOCK_H
#define BENCH_CLOCK_H

#include <sys/resource.h>
#include <time.h>

/* Monotonic wall time in seconds. */
static inline double bench_now_seconds(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* User plus system CPU time this process has used (all threads), in seconds. */
static inline double bench_cpu_seconds(void)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

#endif
