/*
 * gc_refcursor: FetchRefcursors=Yes, psqlODBC's key. A function or procedure
 * that opens cursors returns their names (refcursor columns); with the key
 * on, the driver reads each cursor named in the result (FETCH ALL, rows in
 * order, columns left to right) and those rows become the statement's
 * result sets in place of the names: the first at once, the others through
 * SQLMoreResults. docs/cursors.md, "Refcursors".
 */
#ifndef GC_REFCURSOR_H
#define GC_REFCURSOR_H

#include "core/gc_stmt.h"

/* After an execution whose output parameters were taken: does nothing
 * unless FetchRefcursors is on and the result has refcursor columns. Then
 * replaces the result by the cursors' rows; HY000 with autocommit on (the
 * cursors closed with the statement's transaction), the server's error
 * when a FETCH fails. */
SQLRETURN gc_refcursor_after_exec(gc_stmt *s);

#endif
