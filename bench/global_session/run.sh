#!/usr/bin/env bash
# run.sh: the global session benchmark. Starts its own local cluster of 3
# groups x 2 members with gcctl (taken down on exit, whatever happens),
# fills 30,000 accounts, then runs 64 global connections over 8 threads
# (each thread turning over its 8 connections) doing prepared point SELECTs
# and single-row UPDATEs by random id in autocommit, without and with
# GlobalSession=Yes, interleaved over several repetitions. Prints medians:
# operations per second and the server backends the 64 connections hold
# (pg_stat_activity on every member, counted after the timed part while
# every connection is still open). A benchmark, not a test.
#
#   bench/global_session/run.sh [BUILD_DIR]      (default: build)
#   environment: OPS (operations per run, 32000), REPS (repetitions, 3),
#                THREADS (8), CONNS (64), OPERATIONS ("select update")
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
ops=${OPS:-32000}
reps=${REPS:-3}
threads=${THREADS:-8}
conns=${CONNS:-64}
read -r -a operations <<<"${OPERATIONS:-select update}"
bin="$build/bench/global_session/bench_global_session"
rows=30000
source "$root/bench/bench_stats.sh"
source "$root/bench/bench_cluster.sh"
bench_cluster_up run.sh "$root/bench/cluster_3x2.yaml"
export ODBCSYSINI=$cluster ODBCINI=$cluster/odbc.ini

: >"$state/members"
for m in G1N1 G1N2 G2N1 G2N2 G3N1 G3N2; do conninfo_of "$m" >>"$state/members"; done
psql_on G1N1 -c "INSERT INTO accounts (id, balance) SELECT g, 1000 FROM generate_series(1, $rows) g"

declare -A values backends
for rep in $(seq 1 "$reps"); do
  for op in "${operations[@]}"; do
    for gs in No Yes; do
      out=$("$bin" "DSN=bench;GlobalConnection=Yes;GlobalSession=$gs" "$op" "$threads" "$conns" \
            "$ops" "$rows" "$state/members")
      values[$op.$gs]+="$(head -1 <<<"$out" | cut -d' ' -f1)"$'\n'
      backends[$op.$gs]+="$(sed -n 's/^backends //p' <<<"$out")"$'\n'
      echo "rep $rep $op GlobalSession=$gs: $(head -1 <<<"$out"), $(tail -1 <<<"$out")" >&2
    done
  done
done

echo "$conns global connections over $threads threads, $ops operations per run, median of $reps"
printf '%-9s %14s %10s %14s %10s %8s\n' operation "ops/s (No)" backends "ops/s (Yes)" backends "Yes/No"
for op in "${operations[@]}"; do
  n=$(median <<<"${values[$op.No]}")
  y=$(median <<<"${values[$op.Yes]}")
  printf '%-9s %14s %10s %14s %10s %8s\n' "$op" "$n" "$(median <<<"${backends[$op.No]}")" \
    "$y" "$(median <<<"${backends[$op.Yes]}")" "$(ratio "$y" "$n")"
done
