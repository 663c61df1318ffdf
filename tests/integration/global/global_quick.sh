#!/bin/bash
# The global connection, end to end: a private 2 x 2 cluster (always taken
# down), global_quick driving the driver through unixODBC, and the servers as
# witnesses: every keyed statement ran on the primary of the group owning
# its key, and pg_stat_statements on each primary counts exactly those.
# usage: global_quick.sh GCCTL QUICK SPEC DIR
GCCTL=$1
QUICK=$2
SPEC=$3
DIR=$4
source "$(dirname "$0")/../gcctl/lib.sh"
own_cluster "$SPEC"


sql G1N1 "INSERT INTO accounts (id, owner) SELECT g, 'seed' FROM generate_series(1, 20) g" >/dev/null
for m in $(members); do
    wait_until "$m" "SELECT count(*) FROM accounts" 20
    su_sql "$m" "SELECT pg_stat_statements_reset()" >/dev/null
done

out=$(ODBCSYSINI="$DIR" ODBCINI="$DIR/odbc.ini" "$QUICK" gquick "$(members | wc -l)") \
    || fail "global_quick failed"
echo "$out" | grep '^show'

# owner KEY: the group whose plain shard holds the row.
owner() {
    sql G1N1 "SELECT s.group_name FROM accounts a JOIN gcluster.shards s
               ON s.name = a.tableoid::regclass::text WHERE a.id = $1"
}
declare -A expect
while read -r op key member; do
    [ "$op" = show ] && continue
    group=$(owner "$key")
    want=$(primary_of "$group")
    [ "$member" = "$want" ] || fail "$op of key $key ran on $member; its owner group $group's primary is $want"
    [ "$op" = txn ] && continue
    expect[$want,$op]=$(( ${expect[$want,$op]:-0} + 1 ))
done <<<"$out"
echo "ok: each keyed statement ran on its owner group's primary (by the driver's account)"

# The servers' account: calls per primary equal the keys its group owns.
calls() {
    su_sql "$1" "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements
             WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'app') AND query LIKE '$2%'"
}
for g in G1 G2; do
    p=$(primary_of "$g")
    for op in select update insert; do
        case $op in
        select) pattern="SELECT owner FROM accounts WHERE id = \$1";;
        update) pattern="UPDATE accounts SET balance = balance + ";;  # constants become $n
        insert) pattern="INSERT INTO accounts (id, owner) VALUES (\$1";;
        esac
        got=$(calls "$p" "$pattern")
        want=${expect[$p,$op]:-0}
        # The transaction's updates ran on their keys' primaries too.
        [ "$op" = update ] && want=$((want + ${expect[$p,txnupdate]:-0}))
        [ "$got" = "$want" ] || fail "$p: pg_stat_statements counts $got calls of $op, expected $want"
    done
done
for g in G1 G2; do
    for m in $(members "$g"); do
        [ "$m" = "$(primary_of "$g")" ] && continue
        got=$(calls "$m" "SELECT owner FROM accounts")
        [ "$got" = 0 ] || fail "standby $m ran $got SELECTs with policy 0"
    done
done
echo "ok: pg_stat_statements on each primary counts exactly its own keys, none on standbys"

# LocalityOnDemand=Yes: members open when first chosen; same routing.
sql G1N1 "DELETE FROM accounts WHERE id > 1000" >/dev/null
out=$(GQ_EXTRA="LocalityOnDemand=Yes" ODBCSYSINI="$DIR" ODBCINI="$DIR/odbc.ini" \
      "$QUICK" gquick "$(members | wc -l)") || fail "global_quick with LocalityOnDemand=Yes failed"
while read -r op key member; do
    case $op in select|update|insert) ;; *) continue;; esac
    want=$(primary_of "$(owner "$key")")
    [ "$member" = "$want" ] || fail "on demand: $op of key $key ran on $member, not $want"
done <<<"$out"
echo "$out" | grep '^show'
echo "ok: LocalityOnDemand=Yes routes the same"

# LocalityGroupPath / LocalityMemberPath naming what the cluster does not
# have: a 01000 warning at connect naming them.
ODBCSYSINI="$DIR" ODBCINI="$DIR/odbc.ini" "$QUICK" gquick unknownpaths \
    || fail "unknown path names were not named at connect"

# Seeds without the cluster catalog: 08001 naming it.
ODBCSYSINI="$DIR" ODBCINI="$DIR/odbc.ini" "$QUICK" gquick nocatalog || fail "no-catalog connect"

# A standby down: the connection opens with 01000 naming it; keyed
# statements still run on their owners' primaries.
"$GCCTL" local stop-member G2N2 --dir "$DIR" --mode immediate >/dev/null || fail "stop G2N2"
out=$(ODBCSYSINI="$DIR" ODBCINI="$DIR/odbc.ini" "$QUICK" gquick down G2N2) \
    || fail "connect with G2N2 down"
echo "$out" | grep '^ok'
while read -r op key member; do
    [ "$op" = select ] || continue
    want=$(primary_of "$(owner "$key")")
    [ "$member" = "$want" ] || fail "with G2N2 down, key $key ran on $member, not $want"
done <<<"$out"

# The same standby, still down at connect, then started while the
# connection is open: the driver retries it by itself and, with SELECTs
# routed to standbys, it serves them again (counted on G2N2 itself).
out=$(ODBCSYSINI="$DIR" ODBCINI="$DIR/odbc.ini" "$QUICK" gquick down G2N2 \
      "'$GCCTL' local start-member G2N2 --dir '$DIR' >/dev/null") \
    || fail "G2N2, down at connect and started later, was not used again"
echo "$out" | grep '^ok'
got=$(su_sql G2N2 "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements
               WHERE query LIKE 'SELECT owner FROM accounts WHERE id = \$1%'")
[ "$got" -gt 0 ] || fail "G2N2 counts no keyed SELECT after it came back"
echo "ok: G2N2 ran $got keyed SELECTs after coming back (pg_stat_statements on G2N2)"
echo PASS
