#!/usr/bin/env bash
# run.sh: the connect benchmark. Starts its own local cluster of 3 groups x
# 2 members with gcctl (taken down on exit, whatever happens) and times
# SQLDriverConnect through unixODBC (pyodbc) on loopback:
#   psqlODBC             Debian's odbc-postgresql, one member
#   gcodbc-one           this build's driver, GlobalConnection=No, one member
#   global-again         a global connection, after an earlier one in the
#                        same process (the members are known beforehand)
#   global-first-loc     the first global connection of a fresh process,
#                        with the locator file
#   global-first-seeds   the first global connection of a fresh process,
#                        from one seed address only
# First connects are timed in fresh processes, and so are the baselines
# they are compared with (first-psqlODBC, first-gcodbc-one). Prints medians
# and ratios. A benchmark, not a test: it asserts nothing.
#
#   bench/connect/run.sh [BUILD_DIR]     (default: build)
#   environment: TRIES (connects per row, 20)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
gcctl="$build/tools/gcctl/gcctl"
driver="$build/src/libgcodbc.so"
psqlodbc=/usr/lib/x86_64-linux-gnu/odbc/psqlodbcw.so
[[ -x $gcctl && -f $driver ]] || { echo "run.sh: build gcctl and gcodbc in $build first" >&2; exit 1; }

state=$(mktemp -d)
cluster=$state/cluster
cleanup() {
  "$gcctl" local down --dir "$cluster" >/dev/null 2>&1 || true
  rm -rf "$state"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
"$gcctl" local up "$root/bench/cluster_3x2.yaml" --dir "$cluster" --driver "$driver" >/dev/null
port=$(sed -n 's/.*name: G1N1,.*port: \([0-9]*\)}.*/\1/p' "$cluster/locator.yaml")
cp "$cluster/odbc.ini" "$cluster/odbcinst.ini" "$state/"
printf '\n[psqlODBC]\nDriver = %s\n' "$psqlodbc" >>"$state/odbcinst.ini"
ODBCSYSINI=$state /usr/bin/python3 "$here/connect.py" "$port" "$cluster/locator.yaml" \
  "${TRIES:-20}" "$(nproc)"
