/*
 * gc_member_internal: the session object, shared by the member layer's own
 * files (gc_member.c: the session and its statements; gc_member_connect.c:
 * connecting, blocking and in parallel). Nothing outside src/member includes it.
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

    gc_trace *trace;             /* borrowed from the owner */
    PGconn *conn;                /* NULL while closed */
    gc_member_state state;
    unsigned long generation;    /* +1 on every successful connect */
    bool in_flight;              /* a sent statement has results left to collect */

    gc_member_notice_fn notice_fn;
    void *notice_ctx;

    /* The cancel object is used from other threads (SQLCancel), so it has its
     * own lock: close must not free it while a cancel is being sent. */
    pthread_mutex_t cancel_lock;
    PGcancel *cancel;
};

/* Fills err with libpq's message, without its trailing newline. */
void gc_member_error_from_libpq(gc_error *err, const char *sqlstate, const char *msg);

/* Forwards a server notice to the session's notice handler (libpq callback). */
void gc_member_notice_receiver(void *arg, const PGresult *res);

#endif
