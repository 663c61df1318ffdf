#!/usr/bin/env bash
# run.sh: the point_ops benchmark. Starts its own PostgreSQL 15 server,
# creates a table of 100,000 rows, and measures prepared point SELECT by
# primary key and single-row INSERT (autocommit) throughput through
#   gcodbc    this build's driver, via the unixODBC driver manager
#   psqlODBC  Debian's odbc-postgresql, via the driver manager, UseServerSidePrepare=1
#   libpq     raw PQprepare / PQexecPrepared
# on the same server in one run, interleaving clients over several
# repetitions, and prints medians and ratios. A benchmark, not a test: it
# asserts nothing about speed.
#
#   bench/point_ops/run.sh [BUILD_DIR]     (default: build)
#   environment: OPS (operations per run, 20000), REPS (repetitions, 7)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
ops=${OPS:-20000}
reps=${REPS:-7}
bin="$build/bench/point_ops/bench_point_ops"
[[ -x $bin ]] || { echo "run.sh: $bin not built (cmake --build $build --target bench_point_ops)" >&2; exit 1; }

source "$here/../bench_server.sh"

psql -X -q -v ON_ERROR_STOP=1 -d "$conninfo" <<'SQL'
CREATE TABLE bench_items (id int PRIMARY KEY, name text NOT NULL, qty int NOT NULL);
INSERT INTO bench_items SELECT g, 'item ' || g, g % 1000 FROM generate_series(1, 100000) g;
CREATE TABLE bench_log (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                        item int NOT NULL, note text NOT NULL);
VACUUM ANALYZE bench_items;
SQL

declare -A target=(
  [gcodbc]="odbc DSN=gcodbc_test"
  [psqlODBC]="odbc DSN=psqlodbc_test;UseServerSidePrepare=1"
  [libpq]="libpq $conninfo"
)
clients=(gcodbc psqlODBC libpq)
declare -A results=() cpu=() unavailable=()

# One timed run; records its ops/s, or marks the client unavailable.
run_one() {
  local client=$1 op=$2 kind conn out rate cpu_us
  kind=${target[$client]%% *}
  conn=${target[$client]#* }
  if out=$("$bin" "$kind" "$conn" "$op" "$ops" 2>"$state/err.$client"); then
    read -r rate _ _ cpu_us <<<"$out"
    results[$client.$op]+="$rate "
    cpu[$client.$op]+="$cpu_us "
  else
    unavailable[$client]=1
    echo "run.sh: $client $op failed; leaving $client out:" >&2
    sed 's/^/  /' "$state/err.$client" | head -n 5 >&2
  fi
}

for _ in $(seq 1 "$reps"); do
  for op in select insert; do
    for client in "${clients[@]}"; do
      [[ -n ${unavailable[$client]:-} ]] || run_one "$client" "$op"
    done
  done
done

# median, ratio
source "$here/../bench_stats.sh"

server_version=$(psql -X -At -d "$conninfo" -c 'show server_version')
# table TITLE ARRAY: one row per operation, medians and ratios of ARRAY.
table() {
  local title=$1 op g p l label
  local -n values=$2
  echo
  echo "$title"
  printf '%-14s %10s %10s %10s %16s %13s %15s\n' operation gcodbc psqlODBC libpq \
    gcodbc/psqlODBC gcodbc/libpq psqlODBC/libpq
  for op in select insert; do
    g=$(median <<<"${values[gcodbc.$op]:-}")
    p=$(median <<<"${values[psqlODBC.$op]:-}")
    l=$(median <<<"${values[libpq.$op]:-}")
    label="point SELECT"; [[ $op == insert ]] && label="1-row INSERT"
    printf '%-14s %10s %10s %10s %16s %13s %15s\n' "$label" "$g" "$p" "$l" \
      "$(ratio "$g" "$p")" "$(ratio "$g" "$l")" "$(ratio "$p" "$l")"
  done
}

echo
echo "point_ops: $reps runs x $ops operations per client, one connection each, medians;"
echo "PostgreSQL $server_version on loopback (fsync=off, synchronous_commit=off), $(nproc) cores"
table "throughput, operations per second (higher is better)" results
table "client CPU, microseconds per operation (lower is better)" cpu
