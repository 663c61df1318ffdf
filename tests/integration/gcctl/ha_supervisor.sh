#!/bin/bash
# The supervisor of a local cluster under pg_auto_failover (docs/cluster.md,
# "The supervisor"), on a 2 x 2 cluster:
# - `local up` starts it, its pid in local.state;
# - kill -9 of the keeper processes of a primary (pg_autoctl, not its
#   server): the supervisor restarts the keeper (the time is printed) and
#   logs why; the keeper is back: a later kill -9 of that primary's server
#   gets the standby promoted and the old primary's own state moves to
#   demoted then secondary, which only its keeper reports;
# - after that promotion, with no gcctl command run, gcluster.members on
#   every group's primary names the new primary (the time is printed);
# - a member stopped with `local stop-member` stays stopped (no keeper, no
#   server, nothing in the log) until `local start-member`;
# - a group whose catalog cannot be written at a promotion (both its
#   members stopped) catches up once its primary answers again (the time
#   is printed), with the same catalog version as the others;
# - the monitor's pg_autoctl, killed, is restarted too; a keeper killed
#   again at each restart is restarted after 1, 2, 4, 8 s and given up at
#   its 5th death, until `local start-member`;
# - `local down` stops the supervisor, and no process of the cluster runs
#   afterwards.
# usage: ha_supervisor.sh GCCTL SPEC DIR
GCCTL=$1
SPEC=$2
DIR=$3
source "$(dirname "$0")/lib.sh"
own_ha_cluster "$SPEC"
write_fault_helper
# A failure shows what the supervisor did.
fail() {
    echo "FAIL: $*" >&2
    echo "--- supervisor.log:" >&2
    cat "$DIR/supervisor.log" >&2
    show_cluster_logs '*.keeper' >&2
    exit 1
}

base=$(sed -n 's/^base: //p' "$DIR/local.state")
now() { date +%s.%N; }
since() { echo "$(now) - $1" | bc | awk '{ printf "%.1f", $1 }'; }
keeper_pid() { head -1 "$base/xdg/run/pg_autoctl$base/$1/pg_autoctl.pid" 2>/dev/null; }
postmaster_pid() { head -1 "$base/$1/postmaster.pid" 2>/dev/null; }
alive() { [ -n "$1" ] && kill -0 "$1" 2>/dev/null && [ "$(ps -o stat= -p "$1" | cut -c1)" != Z ]; }
# wait_log REGEX: waits up to 10 s for a line of the supervisor's log.
wait_log() {
    for _ in $(seq 1 100); do
        grep -qE "$1" "$DIR/supervisor.log" && return 0
        sleep 0.1
    done
    fail "the supervisor's log does not say: $1"
}
ha_state() {
    "$DIR/helper.sh" monitor "SELECT reportedstate || '/' || goalstate FROM pgautofailover.node WHERE nodename = '$1'"
}
# wait_ha MEMBER STATE SECONDS: polls the monitor.
wait_ha() {
    local got=""
    for _ in $(seq 1 $(($3 * 5))); do
        got=$(ha_state "$1")
        [ "$got" = "$2" ] && return 0
        sleep 0.2
    done
    fail "$1 is not $2 after $3 s: $got"
}

sup=$(sed -n 's/^supervisor: //p' "$DIR/local.state")
alive "$sup" && tr '\0' ' ' <"/proc/$sup/cmdline" | grep -q "local supervise" ||
    fail "local up started no supervisor (local.state: $(cat "$DIR/local.state"))"
echo "ok: local up started the supervisor (pid $sup)"

wait_ha G1N1 primary/primary 60
wait_ha G1N2 secondary/secondary 60
wait_ha G2N1 primary/primary 60

# session_autoctl SID: the pg_autoctl processes of session SID (a keeper
# and its services; the server is in that session too, under its own name),
# zombies left out: a killed orphan waits for PID 1 to reap it.
session_autoctl() { ps -o pid=,stat=,comm= -s "$1" | awk '$2 !~ /^Z/ && $3 ~ /^pg_autoctl/ { printf "%s ", $1 }'; }
# kill_keeper NODE: kill -9 of the keeper of NODE (a member, or
# ha-monitor): pg_autoctl and its services, not the server they run; again
# until none is left, since a keeper that is starting forks its services
# while it is killed. Sets kp (the keeper's pid) and killed (the pids).
kill_keeper() {
    kp=$(keeper_pid "$1")
    alive "$kp" || fail "$1 has no keeper"
    killed=""
    for _ in $(seq 1 50); do
        local left
        left=$(session_autoctl "$kp")
        [ -z "$left" ] && return
        killed="$killed$left"
        # shellcheck disable=SC2086 # one pid per word
        kill -9 $left 2>/dev/null
        sleep 0.1
    done
    fail "the pg_autoctl processes of $1 (session $kp) survive kill -9: $(session_autoctl "$kp")"
}
# wait_restarted NODE OLD SECONDS: waits for a keeper of NODE other than
# OLD; prints the seconds since t0, nothing when none came.
wait_restarted() {
    for _ in $(seq 1 $(($3 * 10))); do
        k=$(keeper_pid "$1")
        if [ "$k" != "$2" ] && alive "$k"; then since "$t0"; return; fi
        sleep 0.1
    done
}

# kill -9 of the keeper's top process alone, as when it crashes: its two
# services outlive it; the supervisor kills them before it starts the next
# keeper, so two never manage one server.
pm=$(postmaster_pid G1N1)
alive "$pm" || fail "G1N1 has no server"
t0=$(now)
kp=$(keeper_pid G1N1)
services=$(ps -o pid=,comm= --ppid "$kp" | awk '$2 ~ /^pg_autoctl/ { printf "%s ", $1 }')
[ "$(echo $services | wc -w)" = 2 ] || fail "G1N1's keeper $kp does not run two services: $services"
kill -9 "$kp"
restarted=$(wait_restarted G1N1 "$kp" 30)
[ -n "$restarted" ] || fail "the keeper of G1N1 was not restarted within 30 s"
[ "$(postmaster_pid G1N1)" = "$pm" ] && alive "$pm" || fail "G1N1's server did not survive its keeper"
for _ in $(seq 1 50); do [ -z "$(session_autoctl "$kp")" ] && break; sleep 0.1; done
[ -z "$(session_autoctl "$kp")" ] || fail "services of the dead keeper $kp still run: $(session_autoctl "$kp")"
grep -qE "the keeper of G1N1 is gone \(pid $kp no longer runs(; [12] of its services killed)?\): restarting it in 1 s" \
    "$DIR/supervisor.log" &&
    grep -q "restarted the keeper of G1N1 (pid $(keeper_pid G1N1))" "$DIR/supervisor.log" ||
    fail "the supervisor log does not tell the restart"
echo "ok: kill -9 of G1N1's keeper ($kp, services $services left running): restarted by the supervisor" \
     "after $restarted s, its services gone, server untouched"

# The keeper is back: kill -9 of the server fails the group over, and the
# old primary's reported state (only its keeper reports it) goes on.
wait_ha G1N1 primary/primary 30
t0=$(now)
kill -9 "$pm"
wait_ha G1N2 wait_primary/wait_primary 30
promoted=$(since "$t0")
echo "ok: kill -9 of G1N1's server: G1N2 promoted after $promoted s"
# The catalog follows, on every group, without any gcctl command.
followed=""
for _ in $(seq 1 300); do
    g1=$(su_sql G1N2 "SELECT role FROM gcluster.members WHERE name = 'G1N2'")
    g2=$(su_sql G2N1 "SELECT role FROM gcluster.members WHERE name = 'G1N2'")
    if [ "$g1" = primary ] && [ "$g2" = primary ]; then followed=$(since "$t0"); break; fi
    sleep 0.1
done
[ -n "$followed" ] || fail "gcluster.members does not name G1N2 the primary 30 s after the promotion (G1: $g1, G2: $g2)"
[ "$(su_sql G2N1 "SELECT role FROM gcluster.members WHERE name = 'G1N1'")" = standby ] ||
    fail "gcluster.members on G2 still names G1N1 the primary"
[ "$(primary_of G1)" = G1N2 ] || fail "locator.yaml does not list G1N2 first"
grep -q "catalog: gcluster.members follows the monitor on every group" "$DIR/supervisor.log" ||
    fail "the supervisor log does not tell the catalog change"
echo "ok: gcluster.members on G1N2 and G2N1 names G1N2 the primary $followed s after the kill" \
     "($(echo "$followed - $promoted" | bc) s after the promotion), no gcctl run"
wait_ha G1N1 secondary/secondary 60
echo "ok: G1N1's keeper rewound it: it rejoined as a secondary"

# Stopped on purpose: stays stopped. Then G2 without any member, so its
# catalog cannot be written when G1 fails over again: the supervisor
# writes G1's change where it can, and G2's once G2's primary is back.
wait_ha G2N2 secondary/secondary 60
"$GCCTL" local stop-member G2N2 --dir "$DIR" --mode immediate || fail "stop-member G2N2"
sleep 5
alive "$(keeper_pid G2N2)" && fail "the keeper of G2N2 runs again after stop-member"
alive "$(postmaster_pid G2N2)" && fail "G2N2's server runs again after stop-member"
grep -q "G2N2" "$DIR/supervisor.log" && fail "the supervisor acted on G2N2, stopped on purpose"
echo "ok: G2N2 stopped with local stop-member stayed stopped 5 s"
"$GCCTL" local stop-member G2N1 --dir "$DIR" --mode immediate || fail "stop-member G2N1"
wait_ha G1N2 primary/primary 60
"$DIR/helper.sh" crash G1N2
wait_ha G1N1 wait_primary/wait_primary 60
followed=""
for _ in $(seq 1 300); do
    if [ "$(su_sql G1N1 "SELECT role FROM gcluster.members WHERE name = 'G1N1'")" = primary ] &&
       grep -q "G2 still to do (primary down)" "$DIR/supervisor.log"; then followed=yes; break; fi
    sleep 0.1
done
[ -n "$followed" ] || fail "G1's catalog does not name G1N1 the primary, or the log does not name G2 as left out"
"$GCCTL" local start-member G2N1 --dir "$DIR" || fail "start-member G2N1"
answering=""
for _ in $(seq 1 300); do
    sql_may_fail G2N1 "SELECT 1" >/dev/null && { answering=$(now); break; }
    sleep 0.1
done
[ -n "$answering" ] || fail "G2N1 does not answer 30 s after start-member"
caught=""
for _ in $(seq 1 300); do
    [ "$(su_sql G2N1 "SELECT role FROM gcluster.members WHERE name = 'G1N1'")" = primary ] &&
        { caught=$(since "$answering"); break; }
    sleep 0.1
done
[ -n "$caught" ] || fail "G2's catalog does not name G1N1 the primary 30 s after G2N1 came back"
v1=$(su_sql G1N1 "SELECT version FROM gcluster.version")
v2=$(su_sql G2N1 "SELECT version FROM gcluster.version")
[ "$v1" = "$v2" ] || fail "catalog versions differ after the catch-up: G1 $v1, G2 $v2"
echo "ok: G1 failed over while G2 was down: G1's catalog followed at once, G2's $caught s after G2N1" \
     "answered again (version $v1 on both)"
"$GCCTL" local start-member G2N2 --dir "$DIR" || fail "start-member G2N2"
"$DIR/helper.sh" start G1N2
wait_ha G2N2 secondary/secondary 60
wait_ha G1N2 secondary/secondary 60
echo "ok: start-member brought the stopped and the crashed members back as secondaries"

# The monitor's pg_autoctl is restarted the same way.
t0=$(now)
kill_keeper ha-monitor
restarted=$(wait_restarted ha-monitor "$kp" 30)
[ -n "$restarted" ] || fail "the monitor was not restarted within 30 s"
grep -q "restarted the monitor (pid" "$DIR/supervisor.log" || fail "the log does not tell the monitor's restart"
wait_ha G1N1 primary/primary 30
echo "ok: kill -9 of the monitor's pg_autoctl: restarted after $restarted s, the monitor answers"

# A keeper that keeps dying: restarted after 1, 2, 4, 8 s, given up at the
# 5th death within 60 s; start-member tries again. (The log says how a
# keeper the supervisor started ended; of another, that it is gone.)
gone() { echo "the keeper of G2N2 is gone \\(pid $1 (no longer runs|killed by signal 9)(; [0-9]+ of its services killed)?\\)"; }
t0=$(now)
for delay in 1 2 4 8; do
    kill_keeper G2N2
    wait_log "$(gone "$kp"): restarting it in $delay s"
    [ -n "$(wait_restarted G2N2 "$kp" $((delay + 10)))" ] || fail "G2N2's keeper not restarted after $delay s"
done
kill_keeper G2N2
wait_log "$(gone "$kp"): it died 5 times within 60 s, giving up"
sleep 3
alive "$(keeper_pid G2N2)" && fail "G2N2's keeper runs again after the supervisor gave up"
gave_up=$(since "$t0")
"$GCCTL" local start-member G2N2 --dir "$DIR" || fail "start-member G2N2"
wait_log "the keeper of G2N2 runs again \(pid"
wait_ha G2N2 secondary/secondary 60
t0=$(now)
kill_keeper G2N2
[ -n "$(wait_restarted G2N2 "$kp" 30)" ] || fail "G2N2's keeper not restarted after start-member released it"
echo "ok: G2N2's keeper killed 5 times: restarted after 1, 2, 4, 8 s, given up at the 5th ($gave_up s)," \
     "supervised again after start-member"

# local down: the supervisor first, nothing left running.
pids="$sup"
for m in $(members) ha-monitor; do
    pids="$pids $(keeper_pid "$m") $(postmaster_pid "$m")"
done
"$GCCTL" local down --dir "$DIR" || fail "local down"
for p in $pids; do
    alive "$p" && fail "process $p ($(ps -o args= -p "$p")) still runs after local down"
done
# Any process naming the data root (grep's own is gone once it returned).
named=$(grep -l "$base" /proc/[0-9]*/cmdline 2>/dev/null)
left=""
for f in $named; do
    p=${f#/proc/}
    p=${p%/cmdline}
    alive "$p" && left="$left $p:$(ps -o args= -p "$p")"
done
[ -z "$left" ] || fail "processes of the cluster left after local down:$left"
echo "ok: local down stopped the supervisor, the keepers, the monitor and the servers ($(echo $pids | wc -w) processes)"
echo PASS
