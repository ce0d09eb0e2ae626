#!/usr/bin/env bash
# Where `chariot bench`'s time goes, not its instructions: samples the search with `perf record`
# on the software clock (no hardware counters needed, so it works in VMs that hide them) and
# prints each function's share of the samples and the instructions the most samples landed
# after. A load that waits for memory shows up as a pile of samples on the instruction after it;
# the pile overstates the loss, since the instructions behind the load run while it waits (the
# hash probes draw about a fifth of the samples, yet a table that fits in cache saves about 3%).
# Usage: perf/search_cycles.sh [RUNS] [DEPTH] (defaults 3 runs of bench's own depth).
# Output: perf/out/cycles.data (open it with `perf report -i` or `perf annotate -i`).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v perf >/dev/null || { echo "error: perf not found (install linux-perf / linux-tools)" >&2; exit 1; }
runs="${1:-3}"
depth="${2:-}"
cargo build --release --bin chariot
mkdir -p perf/out
data=perf/out/cycles.data
# 20 kHz on cpu-clock: about 20,000 samples a second of search.
perf record -q -e cpu-clock -F 20000 -o "$data" -- \
  bash -c "for _ in \$(seq $runs); do target/release/chariot bench $depth >/dev/null; done"
echo "== functions (self samples; memset and page clearing are the hash table's clearing between positions, outside bench's clock)"
perf report -i "$data" --no-children --sort sym --stdio 2>/dev/null | grep -E "^ +[0-9]" | sed -n 1,20p
for function in negamax qsearch; do
  echo "== chariot::search::worker::Worker::$function: hottest instructions (share of its samples)"
  perf annotate -i "$data" --stdio -s "chariot::search::worker::Worker::$function" 2>/dev/null |
    grep -E "^ +[0-9]+\.[0-9]+ :" | sort -rn | sed -n 1,5p
done
