/*
 * SQLEndTran(ROLLBACK) after the server ended the session while its
 * transaction sat idle (pg_terminate_backend from another session, nothing
 * sent in between): the transaction is gone either way, so the rollback
 * succeeds (SQL_SUCCESS_WITH_INFO, 01000 saying the session ended), its
 * write is not applied, the connection is dead from then on, and after
 * SQLDisconnect / SQLConnect on the same handle the next transaction
 * commits. Twice, since the defect showed in 2 of 2 runs.
 */
#include <unistd.h>

#include "conn_test.h"

static void rollback_after_terminate(SQLHDBC dbc, PGconn *admin, int run)
{
    SQLRETURN rc = SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0);
    CT_CHECK(CT_OK(rc), "run %d: autocommit off rc=%d", run, rc);
    CT_CHECK(CT_OK(ct_exec(dbc, "INSERT INTO rollback_after_terminate VALUES (1)", NULL)),
             "run %d: insert", run);
    char *pid = ct_query_string(dbc, "SELECT pg_backend_pid()");
    CT_CHECK(pid != NULL, "run %d: no backend pid", run);
    if (pid == NULL)
        return;
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT pg_terminate_backend(%s, 5000)::int", pid);
    CT_CHECK(ct_pq_long(admin, sql) == 1, "run %d: terminate failed", run);
    free(pid);
    usleep(200000);

    rc = SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_ROLLBACK);
    CT_CHECK(rc == SQL_SUCCESS_WITH_INFO, "run %d: rollback rc=%d state=%s", run, rc,
             ct_sqlstate(SQL_HANDLE_DBC, dbc));
    CT_CHECK(ct_has_state(SQL_HANDLE_DBC, dbc, "01000"), "run %d: rollback without 01000", run);
    CT_CHECK(ct_pq_long(admin, "SELECT count(*) FROM rollback_after_terminate") == 0,
             "run %d: the rolled-back insert is visible", run);
    SQLUINTEGER dead = 0;
    SQLGetConnectAttr(dbc, SQL_ATTR_CONNECTION_DEAD, &dead, 0, NULL);
    CT_CHECK(dead == SQL_CD_TRUE, "run %d: connection dead = %u", run, (unsigned)dead);

    rc = SQLDisconnect(dbc);
    CT_CHECK(CT_OK(rc), "run %d: disconnect rc=%d", run, rc);
    rc = SQLConnect(dbc, (SQLCHAR *)ct_dsn(), SQL_NTS, NULL, 0, NULL, 0);
    CT_CHECK(CT_OK(rc), "run %d: reconnect rc=%d", run, rc);
    rc = SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0);
    CT_CHECK(CT_OK(rc), "run %d: autocommit off after reconnect rc=%d", run, rc);
    CT_CHECK(CT_OK(ct_exec(dbc, "INSERT INTO rollback_after_terminate VALUES (2)", NULL)),
             "run %d: insert of the next transaction", run);
    rc = SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_COMMIT);
    CT_CHECK(rc == SQL_SUCCESS, "run %d: commit of the next transaction rc=%d", run, rc);
    CT_CHECK(ct_pq_long(admin, "SELECT count(*) FROM rollback_after_terminate WHERE a = 2") == 1,
             "run %d: the next transaction's row is not there once", run);
    ct_pq_exec(admin, "DELETE FROM rollback_after_terminate");
}

int main(void)
{
    PGconn *admin = ct_pq_connect("admin_conninfo");
    ct_pq_exec(admin, "DROP TABLE IF EXISTS rollback_after_terminate");
    ct_pq_exec(admin, "CREATE TABLE rollback_after_terminate (a int)");
    ct_pq_exec(admin, "GRANT ALL ON rollback_after_terminate TO gcodbc");
    SQLHENV env;
    SQLHDBC dbc;
    ct_connect(&env, &dbc);
    for (int run = 1; run <= 2; run++)
        rollback_after_terminate(dbc, admin, run);
    ct_disconnect(env, dbc);
    ct_pq_exec(admin, "DROP TABLE rollback_after_terminate");
    PQfinish(admin);
    return ct_finish("test_rollback_after_terminate");
}
