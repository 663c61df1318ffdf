#include "util/gc_trace.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

struct gc_trace {
    FILE *file;
    int owns_file;          /* false for stderr */
    gc_trace_level level;
    unsigned number;        /* which trace of the process: tells the lines of
                               connections sharing one file apart */
    pthread_mutex_t lock;   /* keeps lines from interleaving */
};

static atomic_uint traces_opened;

/* Opens path for appending; a new file is 0600 whatever the umask allows,
 * because a trace holds SQL text and the values in it. An existing file
 * keeps its mode (the user chose it). NULL when it cannot be opened. */
static FILE *open_private_for_append(const char *path)
{
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, S_IRUSR | S_IWUSR);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "a");
    if (f == NULL)
        close(fd);
    return f;
}

gc_trace *gc_trace_open(const char *path, gc_trace_level level)
{
    if (level <= GC_TRACE_OFF)
        return NULL;
    gc_trace *trace = calloc(1, sizeof *trace);
    if (trace == NULL)
        return NULL;
    if (path != NULL && path[0] != '\0') {
        trace->file = open_private_for_append(path);
        trace->owns_file = 1;
    } else {
        trace->file = stderr;
    }
    if (trace->file == NULL) {
        free(trace);
        return NULL;
    }
    trace->level = level;
    trace->number = atomic_fetch_add(&traces_opened, 1) + 1;
    pthread_mutex_init(&trace->lock, NULL);
    return trace;
}

void gc_trace_close(gc_trace *trace)
{
    if (trace == NULL)
        return;
    if (trace->owns_file)
        fclose(trace->file);
    pthread_mutex_destroy(&trace->lock);
    free(trace);
}

int gc_trace_enabled(const gc_trace *trace, gc_trace_level level)
{
    return trace != NULL && level <= trace->level;
}

void gc_trace_write(gc_trace *trace, gc_trace_level level, const char *fmt, ...)
{
    if (!gc_trace_enabled(trace, level))
        return;
    struct timeval now;
    gettimeofday(&now, NULL);
    struct tm tm;
    gmtime_r(&now.tv_sec, &tm);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);

    pthread_mutex_lock(&trace->lock);
    fprintf(trace->file, "%s.%06ldZ [%d] gcodbc #%u: ", stamp, (long)now.tv_usec,
            (int)getpid(), trace->number);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(trace->file, fmt, ap);
    va_end(ap);
    fputc('\n', trace->file);
    fflush(trace->file);
    pthread_mutex_unlock(&trace->lock);
}
