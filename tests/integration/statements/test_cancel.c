/*
 * SQLCancel from a second thread stops `select pg_sleep(30)` running in the
 * first: SQLExecDirect fails with 57014 within a second. SQL_ATTR_QUERY_TIMEOUT
 * stops it by itself with HYT00. The connection is usable afterwards.
 */
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "st_test.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

typedef struct sleeper {
    SQLHSTMT stmt;
    SQLRETURN rc;
    double ended;
} sleeper;

static void *run_sleep(void *arg)
{
    sleeper *sl = arg;
    sl->rc = SQLExecDirect(sl->stmt, (SQLCHAR *)"select pg_sleep(30)", SQL_NTS);
    sl->ended = now_s();
    return NULL;
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    sleeper sl = { st_stmt(&c), 0, 0 };
    pthread_t t;
    pthread_create(&t, NULL, run_sleep, &sl);
    usleep(500000);             /* let the statement reach the server */
    double cancelled = now_s();
    SQLRETURN rc = SQLCancel(sl.stmt);
    ST_CHECK(ST_SUCCEEDED(rc), "SQLCancel returned %d", (int)rc);
    pthread_join(t, NULL);
    double took = sl.ended - cancelled;
    printf("cancel: the statement ended %.3f s after SQLCancel\n", took);
    ST_CHECK(sl.rc == SQL_ERROR && st_has_state(SQL_HANDLE_STMT, sl.stmt, "57014"),
             "cancelled statement: rc %d", (int)sl.rc);
    ST_CHECK(took < 1.0, "took %.3f s", took);

    /* Query timeout. */
    ST_OK(SQLSetStmtAttr(sl.stmt, SQL_ATTR_QUERY_TIMEOUT, (SQLPOINTER)1, 0), sl.stmt);
    double t0 = now_s();
    rc = SQLExecDirect(sl.stmt, (SQLCHAR *)"select pg_sleep(30)", SQL_NTS);
    double t1 = now_s();
    printf("query timeout 1 s: the statement ended after %.3f s\n", t1 - t0);
    ST_CHECK(rc == SQL_ERROR && st_has_state(SQL_HANDLE_STMT, sl.stmt, "HYT00"),
             "timed out statement: rc %d", (int)rc);
    if (rc != SQL_ERROR)
        st_dump_diag(SQL_HANDLE_STMT, sl.stmt);
    ST_CHECK(t1 - t0 < 2.5, "timeout took %.3f s", t1 - t0);
    ST_OK(SQLSetStmtAttr(sl.stmt, SQL_ATTR_QUERY_TIMEOUT, (SQLPOINTER)0, 0), sl.stmt);

    /* A cancel with nothing running changes nothing. */
    ST_OK(SQLCancel(sl.stmt), sl.stmt);
    ST_CHECK(strcmp(st_query_text(&c, "select 'alive'"), "alive") == 0, "usable after cancel");
    SQLFreeHandle(SQL_HANDLE_STMT, sl.stmt);
    st_disconnect(&c);
    return st_finish("cancel");
}
