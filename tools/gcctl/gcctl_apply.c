/*
 * gcctl_apply: see gcctl_apply.h. Work per group runs in three passes over
 * all primaries, because a foreign solo table is imported from its owner and
 * so the owner's table must exist first:
 *   0. roles and database (connected to the postgres database)
 *   1. extensions, catalog schema, FDW servers, user mappings, local tables
 *   2. foreign tables, grants, catalog rows
 */
#include "gcctl_apply.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "gcctl_catalog.h"
#include "gcctl_sequences.h"

typedef struct relation {
    char *name;
    char kind;       /* 'r' table, 'p' partitioned, 'f' foreign */
    char *server;    /* foreign tables: the FDW server */
} relation;

typedef struct group_state {
    const char *group;
    const gcctl_member *primary;
    PGconn *conn;
    relation *rels;
    size_t nrels;
    bool unreached;      /* its primary did not answer: left out */
    long long version;   /* its catalog version after pass 2 */
} group_state;

typedef struct apply_ctx {
    const gcctl_target *t;
    const gcctl_spec *spec;
    bool changed;
    gc_error *err;
} apply_ctx;

typedef bool (*exec_fn)(PGconn *c, const char *who, const char *sql, gc_error *err);

/* Runs the built statement on g's primary with exec; marks the cluster changed. */
static bool run_with(apply_ctx *a, group_state *g, gc_strbuf *sb, exec_fn exec)
{
    char *sql = gcctl_sb_take(sb);
    bool ok = exec(g->conn, g->primary->name, sql, a->err);
    free(sql);
    a->changed = true;
    return ok;
}

static bool run(apply_ctx *a, group_state *g, gc_strbuf *sb)
{
    return run_with(a, g, sb, gcctl_exec);
}

/* As run, for a statement that carries a secret (gcctl_exec_secret). */
static bool run_secret(apply_ctx *a, group_state *g, gc_strbuf *sb)
{
    return run_with(a, g, sb, gcctl_exec_secret);
}

/* True when the query returns at least one row. */
static int exists(apply_ctx *a, group_state *g, const char *sql, const char *p1, const char *p2)
{
    const char *params[2] = { p1, p2 };
    PGresult *r = gcctl_query(g->conn, g->primary->name, sql, p2 ? 2 : 1, params, a->err);
    if (!r)
        return -1;
    int found = PQntuples(r) > 0;
    PQclear(r);
    return found;
}

/* Logging in over TCP tells whether the role already has this password;
 * checking that way keeps a second apply from rewriting the verifier. */
static bool password_works(const apply_ctx *a, const gcctl_member *m)
{
    char port[16];
    snprintf(port, sizeof port, "%d", m->port);
    const char *keys[] = { "host", "port", "dbname", "user", "password", "connect_timeout", NULL };
    const char *vals[] = { m->host, port, "postgres", a->spec->user, a->spec->password, "5", NULL };
    PGconn *c = PQconnectdbParams(keys, vals, 0);
    bool ok = c && PQstatus(c) == CONNECTION_OK;
    PQfinish(c);
    return ok;
}

/* Creates the application role, or gives it the spec's password. The
 * server gets a SCRAM verifier made here, never the password itself, so
 * that the statement in pg_stat_statements or a log gives the password
 * away to nobody; it runs unrecorded all the same (a verifier still lets an
 * attacker guess offline). */
static bool set_role_password(apply_ctx *a, group_state *g0, bool has_user)
{
    char *verifier = PQencryptPasswordConn(g0->conn, a->spec->password, a->spec->user, "scram-sha-256");
    if (!verifier) {
        gc_error_set(a->err, "HY000", 0, "%s: cannot make a SCRAM verifier for role %s: %s",
                     g0->primary->name, a->spec->user, PQerrorMessage(g0->conn));
        return false;
    }
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    gc_strbuf_append_str(&sb, has_user ? "ALTER ROLE " : "CREATE ROLE ");
    gcctl_sb_ident(&sb, a->spec->user);
    gc_strbuf_append_str(&sb, " LOGIN PASSWORD ");
    gcctl_sb_literal(&sb, verifier);
    PQfreemem(verifier);
    return run_secret(a, g0, &sb);
}

static bool pass0_roles_and_database(apply_ctx *a, group_state *g)
{
    PGconn *c = gcctl_connect(a->t, g->primary, "postgres", 10, a->err);
    if (!c)
        return false;
    group_state g0 = *g;
    g0.conn = c;
    gc_strbuf sb;
    bool ok = true;
    int has_user = exists(a, &g0, "SELECT 1 FROM pg_roles WHERE rolname = $1", a->spec->user, NULL);
    if (has_user < 0) {
        ok = false;
    } else if (!has_user || !password_works(a, g->primary)) {
        ok = set_role_password(a, &g0, has_user);
    }
    if (ok && a->spec->admin && strcmp(a->spec->admin, a->spec->user) != 0) {
        int has_admin = exists(a, &g0, "SELECT 1 FROM pg_roles WHERE rolname = $1", a->spec->admin, NULL);
        ok = has_admin >= 0;
        if (ok && !has_admin) {
            gc_strbuf_init(&sb);
            gc_strbuf_append_str(&sb, "CREATE ROLE ");
            gcctl_sb_ident(&sb, a->spec->admin);
            gc_strbuf_append_str(&sb, " NOLOGIN");
            ok = run(a, &g0, &sb);
        }
    }
    if (ok) {
        int has_db = exists(a, &g0, "SELECT 1 FROM pg_database WHERE datname = $1", a->spec->database, NULL);
        ok = has_db >= 0;
        if (ok && !has_db) {
            gc_strbuf_init(&sb);
            gc_strbuf_append_str(&sb, "CREATE DATABASE ");
            gcctl_sb_ident(&sb, a->spec->database);
            gc_strbuf_append_str(&sb, " OWNER ");
            gcctl_sb_ident(&sb, a->spec->user);
            ok = run(a, &g0, &sb);
        }
    }
    PQfinish(c);
    return ok;
}

/* Appends a statement making `user` the owner of every table, partitioned
 * table and foreign table in schema public that someone else owns. */
void gcctl_sql_own_public_tables(gc_strbuf *sb, const char *user)
{
    gc_strbuf_append_str(sb,
        "DO $own$ DECLARE r record; BEGIN\n"
        "  FOR r IN SELECT c.oid::regclass AS rel, c.relkind FROM pg_class c\n"
        "           JOIN pg_namespace n ON n.oid = c.relnamespace\n"
        "           WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'f')\n"
        "             AND pg_get_userbyid(c.relowner) <> ");
    gcctl_sb_literal(sb, user);
    gc_strbuf_append_str(sb,
        " LOOP\n"
        "    EXECUTE format('ALTER %s %s OWNER TO %I',\n"
        "                   CASE r.relkind WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END, r.rel, ");
    gcctl_sb_literal(sb, user);
    gc_strbuf_append_str(sb, ");\n  END LOOP;\nEND $own$");
}

/* The option list an FDW server for group h should have. */
static void server_options(const gcctl_spec *spec, const char *group, gc_strbuf *hosts, gc_strbuf *ports)
{
    for (size_t i = 0; i < spec->nmembers; i++) {
        const gcctl_member *m = &spec->members[i];
        if (strcmp(m->group, group) != 0)
            continue;
        if (hosts->len) {
            gc_strbuf_append_char(hosts, ',');
            gc_strbuf_append_char(ports, ',');
        }
        gc_strbuf_append_str(hosts, m->host);
        gc_strbuf_appendf(ports, "%d", m->port);
    }
}

/* Creates or corrects one object's options. kind_sql is "SERVER x" or
 * "USER MAPPING FOR u SERVER x"; current_sql lists its options as
 * (option_name, option_value); create_sql creates it (used when absent). */
static bool ensure_options(apply_ctx *a, group_state *g, const char *current_sql,
                           const char *p1, const char *p2, const char *alter_prefix,
                           const char *create_prefix, const char *const *keys,
                           const char *const *vals, size_t n)
{
    const char *params[2] = { p1, p2 };
    PGresult *r = gcctl_query(g->conn, g->primary->name, current_sql, p2 ? 2 : 1, params, a->err);
    if (!r)
        return false;
    bool present = PQntuples(r) > 0;
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    bool differs = false;
    for (size_t k = 0; k < n; k++) {
        const char *now = NULL;
        bool key_present = false;
        for (int row = 0; row < PQntuples(r); row++)
            if (!PQgetisnull(r, row, 0) && strcmp(PQgetvalue(r, row, 0), keys[k]) == 0) {
                key_present = true;
                now = PQgetvalue(r, row, 1);
            }
        if (present && key_present && strcmp(now, vals[k]) == 0)
            continue;
        differs = true;
        gc_strbuf_append_str(&sb, sb.len ? ", " : "");
        if (present)
            gc_strbuf_append_str(&sb, key_present ? "SET " : "ADD ");
        gc_strbuf_appendf(&sb, "%s ", keys[k]);
        gcctl_sb_literal(&sb, vals[k]);
    }
    PQclear(r);
    char *opts = gcctl_sb_take(&sb);
    bool ok = true;
    if (!present || differs) {
        gc_strbuf_init(&sb);
        gc_strbuf_appendf(&sb, "%s OPTIONS (%s)", present ? alter_prefix : create_prefix, opts);
        ok = run_secret(a, g, &sb);   /* a user mapping's options hold a password */
    }
    free(opts);
    return ok;
}

static bool ensure_fdw_server(apply_ctx *a, group_state *g, const char *other)
{
    gc_strbuf hosts, ports, sb;
    gc_strbuf_init(&hosts);
    gc_strbuf_init(&ports);
    server_options(a->spec, other, &hosts, &ports);
    char *h = gcctl_sb_take(&hosts), *p = gcctl_sb_take(&ports);
    const char *keys[] = { "host", "port", "dbname", "target_session_attrs" };
    const char *vals[] = { h, p, a->spec->database, "read-write" };

    gc_strbuf_init(&sb);
    gc_strbuf_append_str(&sb, "ALTER SERVER ");
    gcctl_sb_ident(&sb, other);
    char *alter = gcctl_sb_take(&sb);
    gc_strbuf_init(&sb);
    gc_strbuf_append_str(&sb, "CREATE SERVER ");
    gcctl_sb_ident(&sb, other);
    gc_strbuf_append_str(&sb, " FOREIGN DATA WRAPPER postgres_fdw");
    char *create = gcctl_sb_take(&sb);
    bool ok = ensure_options(a, g,
        "SELECT o.option_name, o.option_value FROM pg_foreign_server s "
        "LEFT JOIN LATERAL pg_options_to_table(s.srvoptions) o ON true WHERE s.srvname = $1",
        other, NULL, alter, create, keys, vals, 4);
    free(alter);
    free(create);

    /* The application role reaches the other group with its own password.
     * postgres_fdw hands it to libpq when it connects, so the mapping must
     * hold the password itself, not a verifier (PostgreSQL 15 has no other
     * way for a role that is not superuser); ensure_options keeps it out of
     * pg_stat_statements and the log. */
    const char *ukeys[] = { "user", "password" };
    const char *uvals[] = { a->spec->user, a->spec->password };
    gc_strbuf_init(&sb);
    gc_strbuf_append_str(&sb, "ALTER USER MAPPING FOR ");
    gcctl_sb_ident(&sb, a->spec->user);
    gc_strbuf_append_str(&sb, " SERVER ");
    gcctl_sb_ident(&sb, other);
    alter = gcctl_sb_take(&sb);
    gc_strbuf_init(&sb);
    gc_strbuf_append_str(&sb, "CREATE USER MAPPING FOR ");
    gcctl_sb_ident(&sb, a->spec->user);
    gc_strbuf_append_str(&sb, " SERVER ");
    gcctl_sb_ident(&sb, other);
    create = gcctl_sb_take(&sb);
    ok = ok && ensure_options(a, g,
        "SELECT o.option_name, o.option_value FROM pg_user_mappings m "
        "LEFT JOIN LATERAL pg_options_to_table(m.umoptions) o ON true "
        "WHERE m.srvname = $1 AND m.usename = $2",
        other, a->spec->user, alter, create, ukeys, uvals, 2);
    free(alter);
    free(create);
    free(h);
    free(p);
    /* Lets the application role import solo tables (no change when held). */
    gc_strbuf_init(&sb);
    gc_strbuf_append_str(&sb, "GRANT USAGE ON FOREIGN SERVER ");
    gcctl_sb_ident(&sb, other);
    gc_strbuf_append_str(&sb, " TO ");
    gcctl_sb_ident(&sb, a->spec->user);
    char *grant = gcctl_sb_take(&sb);
    ok = ok && gcctl_exec(g->conn, g->primary->name, grant, a->err);
    free(grant);
    return ok;
}
static bool load_relations(apply_ctx *a, group_state *g)
{
    PGresult *r = gcctl_query(g->conn, g->primary->name,
        "SELECT c.relname, c.relkind, fs.srvname FROM pg_class c "
        "JOIN pg_namespace n ON n.oid = c.relnamespace "
        "LEFT JOIN pg_foreign_table ft ON ft.ftrelid = c.oid "
        "LEFT JOIN pg_foreign_server fs ON fs.oid = ft.ftserver "
        "WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'f')", 0, NULL, a->err);
    if (!r)
        return false;
    for (size_t i = 0; i < g->nrels; i++) {
        free(g->rels[i].name);
        free(g->rels[i].server);
    }
    free(g->rels);
    g->nrels = (size_t)PQntuples(r);
    g->rels = gcctl_xcalloc(g->nrels, sizeof *g->rels);
    for (size_t i = 0; i < g->nrels; i++) {
        g->rels[i].name = gcctl_xstrdup(PQgetvalue(r, (int)i, 0));
        g->rels[i].kind = PQgetvalue(r, (int)i, 1)[0];
        if (!PQgetisnull(r, (int)i, 2))
            g->rels[i].server = gcctl_xstrdup(PQgetvalue(r, (int)i, 2));
    }
    PQclear(r);
    return true;
}

static const relation *find_rel(const group_state *g, const char *name)
{
    for (size_t i = 0; i < g->nrels; i++)
        if (strcmp(g->rels[i].name, name) == 0)
            return &g->rels[i];
    return NULL;
}

/* Refuses to touch a relation that exists with the wrong placement: moving
 * data is move-shard's job, never apply's. Returns 1 when it must be
 * created, 0 when it is already right, -1 on a conflict. */
static int check_placement(apply_ctx *a, const group_state *g, const char *name, const char *owner)
{
    const relation *rel = find_rel(g, name);
    if (!rel)
        return 1;
    bool local = strcmp(owner, g->group) == 0;
    if (local && rel->kind == 'r')
        return 0;
    if (!local && rel->kind == 'f' && rel->server && strcmp(rel->server, owner) == 0)
        return 0;
    gc_error_set(a->err, "HY000", 0,
                 "%s: %s exists as %s but the spec places it on group %s (use move-shard to move data)",
                 g->primary->name, name,
                 rel->kind == 'f' ? "a foreign table" : rel->kind == 'p' ? "a partitioned table" : "a local table",
                 owner);
    return -1;
}

static void append_columns(gc_strbuf *sb, const gcctl_table *t)
{
    for (size_t i = 0; i < t->columns.n; i++) {
        if (i) gc_strbuf_append_str(sb, ", ");
        gc_strbuf_append_str(sb, t->columns.items[i]);
    }
}

static void append_idents(gc_strbuf *sb, const gcctl_strlist *l)
{
    for (size_t i = 0; i < l->n; i++) {
        if (i) gc_strbuf_append_str(sb, ", ");
        gcctl_sb_ident(sb, l->items[i]);
    }
}

/* ", PRIMARY KEY (...), UNIQUE (...)" (lead is the separator before the first). */
static void append_constraints(gc_strbuf *sb, const gcctl_table *t, const char *lead)
{
    if (t->primary_key.n) {
        gc_strbuf_appendf(sb, "%sPRIMARY KEY (", lead);
        append_idents(sb, &t->primary_key);
        gc_strbuf_append_char(sb, ')');
        lead = ", ";
    }
    for (size_t u = 0; u < t->nuniques; u++) {
        gc_strbuf_appendf(sb, "%sUNIQUE (", lead);
        append_idents(sb, &t->uniques[u]);
        gc_strbuf_append_char(sb, ')');
        lead = ", ";
    }
}

static bool pass1_local_objects(apply_ctx *a, group_state *g)
{
    gc_strbuf sb;
    if (!gcctl_exec(g->conn, g->primary->name,
                    "CREATE EXTENSION IF NOT EXISTS pg_stat_statements;"
                    "CREATE EXTENSION IF NOT EXISTS postgres_fdw", a->err))
        return false;
    if (!gcctl_catalog_install(g->conn, a->spec, g->primary->name, a->err))
        return false;
    for (size_t h = 0; h < a->spec->groups.n; h++)
        if (strcmp(a->spec->groups.items[h], g->group) != 0 &&
            !ensure_fdw_server(a, g, a->spec->groups.items[h]))
            return false;
    if (!load_relations(a, g))
        return false;
    for (size_t i = 0; i < a->spec->ntables; i++) {
        const gcctl_table *t = &a->spec->tables[i];
        if (t->method == GCCTL_SOLO) {
            int need = check_placement(a, g, t->name, t->group);
            if (need < 0)
                return false;
            if (need && strcmp(t->group, g->group) == 0) {
                gc_strbuf_init(&sb);
                gc_strbuf_appendf(&sb, "CREATE TABLE public.%s (", t->name);
                append_columns(&sb, t);
                append_constraints(&sb, t, ", ");
                gc_strbuf_append_char(&sb, ')');
                if (!run(a, g, &sb))
                    return false;
            }
            continue;
        }
        const relation *parent = find_rel(g, t->name);
        if (parent && parent->kind != 'p') {
            gc_error_set(a->err, "HY000", 0, "%s: %s exists but is not a partitioned table",
                         g->primary->name, t->name);
            return false;
        }
        if (!parent) {
            gc_strbuf_init(&sb);
            gc_strbuf_appendf(&sb, "CREATE TABLE public.%s (", t->name);
            append_columns(&sb, t);
            gc_strbuf_appendf(&sb, ") PARTITION BY %s (",
                              t->method == GCCTL_HASH ? "HASH" : t->method == GCCTL_RANGE ? "RANGE" : "LIST");
            append_idents(&sb, &t->key);
            gc_strbuf_append_char(&sb, ')');
            if (!run(a, g, &sb))
                return false;
        }
        for (size_t s = 0; s < t->nshards; s++) {
            const gcctl_shard *sh = &t->shards[s];
            int need = check_placement(a, g, sh->name, sh->group);
            if (need < 0)
                return false;
            if (!need || strcmp(sh->group, g->group) != 0)
                continue;
            char *bound = gcctl_catalog_bound_sql(t, sh);
            gc_strbuf_init(&sb);
            gc_strbuf_appendf(&sb, "CREATE TABLE public.%s PARTITION OF public.%s", sh->name, t->name);
            if (t->primary_key.n || t->nuniques) {
                append_constraints(&sb, t, " (");
                gc_strbuf_append_char(&sb, ')');
            }
            gc_strbuf_appendf(&sb, " %s", bound);
            free(bound);
            if (!run(a, g, &sb))
                return false;
        }
    }
    return true;
}

static bool pass2_foreign_objects(apply_ctx *a, group_state *g)
{
    gc_strbuf sb;
    for (size_t i = 0; i < a->spec->ntables; i++) {
        const gcctl_table *t = &a->spec->tables[i];
        if (t->method == GCCTL_SOLO) {
            if (strcmp(t->group, g->group) == 0 || find_rel(g, t->name))
                continue;
            /* Imported as the application role: reading the owner's
             * definition needs a user mapping, and that role has one. */
            gc_strbuf_init(&sb);
            gc_strbuf_append_str(&sb, "SET ROLE ");
            gcctl_sb_ident(&sb, a->spec->user);
            gc_strbuf_appendf(&sb, "; IMPORT FOREIGN SCHEMA public LIMIT TO (%s) FROM SERVER ", t->name);
            gcctl_sb_ident(&sb, t->group);
            gc_strbuf_append_str(&sb, " INTO public OPTIONS (import_default 'true'); RESET ROLE");
            if (!run(a, g, &sb))
                return false;
            continue;
        }
        for (size_t s = 0; s < t->nshards; s++) {
            const gcctl_shard *sh = &t->shards[s];
            if (strcmp(sh->group, g->group) == 0 || find_rel(g, sh->name))
                continue;
            char *bound = gcctl_catalog_bound_sql(t, sh);
            gc_strbuf_init(&sb);
            gc_strbuf_appendf(&sb, "CREATE FOREIGN TABLE public.%s PARTITION OF public.%s %s SERVER ",
                              sh->name, t->name, bound);
            gcctl_sb_ident(&sb, sh->group);
            gc_strbuf_appendf(&sb, " OPTIONS (schema_name 'public', table_name '%s')", sh->name);
            free(bound);
            if (!run(a, g, &sb))
                return false;
        }
    }
    /* GRANT of privileges already held changes nothing, so no bump for it.
     * The application role owns the cluster tables, so DDL through a global
     * connection (CREATE INDEX, ALTER TABLE) works as it would on one
     * server; the loop only touches tables owned by someone else. */
    gc_strbuf_init(&sb);
    gc_strbuf_append_str(&sb, "GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON ALL TABLES IN SCHEMA public TO ");
    gcctl_sb_ident(&sb, a->spec->user);
    gc_strbuf_append_str(&sb, ";\n");
    gcctl_sql_own_public_tables(&sb, a->spec->user);
    char *sql = gcctl_sb_take(&sb);
    bool ok = gcctl_exec(g->conn, g->primary->name, sql, a->err);
    free(sql);
    bool catalog_changed = false;
    ok = ok && gcctl_catalog_sync(g->conn, a->spec, g->group, g->primary->name, &catalog_changed, a->err);
    /* After the sync: the trigger goes on foreign tables of the servers
     * gcluster.groups names. */
    ok = ok && gcctl_exec(g->conn, g->primary->name, gcctl_refuse_remote_writes_sql, a->err);
    if (catalog_changed)
        a->changed = true;
    char *v = ok ? gcctl_query_value(g->conn, g->primary->name, "SELECT version FROM gcluster.version",
                                     a->err) : NULL;
    ok = v != NULL;
    g->version = ok ? atoll(v) : -1;
    free(v);
    return ok;
}

/* Whether the groups applied hold different catalog versions: one missed
 * a raise while it was down, and a raise now brings all to the highest. */
/* Sequences of sharded tables need every group's copy at once (the
 * highest value handed out anywhere), so an apply that left a group out
 * leaves them to the next. */
static bool interleave_sequences(apply_ctx *a, const group_state *gs)
{
    size_t n = a->spec->groups.n;
    gcctl_sequence_group *groups = gcctl_xcalloc(n, sizeof *groups);
    for (size_t i = 0; i < n; i++)
        groups[i] = (gcctl_sequence_group){ .conn = gs[i].conn, .who = gs[i].primary->name };
    bool ok = gcctl_sequences_interleave(a->spec, groups, n, &a->changed, a->err);
    free(groups);
    return ok;
}

static bool versions_differ(const group_state *gs, size_t n)
{
    long long first = -1;
    for (size_t i = 0; i < n; i++) {
        if (gs[i].unreached)
            continue;
        if (first >= 0 && gs[i].version != first)
            return true;
        first = gs[i].version;
    }
    return false;
}

bool gcctl_apply(const gcctl_target *t, const char *reason, bool *changed, gc_error *err)
{
    return gcctl_apply_reachable(t, reason, changed, NULL, err);
}

/* Holds t's apply lock (a local cluster's) until unlock_apply: two
 * applies at once (a command and the supervisor following the monitor)
 * would both create what is missing. -1 when there is none to hold. */
static int lock_apply(const gcctl_target *t)
{
    if (t->apply_lock == NULL)
        return -1;
    int fd = open(t->apply_lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd >= 0)
        while (flock(fd, LOCK_EX) != 0 && errno == EINTR)
            ;
    return fd;
}

static void unlock_apply(int fd)
{
    if (fd >= 0)
        close(fd);   /* releases the lock */
}

static bool apply_locked(const gcctl_target *t, const char *reason, bool *changed,
                         gcctl_strlist *unreached, gc_error *err);

bool gcctl_apply_reachable(const gcctl_target *t, const char *reason, bool *changed,
                           gcctl_strlist *unreached, gc_error *err)
{
    int lock = lock_apply(t);
    bool ok = apply_locked(t, reason, changed, unreached, err);
    unlock_apply(lock);
    return ok;
}

static bool apply_locked(const gcctl_target *t, const char *reason, bool *changed,
                         gcctl_strlist *unreached, gc_error *err)
{
    const gcctl_spec *spec = t->spec;
    apply_ctx a = { .t = t, .spec = spec, .err = err };
    group_state *gs = gcctl_xcalloc(spec->groups.n, sizeof *gs);
    bool ok = true;
    size_t reached = 0;
    for (size_t i = 0; i < spec->groups.n && ok; i++) {
        gs[i].group = spec->groups.items[i];
        gs[i].primary = gcctl_spec_primary(spec, gs[i].group);
        assert(gs[i].primary != NULL);
        if (unreached) {
            gc_error cerr;
            PGconn *probe = gcctl_connect(t, gs[i].primary, "postgres", 5, &cerr);
            gs[i].unreached = probe == NULL;
            PQfinish(probe);
            if (gs[i].unreached) {
                fprintf(stderr, "gcctl: warning: group %s left out: %s\n", gs[i].group, cerr.message);
                gcctl_strlist_push(unreached, gs[i].group);
                continue;
            }
        }
        reached++;
        ok = pass0_roles_and_database(&a, &gs[i]);
        if (ok) {
            gs[i].conn = gcctl_connect(t, gs[i].primary, NULL, 10, err);
            ok = gs[i].conn != NULL;
        }
    }
    if (ok && reached == 0) {
        gc_error_set(err, "HY000", 0, "no group's primary answered: nothing applied");
        ok = false;
    }
    for (size_t i = 0; i < spec->groups.n && ok; i++)
        ok = gs[i].unreached || pass1_local_objects(&a, &gs[i]);
    for (size_t i = 0; i < spec->groups.n && ok; i++)
        ok = gs[i].unreached || pass2_foreign_objects(&a, &gs[i]);
    if (ok && reached == spec->groups.n)
        ok = interleave_sequences(&a, gs);
    if (ok && !a.changed && versions_differ(gs, spec->groups.n))
        a.changed = true;
    for (size_t i = 0; i < spec->groups.n; i++) {
        PQfinish(gs[i].conn);
        for (size_t r = 0; r < gs[i].nrels; r++) {
            free(gs[i].rels[r].name);
            free(gs[i].rels[r].server);
        }
        free(gs[i].rels);
    }
    free(gs);
    if (ok && a.changed)
        ok = gcctl_catalog_bump_all(t, reason, unreached, err) > 0;
    if (changed)
        *changed = a.changed;
    return ok;
}
