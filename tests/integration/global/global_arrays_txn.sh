#!/bin/bash
# Parameter arrays in transactions on a global connection, end to end: a
# private 2 x 2 cluster (always taken down), global_arrays_txn driving the
# driver through unixODBC, and the servers as witnesses: the committed
# array's rows are all there, in their owner groups, and each primary ran
# the INSERT at least once per row its group owns (rows go to their
# owner, joined to the transaction, not through postgres_fdw); no standby
# ran it; the failed arrays left nothing (undone on every member at level
# 2, the transaction rolled back at level 1) while the level-2
# transaction's other work committed; and each primary set one savepoint
# per array it took part in (pg_stat_statements), not one per row.
# usage: global_arrays_txn.sh GCCTL PROGRAM SPEC DIR
GCCTL=$1
PROGRAM=$2
SPEC=$3
DIR=$4
source "$(dirname "$0")/../gcctl/lib.sh"
own_cluster "$SPEC"

FIRST=7001
ROWS=200
for m in $(members); do
    su_sql "$m" "SELECT pg_stat_statements_reset()" >/dev/null
done
trace="$DIR/global_arrays_txn.log"
rm -f "$trace"
run_client "$PROGRAM" gquick "$FIRST" "$ROWS" "$trace" || fail "global_arrays_txn failed"

count() {
    sql G1N1 "SELECT count(*) FROM accounts WHERE $1"
}
got=$(count "id BETWEEN $FIRST AND $((FIRST + ROWS - 1)) AND owner = 'a' || id")
[ "$got" = "$ROWS" ] || fail "$got of the committed array's $ROWS rows are there"
got=$(count "id BETWEEN $((FIRST + ROWS)) AND $((FIRST + 4 * ROWS))")
[ "$got" = 0 ] || fail "$got rows of the failed arrays are there"
got=$(count "id IN ($((FIRST + 10 * ROWS)), $((FIRST + 10 * ROWS + 1)))")
[ "$got" = 2 ] || fail "the level-2 transaction's own rows around the failed array: $got of 2"
got=$(count "id IN ($((FIRST + 10 * ROWS + 2)), $((FIRST + 10 * ROWS + 3)))")
[ "$got" = 0 ] || fail "levels 1 and 0 left $got rows of their failed transactions"
echo "ok: committed array there, failed arrays undone, the transaction's other work kept"

owned() {
    sql G1N1 "SELECT count(*) FROM accounts a JOIN gcluster.shards s
               ON s.name = a.tableoid::regclass::text
               WHERE a.id BETWEEN $FIRST AND $((FIRST + ROWS - 1)) AND s.group_name = '$1'"
}
calls() {
    su_sql "$1" "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements
             WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'app')
               AND query = '$2'"
}
insert='INSERT INTO accounts (id, owner) VALUES ($1, $2)'
for g in G1 G2; do
    p=$(primary_of "$g")
    own=$(owned "$g")
    [ "$own" -gt 0 ] || fail "group $g owns none of the rows: the test proves nothing"
    ran=$(calls "$p" "$insert")
    [ "$ran" -ge "$own" ] || fail "$p ran the INSERT $ran times; its group $g owns $own rows"
    for m in $(members "$g"); do
        [ "$m" = "$p" ] && continue
        got=$(calls "$m" "$insert")
        [ "$got" = 0 ] || fail "standby $m ran the INSERT $got times"
    done
    # Level 2 took part in two arrays on every primary, a single
    # statement's savepoint at most besides; row by row would set one
    # savepoint per row.
    saves=$(calls "$p" "SAVEPOINT gc_statement")
    [ "$saves" -ge 2 ] && [ "$saves" -le 3 ] ||
        fail "$p set $saves savepoints for 2 arrays of $ROWS rows (2 or 3 expected)"
    echo "ok: $p ran its group's rows ($ran INSERT calls, $own committed) with $saves savepoints"
done
echo PASS
