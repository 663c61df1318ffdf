/*
 * The analyzer reads each statement of a table the way the router needs it:
 * kind, read-only, target table and the columns pinned to parameters or
 * literals. Every row is one statement with everything expected of it, near
 * misses included (a key that must NOT be reported).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "sql/gc_analyzer.h"

/* RW: may write; RO: read-only; LK: writes nothing but row locks
 * (locking_read). */
enum { RW = 0, RO = 1, LK = 2 };

typedef struct statement_case {
    const char *sql;
    gc_sql_kind kind;
    int read_only;
    const char *table;    /* "schema.table", "table" or NULL */
    const char *pins;     /* rendered as by render_pins; "" for none */
    const char *why;      /* a word of not_routable, or NULL when routable */
} statement_case;

#define K(kind) GC_SQL_##kind

static const statement_case cases[] = {
    /* Kinds. */
    {"SELECT 1", K(SELECT), RO, NULL, "", "FROM"},
    {"VALUES (1), (2)", K(SELECT), RO, NULL, "", "table"},
    {"TABLE accounts", K(SELECT), RO, "accounts", "", "WHERE"},
    {"  -- lead\n/* block /* nested */ */ ((SELECT k FROM t WHERE k = $1))", K(SELECT), RO, "t", "k=$0", NULL},
    {"BEGIN", K(BEGIN), RW, NULL, "", "table"},
    {"START TRANSACTION ISOLATION LEVEL SERIALIZABLE", K(BEGIN), RW, NULL, "", "table"},
    {"COMMIT", K(COMMIT), RW, NULL, "", "table"},
    {"END", K(COMMIT), RW, NULL, "", "table"},
    {"COMMIT PREPARED 'x'", K(OTHER), RW, NULL, "", "table"},
    {"ROLLBACK", K(ROLLBACK), RW, NULL, "", "table"},
    {"ABORT", K(ROLLBACK), RW, NULL, "", "table"},
    {"ROLLBACK TO SAVEPOINT s1", K(SAVEPOINT), RW, NULL, "", "table"},
    {"ROLLBACK WORK TO s1", K(SAVEPOINT), RW, NULL, "", "table"},
    {"ROLLBACK PREPARED 'x'", K(OTHER), RW, NULL, "", "table"},
    {"SAVEPOINT s1", K(SAVEPOINT), RW, NULL, "", "table"},
    {"RELEASE SAVEPOINT s1", K(SAVEPOINT), RW, NULL, "", "table"},
    {"SET search_path = app", K(SET), RW, NULL, "", "table"},
    {"RESET ALL", K(SET), RW, NULL, "", "table"},
    {"SHOW search_path", K(SHOW), RO, NULL, "", "table"},
    {"CREATE TABLE t (k int)", K(DDL), RW, NULL, "", "table"},
    {"ALTER TABLE t ADD c int", K(DDL), RW, NULL, "", "table"},
    {"DROP TABLE t", K(DDL), RW, NULL, "", "table"},
    {"TRUNCATE t", K(DDL), RW, NULL, "", "table"},
    {"COMMENT ON TABLE t IS 'x'", K(DDL), RW, NULL, "", "table"},
    {"GRANT SELECT ON t TO u", K(DDL), RW, NULL, "", "table"},
    {"REVOKE SELECT ON t FROM u", K(DDL), RW, NULL, "", "table"},
    {"EXPLAIN SELECT * FROM t WHERE k = $1", K(OTHER), RW, NULL, "", "table"},
    /* Maintenance: the one table it names is its target. */
    {"VACUUM t", K(MAINTENANCE), RW, "t", "", "maintenance"},
    {"VACUUM (VERBOSE, ANALYZE) FULL s.t (a, b)", K(MAINTENANCE), RW, "s.t", "", "maintenance"},
    {"VACUUM t, u", K(MAINTENANCE), RW, NULL, "", "maintenance"},
    {"VACUUM", K(MAINTENANCE), RW, NULL, "", "maintenance"},
    {"analyze verbose t", K(MAINTENANCE), RW, "t", "", "maintenance"},
    {"ANALYSE", K(MAINTENANCE), RW, NULL, "", "maintenance"},
    {"REINDEX (VERBOSE) TABLE CONCURRENTLY t", K(MAINTENANCE), RW, "t", "", "maintenance"},
    {"REINDEX INDEX i", K(MAINTENANCE), RW, NULL, "", "maintenance"},
    {"REINDEX SCHEMA s", K(MAINTENANCE), RW, NULL, "", "maintenance"},
    {"CLUSTER t USING i", K(MAINTENANCE), RW, "t", "", "maintenance"},
    {"CLUSTER", K(MAINTENANCE), RW, NULL, "", "maintenance"},
    {"CHECKPOINT", K(MAINTENANCE), RW, NULL, "", "maintenance"},
    {"COPY t TO STDOUT", K(OTHER), RW, "t", "", "COPY"},
    {"copy s.t (a, b) from stdin with (format csv)", K(OTHER), RW, "s.t", "", "COPY"},
    {"COPY (SELECT * FROM t) TO STDOUT", K(OTHER), RW, NULL, "", "COPY"},
    {"", K(UNKNOWN), RW, NULL, "", "table"},
    {"-- only a comment", K(UNKNOWN), RW, NULL, "", "table"},
    {"MERGE INTO t USING s ON t.k = s.k WHEN MATCHED THEN DELETE", K(MERGE), RW, "t", "", "MERGE"},
    {"WITH x AS (SELECT 1) SELECT * FROM t WHERE k = $1", K(SELECT), RO, "t", "k=$0", NULL},
    {"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x) SELECT * FROM x WHERE n = 1",
     K(SELECT), RO, NULL, "", "WITH query"},
    {"WITH x AS (SELECT 1) DELETE FROM t WHERE k = $1", K(DELETE), RW, "t", "k=$0", NULL},
    {"WITH x AS MATERIALIZED (SELECT 1), y AS NOT MATERIALIZED (SELECT 2) UPDATE t SET v = 1 WHERE k = 5",
     K(UPDATE), RW, "t", "k='5'", NULL},

    /* Read-only. */
    {"SELECT * FROM t WHERE k = $1 FOR UPDATE", K(SELECT), LK, "t", "k=$0", NULL},
    {"SELECT * FROM t WHERE k = $1 FOR NO KEY UPDATE", K(SELECT), LK, "t", "k=$0", NULL},
    {"SELECT * FROM t WHERE k = $1 FOR SHARE", K(SELECT), LK, "t", "k=$0", NULL},
    {"SELECT * FROM t WHERE k = $1 FOR KEY SHARE NOWAIT", K(SELECT), LK, "t", "k=$0", NULL},
    {"SELECT * FROM t WHERE k = $1 FOR UPDATE SKIP LOCKED", K(SELECT), LK, "t", "k=$0", NULL},
    {"SELECT lower(v) FROM t WHERE k = $1 FOR UPDATE", K(SELECT), LK, "t", "k=$0", NULL},
    {"SELECT bump(v) FROM t WHERE k = $1 FOR UPDATE", K(SELECT), RW, "t", "k=$0", NULL},
    {"SELECT * INTO t2 FROM t WHERE k = $1 FOR UPDATE", K(SELECT), RW, "t", "k=$0", NULL},
    {"SELECT * FROM t WHERE k = $1 FOR UPDATE; SELECT 1", K(SELECT), RW, NULL, "", "more than one"},
    {"WITH d AS (DELETE FROM t WHERE k = 1 RETURNING *) SELECT * FROM u WHERE k = 1 FOR UPDATE",
     K(SELECT), RW, "u", "k='1'", NULL},
    {"SELECT * INTO t2 FROM t WHERE k = $1", K(SELECT), RW, "t", "k=$0", NULL},
    {"SELECT nextval('s')", K(SELECT), RW, NULL, "", "FROM"},
    {"SELECT setval('s', 5)", K(SELECT), RW, NULL, "", "FROM"},
    {"WITH d AS (DELETE FROM t WHERE k = 1 RETURNING *) SELECT * FROM d", K(SELECT), RW, NULL, "", "WITH query"},
    {"SELECT 'FOR UPDATE', \"into\" FROM t WHERE k = $1", K(SELECT), RO, "t", "k=$0", NULL},

    /* SET LOCAL is reported separately (checked by its own test below). */
    {"SET LOCAL statement_timeout = 5", K(SET), RW, NULL, "", "table"},

    /* Target names. */
    {"SELECT * FROM Accounts WHERE K = $1", K(SELECT), RO, "accounts", "k=$0", NULL},
    {"SELECT * FROM \"Accounts\" WHERE \"Key\" = $1", K(SELECT), RO, "Accounts", "Key=$0", NULL},
    {"SELECT * FROM \"we\"\"ird\" WHERE k = $1", K(SELECT), RO, "we\"ird", "k=$0", NULL},
    {"SELECT * FROM App.Accounts WHERE k = $1", K(SELECT), RO, "app.accounts", "k=$0", NULL},
    {"SELECT * FROM \"App\".\"Acc\" a WHERE a.k = $1", K(SELECT), RO, "App.Acc", "k=$0", NULL},
    {"SELECT * FROM ONLY t WHERE k = $1", K(SELECT), RO, "t", "k=$0", NULL},
    {"SELECT * FROM accounts a WHERE a.k = $1", K(SELECT), RO, "accounts", "k=$0", NULL},
    {"SELECT * FROM accounts AS a WHERE a.k = $1", K(SELECT), RO, "accounts", "k=$0", NULL},
    {"SELECT * FROM accounts WHERE accounts.k = $1", K(SELECT), RO, "accounts", "k=$0", NULL},
    {"SELECT * FROM app.accounts WHERE app.accounts.k = $1", K(SELECT), RO, "app.accounts", "k=$0", NULL},
    {"SELECT * FROM (SELECT * FROM t) s WHERE k = $1", K(SELECT), RO, NULL, "", "subquery"},
    {"SELECT * FROM generate_series(1, 3) g WHERE g = 1", K(SELECT), RO, NULL, "", "function"},
    {"SELECT * FROM t AS a(x, y) WHERE x = $1", K(SELECT), RO, NULL, "", "renames"},

    /* UPDATE and DELETE. */
    {"UPDATE accounts SET v = $1 WHERE k = $2", K(UPDATE), RW, "accounts", "k=$1", NULL},
    {"UPDATE accounts AS a SET v = $1 WHERE a.k = $2", K(UPDATE), RW, "accounts", "k=$1", NULL},
    {"UPDATE ONLY app.accounts a SET v = 1 WHERE a.k = $1 RETURNING v", K(UPDATE), RW, "app.accounts", "k=$0", NULL},
    {"UPDATE t SET v = 1", K(UPDATE), RW, "t", "", "WHERE"},
    {"UPDATE t SET v = 1 FROM u WHERE t.k = u.k AND t.k = $1", K(UPDATE), RW, "t", "k=$0", NULL},
    {"UPDATE t SET v = 1 WHERE CURRENT OF c", K(UPDATE), RW, "t", "", "CURRENT"},
    {"DELETE FROM t WHERE k = $1", K(DELETE), RW, "t", "k=$0", NULL},
    {"DELETE FROM ONLY t AS x WHERE x.k IN ($1, $2, 7)", K(DELETE), RW, "t", "k=$0,$1,'7'", NULL},
    {"DELETE FROM t USING u WHERE t.k = u.k AND u.k = $1", K(DELETE), RW, "t", "", "pinned"},
    {"DELETE FROM t", K(DELETE), RW, "t", "", "WHERE"},

    /* WHERE forms. */
    {"SELECT * FROM t WHERE $1 = k", K(SELECT), RO, "t", "k=$0", NULL},
    {"SELECT * FROM t WHERE k = $1::int8", K(SELECT), RO, "t", "k=$0", NULL},
    {"SELECT * FROM t WHERE k = CAST($3 AS bigint)", K(SELECT), RO, "t", "k=$2", NULL},
    {"SELECT * FROM t WHERE k = 42 AND v = 'x' AND w = -3.5", K(SELECT), RO, "t", "k='42' v='x' w='-3.5'", NULL},
    {"SELECT * FROM t WHERE k = 'it''s'", K(SELECT), RO, "t", "k='it's'", NULL},
    {"SELECT * FROM t WHERE k = E'a\\tb\\x41\\u00e9'", K(SELECT), RO, "t", "k='a\tbA\xc3\xa9'", NULL},
    {"SELECT * FROM t WHERE k = $q$x'y$q$", K(SELECT), RO, "t", "k='x'y'", NULL},
    {"SELECT * FROM t WHERE d = DATE '2026-01-01'", K(SELECT), RO, "t", "d='2026-01-01'", NULL},
    {"SELECT * FROM t WHERE d = '2026-01-01'::date", K(SELECT), RO, "t", "d='2026-01-01'", NULL},
    {"SELECT * FROM t WHERE ts = TIMESTAMP WITH TIME ZONE '2026-01-01 00:00+00'", K(SELECT), RO, "t",
     "ts='2026-01-01 00:00+00'", NULL},
    {"SELECT * FROM t WHERE b = TRUE AND c = false", K(SELECT), RO, "t", "b='true' c='false'", NULL},
    {"SELECT * FROM t WHERE k IN ($1, $2)", K(SELECT), RO, "t", "k=$0,$1", NULL},
    {"SELECT * FROM t WHERE k IN (1, -2, 'x')", K(SELECT), RO, "t", "k='1','-2','x'", NULL},
    {"SELECT * FROM t WHERE (k = $1 AND v = $2) AND w > 3", K(SELECT), RO, "t", "k=$0 v=$1", NULL},
    {"SELECT * FROM t WHERE x BETWEEN 1 AND 5 AND k = $1", K(SELECT), RO, "t", "k=$0", NULL},
    {"SELECT * FROM t WHERE k = $1 AND k = $2", K(SELECT), RO, "t", "k=$0 k=$1", NULL},
    {"SELECT * FROM t WHERE k = $1 ORDER BY v LIMIT 10", K(SELECT), RO, "t", "k=$0", NULL},
    {"SELECT count(*) FROM t WHERE k = $1 GROUP BY v HAVING count(*) > 1", K(SELECT), RO, "t", "k=$0", NULL},
    {"SELECT * FROM t WHERE k = $10", K(SELECT), RO, "t", "k=$9", NULL},
    {"SELECT * FROM t WHERE (k1, k2) = ($1, 'x')", K(SELECT), RO, "t", "k1=$0 k2='x'", NULL},
    {"SELECT * FROM t a WHERE (a.k1, k2) = ($1, $2) AND v = 1", K(SELECT), RO, "t", "k1=$0 k2=$1 v='1'", NULL},
    {"SELECT * FROM t WHERE (k1, k2) = ($1, $2 + 1)", K(SELECT), RO, "t", "", "pinned"},
    {"SELECT * FROM t WHERE (k1, k2) = ($1)", K(SELECT), RO, "t", "", "pinned"},
    {"SELECT * FROM t WHERE k = NULL", K(SELECT), RO, "t", "k=NULL", NULL},
    {"SELECT * FROM t WHERE k = N'x' AND v = 0.5e3", K(SELECT), RO, "t", "k='x' v='0.5e3'", NULL},
    {"SELECT * FROM t WHERE k = +7", K(SELECT), RO, "t", "k='7'", NULL},
    {"SELECT * FROM t WHERE k = -$1", K(SELECT), RO, "t", "", "pinned"},
    {"SELECT * FROM t WHERE k = B'101'", K(SELECT), RO, "t", "", "pinned"},
    {"SELECT * FROM t WHERE current_user = 'bob' AND k = current_date", K(SELECT), RO, "t", "", "pinned"},
    {"SELECT * FROM t WHERE \"user\" = 'bob'", K(SELECT), RO, "t", "user='bob'", NULL},
    {"SELECT * FROM t WHERE k = $1 COLLATE \"C\"", K(SELECT), RO, "t", "", "pinned"},
    {"SELECT * FROM a JOIN b ON a.id = b.id WHERE a.k = $1", K(SELECT), RO, "a", "k=$0", NULL},
    {"SELECT * FROM a x LEFT JOIN b y USING (id) WHERE x.k = $1 AND y.z = $2", K(SELECT), RO, "a", "k=$0", NULL},
    {"SELECT * FROM a, b WHERE a.k = $1", K(SELECT), RO, "a", "k=$0", NULL},

    /* Near misses: nothing pinned. */
    {"SELECT * FROM t WHERE k = $1 OR v = $2", K(SELECT), RO, "t", "", "OR"},
    {"SELECT * FROM t WHERE k = $1 AND v = 1 OR w = 2", K(SELECT), RO, "t", "", "OR"},
    {"SELECT * FROM t WHERE (k = $1 OR v = 2) AND w = $2", K(SELECT), RO, "t", "w=$1", NULL},
    {"SELECT * FROM t WHERE NOT k = $1", K(SELECT), RO, "t", "", "pinned"},
    {"SELECT * FROM t WHERE NOT (k = $1)", K(SELECT), RO, "t", "", "pinned"},
    {"SELECT * FROM t WHERE v IN (SELECT v FROM u WHERE k = $1)", K(SELECT), RO, "t", "", "pinned"},
    {"SELECT * FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.k = $1)", K(SELECT), RO, "t", "", "pinned"},
    {"SELECT * FROM t WHERE k = (SELECT max(k) FROM u)", K(SELECT), RO, "t", "", "pinned"},
    {"SELECT * FROM a JOIN b ON b.k = $1 WHERE a.v = 2", K(SELECT), RO, "a", "v='2'", NULL},
    {"SELECT * FROM a JOIN b ON a.k = $1", K(SELECT), RO, "a", "", "WHERE"},
    {"SELECT * FROM a x JOIN b y ON x.id = y.id WHERE y.k = $1", K(SELECT), RO, "a", "", "pinned"},
    {"SELECT * FROM accounts a WHERE b.k = $1", K(SELECT), RO, "accounts", "", "pinned"},
    {"SELECT * FROM t WHERE k = $1 + 1", K(SELECT), RO, "t", "", "pinned"},
    {"SELECT * FROM t WHERE k = other_col", K(SELECT), RO, "t", "", "pinned"},
    {"SELECT * FROM t WHERE k >= $1", K(SELECT), RO, "t", "", "pinned"},
    {"SELECT * FROM t WHERE k <> $1", K(SELECT), RO, "t", "", "pinned"},
    {"SELECT * FROM t WHERE k NOT IN ($1, $2)", K(SELECT), RO, "t", "", "pinned"},
    {"SELECT * FROM t WHERE k IN ($1, v)", K(SELECT), RO, "t", "", "pinned"},
    {"SELECT * FROM t WHERE k = lower($1)", K(SELECT), RO, "t", "", "pinned"},
    {"SELECT * FROM t WHERE k = ANY($1)", K(SELECT), RO, "t", "", "pinned"},
    {"SELECT 'WHERE k = $1' FROM t", K(SELECT), RO, "t", "", "WHERE"},
    {"SELECT * FROM t -- WHERE k = $1\n", K(SELECT), RO, "t", "", "WHERE"},
    {"SELECT * FROM t /* WHERE k = $1 */ WHERE v = $2", K(SELECT), RO, "t", "v=$1", NULL},
    {"SELECT * FROM t WHERE v = 'x WHERE k = $1'", K(SELECT), RO, "t", "v='x WHERE k = $1'", NULL},
    {"SELECT * FROM t WHERE k = $1 UNION SELECT * FROM u WHERE k = $2", K(SELECT), RO, "t", "", "set operation"},
    {"SELECT * FROM t WHERE k = $1; DELETE FROM t", K(SELECT), RW, NULL, "", "more than one"},
    {"SELECT * FROM t WHERE k = $1;", K(SELECT), RO, "t", "k=$0", NULL},
    {"WITH t AS (SELECT 1 AS k) SELECT * FROM t WHERE k = $1", K(SELECT), RO, NULL, "", "WITH query"},
    {"SELECT * FROM t WHERE k = $0", K(SELECT), RO, "t", "", "pinned"},

    /* INSERT. */
    {"INSERT INTO t (k, v) VALUES ($1, $2)", K(INSERT), RW, "t", "k=$0 v=$1", NULL},
    {"INSERT INTO t VALUES ($1, 'a')", K(INSERT), RW, "t", "#0=$0 #1='a'", NULL},
    {"INSERT INTO app.t (k, v) VALUES ($1, $2), ($3, $4), (5, NULL)", K(INSERT), RW, "app.t",
     "k=$0,$2,'5' v=$1,$3,NULL", NULL},
    {"INSERT INTO t (k, v) VALUES ($1::int8, now())", K(INSERT), RW, "t", "k=$0", NULL},
    {"INSERT INTO t (k, v) VALUES (DEFAULT, $1), ($2, $3)", K(INSERT), RW, "t", "v=$0,$2", NULL},
    {"INSERT INTO t (k, d) VALUES (-7, DATE '2026-01-01')", K(INSERT), RW, "t", "k='-7' d='2026-01-01'", NULL},
    {"INSERT INTO t (k, s) VALUES (1, E'\\'q\\'')", K(INSERT), RW, "t", "k='1' s=''q''", NULL},
    {"INSERT INTO t (k, b) VALUES ('x'::text, TRUE)", K(INSERT), RW, "t", "k='x' b='true'", NULL},
    {"INSERT INTO \"T\" AS x (\"K\") VALUES ($1) ON CONFLICT (\"K\") DO UPDATE SET v = x.v + 1 RETURNING *",
     K(INSERT), RW, "T", "K=$0", NULL},
    {"INSERT INTO t (k) VALUES ($1) ON CONFLICT DO NOTHING", K(INSERT), RW, "t", "k=$0", NULL},
    {"INSERT INTO t (k) VALUES ($1) RETURNING k", K(INSERT), RW, "t", "k=$0", NULL},
    {"INSERT INTO t (k) OVERRIDING SYSTEM VALUE VALUES ($1)", K(INSERT), RW, "t", "k=$0", NULL},
    {"INSERT INTO t (k, v) SELECT k, v FROM u WHERE k = $1", K(INSERT), RW, "t", "", "SELECT"},
    {"INSERT INTO t DEFAULT VALUES", K(INSERT), RW, "t", "", "DEFAULT"},
    {"INSERT INTO t (k, v) VALUES ($1, $2), ($3)", K(INSERT), RW, "t", "", "lengths"},
    {"INSERT INTO t (k, v) VALUES ($1)", K(INSERT), RW, "t", "", "column list"},
    {"INSERT INTO t (k) VALUES ($1 + 1)", K(INSERT), RW, "t", "", "pinned"},
    {"INSERT INTO t (k) VALUES ((SELECT 1))", K(INSERT), RW, "t", "", "pinned"},
    {"INSERT INTO t (k, v) VALUES ($1, f($2, 3))", K(INSERT), RW, "t", "k=$0", NULL},
    {"INSERT INTO t (k) VALUES ('WHERE k = $1')", K(INSERT), RW, "t", "k='WHERE k = $1'", NULL},
    {"WITH x AS (SELECT 1) INSERT INTO t (k) VALUES ($1)", K(INSERT), RW, "t", "k=$0", NULL},
    {"INSERT INTO t (k) VALUES ($1); INSERT INTO t (k) VALUES ($2)", K(INSERT), RW, NULL, "", "more than one"},
};

/* Renders the pinned columns as "name=src,src name2=src" ("#n" for a
 * position, $n for a 0-based parameter, 'text' for a literal, NULL). */
static void render_pins(const gc_analysis *a, char *buf, size_t cap)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int c = 0; c < a->n_columns; c++) {
        const gc_pinned_column *col = &a->columns[c];
        if (col->name != NULL)
            o += (size_t)snprintf(buf + o, cap - o, "%s%s=", c ? " " : "", col->name);
        else
            o += (size_t)snprintf(buf + o, cap - o, "%s#%d=", c ? " " : "", col->position);
        for (int v = 0; v < col->n_values && o < cap; v++) {
            const gc_value_source *s = &col->values[v];
            const char *sep = v ? "," : "";
            if (s->param >= 0)
                o += (size_t)snprintf(buf + o, cap - o, "%s$%d", sep, s->param);
            else if (s->literal != NULL)
                o += (size_t)snprintf(buf + o, cap - o, "%s'%s'", sep, s->literal);
            else
                o += (size_t)snprintf(buf + o, cap - o, "%sNULL", sep);
        }
        assert_true(o < cap);
    }
}

static void every_statement_gets_its_kind_table_and_pinned_columns(void **state)
{
    (void)state;
    int failures = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const statement_case *c = &cases[i];
        gc_analysis a;
        gc_error err;
        if (!gc_analyze(c->sql, strlen(c->sql), &a, &err))
            fail_msg("%s: analysis failed: %s", c->sql, err.message);
        char table[256] = "", pins[512];
        if (a.table != NULL)
            snprintf(table, sizeof table, "%s%s%s", a.schema ? a.schema : "",
                     a.schema ? "." : "", a.table);
        render_pins(&a, pins, sizeof pins);
        const char *why = a.not_routable ? a.not_routable : "(null)";
        bool ok = a.kind == c->kind && a.read_only == (c->read_only == RO) &&
                  a.locking_read == (c->read_only == LK) &&
                  strcmp(table, c->table ? c->table : "") == 0 &&
                  strcmp(pins, c->pins) == 0 &&
                  (c->why == NULL ? a.not_routable == NULL
                                  : a.not_routable != NULL && strstr(a.not_routable, c->why));
        if (!ok) {
            failures++;
            print_error("%s\n  got kind %d ro %d table '%s' pins '%s' why '%s'\n"
                     "  want kind %d ro %d table '%s' pins '%s' why '%s'\n",
                     c->sql, a.kind, a.read_only + 2 * a.locking_read, table, pins, why, c->kind, c->read_only,
                     c->table ? c->table : "", c->pins, c->why ? c->why : "(null)");
        }
        gc_analysis_free(&a);
    }
    assert_int_equal(failures, 0);
}

static void insert_reports_its_row_count(void **state)
{
    (void)state;
    const char *sql = "INSERT INTO t (k) VALUES ($1), ($2), ($3)";
    gc_analysis a;
    gc_error err;
    assert_true(gc_analyze(sql, strlen(sql), &a, &err));
    assert_int_equal(a.n_rows, 3);
    assert_int_equal(a.columns[0].position, -1);
    gc_analysis_free(&a);
    sql = "UPDATE t SET v = 1 WHERE k = $1";
    assert_true(gc_analyze(sql, strlen(sql), &a, &err));
    assert_int_equal(a.n_rows, 1);
    gc_analysis_free(&a);
}

static void set_local_is_local_and_plain_set_is_not(void **state)
{
    (void)state;
    gc_analysis a;
    gc_error err;
    const char *sql = "/* x */ SET LOCAL work_mem = '1MB'";
    assert_true(gc_analyze(sql, strlen(sql), &a, &err));
    assert_int_equal(a.kind, GC_SQL_SET);
    assert_true(a.is_local);
    gc_analysis_free(&a);
    sql = "SET SESSION work_mem = '1MB'";
    assert_true(gc_analyze(sql, strlen(sql), &a, &err));
    assert_false(a.is_local);
    gc_analysis_free(&a);
}

/* AND CHAIN is read from tokens once per statement text: inside strings,
 * comments or quoted names it does not count. */
static void and_chain_is_found_as_keywords_only(void **state)
{
    (void)state;
    static const struct {
        const char *sql;
        bool chain;
    } clause_cases[] = {
        {"COMMIT AND CHAIN", true},
        {"rollback and chain", true},
        {"commit and no chain", false},
        {"COMMIT /* and chain */", false},
        {"UPDATE t SET note = 'and chain' WHERE k = $1", false},
        {"UPDATE t SET \"chain\" = 1 WHERE k = $1 AND \"chain\" = 2", false},
        {"COMMIT", false},
    };
    for (size_t c = 0; c < sizeof clause_cases / sizeof clause_cases[0]; c++) {
        gc_analysis a;
        gc_error err;
        assert_true(gc_analyze(clause_cases[c].sql, strlen(clause_cases[c].sql), &a, &err));
        if (a.and_chain != clause_cases[c].chain)
            fail_msg("%s: chain %d", clause_cases[c].sql, a.and_chain);
        gc_analysis_free(&a);
    }
}

static void unterminated_text_fails_with_42601(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "SELECT * FROM t WHERE k = 'abc", "SELECT \"x", "SELECT $$x", "SELECT 1 /* x",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gc_analysis a;
        gc_error err;
        assert_false(gc_analyze(bad[i], strlen(bad[i]), &a, &err));
        assert_string_equal(err.sqlstate, "42601");
        assert_null(a.table);
        gc_analysis_free(&a);
    }
}

static void a_nul_byte_does_not_end_the_text(void **state)
{
    (void)state;
    /* Text with an embedded NUL is analysed by length, not by strlen. */
    static const char sql[] = "DELETE FROM t WHERE k = $1\0 OR 1 = 1";
    gc_analysis a;
    gc_error err;
    assert_true(gc_analyze(sql, sizeof sql - 1, &a, &err));
    assert_int_equal(a.n_columns, 0);
    gc_analysis_free(&a);
}

/* Where the target is named, so a write across groups can replace it by
 * each partition (gc_global_span.c): [schema.]name and its last part. */
static void the_target_name_is_located_in_the_text(void **state)
{
    (void)state;
    static const struct {
        const char *sql, *whole, *name;
        bool aliased;
    } targets[] = {
        {"UPDATE accounts SET b = 1", "accounts", "accounts", false},
        {"update  public . \"Acc\" a set b = 1", "public . \"Acc\"", "\"Acc\"", true},
        {"DELETE FROM ONLY app.t AS x WHERE b > 0", "app.t", "t", true},
        {"WITH c AS (SELECT 1) DELETE FROM t USING c", "t", "t", false},
        {"UPDATE t* SET b = 1", NULL, NULL, false},
    };
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        gc_analysis a;
        gc_error err;
        const char *sql = targets[i].sql;
        assert_true(gc_analyze(sql, strlen(sql), &a, &err));
        if (targets[i].whole == NULL) {
            if (a.target_length != 0)
                fail_msg("%s: a target that cannot be replaced was located", sql);
            gc_analysis_free(&a);
            continue;
        }
        if (a.target_length != strlen(targets[i].whole) ||
            strncmp(sql + a.target_offset, targets[i].whole, a.target_length) != 0 ||
            a.target_name_length != strlen(targets[i].name) ||
            strncmp(sql + a.target_name_offset, targets[i].name, a.target_name_length) != 0 ||
            a.target_aliased != targets[i].aliased)
            fail_msg("%s: target at %zu+%zu, name at %zu+%zu, aliased %d", sql,
                     a.target_offset, a.target_length, a.target_name_offset,
                     a.target_name_length, a.target_aliased);
        gc_analysis_free(&a);
    }
}

/* An INSERT's VALUES rows are located, so each group can be sent its own
 * (gc_global_span.c); anything but a plain list of rows is not. */
static void insert_rows_are_located_in_the_text(void **state)
{
    (void)state;
    const char *sql = "INSERT INTO t (k, v) VALUES (1, 'a,)'), ($1, f($2, 3)) RETURNING k";
    gc_analysis a;
    gc_error err;
    assert_true(gc_analyze(sql, strlen(sql), &a, &err));
    assert_int_equal(a.n_rows, 2);
    assert_non_null(a.row_offset);
    static const char *const rows[] = {"(1, 'a,)')", "($1, f($2, 3))"};
    for (int r = 0; r < 2; r++) {
        size_t len = a.row_end[r] - a.row_offset[r];
        if (len != strlen(rows[r]) || strncmp(sql + a.row_offset[r], rows[r], len) != 0)
            fail_msg("row %d at %zu..%zu", r, a.row_offset[r], a.row_end[r]);
    }
    gc_analysis_free(&a);
    const char *query = "INSERT INTO t SELECT * FROM u";
    assert_true(gc_analyze(query, strlen(query), &a, &err));
    assert_null(a.row_offset);
    gc_analysis_free(&a);
}

/* An INSERT ... VALUES keeps its column list's names and where the list
 * closes, and says whether it names OVERRIDING: the driver adds a key it
 * draws there (gc_global_keys.c). */
static void insert_column_list_is_located_in_the_text(void **state)
{
    (void)state;
    static const struct {
        const char *sql;
        int n_columns;            /* -1: no list kept */
        const char *second;       /* the second name, NULL when none */
        const char *after_close;  /* the text from the list's ")", NULL: none */
        bool overriding;
    } rows[] = {
        {"INSERT INTO t (item, \"Qty\") VALUES ($1, 2)", 2, "Qty", ") VALUES ($1, 2)", false},
        {"insert into s.t(a,b) overriding user value values (1,2),(3,4) returning a", 2, "b",
         ") overriding user value values (1,2),(3,4) returning a", true},
        {"INSERT INTO t (a, (b).c) VALUES (1, 2)", 2, NULL, ") VALUES (1, 2)", false},
        {"INSERT INTO t VALUES (1, 2)", -1, NULL, NULL, false},
        {"INSERT INTO t OVERRIDING SYSTEM VALUE VALUES (1)", -1, NULL, NULL, true},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        gc_analysis a;
        gc_error err;
        assert_true(gc_analyze(rows[i].sql, strlen(rows[i].sql), &a, &err));
        bool kept = rows[i].n_columns < 0 ? a.insert_columns == NULL && a.insert_list_close == 0
                    : a.insert_columns != NULL && a.n_insert_columns == rows[i].n_columns &&
                          strcmp(rows[i].sql + a.insert_list_close, rows[i].after_close) == 0;
        const char *second = kept && a.n_insert_columns > 1 ? a.insert_columns[1] : NULL;
        if (!kept || a.insert_overriding != rows[i].overriding ||
            (second == NULL) != (rows[i].second == NULL) ||
            (second != NULL && strcmp(second, rows[i].second) != 0))
            fail_msg("%s: %d columns, list closes at %zu, second %s, overriding %d", rows[i].sql,
                     a.n_insert_columns, a.insert_list_close, second ? second : "-",
                     a.insert_overriding);
        gc_analysis_free(&a);
    }
}

/* An INSERT's DEFAULT items are located row by row, with the width of its
 * rows and its VALUES (or DEFAULT VALUES): the driver writes a key it
 * draws in their place (gc_global_keys.c). */
static void insert_defaults_are_located_in_the_text(void **state)
{
    (void)state;
    static const struct {
        const char *sql;
        int width;
        const char *defaults;     /* per item, row by row: 'D' a lone DEFAULT, 'N'
                                     nextval('s') of a literal */
        const char *values;       /* the text of [values_at, values_end) */
        bool default_values;
    } rows[] = {
        {"INSERT INTO t VALUES (DEFAULT, $1), (7, default)", 2, "D..D", "VALUES", false},
        {"insert into t (a, b) values ($1, $2)", 2, "..", "values", false},
        {"INSERT INTO t (a) VALUES (DEFAULT + 1)", 1, ".", "VALUES", false},
        {"INSERT INTO t VALUES ((DEFAULT), 1)", 2, "..", "VALUES", false},
        {"INSERT INTO t DEFAULT  VALUES RETURNING id", 0, "", "DEFAULT  VALUES", true},
        {"INSERT INTO t SELECT 1", 0, "", "", false},
        {"INSERT INTO t VALUES (nextval('s'), 1), (pg_catalog.NEXTVAL('a.s'::regclass), 2)", 2,
         "N.N.", "VALUES", false},
        {"INSERT INTO t VALUES (nextval($1), 1), (nextval('s') + 1, 2), (public.nextval('s'), 3)",
         2, "......", "VALUES", false},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        gc_analysis a;
        gc_error err;
        assert_true(gc_analyze(rows[i].sql, strlen(rows[i].sql), &a, &err));
        char seen[16] = "";
        int items = a.row_width * a.n_rows;
        for (int k = 0; k < items && k < 15; k++) {
            const gc_value_gap *g = a.gaps != NULL && a.gaps[k].at != 0 ? &a.gaps[k] : NULL;
            seen[k] = g == NULL ? '.'
                      : g->sequence == NULL && g->length == 7 &&
                              strncasecmp(rows[i].sql + g->at, "default", 7) == 0
                          ? 'D'
                      : g->sequence != NULL && rows[i].sql[g->at + g->length - 1] == ')' ? 'N'
                                                                                       : '?';
        }
        size_t vlen = a.values_end - a.values_at;
        if (a.row_width != rows[i].width || strcmp(seen, rows[i].defaults) != 0 ||
            vlen != strlen(rows[i].values) ||
            strncmp(rows[i].sql + a.values_at, rows[i].values, vlen) != 0 ||
            a.default_values != rows[i].default_values)
            fail_msg("%s: width %d, defaults %s, values %.*s, default values %d", rows[i].sql,
                     a.row_width, seen, (int)vlen, rows[i].sql + a.values_at, a.default_values);
        gc_analysis_free(&a);
    }
}

/* A SELECT without a table that calls nextval or setval on a sequence
 * named by a literal names that sequence, as regclass would read the
 * literal: a serial of a solo table is on its owner only (routing). */
static void sequence_of_nextval_is_read_from_its_literal(void **state)
{
    (void)state;
    static const struct {
        const char *sql;
        const char *schema, *name;   /* NULL: none */
    } rows[] = {
        {"SELECT nextval('items_id_seq')", NULL, "items_id_seq"},
        {"select NEXTVAL('Public.Items_Id_Seq'::regclass)", "public", "items_id_seq"},
        {"SELECT pg_catalog.setval('\"App\".\"Seq\"', 5, true)", "App", "Seq"},
        {"SELECT nextval($1)", NULL, NULL},
        {"SELECT nextval('a' || 'b')", NULL, NULL},
        {"SELECT currval('items_id_seq')", NULL, NULL},
        {"SELECT nextval('s') FROM t", NULL, NULL},
        {"SELECT public.nextval('s')", NULL, NULL},
        {"SELECT nextval('a.b.c')", NULL, NULL},
        {"SELECT nextval('s.\"x')", NULL, NULL},   /* the schema read, the name not */
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        gc_analysis a;
        gc_error err;
        assert_true(gc_analyze(rows[i].sql, strlen(rows[i].sql), &a, &err));
        bool same_schema = (a.sequence_schema == NULL) == (rows[i].schema == NULL) &&
                           (a.sequence_schema == NULL || strcmp(a.sequence_schema, rows[i].schema) == 0);
        bool same_name = (a.sequence == NULL) == (rows[i].name == NULL) &&
                         (a.sequence == NULL || strcmp(a.sequence, rows[i].name) == 0);
        if (!same_schema || !same_name)
            fail_msg("%s: sequence %s.%s", rows[i].sql,
                     a.sequence_schema ? a.sequence_schema : "-", a.sequence ? a.sequence : "-");
        gc_analysis_free(&a);
    }
}

/* An INSERT ... SELECT's query is located (the driver runs it and sends its
 * rows: gc_global_span_select.c), up to a top-level ON CONFLICT or
 * RETURNING, with the column list; not behind a WITH. */
static void insert_query_is_located_in_the_text(void **state)
{
    (void)state;
    static const struct {
        const char *sql;
        const char *query;     /* NULL: not located */
        bool returning;
        int n_columns;
    } rows[] = {
        {"INSERT INTO t (v, k) SELECT a, b FROM u JOIN w ON u.x = w.x ON CONFLICT DO NOTHING",
         "SELECT a, b FROM u JOIN w ON u.x = w.x", false, 2},
        {"insert into t (select * from u where k = $1) returning k",
         "(select * from u where k = $1)", true, 0},
        {"INSERT INTO t OVERRIDING SYSTEM VALUE SELECT 1 ;", "SELECT 1", false, 0},
        {"INSERT INTO t SELECT (SELECT 1 RETURNING) x", "SELECT (SELECT 1 RETURNING) x", false,
         0},
        {"WITH w AS (SELECT 1) INSERT INTO t SELECT * FROM w", NULL, false, 0},
        {"INSERT INTO t VALUES (1, 2)", NULL, false, 0},
        {"INSERT INTO t DEFAULT VALUES", NULL, false, 0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        gc_analysis a;
        gc_error err;
        assert_true(gc_analyze(rows[i].sql, strlen(rows[i].sql), &a, &err));
        if (rows[i].query == NULL) {
            if (a.query_length != 0)
                fail_msg("%s: a query located at %zu", rows[i].sql, a.query_offset);
        } else if (a.query_length != strlen(rows[i].query) ||
                   strncmp(rows[i].sql + a.query_offset, rows[i].query, a.query_length) != 0 ||
                   a.query_returning != rows[i].returning ||
                   a.n_insert_columns != rows[i].n_columns) {
            fail_msg("%s: query at %zu+%zu, returning %d, %d columns", rows[i].sql,
                     a.query_offset, a.query_length, a.query_returning, a.n_insert_columns);
        }
        if (rows[i].n_columns == 2 &&
            (strcmp(a.insert_columns[0], "v") != 0 || strcmp(a.insert_columns[1], "k") != 0))
            fail_msg("%s: columns %s, %s", rows[i].sql, a.insert_columns[0],
                     a.insert_columns[1]);
        gc_analysis_free(&a);
    }
}

/* An INSERT whose top-level ON CONFLICT names a conflict target (the
 * driver sends it into its rows' leaf partition: gc_global_route.c); not
 * ON CONSTRAINT, not a target-less DO NOTHING, not an ON CONFLICT inside
 * parentheses or a string. */
static void conflict_target_is_told(void **state)
{
    (void)state;
    static const struct {
        const char *sql;
        bool target;
    } rows[] = {
        {"INSERT INTO t (k, v) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET v = excluded.v",
         true},
        {"insert into t as x values (1, 2), (3, 4) on conflict (k) where v > 0 do nothing", true},
        {"INSERT INTO t SELECT * FROM u ON CONFLICT (k) DO NOTHING RETURNING k", true},
        {"INSERT INTO t OVERRIDING USER VALUE VALUES (1) ON CONFLICT (k) DO NOTHING", true},
        {"INSERT INTO t VALUES (1) ON CONFLICT ON CONSTRAINT t_pkey DO NOTHING", false},
        {"INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING", false},
        {"INSERT INTO t VALUES ('on conflict (k)')", false},
        {"INSERT INTO t (SELECT 1 FROM u) ON CONFLICT (k) DO NOTHING", true},
        {"UPDATE t SET v = 1 WHERE k = 2", false},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        gc_analysis a;
        gc_error err;
        assert_true(gc_analyze(rows[i].sql, strlen(rows[i].sql), &a, &err));
        if (a.conflict_target != rows[i].target)
            fail_msg("%s: conflict target %d, expected %d", rows[i].sql, a.conflict_target,
                     rows[i].target);
        gc_analysis_free(&a);
    }
}

/* Where the driver may append a RETURNING of the transaction id
 * (gc_analysis.returning_at): just past an INSERT, UPDATE or DELETE alone in
 * the text, before a trailing `;` or comment; nowhere when the write returns
 * rows of its own, shares the text, or is something else. */
static void returning_goes_after_a_lone_write_only(void **state)
{
    (void)state;
    static const struct {
        const char *sql;
        const char *before;    /* the text up to the place; NULL: no place */
    } rows[] = {
        {"UPDATE t SET v = v + 1 WHERE k = $1", "UPDATE t SET v = v + 1 WHERE k = $1"},
        {"INSERT INTO t VALUES ($1, 'x') ; -- done\n", "INSERT INTO t VALUES ($1, 'x')"},
        {"DELETE FROM t WHERE k = $1 /* why */", "DELETE FROM t WHERE k = $1"},
        {"WITH d AS (SELECT 1) UPDATE t SET v = 0 WHERE k = $1;",
         "WITH d AS (SELECT 1) UPDATE t SET v = 0 WHERE k = $1"},
        {"INSERT INTO t VALUES (1) ON CONFLICT (k) DO NOTHING",
         "INSERT INTO t VALUES (1) ON CONFLICT (k) DO NOTHING"},
        {"UPDATE t SET v = 1 WHERE k = $1 RETURNING v", NULL},
        {"update t set v = 1 returning *", NULL},
        {"WITH w AS (DELETE FROM u RETURNING k) INSERT INTO t SELECT k FROM w", NULL},
        {"UPDATE t SET v = 1; UPDATE t SET v = 2", NULL},
        {"MERGE INTO t USING u ON t.k = u.k WHEN MATCHED THEN DELETE", NULL},
        {"SELECT * FROM t WHERE k = $1", NULL},
        {"(UPDATE t SET v = 1)", NULL},
        {"UPDATE t SET v = 1)", NULL},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        gc_analysis a;
        gc_error err;
        assert_true(gc_analyze(rows[i].sql, strlen(rows[i].sql), &a, &err));
        if (rows[i].before == NULL) {
            if (a.returning_at != 0)
                fail_msg("%s: a place at %zu, expected none", rows[i].sql, a.returning_at);
        } else if (a.returning_at != strlen(rows[i].before) ||
                   strncmp(rows[i].sql, rows[i].before, a.returning_at) != 0) {
            fail_msg("%s: place at %zu, expected %zu", rows[i].sql, a.returning_at,
                     strlen(rows[i].before));
        }
        gc_analysis_free(&a);
    }
}

/* a's several_targets as "schema.table other ...", or "-" when they
 * could not be read. */
static void list_targets(const gc_analysis *a, char *got, size_t size)
{
    got[0] = '\0';
    if (a->n_several_targets < 0)
        snprintf(got, size, "-");
    for (int k = 0; k < a->n_several_targets; k++)
        snprintf(got + strlen(got), size - strlen(got), "%s%s%s%s", k > 0 ? " " : "",
                 a->several_targets[k].schema != NULL ? a->several_targets[k].schema : "",
                 a->several_targets[k].schema != NULL ? "." : "", a->several_targets[k].table);
}

/* A text of several statements lists each statement's target, so that a
 * global connection can send it to the one group that holds them all;
 * anything but row statements on tables (or SELECTs of none) lists none. */
static void several_statements_list_their_targets(void **state)
{
    (void)state;
    static const struct { const char *sql; const char *targets; } rows[] = {
        {"insert into t values (1); insert into t values (2)", "t t"},
        {"INSERT INTO app.t VALUES (1);\n UPDATE \"U\" SET v = 1 WHERE k = 2; SELECT 1;", "app.t U"},
        {"select 1; delete from t where k = 'a;b'", "t"},
        {"select * from t; select * from u", "t u"},
        {"insert into t values (1); ; insert into t values (2); -- done\n", "t t"},
        {"insert into t values (1); create table u (k int)", "-"},
        {"insert into t values (1); set x = 1", "-"},
        {"insert into t values (1); select nextval('s')", "-"},
        {"insert into t values (1); select my_function()", "-"},
        {"insert into t values (1); commit", "-"},
        {"select 1; select 2", ""},
        {"insert into t values (1);insert into t values (2);insert into t values (3);"
         "insert into t values (4);insert into t values (5);insert into t values (6);"
         "insert into t values (7);insert into t values (8);insert into t values (9)", "-"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        gc_analysis a;
        gc_error err;
        assert_true(gc_analyze(rows[i].sql, strlen(rows[i].sql), &a, &err));
        assert_true(a.several);
        char got[128];
        list_targets(&a, got, sizeof got);
        if (strcmp(got, rows[i].targets) != 0)
            fail_msg("%s: targets '%s', expected '%s'", rows[i].sql, got, rows[i].targets);
        gc_analysis_free(&a);
    }
}

/* A statement with data-modifying WITH queries lists their targets and
 * its main statement's, so that one writing a single group's tables can
 * go there; a WITH query that modifies data but is not one INSERT,
 * UPDATE, DELETE or MERGE (or none that does) lists nothing. */
static void data_modifying_with_lists_its_targets(void **state)
{
    (void)state;
    static const struct { const char *sql; const char *targets; } rows[] = {
        {"with d as (delete from t where k > ? returning k) select count(*) from d", "t d"},
        {"WITH a AS (UPDATE s.t SET v = 1 RETURNING k), b AS (INSERT INTO u VALUES (1)) "
         "INSERT INTO w SELECT k FROM a", "s.t u w"},
        {"with d as (select k from t) select * from d", ""},
        {"with d as (select k from t for update) select * from d", ""},
        {"with d as (with e as (delete from t returning k) select k from e) select * from d", ""},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        gc_analysis a;
        gc_error err;
        assert_true(gc_analyze(rows[i].sql, strlen(rows[i].sql), &a, &err));
        assert_false(a.several);
        char got[128];
        list_targets(&a, got, sizeof got);
        if (strcmp(got, rows[i].targets) != 0)
            fail_msg("%s: targets '%s', expected '%s'", rows[i].sql, got, rows[i].targets);
        assert_int_equal(a.writes_in_with, rows[i].targets[0] != '\0');
        gc_analysis_free(&a);
    }
}

/* An UPDATE lists the columns its SET assigns, so that one changing a
 * row's sharding key can go to the group that owns the row. */
static void update_lists_the_columns_it_sets(void **state)
{
    (void)state;
    static const struct { const char *sql; const char *columns; } rows[] = {
        {"update t set id = id + 100 where id = 3", "id"},
        {"UPDATE t SET \"Id\" = 1, v = f(a, b), w = ARRAY[x, y] WHERE k = 1", "Id v w"},
        {"update app.t as u set (a, b) = (1, 2), c[1] = 3, d.f = 4 from s where u.k = s.k", "a b c d"},
        {"update t set v = (select max(k) from u where u.x = t.x) returning id", "v"},
        {"update t set v = case when a then 1 else 2 end, w = default", "v w"},
        {"delete from t where id = 1", ""},
        {"select id from t where id = 1", ""},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        gc_analysis a;
        gc_error err;
        assert_true(gc_analyze(rows[i].sql, strlen(rows[i].sql), &a, &err));
        char got[128] = "";
        for (int k = 0; k < a.n_set_columns; k++)
            snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", k > 0 ? " " : "",
                     a.set_columns[k]);
        if (strcmp(got, rows[i].columns) != 0)
            fail_msg("%s: sets '%s', expected '%s'", rows[i].sql, got, rows[i].columns);
        gc_analysis_free(&a);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(several_statements_list_their_targets),
        cmocka_unit_test(update_lists_the_columns_it_sets),
        cmocka_unit_test(every_statement_gets_its_kind_table_and_pinned_columns),
        cmocka_unit_test(insert_reports_its_row_count),
        cmocka_unit_test(set_local_is_local_and_plain_set_is_not),
        cmocka_unit_test(and_chain_is_found_as_keywords_only),
        cmocka_unit_test(unterminated_text_fails_with_42601),
        cmocka_unit_test(a_nul_byte_does_not_end_the_text),
        cmocka_unit_test(the_target_name_is_located_in_the_text),
        cmocka_unit_test(insert_rows_are_located_in_the_text),
        cmocka_unit_test(insert_query_is_located_in_the_text),
        cmocka_unit_test(conflict_target_is_told),
        cmocka_unit_test(insert_column_list_is_located_in_the_text),
        cmocka_unit_test(insert_defaults_are_located_in_the_text),
        cmocka_unit_test(sequence_of_nextval_is_read_from_its_literal),
        cmocka_unit_test(returning_goes_after_a_lone_write_only),
        cmocka_unit_test(data_modifying_with_lists_its_targets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
