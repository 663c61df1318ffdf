#!/usr/bin/env bash
# test.sh: install missing Debian packages, build, and run every test with
# ctest, twice: a normal build (warnings are errors) and a build with
# AddressSanitizer and UndefinedBehaviorSanitizer (-DGC_SANITIZE=ON).
#
#   ./scripts/test.sh
#   environment: GC_BUILD_DIR (default build), GC_ASAN_BUILD_DIR (default
#   build-asan), GC_SKIP_SANITIZE=1 (normal build only), GC_JOBS,
#   GC_CTEST_ARGS (extra ctest arguments, e.g. "-R client_"),
#   GC_NORMAL_MINUTES / GC_SANITIZE_MINUTES (each suite's bound, default 40
#   and 30: with the builds, the whole run stays inside CI's 90 minutes)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${GC_BUILD_DIR:-$root/build}
asan_build=${GC_ASAN_BUILD_DIR:-$root/build-asan}
jobs=${GC_JOBS:-$(nproc)}
read -r -a extra <<<"${GC_CTEST_ARGS:-}"

"$root/scripts/install-deps.sh"

# run_ctest NAME BUILD_DIR MINUTES [CTEST ARGS...]: run the suite; prints
# ctest's summary line. Tests with private clusters take slots of the
# resource file (tests/support/resources.json: a heavy cluster runs alone).
# No test runs past MINUTES from now (ctest --stop-time): when a slow or
# broken machine stretches the suite, it ends with the tests it could not
# finish named as failed, and the steps after it still get their time,
# instead of the whole run being cut off with nothing reported.
run_ctest() {
  local name=$1 dir=$2 minutes=$3 status=0 stop
  shift 3
  stop=$(date -d "+$minutes minutes" +%H:%M:%S)
  echo "== ctest: $name build (no test runs past $stop, $minutes minutes)"
  (cd "$dir" && ctest --output-on-failure --timeout 900 --stop-time "$stop" -j "$jobs" \
    --resource-spec-file "$root/tests/support/resources.json" "$@" "${extra[@]}") || status=$?
  return "$status"
}

failed=()

echo "== building ($build)"
"$root/scripts/build.sh" "$build"
run_ctest normal "$build" "${GC_NORMAL_MINUTES:-40}" || failed+=(normal)

if [[ ${GC_SKIP_SANITIZE:-0} != 1 ]]; then
  echo "== building with AddressSanitizer + UndefinedBehaviorSanitizer ($asan_build)"
  GC_BUILD_TYPE=Debug "$root/scripts/build.sh" "$asan_build" -DGC_SANITIZE=ON
  # Leaks in our code fail the tests; lsan.supp names third-party ones only.
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1
  export LSAN_OPTIONS=suppressions=$root/tests/support/lsan.supp:print_suppressions=0
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  # Not the tests that wait on pg_auto_failover's own timing (label
  # pg_auto_failover, docs/testing.md): minutes each, and their driver paths
  # are the by-hand failover tests' too.
  run_ctest sanitize "$asan_build" "${GC_SANITIZE_MINUTES:-30}" -LE pg_auto_failover || failed+=(sanitize)
fi

# ---- fuzz step (owner: analyzer) --------------------------------------
# The libFuzzer targets need clang: a clang build of only the fuzz targets,
# in its own directory, each run by ctest for a bounded time (about 20 s).
#   environment: GC_FUZZ_BUILD_DIR (default build-fuzz), GC_SKIP_FUZZ=1
if [[ ${GC_SKIP_FUZZ:-0} != 1 ]]; then
  fuzz_build=${GC_FUZZ_BUILD_DIR:-$root/build-fuzz}
  echo "== building fuzz targets with clang ($fuzz_build)"
  if CC=clang cmake -S "$root" -B "$fuzz_build" -DCMAKE_BUILD_TYPE=Debug -DGC_BUILD_TESTS=ON &&
     cmake --build "$fuzz_build" -j "$jobs" --target fuzz_targets; then
    echo "== ctest: fuzz targets"
    (cd "$fuzz_build" && ctest --output-on-failure -R fuzz -j "$jobs") || failed+=(fuzz)
  else
    failed+=(fuzz)
  fi
fi
# ---- end of fuzz step --------------------------------------------------

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "== test.sh: FAILED in: ${failed[*]}"
  exit 1
fi
echo "== test.sh: all tests passed"
