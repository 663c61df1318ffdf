#!/usr/bin/env bash
# run.sh: the global_ops benchmark. Starts its own local cluster of 3 groups
# x 2 members with gcctl (taken down on exit, whatever happens), fills a
# table of 100,000 accounts hashed on id into 12 shards, and measures
# prepared point SELECT and single-row UPDATE (autocommit) by random id,
# and the point SELECT with its text alternating between two forms,
# prepared again on one handle each time as pyodbc's cursor.execute does
# (libpq-owner keeps both prepared), with 1 and 8 client threads (one
# session each), through
#   psqlODBC      Debian's odbc-postgresql with a DSN on one member (G1N1),
#                 UseServerSidePrepare=1; the other groups' rows reach it
#                 through postgres_fdw
#   gcodbc-one    this build's driver, GlobalConnection=No, on that member
#   gcodbc-global this build's driver, global connection (policy 0)
#   global-nores  the same with ResolveLostWrites=No (autocommit writes go
#                 out without their transaction id: docs/failover.md)
#   libpq-owner   raw libpq, each key sent straight to its owner's primary
#                 (owners read from the servers beforehand): the best a
#                 client can do
# in one run, interleaving clients over several repetitions, and prints
# medians and the ratio table. A benchmark, not a test: it asserts nothing.
#
#   bench/global_ops/run.sh [BUILD_DIR]     (default: build)
#   environment: OPS (operations per run, 16000), REPS (repetitions, 5),
#                THREADS (thread counts, "1 8"),
#                CLIENTS (which, "psqlODBC gcodbc-one gcodbc-global global-nores
#                  libpq-owner"; also libpq-xidquery and libpq-returning: libpq-owner
#                  sending each UPDATE in a shape that carries its transaction id,
#                  see global_ops.h, printed in a table of their own; libpq-singlerow:
#                  libpq-owner reading each SELECT in single-row mode),
#                OPERATIONS (which, "select update alternate"; also getdata: the
#                  point SELECT read with SQLGetData instead of bound columns),
#                BASELINE_DRIVER (another build's libgcodbc.so: adds the client
#                  baseline-global, compared with gcodbc-global in a table;
#                  baseline-one, its general connection, can be asked for),
#                INSTRUCTIONS (set: count client instructions per operation
#                  with callgrind instead of timing; INSTRUCTION_OPS, CALLGRIND_DIR;
#                  SYSCALLS=0 leaves out the strace count),
#                SERVER_VIEW (set: what the servers do for each client: their CPU
#                  inside the timed window and in the whole run, the backends'
#                  context switches and system calls, and what each member ran:
#                  sessions, transactions, pg_stat_statements),
#                MEMBER_CPUS (unset: every server shares the machine's cores;
#                  a number such as 0.2: each member's server processes get
#                  that many CPUs at most, through a cgroup v1 cpu quota, a
#                  model of one machine per member; needs root)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
ops=${OPS:-16000}
reps=${REPS:-5}
read -r -a thread_counts <<<"${THREADS:-1 8}"
read -r -a operations <<<"${OPERATIONS:-select update alternate}"
bin="$build/bench/global_ops/bench_global_ops"
psqlodbc=/usr/lib/x86_64-linux-gnu/odbc/psqlodbcw.so
rows=100000
source "$root/bench/bench_stats.sh"
source "$root/bench/bench_cluster.sh"
bench_cluster_up run.sh "$root/bench/cluster_3x2.yaml"
cpu_root=/sys/fs/cgroup/cpu
budget_groups=()
# remove_budget_groups: the MEMBER_CPUS cgroups, on exit (empty once the
# cluster is down).
remove_budget_groups() {
  local g
  for g in "${budget_groups[@]}"; do rmdir "$g" 2>/dev/null || true; done
}
bench_on_exit remove_budget_groups

# Rows go straight into each owner's local shards; the owners file says
# which group (0, 1, 2) stores each id, as the servers placed them.
local_shards="SELECT c.oid::regclass FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
               WHERE i.inhparent = 'accounts'::regclass AND c.relkind = 'r'"
: >"$state/owners"
: >"$state/owner_conninfos"
g=0
for primary in G1N1 G2N1 G3N1; do
  for shard in $(psql_on "$primary" -c "$local_shards"); do
    psql_on "$primary" -c "INSERT INTO $shard SELECT g, 1000 FROM generate_series(1, $rows) g
      WHERE satisfies_hash_partition('accounts'::regclass, 12,
        substring(pg_get_expr((SELECT relpartbound FROM pg_class WHERE oid = '$shard'::regclass), '$shard'::regclass)
                  from 'remainder (\d+)')::int, g::bigint)"
    psql_on "$primary" -c "VACUUM ANALYZE $shard" 2>/dev/null || true
    psql_on "$primary" -c "SELECT id, $g FROM $shard" -F ' ' >>"$state/owners"
  done
  conninfo_of "$primary" >>"$state/owner_conninfos"
  g=$((g + 1))
done
[[ $(wc -l <"$state/owners") -eq $rows ]] || { echo "run.sh: expected $rows owned accounts" >&2; exit 1; }

# Our own ini files: gcctl's DSN "bench" plus a psqlODBC DSN on G1N1.
cluster_odbc_ini "$state/odbc" "$cluster" "$psqlodbc" "$(port_of G1N1)"
# BASELINE_DRIVER: another build's libgcodbc.so as a driver of its own, for
# the client baseline-global (that build's global connection, defaults).
if [[ -n ${BASELINE_DRIVER:-} ]]; then
  awk -v d="$BASELINE_DRIVER" '/^\[/ { on = ($0 == "[bench]"); if (on) print "\n[bench_baseline]"; next }
    on { print (/^Driver *=/ ? "Driver = " d : $0) }' "$state/odbc/odbc.ini" >"$state/baseline.ini"
  cat "$state/baseline.ini" >>"$state/odbc/odbc.ini"
fi

declare -A target=(
  [psqlODBC]="odbc DSN=psqlodbc_g1n1"
  [gcodbc-one]="odbc DSN=bench;GlobalConnection=No;Servers=127.0.0.1:$(port_of G1N1)"
  [gcodbc-global]="odbc DSN=bench;GlobalConnection=Yes;LocalityMemberPolicy=0"
  [global-nores]="odbc DSN=bench;GlobalConnection=Yes;LocalityMemberPolicy=0;ResolveLostWrites=No"
  [libpq-owner]="libpq $state/owner_conninfos"
  [baseline-global]="odbc DSN=bench_baseline;GlobalConnection=Yes;LocalityMemberPolicy=0"
  [baseline-one]="odbc DSN=bench_baseline;GlobalConnection=No;Servers=127.0.0.1:$(port_of G1N1)"
  [libpq-xidquery]="libpq-xidquery $state/owner_conninfos"
  [libpq-returning]="libpq-returning $state/owner_conninfos"
  [libpq-singlerow]="libpq-singlerow $state/owner_conninfos"
)
read -r -a clients <<<"${CLIENTS:-psqlODBC gcodbc-one gcodbc-global global-nores libpq-owner}"

declare -A results=() cpu=() server_cpu=() unavailable=()

base=$(sed -n 's/^base: //p' "$cluster/local.state")
postmasters=()
for dir in "$base"/*/; do
  [[ -f $dir/postmaster.pid ]] && postmasters+=("$(head -1 "$dir/postmaster.pid")")
done
tick_us=$((1000000 / $(getconf CLK_TCK)))
# server_ticks: the servers' CPU so far, in clock ticks: the postmasters' own
# and their ended children's (a run's backends end with it).
server_ticks() {
  local pm total=0 f
  for pm in "${postmasters[@]}"; do
    read -r -a f <"/proc/$pm/stat"
    total=$((total + f[13] + f[14] + f[15] + f[16]))
  done
  echo "$total"
}
# children: how many processes the postmasters have now.
children() {
  local pm n=0
  for pm in "${postmasters[@]}"; do n=$((n + $(pgrep -c -P "$pm" || true))); done
  echo "$n"
}

# One timed run; records its ops/s, client and server CPU, or marks the
# client unavailable.
run_one() {
  local client=$1 op=$2 threads=$3 kind conn out rate cpu_us before ticks kids waited
  kind=${target[$client]%% *}
  conn=${target[$client]#* }
  kids=$(children)
  ticks=$(server_ticks)
  if out=$(timeout 300 "$bin" "$kind" "$conn" "$op" "$threads" "$ops" "$state/owners" 2>"$state/err"); then
    read -r rate _ _ cpu_us <<<"$out"
    results[$client.$op.$threads]+="$rate "
    cpu[$client.$op.$threads]+="$cpu_us "
    # The run's backends are reaped a moment after it ends.
    for waited in 1 2 3 4 5 6 7 8 9 10; do
      (($(children) <= kids)) && break
      sleep 0.1
    done
    server_cpu[$client.$op.$threads]+="$(awk -v t=$(($(server_ticks) - ticks)) -v u="$tick_us" \
      -v n="$ops" 'BEGIN {printf "%.2f", t * u / n}') "
  else
    unavailable[$client]=1
    echo "run.sh: $client $op $threads failed; leaving $client out:" >&2
    sed 's/^/  /' "$state/err" | head -n 5 >&2
  fi
}

# MEMBER_CPUS: each member's postmaster and children (backends forked later
# inherit it) go into a cgroup of their own with a CPU quota, once the data
# is loaded and before the clients connect.
if [[ -n ${MEMBER_CPUS:-} ]]; then
  [[ -w $cpu_root && -f $cpu_root/cpu.cfs_quota_us ]] ||
    { echo "run.sh: MEMBER_CPUS needs a writable cgroup v1 cpu controller at $cpu_root" >&2; exit 1; }
  quota=$(awk -v c="$MEMBER_CPUS" 'BEGIN {printf "%d", c * 100000}')
  for dir in "$base"/*/; do
    [[ -f $dir/postmaster.pid ]] || continue
    group="$cpu_root/gcodbc_bench_$$_$(basename "$dir")"
    mkdir "$group"
    budget_groups+=("$group")
    echo 100000 >"$group/cpu.cfs_period_us"
    echo "$quota" >"$group/cpu.cfs_quota_us"
    pm=$(head -1 "$dir/postmaster.pid")
    for pid in "$pm" $(pgrep -P "$pm"); do echo "$pid" >"$group/cgroup.procs"; done
  done
fi

# INSTRUCTIONS=1: instead of timing, count the client's instructions per
# operation under callgrind (deterministic, unlike CPU time on shared
# cores): one thread, only inside the benchmark's call of one operation
# (the driver manager, the driver and libpq below it), the difference
# between a run of INSTRUCTION_OPS operations and one of a fifth of them,
# so the first execution (which prepares) and the warm-up cancel out.
# CALLGRIND_DIR keeps the longer runs' profiles (callgrind_annotate them).
# Each profile is also split by layer, by object and by ODBC call
# (callgrind_split.awk), printed after the totals.
if [[ -n ${INSTRUCTIONS:-} ]]; then
  command -v valgrind >/dev/null || { echo "run.sh: INSTRUCTIONS needs valgrind" >&2; exit 1; }
  long_ops=${INSTRUCTION_OPS:-2000}
  short_ops=$((long_ops / 5))
  # collected CLIENT OP N: the instructions callgrind counted for the whole process.
  collected() {
    local kind=${target[$1]%% *} conn=${target[$1]#* } out=$state/callgrind.$1.$2.$3
    # Connecting is many times slower under valgrind: no member may be left out.
    [[ $kind == odbc ]] && conn+=";ConnectTimeout=120"
    valgrind --tool=callgrind --toggle-collect=odbc_run --toggle-collect=pq_run \
      --callgrind-out-file="$out" "$bin" "$kind" "$conn" "$2" 1 "$3" \
      "$state/owners" >/dev/null 2>"$state/err" || { sed 's/^/  /' "$state/err" | tail -n 5 >&2; return 1; }
    sed -n 's/^summary: //p' "$out"
    awk -v client_object="$(basename "$bin")" -f "$here/callgrind_split.awk" "$out" >"$out.split"
    if [[ -n ${CALLGRIND_DIR:-} && $3 == "$long_ops" ]]; then
      mkdir -p "$CALLGRIND_DIR" && cp "$out" "$CALLGRIND_DIR/callgrind.$1.$2"
    fi
  }
  # syscalls CLIENT OP N: the system calls of the whole process (strace -c).
  syscalls() {
    local kind=${target[$1]%% *} conn=${target[$1]#* } out=$state/strace.$1.$2.$3
    [[ $kind == odbc ]] && conn+=";ConnectTimeout=120"
    strace -f -c -o "$out" "$bin" "$kind" "$conn" "$2" 1 "$3" "$state/owners" >/dev/null \
      2>"$state/err" || return 1
    awk '$NF == "total" {print ($4 ~ /^[0-9]+$/ ? $4 : $3)}' "$out"
  }
  # split_per_op CLIENT OP: callgrind_split.awk's figures per operation
  # (the long run's less the short run's) into split[CLIENT.OP.KEY].
  declare -A split=()
  split_per_op() {
    local key value
    while read -r key value; do
      split[$1.$2.$key]=$value
    done < <(awk -v n=$((long_ops - short_ops)) '
      { key = $1 " " $2 } FNR == NR { short[key] = $3; next }
      { printf "%s/%s %d\n", $1, $2, ($3 - short[key]) / n }' \
      "$state/callgrind.$1.$2.$short_ops.split" "$state/callgrind.$1.$2.$long_ops.split")
  }
  # split_table TITLE KIND KEY...: one row per client and operation with
  # figures of KIND (layer, object, dm-call: only where a driver manager
  # ran), one column per KEY.
  split_table() {
    local title=$1 kind=$2 client op key
    shift 2
    echo
    echo "$title"
    printf '%-16s %-10s' client operation
    for key in "$@"; do printf ' %14s' "$key"; done
    echo
    for client in "${clients[@]}"; do
      for op in "${operations[@]}"; do
        [[ -n ${split[$client.$op.layer/client]:-} ]] || continue
        [[ $kind != dm-call || ${split[$client.$op.layer/dm]} != 0 ]] || continue
        printf '%-16s %-10s' "$client" "$op"
        for key in "$@"; do printf ' %14s' "${split[$client.$op.$kind/$key]:-0}"; done
        echo
      done
    done
  }
  # split_tables: per operation, the instructions of each layer (with the
  # system libraries it calls), of each object alone, and the driver
  # manager's own share of each ODBC call; then the floor under any driver:
  # the driver manager and libpq alone against libpq-owner's whole cost.
  split_tables() {
    local client op objects=() calls=()
    mapfile -t objects < <(printf '%s\n' "${!split[@]}" | sed -n 's/^[^.]*\.[a-z]*\.object\///p' | grep -vx '???' | sort -u)
    mapfile -t calls < <(printf '%s\n' "${!split[@]}" | sed -n 's/^[^.]*\.[a-z]*\.dm-call\///p' | sort -u)
    split_table "instructions per operation by layer (each with the system libraries it calls)" \
      layer client dm driver libpq
    split_table "instructions per operation by object (each alone)" object "${objects[@]}"
    ((${#calls[@]} > 0)) || return 0
    split_table "the driver manager's own instructions per operation, by ODBC call" dm-call "${calls[@]}"
    echo
    # Each raw libpq client's whole operation (its own code, which formats
    # the key and reads the row as a driver must, and libpq): with the
    # driver manager's share added, the least a driver under it can cost.
    echo "the floor under a driver: the driver manager's share plus a raw libpq client's whole"
    echo "operation, against libpq-owner's (libpq-singlerow: as a driver that streams must read;"
    echo "libpq-returning: as a driver that carries a write's transaction id must write)"
    # The driver manager's share is the same whichever driver is below it.
    local raw owner whole dm
    for op in "${operations[@]}"; do
      dm=0
      for client in "${clients[@]}"; do
        [[ ${split[$client.$op.layer/dm]:-0} == 0 ]] || { dm=${split[$client.$op.layer/dm]}; break; }
      done
      [[ $dm != 0 && -n ${split[libpq-owner.$op.layer/libpq]:-} ]] || continue
      owner=$((split[libpq-owner.$op.layer/libpq] + split[libpq-owner.$op.layer/client]))
      for raw in libpq-owner libpq-singlerow libpq-returning; do
        [[ -n ${split[$raw.$op.layer/libpq]:-} ]] || continue
        # Single-row mode is for reads, the id-carrying shape for writes.
        [[ $raw != libpq-singlerow || $op != update ]] || continue
        [[ $raw != libpq-returning || $op == update ]] || continue
        whole=$((split[$raw.$op.layer/libpq] + split[$raw.$op.layer/client]))
        printf '%-10s driver manager %5d + %-15s %6d = %6d: %sx libpq-owner (%d)\n' "$op" \
          "$dm" "$raw" "$whole" $((dm + whole)) "$(ratio $((dm + whole)) "$owner")" "$owner"
      done
    done
  }
  echo
  echo "client instructions and system calls per operation (callgrind and strace, 1 thread,"
  echo "($long_ops - $short_ops operations) difference)"
  printf '%-16s' client
  for op in "${operations[@]}"; do printf ' %14s %14s' "$op instr" "$op syscalls"; done
  echo
  for client in "${clients[@]}"; do
    printf '%-16s' "$client"
    for op in "${operations[@]}"; do
      if long=$(collected "$client" "$op" "$long_ops") && short=$(collected "$client" "$op" "$short_ops"); then
        printf ' %14s' $(( (long - short) / (long_ops - short_ops) ))
        split_per_op "$client" "$op"
      else
        printf ' %14s' n/a
      fi
      if [[ ${SYSCALLS:-1} != 0 ]] && command -v strace >/dev/null && long=$(syscalls "$client" "$op" "$long_ops") &&
         short=$(syscalls "$client" "$op" "$short_ops"); then
        printf ' %14s' "$(awk -v a="$long" -v b="$short" -v n=$((long_ops - short_ops)) 'BEGIN {printf "%.2f", (a - b) / n}')"
      else
        printf ' %14s' n/a
      fi
    done
    echo
  done
  split_tables
  exit 0
fi

# SERVER_VIEW=1: what the servers do for each client. Runs are timed and
# interleaved as usual (REPS repetitions) with statistics reset before
# each; the hook reads every server process's CPU when all threads are
# ready and when all are done (server_window.sh), so the CPU of the client
# backends inside the timed window (primaries', standbys') and of the
# members' other processes is told apart from the whole run's (the
# backends reaped after it: connecting and disconnecting included), with
# the client backends' context switches and system calls in the window
# (perf). Prints the medians per operation, then for the last repetition
# what each member ran: sessions, commits and rollbacks (pg_stat_database)
# and calls and plans per statement text (pg_stat_statements, track_planning on).
if [[ -n ${SERVER_VIEW:-} ]]; then
  os_user=$(sed -n 's/^user: //p' "$cluster/local.state")
  # super_sql MEMBER SQL: SQL as the servers' superuser, over the socket.
  super_sql() {
    psql -X -q -At -F ' ' -v ON_ERROR_STOP=1 -h "$base/sock" -p "$(port_of "$1")" -U "$os_user" -d app -c "$2"
  }
  members=() standbys=" "
  for dir in "$base"/*/; do [[ -f $dir/postmaster.pid ]] && members+=("$(basename "$dir")"); done
  for m in "${members[@]}"; do
    super_sql "$m" "ALTER SYSTEM SET pg_stat_statements.track_planning = on" >/dev/null
    super_sql "$m" "SELECT pg_reload_conf()" >/dev/null
    [[ $(super_sql "$m" "SELECT pg_is_in_recovery()") == t ]] && standbys+="$m "
  done
  mkdir -p "$state/window"
  export BENCH_WINDOW_HOOK="$here/server_window.sh $state/window $base"
  declare -A win_primary=() win_standby=() win_other=() switches=() server_calls=() details=()
  # window_figures KEY: the last run's window figures, per operation, into the arrays.
  window_figures() {
    local p s o c y
    read -r p s o < <(awk -v standbys="$standbys" -v u="$tick_us" -v n="$ops" '
      FNR == NR { start[$2] = $3; next }
      $2 in start { d = ($3 - start[$2]) * u / n
        if ($0 !~ / app app /) o += d; else if (index(standbys, " " $1 " ")) s += d; else p += d }
      END { printf "%.2f %.2f %.2f\n", p, s, o }' "$state/window/start" "$state/window/end")
    win_primary[$1]+="$p " win_standby[$1]+="$s " win_other[$1]+="$o "
    [[ -s $state/window/perf ]] || return 0
    c=$(awk -F, '$3 == "context-switches" {print $1}' "$state/window/perf")
    y=$(awk -F, '$3 == "raw_syscalls:sys_enter" {print $1}' "$state/window/perf")
    switches[$1]+="$(awk -v c="$c" -v n="$ops" 'BEGIN {printf "%.2f", c / n}') "
    server_calls[$1]+="$(awk -v c="$y" -v n="$ops" 'BEGIN {printf "%.2f", c / n}') "
  }
  # run_details CLIENT OP THREADS: what each member ran for that run.
  run_details() {
    local m
    echo "== $1 $2, $3 threads, $ops operations: per member, sessions, xact_commit, xact_rollback"
    for m in "${members[@]}"; do
      echo "$m $(super_sql "$m" "SELECT sessions, xact_commit, xact_rollback FROM pg_stat_database WHERE datname = 'app'")"
    done
    echo "statements (pg_stat_statements, 2 calls or more): member, calls, plans, rows, text"
    for m in "${members[@]}"; do
      super_sql "$m" "SELECT '$m', calls, plans, rows, left(regexp_replace(query, '\s+', ' ', 'g'), 80)
                      FROM pg_stat_statements
                      WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'app')
                        AND calls >= 2 ORDER BY calls DESC"
    done
  }
  for rep in $(seq 1 "$reps"); do
    for threads in "${thread_counts[@]}"; do
      for op in "${operations[@]}"; do
        for client in "${clients[@]}"; do
          [[ -z ${unavailable[$client]:-} ]] || continue
          for m in "${members[@]}"; do
            super_sql "$m" "SELECT pg_stat_statements_reset(), pg_stat_reset()" >/dev/null
          done
          rm -f "$state/window/start" "$state/window/end" "$state/window/perf"
          run_one "$client" "$op" "$threads"
          [[ -s $state/window/end ]] || continue
          window_figures "$client.$op.$threads"
          if ((rep == reps)); then
            sleep 1   # the ended sessions' statistics are flushed
            details[$client.$op.$threads]=$(run_details "$client" "$op" "$threads")
          fi
        done
      done
    done
  done
  echo
  echo "global_ops SERVER_VIEW: $reps runs x $ops operations, medians, per operation; $(nproc) cores${MEMBER_CPUS:+, MEMBER_CPUS=$MEMBER_CPUS}"
  echo "server CPU us: whole run (reaped backends) and inside the timed window: client backends on the"
  echo "primaries and on the standbys, the members' other processes; client backends' context switches"
  echo "and system calls in the window (perf)"
  printf '%-8s %7s %-15s %8s %9s %9s %8s %9s %9s %9s %9s\n' operation threads client ops/s client-us \
    whole-us primary-us standby-us other-us switches syscalls
  for op in "${operations[@]}"; do
    for threads in "${thread_counts[@]}"; do
      for client in "${clients[@]}"; do
        k=$client.$op.$threads
        printf '%-8s %7s %-15s %8s %9s %9s %8s %9s %9s %9s %9s\n' "$op" "$threads" "$client" \
          "$(median <<<"${results[$k]:-}")" "$(median <<<"${cpu[$k]:-}")" \
          "$(median <<<"${server_cpu[$k]:-}")" "$(median <<<"${win_primary[$k]:-}")" \
          "$(median <<<"${win_standby[$k]:-}")" "$(median <<<"${win_other[$k]:-}")" \
          "$(median <<<"${switches[$k]:-}")" "$(median <<<"${server_calls[$k]:-}")"
      done
    done
  done
  for k in "${!details[@]}"; do echo; echo "${details[$k]}"; done
  exit 0
fi

for _ in $(seq 1 "$reps"); do
  for threads in "${thread_counts[@]}"; do
    for op in "${operations[@]}"; do
      for client in "${clients[@]}"; do
        [[ -n ${unavailable[$client]:-} ]] || run_one "$client" "$op" "$threads"
      done
    done
  done
done

server_version=$(psql_on G1N1 -c 'show server_version')
# table TITLE ARRAY: one row per operation and thread count, medians and ratios.
table() {
  local title=$1 op threads label p o g n l
  local -n values=$2
  echo
  echo "$title"
  printf '%-14s %7s %9s %10s %13s %12s %11s %15s %16s %14s %15s\n' operation threads psqlODBC \
    gcodbc-one gcodbc-global global-nores libpq-owner global/psqlODBC global/libpq-own \
    nores/psqlODBC nores/libpq-own
  for op in "${operations[@]}"; do
    for threads in "${thread_counts[@]}"; do
      p=$(median <<<"${values[psqlODBC.$op.$threads]:-}")
      o=$(median <<<"${values[gcodbc-one.$op.$threads]:-}")
      g=$(median <<<"${values[gcodbc-global.$op.$threads]:-}")
      n=$(median <<<"${values[global-nores.$op.$threads]:-}")
      l=$(median <<<"${values[libpq-owner.$op.$threads]:-}")
      case $op in
        select) label="point SELECT" ;;
        update) label="1-row UPDATE" ;;
        getdata) label="SELECT getdata" ;;
        *) label="SELECT 2 texts" ;;
      esac
      printf '%-14s %7s %9s %10s %13s %12s %11s %15s %16s %14s %15s\n' "$label" "$threads" "$p" \
        "$o" "$g" "$n" "$l" "$(ratio "$g" "$p")" "$(ratio "$g" "$l")" "$(ratio "$n" "$p")" \
        "$(ratio "$n" "$l")"
    done
  done
}

echo
echo "global_ops: $reps runs x $ops operations per client and thread count, medians;"
echo "3 groups x 2 members, accounts: $rows rows in 12 hash shards; PostgreSQL $server_version"
echo "on loopback (gcctl local cluster, fsync=off), $(nproc) cores"
if [[ -n ${MEMBER_CPUS:-} ]]; then
  echo "each member's server limited to $MEMBER_CPUS CPUs (cgroup quota): one machine per member"
else
  echo "every server and client shares the machine's cores"
fi
table "throughput, operations per second (higher is better)" results
table "client CPU, microseconds per operation (lower is better)" cpu
table "server CPU (the backends, reaped after each run), microseconds per operation" server_cpu

# shapes TITLE ARRAY: the UPDATE's wire shapes side by side, when measured.
shapes() {
  local title=$1 threads a x r
  local -n values=$2
  echo
  echo "$title"
  printf '%-8s %12s %15s %16s %15s %16s\n' threads libpq-owner libpq-xidquery libpq-returning \
    xidquery/alone returning/alone
  for threads in "${thread_counts[@]}"; do
    a=$(median <<<"${values[libpq-owner.update.$threads]:-}")
    x=$(median <<<"${values[libpq-xidquery.update.$threads]:-}")
    r=$(median <<<"${values[libpq-returning.update.$threads]:-}")
    printf '%-8s %12s %15s %16s %15s %16s\n' "$threads" "$a" "$x" "$r" "$(ratio "$x" "$a")" \
      "$(ratio "$r" "$a")"
  done
}
# against_baseline KIND TITLE: this build's client gcodbc-KIND beside the
# same connection of BASELINE_DRIVER (baseline-KIND), with the spread of
# the runs behind each median.
against_baseline() {
  local kind=$1 op threads b g
  echo
  echo "this build against BASELINE_DRIVER, $2 (CPU: us per operation)"
  printf '%-10s %7s %14s %10s %6s %15s %15s %13s %9s %14s %10s\n' operation threads 'baseline ops/s' \
    'this ops/s' ratio 'baseline runs' 'this runs' 'baseline cpu' 'this cpu' 'baseline server' 'this server'
  for op in "${operations[@]}"; do
    for threads in "${thread_counts[@]}"; do
      b=$(median <<<"${results[baseline-$kind.$op.$threads]:-}")
      g=$(median <<<"${results[gcodbc-$kind.$op.$threads]:-}")
      printf '%-10s %7s %14s %10s %6s %15s %15s %13s %9s %14s %10s\n' "$op" "$threads" "$b" "$g" \
        "$(ratio "$g" "$b")" \
        "$(spread <<<"${results[baseline-$kind.$op.$threads]:-}")" \
        "$(spread <<<"${results[gcodbc-$kind.$op.$threads]:-}")" \
        "$(median <<<"${cpu[baseline-$kind.$op.$threads]:-}")" \
        "$(median <<<"${cpu[gcodbc-$kind.$op.$threads]:-}")" \
        "$(median <<<"${server_cpu[baseline-$kind.$op.$threads]:-}")" \
        "$(median <<<"${server_cpu[gcodbc-$kind.$op.$threads]:-}")"
    done
  done
}
if [[ " ${clients[*]} " == *" baseline-global "* ]]; then
  against_baseline global "global connection with the defaults"
fi
if [[ " ${clients[*]} " == *" baseline-one "* ]]; then
  against_baseline one "general connection on G1N1"
fi
if [[ " ${clients[*]} " == *" libpq-xidquery "* || " ${clients[*]} " == *" libpq-returning "* ]]; then
  shapes "1-row UPDATE wire shapes through libpq, operations per second" results
  shapes "1-row UPDATE wire shapes through libpq, client CPU us per operation" cpu
  shapes "1-row UPDATE wire shapes through libpq, server CPU us per operation" server_cpu
fi
