#!/bin/bash
# Fixture: the test cluster (2 groups x 2 members) comes up in under 30 s.
# usage: demo_up.sh GCCTL SPEC DIR
GCCTL=$1
SPEC=$2
DIR=$3
source "$(dirname "$0")/lib.sh"
"$GCCTL" local down --dir "$DIR" >/dev/null 2>&1 || true   # left over from an aborted run
start=$(date +%s.%N)
"$GCCTL" local up "$SPEC" --dir "$DIR" || fail "local up"
secs=$(echo "$(date +%s.%N) - $start" | bc)
echo "local up: 4 members ready in ${secs} s"
(( $(echo "$secs < 30" | bc) )) || fail "local up took ${secs} s (limit 30 s)"
for f in cluster.yaml locator.yaml odbc.ini odbcinst.ini; do
    [ -s "$DIR/$f" ] || fail "$DIR/$f missing"
done
grep -q '^\[demo\]' "$DIR/odbc.ini" || fail "odbc.ini has no DSN demo"
grep -q '^GlobalConnection = Yes' "$DIR/odbc.ini" || fail "odbc.ini lacks GlobalConnection"
grep -q "^Locator = .*/locator.yaml" "$DIR/odbc.ini" || fail "odbc.ini lacks Locator"
[ "$(members | wc -l)" -eq 4 ] || fail "locator.yaml does not list 4 members"
echo PASS
