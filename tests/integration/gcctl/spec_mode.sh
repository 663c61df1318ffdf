#!/bin/bash
# --spec mode: gcctl driving servers a user already runs, found only through
# a spec with real ports, as the superuser named the way a user would:
# PGUSER/PGPASSWORD in the environment (and once through the spec's
# superuser/superuser_password fields). A local cluster stands in for the
# user's servers; after it is up the test uses only a copy of DIR/cluster.yaml.
# apply twice changes nothing, status lists every member and the shard owners,
# reconnect raises the version on every primary, promote works and keeps
# the mode of the spec it rewrites.
# usage: spec_mode.sh GCCTL SPEC DIR
GCCTL=$1
SPEC=$2
DIR=$3
source "$(dirname "$0")/lib.sh"

# A three-member group G1 so that promote has another standby to repoint.
work=$(mktemp -d)
sed 's/^  - {name: G1N2, group: G1, host: 127.0.0.1, port: 0}$/&\n  - {name: G1N3, group: G1, host: 127.0.0.1, port: 0}/' "$SPEC" >"$work/in.yaml"
own_cluster "$work/in.yaml"
trap '"$GCCTL" local down --dir "$DIR" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

# The user's part: a superuser that can log in over TCP with a password.
# A local cluster's superuser logs in through its private socket directory only.
base=$(sed -n 's/^base: //p' "$DIR/local.state")
os_user=$(sed -n 's/^user: //p' "$DIR/local.state")
superpw=super-secret
for m in G1N1 G2N1; do
    as_server_user=()
    [ "$(id -un)" = "$os_user" ] || as_server_user=(runuser -u "$os_user" --)
    "${as_server_user[@]}" psql -X -q -At -v ON_ERROR_STOP=1 -h "$base/sock" -p "$(port_of "$m")" -d postgres \
        -c "ALTER ROLE $os_user PASSWORD '$superpw'" || fail "cannot set the superuser password on $m"
done

spec=$work/cluster.yaml
cp "$DIR/cluster.yaml" "$spec"
# gcctl_spec ARGS...: gcctl as the superuser from libpq's environment.
gcctl_spec() {
    PGUSER=$os_user PGPASSWORD=$superpw "$GCCTL" "$@"
}

v0=$(sql G1N1 "SELECT version FROM gcluster.version")
out=$(gcctl_spec apply "$spec" 2>&1) || fail "apply --spec: $out"
[ "$out" = "nothing to change" ] || fail "apply on an up-to-date cluster said: $out"
out=$(gcctl_spec apply "$spec" 2>&1) || fail "second apply --spec: $out"
[ "$out" = "nothing to change" ] || fail "second apply said: $out"
for g in G1N1 G2N1; do
    [ "$(sql $g "SELECT version FROM gcluster.version")" = "$v0" ] || fail "apply moved the version on $g"
done
# Wrong superuser details are refused with a line that says why.
out=$(PGUSER=$os_user PGPASSWORD=wrong "$GCCTL" apply "$spec" 2>&1) && fail "apply with a wrong password succeeded"
echo "$out" | grep -q "cannot connect" || fail "wrong password: $out"
echo "ok: apply --spec twice changes nothing (version $v0)"

# status: every member with group, role and state; every shard with its owner.
status=$(gcctl_spec status --spec "$spec") || fail "status --spec: $status"
for m in $(members); do
    role=$([ "$m" = "$(primary_of "${m:0:2}")" ] && echo primary || echo standby)
    echo "$status" | grep -Eq "^$m +${m:0:2} +127\.0\.0\.1:$(port_of "$m") +$role +$role +$v0\$" ||
        fail "status line for $m (want $role, version $v0):
$status"
done
want_shards=$(sql G1N1 "SELECT string_agg(name || ' ' || group_name, ',' ORDER BY name) FROM gcluster.shards")
got_shards=$(echo "$status" | sed -n 's/^  \([a-z0-9_]*\) *\(G[0-9]*\) .*/\1 \2/p' | sort | paste -sd,)
[ "$got_shards" = "$want_shards" ] || fail "status shards '$got_shards', catalog '$want_shards'"
echo "$status" | grep -q '^table settings: solo on G1$' || fail "status lacks the solo table: $status"
# The same through the spec's superuser fields instead of the environment.
printf 'superuser: %s\nsuperuser_password: "%s"\n' "$os_user" "$superpw" >>"$spec"
PGUSER= PGPASSWORD= "$GCCTL" status --spec "$spec" | grep -Eq '^G2N1 +G2 .* primary +primary ' ||
    fail "status with the superuser in the spec"
echo "ok: status --spec lists every member with its role and every shard owner"

out=$(gcctl_spec reconnect --spec "$spec") || fail "reconnect --spec: $out"
v1=$(sql G1N1 "SELECT version FROM gcluster.version")
[ "$v1" -gt "$v0" ] || fail "reconnect did not raise the version ($v0 -> $v1)"
[ "$(sql G2N1 "SELECT version FROM gcluster.version")" = "$v1" ] || fail "G2N1 did not get version $v1"
[ "$out" = "version $v1" ] || fail "reconnect said '$out'"
echo "ok: reconnect --spec raises the version on every primary ($v0 -> $v1)"

# promote: the user stops the old primary; gcctl promotes, repoints the
# other standby, rewrites the spec's member order and updates the catalog.
sql G2N1 "INSERT INTO accounts SELECT g, 'a', 0 FROM generate_series(1, 100) g"
out=$(gcctl_spec promote G1N2 --spec "$spec" 2>&1) && fail "promote while G1N1 runs succeeded"
echo "$out" | grep -q "still running" || fail "promote while the primary runs: $out"
"$GCCTL" local stop-member G1N1 --dir "$DIR" --mode immediate || fail "stop-member G1N1"
chmod 640 "$spec"   # the user's choice, which the rewrite below keeps
gcctl_spec promote G1N2 --spec "$spec" || fail "promote --spec"
[ "$(stat -c %a "$spec")" = 640 ] || fail "promote --spec changed the spec's mode to $(stat -c %a "$spec")"
sed -n 's/.*name: \([A-Za-z0-9_]*\), group: G1,.*/\1/p' "$spec" | head -1 | grep -qx G1N2 ||
    fail "the spec does not list G1N2 first: $(cat "$spec")"
[ "$(sql G1N2 "SELECT pg_is_in_recovery()")" = f ] || fail "G1N2 is still in recovery"
for m in G1N2 G2N1; do
    [ "$(sql "$m" "SELECT role FROM gcluster.members WHERE name = 'G1N2'")" = primary ] || fail "$m catalog: G1N2 not primary"
done
v2=$(sql G2N1 "SELECT version FROM gcluster.version")
[ "$v2" -gt "$v1" ] || fail "promote did not raise the version"
sql G2N1 "INSERT INTO accounts SELECT g, 'b', 0 FROM generate_series(101, 200) g"
wait_until G1N3 "SELECT count(*) FROM accounts" 200
gcctl_spec status --spec "$spec" | grep -Eq '^G1N1 +G1 .* standby +down ' || fail "status does not show G1N1 down"
echo "ok: promote --spec (version $v1 -> $v2), the other standby follows"
echo PASS
