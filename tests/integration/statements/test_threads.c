/*
 * Eight threads share one connection, each running statements on its own
 * statement handle (prepared with parameters, direct, streaming results
 * interleaved with the others): no crash, every result correct.
 */
#include <pthread.h>
#include <stdint.h>

#include "st_test.h"

#define THREADS 8
#define ROUNDS 200

static st_conn conn;
static int thread_failures[THREADS];

static void *worker(void *arg)
{
    int me = (int)(intptr_t)arg;
    SQLHSTMT p = SQL_NULL_HSTMT, d = SQL_NULL_HSTMT;
    if (!ST_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, conn.dbc, &p)) ||
        !ST_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, conn.dbc, &d))) {
        thread_failures[me]++;
        return NULL;
    }
    SQLINTEGER in = 0, out = 0, g = 0;
    SQLLEN ind = 0, oind = 0, gind = 0;
    if (!ST_SUCCEEDED(SQLPrepare(p, (SQLCHAR *)"select ?::int * 2", SQL_NTS)) ||
        !ST_SUCCEEDED(SQLBindParameter(p, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0,
                                       &in, 0, &ind)) ||
        !ST_SUCCEEDED(SQLBindCol(p, 1, SQL_C_SLONG, &out, 0, &oind)))
        thread_failures[me]++;
    for (int r = 0; r < ROUNDS; r++) {
        in = me * 100000 + r;
        if (!ST_SUCCEEDED(SQLExecute(p)) || !ST_SUCCEEDED(SQLFetch(p)) || out != in * 2) {
            thread_failures[me]++;
            st_dump_diag(SQL_HANDLE_STMT, p);
        }
        SQLCloseCursor(p);
        if (r % 20 == 0) {
            /* A result streamed in small steps while the others run. */
            char sql[96];
            snprintf(sql, sizeof sql, "select g + %d from generate_series(1, 300) g", me);
            if (!ST_SUCCEEDED(SQLExecDirect(d, (SQLCHAR *)sql, SQL_NTS))) {
                thread_failures[me]++;
                st_dump_diag(SQL_HANDLE_STMT, d);
                continue;
            }
            SQLBindCol(d, 1, SQL_C_SLONG, &g, 0, &gind);
            int n = 0;
            while (SQLFetch(d) == SQL_SUCCESS) {
                n++;
                if (g != n + me)
                    thread_failures[me]++;
            }
            if (n != 300)
                thread_failures[me]++;
            SQLCloseCursor(d);
        }
    }
    SQLFreeHandle(SQL_HANDLE_STMT, p);
    SQLFreeHandle(SQL_HANDLE_STMT, d);
    return NULL;
}

int main(void)
{
    st_connect(&conn);
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < THREADS; i++)
        ST_CHECK(thread_failures[i] == 0, "thread %d: %d wrong results", i, thread_failures[i]);
    printf("threads: %d threads x %d prepared executions + streamed results on one connection\n",
           THREADS, ROUNDS);
    ST_CHECK(strcmp(st_query_text(&conn, "select 'alive'"), "alive") == 0, "usable afterwards");
    st_disconnect(&conn);
    return st_finish("threads");
}
