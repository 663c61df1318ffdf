/*
 * gc_exec_timer: SQL_ATTR_QUERY_TIMEOUT. While a statement waits for the
 * server, a timer thread cancels it (the connection kind's cancel_wait)
 * when the timeout passes; the cancelled statement's 57014 is then
 * reported as HYT00. On a global connection the same bracket tells the
 * in-doubt watcher and a cancel what the statement waits on
 * (gc_global_wait_begin / _end).
 */
#ifndef GC_EXEC_TIMER_H
#define GC_EXEC_TIMER_H

#include <pthread.h>
#include <stdbool.h>

#include "core/gc_stmt.h"

typedef struct gc_exec_timer {
    gc_stmt *stmt;
    unsigned seconds;
    bool running;
    bool stop;
    pthread_t thread;
    pthread_mutex_t mutex;
    pthread_cond_t cond;
} gc_exec_timer;

/* Starts the timer when s has a query timeout; otherwise does nothing. */
void gc_exec_timer_start(gc_exec_timer *t, gc_stmt *s);
/* Stops and joins the timer (safe when it never started). */
void gc_exec_timer_stop(gc_exec_timer *t);

#endif
