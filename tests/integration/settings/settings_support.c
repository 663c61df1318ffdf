/* settings_support.c: see settings_support.h. */
#include "settings_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcodbc.h"

SQLRETURN st_exec(SQLHDBC dbc, const char *sql, char state[6], char *msg, size_t msg_size)
{
    SQLHSTMT st;
    rt_odbc_check(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st), SQL_HANDLE_DBC, dbc,
                  "SQLAllocHandle(STMT)");
    SQLRETURN rc = SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS);
    if (state != NULL)
        state[0] = '\0';
    if (msg != NULL && msg_size > 0)
        msg[0] = '\0';
    SQLCHAR s[6], m[1024];
    SQLINTEGER native;
    SQLSMALLINT len;
    if (SQL_SUCCEEDED(SQLGetDiagRec(SQL_HANDLE_STMT, st, 1, s, &native, m, sizeof m, &len))) {
        if (state != NULL)
            memcpy(state, s, 6);
        if (msg != NULL && msg_size > 0)
            snprintf(msg, msg_size, "%s", (char *)m);
    }
    if (SQL_SUCCEEDED(rc))
        while (SQL_SUCCEEDED(SQLFetch(st)))
            ;
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return rc;
}

void st_exec_ok(SQLHDBC dbc, const char *sql)
{
    char state[6], msg[1024];
    SQLRETURN rc = st_exec(dbc, sql, state, msg, sizeof msg);
    if (!SQL_SUCCEEDED(rc) && rc != SQL_NO_DATA)
        rt_fail("%s: [%s] %s", sql, state, msg);
}

void st_last_member(SQLHDBC dbc, char *buf, size_t size)
{
    SQLINTEGER len = 0;
    rt_odbc_check(SQLGetConnectAttr(dbc, GCODBC_ATTR_LAST_MEMBER, buf, (SQLINTEGER)size, &len),
                  SQL_HANDLE_DBC, dbc, "SQLGetConnectAttr(GCODBC_ATTR_LAST_MEMBER)");
}

int st_member_index(const rt_cluster *c, const char *name)
{
    for (int i = 0; i < c->n_members; i++)
        if (strcmp(c->members[i].name, name) == 0)
            return i;
    rt_fail("no member named '%s'", name);
}

long st_su_long(rt_cluster *c, int m, const char *sql)
{
    PGresult *r = PQexec(c->members[m].conn, sql);
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        rt_fail("%s: %s: %s", c->members[m].name, sql, PQerrorMessage(c->members[m].conn));
    long v = PQntuples(r) > 0 && !PQgetisnull(r, 0, 0) ? atol(PQgetvalue(r, 0, 0)) : 0;
    PQclear(r);
    return v;
}

long st_app_calls(rt_cluster *c, int m)
{
    return st_su_long(c, m,
                      "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements "
                      "WHERE userid = 'app'::regrole");
}
