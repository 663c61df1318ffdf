#include "util/gc_strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gc_strbuf_init(gc_strbuf *sb)
{
    sb->data = NULL;
    sb->len = 0;
    sb->cap = 0;
    sb->failed = false;
}

/* Makes room for `extra` more bytes plus the terminating NUL. */
static bool reserve(gc_strbuf *sb, size_t extra)
{
    if (sb->failed)
        return false;
    if (sb->len + extra + 1 <= sb->cap)
        return true;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < sb->len + extra + 1)
        cap *= 2;
    char *data = realloc(sb->data, cap);
    if (data == NULL) {
        sb->failed = true;
        return false;
    }
    sb->data = data;
    sb->cap = cap;
    return true;
}

bool gc_strbuf_append(gc_strbuf *sb, const char *bytes, size_t len)
{
    if (!reserve(sb, len))
        return false;
    if (len > 0)
        memcpy(sb->data + sb->len, bytes, len);
    sb->len += len;
    sb->data[sb->len] = '\0';
    return true;
}

bool gc_strbuf_append_str(gc_strbuf *sb, const char *s)
{
    return gc_strbuf_append(sb, s, strlen(s));
}

bool gc_strbuf_append_char(gc_strbuf *sb, char c)
{
    return gc_strbuf_append(sb, &c, 1);
}

bool gc_strbuf_appendf(gc_strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !reserve(sb, (size_t)n)) {
        sb->failed = true;
        return false;
    }
    va_start(ap, fmt);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb->len += (size_t)n;
    return true;
}

void gc_strbuf_reset(gc_strbuf *sb)
{
    sb->len = 0;
    if (sb->data)
        sb->data[0] = '\0';
}

char *gc_strbuf_take(gc_strbuf *sb)
{
    if (sb->failed) {
        gc_strbuf_free(sb);
        return NULL;
    }
    if (sb->data == NULL && !reserve(sb, 0))
        return NULL;
    if (sb->len == 0)
        sb->data[0] = '\0';
    char *s = sb->data;
    gc_strbuf_init(sb);
    return s;
}

void gc_strbuf_free(gc_strbuf *sb)
{
    free(sb->data);
    gc_strbuf_init(sb);
}
