/*
 * global_ops: the point operations the global-connection benchmark times
 * (prepared SELECT of one account, single-row UPDATE of one account,
 * autocommit; and the SELECT with its text alternating between two forms,
 * prepared again on one handle each time, as pyodbc's cursor.execute
 * does), behind one interface so that each client (ODBC through the
 * driver manager, raw libpq to each key's owner) implements them alike.
 */
#ifndef GLOBAL_OPS_H
#define GLOBAL_OPS_H

#include <stdbool.h>
#include <stdint.h>

/* GLOBAL_GETDATA is the point SELECT with its row read by SQLGetData
 * instead of bound columns (libpq: the same as GLOBAL_SELECT). */
typedef enum { GLOBAL_SELECT, GLOBAL_UPDATE, GLOBAL_ALTERNATE, GLOBAL_GETDATA } global_op_kind;

/* One client session (one per thread) able to run the prepared operations. */
typedef struct global_client global_client;

struct global_client {
    /* Prepares the statement for kind; false (message on stderr) on failure. */
    bool (*prepare)(global_client *c, global_op_kind kind);
    /*
     * Runs it once for account id, whose owner group index is group (used
     * only by clients that route themselves): a SELECT reads the row, an
     * UPDATE changes exactly that row.
     */
    bool (*run)(global_client *c, global_op_kind kind, int64_t id, int group);
    /* Releases the statement, the session(s) and the client itself. */
    void (*destroy)(global_client *c);
};

/* Connects with an ODBC connection string; NULL on failure (message on stderr). */
global_client *global_client_odbc(const char *connstr);
/*
 * Connects to every conninfo (one per group, in group index order); each key
 * goes to its group's session. NULL on failure (message on stderr).
 */
global_client *global_client_libpq(char **conninfos, int n);

/*
 * How the libpq client sends its autocommit UPDATE: alone (what libpq-owner
 * measures), or in one of the shapes that let a lost answer be resolved
 * (docs/failover.md), to weigh them against each other on the wire alone:
 *   XID_QUERY  the statement, the prepared id query, a flush request, sync
 *   RETURNING  the statement with RETURNING of the id, a flush request, sync
 * or, SELECT_SINGLE_ROW, the UPDATE alone and each SELECT read in libpq's
 * single-row mode, as a driver that streams results must read it with
 * libpq 15: the floor of such a driver's libpq work.
 */
typedef enum {
    GLOBAL_WRITE_ALONE, GLOBAL_WRITE_XID_QUERY, GLOBAL_WRITE_RETURNING, GLOBAL_SELECT_SINGLE_ROW
} global_write_shape;
global_client *global_client_libpq_shaped(char **conninfos, int n, global_write_shape shape);

#define GLOBAL_SELECT_SQL_ODBC "SELECT id, balance FROM accounts WHERE id = ?"
#define GLOBAL_SELECT_SQL_PG   "SELECT id, balance FROM accounts WHERE id = $1"
#define GLOBAL_UPDATE_SQL_ODBC "UPDATE accounts SET balance = balance + 1 WHERE id = ?"
#define GLOBAL_UPDATE_SQL_PG   "UPDATE accounts SET balance = balance + 1 WHERE id = $1"
#define GLOBAL_XID_COLUMNS_PG \
    "pg_current_xact_id_if_assigned()::text, pg_postmaster_start_time()::text"
/* GLOBAL_ALTERNATE's second text: the same row, another statement. */
#define GLOBAL_SELECT2_SQL_ODBC "SELECT id, balance FROM accounts WHERE id = ? LIMIT 1"
#define GLOBAL_SELECT2_SQL_PG   "SELECT id, balance FROM accounts WHERE id = $1 LIMIT 1"

#endif
