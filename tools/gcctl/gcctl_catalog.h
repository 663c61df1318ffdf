/*
 * gcctl_catalog: the gcluster schema every group carries. It tells a driver
 * the topology (groups, members, their FDW server names) and the placement
 * of every table, and holds the version that rises on every change.
 */
#ifndef GCCTL_CATALOG_H
#define GCCTL_CATALOG_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "gcctl_conn.h"
#include "gcctl_spec.h"

/* Creates the schema, tables and functions when missing and grants read
 * access to the application role and bump_version to the admin role. */
bool gcctl_catalog_install(PGconn *c, const gcctl_spec *spec, const char *who, gc_error *err);

/* Makes the catalog rows on one group say what the spec says (local_group
 * names the group it is on). *changed tells whether anything differed. */
bool gcctl_catalog_sync(PGconn *c, const gcctl_spec *spec, const char *local_group,
                        const char *who, bool *changed, gc_error *err);

/* Raises the version on every group's primary to one common value (the
 * highest current version + 1), each with NOTIFY gcluster. Returns the new
 * version, or -1 with err set. With unreached NULL every primary must
 * answer. Otherwise the groups it lists are left out, and so is a group
 * whose primary does not answer a connect (its name is added): the
 * highest version of the others wins, and a group left out catches up at
 * the next bump that reaches it (docs/cluster.md, "Groups that were down"). */
long long gcctl_catalog_bump_all(const gcctl_target *t, const char *reason,
                                 gcctl_strlist *unreached, gc_error *err);

/* The partition bound of a shard as SQL ("FOR VALUES ..." or "DEFAULT");
 * the caller frees it. */
char *gcctl_catalog_bound_sql(const gcctl_table *t, const gcctl_shard *s);

/* A DO block giving every foreign table of a group's server that lacks
 * it the trigger gcluster.refuse_remote_write (gcluster.guard_foreign_tables;
 * idempotent; nothing when the catalog has no such function yet). A
 * foreign table dropped and made again loses its trigger, so every place
 * that makes one runs this after. */
extern const char gcctl_refuse_remote_writes_sql[];

#endif
