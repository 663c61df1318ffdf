/*
 * transactions: a small bank. Creates an accounts table, fills it with a
 * prepared INSERT executed once per row, then moves money between accounts
 * in transactions with autocommit off: one transfer is committed, one that
 * would overdraw an account is rolled back. Prints the balances after each.
 *
 *   transactions ["DSN=gcodbc_demo;UID=...;PWD=..."]
 */
#include <stdio.h>
#include <string.h>

#include "example_util.h"

/* Runs one statement without parameters on a fresh statement handle. */
static void run(SQLHDBC dbc, const char *sql)
{
    SQLHSTMT stmt;

    example_check(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &stmt), SQL_HANDLE_DBC, dbc,
                  "SQLAllocHandle(STMT)");
    example_check(SQLExecDirect(stmt, (SQLCHAR *)sql, SQL_NTS), SQL_HANDLE_STMT, stmt, sql);
    SQLFreeHandle(SQL_HANDLE_STMT, stmt);
}

/* Inserts the opening balances with one prepared INSERT executed per row. */
static void open_accounts(SQLHDBC dbc)
{
    static const struct { const char *owner; SQLINTEGER cents; } accounts[] = {
        {"alice", 10000}, {"bob", 2500}, {"chloé", 0},
    };
    SQLHSTMT stmt;
    SQLCHAR owner[64];
    SQLINTEGER cents;
    SQLLEN owner_len = SQL_NTS;

    example_check(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &stmt), SQL_HANDLE_DBC, dbc,
                  "SQLAllocHandle(STMT)");
    example_check(SQLPrepare(stmt,
                             (SQLCHAR *)"INSERT INTO demo_accounts (owner, cents) VALUES (?, ?)",
                             SQL_NTS),
                  SQL_HANDLE_STMT, stmt, "SQLPrepare(INSERT)");
    example_check(SQLBindParameter(stmt, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR,
                                   sizeof owner - 1, 0, owner, sizeof owner, &owner_len),
                  SQL_HANDLE_STMT, stmt, "SQLBindParameter(owner)");
    example_check(SQLBindParameter(stmt, 2, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0,
                                   &cents, 0, NULL),
                  SQL_HANDLE_STMT, stmt, "SQLBindParameter(cents)");
    for (size_t i = 0; i < sizeof accounts / sizeof accounts[0]; i++) {
        snprintf((char *)owner, sizeof owner, "%s", accounts[i].owner);
        cents = accounts[i].cents;
        example_check(SQLExecute(stmt), SQL_HANDLE_STMT, stmt, "SQLExecute(INSERT)");
    }
    SQLFreeHandle(SQL_HANDLE_STMT, stmt);
}

/* Prints every account's balance, reading the columns with SQLGetData. */
static void show_balances(SQLHDBC dbc, const char *when)
{
    SQLHSTMT stmt;
    SQLRETURN rc;

    printf("balances %s:\n", when);
    example_check(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &stmt), SQL_HANDLE_DBC, dbc,
                  "SQLAllocHandle(STMT)");
    example_check(SQLExecDirect(stmt,
                                (SQLCHAR *)"SELECT owner, cents FROM demo_accounts ORDER BY owner",
                                SQL_NTS),
                  SQL_HANDLE_STMT, stmt, "SELECT balances");
    while ((rc = SQLFetch(stmt)) != SQL_NO_DATA) {
        SQLCHAR owner[64];
        SQLINTEGER cents;
        SQLLEN ind;

        example_check(rc, SQL_HANDLE_STMT, stmt, "SQLFetch");
        example_check(SQLGetData(stmt, 1, SQL_C_CHAR, owner, sizeof owner, &ind),
                      SQL_HANDLE_STMT, stmt, "SQLGetData(owner)");
        example_check(SQLGetData(stmt, 2, SQL_C_SLONG, &cents, 0, &ind), SQL_HANDLE_STMT,
                      stmt, "SQLGetData(cents)");
        printf("  %-8s %7.2f\n", (char *)owner, cents / 100.0);
    }
    SQLFreeHandle(SQL_HANDLE_STMT, stmt);
}

/*
 * Moves cents from one owner to another inside the current transaction and
 * returns the payer's new balance, so that the caller decides to commit or
 * roll back.
 */
static SQLINTEGER transfer(SQLHDBC dbc, const char *from, const char *to, SQLINTEGER cents)
{
    SQLHSTMT stmt;
    SQLINTEGER amount = cents, balance = 0;
    SQLCHAR who[64];
    SQLLEN who_len = SQL_NTS, ind;

    example_check(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &stmt), SQL_HANDLE_DBC, dbc,
                  "SQLAllocHandle(STMT)");
    example_check(SQLPrepare(stmt,
                             (SQLCHAR *)"UPDATE demo_accounts SET cents = cents + ?"
                                        " WHERE owner = ?",
                             SQL_NTS),
                  SQL_HANDLE_STMT, stmt, "SQLPrepare(UPDATE)");
    example_check(SQLBindParameter(stmt, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0,
                                   &amount, 0, NULL),
                  SQL_HANDLE_STMT, stmt, "SQLBindParameter(amount)");
    example_check(SQLBindParameter(stmt, 2, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR,
                                   sizeof who - 1, 0, who, sizeof who, &who_len),
                  SQL_HANDLE_STMT, stmt, "SQLBindParameter(owner)");

    amount = -cents;
    snprintf((char *)who, sizeof who, "%s", from);
    example_check(SQLExecute(stmt), SQL_HANDLE_STMT, stmt, "SQLExecute(debit)");
    amount = cents;
    snprintf((char *)who, sizeof who, "%s", to);
    example_check(SQLExecute(stmt), SQL_HANDLE_STMT, stmt, "SQLExecute(credit)");
    SQLFreeHandle(SQL_HANDLE_STMT, stmt);

    /* Read the payer's balance back within the same transaction. */
    example_check(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &stmt), SQL_HANDLE_DBC, dbc,
                  "SQLAllocHandle(STMT)");
    example_check(SQLPrepare(stmt, (SQLCHAR *)"SELECT cents FROM demo_accounts WHERE owner = ?",
                             SQL_NTS),
                  SQL_HANDLE_STMT, stmt, "SQLPrepare(SELECT)");
    snprintf((char *)who, sizeof who, "%s", from);
    example_check(SQLBindParameter(stmt, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR,
                                   sizeof who - 1, 0, who, sizeof who, &who_len),
                  SQL_HANDLE_STMT, stmt, "SQLBindParameter(owner)");
    example_check(SQLBindCol(stmt, 1, SQL_C_SLONG, &balance, 0, &ind), SQL_HANDLE_STMT, stmt,
                  "SQLBindCol");
    example_check(SQLExecute(stmt), SQL_HANDLE_STMT, stmt, "SQLExecute(SELECT)");
    example_check(SQLFetch(stmt), SQL_HANDLE_STMT, stmt, "SQLFetch(balance)");
    SQLFreeHandle(SQL_HANDLE_STMT, stmt);
    return balance;
}

/* Transfers, then commits when the payer stays solvent and rolls back otherwise. */
static void transfer_or_roll_back(SQLHDBC dbc, const char *from, const char *to,
                                  SQLINTEGER cents)
{
    char when[128];
    SQLINTEGER left = transfer(dbc, from, to, cents);
    SQLSMALLINT end = left >= 0 ? SQL_COMMIT : SQL_ROLLBACK;

    printf("transfer %.2f from %s to %s leaves %s with %.2f: %s\n", cents / 100.0, from, to,
           from, left / 100.0, end == SQL_COMMIT ? "commit" : "roll back");
    example_check(SQLEndTran(SQL_HANDLE_DBC, dbc, end), SQL_HANDLE_DBC, dbc, "SQLEndTran");
    snprintf(when, sizeof when, "after the %s", end == SQL_COMMIT ? "commit" : "rollback");
    show_balances(dbc, when);
}

int main(int argc, char **argv)
{
    char connstr[512];
    SQLHENV env;
    SQLHDBC dbc;

    example_connect(example_connstr(argc, argv, connstr, sizeof connstr), &env, &dbc);

    run(dbc, "DROP TABLE IF EXISTS demo_accounts");
    run(dbc, "CREATE TABLE demo_accounts (owner text PRIMARY KEY,"
             " cents integer NOT NULL)");
    open_accounts(dbc);
    show_balances(dbc, "at opening");

    example_check(SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0),
                  SQL_HANDLE_DBC, dbc, "SQLSetConnectAttr(AUTOCOMMIT off)");
    transfer_or_roll_back(dbc, "alice", "chloé", 4000);
    transfer_or_roll_back(dbc, "bob", "chloé", 9999);

    example_check(SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0),
                  SQL_HANDLE_DBC, dbc, "SQLSetConnectAttr(AUTOCOMMIT on)");
    run(dbc, "DROP TABLE demo_accounts");
    example_disconnect(env, dbc);
    printf("transactions: done\n");
    return 0;
}
