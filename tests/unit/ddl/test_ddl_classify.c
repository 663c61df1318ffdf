/* gc_ddl_classify: which DDL runs on every group, which makes a solo table,
 * which stays on one member and which is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "global/gc_ddl.h"

static gc_ddl_plan plan_of(const char *sql)
{
    gc_ddl_plan p;
    gc_ddl_classify(sql, &p);
    return p;
}

static void create_table_makes_a_solo_table(void **state)
{
    (void)state;
    gc_ddl_plan p = plan_of("CREATE TABLE IF NOT EXISTS app.\"Notes\" (id int)");
    assert_int_equal(p.scope, GC_DDL_SOLO_TABLE);
    assert_true(p.changes_map);
    assert_string_equal(p.table_as_written, "app.\"Notes\"");
    assert_false(p.owner_decides);
    p = plan_of("create unlogged table t as select 1");
    assert_int_equal(p.scope, GC_DDL_SOLO_TABLE);
    assert_string_equal(p.table_as_written, "t");
    assert_true(p.owner_decides);
    assert_false(plan_of("CREATE TABLE t (a int GENERATED ALWAYS AS (1) STORED)").owner_decides);
    /* The AS of a later statement is not this one's. */
    assert_false(plan_of("CREATE TABLE t (a int); SELECT 1 AS one").owner_decides);
}

/* SELECT ... INTO a permanent table is CREATE TABLE ... AS written the
 * older way; INTO TEMP and a SELECT without INTO stay on one member. */
static void select_into_makes_a_solo_table(void **state)
{
    (void)state;
    gc_ddl_plan p = plan_of("SELECT a, (SELECT 1) AS b INTO UNLOGGED TABLE app.\"Copy\" "
                            "FROM t WHERE a IN (SELECT a FROM u) ORDER BY a");
    assert_int_equal(p.scope, GC_DDL_SOLO_TABLE);
    assert_true(p.changes_map);
    assert_true(p.owner_decides);
    assert_string_equal(p.table_as_written, "app.\"Copy\"");
    p = plan_of("select * into copy from t");
    assert_int_equal(p.scope, GC_DDL_SOLO_TABLE);
    assert_string_equal(p.table_as_written, "copy");
    static const char *const one_member[] = {
        "SELECT * INTO TEMP copy FROM t", "SELECT * INTO TEMPORARY TABLE copy FROM t",
        "SELECT * INTO LOCAL TEMP copy FROM t", "SELECT * INTO pg_temp.copy FROM t",
        "SELECT 'into x' FROM t", "SELECT (SELECT 1) FROM t", "SELECT",
        "SELECT 1; INSERT INTO t VALUES (1)",
    };
    for (size_t i = 0; i < sizeof one_member / sizeof one_member[0]; i++) {
        p = plan_of(one_member[i]);
        assert_int_equal(p.scope, GC_DDL_ONE_MEMBER);
        assert_false(p.changes_map);
    }
}

static void partitioned_parent_runs_on_every_group(void **state)
{
    (void)state;
    gc_ddl_plan p = plan_of("CREATE TABLE m (k int, v text) PARTITION BY HASH (k)");
    assert_int_equal(p.scope, GC_DDL_EVERY_GROUP);
    assert_true(p.changes_map);
}

/* The sequences a DDL may make on every group, interleaved in its
 * transaction (gc_ddl_sequences.c): the one CREATE SEQUENCE names, those
 * owned by a new sharded parent's or an altered table's columns. */
static void ddl_that_may_make_sequences_names_them(void **state)
{
    (void)state;
    static const struct {
        const char *sql;
        gc_ddl_sequences which;
        const char *of;
    } rows[] = {
        {"CREATE SEQUENCE IF NOT EXISTS app.\"Numbers\" START 5", GC_DDL_SEQ_NAMED,
         "app.\"Numbers\""},
        {"create sequence n", GC_DDL_SEQ_NAMED, "n"},
        {"CREATE TABLE m (k bigserial) PARTITION BY HASH (k)", GC_DDL_SEQ_OF_TABLE, "m"},
        {"ALTER TABLE IF EXISTS ONLY s.a ADD COLUMN n serial", GC_DDL_SEQ_OF_TABLE, "s.a"},
        {"CREATE TABLE solo (k serial)", GC_DDL_SEQ_NONE, ""},
        {"CREATE TEMP SEQUENCE t", GC_DDL_SEQ_NONE, ""},
        {"CREATE INDEX i ON a (x)", GC_DDL_SEQ_NONE, ""},
        {"ALTER SEQUENCE IF EXISTS s.n RESTART WITH 5", GC_DDL_SEQ_NAMED, "s.n"},
        {"DROP SEQUENCE n", GC_DDL_SEQ_NONE, ""},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        gc_ddl_plan p = plan_of(rows[i].sql);
        if (p.sequences != rows[i].which || strcmp(p.sequences_of, rows[i].of) != 0)
            fail_msg("%s: sequences %d of '%s'", rows[i].sql, p.sequences, p.sequences_of);
    }
    /* ALTER SEQUENCE runs where the sequence exists: a solo table's serial
     * is on its owner only. */
    gc_ddl_plan p = plan_of("ALTER SEQUENCE items_id_seq RESTART");
    assert_int_equal(p.scope, GC_DDL_EVERY_GROUP);
    assert_int_equal(p.target, GC_DDL_TARGET_SEQUENCE);
    assert_string_equal(p.target_as_written, "items_id_seq");
}

static void partition_of_and_databases_are_refused(void **state)
{
    (void)state;
    assert_int_equal(plan_of("CREATE TABLE a_9 PARTITION OF a FOR VALUES IN (9)").scope,
                     GC_DDL_REFUSED);
    assert_int_equal(plan_of("CREATE DATABASE other").scope, GC_DDL_REFUSED);
    assert_non_null(plan_of("CREATE DATABASE other").why);
    assert_int_equal(plan_of("DROP INDEX CONCURRENTLY i, j").scope, GC_DDL_REFUSED);
}

/* CREATE / DROP INDEX CONCURRENTLY: on the one group of its table or index,
 * named as the target. */
static void concurrently_runs_where_its_table_or_index_is(void **state)
{
    (void)state;
    gc_ddl_plan p = plan_of("CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS i ON ONLY s.a (x)");
    assert_int_equal(p.scope, GC_DDL_CONCURRENTLY);
    assert_int_equal(p.target, GC_DDL_TARGET_TABLE);
    assert_string_equal(p.target_as_written, "s.a");
    assert_false(p.changes_map);
    p = plan_of("drop index concurrently if exists \"I\"");
    assert_int_equal(p.scope, GC_DDL_CONCURRENTLY);
    assert_int_equal(p.target, GC_DDL_TARGET_INDEX);
    assert_string_equal(p.target_as_written, "\"I\"");
}

static void other_ddl_runs_on_every_group(void **state)
{
    (void)state;
    const char *every[] = {
        "CREATE INDEX i ON a (x)", "CREATE OR REPLACE VIEW v AS SELECT 1",
        "CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ select 1 $$",
        "GRANT SELECT ON a TO PUBLIC", "REVOKE SELECT ON a FROM PUBLIC",
        "COMMENT ON TABLE a IS 'x'", "ALTER TABLE a ADD COLUMN y int",
        "DROP VIEW v", "CREATE SCHEMA s",
        /* a column called concurrently, after the object's definitions start */
        "CREATE INDEX i2 ON a (concurrently)",
    };
    for (size_t i = 0; i < sizeof every / sizeof every[0]; i++)
        assert_int_equal(plan_of(every[i]).scope, GC_DDL_EVERY_GROUP);
    assert_true(plan_of("ALTER TABLE a ADD COLUMN y int").changes_map);
    assert_false(plan_of("CREATE INDEX i ON a (x)").changes_map);
}

static void drop_table_notes_every_name(void **state)
{
    (void)state;
    const char *sql = "DROP TABLE IF EXISTS s.t, \"U v\" , w CASCADE";
    gc_ddl_plan p = plan_of(sql);
    assert_int_equal(p.scope, GC_DDL_EVERY_GROUP);
    assert_true(p.changes_map);
    assert_string_equal(p.table_as_written, "s.t");
    assert_string_equal(sql + p.drop_table_rest, "IF EXISTS s.t, \"U v\" , w CASCADE");
    assert_true(p.drop_if_exists);
    assert_int_equal(p.n_drop, 3);
    const char *names[] = { "s.t", "\"U v\"", "w" };
    for (int k = 0; k < 3; k++) {
        size_t n = p.drop_names[k].end - p.drop_names[k].start;
        assert_int_equal(n, strlen(names[k]));
        assert_memory_equal(sql + p.drop_names[k].start, names[k], n);
    }
    assert_string_equal(sql + p.drop_tail, " CASCADE");
    gc_ddl_plan one = plan_of("DROP TABLE t;");
    assert_int_equal(one.n_drop, 1);
    assert_false(one.drop_if_exists);
    assert_string_equal("DROP TABLE t;" + one.drop_tail, ";");
    assert_int_equal(plan_of("DROP FOREIGN TABLE t").drop_table_rest, 0);
}

static void drop_table_of_too_many_tables_is_refused(void **state)
{
    (void)state;
    char sql[1024] = "DROP TABLE t0";
    for (int k = 1; k <= GC_DDL_MAX_DROP; k++)
        snprintf(sql + strlen(sql), sizeof sql - strlen(sql), ", t%d", k);
    gc_ddl_plan p = plan_of(sql);
    assert_int_equal(p.scope, GC_DDL_REFUSED);
    assert_non_null(strstr(p.why, "more than 32 tables"));
    *strrchr(sql, ',') = '\0';   /* exactly GC_DDL_MAX_DROP names */
    assert_int_equal(plan_of(sql).n_drop, GC_DDL_MAX_DROP);
}

static void truncate_and_dml_stay_on_one_member(void **state)
{
    (void)state;
    assert_int_equal(plan_of("TRUNCATE accounts").scope, GC_DDL_ONE_MEMBER);
    assert_int_equal(plan_of("/* create table */ SELECT 1").scope, GC_DDL_ONE_MEMBER);
}

static void materialized_views_are_solo_objects(void **state)
{
    (void)state;
    gc_ddl_plan p = plan_of("CREATE MATERIALIZED VIEW IF NOT EXISTS s.mv AS SELECT 1");
    assert_int_equal(p.scope, GC_DDL_SOLO_MATVIEW);
    assert_true(p.changes_map);
    assert_string_equal(p.table_as_written, "s.mv");
    p = plan_of("refresh materialized view concurrently \"Mv\" with data");
    assert_int_equal(p.scope, GC_DDL_MATVIEW_REFRESH);
    assert_string_equal(p.table_as_written, "\"Mv\"");
    assert_int_equal(plan_of("REFRESH COLLATION VERSION").scope, GC_DDL_ONE_MEMBER);
    p = plan_of("DROP MATERIALIZED VIEW IF EXISTS a, b CASCADE");
    assert_int_equal(p.scope, GC_DDL_EVERY_GROUP);
    assert_true(p.drop_matview && p.drop_if_exists && p.changes_map);
    assert_int_equal(p.n_drop, 2);
    p = plan_of("ALTER MATERIALIZED VIEW mv RENAME TO mv2");
    assert_int_equal(p.target, GC_DDL_TARGET_TABLE);
    assert_int_equal(p.twin, GC_DDL_TWIN_REFUSE);
    assert_non_null(p.twin_why);
}

static void references_are_read_from_the_text(void **state)
{
    (void)state;
    const char *sql = "CREATE TABLE c (a int REFERENCES p1 (id), b int, "
                      "CONSTRAINT k FOREIGN KEY (b) REFERENCES s.\"P2\", "
                      "note text DEFAULT 'references x')";
    gc_ddl_span names[4];
    assert_int_equal(gc_ddl_references(sql, names, 4), 2);
    assert_int_equal(names[0].end - names[0].start, 2);
    assert_memory_equal(sql + names[0].start, "p1", 2);
    assert_memory_equal(sql + names[1].start, "s.\"P2\"", names[1].end - names[1].start);
    assert_int_equal(gc_ddl_references(sql, names, 1), -1);
    assert_int_equal(gc_ddl_references("CREATE TABLE t (a int)", names, 4), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(create_table_makes_a_solo_table),
        cmocka_unit_test(select_into_makes_a_solo_table),
        cmocka_unit_test(materialized_views_are_solo_objects),
        cmocka_unit_test(references_are_read_from_the_text),
        cmocka_unit_test(partitioned_parent_runs_on_every_group),
        cmocka_unit_test(ddl_that_may_make_sequences_names_them),
        cmocka_unit_test(partition_of_and_databases_are_refused),
        cmocka_unit_test(concurrently_runs_where_its_table_or_index_is),
        cmocka_unit_test(other_ddl_runs_on_every_group),
        cmocka_unit_test(drop_table_notes_every_name),
        cmocka_unit_test(drop_table_of_too_many_tables_is_refused),
        cmocka_unit_test(truncate_and_dml_stay_on_one_member),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
