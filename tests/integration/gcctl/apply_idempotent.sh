#!/bin/bash
# apply on a running cluster changes nothing the second time (no version
# bump, no new objects); the catalog tells every group the same topology,
# with the FDW server name of each group; reconnect raises the version on
# every primary and sends NOTIFY gcluster.
# usage: apply_idempotent.sh GCCTL SPEC DIR
GCCTL=$1
SPEC=$2
DIR=$3
source "$(dirname "$0")/lib.sh"

v0=$(sql G1N1 "SELECT version FROM gcluster.version")
out=$("$GCCTL" apply "$SPEC" --dir "$DIR") || fail "apply: $out"
[ "$out" = "nothing to change" ] || fail "first apply on an up-to-date cluster: $out"
out=$("$GCCTL" apply "$SPEC" --dir "$DIR") || fail "apply: $out"
[ "$out" = "nothing to change" ] || fail "second apply: $out"
[ "$(sql G1N1 "SELECT version FROM gcluster.version")" = "$v0" ] || fail "apply raised the version"
echo "ok: apply twice changes nothing (version $v0)"

# The application role owns every cluster table, so DDL through a global
# connection works as on one server.
for g in G1 G2; do
    others=$(sql "$(primary_of "$g")" "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                                      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'f')
                                        AND pg_get_userbyid(c.relowner) <> 'app'")
    [ "$others" = 0 ] || fail "$others tables in public on $g are not owned by app"
done
echo "ok: the application role owns every cluster table"

for m in $(members); do
    wait_until "$m" "SELECT string_agg(name || '=' || fdw_server, ',' ORDER BY position) FROM gcluster.groups" "G1=G1,G2=G2"
    got=$(sql "$m" "SELECT string_agg(name || ':' || group_name || ':' || role || ':' || port, ',' ORDER BY position) FROM gcluster.members")
    want=$(for n in $(members); do printf '%s:%s:%s:%s,' "$n" "${n:0:2}" \
           "$([ "$n" = "$(primary_of "${n:0:2}")" ] && echo primary || echo standby)" "$(port_of "$n")"; done | sed 's/,$//')
    [ "$got" = "$want" ] || fail "$m catalog members '$got', expected '$want'"
done
for g in G1 G2; do
    [ "$(sql "$(primary_of "$g")" "SELECT local_group FROM gcluster.cluster")" = "$g" ] || fail "local_group on $g"
done
echo "ok: every member's catalog lists the groups, FDW servers and members"

# reconnect: version + 1 on both primaries, and a listener hears it.
listener=$(mktemp)
psql -X -q -h 127.0.0.1 -p "$(port_of G2N1)" -U app -d app \
     -c "LISTEN gcluster" -c "SELECT pg_sleep(3)" -c "SELECT 1" >"$listener" 2>&1 &
lpid=$!
sleep 1
out=$("$GCCTL" reconnect --dir "$DIR") || fail "reconnect: $out"
wait $lpid
v1=$(sql G1N1 "SELECT version FROM gcluster.version")
[ "$v1" -gt "$v0" ] || fail "reconnect did not raise the version ($v0 -> $v1)"
[ "$(sql G2N1 "SELECT version FROM gcluster.version")" = "$v1" ] || fail "G2 has another version than G1"
[ "$out" = "version $v1" ] || fail "reconnect said '$out'"
grep -q "Asynchronous notification \"gcluster\" with payload \"$v1\"" "$listener" || fail "no NOTIFY: $(cat "$listener")"
rm -f "$listener"
# The admin role (the application role here) may bump the version itself.
v2=$(sql G1N1 "SELECT gcluster.bump_version('test')")
[ "$v2" = $((v1 + 1)) ] || fail "bump_version gave $v2"
echo "ok: reconnect and bump_version raise the version with NOTIFY gcluster"
echo PASS
