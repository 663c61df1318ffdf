/*
 * gcctl_replace: how gcctl writes the files (and makes the directory) it
 * leaves for users. Some files hold secrets (cluster.yaml and a user's own
 * spec hold passwords, odbc.ini holds PWD), so a new file gets the mode its
 * caller asks for (0600 for a secret) and a rewrite keeps the mode and owner
 * the file already had: the text goes to a temporary file beside it, made
 * with that mode from the start, which then replaces the file, so a reader
 * never sees half a file and the secret is never readable by others, not
 * even for a moment.
 */
#ifndef GCCTL_REPLACE_H
#define GCCTL_REPLACE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "util/gc_error.h"

/* Modes for files gcctl creates (a rewrite keeps the existing mode). */
#define GCCTL_MODE_SECRET ((mode_t)0600)
#define GCCTL_MODE_PUBLIC ((mode_t)0644)

/* A file being replaced: write through f, then gcctl_replace_commit. */
typedef struct gcctl_replacement {
    FILE *f;
    char tmp[4096];       /* the temporary file beside the target */
    char path[4096];      /* the file it will replace */
} gcctl_replacement;

/* Opens a temporary file beside path with path's current mode and owner, or
 * new_mode when path does not exist yet. Returns false with err set. */
bool gcctl_replace_begin(gcctl_replacement *r, const char *path, mode_t new_mode, gc_error *err);

/* Closes the temporary file and renames it over the target; on any write
 * error removes it and returns false with err set. */
bool gcctl_replace_commit(gcctl_replacement *r, gc_error *err);

/* Replaces path with text (begin, write, commit). */
bool gcctl_replace_text(const char *path, const char *text, mode_t new_mode, gc_error *err);

/* Creates directory dir with mode (exact, whatever the umask) and any
 * missing parents as mkdir -p would (0777 less the umask). An existing dir
 * is left as it is. Returns false with err set ("cannot create ..."). */
bool gcctl_make_dirs(const char *dir, mode_t mode, gc_error *err);

#endif
