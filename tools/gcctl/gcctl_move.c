/*
 * gcctl_move: moves a shard from its owner group A to group B while clients
 * keep writing. See docs/cluster.md ("move-shard") for the whole protocol;
 * in short:
 *   1. A trigger on A's shard logs the key of every row written from now on.
 *   2. B gets a staging table (schema gcluster_move) and a copy of the shard.
 *   3. Catch-up rounds re-copy the logged keys from A to B (idempotent: a key
 *      is copied as it is on A now, or deleted when gone).
 *   4. The switch: B's parent table, then A's parent and shard are locked;
 *      the last logged keys are copied; B attaches the staging table as the
 *      shard and A turns its shard into a foreign table pointing at B; both
 *      prepared, then committed (two-phase commit).
 *   5. Every other group repoints its foreign shard to B (until then it
 *      reaches B through A's new foreign table); the catalog and version
 *      follow through apply.
 * The shard's table must have a primary key: rows are identified by it.
 */
#include "gcctl_move.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcctl_apply.h"
#include "gcctl_catalog.h"

#define CATCH_UP_BATCH 5000
#define CATCH_UP_ROUNDS 50
#define SWITCH_ATTEMPTS 5

typedef struct move_ctx {
    gcctl_cluster *c;
    const gcctl_table *t;
    const gcctl_shard *sh;
    const gcctl_member *pa, *pb;   /* primaries of the old and the new owner */
    PGconn *a, *b;
    char *cols;        /* "c1", "c2", ... */
    char *pk_eq;       /* x."k1" = r."k1" AND ... */
    char *pk_list;     /* "k1", "k2" */
    char *bound;
    gc_error *err;
} move_ctx;

static bool exec_a(move_ctx *m, const char *sql) { return gcctl_exec(m->a, m->pa->name, sql, m->err); }
static bool exec_b(move_ctx *m, const char *sql) { return gcctl_exec(m->b, m->pb->name, sql, m->err); }

/* printf into a new string (caller frees). */
static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    char small[1];
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(small, sizeof small, f, ap2);
    va_end(ap2);
    char *s = gcctl_xcalloc((size_t)n + 1, 1);
    vsnprintf(s, (size_t)n + 1, f, ap);
    va_end(ap);
    return s;
}

static bool exec_fmt(move_ctx *m, bool on_a, char *sql)
{
    bool ok = on_a ? exec_a(m, sql) : exec_b(m, sql);
    free(sql);
    return ok;
}

static const char log_ddl[] =
    "CREATE TABLE IF NOT EXISTS gcluster.move_log (\n"
    "  seq bigserial PRIMARY KEY, shard text NOT NULL, k jsonb NOT NULL);\n"
    "CREATE OR REPLACE FUNCTION gcluster.move_log_row() RETURNS trigger\n"
    "LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$\n"
    "BEGIN\n"
    "  IF TG_OP <> 'INSERT' THEN\n"
    "    INSERT INTO gcluster.move_log (shard, k) VALUES (TG_TABLE_NAME, to_jsonb(OLD));\n"
    "  END IF;\n"
    "  IF TG_OP <> 'DELETE' THEN\n"
    "    INSERT INTO gcluster.move_log (shard, k) VALUES (TG_TABLE_NAME, to_jsonb(NEW));\n"
    "  END IF;\n"
    "  RETURN NULL;\n"
    "END $fn$;\n"
    "CREATE OR REPLACE FUNCTION gcluster.move_refuse_truncate() RETURNS trigger\n"
    "LANGUAGE plpgsql AS $fn$\n"
    "BEGIN\n"
    "  RAISE EXCEPTION 'shard % is being moved: TRUNCATE is refused until the move ends', TG_TABLE_NAME;\n"
    "END $fn$;\n";

/* Step 1: from the commit of this trigger on, every write to the shard on A
 * leaves its key in gcluster.move_log. */
static bool start_logging(move_ctx *m)
{
    const char *s = m->sh->name;
    return exec_a(m, log_ddl) &&
           exec_fmt(m, true, fmt("DELETE FROM gcluster.move_log WHERE shard = '%s';"
                                 "DROP TRIGGER IF EXISTS gcluster_move ON public.%s;"
                                 "DROP TRIGGER IF EXISTS gcluster_move_truncate ON public.%s;"
                                 "CREATE TRIGGER gcluster_move AFTER INSERT OR UPDATE OR DELETE ON public.%s"
                                 " FOR EACH ROW EXECUTE FUNCTION gcluster.move_log_row();"
                                 "CREATE TRIGGER gcluster_move_truncate BEFORE TRUNCATE ON public.%s"
                                 " FOR EACH STATEMENT EXECUTE FUNCTION gcluster.move_refuse_truncate()",
                                 s, s, s, s, s));
}

static void stop_logging(move_ctx *m)
{
    gc_error ignored = *m->err;
    const char *s = m->sh->name;
    char *sql = fmt("DROP TRIGGER IF EXISTS gcluster_move ON public.%s;"
                    "DROP TRIGGER IF EXISTS gcluster_move_truncate ON public.%s;"
                    "DELETE FROM gcluster.move_log WHERE shard = '%s'", s, s, s);
    exec_a(m, sql);
    free(sql);
    *m->err = ignored;
}

/* Step 2a: the staging table on B, shaped like the parent, with the shard's
 * constraints. */
static bool create_stage(move_ctx *m)
{
    const char *s = m->sh->name;
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    gc_strbuf_appendf(&sb, "CREATE SCHEMA IF NOT EXISTS gcluster_move;"
                           "DROP TABLE IF EXISTS gcluster_move.%s;"
                           "CREATE TABLE gcluster_move.%s (LIKE public.%s INCLUDING DEFAULTS",
                      s, s, m->t->name);
    gc_strbuf_appendf(&sb, ", PRIMARY KEY (%s)", m->pk_list);
    for (size_t u = 0; u < m->t->nuniques; u++) {
        gc_strbuf_append_str(&sb, ", UNIQUE (");
        for (size_t i = 0; i < m->t->uniques[u].n; i++) {
            if (i) gc_strbuf_append_str(&sb, ", ");
            gcctl_sb_ident(&sb, m->t->uniques[u].items[i]);
        }
        gc_strbuf_append_char(&sb, ')');
    }
    gc_strbuf_append_char(&sb, ')');
    char *sql = gcctl_sb_take(&sb);
    bool ok = exec_b(m, sql);
    free(sql);
    return ok;
}

/* Step 2b: COPY A's shard into B's staging table, streaming through gcctl. */
static bool initial_copy(move_ctx *m)
{
    char *out = fmt("COPY (SELECT %s FROM public.%s) TO STDOUT", m->cols, m->sh->name);
    char *in = fmt("COPY gcluster_move.%s (%s) FROM STDIN", m->sh->name, m->cols);
    PGresult *ra = PQexec(m->a, out);
    PGresult *rb = PQexec(m->b, in);
    free(out);
    free(in);
    bool ok = PQresultStatus(ra) == PGRES_COPY_OUT && PQresultStatus(rb) == PGRES_COPY_IN;
    if (!ok)
        gc_error_set(m->err, "HY000", 0, "copying %s: %s%s", m->sh->name,
                     PQresultErrorMessage(ra), PQresultErrorMessage(rb));
    PQclear(ra);
    PQclear(rb);
    if (!ok)
        return false;
    char *buf;
    int len;
    while ((len = PQgetCopyData(m->a, &buf, 0)) > 0) {
        if (ok && PQputCopyData(m->b, buf, len) != 1)
            ok = false;
        PQfreemem(buf);
    }
    PQputCopyEnd(m->b, ok ? NULL : "copy from the old owner failed");
    PGresult *r;
    while ((r = PQgetResult(m->a)) != NULL) {
        if (PQresultStatus(r) != PGRES_COMMAND_OK && ok) {
            gc_error_set(m->err, "HY000", 0, "%s: %s", m->pa->name, PQresultErrorMessage(r));
            ok = false;
        }
        PQclear(r);
    }
    while ((r = PQgetResult(m->b)) != NULL) {
        if (PQresultStatus(r) != PGRES_COMMAND_OK && ok) {
            gc_error_set(m->err, "HY000", 0, "%s: %s", m->pb->name, PQresultErrorMessage(r));
            ok = false;
        }
        PQclear(r);
    }
    if (ok)
        m->err->message[strcspn(m->err->message, "\n")] = '\0';
    return ok;
}

/* Step 3 (and the end of step 4): copies the rows of up to CATCH_UP_BATCH
 * logged keys from A to B as they are on A now, then forgets those log
 * entries. Runs inside whatever transactions the caller holds. Returns the
 * number of log entries handled, -1 on error. */
static long refresh_batch(move_ctx *m)
{
    char limit[32];
    snprintf(limit, sizeof limit, "%d", CATCH_UP_BATCH);
    const char *p1[] = { m->sh->name, limit };
    PGresult *log = gcctl_query(m->a, m->pa->name,
        "SELECT coalesce(array_agg(seq)::text, '{}'), coalesce(jsonb_agg(k)::text, '[]'), count(*)"
        " FROM (SELECT seq, k FROM gcluster.move_log WHERE shard = $1 ORDER BY seq LIMIT $2::int) l",
        2, p1, m->err);
    if (!log)
        return -1;
    long n = atol(PQgetvalue(log, 0, 2));
    if (n == 0) {
        PQclear(log);
        return 0;
    }
    char *seqs = gcctl_xstrdup(PQgetvalue(log, 0, 0));
    char *keys = gcctl_xstrdup(PQgetvalue(log, 0, 1));
    PQclear(log);

    char *q_rows = fmt("SELECT coalesce(jsonb_agg(to_jsonb(x))::text, '[]') FROM public.%s x"
                       " WHERE EXISTS (SELECT 1 FROM jsonb_populate_recordset(NULL::public.%s, $1::jsonb) r WHERE %s)",
                       m->sh->name, m->sh->name, m->pk_eq);
    const char *p2[] = { keys };
    PGresult *rows = gcctl_query(m->a, m->pa->name, q_rows, 1, p2, m->err);
    free(q_rows);
    long result = -1;
    if (rows) {
        /* Delete, then insert, as two statements: one statement that did
         * both could meet its own deleted row in the primary key index. */
        const char *p3[] = { keys };
        const char *p5[] = { PQgetvalue(rows, 0, 0) };
        char *q_delete = fmt("DELETE FROM gcluster_move.%s x"
                             " USING jsonb_populate_recordset(NULL::gcluster_move.%s, $1::jsonb) r WHERE %s",
                             m->sh->name, m->sh->name, m->pk_eq);
        char *q_insert = fmt("INSERT INTO gcluster_move.%s"
                             " SELECT * FROM jsonb_populate_recordset(NULL::gcluster_move.%s, $1::jsonb)",
                             m->sh->name, m->sh->name);
        PGresult *deleted = gcctl_query(m->b, m->pb->name, q_delete, 1, p3, m->err);
        PGresult *applied = deleted ? gcctl_query(m->b, m->pb->name, q_insert, 1, p5, m->err) : NULL;
        PQclear(deleted);
        free(q_delete);
        free(q_insert);
        const char *p4[] = { seqs };
        PGresult *forgot = applied ? gcctl_query(m->a, m->pa->name,
            "DELETE FROM gcluster.move_log WHERE seq = ANY($1::bigint[])", 1, p4, m->err) : NULL;
        if (forgot)
            result = n;
        PQclear(applied);
        PQclear(forgot);
        PQclear(rows);
    }
    free(seqs);
    free(keys);
    return result;
}

static bool catch_up(move_ctx *m)
{
    for (int round = 0; round < CATCH_UP_ROUNDS; round++) {
        if (!exec_b(m, "BEGIN"))
            return false;
        long n = refresh_batch(m);
        if (n < 0) {
            gc_error saved = *m->err;
            exec_b(m, "ROLLBACK");
            *m->err = saved;
            return false;
        }
        if (!exec_b(m, "COMMIT"))
            return false;
        if (n < CATCH_UP_BATCH / 10)
            return true;
    }
    return true;
}

static void rollback_quietly(PGconn *c, const char *who, const char *gid)
{
    gc_error ignored;
    if (gid) {
        char sql[200];
        snprintf(sql, sizeof sql, "ROLLBACK PREPARED '%s'", gid);
        gcctl_exec(c, who, sql, &ignored);
    }
    gcctl_exec(c, who, "ROLLBACK", &ignored);
}

/* Step 4. Returns 1 done, 0 not done but worth retrying (locks not had in
 * time, or a deadlock the server broke), -1 error. */
static int switch_over(move_ctx *m)
{
    const char *s = m->sh->name, *t = m->t->name, *user = m->c->spec->user;
    char gid_a[128], gid_b[128];
    snprintf(gid_a, sizeof gid_a, "gcctl_move_%s_old", s);
    snprintf(gid_b, sizeof gid_b, "gcctl_move_%s_new", s);
    /* B first, parent only: B's clients then stop sending work to A's shard,
     * so none of them holds B's lock while waiting for A's. */
    if (!exec_b(m, "BEGIN; SET LOCAL lock_timeout = '5s'") ||
        !exec_fmt(m, false, fmt("LOCK TABLE ONLY public.%s IN ACCESS EXCLUSIVE MODE", t)))
        goto busy;
    if (!exec_a(m, "BEGIN; SET LOCAL lock_timeout = '5s'") ||
        !exec_fmt(m, true, fmt("LOCK TABLE ONLY public.%s, public.%s IN ACCESS EXCLUSIVE MODE", t, s)))
        goto busy;
    long n;
    while ((n = refresh_batch(m)) > 0)
        ;
    if (n < 0)
        goto fail;
    char *ident_b = NULL;
    {
        gc_strbuf sb;
        gc_strbuf_init(&sb);
        gcctl_sb_ident(&sb, m->pb->group);
        ident_b = gcctl_sb_take(&sb);
    }
    bool ok =
        exec_fmt(m, false, fmt("ALTER TABLE public.%s DETACH PARTITION public.%s;"
                               "DROP FOREIGN TABLE public.%s;"
                               "ALTER TABLE gcluster_move.%s SET SCHEMA public;"
                               "ALTER TABLE public.%s ATTACH PARTITION public.%s %s;"
                               "GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON public.%s TO \"%s\";"
                               "ALTER TABLE public.%s OWNER TO \"%s\"",
                               t, s, s, s, t, s, m->bound, s, user, s, user)) &&
        exec_fmt(m, true, fmt("ALTER TABLE public.%s DETACH PARTITION public.%s;"
                              "DROP TRIGGER gcluster_move ON public.%s;"
                              "DROP TRIGGER gcluster_move_truncate ON public.%s;"
                              "CREATE SCHEMA IF NOT EXISTS gcluster_move;"
                              "DROP TABLE IF EXISTS gcluster_move.%s;"
                              "ALTER TABLE public.%s SET SCHEMA gcluster_move;"
                              "CREATE FOREIGN TABLE public.%s PARTITION OF public.%s %s SERVER %s"
                              " OPTIONS (schema_name 'public', table_name '%s');"
                              "GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON public.%s TO \"%s\";"
                              "ALTER FOREIGN TABLE public.%s OWNER TO \"%s\";%s",
                              t, s, s, s, s, s, s, t, m->bound, ident_b, s, s, user, s, user,
                              gcctl_refuse_remote_writes_sql));
    free(ident_b);
    if (!ok)
        goto fail;

    if (!exec_fmt(m, false, fmt("PREPARE TRANSACTION '%s'", gid_b)))
        goto fail;
    if (!exec_fmt(m, true, fmt("PREPARE TRANSACTION '%s'", gid_a))) {
        gc_error saved = *m->err;
        rollback_quietly(m->b, m->pb->name, gid_b);
        *m->err = saved;
        return -1;
    }
    if (!exec_fmt(m, false, fmt("COMMIT PREPARED '%s'", gid_b)) ||
        !exec_fmt(m, true, fmt("COMMIT PREPARED '%s'", gid_a))) {
        /* Only a crash between the two commits lands here: say exactly what
         * is left for the operator rather than guess. */
        char msg[256];
        snprintf(msg, sizeof msg, "%.250s", m->err->message);
        gc_error_set(m->err, "HY000", 0, "%s (finish with COMMIT PREPARED '%s' on %s and '%s' on %s)",
                     msg, gid_b, m->pb->name, gid_a, m->pa->name);
        return -1;
    }
    return 1;
busy:
fail:
    {
        /* Nothing is prepared yet: both sides roll back whole. A lock
         * timeout, or the server breaking a deadlock with the clients'
         * writes by cancelling us, is worth another try. */
        bool retry = strcmp(m->err->sqlstate, "55P03") == 0 ||
                     strcmp(m->err->sqlstate, "40P01") == 0;
        gc_error saved = *m->err;
        rollback_quietly(m->a, m->pa->name, NULL);
        rollback_quietly(m->b, m->pb->name, NULL);
        *m->err = saved;
        return retry ? 0 : -1;
    }
}

/* Step 5: every other group's foreign shard points at B. */
static bool repoint_others(move_ctx *m)
{
    const gcctl_spec *spec = m->c->spec;
    for (size_t g = 0; g < spec->groups.n; g++) {
        const char *group = spec->groups.items[g];
        if (strcmp(group, m->pa->group) == 0 || strcmp(group, m->pb->group) == 0)
            continue;
        const gcctl_member *p = gcctl_spec_primary(spec, group);
        PGconn *c = gcctl_connect(m->c->target, p, NULL, 10, m->err);
        if (!c)
            return false;
        const char *s = m->sh->name, *t = m->t->name;
        char *sql = fmt("BEGIN; SET LOCAL lock_timeout = '30s';"
                        "ALTER TABLE public.%s DETACH PARTITION public.%s;"
                        "DROP FOREIGN TABLE public.%s;"
                        "CREATE FOREIGN TABLE public.%s PARTITION OF public.%s %s SERVER \"%s\""
                        " OPTIONS (schema_name 'public', table_name '%s');"
                        "GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON public.%s TO \"%s\";"
                        "ALTER FOREIGN TABLE public.%s OWNER TO \"%s\";%s; COMMIT",
                        t, s, s, s, t, m->bound, m->pb->group, s, s, m->c->spec->user,
                        s, m->c->spec->user, gcctl_refuse_remote_writes_sql);
        /* One transaction; a deadlock with the clients' writes (which the
         * server breaks by cancelling us) or a lock timeout rolls it back
         * whole, so it is simply run again. */
        bool ok = false;
        for (int attempt = 0; attempt < SWITCH_ATTEMPTS && !ok; attempt++) {
            ok = gcctl_exec(c, p->name, sql, m->err);
            if (!ok) {
                gc_error ignored;
                gcctl_exec(c, p->name, "ROLLBACK", &ignored);
                if (strcmp(m->err->sqlstate, "40P01") != 0 &&
                    strcmp(m->err->sqlstate, "55P03") != 0)
                    break;
            }
        }
        free(sql);
        PQfinish(c);
        if (!ok)
            return false;
    }
    return true;
}

static char *join_idents(const gcctl_strlist *l, const char *prefix_a, const char *prefix_b)
{
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    for (size_t i = 0; i < l->n; i++) {
        if (prefix_a) {
            if (i) gc_strbuf_append_str(&sb, " AND ");
            gc_strbuf_append_str(&sb, prefix_a);
            gcctl_sb_ident(&sb, l->items[i]);
            gc_strbuf_append_str(&sb, " = ");
            gc_strbuf_append_str(&sb, prefix_b);
        } else if (i) {
            gc_strbuf_append_str(&sb, ", ");
        }
        gcctl_sb_ident(&sb, l->items[i]);
    }
    return gcctl_sb_take(&sb);
}

bool gcctl_move_shard(gcctl_cluster *c, const char *table, const char *shard, const char *to,
                      gc_error *err)
{
    gcctl_spec *spec = c->spec;
    gcctl_table *t = gcctl_spec_table(spec, table);
    if (!t || t->method == GCCTL_SOLO) {
        gc_error_set(err, "HY000", 0, "no sharded table %s in cluster %s", table, spec->cluster);
        return false;
    }
    gcctl_shard *sh = NULL;
    for (size_t i = 0; i < t->nshards; i++)
        if (strcmp(t->shards[i].name, shard) == 0)
            sh = &t->shards[i];
    if (!sh) {
        gc_error_set(err, "HY000", 0, "table %s has no shard %s", table, shard);
        return false;
    }
    if (!gcctl_spec_has_group(spec, to)) {
        gc_error_set(err, "HY000", 0, "no group %s in cluster %s", to, spec->cluster);
        return false;
    }
    if (strcmp(sh->group, to) == 0) {
        /* Moved already, perhaps by a run whose catalog update failed after
         * the switch (a primary died): the catalog follows, as apply does. */
        bool changed = false;
        if (!gcctl_apply_reachable(c->target, "move-shard", &changed, &c->pending, err))
            return false;
        printf("shard %s is already on group %s%s\n", shard, to, changed ? ": the catalog follows" : "");
        char what[200];
        snprintf(what, sizeof what, "shard %s is on group %s", shard, to);
        gcctl_report_pending(c, what);
        return true;
    }
    if (t->primary_key.n == 0) {
        gc_error_set(err, "HY000", 0, "move-shard identifies rows by primary key: table %s has none", table);
        return false;
    }
    move_ctx m = { .c = c, .t = t, .sh = sh, .err = err };
    m.pa = gcctl_spec_primary(spec, sh->group);
    m.pb = gcctl_spec_primary(spec, to);
    m.cols = join_idents(&t->column_names, NULL, NULL);
    m.pk_list = join_idents(&t->primary_key, NULL, NULL);
    m.pk_eq = join_idents(&t->primary_key, "x.", "r.");
    m.bound = gcctl_catalog_bound_sql(t, sh);
    bool ok = false, logging = false;
    m.a = gcctl_connect(c->target, m.pa, NULL, 10, err);
    m.b = m.a ? gcctl_connect(c->target, m.pb, NULL, 10, err) : NULL;
    if (!m.a || !m.b)
        goto done;
    if (!start_logging(&m))
        goto done;
    logging = true;
    if (!create_stage(&m) || !initial_copy(&m) || !catch_up(&m))
        goto done;
    int switched = 0;
    for (int attempt = 0; attempt < SWITCH_ATTEMPTS && switched == 0; attempt++) {
        switched = switch_over(&m);
        if (switched == 0 && !catch_up(&m))
            switched = -1;
    }
    if (switched == 0)
        gc_error_set(err, "HY000", 0, "could not lock %s on %s and %s for the switch (busy); nothing was moved",
                     table, m.pa->name, m.pb->name);
    if (switched != 1)
        goto done;
    logging = false;   /* the trigger went away with the old table */
    free(sh->group);
    sh->group = gcctl_xstrdup(to);
    /* The move is done on the servers, so the files say so first. A group
     * whose primary is down now (failing over, say) gets the catalog at the
     * next apply, as after promote; one that fails in the middle of it
     * makes move-shard fail, and running it again finishes the catalog
     * (above). */
    ok = gcctl_cluster_save(c, err) && repoint_others(&m) &&
         gcctl_apply_reachable(c->target, "move-shard", NULL, &c->pending, err);
    if (!ok) {
        char msg[300];
        snprintf(msg, sizeof msg, "%.290s", err->message);
        gc_error_set(err, "HY000", 0, "shard %s moved to group %s, but the catalog update failed: %s "
                     "(run move-shard again, or apply, once the group answers)", shard, to, msg);
    }
    if (ok) {
        char *sql = fmt("DROP TABLE IF EXISTS gcluster_move.%s; DELETE FROM gcluster.move_log WHERE shard = '%s'",
                        shard, shard);
        exec_a(&m, sql);   /* the old copy: cleanup only, the move is done */
        free(sql);
        gc_error_clear(err);
        char what[200];
        snprintf(what, sizeof what, "shard %s is on group %s", shard, to);
        gcctl_report_pending(c, what);
    }
done:
    if (logging) {
        stop_logging(&m);
        if (m.b) {
            gc_error saved = *err;
            char *sql = fmt("DROP TABLE IF EXISTS gcluster_move.%s", shard);
            exec_b(&m, sql);
            free(sql);
            *err = saved;
        }
    }
    PQfinish(m.a);
    PQfinish(m.b);
    free(m.cols);
    free(m.pk_list);
    free(m.pk_eq);
    free(m.bound);
    return ok;
}
