#!/bin/bash
# Issue 17's first compound fault: G1's primary stopped, then G2's, and
# `gcctl promote G2N2`. The promotion succeeds for G2 and writes the catalog
# on every group that answers; promote exits 3 naming G1, whose catalog
# still needs the change. Once G1N1 is back, `gcctl apply --dir DIR` brings
# G1's catalog up to date (G2N2 primary, the common version), and a second
# apply changes nothing. The servers' catalogs are the witnesses.
# usage: promote_with_a_group_down.sh GCCTL SPEC DIR
GCCTL=$1
SPEC=$2
DIR=$3
source "$(dirname "$0")/../gcctl/lib.sh"
own_cluster "$SPEC"

role_on() {   # role_on MEMBER NAME: NAME's role in MEMBER's catalog
    su_sql "$1" "SELECT role FROM gcluster.members WHERE name = '$2'"
}
version_on() {
    su_sql "$1" "SELECT version FROM gcluster.version"
}

"$GCCTL" local stop-member G1N1 --dir "$DIR" --mode immediate || fail "stop G1N1"
"$GCCTL" local stop-member G2N1 --dir "$DIR" --mode immediate || fail "stop G2N1"
stale=$(version_on G3N1)

out=$("$GCCTL" promote G2N2 --dir "$DIR" 2>&1)
rc=$?
[ "$rc" = 3 ] || fail "promote G2N2 with G1's primary down exited $rc, expected 3: $out"
echo "$out" | grep -q "G1" || fail "promote did not name G1 as pending: $out"
echo "$out" | grep -q "G3" && fail "promote named G3, which answered: $out"
echo "ok: promote G2N2 with G1N1 down: exit 3, G1 named: $out"

[ "$(su_sql G2N2 "SELECT pg_is_in_recovery()")" = f ] || fail "G2N2 was not promoted"
for m in G2N2 G3N1; do
    [ "$(role_on "$m" G2N2)" = primary ] || fail "$m's catalog does not show G2N2 as primary"
    [ "$(role_on "$m" G2N1)" = standby ] || fail "$m's catalog does not show G2N1 as standby"
done
v=$(version_on G2N2)
[ "$v" -gt "$stale" ] || fail "the version did not rise on G2N2 ($v, was $stale)"
[ "$(version_on G3N1)" = "$v" ] || fail "G3N1 has version $(version_on G3N1), G2N2 $v"
[ "$(role_on G1N2 G2N2)" = standby ] || fail "G1's catalog changed although its primary was down"
echo "ok: G2N2 promoted; the catalogs of G2 and G3 say so at version $v; G1's is still old"

# gcctl reconnect leaves G1 out the same way.
out=$("$GCCTL" reconnect --dir "$DIR" 2>&1)
rc=$?
[ "$rc" = 3 ] || fail "reconnect with G1's primary down exited $rc, expected 3: $out"
echo "$out" | grep -q "group G1 still needs" || fail "reconnect did not name G1: $out"
v=$((v + 1))
for m in G2N2 G3N1; do
    [ "$(version_on "$m")" = "$v" ] || fail "after reconnect $m has version $(version_on "$m"), expected $v"
done
echo "ok: reconnect with G1N1 down: exit 3, G1 named, version $v on G2 and G3"

st=$("$GCCTL" status --dir "$DIR" 2>&1) || fail "status: $st"
echo "$st" | grep -E "^G2N2 +G2 .* primary" >/dev/null || fail "status does not show G2N2 as primary: $st"
echo "$st" | grep -E "G1.*behind" >/dev/null || fail "status does not say G1's catalog is behind: $st"
echo "ok: status shows G2N2 as primary and G1's catalog as behind"

# G1N1 comes back with the catalog it had: the next catalog-writing
# command brings it up to date.
"$GCCTL" local start-member G1N1 --dir "$DIR" || fail "start G1N1"
[ "$(role_on G1N1 G2N2)" = standby ] || fail "G1N1 came back with a changed catalog?"
out=$("$GCCTL" apply --dir "$DIR" 2>&1) || fail "apply --dir after G1N1 came back: $out"
for m in G1N1 G2N2 G3N1; do
    [ "$(role_on "$m" G2N2)" = primary ] || fail "after apply $m's catalog does not show G2N2 as primary"
    [ "$(role_on "$m" G2N1)" = standby ] || fail "after apply $m's catalog does not show G2N1 as standby"
done
caught=$(version_on G1N1)
[ "$caught" -gt "$v" ] || fail "after apply G1N1 has version $caught, not above $v"
for m in G2N2 G3N1; do
    [ "$(version_on "$m")" = "$caught" ] || fail "after apply $m has version $(version_on "$m"), G1N1 $caught"
done
echo "ok: apply caught G1 up: G2N2 primary in every catalog, version $caught everywhere"

out=$("$GCCTL" apply --dir "$DIR" 2>&1) || fail "second apply: $out"
echo "$out" | grep -q "nothing to change" || fail "second apply changed something: $out"
[ "$(version_on G1N1)" = "$caught" ] || fail "second apply moved the version"
st=$("$GCCTL" status --dir "$DIR" 2>&1) || fail "status: $st"
echo "$st" | grep -q "behind" && fail "status still says a catalog is behind: $st"
echo "ok: a second apply changes nothing; status reports no catalog behind"
echo PASS
