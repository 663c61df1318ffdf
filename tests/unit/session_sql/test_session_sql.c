/*
 * gc_session_sql: every session-dependent construct is refused (0A000, the
 * documented native code, a message naming it), in every spelling, and the
 * near misses that only look like one (strings, comments, quoted identifiers,
 * dollar quotes, columns, aliases, PostgreSQL's @ operators) pass.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/gc_session_sql.h"

typedef struct refused_case {
    const char *sql;
    const char *construct;   /* must appear in the message */
} refused_case;

static const refused_case refused[] = {
    /* temporary tables */
    {"CREATE TEMP VIEW v AS SELECT 1", "CREATE TEMP VIEW"},
    {"CREATE OR REPLACE TEMPORARY VIEW v AS SELECT 1", "CREATE TEMPORARY VIEW"},
    {"CREATE TEMPORARY SEQUENCE s", "CREATE TEMPORARY SEQUENCE"},
    {"CREATE /* c */ TEMP UNLOGGED TABLE t (a int)", "CREATE TEMP UNLOGGED"},
    {"CREATE TEMP RECURSIVE VIEW v (n) AS SELECT 1", "CREATE TEMP RECURSIVE"},
    {"SELECT * FROM pg_temp_3.t", "pg_temp_3"},
    {"SELECT * FROM pg_toast_temp_12.x", "pg_toast_temp_12"},
    {"SET search_path = pg_temp, public", "pg_temp"},
    /* @domain clauses */
    {"SELECT * FROM t@LOCAL", "@LOCAL"},
    {"SELECT * FROM t @local", "@local"},
    {"UPDATE t@GLOBAL SET a = 1", "@GLOBAL"},
    {"SELECT * FROM t@Cluster", "@Cluster"},
    {"SELECT 1 FROM dual @LOCAL WHERE 1 = 1", "@LOCAL"},
    /* GOLDILOCKS session functions and pseudo columns */
    {"SELECT CURRVAL(seq)", "currval()"},
    {"SELECT currval('s')", "currval()"},
    {"SELECT CurrVal ('s')", "currval()"},
    {"SELECT currval/* why */('s')", "currval()"},
    {"SELECT currval -- line\n ('s')", "currval()"},
    {"SELECT pg_catalog.currval('s')", "currval()"},
    /* a session-level SET mixed with other statements (replayed, it would
     * run them again on every member session opened later) */
    {"SET application_name = 'x'; INSERT INTO t (n) VALUES (1)", "SET alone"},
    {"INSERT INTO t (n) VALUES (1); SET application_name = 'x'", "SET alone"},
    {"reset search_path; SELECT 1", "SET alone"},
    {"SET SESSION statement_timeout = 5; DELETE FROM t", "SET alone"},
    {"SET LOCAL a.b = 1; SET a.c = 2; UPDATE t SET n = 1", "SET alone"},
    {"/* c */ SET TIME ZONE 'UTC' ; ; CREATE TABLE t (a int)", "SET alone"},
    {"SELECT PG_CATALOG . CURRVAL ( 's' )", "currval()"},
    {"SELECT \"pg_catalog\".\"currval\"('s')", "currval()"},
    {"SELECT \"currval\"('s')", "currval()"},
    {"SELECT seq.CURRVAL FROM dual", "sequence.CURRVAL"},
    {"SELECT s.currval", "sequence.CURRVAL"},
    {"SELECT sch.seq.currval + 1 FROM dual", "sequence.CURRVAL"},
    {"SELECT UUID()", "uuid()"},
    {"select uuid ( )", "uuid()"},
    {"SELECT VERSION()", "version()"},
    {"SELECT pg_catalog.version()", "version()"},
    {"SELECT SESSION_ID()", "session_id()"},
    {"SELECT SESSION_SERIAL()", "session_serial()"},
    {"SELECT USER_ID()", "user_id()"},
    {"SELECT LAST_IDENTITY_VALUE()", "last_identity_value()"},
    {"SELECT STATEMENT_VIEW_SCN()", "statement_view_scn()"},
    {"SELECT STATEMENT_VIEW_SCN_GCN()", "statement_view_scn_gcn()"},
    {"SELECT STATEMENT_VIEW_SCN_DCN()", "statement_view_scn_dcn()"},
    {"SELECT STATEMENT_VIEW_SCN_LCN()", "statement_view_scn_lcn()"},
    {"SELECT LOCAL_GROUP_ID()", "local_group_id()"},
    {"SELECT LOCAL_GROUP_NAME()", "local_group_name()"},
    {"SELECT LOCAL_MEMBER_ID()", "local_member_id()"},
    {"SELECT LOCAL_MEMBER_NAME()", "local_member_name()"},
    {"SELECT LOCAL_MEMBER_POSITION()", "local_member_position()"},
    {"SELECT CLUSTER_GROUP_ID FROM dual", "CLUSTER_GROUP_ID"},
    {"SELECT cluster_group_name FROM dual", "CLUSTER_GROUP_NAME"},
    {"SELECT a FROM t WHERE CLUSTER_MEMBER_ID = 1", "CLUSTER_MEMBER_ID"},
    {"SELECT Cluster_Member_Name", "CLUSTER_MEMBER_NAME"},
    {"SELECT count(*) FROM t GROUP BY CLUSTER_SHARD_ID", "CLUSTER_SHARD_ID"},
    /* PostgreSQL equivalents */
    {"SELECT lastval()", "lastval()"},
    {"SELECT LASTVAL ()", "lastval()"},
    {"SELECT pg_catalog.lastval()", "lastval()"},
    {"SELECT pg_backend_pid()", "pg_backend_pid()"},
    {"SELECT PG_CATALOG.PG_BACKEND_PID()", "pg_backend_pid()"},
    {"SELECT inet_server_addr()", "inet_server_addr()"},
    {"SELECT inet_server_port()", "inet_server_port()"},
    {"SELECT pg_catalog.inet_server_port()", "inet_server_port()"},
    {"SELECT pg_my_temp_schema()", "pg_my_temp_schema()"},
    {"SELECT * FROM pg_class WHERE relnamespace = pg_catalog.pg_my_temp_schema()",
     "pg_my_temp_schema()"},
    {"SELECT pg_advisory_lock(1)", "pg_advisory_lock()"},
    {"SELECT pg_advisory_lock_shared(1, 2)", "pg_advisory_lock_shared()"},
    {"SELECT pg_try_advisory_lock(1)", "pg_try_advisory_lock()"},
    {"SELECT pg_try_advisory_lock_shared(1)", "pg_try_advisory_lock_shared()"},
    {"SELECT pg_advisory_unlock(1)", "pg_advisory_unlock()"},
    {"SELECT pg_advisory_unlock_shared(1)", "pg_advisory_unlock_shared()"},
    {"SELECT pg_advisory_unlock_all()", "pg_advisory_unlock_all()"},
    {"SELECT pg_catalog.pg_advisory_lock(42)", "pg_advisory_lock()"},
    {"SELECT PG_TRY_ADVISORY_LOCK /* x */ (1)", "pg_try_advisory_lock()"},
    {"LISTEN chan", "LISTEN"},
    {"listen \"Chan\"", "LISTEN"},
    {"UNLISTEN *", "UNLISTEN"},
    {"  /* lead */ Unlisten chan", "UNLISTEN"},
    {"PREPARE p (int) AS SELECT $1", "PREPARE"},
    {"prepare p as select 1", "PREPARE"},
    {"EXECUTE p (1)", "EXECUTE"},
    {"execute p", "EXECUTE"},
    {"EXPLAIN EXECUTE p", "EXECUTE"},
    {"EXPLAIN ANALYZE VERBOSE EXECUTE p(1)", "EXECUTE"},
    {"EXPLAIN (ANALYZE, BUFFERS) EXECUTE p", "EXECUTE"},
    {"CREATE TABLE t AS EXECUTE p", "EXECUTE"},
    {"DEALLOCATE p", "DEALLOCATE"},
    {"DEALLOCATE PREPARE ALL", "DEALLOCATE"},
    {"PREPARE TRANSACTION 'gid'", "PREPARE TRANSACTION"},
    {"COMMIT PREPARED 'gid'", "COMMIT PREPARED"},
    {"rollback prepared 'gid'", "ROLLBACK PREPARED"},
    {"DECLARE c CURSOR WITH HOLD FOR SELECT 1", "CURSOR WITH HOLD"},
    {"declare c no scroll cursor with hold for select * from t", "CURSOR WITH HOLD"},
    {"DECLARE c BINARY CURSOR WITH HOLD FOR WITH x AS (SELECT 1) SELECT * FROM x",
     "CURSOR WITH HOLD"},
    {"DISCARD ALL", "DISCARD"},
    {"discard temp", "DISCARD"},
    {"LOAD 'auto_explain'", "LOAD"},
    /* anywhere in the text, any statement of several */
    {"SELECT 1; SELECT currval('s')", "currval()"},
    {"SELECT 1;LISTEN c", "LISTEN"},
    {"SELECT a, version() FROM t", "version()"},
    {"SELECT * FROM t WHERE id = currval('s') AND x = 'currval('", "currval()"},
    {"INSERT INTO t (a) VALUES (lastval())", "lastval()"},
    {"SELECT * FROM t, LATERAL version() v", "version()"},
    {"SELECT * FROM version()", "version()"},
    {"WITH x AS (SELECT pg_backend_pid()) SELECT * FROM x", "pg_backend_pid()"},
    {"SELECT version() AS v", "version()"},
    {"CREATE TABLE t (id int DEFAULT currval('s'))", "currval()"},
    {"SELECT (SELECT uuid())", "uuid()"},
    {"SELECT 'a' || version()", "version()"},
    {"SELECT -pg_backend_pid()", "pg_backend_pid()"},
    {"SELECT x::text, version()::text", "version()"},
    {"EXPLAIN ANALYZE CREATE TEMP TABLE t AS SELECT 1", "CREATE TEMP TABLE"},
    {"CREATE FUNCTION f() RETURNS bigint LANGUAGE sql RETURN currval('s')", "currval()"},
    {"SELECT session_id()", "session_id()"},
    {"CREATE TABLE t (cluster_group_id int)", "CLUSTER_GROUP_ID"},
};

/* Statements that only look session-dependent: they must pass. */
static const char *const allowed[] = {
    /* words in strings, comments, quoted identifiers, dollar quotes */
    "SELECT 'currval(1)'",
    "SELECT 'CREATE TEMP TABLE t'",
    "SELECT E'version()\\n'",
    "SELECT $$ SELECT pg_backend_pid() $$",
    "SELECT $tag$ LISTEN c; PREPARE p AS SELECT 1 $tag$",
    "SELECT 1 -- currval('s')",
    "SELECT 1 /* LISTEN c; pg_advisory_lock(1) */",
    "SELECT /* nested /* version() */ still comment */ 1",
    "SELECT \"version\" FROM t",
    "SELECT t.\"currval\" FROM t",
    "SELECT \"CLUSTER_GROUP_ID\" FROM t",
    "SELECT \"cluster_group_id\" FROM t",
    "SELECT \"pg_temp\" FROM t",
    "SELECT \"Version\"() FROM t",
    "SELECT 'a@LOCAL'",
    "SELECT U&'d\\0061ta version()'",
    "CREATE FUNCTION f() RETURNS void LANGUAGE plpgsql AS $$ BEGIN EXECUTE 'select 1'; END $$",
    "DO $$ BEGIN EXECUTE format('LISTEN %I', 'c'); PERFORM pg_advisory_lock(1); END $$",
    "DO 'BEGIN PERFORM currval(''s''); END'",
    /* columns, aliases and tables named like the functions */
    "SELECT version FROM t",
    "SELECT t.version FROM t",
    "UPDATE t SET version = version + 1 WHERE version = 3",
    "SELECT x.currval_count FROM x",
    "SELECT my_uuid()",
    "SELECT uuid FROM t",
    "SELECT id::uuid FROM t",
    "SELECT CAST(a AS uuid)",
    "SELECT gen_random_uuid()",
    "SELECT currval FROM t",
    "SELECT lastval, pg_backend_pid FROM stats",
    "SELECT a AS version, b AS uuid FROM t",
    "SELECT x.version_id, session_id FROM sessions x",
    "SELECT user_id FROM users WHERE user_id = 7",
    "SELECT session_id, session_serial FROM t",
    "SELECT local_member_name FROM t",
    "SELECT t.cluster_group_id FROM t",
    "SELECT a AS cluster_member_name FROM t",
    "SELECT cluster_group_id_x FROM t",
    "SELECT cluster_group_id(1), cluster_shard_id.a FROM cluster_shard_id",
    "SELECT myschema.currval('s')",
    "SELECT app.version()",
    "SELECT app.session_id(), app.cluster_group_id FROM app.t",
    "CREATE TABLE t (\"cluster_group_id\" int, version int, uuid uuid)",
    "SELECT \"CURRVAL\"('s')",
    "SELECT s.nextval FROM dual",
    "CREATE TABLE version (a int)",
    "CREATE TABLE IF NOT EXISTS uuid (id int)",
    "INSERT INTO version (a) VALUES (1)",
    "INSERT INTO \"version\" (a) VALUES (1)",
    "COPY version (a) FROM STDIN",
    "CREATE INDEX ON version (a)",
    "CREATE UNIQUE INDEX i ON currval (a)",
    "ALTER TABLE t ADD FOREIGN KEY (a) REFERENCES version (id)",
    "CREATE FUNCTION version() RETURNS int LANGUAGE sql AS 'select 1'",
    "CREATE OR REPLACE FUNCTION app.uuid() RETURNS int LANGUAGE sql AS 'select 1'",
    "DROP FUNCTION version(), uuid()",
    "COMMENT ON FUNCTION uuid() IS 'x'",
    "GRANT EXECUTE ON FUNCTION uuid() TO alice",
    "REVOKE EXECUTE ON FUNCTION f() FROM bob",
    "SELECT * FROM generate_series(1, 3) AS version(n)",
    "SELECT * FROM generate_series(1, 3) uuid(n)",
    "WITH version(n) AS (SELECT 1) SELECT n FROM version",
    "WITH a AS (SELECT 1), uuid(x) AS MATERIALIZED (SELECT 2) SELECT * FROM uuid",
    "WITH RECURSIVE currval(n) AS NOT MATERIALIZED (SELECT 1) SELECT * FROM currval",
    "CREATE VIEW version (a) AS SELECT 1",
    "CREATE TRIGGER tr AFTER INSERT ON t FOR EACH ROW EXECUTE FUNCTION version()",
    /* the other sequence functions, transaction-level locks */
    "SELECT nextval('s')",
    "SELECT setval('s', 10)",
    "SELECT pg_advisory_xact_lock(1)",
    "SELECT pg_advisory_xact_lock_shared(1)",
    "SELECT pg_try_advisory_xact_lock(1)",
    "SELECT pg_try_advisory_xact_lock_shared(1, 2)",
    "SELECT pg_is_other_temp_schema(n.oid) FROM pg_namespace n",
    "SELECT current_user, session_user, now()",
    "NOTIFY chan, 'x'",
    "SELECT pg_notify('c', 'x')",
    /* temporary tables: kept on their member session (gc_temp_tables) */
    "CREATE TEMP TABLE t (a int)",
    "create temporary table t (a int)",
    "CREATE GLOBAL TEMPORARY TABLE t (a int) ON COMMIT DELETE ROWS",
    "CREATE LOCAL TEMP TABLE t AS SELECT 1",
    "CREATE TEMP TABLE t (a int) ON COMMIT PRESERVE ROWS",
    "create temp table t (a int) on commit drop",
    "SELECT * INTO TEMP t FROM x",
    "SELECT * INTO TEMPORARY TABLE t FROM x",
    "select 1 into local temp t",
    "SELECT * FROM pg_temp.t",
    "INSERT INTO PG_TEMP.t VALUES (1)",
    "CREATE TABLE pg_temp.t (a int)",
    "SELECT * FROM \"pg_temp\".t",
    "SELECT * FROM a, pg_temp.t",
    "BEGIN; CREATE TEMP TABLE t (a int); COMMIT",
    /* temporary-looking words */
    "CREATE TABLE temp_data (a int)",
    "CREATE TABLE temp (a int)",
    "CREATE TABLE temporary_results (a int)",
    "SELECT 1 AS temporary",
    "SELECT temp FROM t",
    "INSERT INTO temp VALUES (1)",
    "INSERT INTO temp SELECT 1",
    "CREATE UNLOGGED TABLE t (a int)",
    "CREATE GLOBAL_TABLE_X (a int)",
    "SELECT * INTO new_table FROM t",
    "SELECT * INTO temp FROM t",
    "SELECT on_commit FROM t",
    "CREATE TRIGGER tr AFTER INSERT ON commit_log FOR EACH ROW EXECUTE FUNCTION f()",
    "SELECT pg_temp_stats FROM t",
    "SET search_path TO public, pg_temp",
    "CREATE FUNCTION f() RETURNS int SECURITY DEFINER SET search_path = admin, pg_temp "
    "LANGUAGE sql AS 'select 1'",
    "SELECT * FROM pg_catalog.pg_tables",
    /* PostgreSQL's @ operators */
    "SELECT '{1,2}'::int[] @> '{1}'",
    "SELECT '{1}'::int[] <@ '{1,2}'",
    "SELECT to_tsvector('a') @@ to_tsquery('a')",
    "SELECT @ -5",
    "SELECT @-5",
    "SELECT @ x FROM t",
    "SELECT @abs_value FROM t",
    "SELECT @ local FROM t",
    "SELECT j @? '$.a' FROM t",
    "SELECT j @@ '$.a == 1' FROM t",
    "SELECT a@>b, a<@b FROM t",
    /* prepare, execute, listen and friends as plain words */
    "SELECT prepare FROM t",
    "SELECT execute, deallocate, listen, unlisten FROM t",
    "SELECT a FROM t ORDER BY prepare",
    "INSERT INTO t (prepare, execute) VALUES (1, 2)",
    "UPDATE jobs SET prepared = true",
    "SELECT 1 AS hold",
    "DECLARE c CURSOR FOR SELECT 1",
    "DECLARE c CURSOR WITHOUT HOLD FOR SELECT 1",
    "DECLARE c CURSOR FOR WITH hold AS (SELECT 1) SELECT * FROM hold",
    "COMMIT",
    "ROLLBACK",
    "BEGIN; SELECT 1; COMMIT",
    "SET application_name = 'x'",
    "RESET ALL",
    "SET application_name = 'x'; SET TIME ZONE 'UTC'; RESET search_path",
    "SET application_name = 'x';;",
    "SET LOCAL statement_timeout = 5; INSERT INTO t (n) VALUES (1)",
    "BEGIN; SET TRANSACTION ISOLATION LEVEL SERIALIZABLE; SET CONSTRAINTS ALL DEFERRED; "
    "UPDATE t SET n = 1; COMMIT",
    "INSERT INTO t (n) VALUES (1); SELECT 'SET x = 1'",
    "UPDATE t SET n = 1; UPDATE u SET m = 2",
    "SELECT * FROM discard_log",
    "SELECT load FROM t",
    "EXPLAIN SELECT 1",
    "EXPLAIN (ANALYZE, VERBOSE) SELECT execute FROM t",
    "",
    ";;",
};

static void expect_refused(const char *sql, const char *construct)
{
    gc_error err;
    gc_error_clear(&err);
    if (gc_session_sql_check(sql, strlen(sql), &err))
        fail_msg("passed, should be refused: %s", sql);
    if (strcmp(err.sqlstate, "0A000") != 0)
        fail_msg("%s: SQLSTATE %s, expected 0A000", sql, err.sqlstate);
    assert_int_equal(err.native, GC_SESSION_SQL_NATIVE_REFUSED);
    if (strstr(err.message, construct) == NULL)
        fail_msg("%s: message \"%s\" does not name %s", sql, err.message, construct);
    if (strstr(err.message, "is not allowed in a global connection") == NULL)
        fail_msg("%s: message \"%s\" does not say why", sql, err.message);
}

static void expect_allowed(const char *sql)
{
    gc_error err;
    gc_error_clear(&err);
    if (!gc_session_sql_check(sql, strlen(sql), &err))
        fail_msg("refused, should pass: %s (%s)", sql, err.message);
    assert_false(gc_error_is_set(&err));
}

static void every_session_dependent_construct_is_refused(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        expect_refused(refused[i].sql, refused[i].construct);
}

static void near_misses_pass(void **state)
{
    (void)state;
    assert_true(sizeof allowed / sizeof allowed[0] >= 60);
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++)
        expect_allowed(allowed[i]);
}

static void member_and_group_names_make_domain_clauses(void **state)
{
    (void)state;
    static const char *const names[] = {"G1", "g1n2", "Mixed"};
    static const struct {
        const char *sql;
        bool pass;
    } cases[] = {
        {"SELECT * FROM t@G1", false},
        {"SELECT * FROM t@g1", false},
        {"SELECT * FROM t@G1N2 WHERE a = 1", false},
        {"SELECT * FROM t@\"Mixed\"", false},
        {"SELECT * FROM t@\"mixed\"", true},
        {"SELECT * FROM t@LOCAL", false},
        {"SELECT @g2 FROM t", true},
        {"SELECT @ G1 FROM t", true},
        {"SELECT 'x@G1'", true},
        {"SELECT a @> b FROM t", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gc_error err;
        gc_error_clear(&err);
        bool ok = gc_session_sql_check_names(cases[i].sql, strlen(cases[i].sql),
                                             names, 3, &err);
        if (ok != cases[i].pass)
            fail_msg("%s: %s", cases[i].sql, ok ? "passed" : err.message);
        if (!ok && strstr(err.message, "@domain clause") == NULL)
            fail_msg("%s: message \"%s\" does not name the @domain clause", cases[i].sql,
                     err.message);
    }
    /* Without names, @G1 is PostgreSQL's absolute value of a column G1. */
    gc_error err;
    gc_error_clear(&err);
    assert_true(gc_session_sql_check("SELECT @G1 FROM t", 17, &err));
}

static void message_names_the_construct_and_the_reason(void **state)
{
    (void)state;
    gc_error err;
    const char *sql = "SELECT currval('s')";
    assert_false(gc_session_sql_check(sql, strlen(sql), &err));
    assert_string_equal(err.message, "currval() depends on one server session and is not "
                                     "allowed in a global connection");
    sql = "SELECT pg_advisory_lock(1)";
    assert_false(gc_session_sql_check(sql, strlen(sql), &err));
    assert_non_null(strstr(err.message, "session-level lock"));
}

static void only_len_bytes_are_read(void **state)
{
    (void)state;
    /* The refused call lies beyond len, in a buffer without a NUL. */
    static const char text[] = "SELECT 1; SELECT currval('s')";
    char *copy = malloc(sizeof text - 1);
    assert_non_null(copy);
    memcpy(copy, text, sizeof text - 1);
    gc_error err;
    gc_error_clear(&err);
    assert_true(gc_session_sql_check(copy, 9, &err));
    assert_false(gc_session_sql_check(copy, sizeof text - 1, &err));
    free(copy);
    assert_true(gc_session_sql_check(NULL, 0, &err));
}

static void unterminated_text_is_left_to_the_rewriter(void **state)
{
    (void)state;
    gc_error err;
    gc_error_clear(&err);
    const char *sql = "SELECT 'abc currval(1)";
    assert_true(gc_session_sql_check(sql, strlen(sql), &err));
    sql = "SELECT 1 /* version()";
    assert_true(gc_session_sql_check(sql, strlen(sql), &err));
    sql = "SELECT currval(";
    assert_false(gc_session_sql_check(sql, strlen(sql), &err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_session_dependent_construct_is_refused),
        cmocka_unit_test(near_misses_pass),
        cmocka_unit_test(member_and_group_names_make_domain_clauses),
        cmocka_unit_test(message_names_the_construct_and_the_reason),
        cmocka_unit_test(only_len_bytes_are_read),
        cmocka_unit_test(unterminated_text_is_left_to_the_rewriter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
