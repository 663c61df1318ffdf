# Helpers shared by the gcctl integration tests (sourced, not run).
# Expects GCCTL (the gcctl binary) and DIR (a local cluster directory).

set -u
export PGPASSWORD=app
export PGCONNECT_TIMEOUT=5

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# port_of MEMBER: the member's port from the cluster's locator file.
port_of() {
    sed -n "s/.*name: $1,.*port: \([0-9]*\)}.*/\1/p" "$DIR/locator.yaml"
}

# members [GROUP]: member names in locator order.
members() {
    sed -n "s/.*name: \([A-Za-z0-9_]*\), group: ${1:-[A-Za-z0-9_]*},.*/\1/p" "$DIR/locator.yaml"
}

# sql MEMBER QUERY...: runs queries as the application role over TCP,
# unaligned output without headers; stops the test on an SQL error.
sql() {
    local member=$1
    shift
    local args=()
    for q in "$@"; do args+=(-c "$q"); done
    psql -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$(port_of "$member")" -U app -d app "${args[@]}" \
        || fail "SQL on $member failed: $*"
}

# sql_may_fail MEMBER QUERY: like sql, but returns psql's status.
sql_may_fail() {
    psql -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$(port_of "$1")" -U app -d app -c "$2" 2>&1
}

# primary_of GROUP / standbys_of GROUP, from the catalog as the cluster knows it.
primary_of() {
    sed -n "s/.*name: \([A-Za-z0-9_]*\), group: $1,.*/\1/p" "$DIR/locator.yaml" | head -1
}

# wait_until MEMBER QUERY EXPECTED: polls for up to 15 s (standbys replay
# asynchronously); fails with the last answer.
wait_until() {
    local got=""
    for _ in $(seq 1 150); do
        got=$(psql -X -q -At -h 127.0.0.1 -p "$(port_of "$1")" -U app -d app -c "$2" 2>&1)
        [ "$got" = "$3" ] && return 0
        sleep 0.1
    done
    fail "$1: '$2' gave '$got', expected '$3'"
}

# own_cluster SPEC: brings up a private cluster for a test that changes the
# topology; it is always taken down when the test ends, pass or fail.
own_cluster() {
    "$GCCTL" local down --dir "$DIR" >/dev/null 2>&1 || true
    trap '"$GCCTL" local down --dir "$DIR" >/dev/null 2>&1 || true' EXIT
    "$GCCTL" local up "$1" --dir "$DIR" || fail "local up $1"
}
