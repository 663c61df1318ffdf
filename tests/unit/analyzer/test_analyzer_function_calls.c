/*
 * Function calls decide whether a SELECT is read-only (may run again after a
 * failure) and whether it may be routed as a read: a built-in that writes or
 * locks makes it neither; a function the driver does not know (a user's)
 * keeps it routable as a read but never re-runnable; only built-ins known to
 * read keep it read-only. Words in strings, comments, quoted or qualified
 * column names, type modifiers and alias lists are no calls.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "sql/gc_analyzer.h"
#include "sql/gc_analyzer_internal.h"

/* What the analysis must say: read-only (re-runnable), routed as a read only,
 * or a write. */
typedef enum { RERUN, READ_NO_RERUN, WRITE } verdict;

typedef struct call_case {
    const char *sql;
    verdict want;
} call_case;

static const call_case cases[] = {
    /* Built-ins that write, lock or signal. */
    {"SELECT nextval('s')", WRITE},
    {"SELECT NEXTVAL('s')", WRITE},
    {"SELECT \"nextval\"('s')", WRITE},
    {"SELECT pg_catalog.nextval('s')", WRITE},
    {"SELECT setval('s', 5)", WRITE},
    {"SELECT pg_notify('ch', 'payload')", WRITE},
    {"SELECT txid_current()", WRITE},
    {"SELECT pg_current_xact_id()", WRITE},
    {"SELECT set_config('work_mem', '8MB', false)", WRITE},
    {"SELECT lo_create(0)", WRITE},
    {"SELECT lo_unlink(16400)", WRITE},
    {"SELECT lo_put(16400, 0, '\\x00')", WRITE},
    {"SELECT lo_from_bytea(0, 'abc')", WRITE},
    {"SELECT lo_import('/etc/hosts')", WRITE},
    {"SELECT pg_advisory_xact_lock(1)", WRITE},
    {"SELECT pg_try_advisory_xact_lock_shared(1, 2)", WRITE},
    {"SELECT pg_terminate_backend(123)", WRITE},
    {"SELECT * FROM t WHERE k = $1 AND pg_notify('c', v) IS NOT NULL", WRITE},
    {"SELECT coalesce(nextval('s'), 0)", WRITE},
    {"SELECT CAST(nextval('s') AS bigint)", WRITE},
    {"VALUES (nextval('s'))", WRITE},
    {"WITH x AS (SELECT nextval('s')) SELECT * FROM x", WRITE},
    {"SELECT (SELECT setval('s', 1))", WRITE},
    {"SELECT my_func(1), nextval('s')", WRITE},

    /* Functions the driver does not know: routed as reads, never re-run. */
    {"SELECT my_audit_insert($1)", READ_NO_RERUN},
    {"SELECT * FROM my_set_returning_function()", READ_NO_RERUN},
    {"SELECT public.nextval('s')", READ_NO_RERUN},
    {"SELECT app.now()", READ_NO_RERUN},
    {"SELECT \"NEXTVAL\"('s')", READ_NO_RERUN},
    {"SELECT \"my func\"(1)", READ_NO_RERUN},
    {"SELECT count(*) FROM t WHERE k = $1 AND my_check(v)", READ_NO_RERUN},
    {"SELECT * FROM t x(a, b) WHERE a = 1", READ_NO_RERUN},   /* alias without AS: unsure */
    {"SELECT dblink('conn', 'select 1')", READ_NO_RERUN},

    /* Built-ins known to read, keywords and types: re-runnable. */
    {"SELECT 1", RERUN},
    {"SELECT * FROM t WHERE k = $1", RERUN},
    {"SELECT now(), count(*), coalesce(v, 0), max(k) FROM t", RERUN},
    {"SELECT COUNT(*) FILTER (WHERE v > 0) OVER (PARTITION BY k ORDER BY v) FROM t", RERUN},
    {"SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY v) FROM t", RERUN},
    {"SELECT * FROM t WHERE k IN (1, 2) AND EXISTS (SELECT 1 FROM u WHERE u.k = t.k)", RERUN},
    {"SELECT * FROM t WHERE k = ANY ($1) OR k = ALL (ARRAY[1]) OR v NOT IN (3)", RERUN},
    {"SELECT CAST(v AS numeric(10, 2)), v::varchar(10), v::character varying(5) FROM t", RERUN},
    {"SELECT extract(year FROM ts), date_trunc('day', ts), ts AT TIME ZONE ('UTC') FROM t", RERUN},
    {"SELECT substring(s FROM 1 FOR 2), position('a' IN s), trim(BOTH ' ' FROM s), upper(s) FROM t", RERUN},
    {"SELECT g FROM generate_series(1, 3) AS g(x)", RERUN},
    {"SELECT g FROM generate_series(1, 3) g(x)", RERUN},
    {"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3), "
     "q(m) AS (SELECT 2) SELECT * FROM r, q", RERUN},
    {"SELECT * FROM t JOIN u USING (k) WHERE (k) = (1) GROUP BY ROLLUP (k), CUBE (v)", RERUN},
    {"SELECT DISTINCT ON (k) k FROM t ORDER BY (k) LIMIT (5) OFFSET (1)", RERUN},
    {"SELECT * FROM t TABLESAMPLE SYSTEM (10) REPEATABLE (42)", RERUN},
    {"SELECT ROW(1, 2), ARRAY(SELECT 1), CASE WHEN (1 = 1) THEN (2) ELSE (3) END", RERUN},
    {"SELECT pg_catalog.now(), pg_catalog.count(*) FROM t", RERUN},
    {"SELECT current_setting('TimeZone'), pg_is_in_recovery()", RERUN},
    {"SELECT to_char(now(), 'YYYY'), lower(s) || concat(a, b) FROM t", RERUN},
    {"SELECT 1 UNION (SELECT 2) INTERSECT (SELECT 2) EXCEPT (SELECT 3)", RERUN},
    {"SHOW search_path", RERUN},

    /* Near misses: the name is there but no call is. */
    {"SELECT 'nextval(''s'')' FROM t", RERUN},
    {"SELECT $$ pg_notify('c') $$", RERUN},
    {"SELECT 1 -- nextval('s')\n", RERUN},
    {"SELECT 1 /* setval('s', 1) */", RERUN},
    {"SELECT nextval FROM t", RERUN},
    {"SELECT t.nextval, \"nextval\" FROM t", RERUN},
    {"SELECT x AS nextval FROM t", RERUN},
    {"SELECT E'pg_notify(\\'c\\')'", RERUN},
};

static void every_call_decides_read_only_and_routing(void **state)
{
    (void)state;
    static const char *const names[] = {"re-runnable read", "read, no re-run", "write"};
    int failures = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gc_analysis a;
        gc_error err;
        if (!gc_analyze(cases[i].sql, strlen(cases[i].sql), &a, &err))
            fail_msg("%s: analysis failed: %s", cases[i].sql, err.message);
        verdict got = a.read_only ? RERUN : a.route_as_read ? READ_NO_RERUN : WRITE;
        if (got != cases[i].want || (a.read_only && !a.route_as_read)) {
            failures++;
            print_error("%s\n  got %s (ro %d read %d), want %s\n", cases[i].sql,
                        names[got], a.read_only, a.route_as_read, names[cases[i].want]);
        }
        gc_analysis_free(&a);
    }
    assert_int_equal(failures, 0);
}

static void writes_are_never_routed_as_reads(void **state)
{
    (void)state;
    static const char *const writes[] = {
        "INSERT INTO t VALUES (1)", "UPDATE t SET v = 1", "DELETE FROM t",
        "SELECT * FROM t FOR UPDATE", "SELECT 1 INTO t2",
        "WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d",
        "SELECT 1; SELECT 2", "CREATE TABLE x (k int)", "SET work_mem = '1MB'",
        "SELECT 1; INSERT INTO t VALUES (1)", "SELECT 1 INTO t2; SELECT 2",
    };
    for (size_t i = 0; i < sizeof writes / sizeof writes[0]; i++) {
        gc_analysis a;
        gc_error err;
        assert_true(gc_analyze(writes[i], strlen(writes[i]), &a, &err));
        if (a.read_only || a.route_as_read)
            fail_msg("%s: routed as a read", writes[i]);
        /* Only the SELECT ... INTO makes a table (a cluster DDL); a text of
         * several statements never does, whatever INTO it holds. */
        if (a.select_into != (strcmp(writes[i], "SELECT 1 INTO t2") == 0))
            fail_msg("%s: select_into is %d", writes[i], a.select_into);
        gc_analysis_free(&a);
    }
}

/* A plain write (gc_analysis.plain_write) writes its one table and nothing
 * else: an autocommit statement that is not one carries the statement mark
 * (docs/global-connection.md, "Writes through postgres_fdw"). */
typedef struct plain_case {
    const char *sql;
    bool plain;
} plain_case;

static const plain_case plain_cases[] = {
    {"INSERT INTO t VALUES (1, 'a')", true},
    {"INSERT INTO t (k, v) VALUES ($1, $2), ($3, $4)", true},
    {"INSERT INTO s.t (k, v) VALUES (1, now()) ON CONFLICT (k) DO UPDATE SET v = "
     "excluded.v RETURNING k", true},
    {"INSERT INTO t (k, n) VALUES (1, nextval('s'))", true},
    {"INSERT INTO t (k) VALUES (1) -- a comment calling f(1)\n", true},
    {"UPDATE t SET v = v + 1, w = lower($2) WHERE k = $1", true},
    {"UPDATE t SET (v, w) = (1, 2) WHERE k = 1", true},
    {"DELETE FROM t WHERE k IN (1, 2)", true},
    {"MERGE INTO t USING s ON t.k = s.k WHEN NOT MATCHED THEN INSERT (k) VALUES (s.k)", true},
    {"WITH x AS (SELECT 1 AS k) INSERT INTO t SELECT k FROM x", true},
    {"INSERT INTO t VALUES (my_func(1))", false},
    {"UPDATE t SET v = public.nextval('s') WHERE k = 1", false},
    {"UPDATE t SET v = v + bump(2) WHERE k = 1", false},
    {"DELETE FROM t WHERE k = 1 AND pg_notify('c', 'x') IS NULL", false},
    {"WITH d AS (DELETE FROM u RETURNING k) INSERT INTO t SELECT k FROM d", false},
    {"INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)", false},
    {"SELECT bump(1, 2)", false},
    {"SELECT 1", false},
    {"CALL p(1)", false},
    {"DO $$ BEGIN NULL; END $$", false},
};

static bool plain_write_of(const gc_analysis *a)
{
    return a->plain_write;
}

static bool one_relation_of(const gc_analysis *a)
{
    return a->one_relation;
}

/* How many of the n checks the analysis's flag (named `name`) gets wrong,
 * each printed. */
static int flag_mismatches(const plain_case *checks, size_t n,
                           bool (*flag)(const gc_analysis *), const char *name)
{
    int failures = 0;
    for (size_t i = 0; i < n; i++) {
        gc_analysis a;
        gc_error err;
        if (!gc_analyze(checks[i].sql, strlen(checks[i].sql), &a, &err))
            fail_msg("%s: analysis failed: %s", checks[i].sql, err.message);
        if (flag(&a) != checks[i].plain) {
            failures++;
            print_error("%s\n  %s %d, want %d\n", checks[i].sql, name, flag(&a), checks[i].plain);
        }
        gc_analysis_free(&a);
    }
    return failures;
}

static void plain_writes_call_only_readers(void **state)
{
    (void)state;
    assert_int_equal(flag_mismatches(plain_cases, sizeof plain_cases / sizeof plain_cases[0],
                                     plain_write_of, "plain_write"), 0);
}

/* A statement of one relation (gc_analysis.one_relation) reads nothing of
 * another server when it runs where its target's rows are: a transaction's
 * member that ran only such statements can PREPARE its part (the global
 * connection picks its commit's decider by it). */
static const plain_case relation_cases[] = {
    {"SELECT balance FROM accounts WHERE id = $1", true},
    {"SELECT extract(year FROM at), substring(s FROM 2) FROM t WHERE k = 1 ORDER BY 1", true},
    {"SELECT * FROM t WHERE k = 1 FOR UPDATE", true},
    {"INSERT INTO t (k, v) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET v = excluded.v", true},
    {"UPDATE t SET v = v + 1 WHERE k = $1 RETURNING v", true},
    {"DELETE FROM t WHERE k IN (1, 2)", true},
    {"UPDATE t SET v = $1 WHERE k = $2 AND v IS NOT DISTINCT FROM $3", true},
    {"DELETE FROM t WHERE k = 1 AND v IS DISTINCT FROM 2", true},
    {"SELECT v FROM t WHERE k = 1 AND v IS DISTINCT FROM 2 ORDER BY v", true},
    {"UPDATE t SET v = (SELECT v FROM settings WHERE name = 'bonus') WHERE k = 1", false},
    {"UPDATE t SET v = s.v FROM s WHERE t.k = s.k AND t.k = 1", false},
    {"DELETE FROM t USING s WHERE t.k = s.k", false},
    {"DELETE FROM t WHERE k IN (SELECT k FROM s)", false},
    {"INSERT INTO t SELECT * FROM s", false},
    {"SELECT * FROM t, s WHERE t.k = 1", false},
    {"SELECT * FROM t JOIN s ON s.k = t.k WHERE t.k = 1", false},
    {"SELECT * FROM t WHERE k = 1 UNION ALL SELECT * FROM s", false},
    {"WITH x AS (SELECT 1) SELECT * FROM t WHERE k = 1", false},
    {"SELECT * FROM t WHERE k = my_lookup(1)", false},
    {"MERGE INTO t USING s ON t.k = s.k WHEN MATCHED THEN DELETE", false},
    {"SELECT 1", false},
};

static void statements_of_one_relation_are_told_apart(void **state)
{
    (void)state;
    assert_int_equal(flag_mismatches(relation_cases,
                                     sizeof relation_cases / sizeof relation_cases[0],
                                     one_relation_of, "one_relation"), 0);
}

static void name_lists_are_sorted_for_bsearch(void **state)
{
    (void)state;
    assert_true(gc_az_function_lists_sorted());
    /* bsearch over a sorted list finds the first, last and a middle entry. */
    assert_int_equal(gc_az_function_class("dblink_exec", false), GC_AZ_CALL_WRITES);
    assert_int_equal(gc_az_function_class("txid_current", false), GC_AZ_CALL_WRITES);
    assert_int_equal(gc_az_function_class("abs", false), GC_AZ_CALL_READS);
    assert_int_equal(gc_az_function_class("zone", false), GC_AZ_CALL_READS);
    assert_int_equal(gc_az_function_class("abs", true), GC_AZ_CALL_MAY_WRITE);
    assert_int_equal(gc_az_function_class("aaa", false), GC_AZ_CALL_MAY_WRITE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_call_decides_read_only_and_routing),
        cmocka_unit_test(writes_are_never_routed_as_reads),
        cmocka_unit_test(plain_writes_call_only_readers),
        cmocka_unit_test(statements_of_one_relation_are_told_apart),
        cmocka_unit_test(name_lists_are_sorted_for_bsearch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
