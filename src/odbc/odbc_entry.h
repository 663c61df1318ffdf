/*
 * odbc_entry: what every ODBC entry point does before and after calling the
 * core: validate the handle, take the connection lock, clear the handle's
 * diagnostics; and on the way out record the return code and unlock.
 *
 *   SQLRETURN SQL_API SQLFoo(SQLHSTMT hstmt, ...)
 *   {
 *       gc_stmt *s = gc_odbc_enter_stmt(hstmt);
 *       if (s == NULL)
 *           return SQL_INVALID_HANDLE;
 *       SQLRETURN rc = gc_stmt_foo(s, ...);
 *       return gc_odbc_leave_stmt(s, rc);
 *   }
 *
 * Wide (W) entry points convert their SQLWCHAR arguments with gc_odbc_wide_arg
 * (which adds their diagnostics) and pass UTF-8 to the same core function as
 * the ANSI one.
 */
#ifndef ODBC_ENTRY_H
#define ODBC_ENTRY_H

#include <sql.h>
#include <sqlext.h>
#include <sqlucode.h>

#include "core/gc_conn.h"
#include "core/gc_env.h"

/* The core's statement and descriptor types begin with these fields:
 *   gc_handle h; gc_conn *conn;  */
typedef struct gc_stmt gc_stmt;
typedef struct gc_desc gc_desc;

gc_env *gc_odbc_enter_env(SQLHENV h);
SQLRETURN gc_odbc_leave_env(gc_env *e, SQLRETURN rc);
gc_conn *gc_odbc_enter_conn(SQLHDBC h);
SQLRETURN gc_odbc_leave_conn(gc_conn *c, SQLRETURN rc);
gc_stmt *gc_odbc_enter_stmt(SQLHSTMT h);
SQLRETURN gc_odbc_leave_stmt(gc_stmt *s, SQLRETURN rc);
gc_desc *gc_odbc_enter_desc(SQLHDESC h);
SQLRETURN gc_odbc_leave_desc(gc_desc *d, SQLRETURN rc);

/* For SQLGetDiagRec/Field, which must not clear diagnostics: the handle
 * (of `type`) locked as enter does but with its records kept; NULL when
 * invalid. Unlock with gc_odbc_unlock_any. */
gc_handle *gc_odbc_lock_any(SQLSMALLINT type, SQLHANDLE h);
void gc_odbc_unlock_any(SQLSMALLINT type, SQLHANDLE h);
/* The connection a DBC, STMT or DESC handle belongs to; NULL for an ENV. */
gc_conn *gc_odbc_handle_conn(SQLSMALLINT type, SQLHANDLE h);

/* A W argument as a malloc'd UTF-8 string in *out (caller frees; NULL for a
 * NULL argument). len is in characters or SQL_NTS. Every W entry point reads
 * its strings through here, so they all fail alike: false with a diagnostic
 * added to diag, HY090 for a negative length other than SQL_NTS, 22018 for
 * UTF-16 that is not well formed (an unpaired surrogate, as a bound
 * SQL_C_WCHAR parameter gets), HY001 when out of memory. */
bool gc_odbc_wide_arg(gc_diag *diag, const SQLWCHAR *s, SQLINTEGER len, char **out);

/* An ANSI argument as a malloc'd NUL-terminated copy (caller frees); len in
 * bytes or SQL_NTS. *ok is false on a bad length or out-of-memory; a NULL
 * argument gives NULL with *ok true. */
char *gc_odbc_ansi_in(const SQLCHAR *s, SQLINTEGER len, bool *ok);

#endif
