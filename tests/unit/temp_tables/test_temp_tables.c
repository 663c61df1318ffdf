/* gc_temp_tables: which statements create and drop temporary tables, what
 * the registry keeps of them, which statements name them, and how DDL on
 * them is classified (one member, or refused). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "global/gc_temp_tables.h"

static unsigned effects(const char *sql)
{
    return gc_temp_sql_effects(sql, strlen(sql));
}

static void note(gc_temp_tables *t, const char *sql, const char *member, unsigned long gen,
                 bool in_txn)
{
    assert_true(gc_temp_tables_note(t, sql, strlen(sql), member, gen, in_txn));
}

/* The member a statement must run on ("" when none, "conflict" on 0A000). */
static const char *member_for(const gc_temp_tables *t, const char *sql)
{
    gc_temp_use use;
    gc_error err;
    gc_error_clear(&err);
    int found = gc_temp_tables_find(t, sql, strlen(sql), &use, &err);
    if (found < 0) {
        assert_string_equal(err.sqlstate, "0A000");
        assert_int_equal(err.native, GC_TEMP_TABLES_NATIVE_ELSEWHERE);
        return "conflict";
    }
    if (found == 0)
        return "";
    return use.member;
}

static void creating_statements_are_recognised(void **state)
{
    (void)state;
    assert_int_equal(effects("CREATE TEMP TABLE t (a int)"), GC_TEMP_SQL_CREATES);
    assert_int_equal(effects("create global temporary table t (a int) on commit drop"),
                     GC_TEMP_SQL_CREATES);
    assert_int_equal(effects("CREATE LOCAL TEMP TABLE IF NOT EXISTS t AS SELECT 1"),
                     GC_TEMP_SQL_CREATES);
    assert_int_equal(effects("CREATE TABLE pg_temp.t (a int)"), GC_TEMP_SQL_CREATES);
    assert_int_equal(effects("SELECT * INTO TEMP t FROM x"), GC_TEMP_SQL_CREATES);
    assert_int_equal(effects("WITH q AS (SELECT 1) SELECT * INTO TEMPORARY TABLE t FROM q"),
                     GC_TEMP_SQL_CREATES);
    assert_int_equal(effects("BEGIN; CREATE TEMP TABLE t (a int); COMMIT"), GC_TEMP_SQL_CREATES);
    assert_int_equal(effects("DROP TABLE t"), GC_TEMP_SQL_DROPS);
    /* not temporary */
    assert_int_equal(effects("CREATE TABLE t (a int)"), 0);
    assert_int_equal(effects("CREATE TABLE app.t (a int)"), 0);
    assert_int_equal(effects("SELECT * INTO temp FROM x"), 0);
    assert_int_equal(effects("SELECT * INTO t FROM x"), 0);
    assert_int_equal(effects("INSERT INTO t SELECT 1"), 0);
    assert_int_equal(effects("SELECT 'CREATE TEMP TABLE t (a int)'"), 0);
    assert_int_equal(effects("UPDATE t SET a = 1"), 0);
    const char *create = "CREATE TEMP TABLE IF NOT EXISTS \"Lost\" AS SELECT * FROM other";
    assert_true(gc_temp_sql_creates(create, strlen(create), "Lost"));
    assert_false(gc_temp_sql_creates(create, strlen(create), "lost"));
    assert_false(gc_temp_sql_creates(create, strlen(create), "other"));
}

static void registry_keeps_created_tables_until_dropped(void **state)
{
    (void)state;
    gc_temp_tables *t = gc_temp_tables_create();
    assert_non_null(t);
    assert_string_equal(member_for(t, "SELECT * FROM tmp"), "");
    note(t, "CREATE TEMP TABLE Tmp (a int)", "G1N1", 7, false);
    note(t, "CREATE TEMP TABLE \"Quoted\" (a int)", "G1N1", 7, false);
    assert_int_equal(gc_temp_tables_count(t), 2);
    assert_string_equal(member_for(t, "SELECT * FROM tmp"), "G1N1");
    assert_string_equal(member_for(t, "select a from TMP where a = ?"), "G1N1");
    assert_string_equal(member_for(t, "SELECT * FROM pg_temp.tmp"), "G1N1");
    assert_string_equal(member_for(t, "SELECT * FROM \"Quoted\""), "G1N1");
    /* quoted names are exact; strings, comments and other schemas do not name it */
    assert_string_equal(member_for(t, "SELECT * FROM quoted"), "");
    assert_string_equal(member_for(t, "SELECT 'tmp' -- tmp"), "");
    assert_string_equal(member_for(t, "SELECT * FROM app.tmp"), "");
    note(t, "DROP TABLE IF EXISTS tmp, other", "G1N1", 7, false);
    assert_int_equal(gc_temp_tables_count(t), 1);
    assert_string_equal(member_for(t, "SELECT * FROM tmp"), "");
    /* a DROP on another session does not forget this session's table */
    note(t, "DROP TABLE \"Quoted\"", "G2N1", 9, false);
    assert_int_equal(gc_temp_tables_count(t), 1);
    gc_temp_tables_destroy(t);
}

static void on_commit_drop_leaves_with_its_transaction(void **state)
{
    (void)state;
    gc_temp_tables *t = gc_temp_tables_create();
    note(t, "CREATE TEMP TABLE gone (a int) ON COMMIT DROP", "G1N1", 3, false);
    assert_int_equal(gc_temp_tables_count(t), 0);   /* autocommit: dropped already */
    note(t, "CREATE TEMP TABLE x (a int) ON COMMIT DROP", "G1N1", 3, true);
    note(t, "SELECT 1 AS a INTO TEMP y", "G1N1", 3, true);
    note(t, "CREATE TEMP TABLE z (a int) ON COMMIT DROP", "G2N1", 4, true);
    assert_int_equal(gc_temp_tables_count(t), 3);
    gc_temp_tables_transaction_ended(t, 3);
    assert_string_equal(member_for(t, "SELECT * FROM x"), "");
    assert_string_equal(member_for(t, "SELECT * FROM y"), "G1N1");
    assert_string_equal(member_for(t, "SELECT * FROM z"), "G2N1");
    gc_temp_tables_destroy(t);
}

/* Tables a transaction created or dropped wait for its end to be settled
 * by what the session holds: a ROLLBACK undoes both. */
static void transaction_changes_are_settled_by_the_session(void **state)
{
    (void)state;
    gc_temp_tables *t = gc_temp_tables_create();
    note(t, "CREATE TEMP TABLE kept (a int)", "G1N1", 3, false);
    note(t, "CREATE TEMP TABLE made (a int)", "G1N1", 3, true);
    note(t, "DROP TABLE kept", "G1N1", 3, true);
    note(t, "CREATE TEMP TABLE other (a int)", "G2N1", 4, true);
    /* Dropped in the open transaction: still its member's until the end. */
    assert_string_equal(member_for(t, "SELECT * FROM kept"), "G1N1");
    const char *names[4];
    assert_int_equal(gc_temp_tables_in_doubt(t, 3, names, 4), 2);
    assert_int_equal(gc_temp_tables_in_doubt(t, 3, names, 1), 1);
    gc_temp_tables_transaction_ended(t, 3);
    assert_int_equal(gc_temp_tables_in_doubt(t, 3, names, 4), 2);   /* not settled yet */
    /* Rolled back: the created one is gone, the dropped one is back. */
    gc_temp_tables_settle(t, "made", false);
    gc_temp_tables_settle(t, "kept", true);
    assert_int_equal(gc_temp_tables_in_doubt(t, 3, names, 4), 0);
    assert_string_equal(member_for(t, "SELECT * FROM made"), "");
    assert_string_equal(member_for(t, "SELECT * FROM kept"), "G1N1");
    assert_int_equal(gc_temp_tables_in_doubt(t, 4, names, 4), 1);
    assert_string_equal(names[0], "other");
    /* Dropped in autocommit: gone at once, nothing in doubt. */
    note(t, "DROP TABLE kept", "G1N1", 3, false);
    assert_string_equal(member_for(t, "SELECT * FROM kept"), "");
    gc_temp_tables_destroy(t);
}

static void tables_of_two_sessions_conflict(void **state)
{
    (void)state;
    gc_temp_tables *t = gc_temp_tables_create();
    note(t, "CREATE TEMP TABLE a1 (a int)", "G1N1", 3, false);
    note(t, "CREATE TEMP TABLE b2 (a int)", "G2N1", 4, false);
    assert_string_equal(member_for(t, "SELECT * FROM a1 JOIN accounts USING (a)"), "G1N1");
    assert_string_equal(member_for(t, "SELECT * FROM a1, b2"), "conflict");
    /* created again elsewhere: the new session holds it */
    note(t, "CREATE TEMP TABLE a1 (a int)", "G2N1", 4, false);
    assert_string_equal(member_for(t, "SELECT * FROM a1, b2"), "G2N1");
    gc_temp_tables_forget(t, "a1");
    assert_int_equal(gc_temp_tables_count(t), 1);
    assert_string_equal(member_for(t, "SELECT * FROM a1, b2"), "G2N1");
    gc_temp_tables_forget(t, "b2");
    assert_int_equal(gc_temp_tables_count(t), 0);
    gc_temp_tables_destroy(t);
}

static gc_ddl_plan plan_of(const gc_temp_tables *t, const char *sql)
{
    gc_ddl_plan p;
    gc_ddl_classify(sql, &p);
    gc_temp_tables_adjust_ddl(t, sql, &p);
    return p;
}

static void ddl_on_temporary_tables_runs_on_one_member(void **state)
{
    (void)state;
    gc_temp_tables *t = gc_temp_tables_create();
    assert_int_equal(plan_of(t, "CREATE TEMP TABLE tmp (a int)").scope, GC_DDL_ONE_MEMBER);
    assert_int_equal(plan_of(t, "CREATE GLOBAL TEMPORARY TABLE tmp (a int)").scope,
                     GC_DDL_ONE_MEMBER);
    assert_int_equal(plan_of(t, "CREATE TEMP TABLE tmp AS SELECT 1").scope, GC_DDL_ONE_MEMBER);
    assert_int_equal(plan_of(t, "CREATE TABLE pg_temp.tmp (a int)").scope, GC_DDL_ONE_MEMBER);
    /* nothing registered: a DROP is cluster-wide as before */
    assert_int_equal(plan_of(t, "DROP TABLE tmp").scope, GC_DDL_EVERY_GROUP);
    note(t, "CREATE TEMP TABLE tmp (a int)", "G1N1", 3, false);
    note(t, "CREATE TEMP TABLE tmp2 (a int)", "G1N1", 3, false);
    assert_int_equal(plan_of(t, "DROP TABLE tmp").scope, GC_DDL_ONE_MEMBER);
    assert_int_equal(plan_of(t, "DROP TABLE IF EXISTS pg_temp.tmp, tmp2").scope,
                     GC_DDL_ONE_MEMBER);
    assert_int_equal(plan_of(t, "ALTER TABLE tmp ADD COLUMN b int").scope, GC_DDL_ONE_MEMBER);
    assert_int_equal(plan_of(t, "CREATE INDEX ON tmp (a)").scope, GC_DDL_ONE_MEMBER);
    assert_int_equal(plan_of(t, "COMMENT ON TABLE tmp IS 'x'").scope, GC_DDL_ONE_MEMBER);
    gc_ddl_plan p = plan_of(t, "DROP TABLE tmp, accounts");
    assert_int_equal(p.scope, GC_DDL_REFUSED);
    assert_non_null(strstr(p.why, "temporary"));
    assert_int_equal(plan_of(t, "CREATE TABLE perm AS SELECT * FROM tmp").scope,
                     GC_DDL_REFUSED);
    /* another schema's table of the same name is not the temporary one */
    assert_int_equal(plan_of(t, "DROP TABLE app.tmp").scope, GC_DDL_EVERY_GROUP);
    assert_int_equal(plan_of(t, "CREATE TABLE other (a int)").scope, GC_DDL_SOLO_TABLE);
    gc_temp_tables_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(creating_statements_are_recognised),
        cmocka_unit_test(registry_keeps_created_tables_until_dropped),
        cmocka_unit_test(on_commit_drop_leaves_with_its_transaction),
        cmocka_unit_test(transaction_changes_are_settled_by_the_session),
        cmocka_unit_test(tables_of_two_sessions_conflict),
        cmocka_unit_test(ddl_on_temporary_tables_runs_on_one_member),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
