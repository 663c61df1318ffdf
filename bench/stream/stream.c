/*
 * stream: reads every row of one large SELECT, one row at a time, and
 * prints how fast and with how much client memory (run.sh starts the
 * cluster and runs this for each client and repetition, one process per
 * run, so the peak is the run's own).
 *
 *   stream odbc  CONNSTR  ROWS    (SQLExecDirect, bound columns, SQLFetch)
 *   stream libpq CONNINFO ROWS    (PQsendQueryParams, single-row mode)
 *
 * Both read each row's three columns into C variables (an int, a string,
 * an int). Prints one line: "<rows per second> <rows> <seconds> <peak
 * resident KiB> <resident KiB before the SELECT> <client CPU us per row>".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <libpq-fe.h>

#include "../bench_clock.h"
#include "../bench_odbc.h"

#define STREAM_SQL "SELECT g, 'row ' || g, mod(g, 1000) FROM generate_series(1, %ld) g"
#define NAME_MAX_LEN 32

static long peak_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;    /* KiB on Linux */
}

/* Through ODBC; *rows_read gets the rows fetched. */
static bool read_odbc(const char *connstr, const char *sql, long *rows_read, long *before_kib,
                      double *start, double *cpu_start)
{
    bench_odbc o;
    if (!bench_odbc_open(&o, "stream", connstr))
        return false;
    SQLINTEGER id = 0, qty = 0;
    char name[NAME_MAX_LEN];
    SQLLEN id_ind, name_ind, qty_ind;
    SQLBindCol(o.stmt, 1, SQL_C_SLONG, &id, 0, &id_ind);
    SQLBindCol(o.stmt, 2, SQL_C_CHAR, name, sizeof name, &name_ind);
    SQLBindCol(o.stmt, 3, SQL_C_SLONG, &qty, 0, &qty_ind);
    *before_kib = peak_kib();
    *start = bench_now_seconds();
    *cpu_start = bench_cpu_seconds();
    bool ok = SQL_SUCCEEDED(SQLExecDirect(o.stmt, (SQLCHAR *)sql, SQL_NTS)) ||
              bench_odbc_fail("stream", SQL_HANDLE_STMT, o.stmt, "SQLExecDirect");
    long n = 0;
    SQLRETURN rc;
    while (ok && SQL_SUCCEEDED(rc = SQLFetch(o.stmt)))
        n += id > 0 && qty >= 0;
    if (ok && rc != SQL_NO_DATA)
        ok = bench_odbc_fail("stream", SQL_HANDLE_STMT, o.stmt, "SQLFetch");
    *rows_read = n;
    bench_odbc_close(&o);
    return ok;
}

/* Through libpq's single-row mode; *rows_read gets the rows read. */
static bool read_libpq(const char *conninfo, const char *sql, long *rows_read, long *before_kib,
                       double *start, double *cpu_start)
{
    PGconn *conn = PQconnectdb(conninfo);
    if (PQstatus(conn) != CONNECTION_OK) {
        fprintf(stderr, "stream: connecting failed: %s", PQerrorMessage(conn));
        PQfinish(conn);
        return false;
    }
    *before_kib = peak_kib();
    *start = bench_now_seconds();
    *cpu_start = bench_cpu_seconds();
    bool ok = PQsendQueryParams(conn, sql, 0, NULL, NULL, NULL, NULL, 0) &&
              PQsetSingleRowMode(conn);
    long n = 0;
    PGresult *r;
    char name[NAME_MAX_LEN];
    while (ok && (r = PQgetResult(conn)) != NULL) {
        ExecStatusType st = PQresultStatus(r);
        if (st == PGRES_SINGLE_TUPLE) {
            int id = atoi(PQgetvalue(r, 0, 0)), qty = atoi(PQgetvalue(r, 0, 2));
            snprintf(name, sizeof name, "%s", PQgetvalue(r, 0, 1));
            n += id > 0 && qty >= 0;
        } else if (st != PGRES_TUPLES_OK) {
            fprintf(stderr, "stream: the SELECT failed: %s", PQresultErrorMessage(r));
            ok = false;
        }
        PQclear(r);
    }
    if (!ok)
        fprintf(stderr, "stream: %s", PQerrorMessage(conn));
    *rows_read = n;
    PQfinish(conn);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc != 4 || (strcmp(argv[1], "odbc") != 0 && strcmp(argv[1], "libpq") != 0)) {
        fprintf(stderr, "usage: stream odbc CONNSTR|libpq CONNINFO ROWS\n");
        return 2;
    }
    long rows = atol(argv[3]);
    char sql[128];
    snprintf(sql, sizeof sql, STREAM_SQL, rows);
    long n = 0, before = 0;
    double start = 0, cpu_start = 0;
    bool ok = strcmp(argv[1], "odbc") == 0
                  ? read_odbc(argv[2], sql, &n, &before, &start, &cpu_start)
                  : read_libpq(argv[2], sql, &n, &before, &start, &cpu_start);
    double elapsed = bench_now_seconds() - start, cpu = bench_cpu_seconds() - cpu_start;
    if (!ok || n != rows) {
        fprintf(stderr, "stream: read %ld rows of %ld\n", n, rows);
        return 1;
    }
    printf("%.0f %ld %.3f %ld %ld %.3f\n", (double)n / elapsed, n, elapsed, peak_kib(), before,
           cpu * 1e6 / (double)n);
    return 0;
}
