/*
 * Locator files: the format gcctl writes, errors that say where
 * (file:line:column) and what is wrong, and inputs that must fail at once
 * (a FIFO, deep nesting).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config/gc_locator.h"

static const char good[] =
    "# written by gcctl\n"
    "cluster: demo\n"
    "members:\n"
    "  - {name: G1N1, group: G1, host: 127.0.0.1, port: 5433}\n"
    "  - {name: G1N2, group: G1, host: 127.0.0.1, port: 5434, role: standby}\n"
    "  - name: G2N1\n"
    "    group: G2\n"
    "    host: \"::1\"\n"
    "    port: '5435'\n";

static void test_locator_file_written_by_gcctl_loads(void **state)
{
    (void)state;
    char path[] = "/tmp/gc_config_locator_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, good, strlen(good)), (ssize_t)strlen(good));
    close(fd);
    gc_error err;
    gc_error_clear(&err);
    gc_locator *loc = gc_locator_load(path, &err);
    unlink(path);
    if (loc == NULL)
        fail_msg("%s", err.message);
    assert_string_equal(loc->cluster, "demo");
    assert_int_equal(loc->member_count, 3);
    assert_string_equal(loc->members[0].name, "G1N1");
    assert_string_equal(loc->members[0].group, "G1");
    assert_string_equal(loc->members[0].host, "127.0.0.1");
    assert_int_equal(loc->members[0].port, 5433);
    assert_int_equal(loc->members[1].port, 5434);
    assert_string_equal(loc->members[2].name, "G2N1");
    assert_string_equal(loc->members[2].group, "G2");
    assert_string_equal(loc->members[2].host, "::1");
    assert_int_equal(loc->members[2].port, 5435);
    gc_locator_free(loc);
}

static void test_cluster_name_is_optional(void **state)
{
    (void)state;
    const char text[] = "members:\n  - {name: A, group: G, host: h, port: 1}\n";
    gc_error err;
    gc_error_clear(&err);
    gc_locator *loc = gc_locator_parse(text, strlen(text), "t.yaml", &err);
    assert_non_null(loc);
    assert_null(loc->cluster);
    assert_int_equal(loc->member_count, 1);
    gc_locator_free(loc);
}

/* text must fail with 08001 and exactly this message. */
static void expect_error(const char *text, const char *message)
{
    gc_error err;
    gc_error_clear(&err);
    gc_locator *loc = gc_locator_parse(text, strlen(text), "c.yaml", &err);
    assert_null(loc);
    assert_string_equal(err.sqlstate, "08001");
    assert_string_equal(err.message, message);
}

static void test_member_missing_a_field_is_reported_at_its_line_and_column(void **state)
{
    (void)state;
    expect_error("cluster: demo\n"
                 "members:\n"
                 "  - {name: G1N1, group: G1, host: h, port: 5433}\n"
                 "  - {name: G1N2, group: G1, host: h}\n",
                 "locator c.yaml:4:5: member 2 has no 'port'");
    expect_error("members:\n"
                 "  - group: G1\n"
                 "    host: h\n"
                 "    port: 1\n",
                 "locator c.yaml:2:5: member 1 has no 'name'");
}

static void test_bad_port_is_reported_at_the_value(void **state)
{
    (void)state;
    expect_error("members:\n"
                 "  - {name: A, group: G, host: h, port: http}\n",
                 "locator c.yaml:2:40: port must be a number from 1 to 65535");
    expect_error("members:\n"
                 "  - {name: A, group: G, host: h, port: 70000}\n",
                 "locator c.yaml:2:40: port must be a number from 1 to 65535");
}

static void test_yaml_syntax_error_gives_line_and_column(void **state)
{
    (void)state;
    gc_error err;
    gc_error_clear(&err);
    const char text[] = "cluster: demo\nmembers:\n  - {name: A, group: G\n";
    assert_null(gc_locator_parse(text, strlen(text), "c.yaml", &err));
    assert_string_equal(err.sqlstate, "08001");
    /* libyaml's own wording; the position is the end of the file */
    assert_non_null(strstr(err.message, "locator c.yaml:4:1: "));
}

static void test_structural_errors(void **state)
{
    (void)state;
    expect_error("", "locator c.yaml:1:1: the file is empty; expected 'cluster' and 'members'");
    expect_error("- a\n- b\n",
                 "locator c.yaml:1:1: expected a mapping with 'cluster' and 'members'");
    expect_error("cluster: demo\n", "locator c.yaml:1:1: no 'members' list");
    expect_error("cluster: demo\nmembers: []\n", "locator c.yaml:2:10: 'members' lists no member");
    expect_error("cluster: demo\nmembers: G1N1\n", "locator c.yaml:2:10: 'members' must be a list");
    expect_error("members:\n  - G1N1\n",
                 "locator c.yaml:2:5: member 1 must be a mapping {name, group, host, port}");
    expect_error("members:\n"
                 "  - {name: A, group: G, host: h, port: 1}\n"
                 "  - {name: A, group: G, host: h, port: 2}\n",
                 "locator c.yaml:3:5: member name 'A' appears twice");
    expect_error("members:\n  - {name: A, name: B, group: G, host: h, port: 1}\n",
                 "locator c.yaml:2:15: member 1: duplicate key");
    expect_error("members:\n  - {name: [A], group: G, host: h, port: 1}\n",
                 "locator c.yaml:2:12: name must be a non-empty plain value");
}

static void test_unreadable_file_fails_with_08001(void **state)
{
    (void)state;
    gc_error err;
    gc_error_clear(&err);
    assert_null(gc_locator_load("/nonexistent/gc_config/cluster.yaml", &err));
    assert_string_equal(err.sqlstate, "08001");
    assert_non_null(strstr(err.message, "cannot open"));
    assert_non_null(strstr(err.message, "cluster.yaml"));
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Opening a FIFO for reading waits for a writer: the load must not. The
 * alarm turns a hang into a failure (SIGALRM ends the test program). */
static void test_fifo_is_refused_at_once(void **state)
{
    (void)state;
    char dir[] = "/tmp/gc_config_locator_fifo_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/locator.yaml", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    gc_error err;
    gc_error_clear(&err);
    alarm(10);
    gc_locator *loc = gc_locator_load(path, &err);
    alarm(0);
    unlink(path);
    assert_null(loc);
    assert_string_equal(err.sqlstate, "08001");
    char want[128];
    snprintf(want, sizeof want, "locator %s: is not a regular file (a FIFO)", path);
    assert_string_equal(err.message, want);

    /* A directory is no locator either (it used to fail only at read). */
    gc_error_clear(&err);
    assert_null(gc_locator_load(dir, &err));
    snprintf(want, sizeof want, "locator %s: is not a regular file (a directory)", dir);
    assert_string_equal(err.message, want);
    rmdir(dir);
}

/* 100 KB of '[' took libyaml 52 s (and more on a busy machine) to reject;
 * the depth bound rejects it where it gets too deep, at once. */
static void test_deep_nesting_fails_fast_where_it_gets_too_deep(void **state)
{
    (void)state;
    size_t len = 100 * 1024;
    char *text = malloc(len);
    assert_non_null(text);
    memset(text, '[', len);
    gc_error err;
    gc_error_clear(&err);
    double start = seconds_now();
    assert_null(gc_locator_parse(text, len, "deep.yaml", &err));
    double took = seconds_now() - start;
    free(text);
    assert_string_equal(err.sqlstate, "08001");
    assert_string_equal(err.message, "locator deep.yaml:1:33: nested deeper than 32 levels; a locator is 3 deep");
    if (took > 0.5)
        fail_msg("100 KB of '[' took %.3f s to fail", took);

    /* Block nesting counts the same way; 32 levels still load as YAML. */
    const char block[] = "- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - x\n";
    gc_error_clear(&err);
    assert_null(gc_locator_parse(block, strlen(block), "block.yaml", &err));
    assert_string_equal(err.message, "locator block.yaml:1:65: nested deeper than 32 levels; a locator is 3 deep");
    /* 32 levels (the root mapping and 31 lists) pass the bound and reach the
     * usual check of what a member is. */
    char at_bound[128] = "members: ";
    size_t n = strlen(at_bound);
    memset(at_bound + n, '[', 31);
    memset(at_bound + n + 31, ']', 31);
    at_bound[n + 62] = '\0';
    gc_error_clear(&err);
    assert_null(gc_locator_parse(at_bound, strlen(at_bound), "d.yaml", &err));
    assert_string_equal(err.message, "locator d.yaml:1:11: member 1 must be a mapping {name, group, host, port}");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_locator_file_written_by_gcctl_loads),
        cmocka_unit_test(test_cluster_name_is_optional),
        cmocka_unit_test(test_member_missing_a_field_is_reported_at_its_line_and_column),
        cmocka_unit_test(test_bad_port_is_reported_at_the_value),
        cmocka_unit_test(test_yaml_syntax_error_gives_line_and_column),
        cmocka_unit_test(test_structural_errors),
        cmocka_unit_test(test_unreadable_file_fails_with_08001),
        cmocka_unit_test(test_fifo_is_refused_at_once),
        cmocka_unit_test(test_deep_nesting_fails_fast_where_it_gets_too_deep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
