#!/bin/bash
# Secrets stay private. gcctl local up makes DIR and its missing parents (as
# mkdir -p), DIR 0700, and the files holding a password (cluster.yaml,
# odbc.ini) 0600, whatever the umask; apply and promote keep the mode a file
# has. The application role's password reaches neither pg_stat_statements
# nor the server log in plain text: CREATE/ALTER ROLE sends a SCRAM verifier,
# and the user mapping (postgres_fdw needs the password itself) runs
# unrecorded.
# usage: secrets.sh GCCTL SPEC ROOT
GCCTL=$1
SPEC=$2
ROOT=$3
DIR=$ROOT/missing/parents/cluster
source "$(dirname "$0")/lib.sh"
pw1=first-Secret-4711
pw2=second-Secret-4712

"$GCCTL" local down --dir "$DIR" >/dev/null 2>&1 || true
rm -rf "$ROOT"
work=$(mktemp -d)
sed "s/^password: app$/password: $pw1/" "$SPEC" >"$work/one.yaml"
grep -q "^password: $pw1$" "$work/one.yaml" || fail "the test spec has no password line to change"
umask 022   # the usual umask, which lets others read what it does not restrict
own_cluster "$work/one.yaml"
trap '"$GCCTL" local down --dir "$DIR" >/dev/null 2>&1 || true; rm -rf "$work" "$ROOT"' EXIT
export PGPASSWORD=$pw1

# mode_is FILE MODE WHEN: FILE's permission bits are MODE.
mode_is() {
    local got
    got=$(stat -c %a "$1")
    [ "$got" = "$2" ] || fail "$3: $1 has mode $got, expected $2"
}
mode_is "$DIR" 700 "local up"
mode_is "$DIR/cluster.yaml" 600 "local up"
mode_is "$DIR/odbc.ini" 600 "local up"
mode_is "$ROOT/missing/parents" 755 "local up (a parent made as mkdir -p makes it)"
grep -q "^PWD = $pw1$" "$DIR/odbc.ini" || fail "odbc.ini does not hold the password"
echo "ok: local up made the missing parents; DIR 0700, cluster.yaml and odbc.ini 0600"

# From here every statement the primaries run is logged.
base=$(sed -n 's/^base: //p' "$DIR/local.state")
for m in G1N1 G2N1; do
    su_sql "$m" "ALTER SYSTEM SET log_statement = 'all'" >/dev/null
    su_sql "$m" "SELECT pg_reload_conf()" >/dev/null
done
sleep 1

# A new password: apply changes the role (ALTER ROLE) and the user mappings.
sed "s/^password: .*/password: $pw2/" "$work/one.yaml" >"$work/two.yaml"
out=$("$GCCTL" apply "$work/two.yaml" --dir "$DIR" 2>&1) || fail "apply with a new password: $out"
export PGPASSWORD=$pw2
mode_is "$DIR/cluster.yaml" 600 "apply"
mode_is "$DIR/odbc.ini" 600 "apply"
grep -q "^PWD = $pw2$" "$DIR/odbc.ini" || fail "apply did not write the new password to odbc.ini"
# accounts has shards on both groups: reading it on G1N1 goes through the
# user mapping to G2, so the mapping holds the new password.
sql G1N1 "SELECT count(*) FROM accounts" >/dev/null
[ "$(su_sql G1N1 "SELECT rolpassword LIKE 'SCRAM-SHA-256\$%' FROM pg_authid WHERE rolname = 'app'")" = t ] ||
    fail "the role's password is not a SCRAM verifier"
echo "ok: apply set the new password (a SCRAM verifier) and the user mappings; modes kept"

# chmod by the user, then promote rewrites cluster.yaml: the mode stays.
chmod 640 "$DIR/cluster.yaml"
"$GCCTL" local stop-member G1N1 --dir "$DIR" --mode immediate || fail "stop-member G1N1"
"$GCCTL" promote G1N2 --dir "$DIR" || fail "promote G1N2"
mode_is "$DIR/cluster.yaml" 640 "promote"
mode_is "$DIR/odbc.ini" 600 "promote"
sed -n 's/.*name: \([A-Za-z0-9_]*\), group: G1,.*/\1/p' "$DIR/cluster.yaml" | head -1 | grep -qx G1N2 ||
    fail "promote did not rewrite cluster.yaml"
echo "ok: promote rewrote cluster.yaml and kept its mode 0640"

# pg_stat_statements records gcctl's utility statements (GRANT is run on
# every apply) but no statement holding either password; nor does the log.
for m in G1N2 G2N1; do
    [ "$(su_sql "$m" "SELECT count(*) > 0 FROM pg_stat_statements WHERE query LIKE 'GRANT USAGE ON FOREIGN SERVER%'")" = t ] ||
        fail "$m: pg_stat_statements records no utility statement of gcctl; the check below would prove nothing"
    leaked=$(su_sql "$m" "SELECT string_agg(query, ' | ') FROM pg_stat_statements WHERE query LIKE '%Secret-471%'")
    [ -z "$leaked" ] || fail "$m: pg_stat_statements holds a password: $leaked"
done
grep -q "GRANT USAGE ON FOREIGN SERVER" "$base"/logs/G1N1.server.log ||
    fail "the server log records no statement of gcctl; the check below would prove nothing"
# The whole passwords: the query above, logged too, holds only a part.
if grep -qE "$pw1|$pw2" "$base"/logs/*.log; then
    fail "a server log holds a password: $(grep -hE "$pw1|$pw2" "$base"/logs/*.log | head -3)"
fi
echo "ok: neither password is in pg_stat_statements or a server log"
echo PASS
