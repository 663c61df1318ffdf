/*
 * gcctl_conn: see gcctl_conn.h.
 */
#include "gcctl_conn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Server notices ("already exists, skipping") are not news for a tool
 * whose commands are idempotent. */
static void ignore_notice(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

PGconn *gcctl_connect(const gcctl_target *t, const gcctl_member *m, const char *dbname,
                      int timeout_s, gc_error *err)
{
    const char *keys[8];
    const char *vals[8];
    char port[16], timeout[16];
    int n = 0;
    snprintf(port, sizeof port, "%d", m->port);
    snprintf(timeout, sizeof timeout, "%d", timeout_s > 0 ? timeout_s : 5);
    keys[n] = "host"; vals[n++] = t->socket_dir ? t->socket_dir : m->host;
    keys[n] = "port"; vals[n++] = port;
    keys[n] = "dbname"; vals[n++] = dbname ? dbname : t->spec->database;
    keys[n] = "connect_timeout"; vals[n++] = timeout;
    keys[n] = "application_name"; vals[n++] = "gcctl";
    if (t->socket_dir) {
        keys[n] = "user"; vals[n++] = t->os_user;
    } else {
        if (t->spec->superuser) { keys[n] = "user"; vals[n++] = t->spec->superuser; }
        if (t->spec->superuser_password) { keys[n] = "password"; vals[n++] = t->spec->superuser_password; }
    }
    keys[n] = NULL; vals[n] = NULL;
    PGconn *c = PQconnectdbParams(keys, vals, 0);
    if (!c || PQstatus(c) != CONNECTION_OK) {
        const char *msg = c ? PQerrorMessage(c) : "out of memory";
        char line[512];
        snprintf(line, sizeof line, "%s", msg);
        line[strcspn(line, "\n")] = '\0';
        gc_error_set(err, "08001", 0, "%s: cannot connect: %s", m->name, line);
        PQfinish(c);
        return NULL;
    }
    PQsetNoticeProcessor(c, ignore_notice, NULL);
    return c;
}

static void set_result_error(const PGresult *r, PGconn *c, const char *who, gc_error *err)
{
    const char *msg = r ? PQresultErrorMessage(r) : PQerrorMessage(c);
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    char line[900];
    snprintf(line, sizeof line, "%s", msg && *msg ? msg : "unknown error");
    line[strcspn(line, "\n")] = '\0';
    gc_error_set(err, state && strlen(state) == 5 ? state : "HY000", 0, "%s: %s", who, line);
}

bool gcctl_exec(PGconn *c, const char *who, const char *sql, gc_error *err)
{
    PGresult *r = PQexec(c, sql);
    ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    bool ok = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
    if (!ok)
        set_result_error(r, c, who, err);
    PQclear(r);
    return ok;
}

bool gcctl_exec_secret(PGconn *c, const char *who, const char *sql, gc_error *err)
{
    /* Set apart from the secret: log_statement judges a whole query string
     * before any of it runs. The setting names pg_stat_statements even when
     * it is not loaded: a superuser may set such a placeholder. */
    static const char quiet[] =
        "SET pg_stat_statements.track_utility = off; SET log_statement = 'none'; "
        "SET log_min_error_statement = 'panic'";
    static const char loud[] =
        "RESET pg_stat_statements.track_utility; RESET log_statement; RESET log_min_error_statement";
    if (!gcctl_exec(c, who, quiet, err))
        return false;
    bool ok = gcctl_exec(c, who, sql, err);
    gc_error ignored;
    return gcctl_exec(c, who, loud, ok ? err : &ignored) && ok;
}

PGresult *gcctl_query(PGconn *c, const char *who, const char *sql, int nparams,
                      const char *const *params, gc_error *err)
{
    PGresult *r = PQexecParams(c, sql, nparams, NULL, params, NULL, NULL, 0);
    ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
        set_result_error(r, c, who, err);
        PQclear(r);
        return NULL;
    }
    return r;
}

char *gcctl_query_value(PGconn *c, const char *who, const char *sql, gc_error *err)
{
    PGresult *r = gcctl_query(c, who, sql, 0, NULL, err);
    if (!r)
        return NULL;
    char *v = NULL;
    if (PQntuples(r) > 0 && !PQgetisnull(r, 0, 0))
        v = gcctl_xstrdup(PQgetvalue(r, 0, 0));
    else
        gc_error_set(err, "HY000", 0, "%s: no value for: %.80s", who, sql);
    PQclear(r);
    return v;
}

static void quote_with(gc_strbuf *sb, const char *s, char q)
{
    gc_strbuf_append_char(sb, q);
    for (; *s; s++) {
        if (*s == q)
            gc_strbuf_append_char(sb, q);
        gc_strbuf_append_char(sb, *s);
    }
    gc_strbuf_append_char(sb, q);
}

void gcctl_sb_ident(gc_strbuf *sb, const char *s)
{
    quote_with(sb, s, '"');
}

void gcctl_sb_literal(gc_strbuf *sb, const char *s)
{
    quote_with(sb, s, '\'');
}

char *gcctl_sb_take(gc_strbuf *sb)
{
    char *s = gc_strbuf_take(sb);
    if (!s) {
        fputs("gcctl: out of memory\n", stderr);
        exit(2);
    }
    return s;
}
