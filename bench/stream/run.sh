#!/usr/bin/env bash
# run.sh: the stream benchmark. Starts its own local cluster of 2 groups x
# 1 member with gcctl (taken down on exit, whatever happens) and reads a
# SELECT of ROWS rows (5,000,000: generate_series, three columns) to the
# end, one row at a time, through
#   gcodbc-global  this build's driver, global connection (the statement
#                  names no table: the policy picks a member), bound
#                  columns and SQLFetch
#   libpq          raw libpq in single-row mode to G1N1
# one process per run, interleaved over several repetitions; prints the
# median rows per second, the peak resident memory of the process (and
# what it was before the SELECT) and client CPU per row. A benchmark, not
# a test.
#
#   bench/stream/run.sh [BUILD_DIR]     (default: build)
#   environment: ROWS (5000000), REPS (3)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
rows=${ROWS:-5000000}
reps=${REPS:-3}
bin="$build/bench/stream/bench_stream"
source "$root/bench/bench_stats.sh"
source "$root/bench/bench_cluster.sh"
bench_cluster_up run.sh "$here/cluster.yaml"
export ODBCSYSINI=$cluster

declare -A target=(
  [gcodbc-global]="odbc DSN=bench;GlobalConnection=Yes"
  [libpq]="libpq $(conninfo_of G1N1)"
)
clients=(gcodbc-global libpq)
declare -A rate=() peak=() before=() cpu=()
for _ in $(seq 1 "$reps"); do
  for client in "${clients[@]}"; do
    kind=${target[$client]%% *}
    conn=${target[$client]#* }
    out=$("$bin" "$kind" "$conn" "$rows") || { echo "run.sh: $client failed" >&2; exit 1; }
    read -r r _ _ p b c <<<"$out"
    rate[$client]+="$r "
    peak[$client]+="$p "
    before[$client]+="$b "
    cpu[$client]+="$c "
  done
done

server_version=$(psql_on G1N1 -c 'show server_version')
echo
echo "stream: $reps runs x a $rows-row SELECT read one row at a time, medians;"
echo "PostgreSQL $server_version on loopback (gcctl local cluster), $(nproc) cores"
printf '%-14s %12s %16s %18s %12s\n' client rows/s "peak RSS KiB" "RSS before KiB" "CPU us/row"
for client in "${clients[@]}"; do
  printf '%-14s %12s %16s %18s %12s\n' "$client" "$(median <<<"${rate[$client]}")" \
    "$(median <<<"${peak[$client]}")" "$(median <<<"${before[$client]}")" \
    "$(median <<<"${cpu[$client]}")"
done
echo "gcodbc-global/libpq rows per second: $(ratio "$(median <<<"${rate[gcodbc-global]}")" "$(median <<<"${rate[libpq]}")")"
