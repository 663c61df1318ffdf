/*
 * param_array_libpq.c: the batch insert through raw libpq in pipeline
 * mode, the floor a driver over libpq can approach: a named prepared
 * statement, one PQsendQueryPrepared per row with text parameters, and a
 * sync after every row (each-row: every row its own implicit transaction)
 * or one after the batch (each-batch).
 */
#include <stdio.h>
#include <stdlib.h>

#include <libpq-fe.h>

#include "param_array.h"

typedef struct {
    batch_client base;   /* first: the interface */
    PGconn *conn;
    commit_mode mode;
} pq_client;

static bool pq_fail(pq_client *c, const char *what)
{
    fprintf(stderr, "param_array: %s failed: %s", what, PQerrorMessage(c->conn));
    return false;
}

/* Reads one row's answer (its result, then NULL). */
static bool read_row(pq_client *c)
{
    PGresult *r = PQgetResult(c->conn);
    bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    if (!ok)
        fprintf(stderr, "param_array: row failed: %s", PQresultErrorMessage(r));
    PQclear(r);
    return PQgetResult(c->conn) == NULL && ok;
}

static bool read_sync(pq_client *c)
{
    PGresult *r = PQgetResult(c->conn);
    bool ok = PQresultStatus(r) == PGRES_PIPELINE_SYNC;
    PQclear(r);
    return ok;
}

static bool pq_insert_batch(batch_client *base, int first, int n)
{
    pq_client *c = (pq_client *)base;
    bool each_row = c->mode != COMMIT_EACH_BATCH;
    for (int i = 0; i < n; i++) {
        char id[16], name[BATCH_NAME_MAX], qty[16];
        snprintf(id, sizeof id, "%d", first + i);
        snprintf(name, sizeof name, "row %d", first + i);
        snprintf(qty, sizeof qty, "%d", (first + i) % 1000);
        const char *values[3] = {id, name, qty};
        if (!PQsendQueryPrepared(c->conn, "batch_insert", 3, values, NULL, NULL, 0))
            return pq_fail(c, "PQsendQueryPrepared");
        if (each_row && !PQpipelineSync(c->conn))
            return pq_fail(c, "PQpipelineSync");
    }
    if (!each_row && !PQpipelineSync(c->conn))
        return pq_fail(c, "PQpipelineSync");
    for (int i = 0; i < n; i++)
        if (!read_row(c) || (each_row && !read_sync(c)))
            return pq_fail(c, "reading the answers");
    return each_row || read_sync(c) || pq_fail(c, "reading the sync");
}

static void pq_destroy(batch_client *base)
{
    pq_client *c = (pq_client *)base;
    PQfinish(c->conn);
    free(c);
}

batch_client *batch_client_libpq(const char *conninfo, commit_mode mode, int batch)
{
    (void)batch;
    pq_client *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->base.insert_batch = pq_insert_batch;
    c->base.destroy = pq_destroy;
    c->mode = mode;
    c->conn = PQconnectdb(conninfo);
    if (PQstatus(c->conn) != CONNECTION_OK) {
        pq_fail(c, "connecting");
        pq_destroy(&c->base);
        return NULL;
    }
    PGresult *r = PQprepare(c->conn, "batch_insert", BATCH_INSERT_SQL_PG, 0, NULL);
    bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    if (!ok || !PQenterPipelineMode(c->conn)) {
        pq_fail(c, "preparing");
        pq_destroy(&c->base);
        return NULL;
    }
    return &c->base;
}
