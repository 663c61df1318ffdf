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

# su_sql MEMBER QUERY: runs queries as the cluster's superuser over the
# member's socket, unaligned output without headers; stops the test on an SQL
# error.
su_sql() {
    local base os_user
    base=$(sed -n 's/^base: //p' "$DIR/local.state")
    os_user=$(sed -n 's/^user: //p' "$DIR/local.state")
    psql -X -q -At -v ON_ERROR_STOP=1 -h "$base/sock" -p "$(port_of "$1")" -U "$os_user" -d app -c "$2" \
        || fail "superuser SQL on $1 failed: $2"
}

# run_client COMMAND ARGS...: runs a client program against the cluster's
# DSNs (DIR's odbc.ini and odbcinst.ini), with GC_CLIENT_ENV (the sanitizer
# build's preload) in its environment.
run_client() {
    # shellcheck disable=SC2086 # GC_CLIENT_ENV is NAME=value words
    env ${GC_CLIENT_ENV:-} ODBCSYSINI="$DIR" ODBCINI="$DIR/odbc.ini" "$@"
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
# topology; it is always taken down when the test ends, pass or fail, and
# also when ctest kills the test at its TIMEOUT (guard_cluster).
own_cluster() {
    take_down
    trap take_down EXIT
    guard_cluster
    "$GCCTL" local up "$1" --dir "$DIR" || { show_cluster_logs '*' >&2; fail "local up $1"; }
}

# show_cluster_logs PATTERN: the end of each log of the cluster in DIR
# whose name matches PATTERN ('*', '*.keeper'), so that a failure shows
# why a server or keeper did not do its part: take_down removes them.
show_cluster_logs() {
    local base log
    base=$(sed -n 's/^base: //p' "$DIR/local.state" 2>/dev/null)
    [ -n "$base" ] || return 0
    for log in "$base"/logs/$1.log; do
        [ -f "$log" ] || continue
        echo "--- the end of $(basename "$log"):"
        tail -25 "$log"
    done
}

# take_down: takes the cluster down, continuing first every server, backend
# and keeper a fault left frozen (a stopped postmaster would never answer
# the stop): those signal_server.sh froze, and any process started on the
# cluster's data directories.
take_down() {
    local base m
    if [ -x "$DIR/signal_server.sh" ] && [ -f "$DIR/locator.yaml" ]; then
        for m in $(members); do "$DIR/signal_server.sh" CONT "$m" keeper; done
    fi
    base=$(sed -n 's/^base: //p' "$DIR/local.state" 2>/dev/null)
    [ -n "$base" ] && pkill -CONT -f -- "$base/"
    "$GCCTL" local down --dir "$DIR" >/dev/null 2>&1 || true
}

# guard_cluster: ctest kills a test that runs past its TIMEOUT, and no EXIT
# trap runs then. A guard outside the test's process tree (ctest kills the
# tree) waits for the test's shell to end and takes the cluster down, so a
# timed-out test never leaves its servers loading the tests after it. After
# a normal end the trap has already done it and the guard's call finds
# nothing to stop.
guard_cluster() {
    (setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 1; done
                     GCCTL=$2 DIR=$3; source "$4"; take_down' \
        guard "$$" "$GCCTL" "$DIR" "${BASH_SOURCE[0]}" </dev/null >/dev/null 2>&1 &)
}

# own_ha_cluster SPEC: own_cluster of SPEC without its 'ha' line, so its
# groups run under pg_auto_failover, the default (the spec is written
# beside DIR, in the build tree).
own_ha_cluster() {
    grep -v '^ha:' "$1" >"$DIR.spec.yaml"
    own_cluster "$DIR.spec.yaml"
}

# write_fault_helper: writes DIR/helper.sh, the command a fault test's
# client program calls back to break and mend members:
#   su MEMBER SQL (superuser), app MEMBER SQL (application role),
#   kill MEMBER (kill -9 of the postmaster), stop / start MEMBER (gcctl,
#   immediate stop), sigstop / sigcont MEMBER (the postmaster and every
#   child: a frozen postmaster alone would still let its backends answer),
#   promote MEMBER, port MEMBER, members, primary GROUP, gcctl ARGS...;
#   under pg_auto_failover (ha: true): crash MEMBER (kill -9 of the keeper's
#   processes and the server's, as when its machine fails: the member is
#   held, as `local stop-member` holds it, so the cluster's supervisor does
#   not restart its keeper; `start` releases it), freeze / thaw MEMBER
#   (SIGSTOP / SIGCONT of the same), monitor SQL (on the monitor's database).
# take_down continues whatever they froze before the cluster goes down.
write_fault_helper() {
    local base os_user
    base=$(sed -n 's/^base: //p' "$DIR/local.state")
    os_user=$(sed -n 's/^user: //p' "$DIR/local.state")
    cat >"$DIR/signal_server.sh" <<SIG
#!/bin/bash
# The keeper first (its process group: pg_autoctl and its services), so
# it does not restart a server it sees die.
kp=\$(head -1 "$base/xdg/run/pg_autoctl$base/\$2/pg_autoctl.pid" 2>/dev/null)
[ "\${3:-}" = keeper ] && [ -n "\$kp" ] && kill -\$1 -- "-\$kp" 2>/dev/null
pm=\$(head -1 "$base/\$2/postmaster.pid" 2>/dev/null) || exit 0
kill -\$1 "\$pm" 2>/dev/null
for c in \$(ps -o pid= --ppid "\$pm" 2>/dev/null); do kill -\$1 "\$c" 2>/dev/null; done
exit 0
SIG
    cat >"$DIR/helper.sh" <<HELPER
#!/bin/bash
DIR=$DIR
source "${BASH_SOURCE[0]}"
case \$1 in
su) psql -X -q -At -F ' ' -v ON_ERROR_STOP=1 -h "$base/sock" -p "\$(port_of "\$2")" -U "$os_user" -d app -c "\$3" ;;
app) psql -X -q -At -F ' ' -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "\$(port_of "\$2")" -U app -d app -c "\$3" ;;
kill) kill -9 "\$(head -1 "$base/\$2/postmaster.pid")" ;;
stop) "$GCCTL" local stop-member "\$2" --dir "$DIR" --mode immediate >/dev/null ;;
start) "$GCCTL" local start-member "\$2" --dir "$DIR" >/dev/null ;;
promote) "$GCCTL" promote "\$2" --dir "$DIR" >/dev/null ;;
sigstop) "$DIR/signal_server.sh" STOP "\$2" ;;
sigcont) "$DIR/signal_server.sh" CONT "\$2" ;;
port) port_of "\$2" ;;
crash) mkdir -p "$base/held" && touch "$base/held/\$2" && "$DIR/signal_server.sh" KILL "\$2" keeper ;;
freeze) "$DIR/signal_server.sh" STOP "\$2" keeper ;;
thaw) "$DIR/signal_server.sh" CONT "\$2" keeper ;;
monitor) psql -X -q -At -F ' ' -v ON_ERROR_STOP=1 -h "$base/sock" -p "\$(sed -n 's/^monitor: //p' "$DIR/local.state")" -U "$os_user" -d pg_auto_failover -c "\$2" ;;
members) members ;;
primary) primary_of "\$2" ;;
gcctl) shift; timeout 60 "$GCCTL" "\$@" --dir "$DIR" ;;
*) echo "helper.sh: unknown command \$1" >&2; exit 2 ;;
esac
HELPER
    chmod +x "$DIR/signal_server.sh" "$DIR/helper.sh"
}

# In-doubt transactions (resolve.sh, resolve_driver.sh).
# in_doubt_setup KEY...: a fresh table resolve_probe on G2's primary, one
# row (KEY, 0) per key, and no commit decisions on G1.
in_doubt_setup() {
    local rows
    rows=$(printf "('%s', 0)," "$@")
    su_sql G2N1 "DROP TABLE IF EXISTS resolve_probe; CREATE TABLE resolve_probe (k text PRIMARY KEY, v int);
                 INSERT INTO resolve_probe VALUES ${rows%,}; GRANT ALL ON resolve_probe TO app"
    su_sql G1N1 "DELETE FROM gcluster.commit_decisions"
}
# prepare KEY GID: a participant's part on G2's primary (v = 1 for KEY),
# prepared under GID by the application role.
prepare() {
    sql G2N1 "BEGIN" "UPDATE resolve_probe SET v = 1 WHERE k = '$1'" "PREPARE TRANSACTION '$2'"
}
# probe_rows: resolve_probe as "a1,b0,...".
probe_rows() {
    sql G2N1 "SELECT string_agg(k || v, ',' ORDER BY k) FROM resolve_probe"
}
