/*
 * The trace log: line format, levels, the number that tells apart the
 * connections writing to one file, and the mode of the file it creates.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/gc_trace.h"

/* The whole file at path (at most 4095 bytes), NUL-terminated. */
static void read_all(const char *path, char *text, size_t size)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(text, 1, size - 1, f);
    text[n] = '\0';
    fclose(f);
}

/* The N of "gcodbc #N: <text>" on the line holding text, or 0. */
static unsigned number_of_line(const char *all, const char *text)
{
    const char *at = strstr(all, text);
    if (at == NULL)
        return 0;
    const char *line = at;
    while (line > all && line[-1] != '\n')
        line--;
    unsigned n = 0;
    const char *tag = strstr(line, "] gcodbc #");
    if (tag == NULL || tag > at || sscanf(tag, "] gcodbc #%u:", &n) != 1)
        return 0;
    return n;
}

static void test_two_traces_on_one_file_are_told_apart(void **state)
{
    (void)state;
    char path[] = "/tmp/gc_trace_test_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    gc_trace *first = gc_trace_open(path, GC_TRACE_INFO);
    gc_trace *second = gc_trace_open(path, GC_TRACE_INFO);
    assert_non_null(first);
    assert_non_null(second);
    gc_trace_write(first, GC_TRACE_INFO, "from the first %d", 1);
    gc_trace_write(second, GC_TRACE_INFO, "from the second %d", 2);
    gc_trace_write(first, GC_TRACE_DEBUG, "too detailed for level 2");
    gc_trace_close(first);
    gc_trace_close(second);

    char all[4096];
    read_all(path, all, sizeof all);
    unlink(path);
    unsigned a = number_of_line(all, "from the first 1");
    unsigned b = number_of_line(all, "from the second 2");
    assert_true(a > 0);
    assert_int_equal(b, a + 1);
    assert_null(strstr(all, "too detailed"));
    assert_non_null(strstr(all, "Z ["));   /* UTC time, then the process id */
}

/* The permission bits of path. */
static mode_t mode_of(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return st.st_mode & 07777;
}

static void test_new_trace_file_is_private_and_an_old_one_keeps_its_mode(void **state)
{
    (void)state;
    char dir[] = "/tmp/gc_trace_mode_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/trace.log", dir);
    mode_t old_mask = umask(022);   /* the usual umask lets others read */
    gc_trace *trace = gc_trace_open(path, GC_TRACE_INFO);
    assert_non_null(trace);
    gc_trace_write(trace, GC_TRACE_INFO, "SELECT secret");
    gc_trace_close(trace);
    assert_int_equal(mode_of(path), 0600);

    /* A file the user made readable on purpose stays as it is. */
    assert_int_equal(chmod(path, 0640), 0);
    trace = gc_trace_open(path, GC_TRACE_INFO);
    assert_non_null(trace);
    gc_trace_close(trace);
    assert_int_equal(mode_of(path), 0640);
    umask(old_mask);
    unlink(path);
    rmdir(dir);
}

static void test_level_off_opens_nothing(void **state)
{
    (void)state;
    assert_null(gc_trace_open(NULL, GC_TRACE_OFF));
    assert_false(gc_trace_enabled(NULL, GC_TRACE_ERROR));
    gc_trace_write(NULL, GC_TRACE_ERROR, "nowhere");   /* a NULL trace writes nothing */
    gc_trace_close(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_traces_on_one_file_are_told_apart),
        cmocka_unit_test(test_new_trace_file_is_private_and_an_old_one_keeps_its_mode),
        cmocka_unit_test(test_level_off_opens_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
