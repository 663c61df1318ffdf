#!/usr/bin/env bash
# run.sh: the transfer benchmark. Starts its own local cluster of 3 groups x
# 2 members with gcctl (taken down on exit, whatever happens), fills
# accounts with 30,000 rows hashed on id into 12 shards, and measures money
# transfers (two single-row UPDATEs, the lower id first, then COMMIT) whose
# two accounts are in one group ("1 group") or in two groups ("2 groups"),
# with 1 and 8 client threads (one session each), through
#   gcodbc        this build's driver, global connection (policy 0),
#                 autocommit off, SQLEndTran: in one group it commits on
#                 the group's primary; across two groups in two phases
#                 (docs/global-connection.md, "Transactions across groups")
#   libpq         raw libpq, each UPDATE sent straight to its owner's
#                 primary: BEGIN / UPDATE / UPDATE / COMMIT in one group;
#                 across two, the driver's two-phase commit by hand (BEGIN
#                 and UPDATE on each, PREPARE TRANSACTION, decide_commit and
#                 COMMIT on the coordinator, COMMIT PREPARED, forget): the
#                 floor
#   psqlODBC+fdw  Debian's odbc-postgresql on one member (G1N1), autocommit
#                 off: the other groups' rows through postgres_fdw, which
#                 commits them before the local COMMIT: NOT ATOMIC, a
#                 reference only (2 groups only)
# in one run, interleaving clients over several repetitions, and prints
# medians and the ratio table. A benchmark, not a test: it asserts nothing
# (but every transfer must update its two rows, or the client is left out).
#
#   bench/transfer/run.sh [BUILD_DIR]     (default: build)
#   environment: OPS (transfers per run, 3000), REPS (repetitions, 5),
#                THREADS (thread counts, "1 8"), CHECK=1 (each transfer
#                reads the sum of its two balances back before COMMIT:
#                across two groups gcodbc's is a split read, the second
#                group's row brought to the coordinator; libpq reads each
#                balance on its owner; psqlODBC+fdw reads the remote one
#                through postgres_fdw, as it was before the transaction)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
ops=${OPS:-3000}
reps=${REPS:-5}
read -r -a thread_counts <<<"${THREADS:-1 8}"
check=()
[[ ${CHECK:-0} == 1 ]] && check=(check)
bin="$build/bench/transfer/bench_transfer"
psqlodbc=/usr/lib/x86_64-linux-gnu/odbc/psqlodbcw.so
rows=30000
source "$root/bench/bench_stats.sh"
source "$root/bench/bench_cluster.sh"
bench_cluster_up run.sh "$root/bench/cluster_3x2.yaml"

# The rows go in through G1N1 (postgres_fdw places them); the owners file
# says which group (0, 1, 2) stores each id, as the servers placed them.
psql_on G1N1 -c "INSERT INTO accounts SELECT g, 1000 FROM generate_series(1, $rows) g"
psql_on G1N1 -F ' ' -c "SELECT a.id, substring(s.group_name from 2)::int - 1 FROM accounts a
                        JOIN gcluster.shards s ON s.name = a.tableoid::regclass::text" >"$state/owners"
[[ $(wc -l <"$state/owners") -eq $rows ]] || { echo "run.sh: expected $rows owned accounts" >&2; exit 1; }
: >"$state/primaries"
for g in 1 2 3; do
  psql_on "G${g}N1" -c "VACUUM ANALYZE" 2>/dev/null || true
  echo "G$g $(conninfo_of "G${g}N1")" >>"$state/primaries"
done

# Our own ini files: gcctl's DSN "bench" plus a psqlODBC DSN on G1N1.
cluster_odbc_ini "$state/odbc" "$cluster" "$psqlodbc" "$(port_of G1N1)"

# client -> "kind target kinds-of-transfer"
declare -A target=(
  [gcodbc]="odbc DSN=bench;GlobalConnection=Yes;LocalityMemberPolicy=0"
  [libpq]="libpq $state/primaries"
  [psqlODBC+fdw]="odbc DSN=psqlodbc_g1n1"
)
declare -A kinds=([gcodbc]="same cross" [libpq]="same cross" [psqlODBC+fdw]="cross")
clients=(gcodbc libpq psqlODBC+fdw)
declare -A results=() cpu=() unavailable=()

# One timed run; records its transfers/s, or marks the client unavailable.
run_one() {
  local client=$1 kind=$2 threads=$3 mode conn out rate cpu_us
  mode=${target[$client]%% *}
  conn=${target[$client]#* }
  if out=$(timeout 300 "$bin" "$mode" "$conn" "$kind" "$threads" "$ops" "$state/owners" \
                          "${check[@]}" 2>"$state/err"); then
    read -r rate _ _ cpu_us <<<"$out"
    results[$client.$kind.$threads]+="$rate "
    cpu[$client.$kind.$threads]+="$cpu_us "
  else
    unavailable[$client]=1
    echo "run.sh: $client $kind $threads failed; leaving $client out:" >&2
    sed 's/^/  /' "$state/err" | head -n 5 >&2
  fi
}

for _ in $(seq 1 "$reps"); do
  for threads in "${thread_counts[@]}"; do
    for client in "${clients[@]}"; do
      for kind in ${kinds[$client]}; do
        [[ -n ${unavailable[$client]:-} ]] || run_one "$client" "$kind" "$threads"
      done
    done
  done
done

left=0
for g in 1 2 3; do
  left=$((left + $(psql_on "G${g}N1" -c "SELECT count(*) FROM pg_prepared_xacts")))
done
total=$(psql_on G1N1 -c "SELECT sum(balance) FROM accounts")
server_version=$(psql_on G1N1 -c 'show server_version')

# table TITLE ARRAY: one row per thread count, medians and ratios.
table() {
  local title=$1 threads g1 g2 l1 l2 p2
  local -n values=$2
  echo
  echo "$title"
  printf '%7s %14s %15s %8s %13s %14s %8s %11s %11s %23s\n' threads "gcodbc 1 group" \
    "gcodbc 2 groups" "2g/1g" "libpq 1 group" "libpq 2 groups" "2g/1g" "gcodbc/libpq" \
    "gcodbc/libpq" "psqlODBC+fdw 2 groups"
  printf '%7s %14s %15s %8s %13s %14s %8s %11s %11s %23s\n' "" "" "(2PC)" "" "" "(2PC by hand)" "" \
    "1 group" "2 groups" "(NOT atomic)"
  for threads in "${thread_counts[@]}"; do
    g1=$(median <<<"${values[gcodbc.same.$threads]:-}")
    g2=$(median <<<"${values[gcodbc.cross.$threads]:-}")
    l1=$(median <<<"${values[libpq.same.$threads]:-}")
    l2=$(median <<<"${values[libpq.cross.$threads]:-}")
    p2=$(median <<<"${values[psqlODBC+fdw.cross.$threads]:-}")
    printf '%7s %14s %15s %8s %13s %14s %8s %11s %11s %23s\n' "$threads" "$g1" "$g2" \
      "$(ratio "$g2" "$g1")" "$l1" "$l2" "$(ratio "$l2" "$l1")" "$(ratio "$g1" "$l1")" \
      "$(ratio "$g2" "$l2")" "$p2"
  done
}

echo
echo "transfer${check:+ with the check read}: $reps runs x $ops transfers per client, kind and thread count, medians;"
echo "3 groups x 2 members, accounts: $rows rows in 12 hash shards; PostgreSQL $server_version"
echo "on loopback (gcctl local cluster, fsync=off, asynchronous standbys), $(nproc) cores shared"
echo "by every server and client; afterwards: total balance $total (was $((rows * 1000))),"
echo "prepared transactions left on the primaries: $left"
table "throughput, transfers per second (higher is better)" results
table "client CPU, microseconds per transfer (lower is better)" cpu
