/*
 * gc_sql_txn: what a statement text means for the transaction the driver
 * keeps around it with autocommit off (docs/transactions.md).
 *
 * A pure function of the text, read with gc_sql_lexer, so words inside
 * strings, comments, quoted identifiers and dollar quotes never count. It
 * allocates nothing. A text it does not understand is ORDINARY: the server
 * then decides, as it would without the driver.
 */
#ifndef GC_SQL_TXN_H
#define GC_SQL_TXN_H

#include <stdbool.h>
#include <stddef.h>

typedef enum gc_sql_txn_kind {
    /* Runs inside the transaction like any query or DML. */
    GC_SQL_TXN_ORDINARY = 0,
    /* Changes the transaction itself: BEGIN, START TRANSACTION, COMMIT, END,
     * ROLLBACK (also TO SAVEPOINT), ABORT, SAVEPOINT, RELEASE, PREPARE
     * TRANSACTION. A text of several statements of which one is such. */
    GC_SQL_TXN_CONTROL,
    /* One statement PostgreSQL refuses inside a transaction block (VACUUM,
     * CREATE DATABASE, CREATE INDEX CONCURRENTLY, ALTER SYSTEM...; the list
     * is in gc_sql_txn.c and docs/transactions.md). */
    GC_SQL_TXN_OUTSIDE_BLOCK,
} gc_sql_txn_kind;

typedef struct gc_sql_txn_info {
    gc_sql_txn_kind kind;
    bool several;        /* more than one statement (`;` followed by more code) */
    bool copy;           /* a statement starts with COPY */
    /* One statement, RELEASE [SAVEPOINT] or ROLLBACK [WORK] TO [SAVEPOINT]:
     * when it succeeds it ends every savepoint set after the one it names. */
    bool ends_savepoints;
    /* One statement, COMMIT or END: the server answers it ROLLBACK when
     * the transaction had failed. */
    bool commits;
} gc_sql_txn_info;

/* Reads sql (len bytes, need not be NUL-terminated). */
gc_sql_txn_info gc_sql_txn_classify(const char *sql, size_t len);

#endif
