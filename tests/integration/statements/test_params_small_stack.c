/*
 * PostgreSQL's 65,535 parameters sent from an application thread with a
 * small stack (256 KB): the driver keeps what grows with the parameter
 * count off the stack, so the statement runs instead of overflowing it.
 * A statement with as many parameters that the server refuses comes back
 * as its diagnostic (42P01), not a crash.
 */
#include <pthread.h>

#include "st_test.h"

#define MAX_PARAMS 65535
#define THREAD_STACK (256 * 1024)

typedef struct run {
    st_conn *conn;
    int params;
    const char *from;         /* appended to the SELECT */
    SQLRETURN rc;
    SQLINTEGER counted;
    char sqlstate[6];
} run;

/* "select cardinality(array[?, ?, ...]::int[])" with n markers, then
 * `from`; caller frees. */
static char *array_of_markers(int n, const char *from)
{
    const char head[] = "select cardinality(array[", tail[] = "]::int[]) ";
    char *sql = malloc(sizeof head + (size_t)n * 3 + sizeof tail + strlen(from));
    if (sql == NULL)
        exit(2);
    char *p = sql + (sizeof head - 1);
    memcpy(sql, head, sizeof head - 1);
    for (int i = 0; i < n; i++) {
        if (i > 0)
            *p++ = ',';
        *p++ = '?';
    }
    memcpy(p, tail, sizeof tail);
    strcat(sql, from);
    return sql;
}

/* Binds r->params integers and runs the statement (on the small stack). */
static void *run_statement(void *arg)
{
    run *r = arg;
    static SQLINTEGER one = 1;
    SQLHSTMT s = st_stmt(r->conn);
    for (int i = 1; i <= r->params; i++)
        SQLBindParameter(s, (SQLUSMALLINT)i, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0,
                         &one, 0, NULL);
    char *sql = array_of_markers(r->params, r->from);
    r->rc = SQLExecDirect(s, (SQLCHAR *)sql, SQL_NTS);
    free(sql);
    r->counted = -1;
    r->sqlstate[0] = '\0';
    if (ST_SUCCEEDED(r->rc)) {
        SQLLEN ind = 0;
        if (SQLFetch(s) == SQL_SUCCESS)
            SQLGetData(s, 1, SQL_C_SLONG, &r->counted, 0, &ind);
    } else {
        SQLINTEGER native;
        SQLSMALLINT len;
        SQLCHAR msg[256];
        SQLGetDiagRec(SQL_HANDLE_STMT, s, 1, (SQLCHAR *)r->sqlstate, &native, msg, sizeof msg,
                      &len);
    }
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    return NULL;
}

static void run_on_small_stack(run *r)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, THREAD_STACK);
    pthread_t t;
    if (pthread_create(&t, &attr, run_statement, r) != 0) {
        fprintf(stderr, "cannot start a thread\n");
        exit(2);
    }
    pthread_join(t, NULL);
    pthread_attr_destroy(&attr);
}

int main(void)
{
    st_conn c;
    st_connect(&c);
    run most = { &c, MAX_PARAMS, "", 0, 0, "" };
    run_on_small_stack(&most);
    ST_CHECK(ST_SUCCEEDED(most.rc), "65,535 parameters: rc %d %s", (int)most.rc, most.sqlstate);
    ST_CHECK(most.counted == MAX_PARAMS, "the server saw %d values", (int)most.counted);
    run few = { &c, 3, "", 0, 0, "" };
    run_on_small_stack(&few);
    ST_CHECK(ST_SUCCEEDED(few.rc) && few.counted == 3, "3 parameters: rc %d, %d values",
             (int)few.rc, (int)few.counted);
    run refused = { &c, MAX_PARAMS, "from stmt_no_such_table", 0, 0, "" };
    run_on_small_stack(&refused);
    ST_CHECK(refused.rc == SQL_ERROR && strcmp(refused.sqlstate, "42P01") == 0,
             "refused by the server: rc %d %s", (int)refused.rc, refused.sqlstate);
    st_disconnect(&c);
    return st_finish("params_small_stack");
}
