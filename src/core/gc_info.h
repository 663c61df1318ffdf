/*
 * gc_info: SQLGetInfo (SQLGetFunctions is gc_functions.h).
 */
#ifndef GC_INFO_H
#define GC_INFO_H

#include <sql.h>
#include <sqlext.h>
#include <stdbool.h>

#include "core/gc_conn.h"

/* PostgreSQL's identifier length limit (NAMEDATALEN - 1): the longest
 * schema, table and column name SQLGetInfo reports. */
#define GC_PG_MAX_IDENTIFIER 63

/* SQLGetInfo: one item into value (string items UTF-8, or UTF-16 when wide;
 * lengths in bytes either way, as ODBC says for SQLGetInfoW). HY096 for an
 * unknown item. */
SQLRETURN gc_info_get(gc_conn *c, SQLUSMALLINT info_type, SQLPOINTER value,
                      SQLSMALLINT buffer_length, SQLSMALLINT *string_length,
                      bool wide);

#endif
