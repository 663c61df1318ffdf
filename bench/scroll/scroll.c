/*
 * scroll: opens a static cursor on `SELECT id, name, qty FROM bench_items
 * ORDER BY id` (run.sh creates the table), fetches it row by row to the end
 * with SQL_FETCH_NEXT, then back to the start with SQL_FETCH_PRIOR, and
 * checks that both walks saw every row.
 *
 *   scroll CONNSTR ROWS
 *
 * Prints one line: "<seconds> <peak RSS growth in KiB> <client CPU seconds>".
 * The time runs from SQLExecDirect to the last SQL_FETCH_PRIOR; the memory
 * is this process's peak resident set minus what it was once connected, so
 * it is what the driver kept for the cursor (each run is its own process).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "../bench_clock.h"
#include "../bench_odbc.h"

static const char *tool = "scroll";

static long peak_rss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;    /* KiB on Linux */
}

/* Fetches in `orientation` until SQL_NO_DATA; returns the rows seen and
 * adds their ids to *sum, or -1 on an error. */
static long walk(SQLHSTMT st, SQLSMALLINT orientation, const SQLINTEGER *id, long long *sum)
{
    long rows = 0;
    for (;;) {
        SQLRETURN rc = SQLFetchScroll(st, orientation, 0);
        if (rc == SQL_NO_DATA)
            return rows;
        if (!SQL_SUCCEEDED(rc)) {
            bench_odbc_fail(tool, SQL_HANDLE_STMT, st, "SQLFetchScroll");
            return -1;
        }
        *sum += *id;
        rows++;
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: scroll CONNSTR ROWS\n");
        return 2;
    }
    long want = atol(argv[2]);
    bench_odbc o;
    if (!bench_odbc_open(&o, tool, argv[1]))
        return 1;
    SQLHSTMT st = o.stmt;
    /* SCROLL_CURSOR=keyset: a keyset-driven cursor (each rowset re-read by key). */
    const char *kind = getenv("SCROLL_CURSOR");
    SQLULEN type = kind != NULL && strcmp(kind, "keyset") == 0 ? SQL_CURSOR_KEYSET_DRIVEN
                                                               : SQL_CURSOR_STATIC;
    if (!SQL_SUCCEEDED(SQLSetStmtAttr(st, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)type, 0)))
        return bench_odbc_fail(tool, SQL_HANDLE_STMT, st, "scrollable cursor"), 1;
    SQLINTEGER id = 0, qty = 0;
    char name[32];
    SQLLEN id_ind, name_ind, qty_ind;
    long base_kib = peak_rss_kib();
    double cpu0 = bench_cpu_seconds();
    double t0 = bench_now_seconds();
    if (!SQL_SUCCEEDED(SQLExecDirect(st, (SQLCHAR *)"SELECT id, name, qty FROM bench_items "
                                                    "ORDER BY id", SQL_NTS)))
        return bench_odbc_fail(tool, SQL_HANDLE_STMT, st, "SQLExecDirect"), 1;
    SQLBindCol(st, 1, SQL_C_SLONG, &id, 0, &id_ind);
    SQLBindCol(st, 2, SQL_C_CHAR, name, sizeof name, &name_ind);
    SQLBindCol(st, 3, SQL_C_SLONG, &qty, 0, &qty_ind);
    long long forward_sum = 0, backward_sum = 0;
    long forward = walk(st, SQL_FETCH_NEXT, &id, &forward_sum);
    long backward = walk(st, SQL_FETCH_PRIOR, &id, &backward_sum);
    double seconds = bench_now_seconds() - t0;
    double cpu = bench_cpu_seconds() - cpu0;
    long long want_sum = (long long)want * (want + 1) / 2;
    if (forward != want || backward != want || forward_sum != want_sum ||
        backward_sum != want_sum) {
        fprintf(stderr, "%s: saw %ld rows forward and %ld back (sums %lld, %lld), wanted %ld\n",
                tool, forward, backward, forward_sum, backward_sum, want);
        return 1;
    }
    printf("%.3f %ld %.3f\n", seconds, peak_rss_kib() - base_kib, cpu);
    bench_odbc_close(&o);
    return 0;
}
