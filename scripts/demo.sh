#!/usr/bin/env bash
# demo.sh: see gcodbc work. Installs missing Debian packages, builds the
# driver and the example programs, starts a local PostgreSQL 15 server,
# registers the driver in an odbcinst.ini in a temporary directory (nothing
# is installed system-wide), runs the examples/ programs through the unixODBC
# driver manager, and tears everything down.
#
#   ./scripts/demo.sh
#   environment: GC_BUILD_DIR (default build), GC_DEMO_DSN (default
#   gcodbc_test; psqlodbc_test runs the same programs on psqlODBC)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${GC_BUILD_DIR:-$root/build}
dsn=${GC_DEMO_DSN:-gcodbc_test}

"$root/scripts/install-deps.sh"

echo "== building the driver and the examples in $build"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="${GC_BUILD_TYPE:-RelWithDebInfo}" >/dev/null
cmake --build "$build" -j "${GC_JOBS:-$(nproc)}" --target gcodbc example_hello example_transactions

echo "== starting a local PostgreSQL server"
state=$(mktemp -d)
cleanup() {
  echo "== stopping the server"
  "$root/tests/support/pg_server.sh" stop "$state" || true
  rm -rf "$state"
}
trap cleanup EXIT
"$root/tests/support/pg_server.sh" start "$state" "$build/src/libgcodbc.so"
export ODBCSYSINI=$state

echo "== the driver is registered in \$ODBCSYSINI/odbcinst.ini:"
sed -n '/^\[gcodbc\]/,/^$/p' "$state/odbcinst.ini"
echo "== and the data source in \$ODBCSYSINI/odbc.ini (password hidden):"
sed -n "/^\[$dsn\]/,/^\$/p" "$state/odbc.ini" | sed -E 's/^(PWD|Password) = .*/\1 = ********/'

for example in hello transactions; do
  echo "== examples/$example.c, DSN=$dsn"
  "$build/examples/example_$example" "DSN=$dsn"
done
echo "== demo done"
