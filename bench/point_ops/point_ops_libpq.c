/*
 * point_ops_libpq.c: the point operations through raw libpq, the floor an
 * ODBC driver over libpq can approach: a named prepared statement, text
 * parameters, text results (as an ODBC driver receives them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "point_ops.h"

typedef struct {
    point_client base;  /* first: the interface */
    PGconn *conn;
} pq_client;

static const char *statement_name(point_op_kind kind)
{
    return kind == POINT_SELECT ? "point_select" : "point_insert";
}

static bool pq_prepare(point_client *base, point_op_kind kind)
{
    pq_client *c = (pq_client *)base;
    const char *sql = kind == POINT_SELECT ? POINT_SELECT_SQL_PG : POINT_INSERT_SQL_PG;
    PGresult *res = PQprepare(c->conn, statement_name(kind), sql, 1, NULL);
    bool ok = PQresultStatus(res) == PGRES_COMMAND_OK;

    if (!ok)
        fprintf(stderr, "point_ops: PQprepare failed: %s", PQerrorMessage(c->conn));
    PQclear(res);
    return ok;
}

static bool pq_run(point_client *base, point_op_kind kind, int key)
{
    pq_client *c = (pq_client *)base;
    char text[16];
    const char *values[1] = {text};
    bool ok;

    snprintf(text, sizeof text, "%d", key);
    PGresult *res = PQexecPrepared(c->conn, statement_name(kind), 1, values, NULL, NULL, 0);
    if (kind == POINT_SELECT)
        /* Read the row as a driver would: every column's value. */
        ok = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 &&
             atoi(PQgetvalue(res, 0, 0)) == key && PQgetlength(res, 0, 1) > 0 &&
             strlen(PQgetvalue(res, 0, 2)) > 0;
    else
        ok = PQresultStatus(res) == PGRES_COMMAND_OK;
    if (!ok)
        fprintf(stderr, "point_ops: PQexecPrepared failed: %s", PQerrorMessage(c->conn));
    PQclear(res);
    return ok;
}

static void pq_destroy(point_client *base)
{
    pq_client *c = (pq_client *)base;

    PQfinish(c->conn);
    free(c);
}

point_client *point_client_libpq(const char *conninfo)
{
    pq_client *c = calloc(1, sizeof *c);

    if (!c)
        return NULL;
    c->base.prepare = pq_prepare;
    c->base.run = pq_run;
    c->base.destroy = pq_destroy;
    c->conn = PQconnectdb(conninfo);
    if (PQstatus(c->conn) != CONNECTION_OK) {
        fprintf(stderr, "point_ops: connection failed: %s", PQerrorMessage(c->conn));
        pq_destroy(&c->base);
        return NULL;
    }
    return &c->base;
}
