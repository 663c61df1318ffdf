#!/usr/bin/env bash
# isql_client.sh: unixODBC's isql, a real ODBC application, against the DSN
# in GC_TEST_DSN: connect, create a table, insert (SQL-level prepared
# statement with parameters: isql itself binds none), select it back, roll an
# ODBC transaction back (\noac, \rollback), commit one (\commit), and report a
# server error with its SQLSTATE.
set -euo pipefail

dsn=${GC_TEST_DSN:?GC_TEST_DSN names the DSN to test}
: "${ODBCSYSINI:?ODBCSYSINI must name the fixture state dir}"
table="client_isql_${dsn}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# -n: statements end with ';' and isql's \ commands are understood;
# -b: batch mode (no prompts); -d'|': plain delimited rows, no boxes.
cat >"$work/script.sql" <<SQL
DROP TABLE IF EXISTS $table;
CREATE TABLE $table (id int PRIMARY KEY, name text NOT NULL);
PREPARE ins_$table(int, text) AS INSERT INTO $table VALUES (\$1, \$2);
EXECUTE ins_$table(1, 'one');
EXECUTE ins_$table(2, 'two');
SELECT id, name FROM $table ORDER BY id;
\noac
EXECUTE ins_$table(3, 'three');
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
[[ $errors -eq 1 ]] || fail "expected exactly one failed statement (1/0), isql reported $errors"
echo "PASS: isql against $dsn: create, prepared insert, select, rollback, commit, SQLSTATE"
