/*
 * gc_session_sql: refuses SQL that depends on one server session, for the
 * global connection (ARCHITECTURE.md section 6, docs/session-dependent-sql.md).
 *
 * A global connection spreads one ODBC connection over many server sessions,
 * so temporary views and sequences, currval(), session-level advisory
 * locks, LISTEN, SQL-level prepared statements, cursors WITH HOLD,
 * GOLDILOCKS `@domain` clauses and session functions cannot mean what the
 * application expects.
 * A session-level SET or RESET sent in one text with other statements is
 * refused too: a SET runs on every member session and is replayed on later
 * ones, which would run the other statements again each time.
 * Temporary tables pass: the global connection keeps each on the member
 * session that created it (gc_temp_tables.h).
 * The check runs before anything is sent; a general connection never calls it.
 *
 * It is a pure function of the SQL text: it reads tokens from gc_sql_lexer, so
 * words inside strings, comments, quoted identifiers and dollar quotes never
 * trigger it, and it allocates nothing. Syntax errors (an unterminated string,
 * say) are not its business: they are reported by the SQL rewriter.
 */
#ifndef GC_SESSION_SQL_H
#define GC_SESSION_SQL_H

#include <stdbool.h>
#include <stddef.h>

#include "util/gc_error.h"

/* The native error code of every refusal (SQLSTATE 0A000). gcodbc's own
 * codes live in 90000..99999, outside the range of GOLDILOCKS' codes, so an
 * application never mistakes it for one (19068 means "retry"). */
#define GC_SESSION_SQL_NATIVE_REFUSED 90100

/* True when sql (len bytes, need not be NUL-terminated) may run on a global
 * connection. False with err set to SQLSTATE 0A000, native
 * GC_SESSION_SQL_NATIVE_REFUSED and a message naming the first refused
 * construct. err is untouched on success. */
bool gc_session_sql_check(const char *sql, size_t len, gc_error *err);

/* Like gc_session_sql_check, and also refuses `@name` where name is one of
 * the n member or group names (compared ignoring ASCII case for an unquoted
 * word, exactly for a quoted one). names may be NULL when n is 0; the caller
 * keeps ownership. */
bool gc_session_sql_check_names(const char *sql, size_t len,
                                const char *const *names, size_t n,
                                gc_error *err);

#endif
