/*
 * Rows changed through a static cursor of a global connection are changed
 * on the group that owns them, with the servers as witnesses:
 *
 *   test_cursor_writes DIR DSN
 *
 * One cursor (SQL_CONCUR_VALUES, bookmarks) holds two accounts of every
 * group. With autocommit on, SQLSetPos SQL_UPDATE and SQL_DELETE of rows of
 * G2 and G3 run on those groups' primaries alone (pg_stat_statements), the
 * values are on the owners' shards, and a row changed behind the cursor's
 * back is a conflict (01001) that changes nothing. With autocommit off, an
 * update in two groups, a delete and SQLBulkOperations SQL_ADD of a row of
 * a third group join the transaction on each owner: ROLLBACK leaves every
 * shard as it was, COMMIT applies all of it. A cursor without the primary
 * key in its select list cannot change rows (HY000) and sends nothing.
 * A keyset-driven cursor re-reads each row on its owner: in a transaction
 * pinned to G1, a row it updated in G2 is re-read on G2's primary, in the
 * transaction, and keeps its new value (SQL_CONCUR_ROWVER: the row was
 * first read through postgres_fdw, without a version, and is updated by
 * its values); with autocommit on, another session's update and delete on
 * the owner show at the next fetch. In a transaction pinned to G1, a
 * keyset-driven cursor with SQL_CONCUR_LOCK locks each row on its owner
 * (another session's NOWAIT lock there gets 55P03), and SQLSetPos
 * SQL_LOCK_EXCLUSIVE locks the one row of G3 it names; ROLLBACK frees them.
 * A keyset-driven cursor over the transaction's own write of a G2 row (a
 * split read) takes its table from the statement as written and changes
 * the row by key on G2. A solo table
 * read through its foreign twin (a transaction pinned to another group)
 * takes its key from the owner group and changes rows there by key.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_witness.h"

#define PER_GROUP 2
#define MAX_ROWS (PER_GROUP * RT_MAX_GROUPS)

#define UPDATE_LIKE "UPDATE accounts SET id = $%"
#define DELETE_LIKE "DELETE FROM accounts WHERE id = $%"
#define INSERT_LIKE "INSERT INTO accounts%"

typedef struct {
    SQLHSTMT h;
    SQLINTEGER mark[MAX_ROWS];
    SQLLEN mark_len[MAX_ROWS];
    SQLBIGINT id[MAX_ROWS];
    SQLLEN id_ind[MAX_ROWS];
    char balance[MAX_ROWS][32];
    SQLLEN balance_ind[MAX_ROWS];
    SQLUSMALLINT status[MAX_ROWS];
    SQLULEN fetched;          /* SQL_ATTR_ROWS_FETCHED_PTR: written at every fetch */
    int rows;
} cursor;

static rt_cluster cluster;
static int64_t ids[MAX_ROWS];         /* PER_GROUP accounts of every group */
static int n_ids;

/* The accounts the cursor shows: the first PER_GROUP ids of each group. */
static void choose_ids(void)
{
    for (int g = 0; g < cluster.n_groups; g++) {
        int found = 0;
        for (int64_t id = 1; id <= cluster.max_id && found < PER_GROUP; id++) {
            if (cluster.owner_of[id] == g) {
                ids[n_ids++] = id;
                found++;
            }
        }
        if (found < PER_GROUP)
            rt_fail("group %s owns fewer than %d accounts", cluster.groups[g], PER_GROUP);
    }
}

static rt_member *owner_primary(int64_t id)
{
    return &cluster.members[rt_primary_of(&cluster, cluster.owner_of[id])];
}

/* Runs sql on account id's owner primary, as the superuser. */
static void owner_exec(int64_t id, const char *sql)
{
    rt_member *m = owner_primary(id);
    PGresult *res = PQexec(m->conn, sql);
    if (PQresultStatus(res) != PGRES_COMMAND_OK)
        rt_fail("%s: %s: %s", m->name, sql, PQerrorMessage(m->conn));
    PQclear(res);
}

/* Runs `<what> WHERE id = <id>` on account id's owner primary. */
static void on_owner(int64_t id, const char *what)
{
    char sql[256];
    snprintf(sql, sizeof sql, "%s WHERE id = %lld", what, (long long)id);
    owner_exec(id, sql);
}

/* Account id's balance on its owner's own shard, or "gone". */
static const char *owner_balance(int64_t id)
{
    static char text[64];
    char sql[160];
    snprintf(sql, sizeof sql,
             "SELECT coalesce((SELECT balance::text FROM accounts WHERE id = %lld), 'gone')",
             (long long)id);
    rt_member *m = owner_primary(id);
    PGresult *res = PQexec(m->conn, sql);
    if (PQresultStatus(res) != PGRES_TUPLES_OK)
        rt_fail("%s: %s: %s", m->name, sql, PQerrorMessage(m->conn));
    snprintf(text, sizeof text, "%s", PQgetvalue(res, 0, 0));
    PQclear(res);
    return text;
}

static void expect_balance(int64_t id, const char *want, const char *when)
{
    const char *got = owner_balance(id);
    if (strcmp(got, want) != 0)
        rt_fail("%s: account %lld on %s holds %s, expected %s", when, (long long)id,
                owner_primary(id)->name, got, want);
}

/* Every account of the cursor back to 1000, as the cluster was made. */
static void restore_accounts(void)
{
    for (int i = 0; i < n_ids; i++) {
        on_owner(ids[i], "DELETE FROM accounts");
        char sql[128];
        snprintf(sql, sizeof sql, "INSERT INTO accounts VALUES (%lld, 1000)", (long long)ids[i]);
        owner_exec(ids[i], sql);
    }
}

/* Statements like `like` ran `want` times on group g's primary and on no
 * other member (want_g < 0: on none at all). */
static void expect_calls_on(const char *like, int want_g, long want, const char *when)
{
    for (int m = 0; m < cluster.n_members; m++) {
        bool owner = want_g >= 0 && m == rt_primary_of(&cluster, want_g);
        long got = rt_calls(&cluster, m, like);
        if (got != (owner ? want : 0))
            rt_fail("%s: %s ran %ld times on %s, expected %ld", when, like, got,
                    cluster.members[m].name, owner ? want : 0L);
    }
}

static void check(SQLRETURN rc, SQLHSTMT h, const char *what)
{
    rt_odbc_check(rc, SQL_HANDLE_STMT, h, what);
}

/* Whether the statement's first diagnostic has SQLSTATE state. */
static bool first_state_is(SQLHSTMT h, const char *state, char *message, size_t size)
{
    SQLCHAR got[6] = "";
    SQLINTEGER native = 0;
    SQLSMALLINT len = 0;
    message[0] = '\0';
    SQLGetDiagRec(SQL_HANDLE_STMT, h, 1, got, &native, (SQLCHAR *)message, (SQLSMALLINT)size,
                  &len);
    return strcmp((char *)got, state) == 0;
}

/* Opens a cursor of `type` and `concurrency` on the accounts in ids and
 * fetches them all as one rowset. */
static void open_cursor_of(cursor *k, SQLHDBC dbc, SQLULEN type, SQLULEN concurrency)
{
    char sql[512] = "SELECT id, balance FROM accounts WHERE id IN (";
    for (int i = 0; i < n_ids; i++)
        snprintf(sql + strlen(sql), sizeof sql - strlen(sql), "%s%lld", i ? ", " : "",
                 (long long)ids[i]);
    strcat(sql, ") ORDER BY id");
    memset(k, 0, sizeof *k);
    rt_odbc_check(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &k->h), SQL_HANDLE_DBC, dbc, "alloc");
    check(SQLSetStmtAttr(k->h, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)type, 0), k->h, "cursor type");
    check(SQLSetStmtAttr(k->h, SQL_ATTR_CONCURRENCY, (SQLPOINTER)concurrency, 0), k->h,
          "concurrency");
    check(SQLSetStmtAttr(k->h, SQL_ATTR_USE_BOOKMARKS, (SQLPOINTER)SQL_UB_VARIABLE, 0), k->h,
          "bookmarks");
    check(SQLSetStmtAttr(k->h, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)(SQLULEN)MAX_ROWS, 0), k->h,
          "rowset size");
    check(SQLSetStmtAttr(k->h, SQL_ATTR_ROW_STATUS_PTR, k->status, 0), k->h, "status");
    check(SQLExecDirect(k->h, (SQLCHAR *)sql, SQL_NTS), k->h, sql);
    check(SQLBindCol(k->h, 0, SQL_C_VARBOOKMARK, k->mark, sizeof k->mark[0], k->mark_len),
          k->h, "bind bookmark");
    check(SQLBindCol(k->h, 1, SQL_C_SBIGINT, k->id, 0, k->id_ind), k->h, "bind id");
    check(SQLBindCol(k->h, 2, SQL_C_CHAR, k->balance, sizeof k->balance[0], k->balance_ind),
          k->h, "bind balance");
    check(SQLSetStmtAttr(k->h, SQL_ATTR_ROWS_FETCHED_PTR, &k->fetched, 0), k->h, "fetched");
    check(SQLFetchScroll(k->h, SQL_FETCH_FIRST, 0), k->h, "SQLFetchScroll");
    k->rows = (int)k->fetched;
}

static void open_cursor(cursor *k, SQLHDBC dbc)
{
    open_cursor_of(k, dbc, SQL_CURSOR_STATIC, SQL_CONCUR_VALUES);
}

/* The rowset row holding the n-th account (0-based) of group g. */
static int row_of_group(const cursor *k, int g, int n)
{
    for (int r = 0; r < k->rows; r++)
        if (cluster.owner_of[k->id[r]] == g && n-- == 0)
            return r;
    rt_fail("the cursor holds no account %d of group %s", n, cluster.groups[g]);
}

static void set_balance(cursor *k, int row, const char *value)
{
    snprintf(k->balance[row], sizeof k->balance[row], "%s", value);
    k->balance_ind[row] = SQL_NTS;
}

/* Autocommit: each change is its own transaction on the row's owner. */
static void autocommit_changes(SQLHDBC dbc, int g1, int g2, int g3)
{
    cursor k;
    rt_reset_statements(&cluster);
    open_cursor(&k, dbc);
    if (k.rows != n_ids)
        rt_fail("the cursor shows %d rows, expected %d", k.rows, n_ids);
    int r1 = row_of_group(&k, g1, 0), r2 = row_of_group(&k, g2, 0), r3 = row_of_group(&k, g3, 0);
    int64_t id1 = k.id[r1], id2 = k.id[r2], id3 = k.id[r3];

    set_balance(&k, r2, "222.00");
    check(SQLSetPos(k.h, (SQLSETPOSIROW)r2 + 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE), k.h,
          "SQLSetPos UPDATE");
    if (k.status[r2] != SQL_ROW_UPDATED)
        rt_fail("updated row status %u", k.status[r2]);
    check(SQLSetPos(k.h, (SQLSETPOSIROW)r3 + 1, SQL_DELETE, SQL_LOCK_NO_CHANGE), k.h,
          "SQLSetPos DELETE");
    if (k.status[r3] != SQL_ROW_DELETED)
        rt_fail("deleted row status %u", k.status[r3]);
    expect_balance(id2, "222.00", "autocommit update");
    expect_balance(id3, "gone", "autocommit delete");
    expect_calls_on(UPDATE_LIKE, g2, 1, "autocommit update");
    expect_calls_on(DELETE_LIKE, g3, 1, "autocommit delete");

    /* Changed behind the cursor's back, on the owner: a conflict. */
    on_owner(id1, "UPDATE accounts SET balance = 5");
    set_balance(&k, r1, "111.00");
    SQLRETURN rc = SQLSetPos(k.h, (SQLSETPOSIROW)r1 + 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE);
    char message[512];
    if (rc != SQL_SUCCESS_WITH_INFO || !first_state_is(k.h, "01001", message, sizeof message))
        rt_fail("a row changed since the cursor read it: rc %d, %s", rc, message);
    expect_balance(id1, "5.00", "conflict");
    printf("autocommit: UPDATE on %s, DELETE on %s, conflict on %s: %s\n",
           owner_primary(id2)->name, owner_primary(id3)->name, owner_primary(id1)->name,
           message);
    SQLFreeHandle(SQL_HANDLE_STMT, k.h);
}

/* One transaction: updates in G1 and G2, a delete in G2, the add of a row
 * of G3 (deleted on its owner beforehand); then `end`. */
static void transaction_changes(SQLHDBC dbc, int g1, int g2, int g3, SQLSMALLINT end)
{
    const char *when = end == SQL_COMMIT ? "commit" : "rollback";
    restore_accounts();
    int64_t added = ids[g3 * PER_GROUP + 1];
    on_owner(added, "DELETE FROM accounts");
    rt_reset_statements(&cluster);

    cursor k;
    open_cursor(&k, dbc);
    if (k.rows != n_ids - 1)
        rt_fail("%s: the cursor shows %d rows, expected %d", when, k.rows, n_ids - 1);
    int r1 = row_of_group(&k, g1, 0), r2 = row_of_group(&k, g2, 0);
    int r2b = row_of_group(&k, g2, 1);
    int64_t id1 = k.id[r1], id2 = k.id[r2], id2b = k.id[r2b];
    set_balance(&k, r1, "311.00");
    set_balance(&k, r2, "322.00");
    check(SQLSetPos(k.h, (SQLSETPOSIROW)r1 + 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE), k.h,
          "transaction: update G1");
    check(SQLSetPos(k.h, (SQLSETPOSIROW)r2 + 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE), k.h,
          "transaction: update G2");
    check(SQLSetPos(k.h, (SQLSETPOSIROW)r2b + 1, SQL_DELETE, SQL_LOCK_NO_CHANGE), k.h,
          "transaction: delete G2");

    /* SQL_ADD takes the rowset's first row from the bound buffers. */
    check(SQLSetStmtAttr(k.h, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)1, 0), k.h, "rowset size 1");
    k.id[0] = added;
    k.id_ind[0] = 0;
    set_balance(&k, 0, "333.00");
    check(SQLBulkOperations(k.h, SQL_ADD), k.h, "transaction: SQLBulkOperations SQL_ADD");
    check(SQLFreeStmt(k.h, SQL_CLOSE), k.h, "close");
    SQLFreeHandle(SQL_HANDLE_STMT, k.h);

    /* Nothing is visible on the owners before the end. */
    expect_balance(id1, "1000.00", when);
    expect_balance(added, "gone", when);
    rt_odbc_check(SQLEndTran(SQL_HANDLE_DBC, dbc, end), SQL_HANDLE_DBC, dbc, "SQLEndTran");

    bool commit = end == SQL_COMMIT;
    expect_balance(id1, commit ? "311.00" : "1000.00", when);
    expect_balance(id2, commit ? "322.00" : "1000.00", when);
    expect_balance(id2b, commit ? "gone" : "1000.00", when);
    expect_balance(added, commit ? "333.00" : "gone", when);
    /* Each change ran once, on its owner's primary. */
    for (int m = 0; m < cluster.n_members; m++) {
        int g = cluster.members[m].group;
        bool primary = m == rt_primary_of(&cluster, g);
        long updates = rt_calls(&cluster, m, UPDATE_LIKE);
        long deletes = rt_calls(&cluster, m, DELETE_LIKE);
        long inserts = rt_calls(&cluster, m, INSERT_LIKE);
        long want_updates = primary && (g == g1 || g == g2) ? 1 : 0;
        long want_deletes = primary && g == g2 ? 1 : 0;
        long want_inserts = primary && g == g3 ? 1 : 0;
        if (updates != want_updates || deletes != want_deletes || inserts != want_inserts)
            rt_fail("%s: %s ran %ld updates, %ld deletes, %ld inserts; expected %ld, %ld, %ld",
                    when, cluster.members[m].name, updates, deletes, inserts, want_updates,
                    want_deletes, want_inserts);
    }
    printf("transaction, %s: updates on %s and %s, delete on %s, add on %s\n", when,
           owner_primary(id1)->name, owner_primary(id2)->name, owner_primary(id2b)->name,
           owner_primary(added)->name);
}

/* Without the key in the select list no owner can be found: refused. */
static void refused_without_key(SQLHDBC dbc)
{
    restore_accounts();
    rt_reset_statements(&cluster);
    SQLHSTMT h;
    rt_odbc_check(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &h), SQL_HANDLE_DBC, dbc, "alloc");
    check(SQLSetStmtAttr(h, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_STATIC, 0), h, "type");
    check(SQLSetStmtAttr(h, SQL_ATTR_CONCURRENCY, (SQLPOINTER)SQL_CONCUR_VALUES, 0), h, "conc");
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT balance FROM accounts WHERE id = %lld", (long long)ids[0]);
    check(SQLExecDirect(h, (SQLCHAR *)sql, SQL_NTS), h, sql);
    char balance[32] = "";
    SQLLEN ind = 0;
    check(SQLBindCol(h, 1, SQL_C_CHAR, balance, sizeof balance, &ind), h, "bind");
    check(SQLFetchScroll(h, SQL_FETCH_FIRST, 0), h, "fetch");
    snprintf(balance, sizeof balance, "1.00");
    ind = SQL_NTS;
    SQLRETURN rc = SQLSetPos(h, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE);
    char message[512];
    if (rc != SQL_ERROR || !first_state_is(h, "HY000", message, sizeof message) ||
        strstr(message, "primary key") == NULL)
        rt_fail("a cursor without the key: rc %d, %s", rc, message);
    SQLFreeHandle(SQL_HANDLE_STMT, h);
    expect_calls_on("UPDATE accounts%", -1, 0, "refused");
    expect_balance(ids[0], "1000.00", "refused");
    printf("without the key: %s\n", message);
}

static void fetch_first(cursor *k, const char *what)
{
    check(SQLFetchScroll(k->h, SQL_FETCH_FIRST, 0), k->h, what);
}

#define REREAD_LIKE "SELECT id, balance% FROM accounts WHERE id = $1%"

/* A connection whose statements without a key, and so its transactions'
 * first statements here, go to G1's primary. */
static void connect_on_g1(const char *dsn, SQLHENV *env, SQLHDBC *dbc)
{
    char connstr[256];
    snprintf(connstr, sizeof connstr,
             "DSN=%s;LocalityMemberPolicy=0;LocalityGroupPolicy=1;LocalityGroupPath=G1", dsn);
    rt_odbc_connect(env, dbc, connstr);
}

/* Keyset-driven: each row is re-read on its owner (see the top). */
static void keyset_rereads(const char *dsn, int g1, int g2, int g3)
{
    restore_accounts();
    SQLHENV env;
    SQLHDBC dbc;
    connect_on_g1(dsn, &env, &dbc);

    /* Autocommit: another session's committed changes show. */
    cursor k;
    open_cursor_of(&k, dbc, SQL_CURSOR_KEYSET_DRIVEN, SQL_CONCUR_VALUES);
    int r3 = row_of_group(&k, g3, 0), r3b = row_of_group(&k, g3, 1);
    int64_t id3 = k.id[r3], id3b = k.id[r3b];
    on_owner(id3, "UPDATE accounts SET balance = 7");
    on_owner(id3b, "DELETE FROM accounts");
    fetch_first(&k, "keyset fetch");
    if (strcmp(k.balance[r3], "7.00") != 0 || k.status[r3] != SQL_ROW_UPDATED ||
        k.status[r3b] != SQL_ROW_DELETED)
        rt_fail("keyset, autocommit: account %lld shows %s (status %u), account %lld status %u",
                (long long)id3, k.balance[r3], k.status[r3], (long long)id3b, k.status[r3b]);
    SQLFreeHandle(SQL_HANDLE_STMT, k.h);
    restore_accounts();

    /* A transaction pinned to G1 re-reads its own update of a G2 row there.
     * With row versions: the G2 row was first read through postgres_fdw
     * (no version), so the update checks its values, not a version 0. */
    rt_odbc_check(SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0),
                  SQL_HANDLE_DBC, dbc, "autocommit off");
    open_cursor_of(&k, dbc, SQL_CURSOR_KEYSET_DRIVEN, SQL_CONCUR_ROWVER);
    int r2 = row_of_group(&k, g2, 0);
    int64_t id2 = k.id[r2];
    set_balance(&k, r2, "444.00");
    check(SQLSetPos(k.h, (SQLSETPOSIROW)r2 + 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE), k.h,
          "keyset update");
    rt_reset_statements(&cluster);
    fetch_first(&k, "keyset fetch after the update");
    long on_g2 = rt_calls(&cluster, rt_primary_of(&cluster, g2), REREAD_LIKE);
    /* Both rows of G2, the group the transaction joined, are read there. */
    if (strcmp(k.balance[r2], "444.00") != 0 || k.status[r2] != SQL_ROW_UPDATED ||
        on_g2 != PER_GROUP)
        rt_fail("keyset, transaction: account %lld shows %s (status %u), re-read %ld times on "
                "%s", (long long)id2, k.balance[r2], k.status[r2], on_g2,
                owner_primary(id2)->name);
    long on_g1 = rt_calls(&cluster, rt_primary_of(&cluster, g1), REREAD_LIKE);
    SQLFreeHandle(SQL_HANDLE_STMT, k.h);
    rt_odbc_check(SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_COMMIT), SQL_HANDLE_DBC, dbc, "commit");
    expect_balance(id2, "444.00", "keyset commit");
    rt_odbc_check(SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0),
                  SQL_HANDLE_DBC, dbc, "autocommit on");
    rt_odbc_disconnect(env, dbc);
    printf("keyset: others' changes seen; %ld rows of G2 re-read on %s (the update among them), "
           "%ld on the pin %s\n", on_g2, owner_primary(id2)->name, on_g1,
           cluster.members[rt_primary_of(&cluster, g1)].name);
}

/* A transaction pinned to G1 that wrote rows of G1 and G2 reads them
 * back by a split read (G2 sends its row to G1, which reads it with its
 * own): a keyset-driven cursor over them stays keyset-driven, shows the
 * transaction's own write, changes the G2 row by key on G2's primary
 * alone, and re-reads it there; COMMIT keeps both groups' changes. */
static void split_read_changes_by_key(const char *dsn, int g1, int g2)
{
    restore_accounts();
    SQLHENV env;
    SQLHDBC dbc;
    connect_on_g1(dsn, &env, &dbc);
    rt_odbc_check(SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0),
                  SQL_HANDLE_DBC, dbc, "autocommit off");
    int64_t id1 = ids[g1 * PER_GROUP], id2 = ids[g2 * PER_GROUP];
    char sql[512];
    SQLHSTMT w;
    rt_odbc_check(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &w), SQL_HANDLE_DBC, dbc, "alloc");
    /* The first write pins the transaction to G1; the second joins G2. */
    snprintf(sql, sizeof sql, "UPDATE accounts SET balance = 11 WHERE id = %lld", (long long)id1);
    check(SQLExecDirect(w, (SQLCHAR *)sql, SQL_NTS), w, sql);
    snprintf(sql, sizeof sql, "UPDATE accounts SET balance = 55 WHERE id = %lld", (long long)id2);
    check(SQLExecDirect(w, (SQLCHAR *)sql, SQL_NTS), w, sql);
    SQLFreeHandle(SQL_HANDLE_STMT, w);

    cursor k;
    memset(&k, 0, sizeof k);
    rt_odbc_check(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &k.h), SQL_HANDLE_DBC, dbc, "alloc");
    check(SQLSetStmtAttr(k.h, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_KEYSET_DRIVEN, 0), k.h,
          "cursor type");
    check(SQLSetStmtAttr(k.h, SQL_ATTR_CONCURRENCY, (SQLPOINTER)SQL_CONCUR_VALUES, 0), k.h,
          "concurrency");
    check(SQLSetStmtAttr(k.h, SQL_ATTR_ROW_STATUS_PTR, k.status, 0), k.h, "status");
    snprintf(sql, sizeof sql, "SELECT id, balance FROM accounts WHERE id IN (%lld, %lld) ORDER BY id",
             (long long)id1, (long long)id2);
    rt_reset_statements(&cluster);
    SQLRETURN rc = SQLExecDirect(k.h, (SQLCHAR *)sql, SQL_NTS);
    if (rc != SQL_SUCCESS)
        rt_fail("keyset cursor over a split read: rc %d", rc);
    /* A split read: G2 sent its row of the transaction to G1 (json_agg). */
    long sent = rt_calls(&cluster, rt_primary_of(&cluster, g2), "%json_agg%");
    if (sent != 1)
        rt_fail("the cursor's rows of G2 were sent %ld times, not once by a split read", sent);
    SQLULEN type = 0;
    check(SQLGetStmtAttr(k.h, SQL_ATTR_CURSOR_TYPE, &type, 0, NULL), k.h, "cursor type");
    if (type != SQL_CURSOR_KEYSET_DRIVEN)
        rt_fail("a split read's keyset cursor became %lu", (unsigned long)type);
    check(SQLBindCol(k.h, 1, SQL_C_SBIGINT, k.id, 0, k.id_ind), k.h, "bind id");
    check(SQLBindCol(k.h, 2, SQL_C_CHAR, k.balance, sizeof k.balance[0], k.balance_ind), k.h,
          "bind balance");
    int row = id1 < id2 ? 2 : 1;
    check(SQLFetchScroll(k.h, SQL_FETCH_ABSOLUTE, row), k.h, "fetch");
    if (k.id[0] != id2 || strcmp(k.balance[0], "55.00") != 0)
        rt_fail("the split read shows account %lld with %s, not the transaction's 55.00",
                (long long)k.id[0], k.balance[0]);
    rt_reset_statements(&cluster);
    set_balance(&k, 0, "66.00");
    check(SQLSetPos(k.h, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE), k.h, "update through a split read");
    expect_calls_on(UPDATE_LIKE, g2, 1, "split read");
    check(SQLFetchScroll(k.h, SQL_FETCH_ABSOLUTE, row), k.h, "fetch again");
    if (strcmp(k.balance[0], "66.00") != 0 || k.status[0] != SQL_ROW_UPDATED)
        rt_fail("re-read after the update: %s (status %u)", k.balance[0], k.status[0]);
    SQLFreeHandle(SQL_HANDLE_STMT, k.h);
    rt_odbc_check(SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_COMMIT), SQL_HANDLE_DBC, dbc, "commit");
    expect_balance(id2, "66.00", "split read's change committed");
    expect_balance(id1, "11.00", "the pin's write committed");
    rt_odbc_disconnect(env, dbc);
    printf("split read: keyset cursor kept; the G2 row changed on %s and re-read there\n",
           owner_primary(id2)->name);
}

/* Whether another session's NOWAIT lock of account id on its owner is
 * refused because the row is locked (55P03); a granted lock ends at once
 * (the superuser's session is in autocommit). */
static bool locked_on_owner(int64_t id)
{
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT 1 FROM accounts WHERE id = %lld FOR UPDATE NOWAIT",
             (long long)id);
    rt_member *m = owner_primary(id);
    PGresult *res = PQexec(m->conn, sql);
    const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
    bool locked = PQresultStatus(res) == PGRES_FATAL_ERROR && state != NULL &&
                  strcmp(state, "55P03") == 0;
    if (!locked && PQresultStatus(res) != PGRES_TUPLES_OK)
        rt_fail("%s: %s: %s", m->name, sql, PQerrorMessage(m->conn));
    PQclear(res);
    return locked;
}

#define LOCK_LIKE "SELECT id, balance FROM accounts WHERE id = $1 FOR UPDATE%"

/* Row locks in a transaction pinned to G1: a keyset-driven cursor with
 * SQL_CONCUR_LOCK locks every row of its rowset on the row's owner (each
 * re-read is a query of its own, routed by its key, joined to the
 * transaction), and SQLSetPos SQL_LOCK_EXCLUSIVE locks the one row it
 * names; the locks are the transaction's, held until its end. */
static void row_locks(const char *dsn, int g3)
{
    SQLHENV env;
    SQLHDBC dbc;
    connect_on_g1(dsn, &env, &dbc);
    rt_odbc_check(SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0),
                  SQL_HANDLE_DBC, dbc, "autocommit off");
    rt_reset_statements(&cluster);
    cursor k;
    open_cursor_of(&k, dbc, SQL_CURSOR_KEYSET_DRIVEN, SQL_CONCUR_LOCK);
    SQLULEN concurrency = 0;
    check(SQLGetStmtAttr(k.h, SQL_ATTR_CONCURRENCY, &concurrency, 0, NULL), k.h, "concurrency");
    if (concurrency != SQL_CONCUR_LOCK)
        rt_fail("locks: SQL_CONCUR_LOCK became %lu", (unsigned long)concurrency);
    for (int i = 0; i < n_ids; i++)
        if (!locked_on_owner(ids[i]))
            rt_fail("locks: account %lld is not locked on %s", (long long)ids[i],
                    owner_primary(ids[i])->name);
    for (int g = 0; g < cluster.n_groups; g++) {
        rt_member *p = &cluster.members[rt_primary_of(&cluster, g)];
        long got = rt_calls(&cluster, rt_primary_of(&cluster, g), LOCK_LIKE);
        if (got != PER_GROUP)
            rt_fail("locks: %s ran %s %ld times, expected %d (its own rows)", p->name,
                    LOCK_LIKE, got, PER_GROUP);
    }
    SQLFreeHandle(SQL_HANDLE_STMT, k.h);
    rt_odbc_check(SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_ROLLBACK), SQL_HANDLE_DBC, dbc, "rollback");
    for (int i = 0; i < n_ids; i++)
        if (locked_on_owner(ids[i]))
            rt_fail("locks: account %lld is still locked after ROLLBACK", (long long)ids[i]);

    /* SQL_LOCK_EXCLUSIVE on a static cursor: the one row of G3 it names. */
    open_cursor_of(&k, dbc, SQL_CURSOR_STATIC, SQL_CONCUR_READ_ONLY);
    int r3 = row_of_group(&k, g3, 0);
    check(SQLSetPos(k.h, (SQLSETPOSIROW)r3 + 1, SQL_POSITION, SQL_LOCK_EXCLUSIVE), k.h,
          "SQL_LOCK_EXCLUSIVE");
    for (int i = 0; i < n_ids; i++)
        if (locked_on_owner(ids[i]) != (ids[i] == k.id[r3]))
            rt_fail("SQL_LOCK_EXCLUSIVE of account %lld: account %lld is %slocked",
                    (long long)k.id[r3], (long long)ids[i], ids[i] == k.id[r3] ? "not " : "");
    SQLFreeHandle(SQL_HANDLE_STMT, k.h);
    rt_odbc_check(SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_ROLLBACK), SQL_HANDLE_DBC, dbc, "rollback");
    if (locked_on_owner(k.id[r3]))
        rt_fail("SQL_LOCK_EXCLUSIVE: the lock outlived the ROLLBACK");
    rt_odbc_disconnect(env, dbc);
    printf("locks: SQL_CONCUR_LOCK locked every row on its owner (%d a group), "
           "SQL_LOCK_EXCLUSIVE the one row of G3; ROLLBACK freed them\n", PER_GROUP);
}

/* Runs sql through the driver on dbc; SQL_NO_DATA is a success. */
static void run(SQLHDBC dbc, const char *sql)
{
    SQLHSTMT h;
    rt_odbc_check(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &h), SQL_HANDLE_DBC, dbc, "alloc");
    SQLRETURN rc = SQLExecDirect(h, (SQLCHAR *)sql, SQL_NTS);
    if (rc != SQL_NO_DATA)
        check(rc, h, sql);
    SQLFreeHandle(SQL_HANDLE_STMT, h);
}

/* One text value of a query on member m, as the superuser. */
static void member_value(rt_member *m, const char *sql, char *out, size_t size)
{
    PGresult *res = PQexec(m->conn, sql);
    if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1)
        rt_fail("%s: %s: %s", m->name, sql, PQerrorMessage(m->conn));
    snprintf(out, size, "%s", PQgetvalue(res, 0, 0));
    PQclear(res);
}

/* A solo table read in a transaction pinned to another group is read there
 * through its foreign twin, which PostgreSQL gives no key: the cursor takes
 * the key's columns from the owner group, so a select list without all the
 * table's columns still changes rows, by key, on the owner (before: HY000,
 * "its primary key columns ... must be in the select list"). */
static void solo_twin_changes_by_owner_key(const char *dsn, int g1)
{
    SQLHENV env;
    SQLHDBC dbc;
    connect_on_g1(dsn, &env, &dbc);
    run(dbc, "DROP TABLE IF EXISTS cw_solo");
    run(dbc, "CREATE TABLE cw_solo (id int PRIMARY KEY, v int, note text)");
    run(dbc, "INSERT INTO cw_solo VALUES (1, 10, 'a')");
    char owner_name[RT_NAME_LEN];
    member_value(&cluster.members[rt_primary_of(&cluster, g1)],
                 "SELECT owner_group FROM gcluster.tables WHERE name = 'cw_solo'", owner_name,
                 sizeof owner_name);
    int owner = rt_group_index(&cluster, owner_name);
    int other = owner == g1 ? (g1 + 1) % cluster.n_groups : g1;
    if (owner < 0)
        rt_fail("cw_solo has no owner group: '%s'", owner_name);
    rt_odbc_disconnect(env, dbc);

    char connstr[256];
    snprintf(connstr, sizeof connstr, "DSN=%s;LocalityMemberPolicy=0;LocalityGroupPolicy=1;"
             "LocalityGroupPath=%s", dsn, cluster.groups[other]);
    rt_odbc_connect(&env, &dbc, connstr);
    rt_odbc_check(SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0),
                  SQL_HANDLE_DBC, dbc, "autocommit off");
    rt_reset_statements(&cluster);
    run(dbc, "SAVEPOINT s1");     /* pins the transaction to the other group's primary */
    SQLHSTMT h;
    rt_odbc_check(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &h), SQL_HANDLE_DBC, dbc, "alloc");
    check(SQLSetStmtAttr(h, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_STATIC, 0), h, "type");
    check(SQLSetStmtAttr(h, SQL_ATTR_CONCURRENCY, (SQLPOINTER)SQL_CONCUR_VALUES, 0), h, "conc");
    check(SQLExecDirect(h, (SQLCHAR *)"SELECT id, v FROM cw_solo", SQL_NTS), h, "select");
    SQLINTEGER id = 0, v = 0;
    SQLLEN id_ind = 0, v_ind = 0;
    check(SQLBindCol(h, 1, SQL_C_SLONG, &id, 0, &id_ind), h, "bind id");
    check(SQLBindCol(h, 2, SQL_C_SLONG, &v, 0, &v_ind), h, "bind v");
    check(SQLFetchScroll(h, SQL_FETCH_FIRST, 0), h, "fetch");
    v = 11;
    check(SQLSetPos(h, 1, SQL_UPDATE, SQL_LOCK_NO_CHANGE), h, "SQLSetPos(SQL_UPDATE) of the twin's row");
    SQLFreeHandle(SQL_HANDLE_STMT, h);
    rt_odbc_check(SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_COMMIT), SQL_HANDLE_DBC, dbc, "commit");
    /* The SELECT ran on the other group (through the twin), the change on
     * the owner's primary, by key. */
    int owner_primary_m = rt_primary_of(&cluster, owner);
    int other_primary_m = rt_primary_of(&cluster, other);
    long selects = rt_calls(&cluster, other_primary_m, "SELECT id, v FROM cw_solo%");
    long updates = rt_calls(&cluster, owner_primary_m, "UPDATE cw_solo SET%WHERE%id%");
    char got[32];
    member_value(&cluster.members[owner_primary_m], "SELECT v::text FROM cw_solo WHERE id = 1",
                 got, sizeof got);
    if (selects != 1 || updates != 1 || strcmp(got, "11") != 0)
        rt_fail("solo table through its twin: %ld SELECT on %s, %ld UPDATE on %s, v = %s",
                selects, cluster.members[other_primary_m].name, updates,
                cluster.members[owner_primary_m].name, got);
    rt_odbc_check(SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0),
                  SQL_HANDLE_DBC, dbc, "autocommit on");
    run(dbc, "DROP TABLE cw_solo");
    rt_odbc_disconnect(env, dbc);
    printf("solo table read through its twin on %s: changed by key on %s\n",
           cluster.groups[other], cluster.groups[owner]);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_cursor_writes DIR DSN\n");
        return 2;
    }
    alarm(300);
    rt_cluster_open(&cluster, argv[1]);
    int g1 = rt_group_index(&cluster, "G1"), g2 = rt_group_index(&cluster, "G2"),
        g3 = rt_group_index(&cluster, "G3");
    if (g1 < 0 || g2 < 0 || g3 < 0)
        rt_fail("the cluster needs groups G1, G2, G3");
    choose_ids();
    restore_accounts();

    char connstr[256];
    snprintf(connstr, sizeof connstr, "DSN=%s;LocalityMemberPolicy=0", argv[2]);
    SQLHENV env;
    SQLHDBC dbc;
    rt_odbc_connect(&env, &dbc, connstr);
    autocommit_changes(dbc, g1, g2, g3);
    refused_without_key(dbc);
    rt_odbc_check(SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0),
                  SQL_HANDLE_DBC, dbc, "autocommit off");
    transaction_changes(dbc, g1, g2, g3, SQL_ROLLBACK);
    transaction_changes(dbc, g1, g2, g3, SQL_COMMIT);
    keyset_rereads(argv[2], g1, g2, g3);
    split_read_changes_by_key(argv[2], g1, g2);
    row_locks(argv[2], g3);
    solo_twin_changes_by_owner_key(argv[2], g1);
    rt_odbc_check(SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0),
                  SQL_HANDLE_DBC, dbc, "autocommit on");
    rt_odbc_disconnect(env, dbc);
    restore_accounts();
    rt_cluster_close(&cluster);
    printf("PASS: rows changed through a cursor run on their owners\n");
    return 0;
}
