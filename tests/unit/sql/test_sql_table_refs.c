/*
 * gc_sql_table_refs: the tables a query reads in its FROM lists and JOINs,
 * with their places in the text, at every depth; never a function's FROM
 * (extract, substring), IS DISTINCT FROM, a function in FROM, or words in
 * strings and comments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "sql/gc_sql_table_refs.h"

/* The refs of sql written as "name[/alias][/only][/sampled]" items joined
 * by spaces, name being the text the ref covers. */
static void expect_refs(const char *sql, const char *want)
{
    gc_sql_table_ref refs[16];
    int n = gc_sql_table_refs(sql, strlen(sql), refs, 16);
    char got[512] = "";
    for (int i = 0; i < n && i < 16; i++) {
        char item[128];
        snprintf(item, sizeof item, "%s%.*s%s%s%s", i > 0 ? " " : "", (int)refs[i].length,
                 sql + refs[i].offset, refs[i].aliased ? "/alias" : "",
                 refs[i].only ? "/only" : "", refs[i].sampled ? "/sampled" : "");
        strncat(got, item, sizeof got - strlen(got) - 1);
    }
    if (strcmp(got, want) != 0)
        fail_msg("'%s': refs '%s', expected '%s'", sql, got, want);
}

static void plain_lists_and_joins(void **state)
{
    (void)state;
    expect_refs("SELECT * FROM accounts", "accounts");
    expect_refs("select sum(balance) from accounts where id in (1, 2)", "accounts");
    expect_refs("SELECT a.id FROM accounts a WHERE a.x > 1 ORDER BY 1", "accounts/alias");
    expect_refs("SELECT * FROM public.accounts AS \"A\" LIMIT 2", "public.accounts/alias");
    expect_refs("SELECT * FROM accounts, orders o WHERE o.id = accounts.id",
                "accounts orders/alias");
    expect_refs("SELECT * FROM accounts a JOIN orders o ON o.id = a.id LEFT OUTER JOIN t "
                "USING (id) CROSS JOIN u NATURAL JOIN v", "accounts/alias orders/alias t u v");
    expect_refs("SELECT * FROM accounts a (x, y) WHERE x = 1", "accounts/alias");
    expect_refs("SELECT * FROM ONLY accounts", "accounts/only");
    expect_refs("SELECT * FROM accounts TABLESAMPLE system (10)", "accounts/sampled");
    expect_refs("SELECT * FROM accounts AS a TABLESAMPLE bernoulli (5)", "accounts/alias/sampled");
    expect_refs("SELECT 1", "");
    expect_refs("TABLE accounts", "");
}

static void every_depth(void **state)
{
    (void)state;
    expect_refs("SELECT (SELECT max(b) FROM accounts) AS m FROM t",
                "accounts t");
    expect_refs("SELECT * FROM t WHERE id IN (SELECT id FROM accounts WHERE x > 0)",
                "t accounts");
    expect_refs("SELECT * FROM (SELECT * FROM accounts) s, LATERAL (SELECT 1 FROM u) l",
                "accounts u");
    expect_refs("WITH w AS (SELECT * FROM accounts) SELECT * FROM w", "accounts w");
    expect_refs("SELECT id FROM accounts UNION ALL SELECT id FROM orders ORDER BY 1",
                "accounts orders");
    expect_refs("SELECT * FROM t WHERE EXISTS (SELECT 1 FROM accounts a WHERE a.id = t.id)",
                "t accounts/alias");
}

static void writes(void **state)
{
    (void)state;
    expect_refs("UPDATE accounts a SET v = r.v FROM rates r, t WHERE r.k = a.k RETURNING a.id",
                "rates/alias t");
    expect_refs("UPDATE accounts SET v = (SELECT max(v) FROM rates) WHERE id = 1", "rates");
    expect_refs("UPDATE accounts SET d = extract(year FROM now()) WHERE a IS DISTINCT FROM b",
                "");
    expect_refs("DELETE FROM accounts WHERE id IN (SELECT id FROM t)", "accounts t");
    expect_refs("DELETE FROM accounts a USING t, u x WHERE t.id = a.id",
                "accounts/alias t u/alias");
    expect_refs("DELETE FROM accounts USING t JOIN u USING (id) WHERE t.id = accounts.id",
                "accounts t u");
    expect_refs("DELETE FROM accounts WHERE id IN (SELECT t.id FROM t JOIN u USING (id))",
                "accounts t u");
    expect_refs("INSERT INTO accounts SELECT * FROM t", "");
}

static void not_tables(void **state)
{
    (void)state;
    expect_refs("SELECT extract(year FROM d), substring(s FROM 2) FROM t", "t");
    expect_refs("SELECT * FROM t WHERE a IS DISTINCT FROM b", "t");
    expect_refs("SELECT * FROM generate_series(1, 3) g, accounts", "accounts");
    expect_refs("SELECT 'FROM accounts' FROM t -- FROM u\n", "t");
    expect_refs("SELECT * FROM (VALUES (1), (2)) v (x)", "");
    /* A parenthesized join tree is not read: a caller checks the name. */
    expect_refs("SELECT * FROM (a JOIN accounts ON true)", "");
}

static void unreadable_text(void **state)
{
    (void)state;
    gc_sql_table_ref refs[2];
    const char *sql = "SELECT * FROM t WHERE s = 'open";
    assert_int_equal(gc_sql_table_refs(sql, strlen(sql), refs, 2), -1);
    char deep[200];
    memset(deep, '(', 100);
    deep[100] = '\0';
    assert_int_equal(gc_sql_table_refs(deep, strlen(deep), refs, 2), -1);
    /* More than fit: counted, not written past max. */
    const char *many = "SELECT * FROM a, b, c";
    assert_int_equal(gc_sql_table_refs(many, strlen(many), refs, 2), 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plain_lists_and_joins),
        cmocka_unit_test(every_depth),
        cmocka_unit_test(writes),
        cmocka_unit_test(not_tables),
        cmocka_unit_test(unreadable_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
