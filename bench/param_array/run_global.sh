#!/usr/bin/env bash
# run_global.sh: the param_array benchmark on a sharded table. Starts its
# own local cluster of 3 groups x 2 members with gcctl (taken down on exit,
# whatever happens), bench_rows hashed on id into 12 shards, and inserts
# ROWS rows (100,000) into it, BATCH (1,000) rows per execution, in the
# commit modes MODES (default both): each-row (autocommit: the ODBC drivers
# commit each BatchSize rows, psqlODBC's batches; libpq commits and syncs
# after every row) and each-batch (autocommit
# off, a COMMIT per execution: a global transaction over every group,
# committed with two phases; libpq syncs once per batch on each session);
# MODES=described is each-row with the ODBC clients describing the
# parameters first (SQLDescribeParam, as pyodbc's fast_executemany does),
# after which psqlODBC runs each array row by row, through
#   gcodbc-global  this build's driver, global connection: one prepared
#                  INSERT, a column-wise parameter array of BATCH rows per
#                  SQLExecute (each row routed to its owner's primary,
#                  each primary's rows pipelined)
#   psqlODBC       Debian's odbc-postgresql the same way, with a DSN on one
#                  member (G1N1), UseServerSidePrepare=1: the other groups'
#                  rows reach their shards through postgres_fdw
#   libpq-owners   raw libpq, one session per group primary in pipeline
#                  mode, each row queued on its owner's session (owners
#                  read from the servers beforehand), a sync after every
#                  row: the best a client can do
# Clients are interleaved over several repetitions; each run starts from an
# empty table and is checked (every row stored, in a shard of its owner).
# Prints medians and ratios. A benchmark, not a test.
#
#   bench/param_array/run_global.sh [BUILD_DIR]     (default: build)
#   environment: ROWS (100000), BATCH (1000), REPS (5),
#                MODES ("each-row each-batch"; also "described"), CLIENTS (all three)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
rows=${ROWS:-100000}
batch=${BATCH:-1000}
reps=${REPS:-5}
bin="$build/bench/param_array/bench_param_array"
psqlodbc=/usr/lib/x86_64-linux-gnu/odbc/psqlodbcw.so
source "$root/bench/bench_stats.sh"
source "$root/bench/bench_cluster.sh"
bench_cluster_up run_global.sh "$here/cluster_global.yaml"

primaries=(G1N1 G2N1 G3N1)
local_shards="SELECT c.oid::regclass FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
               WHERE i.inhparent = 'bench_rows'::regclass AND c.relkind = 'r'"

# Owners: the rows inserted once through G1N1 (postgres_fdw places them),
# then read back from each primary's local shards.
psql_on G1N1 -c "INSERT INTO bench_rows SELECT g, 'row ' || g, g % 1000 FROM generate_series(1, $rows) g"
: >"$state/owners"
: >"$state/owner_conninfos"
g=0
for primary in "${primaries[@]}"; do
  for shard in $(psql_on "$primary" -c "$local_shards"); do
    psql_on "$primary" -c "SELECT id, $g FROM $shard" -F ' ' >>"$state/owners"
  done
  conninfo_of "$primary" >>"$state/owner_conninfos"
  g=$((g + 1))
done
[[ $(wc -l <"$state/owners") -eq $rows ]] || { echo "run_global.sh: expected $rows owned rows" >&2; exit 1; }

# Empties every primary's local shards.
empty_table() {
  local primary shard
  for primary in "${primaries[@]}"; do
    for shard in $(psql_on "$primary" -c "$local_shards"); do
      psql_on "$primary" -c "TRUNCATE $shard"
    done
  done
}
# Rows stored in a local shard of the primaries (each row once, on its owner).
stored_rows() {
  local primary shard n=0
  for primary in "${primaries[@]}"; do
    for shard in $(psql_on "$primary" -c "$local_shards"); do
      n=$((n + $(psql_on "$primary" -c "SELECT count(*) FROM $shard")))
    done
  done
  echo "$n"
}

cluster_odbc_ini "$state/odbc" "$cluster" "$psqlodbc" "$(port_of G1N1)"
declare -A target=(
  [gcodbc-global]="odbc DSN=bench;GlobalConnection=Yes"
  [psqlODBC]="odbc DSN=psqlodbc_g1n1"
  [libpq-owners]="libpq-owners $state/owner_conninfos,$state/owners"
)
read -r -a clients <<<"${CLIENTS:-gcodbc-global psqlODBC libpq-owners}"
read -r -a modes <<<"${MODES:-each-row each-batch}"
declare -A results=() cpu=() unavailable=()

run_one() {
  local client=$1 mode=$2 kind conn out rate cpu_us stored
  kind=${target[$client]%% *}
  conn=${target[$client]#* }
  empty_table
  if out=$(timeout 600 "$bin" "$kind" "$conn" "$mode" "$rows" "$batch" 2>"$state/err"); then
    read -r rate _ _ cpu_us <<<"$out"
    results[$client.$mode]+="$rate "
    cpu[$client.$mode]+="$cpu_us "
    stored=$(stored_rows)
    [[ $stored == "$rows" ]] || { echo "run_global.sh: $client $mode stored $stored rows, not $rows" >&2; exit 1; }
  else
    unavailable[$client]=1
    echo "run_global.sh: $client failed; leaving it out:" >&2
    sed 's/^/  /' "$state/err" | head -n 5 >&2
  fi
}

for _ in $(seq 1 "$reps"); do
  for mode in "${modes[@]}"; do
    for client in "${clients[@]}"; do
      [[ -n ${unavailable[$client]:-} ]] || run_one "$client" "$mode"
    done
  done
done

server_version=$(psql_on G1N1 -c 'show server_version')
line() {
  local title=$1 mode=$3 g p l
  local -n values=$2
  g=$(median <<<"${values[gcodbc-global.$mode]:-}")
  p=$(median <<<"${values[psqlODBC.$mode]:-}")
  l=$(median <<<"${values[libpq-owners.$mode]:-}")
  printf '%-24s %14s %10s %13s %16s %19s\n' "$title" "$g" "$p" "$l" "$(ratio "$g" "$p")" \
    "$(ratio "$g" "$l")"
}
echo
echo "param_array (global): $reps runs x $rows rows in batches of $batch, medians;"
echo "3 groups x 2 members, bench_rows in 12 hash shards; PostgreSQL $server_version"
echo "on loopback (gcctl local cluster, fsync=off), $(nproc) cores"
printf '%-24s %14s %10s %13s %16s %19s\n' "" gcodbc-global psqlODBC libpq-owners \
  global/psqlODBC global/libpq-owners
for mode in "${modes[@]}"; do
  line "$mode rows/s" results "$mode"
  line "$mode CPU us/row" cpu "$mode"
done
