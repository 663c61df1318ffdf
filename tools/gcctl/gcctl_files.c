/*
 * The files a local cluster leaves in DIR for users and tools:
 * cluster.yaml (the spec with real ports), locator.yaml (members for the
 * driver), odbc.ini and odbcinst.ini (a DSN named after the cluster, so that
 * ODBCSYSINI=DIR isql <cluster> connects through gcodbc). cluster.yaml and
 * odbc.ini hold passwords: created 0600 (see gcctl_replace.h).
 */
#define _GNU_SOURCE
#include "gcctl_local.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gcctl_replace.h"

/* Where the driver is when the caller does not say: gcctl is built into
 * <build>/tools/gcctl/ and the driver into <build>/src/; an installed gcctl
 * in <prefix>/bin finds <prefix>/lib. Fills buf with the first that exists,
 * else the build-tree guess. */
static void guess_driver(char *buf, size_t size)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        snprintf(buf, size, "libgcodbc.so");
        return;
    }
    exe[n] = '\0';
    char *dir = dirname(exe);
    static const char *const rel[] = { "../../src/libgcodbc.so", "libgcodbc.so", "../lib/libgcodbc.so" };
    char candidate[PATH_MAX + 64], resolved[PATH_MAX];
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        snprintf(candidate, sizeof candidate, "%s/%s", dir, rel[i]);
        if (realpath(candidate, resolved)) {
            snprintf(buf, size, "%s", resolved);
            return;
        }
    }
    /* Last resort: the build-tree guess, even if no file is there yet; the
     * driver manager then names the missing file, the clearest report. */
    static const char lib[] = "/libgcodbc.so";
    snprintf(candidate, sizeof candidate, "%s/../../src", dir);
    const char *base = realpath(candidate, resolved) ? resolved : candidate;
    if (strlen(base) + sizeof lib <= size) {
        memcpy(buf, base, strlen(base));
        memcpy(buf + strlen(base), lib, sizeof lib);
    } else {
        snprintf(buf, size, "libgcodbc.so");
    }
}

/* The driver path in an existing odbcinst.ini, so rewrites keep it. */
static bool driver_from_ini(const char *dir, char *buf, size_t size)
{
    char path[1200], line[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/odbcinst.ini", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "Driver = ", 9) == 0)
            found = (size_t)snprintf(buf, size, "%s", line + 9) < size;
    }
    fclose(f);
    return found;
}

bool gcctl_local_write_files(gcctl_local *l, const char *driver, gc_error *err)
{
    char path[1200], driver_path[PATH_MAX], absdir[PATH_MAX];
    if (driver) {
        if (!realpath(driver, driver_path))
            snprintf(driver_path, sizeof driver_path, "%s", driver);
    } else if (!driver_from_ini(l->dir, driver_path, sizeof driver_path)) {
        guess_driver(driver_path, sizeof driver_path);
    }
    if (!realpath(l->dir, absdir))
        snprintf(absdir, sizeof absdir, "%s", l->dir);

    snprintf(path, sizeof path, "%s/cluster.yaml", l->dir);
    if (!gcctl_spec_write(&l->spec, path, err))
        return false;
    snprintf(path, sizeof path, "%s/locator.yaml", l->dir);
    if (!gcctl_spec_write_locator(&l->spec, path, err))
        return false;

    gc_strbuf sb;
    gc_strbuf_init(&sb);
    gc_strbuf_appendf(&sb, "[gcodbc]\nDescription = gcodbc, ODBC driver for sharded PostgreSQL clusters\n"
                           "Driver = %s\n", driver_path);
    char *text = gcctl_sb_take(&sb);
    snprintf(path, sizeof path, "%s/odbcinst.ini", l->dir);
    bool ok = gcctl_replace_text(path, text, GCCTL_MODE_PUBLIC, err);
    free(text);
    if (!ok)
        return false;

    gc_strbuf_init(&sb);
    gc_strbuf_appendf(&sb, "[%s]\nDescription = local cluster %s (written by gcctl)\nDriver = %s\nServers = ",
                      l->spec.cluster, l->spec.cluster, driver_path);
    bool first = true;
    for (size_t i = 0; i < l->spec.nmembers; i++) {
        const gcctl_member *m = &l->spec.members[i];
        if (!m->is_primary)
            continue;
        gc_strbuf_appendf(&sb, "%s%s:%d", first ? "" : ",", m->host, m->port);
        first = false;
    }
    gc_strbuf_appendf(&sb, "\nDatabase = %s\nUID = %s\nPWD = %s\nGlobalConnection = Yes\n"
                           "Locator = %s/locator.yaml\n",
                      l->spec.database, l->spec.user, l->spec.password, absdir);
    text = gcctl_sb_take(&sb);
    snprintf(path, sizeof path, "%s/odbc.ini", l->dir);
    ok = gcctl_replace_text(path, text, GCCTL_MODE_SECRET, err);   /* PWD */
    free(text);
    return ok;
}
