/*
 * gc_strbuf: a growable byte string, always NUL-terminated. An allocation
 * failure is remembered (failed = true) and makes later appends no-ops, so a
 * caller checks once at the end instead of after every append.
 */
#ifndef GC_STRBUF_H
#define GC_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct gc_strbuf {
    char *data;    /* NUL-terminated; NULL until the first append */
    size_t len;
    size_t cap;
    bool failed;   /* an allocation failed; contents are incomplete */
} gc_strbuf;

void gc_strbuf_init(gc_strbuf *sb);
bool gc_strbuf_append(gc_strbuf *sb, const char *bytes, size_t len);
bool gc_strbuf_append_str(gc_strbuf *sb, const char *s);
bool gc_strbuf_append_char(gc_strbuf *sb, char c);
bool gc_strbuf_appendf(gc_strbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void gc_strbuf_reset(gc_strbuf *sb);   /* len = 0, keeps the memory */
/* Hands the string to the caller (who frees it); the buffer becomes empty.
 * Returns NULL when an allocation failed. Never NULL for an empty success. */
char *gc_strbuf_take(gc_strbuf *sb);
void gc_strbuf_free(gc_strbuf *sb);

#endif
