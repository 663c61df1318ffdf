/*
 * The key table: integrity (unique spellings, parseable defaults, offsets
 * inside gc_settings), aliases, value checking, unknown keys, and the
 * completed connection string.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "config/gc_keys.h"
#include "config/gc_settings.h"

#define MAX_ALL_SPELLINGS 1024

/* Every spelling of every key, with the key it belongs to. */
static size_t collect_spellings(const char **out, const gc_key **owner, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < gc_keys_count; i++) {
        assert_true(n + GC_KEY_MAX_SPELLINGS <= max);
        size_t k = gc_key_spellings(&gc_keys[i], out + n);
        for (size_t j = 0; j < k; j++)
            owner[n + j] = &gc_keys[i];
        n += k;
    }
    return n;
}

static void test_names_and_aliases_are_unique_ignoring_case(void **state)
{
    (void)state;
    const char *spellings[MAX_ALL_SPELLINGS];
    const gc_key *owner[MAX_ALL_SPELLINGS];
    size_t n = collect_spellings(spellings, owner, MAX_ALL_SPELLINGS);
    assert_true(n > gc_keys_count);
    for (size_t i = 0; i < n; i++) {
        assert_ptr_equal(gc_keys_find(spellings[i]), owner[i]);
        for (size_t j = i + 1; j < n; j++)
            if (strcasecmp(spellings[i], spellings[j]) == 0)
                fail_msg("spelling '%s' is used twice", spellings[i]);
    }
}

static size_t field_size(const gc_key *key)
{
    switch (key->type) {
    case GC_KEY_BOOL: return sizeof(bool);
    case GC_KEY_INT: return sizeof(int);
    default: return sizeof(char *);
    }
}

static void test_offsets_lie_inside_settings_and_do_not_overlap(void **state)
{
    (void)state;
    for (size_t i = 0; i < gc_keys_count; i++) {
        const gc_key *key = &gc_keys[i];
        if (!gc_key_has_field(key))
            continue;
        assert_true(key->offset + field_size(key) <= sizeof(gc_settings));
        for (size_t j = 0; j < i; j++)
            if (gc_key_has_field(&gc_keys[j]) && gc_keys[j].offset == key->offset)
                fail_msg("%s and %s share a field", gc_keys[j].name, key->name);
    }
}

static void test_every_default_parses_and_init_applies_it(void **state)
{
    (void)state;
    gc_settings s;
    gc_settings_init(&s);
    for (size_t i = 0; i < gc_keys_count; i++) {
        const gc_key *key = &gc_keys[i];
        if (key->type == GC_KEY_BOOL || key->type == GC_KEY_INT)
            assert_non_null(key->default_value);
        assert_true(gc_key_is_default(key, &s));
        if (key->default_value != NULL) {
            gc_error err;
            gc_error_clear(&err);
            if (!gc_key_store(key, key->name, key->default_value, &s, &err))
                fail_msg("default of %s does not parse: %s", key->name, err.message);
        }
        assert_non_null(key->doc);
        assert_true(strlen(key->doc) > 20);
    }
    assert_int_equal(s.connect_timeout, 10);
    assert_int_equal(s.reconnect_interval, 1);
    assert_int_equal(s.member_timeout, 5);
    assert_int_equal(s.topology_refresh, 10);
    assert_int_equal(s.max_longvarchar_size, 8190);
    assert_int_equal(s.max_varchar_size, 0);
    assert_true(s.text_as_longvarchar);
    assert_false(s.bools_as_char);
    assert_false(s.read_only);
    assert_int_equal(s.log_level, 0);
    assert_false(s.global_connection);
    assert_string_equal(s.port, "5432");
    assert_null(s.servers);
    gc_settings_free(&s);
}

static void set_ok(gc_settings *s, const char *key, const char *value)
{
    gc_error err;
    gc_error_clear(&err);
    if (!gc_settings_set(s, key, value, NULL, &err))
        fail_msg("%s=%s failed: %s", key, value, err.message);
}

static void test_aliases_and_any_case_set_the_same_field(void **state)
{
    (void)state;
    gc_settings s;
    gc_settings_init(&s);
    set_ok(&s, "LOCALITY_MEMBER_POLICY", "3");
    assert_int_equal(s.locality_member_policy, 3);
    set_ok(&s, "localitymemberpolicy", "4");
    assert_int_equal(s.locality_member_policy, 4);
    set_ok(&s, "LOCALITY_AWARE_TRANSACTION", "yes");
    assert_true(s.global_connection);
    set_ok(&s, "USE_GLOBAL_SESSION", "on");
    assert_true(s.global_session);
    set_ok(&s, "LOCALITY_GROUP_POLICY", "2");
    assert_int_equal(s.locality_group_policy, 2);
    set_ok(&s, "LOCALITY_MEMBER_PATH", "G1N2,G1N1");
    assert_string_equal(s.locality_member_path, "G1N2,G1N1");
    set_ok(&s, "locality_group_path", "G2,G1");
    assert_string_equal(s.locality_group_path, "G2,G1");
    set_ok(&s, "LOCATOR_FILE", "/etc/cluster.yaml");
    assert_string_equal(s.locator, "/etc/cluster.yaml");
    set_ok(&s, "Username", "alice");
    assert_string_equal(s.uid, "alice");
    set_ok(&s, "USER", "bob");
    assert_string_equal(s.uid, "bob");
    set_ok(&s, "Password", "pw");
    assert_string_equal(s.pwd, "pw");
    set_ok(&s, "DB", "sales");
    assert_string_equal(s.database, "sales");
    set_ok(&s, "Servername", "db1");
    assert_string_equal(s.host, "db1");
    set_ok(&s, "SERVER", "db2");
    assert_string_equal(s.host, "db2");
    set_ok(&s, "PORT", "6000");
    assert_string_equal(s.port, "6000");
    set_ok(&s, "sslmode", "VERIFY-FULL");
    assert_string_equal(s.sslmode, "verify-full");
    gc_settings_free(&s);
}

static void test_boolean_spellings(void **state)
{
    (void)state;
    const char *yes[] = { "Yes", "YES", "1", "true", "TRUE", "on", "On" };
    const char *no[] = { "No", "no", "0", "false", "False", "off", "OFF" };
    gc_settings s;
    gc_settings_init(&s);
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        set_ok(&s, "GlobalConnection", yes[i]);
        assert_true(s.global_connection);
        set_ok(&s, "GlobalConnection", no[i]);
        assert_false(s.global_connection);
    }
    gc_settings_free(&s);
}

/* key=value must fail with HY024 naming the key and mentioning `accepted`. */
static void expect_bad(const char *key, const char *value, const char *accepted)
{
    gc_settings s;
    gc_settings_init(&s);
    gc_error err;
    gc_error_clear(&err);
    assert_false(gc_settings_set(&s, key, value, NULL, &err));
    assert_string_equal(err.sqlstate, "HY024");
    if (strstr(err.message, key) == NULL || strstr(err.message, accepted) == NULL)
        fail_msg("message for %s=%s lacks key or '%s': %s", key, value, accepted,
                 err.message);
    /* the settings are unchanged */
    gc_settings fresh;
    gc_settings_init(&fresh);
    char *a = gc_settings_to_connection_string(&s);
    char *b = gc_settings_to_connection_string(&fresh);
    assert_string_equal(a, b);
    free(a);
    free(b);
    gc_settings_free(&fresh);
    gc_settings_free(&s);
}

static void test_bad_values_fail_with_HY024_naming_key_and_accepted_values(void **state)
{
    (void)state;
    expect_bad("LogLevel", "4", "integer 0 to 3");
    expect_bad("LogLevel", "-1", "integer 0 to 3");
    expect_bad("LogLevel", "two", "integer 0 to 3");
    expect_bad("LogLevel", "2x", "integer 0 to 3");
    expect_bad("LOCALITY_MEMBER_POLICY", "5", "integer 0 to 4");
    expect_bad("LocalityGroupPolicy", "3", "integer 0 to 2");
    expect_bad("ConnectTimeout", "0", "integer 1 to 3600");
    expect_bad("MaxVarcharSize", "99999999999999", "integer 0 to");
    expect_bad("BI", "7", "one of 0, -5");
    expect_bad("CX", "zz", "hex digits");
    expect_bad("GlobalConnection", "maybe", "Yes or No");
    expect_bad("GlobalSession", "2", "Yes or No");
    expect_bad("SSLMode", "sometimes", "verify-full");
    expect_bad("Servers", "[::1:5432", "missing ']'");
    expect_bad("Servers", "h1:5432,,h2", "empty entry");
    expect_bad("Servers", "h1:99999", "1 to 65535");
    expect_bad("Servers", "::1", "brackets");
    expect_bad("Port", "http", "1 to 65535");
}

static void test_alias_in_error_message_names_both_spellings(void **state)
{
    (void)state;
    gc_settings s;
    gc_settings_init(&s);
    gc_error err;
    gc_error_clear(&err);
    assert_false(gc_settings_set(&s, "LOCALITY_GROUP_POLICY", "9", NULL, &err));
    assert_non_null(strstr(err.message, "LOCALITY_GROUP_POLICY (LocalityGroupPolicy)"));
    assert_non_null(strstr(err.message, "'9'"));
    gc_settings_free(&s);
}

static void test_unknown_key_is_ignored_and_traced_without_its_value(void **state)
{
    (void)state;
    char path[] = "/tmp/gc_config_trace_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    gc_trace *trace = gc_trace_open(path, GC_TRACE_INFO);
    assert_non_null(trace);
    gc_settings s;
    gc_settings_init(&s);
    gc_error err;
    gc_error_clear(&err);
    assert_true(gc_settings_set(&s, "SecretToken", "hunter2", trace, &err));
    assert_false(gc_error_is_set(&err));
    gc_trace_close(trace);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char text[4096] = { 0 };
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    unlink(path);
    assert_true(n > 0);
    assert_non_null(strstr(text, "SecretToken"));
    assert_null(strstr(text, "hunter2"));
    gc_settings_free(&s);
}

static void test_empty_value_restores_the_default(void **state)
{
    (void)state;
    gc_settings s;
    gc_settings_init(&s);
    set_ok(&s, "LogLevel", "3");
    set_ok(&s, "LogLevel", "");
    assert_int_equal(s.log_level, 0);
    set_ok(&s, "Locator", "a.yaml");
    set_ok(&s, "Locator", "");
    assert_null(s.locator);
    set_ok(&s, "Port", "7000");
    set_ok(&s, "Port", "");
    assert_string_equal(s.port, "5432");
    set_ok(&s, "GlobalConnection", "Yes");
    set_ok(&s, "GlobalConnection", "");
    assert_false(s.global_connection);
    gc_settings_free(&s);
}

static void test_output_string_has_dsn_first_then_changed_keys_braced_as_needed(void **state)
{
    (void)state;
    gc_settings s;
    gc_settings_init(&s);
    set_ok(&s, "GlobalConnection", "1");
    set_ok(&s, "PWD", "a;b}c");
    set_ok(&s, "UID", " alice ");
    set_ok(&s, "Driver", "gcodbc");
    set_ok(&s, "DSN", "demo");
    set_ok(&s, "ApplicationName", "x=y");
    char *out = gc_settings_to_connection_string(&s);
    assert_string_equal(out, "DSN=demo;UID={ alice };PWD={a;b}}c};GlobalConnection=Yes;"
                             "ApplicationName=x=y;");
    free(out);
    /* without a DSN, DRIVER leads */
    set_ok(&s, "DSN", "");
    out = gc_settings_to_connection_string(&s);
    assert_string_equal(out, "Driver=gcodbc;UID={ alice };PWD={a;b}}c};"
                             "GlobalConnection=Yes;ApplicationName=x=y;");
    free(out);
    gc_settings_free(&s);
}

static void test_output_string_parses_back_to_the_same_settings(void **state)
{
    (void)state;
    gc_settings s;
    gc_settings_init(&s);
    set_ok(&s, "Driver", "{gc odbc}");
    set_ok(&s, "Servers", "h1:1,[::1]:2");
    set_ok(&s, "PWD", " }{;}} ");
    set_ok(&s, "LocalityMemberPolicy", "4");
    set_ok(&s, "LocalityMemberPath", "G1N2,G1N1");
    set_ok(&s, "SSLMode", "require");
    set_ok(&s, "MaxVarcharSize", "50");
    set_ok(&s, "LocalityOnDemand", "yes");
    char *out = gc_settings_to_connection_string(&s);
    assert_non_null(out);
    gc_settings back;
    gc_settings_init(&back);
    gc_error err;
    gc_error_clear(&err);
    if (!gc_settings_from_connection_string(&back, out, strlen(out), NULL, &err))
        fail_msg("%s: %s", out, err.message);
    char *again = gc_settings_to_connection_string(&back);
    assert_string_equal(out, again);
    assert_string_equal(back.pwd, " }{;}} ");
    assert_string_equal(back.driver, "{gc odbc}");
    assert_int_equal(back.max_varchar_size, 50);
    assert_true(back.locality_on_demand);
    free(out);
    free(again);
    gc_settings_free(&back);
    gc_settings_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_and_aliases_are_unique_ignoring_case),
        cmocka_unit_test(test_offsets_lie_inside_settings_and_do_not_overlap),
        cmocka_unit_test(test_every_default_parses_and_init_applies_it),
        cmocka_unit_test(test_aliases_and_any_case_set_the_same_field),
        cmocka_unit_test(test_boolean_spellings),
        cmocka_unit_test(test_bad_values_fail_with_HY024_naming_key_and_accepted_values),
        cmocka_unit_test(test_alias_in_error_message_names_both_spellings),
        cmocka_unit_test(test_unknown_key_is_ignored_and_traced_without_its_value),
        cmocka_unit_test(test_empty_value_restores_the_default),
        cmocka_unit_test(test_output_string_has_dsn_first_then_changed_keys_braced_as_needed),
        cmocka_unit_test(test_output_string_parses_back_to_the_same_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
