#!/usr/bin/env bash
# server_window.sh OUT_DIR BASE POINT: the BENCH_WINDOW_HOOK of run.sh's
# SERVER_VIEW mode, run once every client thread is ready (POINT start)
# and once every one is done (end), while their sessions are open.
# Writes OUT_DIR/POINT with one line per server process of each member
# under BASE (the local cluster's directory): member, pid, CPU ticks so far
# (utime + stime), and the process title's first words (a client
# backend's names its user, database and client address). Between start
# and end, where perf can, it counts the client backends' context switches
# and system calls into OUT_DIR/perf.
set -euo pipefail
out=$1 base=$2 point=$3
: >"$out/$point"
for dir in "$base"/*/; do
  [[ -f $dir/postmaster.pid ]] || continue
  member=$(basename "$dir")
  for pid in $(pgrep -P "$(head -1 "$dir/postmaster.pid")"); do
    # The command name may hold spaces: the fields after its closing ')'.
    stat=$(cat "/proc/$pid/stat" 2>/dev/null) || continue
    read -r -a f <<<"${stat##*) }"
    title=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | cut -c1-60) || continue
    echo "$member $pid $((f[11] + f[12])) $title" >>"$out/$point"
  done
done
command -v perf >/dev/null || exit 0
if [[ $point == start ]]; then
  rm -f "$out/perf" "$out/perf.pid"
  pids=$(awk '/ app app / {print $2}' "$out/start" | paste -sd,)
  [[ -n $pids ]] || exit 0
  perf stat -x, -e context-switches,raw_syscalls:sys_enter -p "$pids" -o "$out/perf" </dev/null >/dev/null 2>&1 &
  echo $! >"$out/perf.pid"
  sleep 0.5   # perf attached before the clock starts
elif [[ -f $out/perf.pid ]]; then
  pid=$(cat "$out/perf.pid")
  kill -INT "$pid" 2>/dev/null || true
  # perf is no child of this shell: wait for its figures, not for it.
  for _ in $(seq 100); do
    grep -q raw_syscalls "$out/perf" 2>/dev/null && break
    sleep 0.05
  done
fi
