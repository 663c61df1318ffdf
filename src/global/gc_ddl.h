/*
 * gc_ddl: DDL through a global connection runs on every group's primary,
 * all groups or none, with two-phase commit (docs/global-connection.md,
 * section "DDL").
 *
 * gc_ddl_classify reads the statement's text (no round trip) and says how it
 * runs: on one member like any statement (TRUNCATE: it is data, and reaches
 * every shard through postgres_fdw), on every group's primary, as a new solo
 * table (created on one group, a foreign table on the others), or refused.
 * gc_ddl_run runs it.
 *
 * Not thread-safe: the owning ODBC connection's lock guards the gc_global.
 */
#ifndef GC_DDL_H
#define GC_DDL_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "global/gc_global.h"
#include "util/gc_error.h"

typedef enum gc_ddl_scope {
    GC_DDL_ONE_MEMBER = 0,  /* not cluster-wide: routed like any statement */
    GC_DDL_EVERY_GROUP,     /* the same text on every group's primary */
    GC_DDL_SOLO_TABLE,      /* CREATE TABLE of a new unpartitioned table */
    GC_DDL_REFUSED,         /* see why */
} gc_ddl_scope;

#define GC_DDL_NAME_MAX 128

typedef struct gc_ddl_plan {
    gc_ddl_scope scope;
    bool changes_map;       /* tables or schemas change: raise the catalog version */
    const char *why;        /* GC_DDL_REFUSED: static text */
    /* GC_DDL_SOLO_TABLE: the table's name as written (text of the SQL, quotes
     * kept), for to_regclass on the owner. DROP TABLE: the first name. */
    char table_as_written[2 * GC_DDL_NAME_MAX + 8];
    /* DROP TABLE: offset of what follows TABLE (0 otherwise); a group where
     * the first table is foreign runs DROP FOREIGN TABLE and this rest. */
    size_t drop_table_rest;
} gc_ddl_plan;

/* Classifies sql (NUL-terminated, the text the driver sends). Never fails:
 * text it does not recognise as DDL gets GC_DDL_ONE_MEMBER. */
void gc_ddl_classify(const char *sql, gc_ddl_plan *out);

/* What the caller of gc_ddl_run gets back. */
typedef struct gc_ddl_outcome {
    PGresult *result;       /* the first group's command result (caller PQclears); NULL on error */
    gc_error info;          /* a warning (01000) when the DDL is decided but a group
                               could not be told to commit, or the version was not raised */
} gc_ddl_outcome;

/* Runs sql as plan says on every group's primary with two-phase commit
 * (see the header comment and the documentation). A new solo table is
 * registered in gcluster.tables, and a dropped one unregistered, in the same
 * transaction on every group. setup_sql (may be NULL) is run first on a
 * primary whose session must be opened now. False with err (naming the
 * group, and saying whether the transactions prepared for it were rolled
 * back) when the DDL did not take effect anywhere. */
bool gc_ddl_run(gc_global *g, const char *sql, const gc_ddl_plan *plan,
                const char *setup_sql, gc_ddl_outcome *out, gc_error *err);

/* --- gc_ddl_refresh.c --- */

/* After a DDL that changed tables: raises the catalog version on every
 * primary to (highest known + 1) and makes the connection follow it (new
 * shard map). False with err (a warning for the caller) when a step failed. */
bool gc_ddl_refresh(gc_global *g, gc_member *const *primaries, int n, const char *setup_sql,
                    gc_error *err);

#endif
