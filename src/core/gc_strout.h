/*
 * gc_strout: returning a UTF-8 string to an application buffer, as ANSI
 * (SQLCHAR, bytes) or wide (SQLWCHAR, UTF-16), with ODBC's truncation rules:
 * the buffer always gets a NUL when it has room for one, the full length is
 * always reported, and truncation adds 01004 to the diagnostics.
 *
 * ODBC counts some lengths in characters (SQLGetDiagRecW, SQLDescribeColW,
 * SQLGetConnectAttrW...) and others in bytes (SQLGetInfoW, SQLColAttributeW,
 * SQLGetData): the caller says which.
 */
#ifndef GC_STROUT_H
#define GC_STROUT_H

#include <sql.h>
#include <sqlext.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/gc_diag.h"

typedef enum gc_len_unit {
    GC_LEN_BYTES,     /* buffer size and reported length in bytes */
    GC_LEN_CHARS,     /* in characters: bytes for ANSI, UTF-16 units for wide */
} gc_len_unit;

/* Where a string goes: the application's buffer and how it measures it. */
typedef struct gc_strout {
    SQLPOINTER buffer;        /* may be NULL: only the length is reported */
    SQLLEN buffer_length;     /* in `unit` */
    bool wide;                /* SQLWCHAR (UTF-16) instead of SQLCHAR (UTF-8) */
    gc_len_unit unit;
} gc_strout;

/* Writes s (UTF-8, NUL-terminated, NULL = "") to out; *full_length gets the
 * length of the whole string in out's unit, excluding the NUL.
 * Returns SQL_SUCCESS, SQL_SUCCESS_WITH_INFO after adding 01004 to diag when
 * truncated, or SQL_ERROR (HY090 for a negative buffer length). */
SQLRETURN gc_strout_put(const gc_strout *out, const char *s, SQLLEN *full_length,
                        gc_diag *diag);
/* The same for output length pointers of type SQLSMALLINT / SQLINTEGER (may be NULL). */
SQLRETURN gc_strout_put_small(const gc_strout *out, const char *s,
                              SQLSMALLINT *full_length, gc_diag *diag);
SQLRETURN gc_strout_put_int(const gc_strout *out, const char *s,
                            SQLINTEGER *full_length, gc_diag *diag);

#endif
