/*
 * gcctl_apply: makes running primaries match a spec: the application and
 * admin roles, the database, pg_stat_statements and postgres_fdw, one FDW
 * server per other group with user mappings, the sharded and solo tables,
 * grants, and the gcluster catalog. Idempotent: what exists and matches is
 * left alone; the version is raised only when something changed.
 */
#ifndef GCCTL_APPLY_H
#define GCCTL_APPLY_H

#include <stdbool.h>

#include "gcctl_conn.h"

/* Applies t->spec to every group's primary. *changed (may be NULL) tells
 * whether anything was created or altered (and the version raised). */
bool gcctl_apply(const gcctl_target *t, const char *reason, bool *changed, gc_error *err);

/* Appends a statement (a DO block) making `user` the owner of every table,
 * partitioned table and foreign table in schema public owned by anyone else. */
void gcctl_sql_own_public_tables(gc_strbuf *sb, const char *user);

#endif
