/* DDL on one table through a global connection: which table or index a
 * statement changes, and what a group where that table is a solo table's
 * foreign twin runs instead (gc_ddl_classify, gc_ddl_twin_text). Actions
 * that copy the owner's column description need a server: the DDL
 * integration test proves those. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "global/gc_ddl.h"

static gc_ddl_plan plan_of(const char *sql)
{
    gc_ddl_plan p;
    gc_ddl_classify(sql, &p);
    return p;
}

/* The twin's text for sql (NULL when nothing runs there); caller frees. */
static char *twin_of(const char *sql)
{
    gc_ddl_plan p = plan_of(sql);
    char *text = (char *)"unset";
    gc_error err;
    gc_error_clear(&err);
    assert_true(gc_ddl_twin_text(sql, &p, NULL, &text, &err));
    return text;
}

static void comment_on_table_becomes_comment_on_foreign_table(void **state)
{
    (void)state;
    gc_ddl_plan p = plan_of("COMMENT ON TABLE app.\"Notes\" IS 'it''s'");
    assert_int_equal(p.scope, GC_DDL_EVERY_GROUP);
    assert_int_equal(p.target, GC_DDL_TARGET_TABLE);
    assert_string_equal(p.target_as_written, "app.\"Notes\"");
    char *t = twin_of("COMMENT ON TABLE app.\"Notes\" IS 'it''s'");
    assert_string_equal(t, "COMMENT ON FOREIGN TABLE app.\"Notes\" IS 'it''s'");
    free(t);
    /* a column's comment is taken by a foreign table as it is */
    assert_int_equal(plan_of("COMMENT ON COLUMN t.a IS 'x'").target, GC_DDL_TARGET_NONE);
}

static void indexes_triggers_policies_rules_stay_on_the_owner(void **state)
{
    (void)state;
    const char *owner_only[][2] = {
        { "CREATE INDEX i ON ONLY s.t (a)", "s.t" },
        { "create unique index if not exists on t using btree (a)", "t" },
        { "CREATE TRIGGER tr BEFORE INSERT OR UPDATE OF a ON t FOR EACH ROW "
          "EXECUTE FUNCTION f()", "t" },
        { "CREATE CONSTRAINT TRIGGER tr AFTER INSERT ON t FOR EACH ROW "
          "EXECUTE FUNCTION f()", "t" },
        { "CREATE OR REPLACE TRIGGER tr AFTER DELETE ON t EXECUTE FUNCTION f()", "t" },
        { "CREATE POLICY p ON t USING (a > 0)", "t" },
        { "CREATE RULE r AS ON INSERT TO t DO ALSO NOTHING", "t" },
        { "DROP TRIGGER IF EXISTS tr ON t", "t" },
        { "ALTER TRIGGER tr ON t RENAME TO tr2", "t" },
        { "DROP POLICY p ON t", "t" },
        { "COMMENT ON CONSTRAINT t_pkey ON t IS 'k'", "t" },
        { "COMMENT ON TRIGGER tr ON t IS 'k'", "t" },
    };
    for (size_t i = 0; i < sizeof owner_only / sizeof owner_only[0]; i++) {
        gc_ddl_plan p = plan_of(owner_only[i][0]);
        assert_int_equal(p.scope, GC_DDL_EVERY_GROUP);
        assert_int_equal(p.target, GC_DDL_TARGET_TABLE);
        assert_string_equal(p.target_as_written, owner_only[i][1]);
        assert_int_equal(p.twin, GC_DDL_TWIN_SKIP);
        assert_null(twin_of(owner_only[i][0]));
    }
    /* a constraint of a domain is no table's */
    assert_int_equal(plan_of("COMMENT ON CONSTRAINT c ON DOMAIN d IS 'x'").target,
                     GC_DDL_TARGET_NONE);
}

static void index_statements_run_where_the_index_exists(void **state)
{
    (void)state;
    const char *sqls[] = { "DROP INDEX IF EXISTS s.i, j", "ALTER INDEX i RENAME TO k",
                           "COMMENT ON INDEX i IS 'x'" };
    for (size_t i = 0; i < sizeof sqls / sizeof sqls[0]; i++) {
        gc_ddl_plan p = plan_of(sqls[i]);
        assert_int_equal(p.scope, GC_DDL_EVERY_GROUP);
        assert_int_equal(p.target, GC_DDL_TARGET_INDEX);
    }
    assert_string_equal(plan_of("DROP INDEX IF EXISTS s.i, j").target_as_written, "s.i");
    /* CONCURRENTLY: on the one group where the index, or the table, is. */
    assert_int_equal(plan_of("DROP INDEX CONCURRENTLY i").scope, GC_DDL_CONCURRENTLY);
    assert_int_equal(plan_of("DROP INDEX CONCURRENTLY i").target, GC_DDL_TARGET_INDEX);
    assert_int_equal(plan_of("CREATE INDEX CONCURRENTLY i ON t (a)").scope, GC_DDL_CONCURRENTLY);
}

static void alter_table_maps_each_action_for_the_twin(void **state)
{
    (void)state;
    const char *sql = "ALTER TABLE IF EXISTS ONLY s.t DROP COLUMN b CASCADE, "
                      "ADD PRIMARY KEY (a), ALTER COLUMN c SET NOT NULL, "
                      "ALTER c SET STATISTICS 100, OWNER TO app, ADD CHECK (a > 0)";
    gc_ddl_plan p = plan_of(sql);
    assert_int_equal(p.scope, GC_DDL_EVERY_GROUP);
    assert_true(p.changes_map);
    assert_int_equal(p.target, GC_DDL_TARGET_TABLE);
    assert_string_equal(p.target_as_written, "s.t");
    assert_int_equal(p.twin, GC_DDL_TWIN_ALTER);
    assert_int_equal(p.n_actions, 6);
    char *t = twin_of(sql);
    assert_string_equal(t, "ALTER FOREIGN TABLE IF EXISTS ONLY s.t DROP COLUMN b CASCADE, "
                           "ALTER COLUMN c SET NOT NULL, OWNER TO app");
    free(t);
    t = twin_of("alter table t rename column a to b;");
    assert_string_equal(t, "ALTER FOREIGN TABLE t rename column a to b");
    free(t);
    /* only the owner's business: nothing runs on the twin */
    assert_null(twin_of("ALTER TABLE t ADD CONSTRAINT t_fk FOREIGN KEY (a) REFERENCES u (a), "
                        "ENABLE ROW LEVEL SECURITY, NO FORCE ROW LEVEL SECURITY"));
    assert_null(twin_of("ALTER TABLE t RENAME CONSTRAINT c TO d"));
}

static void alter_table_actions_that_copy_the_owners_column(void **state)
{
    (void)state;
    const char *sql = "ALTER TABLE t ADD COLUMN IF NOT EXISTS \"Big\" serial PRIMARY KEY, "
                      "ALTER COLUMN b SET DATA TYPE bigint USING b::bigint, "
                      "ALTER b TYPE numeric(3,1), ALTER COLUMN d SET DEFAULT now(), "
                      "ALTER e DROP DEFAULT, ADD f int";
    gc_ddl_plan p = plan_of(sql);
    assert_int_equal(p.n_actions, 6);
    gc_ddl_action_kind kinds[] = { GC_DDL_ACT_ADD_COLUMN, GC_DDL_ACT_COLUMN_TYPE,
                                   GC_DDL_ACT_COLUMN_TYPE, GC_DDL_ACT_COLUMN_DEFAULT,
                                   GC_DDL_ACT_COLUMN_DEFAULT, GC_DDL_ACT_ADD_COLUMN };
    const char *columns[] = { "\"Big\"", "b", "b", "d", "e", "f" };
    for (int i = 0; i < 6; i++) {
        assert_int_equal(p.actions[i].kind, kinds[i]);
        size_t n = p.actions[i].column_end - p.actions[i].column_start;
        assert_int_equal(n, strlen(columns[i]));
        assert_memory_equal(sql + p.actions[i].column_start, columns[i], n);
    }
    assert_true(p.actions[0].if_not_exists);
    assert_false(p.actions[5].if_not_exists);
    /* with no group holding the plain table there is no one to ask: refused */
    char *text = NULL;
    gc_error err;
    gc_error_clear(&err);
    assert_false(gc_ddl_twin_text(sql, &p, NULL, &text, &err));
    assert_string_equal(err.sqlstate, "0A000");
}

static void actions_without_a_twin_counterpart_are_refused(void **state)
{
    (void)state;
    const char *refused[] = {
        "ALTER TABLE t RENAME TO u", "ALTER TABLE t SET SCHEMA s",
        "ALTER TABLE t ADD COLUMN x int, INHERIT parent", "ALTER TABLE t NO INHERIT parent",
        "ALTER TABLE t ATTACH PARTITION p FOR VALUES IN (1)", "ALTER TABLE t OF some_type",
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        gc_ddl_plan p = plan_of(refused[i]);
        assert_int_equal(p.scope, GC_DDL_EVERY_GROUP);   /* plain tables: as today */
        assert_int_equal(p.twin, GC_DDL_TWIN_REFUSE);
        assert_non_null(p.twin_why);
        char *text = NULL;
        gc_error err;
        gc_error_clear(&err);
        assert_false(gc_ddl_twin_text(refused[i], &p, NULL, &text, &err));
        assert_string_equal(err.sqlstate, "0A000");
        assert_null(text);
    }
}

static void grant_and_statements_on_no_one_table_have_no_target(void **state)
{
    (void)state;
    const char *none[] = {
        "GRANT SELECT ON TABLE t TO PUBLIC", "REVOKE ALL ON t FROM app",
        "ALTER TABLE ALL IN TABLESPACE a SET TABLESPACE b", "CREATE VIEW v AS SELECT 1",
        "DROP TABLE t", "ALTER FOREIGN TABLE t ADD COLUMN x int",
    };
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        assert_int_equal(plan_of(none[i]).target, GC_DDL_TARGET_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(comment_on_table_becomes_comment_on_foreign_table),
        cmocka_unit_test(indexes_triggers_policies_rules_stay_on_the_owner),
        cmocka_unit_test(index_statements_run_where_the_index_exists),
        cmocka_unit_test(alter_table_maps_each_action_for_the_twin),
        cmocka_unit_test(alter_table_actions_that_copy_the_owners_column),
        cmocka_unit_test(actions_without_a_twin_counterpart_are_refused),
        cmocka_unit_test(grant_and_statements_on_no_one_table_have_no_target),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
