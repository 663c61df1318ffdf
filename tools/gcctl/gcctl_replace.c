/*
 * gcctl_replace: see gcctl_replace.h.
 */
#define _GNU_SOURCE
#include "gcctl_replace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool gcctl_replace_begin(gcctl_replacement *r, const char *path, mode_t new_mode, gc_error *err)
{
    memset(r, 0, sizeof *r);
    if ((size_t)snprintf(r->path, sizeof r->path, "%s", path) >= sizeof r->path ||
        (size_t)snprintf(r->tmp, sizeof r->tmp, "%s.XXXXXX", path) >= sizeof r->tmp) {
        gc_error_set(err, "HY000", 0, "cannot write %s: path too long", path);
        return false;
    }
    struct stat st;
    bool exists = stat(path, &st) == 0 && S_ISREG(st.st_mode);
    mode_t mode = exists ? (st.st_mode & 07777) : new_mode;
    /* mkstemp makes the file 0600, so the text is never more readable than
     * that; fchmod then sets the exact mode, whatever the umask says. */
    int fd = mkstemp(r->tmp);
    if (fd < 0) {
        gc_error_set(err, "HY000", 0, "cannot write %s: %s", r->tmp, strerror(errno));
        return false;
    }
    bool ok = fchmod(fd, mode) == 0;
    /* A root gcctl rewriting a user's file leaves it theirs. */
    if (ok && exists && geteuid() == 0 && (st.st_uid != 0 || st.st_gid != 0))
        ok = fchown(fd, st.st_uid, st.st_gid) == 0;
    if (ok)
        r->f = fdopen(fd, "w");
    if (!r->f) {
        gc_error_set(err, "HY000", 0, "cannot write %s: %s", r->tmp, strerror(errno));
        close(fd);
        unlink(r->tmp);
        return false;
    }
    return true;
}

bool gcctl_replace_commit(gcctl_replacement *r, gc_error *err)
{
    bool ok = !ferror(r->f);
    ok = (fclose(r->f) == 0) && ok;
    r->f = NULL;
    if (ok && rename(r->tmp, r->path) != 0)
        ok = false;
    if (!ok) {
        gc_error_set(err, "HY000", 0, "cannot write %s: %s", r->path, strerror(errno));
        unlink(r->tmp);
    }
    return ok;
}

bool gcctl_replace_text(const char *path, const char *text, mode_t new_mode, gc_error *err)
{
    gcctl_replacement r;
    if (!gcctl_replace_begin(&r, path, new_mode, err))
        return false;
    fputs(text, r.f);
    return gcctl_replace_commit(&r, err);
}

/* mkdir for one level; an existing directory is fine. */
static bool make_one_dir(const char *dir, mode_t mode, gc_error *err)
{
    if (mkdir(dir, mode) == 0)
        return true;
    struct stat st;
    if (errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
        return true;
    if (errno == EEXIST)
        errno = ENOTDIR;
    gc_error_set(err, "HY000", 0, "cannot create %s: %s", dir, strerror(errno));
    return false;
}

bool gcctl_make_dirs(const char *dir, mode_t mode, gc_error *err)
{
    char *path = strdup(dir);
    if (!path) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    bool ok = true;
    /* Each parent in turn, as mkdir -p: cut the path at every '/' after the
     * first character (a leading '/' is the root). */
    for (char *slash = strchr(path + 1, '/'); ok && slash; slash = strchr(slash + 1, '/')) {
        if (slash[1] == '\0' || slash[-1] == '/')
            continue;
        *slash = '\0';
        ok = make_one_dir(path, 0777, err);
        *slash = '/';
    }
    struct stat st;
    bool existed = stat(dir, &st) == 0;
    if (ok)
        ok = make_one_dir(dir, mode, err);
    /* mkdir's mode passes through the umask; the one we make gets it exact. */
    if (ok && !existed && chmod(dir, mode) != 0) {
        gc_error_set(err, "HY000", 0, "cannot create %s: %s", dir, strerror(errno));
        ok = false;
    }
    free(path);
    return ok;
}
