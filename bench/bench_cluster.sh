# bench_cluster.sh: a benchmark's own gcctl local cluster (sourced after
# setting root, build and bin). bench_cluster_up TOOL SPEC checks that bin
# and gcctl are built, brings the cluster of SPEC up in a temporary state
# directory (taken down on exit, whatever happens) and sets state and
# cluster; bench_on_exit adds a benchmark's own clean-up to that exit;
# port_of, conninfo_of and psql_on reach its members as the application
# role.

bench_exit_steps=()

bench_cluster_up() {
  local tool=$1 spec=$2 f
  gcctl="$build/tools/gcctl/gcctl"
  for f in "$bin" "$gcctl"; do
    [[ -x $f ]] || { echo "$tool: $f not built (cmake --build $build --target $(basename "$bin") gcctl gcodbc)" >&2; exit 1; }
  done
  state=$(mktemp -d)
  cluster=$state/cluster
  trap bench_cluster_cleanup EXIT
  trap 'exit 130' INT TERM   # so that an interrupted run still takes its cluster down
  "$gcctl" local up "$spec" --dir "$cluster" --driver "$build/src/libgcodbc.so" >/dev/null
  export PGPASSWORD=app PGCONNECT_TIMEOUT=5
}

# bench_on_exit FUNCTION: FUNCTION runs on exit too, after the cluster is
# down (so that what held its servers, a cgroup say, is empty by then) and
# before the state directory goes; one that fails does not stop the others.
bench_on_exit() { bench_exit_steps+=("$1"); }

bench_cluster_cleanup() {
  local step
  "$gcctl" local down --dir "$cluster" >/dev/null 2>&1 || true
  for step in "${bench_exit_steps[@]}"; do "$step" || true; done
  rm -rf "$state"
}

port_of() { sed -n "s/.*name: $1,.*port: \([0-9]*\)}.*/\1/p" "$cluster/locator.yaml"; }
conninfo_of() { echo "host=127.0.0.1 port=$(port_of "$1") dbname=app user=app password=app"; }
psql_on() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$(conninfo_of "$1")" "${@:2}"; }
