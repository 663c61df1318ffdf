#!/bin/bash
# add-member and add-group: the new servers show in status and the catalog,
# the version rises, and the new group serves every table.
# usage: scale_out.sh GCCTL SPEC DIR
GCCTL=$1
SPEC=$2
DIR=$3
source "$(dirname "$0")/lib.sh"
own_cluster "$SPEC"

sql G1N1 "INSERT INTO accounts SELECT g, 'a', 0 FROM generate_series(1, 100) g" \
         "INSERT INTO settings VALUES ('k', 'v')"
v0=$(sql G1N1 "SELECT version FROM gcluster.version")
"$GCCTL" add-member G2N3 --group G2 --dir "$DIR" || fail "add-member"
v1=$(sql G1N1 "SELECT version FROM gcluster.version")
[ "$v1" -gt "$v0" ] || fail "add-member did not raise the version"
wait_until G2N3 "SELECT count(*) FROM accounts" 100
[ "$(sql G1N1 "SELECT count(*) FROM gcluster.members WHERE name = 'G2N3' AND role = 'standby'")" = 1 ] || fail "G2N3 not in the catalog"
"$GCCTL" status --dir "$DIR" | grep -E '^G2N3 +G2 .* standby +standby ' >/dev/null || fail "status does not show G2N3"
# The FDW server for G2 on G1 now lists three hosts.
[ "$(sql G1N1 "SELECT array_length(string_to_array(option_value, ','), 1) FROM pg_foreign_server s, pg_options_to_table(s.srvoptions) WHERE srvname = 'G2' AND option_name = 'port'")" = 3 ] \
    || fail "server G2 does not list 3 members"
echo "ok: add-member (version $v0 -> $v1)"

"$GCCTL" add-group G3 --member G3N1 --member G3N2 --dir "$DIR" || fail "add-group"
v2=$(sql G1N1 "SELECT version FROM gcluster.version")
[ "$v2" -gt "$v1" ] || fail "add-group did not raise the version"
[ "$(sql G2N1 "SELECT version FROM gcluster.version")" = "$v2" ] || fail "G2 version differs"
[ "$(sql G3N1 "SELECT version FROM gcluster.version")" = "$v2" ] || fail "G3 version differs"
"$GCCTL" status --dir "$DIR" | grep -E '^G3N1 +G3 .* primary +primary ' >/dev/null || fail "status does not show G3N1"
"$GCCTL" status --dir "$DIR" | grep -E '^G3N2 +G3 .* standby +standby ' >/dev/null || fail "status does not show G3N2"
[ "$(sql G3N1 "SELECT count(*) FROM accounts")" = 100 ] || fail "G3 does not see accounts"
[ "$(sql G3N1 "SELECT v FROM settings WHERE k = 'k'")" = v ] || fail "G3 does not see settings"
sql G3N1 "INSERT INTO accounts VALUES (1000, 'from G3', 0)"
[ "$(sql G1N1 "SELECT count(*) FROM accounts")" = 101 ] || fail "a write through G3 did not arrive"
wait_until G3N2 "SELECT count(*) FROM accounts" 101
[ "$(sql G1N1 "SELECT string_agg(name, ',' ORDER BY position) FROM gcluster.groups")" = G1,G2,G3 ] || fail "groups in G1's catalog"
echo "ok: add-group (version $v1 -> $v2)"
echo PASS
