/*
 * One connection used from 8 threads at once: SQLGetInfo, SQLGetConnectAttr,
 * SQLSetConnectAttr, SQLEndTran and statements on the connection's handles.
 * Nothing may crash (run it in the sanitizer build too) and every answer
 * must stay right: no torn state, no diagnostics of one call seen by another
 * as its own.
 */
#include "conn_test.h"

#include <pthread.h>
#include <stdint.h>

enum { THREADS = 8, ROUNDS = 300 };

static SQLHENV env;
static SQLHDBC dbc;
static int thread_failures[THREADS];

static void *worker(void *arg)
{
    int id = (int)(intptr_t)arg;
    int *fail = &thread_failures[id];
    SQLHSTMT st = SQL_NULL_HSTMT;
    if (!CT_OK(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st)))
        (*fail)++;
    for (int i = 0; i < ROUNDS; i++) {
        char name[64];
        SQLSMALLINT len;
        if (SQLGetInfo(dbc, SQL_DBMS_NAME, name, sizeof name, &len) != SQL_SUCCESS ||
            strcmp(name, "PostgreSQL") != 0)
            (*fail)++;
        SQLUINTEGER v = 0;
        if (SQLGetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, &v, 0, NULL) != SQL_SUCCESS ||
            v != SQL_AUTOCOMMIT_ON)
            (*fail)++;
        if (SQLSetConnectAttr(dbc, SQL_ATTR_LOGIN_TIMEOUT, (SQLPOINTER)(intptr_t)(id + 1), 0) !=
            SQL_SUCCESS)
            (*fail)++;
        if (SQLEndTran(SQL_HANDLE_DBC, dbc, i % 2 ? SQL_COMMIT : SQL_ROLLBACK) != SQL_SUCCESS)
            (*fail)++;
        /* An error on the connection from one thread... */
        if (i % 10 == 0 && SQLGetInfo(dbc, 9999, name, sizeof name, &len) != SQL_ERROR)
            (*fail)++;
        if (st != SQL_NULL_HSTMT && i % 5 == 0) {
            char sql[64];
            snprintf(sql, sizeof sql, "SELECT %d + %d", id, i);
            SQLINTEGER got = -1;
            SQLLEN ind;
            if (!CT_OK(SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS)) ||
                !CT_OK(SQLFetch(st)) ||
                !CT_OK(SQLGetData(st, 1, SQL_C_SLONG, &got, 0, &ind)) || got != id + i) {
                (*fail)++;
                ct_dump_diag(SQL_HANDLE_STMT, st);
            }
            SQLCloseCursor(st);
        }
    }
    if (st != SQL_NULL_HSTMT)
        SQLFreeHandle(SQL_HANDLE_STMT, st);
    return NULL;
}

int main(void)
{
    ct_connect(&env, &dbc);
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < THREADS; i++)
        CT_CHECK(thread_failures[i] == 0, "thread %d: %d wrong answers", i, thread_failures[i]);

    /* The connection still works and is not stuck in a transaction. */
    char *one = ct_query_string(dbc, "SELECT 1");
    CT_CHECK(one != NULL && strcmp(one, "1") == 0, "after threads: %s", one ? one : "(null)");
    free(one);
    ct_disconnect(env, dbc);
    return ct_finish("test_threads");
}
