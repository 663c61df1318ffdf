/*
 * gc_temp_tables: the temporary tables a global connection made, and the
 * member session each lives on (docs/global-connection.md, "Temporary
 * tables"). A temporary table exists in the one server session that created
 * it, so every statement naming it must run on that session, and it is gone
 * when that session is.
 *
 * The registry maps a table's name (folded as PostgreSQL folds an unquoted
 * identifier, exact when quoted) to the member and the session generation
 * (gc_member_generation, unique in the process) that created it. It reads SQL
 * text with the project's lexer and never talks to a server: the global
 * connection (gc_global) owns one and asks it before routing; the caller
 * tells it what each successful statement created or dropped.
 *
 * Not thread-safe: the owning ODBC connection's lock guards it.
 */
#ifndef GC_TEMP_TABLES_H
#define GC_TEMP_TABLES_H

#include <stdbool.h>
#include <stddef.h>

#include "global/gc_ddl.h"
#include "util/gc_error.h"

typedef struct gc_temp_tables gc_temp_tables;

/* Native codes (gcodbc's own range, see gc_session_sql.h): a statement
 * naming a temporary table lost with its session (SQLSTATE 42P01), and one
 * that cannot run where its temporary tables are (0A000: the open
 * transaction runs on another member, or tables of two sessions). */
#define GC_TEMP_TABLES_NATIVE_LOST 90120
#define GC_TEMP_TABLES_NATIVE_ELSEWHERE 90121

/* The longest member or table name kept (PostgreSQL's NAMEDATALEN - 1). */
#define GC_TEMP_NAME_MAX 64

/* An empty registry (caller destroys it); NULL on out-of-memory. */
gc_temp_tables *gc_temp_tables_create(void);
void gc_temp_tables_destroy(gc_temp_tables *t);
int gc_temp_tables_count(const gc_temp_tables *t);

/* Whether every registered table lives on one member session: true with
 * *generation that session's, false when none is registered or they live
 * on several. */
bool gc_temp_tables_one_session(const gc_temp_tables *t, unsigned long *generation);

/* What a statement's text may do to temporary tables, read once at
 * SQLPrepare / SQLExecDirect: GC_TEMP_SQL_CREATES for CREATE TEMP TABLE,
 * CREATE TABLE pg_temp.x and SELECT ... INTO TEMP; GC_TEMP_SQL_DROPS for
 * DROP TABLE. 0 for anything else (most statements: one token looked at). */
#define GC_TEMP_SQL_CREATES 1u
#define GC_TEMP_SQL_DROPS 2u
unsigned gc_temp_sql_effects(const char *sql, size_t len);

/* Whether sql creates a temporary table called name (folded). */
bool gc_temp_sql_creates(const char *sql, size_t len, const char *name);

/* After sql (with effects from gc_temp_sql_effects) succeeded on session
 * `generation` of member `member`: registers each temporary table it
 * created and forgets each registered one it dropped. in_transaction: the
 * statement left a transaction open, so ON COMMIT DROP tables stay until
 * gc_temp_tables_transaction_ended (in autocommit they are gone already
 * and are not registered). A table created again replaces its entry. False
 * on out-of-memory (the table is then not registered). */
bool gc_temp_tables_note(gc_temp_tables *t, const char *sql, size_t len, const char *member,
                         unsigned long generation, bool in_transaction);

/* The tables of session `generation` whose existence its open
 * transaction's end decides: created or dropped in it (a ROLLBACK undoes
 * either). At most max names (the registry's strings) into names; their
 * count. */
int gc_temp_tables_in_doubt(const gc_temp_tables *t, unsigned long generation,
                            const char **names, int max);

/* The session, asked after its transaction ended, says whether the table
 * `name` exists: kept, or forgotten. */
void gc_temp_tables_settle(gc_temp_tables *t, const char *name, bool exists);

/* The transaction of session `generation` ended (committed or rolled
 * back): its ON COMMIT DROP tables leave the registry; the others it
 * created or dropped stay as registered, in doubt until settled. */
void gc_temp_tables_transaction_ended(gc_temp_tables *t, unsigned long generation);

/* Forgets the table `name` (its loss was reported). */
void gc_temp_tables_forget(gc_temp_tables *t, const char *name);

/* A registered table a statement names. The strings are the registry's:
 * valid until it next changes. */
typedef struct gc_temp_use {
    const char *table;
    const char *member;
    unsigned long generation;
} gc_temp_use;

/* Which registered tables sql names: every identifier of its code (not in
 * strings, comments or dollar quotes), unqualified or qualified by
 * pg_temp. 0 when none (at once when the registry is empty), 1 with *use,
 * -1 with err 0A000 when it names tables of two member sessions. */
int gc_temp_tables_find(const gc_temp_tables *t, const char *sql, size_t len,
                        gc_temp_use *use, gc_error *err);

/* Adjusts plan (from gc_ddl_classify of sql) for the registered tables:
 * DDL whose table is a temporary one (DROP TABLE of temporary tables only,
 * ALTER TABLE, CREATE INDEX ON, COMMENT ON TABLE...) runs on one member,
 * its table's; a DROP TABLE naming temporary and other tables, or other
 * cluster-wide DDL naming a temporary table, is refused. */
void gc_temp_tables_adjust_ddl(const gc_temp_tables *t, const char *sql, gc_ddl_plan *plan);

#endif
