/* global_ops_odbc.c: the operations through the unixODBC driver manager. */
#include <stdio.h>
#include <stdlib.h>

#include <sql.h>
#include <sqlext.h>

#include "global_ops.h"

typedef struct {
    global_client base;  /* first: the interface */
    SQLHENV env;
    SQLHDBC dbc;
    SQLHSTMT stmt;
    SQLBIGINT key;       /* bound parameter */
    SQLBIGINT id;        /* bound result columns */
    SQLCHAR balance[32];
    SQLLEN id_ind, balance_ind;
} odbc_client;

/* Prints the diagnostics of a failed call and returns false. */
static bool odbc_fail(SQLSMALLINT htype, SQLHANDLE h, const char *what)
{
    SQLCHAR state[6], msg[512];
    SQLINTEGER native;
    SQLSMALLINT len;

    fprintf(stderr, "global_ops: %s failed\n", what);
    for (SQLSMALLINT i = 1;
         SQL_SUCCEEDED(SQLGetDiagRec(htype, h, i, state, &native, msg, sizeof msg, &len)); i++)
        fprintf(stderr, "  [%s] %s\n", (char *)state, (char *)msg);
    return false;
}

static bool odbc_prepare(global_client *base, global_op_kind kind)
{
    odbc_client *c = (odbc_client *)base;
    const char *sql = kind == GLOBAL_SELECT ? GLOBAL_SELECT_SQL_ODBC : GLOBAL_UPDATE_SQL_ODBC;

    if (!SQL_SUCCEEDED(SQLPrepare(c->stmt, (SQLCHAR *)sql, SQL_NTS)))
        return odbc_fail(SQL_HANDLE_STMT, c->stmt, "SQLPrepare");
    if (!SQL_SUCCEEDED(SQLBindParameter(c->stmt, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0,
                                        &c->key, 0, NULL)))
        return odbc_fail(SQL_HANDLE_STMT, c->stmt, "SQLBindParameter");
    if (kind == GLOBAL_SELECT &&
        (!SQL_SUCCEEDED(SQLBindCol(c->stmt, 1, SQL_C_SBIGINT, &c->id, 0, &c->id_ind)) ||
         !SQL_SUCCEEDED(SQLBindCol(c->stmt, 2, SQL_C_CHAR, c->balance, sizeof c->balance, &c->balance_ind))))
        return odbc_fail(SQL_HANDLE_STMT, c->stmt, "SQLBindCol");
    return true;
}

static bool odbc_run(global_client *base, global_op_kind kind, int64_t id, int group)
{
    odbc_client *c = (odbc_client *)base;

    (void)group;  /* the driver finds the owner itself, or does not route */
    c->key = id;
    if (!SQL_SUCCEEDED(SQLExecute(c->stmt)))
        return odbc_fail(SQL_HANDLE_STMT, c->stmt, "SQLExecute");
    if (kind == GLOBAL_UPDATE) {
        SQLLEN rows = 0;
        if (!SQL_SUCCEEDED(SQLRowCount(c->stmt, &rows)) || rows != 1)
            return odbc_fail(SQL_HANDLE_STMT, c->stmt, "SQLRowCount (one row updated)");
        return true;
    }
    if (!SQL_SUCCEEDED(SQLFetch(c->stmt)) || c->id != id)
        return odbc_fail(SQL_HANDLE_STMT, c->stmt, "SQLFetch (the key's row)");
    if (!SQL_SUCCEEDED(SQLFreeStmt(c->stmt, SQL_CLOSE)))
        return odbc_fail(SQL_HANDLE_STMT, c->stmt, "SQLFreeStmt(SQL_CLOSE)");
    return true;
}

static void odbc_destroy(global_client *base)
{
    odbc_client *c = (odbc_client *)base;

    if (c->stmt)
        SQLFreeHandle(SQL_HANDLE_STMT, c->stmt);
    if (c->dbc) {
        SQLDisconnect(c->dbc);
        SQLFreeHandle(SQL_HANDLE_DBC, c->dbc);
    }
    if (c->env)
        SQLFreeHandle(SQL_HANDLE_ENV, c->env);
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
    if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &c->env)) ||
        !SQL_SUCCEEDED(SQLSetEnvAttr(c->env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0)) ||
        !SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_DBC, c->env, &c->dbc))) {
        fprintf(stderr, "global_ops: cannot allocate ODBC handles\n");
        odbc_destroy(&c->base);
        return NULL;
    }
    if (!SQL_SUCCEEDED(SQLDriverConnect(c->dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0, NULL,
                                        SQL_DRIVER_NOPROMPT))) {
        odbc_fail(SQL_HANDLE_DBC, c->dbc, "SQLDriverConnect");
        odbc_destroy(&c->base);
        return NULL;
    }
    if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, c->dbc, &c->stmt))) {
        odbc_fail(SQL_HANDLE_DBC, c->dbc, "SQLAllocHandle(STMT)");
        odbc_destroy(&c->base);
        return NULL;
    }
    return &c->base;
}
