/*
 * gc_conn_setup without a server: the libpq options psqlODBC's keys turn
 * into (KeepaliveTime, KeepaliveInterval, pqopt percent-decoded), and the
 * trace level Debug and CommLog raise. The connection test
 * (test_psqlodbc_keys) proves pqopt and Debug/Logdir on a real session;
 * keepalives leave no trace a server can show, so they are proved here.
 */
#include <stdbool.h>
#include <unistd.h>

#include "config/gc_settings.h"
#include "conn_test.h"
#include "core/gc_conn.h"

static void set(gc_settings *s, const char *key, const char *value)
{
    gc_error err;
    gc_error_clear(&err);
    if (!gc_settings_set(s, key, value, NULL, &err)) {
        fprintf(stderr, "%s=%s: %s\n", key, value, err.message);
        exit(2);
    }
}

static void test_extra_conninfo(void)
{
    gc_settings s;
    gc_settings_init(&s);
    bool oom;
    char *extra = gc_conn_setup_extra_conninfo(&s, &oom);
    CT_CHECK(extra == NULL && !oom, "defaults give no extra options: %s", extra);
    free(extra);
    set(&s, "KeepaliveTime", "-1");
    set(&s, "KeepaliveInterval", "0");
    extra = gc_conn_setup_extra_conninfo(&s, &oom);
    CT_CHECK(extra == NULL, "-1 and 0 leave the driver's own: %s", extra);
    free(extra);
    set(&s, "D1", "40");
    set(&s, "KeepaliveInterval", "7");
    set(&s, "pqopt", "gssencmode%3Ddisable");
    extra = gc_conn_setup_extra_conninfo(&s, &oom);
    CT_CHECK(extra != NULL && strcmp(extra, "keepalives_idle=40 keepalives_interval=7 "
                                         "gssencmode=disable") == 0,
          "got %s", extra ? extra : "(null)");
    free(extra);
    gc_settings_free(&s);
}

/* Whether the trace the settings open writes at level. */
static int trace_level_enabled(const char *key, const char *value, gc_trace_level level)
{
    char path[] = "/tmp/gc_conn_setup_trace_XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    gc_settings s;
    gc_settings_init(&s);
    set(&s, "LogFile", path);
    if (key != NULL)
        set(&s, key, value);
    gc_trace *trace = gc_conn_setup_open_trace(&s);
    int enabled = gc_trace_enabled(trace, level);
    gc_trace_close(trace);
    gc_settings_free(&s);
    unlink(path);
    return enabled;
}

static void test_debug_and_comm_log_raise_the_trace_level(void)
{
    CT_CHECK(!trace_level_enabled(NULL, NULL, GC_TRACE_ERROR), "off by default");
    CT_CHECK(trace_level_enabled("Debug", "1", GC_TRACE_DEBUG), "Debug=1 is level 3");
    CT_CHECK(trace_level_enabled("CommLog", "1", GC_TRACE_INFO), "CommLog=1 is level 2");
    CT_CHECK(!trace_level_enabled("CommLog", "1", GC_TRACE_DEBUG), "CommLog=1 is not 3");
    CT_CHECK(trace_level_enabled("B2", "1", GC_TRACE_DEBUG), "B2, Debug's abbreviation");
}

int main(void)
{
    test_extra_conninfo();
    test_debug_and_comm_log_raise_the_trace_level();
    return ct_finish("conn_setup");
}
