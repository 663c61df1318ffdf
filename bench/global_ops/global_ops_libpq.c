/*
 * global_ops_libpq.c: the operations through raw libpq, each key sent
 * straight to its owner group's primary (the owner known in advance): the
 * best a client can do, and the floor the global connection aims at. Named
 * prepared statements, text parameters and results, as a driver uses them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "global_ops.h"

#define MAX_GROUPS 16

typedef struct {
    global_client base;           /* first: the interface */
    PGconn *conns[MAX_GROUPS];    /* one session per group's primary */
    int n;
    int turn;                     /* GLOBAL_ALTERNATE: which text runs next */
    global_write_shape shape;     /* how the UPDATE goes out */
} pq_client;

/* Prepares sql as name on every session. */
static bool prepare_everywhere(pq_client *c, const char *name, const char *sql)
{
    for (int i = 0; i < c->n; i++) {
        PGresult *res = PQprepare(c->conns[i], name, sql, 1, NULL);
        bool ok = PQresultStatus(res) == PGRES_COMMAND_OK;
        PQclear(res);
        if (!ok) {
            fprintf(stderr, "global_ops: PQprepare failed: %s", PQerrorMessage(c->conns[i]));
            return false;
        }
    }
    return true;
}

/* GLOBAL_ALTERNATE keeps both texts prepared and alternates the names:
 * the best a client can do. */
static bool pq_prepare(global_client *base, global_op_kind kind)
{
    pq_client *c = (pq_client *)base;

    if (kind == GLOBAL_UPDATE && c->shape == GLOBAL_WRITE_RETURNING)
        return prepare_everywhere(c, "global_update",
                                  GLOBAL_UPDATE_SQL_PG " RETURNING " GLOBAL_XID_COLUMNS_PG);
    if (kind == GLOBAL_UPDATE && c->shape == GLOBAL_WRITE_XID_QUERY &&
        !prepare_everywhere(c, "global_xid", "SELECT " GLOBAL_XID_COLUMNS_PG))
        return false;
    if (kind == GLOBAL_UPDATE)
        return prepare_everywhere(c, "global_update", GLOBAL_UPDATE_SQL_PG);
    return prepare_everywhere(c, "global_select", GLOBAL_SELECT_SQL_PG) &&
           (kind != GLOBAL_ALTERNATE ||
            prepare_everywhere(c, "global_select2", GLOBAL_SELECT2_SQL_PG));
}

static const char *statement_name(pq_client *c, global_op_kind kind)
{
    if (kind == GLOBAL_UPDATE)
        return "global_update";
    if (kind != GLOBAL_ALTERNATE)
        return "global_select";
    c->turn = !c->turn;
    return c->turn ? "global_select2" : "global_select";
}

/* The UPDATE in one of the shapes that carry its transaction id: one
 * pipeline, the id answered before the flush, the commit at the sync. */
static bool run_shaped_update(pq_client *c, PGconn *conn, const char *const *values)
{
    bool ok = PQenterPipelineMode(conn) &&
              PQsendQueryPrepared(conn, "global_update", 1, values, NULL, NULL, 0) &&
              (c->shape != GLOBAL_WRITE_XID_QUERY ||
               PQsendQueryPrepared(conn, "global_xid", 0, NULL, NULL, NULL, 0)) &&
              PQsendFlushRequest(conn) && PQpipelineSync(conn);
    bool updated = false, xid = false;
    for (int left = c->shape == GLOBAL_WRITE_XID_QUERY ? 2 : 1; ok;) {
        PGresult *res = PQgetResult(conn);
        if (res == NULL) {
            left--;    /* a command's results end; then the sync's */
            continue;
        }
        ExecStatusType st = PQresultStatus(res);
        if (st == PGRES_PIPELINE_SYNC) {
            PQclear(res);
            break;
        }
        if (left == 1 && c->shape == GLOBAL_WRITE_XID_QUERY)
            xid = st == PGRES_TUPLES_OK && PQntuples(res) == 1 && !PQgetisnull(res, 0, 0);
        else if (c->shape == GLOBAL_WRITE_RETURNING)
            updated = xid = st == PGRES_TUPLES_OK && PQntuples(res) == 1 &&
                            strcmp(PQcmdTuples(res), "1") == 0 && !PQgetisnull(res, 0, 0);
        else
            updated = st == PGRES_COMMAND_OK && strcmp(PQcmdTuples(res), "1") == 0;
        ok = st != PGRES_FATAL_ERROR;
        PQclear(res);
    }
    ok = ok && PQexitPipelineMode(conn) && updated && xid;
    if (!ok)
        fprintf(stderr, "global_ops: pipelined UPDATE failed: %s", PQerrorMessage(conn));
    return ok;
}

/* The SELECT in single-row mode: one result for the row, one for the end
 * of the set. */
static bool run_single_row_select(pq_client *c, PGconn *conn, global_op_kind kind,
                                  const char *const *values, int64_t id)
{
    bool ok = PQsendQueryPrepared(conn, statement_name(c, kind), 1, values, NULL, NULL, 0) &&
              PQsetSingleRowMode(conn);
    int rows = 0;
    PGresult *res;

    while ((res = PQgetResult(conn)) != NULL) {
        ExecStatusType st = PQresultStatus(res);
        if (st == PGRES_SINGLE_TUPLE)
            rows += strtoll(PQgetvalue(res, 0, 0), NULL, 10) == id && PQgetlength(res, 0, 1) > 0;
        else if (st != PGRES_TUPLES_OK)
            ok = false;
        PQclear(res);
    }
    ok = ok && rows == 1;
    if (!ok)
        fprintf(stderr, "global_ops: single-row SELECT failed: %s", PQerrorMessage(conn));
    return ok;
}

static bool pq_run(global_client *base, global_op_kind kind, int64_t id, int group)
{
    pq_client *c = (pq_client *)base;
    PGconn *conn = c->conns[c->n == 1 ? 0 : group];
    char text[24];
    const char *values[1] = {text};
    bool ok;

    snprintf(text, sizeof text, "%lld", (long long)id);
    if (kind != GLOBAL_UPDATE && c->shape == GLOBAL_SELECT_SINGLE_ROW)
        return run_single_row_select(c, conn, kind, values, id);
    if (kind == GLOBAL_UPDATE && c->shape != GLOBAL_WRITE_ALONE && c->shape != GLOBAL_SELECT_SINGLE_ROW)
        return run_shaped_update(c, conn, values);
    PGresult *res = PQexecPrepared(conn, statement_name(c, kind), 1, values, NULL, NULL, 0);
    if (kind != GLOBAL_UPDATE)
        ok = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 &&
             strtoll(PQgetvalue(res, 0, 0), NULL, 10) == id && PQgetlength(res, 0, 1) > 0;
    else
        ok = PQresultStatus(res) == PGRES_COMMAND_OK && strcmp(PQcmdTuples(res), "1") == 0;
    if (!ok)
        fprintf(stderr, "global_ops: PQexecPrepared failed: %s", PQerrorMessage(conn));
    PQclear(res);
    return ok;
}

static void pq_destroy(global_client *base)
{
    pq_client *c = (pq_client *)base;

    for (int i = 0; i < c->n; i++)
        PQfinish(c->conns[i]);
    free(c);
}

global_client *global_client_libpq(char **conninfos, int n)
{
    return global_client_libpq_shaped(conninfos, n, GLOBAL_WRITE_ALONE);
}

global_client *global_client_libpq_shaped(char **conninfos, int n, global_write_shape shape)
{
    pq_client *c = calloc(1, sizeof *c);

    if (!c)
        return NULL;
    c->shape = shape;
    c->base.prepare = pq_prepare;
    c->base.run = pq_run;
    c->base.destroy = pq_destroy;
    if (n < 1 || n > MAX_GROUPS) {
        fprintf(stderr, "global_ops: between 1 and %d conninfos\n", MAX_GROUPS);
        free(c);
        return NULL;
    }
    for (; c->n < n; c->n++) {
        c->conns[c->n] = PQconnectdb(conninfos[c->n]);
        if (PQstatus(c->conns[c->n]) != CONNECTION_OK) {
            fprintf(stderr, "global_ops: connection failed: %s", PQerrorMessage(c->conns[c->n]));
            c->n++;
            pq_destroy(&c->base);
            return NULL;
        }
    }
    return &c->base;
}
