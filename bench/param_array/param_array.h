/*
 * param_array: the batch insert the benchmark times, behind one interface
 * so that each client library (ODBC through the driver manager, libpq in
 * pipeline mode) implements it the same way.
 */
#ifndef PARAM_ARRAY_H
#define PARAM_ARRAY_H

#include <stdbool.h>

/* How the rows commit. */
typedef enum {
    COMMIT_EACH_ROW,      /* autocommit: every row its own transaction */
    COMMIT_EACH_BATCH,    /* one transaction per batch (autocommit off) */
    COMMIT_EACH_ROW_DESCRIBED, /* autocommit, the ODBC clients describing the
                                  parameters first (SQLDescribeParam, as pyodbc's
                                  fast_executemany): psqlODBC then runs the
                                  array row by row; libpq as each-row */
} commit_mode;

typedef struct batch_client batch_client;

struct batch_client {
    /* Inserts rows first..first+n-1 (id, 'row <id>', id % 1000) as one
     * batch; false (with a message on stderr) on failure. */
    bool (*insert_batch)(batch_client *c, int first, int n);
    /* Closes the session and frees the client. */
    void (*destroy)(batch_client *c);
};

/* Connects with an ODBC connection string; batch is the parameter array
 * size. NULL on failure (message on stderr). */
batch_client *batch_client_odbc(const char *connstr, commit_mode mode, int batch);
/* Connects with a libpq conninfo. NULL on failure (message on stderr). */
batch_client *batch_client_libpq(const char *conninfo, commit_mode mode, int batch);
/* Connects to each group primary of conninfo_file (one conninfo a line, in
 * group order); each row goes to the group owners_file ("id group" lines)
 * gives it. NULL on failure (message on stderr). */
batch_client *batch_client_libpq_owners(const char *conninfo_file, const char *owners_file,
                                        commit_mode mode);

#define BATCH_INSERT_SQL_ODBC "INSERT INTO bench_rows (id, name, qty) VALUES (?, ?, ?)"
#define BATCH_INSERT_SQL_PG   "INSERT INTO bench_rows (id, name, qty) VALUES ($1, $2, $3)"
#define BATCH_NAME_MAX 24

#endif
