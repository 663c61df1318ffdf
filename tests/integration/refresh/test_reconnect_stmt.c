/*
 * The ALTER SYSTEM RECONNECT GLOBAL CONNECTION recognizer: any letter case,
 * any white space between the words, trailing semicolons; nothing else.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "core/gc_reconnect_stmt.h"

static bool matches(const char *sql)
{
    return gc_reconnect_stmt_matches(sql, strlen(sql));
}

static void test_recognizes_any_case_and_spacing(void **state)
{
    (void)state;
    assert_true(matches("ALTER SYSTEM RECONNECT GLOBAL CONNECTION"));
    assert_true(matches("alter system reconnect global connection"));
    assert_true(matches("  Alter\tSYSTEM\n reconnect  GLOBAL\r\nconnection ; ;  "));
}

static void test_refuses_other_statements(void **state)
{
    (void)state;
    assert_false(matches("ALTER SYSTEM SET work_mem = '4MB'"));
    assert_false(matches("ALTER SYSTEM RECONNECT GLOBAL"));
    assert_false(matches("ALTER SYSTEM RECONNECT GLOBAL CONNECTIONS"));
    assert_false(matches("ALTER SYSTEM RECONNECT GLOBAL CONNECTION; SELECT 1"));
    assert_false(matches("ALTERSYSTEM RECONNECT GLOBAL CONNECTION"));
    assert_false(matches("-- ALTER SYSTEM RECONNECT GLOBAL CONNECTION"));
    assert_false(matches(""));
}

static void test_reads_only_len_bytes(void **state)
{
    (void)state;
    const char *sql = "ALTER SYSTEM RECONNECT GLOBAL CONNECTION garbage";
    assert_true(gc_reconnect_stmt_matches(sql, strlen("ALTER SYSTEM RECONNECT GLOBAL CONNECTION")));
    assert_false(gc_reconnect_stmt_matches(sql, strlen("ALTER SYSTEM RECONNECT")));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recognizes_any_case_and_spacing),
        cmocka_unit_test(test_refuses_other_statements),
        cmocka_unit_test(test_reads_only_len_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
