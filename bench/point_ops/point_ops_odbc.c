/* point_ops_odbc.c: the point operations through the unixODBC driver manager. */
#include <stdio.h>
#include <stdlib.h>

#include <sql.h>
#include <sqlext.h>

#include "point_ops.h"

typedef struct {
    point_client base;   /* first: the interface */
    SQLHENV env;
    SQLHDBC dbc;
    SQLHSTMT stmt;
    SQLINTEGER key;      /* bound parameter */
    SQLINTEGER id, qty;  /* bound result columns */
    SQLCHAR name[64];
    SQLLEN id_ind, name_ind, qty_ind;
} odbc_client;

/* Prints the diagnostics of a failed call and returns false. */
static bool odbc_fail(SQLSMALLINT htype, SQLHANDLE h, const char *what)
{
    SQLCHAR state[6], msg[512];
    SQLINTEGER native;
    SQLSMALLINT len;

    fprintf(stderr, "point_ops: %s failed\n", what);
    for (SQLSMALLINT i = 1;
         SQL_SUCCEEDED(SQLGetDiagRec(htype, h, i, state, &native, msg, sizeof msg, &len)); i++)
        fprintf(stderr, "  [%s] %s\n", (char *)state, (char *)msg);
    return false;
}

static bool odbc_prepare(point_client *base, point_op_kind kind)
{
    odbc_client *c = (odbc_client *)base;
    const char *sql = kind == POINT_SELECT ? POINT_SELECT_SQL_ODBC : POINT_INSERT_SQL_ODBC;

    if (!SQL_SUCCEEDED(SQLPrepare(c->stmt, (SQLCHAR *)sql, SQL_NTS)))
        return odbc_fail(SQL_HANDLE_STMT, c->stmt, "SQLPrepare");
    if (!SQL_SUCCEEDED(SQLBindParameter(c->stmt, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER,
                                        0, 0, &c->key, 0, NULL)))
        return odbc_fail(SQL_HANDLE_STMT, c->stmt, "SQLBindParameter");
    if (kind == POINT_SELECT &&
        (!SQL_SUCCEEDED(SQLBindCol(c->stmt, 1, SQL_C_SLONG, &c->id, 0, &c->id_ind)) ||
         !SQL_SUCCEEDED(SQLBindCol(c->stmt, 2, SQL_C_CHAR, c->name, sizeof c->name,
                                   &c->name_ind)) ||
         !SQL_SUCCEEDED(SQLBindCol(c->stmt, 3, SQL_C_SLONG, &c->qty, 0, &c->qty_ind))))
        return odbc_fail(SQL_HANDLE_STMT, c->stmt, "SQLBindCol");
    return true;
}

static bool odbc_run(point_client *base, point_op_kind kind, int key)
{
    odbc_client *c = (odbc_client *)base;

    c->key = key;
    if (!SQL_SUCCEEDED(SQLExecute(c->stmt)))
        return odbc_fail(SQL_HANDLE_STMT, c->stmt, "SQLExecute");
    if (kind == POINT_INSERT)
        return true;
    SQLRETURN rc = SQLFetch(c->stmt);
    if (!SQL_SUCCEEDED(rc) || c->id != key)
        return odbc_fail(SQL_HANDLE_STMT, c->stmt, "SQLFetch (the key's row)");
    if (!SQL_SUCCEEDED(SQLFreeStmt(c->stmt, SQL_CLOSE)))
        return odbc_fail(SQL_HANDLE_STMT, c->stmt, "SQLFreeStmt(SQL_CLOSE)");
    return true;
}

static void odbc_destroy(point_client *base)
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

point_client *point_client_odbc(const char *connstr)
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
        fprintf(stderr, "point_ops: cannot allocate ODBC handles\n");
        odbc_destroy(&c->base);
        return NULL;
    }
    if (!SQL_SUCCEEDED(SQLDriverConnect(c->dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0,
                                        NULL, SQL_DRIVER_NOPROMPT))) {
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
