#!/bin/bash
# High availability is the default: a spec that does not say `ha` builds
# every group with a standby under pg_auto_failover, and gcctl's own
# operations work on such groups: promote (the monitor promotes, a
# switchover while the primary runs), add-member (a keeper per new
# standby; a group that ran alone is taken under a keeper with its data),
# add-group, move-shard, and promote after the monitor has already failed a
# group over by itself.
# usage: ha_operations.sh GCCTL SPEC DIR
GCCTL=$1
SPEC=$2
DIR=$3
source "$(dirname "$0")/lib.sh"
own_ha_cluster "$SPEC"
write_fault_helper

# status_line MEMBER: the member's line in gcctl status.
status_line() {
    "$GCCTL" status --dir "$DIR" | grep -E "^$1 "
}
# wait_state MEMBER ROLE HA_STATE: polls status for up to 60 s.
wait_state() {
    local line=""
    for _ in $(seq 1 120); do
        line=$(status_line "$1")
        echo "$line" | grep -Eq " $2 +$2 +[0-9]+ +$3/$3\$" && return 0
        sleep 0.5
    done
    fail "$1 is not '$2' with pg_auto_failover state '$3': $line"
}
catalog_role() {
    sql "$(primary_of G2)" "SELECT role FROM gcluster.members WHERE name = '$1'"
}

wait_state G1N1 primary primary
wait_state G1N2 standby secondary
wait_state G2N1 primary primary
echo "ok: a spec without 'ha' runs its groups under pg_auto_failover"

sql G1N1 "INSERT INTO accounts SELECT g, 'a', 0 FROM generate_series(1, 100) g" \
         "INSERT INTO settings VALUES ('k', 'v')"
"$GCCTL" promote G1N2 --dir "$DIR" || fail "promote G1N2 while G1N1 runs"
wait_state G1N2 primary primary
wait_state G1N1 standby secondary
[ "$(catalog_role G1N2)" = primary ] || fail "the catalog does not name G1N2 the primary"
sql G1N2 "UPDATE settings SET v = 'after switchover' WHERE k = 'k'"
wait_until G1N1 "SELECT v FROM settings" "after switchover"
echo "ok: promote on an HA group is a switchover by the monitor; the old primary follows"

"$GCCTL" add-member G1N3 --group G1 --dir "$DIR" || fail "add-member G1N3"
wait_state G1N3 standby secondary
wait_until G1N3 "SELECT count(*) FROM accounts" 100
echo "ok: add-member to an HA group starts a keeper for the new standby"

"$GCCTL" add-group G3 --member G3N1 --dir "$DIR" || fail "add-group G3"
status_line G3N1 | grep -Eq ' primary +primary +[0-9]+ *$' || fail "a group of one member runs without HA: $(status_line G3N1)"
"$GCCTL" move-shard accounts accounts_1 --to G3 --dir "$DIR" || fail "move-shard to G3"
moved=$(sql G3N1 "SELECT count(*) FROM ONLY accounts_1")
[ "$moved" -gt 0 ] || fail "accounts_1 holds no rows on G3"
"$GCCTL" add-member G3N2 --group G3 --dir "$DIR" || fail "add-member G3N2"
wait_state G3N1 primary primary
wait_state G3N2 standby secondary
[ "$(sql G3N1 "SELECT count(*) FROM ONLY accounts_1")" = "$moved" ] || fail "G3N1 lost rows when taken under its keeper"
[ "$(sql G1N2 "SELECT count(*) FROM accounts")" = 100 ] || fail "accounts seen from G1 after the moves"
echo "ok: add-group, move-shard, and a lone primary taken under a keeper with its $moved rows"

"$DIR/helper.sh" crash G3N1
state=""
for _ in $(seq 1 120); do
    state=$("$DIR/helper.sh" monitor "SELECT reportedstate FROM pgautofailover.node WHERE nodename = 'G3N2'")
    case $state in wait_primary|primary) break ;; esac
    sleep 0.5
done
case $state in wait_primary|primary) ;; *) fail "the monitor did not promote G3N2 after G3N1 crashed: $state" ;; esac
"$GCCTL" promote G3N2 --dir "$DIR" || fail "promote G3N2 after the monitor promoted it"
[ "$(catalog_role G3N2)" = primary ] || fail "the catalog does not name G3N2 the primary"
sql G3N2 "UPDATE accounts SET balance = 1 WHERE id IN (SELECT id FROM ONLY accounts_1)"
[ "$(sql G1N2 "SELECT count(*) FROM accounts WHERE balance = 1")" = "$moved" ] || fail "writes through G3N2"
echo "ok: promote after an automatic failover only makes the catalog follow"
echo PASS
