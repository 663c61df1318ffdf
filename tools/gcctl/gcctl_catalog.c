/*
 * gcctl_catalog: see gcctl_catalog.h and docs/cluster.md ("The gcluster
 * catalog") for what each table means.
 */
#include "gcctl_catalog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char catalog_ddl[] =
    "CREATE SCHEMA IF NOT EXISTS gcluster;\n"
    "CREATE TABLE IF NOT EXISTS gcluster.cluster (\n"
    "  one_row boolean PRIMARY KEY DEFAULT true CHECK (one_row),\n"
    "  name text NOT NULL, database text NOT NULL, local_group text NOT NULL);\n"
    "CREATE TABLE IF NOT EXISTS gcluster.version (\n"
    "  one_row boolean PRIMARY KEY DEFAULT true CHECK (one_row),\n"
    "  version bigint NOT NULL, changed_at timestamptz NOT NULL DEFAULT now(), reason text);\n"
    "INSERT INTO gcluster.version (version, reason) VALUES (1, 'created')\n"
    "  ON CONFLICT (one_row) DO NOTHING;\n"
    "CREATE TABLE IF NOT EXISTS gcluster.groups (\n"
    "  name text PRIMARY KEY, position int NOT NULL, fdw_server name NOT NULL UNIQUE);\n"
    "CREATE TABLE IF NOT EXISTS gcluster.members (\n"
    "  name text PRIMARY KEY,\n"
    "  group_name text NOT NULL REFERENCES gcluster.groups ON UPDATE CASCADE ON DELETE CASCADE,\n"
    "  position int NOT NULL, host text NOT NULL, port int NOT NULL,\n"
    "  role text NOT NULL CHECK (role IN ('primary', 'standby')));\n"
    "CREATE TABLE IF NOT EXISTS gcluster.tables (\n"
    "  name text PRIMARY KEY,\n"
    "  method text NOT NULL CHECK (method IN ('hash', 'range', 'list', 'solo')),\n"
    "  key text[] NOT NULL,\n"
    "  owner_group text REFERENCES gcluster.groups ON DELETE CASCADE);\n"
    "CREATE TABLE IF NOT EXISTS gcluster.shards (\n"
    "  name text PRIMARY KEY,\n"
    "  table_name text NOT NULL REFERENCES gcluster.tables ON DELETE CASCADE,\n"
    "  position int NOT NULL,\n"
    "  group_name text NOT NULL REFERENCES gcluster.groups ON DELETE CASCADE,\n"
    "  bound text NOT NULL);\n"
    "CREATE OR REPLACE FUNCTION gcluster.bump_version(reason text DEFAULT NULL, at_least bigint DEFAULT 0)\n"
    "RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER\n"
    "SET search_path = pg_catalog, pg_temp AS $fn$\n"
    "DECLARE v bigint;\n"
    "BEGIN\n"
    "  UPDATE gcluster.version\n"
    "     SET version = greatest(version + 1, at_least), changed_at = now(),\n"
    "         reason = bump_version.reason\n"
    "  RETURNING version INTO v;\n"
    "  PERFORM pg_notify('gcluster', v::text);\n"
    "  RETURN v;\n"
    "END $fn$;\n"
    "REVOKE ALL ON FUNCTION gcluster.bump_version(text, bigint) FROM PUBLIC;\n"
    /* Who made a row: 'spec' (gcctl, from the spec; apply rewrites these) or
     * 'ddl' (a driver's CREATE TABLE; apply leaves these alone). */
    "ALTER TABLE gcluster.tables ADD COLUMN IF NOT EXISTS origin text NOT NULL DEFAULT 'spec'\n"
    "  CHECK (origin IN ('spec', 'ddl'));\n"
    /* The schema of a driver-made row's table, so that a table outside the
     * search_path is found; NULL for the spec's tables (in public, found by
     * the search_path) and for rows older drivers made. */
    "ALTER TABLE gcluster.tables ADD COLUMN IF NOT EXISTS schema_name text;\n"
    /* The driver registers a solo table made by CREATE TABLE (or a
     * materialized view made by CREATE MATERIALIZED VIEW: 'm' on its owner)
     * inside the DDL's own transaction on every group, so the row is there
     * exactly when the table is. The application role may not write the
     * catalog: these two functions are its only way in, and only for a
     * table it owns. */
    "CREATE OR REPLACE FUNCTION gcluster.register_solo_table(tbl regclass, owner_group text)\n"
    "RETURNS void LANGUAGE plpgsql STRICT SECURITY DEFINER\n"
    "SET search_path = pg_catalog, pg_temp AS $fn$\n"
    "DECLARE rel name; nsp name; old_origin text; old_schema text;\n"
    "BEGIN\n"
    "  SELECT c.relname, n.nspname INTO rel, nsp FROM pg_class c\n"
    "    JOIN pg_namespace n ON n.oid = c.relnamespace\n"
    "   WHERE c.oid = tbl AND c.relkind IN ('r', 'f', 'm') AND pg_has_role(session_user, c.relowner, 'USAGE');\n"
    "  IF rel IS NULL THEN\n"
    "    RAISE EXCEPTION 'only the owner of a table may register it as a solo table'\n"
    "      USING ERRCODE = '42501';\n"
    "  END IF;\n"
    "  SELECT t.origin, t.schema_name INTO old_origin, old_schema FROM gcluster.tables t\n"
    "   WHERE t.name = rel;\n"
    "  IF old_origin = 'spec' THEN\n"
    "    RAISE EXCEPTION 'table % is in the cluster spec already', rel USING ERRCODE = '42P07';\n"
    "  END IF;\n"
    /* One row per name: a second solo object of the name in another schema
     * would take the first one's row. */
    "  IF old_origin = 'ddl' AND coalesce(old_schema, nsp) <> nsp THEN\n"
    "    RAISE EXCEPTION 'a solo table named % exists in schema % already: the cluster catalog '\n"
    "      'holds one solo table or materialized view per name', rel, old_schema\n"
    "      USING ERRCODE = '42P07';\n"
    "  END IF;\n"
    "  INSERT INTO gcluster.tables (name, method, key, owner_group, origin, schema_name)\n"
    "  VALUES (rel, 'solo', '{}', register_solo_table.owner_group, 'ddl', nsp)\n"
    "  ON CONFLICT (name) DO UPDATE SET owner_group = excluded.owner_group,\n"
    "    schema_name = excluded.schema_name;\n"
    "END $fn$;\n"
    "CREATE OR REPLACE FUNCTION gcluster.unregister_solo_table(tbl regclass)\n"
    "RETURNS void LANGUAGE plpgsql STRICT SECURITY DEFINER\n"
    "SET search_path = pg_catalog, pg_temp AS $fn$\n"
    "BEGIN\n"
    "  DELETE FROM gcluster.tables t USING pg_class c, pg_namespace n\n"
    "   WHERE c.oid = tbl AND pg_has_role(session_user, c.relowner, 'USAGE')\n"
    "     AND n.oid = c.relnamespace AND t.name = c.relname AND t.origin = 'ddl'\n"
    "     AND (t.schema_name IS NULL OR t.schema_name = n.nspname);\n"
    "END $fn$;\n"
    "REVOKE ALL ON FUNCTION gcluster.register_solo_table(regclass, text) FROM PUBLIC;\n"
    "REVOKE ALL ON FUNCTION gcluster.unregister_solo_table(regclass) FROM PUBLIC;\n"
    /* The commit decision of a transaction that spans groups (docs/transactions
     * across groups in docs/global-connection.md): its coordinator writes
     * `true` inside its own transaction, just before its COMMIT; whoever
     * resolves a prepared transaction later writes `false`, which waits for
     * the coordinator's transaction to end (unique key) and loses to its
     * `true` when that committed. The first decision written stands. */
    "CREATE TABLE IF NOT EXISTS gcluster.commit_decisions (\n"
    "  gid text PRIMARY KEY, committed boolean NOT NULL,\n"
    "  decided_at timestamptz NOT NULL DEFAULT now());\n"
    "CREATE OR REPLACE FUNCTION gcluster.decide_commit(gid text, committed boolean)\n"
    "RETURNS boolean LANGUAGE plpgsql STRICT SECURITY DEFINER\n"
    "SET search_path = pg_catalog, pg_temp AS $fn$\n"
    "DECLARE d boolean; want boolean := decide_commit.committed;\n"
    "BEGIN\n"
    /* A coordinator that comes to commit more than 30 minutes after it
     * named its transaction (the gid's time) is told to roll back: the
     * "roll back" decisions resolvers wrote are deleted after an hour, and
     * must not be taken back by a late "commit". */
    "  IF want AND split_part(decide_commit.gid, ':', 3) ~ '^[0-9]+\\.[0-9]+$'\n"
    "     AND to_timestamp(split_part(decide_commit.gid, ':', 3)::float8)\n"
    "         < now() - interval '30 minutes' THEN\n"
    "    want := false;\n"
    "  END IF;\n"
    "  INSERT INTO gcluster.commit_decisions AS x (gid, committed)\n"
    "  VALUES (decide_commit.gid, want)\n"
    "  ON CONFLICT ON CONSTRAINT commit_decisions_pkey DO NOTHING;\n"
    "  SELECT x.committed INTO d FROM gcluster.commit_decisions x WHERE x.gid = decide_commit.gid;\n"
    "  RETURN d;\n"
    "END $fn$;\n"
    "CREATE OR REPLACE FUNCTION gcluster.forget_commit_decision(gid text)\n"
    "RETURNS void LANGUAGE sql STRICT SECURITY DEFINER\n"
    "SET search_path = pg_catalog, pg_temp AS $fn$\n"
    "  DELETE FROM gcluster.commit_decisions x WHERE x.gid = forget_commit_decision.gid;\n"
    "$fn$;\n"
    /* A write through postgres_fdw reaches another group outside the
     * two-phase commit of a global connection (docs/global-connection.md,
     * "Writes through postgres_fdw"). The row trigger on every foreign
     * table of a group's server (guard_foreign_tables) refuses, with the
     * cluster's own SQLSTATE GCF01: in a transaction the driver began
     * (gcodbc.global_transaction = on, SET LOCAL with its BEGIN), every
     * such write; in an autocommit statement the driver cannot prove to be
     * one plain write of one table (the same setting = statement, sent
     * before it), every such write too; in any other autocommit statement
     * of a global connection's session (gcodbc.global_connection, its
     * startup option: a plain write whose rows are in one group), one to
     * a second group (the first one's server is kept in
     * gcodbc.remote_write_server for the transaction), or one after the
     * statement wrote rows on its own member (a trigger of its table
     * writing another group: the local transaction has an id, and a table
     * it holds ROW EXCLUSIVE on counts written rows; an id from nextval
     * alone, WAL-logged every 32 values, counts none). The lock matters:
     * PostgreSQL 15's transaction statistics still hold the counts of the
     * session's earlier transactions until it flushes them, up to a second
     * later, and those tables are not locked now. Other sessions
     * (psql, gcctl, a general connection) write through as before.
     * TG_ARGV[0] is the foreign table's server. */
    "CREATE OR REPLACE FUNCTION gcluster.refuse_remote_write()\n"
    "RETURNS trigger LANGUAGE plpgsql AS $fn$\n"
    "DECLARE\n"
    "  earlier text;\n"
    "  why text;\n"
    "BEGIN\n"
    "  IF pg_catalog.current_setting('gcodbc.global_transaction', true) = 'on' THEN\n"
    "    why := 'in a transaction of a global connection';\n"
    "  ELSIF pg_catalog.current_setting('gcodbc.global_transaction', true) = 'statement' THEN\n"
    "    why := 'in an autocommit statement that is not one plain write of one table';\n"
    "  ELSIF pg_catalog.current_setting('gcodbc.global_connection', true) = 'on' THEN\n"
    "    earlier := pg_catalog.current_setting('gcodbc.remote_write_server', true);\n"
    "    IF earlier IS NULL OR earlier = '' THEN\n"
    "      PERFORM pg_catalog.set_config('gcodbc.remote_write_server', TG_ARGV[0], true);\n"
    "    ELSIF earlier <> TG_ARGV[0] THEN\n"
    "      why := pg_catalog.format('in an autocommit statement that wrote group %s '\n"
    "             'through postgres_fdw too', coalesce((SELECT g.name FROM gcluster.groups g\n"
    "             WHERE g.fdw_server = earlier), earlier));\n"
    "    END IF;\n"
    "    IF why IS NULL AND pg_catalog.pg_current_xact_id_if_assigned() IS NOT NULL\n"
    "       AND EXISTS (SELECT 1 FROM pg_catalog.pg_stat_xact_all_tables x\n"
    "                   JOIN pg_catalog.pg_locks l ON l.relation = x.relid\n"
    "                   WHERE x.n_tup_ins + x.n_tup_upd + x.n_tup_del > 0\n"
    "                     AND l.locktype = 'relation' AND l.mode = 'RowExclusiveLock'\n"
    "                     AND l.pid = pg_catalog.pg_backend_pid()) THEN\n"
    "      why := 'in an autocommit statement that wrote on its own member first';\n"
    "    END IF;\n"
    "  END IF;\n"
    "  IF why IS NOT NULL THEN\n"
    "    RAISE EXCEPTION USING ERRCODE = 'GCF01', MESSAGE = pg_catalog.format(\n"
    "      'a write through postgres_fdw to %s of group %s, %s, cannot commit atomically: '\n"
    "      'write each group''s rows by their sharding key from the application (the '\n"
    "      'driver then writes them on their own group, with two-phase commit across '\n"
    "      'groups)', TG_TABLE_NAME, coalesce((SELECT g.name FROM gcluster.groups g\n"
    "      WHERE g.fdw_server = TG_ARGV[0]), TG_ARGV[0]), why),\n"
    "      HINT = 'see \"Writes through postgres_fdw\" in docs/global-connection.md';\n"
    "  END IF;\n"
    "  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;\n"
    "  RETURN NEW;\n"
    "END $fn$;\n"
    /* Gives every foreign table of a group's server that lacks it (or
     * only_table) the trigger above; idempotent. A foreign table dropped
     * and made again loses its trigger, so every place that makes one
     * calls this: gcctl apply and move-shard, the driver's cluster DDL
     * for a solo table's foreign twins. Run as the caller, who must own
     * the tables. Returns how many it gave the trigger. */
    "CREATE OR REPLACE FUNCTION gcluster.guard_foreign_tables(only_table regclass DEFAULT NULL)\n"
    "RETURNS integer LANGUAGE plpgsql\n"
    "SET search_path = pg_catalog, pg_temp AS $fn$\n"
    "DECLARE r record; n integer := 0;\n"
    "BEGIN\n"
    "  FOR r IN SELECT f.ftrelid::regclass AS rel, s.srvname FROM pg_foreign_table f\n"
    "           JOIN pg_foreign_server s ON s.oid = f.ftserver\n"
    "           WHERE s.srvname IN (SELECT g.fdw_server FROM gcluster.groups g)\n"
    "             AND (only_table IS NULL OR f.ftrelid = only_table)\n"
    "             AND NOT EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgrelid = f.ftrelid\n"
    "                             AND t.tgname = 'gcluster_refuse_remote_write')\n"
    "  LOOP\n"
    "    EXECUTE format('CREATE TRIGGER gcluster_refuse_remote_write BEFORE INSERT OR UPDATE '\n"
    "                   'OR DELETE ON %s FOR EACH ROW EXECUTE FUNCTION '\n"
    "                   'gcluster.refuse_remote_write(%L)', r.rel, r.srvname);\n"
    "    n := n + 1;\n"
    "  END LOOP;\n"
    "  RETURN n;\n"
    "END $fn$;\n"
    "REVOKE ALL ON FUNCTION gcluster.decide_commit(text, boolean) FROM PUBLIC;\n"
    "REVOKE ALL ON FUNCTION gcluster.forget_commit_decision(text) FROM PUBLIC;\n";

/* One text for the whole catalog content, so that a sync can tell whether it
 * changed anything. */
static const char fingerprint_sql[] =
    "SELECT md5(concat_ws('|',"
    " (SELECT array_agg(x ORDER BY x.name)::text FROM gcluster.cluster x),"
    " (SELECT array_agg(x ORDER BY x.name)::text FROM gcluster.groups x),"
    " (SELECT array_agg(x ORDER BY x.name)::text FROM gcluster.members x),"
    " (SELECT array_agg(x ORDER BY x.name)::text FROM gcluster.tables x),"
    " (SELECT array_agg(x ORDER BY x.name)::text FROM gcluster.shards x)))";

bool gcctl_catalog_install(PGconn *c, const gcctl_spec *spec, const char *who, gc_error *err)
{
    if (!gcctl_exec(c, who, catalog_ddl, err))
        return false;
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    const char *admin = spec->admin ? spec->admin : spec->user;
    gc_strbuf_append_str(&sb, "GRANT USAGE ON SCHEMA gcluster TO ");
    gcctl_sb_ident(&sb, spec->user);
    gc_strbuf_append_str(&sb, ", ");
    gcctl_sb_ident(&sb, admin);
    gc_strbuf_append_str(&sb, ";\nGRANT SELECT ON ALL TABLES IN SCHEMA gcluster TO ");
    gcctl_sb_ident(&sb, spec->user);
    gc_strbuf_append_str(&sb, ", ");
    gcctl_sb_ident(&sb, admin);
    gc_strbuf_append_str(&sb, ";\nGRANT EXECUTE ON FUNCTION gcluster.bump_version(text, bigint) TO ");
    gcctl_sb_ident(&sb, admin);
    gc_strbuf_append_str(&sb, ";\nGRANT EXECUTE ON FUNCTION gcluster.register_solo_table(regclass, text),"
                              " gcluster.unregister_solo_table(regclass),"
                              " gcluster.decide_commit(text, boolean),"
                              " gcluster.forget_commit_decision(text),"
                              " gcluster.guard_foreign_tables(regclass) TO ");
    gcctl_sb_ident(&sb, spec->user);
    gc_strbuf_append_str(&sb, ";\n");
    char *sql = gcctl_sb_take(&sb);
    bool ok = gcctl_exec(c, who, sql, err);
    free(sql);
    return ok;
}

const char gcctl_refuse_remote_writes_sql[] =
    "DO $guard$ BEGIN\n"
    "  IF to_regprocedure('gcluster.guard_foreign_tables(regclass)') IS NOT NULL THEN\n"
    "    PERFORM gcluster.guard_foreign_tables();\n"
    "  END IF;\n"
    "END $guard$";

static void append_bound(gc_strbuf *sb, const gcctl_table *t, const gcctl_shard *s);

/* Rewrites the catalog rows the spec makes inside one transaction and
 * compares fingerprints before and after. Rows a driver made (solo tables
 * of origin 'ddl') stay: groups are updated in place rather than deleted,
 * since a table row's owner_group cascades from its group. */
bool gcctl_catalog_sync(PGconn *c, const gcctl_spec *spec, const char *local_group,
                        const char *who, bool *changed, gc_error *err)
{
    *changed = false;
    if (!gcctl_exec(c, who, "BEGIN", err))
        return false;
    char *before = gcctl_query_value(c, who, fingerprint_sql, err);
    if (!before) {
        gcctl_exec(c, who, "ROLLBACK", err);
        return false;
    }
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    gc_strbuf_append_str(&sb,
        "DELETE FROM gcluster.shards s USING gcluster.tables t\n"
        " WHERE s.table_name = t.name AND t.origin = 'spec';\n"
        "DELETE FROM gcluster.tables WHERE origin = 'spec';\n"
        "DELETE FROM gcluster.members; DELETE FROM gcluster.groups WHERE name <> ALL (ARRAY[");
    for (size_t g = 0; g < spec->groups.n; g++) {
        if (g) gc_strbuf_append_str(&sb, ", ");
        gcctl_sb_literal(&sb, spec->groups.items[g]);
    }
    gc_strbuf_append_str(&sb, "]::text[]);\n"
        "DELETE FROM gcluster.cluster;\n"
        "INSERT INTO gcluster.cluster (name, database, local_group) VALUES (");
    gcctl_sb_literal(&sb, spec->cluster);
    gc_strbuf_append_str(&sb, ", ");
    gcctl_sb_literal(&sb, spec->database);
    gc_strbuf_append_str(&sb, ", ");
    gcctl_sb_literal(&sb, local_group);
    gc_strbuf_append_str(&sb, ");\n");
    for (size_t g = 0; g < spec->groups.n; g++) {
        gc_strbuf_appendf(&sb, "INSERT INTO gcluster.groups VALUES (");
        gcctl_sb_literal(&sb, spec->groups.items[g]);
        gc_strbuf_appendf(&sb, ", %zu, ", g);
        gcctl_sb_literal(&sb, spec->groups.items[g]);   /* the FDW server has the group's name */
        gc_strbuf_append_str(&sb, ") ON CONFLICT (name) DO UPDATE SET position = excluded.position,"
                                  " fdw_server = excluded.fdw_server;\n");
    }
    for (size_t i = 0; i < spec->nmembers; i++) {
        const gcctl_member *m = &spec->members[i];
        gc_strbuf_append_str(&sb, "INSERT INTO gcluster.members VALUES (");
        gcctl_sb_literal(&sb, m->name);
        gc_strbuf_append_str(&sb, ", ");
        gcctl_sb_literal(&sb, m->group);
        gc_strbuf_appendf(&sb, ", %zu, ", i);
        gcctl_sb_literal(&sb, m->host);
        gc_strbuf_appendf(&sb, ", %d, '%s');\n", m->port, m->is_primary ? "primary" : "standby");
    }
    for (size_t i = 0; i < spec->ntables; i++) {
        const gcctl_table *t = &spec->tables[i];
        /* A table the spec names is the spec's, even when a driver's DDL
         * registered it first. */
        gc_strbuf_append_str(&sb, "DELETE FROM gcluster.tables WHERE name = ");
        gcctl_sb_literal(&sb, t->name);
        gc_strbuf_append_str(&sb, ";\nINSERT INTO gcluster.tables (name, method, key, owner_group) VALUES (");
        gcctl_sb_literal(&sb, t->name);
        gc_strbuf_appendf(&sb, ", '%s', ARRAY[", gcctl_method_name(t->method));
        for (size_t k = 0; k < t->key.n; k++) {
            if (k) gc_strbuf_append_str(&sb, ", ");
            gcctl_sb_literal(&sb, t->key.items[k]);
        }
        gc_strbuf_append_str(&sb, "]::text[], ");
        if (t->group) gcctl_sb_literal(&sb, t->group);
        else gc_strbuf_append_str(&sb, "NULL");
        gc_strbuf_append_str(&sb, ");\n");
        for (size_t s = 0; s < t->nshards; s++) {
            gc_strbuf_append_str(&sb, "INSERT INTO gcluster.shards VALUES (");
            gcctl_sb_literal(&sb, t->shards[s].name);
            gc_strbuf_append_str(&sb, ", ");
            gcctl_sb_literal(&sb, t->name);
            gc_strbuf_appendf(&sb, ", %zu, ", s);
            gcctl_sb_literal(&sb, t->shards[s].group);
            gc_strbuf_append_str(&sb, ", ");
            gc_strbuf sbound;
            gc_strbuf_init(&sbound);
            append_bound(&sbound, t, &t->shards[s]);
            char *bound = gcctl_sb_take(&sbound);
            gcctl_sb_literal(&sb, bound);
            free(bound);
            gc_strbuf_append_str(&sb, ");\n");
        }
    }
    char *sql = gcctl_sb_take(&sb);
    bool ok = gcctl_exec(c, who, sql, err);
    free(sql);
    char *after = ok ? gcctl_query_value(c, who, fingerprint_sql, err) : NULL;
    ok = after != NULL;
    if (ok) {
        *changed = strcmp(before, after) != 0;
        ok = gcctl_exec(c, who, "COMMIT", err);
    } else {
        gc_error saved = *err;
        gcctl_exec(c, who, "ROLLBACK", err);
        *err = saved;
    }
    free(before);
    free(after);
    return ok;
}

long long gcctl_catalog_bump_all(const gcctl_target *t, const char *reason,
                                 gcctl_strlist *unreached, gc_error *err)
{
    const gcctl_spec *spec = t->spec;
    PGconn **conns = gcctl_xcalloc(spec->groups.n, sizeof *conns);
    long long top = 0, result = -1;
    size_t g, reached = 0;
    for (g = 0; g < spec->groups.n; g++) {
        const char *group = spec->groups.items[g];
        if (unreached && gcctl_strlist_contains(unreached, group))
            continue;
        const gcctl_member *p = gcctl_spec_primary(spec, group);
        gc_error cerr;
        conns[g] = gcctl_connect(t, p, NULL, 5, unreached ? &cerr : err);
        if (!conns[g] && unreached) {
            gcctl_strlist_push(unreached, group);
            continue;
        }
        if (!conns[g])
            goto done;
        char *v = gcctl_query_value(conns[g], p->name, "SELECT version FROM gcluster.version", err);
        if (!v)
            goto done;
        long long n = atoll(v);
        free(v);
        if (n > top)
            top = n;
        reached++;
    }
    if (reached == 0) {
        gc_error_set(err, "HY000", 0, "no group's primary answered: the catalog version was not raised");
        goto done;
    }
    for (g = 0; g < spec->groups.n; g++) {
        if (!conns[g])
            continue;
        const gcctl_member *p = gcctl_spec_primary(spec, spec->groups.items[g]);
        char at_least[32];
        snprintf(at_least, sizeof at_least, "%lld", top + 1);
        const char *params[2] = { reason, at_least };
        PGresult *r = gcctl_query(conns[g], p->name,
                                  "SELECT gcluster.bump_version($1, $2::bigint)", 2, params, err);
        if (!r)
            goto done;
        PQclear(r);
    }
    result = top + 1;
done:
    for (g = 0; g < spec->groups.n; g++)
        PQfinish(conns[g]);
    free(conns);
    return result;
}

/* ---- partition bounds as SQL ---- */

static void append_value(gc_strbuf *sb, const gcctl_value *v)
{
    if (v->is_null)
        gc_strbuf_append_str(sb, "NULL");
    else if (v->is_keyword)
        gc_strbuf_append_str(sb, strcasecmp(v->text, "minvalue") == 0 ? "MINVALUE" : "MAXVALUE");
    else
        gcctl_sb_literal(sb, v->text);
}

static void append_range_side(gc_strbuf *sb, const gcctl_table *t, const gcctl_value *v,
                              size_t n, const char *unbounded)
{
    gc_strbuf_append_char(sb, '(');
    for (size_t k = 0; k < t->key.n; k++) {
        if (k) gc_strbuf_append_str(sb, ", ");
        if (n == 0) gc_strbuf_append_str(sb, unbounded);
        else append_value(sb, &v[k]);
    }
    gc_strbuf_append_char(sb, ')');
}

/* The FOR VALUES clause (or DEFAULT) of a shard. */
static void append_bound(gc_strbuf *sb, const gcctl_table *t, const gcctl_shard *s)
{
    if (s->is_default) {
        gc_strbuf_append_str(sb, "DEFAULT");
        return;
    }
    switch (t->method) {
    case GCCTL_HASH:
        gc_strbuf_appendf(sb, "FOR VALUES WITH (MODULUS %zu, REMAINDER %d)", t->nshards, s->remainder);
        break;
    case GCCTL_RANGE:
        gc_strbuf_append_str(sb, "FOR VALUES FROM ");
        append_range_side(sb, t, s->from, s->nfrom, "MINVALUE");
        gc_strbuf_append_str(sb, " TO ");
        append_range_side(sb, t, s->to, s->nto, "MAXVALUE");
        break;
    case GCCTL_LIST:
        gc_strbuf_append_str(sb, "FOR VALUES IN (");
        for (size_t v = 0; v < s->nvalues; v++) {
            if (v) gc_strbuf_append_str(sb, ", ");
            append_value(sb, &s->values[v]);
        }
        gc_strbuf_append_char(sb, ')');
        break;
    case GCCTL_SOLO:
        break;
    }
}

char *gcctl_catalog_bound_sql(const gcctl_table *t, const gcctl_shard *s)
{
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    append_bound(&sb, t, s);
    return gcctl_sb_take(&sb);
}
