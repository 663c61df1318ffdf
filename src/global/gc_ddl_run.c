/*
 * gc_ddl_run: a cluster-wide DDL with two-phase commit. Phase one, group by
 * group (a new solo table's owner first): BEGIN, the DDL, PREPARE
 * TRANSACTION. A group that fails ends it: the open transaction is rolled
 * back, every group sent PREPARE TRANSACTION gets ROLLBACK PREPARED (through
 * a new session when the answer to PREPARE was lost: it may have prepared),
 * and its error is returned naming the group and saying what was undone.
 * A DDL on one table or index (plan->target) asks each group first what
 * that object is there, so a solo table's foreign twins run their own form
 * of it (prepare_targeted, gc_ddl_twin.c).
 * Phase two: COMMIT PREPARED everywhere; once every group has prepared, the
 * DDL is decided, so a group that cannot be told to commit is reported as a
 * warning naming the prepared transaction.
 * A new solo table goes where its foreign keys need it (gc_ddl_place.c). A
 * new materialized view's owner (or CREATE TABLE ... AS's) is not prepared
 * (it may have read foreign tables): its commit decides, after every other
 * group prepared (commit_by_owner, gc_ddl_matview.c).
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "global/gc_ddl.h"
#include "global/gc_decision.h"
#include "global/gc_global_settings.h"
#include "sql/gc_sql_statements.h"
#include "util/gc_strbuf.h"

/* One group's primary and what phase one did there. */
typedef struct ddl_group {
    gc_global *g;           /* whose call the DDL is (a cancel of it reaches its steps) */
    int group;
    int member;             /* index in the topology */
    gc_member *session;
    bool in_transaction;    /* BEGIN (or the savepoint) sent, not yet prepared or ended */
    bool prepare_sent;      /* PREPARE TRANSACTION sent: prepared, or its answer lost */
    bool prepared;
} ddl_group;

/* How phase one brackets each group's work: in the DDL's own transaction
 * (BEGIN ... PREPARE TRANSACTION gid), or inside the application's open
 * transaction, which every group's primary has joined (SAVEPOINT ...
 * RELEASE: a failure undoes the DDL alone; the commit is the
 * transaction's, gc_global_commit_spread). */
typedef struct ddl_bracket {
    const char *gid;          /* own transaction; NULL inside the open one */
} ddl_bracket;

#define DDL_SAVEPOINT "gc_ddl"

/* Around a routine whose body is not to be checked (gc_ddl_plan's
 * skip_body_check): the setting is turned off for the statement and put
 * back after it, inside the open transaction too. */
static const char body_check_off[] =
    "SELECT pg_catalog.set_config('gcodbc.check_function_bodies',"
    " pg_catalog.current_setting('check_function_bodies'), true),"
    " pg_catalog.set_config('check_function_bodies', 'off', true)";
static const char body_check_back[] =
    "SELECT pg_catalog.set_config('check_function_bodies',"
    " pg_catalog.current_setting('gcodbc.check_function_bodies'), true)";

/* Rewrites err as "group G (member M): message", keeping its SQLSTATE. */
static void name_group(gc_error *err, const gc_topology *t, const ddl_group *dg)
{
    gc_error named;
    gc_error_set(&named, err->sqlstate[0] != '\0' ? err->sqlstate : "HY000", err->native,
                 "cluster-wide DDL failed on group %s (member %s), nothing was changed "
                 "on any group: %s",
                 t->groups[dg->group].name, t->members[dg->member].name, err->message);
    *err = named;
}

/* Runs sql on dg's session. *keep (may be NULL) takes the first result kept
 * (caller PQclears); false with err naming the group. */
static bool run(const gc_topology *t, ddl_group *dg, const char *sql, PGresult **keep,
                gc_error *err)
{
    PGresult *r = gc_member_exec(dg->session, sql, err);
    if (r == NULL) {
        name_group(err, t, dg);
        return false;
    }
    if (keep != NULL && *keep == NULL)
        *keep = r;
    else
        PQclear(r);
    return true;
}

/* run() for the statement's own texts (the DDL and what goes with it),
 * which may wait for other sessions' locks or run long: a cancel of the
 * call (SQLCancel, the query timeout) reaches them on dg's member, and
 * once the call is cancelled none starts (57014). */
static bool run_waiting(const gc_topology *t, ddl_group *dg, const char *sql, PGresult **keep,
                        gc_error *err)
{
    if (!gc_global_wait_step_begin(dg->g, dg->member, err)) {
        name_group(err, t, dg);
        return false;
    }
    bool ok = run(t, dg, sql, keep, err);
    gc_global_wait_step_end(dg->g);
    return ok;
}

/* Refuses (55000) when a primary allows no prepared transactions, and
 * (25000, when idle is asked) when one is inside a transaction. */
static bool check_primaries(const gc_topology *t, ddl_group *groups, int n, bool idle,
                            gc_error *err)
{
    for (int k = 0; k < n; k++) {
        ddl_group *dg = &groups[k];
        if (idle && gc_member_txn_status(dg->session) != PQTRANS_IDLE) {
            gc_error_set(err, "25000", 0,
                         "cluster-wide DDL cannot run inside a transaction (member %s has "
                         "one open); run DDL in autocommit mode on a global connection",
                         t->members[dg->member].name);
            return false;
        }
        PGresult *r = gc_member_exec(dg->session, "SHOW max_prepared_transactions", err);
        if (r == NULL) {
            name_group(err, t, dg);
            return false;
        }
        bool zero = PQntuples(r) == 1 && atoi(PQgetvalue(r, 0, 0)) <= 0;
        PQclear(r);
        if (zero) {
            gc_error_set(err, "55000", 0,
                         "cluster-wide DDL needs two-phase commit, but "
                         "max_prepared_transactions is 0 on member %s (group %s): set it "
                         "above 0 on every member (ALTER SYSTEM SET "
                         "max_prepared_transactions = 20, then restart the server; gcctl "
                         "local clusters use 20)",
                         t->members[dg->member].name, t->groups[dg->group].name);
            return false;
        }
    }
    return true;
}

/* On the owner, inside its transaction: the new table's quoted qualified
 * name, schema, name and column definitions (type, NOT NULL, defaults other
 * than sequences), for its foreign twins. Caller frees the four strings. */
static bool describe_solo(const gc_topology *t, ddl_group *owner, const char *name,
                          char **columns, char **qualified, char **schema, char **table,
                          gc_error *err)
{
    gc_strbuf q;
    gc_strbuf_init(&q);
    gc_strbuf_append_str(&q,
        "SELECT format('%I.%I', n.nspname, c.relname), n.nspname, c.relname,"
        " coalesce(string_agg(format('%I %s', a.attname, format_type(a.atttypid, a.atttypmod))"
        "  || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END"
        "  || CASE WHEN d.adbin IS NULL OR a.attgenerated <> ''"
        "          OR pg_get_expr(d.adbin, d.adrelid) LIKE '%nextval(%' THEN ''"
        "     ELSE ' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid) END,"
        "  ', ' ORDER BY a.attnum), '')"
        " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        " LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped"
        " LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum"
        " WHERE c.oid = to_regclass(");
    gc_ddl_append_literal(&q, name);
    gc_strbuf_append_str(&q, ") GROUP BY 1, 2, 3");
    char *sql = gc_strbuf_take(&q);
    if (sql == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    PGresult *r = gc_member_exec(owner->session, sql, err);
    free(sql);
    if (r == NULL) {
        name_group(err, t, owner);
        return false;
    }
    if (PQntuples(r) != 1) {
        PQclear(r);
        gc_error_set(err, "42P01", 0, "the new table %s is not found after CREATE TABLE", name);
        name_group(err, t, owner);
        return false;
    }
    *qualified = strdup(PQgetvalue(r, 0, 0));
    *schema = strdup(PQgetvalue(r, 0, 1));
    *table = strdup(PQgetvalue(r, 0, 2));
    *columns = strdup(PQgetvalue(r, 0, 3));
    PQclear(r);
    if (*qualified == NULL || *schema == NULL || *table == NULL || *columns == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    return true;
}

/* The solo table's foreign twin on a non-owner group, with the trigger
 * that refuses a global connection's writes through it which cannot
 * commit atomically (gcluster.guard_foreign_tables, when the catalog has
 * it: docs/global-connection.md, "Writes through postgres_fdw"), then on
 * every group its catalog row: gcluster.register_solo_table (SECURITY
 * DEFINER, gcctl grants the application role EXECUTE) inside this same
 * transaction, so the row commits or rolls back with the table. A catalog
 * older than that function: a direct INSERT when the role may, else no
 * row (the router then learns the table from its foreign twins only).
 * A materialized view's twin is not updatable, as the view is not, which
 * also tells SQLTables to call it what its owner calls the view
 * (gc_catalog_tables.c). Caller frees. */
static char *solo_sql(const gc_topology *t, bool on_owner, int owner_group,
                      const char *columns, const char *qualified, const char *schema,
                      const char *table, bool matview)
{
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    if (!on_owner) {
        gc_strbuf_appendf(&sb, "CREATE FOREIGN TABLE %s (%s) SERVER ", qualified, columns);
        gc_sql_append_identifier(&sb, t->groups[owner_group].fdw_server);
        gc_strbuf_append_str(&sb, " OPTIONS (schema_name ");
        gc_ddl_append_literal(&sb, schema);
        gc_strbuf_append_str(&sb, ", table_name ");
        gc_ddl_append_literal(&sb, table);
        if (matview)
            gc_strbuf_append_str(&sb, ", updatable 'false'");
        gc_strbuf_append_str(&sb, ");\n"
            "DO $gcodbc_ddl$ BEGIN"
            " IF to_regprocedure('gcluster.guard_foreign_tables(regclass)') IS NOT NULL THEN"
            " PERFORM gcluster.guard_foreign_tables(");
        gc_ddl_append_literal(&sb, qualified);
        gc_strbuf_append_str(&sb, "::regclass); END IF; END $gcodbc_ddl$;\n");
    }
    gc_strbuf_append_str(&sb,
        "DO $gcodbc_ddl$ DECLARE f regprocedure :="
        " to_regprocedure('gcluster.register_solo_table(regclass,text)'); BEGIN"
        " IF f IS NOT NULL AND has_function_privilege(f, 'EXECUTE') THEN"
        " PERFORM gcluster.register_solo_table(");
    gc_ddl_append_literal(&sb, qualified);
    gc_strbuf_append_str(&sb, "::regclass, ");
    gc_ddl_append_literal(&sb, t->groups[owner_group].name);
    gc_strbuf_append_str(&sb,
        "); ELSIF has_table_privilege('gcluster.tables', 'INSERT') THEN"
        " INSERT INTO gcluster.tables (name, method, key, owner_group) VALUES (");
    gc_ddl_append_literal(&sb, table);
    gc_strbuf_append_str(&sb, ", 'solo', '{}', ");
    gc_ddl_append_literal(&sb, t->groups[owner_group].name);
    gc_strbuf_append_str(&sb, ") ON CONFLICT (name) DO NOTHING; END IF; END $gcodbc_ddl$");
    return gc_strbuf_take(&sb);
}

/* Appends a name as written in sql as a string literal. */
static void append_name_literal(gc_strbuf *sb, const char *sql, gc_ddl_span name)
{
    size_t n = name.end - name.start;
    char text[2 * GC_DDL_NAME_MAX + 8];
    snprintf(text, sizeof text, "%.*s", (int)(n < sizeof text ? n : sizeof text - 1),
             sql + name.start);
    gc_ddl_append_literal(sb, text);
}

void gc_ddl_append_names_array(gc_strbuf *sb, const char *sql, const gc_ddl_span *names, int n)
{
    for (int k = 0; k < n; k++) {
        if (k > 0)
            gc_strbuf_append_str(sb, ", ");
        append_name_literal(sb, sql, names[k]);
    }
}

/* Before a DROP on a group: removes the catalog row of each table a DROP
 * TABLE names that a driver registered (origin 'ddl'; gcctl's rows stay),
 * and of each solo object a CASCADE drops (`cascaded`: literals of their
 * names, separated by commas: find_cascaded), in the DROP's own
 * transaction. NULL when memory runs out; caller frees. */
static char *unregister_sql(const char *sql, const gc_ddl_plan *plan, const char *cascaded)
{
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    gc_strbuf_append_str(&sb,
        "DO $gcodbc_ddl$ DECLARE f regprocedure :="
        " to_regprocedure('gcluster.unregister_solo_table(regclass)'); BEGIN"
        " IF f IS NOT NULL AND has_function_privilege(f, 'EXECUTE') THEN");
    for (int k = 0; k < plan->n_drop; k++) {
        gc_strbuf_append_str(&sb, " PERFORM gcluster.unregister_solo_table(to_regclass(");
        append_name_literal(&sb, sql, plan->drop_names[k]);
        gc_strbuf_append_str(&sb, "));");
    }
    if (cascaded != NULL && cascaded[0] != '\0') {
        gc_strbuf_append_str(&sb, " PERFORM gcluster.unregister_solo_table(to_regclass(n))"
                                  " FROM unnest(ARRAY[");
        gc_strbuf_append_str(&sb, cascaded);
        gc_strbuf_append_str(&sb, "]::text[]) n;");
    }
    gc_strbuf_append_str(&sb, " END IF; END $gcodbc_ddl$");
    return gc_strbuf_take(&sb);
}

/* Which tables of a DROP TABLE group dg holds as foreign tables (solo
 * tables' twins): foreign[k] for name k. One round trip. */
static bool find_foreign_twins(const gc_topology *t, ddl_group *dg, const char *sql,
                               const gc_ddl_plan *plan, bool *foreign, gc_error *err)
{
    gc_strbuf q;
    gc_strbuf_init(&q);
    gc_strbuf_append_str(&q, "SELECT coalesce((SELECT relkind::text FROM pg_class"
                             " WHERE oid = to_regclass(n)), '') FROM unnest(ARRAY[");
    gc_ddl_append_names_array(&q, sql, plan->drop_names, plan->n_drop);
    gc_strbuf_append_str(&q, "]::text[]) WITH ORDINALITY AS u(n, i) ORDER BY i");
    char *text = gc_strbuf_take(&q);
    PGresult *r = text != NULL ? gc_member_exec(dg->session, text, err) : NULL;
    free(text);
    if (r == NULL || PQntuples(r) != plan->n_drop) {
        if (err->sqlstate[0] == '\0')
            gc_error_set(err, "HY001", 0, "out of memory");
        PQclear(r);
        name_group(err, t, dg);
        return false;
    }
    for (int k = 0; k < plan->n_drop; k++)
        foreign[k] = strcmp(PQgetvalue(r, k, 0), "f") == 0;
    PQclear(r);
    return true;
}

/* The solo tables and materialized views (driver-made: a catalog row, the
 * object on its owner, foreign tables elsewhere) that a DROP ... CASCADE
 * drops on group dg: those its names start from (plan->cascade), and the
 * materialized views reached from them through views. The cascade drops
 * them on their owner; a foreign table on another group depends on
 * nothing there and would stay, with the catalog row. Appends each to
 * comma-separated lists: `literals`, its name as a string literal, for
 * every group to unregister it; `names`, as written for a DROP, when it
 * lies outside what the statement itself drops everywhere (a view reached
 * from a dropped table, not one in a dropped schema), for every group to
 * drop its foreign table. One round trip. */
static bool find_cascaded(const gc_topology *t, ddl_group *dg, const char *sql,
                          const gc_ddl_plan *plan, gc_strbuf *literals, gc_strbuf *names,
                          gc_error *err)
{
    gc_strbuf q;
    gc_strbuf_init(&q);
    if (plan->cascade == GC_DDL_CASCADE_SCHEMAS)
        gc_strbuf_append_str(&q, "WITH RECURSIVE named AS (SELECT c.oid FROM pg_class c"
                                 " WHERE c.relnamespace IN (SELECT to_regnamespace(n)"
                                 " FROM unnest(ARRAY[");
    else
        gc_strbuf_append_str(&q, "WITH RECURSIVE named AS (SELECT to_regclass(n)::oid AS oid"
                                 " FROM unnest(ARRAY[");
    gc_ddl_append_names_array(&q, sql, plan->cascade_names, plan->n_cascade);
    gc_strbuf_append_str(&q, plan->cascade == GC_DDL_CASCADE_SCHEMAS
                                 ? "]::text[]) n))," : "]::text[]) n WHERE to_regclass(n) IS NOT NULL),");
    gc_strbuf_append_str(&q,
        " dropped(oid) AS (SELECT oid FROM named"
        " UNION SELECT r.ev_class FROM dropped d"
        "  JOIN pg_depend p ON p.refclassid = 'pg_class'::regclass AND p.refobjid = d.oid"
        "   AND p.classid = 'pg_rewrite'::regclass"
        "  JOIN pg_rewrite r ON r.oid = p.objid AND r.ev_class <> d.oid)"
        " SELECT c.oid::regclass::text, c.oid NOT IN (SELECT oid FROM named)"
        " FROM dropped d JOIN pg_class c ON c.oid = d.oid"
        " WHERE c.relkind IN ('r', 'm', 'f')"
        "  AND c.relname IN (SELECT name FROM gcluster.tables WHERE method = 'solo')");
    char *text = gc_strbuf_take(&q);
    PGresult *r = text != NULL ? gc_member_exec(dg->session, text, err) : NULL;
    free(text);
    if (r == NULL) {
        if (err->sqlstate[0] == '\0')
            gc_error_set(err, "HY001", 0, "out of memory");
        name_group(err, t, dg);
        return false;
    }
    for (int i = 0; i < PQntuples(r); i++) {
        bool outside = strcmp(PQgetvalue(r, i, 1), "t") == 0;
        /* A DROP TABLE unregisters the tables it names itself
         * (unregister_sql); the relations a schema holds are the cascade's. */
        if (!outside && plan->cascade != GC_DDL_CASCADE_SCHEMAS)
            continue;
        gc_strbuf_append_str(literals, literals->len > 0 ? ", " : "");
        gc_ddl_append_literal(literals, PQgetvalue(r, i, 0));
        if (!outside)
            continue;
        gc_strbuf_append_str(names, names->len > 0 ? ", " : "");
        gc_strbuf_append_str(names, PQgetvalue(r, i, 0));
    }
    PQclear(r);
    return !literals->failed && !names->failed;
}

/* Appends "DROP <what> [IF EXISTS] the names k with foreign[k] == want,
 * then the statement's tail (CASCADE or RESTRICT)". */
static void append_drop(gc_strbuf *sb, const char *what, const char *sql,
                        const gc_ddl_plan *plan, const bool *foreign, bool want)
{
    gc_strbuf_append_str(sb, what);
    if (plan->drop_if_exists)
        gc_strbuf_append_str(sb, "IF EXISTS ");
    bool first = true;
    for (int k = 0; k < plan->n_drop; k++) {
        if (foreign[k] != want)
            continue;
        if (!first)
            gc_strbuf_append_str(sb, ", ");
        gc_strbuf_append(sb, sql + plan->drop_names[k].start,
                         plan->drop_names[k].end - plan->drop_names[k].start);
        first = false;
    }
    /* The tail without a closing semicolon: another statement may follow. */
    const char *tail = sql + plan->drop_tail;
    size_t n = strlen(tail);
    while (n > 0 && (tail[n - 1] == ';' || tail[n - 1] == ' ' || tail[n - 1] == '\n' ||
                     tail[n - 1] == '\t' || tail[n - 1] == '\r'))
        n--;
    gc_strbuf_append(sb, tail, n);
}

/* DROP TABLE as group dg runs it: the text as is when no table named is a
 * foreign table there; else DROP FOREIGN TABLE of those, then DROP TABLE of
 * the rest. NULL with err on failure; caller frees. */
static char *drop_text(const gc_topology *t, ddl_group *dg, const char *sql,
                       const gc_ddl_plan *plan, gc_error *err)
{
    bool foreign[GC_DDL_MAX_DROP] = { false };
    if (plan->n_drop > 0 && !find_foreign_twins(t, dg, sql, plan, foreign, err))
        return NULL;
    int n_foreign = 0;
    for (int k = 0; k < plan->n_drop; k++)
        n_foreign += foreign[k];
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    if (n_foreign == 0) {
        gc_strbuf_append_str(&sb, sql);
    } else {
        append_drop(&sb, "DROP FOREIGN TABLE ", sql, plan, foreign, true);
        if (n_foreign < plan->n_drop) {
            gc_strbuf_append_str(&sb, "; ");
            append_drop(&sb, plan->drop_matview ? "DROP MATERIALIZED VIEW " : "DROP TABLE ",
                        sql, plan, foreign, false);
        }
    }
    char *text = gc_strbuf_take(&sb);
    if (text == NULL)
        gc_error_set(err, "HY001", 0, "out of memory");
    return text;
}

/* Ends phase one after a failure: every group's work is undone. An open
 * transaction is rolled back (a broken session's was, by its server); a
 * group sent PREPARE TRANSACTION gets ROLLBACK PREPARED, through a new
 * session when its own broke, so no prepared transaction stays behind
 * holding locks. err (the failure being reported) gets what happened to
 * the prepared transactions appended. */
static void undo(gc_global *g, ddl_group *groups, int n, const char *gid,
                 const char *setup_sql, gc_error *err)
{
    const gc_topology *t = gc_global_topology(g);
    if (gid == NULL) {
        /* Inside the open transaction: back to the savepoint on every group
         * that set it (a broken session took its transaction with it). */
        for (int k = 0; k < n; k++) {
            if (groups[k].in_transaction && gc_member_is_open(groups[k].session)) {
                gc_error e;
                gc_error_clear(&e);
                PQclear(gc_member_exec(groups[k].session, "ROLLBACK TO SAVEPOINT " DDL_SAVEPOINT
                                       "; RELEASE SAVEPOINT " DDL_SAVEPOINT, &e));
            }
            groups[k].in_transaction = false;
        }
        return;
    }
    char note[sizeof err->message];
    size_t used = 0;
    note[0] = '\0';
    int rolled_back = 0;
    for (int k = 0; k < n; k++) {
        ddl_group *dg = &groups[k];
        if (dg->in_transaction && !dg->prepare_sent && gc_member_is_open(dg->session)) {
            gc_error e;
            gc_error_clear(&e);
            PQclear(gc_member_exec(dg->session, "ROLLBACK", &e));
        }
        if (dg->prepare_sent || dg->prepared) {
            gc_error e;
            bool was_prepared = false;
            if (gc_global_finish_prepared(g, dg->member, gid, false, setup_sql, &was_prepared,
                                          &e)) {
                rolled_back += was_prepared;
            } else {
                int w = snprintf(note + used, sizeof note - used,
                                 "; the transaction prepared on group %s could not be "
                                 "rolled back (%s): run ROLLBACK PREPARED '%s' on member %s",
                                 t->groups[dg->group].name, e.message, gid,
                                 t->members[dg->member].name);
                if (w > 0)
                    used = (size_t)w < sizeof note - used ? used + (size_t)w : sizeof note - 1;
            }
        }
        dg->in_transaction = dg->prepare_sent = dg->prepared = false;
    }
    if (used == 0 && rolled_back > 0)
        snprintf(note, sizeof note, "; the transaction%s prepared for it on %d group%s "
                 "%s rolled back", rolled_back > 1 ? "s" : "", rolled_back,
                 rolled_back > 1 ? "s" : "", rolled_back > 1 ? "were" : "was");
    if (note[0] != '\0') {
        gc_error with_note;
        gc_error_set(&with_note, err->sqlstate[0] != '\0' ? err->sqlstate : "HY000",
                     err->native, "%s%s", err->message, note);
        *err = with_note;
    }
}

/* Opens the group's bracket: BEGIN, or a savepoint in the open transaction. */
static bool open_step(const gc_topology *t, ddl_group *dg, const ddl_bracket *b, gc_error *err)
{
    if (!run(t, dg, b->gid != NULL ? "BEGIN" : "SAVEPOINT " DDL_SAVEPOINT, NULL, err))
        return false;
    dg->in_transaction = true;
    return true;
}

/* Closes it: PREPARE TRANSACTION gid (from the moment it is sent, dg may be
 * prepared, even when the answer is lost). A step of the call: once the
 * call is cancelled no group prepares, so the DDL is undone. Inside the open transaction the
 * savepoint stays until every group ran its part (release_savepoints): a
 * later group's failure must still undo this group's part. */
static bool prepare_now(const gc_topology *t, ddl_group *dg, const ddl_bracket *b,
                        gc_error *err)
{
    if (b->gid == NULL)
        return true;
    const char *gid = b->gid;
    char prep[128];
    snprintf(prep, sizeof prep, "PREPARE TRANSACTION '%s'", gid);
    dg->prepare_sent = true;
    if (!run_waiting(t, dg, prep, NULL, err))
        return false;
    dg->in_transaction = false;
    dg->prepared = true;
    return true;
}

/* The sequences the plan's DDL made on dg, interleaved (gc_ddl_sequences.c). */
static bool interleave(const gc_topology *t, ddl_group *dg, const gc_ddl_plan *plan,
                       gc_error *err)
{
    if (gc_ddl_interleave_sequences(dg->session, plan, err))
        return true;
    name_group(err, t, dg);
    return false;
}

/* Phase one on one group: BEGIN, its statements (before, may be NULL; sql,
 * whose result *keep takes; extra, may be NULL), the sequences plan made
 * interleaved (plan may be NULL), PREPARE TRANSACTION. */
static bool prepare_group(const gc_topology *t, ddl_group *dg, const char *before,
                          const char *sql, const char *extra, const gc_ddl_plan *plan,
                          const ddl_bracket *gid, PGresult **keep, gc_error *err)
{
    if (!open_step(t, dg, gid, err))
        return false;
    if (before != NULL && !run_waiting(t, dg, before, NULL, err))
        return false;
    if (!run_waiting(t, dg, sql, keep, err))
        return false;
    if (extra != NULL && !run_waiting(t, dg, extra, NULL, err))
        return false;
    if (plan != NULL && !interleave(t, dg, plan, err))
        return false;
    return prepare_now(t, dg, gid, err);
}

/* The groups' sessions for gc_ddl_place (arrays of n the caller gives). */
static gc_ddl_places places_of(const gc_topology *t, const ddl_group *groups, int n,
                               gc_member **sessions, int *group_of)
{
    for (int k = 0; k < n; k++) {
        sessions[k] = groups[k].session;
        group_of[k] = groups[k].group;
    }
    return (gc_ddl_places){ .topology = t, .sessions = sessions, .group_of = group_of, .n = n };
}

/* ALTER TABLE ... REFERENCES: refused (0A000) before the statement runs
 * when a key would reference a table on another group (gc_ddl_place.c). */
static bool check_alter_references(const gc_topology *t, const ddl_group *groups, int n,
                                   const char *sql, const gc_ddl_plan *plan, const char *kinds,
                                   gc_error *err)
{
    gc_member *sessions[n > 0 ? n : 1];
    int group_of[n > 0 ? n : 1];
    gc_ddl_places p = places_of(t, groups, n, sessions, group_of);
    return gc_ddl_place_check_alter(&p, sql, plan->target_as_written, kinds, err);
}

/* CREATE TABLE: moves to the front (groups[0], the owner) the group the
 * new table's foreign keys need, when that is not groups[0] already. With
 * fixed_owner (the open transaction's group must make the table: its later
 * statements run there) such a move is refused instead, 0A000. */
static bool place_by_references(const gc_topology *t, ddl_group *groups, int n, const char *sql,
                                const gc_ddl_plan *plan, bool fixed_owner, gc_error *err)
{
    gc_member *sessions[n > 0 ? n : 1];
    int group_of[n > 0 ? n : 1];
    gc_ddl_places p = places_of(t, groups, n, sessions, group_of);
    int owner = 0;
    if (!gc_ddl_place_solo(&p, sql, plan->table_as_written, &owner, err))
        return false;
    if (owner != 0 && fixed_owner) {
        gc_error_set(err, "0A000", 0, "feature not supported on a global connection: the "
                     "foreign keys of the new table %s need it on group %s, but this "
                     "transaction runs on group %s, where the table would be made; create "
                     "it in autocommit mode, or in a transaction of its own",
                     plan->table_as_written, t->groups[groups[owner].group].name,
                     t->groups[groups[0].group].name);
        return false;
    }
    ddl_group chosen = groups[owner];
    groups[owner] = groups[0];
    groups[0] = chosen;
    return true;
}

/* Phase one of a DDL on one table or index (plan->target), every group in
 * its transaction first: what runs on a group depends on what the target
 * is there, asked of each group (relkind) inside the DDL's own transaction
 * rather than read from the shard map, which may be older than the tables
 * (a solo table made by another connection a moment ago). Groups where the
 * table is plain (its owner, or every group for a sharded parent) run the
 * text first; then each group where it is a foreign table (a solo table's
 * twin) runs what the plan maps it to (gc_ddl_twin_text), described by the
 * owner. An index runs where it exists (everywhere when it exists nowhere,
 * so PostgreSQL says what is wrong). Then PREPARE TRANSACTION everywhere. */
static bool prepare_targeted(const gc_topology *t, ddl_group *groups, int n, const char *sql,
                             const gc_ddl_plan *plan, const ddl_bracket *gid, PGresult **keep,
                             gc_error *err)
{
    char kinds[n > 0 ? n : 1];
    memset(kinds, 0, sizeof kinds);
    bool any_foreign = false, any_exists = false;
    for (int k = 0; k < n; k++) {
        if (!open_step(t, &groups[k], gid, err))
            return false;
        if (!gc_ddl_relkind(groups[k].session, plan->target_as_written, &kinds[k], err)) {
            name_group(err, t, &groups[k]);
            return false;
        }
        any_foreign |= kinds[k] == 'f';
        any_exists |= kinds[k] != '\0';
    }
    bool table = plan->target == GC_DDL_TARGET_TABLE;
    if (table && plan->twin == GC_DDL_TWIN_ALTER &&
        !check_alter_references(t, groups, n, sql, plan, kinds, err))
        return false;
    if (table && any_foreign && plan->twin == GC_DDL_TWIN_REFUSE) {
        gc_error_set(err, "0A000", 0, "feature not supported on a global connection: %s "
                     "(%s is a solo table: a foreign table on some groups)",
                     plan->twin_why, plan->target_as_written);
        return false;
    }
    /* A sequence on one group only (a solo table's serial) needs no
     * interleave: every nextval of it runs there. */
    bool everywhere = true;
    for (int k = 0; k < n; k++)
        everywhere = everywhere && kinds[k] != '\0';
    bool interleaves = plan->target != GC_DDL_TARGET_SEQUENCE || everywhere;
    gc_member *owner = NULL;
    for (int k = 0; k < n; k++) {
        bool plain = table ? kinds[k] != 'f' : kinds[k] != '\0' || !any_exists;
        if (!plain)
            continue;
        if (!run_waiting(t, &groups[k], sql, keep, err) ||
            (interleaves && !interleave(t, &groups[k], plan, err)))
            return false;
        if (owner == NULL && kinds[k] == 'r')
            owner = groups[k].session;
    }
    for (int k = 0; k < n && table && any_foreign; k++) {
        if (kinds[k] != 'f')
            continue;
        char *text = NULL;
        if (!gc_ddl_twin_text(sql, plan, owner, &text, err)) {
            name_group(err, t, &groups[k]);
            return false;
        }
        bool ok = text == NULL || run_waiting(t, &groups[k], text, keep, err);
        free(text);
        if (!ok)
            return false;
    }
    for (int k = 0; k < n; k++)
        if (!prepare_now(t, &groups[k], gid, err))
            return false;
    return true;
}

/* Phase two: COMMIT PREPARED everywhere, each tried twice
 * (gc_global_finish_prepared). A group that still fails goes into info. */
static void commit_all(gc_global *g, ddl_group *groups, int n, const char *gid,
                       const char *setup_sql, gc_error *info)
{
    const gc_topology *t = gc_global_topology(g);
    for (int k = 0; k < n; k++) {
        gc_error e;
        gc_error_clear(&e);
        bool done = gc_global_finish_prepared(g, groups[k].member, gid, true, setup_sql, NULL,
                                              &e);
        if (!done)
            gc_error_set(info, "01000", 0,
                         "the DDL is committed on the other groups and prepared on group "
                         "%s, where COMMIT PREPARED failed (%s); it takes effect there when "
                         "COMMIT PREPARED '%s' runs on %s",
                         t->groups[groups[k].group].name, e.message, gid,
                         t->members[groups[k].member].name);
    }
}

/* Orders the groups with `owner` first (the other groups' foreign tables
 * copy a new solo table's columns from it) and finds each one's primary.
 * False with err when a group has none. */
static bool find_groups(gc_global *g, int owner, const char *setup_sql, ddl_group *groups,
                        gc_error *err)
{
    int n = gc_global_topology(g)->n_groups;
    for (int k = 0; k < n; k++) {
        int gi = owner < 0 ? k : k == 0 ? owner : k - 1 < owner ? k - 1 : k;
        groups[k].g = g;
        groups[k].group = gi;
        groups[k].member = gc_global_group_primary(g, gi, setup_sql, "cluster-wide DDL", err);
        if (groups[k].member < 0)
            return false;
        groups[k].session = gc_global_member(g, groups[k].member);
        groups[k].in_transaction = groups[k].prepare_sent = groups[k].prepared = false;
    }
    return true;
}

/* Whether the owner of a new solo object commits by its own decision
 * rather than being prepared (see gc_ddl_plan.owner_decides). */
static bool owner_decides(const gc_ddl_plan *plan)
{
    return plan->scope == GC_DDL_SOLO_MATVIEW || plan->owner_decides;
}

/* Phase one on every group (groups[0] is the owner of a new solo table),
 * each group's work bracketed as b says. */
static bool run_everywhere(const gc_topology *t, ddl_group *groups, int n, int owner,
                           const char *sql, const gc_ddl_plan *plan, const ddl_bracket *b,
                           gc_ddl_outcome *out, gc_error *err)
{
    if (plan->scope == GC_DDL_EVERY_GROUP && plan->target != GC_DDL_TARGET_NONE)
        return prepare_targeted(t, groups, n, sql, plan, b, &out->result, err);
    char *columns = NULL, *qualified = NULL, *schema = NULL, *table = NULL;
    bool ok = true;
    /* DROP ... CASCADE: the solo objects it drops on their owners, found on
     * every group before any runs; every group unregisters them and drops
     * the foreign tables the statement itself does not. */
    gc_strbuf cascaded, cascaded_names;
    gc_strbuf_init(&cascaded);
    gc_strbuf_init(&cascaded_names);
    if (plan->scope == GC_DDL_EVERY_GROUP && plan->cascade != GC_DDL_CASCADE_NONE) {
        for (int k = 0; k < n && ok; k++)
            ok = find_cascaded(t, &groups[k], sql, plan, &cascaded, &cascaded_names, err);
    }
    char *drop_twins = NULL;
    PGresult *twin_result = NULL;
    if (ok && cascaded_names.len > 0) {
        gc_strbuf d;
        gc_strbuf_init(&d);
        gc_strbuf_appendf(&d, "DROP FOREIGN TABLE IF EXISTS %s CASCADE", cascaded_names.data);
        drop_twins = gc_strbuf_take(&d);
        ok = drop_twins != NULL;
    }
    for (int k = 0; k < n && ok; k++) {
        ddl_group *dg = &groups[k];
        bool on_owner = k == 0 && (plan->scope == GC_DDL_SOLO_TABLE ||
                                   plan->scope == GC_DDL_SOLO_MATVIEW);
        if (plan->scope == GC_DDL_EVERY_GROUP && plan->skip_body_check) {
            ok = prepare_group(t, dg, body_check_off, sql, body_check_back, plan, b,
                               &out->result, err);
            continue;
        }
        if (plan->scope == GC_DDL_EVERY_GROUP) {
            bool drop = plan->drop_table_rest > 0;
            char *own = drop ? drop_text(t, dg, sql, plan, err) : NULL;
            bool unregisters = (drop && plan->n_drop > 0) || cascaded.len > 0;
            char *before = unregisters ? unregister_sql(sql, plan, cascaded.data) : NULL;
            ok = !drop || own != NULL;
            if (ok && unregisters && before == NULL) {
                gc_error_set(err, "HY001", 0, "out of memory");
                ok = false;
            }
            /* The command's result is that of a group that ran the text as
             * is: a foreign twin's DROP FOREIGN TABLE has another tag, which
             * SQLRowCount reads. */
            PGresult **keep = own == NULL || strcmp(own, sql) == 0 ? &out->result : &twin_result;
            ok = ok && prepare_group(t, dg, before, own != NULL ? own : sql, drop_twins, plan,
                                     b, keep, err);
            free(own);
            free(before);
            continue;
        }
        if (on_owner) {
            /* The bracket and the CREATE first; the description needs the table. */
            ok = open_step(t, dg, b, err) && run_waiting(t, dg, sql, &out->result, err) &&
                 describe_solo(t, dg, plan->table_as_written, &columns, &qualified,
                               &schema, &table, err);
        }
        char *extra = ok ? solo_sql(t, on_owner, owner, columns, qualified, schema, table,
                                       plan->scope == GC_DDL_SOLO_MATVIEW)
                         : NULL;
        if (ok && extra == NULL) {
            gc_error_set(err, "HY001", 0, "out of memory");
            ok = false;
        }
        /* In its own transaction, an owner that read rows (a materialized
         * view, CREATE TABLE ... AS) is not prepared: it commits last, and
         * its commit decides (commit_by_owner). */
        if (ok && on_owner)
            ok = run_waiting(t, dg, extra, NULL, err) &&
                 ((b->gid != NULL && owner_decides(plan)) || prepare_now(t, dg, b, err));
        else if (ok)
            ok = prepare_group(t, dg, NULL, extra, NULL, NULL, b, NULL, err);
        free(extra);
    }
    if (out->result == NULL)
        out->result = twin_result;
    else
        PQclear(twin_result);
    free(columns);
    free(qualified);
    free(schema);
    free(table);
    free(drop_twins);
    gc_strbuf_free(&cascaded);
    gc_strbuf_free(&cascaded_names);
    return ok;
}

/* *taken: a CREATE ... IF NOT EXISTS of a solo object whose name
 * groups[0] already knows (see gc_ddl_plan.if_not_exists). */
static bool name_taken(const gc_topology *t, ddl_group *groups, const gc_ddl_plan *plan,
                       bool *taken, gc_error *err)
{
    char kind = '\0';
    *taken = false;
    if (!plan->if_not_exists ||
        (plan->scope != GC_DDL_SOLO_TABLE && plan->scope != GC_DDL_SOLO_MATVIEW))
        return true;
    if (!gc_ddl_relkind(groups[0].session, plan->table_as_written, &kind, err)) {
        name_group(err, t, &groups[0]);
        return false;
    }
    *taken = kind != '\0';
    return true;
}

/* The group the router chooses for a statement without a key
 * (LocalityGroupPolicy); -1 with err when none can serve. */
static int policy_group(gc_global *g, gc_error *err)
{
    gc_route_request req = { .analysis = NULL };
    gc_route_decision d;
    return gc_global_route(g, &req, &d, err) ? d.group : -1;
}

/* A new materialized view or CREATE TABLE ... AS, every group but its
 * owner (groups[0], whose transaction is still open) prepared: the owner's
 * commit decides (gc_ddl_decide_by_owner), then the others commit, then
 * the decision is forgotten. False with err when the owner did not commit
 * (the others are rolled back here) or when its outcome is unknown
 * (*unknown, 08007: the others stay prepared, err says how to resolve
 * them). */
static bool commit_by_owner(gc_global *g, ddl_group *groups, int n, const char *gid,
                            const char *setup_sql, gc_ddl_outcome *out, bool *unknown,
                            gc_error *err)
{
    const gc_topology *t = gc_global_topology(g);
    bool committed = false;
    gc_error why;
    gc_error_clear(&why);
    bool known = gc_ddl_decide_by_owner(g, groups[0].member, gid, setup_sql, &committed, &why);
    groups[0].in_transaction = false;
    groups[0].session = gc_global_member(g, groups[0].member);
    if (!known) {
        *err = why;
        *unknown = true;
        return false;
    }
    if (!committed) {
        *err = why;
        name_group(err, t, &groups[0]);
        undo(g, groups, n, gid, setup_sql, err);
    } else {
        commit_all(g, groups + 1, n - 1, gid, setup_sql, &out->info);
    }
    /* Every group is finished: the decision is no longer needed (a row
     * left by a failure here is harmless, the gid is never used again). */
    gc_error e;
    gc_error_clear(&e);
    gc_decision_forget(groups[0].session, gid, &e);
    return committed;
}

/* REFRESH MATERIALIZED VIEW: on its owner's primary only, a plain
 * statement (gc_ddl_matview.c); groups[0] is the policy's group. */
static bool refresh_matview(const gc_topology *t, ddl_group *groups, int n, const char *sql,
                            const gc_ddl_plan *plan, gc_ddl_outcome *out, gc_error *err)
{
    gc_member *sessions[n > 0 ? n : 1];
    int group_of[n > 0 ? n : 1];
    gc_ddl_places p = places_of(t, groups, n, sessions, group_of);
    int k;
    return gc_ddl_matview_refresh_where(&p, 0, plan->table_as_written, &k, err) &&
           run_waiting(t, &groups[k], sql, &out->result, err);
}

/* CREATE / DROP INDEX CONCURRENTLY: PostgreSQL runs it outside any
 * transaction block, so no two-phase commit can carry it. It goes as it is
 * to the one group where its table is a plain table (a solo table's owner)
 * or where its index is; a statement for several groups, which could not
 * change them all or none, is refused before anything runs. Where nothing
 * holds the name, one group's server says so (or, with IF [NOT] EXISTS,
 * does what it says). */
static bool run_concurrently(const gc_topology *t, ddl_group *groups, int n, const char *sql,
                             const gc_ddl_plan *plan, gc_ddl_outcome *out, gc_error *err)
{
    int where = 0, holders = 0;
    for (int k = 0; k < n; k++) {
        char kind = '\0';
        if (!gc_ddl_relkind(groups[k].session, plan->target_as_written, &kind, err)) {
            name_group(err, t, &groups[k]);
            return false;
        }
        bool holds = plan->target == GC_DDL_TARGET_INDEX ? kind != '\0'
                                                         : kind != '\0' && kind != 'f';
        if (holds) {
            where = k;
            holders++;
        }
    }
    if (holders > 1) {
        gc_error_set(err, "0A000", 0, "feature not supported on a global connection: %s "
                     "exists on %d groups, and CONCURRENTLY runs outside a transaction "
                     "block, so it could not change them all or none; leave CONCURRENTLY "
                     "out, or run it on each primary with a general connection",
                     plan->target_as_written, holders);
        return false;
    }
    return run_waiting(t, &groups[where], sql, &out->result, err);
}

bool gc_ddl_run(gc_global *g, const char *sql, const gc_ddl_plan *plan,
                const char *setup_sql, gc_ddl_outcome *out, gc_error *err)
{
    assert(plan->scope != GC_DDL_ONE_MEMBER && plan->scope != GC_DDL_REFUSED);
    out->result = NULL;
    out->sent = false;
    gc_error_clear(&out->info);
    const gc_topology *t = gc_global_topology(g);
    int n = t->n_groups;
    ddl_group groups[n > 0 ? n : 1];
    /* A new solo object, or a refresh whose view may be on every group: the
     * policy's group first. */
    bool policy_first = plan->scope != GC_DDL_EVERY_GROUP && plan->scope != GC_DDL_CONCURRENTLY;
    int owner = policy_first ? policy_group(g, err) : -1;
    if (policy_first && owner < 0)
        return false;
    if (!find_groups(g, owner, setup_sql, groups, err))
        return false;
    if (plan->scope == GC_DDL_MATVIEW_REFRESH)
        return refresh_matview(t, groups, n, sql, plan, out, err);
    if (!check_primaries(t, groups, n, true, err))
        return false;
    bool taken;
    if (!name_taken(t, groups, plan, &taken, err))
        return false;
    if (taken)
        return run_waiting(t, &groups[0], sql, &out->result, err);
    if (plan->scope == GC_DDL_CONCURRENTLY)
        return run_concurrently(t, groups, n, sql, plan, out, err);
    if (plan->scope == GC_DDL_SOLO_TABLE) {
        if (!place_by_references(t, groups, n, sql, plan, false, err))
            return false;
        owner = groups[0].group;
    }

    static const char prefix[] = "gcodbc_ddl_";
    char gid[96];
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    snprintf(gid, sizeof gid, "%s%ld_%lld_%09ld_%lx", prefix, (long)getpid(),
             (long long)now.tv_sec, now.tv_nsec, (unsigned long)(uintptr_t)g);
    /* An owner that decides: the gid names its group, so a prepared twin
     * can be resolved from any group (gc_decision.h). */
    if (owner_decides(plan) && !gc_decision_new_gid(gid, sizeof gid, t->groups[owner].name)) {
        gc_error_set(err, "HY000", 0, "group name %s cannot name a transaction",
                     t->groups[owner].name);
        return false;
    }
    ddl_bracket b = { .gid = gid };
    bool ok = run_everywhere(t, groups, n, owner, sql, plan, &b, out, err);
    bool unknown = false;
    if (ok && owner_decides(plan))
        ok = commit_by_owner(g, groups, n, gid, setup_sql, out, &unknown, err);
    else if (ok)
        commit_all(g, groups, n, gid, setup_sql, &out->info);
    if (!ok) {
        if (!unknown)
            undo(g, groups, n, gid, setup_sql, err);
        PQclear(out->result);
        out->result = NULL;
        return false;
    }
    if (plan->changes_map) {
        gc_member *primaries[n > 0 ? n : 1];
        for (int k = 0; k < n; k++)
            primaries[k] = groups[k].session;
        gc_error e;
        gc_error_clear(&e);
        if (!gc_ddl_refresh(g, primaries, n, setup_sql, &e) && out->info.sqlstate[0] == '\0')
            out->info = e;
    }
    if (plan->sequences != GC_DDL_SEQ_NONE)
        gc_global_forget_drawn_keys(g);
    return true;
}

/* After every group ran its part of a DDL inside the open transaction:
 * each group's savepoint is released. Until then a failure anywhere rolls
 * every group back to it (undo). */
static bool release_savepoints(const gc_topology *t, ddl_group *groups, int n, gc_error *err)
{
    for (int k = 0; k < n; k++) {
        if (!run(t, &groups[k], "RELEASE SAVEPOINT " DDL_SAVEPOINT, NULL, err))
            return false;
        groups[k].in_transaction = false;
    }
    return true;
}

bool gc_ddl_run_in_transaction(gc_global *g, const char *sql, const gc_ddl_plan *plan,
                               const char *begin_sql, const char *setup_sql,
                               gc_ddl_outcome *out, gc_error *err)
{
    assert(plan->scope == GC_DDL_EVERY_GROUP || plan->scope == GC_DDL_SOLO_TABLE ||
           plan->scope == GC_DDL_SOLO_MATVIEW);
    out->result = NULL;
    out->sent = false;
    gc_error_clear(&out->info);
    const gc_topology *t = gc_global_topology(g);
    int n = t->n_groups;
    ddl_group groups[n > 0 ? n : 1];
    /* The transaction's member coordinates; a new solo table is made on its
     * group, so the transaction's later statements, which run there, see it. */
    int pin = gc_global_pinned_member(g);
    int coordinator_group;
    if (pin >= 0) {
        if (gc_member_get_role(gc_global_member(g, pin)) == GC_ROLE_STANDBY) {
            gc_error_set(err, "25006", 0, "cluster-wide DDL needs every group's primary, but "
                         "this transaction runs on standby %s (read-only access mode): "
                         "run the DDL in a read-write transaction", t->members[pin].name);
            return false;
        }
        coordinator_group = t->members[pin].group;
    } else if ((coordinator_group = policy_group(g, err)) < 0) {
        return false;
    }
    if (!find_groups(g, coordinator_group, setup_sql, groups, err))
        return false;
    if (pin >= 0) {
        groups[0].member = pin;
        groups[0].session = gc_global_member(g, pin);
        gc_member *primaries[n > 0 ? n : 1];
        int group_of[n > 0 ? n : 1];
        places_of(t, groups, n, primaries, group_of);
        if (!gc_ddl_check_remote_reads(g, primaries, n, sql, plan, err) ||
            !gc_ddl_check_index_remote_reads(g, primaries, n, plan, err) ||
            (owner_decides(plan) && !gc_global_ddl_query_sees_writes(g, sql, err)))
            return false;
    }
    bool taken;
    if (!name_taken(t, groups, plan, &taken, err))
        return false;
    if (taken) {
        if (!gc_global_enter_transaction(g, groups[0].member, begin_sql, err)) {
            name_group(err, t, &groups[0]);
            return false;
        }
        out->sent = true;
        return run_waiting(t, &groups[0], sql, &out->result, err);
    }
    /* A new table's foreign keys choose the transaction's group when the
     * DDL is its first statement; a transaction already on another group
     * is refused. */
    if (plan->scope == GC_DDL_SOLO_TABLE) {
        if (!place_by_references(t, groups, n, sql, plan, pin >= 0, err))
            return false;
        coordinator_group = groups[0].group;
    }
    for (int k = 0; k < n; k++) {
        if (!gc_global_enter_transaction(g, groups[k].member, begin_sql, err)) {
            name_group(err, t, &groups[k]);
            return false;
        }
    }
    /* Every group but the coordinator's is prepared at the COMMIT. */
    if (!check_primaries(t, groups + 1, n - 1, false, err))
        return false;
    ddl_bracket b = { .gid = NULL };
    out->sent = true;
    if (!run_everywhere(t, groups, n, coordinator_group, sql, plan, &b, out, err) ||
        !release_savepoints(t, groups, n, err)) {
        undo(g, groups, n, NULL, setup_sql, err);
        PQclear(out->result);
        out->result = NULL;
        return false;
    }
    gc_global_note_transaction_ddl(g, plan->changes_map, owner_decides(plan));
    if (plan->locks_out_remote_reads)
        gc_global_note_locked_table(g, plan->target_as_written, coordinator_group);
    /* A new solo table or view is the coordinator's until the COMMIT: the
     * other groups' twins reach it through postgres_fdw, which does not see
     * it yet. Reads of it elsewhere are then reads of the transaction's own
     * writes (gc_global_stale_reads.c). */
    if (plan->scope == GC_DDL_SOLO_TABLE || plan->scope == GC_DDL_SOLO_MATVIEW)
        gc_global_note_locked_table(g, plan->table_as_written, coordinator_group);
    if (plan->sequences != GC_DDL_SEQ_NONE)
        gc_global_forget_drawn_keys(g);
    return true;
}
