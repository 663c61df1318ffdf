/*
 * gc_member_wait: finding out that a member is dead, without mistaking a
 * slow statement for a dead server.
 *
 * The rule (docs/failover.md): a member is down when its connection breaks
 * (reset, closed, kernel keepalive or tcp_user_timeout expiry) or when the
 * server process stops answering at all. Waiting for a result, silence alone
 * proves nothing (a statement may legitimately run for hours), so after half
 * of MemberTimeout of silence the member layer opens a second, short-lived
 * connection to the same server (a liveness probe): if the server answers it
 * the statement is merely slow and the silence clock starts over; if neither
 * the session nor the probe has answered when MemberTimeout has passed, the
 * member is down (08S01 "member G1N1 did not answer within 5 s").
 */
#include "member/gc_member.h"
#include "member/gc_member_internal.h"
#include "util/gc_clock.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

void gc_member_went_down(gc_member *m, const gc_error *err)
{
    if (m->state != GC_MEMBER_DOWN || !gc_error_is_set(&m->down_error))
        gc_error_set(&m->down_error, err->sqlstate, err->native, "%s", err->message);
    m->state = GC_MEMBER_DOWN;
    gc_trace_write(m->trace, GC_TRACE_ERROR, "member %s down (generation %lu): %s",
                   m->name ? m->name : "-", m->generation, err->message);
    gc_member_close(m);
}

void gc_member_note_connection_health(gc_member *m)
{
    if (m->conn == NULL || PQstatus(m->conn) != CONNECTION_BAD)
        return;
    gc_error why;
    /* libpq's first line says what happened; the rest is advice. */
    const char *msg = PQerrorMessage(m->conn);
    gc_error_set(&why, "08S01", 0, "%.*s", (int)strcspn(msg, "\n"), msg);
    if (why.message[0] == '\0')
        gc_error_set(&why, "08S01", 0, "member %s lost its connection",
                     m->name ? m->name : "-");
    /* The session is kept (closed later by connect or close) so that libpq's
     * own error result of the statement in flight can still be collected. */
    if (m->state != GC_MEMBER_DOWN) {
        gc_error_set(&m->down_error, why.sqlstate, 0, "%s", why.message);
        m->state = GC_MEMBER_DOWN;
        gc_trace_write(m->trace, GC_TRACE_ERROR, "member %s lost its connection: %s",
                       m->name ? m->name : "-", why.message);
    }
}

bool gc_member_found_broken(gc_member *m)
{
    if (m->state == GC_MEMBER_DOWN)
        return false;
    gc_member_note_connection_health(m);
    return m->state == GC_MEMBER_DOWN;
}

/* Ends the wait: the server stayed silent for limit_ms. */
static bool not_answering(gc_member *m, long long limit_ms)
{
    gc_error why;
    if (limit_ms % 1000 == 0)
        gc_error_set(&why, "08S01", 0, "member %s did not answer within %lld s",
                     m->name ? m->name : "-", limit_ms / 1000);
    else
        gc_error_set(&why, "08S01", 0, "member %s did not answer within %lld ms",
                     m->name ? m->name : "-", limit_ms);
    gc_member_went_down(m, &why);
    return false;
}

/* Ends the wait: the probe's connection was refused or reset. */
static bool probe_refused(gc_member *m)
{
    gc_error why;
    gc_error_set(&why, "08S01", 0, "member %s stopped answering and refuses new connections",
                 m->name ? m->name : "-");
    gc_member_went_down(m, &why);
    return false;
}

/* See gc_member_internal.h. One poll() over the session's socket and, while
 * one runs, the probe's; the probe is finished whatever happens. */
bool gc_member_wait_readable(gc_member *m, long long silence_limit_ms, bool probe)
{
    gc_member_probe *pr = NULL;
    bool ok = true;
    while (m->conn != NULL && PQisBusy(m->conn)) {
        int fd = PQsocket(m->conn);
        if (fd < 0)
            break;    /* PQgetResult reports the broken connection */
        long long now = gc_clock_ms();
        long long silent = now - m->last_io_ms;
        if (silence_limit_ms > 0 && silent >= silence_limit_ms) {
            ok = not_answering(m, silence_limit_ms);
            break;
        }
        if (probe && pr == NULL && silence_limit_ms > 0 && silent >= silence_limit_ms / 2)
            pr = gc_member_probe_start(m);

        struct pollfd fds[2] = { { .fd = fd, .events = POLLIN } };
        nfds_t nfds = 1;
        if (pr != NULL) {
            short ev = 0;
            int pfd = gc_member_probe_socket(pr, &ev);
            if (pfd < 0) {
                gc_probe_state st = gc_member_probe_advance(pr);
                if (st == GC_PROBE_DEAD) {
                    ok = probe_refused(m);
                    break;
                }
                continue;
            }
            fds[1].fd = pfd;
            fds[1].events = ev;
            nfds = 2;
        }
        int wait_ms = -1;
        if (silence_limit_ms > 0) {
            long long next = (probe && pr == NULL) ? silence_limit_ms / 2 : silence_limit_ms;
            long long left = next - silent;
            wait_ms = left < 1 ? 1 : (int)left;
        }
        int ready = poll(fds, nfds, wait_ms);
        if (ready < 0) {
            if (errno == EINTR)
                continue;
            break;    /* poll failed: let PQgetResult block as libpq would */
        }
        if (fds[0].revents != 0) {
            m->last_io_ms = gc_clock_ms();
            if (!PQconsumeInput(m->conn))
                break;    /* broken: PQgetResult returns libpq's error */
            gc_member_probe_free(pr);    /* the session answered itself */
            pr = NULL;
        } else if (pr != NULL && fds[1].revents != 0) {
            gc_probe_state st = gc_member_probe_advance(pr);
            if (st == GC_PROBE_DEAD) {
                ok = probe_refused(m);
                break;
            }
            if (st == GC_PROBE_ALIVE) {
                /* Alive and busy: the statement is slow, not the server dead. */
                m->probes_answered++;
                m->last_io_ms = gc_clock_ms();
                gc_trace_write(m->trace, GC_TRACE_DEBUG,
                               "member %s busy but alive (probe answered)",
                               m->name ? m->name : "-");
                gc_member_probe_free(pr);
                pr = NULL;
            }
        }
    }
    gc_member_probe_free(pr);
    return ok;
}

/* Non-blocking: reads whatever the server sent on an idle session (a
 * FATAL before the server closed it, a parameter change, an EOF) and reports
 * whether the session is still usable. No round trip. */
bool gc_member_check_alive(gc_member *m, gc_error *err)
{
    if (m->conn == NULL || m->state == GC_MEMBER_DOWN) {
        if (gc_error_is_set(&m->down_error))
            *err = m->down_error;
        else
            gc_error_set(err, "08003", 0, "connection not open");
        return false;
    }
    /* A few reads at most: a dying server sends its message, then EOF. */
    for (int i = 0; i < 4 && m->conn != NULL; i++) {
        struct pollfd pfd = { .fd = PQsocket(m->conn), .events = POLLIN };
        if (pfd.fd < 0 || poll(&pfd, 1, 0) <= 0 || pfd.revents == 0)
            break;
        m->last_io_ms = gc_clock_ms();
        if (!PQconsumeInput(m->conn))
            break;
    }
    gc_member_note_connection_health(m);
    if (m->state == GC_MEMBER_DOWN) {
        *err = m->down_error;
        return false;
    }
    return true;
}

/* A bounded round trip: an empty query (accepted even inside a failed
 * transaction, and changes nothing) must be answered within timeout_ms, or
 * the member is marked down. */
bool gc_member_ping(gc_member *m, int timeout_ms, gc_error *err)
{
    if (!gc_member_check_alive(m, err))
        return false;
    if (m->in_flight) {
        gc_error_set(err, "HY010", 0, "member %s has a statement in flight",
                     m->name ? m->name : "-");
        return false;
    }
    if (!gc_member_send_query(m, "", err))
        return false;
    bool answered = gc_member_wait_readable(m, timeout_ms > 0 ? timeout_ms : 1, false);
    if (answered)
        gc_member_drain(m);
    gc_member_note_connection_health(m);
    if (m->state == GC_MEMBER_DOWN) {
        *err = m->down_error;
        return false;
    }
    return true;
}

long long gc_member_idle_ms(const gc_member *m)
{
    if (m->conn == NULL)
        return 0;
    return gc_clock_ms() - m->last_io_ms;
}

bool gc_member_mark_down(gc_member *m, unsigned long generation, const gc_error *why)
{
    if (generation != m->generation || m->state == GC_MEMBER_DOWN) {
        gc_trace_write(m->trace, GC_TRACE_DEBUG,
                       "member %s: ignored a failure of generation %lu (now %lu, %s)",
                       m->name ? m->name : "-", generation, m->generation,
                       m->state == GC_MEMBER_DOWN ? "down" : "up");
        return false;
    }
    gc_error fallback;
    if (why == NULL || !gc_error_is_set(why)) {
        gc_error_set(&fallback, "08S01", 0, "member %s marked down",
                     m->name ? m->name : "-");
        why = &fallback;
    }
    gc_member_went_down(m, why);
    return true;
}

const gc_error *gc_member_down_error(const gc_member *m)
{
    return gc_error_is_set(&m->down_error) ? &m->down_error : NULL;
}

unsigned long gc_member_probes_answered(const gc_member *m)
{
    return m->probes_answered;
}

void gc_member_result_error(const gc_member *m, const PGresult *res, gc_error *err)
{
    if (PQresultErrorField(res, PG_DIAG_SQLSTATE) == NULL && gc_error_is_set(&m->down_error)) {
        *err = m->down_error;
        return;
    }
    gc_member_error_from_result(res, err);
}

unsigned long gc_member_sent_generation(const gc_member *m)
{
    return m->sent_generation;
}
