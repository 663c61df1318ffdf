/*
 * point_ops: times prepared point operations against a table of 100,000
 * rows (see run.sh, which creates it and runs this program for each client
 * and repetition).
 *
 *   point_ops odbc  CONNSTR  select|insert COUNT
 *   point_ops libpq CONNINFO select|insert COUNT
 *
 * Prints one line: "<ops per second> <operations> <seconds> <client CPU
 * microseconds per operation>". The CPU figure (user + system time of this
 * process) is the client library's own cost and varies less than wall time
 * when other work shares the machine. Keys are a
 * fixed pseudo-random sequence over 1..100000 so every client reads the same
 * rows in the same order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench_clock.h"
#include "point_ops.h"

#define BENCH_ROWS 100000
#define WARMUP_OPS 500

/* The i-th key of the fixed sequence: a full-period LCG walk over the rows. */
static int key_at(unsigned long i)
{
    return (int)((i * 48271UL + 11UL) % BENCH_ROWS) + 1;
}

static int usage(void)
{
    fprintf(stderr, "usage: point_ops odbc|libpq CONNECTION select|insert COUNT\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc != 5)
        return usage();
    const char *client = argv[1], *target = argv[2], *op = argv[3];
    long count = strtol(argv[4], NULL, 10);
    point_op_kind kind;

    if (strcmp(op, "select") == 0)
        kind = POINT_SELECT;
    else if (strcmp(op, "insert") == 0)
        kind = POINT_INSERT;
    else
        return usage();
    if (count <= 0)
        return usage();

    point_client *c;
    if (strcmp(client, "odbc") == 0)
        c = point_client_odbc(target);
    else if (strcmp(client, "libpq") == 0)
        c = point_client_libpq(target);
    else
        return usage();
    if (!c)
        return 1;
    if (!c->prepare(c, kind)) {
        c->destroy(c);
        return 1;
    }

    for (unsigned long i = 0; i < WARMUP_OPS; i++)
        if (!c->run(c, kind, key_at(i))) {
            c->destroy(c);
            return 1;
        }
    double start = bench_now_seconds(), cpu_start = bench_cpu_seconds();
    for (unsigned long i = 0; i < (unsigned long)count; i++)
        if (!c->run(c, kind, key_at(WARMUP_OPS + i))) {
            c->destroy(c);
            return 1;
        }
    double elapsed = bench_now_seconds() - start;
    double cpu = bench_cpu_seconds() - cpu_start;

    c->destroy(c);
    printf("%.0f %ld %.3f %.2f\n", (double)count / elapsed, count, elapsed, cpu * 1e6 / (double)count);
    return 0;
}
