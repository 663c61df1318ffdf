# shellcheck shell=bash
# pglib.sh: shell functions for scripts that start their own PostgreSQL 15
# servers (test fixtures, benchmarks, the demo). Source it; it defines
# functions only and changes no shell options.
#
# A server started here:
#   - runs as the unprivileged `postgres` user when the caller is root (initdb
#     refuses root), otherwise as the caller;
#   - keeps its data directory in a fresh mktemp directory outside any
#     checkout, with its unix socket inside that directory;
#   - listens on 127.0.0.1 only, on a port picked free at run time;
#   - asks TCP clients for SCRAM passwords; the unix socket (reachable only by
#     the server's user and root) trusts local users.
#
# Typical use:
#   source tests/support/pglib.sh
#   dir=$(pglib_make_datadir)
#   pglib_initdb "$dir" "$superuser_password"
#   port=$(pglib_start "$dir")            # retries on a port taken meanwhile
#   pglib_psql_admin "$dir" "$superuser_password" -c 'select 1'
#   pglib_stop "$dir"; pglib_remove_datadir "$dir"

# Where the PostgreSQL 15 server programs live; PGLIB_BINDIR overrides.
pglib_bindir() {
  if [[ -n ${PGLIB_BINDIR:-} ]]; then
    printf '%s\n' "$PGLIB_BINDIR"
  elif [[ -x /usr/lib/postgresql/15/bin/initdb ]]; then
    printf '%s\n' /usr/lib/postgresql/15/bin
  else
    echo "pglib: PostgreSQL 15 server programs not found (install postgresql-15)" >&2
    return 1
  fi
}

# The OS user the server runs as: postgres when we are root, else ourselves.
pglib_server_user() {
  if [[ $(id -u) -eq 0 ]]; then
    if ! id postgres >/dev/null 2>&1; then
      echo "pglib: running as root but there is no 'postgres' user (install postgresql-15)" >&2
      return 1
    fi
    printf '%s\n' postgres
  else
    id -un
  fi
}

# pglib_as_server_user CMD [ARGS...]: run CMD as the server's OS user, from /
# so that an unreadable current directory (a checkout under /root) does not
# matter to the server programs.
pglib_as_server_user() {
  local user
  user=$(pglib_server_user) || return 1
  if [[ $(id -u) -eq 0 ]]; then
    (cd / && runuser -u "$user" -- "$@")
  else
    (cd / && "$@")
  fi
}

# pglib_random_secret: 24 hex characters from /dev/urandom (passwords).
pglib_random_secret() {
  od -An -tx1 -N12 /dev/urandom | tr -d ' \n'
  echo
}

# pglib_port_is_free PORT: true when nothing accepts connections on
# 127.0.0.1:PORT.
pglib_port_is_free() {
  local port=$1
  # A successful connect means somebody listens there.
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    return 1
  fi
  return 0
}

# pglib_free_port: print a loopback port that is free right now. Another
# process may take it before the server binds it; pglib_start retries.
pglib_free_port() {
  local port low=32768 first=10000
  # Stay below the kernel's ephemeral range, where the kernel picks the
  # local ports of outgoing connections (clients of other tests included).
  if [[ -r /proc/sys/net/ipv4/ip_local_port_range ]]; then
    read -r low _ </proc/sys/net/ipv4/ip_local_port_range
  fi
  if ((low - first < 1000)); then
    first=$((low > 2000 ? low / 2 : 1024))
  fi
  for _ in $(seq 1 200); do
    port=$((first + (RANDOM * 32768 + RANDOM) % (low - first)))
    if pglib_port_is_free "$port"; then
      printf '%s\n' "$port"
      return 0
    fi
  done
  echo "pglib: no free loopback port found" >&2
  return 1
}

# pglib_make_datadir: create an empty data directory outside any checkout,
# owned by the server's user, and print its path. The caller removes it with
# pglib_remove_datadir.
pglib_make_datadir() {
  local user dir
  user=$(pglib_server_user) || return 1
  dir=$(mktemp -d "${PGLIB_TMPDIR:-/tmp}/gcodbc-pg.XXXXXX") || return 1
  chmod 700 "$dir"
  if [[ $(id -u) -eq 0 ]]; then
    chown "$user:" "$dir" || return 1
  fi
  printf '%s\n' "$dir"
}

# pglib_initdb DATADIR SUPERUSER_PASSWORD: initialize a cluster whose
# superuser is `postgres` with that password, UTF-8, SCRAM over TCP, trust on
# the private unix socket.
pglib_initdb() {
  local dir=$1 password=$2 bindir pwfile log
  bindir=$(pglib_bindir) || return 1
  pwfile="$dir/.pwfile"
  log="$dir/.initdb.log"
  # The data directory must be empty for initdb: use a subdirectory.
  printf '%s\n' "$password" >"$pwfile.tmp"
  if [[ $(id -u) -eq 0 ]]; then
    chown "$(pglib_server_user):" "$pwfile.tmp"
  fi
  chmod 600 "$pwfile.tmp"
  if ! pglib_as_server_user "$bindir/initdb" -D "$dir/data" -U postgres \
      --pwfile="$pwfile.tmp" --auth-host=scram-sha-256 --auth-local=trust \
      -E UTF8 --locale=C.UTF-8 --no-sync >"$log" 2>&1; then
    rm -f "$pwfile.tmp"
    echo "pglib: initdb failed:" >&2
    cat "$log" >&2
    return 1
  fi
  rm -f "$pwfile.tmp"
  # Loopback only, both address families' loopback lines are already in
  # pg_hba.conf; the server listens on 127.0.0.1 alone (see pglib_start).
  return 0
}

# pglib_conf DATADIR LINE...: append settings to the server's configuration.
pglib_conf() {
  local dir=$1
  shift
  local line
  for line in "$@"; do
    printf '%s\n' "$line" >>"$dir/data/postgresql.conf"
  done
}

# pglib_start DATADIR [PORT]: start the server on PORT (or on a free port,
# retrying a few times if another process takes it first), wait until it
# accepts connections, and print the port.
pglib_start() {
  local dir=$1 want=${2:-} bindir port
  bindir=$(pglib_bindir) || return 1
  for _ in 1 2 3 4 5; do
    if [[ -n $want ]]; then
      port=$want
    else
      port=$(pglib_free_port) || return 1
    fi
    if pglib_as_server_user "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" \
        -w -t 60 -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir" \
        start >"$dir/.pg_ctl.log" 2>&1; then
      printf '%s\n' "$port" >"$dir/.port"
      printf '%s\n' "$port"
      return 0
    fi
    if [[ -n $want ]] || ! grep -q 'could not bind\|Address already in use' "$dir/server.log" 2>/dev/null; then
      break
    fi
  done
  echo "pglib: server in $dir did not start:" >&2
  cat "$dir/.pg_ctl.log" >&2
  tail -n 30 "$dir/server.log" >&2 2>/dev/null
  return 1
}

# pglib_stop DATADIR [MODE]: stop the server (mode immediate by default). A
# server whose pg_ctl cannot stop it is killed through postmaster.pid. Safe
# to call when nothing runs.
pglib_stop() {
  local dir=$1 mode=${2:-immediate} bindir pid
  [[ -f $dir/data/postmaster.pid ]] || return 0
  bindir=$(pglib_bindir) || return 1
  if pglib_as_server_user "$bindir/pg_ctl" -D "$dir/data" -m "$mode" -w -t 30 stop \
      >/dev/null 2>&1; then
    return 0
  fi
  pid=$(head -n 1 "$dir/data/postmaster.pid" 2>/dev/null)
  if [[ $pid =~ ^[0-9]+$ ]] && [[ $(cat "/proc/$pid/comm" 2>/dev/null) == postgres ]]; then
    kill -KILL "$pid" 2>/dev/null
    # Children exit when their postmaster dies; give them a moment.
    for _ in $(seq 1 50); do
      [[ -d /proc/$pid ]] || break
      sleep 0.1
    done
  fi
  rm -f "$dir/data/postmaster.pid"
  return 0
}

# pglib_is_datadir PATH: true when PATH looks like a directory made by
# pglib_make_datadir (guards rm -rf against a path read from a stale file).
pglib_is_datadir() {
  local path=$1
  [[ -d $path && $(basename "$path") == gcodbc-pg.* ]]
}

# pglib_remove_datadir DATADIR: stop whatever runs there and delete it.
pglib_remove_datadir() {
  local dir=$1
  if ! pglib_is_datadir "$dir"; then
    echo "pglib: refusing to remove $dir: not a pglib data directory" >&2
    return 1
  fi
  pglib_stop "$dir" || true
  rm -rf -- "$dir"
}

# pglib_conninfo PORT USER PASSWORD DBNAME: a libpq conninfo over TCP.
pglib_conninfo() {
  printf 'host=127.0.0.1 port=%s user=%s password=%s dbname=%s\n' "$1" "$2" "$3" "$4"
}

# pglib_psql_admin DATADIR DBNAME [psql args...]: run psql as the superuser
# through the server's private unix socket (trust), stopping at the first
# error, quiet.
pglib_psql_admin() {
  local dir=$1 db=$2
  shift 2
  local port
  port=$(cat "$dir/.port") || return 1
  pglib_as_server_user psql -X -q -v ON_ERROR_STOP=1 -h "$dir" -p "$port" \
    -U postgres -d "$db" "$@"
}
