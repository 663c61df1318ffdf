/*
 * gcctl_conn: superuser connections to members and small helpers around
 * libpq. A local cluster is reached through its Unix socket directory as the
 * user that runs the servers; a cluster from a spec through host and port,
 * with the superuser from the spec or the libpq environment (PGUSER,
 * PGPASSWORD, PGPASSFILE).
 */
#ifndef GCCTL_CONN_H
#define GCCTL_CONN_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "gcctl_spec.h"
#include "util/gc_error.h"
#include "util/gc_strbuf.h"

typedef struct gcctl_target {
    gcctl_spec *spec;
    const char *socket_dir;   /* local cluster: Unix socket directory; NULL otherwise */
    const char *os_user;      /* local cluster: the superuser (the servers' OS user) */
    const char *apply_lock;   /* local cluster: the file an apply holds locked, so that
                                 gcctl's commands and the supervisor apply one at a time;
                                 NULL otherwise */
} gcctl_target;

/* Connects to member m as superuser, database dbname (NULL: the spec's
 * database). Returns a connection the caller closes with PQfinish, or NULL
 * with err set. timeout_s bounds the connection attempt. */
PGconn *gcctl_connect(const gcctl_target *t, const gcctl_member *m, const char *dbname,
                      int timeout_s, gc_error *err);

/* Runs one or more SQL commands; on failure sets err to
 * "<member>: <server message>" and returns false. */
bool gcctl_exec(PGconn *c, const char *who, const char *sql, gc_error *err);

/* Runs commands that carry a secret (a password in a user mapping, a
 * role's verifier) so that the text reaches neither pg_stat_statements nor
 * the server log: the session stops tracking utility statements and logging
 * statements (also failed ones) around it. Needs a superuser, like the rest
 * of gcctl. Otherwise as gcctl_exec. */
bool gcctl_exec_secret(PGconn *c, const char *who, const char *sql, gc_error *err);

/* Runs a query with text parameters; returns the result (caller PQclears) or
 * NULL with err set. */
PGresult *gcctl_query(PGconn *c, const char *who, const char *sql, int nparams,
                      const char *const *params, gc_error *err);

/* First column of the first row as a new string (caller frees), NULL with
 * err set on failure or when there is no row. */
char *gcctl_query_value(PGconn *c, const char *who, const char *sql, gc_error *err);

/* Appends s quoted as an SQL identifier ("...") or literal ('...'). */
void gcctl_sb_ident(gc_strbuf *sb, const char *s);
void gcctl_sb_literal(gc_strbuf *sb, const char *s);

/* Hands over the built string (caller frees); exits when an append failed
 * for lack of memory. */
char *gcctl_sb_take(gc_strbuf *sb);

#endif
