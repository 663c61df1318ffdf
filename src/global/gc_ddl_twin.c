/*
 * gc_ddl_twin: what a cluster-wide DDL on one table runs on a group where
 * that table is a foreign table, the twin of a solo table owned by another
 * group (docs/global-connection.md, "DDL on solo tables"). The plan (read
 * from the text by gc_ddl_classify) says what each form becomes; columns
 * the twin must copy are described by the owner, inside the DDL's own
 * transaction, after the owner ran it, so the twin gets the type and
 * default PostgreSQL actually made (a serial's, a USING clause's or a
 * typmod's outcome), not a second reading of the text.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "global/gc_ddl.h"
#include "util/gc_strbuf.h"

void gc_ddl_append_literal(gc_strbuf *sb, const char *s)
{
    bool escape = strchr(s, '\\') != NULL;
    gc_strbuf_append_str(sb, escape ? "E'" : "'");
    for (; *s != '\0'; s++) {
        if (*s == '\'' || *s == '\\')
            gc_strbuf_append_char(sb, *s);
        gc_strbuf_append_char(sb, *s);
    }
    gc_strbuf_append_char(sb, '\'');
}

/* Runs one query built in q (taken) on m; its single-value result. NULL
 * with err on failure; the result is the caller's to PQclear. */
static PGresult *query_built(gc_member *m, gc_strbuf *q, gc_error *err)
{
    char *sql = gc_strbuf_take(q);
    if (sql == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return NULL;
    }
    PGresult *r = gc_member_exec(m, sql, err);
    free(sql);
    return r;
}

PGresult *gc_ddl_ask_about(gc_member *m, const char *query_head, const char *name,
                           gc_error *err)
{
    gc_strbuf q;
    gc_strbuf_init(&q);
    gc_strbuf_append_str(&q, query_head);
    gc_ddl_append_literal(&q, name);
    gc_strbuf_append_str(&q, ")");
    return query_built(m, &q, err);
}

bool gc_ddl_relkind(gc_member *m, const char *name, char *relkind, gc_error *err)
{
    PGresult *r = gc_ddl_ask_about(m, "SELECT relkind FROM pg_catalog.pg_class WHERE oid = "
                                      "pg_catalog.to_regclass(", name, err);
    if (r == NULL)
        return false;
    *relkind = PQntuples(r) == 1 ? PQgetvalue(r, 0, 0)[0] : '\0';
    PQclear(r);
    return true;
}

/* The twin's form of one sync action, as the owner describes the column
 * now; appended to sb. The default is copied only when it is portable: a
 * sequence's nextval would draw from the twin group's own sequence, so the
 * twin gets none (as for CREATE TABLE, gc_ddl_run.c). */
static bool append_synced(const char *sql, const gc_ddl_plan *plan, const gc_ddl_action *a,
                          gc_member *owner, gc_strbuf *sb, gc_error *err)
{
    static const char portable_default[] =
        "(d.adbin IS NOT NULL AND a.attgenerated = ''"
        " AND pg_catalog.pg_get_expr(d.adbin, d.adrelid) NOT LIKE '%nextval(%')";
    if (owner == NULL) {
        gc_error_set(err, "0A000", 0, "feature not supported on a global connection: %s is "
                     "a foreign table on every group, so no group can describe its columns",
                     plan->target_as_written);
        return false;
    }
    if (a->column_end <= a->column_start) {
        gc_error_set(err, "0A000", 0, "feature not supported on a global connection: "
                     "the column of an ALTER TABLE action on a solo table was not found "
                     "in the statement");
        return false;
    }
    size_t n = a->column_end - a->column_start;
    char *column = strndup(sql + a->column_start, n);
    gc_strbuf q;
    gc_strbuf_init(&q);
    gc_strbuf_append_str(&q, "SELECT ");
    if (a->kind == GC_DDL_ACT_ADD_COLUMN) {
        gc_strbuf_appendf(&q, "pg_catalog.format('ADD COLUMN %s%%I %%s', a.attname,"
                          " pg_catalog.format_type(a.atttypid, a.atttypmod))"
                          " || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END"
                          " || CASE WHEN %s THEN ' DEFAULT '"
                          " || pg_catalog.pg_get_expr(d.adbin, d.adrelid) ELSE '' END",
                          a->if_not_exists ? "IF NOT EXISTS " : "", portable_default);
    } else if (a->kind == GC_DDL_ACT_COLUMN_TYPE) {
        gc_strbuf_append_str(&q, "pg_catalog.format('ALTER COLUMN %I TYPE %s', a.attname,"
                                 " pg_catalog.format_type(a.atttypid, a.atttypmod))");
    } else {
        assert(a->kind == GC_DDL_ACT_COLUMN_DEFAULT);
        gc_strbuf_appendf(&q, "pg_catalog.format('ALTER COLUMN %%I ', a.attname)"
                          " || CASE WHEN %s THEN 'SET DEFAULT '"
                          " || pg_catalog.pg_get_expr(d.adbin, d.adrelid)"
                          " ELSE 'DROP DEFAULT' END", portable_default);
    }
    gc_strbuf_append_str(&q, " FROM pg_catalog.pg_attribute a LEFT JOIN pg_catalog.pg_attrdef d"
                             " ON d.adrelid = a.attrelid AND d.adnum = a.attnum"
                             " WHERE a.attnum > 0 AND NOT a.attisdropped"
                             " AND a.attrelid = pg_catalog.to_regclass(");
    gc_ddl_append_literal(&q, plan->target_as_written);
    gc_strbuf_append_str(&q, ") AND a.attname = (pg_catalog.parse_ident(");
    gc_ddl_append_literal(&q, column != NULL ? column : "");
    gc_strbuf_append_str(&q, "))[1]");
    free(column);
    PGresult *r = query_built(owner, &q, err);
    if (r == NULL)
        return false;
    if (PQntuples(r) != 1) {
        PQclear(r);
        gc_error_set(err, "42703", 0, "column %.*s of %s not found on the owner group after "
                     "the DDL", (int)n, sql + a->column_start, plan->target_as_written);
        return false;
    }
    gc_strbuf_append_str(sb, PQgetvalue(r, 0, 0));
    PQclear(r);
    return true;
}

/* ALTER FOREIGN TABLE with each action mapped (gc_ddl_action_kind); *text
 * NULL when every action is the owner's alone. */
static bool alter_text(const char *sql, const gc_ddl_plan *plan, gc_member *owner,
                       char **text, gc_error *err)
{
    assert(plan->n_actions > 0 && plan->twin_rest <= plan->actions[0].start);
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    gc_strbuf_append_str(&sb, "ALTER FOREIGN TABLE ");
    gc_strbuf_append(&sb, sql + plan->twin_rest, plan->actions[0].start - plan->twin_rest);
    int mapped = 0;
    for (int i = 0; i < plan->n_actions; i++) {
        const gc_ddl_action *a = &plan->actions[i];
        if (a->kind == GC_DDL_ACT_OWNER_ONLY)
            continue;
        if (mapped++ > 0)
            gc_strbuf_append_str(&sb, ", ");
        if (a->kind == GC_DDL_ACT_SAME) {
            gc_strbuf_append(&sb, sql + a->start, a->end - a->start);
        } else if (!append_synced(sql, plan, a, owner, &sb, err)) {
            free(gc_strbuf_take(&sb));
            return false;
        }
    }
    char *built = gc_strbuf_take(&sb);
    if (built == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    if (mapped == 0) {
        free(built);
        built = NULL;
    }
    *text = built;
    return true;
}

bool gc_ddl_twin_text(const char *sql, const gc_ddl_plan *plan, gc_member *owner,
                      char **text, gc_error *err)
{
    *text = NULL;
    gc_strbuf sb;
    gc_strbuf_init(&sb);
    switch (plan->twin) {
    case GC_DDL_TWIN_SKIP:
        return true;
    case GC_DDL_TWIN_REFUSE:
        gc_error_set(err, "0A000", 0, "feature not supported on a global connection: %s",
                     plan->twin_why);
        return false;
    case GC_DDL_TWIN_ALTER:
        if (plan->n_actions > 0)
            return alter_text(sql, plan, owner, text, err);
        gc_strbuf_append_str(&sb, sql);
        break;
    case GC_DDL_TWIN_COMMENT:
        gc_strbuf_append_str(&sb, "COMMENT ON FOREIGN TABLE ");
        gc_strbuf_append_str(&sb, sql + plan->twin_rest);
        break;
    case GC_DDL_TWIN_SAME:
        gc_strbuf_append_str(&sb, sql);
        break;
    }
    *text = gc_strbuf_take(&sb);
    if (*text == NULL) {
        gc_error_set(err, "HY001", 0, "out of memory");
        return false;
    }
    return true;
}
