/*
 * global_ops: times prepared point operations on a sharded table by random
 * account id, with THREADS client threads (one session each), through one
 * client (run.sh starts the cluster and runs this for each client, thread
 * count and repetition).
 *
 *   global_ops odbc  CONNSTR       select|update|alternate|getdata THREADS OPS OWNERS
 *   global_ops libpq CONNINFO_FILE select|update|alternate|getdata THREADS OPS OWNERS
 *
 * libpq-xidquery and libpq-returning instead of libpq send each UPDATE in
 * one of the shapes that carry its transaction id; libpq-singlerow reads
 * each SELECT in single-row mode (global_write_shape).
 *
 * OWNERS lists "id group" per account (group: 0-based index of the owner
 * group, from the servers); CONNINFO_FILE holds one libpq conninfo per group
 * primary in that order (or a single one: every key goes there). OPS
 * operations are shared out over the threads. Prints one line: "<ops per
 * second> <operations> <seconds> <client CPU microseconds per operation>".
 * Keys are a fixed pseudo-random walk over the accounts, a different stretch
 * per thread, the same in every run.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench_threads.h"
#include "../bench_owners.h"
#include "global_ops.h"

#define WARMUP_OPS 300
#define MAX_CONNINFOS 16

typedef bench_owners owners;

typedef struct {
    const char *mode, *target;
    char *conninfos[MAX_CONNINFOS];
    int n_conninfos;
    global_op_kind kind;
    global_write_shape shape;    /* libpq modes: how an UPDATE goes out */
    long ops_per_thread;
    const owners *keys;
} bench;

/* Reads one conninfo per line of path into b. */
static bool conninfos_load(bench *b, const char *path)
{
    FILE *f = fopen(path, "r");
    char line[1024];

    if (!f) {
        fprintf(stderr, "global_ops: cannot read %s\n", path);
        return false;
    }
    while (b->n_conninfos < MAX_CONNINFOS && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0])
            b->conninfos[b->n_conninfos++] = strdup(line);
    }
    fclose(f);
    return b->n_conninfos > 0;
}

/* The i-th account of thread t's stretch of the walk. */
static size_t key_index(const bench *b, int t, unsigned long i)
{
    unsigned long long k = (unsigned long long)t * (unsigned long long)(b->ops_per_thread + WARMUP_OPS) + i;
    return (size_t)((k * 48271ULL + 11ULL) % b->keys->n);
}

/* One client thread: connect, prepare, warm up, then the timed operations between two barriers. */
static void *worker_main(void *arg)
{
    bench_thread *w = arg;
    bench *b = w->shared;
    global_client *c = strcmp(b->mode, "odbc") == 0 ? global_client_odbc(b->target)
                                                    : global_client_libpq_shaped(b->conninfos, b->n_conninfos,
                                                                                 b->shape);
    bool ok = c && c->prepare(c, b->kind);
    unsigned long i = 0;

    for (; ok && i < WARMUP_OPS; i++) {
        size_t k = key_index(b, w->index, i);
        ok = c->run(c, b->kind, b->keys->ids[k], b->keys->groups[k]);
    }
    bench_thread_ready(w);
    for (long n = 0; ok && n < b->ops_per_thread; n++, i++) {
        size_t k = key_index(b, w->index, i);
        ok = c->run(c, b->kind, b->keys->ids[k], b->keys->groups[k]);
    }
    bench_thread_done(w);
    if (c)
        c->destroy(c);
    w->ok = ok;
    return NULL;
}

static int usage(void)
{
    fprintf(stderr, "usage: global_ops odbc CONNSTR|libpq[-xidquery|-returning|-singlerow] CONNINFO_FILE select|update|alternate|getdata "
                    "THREADS OPS OWNERS\n");
    return 2;
}

int main(int argc, char **argv)
{
    bench b = {0};
    owners keys;

    if (argc != 7)
        return usage();
    b.mode = argv[1];
    b.target = argv[2];
    if (strcmp(argv[3], "select") == 0)
        b.kind = GLOBAL_SELECT;
    else if (strcmp(argv[3], "update") == 0)
        b.kind = GLOBAL_UPDATE;
    else if (strcmp(argv[3], "alternate") == 0)
        b.kind = GLOBAL_ALTERNATE;
    else if (strcmp(argv[3], "getdata") == 0)
        b.kind = GLOBAL_GETDATA;
    else
        return usage();
    int threads = atoi(argv[4]);
    long ops = atol(argv[5]);
    if (threads < 1 || threads > 64 || ops < threads)
        return usage();
    if (strcmp(b.mode, "libpq-xidquery") == 0)
        b.shape = GLOBAL_WRITE_XID_QUERY;
    else if (strcmp(b.mode, "libpq-returning") == 0)
        b.shape = GLOBAL_WRITE_RETURNING;
    else if (strcmp(b.mode, "libpq-singlerow") == 0)
        b.shape = GLOBAL_SELECT_SINGLE_ROW;
    if (strncmp(b.mode, "libpq", 5) == 0) {
        if (!conninfos_load(&b, b.target))
            return 1;
    } else if (strcmp(b.mode, "odbc") != 0) {
        return usage();
    }
    if (!bench_owners_load(&keys, "global_ops", argv[6]))
        return 1;
    b.keys = &keys;
    b.ops_per_thread = ops / threads;

    bool ok = bench_threads_run("global_ops", threads, worker_main, &b, b.ops_per_thread);
    for (int i = 0; i < b.n_conninfos; i++)
        free(b.conninfos[i]);
    bench_owners_free(&keys);
    return ok ? 0 : 1;
}
