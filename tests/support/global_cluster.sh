#!/usr/bin/env bash
# global_cluster.sh: the small sharded cluster the "_global" twins of the
# server tests share, reached through a global connection.
#
#   global_cluster.sh start STATE_DIR DRIVER_SO GCCTL   bring it up, write STATE_DIR
#   global_cluster.sh stop STATE_DIR GCCTL              take it down, remove its data
#   global_cluster.sh check STATE_DIR                   prove DSN gcodbc_test is a
#                                                       global connection to it
#
# The cluster: 2 groups x 2 members (primaries G1N1 and G2N1, each with a hot
# standby, G1N2 and G2N2), made by gcctl local, with the
# same database (gcodbc_test), application role (gcodbc) and extensions as
# the single-server fixture (pg_server.sh). start writes into STATE_DIR files
# of the same names and meaning as pg_server.sh, so a test program runs
# against either fixture unchanged:
#   odbcinst.ini    drivers gcodbc (DRIVER_SO) and psqlodbc (psqlODBC)
#   odbc.ini        DSN gcodbc_test: GlobalConnection=Yes, seeds G1N1 and G2N1;
#                   DSN psqlodbc_test: psqlODBC to G1N1
#   conninfo        libpq conninfo of the application role on G1N1
#   admin_conninfo  libpq conninfo of the superuser on G1N1
#   cluster/        gcctl's directory for the cluster (locator.yaml, ...)
#   logs/           the members' logs (copied here by stop)
# Statements without a sharding key go to group G1 (LocalityGroupPolicy=1,
# LocalityGroupPath=G1): G1N1 is the member the tests' libpq sessions see, so
# a test that looks at the server beside the driver looks where the driver
# ran. docs/testing.md says why.
# A cluster left by an earlier start on the same STATE_DIR is taken down first.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/support/pglib.sh
source "$here/pglib.sh"
# shellcheck source=tests/support/odbcinst.sh
source "$here/odbcinst.sh"

PSQLODBC_SO=${GC_PSQLODBC_SO:-/usr/lib/x86_64-linux-gnu/odbc/psqlodbcw.so}
APP_ROLE=gcodbc
APP_DB=gcodbc_test
MEMBERS=(G1N1 G1N2 G2N1 G2N2)   # a group's first member is its primary
PRIMARIES=(G1N1 G2N1)

usage() {
  echo "usage: $0 start STATE_DIR DRIVER_SO GCCTL | stop STATE_DIR GCCTL | check STATE_DIR" >&2
  exit 2
}

# Set while start is half done: the EXIT trap then takes down what was made.
cleanup_state=
cleanup_gcctl=
on_exit() {
  if [[ -n $cleanup_state ]]; then
    echo "global_cluster: start failed, taking the cluster down" >&2
    stop_cluster "$cleanup_state" "$cleanup_gcctl" || true
  fi
}
trap on_exit EXIT

# Takes down the cluster of STATE_DIR (if any), keeping the members' logs in
# STATE_DIR/logs for whoever reads a failed run.
stop_cluster() {
  local state=$1 gcctl=$2 base
  [[ -f $state/cluster/local.state ]] || return 0
  base=$(sed -n 's/^base: //p' "$state/cluster/local.state")
  if [[ -n $base && -d $base/logs ]]; then
    rm -rf "$state/logs"
    cp -r "$base/logs" "$state/logs" 2>/dev/null || true
  fi
  "$gcctl" local down --dir "$state/cluster" >/dev/null
}

# port_of STATE_DIR MEMBER: the member's port, from the locator gcctl wrote.
port_of() {
  sed -n "s/.*name: $2,.*port: \([0-9]*\)}.*/\1/p" "$1/cluster/locator.yaml"
}

# write_spec STATE_DIR PASSWORD: the gcctl spec of the cluster (no tables:
# the tests create their own through the driver).
write_spec() {
  local state=$1 password=$2 m
  (
    umask 077
    {
      echo "# The global twins' cluster (written by global_cluster.sh): two groups, so"
      echo "# a global connection has a choice of group, each with a standby, so it"
      echo "# has a choice of member too."
      echo "cluster: gcodbc_global_test"
      echo "database: $APP_DB"
      echo "user: $APP_ROLE"
      echo "password: $password"
      echo "ha: false"
      echo "members:"
      for m in "${MEMBERS[@]}"; do
        echo "  - {name: $m, group: ${m%N*}, host: 127.0.0.1, port: 0}"
      done
    } >"$state/spec.yaml"
  )
}

# write_odbc_ini STATE_DIR PASSWORD PORT1 PORT2: DSNs gcodbc_test (global)
# and psqlodbc_test (G1N1).
write_odbc_ini() {
  local state=$1 password=$2 p1=$3 p2=$4
  cat >"$state/odbc.ini" <<INI
[gcodbc_test]
Description = gcodbc global connection to the test cluster (2 groups x 2 members)
Driver = gcodbc
Servers = 127.0.0.1:$p1,127.0.0.1:$p2
Database = $APP_DB
UID = $APP_ROLE
PWD = $password
GlobalConnection = Yes
LocalityGroupPolicy = 1
LocalityGroupPath = G1

[psqlodbc_test]
Description = psqlODBC to the test cluster's member G1N1 (baseline)
Driver = psqlodbc
Servername = 127.0.0.1
Port = $p1
Database = $APP_DB
Username = $APP_ROLE
Password = $password
SSLmode = disable
UseServerSidePrepare = 1
ByteaAsLongVarBinary = 1
BoolsAsChar = 0
UseDeclareFetch = 0
INI
}

# Brings up a fresh cluster for STATE_DIR (taking a stale one down first)
# and writes every STATE_DIR file; on failure the EXIT trap takes it down.
start_cluster() {
  local state=$1 driver=$2 gcctl=$3 app_pw base os_user p1 p2 m
  mkdir -p "$state"
  state=$(cd "$state" && pwd)
  case $driver in /*) ;; *) driver="$(pwd)/$driver" ;; esac
  stop_cluster "$state" "$gcctl" || true
  rm -rf "$state/cluster" "$state/logs"
  rm -f "$state/odbc.ini" "$state/odbcinst.ini" "$state/conninfo" \
    "$state/admin_conninfo" "$state/spec.yaml"

  # From here on a failure must not leave servers behind.
  cleanup_state=$state
  cleanup_gcctl=$gcctl
  app_pw=$(pglib_random_secret)
  write_spec "$state" "$app_pw"
  "$gcctl" local up "$state/spec.yaml" --dir "$state/cluster" --driver "$driver" >/dev/null

  base=$(sed -n 's/^base: //p' "$state/cluster/local.state")
  os_user=$(sed -n 's/^user: //p' "$state/cluster/local.state")
  p1=$(port_of "$state" G1N1)
  p2=$(port_of "$state" G2N1)
  if [[ -z $p1 || -z $p2 ]]; then
    echo "global_cluster: no member ports in the locator" >&2
    exit 1
  fi

  # As on the single server: the application role may read every session's
  # statistics (tests compare what the driver did with what the server saw).
  # Standbys get the grant by replication.
  for m in "${PRIMARIES[@]}"; do
    psql -X -q -v ON_ERROR_STOP=1 -h "$base/sock" -p "$(port_of "$state" "$m")" \
      -U "$os_user" -d "$APP_DB" -c "GRANT pg_read_all_stats TO $APP_ROLE" >/dev/null
  done

  gc_write_odbcinst "$state" "$driver" "$PSQLODBC_SO"
  write_odbc_ini "$state" "$app_pw" "$p1" "$p2"
  pglib_conninfo "$p1" "$APP_ROLE" "$app_pw" "$APP_DB" >"$state/conninfo"
  # The superuser reaches G1N1 through the cluster's private socket directory.
  printf 'host=%s port=%s user=%s dbname=%s\n' "$base/sock" "$p1" "$os_user" "$APP_DB" \
    >"$state/admin_conninfo"
  chmod 600 "$state/odbc.ini" "$state/conninfo" "$state/admin_conninfo"

  # Prove both conninfos work and the cluster catalog is there for the driver.
  psql -X -q -t -v ON_ERROR_STOP=1 -d "$(cat "$state/conninfo")" \
    -c 'select count(*) from gcluster.members' >/dev/null
  psql -X -q -t -v ON_ERROR_STOP=1 -d "$(cat "$state/admin_conninfo")" \
    -c 'select 1 from pg_stat_statements limit 1' >/dev/null
  cleanup_state=
  echo "global_cluster: primaries G1N1 on 127.0.0.1:$p1, G2N1 on 127.0.0.1:$p2, state in $state"
}

# The twins pass only if they really went through a global connection: asks
# the driver, through DSN gcodbc_test and unixODBC's isql, for SHOW GLOBAL
# CONNECTION, which must list every member of the cluster, up, with the role
# it has in the spec.
check_cluster() {
  local state=$1 rows want m role
  rows=$(echo "SHOW GLOBAL CONNECTION" | ODBCSYSINI=$state isql -b -d'|' gcodbc_test) || {
    echo "global_cluster: isql could not run SHOW GLOBAL CONNECTION through gcodbc_test" >&2
    exit 1
  }
  want=
  for m in "${MEMBERS[@]}"; do
    role=standby
    [[ " ${PRIMARIES[*]} " == *" $m "* ]] && role=primary
    want+="$m|${m%N*}|$role|up"$'\n'
  done
  rows=$(printf '%s\n' "$rows" | cut -d'|' -f1-4 | sed 's/ *|/|/g; s/ *$//' | sort)
  if [[ $rows != "$(printf '%s' "$want" | sort)" ]]; then
    echo "global_cluster: SHOW GLOBAL CONNECTION through gcodbc_test gave:" >&2
    printf '%s\n' "$rows" >&2
    echo "expected:" >&2
    printf '%s' "$want" >&2
    exit 1
  fi
  echo "global_cluster: gcodbc_test is a global connection to ${#MEMBERS[@]} members, all up"
}

[[ $# -ge 2 ]] || usage
case $1 in
  start)
    [[ $# -eq 4 ]] || usage
    start_cluster "$2" "$3" "$4"
    ;;
  stop)
    [[ $# -eq 3 ]] || usage
    [[ -d $2 ]] || exit 0
    stop_cluster "$(cd "$2" && pwd)" "$3"
    echo "global_cluster: stopped"
    ;;
  check)
    [[ $# -eq 2 ]] || usage
    check_cluster "$(cd "$2" && pwd)"
    ;;
  *) usage ;;
esac
