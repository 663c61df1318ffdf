#!/bin/bash
# The driver's resolution of in-doubt transactions (gc_in_doubt_resolve_group)
# through a global connection to the demo cluster: G2's primary holds
# transactions prepared under gids whose coordinator is G1; the driver
# commits the one G1 committed, rolls back the one without a decision,
# leaves what it may not or cannot decide (a group the cluster lacks, a
# transaction of another role, a coordinator still open past the driver's
# 2 s wait, one within the grace) and settles the rest on its next call.
# Then the ODBC driver does it by itself at its catalog-version check.
# usage: resolve_driver.sh GCCTL DIR IN_DOUBT_DRIVER
GCCTL=$1
DIR=$2
DRIVER=$3
source "$(dirname "$0")/lib.sh"

run="gcx:$$:$(date +%s)."
gid() { echo "${run}00000000$1:$1:$2"; }
A=$(gid 1 G1)   # the coordinator committed: committed
B=$(gid 2 G1)   # no decision: rolled back
C=$(gid 3 G1)   # the coordinator stays open 6 s: left, committed on the next call
E=$(gid 4 G9)   # a group the cluster does not have: left
P=$(gid 5 G1)   # prepared by the superuser: left (the app role may not finish it)
Y=$(gid 6 G1)   # within the grace on the first call: young, then rolled back
F=$(gid 10 G1)  # prepared while G1's primary is frozen: left without waiting
A2= B2= Y2=     # the ODBC driver's part, below

# freeze STOP|CONT MEMBER: stops or continues the member's postmaster and
# every child (a frozen postmaster alone would let its backends answer).
freeze() {
    local pm
    pm=$(head -1 "$(sed -n 's/^base: //p' "$DIR/local.state")/$2/postmaster.pid")
    kill -"$1" "$pm" $(ps -o pid= --ppid "$pm") 2>/dev/null
}
cleanup() {
    freeze CONT G1N1
    for g in $(su_sql G2N1 "SELECT gid FROM pg_prepared_xacts WHERE left(gid, ${#run}) = '$run'" 2>/dev/null); do
        su_sql G2N1 "ROLLBACK PREPARED '$g'" >/dev/null 2>&1
    done
}
trap cleanup EXIT

in_doubt_setup a b c e f p y
prepare a "$A"
prepare b "$B"
prepare c "$C"
prepare e "$E"
su_sql G2N1 "BEGIN; UPDATE resolve_probe SET v = 1 WHERE k = 'p'; PREPARE TRANSACTION '$P'"
sql G1N1 "SELECT gcluster.decide_commit('$A', true)" >/dev/null
psql -X -q -At -h 127.0.0.1 -p "$(port_of G1N1)" -U app -d app \
    -c "BEGIN" -c "SELECT gcluster.decide_commit('$C', true)" -c "SELECT pg_sleep(6)" \
    -c "COMMIT" >/dev/null &
coordinator=$!
wait_until G1N1 "SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(6)'" 1
sleep 1.5
prepare y "$Y"

servers="127.0.0.1:$(port_of G1N1),127.0.0.1:$(port_of G2N1)"
out=$(run_client "$DRIVER" "$servers" G2 1000) || fail "first call: $out"
echo "$out"
echo "$out" | grep -q "^ok: refused inside a transaction: HY010" || fail "pinned not refused"
echo "$out" | grep -q "^ok: refused without the group's primary session: 08S01" || fail "closed not refused"
counts=$(echo "$out" | sed -n 's/^\(committed=.*young=[0-9]*\) ms=\([0-9]*\)$/\1/p')
ms=$(echo "$out" | sed -n 's/^committed=.* ms=\([0-9]*\)$/\1/p')
[ "$counts" = "committed=1 rolled_back=1 left=3 young=1" ] || fail "first call counted $counts"
[ "$ms" -ge 1900 ] && [ "$ms" -lt 5000 ] || fail "the wait for the open coordinator took $ms ms"
[ "$(probe_rows)" = "a1,b0,c0,e0,f0,p0,y0" ] \
    || fail "rows after the first call: $(probe_rows)"
[ "$(sql G2N1 "SELECT string_agg(right(gid, 4), ',' ORDER BY gid) FROM pg_prepared_xacts WHERE left(gid, ${#run}) = '$run'")" \
  = "3:G1,4:G9,5:G1,6:G1" ] || fail "prepared after the first call"
echo "ok: first call: A committed, B rolled back, C E P left, Y young (waited $ms ms for C)"

wait "$coordinator" || fail "the coordinator of C failed"
out=$(run_client "$DRIVER" "$servers" G2 1000 measure) || fail "second call: $out"
echo "$out"
counts=$(echo "$out" | sed -n 's/^\(committed=.*young=[0-9]*\) ms=.*$/\1/p')
[ "$counts" = "committed=1 rolled_back=1 left=2 young=0" ] || fail "second call counted $counts"
[ "$(probe_rows)" = "a1,b0,c1,e0,f0,p0,y0" ] \
    || fail "rows after the second call"
[ "$(sql G2N1 "SELECT string_agg(right(gid, 4), ',' ORDER BY gid) FROM pg_prepared_xacts WHERE left(gid, ${#run}) = '$run'")" \
  = "4:G9,5:G1" ] || fail "prepared after the second call"
echo "ok: second call: C committed after its coordinator, Y rolled back, E P left"

# The coordinator group's primary frozen (it accepts connections and never
# answers): the connection finds it down when it connects (its 5 s
# ConnectTimeout), and the resolution then leaves F at once instead of
# waiting that long again for a session to ask it.
prepare f "$F"
freeze STOP G1N1
out=$(run_client "$DRIVER" "127.0.0.1:$(port_of G2N1)" G2 0) || fail "call with G1 frozen: $out"
freeze CONT G1N1
counts=$(echo "$out" | sed -n 's/^\(committed=.*young=[0-9]*\) ms=.*$/\1/p')
ms=$(echo "$out" | sed -n 's/^committed=.* ms=\([0-9]*\)$/\1/p')
[ "$counts" = "committed=0 rolled_back=0 left=3 young=0" ] || fail "call with G1 frozen counted $counts"
[ "$ms" -lt 1000 ] || fail "the call with G1 frozen took $ms ms"
[ "$(probe_rows)" = "a1,b0,c1,e0,f0,p0,y0" ] || fail "rows after the call with G1 frozen: $(probe_rows)"
echo "ok: coordinator group frozen: E F P left in $ms ms"
cleanup

# Through the ODBC driver: a global connection settles them at its
# catalog-version check (every TopologyRefresh = 10 s by default), between
# the application's statements; one prepared after it connected is within
# the grace then and stays.
A2=$(gid 7 G1)
B2=$(gid 8 G1)
Y2=$(gid 9 G1)
in_doubt_setup a b y
prepare a "$A2"
prepare b "$B2"
sql G1N1 "SELECT gcluster.decide_commit('$A2', true)" >/dev/null
# A statement a second until A2 and B2 are settled (the first check comes
# 10 s after isql connected); Y2 is then 5 to 6 s old.
feed() {
    sleep 5
    prepare y "$Y2" >&2
    for _ in $(seq 1 25); do
        sleep 1
        echo "SELECT 1"
        [ "$(sql G2N1 "SELECT count(*) FROM pg_prepared_xacts WHERE gid IN ('$A2', '$B2')")" = 0 ] \
            && break
    done
}
out=$(feed | run_client isql -b demo 2>&1) || fail "isql: $out"
[ "$(probe_rows)" = "a1,b0,y0" ] || fail "rows after the driver's check: $(probe_rows)"
[ "$(sql G2N1 "SELECT string_agg(right(gid, 4), ',' ORDER BY gid) FROM pg_prepared_xacts WHERE left(gid, ${#run}) = '$run'")" \
  = "9:G1" ] || fail "prepared after the driver's check"
echo "ok: a global connection settled them between statements, the young one left"
cleanup
su_sql G2N1 "DROP TABLE resolve_probe"
echo PASS
