/*
 * gc_session_pool: the global session (GlobalSession=Yes, USE_GLOBAL_SESSION;
 * ARCHITECTURE.md section 7, docs/global-connection.md "The global session").
 *
 * One pool per process and cluster identity: the global connections of a
 * process with the same seeds, locator, database, user, password, TLS
 * files and application name (gc_session_pool_key) share it. The pool
 * keeps, per member server (host and port), the idle member sessions no
 * connection holds. A connection borrows one when a statement needs that
 * member (gc_session_pool_borrow, else it opens a new one) and gives it back
 * when its transaction, autocommit statement or streaming result ends
 * (gc_session_pool_give_back), so server sessions follow concurrent
 * transactions rather than connections x members.
 *
 * A session keeps its generation (gc_member_generation) while it travels:
 * the server-side prepared statements a connection made on it stay there,
 * and a connection prepares a statement on a session that lacks it, as
 * after a reconnect. A session given back carrying session settings is
 * marked so; the next borrower runs RESET ALL on it before anything else.
 *
 * GlobalSessionMax bounds the sessions (borrowed and idle) of one member
 * server; a borrower finding none idle and the bound reached waits, at most
 * GlobalSessionWait seconds, for one to be given back (then HYT00).
 * Sessions a connection's failover reopened by itself count when given
 * back and may exceed the bound for that while.
 *
 * Thread-safe: one mutex guards every pool and the registry, a condition
 * variable per pool wakes waiters; the sessions themselves are used by one
 * connection at a time (the borrower's lock).
 */
#ifndef GC_SESSION_POOL_H
#define GC_SESSION_POOL_H

#include <stdbool.h>

#include "config/gc_settings.h"
#include "member/gc_member.h"
#include "util/gc_error.h"

typedef struct gc_session_pool gc_session_pool;

/* What SHOW GLOBAL CONNECTION reports of one member server's sessions. */
typedef struct gc_session_pool_stats {
    int borrowed;             /* held by connections now */
    int idle;                 /* in the pool, ready to lend */
    unsigned long borrows;    /* sessions lent from the pool so far */
    unsigned long opened;     /* sessions opened (or tried) for borrowers so far */
    unsigned long waits;      /* borrows that waited for a session (GlobalSessionMax) */
    unsigned long timeouts;   /* of those, the ones that gave up (HYT00) */
    unsigned long discarded;  /* sessions the pool closed instead of lending or
                                 keeping them: found dead while idle, given
                                 back unusable, above GlobalSessionMax, or
                                 idle when a RECONNECT closed them */
    unsigned long lost;       /* borrowed sessions that failed while held */
} gc_session_pool_stats;

/* The native code of a statement refused under the global session. */
#define GC_SESSION_POOL_NATIVE_REFUSED 90180
/* The native code of HYT00: no shared session came free in time. */
#define GC_SESSION_POOL_NATIVE_TIMEOUT 90181

/* The pool identity of a connection: settings that decide which server
 * sessions it may share (heap string, caller frees; NULL on out-of-memory). */
char *gc_session_pool_key(const gc_settings *s);

/* The process's pool for key, created on first use with max_per_server
 * (GlobalSessionMax, part of the key; 0: no bound); every join is ended by
 * one gc_session_pool_leave. NULL on out-of-memory. */
gc_session_pool *gc_session_pool_join(const char *key, int max_per_server);
/* Ends a join; the last one closes the idle sessions and frees the pool. */
void gc_session_pool_leave(gc_session_pool *p);

typedef enum gc_pool_borrow {
    GC_POOL_LENT,        /* m holds an idle session of the pool */
    GC_POOL_OPEN_NEW,    /* none idle, room for one more: the caller opens it
                            (counted as borrowed already; gc_session_pool_note_lost
                            when the connect fails) */
    GC_POOL_TIMED_OUT,   /* the bound was reached and nothing came back in time */
} gc_pool_borrow;

/* Moves an idle, live session of m's server (host and port) into m, which
 * must be closed, waiting at most wait_ms when the server's sessions are at
 * the bound; *dirty tells whether it carries another connection's settings
 * (the caller resets them). Idle sessions found dead on the way are
 * closed, never lent. */
gc_pool_borrow gc_session_pool_borrow(gc_session_pool *p, gc_member *m, int wait_ms,
                                      bool *dirty);
/* Moves an idle, live session of any member server into a new closed
 * member object (caller destroys it), for reading the catalog at connect
 * time; NULL when none is idle. */
gc_member *gc_session_pool_borrow_any(gc_session_pool *p);
/* Counts a session a connection opened outside the pool (a failover
 * reconnect), about to be given back. */
void gc_session_pool_note_opened(gc_session_pool *p, const gc_member *m);
/* m's session (borrowed or opened) goes back: kept idle when open, idle
 * on the server and not streaming; otherwise closed and counted as
 * discarded. dirty: it carries session settings. m is closed afterwards. */
void gc_session_pool_give_back(gc_session_pool *p, gc_member *m, bool dirty);
/* A borrowed session of m's server was lost while held (it failed and
 * was closed): it no longer counts as borrowed. */
void gc_session_pool_note_lost(gc_session_pool *p, const gc_member *m);

/* Closes every idle session, counted as discarded (RECONNECT: sessions
 * are opened anew), unless the pool did so already for catalog version
 * `version` or a later one (-1: always); the pool then remembers it, so
 * the connections that follow one RECONNECT close them once. */
void gc_session_pool_drop_idle(gc_session_pool *p, long long version);

/* The pool's figures for one member server (zero when it never had any). */
gc_session_pool_stats gc_session_pool_stats_of(gc_session_pool *p, const char *host,
                                               const char *port);

/* Under the global session, a statement that would leave state behind in
 * a shared session is refused: DDL, and what creates a temporary table.
 * True (and err filled: 0A000, naming GlobalSession) when sql is one. */
bool gc_session_pool_refuses(bool is_ddl, bool creates_temp, gc_error *err);

/* A name for a server-side prepared statement unique in the process: on
 * shared sessions, two connections' statements must not collide. */
unsigned long gc_session_pool_statement_number(void);

#endif
