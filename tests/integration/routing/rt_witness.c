/* rt_witness.c: see rt_witness.h. */
#include "rt_witness.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rt_fail(const char *fmt, ...)
{
    va_list ap;

    fputs("FAIL: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

/* Runs a query that must return tuples; the caller clears the result. */
static PGresult *rt_query(rt_member *m, const char *sql)
{
    PGresult *res = PQexec(m->conn, sql);

    if (PQresultStatus(res) != PGRES_TUPLES_OK && PQresultStatus(res) != PGRES_COMMAND_OK)
        rt_fail("%s: %s: %s", m->name, sql, PQerrorMessage(m->conn));
    return res;
}

int rt_group_index(const rt_cluster *c, const char *name)
{
    for (int g = 0; g < c->n_groups; g++)
        if (strcmp(c->groups[g], name) == 0)
            return g;
    return -1;
}

/* The group index of name, added when new. */
static int rt_group_add(rt_cluster *c, const char *name)
{
    int g = rt_group_index(c, name);

    if (g >= 0)
        return g;
    if (c->n_groups == RT_MAX_GROUPS || strlen(name) >= RT_NAME_LEN)
        rt_fail("too many groups or group name too long: %s", name);
    strcpy(c->groups[c->n_groups], name);
    return c->n_groups++;
}

int rt_primary_of(const rt_cluster *c, int g)
{
    for (int i = 0; i < c->n_members; i++)
        if (c->members[i].group == g && !c->members[i].standby)
            return i;
    rt_fail("group %s has no primary", c->groups[g]);
}

/*
 * Reads which group owns each account, as the servers store the rows: every
 * group's primary lists the ids in its local (not foreign) partitions of
 * accounts. Ids must be exactly 1..N, each stored in one group.
 */
static void rt_load_owners(rt_cluster *c)
{
    size_t n = 0, cap = 1024;
    int64_t *ids = malloc(cap * sizeof *ids);
    int *groups = malloc(cap * sizeof *groups);

    if (!ids || !groups)
        rt_fail("out of memory");
    for (int g = 0; g < c->n_groups; g++) {
        rt_member *m = &c->members[rt_primary_of(c, g)];
        PGresult *shards = rt_query(m, "SELECT c.oid::regclass::text FROM pg_inherits i "
                                       "JOIN pg_class c ON c.oid = i.inhrelid "
                                       "WHERE i.inhparent = 'accounts'::regclass AND c.relkind = 'r'");
        for (int s = 0; s < PQntuples(shards); s++) {
            char sql[256];
            snprintf(sql, sizeof sql, "SELECT id FROM %s", PQgetvalue(shards, s, 0));
            PGresult *rows = rt_query(m, sql);
            for (int i = 0; i < PQntuples(rows); i++) {
                if (n == cap) {
                    cap *= 2;
                    ids = realloc(ids, cap * sizeof *ids);
                    groups = realloc(groups, cap * sizeof *groups);
                    if (!ids || !groups)
                        rt_fail("out of memory");
                }
                ids[n] = strtoll(PQgetvalue(rows, i, 0), NULL, 10);
                groups[n++] = g;
            }
            PQclear(rows);
        }
        PQclear(shards);
    }
    if (n == 0)
        rt_fail("accounts is empty");
    c->max_id = (int64_t)n;
    c->owner_of = malloc((n + 1) * sizeof *c->owner_of);
    if (!c->owner_of)
        rt_fail("out of memory");
    for (size_t i = 0; i <= n; i++)
        c->owner_of[i] = -1;
    for (size_t i = 0; i < n; i++) {
        if (ids[i] < 1 || ids[i] > c->max_id)
            rt_fail("accounts ids are not 1..%zu (found %lld)", n, (long long)ids[i]);
        if (c->owner_of[ids[i]] >= 0)
            rt_fail("account %lld is stored in two groups", (long long)ids[i]);
        c->owner_of[ids[i]] = groups[i];
    }
    free(ids);
    free(groups);
}

void rt_cluster_open(rt_cluster *c, const char *dir)
{
    char path[1024], line[1024];

    memset(c, 0, sizeof *c);
    snprintf(path, sizeof path, "%s/witnesses", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        rt_fail("cannot read %s (is the routing cluster up?)", path);
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *sp = strchr(line, ' ');
        if (!sp)
            continue;
        *sp = '\0';
        if (c->n_members == RT_MAX_MEMBERS || strlen(line) >= RT_NAME_LEN)
            rt_fail("too many members or member name too long in %s", path);
        rt_member *m = &c->members[c->n_members++];
        strcpy(m->name, line);
        m->conn = PQconnectdb(sp + 1);
        if (PQstatus(m->conn) != CONNECTION_OK)
            rt_fail("%s: cannot connect: %s", m->name, PQerrorMessage(m->conn));
        PGresult *res = rt_query(m, "SELECT pg_is_in_recovery(), local_group FROM gcluster.cluster");
        if (PQntuples(res) != 1)
            rt_fail("%s: gcluster.cluster has no row", m->name);
        m->standby = strcmp(PQgetvalue(res, 0, 0), "t") == 0;
        m->group = rt_group_add(c, PQgetvalue(res, 0, 1));
        PQclear(res);
    }
    fclose(f);
    if (c->n_members == 0)
        rt_fail("%s lists no member", path);
    rt_load_owners(c);
}

void rt_cluster_close(rt_cluster *c)
{
    for (int i = 0; i < c->n_members; i++)
        PQfinish(c->members[i].conn);
    free(c->owner_of);
    memset(c, 0, sizeof *c);
}

void rt_reset_statements(rt_cluster *c)
{
    for (int i = 0; i < c->n_members; i++)
        PQclear(rt_query(&c->members[i], "SELECT pg_stat_statements_reset()"));
}

long rt_calls(rt_cluster *c, int m, const char *like_pattern)
{
    const char *values[1] = {like_pattern};
    PGresult *res = PQexecParams(c->members[m].conn,
                                 "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements "
                                 "WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) "
                                 "AND query LIKE $1",
                                 1, NULL, values, NULL, NULL, 0);

    if (PQresultStatus(res) != PGRES_TUPLES_OK)
        rt_fail("%s: pg_stat_statements: %s", c->members[m].name, PQerrorMessage(c->members[m].conn));
    long calls = strtol(PQgetvalue(res, 0, 0), NULL, 10);
    PQclear(res);
    return calls;
}

long rt_other_calls(rt_cluster *c, int m)
{
    /* The transaction-id query travels with each autocommit write, in the
     * same exchange (docs/failover.md): part of the write, not a round trip. */
    const char *values[3] = {RT_SELECT_LIKE, RT_UPDATE_LIKE,
                             "SELECT pg_current_xact_id_if_assigned()%"};
    PGresult *res = PQexecParams(c->members[m].conn,
                                 "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements "
                                 "WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) "
                                 "AND userid <> (SELECT oid FROM pg_roles WHERE rolname = current_user) "
                                 "AND query NOT LIKE $1 AND query NOT LIKE $2 AND query NOT LIKE $3",
                                 3, NULL, values, NULL, NULL, 0);

    if (PQresultStatus(res) != PGRES_TUPLES_OK)
        rt_fail("%s: pg_stat_statements: %s", c->members[m].name, PQerrorMessage(c->members[m].conn));
    long calls = strtol(PQgetvalue(res, 0, 0), NULL, 10);
    PQclear(res);
    return calls;
}

uint64_t rt_rng_next(rt_rng *r)
{
    /* splitmix64: good enough spread, trivially reproducible. */
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int64_t rt_random_id(rt_rng *r, const rt_cluster *c)
{
    return (int64_t)(rt_rng_next(r) % (uint64_t)c->max_id) + 1;
}

int64_t rt_random_id_of_group(rt_rng *r, const rt_cluster *c, int g)
{
    for (int tries = 0; tries < 100000; tries++) {
        int64_t id = rt_random_id(r, c);
        if (c->owner_of[id] == g)
            return id;
    }
    rt_fail("group %s owns no account", c->groups[g]);
}

void rt_odbc_check(SQLRETURN rc, SQLSMALLINT htype, SQLHANDLE h, const char *what)
{
    SQLCHAR state[6], msg[512];
    SQLINTEGER native;
    SQLSMALLINT len;

    if (SQL_SUCCEEDED(rc))
        return;
    fprintf(stderr, "%s failed (rc %d)\n", what, (int)rc);
    for (SQLSMALLINT i = 1;
         SQL_SUCCEEDED(SQLGetDiagRec(htype, h, i, state, &native, msg, sizeof msg, &len)); i++)
        fprintf(stderr, "  [%s] %d %s\n", (char *)state, (int)native, (char *)msg);
    rt_fail("%s", what);
}

void rt_odbc_connect(SQLHENV *env, SQLHDBC *dbc, const char *connstr)
{
    rt_odbc_check(SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, env), SQL_HANDLE_ENV, NULL, "SQLAllocHandle(ENV)");
    rt_odbc_check(SQLSetEnvAttr(*env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0),
                  SQL_HANDLE_ENV, *env, "SQLSetEnvAttr");
    rt_odbc_check(SQLAllocHandle(SQL_HANDLE_DBC, *env, dbc), SQL_HANDLE_ENV, *env, "SQLAllocHandle(DBC)");
    rt_odbc_check(SQLDriverConnect(*dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0, NULL,
                                   SQL_DRIVER_NOPROMPT),
                  SQL_HANDLE_DBC, *dbc, connstr);
}

void rt_odbc_disconnect(SQLHENV env, SQLHDBC dbc)
{
    rt_odbc_check(SQLDisconnect(dbc), SQL_HANDLE_DBC, dbc, "SQLDisconnect");
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
}

void rt_point_prepare(rt_point *p, SQLHDBC dbc)
{
    memset(p, 0, sizeof *p);
    rt_odbc_check(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &p->select), SQL_HANDLE_DBC, dbc, "SQLAllocHandle(STMT)");
    rt_odbc_check(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &p->update), SQL_HANDLE_DBC, dbc, "SQLAllocHandle(STMT)");
    rt_odbc_check(SQLPrepare(p->select, (SQLCHAR *)RT_SELECT_SQL, SQL_NTS), SQL_HANDLE_STMT, p->select,
                  "SQLPrepare(SELECT)");
    rt_odbc_check(SQLBindParameter(p->select, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0,
                                   &p->select_key, 0, NULL),
                  SQL_HANDLE_STMT, p->select, "SQLBindParameter(SELECT)");
    rt_odbc_check(SQLBindCol(p->select, 1, SQL_C_SBIGINT, &p->id, 0, &p->id_ind), SQL_HANDLE_STMT, p->select,
                  "SQLBindCol");
    rt_odbc_check(SQLPrepare(p->update, (SQLCHAR *)RT_UPDATE_SQL, SQL_NTS), SQL_HANDLE_STMT, p->update,
                  "SQLPrepare(UPDATE)");
    rt_odbc_check(SQLBindParameter(p->update, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0,
                                   &p->update_key, 0, NULL),
                  SQL_HANDLE_STMT, p->update, "SQLBindParameter(UPDATE)");
}

void rt_point_select(rt_point *p, int64_t id)
{
    p->select_key = id;
    p->id = -1;
    rt_odbc_check(SQLExecute(p->select), SQL_HANDLE_STMT, p->select, "SQLExecute(SELECT)");
    rt_odbc_check(SQLFetch(p->select), SQL_HANDLE_STMT, p->select, "SQLFetch");
    if (p->id != id)
        rt_fail("SELECT of account %lld returned id %lld", (long long)id, (long long)p->id);
    if (SQLFetch(p->select) != SQL_NO_DATA)
        rt_fail("SELECT of account %lld returned more than one row", (long long)id);
    rt_odbc_check(SQLFreeStmt(p->select, SQL_CLOSE), SQL_HANDLE_STMT, p->select, "SQLFreeStmt(CLOSE)");
}

void rt_point_update(rt_point *p, int64_t id)
{
    SQLLEN rows = -1;

    p->update_key = id;
    rt_odbc_check(SQLExecute(p->update), SQL_HANDLE_STMT, p->update, "SQLExecute(UPDATE)");
    rt_odbc_check(SQLRowCount(p->update, &rows), SQL_HANDLE_STMT, p->update, "SQLRowCount");
    if (rows != 1)
        rt_fail("UPDATE of account %lld changed %ld rows", (long long)id, (long)rows);
}

void rt_point_free(rt_point *p)
{
    SQLFreeHandle(SQL_HANDLE_STMT, p->select);
    SQLFreeHandle(SQL_HANDLE_STMT, p->update);
}
