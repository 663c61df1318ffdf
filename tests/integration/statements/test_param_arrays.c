/*
 * Parameter arrays sent pipelined (docs/parameter-arrays.md): every row's
 * result and row count through SQLMoreResults, SQLRowCount's total, failed
 * rows in their status slot with SQL_DIAG_ROW_NUMBER, autocommit rows in
 * psqlODBC's batches (a failing row undoes its batch, the rows after it
 * are not run), the transaction aborted at the first failed row with
 * autocommit off, SQL_PARAM_IGNORE, data at execution, the query timeout,
 * a text the server refuses, and the trace proving the rows went in one
 * pipeline, with the driver's BEGIN in the same pipeline when autocommit
 * is off. On the global connection (GC_TEST_GLOBAL) arrays are routed row
 * by row and pipelined per member, in autocommit in batches on each
 * member: the test table lives on one member, so every outcome is the
 * general connection's.
 */
#include <unistd.h>

#include "st_test.h"

#define ROWS 50

static int global;

/* Binds one int column-wise array as parameter n. */
static void bind_ints(SQLHSTMT s, SQLUSMALLINT n, SQLINTEGER *v, SQLLEN *ind)
{
    ST_OK(SQLBindParameter(s, n, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, v, 0, ind), s);
}

/* An array of n (id, v) rows with its status and processed pointers. */
static void bind_id_value_rows(SQLHSTMT s, SQLULEN n, SQLINTEGER *ids, SQLINTEGER *vs,
                               SQLLEN *ind, SQLUSMALLINT *status, SQLULEN *processed)
{
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)n, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAM_STATUS_PTR, status, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMS_PROCESSED_PTR, processed, 0), s);
    bind_ints(s, 1, ids, ind);
    bind_ints(s, 2, vs, ind);
}

/* SQL_DIAG_ROW_NUMBER of every record of s, into rows[] (at most max). */
static int diag_rows(SQLHSTMT s, SQLLEN *rows, int max, const char *state)
{
    int n = 0;
    SQLCHAR got[6];
    for (SQLSMALLINT i = 1; n < max; i++) {
        SQLINTEGER native;
        SQLSMALLINT len;
        SQLCHAR msg[512];
        if (SQLGetDiagRec(SQL_HANDLE_STMT, s, i, got, &native, msg, sizeof msg, &len) != SQL_SUCCESS)
            break;
        if (strcmp((char *)got, state) != 0)
            continue;
        SQLGetDiagField(SQL_HANDLE_STMT, s, i, SQL_DIAG_ROW_NUMBER, &rows[n++], 0, NULL);
    }
    return n;
}

/* ROWS inserts in autocommit, each row's count reachable. */
/* For a check that runs in a transaction: autocommit off. */
static void manual_commit_if(st_conn *c, int in_transaction)
{
    if (in_transaction)
        ST_OK(SQLSetConnectAttr(c->dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0), NULL);
}

/* Its end: the transaction committed, autocommit on again. */
static void commit_and_autocommit_if(st_conn *c, int in_transaction)
{
    if (in_transaction) {
        ST_OK(SQLEndTran(SQL_HANDLE_DBC, c->dbc, SQL_COMMIT), NULL);
        ST_OK(SQLSetConnectAttr(c->dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0), NULL);
    }
}

/* psqlODBC's batch size connection attribute (SQL_ATTR_PGOPT_BATCHSIZE,
 * 65550) is accepted and read back; a bad value is refused. */
static void psqlodbc_batch_size(st_conn *c)
{
    const SQLINTEGER batch_size_attr = 65550;
    SQLUINTEGER size = 0;
    ST_OK(SQLGetConnectAttr(c->dbc, batch_size_attr, &size, sizeof size, NULL), NULL);
    ST_CHECK(size == 100, "psqlODBC's default batch size: %u", (unsigned)size);
    ST_OK(SQLSetConnectAttr(c->dbc, batch_size_attr, (SQLPOINTER)2, 0), NULL);
    ST_OK(SQLGetConnectAttr(c->dbc, batch_size_attr, &size, sizeof size, NULL), NULL);
    ST_CHECK(size == 2, "batch size read back: %u", (unsigned)size);
    ST_EXPECT_HANDLE_STATE(SQLSetConnectAttr(c->dbc, batch_size_attr, (SQLPOINTER)0, 0),
                           SQL_HANDLE_DBC, c->dbc, "HY024");

    ST_OK(SQLSetConnectAttr(c->dbc, batch_size_attr, (SQLPOINTER)100, 0), NULL);
}

/* One autocommit array of 6 rows whose 4th fails (a key that exists),
 * with psqlODBC's batch size `batch`: the statuses, the return code, the
 * processed count, the failing row's record, and the ids stored. */
static void batch_outcome(st_conn *c, SQLUINTEGER batch, const SQLUSMALLINT *want,
                          SQLULEN want_processed, const char *want_stored)
{
    ST_OK(SQLSetConnectAttr(c->dbc, 65550, (SQLPOINTER)(SQLULEN)batch, 0), NULL);
    SQLHSTMT s = st_stmt(c);
    SQLINTEGER ids[6] = {911, 912, 913, 1, 914, 915}, vs[6] = {0};
    SQLLEN ind[6] = {0};
    SQLUSMALLINT status[6];
    SQLULEN processed = 0;
    bind_id_value_rows(s, 6, ids, vs, ind, status, &processed);
    SQLRETURN rc = SQLExecDirect(s, (SQLCHAR *)"insert into parr values (?, ?)", SQL_NTS);
    ST_CHECK(rc == SQL_ERROR, "batch %u: a failing row fails the execution: %d",
             (unsigned)batch, (int)rc);
    int wrong = 0;
    for (int i = 0; i < 6; i++)
        wrong += status[i] != want[i];
    ST_CHECK(wrong == 0 && processed == want_processed,
             "batch %u: statuses %d %d %d %d %d %d, processed %lu", (unsigned)batch, status[0],
             status[1], status[2], status[3], status[4], status[5], (unsigned long)processed);
    SQLLEN rows[1] = {0};
    ST_CHECK(diag_rows(s, rows, 1, "23505") == 1 && rows[0] == 4, "batch %u: 23505 about row %ld",
             (unsigned)batch, (long)rows[0]);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    const char *got = st_query_text(c, "select coalesce(string_agg(id::text, ',' order by id), "
                                       "'none') from parr where id > 910");
    ST_CHECK(strcmp(got, want_stored) == 0, "batch %u: stored %s, expected %s", (unsigned)batch,
             got, want_stored);
    st_exec(c, "delete from parr where id > 910");
    ST_OK(SQLSetConnectAttr(c->dbc, 65550, (SQLPOINTER)100, 0), NULL);
}

/* Autocommit: the rows go in psqlODBC's batches (its batch size), each
 * batch one transaction, all in one pipeline (on a global connection in
 * each member's; the table is on one). A
 * failing row undoes its batch (the rows of it that ran are
 * SQL_PARAM_ERROR), the rows after it are never run (SQL_PARAM_UNUSED),
 * the batches before it stay committed, and the execution fails: what
 * psqlODBC does, row for row, except that the rows after the failing one
 * in its batch say unused, which they are. */
static void autocommit_batches(st_conn *c)
{
    const SQLUSMALLINT S = SQL_PARAM_SUCCESS, E = SQL_PARAM_ERROR, U = SQL_PARAM_UNUSED;
    const SQLUSMALLINT one[6] = {S, S, S, E, U, U}, two[6] = {S, S, E, E, U, U},
                       all[6] = {E, E, E, E, U, U};
    batch_outcome(c, 1, one, 4, "911,912,913");
    batch_outcome(c, 2, two, 4, "911,912");
    batch_outcome(c, 100, all, 4, "none");
    /* A batch whose COMMIT fails (a deferred unique check): every row of
     * it undone, the error about its last row. */
    st_exec(c, "create table pdef(id int, constraint pdef_u unique (id) deferrable "
               "initially deferred)");
    SQLHSTMT s = st_stmt(c);
    SQLINTEGER ids[3] = {1, 1, 2};
    SQLLEN ind[3] = {0};
    SQLUSMALLINT status[3];
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)3, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAM_STATUS_PTR, status, 0), s);
    bind_ints(s, 1, ids, ind);
    SQLRETURN rc = SQLExecDirect(s, (SQLCHAR *)"insert into pdef values (?)", SQL_NTS);
    SQLLEN rows[1] = {0};
    ST_CHECK(rc == SQL_ERROR && status[0] == E && status[1] == E && status[2] == E,
             "a refused COMMIT: %d, statuses %d %d %d", (int)rc, status[0], status[1], status[2]);
    ST_CHECK(diag_rows(s, rows, 1, "23505") == 1 && rows[0] == 3, "23505 about row %ld",
             (long)rows[0]);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    ST_CHECK(strcmp(st_query_text(c, "select count(*) from pdef"), "0") == 0,
             "nothing of the batch stored");
    st_exec(c, "drop table pdef");
    /* Batch size 2, row 3 (the first of the second batch) does not
     * convert: the first batch stays committed, row 3 fails, row 4 is not
     * run. */
    ST_OK(SQLSetConnectAttr(c->dbc, 65550, (SQLPOINTER)2, 0), NULL);
    s = st_stmt(c);
    char text_ids[4][8] = {"921", "922", "x3", "924"};
    SQLLEN text_ind[4] = {SQL_NTS, SQL_NTS, SQL_NTS, SQL_NTS};
    SQLINTEGER vs[4] = {0};
    SQLLEN vind[4] = {0};
    SQLUSMALLINT st4[4];
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)4, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAM_STATUS_PTR, st4, 0), s);
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_INTEGER, 0, 0, text_ids, 8,
                           text_ind), s);
    bind_ints(s, 2, vs, vind);
    rc = SQLExecDirect(s, (SQLCHAR *)"insert into parr values (?, ?)", SQL_NTS);
    ST_CHECK(rc == SQL_ERROR && st4[0] == S && st4[1] == S && st4[2] == E && st4[3] == U,
             "a row opening a batch does not convert: %d, statuses %d %d %d %d", (int)rc,
             st4[0], st4[1], st4[2], st4[3]);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    const char *kept = st_query_text(c, "select coalesce(string_agg(id::text, ',' order by id), "
                                        "'none') from parr where id > 920");
    ST_CHECK(strcmp(kept, "921,922") == 0, "the batch before it kept: %s", kept);
    st_exec(c, "delete from parr where id > 920");
    ST_OK(SQLSetConnectAttr(c->dbc, 65550, (SQLPOINTER)100, 0), NULL);
    /* psqlODBC's BatchSize key sets it at connect. */
    st_conn k;
    st_connect_with(&k, "BatchSize=2");
    SQLUINTEGER size = 0;
    ST_OK(SQLGetConnectAttr(k.dbc, 65550, &size, sizeof size, NULL), NULL);
    ST_CHECK(size == 2, "BatchSize=2 in the connection string: %u", (unsigned)size);
    st_disconnect(&k);
}

/* A server notice while a row runs (RAISE NOTICE) is that row's warning:
 * SQL_PARAM_SUCCESS_WITH_INFO and a 00000 record with its row number; the
 * rows without one stay SQL_PARAM_SUCCESS. In a transaction too (where a
 * global connection runs the rows one by one). */
static void notices_are_their_rows(st_conn *c, int in_transaction)
{
    manual_commit_if(c, in_transaction);
    SQLHSTMT s = st_stmt(c);
    SQLINTEGER vs[4] = {1, 2, 4, 3};
    SQLLEN ind[4] = {0};
    SQLUSMALLINT status[4];
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)4, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAM_STATUS_PTR, status, 0), s);
    bind_ints(s, 1, vs, ind);
    SQLRETURN rc = SQLExecDirect(s, (SQLCHAR *)"select parr_note(?)", SQL_NTS);
    ST_CHECK(rc == SQL_SUCCESS_WITH_INFO, "execute with notices: %d", (int)rc);
    ST_CHECK(status[0] == SQL_PARAM_SUCCESS_WITH_INFO && status[1] == SQL_PARAM_SUCCESS &&
             status[2] == SQL_PARAM_SUCCESS && status[3] == SQL_PARAM_SUCCESS_WITH_INFO,
             "statuses %d %d %d %d", status[0], status[1], status[2], status[3]);
    SQLLEN rows_noted[2] = {0, 0};
    int notes = 0;
    SQLCHAR state[6];
    for (SQLSMALLINT i = 1; SQLGetDiagRec(SQL_HANDLE_STMT, s, i, state, NULL, NULL, 0, NULL) !=
                            SQL_NO_DATA; i++) {
        if (strcmp((char *)state, "00000") != 0)   /* RAISE NOTICE's own SQLSTATE */
            continue;
        SQLLEN row = 0;
        SQLGetDiagField(SQL_HANDLE_STMT, s, i, SQL_DIAG_ROW_NUMBER, &row, 0, NULL);
        if (notes < 2)
            rows_noted[notes] = row;
        notes++;
    }
    ST_CHECK(notes == 2 && rows_noted[0] == 1 && rows_noted[1] == 4,
             "%d notices, on rows %ld and %ld", notes, (long)rows_noted[0], (long)rows_noted[1]);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    commit_and_autocommit_if(c, in_transaction);
}

static void insert_rows(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    SQLINTEGER ids[ROWS], vs[ROWS];
    SQLLEN ind[ROWS] = {0};
    SQLUSMALLINT status[ROWS];
    SQLULEN processed = 0;
    for (int i = 0; i < ROWS; i++) {
        ids[i] = i + 1;
        vs[i] = i * 2;
    }
    ST_OK(SQLPrepare(s, (SQLCHAR *)"insert into parr values (?, ?)", SQL_NTS), s);
    bind_id_value_rows(s, ROWS, ids, vs, ind, status, &processed);
    ST_CHECK(SQLExecute(s) == SQL_SUCCESS, "all rows succeed");
    SQLLEN count = 0;
    ST_OK(SQLRowCount(s, &count), s);
    ST_CHECK(count == ROWS, "SQLRowCount gives the total: %ld", (long)count);
    ST_CHECK(processed == ROWS, "processed %lu", (unsigned long)processed);
    int ok = 1;
    for (int i = 0; i < ROWS; i++)
        ok = ok && status[i] == SQL_PARAM_SUCCESS;
    ST_CHECK(ok, "every status SQL_PARAM_SUCCESS");
    /* The other rows' results: one count each, then no more. */
    int more = 0;
    SQLRETURN rc;
    while ((rc = SQLMoreResults(s)) == SQL_SUCCESS) {
        ST_OK(SQLRowCount(s, &count), s);
        ST_CHECK(count == 1, "row %d's count %ld", more + 2, (long)count);
        more++;
    }
    ST_CHECK(rc == SQL_NO_DATA, "SQLMoreResults ends with SQL_NO_DATA: %d", (int)rc);
    ST_CHECK(more == ROWS - 1, "%d further results", more);
    /* Executed again with the same statement: the rows exist now, all fail. */
    rc = SQLExecute(s);
    ST_CHECK(rc == SQL_ERROR && st_has_state(SQL_HANDLE_STMT, s, "23505"),
             "every row failing: SQL_ERROR, got %d", (int)rc);
    /* It stops at the first (psqlODBC's batches). */
    ok = 1;
    for (int i = 0; i < ROWS; i++)
        ok = ok && status[i] == (i == 0 ? SQL_PARAM_ERROR : SQL_PARAM_UNUSED);
    ST_CHECK(ok && processed == 1, "statuses, processed %lu", (unsigned long)processed);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* UPDATE rows touching 1, 2 and 3 rows: each count through SQLMoreResults. */
static void update_counts(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    SQLINTEGER upto[3] = {1, 2, 3};
    SQLLEN ind[3] = {0};
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)3, 0), s);
    bind_ints(s, 1, upto, ind);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"update parr set v = v where id <= ?", SQL_NTS), s);
    SQLLEN count = 0;
    ST_OK(SQLRowCount(s, &count), s);
    ST_CHECK(count == 6, "total of the three rows: %ld", (long)count);
    ST_OK(SQLMoreResults(s), s);
    ST_OK(SQLRowCount(s, &count), s);
    ST_CHECK(count == 2, "second row's count %ld", (long)count);
    ST_OK(SQLMoreResults(s), s);
    ST_OK(SQLRowCount(s, &count), s);
    ST_CHECK(count == 3, "third row's count %ld", (long)count);
    ST_CHECK(SQLMoreResults(s) == SQL_NO_DATA, "no fourth result");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* A SELECT with an array: one result set per row. */
static void select_sets(st_conn *c, int in_transaction)
{
    /* In a transaction a global connection runs the rows one by one; each
     * row's set is kept there too. */
    manual_commit_if(c, in_transaction);
    SQLHSTMT s = st_stmt(c);
    SQLINTEGER keys[4] = {3, 7, 1000, 9};
    SQLLEN ind[4] = {0};
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)4, 0), s);
    bind_ints(s, 1, keys, ind);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select v from parr where id = ?", SQL_NTS), s);
    int want[4] = {4, 12, -1, 16};    /* -1: no row */
    for (int set = 0; set < 4; set++) {
        SQLINTEGER v = 0;
        SQLLEN vind = 0;
        SQLRETURN rc = SQLFetch(s);
        if (want[set] < 0) {
            ST_CHECK(rc == SQL_NO_DATA, "set %d is empty: %d", set + 1, (int)rc);
        } else {
            ST_OK(rc, s);
            ST_OK(SQLGetData(s, 1, SQL_C_SLONG, &v, 0, &vind), s);
            ST_CHECK(v == want[set], "set %d: %d", set + 1, (int)v);
            ST_CHECK(SQLFetch(s) == SQL_NO_DATA, "set %d has one row", set + 1);
        }
        SQLRETURN more = SQLMoreResults(s);
        ST_CHECK(more == (set == 3 ? SQL_NO_DATA : SQL_SUCCESS), "after set %d: %d", set + 1,
                 (int)more);
    }
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    commit_and_autocommit_if(c, in_transaction);
}

/* Autocommit: rows 2 and 4 fail (a key that exists, a CHECK). The array
 * stops at row 2 and undoes its batch (autocommit_batches), and the
 * execution fails, as psqlODBC's does: a program that reads only the
 * return code (pyodbc's executemany) sees the error. */
static void failures_autocommit(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    SQLINTEGER ids[5] = {101, 1, 102, 103, 104}, vs[5] = {0, 0, 0, -5, 0};
    SQLLEN ind[5] = {0};
    SQLUSMALLINT status[5];
    SQLULEN processed = 0;
    bind_id_value_rows(s, 5, ids, vs, ind, status, &processed);
    SQLRETURN rc = SQLExecDirect(s, (SQLCHAR *)"insert into parr values (?, ?)", SQL_NTS);
    ST_CHECK(rc == SQL_ERROR && status[0] == SQL_PARAM_ERROR &&
             status[1] == SQL_PARAM_ERROR && status[2] == SQL_PARAM_UNUSED &&
             status[3] == SQL_PARAM_UNUSED && status[4] == SQL_PARAM_UNUSED && processed == 2,
             "stopped at row 2: %d, statuses %d %d %d %d %d, processed %lu", (int)rc,
             status[0], status[1], status[2], status[3], status[4], (unsigned long)processed);
    SQLLEN rows[1] = {0};
    ST_CHECK(diag_rows(s, rows, 1, "23505") == 1 && rows[0] == 2, "23505 about row %ld",
             (long)rows[0]);
    ST_CHECK(strcmp(st_query_text(c, "select count(*) from parr where id > 100"), "0") == 0,
             "row 1 undone with its batch, the rows after row 2 not run");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* Autocommit off: row 3 fails, PostgreSQL aborts the transaction, rows 4
 * and 5 are never run; rows 1 and 2 are undone with the array, which is
 * one statement for the rollback level (SQL_PARAM_ERROR, as psqlODBC
 * reports them); the transaction is rolled back. */
static void failure_in_transaction(st_conn *c)
{
    ST_OK(SQLSetConnectAttr(c->dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0), NULL);
    SQLHSTMT s = st_stmt(c);
    SQLINTEGER ids[5] = {201, 202, 1, 203, 204}, vs[5] = {0};
    SQLLEN ind[5] = {0};
    SQLUSMALLINT status[5];
    SQLULEN processed = 0;
    bind_id_value_rows(s, 5, ids, vs, ind, status, &processed);
    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)"insert into parr values (?, ?)", SQL_NTS), s,
                    "23505");
    ST_CHECK(status[0] == SQL_PARAM_ERROR && status[1] == SQL_PARAM_ERROR &&
             status[2] == SQL_PARAM_ERROR && status[3] == SQL_PARAM_UNUSED &&
             status[4] == SQL_PARAM_UNUSED, "statuses %d %d %d %d %d", status[0], status[1],
             status[2], status[3], status[4]);
    ST_CHECK(processed == 3, "processed %lu", (unsigned long)processed);
    ST_OK(SQLEndTran(SQL_HANDLE_DBC, c->dbc, SQL_ROLLBACK), NULL);
    /* The transaction's rows go with it; a good array then commits. */
    ids[2] = 205;
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"insert into parr values (?, ?)", SQL_NTS), s);
    ST_OK(SQLEndTran(SQL_HANDLE_DBC, c->dbc, SQL_COMMIT), NULL);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    ST_OK(SQLSetConnectAttr(c->dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0), NULL);
    ST_CHECK(strcmp(st_query_text(c, "select string_agg(id::text, ',' order by id) from parr "
                                     "where id > 200"), "201,202,203,204,205") == 0,
             "only the committed array's rows");
    st_exec(c, "delete from parr where id > 200");
}

/* Autocommit off, the default rollback level (2): an array that fails
 * after an earlier statement of the transaction is undone as one statement
 * (on a global connection on every member it reached); the transaction
 * goes on and commits what came before. */
static void failure_after_earlier_work_keeps_the_transaction(st_conn *c)
{
    ST_OK(SQLSetConnectAttr(c->dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0), NULL);
    st_exec(c, "insert into parr values (210, 0)");
    SQLHSTMT s = st_stmt(c);
    SQLINTEGER ids[4] = {211, 212, 1, 213}, vs[4] = {0};
    SQLLEN ind[4] = {0};
    SQLUSMALLINT status[4];
    SQLULEN processed = 0;
    bind_id_value_rows(s, 4, ids, vs, ind, status, &processed);
    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)"insert into parr values (?, ?)", SQL_NTS), s,
                    "23505");
    ST_CHECK(status[2] == SQL_PARAM_ERROR && status[3] == SQL_PARAM_UNUSED,
             "statuses %d %d %d %d", status[0], status[1], status[2], status[3]);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_exec(c, "insert into parr values (214, 0)");
    ST_OK(SQLEndTran(SQL_HANDLE_DBC, c->dbc, SQL_COMMIT), NULL);
    ST_OK(SQLSetConnectAttr(c->dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0), NULL);
    const char *kept = "210,214";
    const char *got = st_query_text(c, "select string_agg(id::text, ',' order by id) from parr "
                                       "where id > 200");
    ST_CHECK(strcmp(got, kept) == 0, "committed %s, expected %s", got, kept);
    st_exec(c, "delete from parr where id > 200");
}

/* SQL_PARAM_IGNORE rows are skipped and reported unused; a row whose value
 * does not convert fails with its row number and ends the array as a
 * failing row does (its batch rolled back, the rows after it unused). */
static void ignored_and_unconvertible(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    char ids[4][8] = {"301", "302", "x3", "304"};
    SQLLEN ind[4] = {SQL_NTS, SQL_NTS, SQL_NTS, SQL_NTS};
    SQLINTEGER vs[4] = {0};
    SQLLEN vind[4] = {0};
    SQLUSMALLINT status[4], operation[4] = {SQL_PARAM_PROCEED, SQL_PARAM_IGNORE,
                                           SQL_PARAM_PROCEED, SQL_PARAM_PROCEED};
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)4, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAM_STATUS_PTR, status, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAM_OPERATION_PTR, operation, 0), s);
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_INTEGER, 0, 0, ids, 8, ind), s);
    bind_ints(s, 2, vs, vind);
    SQLRETURN rc = SQLExecDirect(s, (SQLCHAR *)"insert into parr values (?, ?)", SQL_NTS);
    ST_CHECK(rc == SQL_ERROR, "one row failed: %d", (int)rc);
    ST_CHECK(status[0] == SQL_PARAM_ERROR && status[1] == SQL_PARAM_UNUSED &&
             status[2] == SQL_PARAM_ERROR && status[3] == SQL_PARAM_UNUSED,
             "statuses %d %d %d %d", status[0], status[1], status[2], status[3]);
    SQLLEN rows[1] = {0};
    ST_CHECK(diag_rows(s, rows, 1, "22018") == 1 && rows[0] == 3, "22018 about row %ld",
             (long)rows[0]);
    const char *stored = st_query_text(c, "select coalesce(string_agg(id::text, ',' order by "
                                          "id), 'none') from parr where id > 300");
    ST_CHECK(strcmp(stored, "none") == 0, "stored: %s", stored);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_exec(c, "delete from parr where id > 300");
}

/* Data at execution in an array: the rows run one by one, each asking for
 * its value, each its own transaction in autocommit; a failing row (a key
 * that exists) stops the array there, as psqlODBC's rows run one by one
 * stop: the row before it stays, the row after it is not asked for. */
static void data_at_execution_rows(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    SQLINTEGER ids[3] = {401, 1, 402};
    SQLLEN id_ind[3] = {0};
    SQLLEN v_ind[3];
    SQLUSMALLINT status[3];
    SQLULEN processed = 0;
    for (int i = 0; i < 3; i++)
        v_ind[i] = SQL_DATA_AT_EXEC;
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)3, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAM_STATUS_PTR, status, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMS_PROCESSED_PTR, &processed, 0), s);
    bind_ints(s, 1, ids, id_ind);
    ST_OK(SQLBindParameter(s, 2, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_INTEGER, 0, 0,
                           (SQLPOINTER)2, 0, v_ind), s);
    SQLRETURN rc = SQLExecDirect(s, (SQLCHAR *)"insert into parr values (?, ?)", SQL_NTS);
    int asked = 0;
    SQLPOINTER token;
    while (rc == SQL_NEED_DATA) {
        rc = SQLParamData(s, &token);
        if (rc == SQL_NEED_DATA) {
            ST_CHECK(token == (SQLPOINTER)2, "asked for parameter 2's value");
            char value[16];
            snprintf(value, sizeof value, "%d", 7 * ++asked);
            ST_OK(SQLPutData(s, value, SQL_NTS), s);
        }
    }
    ST_CHECK(asked == 2, "rows 1 and 2 asked for their values: %d", asked);
    ST_CHECK(rc == SQL_ERROR && st_has_state(SQL_HANDLE_STMT, s, "23505"),
             "the failed row reported: %d", (int)rc);
    ST_CHECK(status[0] == SQL_PARAM_SUCCESS && status[1] == SQL_PARAM_ERROR &&
             status[2] == SQL_PARAM_UNUSED && processed == 2, "statuses %d %d %d, processed %lu",
             status[0], status[1], status[2], (unsigned long)processed);
    SQLLEN rows[1] = {0};
    ST_CHECK(diag_rows(s, rows, 1, "23505") == 1 && rows[0] == 2, "23505 about row %ld",
             (long)rows[0]);
    ST_CHECK(strcmp(st_query_text(c, "select string_agg(id || ':' || v, ',' order by id) "
                                     "from parr where id > 400"), "401:7") == 0,
             "row 1 stored with its value");
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_exec(c, "delete from parr where id > 400");
}

/* The query timeout cancels the row running when it expires (HYT00 on
 * that row); in autocommit its batch failed: the row before it is undone,
 * the next row is not run. */
static void timeout_cancels_a_row(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    SQLINTEGER secs[3] = {0, 5, 0};
    SQLLEN ind[3] = {0};
    SQLUSMALLINT status[3];
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_QUERY_TIMEOUT, (SQLPOINTER)1, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)3, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAM_STATUS_PTR, status, 0), s);
    bind_ints(s, 1, secs, ind);
    SQLRETURN rc = SQLExecDirect(s, (SQLCHAR *)"select pg_sleep(?)", SQL_NTS);
    ST_CHECK(rc == SQL_ERROR, "one row timed out: %d", (int)rc);
    SQLLEN rows[1] = {0};
    ST_CHECK(diag_rows(s, rows, 1, "HYT00") == 1 && rows[0] == 2, "HYT00 about row %ld",
             (long)rows[0]);
    ST_CHECK(status[0] == SQL_PARAM_ERROR && status[1] == SQL_PARAM_ERROR &&
             status[2] == SQL_PARAM_UNUSED,
             "statuses %d %d %d", status[0], status[1], status[2]);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
}

/* A text the server refuses fails every row, with one diagnostic. */
static void refused_text(st_conn *c)
{
    SQLHSTMT s = st_stmt(c);
    SQLINTEGER ids[3] = {1, 2, 3};
    SQLLEN ind[3] = {0};
    SQLUSMALLINT status[3];
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)3, 0), s);
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAM_STATUS_PTR, status, 0), s);
    bind_ints(s, 1, ids, ind);
    ST_EXPECT_STATE(SQLExecDirect(s, (SQLCHAR *)"select * from parr_missing where id = ?",
                                  SQL_NTS), s, "42P01");
    ST_CHECK(status[0] == SQL_PARAM_ERROR && status[1] == SQL_PARAM_ERROR &&
             status[2] == SQL_PARAM_ERROR, "statuses %d %d %d", status[0], status[1], status[2]);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    /* The connection works on. */
    ST_CHECK(strcmp(st_query_text(c, "select count(*) from parr"), "50") == 0, "50 rows");
}

/* The lines of the trace at path that contain both a and b. */
static int trace_lines(const char *path, const char *a, const char *b)
{
    FILE *f = fopen(path, "r");
    ST_CHECK(f != NULL, "trace file %s", path);
    int n = 0;
    char line[2048];
    while (f != NULL && fgets(line, sizeof line, f) != NULL)
        n += strstr(line, a) != NULL && strstr(line, b) != NULL;
    if (f != NULL)
        fclose(f);
    return n;
}

/* Connects c with the driver's trace going to a file named after what
 * (path gets its name). */
static void connect_traced(st_conn *c, const char *what, char *path, size_t size)
{
    snprintf(path, size, "/tmp/gc_param_arrays_%s_%d.log", what, (int)getpid());
    char extra[128];
    snprintf(extra, sizeof extra, "LogLevel=3;LogFile=%s", path);
    st_connect_with(c, extra);
}

/* Autocommit off: the driver's BEGIN goes in the array's pipeline, not
 * as a round trip of its own before it (general connection; a global
 * connection's transaction runs its rows one by one). The rows commit
 * with the transaction. */
static void begin_goes_in_the_pipeline(st_conn *c)
{
    char path[64];
    st_conn t;
    connect_traced(&t, "begin", path, sizeof path);
    ST_OK(SQLSetConnectAttr(t.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0), NULL);
    SQLHSTMT s = st_stmt(&t);
    SQLINTEGER ids[5] = {401, 402, 403, 404, 405}, vs[5] = {0};
    SQLLEN ind[5] = {0};
    SQLUSMALLINT status[5];
    SQLULEN processed = 0;
    bind_id_value_rows(s, 5, ids, vs, ind, status, &processed);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"insert into parr values (?, ?)", SQL_NTS), s);
    SQLLEN count = 0;
    ST_OK(SQLRowCount(s, &count), s);
    ST_CHECK(count == 5 && processed == 5, "5 rows, %ld counted", (long)count);
    ST_CHECK(strcmp(st_query_text(c, "select count(*) from parr where id > 400"), "0") == 0,
             "another session sees nothing before the commit");
    ST_OK(SQLEndTran(SQL_HANDLE_DBC, t.dbc, SQL_COMMIT), NULL);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&t);
    ST_CHECK(strcmp(st_query_text(c, "select count(*) from parr where id > 400"), "5") == 0,
             "the 5 rows committed");
    int in_pipeline = trace_lines(path, "pipeline query: BEGIN", "");
    int alone = trace_lines(path, " query: BEGIN", "") - in_pipeline;
    unlink(path);
    ST_CHECK(in_pipeline == 1 && alone == 0, "BEGIN in the pipeline (%d), alone (%d)",
             in_pipeline, alone);
    st_exec(c, "delete from parr where id > 400");
}

/* With the trace on, the array's rows show as one pipeline, not one
 * execution each. */
static void rows_go_pipelined(void)
{
    char path[64];
    st_conn c;
    connect_traced(&c, "rows", path, sizeof path);
    SQLHSTMT s = st_stmt(&c);
    SQLINTEGER keys[20];
    SQLLEN ind[20] = {0};
    for (int i = 0; i < 20; i++)
        keys[i] = i + 1;
    ST_OK(SQLSetStmtAttr(s, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)20, 0), s);
    bind_ints(s, 1, keys, ind);
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"update parr set v = v where id = ?", SQL_NTS), s);
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(&c);
    int pipelined = trace_lines(path, "parameter array of 20 rows pipelined", "");
    int single = trace_lines(path, "update parr set v = v where id = $1",
                             "query (1 parameters)");
    unlink(path);
    ST_CHECK(pipelined == 1 && single == 0, "one pipeline (%d), no single executions (%d)",
             pipelined, single);
}

int main(void)
{
    global = getenv("GC_TEST_GLOBAL") != NULL;
    st_conn c;
    st_connect(&c);
    st_exec(&c, "drop table if exists parr");
    st_exec(&c, "create table parr(id int primary key, v int check (v >= 0))");
    SQLUINTEGER counts = 0, selects = 0;
    ST_OK(SQLGetInfo(c.dbc, SQL_PARAM_ARRAY_ROW_COUNTS, &counts, sizeof counts, NULL), NULL);
    ST_OK(SQLGetInfo(c.dbc, SQL_PARAM_ARRAY_SELECTS, &selects, sizeof selects, NULL), NULL);
    ST_CHECK(counts == SQL_PARC_BATCH && selects == SQL_PAS_BATCH,
             "SQLGetInfo says what arrays give: %u %u", (unsigned)counts, (unsigned)selects);
    insert_rows(&c);
    update_counts(&c);
    psqlodbc_batch_size(&c);
    st_exec(&c, "create or replace function parr_note(v int) returns int language plpgsql as "
                "$$ begin if v % 2 = 1 then raise notice 'odd %', v; end if; return v; end $$");
    notices_are_their_rows(&c, 0);
    notices_are_their_rows(&c, 1);
    select_sets(&c, 0);
    select_sets(&c, 1);
    autocommit_batches(&c);
    failures_autocommit(&c);
    failure_in_transaction(&c);
    failure_after_earlier_work_keeps_the_transaction(&c);
    ignored_and_unconvertible(&c);
    data_at_execution_rows(&c);
    timeout_cancels_a_row(&c);
    refused_text(&c);
    rows_go_pipelined();
    if (!global)
        begin_goes_in_the_pipeline(&c);
    st_exec(&c, "drop table parr");
    st_disconnect(&c);
    return st_finish("param_arrays");
}
