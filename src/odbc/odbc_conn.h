/*
 * odbc_conn: the parts of connection-level entry points shared by the
 * ANSI (odbc_conn.c) and the W (odbc_conn_w.c) variants.
 * Arguments are UTF-8; outputs go through gc_strout.
 */
#ifndef ODBC_CONN_H
#define ODBC_CONN_H

#include "core/gc_strout.h"
#include "odbc/odbc_entry.h"

SQLRETURN gc_odbc_driver_connect(gc_conn *c, const char *in, SQLUSMALLINT completion,
                                 const gc_strout *out, SQLSMALLINT *out_length);
SQLRETURN gc_odbc_native_sql(gc_conn *c, const char *in, const gc_strout *out,
                             SQLINTEGER *out_length);
/* The string-valued connection attributes (SQL_ATTR_CURRENT_CATALOG,
 * SQL_ATTR_TRACEFILE, SQL_ATTR_TRANSLATE_LIB) whose value a W caller passes
 * as SQLWCHAR. */
bool gc_odbc_conn_attr_is_string(SQLINTEGER attr);

#endif
