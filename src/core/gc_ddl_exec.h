/*
 * gc_ddl_exec: the core's side of cluster-wide DDL on a global connection
 * (global/gc_ddl.h does the work). Statements the analyzer classifies as
 * DDL are taken out of routing here and run on every group's primary.
 */
#ifndef GC_DDL_EXEC_H
#define GC_DDL_EXEC_H

#include <stdbool.h>

#include "core/gc_stmt.h"

/* True when s, on a global connection, is DDL that does not run on one
 * member (cluster-wide, or refused): gc_ddl_exec_statement must run it. */
bool gc_ddl_exec_is_cluster_wide(const gc_stmt *s);

/* Runs (or refuses) the DDL of s on every group's primary; its command
 * result becomes the statement's result. Diagnostics go to s. */
SQLRETURN gc_ddl_exec_statement(gc_stmt *s);

#endif
