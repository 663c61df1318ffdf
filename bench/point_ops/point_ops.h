/*
 * point_ops: the two point operations the benchmark times, behind one
 * interface so that each client library (ODBC through the driver manager,
 * raw libpq) implements them the same way.
 */
#ifndef POINT_OPS_H
#define POINT_OPS_H

#include <stdbool.h>

typedef enum { POINT_SELECT, POINT_INSERT } point_op_kind;

/* One client session able to run the prepared point operations. */
typedef struct point_client point_client;

struct point_client {
    /* Prepares the statement for kind; false (with a message on stderr) on failure. */
    bool (*prepare)(point_client *c, point_op_kind kind);
    /*
     * Runs the prepared operation once with key as its parameter: a SELECT
     * reads the whole row of that primary key, an INSERT adds one row.
     */
    bool (*run)(point_client *c, point_op_kind kind, int key);
    /* Releases the statement and the session, and the client itself. */
    void (*destroy)(point_client *c);
};

/* Connects with an ODBC connection string; NULL on failure (message on stderr). */
point_client *point_client_odbc(const char *connstr);
/* Connects with a libpq conninfo; NULL on failure (message on stderr). */
point_client *point_client_libpq(const char *conninfo);

#define POINT_SELECT_SQL_ODBC "SELECT id, name, qty FROM bench_items WHERE id = ?"
#define POINT_SELECT_SQL_PG   "SELECT id, name, qty FROM bench_items WHERE id = $1"
#define POINT_INSERT_SQL_ODBC "INSERT INTO bench_log (item, note) VALUES (?, 'bench')"
#define POINT_INSERT_SQL_PG   "INSERT INTO bench_log (item, note) VALUES ($1, 'bench')"

#endif
