/*
 * gc_exec_timer: the query timeout thread.
 */
#include "core/gc_exec_timer.h"

#include "core/gc_conn_kind.h"
#include "util/gc_clock.h"

#include <errno.h>
#include <string.h>

static void *timer_main(void *arg)
{
    gc_exec_timer *t = arg;
    struct timespec deadline = gc_clock_deadline_in(t->ms);
    pthread_mutex_lock(&t->mutex);
    int rc = 0;
    while (!t->stop && rc != ETIMEDOUT)
        rc = pthread_cond_timedwait(&t->cond, &t->mutex, &deadline);
    bool fire = !t->stop;
    pthread_mutex_unlock(&t->mutex);
    if (fire) {
        gc_error err;
        gc_error_clear(&err);
        atomic_store(&t->stmt->timed_out, true);
        t->stmt->conn->kind->cancel_wait(t->stmt->conn, &err);
    }
    return NULL;
}

void gc_exec_timer_start(gc_exec_timer *t, gc_stmt *s)
{
    t->stmt = s;
    t->running = false;
    t->stop = false;
    atomic_store(&s->timed_out, false);
    s->conn->kind->wait_begins(s->conn);
    t->ms = s->query_timeout_left_ms > 0 ? s->query_timeout_left_ms : gc_exec_timeout_ms(s);
    if (t->ms == 0)
        return;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&t->cond, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&t->mutex, NULL);
    if (pthread_create(&t->thread, NULL, timer_main, t) == 0) {
        t->running = true;
    } else {
        pthread_cond_destroy(&t->cond);
        pthread_mutex_destroy(&t->mutex);
    }
}

void gc_exec_timer_stop(gc_exec_timer *t)
{
    t->stmt->conn->kind->wait_ends(t->stmt->conn);
    if (!t->running)
        return;
    pthread_mutex_lock(&t->mutex);
    t->stop = true;
    pthread_cond_signal(&t->cond);
    pthread_mutex_unlock(&t->mutex);
    pthread_join(t->thread, NULL);
    pthread_cond_destroy(&t->cond);
    pthread_mutex_destroy(&t->mutex);
    t->running = false;
}

long long gc_exec_timeout_ms(const gc_stmt *s)
{
    /* Past any timeout a program means (three years): the deadline cannot
     * overflow. */
    const SQLULEN longest = 100000000;
    return 1000LL * (long long)(s->query_timeout < longest ? s->query_timeout : longest);
}

bool gc_exec_timer_fired(gc_stmt *s, const char *sqlstate)
{
    return atomic_load(&s->timed_out) && sqlstate != NULL && strcmp(sqlstate, "57014") == 0;
}

void gc_exec_timeout_error(gc_error *err, const char *detail)
{
    if (detail != NULL)
        gc_error_set(err, "HYT00", 0, "timeout expired (SQL_ATTR_QUERY_TIMEOUT): %s", detail);
    else
        gc_error_set(err, "HYT00", 0, "timeout expired (SQL_ATTR_QUERY_TIMEOUT)");
}
