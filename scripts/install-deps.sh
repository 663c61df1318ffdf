#!/usr/bin/env bash
# install-deps.sh: install the Debian packages gcodbc needs to build, test and
# run its demo, and only those that are missing. Runs apt-get update first
# when something must be installed; uses sudo only when not root.
set -euo pipefail

packages=(
  build-essential cmake pkg-config          # toolchain
  libpq-dev unixodbc unixodbc-dev           # libpq, the unixODBC driver manager, isql
  libssl-dev libyaml-dev libcmocka-dev      # OpenSSL, libyaml, CMocka unit tests
  postgresql-15 postgresql-contrib          # test servers, pg_stat_statements
  postgresql-15-auto-failover               # pg_autoctl: groups that fail over by themselves (ha: true)
  odbc-postgresql                           # psqlODBC: the baseline driver
  python3-pyodbc libdbd-odbc-perl           # client tests: pyodbc, Perl DBD::ODBC
  clang libclang-rt-14-dev                  # the fuzzer (libFuzzer)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
    missing+=("$p")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
as_root=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps: not root and no sudo; install: ${missing[*]}" >&2; exit 1; }
  as_root=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update
"${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
