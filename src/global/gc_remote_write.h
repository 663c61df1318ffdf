/*
 * gc_remote_write: what a global connection's member sessions and the
 * cluster's trigger on foreign tables (gcluster.refuse_remote_write, made
 * by gcctl) say to each other about writes through postgres_fdw, which no
 * two-phase commit covers (docs/global-connection.md, "Writes through
 * postgres_fdw").
 *
 * Every member session of a global connection runs with
 * gcodbc.global_connection=on (its startup options, member layer); every
 * transaction the driver begins there is marked with a transaction-local
 * setting sent in the BEGIN's own text. The trigger refuses with a
 * SQLSTATE of the cluster's own, which the driver reports as 0A000 with
 * its native error below.
 */
#ifndef GC_REMOTE_WRITE_H
#define GC_REMOTE_WRITE_H

/* Appended to every BEGIN the driver sends on a global connection, in the
 * same text (no round trip of its own). */
#define GC_REMOTE_WRITE_TXN_MARK "SET LOCAL gcodbc.global_transaction = on"
/* An autocommit statement the driver cannot prove to be one plain write
 * of one table (gc_global_statement_marked) carries the same setting with
 * another value, so that the trigger refuses every write it makes through
 * postgres_fdw; a plain one carries nothing. The mark goes before the
 * statement in its implicit transaction, with no round trip of its own: in
 * the pipeline of a single statement (set_config: no warning outside a
 * transaction block), or at the head of a text of several statements. */
#define GC_REMOTE_WRITE_STATEMENT_MARK \
    "SELECT pg_catalog.set_config('gcodbc.global_transaction', 'statement', true)"
#define GC_REMOTE_WRITE_STATEMENT_MARK_TEXT "SET LOCAL gcodbc.global_transaction = statement"
/* The trigger's refusal, as the server reports it. */
#define GC_REMOTE_WRITE_SERVER_SQLSTATE "GCF01"
/* ... and as the application sees it (docs/sqlstates.md; the global
 * connection's numbering, next to GC_GLOBAL_NATIVE_SPANNING_WRITE). */
#define GC_REMOTE_WRITE_SQLSTATE "0A000"
#define GC_REMOTE_WRITE_NATIVE 90123

#endif
