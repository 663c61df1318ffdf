/*
 * The connection string grammar (gc_connstr) and how its pairs become
 * settings: braces, "}}", empty values, whitespace, duplicates, DSN versus
 * DRIVER, malformed strings.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/gc_connstr.h"
#include "config/gc_settings.h"

/* Parses text and checks it gives exactly the expected key/value list. */
static void expect_pairs(const char *text, size_t count, const char *const *kv)
{
    gc_connstr cs;
    gc_error err;
    gc_error_clear(&err);
    if (!gc_connstr_parse(text, GC_CONNSTR_NTS, &cs, &err))
        fail_msg("'%s' did not parse: %s", text, err.message);
    assert_int_equal(cs.count, count);
    for (size_t i = 0; i < count; i++) {
        assert_string_equal(cs.pairs[i].key, kv[2 * i]);
        assert_string_equal(cs.pairs[i].value, kv[2 * i + 1]);
    }
    gc_connstr_free(&cs);
}

static void test_plain_pairs_with_whitespace_trimmed_and_trailing_semicolon(void **state)
{
    (void)state;
    const char *kv[] = { "DSN", "demo", "UID", "alice smith", "Servers", "h:1" };
    expect_pairs(" DSN = demo ; UID=alice smith;Servers=h:1;", 3, kv);
    expect_pairs("DSN=demo;UID=alice smith;Servers=h:1", 3, kv);
    expect_pairs(";;DSN=demo;;UID= alice smith\t;Servers=h:1;;", 3, kv);
}

static void test_braced_values_keep_everything_and_double_brace_is_literal(void **state)
{
    (void)state;
    const char *kv[] = { "PWD", "a;b}c", "DRIVER", "gc odbc", "X", " sp ", "Y", "{" };
    expect_pairs("PWD={a;b}}c};DRIVER={gc odbc}; X = { sp } ;Y={{}", 4, kv);
    const char *only[] = { "PWD", "}}" };
    expect_pairs("PWD={}}}}}", 1, only);
}

static void test_empty_values_are_allowed(void **state)
{
    (void)state;
    const char *kv[] = { "A", "", "B", "", "C", "" };
    expect_pairs("A=;B={};C=", 3, kv);
}

static void test_equals_sign_inside_a_plain_value_belongs_to_the_value(void **state)
{
    (void)state;
    const char *kv[] = { "ApplicationName", "a=b" };
    expect_pairs("ApplicationName=a=b", 1, kv);
}

static void test_length_limits_the_string(void **state)
{
    (void)state;
    gc_connstr cs;
    gc_error err;
    gc_error_clear(&err);
    assert_true(gc_connstr_parse("UID=abcdef;PWD=x", 7, &cs, &err));
    assert_int_equal(cs.count, 1);
    assert_string_equal(cs.pairs[0].value, "abc");
    gc_connstr_free(&cs);
}

static void expect_malformed(const char *text, const char *why)
{
    gc_connstr cs;
    gc_error err;
    gc_error_clear(&err);
    assert_false(gc_connstr_parse(text, GC_CONNSTR_NTS, &cs, &err));
    gc_connstr_free(&cs);
    assert_string_equal(err.sqlstate, "01S00");
    if (strstr(err.message, why) == NULL)
        fail_msg("'%s': message lacks '%s': %s", text, why, err.message);
    /* the same through the settings entry point */
    gc_settings s;
    gc_settings_init(&s);
    gc_error_clear(&err);
    assert_false(gc_settings_from_connection_string(&s, text, strlen(text), NULL, &err));
    assert_string_equal(err.sqlstate, "01S00");
    gc_settings_free(&s);
}

static void test_malformed_strings_fail_with_01S00_and_offset(void **state)
{
    (void)state;
    expect_malformed("UID=a;PWD={abc", "offset 10");
    expect_malformed("UID=a;PWD={abc", "never closed");
    expect_malformed("UID=a;PWD={a}}", "never closed");
    expect_malformed("PWD={abc}def;UID=a", "after the closing");
    expect_malformed("UID=a;justtext;PWD=b", "no '='");
    expect_malformed("=value", "empty key");
}

static void test_malformed_message_never_quotes_the_string(void **state)
{
    (void)state;
    gc_connstr cs;
    gc_error err;
    gc_error_clear(&err);
    /* an unbraced ';' inside a password splits it */
    assert_false(gc_connstr_parse("UID=a;PWD=sec;ret;", GC_CONNSTR_NTS, &cs, &err));
    gc_connstr_free(&cs);
    assert_null(strstr(err.message, "ret"));
}

static void test_duplicate_keys_last_one_wins_across_aliases(void **state)
{
    (void)state;
    gc_settings s;
    gc_settings_init(&s);
    gc_error err;
    gc_error_clear(&err);
    const char *text = "DRIVER=gcodbc;UID=first;LogLevel=1;User=second;loglevel=2";
    assert_true(gc_settings_from_connection_string(&s, text, strlen(text), NULL, &err));
    assert_string_equal(s.uid, "second");
    assert_int_equal(s.log_level, 2);
    gc_settings_free(&s);
}

static void test_driver_before_dsn_means_the_dsn_is_ignored(void **state)
{
    (void)state;
    gc_settings s;
    gc_settings_init(&s);
    gc_error err;
    gc_error_clear(&err);
    /* no such DSN exists: if it were read this would fail with IM002 */
    const char *text = "Driver={gcodbc};DSN=gc_config_no_such_dsn;Servers=h:1";
    assert_true(gc_settings_from_connection_string(&s, text, strlen(text), NULL, &err));
    assert_null(s.dsn);
    assert_string_equal(s.driver, "gcodbc");
    assert_string_equal(s.servers, "h:1");
    gc_settings_free(&s);
}

static void test_dsn_that_does_not_exist_fails_with_IM002(void **state)
{
    (void)state;
    gc_settings s;
    gc_settings_init(&s);
    gc_error err;
    gc_error_clear(&err);
    const char *text = "DSN=gc_config_no_such_dsn;DRIVER=gcodbc";
    assert_false(gc_settings_from_connection_string(&s, text, strlen(text), NULL, &err));
    assert_string_equal(err.sqlstate, "IM002");
    assert_non_null(strstr(err.message, "gc_config_no_such_dsn"));
    gc_settings_free(&s);
}

static void test_bad_value_in_string_fails_with_HY024(void **state)
{
    (void)state;
    gc_settings s;
    gc_settings_init(&s);
    gc_error err;
    gc_error_clear(&err);
    const char *text = "Driver=gcodbc;LOCALITY_MEMBER_POLICY=7";
    assert_false(gc_settings_from_connection_string(&s, text, strlen(text), NULL, &err));
    assert_string_equal(err.sqlstate, "HY024");
    assert_non_null(strstr(err.message, "LOCALITY_MEMBER_POLICY"));
    gc_settings_free(&s);
}

int main(void)
{
    /* No odbc.ini here: an empty system dir keeps a developer's own DSNs
     * out of the IM002 tests. */
    char dir[] = "/tmp/gc_config_connstr_XXXXXX";
    if (mkdtemp(dir) == NULL)
        return 1;
    char ini[sizeof dir + 32];
    snprintf(ini, sizeof ini, "%s/odbc.ini", dir);
    setenv("ODBCSYSINI", dir, 1);
    setenv("ODBCINI", ini, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_pairs_with_whitespace_trimmed_and_trailing_semicolon),
        cmocka_unit_test(test_braced_values_keep_everything_and_double_brace_is_literal),
        cmocka_unit_test(test_empty_values_are_allowed),
        cmocka_unit_test(test_equals_sign_inside_a_plain_value_belongs_to_the_value),
        cmocka_unit_test(test_length_limits_the_string),
        cmocka_unit_test(test_malformed_strings_fail_with_01S00_and_offset),
        cmocka_unit_test(test_malformed_message_never_quotes_the_string),
        cmocka_unit_test(test_duplicate_keys_last_one_wins_across_aliases),
        cmocka_unit_test(test_driver_before_dsn_means_the_dsn_is_ignored),
        cmocka_unit_test(test_dsn_that_does_not_exist_fails_with_IM002),
        cmocka_unit_test(test_bad_value_in_string_fails_with_HY024),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    unlink(ini);    /* the driver manager's lookups may have made it */
    rmdir(dir);
    return failed;
}
