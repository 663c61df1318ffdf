/*
 * A statement that fails inside a transaction, at each rollback level
 * (RollbackOnError, psqlODBC's Protocol=7.4-<level>; docs/transactions.md):
 * 2 (the default) undoes the statement alone and the transaction goes on;
 * 1 rolls the whole transaction back; 0 leaves it aborted (25P02). Proven
 * by what a second connection sees after COMMIT. Also: errors that arrive
 * with a later row, batches, the application's own savepoints, SQL BEGIN
 * with autocommit on, and the key's bad values.
 */
#include "st_test.h"

static const char *dsn(void)
{
    return getenv("GC_TEST_DSN");
}

/* Connects with extra connection-string keys; autocommit off. */
static SQLRETURN connect_with(st_conn *c, const char *keys)
{
    SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &c->env);
    SQLSetEnvAttr(c->env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
    SQLAllocHandle(SQL_HANDLE_DBC, c->env, &c->dbc);
    char connstr[256];
    snprintf(connstr, sizeof connstr, "DSN=%s;%s", dsn(), keys);
    SQLRETURN rc = SQLDriverConnect(c->dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0, NULL,
                                    SQL_DRIVER_NOPROMPT);
    if (ST_SUCCEEDED(rc))
        SQLSetConnectAttr(c->dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0);
    return rc;
}

/* Runs sql on s after closing what s had open; the diagnostics stay. */
static SQLRETURN run(SQLHSTMT s, const char *sql)
{
    SQLFreeStmt(s, SQL_CLOSE);
    return SQLExecDirect(s, (SQLCHAR *)sql, SQL_NTS);
}

/* The committed ids of the table, as "1,2" (seen by another connection). */
static const char *committed(st_conn *observer)
{
    return st_query_text(observer,
                         "select coalesce(string_agg(id::text, ',' order by id), '') from rb_t");
}

static void commit(st_conn *c)
{
    SQLRETURN rc = SQLEndTran(SQL_HANDLE_DBC, c->dbc, SQL_COMMIT);
    ST_CHECK(rc == SQL_SUCCESS, "commit rc=%d", (int)rc);
    if (rc != SQL_SUCCESS)
        st_dump_diag(SQL_HANDLE_DBC, c->dbc);
}

/* An empty table and a connection with `keys` (autocommit off). */
static SQLHSTMT start(st_conn *observer, const char *keys, st_conn *c)
{
    st_exec(observer, "truncate rb_t");
    ST_CHECK(ST_SUCCEEDED(connect_with(c, keys)), "connect %s", keys);
    return st_stmt(c);
}

static void finish(st_conn *c, SQLHSTMT s)
{
    SQLFreeHandle(SQL_HANDLE_STMT, s);
    st_disconnect(c);
}

/* Level 2: every kind of statement that fails is undone alone. */
static void statement_level(st_conn *observer, const char *keys)
{
    st_conn c;
    SQLHSTMT s = start(observer, keys, &c);

    /* The first statement of a transaction fails: nothing to keep. */
    ST_EXPECT_STATE(run(s, "insert into rb_t values (1/0)"), s, "22012");
    ST_OK(run(s, "insert into rb_t values (1)"), s);
    /* A prepared statement with a parameter fails (duplicate key). */
    SQLINTEGER id = 0;
    ST_OK(SQLPrepare(s, (SQLCHAR *)"insert into rb_t values (?)", SQL_NTS), s);
    ST_OK(SQLBindParameter(s, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &id, 0, NULL),
          s);
    id = 2;
    ST_OK(SQLExecute(s), s);
    id = 1;
    ST_EXPECT_STATE(SQLExecute(s), s, "23505");
    id = 3;
    ST_OK(SQLExecute(s), s);
    SQLFreeStmt(s, SQL_RESET_PARAMS);
    /* A text without parameters, and a batch whose second statement fails
     * after its first one wrote (the whole batch is undone). */
    ST_EXPECT_STATE(run(s, "select * from no_such_table"), s, "42P01");
    ST_EXPECT_STATE(run(s, "insert into rb_t values (4); select 1/0"), s, "22012");
    /* An error that comes with a later row: within the first window
     * (FetchWindowRows rows) the statement fails at once; beyond it, the
     * fetch that reaches it says so. */
    ST_EXPECT_STATE(run(s, "select 10 / (3 - g) from generate_series(1, 5) g"), s, "22012");
    ST_OK(SQLExecDirect(s, (SQLCHAR *)"select 1 / (2000 - g) from generate_series(1, 3000) g",
                        SQL_NTS), s);
    SQLRETURN rc;
    int fetched = 0;
    while ((rc = SQLFetch(s)) == SQL_SUCCESS)
        fetched++;
    ST_CHECK(rc == SQL_ERROR && st_has_state(SQL_HANDLE_STMT, s, "22012"),
             "error after %d rows: rc=%d", fetched, (int)rc);
    ST_CHECK(fetched == 1999, "rows before the error: %d", fetched);
    SQLFreeStmt(s, SQL_CLOSE);
    /* The application's own savepoint still works around ours. */
    ST_OK(run(s, "savepoint mine"), s);
    ST_OK(run(s, "insert into rb_t values (5)"), s);
    ST_EXPECT_STATE(run(s, "insert into rb_t values ('x')"), s, "22P02");
    ST_OK(run(s, "rollback to savepoint mine"), s);
    ST_OK(run(s, "insert into rb_t values (6)"), s);
    /* Going back to (or releasing) a savepoint never set fails alone too:
     * the driver's savepoint before it is the newest, so a ROLLBACK TO or
     * RELEASE that succeeds ends it, and one that fails goes back to it. */
    ST_EXPECT_STATE(run(s, "rollback to savepoint never_set"), s, "3B001");
    ST_EXPECT_STATE(run(s, "release never_set"), s, "3B001");
    ST_OK(run(s, "release savepoint mine"), s);
    ST_EXPECT_STATE(run(s, "release savepoint mine"), s, "3B001");
    ST_CHECK(strcmp(st_query_text(&c, "select count(*) from rb_t"), "4") == 0,
             "rows inside the transaction");
    commit(&c);
    ST_CHECK(strcmp(committed(observer), "1,2,3,6") == 0, "committed %s", committed(observer));

    /* A statement refused in a transaction block stays refused there, and
     * is undone alone too. */
    ST_OK(run(s, "insert into rb_t values (7)"), s);
    ST_EXPECT_STATE(run(s, "vacuum rb_t"), s, "25001");
    ST_OK(run(s, "insert into rb_t values (8)"), s);
    commit(&c);
    ST_CHECK(strcmp(committed(observer), "1,2,3,6,7,8") == 0, "committed %s",
             committed(observer));

    /* SQL BEGIN with autocommit on: the same inside that block. */
    SQLSetConnectAttr(c.dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0);
    ST_OK(run(s, "begin"), s);
    ST_OK(run(s, "insert into rb_t values (9)"), s);
    ST_EXPECT_STATE(run(s, "insert into rb_t values (9)"), s, "23505");
    ST_OK(run(s, "insert into rb_t values (10)"), s);
    ST_OK(run(s, "commit"), s);
    ST_CHECK(strcmp(committed(observer), "1,2,3,6,7,8,9,10") == 0, "committed %s",
             committed(observer));
    finish(&c, s);
}

/* A cursor closed before the error its rows led to: the application never
 * saw the error, so the driver does not hide it either; the transaction
 * stays aborted, as the server left it (25P02, then 40000 at COMMIT). */
static void unseen_error_is_not_hidden(st_conn *observer, const char *keys)
{
    st_conn c;
    SQLHSTMT s = start(observer, keys, &c);
    ST_OK(run(s, "insert into rb_t values (1)"), s);
    ST_OK(run(s, "select 1 / (2000 - g) from generate_series(1, 3000) g"), s);
    ST_OK(SQLFetch(s), s);
    ST_OK(SQLFreeStmt(s, SQL_CLOSE), s);
    ST_EXPECT_STATE(run(s, "insert into rb_t values (2)"), s, "25P02");
    SQLRETURN rc = SQLEndTran(SQL_HANDLE_DBC, c.dbc, SQL_COMMIT);
    ST_CHECK(rc == SQL_ERROR && st_has_state(SQL_HANDLE_DBC, c.dbc, "40000"),
             "%s: commit after the unseen error rc=%d", keys, (int)rc);
    ST_CHECK(strcmp(committed(observer), "") == 0, "committed %s", committed(observer));
    finish(&c, s);
}

/* Level 1: the failed statement takes its transaction with it. */
static void transaction_level(st_conn *observer, const char *keys)
{
    st_conn c;
    SQLHSTMT s = start(observer, keys, &c);
    ST_OK(run(s, "insert into rb_t values (1)"), s);
    ST_EXPECT_STATE(run(s, "insert into rb_t values (1)"), s, "23505");
    /* A new transaction: not 25P02. */
    ST_OK(run(s, "insert into rb_t values (2)"), s);
    ST_EXPECT_STATE(run(s, "select 1/0"), s, "22012");
    ST_OK(run(s, "insert into rb_t values (3)"), s);
    commit(&c);
    ST_CHECK(strcmp(committed(observer), "3") == 0, "committed %s", committed(observer));
    /* A savepoint never set: as any failed statement, at this level. */
    ST_OK(run(s, "insert into rb_t values (4)"), s);
    ST_EXPECT_STATE(run(s, "rollback to savepoint never_set"), s, "3B001");
    ST_OK(run(s, "insert into rb_t values (5)"), s);
    commit(&c);
    ST_CHECK(strcmp(committed(observer), "3,5") == 0, "committed %s", committed(observer));
    finish(&c, s);
}

/* Level 0: the transaction stays aborted until the application ends it. */
static void no_rollback(st_conn *observer, const char *keys)
{
    st_conn c;
    SQLHSTMT s = start(observer, keys, &c);
    ST_OK(run(s, "insert into rb_t values (1)"), s);
    ST_EXPECT_STATE(run(s, "insert into rb_t values (1)"), s, "23505");
    ST_EXPECT_STATE(run(s, "insert into rb_t values (2)"), s, "25P02");
    SQLRETURN rc = SQLEndTran(SQL_HANDLE_DBC, c.dbc, SQL_COMMIT);
    ST_CHECK(rc == SQL_ERROR && st_has_state(SQL_HANDLE_DBC, c.dbc, "40000"),
             "commit of the aborted transaction rc=%d", (int)rc);
    ST_OK(run(s, "insert into rb_t values (3)"), s);
    commit(&c);
    ST_CHECK(strcmp(committed(observer), "3") == 0, "committed %s", committed(observer));
    /* A COMMIT sent in SQL, which the server answers ROLLBACK: 40000 too. */
    ST_OK(run(s, "insert into rb_t values (4)"), s);
    ST_EXPECT_STATE(run(s, "insert into rb_t values (3)"), s, "23505");
    ST_EXPECT_STATE(run(s, "commit"), s, "40000");
    ST_OK(run(s, "insert into rb_t values (5)"), s);
    ST_EXPECT_STATE(run(s, "select 1/0"), s, "22012");
    ST_EXPECT_STATE(run(s, "end"), s, "40000");
    ST_OK(run(s, "insert into rb_t values (6)"), s);
    ST_OK(run(s, "commit"), s);
    ST_CHECK(strcmp(committed(observer), "3,6") == 0, "committed %s", committed(observer));
    finish(&c, s);
}

static void bad_values_are_refused(void)
{
    const char *bad[] = { "RollbackOnError=3", "Protocol=7.4-3", "Protocol=6.4", "Protocol=x" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        st_conn c;
        SQLRETURN rc = connect_with(&c, bad[i]);
        ST_CHECK(rc == SQL_ERROR && st_has_state(SQL_HANDLE_DBC, c.dbc, "HY024"),
                 "%s: rc=%d", bad[i], (int)rc);
        if (ST_SUCCEEDED(rc))
            SQLDisconnect(c.dbc);
        SQLFreeHandle(SQL_HANDLE_DBC, c.dbc);
        SQLFreeHandle(SQL_HANDLE_ENV, c.env);
    }
}

int main(void)
{
    st_conn observer;
    st_connect(&observer);
    st_exec(&observer, "drop table if exists rb_t");
    st_exec(&observer, "create table rb_t (id int primary key)");

    statement_level(&observer, "");
    statement_level(&observer, "Protocol=7.4-2");
    statement_level(&observer, "Protocol=7.4");
    unseen_error_is_not_hidden(&observer, "");
    unseen_error_is_not_hidden(&observer, "RollbackOnError=1");
    transaction_level(&observer, "RollbackOnError=1");
    transaction_level(&observer, "Protocol=7.4-1");
    no_rollback(&observer, "RollbackOnError=0");
    no_rollback(&observer, "protocol=7.4-0");
    bad_values_are_refused();

    st_exec(&observer, "drop table rb_t");
    st_disconnect(&observer);
    return st_finish("rollback_levels");
}
