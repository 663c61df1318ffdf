#!/usr/bin/env bash
# pg_server.sh: the PostgreSQL 15 server the server tests share.
#
#   pg_server.sh start STATE_DIR DRIVER_SO   start a server, write STATE_DIR
#   pg_server.sh stop STATE_DIR              stop it, remove its data
#
# start writes into STATE_DIR:
#   odbcinst.ini    drivers gcodbc (DRIVER_SO) and psqlodbc (psqlODBC)
#   odbc.ini        DSNs gcodbc_test and psqlodbc_test (point ODBCSYSINI here)
#   conninfo        libpq conninfo of the application role gcodbc
#   admin_conninfo  libpq conninfo of the superuser postgres
#   port, datadir   the server's port and data directory (for stop)
#   server.log      the server's log (copied here by stop)
# The database gcodbc_test belongs to gcodbc and has pg_stat_statements.
# A server left running by an earlier start on the same STATE_DIR is stopped
# and removed first.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/support/pglib.sh
source "$here/pglib.sh"
# shellcheck source=tests/support/odbcinst.sh
source "$here/odbcinst.sh"

PSQLODBC_SO=${GC_PSQLODBC_SO:-/usr/lib/x86_64-linux-gnu/odbc/psqlodbcw.so}
APP_ROLE=gcodbc
APP_DB=gcodbc_test

# Set while start is half done: the EXIT trap then removes what was made.
cleanup_state=
on_exit() {
  if [[ -n $cleanup_state ]]; then
    echo "pg_server: start failed, cleaning up" >&2
    stop_server "$cleanup_state"
  fi
}
trap on_exit EXIT

usage() {
  echo "usage: $0 start STATE_DIR DRIVER_SO | stop STATE_DIR" >&2
  exit 2
}

# Stop the server recorded in STATE_DIR (if any) and delete its data dir,
# keeping its log in STATE_DIR/server.log for whoever reads a failed run.
stop_server() {
  local state=$1 datadir
  [[ -f $state/datadir ]] || return 0
  datadir=$(cat "$state/datadir")
  if pglib_is_datadir "$datadir"; then
    pglib_stop "$datadir" || true
    cp "$datadir/server.log" "$state/server.log" 2>/dev/null || true
    pglib_remove_datadir "$datadir" || true
  elif [[ -n $datadir ]]; then
    echo "pg_server: ignoring unexpected datadir '$datadir' in $state" >&2
  fi
  rm -f "$state/datadir" "$state/port"
}

# Writes odbcinst.ini (drivers gcodbc and psqlodbc) and odbc.ini (DSNs
# gcodbc_test and psqlodbc_test) into STATE_DIR for ODBCSYSINI.
write_ini_files() {
  local state=$1 driver=$2 port=$3 password=$4
  gc_write_odbcinst "$state" "$driver" "$PSQLODBC_SO"
  cat >"$state/odbc.ini" <<EOF
[gcodbc_test]
Description = gcodbc general connection to the test server
Driver = gcodbc
Servers = 127.0.0.1:$port
Database = $APP_DB
UID = $APP_ROLE
PWD = $password

[psqlodbc_test]
Description = psqlODBC to the test server (baseline)
Driver = psqlodbc
Servername = 127.0.0.1
Port = $port
Database = $APP_DB
Username = $APP_ROLE
Password = $password
SSLmode = disable
UseServerSidePrepare = 1
ByteaAsLongVarBinary = 1
BoolsAsChar = 0
UseDeclareFetch = 0
EOF
}

# Starts a fresh server for STATE_DIR (stopping a stale one first), creates
# the role and the database, and writes every STATE_DIR file; on failure the
# EXIT trap removes whatever was made.
start_server() {
  local state=$1 driver=$2 datadir port admin_pw app_pw
  mkdir -p "$state"
  state=$(cd "$state" && pwd)
  case $driver in /*) ;; *) driver="$(pwd)/$driver" ;; esac
  stop_server "$state"
  rm -f "$state/odbc.ini" "$state/odbcinst.ini" "$state/conninfo" \
    "$state/admin_conninfo" "$state/server.log"

  # From here on a failure must not leave a server behind.
  cleanup_state=$state
  datadir=$(pglib_make_datadir)
  printf '%s\n' "$datadir" >"$state/datadir"

  admin_pw=$(pglib_random_secret)
  app_pw=$(pglib_random_secret)
  pglib_initdb "$datadir" "$admin_pw"
  pglib_conf "$datadir" \
    "shared_preload_libraries = 'pg_stat_statements'" \
    "max_prepared_transactions = 10" \
    "max_connections = 200" \
    "fsync = off" \
    "synchronous_commit = off" \
    "full_page_writes = off" \
    "log_min_messages = warning"
  port=$(pglib_start "$datadir")
  printf '%s\n' "$port" >"$state/port"

  pglib_psql_admin "$datadir" postgres <<EOF
CREATE ROLE $APP_ROLE LOGIN PASSWORD '$app_pw';
GRANT pg_read_all_stats TO $APP_ROLE;
CREATE DATABASE $APP_DB OWNER $APP_ROLE;
\\c $APP_DB
CREATE EXTENSION pg_stat_statements;
EOF

  write_ini_files "$state" "$driver" "$port" "$app_pw"
  pglib_conninfo "$port" "$APP_ROLE" "$app_pw" "$APP_DB" >"$state/conninfo"
  pglib_conninfo "$port" postgres "$admin_pw" "$APP_DB" >"$state/admin_conninfo"
  chmod 600 "$state/conninfo" "$state/admin_conninfo"

  # Prove both roles can log in over TCP with their passwords.
  psql -X -q -t -v ON_ERROR_STOP=1 -d "$(cat "$state/conninfo")" -c 'select 1' >/dev/null
  psql -X -q -t -v ON_ERROR_STOP=1 -d "$(cat "$state/admin_conninfo")" \
    -c 'select 1 from pg_stat_statements limit 1' >/dev/null
  cleanup_state=
  echo "pg_server: PostgreSQL 15 on 127.0.0.1:$port, data in $datadir, state in $state"
}

[[ $# -ge 2 ]] || usage
case $1 in
  start)
    [[ $# -eq 3 ]] || usage
    start_server "$2" "$3"
    ;;
  stop)
    [[ $# -eq 2 ]] || usage
    [[ -d $2 ]] || exit 0
    stop_server "$(cd "$2" && pwd)"
    echo "pg_server: stopped"
    ;;
  *) usage ;;
esac
