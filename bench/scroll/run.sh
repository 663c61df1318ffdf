#!/usr/bin/env bash
# run.sh: the scroll benchmark. Starts its own PostgreSQL server, creates a
# table of 100,000 rows, and through the unixODBC driver manager opens a
# static cursor on all of it, fetches row by row to the end and back to the
# start, with
#   gcodbc    this build's driver
#   psqlODBC  Debian's odbc-postgresql (its defaults: the whole result read
#             at execution, UseDeclareFetch=0)
# interleaving the two over several repetitions (one process per run), and
# prints the median time, peak memory growth and client CPU of each. A
# benchmark, not a test: it asserts nothing about speed.
#
#   bench/scroll/run.sh [BUILD_DIR]     (default: build)
#   environment: ROWS (table rows, 100000), REPS (repetitions, 5),
#                SCROLL_CURSOR=keyset (a keyset-driven cursor instead: every
#                fetch re-reads its row by key, one round trip each)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
rows=${ROWS:-100000}
reps=${REPS:-5}
bin="$build/bench/scroll/bench_scroll"
[[ -x $bin ]] || { echo "run.sh: $bin not built (cmake --build $build --target bench_scroll)" >&2; exit 1; }

source "$here/../bench_server.sh"

psql -X -q -v ON_ERROR_STOP=1 -d "$conninfo" <<SQL
CREATE TABLE bench_items (id int PRIMARY KEY, name text NOT NULL, qty int NOT NULL);
INSERT INTO bench_items SELECT g, 'item ' || g, g % 1000 FROM generate_series(1, $rows) g;
VACUUM ANALYZE bench_items;
SQL

declare -A target=(
  [gcodbc]="DSN=gcodbc_test"
  [psqlODBC]="DSN=psqlodbc_test"
)
clients=(gcodbc psqlODBC)
declare -A seconds=() kib=() cpu=() unavailable=()

for _ in $(seq 1 "$reps"); do
  for client in "${clients[@]}"; do
    [[ -z ${unavailable[$client]:-} ]] || continue
    if out=$("$bin" "${target[$client]}" "$rows" 2>"$state/err.$client"); then
      read -r s k c <<<"$out"
      seconds[$client]+="$s "
      kib[$client]+="$k "
      cpu[$client]+="$c "
    else
      unavailable[$client]=1
      echo "run.sh: $client failed; leaving it out:" >&2
      sed 's/^/  /' "$state/err.$client" | head -n 5 >&2
    fi
  done
done

# median, ratio
source "$here/../bench_stats.sh"

server_version=$(psql -X -At -d "$conninfo" -c 'show server_version')
echo
echo "scroll: a ${SCROLL_CURSOR:-static} cursor on $rows rows (int, text, int), fetched one row at a time"
echo "to the end (SQL_FETCH_NEXT) and back (SQL_FETCH_PRIOR); $reps runs, medians;"
echo "PostgreSQL $server_version on loopback, $(nproc) cores"
printf '%-10s %12s %18s %16s\n' client seconds "peak memory KiB" "client CPU s"
for client in "${clients[@]}"; do
  printf '%-10s %12s %18s %16s\n' "$client" "$(median <<<"${seconds[$client]:-}")" \
    "$(median <<<"${kib[$client]:-}")" "$(median <<<"${cpu[$client]:-}")"
done
g=$(median <<<"${seconds[gcodbc]:-}"); p=$(median <<<"${seconds[psqlODBC]:-}")
gm=$(median <<<"${kib[gcodbc]:-}"); pm=$(median <<<"${kib[psqlODBC]:-}")
echo "gcodbc/psqlODBC: time $(ratio "$g" "$p"), memory $(ratio "$gm" "$pm")"
