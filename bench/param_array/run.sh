#!/usr/bin/env bash
# run.sh: the param_array benchmark. Starts its own PostgreSQL 15 server and
# inserts ROWS rows (100,000) into an empty table, BATCH (1,000) rows per
# execution, through
#   gcodbc    this build's driver via the unixODBC driver manager: one
#             prepared INSERT, a column-wise parameter array of BATCH rows
#             per SQLExecute
#   psqlODBC  Debian's odbc-postgresql the same way, UseServerSidePrepare=1
#   libpq     raw libpq in pipeline mode: a named prepared INSERT, one
#             PQsendQueryPrepared per row
# in two commit modes: each-row (autocommit: the ODBC drivers commit each
# BatchSize rows, psqlODBC's batches; libpq commits and syncs after every
# row) and each-batch (autocommit off, a COMMIT per
# execution; libpq syncs once per batch). Clients are interleaved over
# several repetitions; prints medians and ratios. A benchmark, not a test.
#
# With LATENCY_MS set, every client connects through delay_proxy.py, which
# holds the data LATENCY_MS in each direction, as a network would.
#
#   bench/param_array/run.sh [BUILD_DIR]     (default: build)
#   environment: ROWS (100000), BATCH (1000), REPS (5), LATENCY_MS (unset)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
rows=${ROWS:-100000}
batch=${BATCH:-1000}
reps=${REPS:-5}
bin="$build/bench/param_array/bench_param_array"
[[ -x $bin ]] || { echo "run.sh: $bin not built (cmake --build $build --target bench_param_array)" >&2; exit 1; }

source "$here/../bench_server.sh"

psql -X -q -v ON_ERROR_STOP=1 -d "$conninfo" \
  -c 'CREATE TABLE bench_rows (id int PRIMARY KEY, name text NOT NULL, qty int NOT NULL)'

declare -A target=(
  [gcodbc]="odbc DSN=gcodbc_test"
  [psqlODBC]="odbc DSN=psqlodbc_test;UseServerSidePrepare=1"
  [libpq]="libpq $conninfo"
)
latency=""
if [[ -n ${LATENCY_MS:-} ]]; then
  server_port=$(sed -n 's/.*port=\([0-9]*\).*/\1/p' <<<"$conninfo")
  proxy_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  python3 "$here/delay_proxy.py" "$proxy_port" "$server_port" "$LATENCY_MS" >"$state/proxy.out" 2>&1 &
  proxy_pid=$!
  trap 'kill "$proxy_pid" 2>/dev/null || true; bench_server_cleanup' EXIT
  for _ in $(seq 1 50); do grep -q ready "$state/proxy.out" && break; sleep 0.1; done
  target[gcodbc]+=";Servers=127.0.0.1:$proxy_port"
  target[psqlODBC]+=";Port=$proxy_port"
  target[libpq]+=" port=$proxy_port"
  latency=", through a proxy adding ${LATENCY_MS} ms each way"
fi
clients=(gcodbc psqlODBC libpq)
modes=(each-row each-batch)
declare -A results=() cpu=() unavailable=()

# One timed run into an empty table; records its rows/s, or marks the
# client unavailable.
run_one() {
  local client=$1 mode=$2 kind conn out rate cpu_us
  kind=${target[$client]%% *}
  conn=${target[$client]#* }
  psql -X -q -d "$conninfo" -c 'TRUNCATE bench_rows' >/dev/null
  if out=$("$bin" "$kind" "$conn" "$mode" "$rows" "$batch" 2>"$state/err.$client"); then
    read -r rate _ _ cpu_us <<<"$out"
    results[$client.$mode]+="$rate "
    cpu[$client.$mode]+="$cpu_us "
    local stored
    stored=$(psql -X -At -d "$conninfo" -c 'SELECT count(*) FROM bench_rows')
    [[ $stored == "$rows" ]] || { echo "run.sh: $client $mode stored $stored rows, not $rows" >&2; exit 1; }
  else
    unavailable[$client]=1
    echo "run.sh: $client $mode failed; leaving $client out:" >&2
    sed 's/^/  /' "$state/err.$client" | head -n 5 >&2
  fi
}

for _ in $(seq 1 "$reps"); do
  for mode in "${modes[@]}"; do
    for client in "${clients[@]}"; do
      [[ -n ${unavailable[$client]:-} ]] || run_one "$client" "$mode"
    done
  done
done

# median, ratio
source "$here/../bench_stats.sh"

server_version=$(psql -X -At -d "$conninfo" -c 'show server_version')
# table TITLE ARRAY: one row per commit mode, medians and ratios of ARRAY.
table() {
  local title=$1 mode g p l
  local -n values=$2
  echo
  echo "$title"
  printf '%-22s %10s %10s %10s %16s %13s\n' commits gcodbc psqlODBC libpq \
    gcodbc/psqlODBC gcodbc/libpq
  for mode in "${modes[@]}"; do
    g=$(median <<<"${values[gcodbc.$mode]:-}")
    p=$(median <<<"${values[psqlODBC.$mode]:-}")
    l=$(median <<<"${values[libpq.$mode]:-}")
    printf '%-22s %10s %10s %10s %16s %13s\n' "$([[ $mode == each-row ]] && echo 'each row (autocommit)' || echo 'each batch')" \
      "$g" "$p" "$l" "$(ratio "$g" "$p")" "$(ratio "$g" "$l")"
  done
}

echo
echo "param_array: $reps runs x $rows rows in batches of $batch per client, one connection each, medians;"
echo "PostgreSQL $server_version on loopback$latency (fsync=off, synchronous_commit=off), $(nproc) cores"
table "throughput, rows per second (higher is better)" results
table "client CPU, microseconds per row (lower is better)" cpu
