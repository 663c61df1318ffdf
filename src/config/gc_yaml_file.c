/*
 * gc_yaml_file: see gc_yaml_file.h.
 */
#define _GNU_SOURCE
#include "config/gc_yaml_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reads fd to its end (at most max_bytes) into a new NUL-terminated
 * buffer; NULL with problem set. */
static char *read_all(int fd, size_t max_bytes, size_t *len, char *problem, size_t problem_size)
{
    char *text = NULL;
    size_t used = 0, cap = 0;
    for (;;) {
        if (used + 1 >= cap) {   /* room for one more byte and the NUL */
            size_t grown_cap = cap ? cap * 2 : 4096;
            if (grown_cap > max_bytes + 2)
                grown_cap = max_bytes + 2;
            char *grown = grown_cap > cap ? realloc(text, grown_cap) : NULL;
            if (grown == NULL) {
                snprintf(problem, problem_size, "larger than %zu bytes or out of memory", max_bytes);
                free(text);
                return NULL;
            }
            text = grown;
            cap = grown_cap;
        }
        ssize_t n = read(fd, text + used, cap - used - 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            snprintf(problem, problem_size, "cannot read: %s", strerror(errno));
            free(text);
            return NULL;
        }
        if (n == 0)
            break;
        used += (size_t)n;
    }
    if (used > max_bytes) {
        snprintf(problem, problem_size, "larger than %zu bytes or out of memory", max_bytes);
        free(text);
        return NULL;
    }
    text[used] = '\0';
    *len = used;
    return text;
}

char *gc_yaml_file_read(const char *path, size_t max_bytes, size_t *len,
                        char *problem, size_t problem_size)
{
    /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
     * writer, forever; with it the open returns and fstat tells. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(problem, problem_size, "cannot open: %s", strerror(errno));
        return NULL;
    }
    struct stat st;
    char *text = NULL;
    if (fstat(fd, &st) != 0)
        snprintf(problem, problem_size, "cannot read: %s", strerror(errno));
    else if (!S_ISREG(st.st_mode))
        snprintf(problem, problem_size, "is not a regular file (%s)",
                 S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISDIR(st.st_mode) ? "a directory"
                 : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "a socket");
    else if ((unsigned long long)st.st_size > max_bytes)
        snprintf(problem, problem_size, "larger than %zu bytes or out of memory", max_bytes);
    else
        text = read_all(fd, max_bytes, len, problem, problem_size);
    close(fd);
    return text;
}

bool gc_yaml_depth_within(const char *text, size_t len, int max_depth, yaml_mark_t *where)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return true;   /* out of memory: the loader will say so */
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    int depth = 0;
    bool within = true, done = false;
    while (within && !done) {
        yaml_event_t event;
        if (!yaml_parser_parse(&parser, &event))
            break;
        switch (event.type) {
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            if (++depth > max_depth) {
                *where = event.start_mark;
                within = false;
            }
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            depth--;
            break;
        case YAML_DOCUMENT_END_EVENT:   /* the loader reads the first document only */
        case YAML_STREAM_END_EVENT:
            done = true;
            break;
        default:
            break;
        }
        yaml_event_delete(&event);
    }
    yaml_parser_delete(&parser);
    return within;
}
