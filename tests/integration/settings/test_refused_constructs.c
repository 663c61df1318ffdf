/*
 * Every construct docs/session-dependent-sql.md refuses, one example each,
 * sent through a global connection: each gets 0A000 and leaves no trace on
 * any server (pg_stat_statements of every member, reset first, holds no
 * statement of the application role afterwards). Then the near misses:
 * each must run.
 *
 *   test_refused_constructs DIR DSN
 *
 * pg_stat_statements records statements that completed; most examples here
 * would complete if they were sent (CREATE TEMP VIEW, LISTEN, version(),
 * pg_backend_pid(), ...), so a leak would show.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "settings_support.h"

static const char *const refused[] = {
    /* temporary objects other than tables (temporary tables are kept on
     * their member session: tests/integration/temp_tables) */
    "CREATE TEMPORARY VIEW tv AS SELECT 1",
    "CREATE TEMP SEQUENCE ts",
    "SELECT * FROM pg_temp_3.t",
    "SET search_path = pg_temp, public",
    "EXPLAIN ANALYZE CREATE TEMP TABLE ex AS SELECT 1",
    /* GOLDILOCKS @domain clauses */
    "SELECT * FROM nm@LOCAL",
    "SELECT * FROM nm@GLOBAL",
    "SELECT * FROM nm@CLUSTER",
    "UPDATE nm@G1 SET a = 1",
    "SELECT * FROM nm@G2N1",
    /* session functions and pseudo columns */
    "SELECT currval('nm_seq')",
    "SELECT lastval()",
    "SELECT nm_seq.CURRVAL FROM nm",
    "SELECT UUID()",
    "SELECT version()",
    "SELECT pg_catalog.version()",
    "SELECT SESSION_ID()",
    "SELECT SESSION_SERIAL()",
    "SELECT USER_ID()",
    "SELECT LAST_IDENTITY_VALUE()",
    "SELECT STATEMENT_VIEW_SCN()",
    "SELECT STATEMENT_VIEW_SCN_GCN()",
    "SELECT STATEMENT_VIEW_SCN_DCN()",
    "SELECT STATEMENT_VIEW_SCN_LCN()",
    "SELECT LOCAL_GROUP_ID()",
    "SELECT LOCAL_GROUP_NAME()",
    "SELECT LOCAL_MEMBER_ID()",
    "SELECT LOCAL_MEMBER_NAME()",
    "SELECT LOCAL_MEMBER_POSITION()",
    "SELECT pg_backend_pid()",
    "SELECT inet_server_addr()",
    "SELECT inet_server_port()",
    "SELECT pg_my_temp_schema()",
    "SELECT pg_advisory_lock(1)",
    "SELECT pg_advisory_lock_shared(1)",
    "SELECT pg_try_advisory_lock(1)",
    "SELECT pg_try_advisory_lock_shared(1)",
    "SELECT pg_advisory_unlock(1)",
    "SELECT pg_advisory_unlock_shared(1)",
    "SELECT pg_advisory_unlock_all()",
    "SELECT CLUSTER_GROUP_ID FROM nm",
    "SELECT CLUSTER_GROUP_NAME FROM nm",
    "SELECT CLUSTER_MEMBER_ID FROM nm",
    "SELECT CLUSTER_MEMBER_NAME FROM nm",
    "SELECT CLUSTER_SHARD_ID FROM nm",
    "CREATE TABLE dflt (a bigint DEFAULT currval('nm_seq'))",
    /* session statements */
    "LISTEN chan",
    "UNLISTEN chan",
    "PREPARE p AS SELECT 1",
    "EXECUTE p",
    "DEALLOCATE p",
    "EXPLAIN EXECUTE p",
    "CREATE TABLE ctas AS EXECUTE p",
    "DECLARE c CURSOR WITH HOLD FOR SELECT 1",
    "DISCARD ALL",
    "LOAD 'auto_explain'",
    "PREPARE TRANSACTION 'gx'",
    "COMMIT PREPARED 'gx'",
    "ROLLBACK PREPARED 'gx'",
    "SELECT 1; LISTEN chan",
};

static const char *const near_misses[] = {
    "SELECT 'currval(1)'",
    "SELECT 1 -- LISTEN c",
    "SELECT \"version\" FROM nm",
    "DO $$ BEGIN PERFORM pg_advisory_xact_lock(1); END $$",
    "SELECT version FROM nm",
    "SELECT nm.version FROM nm",
    "SELECT a FROM nm WHERE version = 3",
    "SELECT uuid FROM nm",
    "SELECT currval FROM nm",
    "SELECT a AS version FROM nm",
    "SELECT session_id FROM nm",
    "SELECT CAST('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' AS uuid)",
    "SELECT gen_random_uuid()",
    "SELECT my_uuid()",
    "INSERT INTO version (a) VALUES (1)",
    "SELECT n FROM generate_series(1, 3) AS version(n)",
    "WITH version(n) AS (SELECT 1) SELECT n FROM version",
    "SELECT nextval('nm_seq')",
    "SELECT setval('nm_seq', 5)",
    "SELECT pg_advisory_xact_lock(1)",
    "SELECT pg_advisory_xact_lock_shared(1)",
    "SELECT pg_try_advisory_xact_lock(1)",
    "SELECT pg_try_advisory_xact_lock_shared(1)",
    "SELECT pg_is_other_temp_schema(1::oid)",
    "NOTIFY chan",
    "SELECT pg_notify('chan', 'x')",
    "SELECT current_user",
    "SELECT session_user",
    "SELECT now()",
    "SELECT * FROM temp_data",
    "INSERT INTO temp VALUES (1)",
    "SELECT 1 AS temporary",
    "SELECT * FROM pg_temp_stats",
    "SET search_path TO admin, pg_temp, public",
    "RESET search_path",
    "SELECT ARRAY[1, 2] @> ARRAY[1]",
    "SELECT ARRAY[1] <@ ARRAY[1, 2]",
    "SELECT to_tsvector('a b') @@ to_tsquery('a')",
    "SELECT '{\"a\": 1}'::jsonb @? '$.a'",
    "SELECT @(-5)",
    "SELECT @ -5",
    "SELECT @ a FROM nm",
    "SELECT prepare, execute, hold, load FROM nm",
    "SELECT 1 AS listen",
    "SELECT 1 AS deallocate",
    "SELECT x.currval_count FROM (SELECT 1 AS currval_count) x",
    "SELECT 'LISTEN x' AS s",
    "SELECT $$pg_backend_pid()$$",
    "SELECT 1 /* DISCARD ALL */",
    "SELECT E'currval(\\'s\\')'",
    "SELECT nm.cluster_group_id FROM nm",
    "SELECT \"cluster_group_id\" FROM nm",
    "SELECT 1 AS cluster_group_id",
    "SELECT pg_catalog.now()",
    "SET application_name TO 'version()'",
    "RESET application_name",
    "SET statement_timeout = 0",
    "SELECT lower('CURRVAL(x)')",
    "UPDATE nm SET version = 1 WHERE a = -1",
    "DELETE FROM version WHERE a = -1",
    "SELECT * FROM nm t WHERE t.uuid = 1",
    "SHOW search_path",
    "BEGIN",
    "DECLARE c CURSOR FOR SELECT 1",
    "CLOSE c",
    "COMMIT",
    "START TRANSACTION",
    "SELECT 1",
    "SAVEPOINT sp",
    "RELEASE sp",
    "ROLLBACK",
};

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_refused_constructs DIR DSN\n");
        return 2;
    }
    alarm(240);
    rt_cluster c;
    rt_cluster_open(&c, argv[1]);
    char connstr[256];
    snprintf(connstr, sizeof connstr, "DSN=%s;LocalityMemberPolicy=0", argv[2]);
    SQLHENV env;
    SQLHDBC dbc;
    rt_odbc_connect(&env, &dbc, connstr);

    /* After connecting (its own catalog reads are not the test's). */
    rt_reset_statements(&c);
    size_t n_refused = sizeof refused / sizeof refused[0];
    for (size_t i = 0; i < n_refused; i++) {
        char state[6], msg[1024];
        SQLRETURN rc = st_exec(dbc, refused[i], state, msg, sizeof msg);
        if (rc != SQL_ERROR || strcmp(state, "0A000") != 0)
            rt_fail("refused construct \"%s\" gave rc %d [%s] %s, expected 0A000", refused[i],
                    (int)rc, state, msg);
        if (strstr(msg, "not allowed in a global connection") == NULL)
            rt_fail("\"%s\": the message does not say why: %s", refused[i], msg);
    }
    long leaked = 0;
    for (int m = 0; m < c.n_members; m++) {
        long calls = st_app_calls(&c, m);
        printf("  %s: %ld statements of the application after the refusals\n",
               c.members[m].name, calls);
        leaked += calls;
    }
    if (leaked != 0)
        rt_fail("refused statements reached the servers: %ld calls", leaked);
    printf("ok: %zu refused constructs, each 0A000, none reached any of %d members\n",
           n_refused, c.n_members);

    size_t n_near = sizeof near_misses / sizeof near_misses[0];
    for (size_t i = 0; i < n_near; i++)
        st_exec_ok(dbc, near_misses[i]);
    long ran = 0;
    for (int m = 0; m < c.n_members; m++)
        ran += st_app_calls(&c, m);
    if (ran < 40)
        rt_fail("the near misses left only %ld calls on the servers", ran);
    printf("ok: %zu near misses ran (%ld calls recorded on the servers)\n", n_near, ran);

    rt_odbc_disconnect(env, dbc);
    rt_cluster_close(&c);
    printf("PASS\n");
    return 0;
}
