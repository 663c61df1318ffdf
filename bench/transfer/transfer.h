/*
 * transfer: the money transfer the cross-group benchmark times (two
 * single-row UPDATEs of accounts, the lower id first, in one transaction),
 * behind one interface so that each client (ODBC through the driver
 * manager, raw libpq to each account's owner) implements it alike.
 */
#ifndef TRANSFER_H
#define TRANSFER_H

#include <stdbool.h>
#include <stdint.h>

/* One account of a transfer: its id and its owner group's index. */
typedef struct transfer_account {
    int64_t id;
    int group;
} transfer_account;

/* One client session (one per thread) able to run transfers. */
typedef struct transfer_client transfer_client;

struct transfer_client {
    /*
     * Moves amount from `from` to `to` in one transaction and commits it;
     * each UPDATE must change exactly one row. The accounts are updated in
     * id order (two opposite transfers cannot deadlock), so the lower id's
     * group runs the first statement. False (message on stderr) on failure.
     */
    bool (*run)(transfer_client *c, transfer_account from, transfer_account to, int amount);
    /* Releases the statement, the session(s) and the client itself. */
    void (*destroy)(transfer_client *c);
};

/* Connects with an ODBC connection string (autocommit off); NULL on
 * failure (message on stderr). check: each transfer reads the sum of its
 * two balances back before COMMIT (TRANSFER_CHECK_SQL_ODBC), which across
 * groups on a global connection is a split read. */
transfer_client *transfer_client_odbc(const char *connstr, bool check);
/*
 * Connects to every group's primary: conninfos[i] and names[i] (the group's
 * name, which the two-phase commit's transaction name carries) for group
 * index i. A transfer inside one group is BEGIN, two UPDATEs, COMMIT on its
 * primary; one across two groups commits in two phases by hand, the way
 * the driver does. check: the sum read back before COMMIT, in one group on
 * its primary, across two as each balance read on its own owner and added
 * here. NULL on failure (message on stderr).
 */
transfer_client *transfer_client_libpq(char **conninfos, char **names, int n, int thread,
                                       bool check);

/* How often a transfer is tried when it meets a serialization failure
 * (40001: postgres_fdw's remote part, at REPEATABLE READ, found its row
 * updated by a concurrent transfer). */
#define TRANSFER_ATTEMPTS 10

#define TRANSFER_UPDATE_SQL_ODBC "UPDATE accounts SET balance = balance + ? WHERE id = ?"
#define TRANSFER_UPDATE_SQL_PG   "UPDATE accounts SET balance = balance + $1 WHERE id = $2"
/* The check read: the two balances as the transaction sees them. */
#define TRANSFER_CHECK_SQL_ODBC "SELECT sum(balance) FROM accounts WHERE id IN (?, ?)"
#define TRANSFER_CHECK_SQL_PG   "SELECT sum(balance) FROM accounts WHERE id IN ($1, $2)"

#endif
