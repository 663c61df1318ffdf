/*
 * gc_sql_txn_classify: which statements change the transaction, which
 * PostgreSQL refuses inside a transaction block, texts of several
 * statements and COPY; words in strings, comments and identifiers never
 * count.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "sql/gc_sql_txn.h"

static gc_sql_txn_info classify(const char *sql)
{
    return gc_sql_txn_classify(sql, strlen(sql));
}

static gc_sql_txn_kind kind_of(const char *sql)
{
    return classify(sql).kind;
}

static void expect_kind(const char *const *texts, size_t n, gc_sql_txn_kind want)
{
    for (size_t i = 0; i < n; i++)
        if (kind_of(texts[i]) != want)
            fail_msg("'%s': kind %d, expected %d", texts[i], (int)kind_of(texts[i]), (int)want);
}

static void refused_in_a_block(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "vacuum", "VACUUM FULL t", "vacuum (verbose, analyze) t;",
        "create database d", "drop database if exists d", "create tablespace ts location '/x'",
        "drop tablespace ts", "create index concurrently i on t (a)",
        "create unique index concurrently on t (a)", "drop index concurrently i",
        "reindex index concurrently i", "reindex (verbose) table concurrently t",
        "reindex database d", "reindex system d", "reindex schema s", "alter system set work_mem = '1MB'",
        "alter system reset all", "alter database d set tablespace ts",
        "create subscription s connection 'x' publication p", "drop subscription s",
        "alter subscription s refresh publication", "alter subscription s set publication p",
        "alter table t detach partition p concurrently", "cluster", "cluster verbose",
        "cluster (verbose)", "discard all", "commit prepared 'x'", "rollback prepared 'x'",
        "-- leading comment\n vacuum", "/* c */ VACUUM t",
    };
    expect_kind(texts, sizeof texts / sizeof texts[0], GC_SQL_TXN_OUTSIDE_BLOCK);
}

static void allowed_in_a_block(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "select 'vacuum'", "select 1 as vacuum", "\"vacuum\" t", "analyze t",
        "create index i on t (a)", "drop index i", "reindex table t", "reindex index i",
        "alter database d set work_mem = '1MB'", "alter table t detach partition p",
        "alter subscription s enable", "cluster t", "cluster verbose t using i",
        "cluster (verbose) t", "discard temp", "create table concurrently_t (a int)",
        "-- vacuum\nselect 1", "vacuum; select 1", "select 1; vacuum", "",
    };
    expect_kind(texts, sizeof texts / sizeof texts[0], GC_SQL_TXN_ORDINARY);
}

static void transaction_control(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "begin", "BEGIN ISOLATION LEVEL SERIALIZABLE", "start transaction", "commit",
        "end", "rollback", "abort", "rollback to savepoint a", "rollback work to a",
        "savepoint a", "release a", "release savepoint a", "prepare transaction 'x'",
        "insert into t values (1); commit", "select 1; savepoint a",
    };
    expect_kind(texts, sizeof texts / sizeof texts[0], GC_SQL_TXN_CONTROL);
    assert_int_equal(kind_of("prepare p as select 1"), GC_SQL_TXN_ORDINARY);
    assert_int_equal(kind_of("start"), GC_SQL_TXN_ORDINARY);
    assert_int_equal(kind_of("select 'commit'"), GC_SQL_TXN_ORDINARY);
}

static void expect_ends_savepoints(const char *const *texts, size_t n, bool want)
{
    for (size_t i = 0; i < n; i++)
        if (classify(texts[i]).ends_savepoints != want)
            fail_msg("'%s': ends_savepoints %d, expected %d", texts[i],
                     (int)classify(texts[i]).ends_savepoints, (int)want);
}

/* RELEASE and ROLLBACK TO, alone: the rollback level can guard them. */
static void statements_that_end_savepoints(void **state)
{
    (void)state;
    static const char *const ending[] = {
        "release a", "RELEASE SAVEPOINT a;", "rollback to a", "rollback to savepoint a",
        "ROLLBACK WORK TO SAVEPOINT a", "rollback transaction to a", "/* c */ release a",
    };
    expect_ends_savepoints(ending, sizeof ending / sizeof ending[0], true);
    static const char *const other[] = {
        "rollback", "rollback work", "rollback and chain", "savepoint a", "commit",
        "rollback prepared 'x'", "release a; select 1", "select 1; rollback to a",
        "select 'release a'",
    };
    expect_ends_savepoints(other, sizeof other / sizeof other[0], false);
}

/* COMMIT and END, alone: a ROLLBACK answer says nothing was committed. */
static void statements_that_commit(void **state)
{
    (void)state;
    assert_true(classify("commit").commits);
    assert_true(classify("END;").commits);
    assert_true(classify("commit work and chain").commits);
    assert_false(classify("commit prepared 'x'").commits);
    assert_false(classify("rollback").commits);
    assert_false(classify("select 1; commit").commits);
}

static void several_statements_and_copy(void **state)
{
    (void)state;
    assert_false(classify("select 1").several);
    assert_false(classify("select 1;").several);
    assert_false(classify("select ';'; -- x").several);
    assert_false(classify("create function f() returns int as $$ select 1; $$ language sql").several);
    assert_true(classify("select 1; select 2").several);
    assert_true(classify("copy t from stdin").copy);
    assert_true(classify("select 1; copy t to stdout").copy);
    assert_false(classify("select 'copy'").copy);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(refused_in_a_block),
        cmocka_unit_test(allowed_in_a_block),
        cmocka_unit_test(transaction_control),
        cmocka_unit_test(statements_that_end_savepoints),
        cmocka_unit_test(statements_that_commit),
        cmocka_unit_test(several_statements_and_copy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
