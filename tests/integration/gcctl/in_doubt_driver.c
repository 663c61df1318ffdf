/* The driver's in-doubt resolution (gc_in_doubt_resolve_group) through a
 * real global connection to the demo cluster: connects with the seeds
 * given, checks the refusals (a pinned transaction: HY010; the group's
 * primary session closed: 08S01), then resolves group GROUP with the grace
 * given and prints the counts as
 * "committed=N rolled_back=N left=N young=N ms=N" for resolve_driver.sh,
 * which made the prepared transactions and checks the servers.
 * With "measure", then times 200 more calls, which find nothing they can
 * resolve (one round trip each).
 * usage: in_doubt_driver SERVERS GROUP GRACE_MS [measure] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config/gc_settings.h"
#include "global/gc_global_internal.h"   /* pins a transaction by hand */
#include "global/gc_in_doubt.h"

static void die(const char *what, const gc_error *err)
{
    fprintf(stderr, "FAIL: %s: %s %s\n", what, err ? err->sqlstate : "",
            err ? err->message : "");
    exit(1);
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The open member of group whose session is its primary; exits when none. */
static int primary_of(gc_global *g, int group)
{
    const gc_topology *t = gc_global_topology(g);
    for (int i = 0; i < t->n_members; i++)
        if (t->members[i].group == group && gc_member_is_open(gc_global_member(g, i)) &&
            gc_member_get_role(gc_global_member(g, i)) == GC_ROLE_PRIMARY)
            return i;
    die("no open primary in the group", NULL);
    return -1;
}

/* Calls the resolution expecting a refusal with sqlstate. */
static void expect_refusal(gc_global *g, int group, const char *sqlstate, const char *why)
{
    gc_in_doubt_counts counts;
    gc_error err;
    if (gc_in_doubt_resolve_group(g, group, 0, &counts, &err))
        die(why, NULL);
    if (strcmp(err.sqlstate, sqlstate) != 0)
        die(why, &err);
    printf("ok: %s: %s %s\n", why, err.sqlstate, err.message);
}

int main(int argc, char **argv)
{
    if (argc != 4 && !(argc == 5 && strcmp(argv[4], "measure") == 0)) {
        fprintf(stderr, "usage: in_doubt_driver SERVERS GROUP GRACE_MS [measure]\n");
        return 2;
    }
    gc_settings s;
    gc_settings_init(&s);
    gc_error err;
    gc_error_clear(&err);
    if (!gc_settings_set(&s, "Servers", argv[1], NULL, &err) ||
        !gc_settings_set(&s, "GlobalConnection", "Yes", NULL, &err))
        die("settings", &err);
    gc_global_options opt = {
        .settings = &s,
        .member = { .dbname = "app", .user = "app", .password = "app", .connect_timeout_s = 5 },
    };
    gc_global_connect_warnings warnings;
    gc_global *g = gc_global_connect(&opt, &err, &warnings);
    if (g == NULL)
        die("connect", &err);
    int group = gc_topology_group_index(gc_global_topology(g), argv[2]);
    if (group < 0)
        die("no such group", NULL);

    int p = primary_of(g, group);
    gc_global_pin(g, p);
    expect_refusal(g, group, "HY010", "refused inside a transaction");
    gc_global_release_pin(g);
    gc_member_close(gc_global_member(g, p));
    expect_refusal(g, group, "08S01", "refused without the group's primary session");
    if (!gc_global_open_member(g, p, NULL, &err))
        die("reopen", &err);

    gc_in_doubt_counts counts;
    long long start = now_ms();
    if (!gc_in_doubt_resolve_group(g, group, atoi(argv[3]), &counts, &err))
        die("resolve", &err);
    printf("committed=%d rolled_back=%d left=%d young=%d ms=%lld\n", counts.committed,
           counts.rolled_back, counts.left, counts.young, now_ms() - start);
    /* What a call costs when nothing more can be done (one round trip):
     * the price of calling it at every catalog-version check. */
    enum { CALLS = 200 };
    if (argc == 5) {
        start = now_ms();
        for (int k = 0; k < CALLS; k++)
            if (!gc_in_doubt_resolve_group(g, group, atoi(argv[3]), &counts, &err))
                die("repeated resolve", &err);
        double call_ms = (double)(now_ms() - start) / CALLS;
        /* Against the cheapest round trip on the same session. */
        gc_member *m = gc_global_member(g, primary_of(g, group));
        start = now_ms();
        for (int k = 0; k < CALLS; k++) {
            PGresult *r = gc_member_exec(m, "SELECT 1", &err);
            if (r == NULL)
                die("SELECT 1", &err);
            PQclear(r);
        }
        printf("call with nothing to resolve: %.3f ms, SELECT 1: %.3f ms (means of %d)\n",
               call_ms, (double)(now_ms() - start) / CALLS, CALLS);
    }
    gc_global_destroy(g);
    gc_settings_free(&s);
    return 0;
}
