/*
 * gc_diag: the diagnostics area of one handle (SQLGetDiagRec/Field).
 * Messages carry no vendor prefix, as psqlODBC's; the server's are worded
 * as psqlODBC words them (gc_diag.c).
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
    char *message;          /* owned, as the application reads it */
    SQLLEN row_number;      /* SQL_NO_ROW_NUMBER when not row-specific */
    SQLINTEGER column_number;
    unsigned arrival;       /* the order records came in, whatever their rank */
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
    unsigned arrivals;           /* records come in since the last clear */
} gc_diag;

void gc_diag_init(gc_diag *d);
void gc_diag_clear(gc_diag *d);     /* at the start of every ODBC call */
void gc_diag_free(gc_diag *d);
/* Adds a record; out-of-memory loses the record, never crashes. */
void gc_diag_add(gc_diag *d, const char *sqlstate, SQLINTEGER native,
                 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* An error as a record: its SQLSTATE, native error and message as they
 * are (the driver's words, or the server's and libpq's as psqlODBC passes
 * them on). */
void gc_diag_add_error(gc_diag *d, const gc_error *err);
/* The same, about row `row` (1-based) and column `column` of an array
 * operation. Records are kept in ODBC's order: by row, then errors before
 * warnings. */
void gc_diag_add_error_at(gc_diag *d, const gc_error *err, SQLLEN row, SQLINTEGER column);
/* A server error, worded as psqlODBC words it (docs/sqlstates.md):
 * "<severity>: <primary>[\nDETAIL: <detail>]", then ";\n<context>" when
 * context is given (what the statement's call was doing; NULL: a
 * connection's call); a FATAL error says the connection has been lost. A
 * HINT follows as a further record. About row `row` (1-based) of a
 * parameter array, or SQL_NO_ROW_NUMBER. */
/* What the statement's call was doing, in psqlODBC's words. */
#define GC_CONTEXT_EXECUTE "Error while executing the query"
#define GC_CONTEXT_PREPARE "Error while preparing parameters"    /* SQLExecute's parse */
#define GC_CONTEXT_DESCRIBE "No query has been executed with that handle"
#define GC_CONTEXT_FETCH "Error while fetching the next result"
void gc_diag_add_server_error(gc_diag *d, const PGresult *res, const char *context, SQLLEN row);
/* The same for a connection's call (no context, no row). */
void gc_diag_add_result(gc_diag *d, const PGresult *res);
/* At the end of a statement's call: the server errors that reached its
 * area worded for a connection's call (native GC_NATIVE_SERVER_ERROR: the
 * paths that carry a gc_error, as the global connection's) become the
 * statement's, with the context line and native GC_NATIVE_STATEMENT_ERROR. */
void gc_diag_end_statement_call(gc_diag *d, const char *context);
/* Moves every record of `from` into `to`; those about no row become
 * about row `row` (1-based). `from` is left empty. */
void gc_diag_move_at(gc_diag *to, gc_diag *from, SQLLEN row);
/* A step whose records must be told apart from those d has:
 * gc_diag_set_aside moves d's area into *kept and leaves d empty;
 * gc_diag_take_back makes *kept d's area again and moves what the step
 * added to `to` (d itself, another area; NULL drops it), those about no
 * row becoming about row `row`. It says whether the step added a record. */
void gc_diag_set_aside(gc_diag *d, gc_diag *kept);
bool gc_diag_take_back(gc_diag *d, gc_diag *kept, gc_diag *to, SQLLEN row);
/* A server notice (NOTICE, WARNING, INFO) as a record with the server's
 * own SQLSTATE (01000 when it has none), worded as psqlODBC words it:
 * "<severity>: <message>", native error -1. */
void gc_diag_add_notice(gc_diag *d, const char *sqlstate, const char *severity, const char *message);
/* Makes the notices of one call one record, as psqlODBC reports them: their
 * texts joined with ';' in the order they came, under the last one's
 * SQLSTATE (one record per row for a parameter array's rows). Called when
 * the call returns, after whatever dropped repeated notices. */
void gc_diag_join_notices(gc_diag *d);
/* Drops the records from index `from` on that repeat an earlier one of them
 * word for word (SQLSTATE, native code, message), keeping the first: the
 * same notice from every group of a cluster-wide statement is said once. */
void gc_diag_drop_repeats(gc_diag *d, int from);
/* Drops the records about rows after row (1-based; a parameter array's
 * rows that in the end did not run). */
void gc_diag_drop_rows_after(gc_diag *d, SQLLEN row);
bool gc_diag_has_records(const gc_diag *d);
/* Whether a record of d has the SQLSTATE sqlstate. */
bool gc_diag_has_sqlstate(const gc_diag *d, const char *sqlstate);

/* SQL_DIAG_CLASS_ORIGIN / SQL_DIAG_SUBCLASS_ORIGIN of a SQLSTATE:
 * "ISO 9075" or "ODBC 3.0" (static strings). */
const char *gc_diag_class_origin(const char *sqlstate);
const char *gc_diag_subclass_origin(const char *sqlstate);

#endif
