#!/usr/bin/env bash
# Profiles `chariot bench DEPTH` (default 8) under callgrind, counting only the searches (not the
# hash-table clearing between positions), and prints instructions per node and the hottest
# functions. Instruction counts do not depend on machine load, so this is the way to compare
# two versions of the search on a busy machine (wall-clock nps is not).
# Usage: perf/search_callgrind.sh [DEPTH [BENCH ARGS...]] (e.g. `8 --classical` or
# `8 --eval-file NET`). Output: perf/out/callgrind.bench<DEPTH>.out
set -euo pipefail
cd "$(dirname "$0")/.."
depth="${1:-8}"
shift || true
source perf/callgrind_setup.sh
out="perf/out/callgrind.bench${depth}.out"
log="perf/out/callgrind.bench${depth}.log"
nodes=$(valgrind --tool=callgrind --toggle-collect='chariot::search::search' \
  --callgrind-out-file="$out" target/release/chariot bench "$depth" "$@" 2>"$log" | tail -n 1 | awk '{print $1}')
instructions=$(grep -E 'I +refs' "$log" | awk '{print $NF}' | tr -d ,)
echo "bench $depth: $nodes nodes, $instructions instructions in search, $((instructions / nodes)) per node"
callgrind_annotate --inclusive=yes "$out" 2>/dev/null | grep -v '^ *$' | sed -n '20,60p'
