/* point_ops_odbc.c: the point operations through the unixODBC driver manager. */
#include <stdio.h>
#include <stdlib.h>

#include "../bench_odbc.h"
#include "point_ops.h"

typedef struct {
    point_client base;   /* first: the interface */
    bench_odbc odbc;     /* the session */
    SQLINTEGER key;      /* bound parameter */
    SQLINTEGER id, qty;  /* bound result columns */
    SQLCHAR name[64];
    SQLLEN id_ind, name_ind, qty_ind;
} odbc_client;

/* Prints the diagnostics of a failed call and returns false. */
static bool odbc_fail(SQLSMALLINT htype, SQLHANDLE h, const char *what)
{
    return bench_odbc_fail("point_ops", htype, h, what);
}

static bool odbc_prepare(point_client *base, point_op_kind kind)
{
    odbc_client *c = (odbc_client *)base;
    const char *sql = kind == POINT_SELECT ? POINT_SELECT_SQL_ODBC : POINT_INSERT_SQL_ODBC;

    if (!SQL_SUCCEEDED(SQLPrepare(c->odbc.stmt, (SQLCHAR *)sql, SQL_NTS)))
        return odbc_fail(SQL_HANDLE_STMT, c->odbc.stmt, "SQLPrepare");
    if (!SQL_SUCCEEDED(SQLBindParameter(c->odbc.stmt, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER,
                                        0, 0, &c->key, 0, NULL)))
        return odbc_fail(SQL_HANDLE_STMT, c->odbc.stmt, "SQLBindParameter");
    if (kind == POINT_SELECT &&
        (!SQL_SUCCEEDED(SQLBindCol(c->odbc.stmt, 1, SQL_C_SLONG, &c->id, 0, &c->id_ind)) ||
         !SQL_SUCCEEDED(SQLBindCol(c->odbc.stmt, 2, SQL_C_CHAR, c->name, sizeof c->name,
                                   &c->name_ind)) ||
         !SQL_SUCCEEDED(SQLBindCol(c->odbc.stmt, 3, SQL_C_SLONG, &c->qty, 0, &c->qty_ind))))
        return odbc_fail(SQL_HANDLE_STMT, c->odbc.stmt, "SQLBindCol");
    return true;
}

static bool odbc_run(point_client *base, point_op_kind kind, int key)
{
    odbc_client *c = (odbc_client *)base;

    c->key = key;
    if (!SQL_SUCCEEDED(SQLExecute(c->odbc.stmt)))
        return odbc_fail(SQL_HANDLE_STMT, c->odbc.stmt, "SQLExecute");
    if (kind == POINT_INSERT)
        return true;
    SQLRETURN rc = SQLFetch(c->odbc.stmt);
    if (!SQL_SUCCEEDED(rc) || c->id != key)
        return odbc_fail(SQL_HANDLE_STMT, c->odbc.stmt, "SQLFetch (the key's row)");
    if (!SQL_SUCCEEDED(SQLFreeStmt(c->odbc.stmt, SQL_CLOSE)))
        return odbc_fail(SQL_HANDLE_STMT, c->odbc.stmt, "SQLFreeStmt(SQL_CLOSE)");
    return true;
}

static void odbc_destroy(point_client *base)
{
    odbc_client *c = (odbc_client *)base;

    bench_odbc_close(&c->odbc);
    free(c);
}

point_client *point_client_odbc(const char *connstr)
{
    odbc_client *c = calloc(1, sizeof *c);

    if (!c)
        return NULL;
    c->base.prepare = odbc_prepare;
    c->base.run = odbc_run;
    c->base.destroy = odbc_destroy;
    if (!bench_odbc_open(&c->odbc, "point_ops", connstr)) {
        free(c);
        return NULL;
    }
    return &c->base;
}
