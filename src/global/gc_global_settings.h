/*
 * gc_global_settings: session settings and SQL-level transaction control of
 * a global connection (docs/global-connection.md, "SET and RESET" and
 * "Transaction control in SQL").
 *
 * SET / RESET (session level) run on every open member session, all or
 * none: each member runs the statement inside a transaction of its own, and
 * only when every member accepted it are those transactions committed; when
 * one refuses, every one is rolled back, which undoes the setting there
 * (PostgreSQL undoes a SET whose transaction aborts). The statements that
 * succeeded are logged in order and replayed on every member session whose
 * generation the log has not seen yet (opened on demand, or reconnected).
 * After each one the search_path the shard-map lookup uses is read again.
 *
 * A BEGIN sent in SQL with autocommit on carries no key, so it is held back
 * (with the SET LOCAL and SAVEPOINT statements that follow it) and sent, on
 * the member the first other statement is routed to, just before that
 * statement: the "prelude". The pin then lasts as long as the member's
 * session says a transaction is open.
 *
 * Not thread-safe: the owning ODBC connection's lock guards the object.
 */
#ifndef GC_GLOBAL_SETTINGS_H
#define GC_GLOBAL_SETTINGS_H

#include <stdbool.h>

#include "global/gc_global.h"
#include "util/gc_error.h"

struct gc_strbuf;

/* Runs the session-level SET / RESET `sql` on every open member session, all
 * or none, logs it for replay and refreshes the cached search_path. False
 * with err (the failing member's SQLSTATE, its name in the message) when one
 * member refused it: then no member keeps it. */
bool gc_global_set_everywhere(gc_global *g, const char *sql, gc_error *err);

/* Replays the logged settings on member i when its session (generation) has
 * not had them yet. False with err when the member refused or broke. */
bool gc_global_settings_replay(gc_global *g, int i, gc_error *err);

/* Forgets what is known of member session m (call before destroying it,
 * e.g. when a topology refresh removes or recreates members): a new session
 * allocated at the same address must not pass for one that had the log. */
void gc_global_settings_forget(gc_global *g, const gc_member *m);

/* Reads the search_path of member i again for the shard-map lookup. */
void gc_global_settings_refresh_search_path(gc_global *g, int i);

/* --- a session-level SET / RESET inside an open transaction
 *     (gc_global_txn_settings.c) --- */

/* The SET / RESET `sql`, which the transaction's first member has just run
 * (or which waits in the prelude of a BEGIN held back), belongs to the open
 * transaction: it runs on the members the transaction joined, goes with
 * the BEGIN of those that join later, and is applied to every member
 * session and logged when the transaction commits; a ROLLBACK (or a
 * ROLLBACK TO a savepoint set before it) undoes it, as on one server.
 * False with err when a joined member refused it: the transaction was
 * then rolled back on every group. */
bool gc_global_txn_setting_add(gc_global *g, const char *sql, gc_error *err);
/* Appends "; <SET>" for the open transaction's settings made while `depth`
 * savepoints were in force (a joining member's BEGIN interleaves them with
 * its savepoints, so that going back to one is right there too). */
void gc_global_txn_settings_append(const gc_global *g, struct gc_strbuf *sb, int depth);
/* The savepoint list kept its first `kept`: a ROLLBACK TO (rolled_back)
 * drops the settings made after, a RELEASE hands them to the savepoint
 * that stays. */
void gc_global_txn_settings_savepoints(gc_global *g, int kept, bool rolled_back);
/* The transaction `serial` (gc_global_txn_serial, read before its end)
 * ended: committed, its settings are applied to every member session and
 * logged (info gets a 01000 warning when that fails somewhere; the
 * transaction's own members have them already); else they are dropped. */
void gc_global_txn_settings_ended(gc_global *g, unsigned long serial, bool committed,
                                  gc_error *info);
/* Whether the transaction `serial` made settings. */
bool gc_global_txn_settings_made(const gc_global *g, unsigned long serial);
void gc_global_txn_settings_free(gc_global *g);

/* Number of logged settings (for tests and traces). */
int gc_global_settings_count(const gc_global *g);

/* --- the prelude of a transaction begun in SQL --- */

/* Appends one statement (BEGIN, SET LOCAL, SAVEPOINT ...) to the prelude. */
bool gc_global_prelude_add(gc_global *g, const char *sql);
/* Whether a BEGIN is held back, waiting for its first statement. */
bool gc_global_prelude_pending(const gc_global *g);
/* Drops the prelude (a COMMIT or ROLLBACK that came before any statement). */
void gc_global_prelude_drop(gc_global *g);
/* Sends the prelude to member i (open) and forgets it. False with err when
 * the member refused it; the prelude is forgotten either way. */
bool gc_global_prelude_send(gc_global *g, int i, gc_error *err);

/* Frees what gc_global_settings keeps for g (called by gc_global_destroy). */
void gc_global_settings_free(gc_global *g);

#endif
