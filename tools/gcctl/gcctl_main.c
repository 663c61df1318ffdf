/*
 * gcctl: builds and changes sharded PostgreSQL clusters from a YAML spec.
 * Every command exits 0 on success; otherwise it prints one line saying why
 * and exits non-zero: 3 when it did its work but could not write the
 * catalog of some group whose primary was down (promote, reconnect: the
 * groups are named, and catch up at the next apply), 1 otherwise. See
 * docs/cluster.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcctl_local.h"
#include "gcctl_move.h"
#include "gcctl_ops.h"
#include "gcctl_resolve.h"
#include "gcctl_supervise.h"

#define MAX_ARGS 32

typedef struct cli {
    const char *positional[MAX_ARGS];
    size_t npositional;
    const char *dir, *spec, *driver, *mode, *group, *host, *to, *grace, *keep_rollbacks;
    const char *members[MAX_ARGS];
    size_t nmembers;
    int port;
    double seconds;
} cli;

static const char usage[] =
    "usage:\n"
    "  gcctl check SPEC\n"
    "  gcctl local up SPEC --dir DIR [--driver PATH]\n"
    "  gcctl local down --dir DIR\n"
    "  gcctl local stop-member NAME --dir DIR [--mode fast|immediate]\n"
    "  gcctl local start-member NAME --dir DIR\n"
    "  gcctl local supervise --dir DIR\n"
    "  gcctl apply SPEC [--dir DIR]\n"
    "  gcctl apply --dir DIR\n"
    "  gcctl status (--dir DIR | --spec FILE)\n"
    "  gcctl reconnect (--dir DIR | --spec FILE)\n"
    "  gcctl promote NAME (--dir DIR | --spec FILE)\n"
    "  gcctl add-member NAME --group G --dir DIR [--host H] [--port P]\n"
    "  gcctl add-group G --member NAME [--member NAME ...] --dir DIR [--host H]\n"
    "  gcctl move-shard TABLE SHARD --to GROUP (--dir DIR | --spec FILE)\n"
    "  gcctl resolve (--dir DIR | --spec FILE) [--grace SECONDS] [--keep-rollbacks SECONDS]\n";

static int fail(const char *msg)
{
    fprintf(stderr, "gcctl: %s\n", msg);
    return 1;
}

/* Splits argv into positionals and --options; false on an unknown option. */
static bool parse_cli(int argc, char **argv, cli *c, char *why, size_t whysize)
{
    memset(c, 0, sizeof *c);
    c->mode = "fast";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) != 0) {
            if (c->npositional == MAX_ARGS) {
                snprintf(why, whysize, "too many arguments");
                return false;
            }
            c->positional[c->npositional++] = a;
            continue;
        }
        if (i + 1 >= argc) {
            snprintf(why, whysize, "%s needs a value", a);
            return false;
        }
        const char *v = argv[++i];
        if (strcmp(a, "--dir") == 0) c->dir = v;
        else if (strcmp(a, "--spec") == 0) c->spec = v;
        else if (strcmp(a, "--driver") == 0) c->driver = v;
        else if (strcmp(a, "--mode") == 0) c->mode = v;
        else if (strcmp(a, "--group") == 0) c->group = v;
        else if (strcmp(a, "--host") == 0) c->host = v;
        else if (strcmp(a, "--to") == 0) c->to = v;
        else if (strcmp(a, "--grace") == 0) c->grace = v;
        else if (strcmp(a, "--keep-rollbacks") == 0) c->keep_rollbacks = v;
        else if (strcmp(a, "--port") == 0) c->port = atoi(v);
        else if (strcmp(a, "--member") == 0 && c->nmembers < MAX_ARGS) c->members[c->nmembers++] = v;
        else {
            snprintf(why, whysize, "unknown option %s", a);
            return false;
        }
    }
    return true;
}

static bool need(const cli *c, size_t n, const char *what, gc_error *err)
{
    if (c->npositional != n) {
        gc_error_set(err, "HY000", 0, "%s (see gcctl help)", what);
        return false;
    }
    return true;
}

/* *out = text as a number of seconds (0 to 1000000: in milliseconds it
 * still fits an int), or dflt when text is NULL; false with err naming the
 * option otherwise. */
static bool seconds_option(const char *option, const char *text, double dflt, double *out,
                           gc_error *err)
{
    *out = dflt;
    if (text == NULL)
        return true;
    char *end;
    *out = strtod(text, &end);
    if (end == text || *end != '\0' || !(*out >= 0 && *out <= 1e6)) {
        gc_error_set(err, "HY000", 0, "%s needs a number of seconds (0 to 1000000), not '%s'",
                     option, text);
        return false;
    }
    return true;
}

static bool resolve(const cli *c, gcctl_cluster *cl, gc_error *err)
{
    double grace, keep;
    return need(c, 1, "usage: gcctl resolve (--dir DIR | --spec FILE) [--grace SECONDS]", err) &&
           seconds_option("--grace", c->grace, GCCTL_RESOLVE_GRACE_S, &grace, err) &&
           seconds_option("--keep-rollbacks", c->keep_rollbacks, GCCTL_RESOLVE_KEEP_ROLLBACKS_S,
                          &keep, err) &&
           gcctl_resolve(cl, grace, keep, err);
}

static bool run_local(const cli *c, gc_error *err)
{
    const char *sub = c->npositional > 1 ? c->positional[1] : "";
    if (!c->dir) {
        gc_error_set(err, "HY000", 0, "gcctl local %s needs --dir DIR", sub);
        return false;
    }
    if (strcmp(sub, "up") == 0)
        return need(c, 3, "usage: gcctl local up SPEC --dir DIR", err) &&
               gcctl_local_up(c->positional[2], c->dir, c->driver, err);
    if (strcmp(sub, "down") == 0)
        return need(c, 2, "usage: gcctl local down --dir DIR", err) && gcctl_local_down(c->dir, err);
    if (strcmp(sub, "supervise") == 0)
        return need(c, 2, "usage: gcctl local supervise --dir DIR", err) &&
               gcctl_supervise_run(c->dir, err);
    bool stop = strcmp(sub, "stop-member") == 0;
    if (stop || strcmp(sub, "start-member") == 0) {
        if (!need(c, 3, "usage: gcctl local stop-member|start-member NAME --dir DIR", err))
            return false;
        gcctl_local l;
        bool ok = gcctl_local_open(c->dir, &l, err) &&
                  (stop ? gcctl_local_stop_member(&l, c->positional[2], c->mode, err)
                        : gcctl_local_start_member(&l, c->positional[2], err));
        gcctl_local_close(&l);
        return ok;
    }
    gc_error_set(err, "HY000", 0, "unknown command: local %s (see gcctl help)", sub);
    return false;
}

/* Runs a command on an existing cluster; *partial tells that it left out
 * groups whose primary did not answer (exit status 3). */
static bool run_on_cluster(const cli *c, const char *cmd, bool *partial, gc_error *err)
{
    gcctl_cluster cl;
    bool is_apply = strcmp(cmd, "apply") == 0;
    const char *spec_path = c->spec;
    const char *apply_path = NULL;
    if (is_apply) {
        /* gcctl apply --dir DIR: the cluster's own spec again. */
        if (!(c->dir && c->npositional == 1) &&
            !need(c, 2, "usage: gcctl apply SPEC [--dir DIR] | gcctl apply --dir DIR", err))
            return false;
        apply_path = c->npositional == 2 ? c->positional[1] : NULL;
        spec_path = c->dir ? NULL : apply_path;
    }
    if (!gcctl_cluster_open(&cl, c->dir, spec_path, err)) {
        gcctl_cluster_close(&cl);
        return false;
    }
    bool ok;
    if (is_apply)
        ok = gcctl_apply_spec(&cl, apply_path, err);
    else if (strcmp(cmd, "status") == 0)
        ok = need(c, 1, "usage: gcctl status (--dir DIR | --spec FILE)", err) && gcctl_status(&cl, err);
    else if (strcmp(cmd, "resolve") == 0)
        ok = resolve(c, &cl, err);
    else if (strcmp(cmd, "reconnect") == 0)
        ok = need(c, 1, "usage: gcctl reconnect (--dir DIR | --spec FILE)", err) && gcctl_reconnect(&cl, err);
    else if (strcmp(cmd, "promote") == 0)
        ok = need(c, 2, "usage: gcctl promote NAME", err) && gcctl_promote(&cl, c->positional[1], err);
    else if (strcmp(cmd, "add-member") == 0) {
        ok = need(c, 2, "usage: gcctl add-member NAME --group G --dir DIR", err);
        if (ok && !c->group) {
            gc_error_set(err, "HY000", 0, "add-member needs --group G");
            ok = false;
        }
        ok = ok && gcctl_add_member(&cl, c->positional[1], c->group, c->host, c->port, err);
    } else if (strcmp(cmd, "add-group") == 0)
        ok = need(c, 2, "usage: gcctl add-group G --member NAME --dir DIR", err) &&
             gcctl_add_group(&cl, c->positional[1], c->members, c->nmembers, c->host, err);
    else if (strcmp(cmd, "move-shard") == 0) {
        ok = need(c, 3, "usage: gcctl move-shard TABLE SHARD --to GROUP", err);
        if (ok && !c->to) {
            gc_error_set(err, "HY000", 0, "move-shard needs --to GROUP");
            ok = false;
        }
        ok = ok && gcctl_move_shard(&cl, c->positional[1], c->positional[2], c->to, err);
    } else {
        gc_error_set(err, "HY000", 0, "unknown command: %s (see gcctl help)", cmd);
        ok = false;
    }
    *partial = ok && cl.pending.n > 0;
    gcctl_cluster_close(&cl);
    return ok;
}

int main(int argc, char **argv)
{
    cli c;
    char why[256];
    if (!parse_cli(argc, argv, &c, why, sizeof why))
        return fail(why);
    if (c.npositional == 0 || strcmp(c.positional[0], "help") == 0 ||
        strcmp(c.positional[0], "--help") == 0) {
        fputs(usage, c.npositional == 0 ? stderr : stdout);
        return c.npositional == 0 ? 2 : 0;
    }
    gc_error err;
    gc_error_clear(&err);
    const char *cmd = c.positional[0];
    bool ok, partial = false;
    if (strcmp(cmd, "check") == 0) {
        gcctl_spec spec;
        ok = need(&c, 2, "usage: gcctl check SPEC", &err) && gcctl_spec_load(c.positional[1], &spec, &err);
        if (c.npositional == 2)
            gcctl_spec_free(&spec);
        if (ok)
            printf("%s: ok\n", c.positional[1]);
    } else if (strcmp(cmd, "local") == 0) {
        ok = run_local(&c, &err);
    } else {
        ok = run_on_cluster(&c, cmd, &partial, &err);
    }
    if (!ok)
        return fail(err.message[0] ? err.message : "failed");
    return partial ? 3 : 0;
}
