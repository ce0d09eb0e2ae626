#!/usr/bin/env bash
# Profiles `chariot perft DEPTH` (default 4) under callgrind and prints the hottest functions.
# Usage: perf/callgrind.sh [DEPTH]. Output: perf/out/callgrind.perft<DEPTH>.out (open it with
# kcachegrind or callgrind_annotate for line-level detail).
set -euo pipefail
cd "$(dirname "$0")/.."
depth="${1:-4}"
source perf/callgrind_setup.sh
out="perf/out/callgrind.perft${depth}.out"
valgrind --tool=callgrind --callgrind-out-file="$out" target/release/chariot perft "$depth"
callgrind_annotate --inclusive=no "$out" | head -n 40
