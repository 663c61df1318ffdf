/*
 * global_session_bench: CONNS global connections shared out over THREADS
 * client threads (each thread turns over its own connections, one
 * operation each in turn), prepared point operations by random account id
 * in autocommit; run.sh runs it with and without GlobalSession=Yes.
 *
 *   bench_global_session CONNSTR select|update THREADS CONNS OPS ROWS MEMBERS_FILE
 *
 * CONNSTR is used as given plus ApplicationName=gsbench. MEMBERS_FILE holds
 * one libpq conninfo per member: after the timed part, while every
 * connection is still open, the program counts the server backends named
 * gsbench on all of them. Prints "<ops per second> <operations> <seconds>
 * <client CPU microseconds per operation>" (bench_threads.h), then
 * "backends <n>".
 */
#include <libpq-fe.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench_odbc.h"
#include "../bench_threads.h"

#define WARMUP_ROUNDS 20
#define MAX_MEMBERS 16

typedef struct {
    char connstr[1024];
    bool update;
    int conns_per_thread;
    long ops_per_thread, rows;
    char *members[MAX_MEMBERS];
    int n_members;
    pthread_barrier_t counted;  /* every thread holds its connections until counted */
    long backends;
} bench;

/* One connection of a thread, with its prepared statement. */
typedef struct {
    bench_odbc odbc;
    SQLBIGINT key, balance;
} client;

static bool fail(SQLSMALLINT htype, SQLHANDLE h, const char *what)
{
    return bench_odbc_fail("global_session_bench", htype, h, what);
}

static bool client_open(client *c, const bench *b)
{
    if (!bench_odbc_open(&c->odbc, "global_session_bench", b->connstr))
        return false;
    const char *sql = b->update ? "UPDATE accounts SET balance = balance + 1 WHERE id = ?"
                                : "SELECT balance FROM accounts WHERE id = ?";
    SQLHSTMT st = c->odbc.stmt;
    if (!SQL_SUCCEEDED(SQLPrepare(st, (SQLCHAR *)sql, SQL_NTS)))
        return fail(SQL_HANDLE_STMT, st, "SQLPrepare");
    if (!SQL_SUCCEEDED(SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0,
                                        &c->key, 0, NULL)))
        return fail(SQL_HANDLE_STMT, st, "SQLBindParameter");
    if (!b->update && !SQL_SUCCEEDED(SQLBindCol(st, 1, SQL_C_SBIGINT, &c->balance, 0, NULL)))
        return fail(SQL_HANDLE_STMT, st, "SQLBindCol");
    return true;
}

static bool client_run(client *c, const bench *b, SQLBIGINT key)
{
    SQLHSTMT st = c->odbc.stmt;
    c->key = key;
    if (!SQL_SUCCEEDED(SQLExecute(st)))
        return fail(SQL_HANDLE_STMT, st, "SQLExecute");
    if (b->update)
        return true;
    if (!SQL_SUCCEEDED(SQLFetch(st)))
        return fail(SQL_HANDLE_STMT, st, "SQLFetch");
    if (!SQL_SUCCEEDED(SQLFreeStmt(st, SQL_CLOSE)))
        return fail(SQL_HANDLE_STMT, st, "SQLFreeStmt(SQL_CLOSE)");
    return true;
}

/* The server backends named gsbench on every member; -1 when one does not answer. */
static long count_backends(const bench *b)
{
    long total = 0;
    for (int i = 0; i < b->n_members; i++) {
        PGconn *pg = PQconnectdb(b->members[i]);
        PGresult *r = PQstatus(pg) == CONNECTION_OK
                          ? PQexec(pg, "SELECT count(*) FROM pg_stat_activity "
                                       "WHERE application_name = 'gsbench'")
                          : NULL;
        if (r == NULL || PQresultStatus(r) != PGRES_TUPLES_OK) {
            fprintf(stderr, "global_session_bench: member %d: %s", i, PQerrorMessage(pg));
            total = -1;
        } else if (total >= 0) {
            total += atol(PQgetvalue(r, 0, 0));
        }
        PQclear(r);
        PQfinish(pg);
    }
    return total;
}

/* The key of operation i of thread t: a fixed pseudo-random walk. */
static SQLBIGINT key_of(const bench *b, int t, unsigned long i)
{
    unsigned long long k = (unsigned long long)t * 1000003ULL + i;
    return (SQLBIGINT)((k * 48271ULL + 11ULL) % (unsigned long long)b->rows) + 1;
}

static void *worker_main(void *arg)
{
    bench_thread *w = arg;
    bench *b = w->shared;
    client *clients = calloc((size_t)b->conns_per_thread, sizeof *clients);
    bool ok = clients != NULL;
    for (int c = 0; ok && c < b->conns_per_thread; c++)
        ok = client_open(&clients[c], b);
    unsigned long i = 0;
    for (; ok && i < (unsigned long)(WARMUP_ROUNDS * b->conns_per_thread); i++)
        ok = client_run(&clients[i % (unsigned long)b->conns_per_thread], b,
                        key_of(b, w->index, i));
    bench_thread_ready(w);
    for (long n = 0; ok && n < b->ops_per_thread; n++, i++)
        ok = client_run(&clients[i % (unsigned long)b->conns_per_thread], b,
                        key_of(b, w->index, i));
    bench_thread_done(w);
    if (pthread_barrier_wait(&b->counted) == PTHREAD_BARRIER_SERIAL_THREAD)
        b->backends = count_backends(b);
    pthread_barrier_wait(&b->counted);
    for (int c = 0; clients != NULL && c < b->conns_per_thread; c++)
        bench_odbc_close(&clients[c].odbc);
    free(clients);
    w->ok = ok;
    return NULL;
}

static bool members_load(bench *b, const char *path)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    if (!f)
        return false;
    while (b->n_members < MAX_MEMBERS && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0])
            b->members[b->n_members++] = strdup(line);
    }
    fclose(f);
    return b->n_members > 0;
}

int main(int argc, char **argv)
{
    static bench b;
    if (argc != 8) {
        fprintf(stderr, "usage: bench_global_session CONNSTR select|update THREADS CONNS OPS "
                        "ROWS MEMBERS_FILE\n");
        return 2;
    }
    snprintf(b.connstr, sizeof b.connstr, "%s;ApplicationName=gsbench", argv[1]);
    b.update = strcmp(argv[2], "update") == 0;
    int threads = atoi(argv[3]), conns = atoi(argv[4]);
    long ops = atol(argv[5]);
    b.rows = atol(argv[6]);
    if (threads < 1 || conns < threads || conns % threads != 0 || ops < threads || b.rows < 1 ||
        !members_load(&b, argv[7])) {
        fprintf(stderr, "bench_global_session: bad arguments\n");
        return 2;
    }
    b.conns_per_thread = conns / threads;
    b.ops_per_thread = ops / threads;
    pthread_barrier_init(&b.counted, NULL, (unsigned)threads);
    bool ok = bench_threads_run("global_session_bench", threads, worker_main, &b,
                                b.ops_per_thread);
    if (ok)
        printf("backends %ld\n", b.backends);
    pthread_barrier_destroy(&b.counted);
    for (int i = 0; i < b.n_members; i++)
        free(b.members[i]);
    return ok ? 0 : 1;
}
