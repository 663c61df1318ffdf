/*
 * transfer: times money transfers between two accounts, both in one group
 * or in two groups, with THREADS client threads (one session each),
 * through one client (run.sh starts the cluster and runs this for each
 * client, kind, thread count and repetition).
 *
 *   transfer odbc  CONNSTR       same|cross THREADS OPS OWNERS [check]
 *   transfer libpq CONNINFO_FILE same|cross THREADS OPS OWNERS [check]
 *
 * check: each transfer reads its two balances back before COMMIT.
 * OWNERS lists "id group" per account (bench_owners.h); CONNINFO_FILE holds
 * one "NAME conninfo" line per group primary, in group index order. OPS
 * transfers are shared out over the threads. Prints one line: "<transfers
 * per second> <transfers> <seconds> <client CPU microseconds per
 * transfer>". The accounts are a fixed pseudo-random walk, a different
 * stretch per thread, the same in every run: for "same" the second account
 * is in the first one's group, for "cross" in another group.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench_threads.h"
#include "../bench_owners.h"
#include "transfer.h"

#define WARMUP_OPS 100
#define MAX_GROUPS 16

typedef struct {
    const char *mode, *target;
    char *conninfos[MAX_GROUPS], *names[MAX_GROUPS];
    int n_conninfos;
    bool cross, check;
    long ops_per_thread;
    bench_owners keys;
    int n_groups;
    int64_t *by_group[MAX_GROUPS];    /* the accounts of each group */
    size_t n_by_group[MAX_GROUPS];
} bench;

/* Reads "NAME conninfo" lines of path into b. */
static bool conninfos_load(bench *b, const char *path)
{
    FILE *f = fopen(path, "r");
    char line[1024];

    if (!f) {
        fprintf(stderr, "transfer: cannot read %s\n", path);
        return false;
    }
    while (b->n_conninfos < MAX_GROUPS && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *space = strchr(line, ' ');
        if (space == NULL)
            continue;
        *space = '\0';
        b->names[b->n_conninfos] = strdup(line);
        b->conninfos[b->n_conninfos++] = strdup(space + 1);
    }
    fclose(f);
    return b->n_conninfos > 0;
}

/* Splits the accounts by group; every group needs two at least. */
static bool group_accounts(bench *b)
{
    for (size_t i = 0; i < b->keys.n; i++) {
        int g = b->keys.groups[i];
        if (g < 0 || g >= MAX_GROUPS) {
            fprintf(stderr, "transfer: group index %d out of range\n", g);
            return false;
        }
        if (g >= b->n_groups)
            b->n_groups = g + 1;
    }
    for (int g = 0; g < b->n_groups; g++) {
        b->by_group[g] = malloc(b->keys.n * sizeof *b->by_group[g]);
        if (!b->by_group[g])
            return false;
    }
    for (size_t i = 0; i < b->keys.n; i++) {
        int g = b->keys.groups[i];
        b->by_group[g][b->n_by_group[g]++] = b->keys.ids[i];
    }
    for (int g = 0; g < b->n_groups; g++)
        if (b->n_by_group[g] < 2) {
            fprintf(stderr, "transfer: group %d holds fewer than 2 accounts\n", g);
            return false;
        }
    return b->n_groups >= 2 || !b->cross;
}

/* The i-th transfer of thread t: its two accounts. */
static void pick(const bench *b, int t, unsigned long i, transfer_account *from,
                 transfer_account *to)
{
    unsigned long long k = (unsigned long long)t * (unsigned long long)(b->ops_per_thread + WARMUP_OPS) + i;
    size_t first = (size_t)((k * 48271ULL + 11ULL) % b->keys.n);
    from->id = b->keys.ids[first];
    from->group = b->keys.groups[first];
    to->group = b->cross ? (from->group + 1 + (int)(k % (unsigned long long)(b->n_groups - 1))) %
                               b->n_groups
                         : from->group;
    size_t n = b->n_by_group[to->group];
    size_t second = (size_t)((k * 69621ULL + 7ULL) % n);
    to->id = b->by_group[to->group][second];
    if (to->id == from->id)
        to->id = b->by_group[to->group][(second + 1) % n];
}

/* One client thread: connect, warm up, then the timed transfers between two barriers. */
static void *worker_main(void *arg)
{
    bench_thread *w = arg;
    bench *b = w->shared;
    transfer_client *c = strcmp(b->mode, "odbc") == 0
                             ? transfer_client_odbc(b->target, b->check)
                             : transfer_client_libpq(b->conninfos, b->names, b->n_conninfos,
                                                     w->index, b->check);
    bool ok = c != NULL;
    unsigned long i = 0;
    transfer_account from, to;

    for (; ok && i < WARMUP_OPS; i++) {
        pick(b, w->index, i, &from, &to);
        ok = c->run(c, from, to, 1 + (int)(i % 9));
    }
    bench_thread_ready(w);
    for (long n = 0; ok && n < b->ops_per_thread; n++, i++) {
        pick(b, w->index, i, &from, &to);
        ok = c->run(c, from, to, 1 + (int)(i % 9));
    }
    bench_thread_done(w);
    if (c)
        c->destroy(c);
    w->ok = ok;
    return NULL;
}

static int usage(void)
{
    fprintf(stderr, "usage: transfer odbc CONNSTR|libpq CONNINFO_FILE same|cross THREADS OPS "
                    "OWNERS [check]\n");
    return 2;
}

int main(int argc, char **argv)
{
    bench b = {0};

    if (argc != 7 && !(argc == 8 && strcmp(argv[7], "check") == 0))
        return usage();
    b.check = argc == 8;
    b.mode = argv[1];
    b.target = argv[2];
    if (strcmp(argv[3], "same") != 0 && strcmp(argv[3], "cross") != 0)
        return usage();
    b.cross = strcmp(argv[3], "cross") == 0;
    int threads = atoi(argv[4]);
    long ops = atol(argv[5]);
    if (threads < 1 || threads > 64 || ops < threads)
        return usage();
    if (strcmp(b.mode, "libpq") == 0) {
        if (!conninfos_load(&b, b.target))
            return 1;
    } else if (strcmp(b.mode, "odbc") != 0) {
        return usage();
    }
    if (!bench_owners_load(&b.keys, "transfer", argv[6]) || !group_accounts(&b))
        return 1;
    b.ops_per_thread = ops / threads;

    bool ok = bench_threads_run("transfer", threads, worker_main, &b, b.ops_per_thread);
    for (int i = 0; i < b.n_conninfos; i++) {
        free(b.conninfos[i]);
        free(b.names[i]);
    }
    for (int g = 0; g < b.n_groups; g++)
        free(b.by_group[g]);
    bench_owners_free(&b.keys);
    return ok ? 0 : 1;
}
