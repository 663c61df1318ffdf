/*
 * gc_server_stmt: a server-side prepared statement as the driver keeps it,
 * and the connection's store of statements parked for reuse. Types only,
 * with the two questions asked of one statement, so that the connection
 * can hold its store without importing the statement (the parking itself
 * is gc_stmt_cache.h).
 */
#ifndef GC_SERVER_STMT_H
#define GC_SERVER_STMT_H

#include <libpq-fe.h>
#include <stdbool.h>

#define GC_STMT_CACHE_SIZE 32

/* One server-side prepared statement and where it exists. */
typedef struct gc_server_stmt {
    char name[32];                /* "" when none */
    unsigned long generation;     /* session generation it was last made on */
    unsigned long schema_epoch;   /* the cache's schema_epoch when it was made */
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
    unsigned long schema_epoch;   /* texts run that may change what a prepared
                                     statement returns (DDL): a statement made
                                     before the last of them is not parked */
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

#endif
