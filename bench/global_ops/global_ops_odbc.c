/* global_ops_odbc.c: the operations through the unixODBC driver manager. */
#include <stdio.h>
#include <stdlib.h>

#include "../bench_odbc.h"
#include "global_ops.h"

typedef struct {
    global_client base;  /* first: the interface */
    bench_odbc odbc;     /* the session */
    SQLBIGINT key;       /* bound parameter */
    SQLBIGINT id;        /* bound result columns */
    SQLCHAR balance[32];
    SQLLEN id_ind, balance_ind;
    int turn;            /* GLOBAL_ALTERNATE: which text runs next */
} odbc_client;

/* Prints the diagnostics of a failed call and returns false. */
static bool odbc_fail(SQLSMALLINT htype, SQLHANDLE h, const char *what)
{
    return bench_odbc_fail("global_ops", htype, h, what);
}

static bool odbc_prepare(global_client *base, global_op_kind kind)
{
    odbc_client *c = (odbc_client *)base;
    const char *sql = kind == GLOBAL_UPDATE ? GLOBAL_UPDATE_SQL_ODBC : GLOBAL_SELECT_SQL_ODBC;

    if (!SQL_SUCCEEDED(SQLPrepare(c->odbc.stmt, (SQLCHAR *)sql, SQL_NTS)))
        return odbc_fail(SQL_HANDLE_STMT, c->odbc.stmt, "SQLPrepare");
    if (!SQL_SUCCEEDED(SQLBindParameter(c->odbc.stmt, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0,
                                        &c->key, 0, NULL)))
        return odbc_fail(SQL_HANDLE_STMT, c->odbc.stmt, "SQLBindParameter");
    if (kind != GLOBAL_UPDATE && kind != GLOBAL_GETDATA &&
        (!SQL_SUCCEEDED(SQLBindCol(c->odbc.stmt, 1, SQL_C_SBIGINT, &c->id, 0, &c->id_ind)) ||
         !SQL_SUCCEEDED(SQLBindCol(c->odbc.stmt, 2, SQL_C_CHAR, c->balance, sizeof c->balance, &c->balance_ind))))
        return odbc_fail(SQL_HANDLE_STMT, c->odbc.stmt, "SQLBindCol");
    return true;
}

static bool odbc_run(global_client *base, global_op_kind kind, int64_t id, int group)
{
    odbc_client *c = (odbc_client *)base;

    (void)group;  /* the driver finds the owner itself, or does not route */
    c->key = id;
    if (kind == GLOBAL_ALTERNATE) {
        /* A new text on the handle (its bindings stay): SQLPrepare again. */
        const char *sql = c->turn ? GLOBAL_SELECT2_SQL_ODBC : GLOBAL_SELECT_SQL_ODBC;
        c->turn = !c->turn;
        if (!SQL_SUCCEEDED(SQLPrepare(c->odbc.stmt, (SQLCHAR *)sql, SQL_NTS)))
            return odbc_fail(SQL_HANDLE_STMT, c->odbc.stmt, "SQLPrepare");
    }
    if (!SQL_SUCCEEDED(SQLExecute(c->odbc.stmt)))
        return odbc_fail(SQL_HANDLE_STMT, c->odbc.stmt, "SQLExecute");
    if (kind == GLOBAL_UPDATE) {
        SQLLEN rows = 0;
        if (!SQL_SUCCEEDED(SQLRowCount(c->odbc.stmt, &rows)) || rows != 1)
            return odbc_fail(SQL_HANDLE_STMT, c->odbc.stmt, "SQLRowCount (one row updated)");
        return true;
    }
    if (!SQL_SUCCEEDED(SQLFetch(c->odbc.stmt)))
        return odbc_fail(SQL_HANDLE_STMT, c->odbc.stmt, "SQLFetch (the key's row)");
    if (kind == GLOBAL_GETDATA &&
        (!SQL_SUCCEEDED(SQLGetData(c->odbc.stmt, 1, SQL_C_SBIGINT, &c->id, 0, &c->id_ind)) ||
         !SQL_SUCCEEDED(SQLGetData(c->odbc.stmt, 2, SQL_C_CHAR, c->balance, sizeof c->balance,
                                   &c->balance_ind))))
        return odbc_fail(SQL_HANDLE_STMT, c->odbc.stmt, "SQLGetData");
    if (c->id != id)
        return odbc_fail(SQL_HANDLE_STMT, c->odbc.stmt, "the key's row");
    if (!SQL_SUCCEEDED(SQLFreeStmt(c->odbc.stmt, SQL_CLOSE)))
        return odbc_fail(SQL_HANDLE_STMT, c->odbc.stmt, "SQLFreeStmt(SQL_CLOSE)");
    return true;
}

static void odbc_destroy(global_client *base)
{
    odbc_client *c = (odbc_client *)base;

    bench_odbc_close(&c->odbc);
    free(c);
}

global_client *global_client_odbc(const char *connstr)
{
    odbc_client *c = calloc(1, sizeof *c);

    if (!c)
        return NULL;
    c->base.prepare = odbc_prepare;
    c->base.run = odbc_run;
    c->base.destroy = odbc_destroy;
    if (!bench_odbc_open(&c->odbc, "global_ops", connstr)) {
        free(c);
        return NULL;
    }
    return &c->base;
}
