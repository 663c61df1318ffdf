/*
 * A session the server ends (pg_terminate_backend from another session):
 * the driver notices, SQL_ATTR_CONNECTION_DEAD turns true, later calls fail
 * with 08S01 instead of hanging or crashing (but a ROLLBACK, which the
 * server did), and the handle can still be disconnected and connected
 * again; a FATAL met by the implicit BEGIN is worded as psqlODBC words it.
 */
#include <stdbool.h>

#include "conn_test.h"

/* Ends dbc's server session from another one; false when it could not. */
static bool terminate_session(SQLHDBC dbc)
{
    char *pid = ct_query_string(dbc, "SELECT pg_backend_pid()");
    CT_CHECK(pid != NULL, "no backend pid");
    if (pid == NULL)
        return false;
    PGconn *admin = ct_pq_connect("admin_conninfo");
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT pg_terminate_backend(%s, 5000)::int", pid);
    bool ended = ct_pq_long(admin, sql) == 1;
    CT_CHECK(ended, "terminate failed");
    PQfinish(admin);
    free(pid);
    return ended;
}

/* With autocommit off and no transaction open, the next statement's
 * implicit BEGIN meets the server's FATAL: the record is worded as
 * psqlODBC words a lost session, native error 35, whichever statement of
 * the driver's met it. */
static void fatal_at_the_implicit_begin(SQLHDBC dbc)
{
    SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0);
    if (!terminate_session(dbc))
        return;
    SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0);
    SQLHSTMT st;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    SQLRETURN rc = SQLExecDirect(st, (SQLCHAR *)"SELECT 1", SQL_NTS);
    SQLCHAR state[6] = "", msg[512] = "";
    SQLINTEGER native = 0;
    SQLGetDiagRec(SQL_HANDLE_STMT, st, 1, state, &native, msg, sizeof msg, NULL);
    CT_CHECK(rc == SQL_ERROR && strcmp((char *)state, "57P01") == 0, "rc=%d state=%s", rc,
             (char *)state);
    CT_CHECK(native == 35 && strstr((char *)msg, ";\nThe connection has been lost") != NULL,
             "native %d, message %s", (int)native, (char *)msg);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

int main(void)
{
    SQLHENV env;
    SQLHDBC dbc;
    ct_connect(&env, &dbc);
    if (!terminate_session(dbc))
        return ct_finish("test_lost_connection");

    SQLUINTEGER dead = 0;
    /* The first use finds out: the server's 57P01 or libpq's lost link. */
    char state[6];
    SQLRETURN rc = ct_exec(dbc, "SELECT 1", state);
    CT_CHECK(rc == SQL_ERROR, "statement on a dead session rc=%d", rc);
    CT_CHECK(strcmp(state, "57P01") == 0 || strcmp(state, "08S01") == 0, "state %s", state);
    SQLGetConnectAttr(dbc, SQL_ATTR_CONNECTION_DEAD, &dead, 0, NULL);
    CT_CHECK(dead == SQL_CD_TRUE, "connection dead = %u", (unsigned)dead);

    /* Later calls: 08S01, at once. */
    rc = ct_exec(dbc, "SELECT 1", state);
    CT_CHECK(rc == SQL_ERROR && strcmp(state, "08S01") == 0, "second rc=%d state=%s", rc, state);
    SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0);
    rc = ct_exec(dbc, "SELECT 1", state);
    CT_CHECK(rc == SQL_ERROR && strcmp(state, "08S01") == 0, "manual rc=%d state=%s", rc, state);
    /* COMMIT cannot be done; ROLLBACK is done (the server ended the
     * transaction with the session), with a warning, as psqlODBC answers
     * it: a program's `except: rollback()` does not raise in turn. */
    rc = SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_COMMIT);
    CT_CHECK(rc == SQL_ERROR && strcmp(ct_sqlstate(SQL_HANDLE_DBC, dbc), "08S01") == 0,
             "commit rc=%d state=%s", rc, ct_sqlstate(SQL_HANDLE_DBC, dbc));
    rc = SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_ROLLBACK);
    CT_CHECK(rc == SQL_SUCCESS_WITH_INFO && strcmp(ct_sqlstate(SQL_HANDLE_DBC, dbc), "01000") == 0,
             "rollback rc=%d state=%s", rc, ct_sqlstate(SQL_HANDLE_DBC, dbc));
    rc = ct_exec(dbc, "SELECT 1", state);
    CT_CHECK(rc == SQL_ERROR && strcmp(state, "08S01") == 0, "after rollback rc=%d state=%s", rc,
             state);

    /* Disconnect works, and the same handle connects again. */
    rc = SQLDisconnect(dbc);
    CT_CHECK(CT_OK(rc), "disconnect rc=%d", rc);
    rc = SQLConnect(dbc, (SQLCHAR *)ct_dsn(), SQL_NTS, NULL, 0, NULL, 0);
    CT_CHECK(CT_OK(rc), "reconnect rc=%d", rc);
    SQLGetConnectAttr(dbc, SQL_ATTR_CONNECTION_DEAD, &dead, 0, NULL);
    CT_CHECK(dead == SQL_CD_FALSE, "dead after reconnect = %u", (unsigned)dead);
    char *one = ct_query_string(dbc, "SELECT 1");
    CT_CHECK(one != NULL && strcmp(one, "1") == 0, "after reconnect: %s", one ? one : "(null)");
    free(one);
    fatal_at_the_implicit_begin(dbc);
    ct_disconnect(env, dbc);
    return ct_finish("test_lost_connection");
}
