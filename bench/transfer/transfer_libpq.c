/*
 * transfer_libpq.c: the transfer through raw libpq, each account's UPDATE
 * sent straight to its owner group's primary (owners known in advance):
 * the floor a driver aims at. Inside one group: BEGIN, two UPDATEs,
 * COMMIT there (4 round trips). Across two groups, the two-phase commit
 * the driver runs (docs/global-connection.md, "Transactions across
 * groups"), by hand: the first UPDATE's group coordinates; BEGIN and the
 * UPDATE on each; PREPARE TRANSACTION on the other; the decision recorded
 * (gcluster.decide_commit) and COMMIT on the coordinator; COMMIT PREPARED;
 * the decision forgotten (9 round trips). Checking, the two balances are
 * read back before COMMIT: their sum in one group on its primary, each on
 * its own owner across two (one round trip more, two).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "transfer.h"

#define MAX_GROUPS 16

typedef struct {
    transfer_client base;         /* first: the interface */
    PGconn *conns[MAX_GROUPS];    /* one session per group's primary */
    char *names[MAX_GROUPS];      /* borrowed: the groups' names */
    int n, thread;
    unsigned long seq;            /* transactions across groups so far */
    bool check;                   /* read the balances back before COMMIT */
} pq_client;

/* Runs sql (no parameters, or one text parameter) on conn; true when it
 * gives want. */
static bool exec(PGconn *conn, const char *sql, const char *param, ExecStatusType want)
{
    PGresult *r = PQexecParams(conn, sql, param ? 1 : 0, NULL, param ? &param : NULL, NULL, NULL, 0);
    bool ok = PQresultStatus(r) == want;
    if (!ok)
        fprintf(stderr, "transfer: %s failed: %s", sql, PQerrorMessage(conn));
    PQclear(r);
    return ok;
}

/* The prepared UPDATE of one account on conn: exactly one row. */
static bool update(PGconn *conn, int64_t id, int delta)
{
    char d[16], k[24];
    const char *values[2] = {d, k};

    snprintf(d, sizeof d, "%d", delta);
    snprintf(k, sizeof k, "%lld", (long long)id);
    PGresult *r = PQexecPrepared(conn, "transfer_update", 2, values, NULL, NULL, 0);
    bool ok = PQresultStatus(r) == PGRES_COMMAND_OK && strcmp(PQcmdTuples(r), "1") == 0;
    if (!ok)
        fprintf(stderr, "transfer: UPDATE failed: %s", PQerrorMessage(conn));
    PQclear(r);
    return ok;
}

/* Runs the prepared statement name with the ids (n of them) on conn: one
 * row whose value is not NULL. */
static bool read_one(PGconn *conn, const char *name, const int64_t *ids, int n)
{
    char k[2][24];
    const char *values[2] = {k[0], k[1]};

    for (int i = 0; i < n; i++)
        snprintf(k[i], sizeof k[i], "%lld", (long long)ids[i]);
    PGresult *r = PQexecPrepared(conn, name, n, values, NULL, NULL, 0);
    bool ok = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 && !PQgetisnull(r, 0, 0);
    if (!ok)
        fprintf(stderr, "transfer: the check read failed: %s", PQerrorMessage(conn));
    PQclear(r);
    return ok;
}

/* The check read of both balances, each where the transaction wrote it. */
static bool check_read(pq_client *c, transfer_account first, transfer_account second)
{
    int64_t ids[2] = {first.id, second.id};

    if (!c->check)
        return true;
    if (first.group == second.group)
        return read_one(c->conns[first.group], "transfer_check", ids, 2);
    return read_one(c->conns[first.group], "transfer_balance", &ids[0], 1) &&
           read_one(c->conns[second.group], "transfer_balance", &ids[1], 1);
}

static bool pq_run(transfer_client *base, transfer_account from, transfer_account to, int amount)
{
    pq_client *c = (pq_client *)base;
    bool from_first = from.id < to.id;
    transfer_account first = from_first ? from : to, second = from_first ? to : from;
    int first_delta = from_first ? -amount : amount;
    PGconn *coordinator = c->conns[first.group], *other = c->conns[second.group];

    if (first.group == second.group)
        return exec(coordinator, "BEGIN", NULL, PGRES_COMMAND_OK) &&
               update(coordinator, first.id, first_delta) &&
               update(coordinator, second.id, -first_delta) && check_read(c, first, second) &&
               exec(coordinator, "COMMIT", NULL, PGRES_COMMAND_OK);

    char gid[128], prepare[160], commit[160];
    snprintf(gid, sizeof gid, "gcx:%ld:bench%d:%lu:%s", (long)getpid(), c->thread, ++c->seq,
             c->names[first.group]);
    snprintf(prepare, sizeof prepare, "PREPARE TRANSACTION '%s'", gid);
    snprintf(commit, sizeof commit, "COMMIT PREPARED '%s'", gid);
    return exec(coordinator, "BEGIN", NULL, PGRES_COMMAND_OK) &&
           update(coordinator, first.id, first_delta) &&
           exec(other, "BEGIN", NULL, PGRES_COMMAND_OK) &&
           update(other, second.id, -first_delta) && check_read(c, first, second) &&
           exec(other, prepare, NULL, PGRES_COMMAND_OK) &&
           exec(coordinator, "SELECT gcluster.decide_commit($1, true)", gid, PGRES_TUPLES_OK) &&
           exec(coordinator, "COMMIT", NULL, PGRES_COMMAND_OK) &&
           exec(other, commit, NULL, PGRES_COMMAND_OK) &&
           exec(coordinator, "SELECT gcluster.forget_commit_decision($1)", gid, PGRES_TUPLES_OK);
}

static void pq_destroy(transfer_client *base)
{
    pq_client *c = (pq_client *)base;

    for (int i = 0; i < c->n; i++)
        PQfinish(c->conns[i]);
    free(c);
}

/* Prepares the statements of a session; false with the error on stderr. */
static bool prepare_all(PGconn *conn, bool check)
{
    static const char *const names[] = {"transfer_update", "transfer_check", "transfer_balance"};
    static const char *const texts[] = {TRANSFER_UPDATE_SQL_PG, TRANSFER_CHECK_SQL_PG,
                                        "SELECT balance FROM accounts WHERE id = $1"};
    bool ok = PQstatus(conn) == CONNECTION_OK;

    for (int i = 0; ok && i < (check ? 3 : 1); i++) {
        PGresult *r = PQprepare(conn, names[i], texts[i], 0, NULL);
        ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        PQclear(r);
    }
    if (!ok)
        fprintf(stderr, "transfer: connection or PQprepare failed: %s", PQerrorMessage(conn));
    return ok;
}

transfer_client *transfer_client_libpq(char **conninfos, char **names, int n, int thread,
                                       bool check)
{
    pq_client *c = calloc(1, sizeof *c);

    if (!c)
        return NULL;
    c->base.run = pq_run;
    c->base.destroy = pq_destroy;
    c->thread = thread;
    c->check = check;
    if (n < 1 || n > MAX_GROUPS) {
        fprintf(stderr, "transfer: between 1 and %d conninfos\n", MAX_GROUPS);
        free(c);
        return NULL;
    }
    for (; c->n < n; c->n++) {
        c->names[c->n] = names[c->n];
        c->conns[c->n] = PQconnectdb(conninfos[c->n]);
        if (!prepare_all(c->conns[c->n], check)) {
            c->n++;
            pq_destroy(&c->base);
            return NULL;
        }
    }
    return &c->base;
}
