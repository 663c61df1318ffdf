/*
 * bench_threads.h: a timed run of client threads (shared by the programs
 * under bench/). Each thread warms up, waits at its gate's `ready`, runs
 * its timed part and waits at `done`; the clock runs from the moment every
 * thread is ready to the moment every thread is done, so connecting and
 * warming up are never timed.
 */
#ifndef BENCH_THREADS_H
#define BENCH_THREADS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_clock.h"

typedef struct bench_gate {
    pthread_barrier_t ready, done;
} bench_gate;

/* What one thread gets: the program's shared state, its gate, its number;
 * it sets ok when all its operations succeeded. */
typedef struct bench_thread {
    void *shared;
    bench_gate *gate;
    int index;
    bool ok;
} bench_thread;

/* Runs n threads of fn (each given its bench_thread) doing ops_per_thread
 * timed operations each and, when every one said ok, prints one line:
 * operations per second, operations, seconds, client CPU microseconds per
 * operation. False when a thread failed or could not start. */
static inline bool bench_threads_run(const char *program, int n, void *(*fn)(void *),
                                     void *shared, long ops_per_thread)
{
    bench_thread *threads = calloc((size_t)n, sizeof *threads);
    pthread_t *tids = calloc((size_t)n, sizeof *tids);
    bench_gate gate;
    if (!threads || !tids) {
        free(threads);
        free(tids);
        return false;
    }
    pthread_barrier_init(&gate.ready, NULL, (unsigned)n + 1);
    pthread_barrier_init(&gate.done, NULL, (unsigned)n + 1);
    for (int t = 0; t < n; t++) {
        threads[t] = (bench_thread){ .shared = shared, .gate = &gate, .index = t };
        if (pthread_create(&tids[t], NULL, fn, &threads[t]) != 0) {
            fprintf(stderr, "%s: cannot start a thread\n", program);
            exit(1);   /* the threads started wait at the gate for ever */
        }
    }
    pthread_barrier_wait(&gate.ready);
    double start = bench_now_seconds(), cpu_start = bench_cpu_seconds();
    pthread_barrier_wait(&gate.done);
    double elapsed = bench_now_seconds() - start, cpu = bench_cpu_seconds() - cpu_start;
    bool ok = true;
    for (int t = 0; t < n; t++) {
        pthread_join(tids[t], NULL);
        ok = ok && threads[t].ok;
    }
    long total = ops_per_thread * n;
    if (ok)
        printf("%.0f %ld %.3f %.2f\n", (double)total / elapsed, total, elapsed,
               cpu * 1e6 / (double)total);
    pthread_barrier_destroy(&gate.ready);
    pthread_barrier_destroy(&gate.done);
    free(threads);
    free(tids);
    return ok;
}

#endif
