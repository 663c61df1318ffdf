/*
 * gc_stmt_cache: server-side prepared statements parked for reuse, per
 * connection. A statement handle that takes a new text (SQLPrepare,
 * SQLExecDirect) or is freed parks its server statement here instead of
 * deallocating it; a handle that needs one for the same text and parameter
 * types takes it back, already prepared on the sessions that made it: no
 * PREPARE and no DEALLOCATE, two round trips saved per execution for an
 * application that alternates texts on one handle (pyodbc's
 * cursor.execute) or allocates a handle per statement. At most
 * GC_STMT_CACHE_SIZE are parked; parking one more deallocates the one
 * parked longest ago, and a statement that may change what they would do
 * (DDL) deallocates them all first (docs/statements.md, "Server-side
 * statements").
 */
#ifndef GC_STMT_CACHE_H
#define GC_STMT_CACHE_H

#include <libpq-fe.h>
#include <stdbool.h>

#define GC_STMT_CACHE_SIZE 32

struct gc_conn;
struct gc_stmt;

/* One server-side prepared statement and where it exists. */
typedef struct gc_server_stmt {
    char name[32];                /* "" when none */
    unsigned long generation;     /* session generation it was last made on */
    int nparams;
    Oid *param_types;             /* owned; 0 = left to the server */
    unsigned long *prepared_on;   /* global connection: the generations of the
                                     member sessions that hold it (unique per
                                     session: gc_session_generation); owned */
    int prepared_on_n;
    int prepared_on_cap;
    int xid_twin;                 /* its twin "<name>x", the same write returning
                                     its transaction id (gc_commit.h): 1 made
                                     beside it on every session that holds it,
                                     -1 refused or not wanted, 0 not tried yet */
} gc_server_stmt;

typedef struct gc_parked_stmt {
    char *sql;                    /* owned: the text as the server got it */
    gc_server_stmt server;
    unsigned long parked_at;      /* the smallest is deallocated first */
} gc_parked_stmt;

typedef struct gc_stmt_cache {
    gc_parked_stmt entries[GC_STMT_CACHE_SIZE];
    int n;
    unsigned long clock;
    bool closing;                 /* the sessions are about to close: keep and
                                     deallocate nothing */
} gc_stmt_cache;

/* Whether st, prepared with its parameter types, can run values converted
 * for `types` (n of them; NULL: any types, as describing needs): a type the
 * server inferred takes text, but bytea values travel in binary and need a
 * bytea parameter; a value left to the server needs a parameter the server
 * typed, not one declared for another value. */
bool gc_server_stmt_fits(const gc_server_stmt *st, int n, const Oid *types);

/* Frees st's memory and empties it (the server statement is left alone). */
void gc_server_stmt_clear(gc_server_stmt *st);

/* s no longer needs its server statement (new text, or s is freed): parks
 * it, or deallocates it when s has no text or the connection is closing. */
void gc_stmt_cache_release(struct gc_stmt *s);

/* Deallocates s's server statement now, wherever it was made. */
void gc_stmt_cache_discard(struct gc_stmt *s);

/* Gives s (which has none) the parked server statement of its text made
 * with exactly the parameter types `types` (NULL: all left to the server);
 * false when none is parked. */
bool gc_stmt_cache_take(struct gc_stmt *s, const Oid *types);

/* Whether running sql leaves parked statements valid: its first word is
 * that of a query, DML, or transaction or session control. DDL (and
 * DISCARD, DEALLOCATE, CALL, anything else) may change what a parked
 * statement would return ("cached plan must not change result type") or
 * remove it. Read once per text (gc_stmt.keeps_parked_statements). */
bool gc_stmt_cache_text_keeps(const char *sql);

/* s is about to run: when its text does not keep parked statements valid,
 * every parked one is deallocated first. */
void gc_stmt_cache_before_exec(struct gc_stmt *s);

/* The connection's sessions are about to close: forgets every parked
 * statement, and statements released from now on are not parked. */
void gc_stmt_cache_close(struct gc_conn *c);

/* A connection opens: an empty cache. */
void gc_stmt_cache_open(struct gc_conn *c);

#endif
