#include "util/gc_error.h"

#include <stdio.h>
#include <string.h>

void gc_error_clear(gc_error *err)
{
    err->sqlstate[0] = '\0';
    err->native = 0;
    err->message[0] = '\0';
}

bool gc_error_is_set(const gc_error *err)
{
    return err->sqlstate[0] != '\0';
}

void gc_error_setv(gc_error *err, const char *sqlstate, int native,
                   const char *fmt, va_list ap)
{
    snprintf(err->sqlstate, sizeof err->sqlstate, "%s", sqlstate);
    err->native = native;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
}

void gc_error_set(gc_error *err, const char *sqlstate, int native,
                  const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gc_error_setv(err, sqlstate, native, fmt, ap);
    va_end(ap);
}

bool gc_error_severity_ends_session(const char *severity)
{
    return severity != NULL && (strcmp(severity, "FATAL") == 0 || strcmp(severity, "PANIC") == 0);
}
