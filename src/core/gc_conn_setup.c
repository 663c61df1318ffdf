/*
 * gc_conn_setup: what a connection does around connecting because of the
 * keys psqlODBC's data sources carry (docs/connection-keys.md, "psqlODBC's
 * keys"): its trace file, extra libpq options, ConnSettings, and the report
 * of keys the driver does not know.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/gc_psqlodbc.h"
#include "core/gc_conn.h"
#include "core/gc_conn_kind.h"
#include "util/gc_strbuf.h"

/* The directory of the trace file when LogFile is unset: Logdir, else, for
 * a trace that psqlODBC's CommLog or Debug alone turned on, the temporary
 * directory, where psqlODBC writes those logs: a data source carrying them
 * must not fill the application's standard error. NULL: standard error. */
static const char *trace_dir(const gc_settings *s)
{
    if (s->log_dir != NULL)
        return s->log_dir;
    if (s->log_level != GC_TRACE_OFF || !(s->comm_log || s->debug))
        return NULL;
    const char *tmp = getenv("TMPDIR");
    return tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp";
}

gc_trace *gc_conn_setup_open_trace(const gc_settings *s)
{
    int level = s->log_level;
    if (s->comm_log && level < GC_TRACE_INFO)
        level = GC_TRACE_INFO;
    if (s->debug)
        level = GC_TRACE_DEBUG;
    const char *dir = trace_dir(s);
    if (s->log_file != NULL || dir == NULL || level == GC_TRACE_OFF)
        return gc_trace_open(s->log_file, (gc_trace_level)level);
    char path[4096];
    snprintf(path, sizeof path, "%s/gcodbc_%ld.log", dir, (long)getpid());
    return gc_trace_open(path, (gc_trace_level)level);
}

char *gc_conn_setup_extra_conninfo(const gc_settings *s, bool *oom)
{
    *oom = false;
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    /* Keepalives first: a pqopt naming them too wins, coming later. */
    if (s->keepalive_time > 0)
        gc_strbuf_appendf(&sb, "keepalives_idle=%d ", s->keepalive_time);
    if (s->keepalive_interval > 0)
        gc_strbuf_appendf(&sb, "keepalives_interval=%d ", s->keepalive_interval);
    if (s->pqopt != NULL && s->pqopt[0] != '\0') {
        char *decoded = gc_psqlodbc_decode_percent(s->pqopt);
        if (decoded == NULL) {
            gc_strbuf_free(&sb);
            *oom = true;
            return NULL;
        }
        gc_strbuf_append_str(&sb, decoded);
        free(decoded);
    }
    if (sb.len == 0) {
        gc_strbuf_free(&sb);
        return NULL;
    }
    char *text = gc_strbuf_take(&sb);
    *oom = text == NULL;
    return text;
}

bool gc_conn_setup_run_conn_settings(gc_conn *c, gc_error *err)
{
    const char *text = c->settings.conn_settings;
    if (text == NULL || text[0] == '\0')
        return true;
    char *sql = gc_psqlodbc_decode_conn_settings(text);
    if (sql == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory running ConnSettings");
        return false;
    }
    gc_trace_write(c->trace, GC_TRACE_INFO, "running ConnSettings");
    bool ok = c->kind->run_conn_settings(c, sql, err);
    if (!ok) {
        gc_error inner = *err;
        gc_error_set(err, inner.sqlstate, inner.native, "ConnSettings failed: %s",
                     inner.message);
    }
    free(sql);
    return ok;
}

bool gc_conn_setup_report_unknown_keys(gc_conn *c)
{
    const gc_settings *s = &c->settings;
    if (s->unknown_key_count == 0)
        return false;
    size_t kept = s->unknown_key_count < GC_SETTINGS_UNKNOWN_KEPT
                      ? s->unknown_key_count : GC_SETTINGS_UNKNOWN_KEPT;
    size_t more = s->unknown_key_count - kept;
    char tail[64] = "";
    if (more > 0)
        snprintf(tail, sizeof tail, " and %zu more", more);
    const char *names = s->unknown_keys != NULL ? s->unknown_keys : "?";
    gc_trace_write(c->trace, GC_TRACE_INFO, "ignored unknown connection keys: %s%s",
                   names, tail);
    gc_diag_add(&c->h.diag, "01S00", 0,
                "invalid connection string attribute: unknown key%s %s%s ignored "
                "(docs/connection-keys.md)",
                s->unknown_key_count > 1 ? "s" : "", names, tail);
    return true;
}
