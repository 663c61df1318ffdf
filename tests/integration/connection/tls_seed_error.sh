#!/bin/bash
# tls_seed_error.sh DRIVER_SO TEST_CONNECT_ERROR: a global connection whose
# seed's TLS certificate does not verify reports the certificate error (08001,
# "certificate verify failed"), not "no seed server answered ... (no answer)";
# a host name the certificate does not name says so too. With the right root
# certificate the same seed is reached (and lacks a cluster catalog), which
# shows the TLS setup itself works. Starts its own PostgreSQL with ssl = on
# and a self-signed certificate for "localhost".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../../support/pglib.sh
source "$here/../../support/pglib.sh"
driver=$1
check=$2

password=$(pglib_random_secret)
dir=$(pglib_make_datadir)
certs=$(mktemp -d)
cleanup() {
  pglib_stop "$dir"
  pglib_remove_datadir "$dir"
  rm -rf "$certs"
}
trap cleanup EXIT
pglib_initdb "$dir" "$password"

# The server's certificate (self-signed, CN=localhost), and another CA.
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost \
  -keyout "$certs/server.key" -out "$certs/server.crt" 2>/dev/null
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=other-ca \
  -keyout "$certs/other.key" -out "$certs/other.crt" 2>/dev/null
cp "$certs/server.crt" "$certs/server.key" "$dir/data/"
if [[ $(id -u) -eq 0 ]]; then
  chown "$(pglib_server_user):" "$dir/data/server.crt" "$dir/data/server.key"
fi
chmod 600 "$dir/data/server.key"
pglib_conf "$dir" "ssl = on"
port=$(pglib_start "$dir")

base="Driver=$driver;GlobalConnection=Yes;UID=postgres;PWD=$password;Database=postgres"
base="$base;ConnectTimeout=10;SSLMode=verify-full"

echo "== a root certificate that did not sign the server's"
"$check" "$base;Servers=localhost:$port;SSLRootCert=$certs/other.crt" \
  08001 "certificate verify failed" "no seed server answered"
echo "== the right root certificate, a host name the certificate does not name"
"$check" "$base;Servers=127.0.0.1:$port;SSLRootCert=$certs/server.crt" \
  08001 "does not match host name" "no seed server answered"
echo "== the right root certificate and name: TLS works, the catalog is missing"
"$check" "$base;Servers=localhost:$port;SSLRootCert=$certs/server.crt" \
  08001 "needs a cluster catalog" "TLS"
