/*
 * Servers ("host:port,...", IPv6 in brackets) and the Host/Port fallback.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "config/gc_servers.h"
#include "config/gc_settings.h"

static void test_servers_list_with_ipv6_and_default_port(void **state)
{
    (void)state;
    gc_server_list list;
    gc_error err;
    gc_error_clear(&err);
    assert_true(gc_servers_parse(" h1:5433 , [::1]:5434,[fe80::1] ,h4", &list, &err));
    assert_int_equal(list.count, 4);
    assert_string_equal(list.items[0].host, "h1");
    assert_string_equal(list.items[0].port, "5433");
    assert_string_equal(list.items[1].host, "::1");
    assert_string_equal(list.items[1].port, "5434");
    assert_string_equal(list.items[2].host, "fe80::1");
    assert_string_equal(list.items[2].port, "5432");
    assert_string_equal(list.items[3].host, "h4");
    assert_string_equal(list.items[3].port, "5432");
    gc_server_list_free(&list);
}

static void expect_bad_servers(const char *text, const char *why)
{
    gc_server_list list;
    gc_error err;
    gc_error_clear(&err);
    assert_false(gc_servers_parse(text, &list, &err));
    assert_int_equal(list.count, 0);
    assert_string_equal(err.sqlstate, "HY024");
    if (strstr(err.message, "Servers") == NULL || strstr(err.message, why) == NULL)
        fail_msg("'%s': %s", text, err.message);
}

static void test_bad_servers_lists_are_refused(void **state)
{
    (void)state;
    expect_bad_servers("", "empty entry");
    expect_bad_servers("h1,", "empty entry");
    expect_bad_servers("h1:", "1 to 65535");
    expect_bad_servers("h1:0", "1 to 65535");
    expect_bad_servers("h1:65536", "1 to 65535");
    expect_bad_servers("h1:54x", "1 to 65535");
    expect_bad_servers("[::1", "missing ']'");
    expect_bad_servers("[::1]5432", "':port'");
    expect_bad_servers("[]:5432", "empty host");
    expect_bad_servers(":5432", "empty host");
    expect_bad_servers("fe80::1:5432", "brackets");
}

static void set(gc_settings *s, const char *key, const char *value)
{
    gc_error err;
    gc_error_clear(&err);
    if (!gc_settings_set(s, key, value, NULL, &err))
        fail_msg("%s", err.message);
}

static void test_first_server_comes_from_servers_before_host(void **state)
{
    (void)state;
    gc_settings s;
    gc_settings_init(&s);
    set(&s, "HOST", "ignored");
    set(&s, "Servers", "[::1]:6000,h2:6001");
    char *host, *port;
    gc_error err;
    gc_error_clear(&err);
    assert_true(gc_settings_first_server(&s, &host, &port, &err));
    assert_string_equal(host, "::1");
    assert_string_equal(port, "6000");
    free(host);
    free(port);
    gc_settings_free(&s);
}

static void test_host_and_port_are_used_without_servers(void **state)
{
    (void)state;
    gc_settings s;
    gc_settings_init(&s);
    set(&s, "HOST", "db.example");
    char *host, *port;
    gc_error err;
    gc_error_clear(&err);
    assert_true(gc_settings_first_server(&s, &host, &port, &err));
    assert_string_equal(host, "db.example");
    assert_string_equal(port, "5432");
    free(host);
    free(port);
    set(&s, "PORT", "6432");
    assert_true(gc_settings_first_server(&s, &host, &port, &err));
    assert_string_equal(port, "6432");
    free(host);
    free(port);
    gc_server_list list;
    assert_true(gc_settings_servers(&s, &list, &err));
    assert_int_equal(list.count, 1);
    gc_server_list_free(&list);
    gc_settings_free(&s);
}

static void test_no_server_at_all_fails_with_08001(void **state)
{
    (void)state;
    gc_settings s;
    gc_settings_init(&s);
    char *host = (char *)"x", *port = (char *)"y";
    gc_error err;
    gc_error_clear(&err);
    assert_false(gc_settings_first_server(&s, &host, &port, &err));
    assert_null(host);
    assert_null(port);
    assert_string_equal(err.sqlstate, "08001");
    assert_non_null(strstr(err.message, "Servers"));
    gc_settings_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_servers_list_with_ipv6_and_default_port),
        cmocka_unit_test(test_bad_servers_lists_are_refused),
        cmocka_unit_test(test_first_server_comes_from_servers_before_host),
        cmocka_unit_test(test_host_and_port_are_used_without_servers),
        cmocka_unit_test(test_no_server_at_all_fails_with_08001),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
