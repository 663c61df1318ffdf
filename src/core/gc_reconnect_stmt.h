/*
 * gc_reconnect_stmt: ALTER SYSTEM RECONNECT GLOBAL CONNECTION as a
 * statement: recognized by the driver and answered by
 * gc_conn_reconnect_global (gc_conn_global.h), never sent as written.
 */
#ifndef GC_RECONNECT_STMT_H
#define GC_RECONNECT_STMT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/gc_stmt.h"

/* Whether sql (len bytes) is ALTER SYSTEM RECONNECT GLOBAL CONNECTION: any
 * letter case, any white space between the words, trailing ';' allowed. */
bool gc_reconnect_stmt_matches(const char *sql, size_t len);
/* Answers it on s's connection (no result set: a command, row count -1). */
SQLRETURN gc_reconnect_stmt_run(gc_stmt *s);

#endif
