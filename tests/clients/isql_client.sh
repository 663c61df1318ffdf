#!/usr/bin/env bash
# isql_client.sh: unixODBC's isql, a real ODBC application, against the DSN
# in GC_TEST_DSN: connect, create a table, insert (SQL-level prepared
# statement with parameters: isql itself binds none), select it back, roll an
# ODBC transaction back (\noac, \rollback), commit one (\commit), and report a
# server error with its SQLSTATE.
#
# GC_TEST_GLOBAL=1 (set by the global fixture, docs/testing.md): the DSN is a
# global connection, which refuses SQL-level PREPARE/EXECUTE (they live in
# one server session). The rows then go in with plain INSERTs, and the test
# checks instead that isql reports the refusal of a PREPARE as 0A000.
set -euo pipefail

dsn=${GC_TEST_DSN:?GC_TEST_DSN names the DSN to test}
: "${ODBCSYSINI:?ODBCSYSINI must name the fixture state dir}"
table="client_isql_${dsn}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

global=${GC_TEST_GLOBAL:-0}
# insert ID NAME: the statement that inserts one row.
insert() {
  if [[ $global == 1 ]]; then
    echo "INSERT INTO $table VALUES ($1, '$2');"
  else
    echo "EXECUTE ins_$table($1, '$2');"
  fi
}
prepare="PREPARE ins_$table(int, text) AS INSERT INTO $table VALUES (\$1, \$2);"
# -n: statements end with ';' and isql's \ commands are understood;
# -b: batch mode (no prompts); -d'|': plain delimited rows, no boxes.
cat >"$work/script.sql" <<SQL
DROP TABLE IF EXISTS $table;
CREATE TABLE $table (id int PRIMARY KEY, name text NOT NULL);
$prepare
$(insert 1 one)
$(insert 2 two)
SELECT id, name FROM $table ORDER BY id;
\noac
$(insert 3 three)
SELECT 'in transaction', count(*) FROM $table;
\rollback
\ac
SELECT 'after rollback', count(*) FROM $table;
\noac
INSERT INTO $table VALUES (4, 'four');
\commit
\ac
SELECT id, name FROM $table ORDER BY id;
SELECT 1/0;
DROP TABLE $table;
SQL

cat >"$work/expected" <<OUT
1|one
2|two
in transaction|3
after rollback|2
1|one
2|two
4|four
OUT

status=0
isql -v -n -b -d'|' "$dsn" <"$work/script.sql" >"$work/stdout" 2>"$work/stderr" || status=$?

fail() {
  echo "FAIL: $*" >&2
  echo "--- isql exit status: $status" >&2
  echo "--- isql stdout:" >&2; cat "$work/stdout" >&2
  echo "--- isql stderr:" >&2; cat "$work/stderr" >&2
  exit 1
}

[[ $status -eq 0 ]] || fail "isql could not run the script (connect failed?)"
# Data rows are the lines that are not diagnostics ([SQLSTATE]... and the
# continuation lines psqlODBC adds to its messages).
grep -v -e '^\[' -e '^Error while' "$work/stdout" >"$work/rows" || true
diff -u "$work/expected" "$work/rows" >"$work/diff" || fail "rows differ from expected: $(cat "$work/diff")"
grep -q '^\[22012\]' "$work/stdout" || fail "division by zero did not report SQLSTATE 22012"
errors=$(grep -c 'ERROR: Could not' "$work/stderr" || true)
if [[ $global == 1 ]]; then
  grep -q '^\[0A000\].*PREPARE' "$work/stdout" || fail "PREPARE was not refused with 0A000"
  [[ $errors -eq 2 ]] || fail "expected exactly two failed statements (PREPARE, 1/0), isql reported $errors"
else
  [[ $errors -eq 1 ]] || fail "expected exactly one failed statement (1/0), isql reported $errors"
fi
echo "PASS: isql against $dsn: create, prepared insert, select, rollback, commit, SQLSTATE"
