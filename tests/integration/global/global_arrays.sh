#!/bin/bash
# Parameter arrays on a global connection, end to end: a private 2 x 2
# cluster (always taken down), global_arrays driving the driver through
# unixODBC, and the servers as witnesses: each row of an autocommit INSERT
# array ran on the primary of the group owning its key (pg_stat_statements
# calls of the application's INSERT on each primary equal the rows its
# group's shards received), no row ran on a standby, every row the
# driver reported inserted is there, in a shard of its owner group, and
# the rows the failing row's window undid ran on their owners' primaries
# and are gone: each window of 100 rows (psqlODBC's BatchSize) is one
# transaction across the two groups, each that committed prepared on one
# group (PREPARE TRANSACTION), the failing one on none. Then an array whose
# windows go to one group's primary, across both, then to the other's:
# consecutive windows on one member go in one pipeline (closed by one
# ROLLBACK on that primary, which pg_stat_statements counts), and the
# failing window alone is undone. Last a described array (SQLDescribeParam:
# windows of one row, as psqlODBC runs it row by row) of 200 rows alternating
# between the groups: tried 100 rows together, each hundred one transaction
# across the groups (one PREPARE TRANSACTION each), every row run once.
# usage: global_arrays.sh GCCTL PROGRAM SPEC DIR
GCCTL=$1
PROGRAM=$2
SPEC=$3
DIR=$4
source "$(dirname "$0")/../gcctl/lib.sh"
own_cluster "$SPEC"

FIRST=5001
ROWS=300
for m in $(members); do
    su_sql "$m" "SELECT pg_stat_statements_reset()" >/dev/null
done
trace="$DIR/global_arrays.log"
rm -f "$trace"
out=$(run_client "$PROGRAM" gquick "$FIRST" "$ROWS" "$trace") || fail "global_arrays failed: $out"
echo "$out" | grep -v '^undone: '
undone_ids=$(echo "$out" | sed -n 's/^undone: //p' | paste -sd, -)
undone=$(echo "$out" | grep -c '^undone: ')

# The arrays sent with SQLExecDirect (ids FIRST+1000 on): routed by key,
# each row ran on its owner's primary (the application's INSERT counted
# there; through postgres_fdw it would have reached the shard as
# postgres_fdw's own INSERT of the shard), none on a standby; the first
# array's 12 rows stayed, none of the second's, whose last row failed
# (its window undone on both groups, as a general connection's batch).
direct_calls() {
    su_sql "$1" "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements
             WHERE query LIKE 'INSERT INTO accounts (owner, id)%'"
}
fdw_calls() {
    su_sql "$1" "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements
             WHERE query LIKE 'INSERT INTO public.accounts%'"
}
direct_total=0
for g in G1 G2; do
    p=$(primary_of "$g")
    got=$(direct_calls "$p")
    [ "$got" -gt 0 ] || fail "$p ran none of the direct arrays' rows: the test proves nothing"
    direct_total=$((direct_total + got))
    got=$(fdw_calls "$p")
    [ "$got" = 0 ] || fail "$p took $got rows through postgres_fdw"
    for m in $(members "$g"); do
        [ "$m" = "$p" ] && continue
        got=$(direct_calls "$m")
        [ "$got" = 0 ] || fail "standby $m ran the direct INSERT $got times"
    done
done
# 12 rows, then the second array's 11 before its failing one.
[ "$direct_total" = 23 ] || fail "the primaries ran the direct INSERT $direct_total times, not 23"
got=$(sql G1N1 "SELECT count(*) FILTER (WHERE owner = 'direct') || ' ' ||
                       count(*) FILTER (WHERE owner = 'direct-undone') FROM accounts")
[ "$got" = "12 0" ] || fail "direct arrays' rows stored (kept, undone): $got, not 12 0"
echo "ok: the direct arrays ran by key on the primaries, the failing one undone on both"

# Rows inserted: every id but the ignored row 5's and the undone ones, the
# last row failing.
LAST=$((FIRST + ROWS - 2))
want_rows=$((ROWS - 2 - undone))
got=$(sql G1N1 "SELECT count(*) FROM accounts WHERE id BETWEEN $FIRST AND $LAST
                 AND id <> $((FIRST + 4)) AND id NOT IN ($undone_ids) AND owner = 'a' || id")
[ "$got" = "$want_rows" ] || fail "$got of the $want_rows inserted rows are there"
got=$(sql G1N1 "SELECT count(*) FROM accounts WHERE id IN ($((FIRST + 4)), $undone_ids)")
[ "$got" = 0 ] || fail "the ignored row or an undone row is there"

# The servers' account: on each primary, the application's INSERT ran once
# per row its group owns (pg_stat_statements counts what completed there;
# a row sent to another group's member would reach its shard through
# postgres_fdw as another statement, not be counted on its owner).
owned() {
    sql G1N1 "SELECT count(*) FROM accounts a JOIN gcluster.shards s
               ON s.name = a.tableoid::regclass::text
               WHERE a.id BETWEEN $FIRST AND $LAST AND s.group_name = '$1'
                 AND a.owner <> 'probe'"
}
calls() {
    su_sql "$1" "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements
             WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'app')
               AND query LIKE 'INSERT INTO accounts (id, owner) VALUES (\$1%'"
}
prepared() {
    su_sql "$1" "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements
             WHERE query LIKE 'PREPARE TRANSACTION ''gcx:%'"
}
# The undone rows ran (and were rolled back) on their owners: which group
# owns each is found after the counts are read, by storing them once more
# through postgres_fdw (another text than the application's) and reading
# where they landed.
prepares=0
declare -A ran_by
for g in G1 G2; do
    p=$(primary_of "$g")
    ran_by[$g]=$(calls "$p")
    prepares=$((prepares + $(prepared "$p")))
done
# Two INSERT windows, the UPDATE array's one window and the first direct
# array's committed across the two groups, each preparing on one of them.
[ "$prepares" = 4 ] || fail "$prepares PREPARE TRANSACTION on the primaries, not 4"
sql G1N1 "INSERT INTO accounts (id, owner) SELECT unnest('{$undone_ids}'::bigint[]), 'probe'" >/dev/null
undone_in() {
    sql G1N1 "SELECT count(*) FROM accounts a JOIN gcluster.shards s
               ON s.name = a.tableoid::regclass::text
               WHERE a.owner = 'probe' AND s.group_name = '$1'"
}
total=0
for g in G1 G2; do
    p=$(primary_of "$g")
    own=$(owned "$g")
    [ "$own" -gt 0 ] || fail "group $g owns none of the rows: the test proves nothing"
    back=$(undone_in "$g")
    [ "$back" -gt 0 ] || fail "group $g owns none of the undone rows: the window was not across groups"
    ran=$((own + back))
    got=${ran_by[$g]}
    [ "$got" = "$ran" ] || fail "$p ran the INSERT $got times; its group $g owns $own rows"
    total=$((total + own))
    for m in $(members "$g"); do
        [ "$m" = "$p" ] && continue
        got=$(calls "$m")
        [ "$got" = 0 ] || fail "standby $m ran the INSERT $got times"
    done
    echo "ok: $p ran the INSERT for exactly the $own rows group $g owns and its $back undone rows"
done
[ "$total" = "$want_rows" ] || fail "owners account for $total rows, not $want_rows"

# Windows on one member: 250 ids of G1, then 250 of G2, found by storing
# candidates through postgres_fdw and reading where they landed.
sql G1N1 "INSERT INTO accounts (id, owner) SELECT g, 'scan' FROM generate_series(30000, 30999) g" >/dev/null
ids_of() {
    sql G1N1 "SELECT string_agg(id::text, ',' ORDER BY id) FROM (
                SELECT a.id FROM accounts a JOIN gcluster.shards s
                  ON s.name = a.tableoid::regclass::text
                WHERE a.owner = 'scan' AND s.group_name = '$1' ORDER BY a.id LIMIT 350) o"
}
ids_a=$(ids_of G1)
ids_b=$(ids_of G2)
sql G1N1 "DELETE FROM accounts WHERE owner = 'scan'" >/dev/null
for m in $(members); do
    su_sql "$m" "SELECT pg_stat_statements_reset()" >/dev/null
done
out=$(run_client "$PROGRAM" gquick runs "$ids_a" "$ids_b") || fail "global_arrays runs failed: $out"
echo "$out"
kept="$(echo "$ids_a" | cut -d, -f1-250),$(echo "$ids_b" | cut -d, -f1-150)"
got=$(sql G1N1 "SELECT count(*) FROM accounts WHERE owner = 'run' AND id IN ($kept)")
[ "$got" = 400 ] || fail "$got of the 400 rows of the windows before the failing one are there"
got=$(sql G1N1 "SELECT count(*) FROM accounts WHERE owner = 'run'")
[ "$got" = 400 ] || fail "$got rows stored by the runs' array, not 400: the failing window stayed"
stat_calls() {
    su_sql "$1" "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE query LIKE '$2'"
}
for g in G1 G2; do
    p=$(primary_of "$g")
    # G1 ran its 250 rows; G2 its rows up to the failing one (the
    # failing window's undone ones too), the failing one not completing.
    want=$([ "$g" = G1 ] && echo 250 || echo 200)
    got=$(stat_calls "$p" 'INSERT INTO accounts (id, owner, balance)%')
    [ "$got" = "$want" ] || fail "$p ran the runs' INSERT $got times, not $want"
    # A pipeline of batches ends with a ROLLBACK (of a failed batch, or
    # of none); the window across groups ends in two phases instead.
    got=$(stat_calls "$p" 'ROLLBACK')
    [ "$got" = 1 ] || fail "$p ran $got ROLLBACKs: its windows went in $got pipelines, not 1"
    echo "ok: $p ran $want rows of the runs' array, its windows in one pipeline"
done

# The described array's rows, tried together a hundred at a time: each
# group's primary ran its 100 rows once, and the two hundreds committed
# in two phases (one PREPARE TRANSACTION each, on the group that did not
# coordinate), where row by row no row would prepare. With the runs'
# window across groups, three since the statistics were reset.
got=$(sql G1N1 "SELECT count(*) FROM accounts WHERE owner = 'described'")
[ "$got" = 200 ] || fail "$got of the described array's 200 rows are there"
prepares=0
for g in G1 G2; do
    p=$(primary_of "$g")
    got=$(stat_calls "$p" 'INSERT INTO accounts (owner, id)%')
    [ "$got" = 100 ] || fail "$p ran the described array's INSERT $got times, not 100"
    prepares=$((prepares + $(stat_calls "$p" "PREPARE TRANSACTION ''gcx:%")))
done
[ "$prepares" = 3 ] || fail "$prepares PREPARE TRANSACTION for the runs' window across groups and the described array's two hundreds, not 3"
echo "ok: the described array's 200 rows went as two transactions across the groups"
echo PASS
