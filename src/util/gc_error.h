/*
 * gc_error: an error as a value. Every layer reports failure by filling one
 * of these; the ODBC layer turns it into a diagnostic record. No layer prints.
 */
#ifndef GC_ERROR_H
#define GC_ERROR_H

#include <stdarg.h>
#include <stdbool.h>

#define GC_ERROR_MESSAGE_MAX 1024

/* psqlODBC's native error numbers for what the server said, which programs
 * moving from it compare (docs/sqlstates.md). */
#define GC_NATIVE_STATEMENT_ERROR 1      /* a server error a statement's call met */
#define GC_NATIVE_CONNECTION_LOST 35     /* a FATAL server error: the session is gone */
#define GC_NATIVE_CONNECT_FAILED 101     /* libpq could not connect */
#define GC_NATIVE_SERVER_ERROR 110       /* a server error a connection's call met */
#define GC_NATIVE_NOTICE (-1)            /* the server's notices of one call */

/* What psqlODBC adds to the message of an error that ended the session. */
#define GC_CONNECTION_LOST_TEXT "The connection has been lost"
/* 40000's text: a COMMIT found the transaction aborted by a failed statement. */
#define GC_ROLLED_BACK_AT_COMMIT_TEXT \
    "the transaction was rolled back because a statement in it failed; nothing was committed"

typedef struct gc_error {
    char sqlstate[6];                    /* five characters and NUL; "" = no error */
    int native;                          /* native error code, 0 when none */
    char message[GC_ERROR_MESSAGE_MAX];  /* as the application reads it */
} gc_error;

void gc_error_clear(gc_error *err);
bool gc_error_is_set(const gc_error *err);

/* Sets sqlstate, native code and a printf-style message; truncates long ones. */
void gc_error_set(gc_error *err, const char *sqlstate, int native,
                  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Whether a server error of this severity (the non-localized field: FATAL,
 * PANIC) ended the session; NULL for none. */
bool gc_error_severity_ends_session(const char *severity);

void gc_error_setv(gc_error *err, const char *sqlstate, int native,
                   const char *fmt, va_list ap) __attribute__((format(printf, 4, 0)));

#endif
