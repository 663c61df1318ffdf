/*
 * gc_yaml_file: the guards every YAML file gcodbc and gcctl read goes
 * through before libyaml's document loader sees it (the locator file, a
 * cluster spec). Only a regular file is read, so a FIFO or a device named
 * by mistake (or on purpose) cannot block the reader; its size is capped;
 * and its nesting depth is bounded, because libyaml's time grows with the
 * square of the depth (a 100 KB file of '[' took 52 s to fail).
 */
#ifndef GC_YAML_FILE_H
#define GC_YAML_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include <yaml.h>

/* Deeper than this is no file of ours: a locator is 3 levels deep, a spec 7. */
#define GC_YAML_MAX_DEPTH 32

/* Reads the regular file at path, at most max_bytes, into a new buffer the
 * caller frees (NUL-terminated; *len excludes the NUL). Returns NULL with
 * problem filled with what went wrong ("cannot open: ...", "is not a
 * regular file", "larger than N bytes", ...). Never blocks on a FIFO. */
char *gc_yaml_file_read(const char *path, size_t max_bytes, size_t *len,
                        char *problem, size_t problem_size);

/* True when the first YAML document in text[0..len) nests collections at
 * most max_depth deep; false with *where set at the collection that goes
 * deeper. Reads only as far as that point. A syntax error counts as within
 * the bound: the loader reports it, having read no deeper than this did. */
bool gc_yaml_depth_within(const char *text, size_t len, int max_depth, yaml_mark_t *where);

#endif
