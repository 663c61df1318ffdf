#!/usr/bin/env bash
# demo.sh: see gcodbc work on a sharded cluster. Installs missing Debian
# packages, builds the driver, gcctl and the example programs, brings up the
# cluster of examples/cluster.yaml (2 groups of a primary and a standby, all on
# loopback, in a temporary directory: nothing is installed system-wide), runs
# the examples/ programs through the unixODBC driver manager against the
# cluster's DSN and a few rows through isql, shows `gcctl status` and where
# each statement ran (pg_stat_statements on every member), and tears it all
# down, even on failure.
#
#   ./scripts/demo.sh
#   environment: GC_BUILD_DIR (default build), GC_BUILD_TYPE, GC_JOBS
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${GC_BUILD_DIR:-$root/build}
spec=$root/examples/cluster.yaml

"$root/scripts/install-deps.sh"

echo "== building the driver, gcctl and the examples in $build"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="${GC_BUILD_TYPE:-RelWithDebInfo}" >/dev/null
cmake --build "$build" -j "${GC_JOBS:-$(nproc)}" --target gcodbc gcctl example_hello example_transactions
gcctl=$build/tools/gcctl/gcctl

tmp=$(mktemp -d)
dir=$tmp/cluster
cleanup() {
  echo "== tearing the cluster down"
  "$gcctl" local down --dir "$dir" || true
  rm -rf "$tmp"
}
trap cleanup EXIT

echo "== gcctl local up examples/cluster.yaml --dir $dir"
"$gcctl" local up "$spec" --dir "$dir" --driver "$build/src/libgcodbc.so"
dsn=$(sed -n 's/^cluster: *//p' "$dir/cluster.yaml")
export ODBCSYSINI=$dir

echo "== the data source in \$ODBCSYSINI/odbc.ini (password hidden):"
sed -n "/^\[$dsn\]/,/^\$/p" "$dir/odbc.ini" | sed -E 's/^(PWD|Password) *= .*/\1 = ********/'
echo "== GlobalConnection=Yes: one session per member; each prepared statement runs on the"
echo "   member that owns its sharding key, other statements by LocalityGroupPolicy"

for example in hello transactions; do
  echo "== examples/$example.c, DSN=$dsn"
  "$build/examples/example_$example" "DSN=$dsn"
done

echo "== isql $dsn: 100 rows into the sharded table accounts (half of its shards are on G2)"
printf '%s\n' "INSERT INTO accounts SELECT g, 'demo', g FROM generate_series(1, 100) AS g" \
    "SELECT count(*) AS accounts_rows FROM accounts" | isql -b "$dsn"

echo "== isql $dsn: keyed statements (isql prepares each line: the key routes it), then"
echo "   SHOW GLOBAL CONNECTION, the driver's own view of where statements went"
{
  for id in 1 2 3 4 5 6 7 8; do
    echo "UPDATE accounts SET balance = balance + 1 WHERE id = $id"
    echo "SELECT id, balance FROM accounts WHERE id = $id"
  done
  echo "SHOW GLOBAL CONNECTION"
} | isql -b "$dsn" | grep -v '^SQLRowCount'

echo "== gcctl status"
"$gcctl" status --dir "$dir"

echo "== where the examples' statements ran (pg_stat_statements on each member)"
# Members and ports from the locator file gcctl wrote: "- {name: G1N1, group: G1, host: H, port: P}".
sed -n 's/.*name: \([^,]*\), group: \([^,]*\), host: \([^,]*\), port: \([0-9]*\)}.*/\1 \2 \3 \4/p' \
    "$dir/locator.yaml" |
while read -r member group host port; do
  ran=$(PGPASSWORD=app PGCONNECT_TIMEOUT=5 psql -X -q -At -F ' ' -h "$host" -p "$port" -U app -d app -c "
    SELECT calls, left(regexp_replace(query, '\s+', ' ', 'g'), 70) FROM pg_stat_statements
     WHERE userid = (SELECT oid FROM pg_roles WHERE rolname = current_user)
       AND query ~* '(demo_|\m)accounts|generate_series' AND query !~* 'pg_stat_statements|gcluster'
     ORDER BY calls DESC, query")
  echo "$member ($group): $(printf '%s' "$ran" | grep -c . || true) distinct statements"
  [ -z "$ran" ] || printf '%s\n' "$ran" | sed 's/^/  calls=/'
done
echo "== demo done"
