#!/usr/bin/env bash
# build.sh BUILD_DIR [cmake options...]: configure and build gcodbc with
# everything (driver, tests, examples, benchmarks) into BUILD_DIR.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:?usage: build.sh BUILD_DIR [cmake options...]}
shift
jobs=${GC_JOBS:-$(nproc)}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="${GC_BUILD_TYPE:-RelWithDebInfo}" "$@"
cmake --build "$build" -j "$jobs"
