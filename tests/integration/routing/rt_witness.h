/*
 * rt_witness: the servers as witnesses of where a global connection ran its
 * statements. Reads DIR/witnesses (written by cluster_up.sh), connects to
 * every member as the superuser with libpq, asks each server its role and
 * group, which group owns each account id, and how many times a statement
 * ran there (pg_stat_statements). Nothing here asks the driver.
 */
#ifndef RT_WITNESS_H
#define RT_WITNESS_H

#include <stdbool.h>
#include <stdint.h>

#include <libpq-fe.h>
#include <sql.h>
#include <sqlext.h>

#define RT_MAX_MEMBERS 16
#define RT_MAX_GROUPS 8
#define RT_NAME_LEN 32

typedef struct {
    char name[RT_NAME_LEN];   /* G1N1 */
    int group;                /* index into rt_cluster.groups */
    bool standby;             /* pg_is_in_recovery() as the server says */
    PGconn *conn;             /* superuser session, owned */
} rt_member;

typedef struct {
    rt_member members[RT_MAX_MEMBERS];
    int n_members;
    char groups[RT_MAX_GROUPS][RT_NAME_LEN];  /* in order of first appearance */
    int n_groups;
    int *owner_of;            /* owner_of[id] = group index, ids 1..max_id; owned */
    int64_t max_id;
} rt_cluster;

/* Prints "FAIL: ..." on stderr and exits 1. */
void rt_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/*
 * Connects to every member listed in DIR/witnesses, learns roles and groups
 * from the servers and the owner group of every account id (partition of the
 * row, mapped to its group through gcluster.shards). Fails the test on error.
 */
void rt_cluster_open(rt_cluster *c, const char *dir);
void rt_cluster_close(rt_cluster *c);

/* Index of the group named name, or -1. */
int rt_group_index(const rt_cluster *c, const char *name);
/* The primary of group g (fails the test when there is none). */
int rt_primary_of(const rt_cluster *c, int g);

/* pg_stat_statements_reset() on every member. */
void rt_reset_statements(rt_cluster *c);
/*
 * Sum of pg_stat_statements.calls on member m, in this database, of the
 * statements whose text matches the SQL LIKE pattern.
 */
long rt_calls(rt_cluster *c, int m, const char *like_pattern);
/*
 * Sum of pg_stat_statements.calls on member m, in this database, of every
 * other statement the clients ran (not the witness's own queries): what the
 * driver sent besides the routing tests' two statements and the
 * transaction-id query that rides with each autocommit write.
 */
long rt_other_calls(rt_cluster *c, int m);

/* A deterministic pseudo-random generator (fixed seed, same keys every run). */
typedef struct { uint64_t s; } rt_rng;
uint64_t rt_rng_next(rt_rng *r);
/* A random account id in 1..max_id. */
int64_t rt_random_id(rt_rng *r, const rt_cluster *c);
/* A random account id owned by group g. */
int64_t rt_random_id_of_group(rt_rng *r, const rt_cluster *c, int g);

/* ODBC helpers: each fails the test with the handle's diagnostics. */
void rt_odbc_check(SQLRETURN rc, SQLSMALLINT htype, SQLHANDLE h, const char *what);
/* Allocates an environment and a connection and connects with connstr. */
void rt_odbc_connect(SQLHENV *env, SQLHDBC *dbc, const char *connstr);
void rt_odbc_disconnect(SQLHENV env, SQLHDBC dbc);

/*
 * The two prepared point statements every routing test sends, on one ODBC
 * connection; their texts are what rt_calls() looks for on the servers.
 */
#define RT_SELECT_SQL "SELECT id, balance FROM accounts WHERE id = ?"
#define RT_SELECT_LIKE "SELECT id, balance FROM accounts WHERE id = %"
#define RT_UPDATE_SQL "UPDATE accounts SET balance = balance + 1 WHERE id = ?"
#define RT_UPDATE_LIKE "UPDATE accounts SET balance = balance + % WHERE id = %"

typedef struct {
    SQLHSTMT select, update;
    SQLBIGINT select_key, update_key;   /* bound parameters */
    SQLBIGINT id;                       /* bound result column */
    SQLLEN id_ind;
} rt_point;

/* Allocates, prepares and binds both statements on dbc. */
void rt_point_prepare(rt_point *p, SQLHDBC dbc);
/* Reads account id: exactly one row, with that id. */
void rt_point_select(rt_point *p, int64_t id);
/* Adds 1 to account id's balance: exactly one row updated. */
void rt_point_update(rt_point *p, int64_t id);
void rt_point_free(rt_point *p);

#endif
