#!/usr/bin/env bash
# instructions.sh: client instructions per execute of the prepared point
# SELECT (one bound bigint key, one row fetched into two bound columns,
# SQLFreeStmt(SQL_CLOSE)) on the general path, the global path and raw
# libpq, counted by callgrind: the deterministic measure of the driver's
# own cost per statement (docs/performance.md, "Instructions per execute").
# Then the same split by layer (driver manager, driver, libpq, each with
# the system libraries it calls) and by object, the driver manager's own
# share of each ODBC call, and the floor under any driver: the driver
# manager's share plus a raw libpq client's whole operation (libpq-owner;
# libpq-singlerow reading in single-row mode as a driver that streams
# must; libpq-returning writing as a driver that carries the write's
# transaction id must). A thin front to run.sh's INSTRUCTIONS mode, which
# brings up its own 3 x 2 cluster and takes it down on exit.
#
#   bench/global_ops/instructions.sh [BUILD_DIR]     (default: build)
#   environment: OPERATIONS ("select"; also update, alternate, getdata:
#                  the SELECT read with SQLGetData),
#                INSTRUCTION_OPS (2000: the count is the difference between
#                  that many executes and a fifth of them),
#                BASELINE_DRIVER (another build's libgcodbc.so: its general
#                  and global paths are counted too, as baseline-one and
#                  baseline-global),
#                CLIENTS (which; default every client above and global-nores),
#                CALLGRIND_DIR (keep the profiles, for callgrind_annotate)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
raw="libpq-owner libpq-singlerow libpq-returning"
clients="gcodbc-one gcodbc-global global-nores $raw"
[[ -n ${BASELINE_DRIVER:-} ]] &&
  clients="baseline-one gcodbc-one baseline-global gcodbc-global global-nores $raw"
INSTRUCTIONS=1 SYSCALLS=0 CLIENTS="${CLIENTS:-$clients}" OPERATIONS="${OPERATIONS:-select}" \
  INSTRUCTION_OPS="${INSTRUCTION_OPS:-2000}" exec "$here/run.sh" "$@"
