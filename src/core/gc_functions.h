/*
 * gc_functions: SQLGetFunctions.
 */
#ifndef GC_FUNCTIONS_H
#define GC_FUNCTIONS_H

#include <sql.h>
#include <sqlext.h>

#include "core/gc_conn.h"

/* SQLGetFunctions: SQL_API_ODBC3_ALL_FUNCTIONS (bitmap),
 * SQL_API_ALL_FUNCTIONS (100-element array) or one function id. True
 * exactly for the entry points libgcodbc.so exports (gc_functions.c keeps the
 * list; a test compares it with the library's symbols). */
SQLRETURN gc_functions_get(gc_conn *c, SQLUSMALLINT function_id,
                           SQLUSMALLINT *supported);

#endif
