/*
 * gc_member_connect: opening sessions. One member blocking (the general
 * connection), many at once with non-blocking libpq connects driven by
 * poll(), so n members take about as long as the slowest one, or one member
 * advanced step by step by its owner without ever waiting (reconnects of
 * down members, which must not hold up the application's statements).
 */
#include "member/gc_member.h"
#include "member/gc_member_internal.h"
#include "util/gc_clock.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Session generations are unique across every session of the process and
 * always increase, so "prepared on generation g" or "settings replayed on
 * generation g" can never be mistaken for another session's, even when a
 * member object's memory or its index in a topology is reused. */
static atomic_ulong last_generation;

/* Session settings every member gets, so results look the same on all of
 * them and the conversion layer can parse them (ISO dates, hex bytea, floats
 * that round-trip). Sent in the startup packet: no extra round trip. */
static const char member_session_options[] =
    "-c DateStyle=ISO -c extra_float_digits=3 -c bytea_output=hex "
    "-c IntervalStyle=postgres";
/* A global connection's member sessions say so: the cluster refuses
 * their writes through postgres_fdw that no two-phase commit covers
 * (global/gc_remote_write.h). */
static const char global_member_session_options[] =
    "-c DateStyle=ISO -c extra_float_digits=3 -c bytea_output=hex "
    "-c IntervalStyle=postgres -c gcodbc.global_connection=on";

enum { MEMBER_MAX_KEYWORDS = 40 };

typedef struct keyword_list {
    const char *keys[MEMBER_MAX_KEYWORDS + 1];
    const char *values[MEMBER_MAX_KEYWORDS + 1];
    int count;
} keyword_list;

static void keyword_add(keyword_list *kl, const char *key, const char *value)
{
    if (value == NULL || value[0] == '\0' || kl->count >= MEMBER_MAX_KEYWORDS)
        return;
    /* A later value for the same keyword replaces the earlier one. */
    for (int i = 0; i < kl->count; i++) {
        if (strcmp(kl->keys[i], key) == 0) {
            kl->values[i] = value;
            return;
        }
    }
    kl->keys[kl->count] = key;
    kl->values[kl->count] = value;
    kl->count++;
}

/* The server's own SQLSTATE of a refused login, or NULL. libpq does not
 * expose the SQLSTATE of a startup failure, so the best-known server
 * messages are recognized (English unless the server's lc_messages says
 * otherwise). */
static const char *login_refusal_sqlstate(const char *message)
{
    if (strstr(message, "password authentication failed") != NULL)
        return "28P01";
    if (strstr(message, "no password supplied") != NULL ||
        strstr(message, "no pg_hba.conf entry") != NULL ||
        strstr(message, "pg_hba.conf rejects connection") != NULL ||
        strstr(message, "is not permitted to log in") != NULL ||
        (strstr(message, "role \"") != NULL && strstr(message, "does not exist") != NULL))
        return "28000";
    if (strstr(message, "database \"") != NULL && strstr(message, "does not exist") != NULL)
        return "3D000";
    return NULL;
}

/* How libpq words the server's FATAL, and how the driver words it with the
 * server's SQLSTATE. */
#define LIBPQ_FATAL "FATAL:  "
#define REFUSAL_MARK "FATAL "

bool gc_member_login_refused(const gc_error *e)
{
    const char *mark = strstr(e->message, REFUSAL_MARK);
    return mark != NULL && (strncmp(mark + strlen(REFUSAL_MARK), "28", 2) == 0 ||
                            strncmp(mark + strlen(REFUSAL_MARK), "3D000", 5) == 0);
}


/* Fills kl with the member's connection keywords, every keyword as its own
 * array entry (never a concatenated conninfo, so no value can inject another
 * keyword). *extra receives libpq's parse of extra_conninfo, whose strings kl
 * points into: the caller frees it with PQconninfoFree once libpq has copied
 * the arrays. timeout is the caller's buffer for the connect_timeout text. */
/* Text of the keepalive and user-timeout keywords, derived from
 * MemberTimeout (see keepalive_settings). */
typedef struct keepalive_text {
    char idle[16], interval[16], count[16], user_timeout[16];
} keepalive_text;

/* The kernel's part of detection. With MemberTimeout T (seconds): an idle
 * session is probed by TCP keepalives after T s of silence, every ceil(T/3)
 * s, 3 times, so a vanished host is found in about 2T; and data sent but not
 * acknowledged for T s (tcp_user_timeout, PostgreSQL 12+ libpq) breaks the
 * connection. Neither catches a stopped server process (its kernel still
 * acknowledges): that is gc_member_wait.c's job. Without MemberTimeout,
 * libpq's usual keepalives (30 s idle, 10 s, 3 probes) and no user timeout. */
static void keepalive_settings(const gc_member *m, keepalive_text *k)
{
    int t = m->member_timeout_s;
    if (t <= 0) {
        snprintf(k->idle, sizeof k->idle, "30");
        snprintf(k->interval, sizeof k->interval, "10");
        snprintf(k->count, sizeof k->count, "3");
        k->user_timeout[0] = '\0';
        return;
    }
    snprintf(k->idle, sizeof k->idle, "%d", t);
    snprintf(k->interval, sizeof k->interval, "%d", (t + 2) / 3);
    snprintf(k->count, sizeof k->count, "3");
    snprintf(k->user_timeout, sizeof k->user_timeout, "%d", t * 1000);
}

static bool build_keywords(const gc_member *m, keyword_list *kl, char *timeout,
                           size_t timeout_size, keepalive_text *ka,
                           PQconninfoOption **extra, gc_error *err)
{
    kl->count = 0;
    *extra = NULL;
    snprintf(timeout, timeout_size, "%d", m->connect_timeout_s);
    keepalive_settings(m, ka);

    /* extra_conninfo is parsed by libpq into keywords, then merged. */
    if (m->extra_conninfo != NULL && m->extra_conninfo[0] != '\0') {
        char *parse_error = NULL;
        *extra = PQconninfoParse(m->extra_conninfo, &parse_error);
        if (*extra == NULL) {
            gc_error_set(err, "08001", 0, "invalid extra connection options: %s",
                         parse_error ? parse_error : "out of memory");
            PQfreemem(parse_error);
            return false;
        }
    }

    keyword_add(kl, "host", m->host);
    keyword_add(kl, "port", m->port);
    keyword_add(kl, "dbname", m->dbname);
    keyword_add(kl, "user", m->user);
    keyword_add(kl, "password", m->password);
    keyword_add(kl, "sslmode", m->sslmode);
    keyword_add(kl, "sslrootcert", m->sslrootcert);
    keyword_add(kl, "sslcert", m->sslcert);
    keyword_add(kl, "sslkey", m->sslkey);
    keyword_add(kl, "application_name", m->application_name);
    keyword_add(kl, "fallback_application_name", "gcodbc");
    /* libpq ignores connect_timeout in non-blocking connects (the caller
     * enforces it, see connect_all), but keeping it lets libpq report it. */
    if (m->connect_timeout_s > 0)
        keyword_add(kl, "connect_timeout", timeout);
    /* Keepalives find a vanished server on an idle session. */
    keyword_add(kl, "keepalives", "1");
    keyword_add(kl, "keepalives_idle", ka->idle);
    keyword_add(kl, "keepalives_interval", ka->interval);
    keyword_add(kl, "keepalives_count", ka->count);
    keyword_add(kl, "tcp_user_timeout", ka->user_timeout);    /* "" = not set */
    if (*extra != NULL) {
        for (PQconninfoOption *o = *extra; o->keyword != NULL; o++)
            keyword_add(kl, o->keyword, o->val);
    }
    /* Last, so nothing overrides what the driver relies on. */
    keyword_add(kl, "client_encoding", "UTF8");
    keyword_add(kl, "options", m->global_connection ? global_member_session_options
                                                    : member_session_options);
    kl->keys[kl->count] = NULL;
    kl->values[kl->count] = NULL;
    return true;
}

/* Marks the member DOWN after a failed connect attempt and finishes conn
 * (which may be NULL). err must already say why. */
static void connect_failed(gc_member *m, PGconn *conn, const gc_error *err)
{
    /* Said later by the driver, as its own: without libpq's final newline. */
    gc_member_error_from_libpq(&m->down_error, err->sqlstate, err->message);
    m->down_error.native = err->native;
    gc_trace_write(m->trace, GC_TRACE_ERROR, "member %s connect failed: %s",
                   m->name ? m->name : "-", err->message);
    if (conn != NULL)
        PQfinish(conn);
    m->state = GC_MEMBER_DOWN;
}

/* Fills err from a connection libpq reports as failed: 08001 whatever the
 * cause, as psqlODBC answers (pyodbc raises OperationalError), with libpq's
 * message as it is, final newline included; a login the server refused has
 * the server's SQLSTATE after its FATAL ("FATAL 28P01 password
 * authentication failed ..."), so a wrong password still reads differently
 * from a server that does not answer. */
static void error_from_failed_conn(PGconn *conn, gc_error *err)
{
    const char *msg = PQerrorMessage(conn);
    const char *server_state = login_refusal_sqlstate(msg);
    const char *fatal = server_state != NULL ? strstr(msg, LIBPQ_FATAL) : NULL;
    if (fatal == NULL) {
        gc_error_set(err, "08001", GC_NATIVE_CONNECT_FAILED, "%s", msg);
        return;
    }
    gc_error_set(err, "08001", GC_NATIVE_CONNECT_FAILED, "%.*s" REFUSAL_MARK "%s %s",
                 (int)(fatal - msg), msg, server_state, fatal + strlen(LIBPQ_FATAL));
}

/* Takes ownership of conn, which libpq reports as CONNECTION_OK: the member
 * becomes UP with a new generation. False (member DOWN, conn finished) only
 * when memory runs out. */
static bool connect_succeeded(gc_member *m, PGconn *conn, gc_error *err)
{
    PGcancel *cancel = PQgetCancel(conn);
    if (cancel == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory while connecting");
        connect_failed(m, conn, err);
        return false;
    }
    PQsetNoticeReceiver(conn, gc_member_notice_receiver, m);
    pthread_mutex_lock(&m->cancel_lock);
    m->cancel = cancel;
    m->conn = conn;
    pthread_mutex_unlock(&m->cancel_lock);
    m->state = GC_MEMBER_UP;
    m->server_version = PQserverVersion(conn);
    m->generation = atomic_fetch_add(&last_generation, 1) + 1;
    m->in_flight = false;
    m->last_io_ms = gc_clock_ms();
    gc_error_clear(&m->down_error);
    gc_error_clear(err);
    gc_member_role role = gc_member_get_role(m);
    gc_trace_write(m->trace, GC_TRACE_INFO,
                   "member %s connected, server %d, role %s, generation %lu",
                   m->name ? m->name : "-", PQserverVersion(conn),
                   role == GC_ROLE_STANDBY ? "standby"
                   : role == GC_ROLE_PRIMARY ? "primary" : "unknown",
                   m->generation);
    return true;
}

static bool same_text(const char *a, const char *b)
{
    return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

bool gc_member_take_session(gc_member *to, gc_member *from)
{
    assert(to != NULL && from != NULL);
    if (to == from || !gc_member_is_open(from) || from->in_flight || to->conn != NULL ||
        PQtransactionStatus(from->conn) != PQTRANS_IDLE || !same_text(to->host, from->host) ||
        !same_text(to->port, from->port) || !same_text(to->dbname, from->dbname) ||
        !same_text(to->user, from->user))
        return false;
    /* The session moves with its cancel object (same backend, same key):
     * the global session moves sessions twice per transaction. */
    PGcancel *cancel;
    PGconn *conn = gc_member_detach_with_cancel(from, &cancel);
    PQsetNoticeReceiver(conn, gc_member_notice_receiver, to);
    pthread_mutex_lock(&to->cancel_lock);
    to->conn = conn;
    to->cancel = cancel;
    pthread_mutex_unlock(&to->cancel_lock);
    to->state = GC_MEMBER_UP;
    /* The same server session: what was prepared or set on it is still
     * there, so it keeps its number. */
    to->generation = from->generation;
    to->xid_generation = from->xid_generation;
    to->server_version = from->server_version;
    to->in_flight = false;
    to->last_io_ms = from->last_io_ms;
    to->handshake_ms = from->handshake_ms;
    gc_error_clear(&to->down_error);
    return true;
}

/* Blocking connect: the parallel connect with one member, after closing
 * whatever session the member had. libpq's connect_timeout (when set) bounds
 * the wait, as it does for PQconnectdbParams; otherwise it is unbounded. */
bool gc_member_connect(gc_member *m, gc_error *err)
{
    assert(m != NULL);
    gc_member_close(m);
    gc_member *one[1] = { m };
    int timeout_ms = m->connect_timeout_s > 0 ? m->connect_timeout_s * 1000 : -1;
    return gc_member_connect_all(one, 1, timeout_ms, err) == 1;
}

/* One member's connect attempt in flight inside gc_member_connect_all. */
typedef struct connect_attempt {
    gc_member *m;
    gc_error *err;
    PGconn *conn;                      /* NULL once the attempt has ended */
    PostgresPollingStatusType want;    /* what PQconnectPoll last asked for */
    long long deadline_ms;             /* monotonic; LLONG_MAX when none */
    long long started_ms;              /* monotonic: when the handshake began */
} connect_attempt;

/* Starts a non-blocking connect for a->m. Returns true when the attempt is
 * in flight (a->conn set); false when it ended at once (member DOWN, a->err
 * filled). */
static bool attempt_start(connect_attempt *a)
{
    gc_member *m = a->m;
    keyword_list kl;
    char timeout[16];
    keepalive_text ka;
    PQconninfoOption *extra = NULL;
    if (!build_keywords(m, &kl, timeout, sizeof timeout, &ka, &extra, a->err)) {
        connect_failed(m, NULL, a->err);
        return false;
    }
    gc_trace_write(m->trace, GC_TRACE_INFO, "member %s connecting to %s:%s",
                   m->name ? m->name : "-", m->host ? m->host : "(default)",
                   m->port ? m->port : "(default)");
    a->started_ms = gc_clock_ms();
    PGconn *conn = PQconnectStartParams(kl.keys, kl.values, 0);
    PQconninfoFree(extra);    /* libpq copied the values */
    if (conn == NULL) {
        gc_error_set(a->err, "HY001", 0, "out of memory while connecting");
        connect_failed(m, NULL, a->err);
        return false;
    }
    if (PQstatus(conn) == CONNECTION_BAD) {
        error_from_failed_conn(conn, a->err);
        connect_failed(m, conn, a->err);
        return false;
    }
    /* libpq's rule: after PQconnectStart, behave as if PQconnectPoll had
     * returned PGRES_POLLING_WRITING. */
    a->conn = conn;
    a->want = PGRES_POLLING_WRITING;
    return true;
}

/* Advances an attempt whose socket is ready; ends it on success or failure. */
static void attempt_advance(connect_attempt *a)
{
    a->want = PQconnectPoll(a->conn);
    if (a->want == PGRES_POLLING_OK) {
        PGconn *conn = a->conn;
        a->conn = NULL;
        long long took = gc_clock_ms() - a->started_ms;
        a->m->handshake_ms = took > 0 ? (took < INT_MAX ? (int)took : INT_MAX) : 1;
        connect_succeeded(a->m, conn, a->err);
    } else if (a->want == PGRES_POLLING_FAILED) {
        error_from_failed_conn(a->conn, a->err);
        connect_failed(a->m, a->conn, a->err);
        a->conn = NULL;
    }
}

/* Ends an attempt that ran out of time: the server did not finish the
 * handshake (it may accept TCP and never answer). */
static void attempt_expire(connect_attempt *a, int timeout_ms)
{
    gc_error_set(a->err, "08001", 0,
                 "connection to server at \"%s\", port %s failed: timeout expired "
                 "after %d ms", a->m->host ? a->m->host : "(default)",
                 a->m->port ? a->m->port : "(default)", timeout_ms);
    connect_failed(a->m, a->conn, a->err);
    a->conn = NULL;
}

/* Runs a poll() loop over attempts[0..n) until every attempt has ended
 * (connected, failed or expired). Each member's socket is looked up again
 * before every wait, because libpq changes it while trying the next address
 * or host. start is when connect_all began (for messages). */
static void drive_attempts(connect_attempt *attempts, int n, long long start)
{
    struct pollfd *fds = calloc(n > 0 ? (size_t)n : 1, sizeof *fds);
    int *fd_owner = calloc(n > 0 ? (size_t)n : 1, sizeof *fd_owner);
    int pending = 0;
    for (int i = 0; i < n; i++)
        pending += attempts[i].conn != NULL;
    if (fds == NULL || fd_owner == NULL) {
        for (int i = 0; i < n; i++) {
            connect_attempt *a = &attempts[i];
            if (a->conn == NULL)
                continue;
            gc_error_set(a->err, "HY001", 0, "out of memory while connecting");
            connect_failed(a->m, a->conn, a->err);
            a->conn = NULL;
        }
        pending = 0;
    }

    while (pending > 0) {
        long long now = gc_clock_ms();
        long long next_deadline = LLONG_MAX;
        int nfds = 0;
        for (int i = 0; i < n; i++) {
            connect_attempt *a = &attempts[i];
            if (a->conn == NULL)
                continue;
            if (now >= a->deadline_ms) {
                attempt_expire(a, (int)(a->deadline_ms - start));
                pending--;
                continue;
            }
            int fd = PQsocket(a->conn);
            if (fd < 0) {
                /* No socket although the attempt is alive: only another
                 * PQconnectPoll tells libpq to move on or give up. */
                attempt_advance(a);
                if (a->conn == NULL)
                    pending--;
                continue;
            }
            if (a->deadline_ms < next_deadline)
                next_deadline = a->deadline_ms;
            fds[nfds].fd = fd;
            fds[nfds].events = a->want == PGRES_POLLING_READING ? POLLIN : POLLOUT;
            fds[nfds].revents = 0;
            fd_owner[nfds] = i;
            nfds++;
        }
        if (nfds == 0)
            continue;    /* pending is 0 now, or an attempt changed state */
        int wait_ms = -1;
        if (next_deadline != LLONG_MAX) {
            long long left = next_deadline - now;
            wait_ms = left > INT_MAX ? INT_MAX : (int)left;
        }
        int ready = poll(fds, (nfds_t)nfds, wait_ms);
        if (ready < 0) {
            if (errno == EINTR)
                continue;
            /* poll itself failed (should not happen): give every attempt up. */
            int poll_errno = errno;
            for (int i = 0; i < n; i++) {
                connect_attempt *a = &attempts[i];
                if (a->conn == NULL)
                    continue;
                gc_error_set(a->err, "08001", 0, "poll() failed while connecting: %s",
                             strerror(poll_errno));
                connect_failed(a->m, a->conn, a->err);
                a->conn = NULL;
            }
            break;
        }
        for (int k = 0; k < nfds && ready > 0; k++) {
            if (fds[k].revents == 0)
                continue;
            ready--;
            /* POLLERR/POLLHUP too: PQconnectPoll finds out what happened. */
            connect_attempt *a = &attempts[fd_owner[k]];
            attempt_advance(a);
            if (a->conn == NULL)
                pending--;
        }
    }
    free(fds);
    free(fd_owner);
}

/* One share of the attempts, driven by its own thread. */
typedef struct connect_share {
    connect_attempt *attempts;
    int n;
    long long start;
    pthread_t thread;
    bool threaded;
} connect_share;

static void *drive_share(void *arg)
{
    connect_share *share = arg;
    drive_attempts(share->attempts, share->n, share->start);
    return NULL;
}

/* How many poll loops to run at once. A connect is mostly waiting on the
 * network, except the client's half of SCRAM authentication (thousands of
 * HMAC rounds, a few milliseconds of CPU per connect), which one loop would
 * run one member after the other: several loops spread it over the cores. */
static int connect_loop_count(int n)
{
    enum { MAX_CONNECT_LOOPS = 8 };
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int loops = cpus > 0 ? (int)(cpus < MAX_CONNECT_LOOPS ? cpus : MAX_CONNECT_LOOPS) : 1;
    return n < loops ? (n > 0 ? n : 1) : loops;
}

/* Connects every member at once: one non-blocking libpq handshake per
 * member, driven by poll() loops (one per core, at most 8, each over its
 * share of the members), so n members take about as long as the slowest.
 * The deadline of a member is the earlier of timeout_ms (< 0: none) and its
 * own connect_timeout. errs (may be NULL) receives one error per member. */
int gc_member_connect_all(gc_member *const *members, int n, int timeout_ms,
                          gc_error *errs)
{
    assert(n >= 0 && (n == 0 || members != NULL));
    size_t count = n > 0 ? (size_t)n : 1;
    int loops = connect_loop_count(n);
    connect_attempt *attempts = calloc(count, sizeof *attempts);
    connect_share *shares = calloc((size_t)loops, sizeof *shares);
    gc_error *scratch = errs != NULL ? NULL : calloc(count, sizeof *scratch);
    if (attempts == NULL || shares == NULL || (errs == NULL && scratch == NULL)) {
        for (int i = 0; i < n && errs != NULL; i++)
            gc_error_set(&errs[i], "HY001", 0, "out of memory while connecting");
        free(attempts);
        free(shares);
        free(scratch);
        return 0;
    }
    gc_error *err_of = errs != NULL ? errs : scratch;

    long long start = gc_clock_ms();
    for (int i = 0; i < n; i++) {
        connect_attempt *a = &attempts[i];
        a->m = members[i];
        a->err = &err_of[i];
        assert(a->m != NULL);
        if (gc_member_is_open(a->m)) {
            gc_error_clear(a->err);
            continue;
        }
        gc_member_close(a->m);    /* a session that broke: start afresh */
        long long deadline = timeout_ms >= 0 ? start + timeout_ms : LLONG_MAX;
        if (a->m->connect_timeout_s > 0 &&
            start + a->m->connect_timeout_s * 1000LL < deadline)
            deadline = start + a->m->connect_timeout_s * 1000LL;
        a->deadline_ms = deadline;
        attempt_start(a);
    }

    /* Shares of consecutive members; the last one runs on this thread, and
     * so does any share whose thread could not be started. */
    for (int s = 0; s < loops; s++) {
        connect_share *share = &shares[s];
        int first = (int)((long long)n * s / loops);
        int end = (int)((long long)n * (s + 1) / loops);
        share->attempts = attempts + first;
        share->n = end - first;
        share->start = start;
        if (s < loops - 1)
            share->threaded = pthread_create(&share->thread, NULL, drive_share, share) == 0;
    }
    for (int s = 0; s < loops; s++) {
        if (!shares[s].threaded)
            drive_attempts(shares[s].attempts, shares[s].n, start);
    }
    for (int s = 0; s < loops; s++) {
        if (shares[s].threaded)
            pthread_join(shares[s].thread, NULL);
    }

    int open = 0;
    for (int i = 0; i < n; i++) {
        if (gc_member_is_open(members[i]))
            open++;
    }
    free(attempts);
    free(shares);
    free(scratch);
    return open;
}

/* --- connects advanced without waiting --------------------------------- */

/* A reconnect of one member, advanced by its owner between other work. */
struct gc_member_connecting {
    connect_attempt a;       /* a.err points at err; a.conn NULL once ended */
    gc_error err;
    long long started_ms;    /* monotonic */
    gc_connect_progress outcome;
};

/* Without a connect_timeout libpq would wait for ever; an attempt that
 * nobody waits for still needs an end, so that the backoff continues. */
#define GC_CONNECT_DEFAULT_TIMEOUT_MS 10000

/* Handshake steps taken per advance at most: a loopback handshake with
 * SCRAM needs about five. Bounds the work of one advance even when a
 * misbehaving server keeps its socket ready. */
#define GC_CONNECT_MAX_STEPS 32

gc_member_connecting *gc_member_connect_begin(gc_member *m, gc_error *err)
{
    assert(m != NULL && !gc_member_is_open(m));
    gc_member_connecting *c = calloc(1, sizeof *c);
    if (c == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory while connecting");
        return NULL;
    }
    gc_member_close(m);    /* a broken session's leftovers */
    c->a.m = m;
    c->a.err = &c->err;
    c->started_ms = gc_clock_ms();
    c->a.deadline_ms = c->started_ms + (m->connect_timeout_s > 0
                                        ? m->connect_timeout_s * 1000LL
                                        : GC_CONNECT_DEFAULT_TIMEOUT_MS);
    c->outcome = GC_CONNECT_PENDING;
    if (!attempt_start(&c->a)) {
        *err = c->err;
        free(c);
        return NULL;
    }
    return c;
}

/* Whether the attempt's socket becomes ready for what libpq asked within
 * wait_ms (0: only if it is ready now). libpq must not be polled before
 * that: in its "connect started" state it would take a connect still in
 * progress for a made one. */
static bool socket_ready(const connect_attempt *a, int wait_ms)
{
    int fd = PQsocket(a->conn);
    if (fd < 0)
        return true;    /* only PQconnectPoll can move libpq on */
    struct pollfd p = {
        .fd = fd,
        .events = a->want == PGRES_POLLING_READING ? POLLIN : POLLOUT,
        .revents = 0,
    };
    /* EINTR or a poll failure: not ready; the next step or advance retries. */
    return poll(&p, 1, wait_ms) > 0;
}

gc_connect_progress gc_member_connect_advance(gc_member_connecting *c, int wait_ms,
                                              gc_error *err)
{
    assert(c != NULL && wait_ms >= 0);
    connect_attempt *a = &c->a;
    if (c->outcome == GC_CONNECT_PENDING && gc_member_is_open(a->m)) {
        /* Opened by a blocking connect meanwhile: that session stays, and
         * this attempt must not mark the member DOWN or replace it. */
        PQfinish(a->conn);
        a->conn = NULL;
        gc_error_clear(&c->err);
        c->outcome = GC_CONNECT_DONE;
    }
    long long wait_end = gc_clock_ms() + wait_ms;
    for (int step = 0; step < GC_CONNECT_MAX_STEPS && c->outcome == GC_CONNECT_PENDING;
         step++) {
        long long now = gc_clock_ms();
        if (now >= a->deadline_ms) {
            attempt_expire(a, (int)(a->deadline_ms - c->started_ms));
        } else {
            long long until = wait_end < a->deadline_ms ? wait_end : a->deadline_ms;
            int wait = until > now ? (int)(until - now) : 0;
            if (!socket_ready(a, wait)) {
                if (gc_clock_ms() >= wait_end)
                    break;
                continue;    /* interrupted, or the deadline came first */
            }
            attempt_advance(a);
        }
        if (a->conn == NULL)
            c->outcome = gc_member_is_open(a->m) ? GC_CONNECT_DONE : GC_CONNECT_FAILED;
    }
    if (c->outcome == GC_CONNECT_PENDING)
        return GC_CONNECT_PENDING;
    *err = c->err;
    return c->outcome;
}

void gc_member_connect_end(gc_member_connecting *c)
{
    if (c == NULL)
        return;
    if (c->a.conn != NULL)
        PQfinish(c->a.conn);
    free(c);
}

/* --- liveness probes -------------------------------------------------- */

struct gc_member_probe {
    PGconn *conn;
    PostgresPollingStatusType want;
};

/* Starts a second connection to the member with the member's own
 * parameters, to learn whether the server process answers at all. Owned by
 * the caller, freed with gc_member_probe_free. */
gc_member_probe *gc_member_probe_start(gc_member *m)
{
    keyword_list kl;
    char timeout[16];
    keepalive_text ka;
    PQconninfoOption *extra = NULL;
    gc_error err;
    gc_error_clear(&err);
    if (!build_keywords(m, &kl, timeout, sizeof timeout, &ka, &extra, &err))
        return NULL;
    keyword_add(&kl, "application_name", "gcodbc liveness probe");
    kl.keys[kl.count] = NULL;
    kl.values[kl.count] = NULL;
    gc_member_probe *p = calloc(1, sizeof *p);
    if (p != NULL)
        p->conn = PQconnectStartParams(kl.keys, kl.values, 0);
    PQconninfoFree(extra);
    if (p == NULL || p->conn == NULL || PQstatus(p->conn) == CONNECTION_BAD) {
        gc_member_probe_free(p);
        return NULL;
    }
    p->want = PGRES_POLLING_WRITING;
    gc_trace_write(m->trace, GC_TRACE_DEBUG, "member %s silent: liveness probe started",
                   m->name ? m->name : "-");
    return p;
}

int gc_member_probe_socket(const gc_member_probe *p, short *events)
{
    *events = p->want == PGRES_POLLING_READING ? POLLIN : POLLOUT;
    return PQsocket(p->conn);
}

/* A failed probe still proves the server alive when the server itself said
 * no (too many connections, authentication, shutting down): libpq then
 * reports the server's FATAL message. Refused or reset connections do not. */
gc_probe_state gc_member_probe_advance(gc_member_probe *p)
{
    p->want = PQconnectPoll(p->conn);
    if (p->want == PGRES_POLLING_OK)
        return GC_PROBE_ALIVE;
    if (p->want == PGRES_POLLING_FAILED)
        return strstr(PQerrorMessage(p->conn), "FATAL") != NULL ? GC_PROBE_ALIVE
                                                                : GC_PROBE_DEAD;
    return GC_PROBE_RUNNING;
}

void gc_member_probe_free(gc_member_probe *p)
{
    if (p == NULL)
        return;
    if (p->conn != NULL)
        PQfinish(p->conn);
    free(p);
}
