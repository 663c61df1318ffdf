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

#include "core/gc_server_stmt.h"

struct gc_conn;
struct gc_stmt;

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
 * every parked one is deallocated first, and the statements that handles hold
 * now are deallocated rather than parked when released. */
void gc_stmt_cache_before_exec(struct gc_stmt *s);

/* The connection's sessions are about to close: forgets every parked
 * statement, and statements released from now on are not parked. */
void gc_stmt_cache_close(struct gc_conn *c);

/* A connection opens: an empty cache. */
void gc_stmt_cache_open(struct gc_conn *c);

#endif
