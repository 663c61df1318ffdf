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
#include "util/gc_error.h"

typedef struct gc_exec_timer {
    gc_stmt *stmt;
    long long ms;
    bool running;
    bool stop;
    pthread_t thread;
    pthread_mutex_t mutex;
    pthread_cond_t cond;
} gc_exec_timer;

/* Starts the timer when s has a query timeout (or time left of a text's,
 * query_timeout_left_ms); otherwise does nothing. */
void gc_exec_timer_start(gc_exec_timer *t, gc_stmt *s);
/* Stops and joins the timer (safe when it never started). */
void gc_exec_timer_stop(gc_exec_timer *t);

/* s's query timeout (SQL_ATTR_QUERY_TIMEOUT) in milliseconds, 0: none. */
long long gc_exec_timeout_ms(const gc_stmt *s);
/* Whether s's call failed with sqlstate (may be NULL) because its query
 * timeout passed: the timer's cancel gave 57014. */
bool gc_exec_timer_fired(gc_stmt *s, const char *sqlstate);
/* *err becomes HYT00, "timeout expired (SQL_ATTR_QUERY_TIMEOUT)", followed
 * by ": " and detail (what the timeout ended) when detail is not NULL. */
void gc_exec_timeout_error(gc_error *err, const char *detail);

#endif
