/*
 * Transactions, proven on the server: with autocommit off nothing is visible
 * to another session until SQLEndTran(COMMIT); ROLLBACK discards; turning
 * autocommit back on commits; SQLEndTran on the environment reaches every
 * connection; SQL_ATTR_TXN_ISOLATION and SQL_ATTR_ACCESS_MODE take effect.
 */
#include "conn_test.h"

static void set_autocommit(SQLHDBC dbc, SQLULEN on)
{
    SQLRETURN rc = SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)on, 0);
    CT_CHECK(CT_OK(rc), "autocommit %lu rc=%d", (unsigned long)on, rc);
}

static long rows(PGconn *pg)
{
    return ct_pq_long(pg, "SELECT count(*) FROM gc_txn_test");
}

static void test_commit_and_rollback_seen_by_another_session(SQLHDBC dbc, PGconn *pg)
{
    ct_pq_exec(pg, "TRUNCATE gc_txn_test");
    set_autocommit(dbc, SQL_AUTOCOMMIT_OFF);

    CT_CHECK(CT_OK(ct_exec(dbc, "INSERT INTO gc_txn_test VALUES (1)", NULL)), "insert 1");
    CT_CHECK(rows(pg) == 0, "uncommitted row visible: %ld", rows(pg));
    CT_CHECK(SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_COMMIT) == SQL_SUCCESS, "commit");
    CT_CHECK(rows(pg) == 1, "committed row not visible: %ld", rows(pg));

    CT_CHECK(CT_OK(ct_exec(dbc, "INSERT INTO gc_txn_test VALUES (2)", NULL)), "insert 2");
    CT_CHECK(SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_ROLLBACK) == SQL_SUCCESS, "rollback");
    CT_CHECK(rows(pg) == 1, "rolled back row visible: %ld", rows(pg));

    /* Nothing open: SQLEndTran succeeds and sends nothing. */
    CT_CHECK(SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_COMMIT) == SQL_SUCCESS, "idle commit");
    CT_CHECK(SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_ROLLBACK) == SQL_SUCCESS, "idle rollback");

    /* Turning autocommit on commits what is open (ODBC rule). */
    CT_CHECK(CT_OK(ct_exec(dbc, "INSERT INTO gc_txn_test VALUES (3)", NULL)), "insert 3");
    CT_CHECK(rows(pg) == 1, "row 3 visible too early");
    set_autocommit(dbc, SQL_AUTOCOMMIT_ON);
    CT_CHECK(rows(pg) == 2, "autocommit on did not commit: %ld", rows(pg));

    /* Autocommit on: each statement is visible at once. */
    CT_CHECK(CT_OK(ct_exec(dbc, "INSERT INTO gc_txn_test VALUES (4)", NULL)), "insert 4");
    CT_CHECK(rows(pg) == 3, "autocommit insert not visible: %ld", rows(pg));
}

/* With RollbackOnError=0 a failed statement leaves the transaction
 * aborted (the default, 2, undoes the statement alone: see
 * tests/integration/statements/test_rollback_levels.c). */
static void test_failed_statement_then_commit_reports_rollback(SQLHENV env, PGconn *pg)
{
    SQLHDBC dbc;
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    char connstr[256];
    snprintf(connstr, sizeof connstr, "DSN=%s;RollbackOnError=0", ct_dsn());
    SQLRETURN connected = SQLDriverConnect(dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0,
                                           NULL, SQL_DRIVER_NOPROMPT);
    CT_CHECK(CT_OK(connected), "connect with RollbackOnError=0 rc=%d", connected);
    ct_pq_exec(pg, "TRUNCATE gc_txn_test");
    set_autocommit(dbc, SQL_AUTOCOMMIT_OFF);
    CT_CHECK(CT_OK(ct_exec(dbc, "INSERT INTO gc_txn_test VALUES (1)", NULL)), "insert");
    char state[6];
    CT_CHECK(ct_exec(dbc, "SELECT 1/0", state) == SQL_ERROR, "division should fail");
    CT_CHECK(strcmp(state, "22012") == 0, "state %s", state);
    SQLRETURN rc = SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_COMMIT);
    CT_CHECK(rc == SQL_ERROR, "commit of an aborted transaction rc=%d", rc);
    CT_CHECK(strcmp(ct_sqlstate(SQL_HANDLE_DBC, dbc), "40000") == 0, "state %s",
             ct_sqlstate(SQL_HANDLE_DBC, dbc));
    CT_CHECK(rows(pg) == 0, "row of a failed transaction committed");
    /* The connection is usable again. */
    CT_CHECK(CT_OK(ct_exec(dbc, "INSERT INTO gc_txn_test VALUES (2)", NULL)), "insert after");
    CT_CHECK(SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_COMMIT) == SQL_SUCCESS, "commit after");
    CT_CHECK(rows(pg) == 1, "rows %ld", rows(pg));
    set_autocommit(dbc, SQL_AUTOCOMMIT_ON);
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
}

static void test_endtran_on_environment(SQLHENV env, SQLHDBC dbc, PGconn *pg)
{
    SQLHDBC dbc2;
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc2);
    SQLRETURN rc = SQLConnect(dbc2, (SQLCHAR *)ct_dsn(), SQL_NTS, NULL, 0, NULL, 0);
    CT_CHECK(CT_OK(rc), "second connect");
    ct_pq_exec(pg, "TRUNCATE gc_txn_test");
    set_autocommit(dbc, SQL_AUTOCOMMIT_OFF);
    set_autocommit(dbc2, SQL_AUTOCOMMIT_OFF);
    ct_exec(dbc, "INSERT INTO gc_txn_test VALUES (1)", NULL);
    ct_exec(dbc2, "INSERT INTO gc_txn_test VALUES (2)", NULL);
    CT_CHECK(rows(pg) == 0, "rows before commit %ld", rows(pg));
    rc = SQLEndTran(SQL_HANDLE_ENV, env, SQL_COMMIT);
    CT_CHECK(rc == SQL_SUCCESS, "env commit rc=%d", rc);
    CT_CHECK(rows(pg) == 2, "env commit reached %ld rows", rows(pg));

    ct_exec(dbc, "INSERT INTO gc_txn_test VALUES (3)", NULL);
    ct_exec(dbc2, "INSERT INTO gc_txn_test VALUES (4)", NULL);
    rc = SQLEndTran(SQL_HANDLE_ENV, env, SQL_ROLLBACK);
    CT_CHECK(rc == SQL_SUCCESS, "env rollback rc=%d", rc);
    CT_CHECK(rows(pg) == 2, "env rollback left %ld rows", rows(pg));
    set_autocommit(dbc, SQL_AUTOCOMMIT_ON);
    SQLDisconnect(dbc2);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc2);
}

static void test_isolation_level(SQLHDBC dbc)
{
    SQLUINTEGER level = 0;
    SQLGetConnectAttr(dbc, SQL_ATTR_TXN_ISOLATION, &level, 0, NULL);
    CT_CHECK(level == SQL_TXN_READ_COMMITTED, "default level %u", (unsigned)level);

    SQLRETURN rc = SQLSetConnectAttr(dbc, SQL_ATTR_TXN_ISOLATION,
                                     (SQLPOINTER)SQL_TXN_SERIALIZABLE, 0);
    CT_CHECK(rc == SQL_SUCCESS, "set serializable rc=%d", rc);
    SQLGetConnectAttr(dbc, SQL_ATTR_TXN_ISOLATION, &level, 0, NULL);
    CT_CHECK(level == SQL_TXN_SERIALIZABLE, "level %u", (unsigned)level);

    /* Autocommit on: each statement's own transaction is serializable. */
    char *s = ct_query_string(dbc, "SHOW transaction_isolation");
    CT_CHECK(s != NULL && strcmp(s, "serializable") == 0, "autocommit: %s", s ? s : "(null)");
    free(s);
    /* Autocommit off: the transaction the driver begins is too. */
    set_autocommit(dbc, SQL_AUTOCOMMIT_OFF);
    s = ct_query_string(dbc, "SHOW transaction_isolation");
    CT_CHECK(s != NULL && strcmp(s, "serializable") == 0, "manual: %s", s ? s : "(null)");
    free(s);
    /* Changing the level inside a transaction is refused (HY011). */
    rc = SQLSetConnectAttr(dbc, SQL_ATTR_TXN_ISOLATION,
                           (SQLPOINTER)SQL_TXN_REPEATABLE_READ, 0);
    CT_CHECK(rc == SQL_ERROR && strcmp(ct_sqlstate(SQL_HANDLE_DBC, dbc), "HY011") == 0,
             "rc=%d state=%s", rc, ct_sqlstate(SQL_HANDLE_DBC, dbc));
    SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_ROLLBACK);
    rc = SQLSetConnectAttr(dbc, SQL_ATTR_TXN_ISOLATION,
                           (SQLPOINTER)SQL_TXN_REPEATABLE_READ, 0);
    CT_CHECK(rc == SQL_SUCCESS, "rc=%d", rc);
    s = ct_query_string(dbc, "SHOW transaction_isolation");
    CT_CHECK(s != NULL && strcmp(s, "repeatable read") == 0, "level: %s", s ? s : "(null)");
    free(s);
    SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_ROLLBACK);
    set_autocommit(dbc, SQL_AUTOCOMMIT_ON);
    SQLSetConnectAttr(dbc, SQL_ATTR_TXN_ISOLATION, (SQLPOINTER)SQL_TXN_READ_COMMITTED, 0);
    rc = SQLSetConnectAttr(dbc, SQL_ATTR_TXN_ISOLATION, (SQLPOINTER)12345, 0);
    CT_CHECK(rc == SQL_ERROR, "bad level accepted");
}

static void test_read_only_refuses_writes(SQLHDBC dbc, PGconn *pg)
{
    ct_pq_exec(pg, "TRUNCATE gc_txn_test");
    SQLRETURN rc = SQLSetConnectAttr(dbc, SQL_ATTR_ACCESS_MODE,
                                     (SQLPOINTER)SQL_MODE_READ_ONLY, 0);
    CT_CHECK(rc == SQL_SUCCESS, "read only rc=%d", rc);
    char state[6];
    rc = ct_exec(dbc, "INSERT INTO gc_txn_test VALUES (1)", state);
    CT_CHECK(rc == SQL_ERROR && strcmp(state, "25006") == 0, "autocommit write rc=%d state=%s",
             rc, state);
    set_autocommit(dbc, SQL_AUTOCOMMIT_OFF);
    rc = ct_exec(dbc, "INSERT INTO gc_txn_test VALUES (1)", state);
    CT_CHECK(rc == SQL_ERROR && strcmp(state, "25006") == 0, "manual write rc=%d state=%s",
             rc, state);
    SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_ROLLBACK);
    SQLCHAR ro[4];
    SQLGetInfo(dbc, SQL_DATA_SOURCE_READ_ONLY, ro, sizeof ro, NULL);
    CT_CHECK(strcmp((char *)ro, "Y") == 0, "SQL_DATA_SOURCE_READ_ONLY %s", ro);

    SQLSetConnectAttr(dbc, SQL_ATTR_ACCESS_MODE, (SQLPOINTER)SQL_MODE_READ_WRITE, 0);
    rc = ct_exec(dbc, "INSERT INTO gc_txn_test VALUES (1)", NULL);
    CT_CHECK(CT_OK(rc), "write after read-write rc=%d", rc);
    SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_COMMIT);
    CT_CHECK(rows(pg) == 1, "rows %ld", rows(pg));
    set_autocommit(dbc, SQL_AUTOCOMMIT_ON);
}

static void test_attributes_before_connect_apply(SQLHENV env)
{
    SQLHDBC dbc;
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    SQLSetConnectAttr(dbc, SQL_ATTR_TXN_ISOLATION, (SQLPOINTER)SQL_TXN_SERIALIZABLE, 0);
    SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0);
    SQLRETURN rc = SQLConnect(dbc, (SQLCHAR *)ct_dsn(), SQL_NTS, NULL, 0, NULL, 0);
    CT_CHECK(CT_OK(rc), "connect rc=%d", rc);
    char *s = ct_query_string(dbc, "SHOW transaction_isolation");
    CT_CHECK(s != NULL && strcmp(s, "serializable") == 0, "level %s", s ? s : "(null)");
    free(s);
    /* Disconnecting with a transaction open rolls it back. */
    rc = SQLDisconnect(dbc);
    CT_CHECK(CT_OK(rc), "disconnect rc=%d", rc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
}

int main(void)
{
    PGconn *pg = ct_pq_connect("conninfo");
    ct_pq_exec(pg, "DROP TABLE IF EXISTS gc_txn_test");
    ct_pq_exec(pg, "CREATE TABLE gc_txn_test (id int)");

    SQLHENV env;
    SQLHDBC dbc;
    ct_connect(&env, &dbc);
    test_commit_and_rollback_seen_by_another_session(dbc, pg);
    test_failed_statement_then_commit_reports_rollback(env, pg);
    test_endtran_on_environment(env, dbc, pg);
    test_isolation_level(dbc);
    test_read_only_refuses_writes(dbc, pg);
    test_attributes_before_connect_apply(env);
    ct_disconnect(env, dbc);

    ct_pq_exec(pg, "DROP TABLE IF EXISTS gc_txn_test");
    PQfinish(pg);
    return ct_finish("test_transactions");
}
