/*
 * gc_member_internal: the session object, shared by the member layer's own
 * files (gc_member.c: the session and its statements; gc_member_connect.c:
 * connecting: blocking, in parallel, or advanced without waiting). Nothing
 * outside src/member includes it.
 */
#ifndef GC_MEMBER_INTERNAL_H
#define GC_MEMBER_INTERNAL_H

#include <pthread.h>

#include "member/gc_member.h"

struct gc_member {
    /* Copied parameters (owned). */
    char *name, *group, *host, *port, *dbname, *user, *password;
    char *sslmode, *sslrootcert, *sslcert, *sslkey, *application_name;
    char *extra_conninfo;
    int connect_timeout_s;
    bool global_connection;      /* gc_member_params.global_connection */
    int member_timeout_s;        /* 0 = no limit on a silent server */

    gc_trace *trace;             /* borrowed from the owner */
    PGconn *conn;                /* NULL while closed */
    gc_member_state state;
    unsigned long generation;    /* new, process-wide unique, on every successful connect */
    unsigned long primary_generation; /* the session libpq reported primary on: a
                                     server never goes back into recovery while
                                     a session lasts, so it stays primary */
    int server_version;          /* the last session's; kept while closed (a
                                    session lent back to a pool) */
    bool in_flight;              /* a sent statement has results left to collect */
    unsigned long sent_generation; /* generation the statement in flight was sent on */
    unsigned long xid_generation; /* the session holding the prepared id query
                                     (gc_member_prepare_xid_statement); 0: none.
                                     Moves with a shared session */
    long long last_io_ms;        /* monotonic: last send to or answer from the server */
    int handshake_ms;            /* how long the last successful connect took; 0: none yet */
    gc_error down_error;         /* why the member went down; cleared on connect */
    unsigned long probes_answered; /* liveness probes that found the server alive */

    /* A statement sent between commands whose results the caller never
     * sees (gc_member_send_wrapped, gc_member_wrap.c). */
    struct {
        bool active;             /* such a pipeline is in flight */
        int before_left;         /* commands before the statement still to answer */
        bool in_after;           /* the statement's results are all delivered */
        bool stream;             /* deliver the statement's rows one at a time */
        PGresult *before_error;  /* the first error of a command before it */
    } wrap;
    bool hide_first;             /* the simple query in flight starts with a
                                    command of the driver's whose result the
                                    caller never sees (gc_member_send_query_after) */
    gc_member_notice_fn notice_fn;
    void *notice_ctx;
    gc_member_before_send_fn before_send_fn;
    void *before_send_ctx;

    /* The cancel object is used from other threads (SQLCancel), so it has its
     * own lock: close must not free it while a cancel is being sent. */
    pthread_mutex_t cancel_lock;
    PGcancel *cancel;
};

/* Takes the session away from m (closed from then on, its cancel object
 * freed) and returns it, NULL when there was none; the caller finishes it
 * or hands it on. */
PGconn *gc_member_detach(gc_member *m);
/* The same, handing the session's cancel object over too (caller owns it). */
PGconn *gc_member_detach_with_cancel(gc_member *m, PGcancel **cancel);

/* Marks the member DOWN for `err` (copied as its down error) and closes the
 * session: a session once found dead is never used again. */
void gc_member_went_down(gc_member *m, const gc_error *err);

/* Marks the member down (with libpq's message) when libpq says the
 * connection is gone. */
void gc_member_note_connection_health(gc_member *m);

/* Waits until the statement in flight has a result that PQgetResult hands
 * over without blocking. silence_limit_ms (<= 0: none) bounds how long the
 * server may stay silent; with `probe`, a silent server is asked by a second
 * connection whether it is alive (see gc_member_wait.c). False when the
 * member went down for not answering (session closed, down_error set). */
bool gc_member_wait_readable(gc_member *m, long long silence_limit_ms, bool probe);

/* A liveness probe: a second, short-lived connection to the member. */
typedef struct gc_member_probe gc_member_probe;
typedef enum gc_probe_state {
    GC_PROBE_RUNNING,     /* no answer yet */
    GC_PROBE_ALIVE,       /* the server answered (accepted or refused us) */
    GC_PROBE_DEAD,        /* the connection was refused or reset */
} gc_probe_state;
/* Starts a probe; NULL when it could not even start (treat as no answer). */
gc_member_probe *gc_member_probe_start(gc_member *m);
/* Socket to poll and the events wanted, or -1 when the probe must simply be
 * advanced again. */
int gc_member_probe_socket(const gc_member_probe *p, short *events);
/* Advances a probe whose socket is ready. */
gc_probe_state gc_member_probe_advance(gc_member_probe *p);
void gc_member_probe_free(gc_member_probe *p);

/* The next result of a wrapped statement in flight (gc_member_wrap.c);
 * NULL once the statement and its commands are all answered. */
PGresult *gc_member_wrapped_next(gc_member *m);
/* Forgets a wrapped pipeline (the session closes). */
void gc_member_wrap_end(gc_member *m);
/* Fills err with libpq's message, without its trailing newline. */
void gc_member_error_from_libpq(gc_error *err, const char *sqlstate, const char *msg);

/* The choke point every send passes first (the start of ready_to_send,
 * pipeline begin, the transaction-id pipelines): the owner's before-send
 * hook ends the result it streams here; what it leaves in flight is
 * drained by the send itself. */
void gc_member_before_send(gc_member *m);

/* Forwards a server notice to the session's notice handler (libpq callback). */
void gc_member_notice_receiver(void *arg, const PGresult *res);

#endif
