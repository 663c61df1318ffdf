/* param_array_odbc.c: the batch insert as one column-wise parameter array
 * (SQL_ATTR_PARAMSET_SIZE) per batch, through the unixODBC driver manager. */
#include <stdio.h>
#include <stdlib.h>

#include "../bench_odbc.h"
#include "param_array.h"

typedef struct {
    batch_client base;   /* first: the interface */
    bench_odbc odbc;
    commit_mode mode;
    int batch;
    SQLINTEGER *ids, *qtys;
    char (*names)[BATCH_NAME_MAX];
    SQLLEN *name_ind;
    SQLUSMALLINT *status;
    SQLULEN processed;
} odbc_client;

static bool odbc_fail(SQLSMALLINT htype, SQLHANDLE h, const char *what)
{
    return bench_odbc_fail("param_array", htype, h, what);
}

static bool odbc_insert_batch(batch_client *base, int first, int n)
{
    odbc_client *c = (odbc_client *)base;
    SQLHSTMT s = c->odbc.stmt;
    for (int i = 0; i < n; i++) {
        c->ids[i] = first + i;
        c->qtys[i] = (first + i) % 1000;
        c->name_ind[i] = snprintf(c->names[i], BATCH_NAME_MAX, "row %d", first + i);
    }
    if (n != c->batch &&
        !SQL_SUCCEEDED(SQLSetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)(SQLULEN)n, 0)))
        return odbc_fail(SQL_HANDLE_STMT, s, "SQLSetStmtAttr(PARAMSET_SIZE)");
    if (SQLExecute(s) != SQL_SUCCESS || c->processed != (SQLULEN)n)
        return odbc_fail(SQL_HANDLE_STMT, s, "SQLExecute (every row)");
    for (int i = 0; i < n; i++)
        if (c->status[i] != SQL_PARAM_SUCCESS) {
            fprintf(stderr, "param_array: row %d has status %d\n", first + i, c->status[i]);
            return false;
        }
    if (!SQL_SUCCEEDED(SQLFreeStmt(s, SQL_CLOSE)))
        return odbc_fail(SQL_HANDLE_STMT, s, "SQLFreeStmt(SQL_CLOSE)");
    if (c->mode == COMMIT_EACH_BATCH &&
        !SQL_SUCCEEDED(SQLEndTran(SQL_HANDLE_DBC, c->odbc.dbc, SQL_COMMIT)))
        return odbc_fail(SQL_HANDLE_DBC, c->odbc.dbc, "SQLEndTran(COMMIT)");
    return true;
}

static void odbc_destroy(batch_client *base)
{
    odbc_client *c = (odbc_client *)base;
    bench_odbc_close(&c->odbc);
    free(c->ids);
    free(c->qtys);
    free(c->names);
    free(c->name_ind);
    free(c->status);
    free(c);
}

/* Prepares the INSERT and binds the arrays column-wise. */
static bool odbc_setup(odbc_client *c)
{
    SQLHSTMT s = c->odbc.stmt;
    if (c->mode == COMMIT_EACH_BATCH &&
        !SQL_SUCCEEDED(SQLSetConnectAttr(c->odbc.dbc, SQL_ATTR_AUTOCOMMIT,
                                         (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0)))
        return odbc_fail(SQL_HANDLE_DBC, c->odbc.dbc, "SQLSetConnectAttr(AUTOCOMMIT)");
    if (!SQL_SUCCEEDED(SQLSetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)(SQLULEN)c->batch, 0)) ||
        !SQL_SUCCEEDED(SQLSetStmtAttr(s, SQL_ATTR_PARAM_STATUS_PTR, c->status, 0)) ||
        !SQL_SUCCEEDED(SQLSetStmtAttr(s, SQL_ATTR_PARAMS_PROCESSED_PTR, &c->processed, 0)))
        return odbc_fail(SQL_HANDLE_STMT, s, "SQLSetStmtAttr");
    if (!SQL_SUCCEEDED(SQLPrepare(s, (SQLCHAR *)BATCH_INSERT_SQL_ODBC, SQL_NTS)))
        return odbc_fail(SQL_HANDLE_STMT, s, "SQLPrepare");
    for (SQLUSMALLINT p = 1; c->mode == COMMIT_EACH_ROW_DESCRIBED && p <= 3; p++) {
        SQLSMALLINT type, digits, nullable;
        SQLULEN size;
        if (!SQL_SUCCEEDED(SQLDescribeParam(s, p, &type, &size, &digits, &nullable)))
            return odbc_fail(SQL_HANDLE_STMT, s, "SQLDescribeParam");
    }
    if (!SQL_SUCCEEDED(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0,
                                        c->ids, 0, NULL)) ||
        !SQL_SUCCEEDED(SQLBindParameter(s, 2, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR,
                                        BATCH_NAME_MAX, 0, c->names, BATCH_NAME_MAX,
                                        c->name_ind)) ||
        !SQL_SUCCEEDED(SQLBindParameter(s, 3, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0,
                                        c->qtys, 0, NULL)))
        return odbc_fail(SQL_HANDLE_STMT, s, "SQLBindParameter");
    return true;
}

batch_client *batch_client_odbc(const char *connstr, commit_mode mode, int batch)
{
    odbc_client *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->base.insert_batch = odbc_insert_batch;
    c->base.destroy = odbc_destroy;
    c->mode = mode;
    c->batch = batch;
    c->ids = calloc((size_t)batch, sizeof *c->ids);
    c->qtys = calloc((size_t)batch, sizeof *c->qtys);
    c->names = calloc((size_t)batch, sizeof *c->names);
    c->name_ind = calloc((size_t)batch, sizeof *c->name_ind);
    c->status = calloc((size_t)batch, sizeof *c->status);
    if (c->ids == NULL || c->qtys == NULL || c->names == NULL || c->name_ind == NULL ||
        c->status == NULL || !bench_odbc_open(&c->odbc, "param_array", connstr) ||
        !odbc_setup(c)) {
        odbc_destroy(&c->base);
        return NULL;
    }
    return &c->base;
}
