/*
 * gc_trace: the driver's trace log (LogLevel / LogFile). One per connection;
 * safe to write from several threads. Never given a password to write.
 * A line: UTC time, [process id], "gcodbc #N:" where N numbers the traces
 * (connections) of the process in the order they were opened, then text.
 */
#ifndef GC_TRACE_H
#define GC_TRACE_H

typedef enum gc_trace_level {
    GC_TRACE_OFF = 0,
    GC_TRACE_ERROR = 1,
    GC_TRACE_INFO = 2,    /* connections, routing decisions */
    GC_TRACE_DEBUG = 3,   /* every call and statement */
} gc_trace_level;

typedef struct gc_trace gc_trace;

/* Opens (appends to) path, or stderr when path is NULL or empty. Returns NULL
 * when level is OFF or the file cannot be opened: a NULL trace is valid and
 * writes nothing. Free with gc_trace_close(). */
gc_trace *gc_trace_open(const char *path, gc_trace_level level);
void gc_trace_close(gc_trace *trace);
int gc_trace_enabled(const gc_trace *trace, gc_trace_level level);
void gc_trace_write(gc_trace *trace, gc_trace_level level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
