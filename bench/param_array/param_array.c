/*
 * param_array: times inserting rows in batches (one parameter array, or one
 * pipeline, per batch) into an empty table (run.sh creates it and runs this
 * program for each client, mode and repetition).
 *
 *   param_array odbc  CONNSTR  each-row|each-batch|described ROWS BATCH
 *   param_array libpq CONNINFO each-row|each-batch|described ROWS BATCH
 *   param_array libpq-owners CONNINFO_FILE,OWNERS_FILE each-row|each-batch|described ROWS BATCH
 *
 * libpq-owners: a sharded table, each row sent to its owner group's
 * primary (run_global.sh). 
 * each-row: autocommit, every row its own transaction; each-batch: one
 * transaction per batch; described: each-row, the ODBC clients describing
 * the parameters first. Prints one line: "<rows per second> <rows>
 * <seconds> <client CPU microseconds per row>".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench_clock.h"
#include "param_array.h"

static int usage(void)
{
    fprintf(stderr, "usage: param_array odbc|libpq|libpq-owners CONNECTION each-row|each-batch|described "
                    "ROWS BATCH\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc != 6)
        return usage();
    const char *client = argv[1], *target = argv[2], *mode_name = argv[3];
    long rows = strtol(argv[4], NULL, 10), batch = strtol(argv[5], NULL, 10);
    commit_mode mode;
    if (strcmp(mode_name, "each-row") == 0)
        mode = COMMIT_EACH_ROW;
    else if (strcmp(mode_name, "each-batch") == 0)
        mode = COMMIT_EACH_BATCH;
    else if (strcmp(mode_name, "described") == 0)
        mode = COMMIT_EACH_ROW_DESCRIBED;
    else
        return usage();
    if (rows <= 0 || batch <= 0 || batch > rows)
        return usage();

    batch_client *c;
    if (strcmp(client, "odbc") == 0)
        c = batch_client_odbc(target, mode, (int)batch);
    else if (strcmp(client, "libpq") == 0)
        c = batch_client_libpq(target, mode, (int)batch);
    else if (strcmp(client, "libpq-owners") == 0 && strchr(target, ',') != NULL) {
        char *files = strdup(target);
        if (files == NULL)
            return 1;
        char *owners_file = strchr(files, ',');
        *owners_file++ = '\0';
        c = batch_client_libpq_owners(files, owners_file, mode);
        free(files);
    } else
        return usage();
    if (c == NULL)
        return 1;

    double start = bench_now_seconds(), cpu_start = bench_cpu_seconds();
    for (long first = 1; first <= rows; first += batch) {
        int n = (int)(rows - first + 1 < batch ? rows - first + 1 : batch);
        if (!c->insert_batch(c, (int)first, n)) {
            c->destroy(c);
            return 1;
        }
    }
    double elapsed = bench_now_seconds() - start;
    double cpu = bench_cpu_seconds() - cpu_start;
    c->destroy(c);
    printf("%.0f %ld %.3f %.2f\n", (double)rows / elapsed, rows, elapsed, cpu * 1e6 / (double)rows);
    return 0;
}
