/* transfer_odbc.c: the transfer through the unixODBC driver manager,
 * autocommit off, one prepared UPDATE run twice (and, checking, a prepared
 * SELECT of the two balances' sum), then SQLEndTran; run again after a
 * serialization failure (40001). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench_odbc.h"
#include "transfer.h"

typedef struct {
    transfer_client base;  /* first: the interface */
    bench_odbc odbc;       /* the session */
    SQLBIGINT delta, id;   /* bound parameters */
    SQLHSTMT check;        /* the check read, or NULL */
    SQLBIGINT check_ids[2], sum;
} odbc_client;

static bool odbc_fail(SQLSMALLINT htype, SQLHANDLE h, const char *what)
{
    return bench_odbc_fail("transfer", htype, h, what);
}

/* Whether the last call on handle h failed with 40001 (a serialization
 * failure: postgres_fdw's REPEATABLE READ remote part met a concurrent
 * update of the same row), which a transfer is run again for. */
static bool serialization_failure(SQLSMALLINT htype, SQLHANDLE h)
{
    SQLCHAR state[6], msg[8];
    SQLINTEGER native;
    SQLSMALLINT len;

    return SQL_SUCCEEDED(SQLGetDiagRec(htype, h, 1, state, &native, msg, sizeof msg, &len)) &&
           strcmp((char *)state, "40001") == 0;
}

typedef enum { STEP_OK, STEP_RETRY, STEP_FAILED } step;

/* One UPDATE of the prepared statement: exactly one row. */
static step update(odbc_client *c, int64_t id, int delta, bool last)
{
    SQLLEN rows = 0;

    c->id = id;
    c->delta = delta;
    if (!SQL_SUCCEEDED(SQLExecute(c->odbc.stmt))) {
        if (!last && serialization_failure(SQL_HANDLE_STMT, c->odbc.stmt))
            return STEP_RETRY;
        odbc_fail(SQL_HANDLE_STMT, c->odbc.stmt, "SQLExecute");
        return STEP_FAILED;
    }
    if (!SQL_SUCCEEDED(SQLRowCount(c->odbc.stmt, &rows)) || rows != 1) {
        odbc_fail(SQL_HANDLE_STMT, c->odbc.stmt, "SQLRowCount (one row updated)");
        return STEP_FAILED;
    }
    return STEP_OK;
}

/* The check read: the sum of the two balances, one row. */
static step check_read(odbc_client *c, int64_t first, int64_t second, bool last)
{
    SQLLEN ind = 0;

    c->check_ids[0] = first;
    c->check_ids[1] = second;
    if (!SQL_SUCCEEDED(SQLExecute(c->check)) ||
        !SQL_SUCCEEDED(SQLBindCol(c->check, 1, SQL_C_SBIGINT, &c->sum, 0, &ind)) ||
        !SQL_SUCCEEDED(SQLFetch(c->check)) || ind == SQL_NULL_DATA) {
        bool retry = !last && serialization_failure(SQL_HANDLE_STMT, c->check);
        if (!retry)
            odbc_fail(SQL_HANDLE_STMT, c->check, "the check read");
        SQLCloseCursor(c->check);
        return retry ? STEP_RETRY : STEP_FAILED;
    }
    SQLCloseCursor(c->check);
    return STEP_OK;
}

static step commit(odbc_client *c, bool last)
{
    if (SQL_SUCCEEDED(SQLEndTran(SQL_HANDLE_DBC, c->odbc.dbc, SQL_COMMIT)))
        return STEP_OK;
    if (!last && serialization_failure(SQL_HANDLE_DBC, c->odbc.dbc))
        return STEP_RETRY;
    odbc_fail(SQL_HANDLE_DBC, c->odbc.dbc, "SQLEndTran(SQL_COMMIT)");
    return STEP_FAILED;
}

static bool odbc_run(transfer_client *base, transfer_account from, transfer_account to, int amount)
{
    odbc_client *c = (odbc_client *)base;
    bool from_first = from.id < to.id;
    int64_t first = from_first ? from.id : to.id, second = from_first ? to.id : from.id;
    int first_delta = from_first ? -amount : amount;

    for (int attempt = 0; attempt < TRANSFER_ATTEMPTS; attempt++) {
        bool last = attempt + 1 == TRANSFER_ATTEMPTS;
        step s = update(c, first, first_delta, last);
        if (s == STEP_OK)
            s = update(c, second, -first_delta, last);
        if (s == STEP_OK && c->check != NULL)
            s = check_read(c, first, second, last);
        if (s == STEP_OK)
            s = commit(c, last);
        if (s == STEP_OK)
            return true;
        SQLEndTran(SQL_HANDLE_DBC, c->odbc.dbc, SQL_ROLLBACK);
        if (s == STEP_FAILED)
            return false;
    }
    return false;
}

static void odbc_destroy(transfer_client *base)
{
    odbc_client *c = (odbc_client *)base;

    if (c->check != NULL)
        SQLFreeHandle(SQL_HANDLE_STMT, c->check);
    bench_odbc_close(&c->odbc);
    free(c);
}

transfer_client *transfer_client_odbc(const char *connstr, bool check)
{
    odbc_client *c = calloc(1, sizeof *c);

    if (!c)
        return NULL;
    c->base.run = odbc_run;
    c->base.destroy = odbc_destroy;
    if (!bench_odbc_open(&c->odbc, "transfer", connstr)) {
        free(c);
        return NULL;
    }
    SQLHSTMT st = c->odbc.stmt;
    bool ok = SQL_SUCCEEDED(SQLSetConnectAttr(c->odbc.dbc, SQL_ATTR_AUTOCOMMIT,
                                              (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0)) ||
              odbc_fail(SQL_HANDLE_DBC, c->odbc.dbc, "SQLSetConnectAttr(AUTOCOMMIT off)");
    ok = ok && (SQL_SUCCEEDED(SQLPrepare(st, (SQLCHAR *)TRANSFER_UPDATE_SQL_ODBC, SQL_NTS)) ||
                odbc_fail(SQL_HANDLE_STMT, st, "SQLPrepare"));
    ok = ok && ((SQL_SUCCEEDED(SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0,
                                                0, &c->delta, 0, NULL)) &&
                 SQL_SUCCEEDED(SQLBindParameter(st, 2, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0,
                                                0, &c->id, 0, NULL))) ||
                odbc_fail(SQL_HANDLE_STMT, st, "SQLBindParameter"));
    if (ok && check) {
        ok = (SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, c->odbc.dbc, &c->check)) &&
              SQL_SUCCEEDED(SQLPrepare(c->check, (SQLCHAR *)TRANSFER_CHECK_SQL_ODBC, SQL_NTS)) &&
              SQL_SUCCEEDED(SQLBindParameter(c->check, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT,
                                             SQL_BIGINT, 0, 0, &c->check_ids[0], 0, NULL)) &&
              SQL_SUCCEEDED(SQLBindParameter(c->check, 2, SQL_PARAM_INPUT, SQL_C_SBIGINT,
                                             SQL_BIGINT, 0, 0, &c->check_ids[1], 0, NULL))) ||
             odbc_fail(SQL_HANDLE_DBC, c->odbc.dbc, "preparing the check read");
    }
    if (!ok) {
        odbc_destroy(&c->base);
        return NULL;
    }
    return &c->base;
}
