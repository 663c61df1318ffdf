# bench_server.sh: the server a one-server benchmark's run.sh starts
# (sourced after setting root and build): a PostgreSQL server in a
# temporary directory with DSNs gcodbc_test (this build's driver) and
# psqlodbc_test, stopped and removed when the script exits. Sets state,
# conninfo and ODBCSYSINI.
state=$(mktemp -d)
bench_server_cleanup() {
  "$root/tests/support/pg_server.sh" stop "$state" >/dev/null || true
  rm -rf "$state"
}
trap bench_server_cleanup EXIT
"$root/tests/support/pg_server.sh" start "$state" "$build/src/libgcodbc.so" >/dev/null
export ODBCSYSINI=$state
conninfo=$(cat "$state/conninfo")
