/*
 * gc_diag: the diagnostics area of one handle (SQLGetDiagRec/Field).
 * Messages are stored with the "[gcodbc]" prefix as ODBC shows them.
 */
#ifndef GC_DIAG_H
#define GC_DIAG_H

#include <libpq-fe.h>
#include <sql.h>
#include <sqlext.h>
#include <stdbool.h>

#include "util/gc_error.h"

typedef struct gc_diag_record {
    char sqlstate[6];
    SQLINTEGER native;
    char *message;          /* owned; prefixed "[gcodbc]" */
    SQLLEN row_number;      /* SQL_NO_ROW_NUMBER when not row-specific */
    SQLINTEGER column_number;
} gc_diag_record;

typedef struct gc_diag {
    gc_diag_record *records;
    int count;
    int capacity;
    SQLRETURN return_code;       /* SQL_DIAG_RETURNCODE of the last call */
    SQLLEN row_count;            /* SQL_DIAG_ROW_COUNT */
    SQLLEN cursor_row_count;     /* SQL_DIAG_CURSOR_ROW_COUNT */
    const char *dynamic_function;       /* SQL_DIAG_DYNAMIC_FUNCTION, static string */
    SQLINTEGER dynamic_function_code;
} gc_diag;

void gc_diag_init(gc_diag *d);
void gc_diag_clear(gc_diag *d);     /* at the start of every ODBC call */
void gc_diag_free(gc_diag *d);
/* Adds a record; out-of-memory loses the record, never crashes. */
void gc_diag_add(gc_diag *d, const char *sqlstate, SQLINTEGER native,
                 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void gc_diag_add_error(gc_diag *d, const gc_error *err);
/* The same, about row `row` (1-based) and column `column` of an array
 * operation. Records are kept in ODBC's order: by row, then errors before
 * warnings. */
void gc_diag_add_error_at(gc_diag *d, const gc_error *err, SQLLEN row, SQLINTEGER column);
/* The server's SQLSTATE and message (with DETAIL and HINT when present). */
void gc_diag_add_result(gc_diag *d, const PGresult *res);
/* The same, about row `row` (1-based) of a parameter array. */
void gc_diag_add_result_at(gc_diag *d, const PGresult *res, SQLLEN row);
/* Moves every record of `from` into `to`; those about no row become
 * about row `row` (1-based). `from` is left empty. */
void gc_diag_move_at(gc_diag *to, gc_diag *from, SQLLEN row);
/* A server notice (NOTICE, WARNING, INFO) as an 01000 record worded as
 * psqlODBC words it: "<severity>: <message>", native error -1. */
void gc_diag_add_notice(gc_diag *d, const char *sqlstate, const char *severity,
                        const char *message);
/* Drops the records from index `from` on that repeat an earlier one of them
 * word for word (SQLSTATE, native code, message), keeping the first: the
 * same notice from every group of a cluster-wide statement is said once. */
void gc_diag_drop_repeats(gc_diag *d, int from);
bool gc_diag_has_records(const gc_diag *d);

/* SQL_DIAG_CLASS_ORIGIN / SQL_DIAG_SUBCLASS_ORIGIN of a SQLSTATE:
 * "ISO 9075" or "ODBC 3.0" (static strings). */
const char *gc_diag_class_origin(const char *sqlstate);
const char *gc_diag_subclass_origin(const char *sqlstate);

#endif
