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

/* The same, leaving out every group whose primary does not answer a
 * connect: its name is added to *unreached and the others are applied.
 * Only for changes a group may learn later without harm (promote, whose
 * catalog rows say who is primary): a group left out catches up at the
 * next apply that reaches it. Besides the rows, apply raises the version
 * whenever the groups' versions differ, so a group that missed a raise
 * catches up too (docs/cluster.md, "Groups that were down"). */
bool gcctl_apply_reachable(const gcctl_target *t, const char *reason, bool *changed,
                           gcctl_strlist *unreached, gc_error *err);

/* Appends a statement (a DO block) making `user` the owner of every table,
 * partitioned table and foreign table in schema public owned by anyone else. */
void gcctl_sql_own_public_tables(gc_strbuf *sb, const char *user);

#endif
