/*
 * bench_threads.h: a timed run of client threads (shared by the programs
 * under bench/). Each thread warms up, waits at its gate's `ready`, runs
 * its timed part and waits at `done`; the clock runs from the moment every
 * thread is ready to the moment every thread is done, so connecting and
 * warming up are never timed. With BENCH_WINDOW_HOOK set in the
 * environment, that command runs with the argument "start" once every
 * thread is ready and with "end" once every thread is done, each while the
 * threads wait (their sessions still open), outside the clock: run.sh's
 * SERVER_VIEW uses it to read the servers' CPU inside the timed window.
 */
#ifndef BENCH_THREADS_H
#define BENCH_THREADS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_clock.h"

/* Each point is a pair of barriers: the threads arrive at the first and
 * leave at the second; between the two the main thread reads the clock and
 * runs the window hook. */
typedef struct bench_gate {
    pthread_barrier_t ready, go, done, leave;
} bench_gate;

/* What one thread gets: the program's shared state, its gate, its number;
 * it sets ok when all its operations succeeded. */
typedef struct bench_thread {
    void *shared;
    bench_gate *gate;
    int index;
    bool ok;
} bench_thread;

/* A thread's start of its timed part: returns when every thread is ready
 * and the clock runs. */
static inline void bench_thread_ready(bench_thread *w)
{
    pthread_barrier_wait(&w->gate->ready);
    pthread_barrier_wait(&w->gate->go);
}

/* A thread's end of its timed part: returns once the clock has stopped
 * (its session may then close). */
static inline void bench_thread_done(bench_thread *w)
{
    pthread_barrier_wait(&w->gate->done);
    pthread_barrier_wait(&w->gate->leave);
}

/* Runs BENCH_WINDOW_HOOK, if set, with point ("start" or "end"). */
static inline void bench_window_hook(const char *program, const char *point)
{
    const char *hook = getenv("BENCH_WINDOW_HOOK");
    char command[4096];

    if (!hook || !*hook)
        return;
    snprintf(command, sizeof command, "%s %s", hook, point);
    if (system(command) != 0)
        fprintf(stderr, "%s: BENCH_WINDOW_HOOK failed at %s\n", program, point);
}

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
    pthread_barrier_init(&gate.go, NULL, (unsigned)n + 1);
    pthread_barrier_init(&gate.done, NULL, (unsigned)n + 1);
    pthread_barrier_init(&gate.leave, NULL, (unsigned)n + 1);
    for (int t = 0; t < n; t++) {
        threads[t] = (bench_thread){ .shared = shared, .gate = &gate, .index = t };
        if (pthread_create(&tids[t], NULL, fn, &threads[t]) != 0) {
            fprintf(stderr, "%s: cannot start a thread\n", program);
            exit(1);   /* the threads started wait at the gate for ever */
        }
    }
    pthread_barrier_wait(&gate.ready);
    bench_window_hook(program, "start");
    double start = bench_now_seconds(), cpu_start = bench_cpu_seconds();
    pthread_barrier_wait(&gate.go);
    pthread_barrier_wait(&gate.done);
    double elapsed = bench_now_seconds() - start, cpu = bench_cpu_seconds() - cpu_start;
    bench_window_hook(program, "end");
    pthread_barrier_wait(&gate.leave);
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
    pthread_barrier_destroy(&gate.go);
    pthread_barrier_destroy(&gate.done);
    pthread_barrier_destroy(&gate.leave);
    free(threads);
    free(tids);
    return ok;
}

#endif
