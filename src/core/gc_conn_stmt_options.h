/*
 * gc_conn_stmt_options: ODBC 2 statement options set on a connection
 * (SQLSetConnectOption), which hold for all its statements.
 */
#ifndef GC_CONN_STMT_OPTIONS_H
#define GC_CONN_STMT_OPTIONS_H

#include <sql.h>
#include <sqlext.h>
#include <stdbool.h>

#include "core/gc_handle.h"

/* Whether attr is an ODBC 2 statement option a connection may be given. */
bool gc_conn_is_statement_option(SQLINTEGER attr);
/* Sets attr = value on every statement of c and for those it allocates
 * later; a value a statement would refuse is refused (its SQLSTATE). */
SQLRETURN gc_conn_set_statement_option(gc_conn *c, SQLINTEGER attr, SQLULEN value);
/* Gives the new statement s the options set on its connection. */
void gc_conn_apply_statement_options(gc_conn *c, gc_stmt *s);

#endif
