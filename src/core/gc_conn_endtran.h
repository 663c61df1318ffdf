/*
 * gc_conn_endtran: ending a transaction on one member session, for the
 * connection kinds' end_tran (gc_conn_kind.h). SQLEndTran itself,
 * gc_conn_end_tran, and the BEGIN the driver sends are declared with the
 * connection (gc_conn.h).
 */
#ifndef GC_CONN_ENDTRAN_H
#define GC_CONN_ENDTRAN_H

#include <stdbool.h>

#include "core/gc_handle.h"
#include "session/gc_session.h"

/* Commits (commit) or rolls back what session m of c has open: nothing to
 * send when nothing is open; 08S01 when m is known dead; 40000 when a COMMIT
 * found the transaction aborted. Through gc_conn_with_records. */
SQLRETURN gc_conn_end_on_session(gc_conn *c, gc_session *m, bool commit);

/* rc, or SQL_SUCCESS_WITH_INFO when it succeeded with diagnostics on c. */
SQLRETURN gc_conn_with_records(const gc_conn *c, SQLRETURN rc);

#endif
