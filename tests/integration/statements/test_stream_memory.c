/*
 * A 5,000,000-row result read with SQLFetch never has to fit in memory: the
 * process's resident memory (VmRSS) stays under 64 MiB above its baseline.
 * Prints the figures.
 */
#include <time.h>

#include "st_test.h"

#define ROWS 5000000L
#define LIMIT_KB (64L * 1024)

static long rss_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (f != NULL && fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
            break;
    if (f != NULL)
        fclose(f);
    return kb;
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    SQLHSTMT s = st_stmt(&c);
    /* Warm up the driver's code paths, then take the baseline. */
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select g, repeat('x', 20) from generate_series(1, 10) g", SQL_NTS), s);
    while (SQLFetch(s) == SQL_SUCCESS)
        ;
    SQLCloseCursor(s);
    long base = rss_kb();

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)
        "select g, repeat('x', 20) from generate_series(1, 5000000) g", SQL_NTS), s);
    SQLINTEGER g = 0;
    char text[32];
    SQLLEN ind1 = 0, ind2 = 0;
    ST_OK(SQLBindCol(s, 1, SQL_C_SLONG, &g, 0, &ind1), s);
    ST_OK(SQLBindCol(s, 2, SQL_C_CHAR, text, sizeof text, &ind2), s);
    long rows = 0, peak = base;
    long long sum = 0;
    SQLRETURN rc;
    while ((rc = SQLFetch(s)) == SQL_SUCCESS) {
        rows++;
        sum += g;
        if (rows % 100000 == 0) {
            long now = rss_kb();
            if (now > peak)
                peak = now;
        }
    }
    ST_CHECK(rc == SQL_NO_DATA, "fetch ended with %d", (int)rc);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    ST_CHECK(rows == ROWS, "%ld rows", rows);
    ST_CHECK(sum == (long long)ROWS * (ROWS + 1) / 2, "sum of g %lld", sum);
    ST_CHECK(strcmp(text, "xxxxxxxxxxxxxxxxxxxx") == 0, "last text '%s'", text);
    printf("stream_memory: %ld rows in %.1f s (%.0f rows/s); VmRSS baseline %ld kB, peak %ld kB, "
           "growth %ld kB (limit %ld kB)\n",
           rows, secs, rows / secs, base, peak, peak - base, LIMIT_KB);
#ifdef __SANITIZE_ADDRESS__
    /* AddressSanitizer keeps freed memory in quarantine (hundreds of MiB):
     * the figure means nothing there, so only the plain build checks it. */
    printf("stream_memory: AddressSanitizer build, memory limit not checked\n");
#else
    ST_CHECK(peak - base < LIMIT_KB, "resident memory grew by %ld kB", peak - base);
#endif
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);
    return st_finish("stream_memory");
}
