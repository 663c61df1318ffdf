#!/usr/bin/env bash
# run.sh: what each rollback level costs per statement (docs/transactions.md).
# Starts its own PostgreSQL 15 server and runs one prepared statement with a
# parameter in transactions of PER_TXN statements (autocommit off) through
#   gcodbc    RollbackOnError=0, 1, 2
#   psqlODBC  Protocol=7.4-0, 7.4-1, 7.4-2 (UseServerSidePrepare=1)
# interleaving the clients over several repetitions; prints microseconds
# per statement, the median and the best run (the least disturbed when
# other work shares the machine), and, with strace, the messages each
# client sends to the server per statement (sendto calls): round trips,
# which do not depend on the load. A benchmark, not a test: it asserts
# nothing about speed.
#
#   bench/rollback_levels/run.sh [BUILD_DIR]     (default: build)
#   environment: OPS (statements per run, 20000), PER_TXN (10), REPS (5)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
ops=${OPS:-20000}
per_txn=${PER_TXN:-10}
reps=${REPS:-5}
bin="$build/bench/rollback_levels/bench_rollback_levels"
[[ -x $bin ]] || { echo "run.sh: $bin not built" >&2; exit 1; }

source "$here/../bench_server.sh"
psql -X -q -v ON_ERROR_STOP=1 -d "$conninfo" <<'SQL'
CREATE TABLE bench_items (id int PRIMARY KEY, name text NOT NULL);
INSERT INTO bench_items SELECT g, 'item ' || g FROM generate_series(1, 100000) g;
CREATE TABLE bench_log (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                        item int NOT NULL, note text NOT NULL);
VACUUM ANALYZE bench_items;
SQL

clients=(gcodbc-0 gcodbc-1 gcodbc-2 psqlODBC-0 psqlODBC-1 psqlODBC-2)
connstr() {
  local level=${1#*-}
  case $1 in
    gcodbc-*) echo "DSN=gcodbc_test;RollbackOnError=$level" ;;
    psqlODBC-*) echo "DSN=psqlodbc_test;UseServerSidePrepare=1;Protocol=7.4-$level" ;;
  esac
}
declare -A usec=()
for _ in $(seq 1 "$reps"); do
  for op in select insert; do
    for client in "${clients[@]}"; do
      read -r _ u < <("$bin" "$(connstr "$client")" "$op" "$ops" "$per_txn")
      usec[$client.$op]+="$u "
    done
  done
done

source "$here/../bench_stats.sh"
# smallest: the smallest of the numbers on stdin (the run least disturbed
# by other work on the machine).
smallest() { tr ' ' '\n' | awk 'NF' | sort -g | head -n 1; }
echo
echo "rollback_levels: $reps runs x $ops statements, transactions of $per_txn;"
echo "PostgreSQL $(psql -X -At -d "$conninfo" -c 'show server_version') on loopback, $(nproc) cores"
printf '%-12s %-6s %16s %16s\n' client level 'us/stmt median' 'us/stmt best'
for op in select insert; do
  echo "prepared ${op^^} with one parameter:"
  for client in "${clients[@]}"; do
    printf '%-12s %-6s %16s %16s\n' "${client%-*}" "${client#*-}" \
      "$(median <<<"${usec[$client.$op]}")" "$(smallest <<<"${usec[$client.$op]}")"
  done
done

# Round trips: sendto calls per statement, counted by strace (1000
# statements per client; the connection's own few are included).
command -v strace >/dev/null || { echo "(strace not installed: no round-trip count)"; exit 0; }
echo
echo "messages sent to the server per statement (sendto calls / statements; 1000 statements):"
printf '%-12s %-6s %10s %10s\n' client level select insert
for client in "${clients[@]}"; do
  counts=()
  for op in select insert; do
    strace -f -qq -c -e trace=sendto -o "$state/strace.out" \
      "$bin" "$(connstr "$client")" "$op" 1000 "$per_txn" >/dev/null
    calls=$(awk '$NF == "sendto" {print $4}' "$state/strace.out")
    counts+=("$(awk -v c="${calls:-0}" 'BEGIN {printf "%.2f", c / 1000}')")
  done
  printf '%-12s %-6s %10s %10s\n' "${client%-*}" "${client#*-}" "${counts[@]}"
done
