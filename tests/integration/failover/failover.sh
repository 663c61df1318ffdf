#!/bin/bash
# Failover of the global connection, end to end (docs/failover.md): a
# private 2 x 2 cluster (always taken down); failover.py drives the driver
# through unixODBC and calls back here (as a helper command) to break and
# mend members; the servers say where each statement ran.
# usage: failover.sh GCCTL FAILOVER_PY SPEC DIR
GCCTL=$1
PY=$2
SPEC=$3
DIR=$4
LIB=$(cd "$(dirname "$0")/../gcctl" && pwd)/lib.sh
source "$LIB"
own_cluster "$SPEC"

base=$(sed -n 's/^base: //p' "$DIR/local.state")
os_user=$(sed -n 's/^user: //p' "$DIR/local.state")

sql G1N1 "INSERT INTO accounts (id, owner) SELECT g, 'seed' FROM generate_series(1, 200) g" >/dev/null
for m in $(members); do
    wait_until "$m" "SELECT count(*) FROM accounts" 200
done
# signal_server SIGNAL MEMBER: the postmaster and every child (a frozen
# postmaster alone would still let its backends answer).
cat >"$DIR/signal_server.sh" <<SIG
#!/bin/bash
pm=\$(head -1 "$base/\$2/postmaster.pid" 2>/dev/null) || exit 0
kill -\$1 "\$pm" 2>/dev/null
for c in \$(ps -o pid= --ppid "\$pm" 2>/dev/null); do kill -\$1 "\$c" 2>/dev/null; done
exit 0
SIG
chmod +x "$DIR/signal_server.sh"
# A frozen server is always continued before the cluster is taken down.
trap 'for m in $(members); do "$DIR/signal_server.sh" CONT "$m"; done
      "$GCCTL" local down --dir "$DIR" >/dev/null 2>&1 || true' EXIT
# The helper failover.py calls: superuser SQL, kill, stop, start, freeze.
cat >"$DIR/helper.sh" <<HELPER
#!/bin/bash
DIR=$DIR
source "$LIB"
case \$1 in
su) psql -X -q -At -h "$base/sock" -p "\$(port_of "\$2")" -U "$os_user" -d app -c "\$3" ;;
kill) kill -9 "\$(head -1 "$base/\$2/postmaster.pid")" ;;
stop) "$GCCTL" local stop-member "\$2" --dir "$DIR" --mode immediate >/dev/null ;;
start) "$GCCTL" local start-member "\$2" --dir "$DIR" >/dev/null ;;
promote) "$GCCTL" promote "\$2" --dir "$DIR" >/dev/null ;;
sigstop) "$DIR/signal_server.sh" STOP "\$2" ;;
sigcont) "$DIR/signal_server.sh" CONT "\$2" ;;
port) port_of "\$2" ;;
owner) sql G1N1 "SELECT s.group_name FROM accounts a JOIN gcluster.shards s
                 ON s.name = a.tableoid::regclass::text WHERE a.id = \$2" ;;
esac
HELPER
chmod +x "$DIR/helper.sh"
# shellcheck disable=SC2086 # GC_CLIENT_ENV is NAME=value words
env ${GC_CLIENT_ENV:-} ODBCSYSINI="$DIR" ODBCINI="$DIR/odbc.ini" /usr/bin/python3 "$PY" gfail "$DIR/helper.sh" \
    || fail "failover.py failed"
echo PASS
